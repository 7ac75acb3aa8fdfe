// Bundles the analyzer (platform-neutral ESM) and the CLI (Node ESM) with esbuild.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';

// The CLI stamps every record with these; keep the hash in step with analyzerVersion() in src/cli/version.ts.
const pkgVersion = JSON.parse(readFileSync('package.json', 'utf8')).version;
const h = createHash('sha256');
for (const f of readdirSync('src/analyzer').filter((n) => n.endsWith('.ts')).sort()) {
  h.update(f + '\0');
  h.update(readFileSync(`src/analyzer/${f}`));
  h.update('\0');
}
const analyzerVersion = `${pkgVersion}+${h.digest('hex').slice(0, 10)}`;

mkdirSync('dist', { recursive: true });
const common = { bundle: true, sourcemap: true, target: 'es2022', logLevel: 'warning', legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: ['src/analyzer/index.ts'], outfile: 'dist/analyzer/index.js', format: 'esm', platform: 'neutral', mainFields: ['module', 'main'] }),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    format: 'esm',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
    define: { __PKG_VERSION__: JSON.stringify(pkgVersion), __ANALYZER_VERSION__: JSON.stringify(analyzerVersion) },
  }),
]);
chmodSync('dist/cli.js', 0o755);
