/**
 * The page webview's HTML shell and Content-Security-Policy. Pure, so the policy is unit-tested.
 * The HTML carries no PDF-derived text at all: the file name, metadata and evidence reach the webview as a message
 * and are rendered with textContent there.
 */

export interface WebviewUris {
  /** webview.cspSource */
  cspSource: string;
  script: string;
  style: string;
  codicons: string;
}

/**
 * default-src 'none'; scripts only with the nonce or from the extension's own (localResourceRoots-limited) folders;
 * no 'unsafe-eval' and no 'wasm-unsafe-eval' (pdf.js runs with isEvalSupported:false and without its wasm decoders).
 * worker-src 'none': pdf.js's worker code is imported into the page (a blob: worker importing the extension's
 * cross-origin resource hangs in webviews), so no worker of any kind is allowed.
 * connect-src: pdf.js fetches its CMaps and standard fonts from the extension.
 */
export function buildCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${cspSource}`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} blob: data:`,
    `font-src ${cspSource}`,
    "worker-src 'none'",
    `connect-src ${cspSource}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "object-src 'none'",
  ].join('; ');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** 32 hex chars from a CSPRNG (globalThis.crypto exists in node ≥ 19 and every browser host). */
export function makeNonce(): string {
  const b = new Uint8Array(16);
  globalThis.crypto.getRandomValues(b);
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export function buildWebviewHtml(uris: WebviewUris, nonce: string): string {
  const a = (s: string) => escapeHtml(s);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${a(buildCsp(uris.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${a(uris.codicons)}">
<link rel="stylesheet" href="${a(uris.style)}">
<title>PDF Page Diagnostics</title>
</head>
<body>
<div id="app" aria-live="polite"></div>
<script type="module" nonce="${a(nonce)}" src="${a(uris.script)}"></script>
</body>
</html>`;
}
