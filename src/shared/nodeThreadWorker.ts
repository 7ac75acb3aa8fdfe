/**
 * A node `worker_threads` Worker as the pool's AnalysisWorker: the one adapter the desktop extension and the CLI share.
 * Node only (the web build never imports it).
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { AnalysisWorker } from './pool';

/**
 * Starts `script` in a worker thread. The heap cap turns a runaway parse into a worker error (reported for that file,
 * not a dead host); ArrayBuffers, which the cap does not cover, are bounded by the pool's maxWorkerBytes instead.
 * `unref`: an idle worker does not keep the process alive.
 */
export function nodeThreadWorker(script: string | URL, options: WorkerOptions = {}, unref = false): AnalysisWorker {
  const w = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: 2048 }, ...options });
  if (unref) w.unref();
  return {
    postMessage: (msg, transfer) => w.postMessage(msg, transfer),
    onMessage: (cb) => void w.on('message', cb),
    onError: (cb) => {
      w.on('error', cb);
      w.on('exit', (code) => cb(new Error(`worker exited with code ${code}`)));
    },
    terminate: () => void w.terminate(),
  };
}
