// Bundles the VS Code extension with esbuild:
//   dist/extension.cjs            desktop extension host (node, CJS)
//   dist/analysisWorker.cjs       its analysis worker (node worker_threads)
//   dist/web/extension.cjs        web extension host (browser web worker, CJS; .cjs because package.json says
//                                 "type": "module" and the web host refuses what it takes for ESM)
//   dist/web/analysisWorker.js    its analysis worker (classic Web Worker, so a blob wrapper can importScripts it)
//   dist/webview/main.js|css      the page webview (ESM module script) with pdf.js
//   dist/webview/pdf.worker.min.mjs, cmaps/, standard_fonts/, wasm/openjpeg_nowasm_fallback.js, codicons/
// Licence comments of bundled code are kept at the end of each bundle; the inputs of every bundle go to
// dist/meta/extension.json, from which scripts/notices.mjs writes THIRD_PARTY_NOTICES.md (shipped in the .vsix).
// Usage: node scripts/build-extension.mjs [--dev]   (--dev: no minification, inline source maps)
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const dev = process.argv.includes('--dev');
const require = createRequire(import.meta.url);
const pdfjsRoot = dirname(require.resolve('pdfjs-dist/package.json'));
const codiconsRoot = dirname(require.resolve('@vscode/codicons/package.json'));

for (const d of ['dist/web', 'dist/webview']) rmSync(d, { recursive: true, force: true });
mkdirSync('dist/webview/codicons', { recursive: true });
mkdirSync('dist/webview/wasm', { recursive: true });
mkdirSync('dist/web', { recursive: true });

const common = {
  bundle: true,
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  target: 'es2022',
  logLevel: 'warning',
  legalComments: 'eof',
  metafile: true,
};

const results = await Promise.all([
  build({ ...common, entryPoints: ['src/extension/node.ts'], outfile: 'dist/extension.cjs', format: 'cjs', platform: 'node', external: ['vscode'] }),
  build({ ...common, entryPoints: ['src/extension/worker/nodeWorker.ts'], outfile: 'dist/analysisWorker.cjs', format: 'cjs', platform: 'node' }),
  build({
    ...common,
    entryPoints: ['src/extension/web.ts'],
    outfile: 'dist/web/extension.cjs',
    format: 'cjs',
    platform: 'browser',
    external: ['vscode'],
    mainFields: ['browser', 'module', 'main'],
  }),
  build({
    ...common,
    entryPoints: ['src/extension/worker/webWorker.ts'],
    outfile: 'dist/web/analysisWorker.js',
    format: 'iife',
    platform: 'browser',
  }),
  build({
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview/main.js',
    format: 'esm',
    platform: 'browser',
    // pdf.js keeps node-only branches behind isNodeJS; they are never taken in a webview.
    external: ['fs', 'http', 'https', 'url', 'canvas', 'path', 'module', 'zlib', 'stream'],
    logOverride: { 'unsupported-dynamic-import': 'silent' },
    // pdf.js marks its licence with @licstart, which esbuild does not keep as a legal comment.
    footer: {
      js: '/*! Includes pdf.js (pdfjs-dist), Copyright Mozilla Foundation, Apache License 2.0: see LICENSE.pdfjs and THIRD_PARTY_NOTICES.md */',
    },
  }),
  build({ ...common, entryPoints: ['webview/main.css'], outfile: 'dist/webview/main.css', loader: { '.css': 'css' } }),
]);

// One metafile for all the extension's bundles: which third-party files went in (scripts/notices.mjs reads it).
const inputs = {};
for (const r of results) Object.assign(inputs, r.metafile.inputs);
mkdirSync('dist/meta', { recursive: true });
writeFileSync('dist/meta/extension.json', JSON.stringify({ inputs }));

copyFileSync(join(pdfjsRoot, 'build/pdf.worker.min.mjs'), 'dist/webview/pdf.worker.min.mjs');
cpSync(join(pdfjsRoot, 'cmaps'), 'dist/webview/cmaps', { recursive: true });
cpSync(join(pdfjsRoot, 'standard_fonts'), 'dist/webview/standard_fonts', { recursive: true });
// Only the JS JPEG 2000 fallback: the .wasm decoders would need 'wasm-unsafe-eval' in the webview's CSP.
copyFileSync(join(pdfjsRoot, 'wasm/openjpeg_nowasm_fallback.js'), 'dist/webview/wasm/openjpeg_nowasm_fallback.js');
copyFileSync(join(pdfjsRoot, 'wasm/LICENSE_OPENJPEG'), 'dist/webview/wasm/LICENSE_OPENJPEG');
copyFileSync(join(pdfjsRoot, 'wasm/LICENSE_PDFJS_OPENJPEG'), 'dist/webview/wasm/LICENSE_PDFJS_OPENJPEG');
copyFileSync(join(pdfjsRoot, 'LICENSE'), 'dist/webview/LICENSE.pdfjs');
copyFileSync(join(codiconsRoot, 'dist/codicon.css'), 'dist/webview/codicons/codicon.css');
copyFileSync(join(codiconsRoot, 'dist/codicon.ttf'), 'dist/webview/codicons/codicon.ttf');
console.log(`extension built${dev ? ' (dev)' : ''}`);
