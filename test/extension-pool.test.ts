import assert from 'node:assert/strict';
import { fakeWorkers } from './fake-worker';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AnalysisPool, type AnalysisWorker, type CancelToken } from '../src/extension/analysisPool';
import { failureReport } from '../src/shared/report';
import { inProcessWorker } from '../src/extension/worker/inProcess';
import type { WorkerRequest } from '../src/shared/worker/messages';
import { runRequest } from '../src/shared/worker/run';

/** A scripted fake worker: behaviour per request decides what it answers and when. */
const fakeFactory = (
  behave: (req: WorkerRequest, answer: (m: unknown) => void, fail: (e: Error) => void) => void,
  stats = { started: 0, terminated: 0 },
) => fakeWorkers<WorkerRequest>(behave, stats);

const ok = (id: number) => ({ type: 'result', id, report: failureReport('damaged', `answer ${id}`) });
const bytes = () => new Uint8Array([1, 2, 3]);

function token(): CancelToken & { cancel(): void } {
  let cbs: (() => void)[] = [];
  let cancelled = false;
  return {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested: (cb) => {
      cbs.push(cb);
      return { dispose: () => (cbs = cbs.filter((x) => x !== cb)) };
    },
    cancel() {
      cancelled = true;
      for (const cb of cbs) cb();
    },
  };
}

test('results come back per task; bytes are transferred as a private copy', async () => {
  const seen: Uint8Array[] = [];
  const { factory } = fakeFactory((req, answer) => {
    seen.push(req.bytes);
    setTimeout(() => answer(ok(req.id)), 5);
  });
  const pool = new AnalysisPool(factory, 2, inProcessWorker);
  const shared = new Uint8Array(16).subarray(4, 8);
  const [a, b, c] = await Promise.all([pool.analyze(bytes(), {}), pool.analyze(shared, {}), pool.analyze(bytes(), {})]);
  assert.match(a!.error!.message, /answer 1/);
  assert.match(b!.error!.message, /answer 2/);
  assert.match(c!.error!.message, /answer 3/);
  assert.equal(seen[1].byteLength, seen[1].buffer.byteLength, 'a subarray is copied before transfer');
  pool.dispose();
});

test('a worker that overruns its budget is terminated and the file reported budget-exceeded', async () => {
  const { factory, stats } = fakeFactory(() => {
    /* never answers: a stuck loop */
  });
  const pool = new AnalysisPool(factory, 1, inProcessWorker, { graceMs: 10 });
  const t0 = Date.now();
  const r = await pool.analyze(bytes(), { timeBudgetMs: 20 });
  assert.ok(Date.now() - t0 < 2000);
  assert.equal(r?.error?.reason, 'budget-exceeded');
  assert.equal(r?.pages.length, 0);
  assert.equal(stats.terminated, 1);
  pool.dispose();
});

test('cancel drops queued tasks and terminates the running one at once', async () => {
  const { factory, stats } = fakeFactory(() => {});
  const pool = new AnalysisPool(factory, 1, inProcessWorker);
  const tok = token();
  const running = pool.analyze(bytes(), {}, tok);
  const queued = pool.analyze(bytes(), {}, tok);
  await new Promise((r) => setTimeout(r, 10));
  tok.cancel();
  assert.equal(await running, undefined);
  assert.equal(await queued, undefined);
  assert.equal(stats.terminated, 1);
  assert.equal(await pool.analyze(bytes(), {}, tok), undefined, 'an already-cancelled token does nothing');
  pool.dispose();
});

test('a worker crash mid-file reports that file, and the next file gets a fresh worker', async () => {
  let n = 0;
  const { factory, stats } = fakeFactory((req, answer, fail) => {
    if (n++ === 0) setTimeout(() => fail(new Error('out of memory')), 5);
    else setTimeout(() => answer(ok(req.id)), 5);
  });
  const pool = new AnalysisPool(factory, 1, inProcessWorker);
  await new Promise((r) => setTimeout(r, 5)); // let the first worker say ready
  const first = pool.analyze(bytes(), {});
  const second = pool.analyze(bytes(), {});
  assert.match((await first)!.error!.message, /out of memory/);
  assert.equal((await first)!.error!.reason, 'damaged');
  assert.match((await second)!.error!.message, /answer/);
  assert.equal(stats.started, 2);
  pool.dispose();
});

test('when workers cannot start, analysis falls back to the host thread', async () => {
  const pool = new AnalysisPool(
    () => {
      throw new Error('Worker is not defined');
    },
    3,
    inProcessWorker,
  );
  const r = await pool.analyze(new TextEncoder().encode('not a pdf at all'), {});
  assert.ok(r);
  assert.ok(pool.inProcess);
  assert.equal(pool.size, 1);
  pool.dispose();
});

test('a worker that dies before saying ready switches to in-process and still answers', async () => {
  const pool = new AnalysisPool(
    (): AnalysisWorker => {
      let onErr: (e: unknown) => void = () => {};
      return {
        postMessage: () => setTimeout(() => onErr(new Error('cannot load script')), 1),
        onMessage: () => {},
        onError: (cb) => (onErr = cb),
        terminate: () => {},
      };
    },
    2,
    inProcessWorker,
  );
  const r = await pool.analyze(new TextEncoder().encode('%PDF-1.4 junk'), {});
  assert.ok(r);
  assert.ok(pool.inProcess);
  pool.dispose();
});

test('the worker step analyses a real fixture and rejects junk requests', () => {
  const pdf = new Uint8Array(readFileSync(new URL('fixtures/analyzer/01-text.pdf', import.meta.url)));
  const res = runRequest({ id: 7, bytes: pdf, options: {} });
  assert.equal(res?.type, 'result');
  assert.ok(res?.type === 'result' && res.report.pageCount >= 1);
  assert.equal(runRequest(null), undefined);
  assert.equal(runRequest({ id: 'x' }), undefined);
  assert.deepEqual(runRequest({ id: 1, bytes: 'nope' }), { type: 'failed', id: 1, message: 'no bytes to analyse' });
});

test('the desktop worker bundle reports its memory with each result, so the pool can replace one that holds too much', async (t) => {
  const { existsSync } = await import('node:fs');
  const { Worker } = await import('node:worker_threads');
  const bundle = new URL('../dist/analysisWorker.cjs', import.meta.url);
  if (!existsSync(bundle)) return t.skip('dist/analysisWorker.cjs is built by npm run build (npm test builds first)');
  const w = new Worker(bundle);
  try {
    const msgs: unknown[] = [];
    const done = new Promise<void>((resolve) => w.on('message', (m) => (msgs.push(m), (m as { type?: string }).type === 'result' && resolve())));
    const bytes = new Uint8Array(readFileSync(new URL('./fixtures/analyzer/01-text.pdf', import.meta.url)));
    w.postMessage({ id: 1, bytes, options: {} });
    await done;
    const res = msgs.find((m) => (m as { type?: string }).type === 'result') as { memory?: { heapUsed: number; external: number } };
    assert.ok(res.memory && res.memory.heapUsed > 0 && res.memory.external >= 0, JSON.stringify(res.memory));
  } finally {
    await w.terminate();
  }
});
