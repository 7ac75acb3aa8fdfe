/**
 * Web entry point (dist/web/extension.js) for vscode.dev and code-server's web worker extension host: analysis runs
 * in a nested Web Worker, or on the host thread (one file per task) when the host cannot start one.
 */
import * as vscode from 'vscode';
import type { AnalysisWorker } from './analysisPool';
import { activateWith } from './extension';
import { inProcessWorker } from './worker/inProcess';

interface WebWorkerLike {
  postMessage(msg: unknown, transfer?: unknown[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', cb: (e: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}
type WorkerCtor = new (url: string, opts?: { name?: string }) => WebWorkerLike;

export function activate(context: vscode.ExtensionContext): void {
  const g = globalThis as unknown as { Worker?: WorkerCtor; navigator?: { hardwareConcurrency?: number } };
  const url = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'analysisWorker.js').toString(true);
  activateWith(context, {
    workerFactory: g.Worker ? () => webWorker(g.Worker!, url) : undefined,
    fallback: inProcessWorker,
    hardwareConcurrency: g.navigator?.hardwareConcurrency,
  });
}

export function deactivate(): void {}

function webWorker(Ctor: WorkerCtor, url: string): AnalysisWorker {
  let w: WebWorkerLike;
  try {
    w = new Ctor(url, { name: 'pdf-page-diagnostics-analysis' });
  } catch {
    // A cross-origin script URL cannot start a worker directly; a same-origin blob that imports it can.
    const blob = new Blob([`importScripts(${JSON.stringify(url)});`], { type: 'text/javascript' });
    w = new Ctor(URL.createObjectURL(blob), { name: 'pdf-page-diagnostics-analysis' });
  }
  return {
    postMessage: (msg, transfer) => w.postMessage(msg, transfer ?? []),
    onMessage: (cb) => w.addEventListener('message', (e) => cb(e.data)),
    onError: (cb) => {
      w.addEventListener('error', (e) => cb(new Error(e.message ?? 'worker error')));
      w.addEventListener('messageerror', () => cb(new Error('worker message could not be read')));
    },
    terminate: () => w.terminate(),
  };
}
