/**
 * Web entry point (dist/web/extension.cjs) for vscode.dev and code-server's web worker extension host: analysis runs
 * in a nested Web Worker, or on the host thread (one file per task) when the host cannot start one.
 */
import * as vscode from 'vscode';
import type { AnalysisWorker } from './analysisPool';
import { activateWith, type PdfPageDiagnosticsApi } from './extension';
import { inProcessWorker } from './worker/inProcess';

interface WebWorkerLike {
  postMessage(msg: unknown, transfer?: unknown[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', cb: (e: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}
type WorkerCtor = new (url: string, opts?: { name?: string }) => WebWorkerLike;

export async function activate(context: vscode.ExtensionContext): Promise<PdfPageDiagnosticsApi> {
  const g = globalThis as unknown as { Worker?: WorkerCtor; navigator?: { hardwareConcurrency?: number } };
  return activateWith(context, {
    workerFactory: g.Worker ? await webWorkerFactory(g.Worker, vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'analysisWorker.js')) : undefined,
    fallback: inProcessWorker,
    hardwareConcurrency: g.navigator?.hardwareConcurrency,
  });
}

export function deactivate(): void {}

/**
 * The worker script is read through workspace.fs and started from a blob: URL. The extension's own URI may not be
 * loadable by the browser (vscode-remote:// under code-server, a cross-origin CDN on vscode.dev), but its bytes are.
 */
async function webWorkerFactory(Ctor: WorkerCtor, script: vscode.Uri): Promise<(() => AnalysisWorker) | undefined> {
  let url: string;
  try {
    const code = await vscode.workspace.fs.readFile(script);
    url = URL.createObjectURL(new Blob([code as Uint8Array<ArrayBuffer>], { type: 'text/javascript' }));
  } catch {
    return undefined;
  }
  return () => {
    const w = new Ctor(url, { name: 'pdf-page-diagnostics-analysis' });
    return {
      postMessage: (msg, transfer) => w.postMessage(msg, transfer ?? []),
      onMessage: (cb) => w.addEventListener('message', (e) => cb(e.data)),
      onError: (cb) => {
        w.addEventListener('error', (e) => cb(new Error(e.message ?? 'worker error')));
        w.addEventListener('messageerror', () => cb(new Error('worker message could not be read')));
      },
      terminate: () => w.terminate(),
    };
  };
}
