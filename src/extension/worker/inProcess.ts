/**
 * The fallback "worker" for hosts that cannot start one (a web extension host without nested workers): it analyses on
 * the host's own thread, one file per macrotask, so the host stays responsive between files. The analyzer's own time
 * budget (checked cooperatively) bounds each file.
 */
import type { AnalysisWorker } from '../analysisPool';
import { runRequest } from '../../shared/worker/run';

export function inProcessWorker(): AnalysisWorker {
  let onMessage: ((m: unknown) => void) | undefined;
  let terminated = false;
  const queue: unknown[] = [];
  const pump = () => {
    const msg = queue.shift();
    if (msg === undefined || terminated) return;
    const res = runRequest(msg);
    if (res && !terminated) onMessage?.(res);
    if (queue.length) setTimeout(pump, 0);
  };
  const w: AnalysisWorker = {
    postMessage(msg) {
      queue.push(msg);
      if (queue.length === 1) setTimeout(pump, 0);
    },
    onMessage(cb) {
      onMessage = cb;
      setTimeout(() => !terminated && cb({ type: 'ready' }), 0);
    },
    onError() {},
    terminate() {
      terminated = true;
      queue.length = 0;
    },
  };
  return w;
}
