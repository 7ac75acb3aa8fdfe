/**
 * Runs analyses off the calling thread in a small pool of workers, for the extension and the CLI alike. Pure (no
 * `vscode`, no node imports): the caller passes a factory (node worker_threads on desktop and in the CLI, Web Workers in
 * the browser) and a fallback.
 *
 * A worker that overruns its file's time budget (plus a grace period: the analyzer checks its budget cooperatively,
 * so this only catches a stuck loop) is terminated and the file reported `unknown` / `budget-exceeded`. Cancelling a
 * task terminates the worker running it, so cancel takes effect at once rather than after the file.
 *
 * Node's worker resourceLimits bound only the JS heap, not ArrayBuffers (decoded streams, the file's bytes). A worker
 * may therefore attach its own memory figures to a result (`memory`); one past `maxWorkerBytes` is replaced before its
 * next file, so a leak or a fragmented allocator cannot accumulate across a batch of millions of files.
 */
import { DEFAULT_OPTIONS, type AnalyzerOptions } from '../analyzer/options';
import type { DocumentReport } from '../analyzer/types';
import { failureReport } from './report';
import type { WorkerRequest, WorkerResponse } from './worker/messages';

export interface AnalysisWorker {
  postMessage(msg: WorkerRequest, transfer?: ArrayBuffer[]): void;
  onMessage(cb: (msg: unknown) => void): void;
  /** an error or an unexpected exit */
  onError(cb: (err: unknown) => void): void;
  terminate(): void;
}

export type WorkerFactory = () => AnalysisWorker;

export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(cb: () => void): { dispose(): void };
}

/**
 * How a task ended. `fault` means the pool, not the analyzer, produced the report: the worker overran the watchdog
 * (`timeout`), died (`crash`), reported an exception (`failed`) or could not be handed the file (`post`).
 */
export type PoolOutcome =
  /** `reply` is the worker's whole answer, for callers whose workers add fields to it (the CLI's rendered record) */
  | { kind: 'report'; report: DocumentReport; reply?: unknown }
  | { kind: 'fault'; fault: 'timeout' | 'crash' | 'failed' | 'post'; report: DocumentReport }
  | { kind: 'cancelled' };

/** Memory a worker may report with a result; numbers in bytes, for its own isolate. */
export interface WorkerMemory {
  heapUsed?: number;
  external?: number;
  arrayBuffers?: number;
}

interface Task {
  id: number;
  bytes: Uint8Array;
  options: Partial<AnalyzerOptions>;
  extra?: Record<string, unknown>;
  done: (r: PoolOutcome) => void;
  started?: number;
}

interface Slot {
  worker?: AnalysisWorker;
  ready: boolean;
  task?: Task;
  timer?: ReturnType<typeof setTimeout>;
  /** the worker came from the fallback factory */
  fallback?: boolean;
}

export interface PoolOptions {
  /** extra time past the analyzer's budget before the worker is killed */
  graceMs?: number;
  /** log sink for worker faults */
  log?: (msg: string) => void;
  /** a worker whose reported heap + external memory after a file exceeds this is replaced (default: no bound) */
  maxWorkerBytes?: number;
}

export class AnalysisPool {
  private slots: Slot[] = [];
  private queue: Task[] = [];
  private nextId = 1;
  private broken = false;
  private targetSize = 1;
  private disposed = false;
  private readonly graceMs: number;
  private readonly log: (msg: string) => void;
  private readonly maxWorkerBytes: number;
  private recycledCount = 0;

  constructor(
    private factory: WorkerFactory | undefined,
    size: number,
    private readonly fallback: WorkerFactory,
    opts: PoolOptions = {},
  ) {
    this.graceMs = opts.graceMs ?? 5000;
    this.log = opts.log ?? (() => {});
    this.maxWorkerBytes = opts.maxWorkerBytes ?? Infinity;
    if (!factory) this.broken = true;
    this.resize(size);
  }

  get size(): number {
    return this.slots.length;
  }

  /** true when analyses run on the host thread (no worker could be started) */
  get inProcess(): boolean {
    return this.broken;
  }

  /** workers replaced so far because they reported memory past maxWorkerBytes */
  get recycled(): number {
    return this.recycledCount;
  }

  resize(size: number): void {
    const n = this.broken ? 1 : Math.max(1, Math.floor(size));
    while (this.slots.length < n) this.slots.push({ ready: false });
    // Shrink by dropping idle slots only; busy ones finish and are dropped when they go idle.
    for (let i = this.slots.length - 1; i >= n; i--) {
      const s = this.slots[i];
      if (!s.task) {
        s.worker?.terminate();
        s.worker = undefined;
        this.slots.splice(i, 1);
      }
    }
    this.targetSize = n;
    this.dispatch();
  }

  /** Analyses bytes. Resolves to a report (never rejects), or undefined when cancelled. */
  analyze(bytes: Uint8Array, options: Partial<AnalyzerOptions>, token?: CancelToken): Promise<DocumentReport | undefined> {
    return this.analyzeDetailed(bytes, options, token).then((o) => (o.kind === 'cancelled' ? undefined : o.report));
  }

  /**
   * Like analyze(), but says whether the report came from the analyzer or from a fault the pool caught. `extra` fields
   * travel in the request for workers that understand them. Never rejects.
   */
  analyzeDetailed(bytes: Uint8Array, options: Partial<AnalyzerOptions>, token?: CancelToken, extra?: Record<string, unknown>): Promise<PoolOutcome> {
    if (this.disposed || token?.isCancellationRequested) return Promise.resolve({ kind: 'cancelled' });
    return new Promise((resolve) => {
      let sub: { dispose(): void } | undefined;
      const task: Task = {
        id: this.nextId++,
        bytes,
        options,
        extra,
        done: (r) => {
          sub?.dispose();
          resolve(r);
        },
      };
      sub = token?.onCancellationRequested(() => this.cancel(task));
      this.queue.push(task);
      this.dispatch();
    });
  }

  /** Drops queued work and stops running work; their promises resolve undefined. */
  cancelAll(): void {
    for (const t of this.queue.splice(0)) t.done(CANCELLED);
    for (const s of this.slots) if (s.task) this.kill(s, CANCELLED);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelAll();
    for (const s of this.slots) {
      s.worker?.terminate();
      s.worker = undefined;
    }
    this.slots = [];
  }

  private cancel(task: Task): void {
    const qi = this.queue.indexOf(task);
    if (qi >= 0) {
      this.queue.splice(qi, 1);
      task.done(CANCELLED);
      return;
    }
    const slot = this.slots.find((s) => s.task === task);
    if (slot) this.kill(slot, CANCELLED);
  }

  private dispatching = false;

  private dispatch(): void {
    if (this.disposed || this.dispatching) return;
    this.dispatching = true;
    try {
      // Spawning can switch the pool to in-process mode, which reshapes the slots: restart the scan then.
      let again = true;
      while (again) {
        again = false;
        for (const slot of this.slots) {
          if (this.queue.length === 0) return;
          if (slot.task) continue;
          const wasBroken = this.broken;
          if (!slot.worker && !this.spawn(slot)) continue;
          if (this.broken !== wasBroken || !this.slots.includes(slot) || !slot.worker) {
            if (!this.slots.includes(slot)) slot.worker?.terminate();
            again = true;
            break;
          }
          this.run(slot, this.queue.shift()!);
        }
      }
    } finally {
      this.dispatching = false;
    }
  }

  private spawn(slot: Slot): boolean {
    let w: AnalysisWorker;
    try {
      w = this.broken ? this.fallback() : this.factory!();
    } catch (e) {
      if (this.broken) return false;
      this.markBroken(`cannot start an analysis worker: ${String(e)}`);
      return this.spawn(slot);
    }
    slot.worker = w;
    slot.fallback = this.broken;
    slot.ready = false;
    w.onMessage((m) => this.onMessage(slot, w, m));
    w.onError((e) => this.onError(slot, w, e));
    return true;
  }

  private markBroken(why: string): void {
    this.log(`${why}; analysing in process instead`);
    this.broken = true;
    for (const s of this.slots) {
      if (!s.task) {
        s.worker?.terminate();
        s.worker = undefined;
      }
    }
    this.resize(1);
  }

  private run(slot: Slot, task: Task): void {
    slot.task = task;
    task.started = Date.now();
    const budget = task.options.timeBudgetMs ?? DEFAULT_OPTIONS.timeBudgetMs;
    const limit = Math.ceil(budget * 1.5) + this.graceMs;
    slot.timer = setTimeout(() => {
      if (slot.task !== task) return;
      this.log(`analysis overran ${limit} ms; worker terminated`);
      this.kill(slot, {
        kind: 'fault',
        fault: 'timeout',
        report: failureReport(
          'budget-exceeded',
          `analysis did not finish within ${Math.round(limit / 1000)} s and was stopped`,
          Date.now() - task.started!,
        ),
      });
    }, limit);
    try {
      // Transfer a private copy: a Buffer from workspace.fs may be a view into a shared pool. A worker that has not
      // said hello yet may still fail to start, and the task is then re-run elsewhere: it gets a copy, so the task
      // keeps its bytes (a transferred buffer is detached here).
      const transfer = !this.broken && slot.ready;
      const bytes = transfer ? ownBytes(task.bytes) : task.bytes.slice();
      slot.worker!.postMessage({ ...task.extra, id: task.id, bytes, options: task.options }, transfer ? [bytes.buffer as ArrayBuffer] : undefined);
    } catch (e) {
      this.kill(slot, {
        kind: 'fault',
        fault: 'post',
        report: failureReport('damaged', `could not hand the file to the analysis worker: ${String(e).slice(0, 200)}`),
      });
    }
  }

  /** Stops the slot's worker and settles its task with `result`. */
  private kill(slot: Slot, result: PoolOutcome): void {
    const task = slot.task;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    slot.worker?.terminate();
    slot.worker = undefined;
    slot.ready = false;
    task?.done(result);
    this.afterTask(slot);
  }

  private afterTask(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= this.targetSize && i >= 0) {
      slot.worker?.terminate();
      slot.worker = undefined;
      this.slots.splice(i, 1);
    }
    queueMicrotask(() => this.dispatch());
  }

  private onMessage(slot: Slot, w: AnalysisWorker, raw: unknown): void {
    if (slot.worker !== w) return;
    const m = raw as WorkerResponse;
    if (!m || typeof m !== 'object') return;
    if (m.type === 'ready') {
      slot.ready = true;
      return;
    }
    const task = slot.task;
    if (!task || (m.type !== 'result' && m.type !== 'failed') || m.id !== task.id) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.task = undefined;
    const memory = (raw as { memory?: WorkerMemory }).memory;
    const held = memory ? (memory.heapUsed ?? 0) + (memory.external ?? memory.arrayBuffers ?? 0) : 0;
    if (held > this.maxWorkerBytes) {
      // Replace it before it takes another file; its result is still good.
      this.log(
        `analysis worker holds ${Math.round(held / 2 ** 20)} MB after a file (bound ${Math.round(this.maxWorkerBytes / 2 ** 20)} MB); replaced`,
      );
      this.recycledCount++;
      w.terminate();
      slot.worker = undefined;
      slot.ready = false;
    }
    task.done(
      m.type === 'result'
        ? { kind: 'report', report: m.report, reply: raw }
        : { kind: 'fault', fault: 'failed', report: failureReport('damaged', `analysis failed: ${m.message}`, Date.now() - task.started!) },
    );
    this.afterTask(slot);
  }

  private onError(slot: Slot, w: AnalysisWorker, err: unknown): void {
    if (slot.worker !== w) return;
    const msg = err instanceof Error ? err.message : String(err);
    const task = slot.task;
    if (!slot.ready && !slot.fallback) {
      // The worker died before it could say hello: workers don't work here. Re-run the task in process (it was
      // given a copy of the bytes, see run()). Several workers may fail this way; only the first switches modes.
      slot.task = undefined;
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = undefined;
      w.terminate();
      slot.worker = undefined;
      if (task) this.queue.unshift(task);
      if (!this.broken) this.markBroken(`analysis worker failed to start: ${msg}`);
      else this.afterTask(slot);
      return;
    }
    this.log(`analysis worker failed: ${msg}`);
    this.kill(
      slot,
      task
        ? {
            kind: 'fault',
            fault: 'crash',
            report: failureReport('damaged', `the analysis worker failed on this file: ${msg.slice(0, 200)}`, Date.now() - task.started!),
          }
        : CANCELLED,
    );
  }
}

const CANCELLED: PoolOutcome = Object.freeze({ kind: 'cancelled' });

/** A Uint8Array that owns its whole buffer (a Buffer's slice() would still share node's pool, so copy explicitly). */
function ownBytes(b: Uint8Array): Uint8Array {
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength) return b.constructor === Uint8Array ? b : new Uint8Array(b.buffer);
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return copy;
}
