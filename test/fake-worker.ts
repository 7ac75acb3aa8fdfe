// A scripted fake analysis worker for the pool's tests (the CLI's and the extension's share one pool).
import type { AnalysisWorker } from '../src/shared/pool';

/**
 * Workers whose answers `behave` scripts per request: `answer` posts a message back, `fail` reports a worker error.
 * Each says "ready" once its message handler is set; once terminated it says nothing more. `stats` counts starts and
 * terminations.
 */
export function fakeWorkers<Req = { id: number }>(
  behave: (req: Req, answer: (m: unknown) => void, fail: (e: Error) => void) => void,
  stats = { started: 0, terminated: 0 },
): { stats: { started: number; terminated: number }; factory: () => AnalysisWorker } {
  return {
    stats,
    factory: (): AnalysisWorker => {
      stats.started++;
      let onMsg: (m: unknown) => void = () => {};
      let onErr: (e: unknown) => void = () => {};
      let dead = false;
      return {
        postMessage: (req) =>
          behave(
            req as Req,
            (m) => !dead && onMsg(m),
            (e) => !dead && onErr(e),
          ),
        onMessage: (cb) => {
          onMsg = cb;
          setTimeout(() => !dead && cb({ type: 'ready' }), 0);
        },
        onError: (cb) => (onErr = cb),
        terminate: () => {
          dead = true;
          stats.terminated++;
        },
      };
    },
  };
}
