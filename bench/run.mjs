#!/usr/bin/env node
// Speed benchmark: our analyzer against the floor (the least work any structural classifier must do), a
// straightforward pdf.js classifier and MuPDF.js, on every PDF of the shared corpus. See bench/README-figures.md.
//
//   node --expose-gc bench/run.mjs [--quick] [--limit N] [--files a,b] [--only ours,floor,pdfjs,mupdf,ours-lq] [--reps N]
//        [--timeout S] [--json out.json] [--mem ours,floor | --no-mem] [--corpus DIR]
//
// Each contender runs in its own child process (bench/child.mjs) that reads a file into memory, runs once as a
// warm-up, then times repeated runs; the per-document figure is the median. Files are taken one at a time, every
// contender in turn, so background load on the machine falls on all of them alike. A child that exceeds the time
// limit is killed and restarted, and the file recorded as a timeout; a thrown error is recorded as an error.
import { fork } from 'node:child_process';
import { readdirSync, statSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { ALL_CONTENDERS, DEFAULT_CONTENDERS, ROOT } from './contenders.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- options
function parseArgs(argv) {
  const o = {
    quick: false,
    limit: 0,
    files: null,
    only: DEFAULT_CONTENDERS.slice(),
    reps: 0,
    timeoutS: 10,
    json: null,
    mem: ['ours', 'floor'],
    corpus: path.resolve(ROOT, '..', 'shared', 'corpus'),
    minReps: 5,
    targetMs: 20,
    maxReps: 200,
    slowMs: 250,
    slowReps: 3,
    memFiles: 5,
  };
  const list = (v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) die(`${a} needs a value`);
      return argv[++i];
    };
    const int = (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) die(`${a}: not a number: ${v}`);
      return n;
    };
    switch (a) {
      case '--quick':
        o.quick = true;
        break;
      case '--limit':
        o.limit = Math.floor(int(val()));
        break;
      case '--files':
        o.files = list(val());
        break;
      case '--only':
        o.only = list(val());
        break;
      case '--reps':
        o.reps = Math.max(1, Math.floor(int(val())));
        break;
      case '--timeout':
        o.timeoutS = int(val());
        break;
      case '--json':
        o.json = val();
        break;
      case '--mem':
        o.mem = list(val());
        break;
      case '--no-mem':
        o.mem = [];
        break;
      case '--mem-files':
        o.memFiles = Math.max(1, Math.floor(int(val())));
        break;
      case '--corpus':
        o.corpus = path.resolve(val());
        break;
      case '-h':
      case '--help':
        process.stdout.write(
          readFileSync(fileURLToPath(import.meta.url), 'utf8')
            .split('\n')
            .slice(1, 12)
            .map((l) => l.replace(/^\/\/ ?/, ''))
            .join('\n') + '\n',
        );
        process.exit(0);
        break;
      default:
        die(`unknown option ${a} (try --help)`);
    }
  }
  for (const c of [...o.only, ...o.mem]) if (!ALL_CONTENDERS.includes(c)) die(`unknown contender ${c}; known: ${ALL_CONTENDERS.join(', ')}`);
  o.only = ALL_CONTENDERS.filter((c) => o.only.includes(c)); // canonical order
  return o;
}

function die(msg) {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------- corpus
function listPdfs(dir) {
  const out = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile() && /\.pdf$/i.test(e.name)) out.push({ path: p, rel: path.relative(dir, p), size: statSync(p).size });
    }
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** n files spread evenly over the size ranks (smallest and largest included), deterministic. */
function spreadBySize(files, n) {
  if (n >= files.length) return files.slice();
  const bySize = files.slice().sort((a, b) => a.size - b.size || (a.rel < b.rel ? -1 : 1));
  const pick = new Set();
  for (let i = 0; i < n; i++) pick.add(bySize[Math.round((i * (bySize.length - 1)) / Math.max(1, n - 1))]);
  return files.filter((f) => pick.has(f)); // back in name order, which mixes sizes (names start with a hash)
}

function loadLabels(corpus) {
  const labels = new Map();
  const p = path.join(corpus, 'labels.jsonl');
  if (!existsSync(p)) return labels;
  for (const line of readFileSync(p, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const j = JSON.parse(line);
      labels.set(j.file, j);
    } catch {
      /* a bad line costs one label */
    }
  }
  return labels;
}

// ---------------------------------------------------------------- statistics
function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
const geomean = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const sum = (xs) => xs.reduce((s, x) => s + x, 0);

// ---------------------------------------------------------------- formatting
const fmtMs = (ms) =>
  !Number.isFinite(ms) ? '–' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(3)} ms`;
const fmtX = (x) => (!Number.isFinite(x) ? '–' : x >= 100 ? `${x.toFixed(0)}×` : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`);
const fmtBytes = (b) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KB` : `${b} B`);
const fmtDur = (ms) => {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
};
function table(rows, align) {
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) =>
      r
        .map((v, c) => (align?.[c] === 'l' ? String(v).padEnd(w[c]) : String(v).padStart(w[c])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
const progress = (s) => process.stderr.write(s);

// ---------------------------------------------------------------- contender processes
class Runner {
  constructor(name) {
    this.name = name;
    this.child = null;
    this.state = 'new'; // new | ready | unavailable | broken
    this.message = '';
    this.restarts = 0;
  }

  /** Starts the child and waits for it to load its contender and warm up; false when the contender is unavailable. */
  async start() {
    if (!(await this.spawn())) return false;
    if (!this.warmPaths?.length) return true;
    const child = this.child;
    const warm = await new Promise((resolve) => {
      const timer = setTimeout(() => done(false), WARMUP_BUDGET_MS + 10_000);
      const onMsg = (m) => {
        if (m.type === 'warm') done(true);
      };
      const onExit = () => done(false);
      const done = (ok) => {
        clearTimeout(timer);
        child.off('message', onMsg);
        child.off('exit', onExit);
        resolve(ok);
      };
      child.on('message', onMsg);
      child.on('exit', onExit);
      child.send({ type: 'warmup', paths: this.warmPaths, budgetMs: WARMUP_BUDGET_MS });
    });
    if (warm) return true;
    // a warm-up file hung or crashed the contender: go on cold rather than not at all
    this.kill();
    progress(`bench: ${this.name}: warm-up failed, running cold\n`);
    this.warmPaths = null;
    return this.spawn();
  }

  async spawn() {
    const child = fork(path.join(HERE, 'child.mjs'), [this.name], {
      execArgv: ['--expose-gc', '--max-old-space-size=4096'],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // Libraries print warnings about damaged files; keep the tail for crash reports, drop the rest.
    this.tail = '';
    const keep = (d) => {
      this.tail = (this.tail + d.toString()).slice(-400);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.child = child;
    const msg = await new Promise((resolve) => {
      const onMsg = (m) => {
        cleanup();
        resolve(m);
      };
      const onExit = (code, sig) => {
        cleanup();
        resolve({ type: 'load-error', message: `exited (${sig ?? code}) while loading: ${this.tail.trim()}` });
      };
      const cleanup = () => {
        child.off('message', onMsg);
        child.off('exit', onExit);
      };
      child.on('message', onMsg);
      child.on('exit', onExit);
    });
    if (msg.type === 'ready') {
      this.state = 'ready';
      return true;
    }
    this.state = msg.type === 'unavailable' ? 'unavailable' : 'broken';
    this.message = msg.message;
    this.kill();
    return false;
  }

  kill() {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    this.child = null;
  }

  stop() {
    if (this.child?.connected) this.child.send({ type: 'exit' });
    const c = this.child;
    this.child = null;
    if (c)
      setTimeout(() => {
        if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      }, 2000).unref();
  }

  /** Times one file; resolves to a result record, never rejects. */
  async timeFile(file, plan, timeoutMs) {
    if (!this.child) {
      this.restarts++;
      if (!(await this.start())) return { status: 'error', message: `could not restart: ${this.message}` };
    }
    const child = this.child;
    const t0 = performance.now();
    return new Promise((resolve) => {
      let timer;
      const arm = (ms) => {
        clearTimeout(timer);
        timer = setTimeout(() => finish({ status: 'timeout', message: `no answer within ${fmtDur(ms)}`, wallMs: performance.now() - t0 }, true), ms);
      };
      const finish = (res, kill) => {
        clearTimeout(timer);
        child.off('message', onMsg);
        child.off('exit', onExit);
        if (kill) this.kill();
        resolve(res);
      };
      const onMsg = (m) => {
        if (m.type === 'first') {
          // the remaining runs: as many as planned, each allowed three times the first one's time
          const reps = plan.reps || Math.max(plan.minReps, plan.slowReps, Math.ceil(plan.targetMs / Math.max(m.ms, 1e-3)));
          arm(Math.max(timeoutMs, Math.min(reps, plan.maxReps) * m.ms * 3 + 5000));
        } else if (m.type === 'done') {
          const sorted = m.times.slice().sort((a, b) => a - b);
          const base = m.baselineTimes?.length
            ? {
                baselineMedianMs: quantile(
                  m.baselineTimes.slice().sort((a, b) => a - b),
                  0.5,
                ),
              }
            : {};
          finish({
            status: 'ok',
            medianMs: quantile(sorted, 0.5),
            minMs: sorted[0],
            reps: m.times.length,
            warmupMs: m.warmupMs,
            summary: m.summary,
            ...base,
          });
        } else if (m.type === 'error') {
          finish({ status: 'error', message: m.message }, m.phase === 'uncaught');
        }
      };
      const onExit = (code, sig) => {
        this.child = null;
        finish({ status: 'error', message: `crashed (${sig ?? `exit ${code}`}): ${this.tail.trim().split('\n').pop() ?? ''}` });
      };
      child.on('message', onMsg);
      child.on('exit', onExit);
      arm(timeoutMs);
      child.send({ type: 'file', path: file.path, plan });
    });
  }
}

// ---------------------------------------------------------------- memory
async function measureMemory(name, file) {
  return new Promise((resolve) => {
    const child = fork(path.join(HERE, 'mem-child.mjs'), [name, file.path], {
      execArgv: ['--expose-gc', '--trace-gc', '--max-old-space-size=4096'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      const m = /@@MEM (.*)/.exec(err);
      if (!m) return resolve({ error: `no report (${sig ?? `exit ${code}`}): ${err.trim().split('\n').pop() ?? ''}`.slice(0, 200) });
      const r = JSON.parse(m[1]);
      // GC trace lines: "Mark-Compact 3.1 (4.0) -> 2.6 (5.0) MB, … testing; …" — used (committed) before -> after
      const gcs = [];
      for (const line of out.split('\n')) {
        const g = /: (\S+(?: \S+)?) (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) -> (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) MB/.exec(line);
        if (g) gcs.push({ before: +g[2], committedBefore: +g[3], after: +g[4], committedAfter: +g[5], forced: / testing[;,]/.test(line) });
      }
      const forced = gcs.map((g, i) => (g.forced ? i : -1)).filter((i) => i >= 0);
      if (!r.error && forced.length >= 2) {
        const a = forced[forced.length - 2];
        const b = forced[forced.length - 1];
        const during = gcs.slice(a + 1, b + 1);
        const MB = 1 << 20;
        r.heapBase = gcs[a].after * MB;
        r.heapPeak = Math.max(...during.map((g) => g.before)) * MB;
        r.heapGrowth = r.heapPeak - r.heapBase;
        r.committedGrowth = (Math.max(...during.map((g) => g.committedBefore)) - gcs[a].committedAfter) * MB;
        r.gcsDuring = during.length - 1;
      }
      if (!r.error) r.rssGrowth = Math.max(0, r.maxRssAfter - r.rssBefore);
      resolve(r);
    });
  });
}

// ---------------------------------------------------------------- main
const opts = parseArgs(process.argv.slice(2));
const wall0 = performance.now();

if (!existsSync(opts.corpus)) {
  process.stdout.write(`bench: corpus not found at ${opts.corpus} — nothing to measure (expected ../shared/corpus next to the repo).\n`);
  process.exit(0);
}
const allFiles = listPdfs(opts.corpus);
if (!allFiles.length) {
  process.stdout.write(`bench: no PDFs under ${opts.corpus} — nothing to measure.\n`);
  process.exit(0);
}
const labels = loadLabels(opts.corpus);

let files = allFiles;
let selection = `all ${allFiles.length} files`;
if (opts.files) {
  files = allFiles.filter((f) => opts.files.some((s) => f.rel.includes(s)));
  selection = `${files.length} files matching ${opts.files.join(',')}`;
  if (!files.length) die(`no file matches ${opts.files.join(',')}`);
}
const limit = opts.limit || (opts.quick ? 60 : 0);
if (limit && limit < files.length) {
  files = spreadBySize(files, limit);
  selection = `${files.length} of ${allFiles.length} files, spread over sizes${opts.quick ? ' (--quick)' : ''}`;
}
const selectedBytes = sum(files.map((f) => f.size));
const allBytes = sum(allFiles.map((f) => f.size));

const plan = { reps: opts.reps, minReps: opts.minReps, targetMs: opts.targetMs, maxReps: opts.maxReps, slowMs: opts.slowMs, slowReps: opts.slowReps };
const timeoutMs = opts.timeoutS * 1000;
// warm-up files: a few ordinary ones (between the 30th and 60th size percentile of the corpus), the same for everyone
const WARMUP_BUDGET_MS = 3000;
const warmPaths = (() => {
  const bySize = allFiles.slice().sort((a, b) => a.size - b.size || (a.rel < b.rel ? -1 : 1));
  const out = [];
  for (let i = 0; i < 6; i++) out.push(bySize[Math.floor(bySize.length * (0.3 + (0.3 * i) / 5))].path);
  return [...new Set(out)];
})();

progress(`bench: ${selection}, ${fmtBytes(selectedBytes)}; contenders: ${opts.only.join(', ')}\n`);
const runners = [];
const skipped = new Map();
for (const name of opts.only) {
  const r = new Runner(name);
  r.warmPaths = warmPaths;
  if (await r.start()) runners.push(r);
  else (skipped.set(name, r.message), progress(`bench: skipping ${name}: ${r.state === 'unavailable' ? '' : 'failed to load: '}${r.message}\n`));
}
const active = runners.map((r) => r.name);

const records = [];
if (active.length) {
  const t0 = performance.now();
  let doneBytes = 0;
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const rec = { file: f.rel, size: f.size, results: {} };
    const parts = [];
    for (const r of runners) {
      const res = await r.timeFile(f, plan, timeoutMs);
      rec.results[r.name] = res;
      parts.push(`${r.name} ${res.status === 'ok' ? fmtMs(res.medianMs) + (res.reps > 1 ? `×${res.reps}` : '') : res.status.toUpperCase()}`);
    }
    records.push(rec);
    doneBytes += f.size;
    const el = performance.now() - t0;
    // ETA from both file count and bytes: per-file overheads dominate small files, bytes the large ones
    const eta = el * (0.5 * (files.length / (i + 1)) + 0.5 * (selectedBytes / Math.max(1, doneBytes))) - el;
    progress(`[${i + 1}/${files.length} ${fmtDur(el)} eta ${fmtDur(Math.max(0, eta))}] ${f.rel} (${fmtBytes(f.size)})  ${parts.join('  ')}\n`);
  }
}
for (const r of runners) r.stop();
const timingWallMs = performance.now() - wall0;

// ---------------------------------------------------------------- report
const out = [];
const say = (s = '') => out.push(s);
const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
say(`# PDF Page Diagnostics — speed benchmark`);
say(`${new Date().toISOString()}  node ${process.version}  ${cpu} ×${os.cpus().length}`);
say(`corpus: ${opts.corpus} — ${selection}, ${fmtBytes(selectedBytes)}`);
say(
  `timing: median of per-run times per document (warm-up run discarded; ≥ ${plan.minReps} runs and ≥ ${plan.targetMs} ms per file, ≤ ${plan.maxReps} runs; ${plan.slowReps} runs on files slower than ${plan.slowMs} ms${plan.reps ? `; fixed --reps ${plan.reps}` : ''}); time limit ${opts.timeoutS} s per file`,
);
for (const [name, why] of skipped) say(`skipped ${name}: ${why}`);
say();

const summary = { contenders: {}, ratios: {}, memory: {}, targets: {} };
if (active.length) {
  const rows = [['contender', 'ok', 'errors', 'timeouts', 'median', 'p95', 'p99', 'mean', 'total', 'MB/s', 'total (common)']];
  const common = records.filter((rec) => active.every((c) => rec.results[c]?.status === 'ok'));
  for (const c of active) {
    const ok = records.filter((rec) => rec.results[c]?.status === 'ok');
    const ms = ok.map((rec) => rec.results[c].medianMs).sort((a, b) => a - b);
    const errors = records.filter((rec) => rec.results[c]?.status === 'error');
    const timeouts = records.filter((rec) => rec.results[c]?.status === 'timeout');
    const total = sum(ms);
    const totalCommon = sum(common.map((rec) => rec.results[c].medianMs));
    const mbps = sum(ok.map((rec) => rec.size)) / (1 << 20) / (total / 1000);
    summary.contenders[c] = {
      ok: ok.length,
      errors: errors.length,
      timeouts: timeouts.length,
      medianMs: quantile(ms, 0.5),
      p95Ms: quantile(ms, 0.95),
      p99Ms: quantile(ms, 0.99),
      meanMs: total / ms.length,
      totalMs: total,
      totalCommonMs: totalCommon,
      mbPerS: mbps,
    };
    rows.push([
      c,
      ok.length,
      errors.length,
      timeouts.length,
      fmtMs(quantile(ms, 0.5)),
      fmtMs(quantile(ms, 0.95)),
      fmtMs(quantile(ms, 0.99)),
      fmtMs(total / ms.length),
      fmtMs(total),
      Number.isFinite(mbps) ? mbps.toFixed(1) : '–',
      fmtMs(totalCommon),
    ]);
  }
  say(`## Per-document time (median of runs), over the documents each contender handled`);
  say(table(rows, ['l']));
  say(`(total (common): over the ${common.length} files every contender handled)`);
  say();

  // the tail: the files at and past ours' p99, with the others' times on the same bytes, so the README can explain them
  if (active.includes('ours')) {
    const ok = records.filter((rec) => rec.results.ours?.status === 'ok').sort((a, b) => b.results.ours.medianMs - a.results.ours.medianMs);
    const tail = ok.slice(0, Math.max(5, Math.ceil(ok.length * 0.01)));
    summary.tail = tail.map((rec) => ({
      file: rec.file,
      size: rec.size,
      ms: Object.fromEntries(active.map((c) => [c, rec.results[c]?.medianMs ?? null])),
    }));
    say(`## Slowest files for ours (its p99 tail)`);
    say(
      table(
        [
          [...active, 'size', 'file'],
          ...tail.map((rec) => [
            ...active.map((c) => (rec.results[c]?.status === 'ok' ? fmtMs(rec.results[c].medianMs) : (rec.results[c]?.status ?? '–'))),
            fmtBytes(rec.size),
            rec.file,
          ]),
        ],
        [...active.map(() => undefined), undefined, 'l'],
      ),
    );
    say();
  }

  // failures
  const fails = [];
  for (const rec of records)
    for (const c of active) {
      const r = rec.results[c];
      if (r && r.status !== 'ok') fails.push([c, r.status, rec.file, (r.message ?? '').replace(/\s+/g, ' ').slice(0, 90)]);
    }
  if (fails.length) {
    say(`## Errors and timeouts (${fails.length})`);
    say(table([['contender', 'status', 'file', 'message'], ...fails], ['l', 'l', 'l', 'l']));
    say();
  }

  // ratios
  const RATIOS = [
    { key: 'pdfjs/ours', num: 'pdfjs', den: 'ours', target: 20, better: 'high', label: '≥ 20× faster than pdf.js' },
    // issue 15's targets (the release's were 5× and 2×)
    { key: 'mupdf/ours', num: 'mupdf', den: 'ours', target: 3, better: 'high', label: '≥ 3× faster than MuPDF.js' },
    { key: 'ours/floor', num: 'ours', den: 'floor', target: 2.5, better: 'low', label: '≤ 2.5× the floor' },
    // paired: ours-lq's child times the default analyzer alternately with it on the same bytes (see contenders.mjs)
    {
      key: 'ours-lq/ours',
      num: 'ours-lq',
      den: 'ours-lq',
      paired: true,
      target: 1.2,
      better: 'low',
      label: '≤ 1.2× with the layer-quality score on',
    },
    // the same over the two children's separate medians, for reference (the figure reported before the pairing)
    { key: 'ours-lq/ours (separate processes)', num: 'ours-lq', den: 'ours', better: 'low', label: 'reference' },
  ];
  // the baselines against each other, for orientation while ours is not built
  if (!active.includes('ours') && active.includes('pdfjs') && active.includes('mupdf'))
    RATIOS.push({ key: 'pdfjs/mupdf', num: 'pdfjs', den: 'mupdf', better: 'high', label: 'pdf.js time over MuPDF.js time (reference)' });
  const ratioRows = [['ratio', 'files', 'median', 'geomean', 'p5', 'p95', 'target', 'verdict']];
  const worst = [];
  for (const R of RATIOS) {
    if (!active.includes(R.num) || !active.includes(R.den)) {
      ratioRows.push([
        R.key,
        '–',
        '–',
        '–',
        '–',
        '–',
        R.target ? (R.better === 'high' ? `≥ ${R.target}×` : `≤ ${R.target}×`) : '',
        `not measured (${[R.num, R.den].filter((c) => !active.includes(c)).join(', ')} unavailable)`,
      ]);
      continue;
    }
    const denMs = (rec) => (R.paired ? rec.results[R.den].baselineMedianMs : rec.results[R.den].medianMs);
    const both = records.filter((rec) => rec.results[R.num]?.status === 'ok' && rec.results[R.den]?.status === 'ok' && denMs(rec) !== undefined);
    const per = both.map((rec) => ({ rec, x: rec.results[R.num].medianMs / Math.max(denMs(rec), 1e-6) }));
    const xs = per.map((p) => p.x).sort((a, b) => a - b);
    const med = quantile(xs, 0.5);
    const gm = geomean(xs);
    let verdict = '';
    if (R.target && xs.length) {
      const pass = R.better === 'high' ? med >= R.target : med <= R.target;
      verdict = `${pass ? 'MET' : 'NOT MET'} (median ${fmtX(med)} vs ${R.better === 'high' ? '≥' : '≤'} ${R.target}×)`;
      summary.targets[R.key] = { target: R.target, better: R.better, median: med, geomean: gm, met: pass };
    }
    summary.ratios[R.key] = { files: xs.length, median: med, geomean: gm, p5: quantile(xs, 0.05), p95: quantile(xs, 0.95) };
    ratioRows.push([
      R.key,
      xs.length,
      fmtX(med),
      fmtX(gm),
      fmtX(quantile(xs, 0.05)),
      fmtX(quantile(xs, 0.95)),
      R.target ? (R.better === 'high' ? `≥ ${R.target}×` : `≤ ${R.target}×`) : '',
      verdict,
    ]);
    // worst: where ours gains least (X/ours low) or costs most over the floor (ours/floor high)
    per.sort((a, b) => (R.better === 'high' ? a.x - b.x : b.x - a.x));
    worst.push({ R, list: per.slice(0, 10) });
  }
  say(`## Per-file ratios (over the files both contenders of a ratio handled)`);
  say(table(ratioRows, ['l']));
  say();
  for (const { R, list } of worst) {
    if (!list.length) continue;
    say(`### 10 worst files for ${R.key} (${R.better === 'high' ? 'lowest' : 'highest'})`);
    say(
      table(
        [
          ['ratio', R.num, R.paired ? `${R.key.split('/')[1]} (paired)` : R.den, 'size', 'file'],
          ...list.map(({ rec, x }) => [
            fmtX(x),
            fmtMs(rec.results[R.num].medianMs),
            fmtMs(R.paired ? rec.results[R.den].baselineMedianMs : rec.results[R.den].medianMs),
            fmtBytes(rec.size),
            rec.file,
          ]),
        ],
        [undefined, undefined, undefined, undefined, 'l'],
      ),
    );
    say();
  }

  // answers against the labels: a sanity check that every contender did the work, not a quality measure
  const labelRows = [['contender', 'files', 'pages agree', 'needsOcr agrees']];
  for (const c of active) {
    let n = 0,
      pages = 0,
      ocr = 0;
    for (const rec of records) {
      const r = rec.results[c];
      const l = labels.get(rec.file.split(path.sep).join('/'));
      if (r?.status !== 'ok' || !l || l.error || l.needsPassword || !Array.isArray(l.pages) || !r.summary) continue;
      n++;
      if (r.summary.pages === l.pages.length) pages++;
      if (typeof r.summary.needsOcr === 'boolean' && r.summary.needsOcr === !!l.needsOcr) ocr++;
    }
    labelRows.push([c, n, n ? `${((100 * pages) / n).toFixed(1)}%` : '–', c === 'floor' ? 'n/a' : n ? `${((100 * ocr) / n).toFixed(1)}%` : '–']);
  }
  say(`## Sanity: answers against labels.jsonl (pdf.js/MuPDF answers are crude: any text-show op/char → text, else any image → ocr)`);
  say(table(labelRows, ['l']));
  say();
}

// ---------------------------------------------------------------- memory
const memContenders = opts.mem;
const memWall0 = performance.now();
if (memContenders.length) {
  // the largest files that are actually analysed (files needing a password are answered from the trailer alone)
  const big = allFiles
    .filter((f) => !labels.get(f.rel.split(path.sep).join('/'))?.needsPassword)
    .sort((a, b) => b.size - a.size)
    .slice(0, opts.memFiles);
  say(`## Peak memory, one fresh process per run (the ${big.length} largest files not needing a password)`);
  say(`heap peak growth: JS heap high-water during the run over the heap after a full GC before it (from --trace-gc);`);
  say(
    `RSS peak growth: getrusage max RSS after the run minus RSS before it (includes ArrayBuffers and wasm memory; an upper bound, 0 when the run did not raise the process's peak).`,
  );
  for (const c of memContenders) {
    progress(`bench: memory, ${c}…\n`);
    const rows = [['file', 'size', 'time', 'heap peak growth', 'RSS peak growth', 'RSS growth / size', 'GCs']];
    const pts = [];
    let unavailable = null;
    for (const f of big) {
      const r = await measureMemory(c, f);
      if (r.unavailable) {
        unavailable = r.error;
        break;
      }
      (summary.memory[c] ??= []).push({ file: f.rel, size: f.size, ...r });
      if (r.error) {
        rows.push([f.rel, fmtBytes(f.size), 'error', r.error.slice(0, 60), '', '', '']);
        continue;
      }
      pts.push({ size: f.size, heap: r.heapGrowth, rss: r.rssGrowth });
      rows.push([
        f.rel,
        fmtBytes(f.size),
        fmtMs(r.ms),
        Number.isFinite(r.heapGrowth) ? fmtBytes(r.heapGrowth) : '?',
        fmtBytes(r.rssGrowth),
        `${(r.rssGrowth / f.size).toFixed(2)}×`,
        r.gcsDuring ?? '?',
      ]);
    }
    say();
    if (unavailable) {
      say(`### ${c}: skipped — ${unavailable}`);
      continue;
    }
    say(`### ${c}`);
    say(table(rows, ['l']));
    const hs = pts.filter((p) => Number.isFinite(p.heap));
    if (hs.length >= 2) {
      // least-squares slope of heap high-water against file size: ~0 means memory does not grow with the document
      const mx = sum(hs.map((p) => p.size)) / hs.length;
      const my = sum(hs.map((p) => p.heap)) / hs.length;
      const slope = sum(hs.map((p) => (p.size - mx) * (p.heap - my))) / Math.max(1, sum(hs.map((p) => (p.size - mx) ** 2)));
      say(
        `heap high-water vs file size: slope ${slope.toFixed(2)} bytes of heap per byte of file; max ${fmtBytes(Math.max(...hs.map((p) => p.heap)))}`,
      );
      summary.memory[`${c}:slope`] = slope;
    }
  }
  say();
}

const wallMs = performance.now() - wall0;
say(`## Run time`);
if (!active.length) say(`timing: no contender available, nothing timed`);
else
  say(
    `timing: ${fmtDur(timingWallMs)} for ${files.length} files (${fmtBytes(selectedBytes)}); memory: ${fmtDur(performance.now() - memWall0)}; wall ${fmtDur(wallMs)}`,
  );
if (files.length < allFiles.length && active.length) {
  // the spread sample stands for the whole size distribution, so time scales with the file count
  const est = timingWallMs * (allFiles.length / files.length);
  say(
    `estimated full run (${allFiles.length} files, ${fmtBytes(allBytes)}) with ${active.join(', ')}: ≈ ${fmtDur(est)}${opts.files ? ' (from a --files selection: not representative)' : ''}`,
  );
  summary.estimatedFullRunMs = est;
}
summary.wallMs = wallMs;
summary.timingWallMs = timingWallMs;

process.stdout.write(out.join('\n') + '\n');
if (opts.json) {
  writeFileSync(
    opts.json,
    JSON.stringify({ options: { ...opts }, selection, node: process.version, cpu, date: new Date().toISOString(), summary, records }, null, 1),
  );
  progress(`bench: wrote ${opts.json}\n`);
}
