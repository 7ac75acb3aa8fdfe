// Bundles the analyzer (platform-neutral ESM) and the CLI (Node ESM) with esbuild, and emits the analyzer's type
// declarations (tsconfig.build.json) beside its bundle for `import … from 'pdf-page-diagnostics/analyzer'`.
// Third-party code (@noble/*) is bundled, its licence comments kept at the end of each file; the inputs of every bundle
// go to dist/meta/*.json, from which scripts/notices.mjs writes THIRD_PARTY_NOTICES.md.
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';

// The CLI stamps every record with these; keep the hash in step with analyzerVersion() in src/cli/version.ts.
const pkgVersion = JSON.parse(readFileSync('package.json', 'utf8')).version;
const h = createHash('sha256');
for (const f of readdirSync('src/analyzer')
  .filter((n) => n.endsWith('.ts'))
  .sort()) {
  h.update(f + '\0');
  h.update(readFileSync(`src/analyzer/${f}`));
  h.update('\0');
}
const analyzerVersion = `${pkgVersion}+${h.digest('hex').slice(0, 10)}`;

rmSync('dist/analyzer', { recursive: true, force: true });
mkdirSync('dist/meta', { recursive: true });
const common = { bundle: true, sourcemap: true, target: 'es2022', logLevel: 'warning', legalComments: 'eof', metafile: true };
const [lib, cli] = await Promise.all([
  build({
    ...common,
    entryPoints: ['src/analyzer/index.ts'],
    outfile: 'dist/analyzer/index.js',
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
  }),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    format: 'esm',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
    define: { __PKG_VERSION__: JSON.stringify(pkgVersion), __ANALYZER_VERSION__: JSON.stringify(analyzerVersion) },
  }),
  declarations(),
]);
chmodSync('dist/cli.js', 0o755);
writeFileSync('dist/meta/analyzer.json', JSON.stringify(lib.metafile));
writeFileSync('dist/meta/cli.json', JSON.stringify(cli.metafile));

/**
 * tsc emits a declaration for every module of the analyzer; keep those index.d.ts reaches, and write relative
 * specifiers with the .js extension (the package is "type": "module": under moduleResolution node16/nodenext an
 * extensionless './types' does not resolve, and the exports would quietly become any).
 */
async function declarations() {
  const tmp = mkdtempSync(join(tmpdir(), 'ppd-dts-'));
  try {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', tmp]).catch((e) => {
      throw new Error(`declarations (tsc -p tsconfig.build.json) failed:\n${e.stdout}${e.stderr}`);
    });
    const spec = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g;
    const seen = new Set();
    const queue = ['index.d.ts'];
    while (queue.length) {
      const rel = queue.pop();
      if (seen.has(rel)) continue;
      seen.add(rel);
      const text = readFileSync(join(tmp, rel), 'utf8').replace(spec, (_, pre, q, s) => {
        const target = posix.join(posix.dirname(rel), s.replace(/\.js$/, ''));
        if (existsSync(join(tmp, `${target}.d.ts`))) queue.push(`${target}.d.ts`);
        else if (existsSync(join(tmp, target, 'index.d.ts'))) return (queue.push(`${target}/index.d.ts`), `${pre}${q}${s}/index.js${q}`);
        else throw new Error(`declarations: ${rel} imports ${s}, which tsc did not emit`);
        return `${pre}${q}${s.replace(/\.js$/, '')}.js${q}`;
      });
      mkdirSync(dirname(join('dist/analyzer', rel)), { recursive: true });
      writeFileSync(join('dist/analyzer', rel), text);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
