import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { register } from 'node:module';
import { test } from 'node:test';
import type { AnalyzerOptions } from '../src/analyzer/options';
import { failureReport } from '../src/shared/report';
import { INDEX_FILE, reportFile, ResultStorage, resultKey, type StorageFs } from '../src/extension/persist';
import { optionsKey, readSettings } from '../src/extension/settings';
import { ReportStore, type Stamp } from '../src/extension/store';
import { fortyPages, page, report } from './extension-helpers';

// classifier.ts and restore.ts import 'vscode': resolve it to the fake for this test file (as extension-cache.test.ts)
const fakeUrl = new URL('./fake-vscode.ts', import.meta.url).href;
register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(s, c, next) { return next(s === 'vscode' ? ${JSON.stringify(fakeUrl)} : s, c); }`),
);
const vscode = (await import('vscode')) as unknown as typeof import('./fake-vscode');
const { Classifier, PASSWORD_MARK } = await import('../src/extension/classifier');
const { restoreResults } = await import('../src/extension/restore');

/** A storage folder in memory, counting writes. */
function memFs() {
  const files = new Map<string, Uint8Array>();
  let writes = 0;
  const fs: StorageFs = {
    read: async (n) => files.get(n),
    write: async (n, d) => {
      writes++;
      files.set(n, new Uint8Array(d));
    },
    delete: async (n) => void files.delete(n),
  };
  return { fs, files, writes: () => writes };
}

const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const OPTS = optionsKey({});
const stamp = (content: string, over: Partial<Stamp> = {}): Stamp => ({
  size: content.length,
  mtime: 1000,
  sha256: hex(content),
  options: OPTS,
  ...over,
});
const reports = (files: Map<string, Uint8Array>) => [...files.keys()].filter((k) => k.startsWith('results/reports/'));

function storage(fs: StorageFs, maxBytes = 1 << 30, analyzerVersion = '0.1.0+abc', now?: () => number) {
  return new ResultStorage(fs, { analyzerVersion, maxBytes: () => maxBytes, flushDelayMs: 1, now });
}

test('result keys: content hash, analyzer version and options each change the key; no hash, no key', () => {
  const s = stamp('A');
  const k = resultKey(s, 'v1');
  assert.match(k, /^[0-9a-f]{64}$/);
  const moved: Stamp = { ...s, mtime: 5, size: 9 };
  assert.equal(resultKey(moved, 'v1'), k, 'size and mtime are not part of the key');
  assert.notEqual(resultKey(stamp('B'), 'v1'), k, 'other content');
  assert.notEqual(resultKey(s, 'v2'), k, 'other analyzer');
  assert.notEqual(resultKey({ ...s, options: optionsKey({ minTextChars: 7 }) }, 'v1'), k, 'other options');
  assert.notEqual(resultKey({ ...s, options: optionsKey({ layerQuality: true }) }, 'v1'), k, 'layer scores on: another report');
  assert.notEqual(resultKey({ ...s, options: OPTS + PASSWORD_MARK }, 'v1'), k, 'made with a password');
  assert.equal(resultKey({ ...s, sha256: '' }, 'v1'), '', 'an unread file is never stored');
  // the options key never holds a password, whatever the options carry
  assert.equal(optionsKey({ password: 'hunter2' }), OPTS);
});

test('a saved report comes back after a "reload" (a new storage over the same folder), without the index naming the content', async () => {
  const m = memFs();
  const a = storage(m.fs);
  const r = fortyPages();
  await a.save({ uri: 'file:///ws/a.pdf', stamp: stamp('A'), report: r });
  await a.dispose();
  assert.ok(m.files.has(INDEX_FILE));
  assert.ok(m.files.has(reportFile(resultKey(stamp('A'), '0.1.0+abc'))));

  const b = storage(m.fs);
  const docs = await b.open();
  assert.deepEqual(
    docs.map((d) => [d.uri, d.size, d.mtime]),
    [['file:///ws/a.pdf', 1, 1000]],
  );
  assert.deepEqual(await b.load('file:///ws/a.pdf'), JSON.parse(JSON.stringify(r)));
  assert.deepEqual(await b.lookup(stamp('A')), JSON.parse(JSON.stringify(r)), 'found by content too');
  assert.equal(await b.lookup(stamp('B')), undefined);
});

test('two files with the same content share one stored report; it is deleted with the last of them', async () => {
  const m = memFs();
  const s = storage(m.fs);
  await s.save({ uri: 'file:///ws/a.pdf', stamp: stamp('same'), report: fortyPages() });
  await s.save({ uri: 'file:///ws/copy/a.pdf', stamp: stamp('same'), report: fortyPages() });
  assert.equal(reports(m.files).length, 1);
  await s.forget('file:///ws/a.pdf');
  assert.equal(reports(m.files).length, 1, 'the copy still shows it');
  await s.forget('file:///ws/copy/a.pdf');
  assert.equal(reports(m.files).length, 0);
  assert.deepEqual(s.docs(), []);
});

test('a changed file replaces its stored report; the old one is deleted', async () => {
  const m = memFs();
  const s = storage(m.fs);
  await s.save({ uri: 'file:///ws/a.pdf', stamp: stamp('v1'), report: fortyPages() });
  await s.save({ uri: 'file:///ws/a.pdf', stamp: stamp('v2'), report: report([page(1, 'text')]) });
  assert.deepEqual(reports(m.files), [reportFile(resultKey(stamp('v2'), '0.1.0+abc'))]);
  assert.equal(await s.lookup(stamp('v1')), undefined);
});

test('the cap: least recently used reports go first, the newest stays, one larger than the cap is not stored', async () => {
  const m = memFs();
  let clock = 0;
  const big = (n: number) => report(Array.from({ length: n }, (_, i) => page(i + 1, 'text')));
  const size = new TextEncoder().encode(JSON.stringify(big(20))).byteLength;
  let cap = Math.floor(size * 2.5);
  const s = new ResultStorage(m.fs, { analyzerVersion: 'v', maxBytes: () => cap, now: () => ++clock, flushDelayMs: 1 });
  await s.save({ uri: 'file:///1.pdf', stamp: stamp('1'), report: big(20) });
  await s.save({ uri: 'file:///2.pdf', stamp: stamp('2'), report: big(20) });
  await s.lookup(stamp('1')); // 1 is now more recently used than 2
  await s.save({ uri: 'file:///3.pdf', stamp: stamp('3'), report: big(20) });
  assert.ok(s.bytes <= cap, `${s.bytes} ≤ ${cap}`);
  assert.deepEqual(
    s
      .docs()
      .map((d) => d.uri)
      .sort(),
    ['file:///1.pdf', 'file:///3.pdf'],
    'the least recently used (2) was dropped',
  );
  assert.equal(reports(m.files).length, 2, 'and its file deleted');

  await s.save({ uri: 'file:///huge.pdf', stamp: stamp('huge'), report: big(200) });
  assert.equal(await s.lookup(stamp('huge')), undefined, 'a report larger than the cap is not stored');
  assert.equal(reports(m.files).length, 2, 'and it did not push the others out');

  cap = 0; // the setting lowered to "store nothing"
  await s.trim();
  assert.equal(reports(m.files).length, 0);
  assert.deepEqual(s.docs(), []);
});

test('another analyzer version: stored reports are deleted at open, their files returned to be classified again', async () => {
  const m = memFs();
  const old = storage(m.fs, 1 << 30, 'v1');
  await old.save({ uri: 'file:///ws/a.pdf', stamp: stamp('A'), report: fortyPages() });
  await old.dispose();
  const next = storage(m.fs, 1 << 30, 'v2');
  const docs = await next.open();
  assert.deepEqual(
    docs.map((d) => [d.uri, d.key]),
    [['file:///ws/a.pdf', '']],
  );
  assert.equal(reports(m.files).length, 0);
  assert.equal(await next.lookup(stamp('A')), undefined);
});

test('a damaged index or report file is started afresh, never thrown', async () => {
  const m = memFs();
  m.files.set(INDEX_FILE, new TextEncoder().encode('{"format":1,"analyzer":"0.1.0+abc","docs":{"x":{"key":"zz"}},"blobs":[]'));
  const s = storage(m.fs);
  assert.deepEqual(await s.open(), []);
  await s.save({ uri: 'file:///ws/a.pdf', stamp: stamp('A'), report: fortyPages() });
  m.files.set(reportFile(resultKey(stamp('A'), '0.1.0+abc')), new TextEncoder().encode('not json'));
  assert.equal(await s.load('file:///ws/a.pdf'), undefined);
  assert.deepEqual(s.docs(), [], 'a document whose report cannot be read is dropped');
});

test('following the report store: set stores, delete forgets, transient and unread entries are not stored', async () => {
  const m = memFs();
  const s = storage(m.fs);
  const store = new ReportStore();
  s.follow(store);
  store.set({ uri: 'file:///ws/a.pdf', label: 'a.pdf', stamp: stamp('A'), report: fortyPages() });
  store.set({ uri: 'file:///ws/b.pdf', label: 'b.pdf', stamp: stamp('B'), report: fortyPages(), transient: true });
  store.set({ uri: 'file:///ws/c.pdf', label: 'c.pdf', stamp: stamp('C', { sha256: '' }), report: failureReport('damaged', 'EACCES') });
  await s.flush();
  assert.deepEqual(
    s.docs().map((d) => d.uri),
    ['file:///ws/a.pdf'],
  );
  const writes = m.writes();
  store.set({ uri: 'file:///ws/a.pdf', label: 'a.pdf', stamp: stamp('A'), report: fortyPages() });
  await s.flush();
  assert.equal(m.writes(), writes, 'the same report again writes nothing');
  store.delete('file:///ws/a.pdf');
  await s.flush();
  assert.deepEqual(s.docs(), []);
  assert.equal(reports(m.files).length, 0, 'a deleted file leaves no stored report behind');
});

// ---- with the classifier and the fake `vscode` --------------------------------------------------------------------

/** A workspace of files (path → bytes, mtime) behind the fake workspace.fs. */
function fakeDisk(files: Record<string, { text: string; mtime: number }>) {
  vscode.workspace.fs.stat = async (u) => {
    const f = files[u.path];
    if (!f) throw new Error('EntryNotFound (FileSystemError)');
    return { type: 1, ctime: 0, mtime: f.mtime, size: f.text.length };
  };
  vscode.workspace.fs.readFile = async (u) => {
    const f = files[u.path];
    if (!f) throw new Error('EntryNotFound (FileSystemError)');
    return new TextEncoder().encode(f.text);
  };
  return files;
}

function classifierOver(
  store: ReportStore,
  s: ResultStorage,
  passwords?: { get(uri: string): Promise<{ password: string; remembered: boolean } | undefined> },
) {
  const calls: Partial<AnalyzerOptions>[] = [];
  const pool = {
    size: 1,
    analyzeDetailed: async (bytes: Uint8Array, o: Partial<AnalyzerOptions>) => {
      calls.push(o);
      return { kind: 'report' as const, report: failureReport('damaged', new TextDecoder().decode(bytes)) };
    },
  };
  const lines: string[] = [];
  const settings = readSettings(() => undefined);
  const c = new Classifier(store, pool as never, () => settings, { appendLine: (l: string) => lines.push(l) }, { storage: s, passwords });
  return { c, calls, lines };
}

const U = (p: string) => vscode.Uri.file(p) as unknown as import('vscode').Uri;

test('after a reload: unchanged files are shown without analysis, deleted ones dropped, changed ones checked again', async () => {
  const disk = fakeDisk({
    '/ws/same.pdf': { text: '%PDF same', mtime: 1 },
    '/ws/gone.pdf': { text: '%PDF gone', mtime: 1 },
    '/ws/touched.pdf': { text: '%PDF touched', mtime: 1 },
    '/ws/edited.pdf': { text: '%PDF edited', mtime: 1 },
  });
  const m = memFs();
  {
    const store = new ReportStore();
    const s = storage(m.fs);
    s.follow(store);
    const { c, calls } = classifierOver(store, s);
    for (const p of Object.keys(disk)) assert.equal(await c.classifyOne(U(p)), 'analysed');
    assert.equal(calls.length, 4);
    await s.dispose();
  }
  // while the window was closed: one file deleted, one touched (same bytes), one edited
  delete disk['/ws/gone.pdf'];
  disk['/ws/touched.pdf'].mtime = 2;
  disk['/ws/edited.pdf'] = { text: '%PDF EDITED', mtime: 2 };

  const store = new ReportStore();
  const s = storage(m.fs);
  s.follow(store);
  const { c, calls } = classifierOver(store, s);
  const r = await restoreResults(s, store, c);
  assert.equal(r.restored, 1);
  assert.equal(r.gone, 1);
  assert.deepEqual(r.recheck.map((u) => u.path).sort(), ['/ws/edited.pdf', '/ws/touched.pdf']);
  assert.equal(store.get('file:///ws/same.pdf')?.report.error?.message, '%PDF same', 'shown from storage');
  assert.equal(calls.length, 0, 'nothing analysed to show them');
  assert.ok(!s.docs().some((d) => d.uri === 'file:///ws/gone.pdf'), 'the deleted file is forgotten');

  assert.equal(await c.classifyOne(U('/ws/touched.pdf')), 'cached', 'same bytes, new mtime: the stored report by content');
  assert.equal(calls.length, 0);
  assert.equal(await c.classifyOne(U('/ws/edited.pdf')), 'analysed');
  assert.equal(store.get('file:///ws/edited.pdf')?.report.error?.message, '%PDF EDITED');
  await s.flush();
  assert.equal(reports(m.files).length, 3, 'the edited file’s old report is gone');
});

test('a file stored under other settings is checked again, not shown', async () => {
  fakeDisk({ '/ws/a.pdf': { text: '%PDF a', mtime: 1 } });
  const m = memFs();
  const s = storage(m.fs);
  await s.save({ uri: 'file:///ws/a.pdf', stamp: stamp('%PDF a', { mtime: 1, options: optionsKey({ minTextChars: 3 }) }), report: fortyPages() });
  await s.dispose();
  const store = new ReportStore();
  const s2 = storage(m.fs);
  const { c } = classifierOver(store, s2);
  const r = await restoreResults(s2, store, c);
  assert.equal(r.restored, 0);
  assert.equal(r.recheck.length, 1);
  assert.equal(store.size, 0);
});

test('passwords: the key marks that one was used; a password not remembered keeps the report out of storage', async () => {
  fakeDisk({ '/ws/locked.pdf': { text: '%PDF locked', mtime: 1 } });
  const m = memFs();
  const store = new ReportStore();
  const s = storage(m.fs);
  s.follow(store);
  let remembered = false;
  const { c, calls, lines } = classifierOver(store, s, { get: async () => ({ password: 'pw-Zq81', remembered }) });
  assert.equal(await c.classifyOne(U('/ws/locked.pdf')), 'analysed');
  assert.equal(calls[0].password, 'pw-Zq81', 'the analyzer gets the password');
  const e = store.get('file:///ws/locked.pdf')!;
  assert.ok(e.stamp.options.endsWith(PASSWORD_MARK));
  assert.equal(e.transient, true);
  await s.flush();
  assert.deepEqual(s.docs(), [], 'not stored: the password was not remembered');
  remembered = true;
  store.set({ ...e, transient: undefined });
  await s.flush();
  assert.equal(s.docs().length, 1, 'stored once remembered');
  const everything = [...m.files.values()].map((b) => new TextDecoder().decode(b)).join('\n') + lines.join('\n') + JSON.stringify(store.all());
  assert.ok(!everything.includes('pw-Zq81'), 'the password is in no stored file, log line or store entry');
});

test('a pool fault is kept in memory only', async () => {
  fakeDisk({ '/ws/slow.pdf': { text: '%PDF slow', mtime: 1 } });
  const m = memFs();
  const store = new ReportStore();
  const s = storage(m.fs);
  s.follow(store);
  const pool = {
    size: 1,
    analyzeDetailed: async () => ({
      kind: 'fault' as const,
      fault: 'timeout',
      report: failureReport('budget-exceeded', 'stopped'),
    }),
  };
  const settings = readSettings(() => undefined);
  const c = new Classifier(store, pool as never, () => settings, { appendLine() {} }, { storage: s });
  assert.equal(await c.classifyOne(U('/ws/slow.pdf')), 'analysed');
  assert.equal(store.get('file:///ws/slow.pdf')?.transient, true);
  await s.flush();
  assert.deepEqual(s.docs(), []);
});

test('stored results that never answer do not stall a file: it is analysed after the wait, and the wait is logged', async () => {
  fakeDisk({ '/ws/copy.pdf': { text: '%PDF copy', mtime: 1 } });
  const store = new ReportStore();
  // a lookup that never settles, as a file system operation stuck in the storage's queue leaves every later one
  const stuck = { lookup: () => new Promise<undefined>(() => {}) };
  let analysed = 0;
  const pool = {
    size: 1,
    analyzeDetailed: async () => {
      analysed++;
      return { kind: 'ok' as const, report: report([page(1, 'text')]) };
    },
  };
  const lines: string[] = [];
  const settings = readSettings(() => undefined);
  const c = new Classifier(store, pool as never, () => settings, { appendLine: (l: string) => lines.push(l) }, { storage: stuck, storageWaitMs: 50 });
  assert.equal(await c.classifyOne(U('/ws/copy.pdf')), 'analysed');
  assert.equal(analysed, 1);
  assert.ok(
    lines.some((l) => /stored results did not answer within 0\.05 s/.test(l)),
    lines.join('\n'),
  );
});
