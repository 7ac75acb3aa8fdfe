/**
 * `classify --out DIR` parts, `--resume` / `--fast-resume`, and `merge` (issue 17): a part is never complete before
 * its marker, a torn last line is dropped, resume analyses only what is missing or changed, and merge's check catches
 * a missing shard, a doubled or foreign record, a mixed run and a cut part, writing nothing then.
 */
import assert from 'node:assert/strict';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Sink } from './text-sink';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { analyzePdfSync } from '../src/analyzer/analyze';
import { readInputFile } from '../src/cli/inputs';
import { main } from '../src/cli/main';
import { csvRows } from '../src/shared/export';
import { pathShard } from '../src/cli/shard';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ppd-parts-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

type Hook = (path: string, n: number) => void;

/** main() with an in-thread analysis that records which files it was asked for; `hook` runs before each. */
async function run(argv: string[], hook?: Hook) {
  const calls: string[] = [];
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await main(argv, {
    stdout,
    stderr,
    stdin: Readable.from([]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
    analyze: async (_b, options, extra) => {
      calls.push(extra.path!);
      hook?.(extra.path!, calls.length);
      const read = readInputFile(extra.path!, Infinity);
      if (!read.ok)
        return {
          kind: 'report',
          report: analyzePdfSync(new Uint8Array(0), options),
          reply: { readError: { reason: read.reason, message: read.message } },
        };
      const { createHash } = await import('node:crypto');
      const digest = { sha256: createHash('sha256').update(read.bytes).digest('hex'), size: read.bytes.byteLength };
      return { kind: 'report', report: analyzePdfSync(read.bytes, options), reply: { digest } };
    },
  });
  return { code, calls, stdout: stdout.text(), stderr: stderr.text() };
}

const FIXTURES = [
  '01-text.pdf',
  '02-text-objstm.pdf',
  '05-filters.pdf',
  '07-scan.pdf',
  '11-rotated.pdf',
  '13-ocr-layer.pdf',
  '15-vector.pdf',
  '17-mixed.pdf',
  '21-empty.pdf',
  '21-not-a-pdf.pdf',
  '26-tesseract-ocr.pdf',
];

let seq = 0;
/** A fresh copy of the fixtures (so tests may change them) and a list file with a missing path at the end. */
function corpus(): { dir: string; list: string; files: string[]; out: string } {
  const dir = join(tmp, `c${seq++}`);
  mkdirSync(join(dir, 'in'), { recursive: true });
  const files = FIXTURES.map((f) => {
    const p = join(dir, 'in', f);
    copyFileSync(`${root}test/fixtures/analyzer/${f}`, p);
    return p;
  });
  files.push(join(dir, 'in', 'gone.pdf'));
  const list = join(dir, 'list.txt');
  writeFileSync(list, files.join('\n') + '\n');
  return { dir, list, files, out: join(dir, 'out') };
}

const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter(Boolean);
const recs = (p: string) => lines(p).map((l) => JSON.parse(l) as { file: string; sha256?: string; error?: { reason: string }; elapsedMs: number });
const part = (out: string, i: number, n: number) => join(out, `part-${String(i).padStart(String(n - 1).length, '0')}-of-${n}`);

async function fullRun(c: ReturnType<typeof corpus>, n: number, extra: string[] = []) {
  for (let i = 0; i < n; i++) {
    const r = await run(['classify', '-T', c.list, '--shard', `${i}/${n}`, '--out', c.out, ...extra]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
  }
}

// ---------------------------------------------------------------- parts

test('--out: records go to the partial as they are done; the part and its marker appear only when the shard is complete', async () => {
  const c = corpus();
  const base = part(c.out, 0, 1);
  const seen: number[] = [];
  const r = await run(['classify', '-T', c.list, '--out', c.out], (_p, n) => {
    // before the n-th analysis the records finished so far are in the partial, whole (the reader runs at most 4
    // files ahead of the writer), and nothing claims the shard is done
    const got = lines(`${base}.jsonl.partial`);
    for (const l of got) JSON.parse(l);
    assert.ok(got.length <= n - 1 && got.length >= n - 1 - 4, `${got.length} records before analysis ${n}`);
    assert.ok(!existsSync(`${base}.jsonl`) && !existsSync(`${base}.done.json`));
    seen.push(n);
  });
  assert.equal(r.code, 1, 'a missing input: status 1, with its record');
  assert.equal(r.stdout, '', 'records go to the part, not stdout');
  assert.equal(seen.length, c.files.length, 'with --out, list entries are taken as given (no stat): the read reports the missing one');
  assert.ok(!existsSync(`${base}.jsonl.partial`));
  const rs = recs(`${base}.jsonl`);
  assert.deepEqual(
    rs.map((x) => x.file),
    c.files,
  );
  assert.equal(rs.at(-1)!.error?.reason, 'not-found');
  const marker = JSON.parse(readFileSync(`${base}.done.json`, 'utf8')) as Record<string, unknown>;
  assert.equal(marker.records, c.files.length);
  assert.equal(marker.bytes, readFileSync(`${base}.jsonl`).length);
  assert.equal(marker.failed, 1);
  assert.deepEqual(marker.list, marker.shardList, 'one shard: its list is the whole list');
  assert.match(String(marker.analyzerVersion), /\+/);
  assert.match(String(marker.optionsHash), /^[0-9a-f]{12}$/);
});

test('--out: an existing shard without --resume, or a directory of another shard count, is a usage error (exit 2)', async () => {
  const c = corpus();
  await fullRun(c, 2);
  const again = await run(['classify', '-T', c.list, '--shard', '0/2', '--out', c.out]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /already has shard 0\/2 .*add --resume/);
  assert.equal(again.calls.length, 0);
  const other = await run(['classify', '-T', c.list, '--shard', '0/3', '--out', c.out]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /holds parts of 2 shards and this run is shard 0\/3/);
  const done = await run(['classify', '-T', c.list, '--shard', '1/2', '--out', c.out, '--resume']);
  assert.equal(done.code, 0);
  assert.equal(done.calls.length, 0, 'a complete shard is not analysed again');
  assert.match(done.stderr, /already complete/);
  assert.equal((await run(['classify', '--resume', 'a.pdf'])).code, 2, '--resume needs --out');
  assert.equal((await run(['classify', '--out', c.out, '-p', 'a.pdf'])).code, 2, '--pages with --out');
});

// ---------------------------------------------------------------- resume

/** A run killed after `k` records: the partial as the killed task leaves it, optionally with a torn record after. */
async function killedAfter(c: ReturnType<typeof corpus>, k: number, torn: string) {
  await fullRun(c, 1);
  const base = part(c.out, 0, 1);
  const whole = lines(`${base}.jsonl`);
  rmSync(`${base}.jsonl`);
  rmSync(`${base}.done.json`);
  writeFileSync(`${base}.jsonl.partial`, whole.slice(0, k).join('\n') + '\n' + torn);
  return { base, whole };
}

test('--resume: the torn last line is dropped, the finished records kept, only the rest analysed', async () => {
  const c = corpus();
  const { base, whole } = await killedAfter(c, 4, '{"file":"' + c.files[4] + '","sha256":"ab');
  const r = await run(['classify', '-T', c.list, '--out', c.out, '--resume']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /resuming 4 records \(a torn last line of \d+ bytes dropped\)/);
  assert.deepEqual(r.calls, c.files.slice(4), 'the four finished files are not analysed again');
  const got = lines(`${base}.jsonl`);
  assert.equal(got.length, c.files.length);
  for (const l of got) JSON.parse(l); // every line whole
  assert.deepEqual(got.slice(0, 4), whole.slice(0, 4), 'the kept records byte for byte');
  assert.deepEqual(
    recs(`${base}.jsonl`).map((x) => x.file),
    c.files,
    'each input exactly once',
  );
  const marker = JSON.parse(readFileSync(`${base}.done.json`, 'utf8')) as { resumed: number; records: number };
  assert.equal(marker.resumed, 4);
  assert.equal(marker.records, c.files.length);
});

test('--resume: a file changed since (same size, other bytes) is analysed again and its old record dropped', async () => {
  const c = corpus();
  const { base } = await killedAfter(c, 6, '');
  const changed = c.files[1];
  const b = readFileSync(changed);
  b[b.length - 2] ^= 0x01; // same size, new sha256
  writeFileSync(changed, b);
  const r = await run(['classify', '-T', c.list, '--out', c.out, '--resume']);
  assert.deepEqual(r.calls, [changed, ...c.files.slice(6)]);
  const rs = recs(`${base}.jsonl`);
  assert.equal(rs.filter((x) => x.file === changed).length, 1, 'no duplicate');
  assert.equal(rs.find((x) => x.file === changed)!.sha256, (await import('node:crypto')).createHash('sha256').update(b).digest('hex'));
  assert.equal(rs.length, c.files.length);
  assert.equal((JSON.parse(readFileSync(`${base}.done.json`, 'utf8')) as { resumed: number }).resumed, 5);
});

test('--fast-resume trusts size and mtime: it keeps a same-size change with an old mtime (the documented trade-off), and redoes a recent one', async () => {
  const c = corpus();
  // the shard "started" an hour ago, and the files are older still
  const hourAgo = Date.now() / 1000 - 3600;
  for (const f of c.files.slice(0, -1)) utimesSync(f, hourAgo - 60, hourAgo - 60);
  const { base } = await killedAfter(c, 6, '');
  writeFileSync(`${base}.state.json`, JSON.stringify({ shard: 0, shards: 1, startedAt: hourAgo * 1000 }));
  const sneaky = c.files[1];
  const b = readFileSync(sneaky);
  b[b.length - 2] ^= 0x01;
  writeFileSync(sneaky, b);
  utimesSync(sneaky, hourAgo - 60, hourAgo - 60); // cp -p / rsync -t of another same-size file
  const touched = c.files[2];
  utimesSync(touched, Date.now() / 1000, Date.now() / 1000); // modified after the shard started
  const r = await run(['classify', '-T', c.list, '--out', c.out, '--fast-resume']);
  assert.deepEqual(r.calls, [touched, ...c.files.slice(6)], 'the recent mtime is redone; the same-size, old-mtime change is not');
  assert.equal(recs(`${base}.jsonl`).length, c.files.length);
});

test('--resume: records of other options are not reused', async () => {
  const c = corpus();
  await killedAfter(c, 5, '');
  const r = await run(['classify', '-T', c.list, '--out', c.out, '--resume', '-L', 'minTextChars=41']);
  assert.deepEqual(r.calls, c.files, 'another options hash: everything again');
  const rs = recs(`${part(c.out, 0, 1)}.jsonl`);
  assert.equal(rs.length, c.files.length);
  assert.equal(new Set(rs.map((x) => x.file)).size, c.files.length);
});

test('--resume: error records are retried (a file missing then is there now)', async () => {
  const c = corpus();
  const { base } = await killedAfter(c, c.files.length, '');
  copyFileSync(`${root}test/fixtures/analyzer/01-text.pdf`, c.files.at(-1)!);
  const r = await run(['classify', '-T', c.list, '--out', c.out, '--resume']);
  assert.equal(r.code, 0);
  assert.deepEqual(r.calls, [c.files.at(-1)]);
  assert.equal(recs(`${base}.jsonl`).at(-1)!.error, undefined);
  assert.equal(recs(`${base}.jsonl`).length, c.files.length);
});

// ---------------------------------------------------------------- merge

async function merged(dir: string, extra: string[] = []) {
  const out = join(dir, '..', `merged-${seq++}.jsonl`);
  const r = await run(['merge', dir, '-o', out, ...extra]);
  return { ...r, out, written: existsSync(out) };
}

test('merge: the parts of a complete run, every input exactly once, same records as one process; CSV rows per page', async () => {
  const c = corpus();
  await fullRun(c, 3);
  const m = await merged(c.out, ['-T', c.list]);
  assert.equal(m.code, 0, m.stderr);
  assert.match(m.stderr, /3 shards · 12 files · \d+ pages \(text \d+/);
  assert.match(m.stderr, /pages need OCR in \d+ files · \d+ can't tell · 1 unreadable or failed/);
  assert.match(m.stderr, /check passed: every input exactly once/);
  const one = await run(['classify', '--json', '-q', '-T', c.list]);
  const strip = (s: string) =>
    s
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.stringify({ ...(JSON.parse(l) as object), elapsedMs: 0 }))
      .sort();
  assert.deepEqual(strip(readFileSync(m.out, 'utf8')), strip(one.stdout));
  for (const rec of recs(m.out)) {
    const i = readdirSync(c.out).find(
      (n) => n.endsWith('.jsonl') && readFileSync(join(c.out, n), 'utf8').includes(`"file":${JSON.stringify(rec.file)}`),
    );
    assert.equal(i, `part-${pathShard(rec.file, 3)}-of-3.jsonl`);
  }
  const csv = await run(['merge', c.out, '--csv', '-q']);
  assert.equal(csv.code, 0);
  const rows = csv.stdout.split('\r\n').filter(Boolean);
  assert.match(rows[0], /^file,page,route,reasons,/);
  assert.match(rows[0], /,error,layerScore,reocr$/, "the same columns as the extension's export, layer quality last");
  const pages = recs(m.out).reduce((n, r) => n + Math.max(1, (r as unknown as { pages: unknown[] }).pages.length), 0);
  assert.equal(rows.length - 1, pages, 'a row per page, one for a file without pages');
  assert.match(csvRows({ file: '=cmd.pdf', error: { reason: 'not-found', message: 'gone' } })[0], /^'=cmd\.pdf,,unknown,not-found,/);
  const page = { page: 1, route: 'ocr-layer' as const, reasons: [], visibleChars: 0, invisibleChars: 90, hiddenUnderImage: 0, badChars: 0 };
  const scored = {
    ...page,
    textQuality: 1,
    imageCoverage: 1,
    imageCount: 1,
    vectorOps: 0,
    fonts: [],
    rotate: 0,
    layerQuality: { score: 0.31, reocr: true, signals: {} },
  };
  assert.match(csvRows({ file: 'a.pdf', pages: [scored] })[0], /,0\.31,true$/, "a scored page's score and advice");
});

test('merge: with --layer-quality its summary counts the pages to re-OCR from the records; without, it says nothing of them', async () => {
  const c = corpus();
  await fullRun(c, 2, ['--layer-quality']);
  const m = await merged(c.out, ['-T', c.list]);
  assert.equal(m.code, 0, m.stderr);
  const n = recs(m.out).reduce((k, r) => k + ((r as unknown as { reocrPages?: number[] }).reocrPages?.length ?? 0), 0);
  assert.ok(n > 0, 'the fixtures have a layer advised re-OCR');
  assert.match(m.stderr, new RegExp(`can't tell · ${n} to re-OCR · 1 unreadable or failed`));
  const plain = corpus();
  await fullRun(plain, 2);
  const p = await merged(plain.out, ['-T', plain.list]);
  assert.equal(p.code, 0, p.stderr);
  assert.doesNotMatch(p.stderr, /to re-OCR/);
});

test('merge: a missing or unfinished shard fails, names it and what to resubmit, and writes nothing', async () => {
  const c = corpus();
  await fullRun(c, 3);
  rmSync(`${part(c.out, 1, 3)}.done.json`);
  const m = await merged(c.out);
  assert.equal(m.code, 1);
  assert.match(m.stderr, /shard 1\/3: without its done marker/);
  assert.match(m.stderr, /sbatch --array=1 /);
  assert.match(m.stderr, /check failed: nothing written/);
  assert.equal(m.written, false);
  rmSync(`${part(c.out, 1, 3)}.jsonl`);
  assert.match((await merged(c.out)).stderr, /shard 1\/3: missing/);
});

test('merge: a doubled record is caught by the shard digest and named', async () => {
  const c = corpus();
  await fullRun(c, 2);
  const p = `${part(c.out, 0, 2)}.jsonl`;
  const ls = lines(p);
  // the doubled record replaces another one, and the marker's counts are made to agree: only the digest can tell
  writeFileSync(p, [...ls.slice(0, -1), ls[0]].join('\n') + '\n');
  const mk = `${part(c.out, 0, 2)}.done.json`;
  const marker = JSON.parse(readFileSync(mk, 'utf8')) as { bytes: number };
  marker.bytes = readFileSync(p).length;
  writeFileSync(mk, JSON.stringify(marker));
  const m = await merged(c.out);
  assert.equal(m.code, 1);
  assert.match(m.stderr, /shard 0\/2: its records' paths .* are not its list entries .*; more than once: .*/);
  assert.equal(m.written, false);
  const withList = await merged(c.out, ['-T', c.list]);
  assert.match(withList.stderr, /1 listed input has no record: /);
  assert.match(withList.stderr, /1 input has more records than list entries: /);
});

test('merge: a record in the wrong shard, a mixed run and a cut part are caught', async () => {
  const c = corpus();
  await fullRun(c, 2);
  const p0 = `${part(c.out, 0, 2)}.jsonl`;
  const p1 = `${part(c.out, 1, 2)}.jsonl`;
  appendFileSync(p1, lines(p0)[0] + '\n');
  let m = await merged(c.out);
  assert.equal(m.code, 1);
  assert.match(m.stderr, /shard 1\/2: .*bytes where its marker says.*records where its marker says.*1 records whose path belongs to another shard/);
  // a cut part (the last record half written) is caught too
  const c2 = corpus();
  await fullRun(c2, 2);
  const q = `${part(c2.out, 1, 2)}.jsonl`;
  writeFileSync(q, readFileSync(q).subarray(0, readFileSync(q).length - 10));
  m = await merged(c2.out);
  assert.match(m.stderr, /shard 1\/2: its last line is cut short/);
  // shards run with other options
  const c3 = corpus();
  await run(['classify', '-T', c3.list, '--shard', '0/2', '--out', c3.out]);
  await run(['classify', '-T', c3.list, '--shard', '1/2', '--out', c3.out, '-L', 'minTextChars=41']);
  m = await merged(c3.out);
  assert.equal(m.code, 1);
  assert.match(m.stderr, /shard 1\/2 was run differently from shard 0: options [0-9a-f]+ ≠ [0-9a-f]+/);
  // a task that saw a different list (a line added) does not add up
  const c4 = corpus();
  await run(['classify', '-T', c4.list, '--shard', '0/2', '--out', c4.out]);
  appendFileSync(c4.list, join(c4.dir, 'in', 'late.pdf') + '\n');
  await run(['classify', '-T', c4.list, '--shard', '1/2', '--out', c4.out]);
  m = await merged(c4.out);
  assert.equal(m.code, 1);
  assert.match(m.stderr, /work list 12 entries\/[0-9a-f]+ ≠ 13|work list 13 entries\/[0-9a-f]+ ≠ 12/);
});

test('merge: usage errors exit 2 (no DIR, a DIR that is not there, a list that is not there)', async () => {
  assert.equal((await run(['merge'])).code, 2);
  const nodir = await run(['merge', join(tmp, 'nope')]);
  assert.equal(nodir.code, 2);
  assert.match(nodir.stderr, /no such directory/);
  const c = corpus();
  await fullRun(c, 1);
  assert.equal((await run(['merge', c.out, '-T', join(tmp, 'nolist')])).code, 2);
  const bad = await run(['merge', c.out, '--jsn']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Try 'pdf-page-diagnostics merge --help'/);
});

test('merge -o on a device writes in place and never renames over it', { timeout: 30_000 }, async () => {
  const c = corpus();
  await fullRun(c, 1);
  const fifo = join(c.dir, 'fifo');
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [fifo]);
  const { createReadStream } = await import('node:fs');
  const chunks: Buffer[] = [];
  const reader = new Promise<void>((res) =>
    createReadStream(fifo)
      .on('data', (b) => chunks.push(b as Buffer))
      .on('end', res),
  );
  const m = await run(['merge', c.out, '-o', fifo, '-q']);
  await reader;
  assert.equal(m.code, 0, m.stderr);
  assert.equal(Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).length, c.files.length);
  const { statSync } = await import('node:fs');
  assert.ok(statSync(fifo).isFIFO(), 'still a FIFO');
});

test('--resume: a partial that is not a regular file (a FIFO, a device) is refused, not read forever', { timeout: 30_000 }, async () => {
  const c = corpus();
  mkdirSync(c.out, { recursive: true });
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [`${part(c.out, 0, 1)}.jsonl.partial`]);
  const r = await run(['classify', '-T', c.list, '--out', c.out, '--resume']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /part-0-of-1\.jsonl\.partial is not a regular file/);
  assert.equal(r.calls.length, 0);
});
