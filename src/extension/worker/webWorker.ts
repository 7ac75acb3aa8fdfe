/** Entry of the browser analysis worker (a Web Worker started by the web extension), bundled to dist/web/analysisWorker.js. */
import { runRequest } from '../../shared/worker/run';

interface WorkerScope {
  onmessage: ((e: { data: unknown }) => void) | null;
  postMessage(msg: unknown): void;
}
const scope = globalThis as unknown as WorkerScope;
scope.onmessage = (e) => {
  const res = runRequest(e.data);
  if (res) scope.postMessage(res);
};
scope.postMessage({ type: 'ready' });
