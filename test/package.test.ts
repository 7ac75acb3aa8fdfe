// The published artefacts: what `npm pack` and the .vsix hold, that the library's types work for a consumer, that the
// third-party notices match what is bundled, and that benchmark-only dependencies stay out of the user's install.
// Needs `npm run build` first (npm test does it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const run = promisify(execFile);

/** Environment for npm/tsc children: without the npm_config_* that `npm test` exports (an inner npm would take them as its own). */
function childEnv() {
  const keep = /^npm_config_(cache|userconfig|globalconfig|registry)$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || keep.test(k)));
}

function npm(args: string[], cwd = ROOT) {
  const cli = process.env.npm_execpath;
  const [cmd, pre] = cli && /\.c?js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
  return run(cmd, [...pre, ...args], { cwd, env: childEnv(), maxBuffer: 64 << 20, shell: cmd === 'npm' && process.platform === 'win32' });
}

const built = existsSync(path.join(ROOT, 'dist/analyzer/index.d.ts')) && existsSync(path.join(ROOT, 'dist/meta/extension.json'));
const needBuild = built ? {} : { skip: 'dist/ not built (npm run build)' };

/** Bare module specifiers (packages) that a bundle or script imports. */
function packageName(spec: string) {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return null;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function bundledPackages(meta: string): Set<string> {
  const inputs = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'dist/meta', meta), 'utf8')).inputs);
  const out = new Set<string>();
  for (const input of inputs) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/\\/g, '/'));
    if (m) out.add(m[1]);
  }
  return out;
}

test('npm pack: the library with its types, the CLI, README, LICENSE and the notices; no sources, tests or benchmark', needBuild, async () => {
  const { stdout } = await npm(['pack', '--dry-run', '--json', '--ignore-scripts']);
  const [info] = JSON.parse(stdout) as { size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
  const files = info.files.map((f) => f.path).sort();
  for (const f of [
    'package.json',
    'README.md',
    'LICENSE',
    'THIRD_PARTY_NOTICES.md',
    'dist/analyzer/index.js',
    'dist/analyzer/index.d.ts',
    'dist/analyzer/types.d.ts',
    'dist/cli.js',
  ]) {
    assert.ok(files.includes(f), `npm pack lacks ${f}; it has ${files.join(', ')}`);
  }
  // every file the exports map and bin point at ships
  const targets = [pkg.exports['./analyzer'].types, pkg.exports['./analyzer'].default, ...Object.values(pkg.bin as Record<string, string>)];
  for (const t of targets) assert.ok(files.includes(path.posix.normalize(t)), `package.json points at ${t}, which npm pack leaves out`);
  // every declaration file index.d.ts reaches ships (a missing one silently turns exports into any)
  for (const f of files.filter((f) => f.endsWith('.d.ts'))) {
    for (const m of readFileSync(path.join(ROOT, f), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const target = path.posix.join(path.posix.dirname(f), m[1].replace(/\.js$/, '.d.ts'));
      assert.ok(files.includes(target), `${f} imports ${m[1]}, but ${target} is not packed`);
    }
  }
  const allowed = /^(package\.json|README\.md|LICENSE|THIRD_PARTY_NOTICES\.md|dist\/cli\.js|dist\/analyzer\/[\w.-]+\.(js|d\.ts))$/;
  const stray = files.filter((f) => !allowed.test(f));
  assert.deepEqual(stray, [], `unexpected files in the npm package: ${stray.join(', ')}`);
  assert.ok(!files.some((f) => /^(src|test|bench|scripts|webview|media|node_modules|\.ci|\.vscode)\//.test(f) || f.endsWith('.map')));
  // today about 385 KB packed, 1.2 MB unpacked, the analyzer once (the CLI loads the library bundle); the tests and fixtures made it 4.6 MB
  assert.ok(info.size < 512 * 1024, `npm package is ${info.size} bytes packed`);
  assert.ok(info.unpackedSize < 2 * 1024 * 1024, `npm package is ${info.unpackedSize} bytes unpacked`);
});

test('.vsix (vsce ls): the bundles, their assets, media, docs and notices; nothing large or private', needBuild, async () => {
  const vsce = path.join(ROOT, 'node_modules/@vscode/vsce/vsce');
  const { stdout } = await run(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: ROOT, env: childEnv(), maxBuffer: 64 << 20 });
  const files = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .sort();
  for (const f of [
    'package.json',
    'package.nls.json',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'THIRD_PARTY_NOTICES.md',
    'dist/webview/main.js',
    'dist/webview/main.css',
    'dist/webview/pdf.worker.min.mjs',
    'dist/webview/LICENSE.pdfjs',
    'dist/webview/codicons/codicon.ttf',
    'dist/webview/codicons/codicon.css',
    'dist/analysisWorker.cjs',
    'dist/web/analysisWorker.js',
    path.posix.normalize(pkg.main),
    path.posix.normalize(pkg.browser),
    path.posix.normalize(pkg.icon),
  ]) {
    assert.ok(files.includes(f), `the .vsix lacks ${f}`);
  }
  assert.ok(files.some((f) => f.startsWith('dist/webview/cmaps/')) && files.some((f) => f.startsWith('dist/webview/standard_fonts/')));
  const allowed =
    /^(package\.json|package\.nls(\.[a-z]{2}(-[a-z]+)?)?\.json|README\.md|CHANGELOG\.md|LICENSE|THIRD_PARTY_NOTICES\.md|media\/[\w.-]+\.(png|svg)|dist\/(extension|analysisWorker)\.cjs|dist\/web\/[\w.-]+\.c?js|dist\/webview\/(main\.(js|css)|pdf\.worker\.min\.mjs|LICENSE\.pdfjs|codicons\/codicon\.(css|ttf)|cmaps\/[\w.-]+|standard_fonts\/[\w.-]+|wasm\/(openjpeg_nowasm_fallback\.js|LICENSE_[A-Z_]+)))$/;
  const stray = files.filter((f) => !allowed.test(f));
  assert.deepEqual(stray, [], `unexpected files in the .vsix: ${stray.join(', ')}`);
  const forbidden =
    /(^|\/)(src|test|bench|scripts|fixtures|node_modules|screenshots|\.e2e-run|\.git|\.ci|\.vscode|meta)\/|\.(map|ts|vsix|pdf|tgz)$|^dist\/(cli\.js|analyzer\/)/;
  assert.deepEqual(
    files.filter((f) => forbidden.test(f)),
    [],
  );
  const bytes = files.reduce((n, f) => n + statSync(path.join(ROOT, f)).size, 0);
  // today about 6.7 MB before compression (pdf.js worker, CMaps, standard fonts, three bundles of the analyzer)
  assert.ok(bytes < 12 * 1024 * 1024, `the .vsix holds ${bytes} bytes before compression`);
  for (const big of files.filter((f) => statSync(path.join(ROOT, f)).size > 3 * 1024 * 1024)) assert.fail(`${big} is over 3 MB`);
});

test('manifest: marketplace fields; vsce packages without --allow-missing-repository or --no-rewrite-relative-links', () => {
  assert.match(pkg.repository?.url ?? '', /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+(\.git)?$/);
  assert.match(pkg.publisher, /^[a-z0-9][a-z0-9-]*$/i);
  assert.ok(!/placeholder|your-?publisher|undefined|example/i.test(pkg.publisher), `publisher ${pkg.publisher} looks like a placeholder`);
  assert.equal(pkg.scripts['vscode:prepublish'], 'npm run build');
  assert.match(pkg.scripts.package, /\bvsce package\b/);
  assert.doesNotMatch(pkg.scripts.package, /--allow-missing-repository|--no-rewrite-relative-links|npm run build/);
  // vsce exits with an error when package.json has "files" beside .vscodeignore; the npm package is chosen by .npmignore
  assert.equal(pkg.files, undefined);
  assert.ok(existsSync(path.join(ROOT, '.vscodeignore')) && existsSync(path.join(ROOT, '.npmignore')));
  for (const f of ['LICENSE', 'README.md', 'THIRD_PARTY_NOTICES.md']) assert.ok(existsSync(path.join(ROOT, f)), f);
});

test('bundled or dependency, not both: --no-dependencies holds because every bundle is self-contained', needBuild, () => {
  const deps = Object.keys(pkg.dependencies ?? {});
  for (const meta of ['analyzer.json', 'cli.json', 'extension.json']) {
    for (const name of bundledPackages(meta)) assert.ok(!deps.includes(name), `${name} is bundled into ${meta} and also a dependency`);
  }
  // what the bundles leave as imports: node builtins, 'vscode' (the host) and pdf.js's node-only branches, nothing from npm
  const externals = new Set<string>();
  for (const meta of ['analyzer.json', 'cli.json', 'extension.json']) {
    const { inputs } = JSON.parse(readFileSync(path.join(ROOT, 'dist/meta', meta), 'utf8')) as {
      inputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
    };
    for (const i of Object.values(inputs)) for (const im of i.imports) if (im.external) externals.add(im.path);
  }
  const builtin = new Set(['vscode', 'fs', 'http', 'https', 'url', 'canvas', 'path', 'module', 'zlib', 'stream', 'worker_threads', 'os', 'crypto']);
  const fromNpm = [...externals].filter((s) => !s.startsWith('node:') && !builtin.has(packageName(s) ?? '') && packageName(s) !== null);
  assert.deepEqual(fromNpm, [], 'bundles import packages at run time, which the .vsix (--no-dependencies) would not carry');
});

test('third-party notices: every bundled and copied package with its licence, up to date with the build', needBuild, async () => {
  // @ts-expect-error: plain ESM script without types
  const { render, collect } = await import('../scripts/notices.mjs');
  const now = readFileSync(path.join(ROOT, 'THIRD_PARTY_NOTICES.md'), 'utf8');
  assert.ok(now === render(), 'THIRD_PARTY_NOTICES.md is out of date: run `npm run build && node scripts/notices.mjs`');
  const names = (collect() as { name: string }[]).map((p) => p.name);
  for (const meta of ['analyzer.json', 'cli.json', 'extension.json'])
    for (const n of bundledPackages(meta)) assert.ok(names.includes(n), `${n} bundled, not in the notices`);
  for (const n of ['@noble/ciphers', '@noble/hashes', 'pdfjs-dist', '@vscode/codicons']) assert.ok(names.includes(n), n);
  assert.match(now, /\| `@vscode\/codicons` \| [\d.]+ \| CC-BY-4\.0 \|/);
  assert.match(now, /Attribution: the Codicons icon font, © Microsoft Corporation/);
  assert.match(now, /Attribution 4\.0 International/); // the licence text itself
  assert.match(now, /Apache License\s+Version 2\.0/);
  // the licence comments esbuild keeps at the end of the bundles
  assert.match(readFileSync(path.join(ROOT, 'dist/analyzer/index.js'), 'utf8'), /noble-ciphers - MIT License/);
  assert.match(readFileSync(path.join(ROOT, 'dist/webview/main.js'), 'utf8'), /Includes pdf\.js \(pdfjs-dist\).*Apache License 2\.0/);
});

test('benchmark-only dependencies live in bench/ (own lock); the root install never fetches mupdf', () => {
  const rootLock = readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
  assert.ok(!('mupdf' in (pkg.devDependencies ?? {})) && !('mupdf' in (pkg.dependencies ?? {})));
  assert.doesNotMatch(rootLock, /node_modules\/mupdf"/);
  const bench = JSON.parse(readFileSync(path.join(ROOT, 'bench/package.json'), 'utf8'));
  const benchLock = JSON.parse(readFileSync(path.join(ROOT, 'bench/package-lock.json'), 'utf8'));
  assert.equal(bench.private, true);
  assert.ok(bench.dependencies.mupdf);
  assert.equal(benchLock.packages['node_modules/mupdf']?.version, bench.dependencies.mupdf.replace(/^[\^~]/, ''));
  assert.match(pkg.scripts.bench, /bench\/ensure-deps\.mjs/);
  // every package the benchmark imports is installed by one of the two installs
  const available = new Set([...Object.keys(pkg.devDependencies ?? {}), ...Object.keys(bench.dependencies)]);
  for (const f of ['run.mjs', 'child.mjs', 'mem-child.mjs', 'contenders.mjs', 'webview-layout.mjs', 'ensure-deps.mjs']) {
    const src = readFileSync(path.join(ROOT, 'bench', f), 'utf8');
    for (const m of src.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g)) {
      const name = packageName(m[1]);
      if (name) assert.ok(available.has(name), `bench/${f} imports ${m[1]}, which neither package.json installs`);
    }
  }
});

test('library consumer: `pdf-page-diagnostics/analyzer` type-checks (node16 and bundler resolution) and loads', needBuild, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ppd-consumer-'));
  try {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(ROOT, path.join(dir, 'node_modules', 'pdf-page-diagnostics'), 'junction');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(
      path.join(dir, 'consumer.ts'),
      [
        "import { analyzePdf, analyzePdfSync, DEFAULT_OPTIONS, decideRoute, fileRecord, pageRanges } from 'pdf-page-diagnostics/analyzer';",
        "import type { AnalyzerOptions, DocumentReport, PageRoute } from 'pdf-page-diagnostics/analyzer';",
        'const bytes = new Uint8Array(0);',
        'const options: Partial<AnalyzerOptions> = { timeBudgetMs: DEFAULT_OPTIONS.timeBudgetMs };',
        'const report: DocumentReport = analyzePdfSync(bytes, options);',
        'const later: Promise<DocumentReport> = analyzePdf(bytes);',
        'const routes: PageRoute[] = report.pages.map((p) => p.route);',
        'const n: number = report.pageCount;',
        'export { later, routes, n, decideRoute, fileRecord, pageRanges };',
        '// @ts-expect-error: the analyzer takes bytes, not a path (fails if the import resolved to any)',
        "analyzePdfSync('file.pdf');",
        '// @ts-expect-error: no such export',
        "import { notExported } from 'pdf-page-diagnostics/analyzer';",
        "// @ts-expect-error: the benchmark's floor is not part of the API (bench/contenders.mjs loads dist/bench/floor.js)",
        "import { floorScan } from 'pdf-page-diagnostics/analyzer';",
        'export { notExported, floorScan };',
        '',
      ].join('\n'),
    );
    const base = { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022'], types: [], skipLibCheck: false };
    const configs = {
      node16: { ...base, module: 'node16', moduleResolution: 'node16' },
      bundler: { ...base, module: 'esnext', moduleResolution: 'bundler' },
    };
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    await Promise.all([
      ...Object.entries(configs).map(async ([name, compilerOptions]) => {
        writeFileSync(path.join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
        const r = await run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`, '--listFiles'], { cwd: dir }).catch((e) => e);
        assert.equal(r.code ?? 0, 0, `tsc (${name}) failed:\n${r.stdout}${r.stderr}`);
        // the types came from the package's declarations, not from its sources
        assert.match(r.stdout, /dist[\\/]analyzer[\\/]index\.d\.ts/);
        assert.doesNotMatch(r.stdout, /src[\\/]analyzer[\\/]/);
      }),
      (async () => {
        const script =
          "const m = await import('pdf-page-diagnostics/analyzer'); const r = m.analyzePdfSync(new Uint8Array(0)); console.log(typeof m.analyzePdf, r.pageCount, 'floorScan' in m);";
        const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
        assert.equal(stdout.trim(), 'function 0 false');
      })(),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('l10n: every user-facing string of the manifest is a %key% that package.nls.json defines, and no key is unused', () => {
  const nls = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const used = new Set<string>();
  const literal: string[] = [];
  const look = (where: string, v: unknown) => {
    if (typeof v !== 'string') return;
    const m = /^%([\w.-]+)%$/.exec(v);
    if (!m) literal.push(`${where}: ${v.slice(0, 60)}`);
    else {
      used.add(m[1]);
      assert.ok(typeof nls[m[1]] === 'string' && nls[m[1]].length > 0, `${where}: %${m[1]}% is not in package.nls.json`);
    }
  };
  const c = pkg.contributes;
  for (const cmd of c.commands) {
    look(`${cmd.command} title`, cmd.title);
    look(`${cmd.command} category`, cmd.category);
  }
  for (const arr of Object.values<{ id: string; title: string }[]>(c.viewsContainers)) for (const v of arr) look(`container ${v.id}`, v.title);
  for (const arr of Object.values<{ id: string; name: string; contextualTitle?: string }[]>(c.views))
    for (const v of arr) {
      look(`view ${v.id}`, v.name);
      if (v.contextualTitle) look(`view ${v.id} contextualTitle`, v.contextualTitle);
    }
  for (const w of c.viewsWelcome) look(`welcome ${w.view}`, w.contents);
  for (const e of c.customEditors) look(`editor ${e.viewType}`, e.displayName);
  look('configuration title', c.configuration.title);
  for (const [k, v] of Object.entries<Record<string, unknown>>(c.configuration.properties)) {
    assert.ok(v.description !== undefined || v.markdownDescription !== undefined, `${k} has a description`);
    look(k, v.description);
    look(k, v.markdownDescription);
  }
  look('untrusted workspaces', pkg.capabilities.untrustedWorkspaces.description);
  assert.deepEqual(literal, [], 'strings shown to users that are not localised');
  assert.deepEqual(
    Object.keys(nls).filter((k) => !used.has(k)),
    [],
    'keys in package.nls.json that nothing uses',
  );
  // the storage cap is said in its setting's description (issue 14)
  assert.match(nls['config.storage.maxMB.markdownDescription'], /MB/);
});
