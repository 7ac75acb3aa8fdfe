/** Problems panel entries against each PDF's URI, from the report store (which routes count: a setting). */
import * as vscode from 'vscode';
import { problemsOf } from './model';
import type { ExtensionSettings } from './settings';
import type { ReportStore } from './store';

const SOURCE = 'PDF Page Diagnostics';

export class ProblemsPublisher implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('pdfPageDiagnostics');
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly store: ReportStore,
    private readonly settings: () => ExtensionSettings,
  ) {
    this.subs.push(store.onDidChange((uris) => this.update(uris)));
  }

  update(uris: readonly string[]): void {
    const s = this.settings();
    for (const key of uris) {
      const uri = vscode.Uri.parse(key);
      const entry = this.store.get(key);
      if (!entry) {
        this.collection.delete(uri);
        continue;
      }
      const diags = problemsOf(entry.report, s.problemRoutes, s.trustOcrLayer).map((p) => {
        // A PDF has no text positions: every entry sits at the start of the file.
        const d = new vscode.Diagnostic(
          new vscode.Range(0, 0, 0, 0),
          p.message,
          p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information,
        );
        d.source = SOURCE;
        d.code = p.code;
        return d;
      });
      this.collection.set(uri, diags);
    }
  }

  refreshAll(): void {
    this.collection.clear();
    this.update(this.store.all().map((e) => e.uri));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.collection.dispose();
  }
}
