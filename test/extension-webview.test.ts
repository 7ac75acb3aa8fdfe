import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildCsp, buildWebviewHtml, escapeHtml, makeNonce } from '../src/extension/webviewHtml';

const SRC = 'https://file+.vscode-resource.vscode-cdn.net';

test('CSP string', () => {
  assert.equal(
    buildCsp(SRC, 'abc123'),
    "default-src 'none'; script-src 'nonce-abc123' https://file+.vscode-resource.vscode-cdn.net; " +
      'style-src https://file+.vscode-resource.vscode-cdn.net; img-src https://file+.vscode-resource.vscode-cdn.net blob: data:; ' +
      "font-src https://file+.vscode-resource.vscode-cdn.net; worker-src 'none'; " +
      "connect-src https://file+.vscode-resource.vscode-cdn.net; base-uri 'none'; form-action 'none'; frame-src 'none'; object-src 'none'",
  );
});

test('CSP: no eval of any kind, no inline script or style, no remote hosts', () => {
  const csp = buildCsp(SRC, 'n');
  assert.doesNotMatch(csp, /unsafe-eval|wasm-unsafe-eval|unsafe-inline|unsafe-hashes|\*/);
  assert.doesNotMatch(csp, /https?:\/\/(?!file\+\.vscode-resource)/);
});

test('nonce: 128 random bits, fresh each time', () => {
  const a = makeNonce();
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(a, makeNonce());
});

test('HTML escaping', () => {
  assert.equal(escapeHtml(`<img src=x onerror="alert(1)">&'`), '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;');
});

test('webview HTML: one nonce script, CSP meta first, attribute values escaped', () => {
  const html = buildWebviewHtml(
    { cspSource: SRC, script: `${SRC}/main.js?"><script>`, style: `${SRC}/main.css`, codicons: `${SRC}/codicon.css` },
    'n0nce',
  );
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.match(
    html,
    /<script type="module" nonce="n0nce" src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/main\.js\?&quot;&gt;&lt;script&gt;">/,
  );
  assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<link'));
  assert.doesNotMatch(html, /\sstyle=|\son\w+=/);
});

test('webview code never builds HTML from strings (PDF strings are rendered as text)', () => {
  const dir = new URL('../webview/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length >= 2);
  for (const f of files) {
    const src = readFileSync(new URL(f, dir), 'utf8');
    assert.doesNotMatch(src, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|srcdoc/, f);
    assert.doesNotMatch(src, /\beval\(|new Function\(/, f);
  }
  assert.match(readFileSync(new URL('main.ts', dir), 'utf8'), /isEvalSupported: false/);
});

test('webview code imports only from webview/ and src/shared/ (data flows analyzer -> extension -> webview)', () => {
  const dir = new URL('../webview/', import.meta.url);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
    const src = readFileSync(new URL(f, dir), 'utf8');
    for (const m of src.matchAll(/from\s+'([^']+)'/g)) {
      const spec = m[1];
      if (!spec.startsWith('.')) continue; // packages (pdfjs-dist)
      // Type-only imports of the analyzer's types are erased at build time and carry no code.
      if (/import type [^;]*from\s+'\.\.\/src\/analyzer\/types'/.test(src) && spec === '../src/analyzer/types') continue;
      assert.match(spec, /^\.\/|^\.\.\/src\/shared\//, `${f} imports ${spec}`);
    }
  }
});
