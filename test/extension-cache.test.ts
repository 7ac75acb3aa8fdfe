import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { register } from 'node:module';
import { test } from 'node:test';
import type { AnalyzerOptions } from '../src/analyzer/options';
import type { DocumentReport } from '../src/analyzer/types';
import { failureReport } from '../src/shared/report';
import { readSettings } from '../src/extension/settings';
import { ReportStore, sameStamp, sha256Hex, type Stamp } from '../src/extension/store';

// classifier.ts imports 'vscode', which exists only inside VS Code: resolve it to the fake for this test file.
const fakeUrl = new URL('./fake-vscode.ts', import.meta.url).href;
register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(s, c, next) { return next(s === 'vscode' ? ${JSON.stringify(fakeUrl)} : s, c); }`),
);
// the loader hook above answers 'vscode' with the fake, not the module @types/vscode describes
const vscode = (await import('vscode')) as unknown as typeof import('./fake-vscode');
const { Classifier } = await import('../src/extension/classifier');

/** A file system of one file whose bytes and mtime the test rewrites. */
function fakeFile(bytes: Uint8Array, mtime: number) {
  const f = { bytes, mtime, reads: 0 };
  vscode.workspace.fs.stat = async () => ({ type: 1, ctime: 0, mtime: f.mtime, size: f.bytes.byteLength });
  vscode.workspace.fs.readFile = async () => {
    f.reads++;
    // a fresh buffer each read, as workspace.fs gives; the pool may detach it
    return new Uint8Array(f.bytes);
  };
  return f;
}

/** A pool that "analyses" by naming the first bytes it got, so a report shows which content it was made from. */
function fakePool() {
  const calls: Uint8Array[] = [];
  const analyze = async (bytes: Uint8Array, _o: Partial<AnalyzerOptions>): Promise<DocumentReport> => {
    calls.push(bytes);
    const r = failureReport('damaged', new TextDecoder().decode(bytes));
    // the real pool transfers the bytes to a worker: model that (the buffer is detached afterwards)
    structuredClone(bytes.buffer, { transfer: [bytes.buffer as ArrayBuffer] });
    return r;
  };
  return {
    calls,
    size: 1,
    analyze,
    analyzeDetailed: async (bytes: Uint8Array, o: Partial<AnalyzerOptions>) => ({ kind: 'report' as const, report: await analyze(bytes, o) }),
  };
}

function setup(options: Record<string, unknown> = {}) {
  const store = new ReportStore();
  const pool = fakePool();
  let settings = readSettings((k) => options[k]);
  const log = { appendLine() {} };
  const classifier = new Classifier(store, pool as never, () => settings, log);
  return { store, pool, classifier, setSettings: (o: Record<string, unknown>) => (settings = readSettings((k) => o[k])) };
}

const enc = (s: string) => new TextEncoder().encode(s);
// the fake Uri stands in for vscode.Uri (toString, path) in the code under test
const uri = vscode.Uri.file('/ws/a.pdf') as unknown as import('vscode').Uri;
const message = (store: ReportStore) => store.get(uri.toString())?.report.error?.message;

test('a same-size rewrite with the same mtime is analysed again', async () => {
  const { store, pool, classifier } = setup();
  const file = fakeFile(enc('%PDF-1.7 version A'), 1_700_000_000_000);
  assert.equal(await classifier.classifyOne(uri), 'analysed');
  assert.equal(message(store), '%PDF-1.7 version A');

  assert.equal(await classifier.classifyOne(uri), 'cached', 'unchanged file: the report is reused');
  assert.equal(pool.calls.length, 1);

  file.bytes = enc('%PDF-1.7 version B'); // same length, same mtime: size + mtime could not tell
  assert.equal(await classifier.classifyOne(uri), 'analysed');
  assert.equal(pool.calls.length, 2);
  assert.equal(message(store), '%PDF-1.7 version B', 'the store shows the new content, not the stale report');
  assert.equal(store.get(uri.toString())!.stamp.sha256, createHash('sha256').update('%PDF-1.7 version B').digest('hex'));
});

test('a touched file (new mtime, same bytes) is not analysed again; an options change is', async () => {
  const { pool, classifier, setSettings } = setup();
  const file = fakeFile(enc('%PDF-1.4 same'), 1000);
  assert.equal(await classifier.classifyOne(uri), 'analysed');
  file.mtime = 2000;
  assert.equal(await classifier.classifyOne(uri), 'cached');
  assert.equal(pool.calls.length, 1);
  setSettings({ 'thresholds.minTextChars': 7 });
  assert.equal(await classifier.classifyOne(uri), 'analysed');
  assert.equal(pool.calls.length, 2);
});

test('an unreadable file is stored as a failure that never counts as cached', async () => {
  const { store, pool, classifier } = setup();
  const file = fakeFile(enc('%PDF-1.4 x'), 1000);
  const read = vscode.workspace.fs.readFile;
  vscode.workspace.fs.readFile = async () => {
    throw new Error('EACCES');
  };
  assert.equal(await classifier.classifyOne(uri), 'failed');
  assert.equal(store.get(uri.toString())!.stamp.sha256, '');
  vscode.workspace.fs.readFile = read;
  assert.equal(await classifier.classifyOne(uri), 'analysed');
  assert.equal(pool.calls.length, 1);
  assert.equal(file.reads, 1);
});

test('a file that grew past the size limit between stat and read is refused', async () => {
  const { store, pool, classifier } = setup({ maxFileSizeMB: 1 });
  fakeFile(enc('%PDF'), 1);
  vscode.workspace.fs.stat = async () => ({ type: 1, ctime: 0, mtime: 1, size: 4 });
  vscode.workspace.fs.readFile = async () => new Uint8Array(1024 * 1024 + 1);
  assert.equal(await classifier.classifyOne(uri), 'refused');
  assert.equal(pool.calls.length, 0);
  assert.equal(store.get(uri.toString()), undefined);
});

test('stamps match on content and options only', () => {
  const a: Stamp = { size: 3, mtime: 1, sha256: 'ab', options: 'o' };
  assert.equal(sameStamp(a, { ...a, mtime: 2 }), true);
  assert.equal(sameStamp(a, { ...a, sha256: 'cd' }), false);
  assert.equal(sameStamp(a, { ...a, options: 'p' }), false);
  assert.equal(sameStamp(a, { ...a, size: 4 }), false);
  assert.equal(sameStamp({ ...a, sha256: '' }, { ...a, sha256: '' }), false, 'an unhashed entry is never reused');
});

test('sha256Hex: Web Crypto and the sliced fallback agree with node:crypto', async () => {
  const big = new Uint8Array(9 * 1024 * 1024 + 17).map((_, i) => (i * 31) & 255);
  const expected = createHash('sha256').update(big).digest('hex');
  assert.equal(await sha256Hex(big), expected);
  assert.equal(await sha256Hex(new Uint8Array(0)), createHash('sha256').digest('hex'));
  const desc = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
  Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
  try {
    assert.equal(await sha256Hex(big), expected, 'the portable path (no crypto.subtle, as on a web host over http)');
  } finally {
    Object.defineProperty(globalThis, 'crypto', desc);
  }
});
