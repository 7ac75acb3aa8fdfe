/**
 * Web entry point (dist/web/extension.cjs) for vscode.dev and code-server's web worker extension host.
 *
 * Analysis runs in a nested Web Worker, so a hostile file cannot freeze the extension host: the pool's watchdog and
 * cancellation terminate the worker. The web worker extension host does allow `new Worker(...)`: VS Code replaces
 * the host's global `Worker` with a wrapper that starts the script from a blob: bootstrap (keeping the origin), and
 * where the browser has no Worker inside workers it substitutes a polyfill that asks the renderer to start one
 * (microsoft/vscode src/vs/workbench/api/worker/extensionHostWorker.ts, "if (self.Worker) … else NestedWorker").
 * The one case it refuses is a vscode-remote: script URL, i.e. a web extension served by a VS Code server such as
 * code-server ("Creating workers from remote extensions is currently not supported.", same file; microsoft/vscode
 * issues #168942 and #144235). So the script is not started from the extension's own URI: its bytes are read through
 * workspace.fs and started from a blob: URL, which works in both places.
 *
 * If no worker can be started after all (no `Worker`, the blob cannot be made, or the worker dies before it says
 * ready), the pool falls back to analysing on the host thread, one file per macrotask, so the host gets the event
 * loop back and cancellation is honoured between files. The analyzer is synchronous, so a file in progress cannot be
 * stopped there: each one carries an explicit time budget capped at IN_PROCESS_MAX_BUDGET_MS (settings.ts).
 */
import * as vscode from 'vscode';
import type { AnalysisWorker } from './analysisPool';
import { activateWith, type PdfPageDiagnosticsApi } from './extension';
import { withInProcessBudget } from './settings';
import { inProcessWorker } from './worker/inProcess';

interface WebWorkerLike {
  postMessage(msg: unknown, transfer?: unknown[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', cb: (e: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}
type WorkerCtor = new (url: string, opts?: { name?: string }) => WebWorkerLike;

export async function activate(context: vscode.ExtensionContext): Promise<PdfPageDiagnosticsApi> {
  const g = globalThis as unknown as { Worker?: WorkerCtor; navigator?: { hardwareConcurrency?: number } };
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'analysisWorker.js');
  const web = g.Worker ? await webWorkerFactory(g.Worker, script) : undefined;
  if (web) context.subscriptions.push({ dispose: web.dispose });
  return activateWith(context, {
    workerFactory: web?.factory,
    fallback: withInProcessBudget(inProcessWorker),
    hardwareConcurrency: g.navigator?.hardwareConcurrency,
  });
}

export function deactivate(): void {}

/**
 * The worker script is read through workspace.fs and started from a blob: URL. The extension's own URI may not be
 * loadable by the browser (vscode-remote:// under code-server, a cross-origin CDN on vscode.dev), but its bytes are.
 * The URL stays valid until the extension is disposed: the pool starts new workers after terminating overrunning ones.
 */
async function webWorkerFactory(Ctor: WorkerCtor, script: vscode.Uri): Promise<{ factory: () => AnalysisWorker; dispose: () => void } | undefined> {
  let url: string;
  try {
    const code = await vscode.workspace.fs.readFile(script);
    url = URL.createObjectURL(new Blob([code as Uint8Array<ArrayBuffer>], { type: 'text/javascript' }));
  } catch {
    return undefined;
  }
  const factory = (): AnalysisWorker => {
    // A constructor that throws (a host refusing nested workers) makes the pool switch to in-process analysis.
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
  return { factory, dispose: () => URL.revokeObjectURL(url) };
}
