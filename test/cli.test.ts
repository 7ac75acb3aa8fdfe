/**
 * The CLI as pipelines and shells use it (issue 13). Process-level tests run the built `dist/cli.js` (npm test builds
 * first); the rest call its modules directly: argument parsing, the record writer, progress and summary, the batch
 * runner with an injected analysis (for internal errors and ordering), and the shared pool's fault and memory handling.
 */
import { fakeWorkers } from './fake-worker';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { analyzePdfSync } from '../src/analyzer/analyze';
import { DEFAULT_OPTIONS } from '../src/analyzer/options';
import type { DocumentReport } from '../src/analyzer/types';
import { byteSize, parseArgs, parseLimit } from '../src/cli/args';
import { main, optionsHash } from '../src/cli/main';
import { Output, jsonChunks } from '../src/cli/output';
import { Progress, summaryLine } from '../src/cli/progress';
import { buildRecord, coalesce, recordJson, renderRecord } from '../src/cli/render';
import { escapeName, formatTable } from '../src/cli/table';
import { failureReport } from '../src/shared/report';
import { AnalysisPool, type AnalysisWorker } from '../src/shared/pool';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}dist/cli.js`;
const fxDir = `${root}test/fixtures/analyzer`;
const fx = (name: string) => `${fxDir}/${name}`;
const built = existsSync(cli);
const needsBuild = { skip: !built && 'dist/cli.js not built' };
const tmp = mkdtempSync(join(tmpdir(), 'ppd-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[], opts: { input?: string | Buffer; stdio?: 'pipe' | number; timeout?: number } = {}) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    timeout: opts.timeout ?? 60_000,
    input: opts.input,
    stdio: opts.stdio !== undefined ? [opts.stdio, 'pipe', 'pipe'] : undefined,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, error: r.error };
}
const jsonLines = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// ---------------------------------------------------------------- arguments

test('args: long, --opt=value, short and grouped flags, -- and -', () => {
  const p = parseArgs([
    'classify',
    '--json',
    '--jobs=3',
    '-pq',
    '-j4',
    '--max-bytes',
    '2M',
    '-L',
    'minTextChars=10',
    '--limit=scanCoverage=0.25',
    '-P',
    'pw',
    'a.pdf',
    '-',
    '--',
    '--weird.pdf',
    '-x',
  ]);
  assert.equal(p.kind, 'run');
  if (p.kind !== 'run') return;
  assert.deepEqual(p.args.paths, ['a.pdf', '-', '--weird.pdf', '-x']);
  assert.equal(p.args.json, true);
  assert.equal(p.args.pages, true);
  assert.equal(p.args.quiet, true);
  assert.equal(p.args.jobs, 4, 'the last --jobs wins');
  assert.equal(p.args.maxBytes, 2 * 1024 * 1024);
  assert.equal(p.args.password, 'pw');
  assert.deepEqual(p.args.limits, { minTextChars: 10, scanCoverage: 0.25 });
  const list = parseArgs(['classify', '-T', '-', '-0']);
  assert.ok(list.kind === 'run' && list.args.filesFrom === '-' && list.args.nul && list.args.paths.length === 0);
});

test('args: help, version and usage errors with hints', () => {
  assert.equal(parseArgs(['-h']).kind, 'help');
  const sub = parseArgs(['classify', '--help']);
  assert.ok(sub.kind === 'help' && /--files-from/.test(sub.text) && /exit status/.test(sub.text));
  assert.equal(parseArgs(['classify', '-h', '--bogus']).kind, 'usage-error', 'strict parsing sees the bad option first');
  assert.equal(parseArgs(['--version']).kind, 'version');
  assert.equal(parseArgs(['classify', '-V']).kind, 'version');
  const err = (argv: string[]) => {
    const r = parseArgs(argv);
    assert.equal(r.kind, 'usage-error', argv.join(' '));
    return r.kind === 'usage-error' ? r.message : '';
  };
  assert.match(err(['classify', 'x', '--josn']), /unknown option --josn \(did you mean --json\?\)/);
  assert.match(err(['clasify']), /did you mean classify/);
  assert.match(err([]), /no command/);
  assert.match(err(['classify']), /no files given/);
  assert.match(err(['classify', 'x', '--jobs', '0']), /--jobs needs a positive whole number/);
  assert.match(err(['classify', 'x', '--jobs']), /--jobs needs a value/);
  assert.match(err(['classify', 'x', '--max-bytes', '12Q']), /--max-bytes/);
  assert.match(err(['classify', 'x', '-0']), /only applies to --files-from/);
  assert.match(err(['classify', '-', '-T', '-']), /standard input/);
  assert.match(err(['classify', 'x', '--limit', 'minTextChar=3']), /unknown name 'minTextChar' \(did you mean minTextChars\?\)/);
  assert.match(err(['classify', 'x', '--limit', 'timeBudgetMs=-5']), /non-negative number/);
  assert.match(err(['classify', 'x', '--limit', 'timeBudgetMs=']), /non-negative number/);
  assert.match(err(['classify', 'x', '--limit', 'timeBudgetMs']), /NAME=VALUE/);
});

test('args: --limit accepts exactly the numeric AnalyzerOptions keys; sizes take K/M/G', () => {
  for (const k of Object.keys(DEFAULT_OPTIONS)) assert.deepEqual(parseLimit(`${k}=7`), { name: k, value: 7 });
  assert.equal(typeof parseLimit('password=7'), 'string');
  assert.equal(byteSize('512M'), 512 * 2 ** 20);
  assert.equal(byteSize('1k'), 1024);
  assert.equal(byteSize('3GiB'), 3 * 2 ** 30);
  assert.equal(byteSize('10'), 10);
  assert.equal(byteSize('-1'), undefined);
  assert.equal(byteSize('1.5M'), undefined);
});

test('options hash: stable, follows --limit, ignores the password', () => {
  assert.equal(optionsHash({}), optionsHash({ minTextChars: DEFAULT_OPTIONS.minTextChars }));
  assert.notEqual(optionsHash({}), optionsHash({ minTextChars: 41 }));
  assert.equal(optionsHash({}), optionsHash({ password: 'secret' }));
  assert.match(optionsHash({}), /^[0-9a-f]{12}$/);
});

// ---------------------------------------------------------------- writer, table, progress

class Sink extends Writable {
  chunks: string[] = [];
  length = 0;
  keep: boolean;
  constructor(keep = true, highWaterMark = 16384) {
    super({ highWaterMark, decodeStrings: false });
    this.keep = keep;
  }
  override _write(chunk: unknown, _enc: BufferEncoding, cb: () => void) {
    const s = String(chunk);
    this.length += s.length;
    if (this.keep) this.chunks.push(s);
    // A slow reader for the backpressure test; an immediate one where the test reads what was written.
    if (this.keep) cb();
    else setImmediate(cb);
  }
  text() {
    return this.chunks.join('');
  }
}

test('record writer: byte-identical to JSON.stringify on real reports', async () => {
  for (const name of ['17-mixed.pdf', '06-enc-user-password.pdf', '21-not-a-pdf.pdf', '05-filters.pdf']) {
    const bytes = new Uint8Array(readFileSync(fx(name)));
    const rec = buildRecord({ file: name, sha256: sha256(bytes), size: bytes.length, analyzerVersion: 'v', optionsHash: 'h' }, analyzePdfSync(bytes));
    assert.equal([...recordJson(rec)].join(''), JSON.stringify(rec) + '\n', name);
    assert.equal([...jsonChunks(rec)].join(''), JSON.stringify(rec), name);
  }
  const odd = { a: undefined, b: [undefined, () => 1, NaN, Infinity, { toJSON: () => 'j' }], c: new Date(0), d: { e: [[1, [2, { f: null }]]] } };
  assert.equal([...jsonChunks(odd)].join(''), JSON.stringify(odd));
});

test('record writer: a report too large for one string (10,000 boxes × 1,500 pages) streams out with backpressure', async () => {
  const boxes = Array.from({ length: 10_000 }, (_, i) => ({
    rect: [i + 0.125, i + 0.25, i + 100.5, i + 200.75],
    pixelWidth: 2480,
    pixelHeight: 3508,
    filter: 'DCTDecode',
  }));
  const page = (n: number) => ({
    page: n,
    route: 'ocr',
    reasons: ['image-only'],
    evidence: {
      visibleChars: 0,
      invisibleChars: 0,
      hiddenUnderImage: 0,
      badChars: 0,
      textQuality: 1,
      fonts: [],
      imageCoverage: 1,
      imageCount: 10_000,
      imageBoxes: boxes,
      vectorOps: 0,
      operators: 1,
      boxes: { mediaBox: [0, 0, 612, 792], cropBox: [0, 0, 612, 792] },
      rotate: 0,
    },
  });
  const pageCount = 1500;
  const report = {
    ...failureReport('text-layer', 'x'),
    pages: Array.from({ length: pageCount }, (_, i) => page(i + 1)),
  } as unknown as DocumentReport;
  delete (report as { error?: unknown }).error;
  const rec = buildRecord({ file: 'huge.pdf', sha256: 'ab', size: 1, analyzerVersion: 'v', optionsHash: 'h' }, report);
  const onePage = JSON.stringify(rec.pages[0]).length;
  assert.ok(onePage * pageCount > 2 ** 29, 'the record is longer than V8 can hold in one string');
  assert.throws(() => JSON.stringify(rec), RangeError, 'the old way fails');
  const sink = new Sink(false, 1 << 20);
  const out = new Output(sink);
  let first = '';
  const pieces = coalesce(renderRecord(rec, 'json'));
  await out.writeChunks(
    (function* () {
      for (const p of pieces) {
        if (!first) first = p.slice(0, 40);
        yield p;
      }
    })(),
  );
  await out.end();
  assert.equal(out.closed, false);
  const head = JSON.stringify({ ...rec, pages: [] }).length - 2; // without the closing "]}"
  // pages differ only in the length of their number
  let digits = 0;
  for (let n = 1; n <= pageCount; n++) digits += String(n).length - 1;
  assert.equal(sink.length, head + onePage * pageCount + digits + (pageCount - 1) + 2 + 1);
  assert.match(first, /^\{"file":"huge\.pdf","sha256":"ab"/);
});

test('output: a closed reader (EPIPE) closes the output quietly; other errors are kept', async () => {
  const epipe = new Writable({ write: (_c, _e, cb) => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
  const out = new Output(epipe);
  await out.write('x'.repeat(70_000));
  await new Promise((r) => setImmediate(r));
  assert.equal(out.closed, true);
  assert.equal(out.error, undefined);
  await out.write('more'); // dropped, no throw
  const full = new Writable({ write: (_c, _e, cb) => cb(Object.assign(new Error('no space'), { code: 'ENOSPC' })) });
  const o2 = new Output(full);
  await o2.write('y'.repeat(70_000));
  await new Promise((r) => setImmediate(r));
  assert.equal(o2.closed, true);
  assert.match(String(o2.error?.message), /no space/);
});

test('table: control characters in file names are escaped; plurals', () => {
  assert.equal(escapeName('a\nb\tc\x1b[31md\x7f\u2028.pdf'), 'a\\nb\\tc\\x1b[31md\\x7f\\u{2028}.pdf');
  const bytes = new Uint8Array(readFileSync(fx('01-text.pdf')));
  const rec = buildRecord({ file: 'evil\n/x: 9 pages.pdf', analyzerVersion: 'v', optionsHash: 'h' }, analyzePdfSync(bytes));
  const table = formatTable(rec as never, false);
  assert.match(table, /^evil\\n\/x: 9 pages\.pdf: 1 page — /);
  assert.equal(table.split('\n')[0].includes('\n'), false);
});

test('progress: only on a TTY, never when quiet; summary wording and plurals', () => {
  const tty = new Sink();
  let t = 0;
  const p = new Progress(tty, true, () => (t += 200));
  p.update({ files: 1, pages: 1, needOcr: 0, cantTell: 0, failed: 0 });
  p.update({ files: 2, pages: 1538, needOcr: 1, cantTell: 0, failed: 0 });
  p.clear();
  assert.match(tty.text(), /\r\x1b\[K1 file · 1 page · 0 need OCR…\r\x1b\[K2 files · 1,538 pages · 1 need OCR…\r\x1b\[K$/);
  const pipe = new Sink();
  const off = Progress.for(pipe, false, false);
  off.update({ files: 1, pages: 1, needOcr: 0, cantTell: 0, failed: 0 }, true);
  off.clear();
  assert.equal(pipe.text(), '');
  const quiet = new Sink();
  Progress.for(quiet, true, true).update({ files: 1, pages: 1, needOcr: 0, cantTell: 0, failed: 0 }, true);
  assert.equal(quiet.text(), '');
  assert.equal(
    summaryLine({ files: 436, pages: 1538, needOcr: 146, cantTell: 35, failed: 0 }, 4512),
    "436 files · 1,538 pages · 146 need OCR · 35 can't tell · 4.5 s",
  );
  assert.equal(
    summaryLine({ files: 1, pages: 1, needOcr: 1, cantTell: 0, failed: 1 }, 40),
    "1 file · 1 page · 1 needs OCR · 0 can't tell · 1 failed · 0.0 s",
  );
});

// ---------------------------------------------------------------- the batch, in process

function io(stdin: Readable = Readable.from([])) {
  const stdout = new Sink();
  const stderr = new Sink();
  return { stdout, stderr, stdin, stdoutIsTTY: false, stderrIsTTY: false };
}

test("batch: an internal error on one file is that file's record, on stderr, status 1, and the batch goes on", async () => {
  const files = ['01-text.pdf', '07-scan.pdf', '17-mixed.pdf', '21-not-a-pdf.pdf'].map(fx);
  const streams = io();
  const code = await main(['classify', '--json', '-j', '2', ...files], {
    ...streams,
    analyze: async (_bytes, options, extra) => {
      const file = extra.render.stamp.file;
      if (file.endsWith('07-scan.pdf')) throw new Error('boom in the analyzer glue');
      if (file.endsWith('17-mixed.pdf'))
        return {
          kind: 'fault',
          fault: 'crash',
          report: failureReport('damaged', 'the analysis worker failed on this file: worker exited with code 1'),
        };
      return { kind: 'report', report: analyzePdfSync(new Uint8Array(readFileSync(extra.path!)), options) };
    },
  });
  assert.equal(code, 1);
  const recs = jsonLines(streams.stdout.text());
  assert.deepEqual(
    recs.map((r) => r.file),
    files,
    'every file has its line, in input order',
  );
  assert.equal(recs[0].error, undefined);
  assert.equal(recs[1].error.reason, 'internal-error');
  assert.match(recs[1].error.message, /boom/);
  assert.equal(recs[2].error.reason, 'internal-error');
  assert.match(recs[2].error.message, /worker exited/);
  assert.equal(recs[3].error.reason, 'not-a-pdf', "a can't-tell report is a report");
  assert.equal(recs[0].sha256, undefined, 'an analysis other than our worker does not hash files it did not read');
  assert.match(streams.stderr.text(), /07-scan\.pdf: internal error: boom/);
  assert.match(streams.stderr.text(), /17-mixed\.pdf: internal error: .*worker exited/);
});

test('batch: output follows input order whatever finishes first', async () => {
  const names = readdirSync(fxDir)
    .filter((n) => n.endsWith('.pdf'))
    .sort();
  const files = [...names, ...names.slice().reverse()].map(fx);
  for (const jobs of ['1', '3', '8']) {
    const streams = io();
    const code = await main(['classify', '--json', '--jobs', jobs, ...files], {
      ...streams,
      analyze: async (_bytes, options, extra) => {
        await new Promise((r) => setTimeout(r, Math.random() * 15));
        return { kind: 'report', report: analyzePdfSync(new Uint8Array(readFileSync(extra.path!)), options) };
      },
    });
    assert.equal(code, 0, streams.stderr.text());
    assert.deepEqual(
      jsonLines(streams.stdout.text()).map((r) => r.file),
      files,
      `--jobs ${jobs}`,
    );
  }
});

test('batch: table mode closes with a summary on stderr and no progress when stderr is not a TTY', async () => {
  const streams = io();
  const code = await main(['classify', fx('17-mixed.pdf'), fx('01-text.pdf'), `${root}no-such.pdf`], {
    ...streams,
    analyze: async (_bytes, options, extra) => ({ kind: 'report', report: analyzePdfSync(new Uint8Array(readFileSync(extra.path!)), options) }),
  });
  assert.equal(code, 1);
  const err = streams.stderr.text();
  assert.doesNotMatch(err, /\r/);
  assert.match(err, /no-such\.pdf: no such file or directory\n/);
  assert.match(err, /^3 files · 5 pages · 1 needs OCR · 0 can't tell · 1 failed · \d+\.\d s$/m);
  assert.doesNotMatch(streams.stdout.text(), /no-such/, 'in table mode a failure goes to stderr only');
});

// ---------------------------------------------------------------- the shared pool

const scripted = (answer: (req: { id: number }, post: (m: unknown) => void, die: (e: Error) => void) => void) => fakeWorkers(answer);

test('pool: a worker reporting memory past the bound is replaced, its result kept; faults are told apart', async () => {
  let n = 0;
  const { stats, factory } = scripted((req, post) => {
    n++;
    const memory = n === 2 ? { heapUsed: 10, external: 2_000_000 } : { heapUsed: 10, external: 10 };
    setTimeout(() => post({ type: 'result', id: req.id, report: failureReport('damaged', `answer ${n}`), memory }), 1);
  });
  const pool = new AnalysisPool(factory, 1, factory, { maxWorkerBytes: 1_000_000 });
  const outs = [];
  for (let i = 0; i < 3; i++) outs.push(await pool.analyzeDetailed(new Uint8Array([1]), {}, undefined, { tag: i }));
  assert.deepEqual(
    outs.map((o) => o.kind),
    ['report', 'report', 'report'],
  );
  assert.equal(pool.recycled, 1);
  assert.equal(stats.started, 2, 'a fresh worker took the third file');
  assert.ok(outs[1].kind === 'report' && (outs[1].reply as { memory: unknown }).memory, 'the reply is passed through');
  pool.dispose();

  const crash = scripted((req, _post, die) => setTimeout(() => die(new Error('worker exited with code 134')), 1));
  const p2 = new AnalysisPool(crash.factory, 1, crash.factory);
  const o = await p2.analyzeDetailed(new Uint8Array([1]), {});
  assert.ok(o.kind === 'fault' && o.fault === 'crash' && /134/.test(o.report.error!.message));
  p2.dispose();

  const hang = scripted(() => {});
  const p3 = new AnalysisPool(hang.factory, 1, hang.factory, { graceMs: 20 });
  const h = await p3.analyzeDetailed(new Uint8Array([1]), { timeBudgetMs: 10 });
  assert.ok(h.kind === 'fault' && h.fault === 'timeout' && h.report.error?.reason === 'budget-exceeded');
  assert.equal(hang.stats.terminated, 1, 'the hung worker was stopped');
  p3.dispose();
});

test('pool: workers that die before saying hello hand their files, bytes intact, to the fallback', async () => {
  const dead = (): AnalysisWorker => {
    let onErr: (e: unknown) => void = () => {};
    return {
      postMessage: () => setTimeout(() => onErr(new Error('Unknown file extension ".ts"')), 1),
      onMessage: () => {},
      onError: (cb) => (onErr = cb),
      terminate: () => {},
    };
  };
  const fallback = scripted((req, post) =>
    setTimeout(
      () =>
        post({ type: 'result', id: req.id, report: failureReport('damaged', `len ${(req as unknown as { bytes: Uint8Array }).bytes.byteLength}`) }),
      1,
    ),
  );
  const logs: string[] = [];
  const pool = new AnalysisPool(dead, 3, fallback.factory, { log: (m) => logs.push(m) });
  const outs = await Promise.all([1, 2, 3].map((n) => pool.analyzeDetailed(new Uint8Array(n * 10), {})));
  assert.deepEqual(
    outs.map((o) => (o.kind === 'report' ? o.report.error?.message : o.kind)),
    ['len 10', 'len 20', 'len 30'],
  );
  assert.equal(pool.inProcess, true);
  assert.equal(logs.filter((l) => /failed to start/.test(l)).length, 1);
  pool.dispose();
});

test("pool: the extension's module re-exports the shared pool", async () => {
  const ext = await import('../src/extension/analysisPool');
  assert.equal(ext.AnalysisPool, AnalysisPool);
});

// ---------------------------------------------------------------- the built CLI as a process

test('process: --version, help, usage errors exit 2 with a hint', needsBuild, () => {
  const v = run(['--version']);
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^pdf-page-diagnostics \d+\.\d+\.\d+\S* \(analyzer \S+\)\n$/);
  const h = run(['classify', '--help']);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /exit status:[\s\S]*0 {2}every file got a report[\s\S]*1 {2}some file[\s\S]*2 {2}usage error/);
  const u = run(['classify', '--josn', fx('01-text.pdf')]);
  assert.equal(u.code, 2);
  assert.equal(u.stdout, '');
  assert.match(u.stderr, /unknown option --josn \(did you mean --json\?\)\nTry 'pdf-page-diagnostics classify --help'/);
  assert.equal(run(['classify']).code, 2);
  assert.equal(run(['classify', fx('01-text.pdf'), '--limit', 'nope=1']).code, 2);
});

test('process: JSON records carry file, sha256, size, analyzer version and options hash; --limit reaches the analyzer', needsBuild, () => {
  const file = fx('17-mixed.pdf');
  const r = run(['classify', '--json', file]);
  assert.equal(r.code, 0, r.stderr);
  const [rec] = jsonLines(r.stdout);
  const bytes = readFileSync(file);
  assert.deepEqual(Object.keys(rec).slice(0, 5), ['file', 'sha256', 'size', 'analyzerVersion', 'optionsHash']);
  assert.equal(rec.sha256, sha256(bytes));
  assert.equal(rec.size, bytes.length);
  assert.equal(rec.analyzerVersion, /\(analyzer (\S+)\)/.exec(run(['--version']).stdout)![1]);
  assert.deepEqual(rec.ocrPages, [4]);
  for (const k of ['page', 'route', 'reasons', 'visibleChars', 'imageCoverage', 'imageBoxes', 'fonts', 'boxes', 'rotate'])
    assert.ok(k in rec.pages[0], k);
  assert.equal(r.stderr, '', 'no summary and no progress in JSON mode');
  const limited = run(['classify', '--json', '--limit', 'maxPages=1', file]);
  const [rec2] = jsonLines(limited.stdout);
  assert.notEqual(rec2.optionsHash, rec.optionsHash);
  assert.equal(rec2.pages.length, 1, 'the limit reached the analyzer');
  assert.equal(rec2.sha256, rec.sha256);
});

test("process: exit 0 when every file got a report (can't tell included), 1 when one could not be read", needsBuild, () => {
  const ok = run(['classify', '--json', fx('01-text.pdf'), fx('21-not-a-pdf.pdf'), fx('06-enc-user-password.pdf')]);
  assert.equal(ok.code, 0, ok.stderr);
  const missing = run(['classify', '--json', fx('01-text.pdf'), `${tmp}/missing.pdf`, fx('07-scan.pdf')]);
  assert.equal(missing.code, 1);
  const recs = jsonLines(missing.stdout);
  assert.equal(recs.length, 3);
  assert.equal(recs[1].file, `${tmp}/missing.pdf`);
  assert.equal(recs[1].error.reason, 'not-found');
  assert.equal(recs[2].needsOcr, true, 'the batch went on');
  assert.match(missing.stderr, /missing\.pdf: no such file or directory/);
});

test('process: stdin with -, bounded by --max-bytes; too large is named as such', needsBuild, () => {
  const bytes = readFileSync(fx('17-mixed.pdf'));
  const r = run(['classify', '--json', '-'], { input: bytes });
  assert.equal(r.code, 0, r.stderr);
  const [rec] = jsonLines(r.stdout);
  assert.equal(rec.file, '-');
  assert.equal(rec.sha256, sha256(bytes));
  assert.deepEqual(rec.ocrPages, [4]);
  const big = run(['classify', '--json', '--max-bytes', '1K', '-'], { input: bytes });
  assert.equal(big.code, 1);
  const [b] = jsonLines(big.stdout);
  assert.equal(b.error.reason, 'too-large');
  assert.match(big.stderr, /-: too large \(more than 1\.0 KB > --max-bytes\)/);
  assert.doesNotMatch(big.stderr + big.stdout, /damaged/);
  const file = run(['classify', '--max-bytes', '1000', fx('17-mixed.pdf')]);
  assert.equal(file.code, 1);
  assert.match(file.stderr, /17-mixed\.pdf: too large \(3\.2 KB > --max-bytes 1000 bytes\)/);
});

test(
  'process: an endless stdin (/dev/zero) stops at --max-bytes',
  { ...needsBuild, skip: needsBuild.skip || (!existsSync('/dev/zero') && 'no /dev/zero') },
  async () => {
    const { openSync, closeSync } = await import('node:fs');
    const fd = openSync('/dev/zero', 'r');
    const t0 = Date.now();
    const r = run(['classify', '--json', '--max-bytes', '4M', '-'], { stdio: fd, timeout: 20_000 });
    closeSync(fd);
    assert.equal(r.signal, null, 'finished by itself');
    assert.equal(r.code, 1);
    assert.equal(jsonLines(r.stdout)[0].error.reason, 'too-large');
    assert.ok(Date.now() - t0 < 15_000);
  },
);

test(
  'process: a FIFO and /dev/zero are refused at once, per file',
  { ...needsBuild, skip: needsBuild.skip || (process.platform === 'win32' && 'no FIFOs') },
  () => {
    const fifo = `${tmp}/pipe.pdf`;
    execFileSync('mkfifo', [fifo]);
    const t0 = Date.now();
    const r = run(['classify', '--json', fifo, '/dev/zero', fx('01-text.pdf')], { timeout: 20_000 });
    assert.equal(r.signal, null, 'it returned rather than being killed');
    assert.ok(Date.now() - t0 < 15_000);
    assert.equal(r.code, 1);
    const recs = jsonLines(r.stdout);
    assert.deepEqual(
      recs.map((x) => x.error?.reason),
      ['not-regular-file', 'not-regular-file', undefined],
    );
    assert.match(r.stderr, /pipe\.pdf: not a regular file \(a FIFO\)/);
    assert.match(r.stderr, /\/dev\/zero: not a regular file \(a character device\)/);
  },
);

test('process: --files-from - with -0 (find -print0), odd names escaped in the table', needsBuild, () => {
  const dir = `${tmp}/odd`;
  mkdirSync(dir, { recursive: true });
  const a = `${dir}/line\nbreak.pdf`;
  const b = `${dir}/esc\x1b[2Jape.pdf`;
  const c = `${dir}/plain.pdf`;
  copyFileSync(fx('17-mixed.pdf'), a);
  copyFileSync(fx('07-scan.pdf'), b);
  copyFileSync(fx('01-text.pdf'), c);
  const list = [c, a, b].join('\0') + '\0';
  const r = run(['classify', '--json', '--files-from', '-', '-0'], { input: list });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    jsonLines(r.stdout).map((x) => x.file),
    [c, a, b],
    'list order, names intact',
  );
  const t = run(['classify', '-T', '-', '-0'], { input: list });
  assert.equal(t.code, 0);
  assert.match(t.stdout, /line\\nbreak\.pdf: 4 pages/);
  assert.match(t.stdout, /esc\\x1b\[2Jape\.pdf: 1 page /);
  assert.doesNotMatch(t.stdout, /\x1b/);
  const noList = run(['classify', '--files-from', `${tmp}/no-list.txt`]);
  assert.equal(noList.code, 2);
  assert.match(noList.stderr, /cannot read the path list .*no-list\.txt: no such file or directory/);
  assert.equal(noList.stdout, '');
  const lines = run(['classify', '--json', '--files-from=-'], { input: `${c}\n${b}\n` });
  assert.deepEqual(
    jsonLines(lines.stdout).map((x) => x.file),
    [c, b],
  );
  if (process.platform !== 'win32') {
    const found = spawnSync(
      'bash',
      ['-c', `find "${dir}" -name '*.pdf' -print0 | sort -z | "${process.execPath}" "${cli}" classify --json -T - -0`],
      { encoding: 'utf8' },
    );
    assert.equal(found.status, 0, found.stderr);
    assert.equal(jsonLines(found.stdout).length, 3);
  }
});

test('process: records come out while the path list is still being written (a slow find)', needsBuild, async () => {
  const child = spawn(process.execPath, [cli, 'classify', '--json', '-T', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.write(fx('17-mixed.pdf') + '\n');
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no record while the list was open')), 30_000);
    child.stdout.once('data', (d) => {
      clearTimeout(timer);
      resolve(String(d));
    });
  });
  assert.equal(JSON.parse(first.split('\n')[0]).file, fx('17-mixed.pdf'));
  child.stdin.end(fx('07-scan.pdf') + '\n');
  let rest = '';
  child.stdout.on('data', (d) => (rest += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(code, 0);
  assert.equal(JSON.parse(rest.trim()).file, fx('07-scan.pdf'));
});

test('process: --jobs keeps input order and gives the same records', needsBuild, () => {
  const serial = run(['classify', fxDir, '--json']);
  const parallel = run(['classify', fxDir, '--json', '--jobs', '3']);
  assert.equal(serial.code, 0, serial.stderr);
  assert.equal(parallel.code, 0, parallel.stderr);
  const strip = (s: string) => jsonLines(s).map((l) => ({ ...l, elapsedMs: 0 }));
  assert.ok(strip(serial.stdout).length >= 20);
  assert.deepEqual(strip(parallel.stdout), strip(serial.stdout));
});

test('process: real workers report their memory; past the bound they are replaced and the batch is unaffected', needsBuild, () => {
  // The bound is 2 × (maxHeldBytes + --max-bytes): 8 KiB here, which any worker's heap exceeds after a file.
  const files = ['01-text.pdf', '07-scan.pdf', '17-mixed.pdf'].map(fx);
  const r = run(['classify', '--json', '--max-bytes', '4K', '--limit', 'maxHeldBytes=0', ...files]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    jsonLines(r.stdout).map((x) => x.file),
    files,
  );
  assert.equal((r.stderr.match(/analysis worker holds \d+ MB after a file \(bound 0 MB\); replaced/g) ?? []).length, 3);
});

test('process: table mode prints a summary on stderr, no progress on a pipe; -q silences it; an empty folder says so', needsBuild, () => {
  const r = run(['classify', fxDir]);
  assert.equal(r.code, 0);
  assert.doesNotMatch(r.stderr, /\r|\x1b/, 'no progress line when stderr is a pipe');
  assert.match(r.stderr, /^\d+ files · \d+ pages · \d+ need OCR · \d+ can't tell · \d+\.\d s\n$/);
  assert.match(r.stdout, /17-mixed\.pdf: 4 pages — needs OCR: pages 4/);
  assert.match(r.stdout, /01-text\.pdf: 1 page — /);
  assert.equal(run(['classify', '-q', fxDir]).stderr, '');
  const empty = `${tmp}/empty`;
  mkdirSync(empty, { recursive: true });
  const e = run(['classify', empty]);
  assert.equal(e.code, 0);
  assert.match(e.stderr, /empty: no PDF files in this directory/);
});

test('process: a reader that closes early (| head) ends the run quietly', needsBuild, async () => {
  const many = Array.from({ length: 20 }, () => fxDir);
  const child = spawn(process.execPath, [cli, 'classify', '--json', ...many], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(code, 0);
  assert.doesNotMatch(stderr, /EPIPE|Error|at /);
  if (process.platform !== 'win32') {
    const sh = spawnSync(
      'bash',
      ['-c', `set -o pipefail; "${process.execPath}" "${cli}" classify ${many.map((d) => `"${d}"`).join(' ')} | head -1; echo "status=$?"`],
      { encoding: 'utf8' },
    );
    assert.match(sh.stdout, /status=0/);
    assert.doesNotMatch(sh.stderr, /EPIPE|Error/);
  }
});

test(
  'the analyzer bundle is platform-neutral: no Node built-ins, no require',
  { skip: !existsSync(`${root}dist/analyzer/index.js`) && 'not built' },
  () => {
    const src = readFileSync(`${root}dist/analyzer/index.js`, 'utf8');
    assert.doesNotMatch(src, /from ["']node:|\brequire\(["']|\bprocess\.|(?<![A-Za-z])Buffer\./);
  },
);
