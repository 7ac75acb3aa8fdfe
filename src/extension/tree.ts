/** The routing tree: document → route group → page, from the report store. Texts come from model.ts. */
import * as vscode from 'vscode';
import type { PageRoute } from '../analyzer/types';
import {
  countsText,
  docChildren,
  docDescription,
  distinctNames,
  docNode,
  gradedLayer,
  LAYER_GRADE_STYLE,
  layerGrade,
  layerSummary,
  reocrChildren,
  reocrPages,
  type DocNode,
  type GroupMode,
  groupChildren,
  pageDescription,
  pageEvidenceLines,
  routeLabel,
  routeMeaning,
  parentOf,
  ROUTE_STYLE,
  sortDocs,
  type TreeNode,
  verdictOf,
} from './model';
import type { ExtensionSettings } from './settings';
import type { ReportStore } from './store';

export const ROUTES_VIEW = 'pdfPageDiagnostics.routes';

export class RoutesTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private mode: GroupMode = 'route';
  private filter: Set<PageRoute> | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly store: ReportStore,
    private readonly settings: () => ExtensionSettings,
  ) {
    // Coalesce: a workspace run stores hundreds of reports in quick succession.
    this.subs.push(
      store.onDidChange(() => {
        this.names = undefined;
        this.pending ??= setTimeout(() => this.refreshNow(), 80);
      }),
      this.changed,
      { dispose: () => clearTimeout(this.pending) },
    );
    void vscode.commands.executeCommand('setContext', 'pdfPageDiagnostics.groupMode', this.mode);
    void vscode.commands.executeCommand('setContext', 'pdfPageDiagnostics.filtered', false);
  }

  private pending: ReturnType<typeof setTimeout> | undefined;
  /** uri → the name the tree shows: the file name, or the shortest distinct path suffix for same-named files */
  private names: Map<string, string> | undefined;

  /** The document row's label: "report.pdf", or "a/report.pdf" and "b/report.pdf" when two are called report.pdf. */
  displayName(uri: string): string {
    if (!this.names) {
      const all = this.store.all();
      const shown = distinctNames(all.map((e) => e.label));
      this.names = new Map(all.map((e, i) => [e.uri, shown[i]]));
    }
    return this.names.get(uri) ?? basename(uri);
  }

  /** Applies pending store changes at once (before a reveal). */
  refreshNow(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    this.changed.fire(undefined);
  }

  get groupMode(): GroupMode {
    return this.mode;
  }

  setGroupMode(mode: GroupMode): void {
    this.mode = mode;
    void vscode.commands.executeCommand('setContext', 'pdfPageDiagnostics.groupMode', mode);
    this.changed.fire(undefined);
  }

  get routeFilter(): ReadonlySet<PageRoute> | undefined {
    return this.filter;
  }

  setFilter(routes: Set<PageRoute> | undefined): void {
    this.filter = routes && routes.size > 0 && routes.size < 6 ? routes : undefined;
    void vscode.commands.executeCommand('setContext', 'pdfPageDiagnostics.filtered', this.filter !== undefined);
    this.changed.fire(undefined);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const trust = this.settings().trustOcrLayer;
    if (!node) return sortDocs(this.store.all(), trust).map((e) => docNode(e.uri));
    const entry = this.store.get(node.uri);
    if (!entry) return [];
    const doc = { uri: entry.uri, report: entry.report };
    if (node.kind === 'doc') return docChildren(doc, this.mode, this.filter);
    if (node.kind === 'group') return groupChildren(doc, node.route);
    if (node.kind === 'reocr') return reocrChildren(doc);
    return [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return parentOf(node, this.mode);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const entry = this.store.get(node.uri);
    const trust = this.settings().trustOcrLayer;
    switch (node.kind) {
      case 'doc': {
        const item = new vscode.TreeItem(
          this.displayName(node.uri),
          this.store.size <= 3 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = node.id;
        // a document that needs a password gets "Enter Password…" in its menu
        item.contextValue = entry?.report.error?.reason === 'password-required' ? 'pdfDocumentLocked' : 'pdfDocument';
        if (!entry) return item;
        const r = entry.report;
        const v = verdictOf(r, trust);
        item.description = docDescription(r, trust);
        item.tooltip = [
          entry.label,
          v.summary,
          r.error ? '' : countsText(r.routeCounts),
          layerSummary(r) ?? '',
          vscode.l10n.t('analysed in {0} ms', Math.round(r.elapsedMs)),
        ]
          .filter(Boolean)
          .join('\n');
        const color = r.error
          ? 'charts.orange'
          : v.needsOcr
            ? 'charts.red'
            : r.routeCounts.review || r.routeCounts.unknown || reocrPages(r).length
              ? 'charts.yellow'
              : 'charts.green';
        item.iconPath = new vscode.ThemeIcon('file-pdf', new vscode.ThemeColor(color));
        return item;
      }
      case 'group': {
        const style = ROUTE_STYLE[node.route];
        const count = entry?.report.routeCounts[node.route] ?? 0;
        const urgent = node.route === 'ocr' || node.route === 'review' || node.route === 'unknown';
        const item = new vscode.TreeItem(
          `${routeLabel(node.route)} (${count})`,
          urgent ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = node.id;
        item.contextValue = 'pdfRouteGroup';
        item.tooltip =
          count === 1 ? vscode.l10n.t('1 page: {0}', routeMeaning(node.route)) : vscode.l10n.t('{0} pages: {1}', count, routeMeaning(node.route));
        item.iconPath = new vscode.ThemeIcon(style.icon, new vscode.ThemeColor(style.color));
        return item;
      }
      case 'reocr': {
        const item = new vscode.TreeItem(vscode.l10n.t('re-OCR advised ({0})', node.count), vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.contextValue = 'pdfReocrGroup';
        item.tooltip =
          node.count === 1
            ? vscode.l10n.t('1 page whose OCR layer is poor (more than a quarter of its characters estimated wrong): run OCR on it again')
            : vscode.l10n.t(
                '{0} pages whose OCR layer is poor (more than a quarter of their characters estimated wrong): run OCR on them again',
                node.count,
              );
        item.iconPath = new vscode.ThemeIcon('refresh', new vscode.ThemeColor(LAYER_GRADE_STYLE.poor.color));
        return item;
      }
      case 'page': {
        const p =
          entry?.report.pages[node.page - 1]?.page === node.page
            ? entry.report.pages[node.page - 1]
            : entry?.report.pages.find((x) => x.page === node.page);
        const style = ROUTE_STYLE[node.route];
        const item = new vscode.TreeItem(vscode.l10n.t('Page {0}', node.page), vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.contextValue = 'pdfPage';
        // a graded OCR layer: the route's icon in the grade's colour (the description says the grade in words)
        const q = p ? gradedLayer(p) : undefined;
        item.iconPath = new vscode.ThemeIcon(style.icon, new vscode.ThemeColor(q ? LAYER_GRADE_STYLE[layerGrade(q)].color : style.color));
        if (p) {
          item.description = pageDescription(p, this.mode === 'page');
          // A plain string tooltip: font names come from the PDF and must not be read as markdown.
          item.tooltip = pageEvidenceLines(p).join('\n');
        }
        item.command = { command: 'pdfPageDiagnostics.showPagePreview', title: vscode.l10n.t('Show Page Preview'), arguments: [node] };
        return item;
      }
      case 'info': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.tooltip = node.text;
        item.iconPath = new vscode.ThemeIcon('question', new vscode.ThemeColor('charts.orange'));
        return item;
      }
    }
  }

  docNodeFor(uri: string): DocNode | undefined {
    return this.store.get(uri) ? docNode(uri) : undefined;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

export function basename(path: string): string {
  const i = path.replace(/[\\/]+$/, '').search(/[^\\/]*$/);
  return i > 0 ? path.slice(i) : path;
}
