/**
 * The CLI's analysis worker: the extension's request handler (runRequest), plus the worker's own memory after each
 * file so the pool can replace a worker whose ArrayBuffers (outside resourceLimits' reach) stay high.
 */
import type { MessagePort } from 'node:worker_threads';
import { runRequest } from '../extension/worker/run';
import type { WorkerMemory } from '../shared/pool';

export function workerLoop(port: MessagePort): void {
  port.on('message', (msg: unknown) => {
    const res = runRequest(msg);
    if (!res) return;
    // In a worker, heapUsed, external and arrayBuffers are this thread's own (rss is the process's, so it is not sent).
    const m = process.memoryUsage();
    const memory: WorkerMemory = { heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
    port.postMessage({ ...res, memory });
  });
  port.postMessage({ type: 'ready' });
}
