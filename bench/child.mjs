// One contender in its own process, so that a file that hangs or crashes it can be killed (SIGKILL) without
// taking the harness down, and so the contenders' heaps and caches do not disturb one another.
// Protocol (IPC, advanced serialization):
//   child → parent: {type:'ready'} | {type:'unavailable', message} | {type:'load-error', message}
//   parent → child: {type:'warmup', paths, budgetMs} → child → parent: {type:'warm'}
//   parent → child: {type:'file', path, plan}
//   child → parent: {type:'first', ms} then {type:'done', times, summary, warmupMs, baselineTimes?} or {type:'error', message}
//   (baselineTimes: a contender with a paired baseline, e.g. ours-lq, times it alternately in the same process)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadContender, Unavailable } from './contenders.mjs';

const name = process.argv[2];
const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

function send(msg) {
  process.send?.(msg);
}

function errorMessage(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}`.slice(0, 500);
  return String(e).slice(0, 500);
}

// Stray rejections from a library's internals (e.g. after a document was destroyed) must not kill the child.
process.on('unhandledRejection', () => {});
process.on('uncaughtException', (e) => {
  send({ type: 'error', message: `uncaught ${errorMessage(e)}`, phase: 'uncaught' });
  process.exit(1);
});

let contender;
try {
  contender = await loadContender(name);
  send({ type: 'ready' });
} catch (e) {
  send(e instanceof Unavailable ? { type: 'unavailable', message: e.message } : { type: 'load-error', message: errorMessage(e) });
  process.disconnect?.();
  process.exit(0);
}

async function timeOnce(bytes) {
  const t0 = performance.now();
  const summary = await contender.run(bytes);
  return { ms: performance.now() - t0, summary };
}

async function timeBaseline(bytes) {
  const t0 = performance.now();
  await contender.baseline(bytes);
  return performance.now() - t0;
}

/**
 * plan: { reps?: number (fixed count), minReps, targetMs, maxReps, slowMs, slowReps }.
 * The first run is a warm-up and not counted, except on slow files (≥ slowMs) where it is one of `slowReps` runs:
 * warm-up effects are negligible there and the run time matters.
 */
async function timeFile(path, plan) {
  const bytes = new Uint8Array(readFileSync(path));
  gc();
  let first;
  try {
    first = await timeOnce(bytes);
  } catch (e) {
    send({ type: 'error', message: errorMessage(e), phase: 'first' });
    return;
  }
  send({ type: 'first', ms: first.ms });
  const times = [];
  let reps;
  if (plan.reps) reps = plan.reps;
  else if (first.ms >= plan.slowMs) {
    times.push(first.ms);
    reps = plan.slowReps;
  } else {
    reps = Math.min(plan.maxReps, Math.max(plan.minReps, Math.ceil(plan.targetMs / Math.max(first.ms, 1e-3))));
  }
  // A full GC between runs keeps one run's garbage from being collected on the next one's clock; below a few ms a
  // run allocates too little for that to matter, and the GCs would dominate the harness' time.
  const gcEach = first.ms >= 3;
  let summary = first.summary;
  // a contender with a paired baseline: the baseline runs too, before or after each run in turn (so neither always
  // follows the other), and its times come back as `baselineTimes`
  const paired = typeof contender.baseline === 'function';
  const baselineTimes = [];
  try {
    if (paired) await contender.baseline(bytes);
    while (times.length < reps) {
      const baseFirst = paired && times.length % 2 === 0;
      if (baseFirst) {
        if (gcEach) gc();
        baselineTimes.push(await timeBaseline(bytes));
      }
      if (gcEach) gc();
      const r = await timeOnce(bytes);
      times.push(r.ms);
      summary = r.summary;
      if (paired && !baseFirst) {
        if (gcEach) gc();
        baselineTimes.push(await timeBaseline(bytes));
      }
    }
  } catch (e) {
    send({ type: 'error', message: errorMessage(e), phase: 'rep' });
    return;
  }
  send({ type: 'done', times, summary, warmupMs: first.ms, ...(paired ? { baselineTimes } : {}) });
}

/** Brings the contender's code to optimised JIT tiers before anything is timed, so the first files are not penalised. */
async function warmUp(paths, budgetMs) {
  const t0 = performance.now();
  for (let round = 0; round < 3; round++) {
    for (const p of paths) {
      if (performance.now() - t0 > budgetMs) return;
      try {
        await contender.run(new Uint8Array(readFileSync(p)));
      } catch {
        /* a warm-up file that fails still warmed something */
      }
    }
  }
}

process.on('message', (msg) => {
  if (msg?.type === 'warmup') {
    warmUp(msg.paths, msg.budgetMs).finally(() => send({ type: 'warm' }));
  } else if (msg?.type === 'file') {
    timeFile(msg.path, msg.plan).catch((e) => send({ type: 'error', message: errorMessage(e), phase: 'harness' }));
  } else if (msg?.type === 'exit') {
    process.disconnect?.();
    process.exit(0);
  }
});
