/**
 * Problems panel entries against each PDF's URI (so VS Code groups them per file), from the report store; which routes
 * count is a setting.
 *
 * A PDF has no lines or columns, and VS Code's Diagnostic must have a Range: every entry gets the empty range at the
 * start of the file, which claims no text position (the panel still prints its "[Ln 1, Col 1]"; nothing in the API
 * hides it). The page is in the message ("Page 4 needs OCR …") and in the entry's code, which the Problems panel shows
 * as a link: "ocr" opens the page preview at page 4, "password-required" opens the password prompt. The link is a
 * command URI, which the panel's code links are allowed to run. Opening the entry itself makes VS Code open the PDF
 * in its default editor; where that is the text editor, the code action "Show Page N in the Preview" (pdfCodeActions)
 * leads from there to the page.
 */
import * as vscode from 'vscode';
import { problemsOf } from './model';
import type { ExtensionSettings } from './settings';
import type { ReportStore } from './store';

export const SOURCE = 'PDF Page Diagnostics';
export const SHOW_PAGE_COMMAND = 'pdfPageDiagnostics.showPagePreview';
export const ENTER_PASSWORD_COMMAND = 'pdfPageDiagnostics.enterPassword';

/** A command URI the Problems panel's code link runs: the preview of `uri` at `page`, or the password prompt. */
export function codeTarget(uri: string, page: number, code: string): vscode.Uri {
  const [command, args] = code === 'password-required' ? [ENTER_PASSWORD_COMMAND, [uri]] : [SHOW_PAGE_COMMAND, page > 0 ? [uri, page] : [uri]];
  return vscode.Uri.parse(`command:${command}?${encodeURIComponent(JSON.stringify(args))}`);
}

/** The page a diagnostic of ours is about, from its code link (0: the document as a whole). */
export function pageOfDiagnostic(d: vscode.Diagnostic): number {
  const code = d.code;
  if (d.source !== SOURCE || typeof code !== 'object' || !(code.target instanceof vscode.Uri)) return 0;
  try {
    const args: unknown = JSON.parse(decodeURIComponent(code.target.query));
    return Array.isArray(args) && typeof args[1] === 'number' && Number.isInteger(args[1]) && args[1] >= 1 ? args[1] : 0;
  } catch {
    return 0;
  }
}

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
        const d = new vscode.Diagnostic(
          new vscode.Range(0, 0, 0, 0),
          p.message,
          p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information,
        );
        d.source = SOURCE;
        d.code = { value: p.code, target: codeTarget(key, p.page, p.code) };
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

/**
 * "Show Page N in the Preview" on our diagnostics, where a PDF is open in a text editor (VS Code opens it there from
 * the Problems panel when no other editor is the default for PDFs). Registered for *.pdf files only.
 */
export class PdfCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    const seen = new Set<number>();
    for (const d of context.diagnostics) {
      if (d.source !== SOURCE) continue;
      const page = pageOfDiagnostic(d);
      if (typeof d.code === 'object' && d.code.value === 'password-required') {
        const a = new vscode.CodeAction(vscode.l10n.t('Enter Password…'), vscode.CodeActionKind.QuickFix);
        a.command = { command: ENTER_PASSWORD_COMMAND, title: vscode.l10n.t('Enter Password…'), arguments: [doc.uri] };
        a.diagnostics = [d];
        out.push(a);
        continue;
      }
      if (seen.has(page)) continue;
      seen.add(page);
      const title = page ? vscode.l10n.t('Show Page {0} in the Preview', page) : vscode.l10n.t('Show the Page Preview');
      const a = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      a.command = { command: SHOW_PAGE_COMMAND, title, arguments: page ? [doc.uri, page] : [doc.uri] };
      a.diagnostics = [d];
      if (out.length === 0) a.isPreferred = true;
      out.push(a);
    }
    return out;
  }
}
