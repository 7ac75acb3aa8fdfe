/**
 * Desktop entry point (dist/extension.cjs): analysis runs in node worker_threads; if none can be started, on the host
 * thread with the time budget capped (settings.ts, IN_PROCESS_MAX_BUDGET_MS), as on the web.
 */
import { availableParallelism, cpus } from 'node:os';
import * as vscode from 'vscode';
import type { AnalysisWorker } from './analysisPool';
import { nodeThreadWorker } from '../shared/nodeThreadWorker';
import { activateWith, type PdfPageDiagnosticsApi } from './extension';
import { withInProcessBudget } from './settings';
import { inProcessWorker } from './worker/inProcess';

export function activate(context: vscode.ExtensionContext): PdfPageDiagnosticsApi {
  const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'analysisWorker.cjs').fsPath;
  return activateWith(context, {
    workerFactory: () => nodeWorker(script),
    fallback: withInProcessBudget(inProcessWorker),
    hardwareConcurrency: typeof availableParallelism === 'function' ? availableParallelism() : cpus().length,
  });
}

export function deactivate(): void {}

function nodeWorker(script: string): AnalysisWorker {
  return nodeThreadWorker(script, {}, true);
}
