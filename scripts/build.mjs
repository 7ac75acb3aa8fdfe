// Bundles the analyzer (platform-neutral ESM) and the CLI (Node ESM) with esbuild, and writes the analyzer's type
// declarations (from its layer project, src/analyzer/tsconfig.json) beside its bundle for
// `import … from 'pdf-page-diagnostics/analyzer'`. The benchmark's floor (src/analyzer/floor.ts, not part of the
// library's API) gets its own bundle, dist/bench/floor.js, which neither the npm package nor the .vsix ships.
// Third-party code (@noble/*) is bundled, its licence comments kept at the end of each file; the inputs of every bundle
// go to dist/meta/*.json, from which scripts/notices.mjs writes THIRD_PARTY_NOTICES.md.
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, sep } from 'node:path';
import { promisify } from 'node:util';

// The CLI stamps every record with these; keep the hash in step with analyzerVersion() in src/cli/version.ts.
const pkgVersion = JSON.parse(readFileSync('package.json', 'utf8')).version;
const h = createHash('sha256');
// every .ts file below src/analyzer (layerQuality/ too), by sorted relative path: as src/cli/version.ts does
for (const f of readdirSync('src/analyzer', { recursive: true })
  .map((n) => n.split('\\').join('/'))
  .filter((n) => n.endsWith('.ts'))
  .sort()) {
  h.update(f + '\0');
  h.update(readFileSync(`src/analyzer/${f}`));
  h.update('\0');
}
const analyzerVersion = `${pkgVersion}+${h.digest('hex').slice(0, 10)}`;

for (const d of ['dist/analyzer', 'dist/bench']) rmSync(d, { recursive: true, force: true });
mkdirSync('dist/meta', { recursive: true });
/**
 * The CLI loads the library's bundle (dist/analyzer/index.js, beside it) instead of a copy of its own: every analyzer
 * module the CLI and the shared code reach is imported through the library's public entry (a build error otherwise),
 * so the npm package holds the analyzer, its decoders and its language models once.
 */
const sharedAnalyzer = {
  name: 'shared-analyzer',
  setup(b) {
    b.onResolve({ filter: /\/analyzer\// }, (args) => {
      if (args.importer.includes(`${sep}src${sep}analyzer${sep}`)) return undefined;
      // the module's path inside the analyzer: a top-level module the entry re-exports, or anything deeper
      const name = args.path.slice(args.path.lastIndexOf('/analyzer/') + '/analyzer/'.length);
      if (!['options', 'serialize', 'analyze', 'types', 'index'].includes(name)) {
        return {
          errors: [{ text: `the CLI imports analyzer/${name}, which the library's entry does not export: import it through src/analyzer/index.ts` }],
        };
      }
      return { path: './analyzer/index.js', external: true };
    });
  },
};
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
    plugins: [sharedAnalyzer],
    banner: { js: '#!/usr/bin/env node' },
    define: { __PKG_VERSION__: JSON.stringify(pkgVersion), __ANALYZER_VERSION__: JSON.stringify(analyzerVersion) },
  }),
  build({
    ...common,
    metafile: false,
    entryPoints: ['src/analyzer/floor.ts'],
    outfile: 'dist/bench/floor.js',
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
  }),
  declarations(),
]);
chmodSync('dist/cli.js', 0o755);
writeFileSync('dist/meta/analyzer.json', JSON.stringify(lib.metafile));
writeFileSync('dist/meta/cli.json', JSON.stringify(cli.metafile));

/**
 * The analyzer's layer project emits a declaration for every module (`tsc -b`, up to date after npm run build's own
 * `tsc -b`, so cheap here); keep those index.d.ts reaches, and write relative specifiers with the .js extension (the
 * package is "type": "module": under moduleResolution node16/nodenext an extensionless './types' does not resolve, and
 * the exports would quietly become any).
 */
async function declarations() {
  const out = 'node_modules/.cache/tsc/src/analyzer'; // the outDir of src/analyzer/tsconfig.json (see tsconfig.base.json)
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-b', 'src/analyzer/tsconfig.json']).catch((e) => {
    throw new Error(`declarations (tsc -b src/analyzer/tsconfig.json) failed:\n${e.stdout}${e.stderr}`);
  });
  const spec = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g;
  const seen = new Set();
  const queue = ['index.d.ts'];
  while (queue.length) {
    const rel = queue.pop();
    if (seen.has(rel)) continue;
    seen.add(rel);
    const text = readFileSync(join(out, rel), 'utf8').replace(spec, (_, pre, q, s) => {
      const target = posix.join(posix.dirname(rel), s.replace(/\.js$/, ''));
      if (existsSync(join(out, `${target}.d.ts`))) queue.push(`${target}.d.ts`);
      else if (existsSync(join(out, target, 'index.d.ts'))) return (queue.push(`${target}/index.d.ts`), `${pre}${q}${s}/index.js${q}`);
      else throw new Error(`declarations: ${rel} imports ${s}, which tsc did not emit`);
      return `${pre}${q}${s.replace(/\.js$/, '')}.js${q}`;
    });
    mkdirSync(dirname(join('dist/analyzer', rel)), { recursive: true });
    writeFileSync(join('dist/analyzer', rel), text);
  }
}
