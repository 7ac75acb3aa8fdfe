/** The extension's commands. Each turns its arguments (explorer URIs, tree nodes, nothing from the palette) into URIs. */
import * as vscode from 'vscode';
import type { PageRoute } from '../analyzer/types';
import { Classifier, findPdfsUnder, findWorkspacePdfs, isPdfUri, labelOf, type Outcome } from './classifier';
import { exportText, formatForPath, toJson, type ExportDoc } from '../shared/export';
import { PAGE_ROUTES, ROUTE_STYLE, type TreeNode, verdictOf } from './model';
import { PASSWORD_MARK } from './classifier';
import type { Passwords } from './passwords';
import type { PreviewManager } from './preview';
import type { ExtensionSettings } from './settings';
import { activePdf } from './statusBar';
import type { ReportStore, StoreEntry } from './store';
import { ROUTES_VIEW, type RoutesTree } from './tree';

export interface CommandDeps {
  store: ReportStore;
  classifier: Classifier;
  tree: RoutesTree;
  treeView: vscode.TreeView<TreeNode>;
  preview: PreviewManager;
  settings: () => ExtensionSettings;
  passwords: Passwords;
  /** drops every stored result (Clear Results) */
  clearStorage: () => Promise<void>;
}

function isNode(x: unknown): x is TreeNode {
  return typeof x === 'object' && x !== null && typeof (x as TreeNode).uri === 'string' && typeof (x as TreeNode).kind === 'string';
}

/**
 * A command argument as a file URI: a vscode.Uri, a tree node, or a URI string (from a command link such as the
 * Problems panel's). A `#page=N` fragment is taken off: pageOfFragment() reads it.
 */
export function toUri(x: unknown): vscode.Uri | undefined {
  let uri: vscode.Uri | undefined;
  if (x instanceof vscode.Uri) uri = x;
  else if (isNode(x) || typeof x === 'string') {
    try {
      uri = vscode.Uri.parse(isNode(x) ? x.uri : x, true);
    } catch {
      return undefined;
    }
  }
  return uri && (uri.fragment ? uri.with({ fragment: '' }) : uri);
}

/** N from a `#page=N` link (…/report.pdf#page=4), as in PDF open parameters; undefined otherwise. */
export function pageOfFragment(x: unknown): number | undefined {
  let fragment: string | undefined;
  if (x instanceof vscode.Uri) fragment = x.fragment;
  else if (typeof x === 'string') fragment = /#(.*)$/.exec(x)?.[1];
  const m = fragment ? /(?:^|&)page=(\d{1,7})(?:&|$)/.exec(fragment) : null;
  const n = m ? Number(m[1]) : 0;
  return n >= 1 ? n : undefined;
}

export function registerCommands(context: vscode.ExtensionContext, d: CommandDeps): void {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  reg('pdfPageDiagnostics.classify', async (arg0?: unknown, arg1?: unknown) => {
    let targets: vscode.Uri[] = [];
    // Explorer: (clicked, selected[]); editor title: (uri, {groupId}); tree: (node); palette: ().
    if (Array.isArray(arg1) && arg1.every((u) => u instanceof vscode.Uri) && arg1.length > 0) targets = arg1;
    else {
      const u = toUri(arg0);
      if (u) targets = [u];
    }
    if (targets.length === 0) {
      const active = activePdf() ?? d.preview.activeUri();
      targets = active ? [active] : await pickPdfs();
    }
    if (targets.length === 0) return;
    const files = await expandFolders(targets);
    if (files.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No PDF files found in the selection.'));
      return;
    }
    await runClassification(
      d,
      files,
      files.length === 1 ? vscode.l10n.t('Classifying {0}', labelOf(files[0])) : vscode.l10n.t('Classifying PDF pages'),
    );
    await revealFirst(d, files);
  });

  reg('pdfPageDiagnostics.classifyWorkspace', async () => {
    if (!vscode.workspace.workspaceFolders?.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder to classify the PDFs in it.'));
      return;
    }
    const files = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Finding PDFs') }, () =>
      findWorkspacePdfs(),
    );
    if (files.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No PDF files in the workspace (files.exclude applies).'));
      return;
    }
    await runClassification(d, files, files.length === 1 ? vscode.l10n.t('Classifying 1 PDF') : vscode.l10n.t('Classifying {0} PDFs', files.length));
    void vscode.commands.executeCommand(`${ROUTES_VIEW}.focus`);
  });

  reg('pdfPageDiagnostics.refresh', async () => {
    const uris = d.store.all().map((e) => vscode.Uri.parse(e.uri));
    if (uris.length === 0) return;
    await d.classifier.classifyMany(uris, vscode.l10n.t('Re-checking classified PDFs'), vscode.ProgressLocation.Window);
  });

  reg('pdfPageDiagnostics.showPagePreview', async (arg0?: unknown, arg1?: unknown) => {
    let uri = toUri(arg0);
    let page: number | undefined;
    if (isNode(arg0) && arg0.kind === 'page') page = arg0.page;
    else if (typeof arg1 === 'number' && Number.isInteger(arg1) && arg1 >= 1) page = arg1;
    else page = pageOfFragment(arg0);
    uri ??= activePdf() ?? (d.store.selected ? vscode.Uri.parse(d.store.selected) : undefined);
    if (!uri) {
      const picked = await pickPdfs(false);
      uri = picked[0];
    }
    if (!uri) return;
    // From a tree click keep the focus in the tree, so arrow keys walk the pages.
    d.preview.show(uri, page, isNode(arg0));
  });

  reg('pdfPageDiagnostics.copyReport', async (arg0?: unknown) => {
    const entry = entryFor(d, arg0);
    if (!entry) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Classify a PDF first: there is no report to copy.'));
      return;
    }
    await vscode.env.clipboard.writeText(toJson({ file: entry.label, report: entry.report }));
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the report of {0}', entry.label), 3000);
  });

  reg('pdfPageDiagnostics.exportReport', async (arg0?: unknown) => {
    const one = isNode(arg0) ? d.store.get(arg0.uri) : undefined;
    const entries = one ? [one] : d.store.all().sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    if (entries.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to export yet: classify some PDFs first.'));
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export PDF page report'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, 'pdf-pages.jsonl') : undefined,
      filters: { 'JSON Lines': ['jsonl'], CSV: ['csv'] },
    });
    if (!target) return;
    const docs: ExportDoc[] = entries.map((e) => ({ file: e.label, report: e.report }));
    const text = exportText(docs, formatForPath(target.path));
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    vscode.window.setStatusBarMessage(
      docs.length === 1
        ? vscode.l10n.t('Exported 1 report to {0}', labelOf(target))
        : vscode.l10n.t('Exported {0} reports to {1}', docs.length, labelOf(target)),
      4000,
    );
  });

  reg('pdfPageDiagnostics.clearResults', async () => {
    d.store.clear();
    await d.clearStorage();
  });

  // Keyboard in the preview (keybindings in package.json, active while a preview has focus)
  const nav = (how: Parameters<PreviewManager['navigate']>[0]) => () => {
    const r = d.preview.navigate(how);
    if (!r) void vscode.window.showInformationMessage(vscode.l10n.t('Open a page preview first.'));
    else if ('none' in r) vscode.window.setStatusBarMessage(r.none, 3000);
  };
  reg('pdfPageDiagnostics.preview.nextPage', nav('next'));
  reg('pdfPageDiagnostics.preview.previousPage', nav('previous'));
  reg('pdfPageDiagnostics.preview.nextOcrPage', nav('nextOcr'));
  reg('pdfPageDiagnostics.preview.previousOcrPage', nav('previousOcr'));
  reg('pdfPageDiagnostics.preview.toggleTextLayer', () => {
    if (!d.preview.toggle('toggleTextLayer')) void vscode.window.showInformationMessage(vscode.l10n.t('Open a page preview first.'));
  });
  reg('pdfPageDiagnostics.preview.toggleFonts', () => {
    if (!d.preview.toggle('toggleFonts')) void vscode.window.showInformationMessage(vscode.l10n.t('Open a page preview first.'));
  });
  reg('pdfPageDiagnostics.preview.toggleBoxes', () => {
    if (!d.preview.toggleBoxes()) void vscode.window.showInformationMessage(vscode.l10n.t('Open a page preview first.'));
  });

  reg('pdfPageDiagnostics.enterPassword', async (arg0?: unknown) => {
    const uri = toUri(arg0) ?? (await pickLocked(d));
    if (uri) await enterPassword(d, uri);
  });

  reg('pdfPageDiagnostics.forgetPasswords', async () => {
    const had = await d.passwords.forgetAll();
    // Reports made with a password are not valid without one: classify those files again (they ask for it again).
    const again = d.store
      .all()
      .filter((e) => e.stamp.options.endsWith(PASSWORD_MARK) || had.includes(e.uri))
      .map((e) => vscode.Uri.parse(e.uri));
    if (again.length) await d.classifier.classifyMany(again, vscode.l10n.t('Re-classifying without passwords'), vscode.ProgressLocation.Window);
    vscode.window.setStatusBarMessage(
      had.length === 0
        ? vscode.l10n.t('No PDF passwords were stored')
        : had.length === 1
          ? vscode.l10n.t('Forgot the password of 1 PDF')
          : vscode.l10n.t('Forgot the passwords of {0} PDFs', had.length),
      4000,
    );
  });

  reg('pdfPageDiagnostics.removeDocument', (arg0?: unknown) => {
    if (isNode(arg0)) d.store.delete(arg0.uri);
  });

  reg('pdfPageDiagnostics.filterRoutes', async () => {
    const current = d.tree.routeFilter;
    const items = PAGE_ROUTES.map((r) => ({
      label: ROUTE_STYLE[r].label,
      description: ROUTE_STYLE[r].meaning,
      route: r,
      picked: !current || current.has(r),
    }));
    const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: vscode.l10n.t('Show pages with these routes') });
    if (!picked) return;
    d.tree.setFilter(new Set<PageRoute>(picked.map((p) => p.route)));
  });
  reg('pdfPageDiagnostics.clearFilter', () => d.tree.setFilter(undefined));
  reg('pdfPageDiagnostics.groupByPage', () => d.tree.setGroupMode('page'));
  reg('pdfPageDiagnostics.groupByRoute', () => d.tree.setGroupMode('route'));

  reg('pdfPageDiagnostics.revealInTree', async (arg0?: unknown) => {
    const uri = toUri(arg0) ?? activePdf() ?? d.preview.activeUri();
    if (!uri) return;
    if (!d.store.get(uri.toString())) await runClassification(d, [uri], vscode.l10n.t('Classifying {0}', labelOf(uri)));
    await revealFirst(d, [uri]);
  });
}

/** Documents that need a password, for the palette's picker. */
async function pickLocked(d: CommandDeps): Promise<vscode.Uri | undefined> {
  const locked = d.store.all().filter((e) => e.report.error?.reason === 'password-required');
  const active = activePdf() ?? d.preview.activeUri();
  if (active && (locked.length === 0 || locked.some((e) => e.uri === active.toString()))) return active;
  if (locked.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No classified PDF needs a password. Classify an encrypted PDF first.'));
    return undefined;
  }
  if (locked.length === 1) return vscode.Uri.parse(locked[0].uri);
  const picked = await vscode.window.showQuickPick(
    locked.map((e) => ({ label: e.label, uri: e.uri })),
    { title: vscode.l10n.t('Enter the password of'), placeHolder: vscode.l10n.t('Pick an encrypted PDF') },
  );
  return picked ? vscode.Uri.parse(picked.uri) : undefined;
}

/**
 * Asks for a file's password (masked), classifies the file with it, and says whether it opened the file. Only a
 * password that opened it is remembered (SecretStorage), and only when the user chose that. The password is never
 * logged, shown or written anywhere else.
 */
async function enterPassword(d: CommandDeps, uri: vscode.Uri): Promise<void> {
  const key = uri.toString();
  const label = labelOf(uri);
  const password = await vscode.window.showInputBox({
    title: vscode.l10n.t('Password for {0}', label),
    prompt: vscode.l10n.t('The PDF is encrypted. Its pages are classified once it is opened with its password (user or owner).'),
    placeHolder: vscode.l10n.t('Password'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.length === 0 ? vscode.l10n.t('Type the password, or press Escape to cancel.') : undefined),
  });
  if (password === undefined) return;
  const choice = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Use for This Window Only'), description: vscode.l10n.t('forgotten when the window closes'), remember: false },
      { label: vscode.l10n.t('Remember'), description: vscode.l10n.t("kept in VS Code's secret storage for this file"), remember: true },
    ],
    { title: vscode.l10n.t('Remember the password of {0}?', label), placeHolder: vscode.l10n.t('Remember the password?'), ignoreFocusOut: true },
  );
  if (!choice) return;
  // Tried for this window first: a wrong password is never remembered.
  await d.passwords.set(key, password, false);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Classifying {0} with its password', label) },
    () => d.classifier.classifyOne(uri),
  );
  const entry = d.store.get(key);
  if (!entry) return;
  if (entry.report.error?.reason === 'password-required') {
    await d.passwords.forget(key);
    const again = await vscode.window.showErrorMessage(vscode.l10n.t('Wrong password: it does not open {0}.', label), vscode.l10n.t('Try Again'));
    if (again) await enterPassword(d, uri);
    return;
  }
  if (choice.remember) {
    await d.passwords.set(key, password, true);
    // stored now that the password it was made with is remembered
    if (entry.transient) d.store.set({ ...entry, transient: undefined });
  }
  await revealFirst(d, [uri]);
  vscode.window.setStatusBarMessage(
    choice.remember ? vscode.l10n.t('Opened {0} with its password (remembered)', label) : vscode.l10n.t('Opened {0} with its password', label),
    4000,
  );
}

async function runClassification(d: CommandDeps, files: vscode.Uri[], title: string): Promise<void> {
  const counts = await d.classifier.classifyMany(files, title);
  const refused = d.classifier.takeRefusedMessage();
  if (refused) void vscode.window.showWarningMessage(refused);
  const n = (o: Outcome) => counts.get(o) ?? 0;
  const done = n('analysed') + n('cached');
  if (done > 1) {
    const trust = d.settings().trustOcrLayer;
    const needOcr = files.filter((f) => {
      const e = d.store.get(f.toString());
      return e && verdictOf(e.report, trust).needsOcr;
    }).length;
    vscode.window.setStatusBarMessage(
      n('cancelled')
        ? vscode.l10n.t('PDF Page Diagnostics: {0} classified, {1} need OCR, {2} cancelled', done, needOcr, n('cancelled'))
        : vscode.l10n.t('PDF Page Diagnostics: {0} classified, {1} need OCR', done, needOcr),
      6000,
    );
  }
}

async function revealFirst(d: CommandDeps, files: vscode.Uri[]): Promise<void> {
  const key = files.map((f) => f.toString()).find((k) => d.store.get(k));
  if (!key) return;
  d.store.select(key);
  const node = d.tree.docNodeFor(key);
  if (!node) return;
  d.tree.refreshNow();
  try {
    await vscode.commands.executeCommand(`${ROUTES_VIEW}.focus`);
    await d.treeView.reveal(node, { select: true, focus: false, expand: true });
  } catch {
    // the view may be hidden by the user; the selection still drives the metadata panel
  }
}

function entryFor(d: CommandDeps, arg0: unknown): StoreEntry | undefined {
  const uri = toUri(arg0) ?? activePdf() ?? d.preview.activeUri();
  const key = uri?.toString() ?? d.store.selected;
  return key ? d.store.get(key) : d.store.all().length === 1 ? d.store.all()[0] : undefined;
}

/** Files stay, folders become the PDFs below them; duplicates dropped. */
async function expandFolders(targets: vscode.Uri[]): Promise<vscode.Uri[]> {
  const out = new Map<string, vscode.Uri>();
  for (const t of targets) {
    let type: vscode.FileType | undefined;
    try {
      type = (await vscode.workspace.fs.stat(t)).type;
    } catch {
      type = undefined;
    }
    if (type !== undefined && (type & vscode.FileType.Directory) !== 0) {
      for (const f of await findPdfsUnder(t)) out.set(f.toString(), f);
    } else if (isPdfUri(t) || type !== undefined) out.set(t.toString(), t);
  }
  return [...out.values()];
}

/** The palette's picker: the workspace's PDFs, or a file dialog. */
async function pickPdfs(many = true): Promise<vscode.Uri[]> {
  const browse = { label: `$(folder-opened) ${vscode.l10n.t('Browse…')}`, uri: undefined as vscode.Uri | undefined };
  const found = vscode.workspace.workspaceFolders?.length ? await findWorkspacePdfs() : [];
  let picked: vscode.Uri[] = [];
  if (found.length > 0) {
    const items = [...found.slice(0, 5000).map((uri) => ({ label: labelOf(uri), uri })), browse];
    const sel = many
      ? await vscode.window.showQuickPick(items, {
          canPickMany: true,
          title: vscode.l10n.t('Classify PDF pages'),
          placeHolder: vscode.l10n.t('Pick PDFs to classify'),
        })
      : await vscode.window
          .showQuickPick(items, { title: vscode.l10n.t('Show page preview'), placeHolder: vscode.l10n.t('Pick a PDF') })
          .then((x) => (x ? [x] : undefined));
    if (!sel) return [];
    if (!sel.includes(browse)) return sel.map((s) => s.uri!).filter(Boolean);
    picked = sel.filter((s) => s !== browse).map((s) => s.uri!);
  }
  const dialog = await vscode.window.showOpenDialog({
    canSelectMany: many,
    canSelectFiles: true,
    canSelectFolders: false,
    filters: { PDF: ['pdf', 'PDF'] },
    openLabel: vscode.l10n.t('Classify'),
  });
  return [...picked, ...(dialog ?? [])];
}
