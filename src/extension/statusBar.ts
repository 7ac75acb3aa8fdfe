/** The status bar item for the active PDF ("PDF: 38 text · 2 OCR"); clicking it reveals the document in the tree. */
import * as vscode from 'vscode';
import { isPdfUri } from './classifier';
import { layerSummary, statusText, verdictOf } from './model';
import type { ExtensionSettings } from './settings';
import type { ReportStore } from './store';

export class PdfStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('pdfPageDiagnostics.status', vscode.StatusBarAlignment.Right, 100);
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly store: ReportStore,
    private readonly settings: () => ExtensionSettings,
    /** the URI of the focused preview panel, which has no URI in its tab */
    private readonly activePreview: () => vscode.Uri | undefined,
  ) {
    this.item.name = 'PDF Page Diagnostics';
    this.subs.push(
      this.item,
      store.onDidChange(() => this.update()),
      vscode.window.tabGroups.onDidChangeTabs(() => this.update()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.update()),
    );
    this.update();
  }

  update(): void {
    const uri = activePdf() ?? this.activePreview();
    if (!uri) {
      this.item.hide();
      return;
    }
    const entry = this.store.get(uri.toString());
    const trust = this.settings().trustOcrLayer;
    this.item.text = `$(file-pdf) ${statusText(entry?.report, trust)}`;
    const layers = entry ? layerSummary(entry.report) : undefined;
    this.item.tooltip = entry
      ? `${entry.label}\n${verdictOf(entry.report, trust).summary}\n${layers ? `${layers}\n` : ''}${vscode.l10n.t('Click to show in the Page Routes view')}`
      : vscode.l10n.t('Click to classify this PDF');
    this.item.command = { command: 'pdfPageDiagnostics.revealInTree', title: vscode.l10n.t('Show in Page Routes'), arguments: [uri] };
    this.item.backgroundColor =
      entry && verdictOf(entry.report, trust).needsOcr ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

/** The PDF of the active tab, whichever editor shows it (ours, another custom editor, or the binary text editor). */
export function activePdf(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  let uri: vscode.Uri | undefined;
  if (input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText) uri = input.uri;
  return uri && isPdfUri(uri) ? uri : undefined;
}
