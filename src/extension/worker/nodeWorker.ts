/** Entry of the desktop analysis worker (node worker_threads), bundled to dist/analysisWorker.cjs. */
import { parentPort } from 'node:worker_threads';
import { runRequest } from './run';

const port = parentPort;
if (port) {
  port.on('message', (msg: unknown) => {
    const res = runRequest(msg);
    if (res) port.postMessage(res);
  });
  port.postMessage({ type: 'ready' });
}
