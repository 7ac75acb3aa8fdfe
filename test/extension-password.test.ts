import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { test } from 'node:test';
import { AnalysisPool } from '../src/extension/analysisPool';
import { toCsv, toJson, toJsonLines } from '../src/shared/export';
import { metadataSections, overlayOf, pageEvidenceLines, problemsOf, verdictOf } from '../src/extension/model';
import { Passwords } from '../src/extension/passwords';
import { ResultStorage, type StorageFs } from '../src/extension/persist';
import { readSettings } from '../src/extension/settings';
import { ReportStore } from '../src/extension/store';
import { inProcessWorker } from '../src/extension/worker/inProcess';
import { evidenceMessages, overlayHeadOf } from '../src/shared/protocol';

// classifier.ts imports 'vscode': resolve it to the fake for this test file (as extension-cache.test.ts)
const fakeUrl = new URL('./fake-vscode.ts', import.meta.url).href;
register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(s, c, next) { return next(s === 'vscode' ? ${JSON.stringify(fakeUrl)} : s, c); }`),
);
const vscode = (await import('vscode')) as unknown as typeof import('./fake-vscode');
const { Classifier, PASSWORD_MARK } = await import('../src/extension/classifier');

// R6 AES-256, user password "secret" (test/fixtures/analyzer/README.md)
const LOCKED = readFileSync(new URL('./fixtures/analyzer/06-enc-user-password.pdf', import.meta.url));
const PASSWORD = 'secret';
const WRONG = 'wrong-Pw-7731';

function setup() {
  vscode.workspace.fs.stat = async () => ({ type: 1, ctime: 0, mtime: 1, size: LOCKED.byteLength });
  vscode.workspace.fs.readFile = async () => new Uint8Array(LOCKED);
  const secrets = new Map<string, string>();
  const memento = new Map<string, unknown>();
  const passwords = new Passwords(
    {
      get: async (k) => secrets.get(k),
      store: async (k, v) => void secrets.set(k, v),
      delete: async (k) => void secrets.delete(k),
    },
    { get: <T>(k: string) => memento.get(k) as T | undefined, update: async (k, v) => void memento.set(k, v) },
  );
  const files = new Map<string, Uint8Array>();
  const fs: StorageFs = { read: async (n) => files.get(n), write: async (n, d) => void files.set(n, d), delete: async (n) => void files.delete(n) };
  const storage = new ResultStorage(fs, { analyzerVersion: 't', maxBytes: () => 1 << 30, flushDelayMs: 1 });
  const store = new ReportStore();
  storage.follow(store);
  const log: string[] = [];
  const pool = new AnalysisPool(undefined, 1, inProcessWorker);
  const settings = readSettings(() => undefined);
  const classifier = new Classifier(store, pool, () => settings, { appendLine: (l: string) => log.push(l) }, { storage, passwords });
  return { secrets, memento, files, storage, store, log, pool, passwords, classifier };
}

const uri = vscode.Uri.file('/ws/docs/more/locked.pdf') as unknown as import('vscode').Uri;
const key = uri.toString();

/** Everything the extension writes or shows about a document: logs, exports, webview messages, tree texts, storage. */
function everythingShown(t: ReturnType<typeof setup>): string {
  const e = t.store.get(key)!;
  const doc = { file: e.label, report: e.report };
  const overlay = overlayOf(e.report, true);
  const head = overlayHeadOf(overlay, 1);
  const webview =
    JSON.stringify({ ...head, sizes: [...head.sizes], routes: [...head.routes] }) + JSON.stringify(evidenceMessages(overlay.pages, 1, 1, 100));
  const tree = [
    verdictOf(e.report, true).summary,
    ...e.report.pages.flatMap((p) => pageEvidenceLines(p)),
    ...metadataSections(e.report, true).flatMap((s) => s.rows.map((r) => `${r.label} ${r.value}`)),
    ...problemsOf(e.report, new Set(['ocr', 'review', 'unknown', 'ocr-layer', 'blank', 'text']), true).map((p) => p.message),
  ];
  const stored = [...t.files.values()].map((b) => new TextDecoder().decode(b));
  return [
    t.log.join('\n'),
    toJsonLines([doc]),
    toJson(doc),
    toCsv([doc]),
    webview,
    tree.join('\n'),
    stored.join('\n'),
    JSON.stringify(t.store.all()),
    JSON.stringify([...t.memento.values()]),
  ].join('\n');
}

test('an encrypted file is classified with its password; the password is in no log, export, webview message, tree text or stored file', async () => {
  const t = setup();
  try {
    assert.equal(await t.classifier.classifyOne(uri), 'analysed');
    assert.equal(t.store.get(key)!.report.error?.reason, 'password-required', 'without a password it cannot be read');

    await t.passwords.set(key, PASSWORD, true);
    assert.equal(await t.classifier.classifyOne(uri), 'analysed');
    const e = t.store.get(key)!;
    assert.equal(e.report.error, undefined, 'opened with the password');
    assert.equal(e.report.pages[0]?.route, 'text', 'and its page has text');
    assert.ok(e.stamp.options.endsWith(PASSWORD_MARK));
    await t.storage.flush();
    assert.equal(t.storage.docs().length, 1, 'stored: the password is remembered');
    assert.equal(t.secrets.size, 1, 'the password itself is in the secret store');

    const all = everythingShown(t);
    assert.ok(all.length > 2000, 'the check reads real output');
    assert.ok(all.includes('text'), 'sanity: the output names the route');
    assert.ok(!all.includes(PASSWORD), 'the password appears nowhere the extension writes or shows');
  } finally {
    t.pool.dispose();
  }
});

test('a wrong password leaves the file "password required", says the given one does not open it, and leaks nowhere', async () => {
  const t = setup();
  try {
    await t.passwords.set(key, WRONG, false);
    assert.equal(await t.classifier.classifyOne(uri), 'analysed');
    const e = t.store.get(key)!;
    assert.equal(e.report.error?.reason, 'password-required');
    assert.match(e.report.error?.message ?? '', /password given does not open/);
    assert.equal(e.transient, true, 'made with a password not remembered: memory only');
    await t.storage.flush();
    assert.equal(t.storage.docs().length, 0);
    assert.equal(t.secrets.size, 0);
    assert.ok(!everythingShown(t).includes(WRONG));
  } finally {
    t.pool.dispose();
  }
});

test('Forget: every password goes, remembered or not, and files need one again', async () => {
  const t = setup();
  try {
    await t.passwords.set(key, PASSWORD, true);
    await t.passwords.set('file:///ws/other.pdf', 'x', false);
    assert.deepEqual((await t.passwords.forgetAll()).sort(), ['file:///ws/docs/more/locked.pdf', 'file:///ws/other.pdf']);
    assert.equal(t.secrets.size, 0);
    assert.equal(await t.passwords.get(key), undefined);
    assert.equal(await t.classifier.classifyOne(uri), 'analysed');
    assert.equal(t.store.get(key)!.report.error?.reason, 'password-required');
  } finally {
    t.pool.dispose();
  }
});
