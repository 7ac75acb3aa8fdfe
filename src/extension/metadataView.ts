/**
 * The metadata panel under the routing view: findings, document facts, /Info and XMP of the selected document.
 * Tree items render their labels as text, so attacker-controlled metadata cannot inject markup.
 */
import * as vscode from 'vscode';
import { metadataSections, type MetaSection } from './model';
import type { ExtensionSettings } from './settings';
import type { ReportStore } from './store';
import { basename } from './tree';

export const METADATA_VIEW = 'pdfPageDiagnostics.metadata';

type MetaNode = { kind: 'section'; index: number; section: MetaSection } | { kind: 'row'; id: string; label: string; value: string };

export class MetadataTree implements vscode.TreeDataProvider<MetaNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MetaNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];
  /** set by extension.ts once the view exists, to show the document's name in the view's header */
  view: vscode.TreeView<MetaNode> | undefined;

  constructor(
    private readonly store: ReportStore,
    private readonly settings: () => ExtensionSettings,
  ) {
    this.subs.push(
      this.changed,
      store.onDidChange((uris) => {
        if (store.selected && uris.includes(store.selected)) this.refresh();
      }),
      store.onDidChangeSelection(() => this.refresh()),
    );
  }

  refresh(): void {
    const entry = this.store.selected ? this.store.get(this.store.selected) : undefined;
    if (this.view) this.view.description = entry ? basename(entry.label) : undefined;
    this.changed.fire(undefined);
  }

  getChildren(node?: MetaNode): MetaNode[] {
    const uri = this.store.selected;
    const entry = uri ? this.store.get(uri) : undefined;
    if (!entry) return [];
    if (!node) {
      return metadataSections(entry.report, this.settings().trustOcrLayer).map((section, index) => ({ kind: 'section', index, section }));
    }
    if (node.kind === 'section') {
      return node.section.rows.map((r, i) => ({ kind: 'row', id: `${uri}|${node.index}|${i}`, label: r.label, value: r.value }));
    }
    return [];
  }

  getTreeItem(node: MetaNode): vscode.TreeItem {
    if (node.kind === 'section') {
      const empty = node.section.rows.length === 0;
      const item = new vscode.TreeItem(
        node.section.title,
        empty
          ? vscode.TreeItemCollapsibleState.None
          : node.index <= 1
            ? vscode.TreeItemCollapsibleState.Expanded
            : vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = `section|${this.store.selected}|${node.index}`;
      item.description = empty ? vscode.l10n.t('none') : String(node.section.rows.length);
      return item;
    }
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.value;
    item.tooltip = node.value ? `${node.label}: ${node.value}` : node.label;
    item.contextValue = 'pdfMetadataRow';
    return item;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
