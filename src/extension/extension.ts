/**
 * activate(): wires the report store to its views and the analysis pool. Shared by the desktop (node.ts) and web
 * (web.ts) entry points, which differ only in how they start analysis workers.
 */
import * as vscode from 'vscode';
import { resolveOptions } from '../analyzer/options';
import { AnalysisPool, type WorkerFactory } from './analysisPool';
import { Classifier, type ClassifierExtras, isPdfUri, PDF_GLOB } from './classifier';
import { registerCommands } from './commands';
import { PdfCodeActions, ProblemsPublisher } from './diagnostics';
import { METADATA_VIEW, MetadataTree } from './metadataView';
import type { TreeNode } from './model';
import { Passwords } from './passwords';
import { ResultStorage } from './persist';
import { PreviewManager } from './preview';
import { analyzerVersionOf, type RestoreResult, restoreResults, storageFsAt } from './restore';
import { affectsAnalysis, effectiveWorkerCount, readSettings, SECTION, type ExtensionSettings } from './settings';
import { activePdf, PdfStatusBar } from './statusBar';
import { ReportStore } from './store';
import { setTranslator } from './l10n';
import { ROUTES_VIEW, RoutesTree } from './tree';

export interface Platform {
  /** undefined when this host cannot start workers */
  workerFactory: WorkerFactory | undefined;
  /** in-process analysis, used when workers fail */
  fallback: WorkerFactory;
  hardwareConcurrency: number | undefined;
}

/**
 * What activate() returns (`vscode.extensions.getExtension('pdf-page-diagnostics.pdf-page-diagnostics').exports`):
 * read-only access to the Page Routes tree as VS Code sees it, for other extensions and the integration tests.
 */
export interface PdfPageDiagnosticsApi {
  readonly routesTree: Pick<vscode.TreeDataProvider<TreeNode>, 'getChildren' | 'getTreeItem'>;
  /** settles when the stored results of the last session are back in the views (undefined: nothing is stored here) */
  readonly restored: Promise<RestoreResult | undefined>;
  /** files analysed (not restored, not cached) since activation */
  readonly analysed: () => number;
}

export function activateWith(context: vscode.ExtensionContext, platform: Platform): PdfPageDiagnosticsApi {
  // the pure modules' strings (model.ts) in the user's language, as the rest go through vscode.l10n.t
  setTranslator((message, args) => vscode.l10n.t(message, ...args));
  const log = vscode.window.createOutputChannel('PDF Page Diagnostics');
  context.subscriptions.push(log);

  let settings: ExtensionSettings = readSettings((k) => vscode.workspace.getConfiguration(SECTION).get(k));
  const getSettings = () => settings;

  const store = new ReportStore();
  const pool = new AnalysisPool(platform.workerFactory, effectiveWorkerCount(settings.workerCount, platform.hardwareConcurrency), platform.fallback, {
    log: (m) => log.appendLine(m),
    // a worker may hold the file and the decoded data the analyzer's account allows, with room for the heap around
    // them; past twice that, what it keeps after a file is a leak or fragmentation, and it is replaced
    maxWorkerBytes: 2 * (resolveOptions(settings.options).maxHeldBytes + settings.maxFileSizeBytes),
  });
  log.appendLine(pool.inProcess ? 'analysis runs on the extension host (no workers here)' : `analysis runs in up to ${pool.size} worker(s)`);
  const passwords = new Passwords(context.secrets, context.globalState);
  const extras: ClassifierExtras = { passwords };
  const classifier = new Classifier(store, pool, getSettings, log, extras);
  context.subscriptions.push({ dispose: () => pool.dispose() }, { dispose: () => store.dispose() });

  // Results that last: the store's reports go to the workspace's storage and come back after a reload.
  let storage: ResultStorage | undefined;
  const restored = (async (): Promise<RestoreResult | undefined> => {
    if (!context.storageUri) return undefined; // no folder open: nothing to keep results for
    const pkgVersion = (context.extension.packageJSON as { version?: string }).version ?? '0';
    storage = new ResultStorage(storageFsAt(context.storageUri), {
      analyzerVersion: await analyzerVersionOf(context.extensionUri, pkgVersion),
      maxBytes: () => settings.storageMaxBytes,
      log: (m) => log.appendLine(m),
    });
    const s = storage;
    context.subscriptions.push(s.follow(store), { dispose: () => void s.dispose() });
    extras.storage = s;
    // reports made while the version was being read
    for (const e of store.all()) if (!e.transient && e.stamp.sha256) void s.save(e);
    const r = await restoreResults(s, store, classifier);
    log.appendLine(
      `restored ${r.restored} stored result(s) without analysing them; ${r.gone} dropped (file gone); ${r.recheck.length} to check again (changed, or stored under other settings)`,
    );
    if (r.recheck.length) {
      await classifier.classifyMany(
        r.recheck,
        r.recheck.length === 1
          ? vscode.l10n.t('Re-checking 1 stored PDF result')
          : vscode.l10n.t('Re-checking {0} stored PDF results', r.recheck.length),
        vscode.ProgressLocation.Window,
      );
      // a file now refused (too large) or unreadable has no report to keep
      for (const u of r.recheck) if (!store.get(u.toString())?.stamp.sha256) void s.forget(u.toString());
    }
    return r;
  })().catch((e: unknown) => {
    log.appendLine(`stored results could not be read: ${String(e).slice(0, 300)}`);
    return undefined;
  });

  const tree = new RoutesTree(store, getSettings);
  const treeView = vscode.window.createTreeView(ROUTES_VIEW, { treeDataProvider: tree, showCollapseAll: true, canSelectMany: false });
  const metadata = new MetadataTree(store, getSettings);
  const metadataView = vscode.window.createTreeView(METADATA_VIEW, { treeDataProvider: metadata });
  metadata.view = metadataView;
  const problems = new ProblemsPublisher(store, getSettings);
  const preview = new PreviewManager(context.extensionUri, store, classifier, getSettings, log, context.workspaceState);
  const status = new PdfStatusBar(store, getSettings, () => preview.activeUri());
  context.subscriptions.push(tree, treeView, metadata, metadataView, problems, preview, status);

  // The metadata panel follows the tree's selection, else the active PDF.
  context.subscriptions.push(
    treeView.onDidChangeSelection((e) => {
      const node = e.selection[0];
      if (node) store.select(node.uri);
    }),
    vscode.window.tabGroups.onDidChangeTabs(() => {
      const uri = activePdf();
      if (uri && store.get(uri.toString())) store.select(uri.toString());
    }),
    preview.onDidChangeActive(() => {
      const uri = preview.activeUri();
      if (uri && store.get(uri.toString())) store.select(uri.toString());
      status.update();
    }),
    store.onDidChange(() => {
      const n = store.size;
      void vscode.commands.executeCommand('setContext', 'pdfPageDiagnostics.hasResults', n > 0);
      treeView.message = undefined;
    }),
  );

  registerCommands(context, {
    store,
    classifier,
    tree,
    treeView,
    preview,
    settings: getSettings,
    passwords,
    clearStorage: async () => storage?.clear(),
  });
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ pattern: '**/*.{pdf,PDF}' }, new PdfCodeActions(), {
      providedCodeActionKinds: PdfCodeActions.kinds,
    }),
  );

  // Re-analyse a classified file when it changes; forget it when it is deleted.
  const pendingChanges = new Map<string, ReturnType<typeof setTimeout>>();
  const onChanged = (uri: vscode.Uri) => {
    const key = uri.toString();
    if (!store.get(key) || !isPdfUri(uri)) return;
    clearTimeout(pendingChanges.get(key));
    pendingChanges.set(
      key,
      setTimeout(() => {
        pendingChanges.delete(key);
        void classifier.classifyOne(uri);
      }, 750),
    );
  };
  const watcher = vscode.workspace.createFileSystemWatcher(PDF_GLOB);
  context.subscriptions.push(
    watcher,
    watcher.onDidChange(onChanged),
    watcher.onDidCreate(onChanged),
    watcher.onDidDelete((uri) => {
      store.delete(uri.toString());
      // a stored result not shown yet (being checked again) goes too
      void storage?.forget(uri.toString());
    }),
    { dispose: () => pendingChanges.forEach((t) => clearTimeout(t)) },
  );

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      const before = settings;
      settings = readSettings((k) => vscode.workspace.getConfiguration(SECTION).get(k));
      if (settings.workerCount !== before.workerCount) pool.resize(effectiveWorkerCount(settings.workerCount, platform.hardwareConcurrency));
      if (settings.storageMaxBytes !== before.storageMaxBytes) void storage?.trim();
      if (affectsAnalysis((k) => e.affectsConfiguration(k)) && store.size > 0) {
        const uris = store.all().map((x) => vscode.Uri.parse(x.uri));
        void classifier.classifyMany(uris, vscode.l10n.t('Re-classifying with the new thresholds'), vscode.ProgressLocation.Window);
      } else {
        store.refreshViews();
      }
      status.update();
    }),
  );
  void vscode.commands.executeCommand('setContext', 'pdfPageDiagnostics.hasResults', false);
  return {
    routesTree: { getChildren: (node?: TreeNode) => tree.getChildren(node), getTreeItem: (node: TreeNode) => tree.getTreeItem(node) },
    restored,
    analysed: () => classifier.analysedCount,
  };
}
