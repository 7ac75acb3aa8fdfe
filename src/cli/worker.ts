/**
 * The CLI's analysis worker: the extension's request handler (runRequest), and, when the request asks for it, the
 * file's record rendered here (hash, JSON line or table) so only text crosses back to the main thread. After each file
 * it reports its own memory, so the pool can replace a worker whose ArrayBuffers (outside resourceLimits) stay high.
 */
import { createHash } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { failureReport } from '../shared/report';
import { runRequest } from '../shared/worker/run';
import type { WorkerMemory } from '../shared/pool';
import { readInputFile, type InputErrorReason } from './inputs';
import { buildRecord, coalesce, headOf, renderRecord, type RenderMode, type Stamp } from './render';

/**
 * Fields the CLI adds to a pool request: how to render the record, and for a file (not stdin) its path, which the
 * worker reads itself within maxBytes (the request's bytes are then empty).
 */
export interface RenderRequest {
  render: { mode: RenderMode; stamp: Omit<Stamp, 'sha256' | 'size'> };
  path?: string;
  maxBytes?: number;
}

/** A reply that says the file could not be read; the pool sees an ordinary result. */
export interface ReadErrorReply {
  readError: { reason: InputErrorReason; message: string };
}

export function handle(msg: unknown): unknown {
  const req = msg as (Partial<RenderRequest> & { id?: unknown; bytes?: unknown }) | null;
  const render = req?.render;
  if (req && typeof req.path === 'string' && typeof req.id === 'number') {
    const read = readInputFile(req.path, typeof req.maxBytes === 'number' ? req.maxBytes : Infinity);
    if (!read.ok)
      return {
        type: 'result',
        id: req.id,
        report: failureReport('damaged', read.message),
        readError: { reason: read.reason, message: read.message },
      };
    msg = { ...req, bytes: read.bytes };
  }
  const bytes = (msg as { bytes?: unknown } | null)?.bytes;
  // Hash before analysing: the bytes are the file as read, whatever the analyzer does with them.
  const digest =
    render && bytes instanceof Uint8Array ? { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength } : undefined;
  const res = runRequest(msg);
  if (!res || res.type !== 'result' || !render || !digest) return res;
  try {
    const rec = buildRecord({ ...render.stamp, ...digest }, res.report);
    const text = [...coalesce(renderRecord(rec, render.mode))];
    return { type: 'result', id: res.id, report: { ...res.report, pages: [] }, head: headOf(rec), text, digest };
  } catch (e) {
    return { type: 'failed', id: res.id, message: `could not write the record: ${String(e).slice(0, 300)}` };
  }
}

export function workerLoop(port: MessagePort): void {
  port.on('message', (msg: unknown) => {
    const res = handle(msg);
    if (!res) return;
    // v8's figures are this thread's own (process.memoryUsage() also reads the process's rss, slower and shared).
    const h = getHeapStatistics();
    const memory: WorkerMemory = { heapUsed: h.used_heap_size, external: h.external_memory };
    port.postMessage({ ...res, memory });
  });
  port.postMessage({ type: 'ready' });
}
