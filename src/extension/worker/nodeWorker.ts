/** Entry of the desktop analysis worker (node worker_threads), bundled to dist/analysisWorker.cjs. */
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { runRequest } from '../../shared/worker/run';

const port = parentPort;
if (port) {
  port.on('message', (msg: unknown) => {
    const res = runRequest(msg);
    if (!res) return;
    // The worker's own heap and external memory (ArrayBuffers: decoded streams), which resourceLimits do not bound:
    // the pool replaces a worker that reports more than its maxWorkerBytes.
    const h = getHeapStatistics();
    port.postMessage({ ...(res as object), memory: { heapUsed: h.used_heap_size, external: h.external_memory } });
  });
  port.postMessage({ type: 'ready' });
}
