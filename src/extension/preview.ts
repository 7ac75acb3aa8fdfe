/**
 * The page webview host: a WebviewPanel ("Show Page Preview") and the custom readonly editor share this code.
 * The PDF's bytes go to the webview as a message (read through workspace.fs), the overlay comes from the report store,
 * and every message from the webview is validated before use.
 */
import * as vscode from 'vscode';
import {
  evidenceMessages,
  type HostMessage,
  type OverlayHead,
  type OverlayReport,
  overlayHeadOf,
  pageTextLayerOf,
  type PageTextLayer,
  parsePlace,
  parseWebviewMessage,
  parseWebviewState,
  type PreviewPlace,
  textLayerMessages,
  type WebviewAssets,
} from '../shared/protocol';
import type { Classifier } from './classifier';
import { humanSize, isPdfUri } from './classifier';
import { overlayOf, verdictOf } from './model';
import type { ExtensionSettings } from './settings';
import type { ReportStore } from './store';
import { buildWebviewHtml, makeNonce } from './webviewHtml';
import { basename } from './tree';

export const PREVIEW_PANEL = 'pdfPageDiagnostics.pagePreview';
export const CUSTOM_EDITOR = 'pdfPageDiagnostics.pdfEditor';
/** workspaceState key of the places previews were left at (uri → page, zoom), most recent last */
const PLACES_KEY = 'pdfPageDiagnostics.previewPlaces';
const MAX_PLACES = 500;
/** Files whose text layer (glyph runs) is held for the overlay: in memory only, the least recently used dropped. */
const MAX_TEXT_LAYERS = 3;

/** A file's text layer as read for the overlay, for the content and options its stored report was made from. */
interface TextLayerEntry {
  /** the store entry's content hash and options key when it was read */
  key: string;
  result: Promise<{ pages: Map<number, PageTextLayer> } | { error: string }>;
}

/** What the host does on the toggle commands: the message it posts to the focused preview. */
export type PreviewToggle = 'toggleBoxes' | 'toggleTextLayer' | 'toggleFonts';

export class PreviewManager implements vscode.Disposable {
  private readonly panels = new Set<PreviewPanel>();
  private readonly subs: vscode.Disposable[] = [];
  private readonly activeChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeActive = this.activeChanged.event;
  /** where each file's preview was left, so a new preview of it opens there (remembered in workspaceState) */
  private readonly places = new Map<string, PreviewPlace>();
  private placesTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly textLayers = new Map<string, TextLayerEntry>();

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly store: ReportStore,
    readonly classifier: Classifier,
    readonly settings: () => ExtensionSettings,
    readonly log: vscode.OutputChannel,
    private readonly memento?: vscode.Memento,
  ) {
    const saved = memento?.get<unknown>(PLACES_KEY);
    if (Array.isArray(saved)) {
      for (const it of saved.slice(-MAX_PLACES)) {
        if (!Array.isArray(it) || typeof it[0] !== 'string') continue;
        const place = parsePlace(it[1]);
        if (place) this.places.set(it[0], place);
      }
    }
    this.subs.push(
      { dispose: () => clearTimeout(this.placesTimer) },
      this.activeChanged,
      store.onDidChange((uris) => {
        for (const p of this.panels) if (uris.includes(p.key)) p.sendReport();
      }),
      vscode.window.registerWebviewPanelSerializer(PREVIEW_PANEL, {
        deserializeWebviewPanel: async (panel, state) => this.restore(panel, state),
      }),
      vscode.window.registerCustomEditorProvider(
        CUSTOM_EDITOR,
        {
          openCustomDocument: (uri) => ({ uri, dispose: () => {} }),
          resolveCustomEditor: (doc, panel) => {
            this.attach(panel, doc.uri, undefined, false);
          },
        },
        { supportsMultipleEditorsPerDocument: true, webviewOptions: { retainContextWhenHidden: false } },
      ),
    );
  }

  /** Shows the preview of `uri`, scrolled to `page`: reuses an open panel of that file, else opens one. */
  show(uri: vscode.Uri, page?: number, preserveFocus = false): void {
    const key = uri.toString();
    const existing = [...this.panels].find((p) => p.key === key && p.ownPanel) ?? [...this.panels].find((p) => p.key === key);
    if (existing) {
      existing.panel.reveal(undefined, preserveFocus);
      if (page) existing.scrollTo(page);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      PREVIEW_PANEL,
      vscode.l10n.t('Pages: {0}', basename(uri.path)),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus },
      webviewOptions(this.extensionUri),
    );
    this.attach(panel, uri, page, true);
  }

  /** Where the preview of `uri` was left last, if it was opened before. */
  placeOf(uri: string): PreviewPlace | undefined {
    return this.places.get(uri);
  }

  rememberPlace(uri: string, place: PreviewPlace): void {
    const old = this.places.get(uri);
    if (old && old.page === place.page && old.zoom === place.zoom) return;
    this.places.delete(uri);
    this.places.set(uri, place);
    if (this.places.size > MAX_PLACES) this.places.delete(this.places.keys().next().value!);
    if (!this.memento || this.placesTimer) return;
    this.placesTimer = setTimeout(() => {
      this.placesTimer = undefined;
      void this.memento?.update(PLACES_KEY, [...this.places]);
    }, 500);
  }

  /** The focused preview (panel or custom editor), or the only one open. */
  private activePanel(): PreviewPanel | undefined {
    for (const p of this.panels) if (p.panel.active) return p;
    return this.panels.size === 1 ? [...this.panels][0] : undefined;
  }

  /**
   * Keyboard navigation of the focused preview: `delta` pages on, or to the next (previous) page that needs OCR after
   * the page shown, wrapping around. Returns what it did, for a status message; undefined without a preview.
   */
  navigate(how: 'next' | 'previous' | 'nextOcr' | 'previousOcr'): { page: number } | { none: string } | undefined {
    const p = this.activePanel();
    if (!p) return undefined;
    const entry = this.store.get(p.key);
    const count = entry?.report.pageCount || p.currentPage;
    const at = p.currentPage;
    let page: number | undefined;
    if (how === 'next') page = Math.min(count, at + 1);
    else if (how === 'previous') page = Math.max(1, at - 1);
    else {
      const ocr = entry ? verdictOf(entry.report, this.settings().trustOcrLayer).ocrPages : [];
      if (ocr.length === 0) return { none: entry ? vscode.l10n.t('No page of this PDF needs OCR.') : vscode.l10n.t('Classify this PDF first.') };
      page = how === 'nextOcr' ? (ocr.find((n) => n > at) ?? ocr[0]) : ([...ocr].reverse().find((n) => n < at) ?? ocr[ocr.length - 1]);
    }
    p.scrollTo(page);
    return { page };
  }

  /** Shows or hides the image boxes (the text layer, the fonts table) in the focused preview. */
  toggle(what: PreviewToggle): boolean {
    const p = this.activePanel();
    if (!p) return false;
    void p.panel.webview.postMessage({ type: what } satisfies HostMessage);
    return true;
  }

  toggleBoxes(): boolean {
    return this.toggle('toggleBoxes');
  }

  /**
   * The text layer of `uri` for the overlay, read once per content and options (the analysis again, with textLayer on)
   * and held for the last MAX_TEXT_LAYERS files. Only the pages' glyph-run boxes are kept, never the text; nothing
   * is stored in the workspace. Undefined when the file has no stored report.
   */
  textLayerOf(uri: vscode.Uri): TextLayerEntry['result'] | undefined {
    const key = uri.toString();
    const entry = this.store.get(key);
    if (!entry) return undefined;
    const stamp = `${entry.stamp.sha256};${entry.stamp.options}`;
    const held = this.textLayers.get(key);
    if (held && held.key === stamp) {
      this.textLayers.delete(key);
      this.textLayers.set(key, held);
      return held.result;
    }
    const started = Date.now();
    const result = this.classifier.readTextLayer(uri, entry.report.pageCount).then((r) => {
      if ('error' in r) {
        this.textLayers.delete(key);
        return { error: r.message };
      }
      const pages = new Map<number, PageTextLayer>();
      let runs = 0;
      for (const p of r.report.pages) {
        if (!p.evidence.textLayer) continue;
        const layer = pageTextLayerOf(p.page, p.evidence.textLayer);
        runs += layer.runs.length;
        pages.set(p.page, layer);
      }
      this.log.appendLine(
        `read the text layer of ${basename(uri.path)} for the preview: ${runs} glyph runs on ${pages.size} pages in ${Date.now() - started} ms`,
      );
      return { pages };
    });
    this.textLayers.delete(key);
    this.textLayers.set(key, { key: stamp, result });
    while (this.textLayers.size > MAX_TEXT_LAYERS) this.textLayers.delete(this.textLayers.keys().next().value!);
    return result;
  }

  /** The file of the focused panel. */
  activeUri(): vscode.Uri | undefined {
    for (const p of this.panels) if (p.panel.active) return p.uri;
    return undefined;
  }

  attach(panel: vscode.WebviewPanel, uri: vscode.Uri, page: number | undefined, ownPanel: boolean): PreviewPanel {
    const p = new PreviewPanel(this, panel, uri, page, ownPanel);
    this.panels.add(p);
    panel.onDidDispose(() => {
      this.panels.delete(p);
      p.dispose();
      this.activeChanged.fire();
    });
    panel.onDidChangeViewState(() => this.activeChanged.fire());
    this.activeChanged.fire();
    return p;
  }

  /**
   * Restores a preview panel after a reload. The URI comes from the webview's saved state, which a compromised webview
   * could forge, so only a PDF inside an open workspace folder is reopened.
   */
  private restore(panel: vscode.WebviewPanel, raw: unknown): void {
    const state = parseWebviewState(raw);
    let uri: vscode.Uri | undefined;
    try {
      uri = state.uri ? vscode.Uri.parse(state.uri, true) : undefined;
    } catch {
      uri = undefined;
    }
    if (!uri || !isPdfUri(uri) || !vscode.workspace.getWorkspaceFolder(uri)) {
      panel.dispose();
      return;
    }
    panel.webview.options = webviewOptions(this.extensionUri);
    this.attach(panel, uri, undefined, true);
  }

  dispose(): void {
    for (const p of this.panels) p.panel.dispose();
    for (const s of this.subs) s.dispose();
  }
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    enableForms: false,
    retainContextWhenHidden: false,
    enableFindWidget: false,
    // Only the webview bundle (with pdf.js, its worker, CMaps, fonts) and the icons: never the workspace.
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** Report ids are unique across panels, so a webview can never match evidence to the wrong report. */
let lastReportId = 0;

/** The report the webview was last sent, kept to answer its 'needPages' requests from. */
interface SentReport {
  id: number;
  overlay: OverlayReport;
  /** page number -> index in overlay.pages, built only if the pages are not simply 1..n in order */
  index?: Map<number, number>;
}

class PreviewPanel implements vscode.Disposable {
  readonly key: string;
  /** the page the webview reports it shows (pageChanged), or the one it was asked to open at */
  currentPage = 1;
  private sent: SentReport | undefined;
  private pendingPage: number | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private loading = false;

  constructor(
    private readonly manager: PreviewManager,
    readonly panel: vscode.WebviewPanel,
    readonly uri: vscode.Uri,
    page: number | undefined,
    readonly ownPanel: boolean,
  ) {
    this.key = uri.toString();
    this.pendingPage = page;
    this.currentPage = page ?? manager.placeOf(this.key)?.page ?? 1;
    const webview = panel.webview;
    webview.options = webviewOptions(manager.extensionUri);
    const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(manager.extensionUri, ...p)).toString();
    webview.html = buildWebviewHtml(
      {
        cspSource: webview.cspSource,
        script: asset('dist', 'webview', 'main.js'),
        style: asset('dist', 'webview', 'main.css'),
        codicons: asset('dist', 'webview', 'codicons', 'codicon.css'),
      },
      makeNonce(),
    );
    // a dark stroke for light (and high-contrast light) themes, a light one for dark ones: one colour vanishes in the other
    panel.iconPath = {
      light: vscode.Uri.joinPath(manager.extensionUri, 'media', 'routes-light.svg'),
      dark: vscode.Uri.joinPath(manager.extensionUri, 'media', 'routes.svg'),
    };
    this.subs.push(webview.onDidReceiveMessage((m) => this.onMessage(m)));
    if (!manager.store.get(this.key)) void this.classify();
  }

  private get pageCount(): number {
    return this.manager.store.get(this.key)?.report.pageCount || 1_000_000;
  }

  private post(msg: HostMessage): void {
    void this.panel.webview.postMessage(msg);
  }

  private assets(): WebviewAssets {
    const w = this.panel.webview;
    const dir = (...p: string[]) => `${w.asWebviewUri(vscode.Uri.joinPath(this.manager.extensionUri, 'dist', 'webview', ...p)).toString()}/`;
    return {
      workerSrc: w.asWebviewUri(vscode.Uri.joinPath(this.manager.extensionUri, 'dist', 'webview', 'pdf.worker.min.mjs')).toString(),
      cMapUrl: dir('cmaps'),
      standardFontDataUrl: dir('standard_fonts'),
      wasmUrl: dir('wasm'),
    };
  }

  private async onMessage(raw: unknown): Promise<void> {
    const msg = parseWebviewMessage(raw, this.pageCount);
    if (!msg) return; // malformed or unknown: ignored
    switch (msg.type) {
      case 'ready':
        await this.load();
        break;
      case 'classify':
        await this.classify();
        break;
      case 'pageChanged':
        this.currentPage = msg.page;
        this.manager.rememberPlace(this.key, { page: msg.page, zoom: msg.zoom ?? this.manager.placeOf(this.key)?.zoom ?? 0 });
        break;
      case 'needPages':
        this.sendPages(msg.report, msg.from, msg.to);
        break;
      case 'needTextLayer':
        await this.sendTextLayer(msg.report, msg.from, msg.to);
        break;
      case 'renderError':
        this.manager.log.appendLine(`preview of ${this.key}, page ${msg.page}: ${msg.message}`);
        break;
    }
  }

  private async load(): Promise<void> {
    if (this.loading) return;
    this.loading = true;
    try {
      const s = this.manager.settings();
      const stat = await vscode.workspace.fs.stat(this.uri);
      if (stat.size > s.maxFileSizeBytes) {
        this.post({
          type: 'loadError',
          message: vscode.l10n.t(
            'The file ({0}) is larger than the {1} limit (pdfPageDiagnostics.maxFileSizeMB).',
            humanSize(stat.size),
            humanSize(s.maxFileSizeBytes),
          ),
        });
        return;
      }
      const bytes = plainBytes(await vscode.workspace.fs.readFile(this.uri));
      const msg: HostMessage = { type: 'load', fileName: basename(this.uri.path), uri: this.key, bytes, assets: this.assets() };
      const head = this.head();
      if (head) msg.report = head;
      if (this.pendingPage) msg.page = this.pendingPage;
      this.pendingPage = undefined;
      const place = this.manager.placeOf(this.key);
      if (place) msg.place = place;
      this.post(msg);
    } catch (e) {
      this.post({ type: 'loadError', message: vscode.l10n.t('Cannot read the file: {0}', String(e).slice(0, 300)) });
    } finally {
      this.loading = false;
    }
  }

  private async classify(): Promise<void> {
    this.post({ type: 'report', classifying: true });
    await this.manager.classifier.classifyOne(this.uri);
    this.sendReport();
  }

  sendReport(): void {
    const msg: HostMessage = { type: 'report' };
    const head = this.head();
    if (head) msg.report = head;
    this.post(msg);
  }

  /** The stored report's head under a new id (the evidence follows on request); remembers the overlay to answer from. */
  private head(): OverlayHead | undefined {
    const entry = this.manager.store.get(this.key);
    if (!entry) {
      this.sent = undefined;
      return undefined;
    }
    const overlay = overlayOf(entry.report, this.manager.settings().trustOcrLayer);
    const id = ++lastReportId;
    this.sent = { id, overlay };
    return overlayHeadOf(overlay, id);
  }

  /** Answers a 'needPages' request in messages bounded by the protocol's caps; a request for an old report is dropped. */
  private sendPages(id: number, from: number, to: number): void {
    const sent = this.sent;
    if (!sent || sent.id !== id) return;
    const index = () => (sent.index ??= new Map(sent.overlay.pages.map((p, i) => [p.page, i])));
    for (const m of evidenceMessages(sent.overlay.pages, id, from, to, index)) this.post(m);
  }

  /**
   * Answers a 'needTextLayer' request: the glyph-run boxes of pages from..to, once the file's text layer is read (the
   * webview hears 'reading' first when that takes a while). A page without a text layer comes as an empty one, so the
   * webview does not ask again. A request for an old report is dropped.
   */
  private async sendTextLayer(id: number, from: number, to: number): Promise<void> {
    if (!this.sent || this.sent.id !== id) return;
    const pending = this.manager.textLayerOf(this.uri);
    if (!pending) {
      this.post({ type: 'textLayerStatus', report: id, status: 'unavailable', message: vscode.l10n.t('Classify this PDF first.') });
      return;
    }
    let done = false;
    const timer = setTimeout(() => {
      if (!done) this.post({ type: 'textLayerStatus', report: id, status: 'reading' });
    }, 150);
    const r = await pending;
    done = true;
    clearTimeout(timer);
    if (!this.sent || this.sent.id !== id) return;
    if ('error' in r) {
      this.post({
        type: 'textLayerStatus',
        report: id,
        status: 'unavailable',
        message: vscode.l10n.t('The text layer could not be read: {0}', r.error),
      });
      return;
    }
    this.post({ type: 'textLayerStatus', report: id, status: 'ready' });
    const found: PageTextLayer[] = [];
    for (let n = from; n <= to; n++) found.push(r.pages.get(n) ?? { page: n, runs: [], runCount: 0 });
    for (const m of textLayerMessages(found, id)) this.post(m);
  }

  scrollTo(page: number): void {
    this.currentPage = page;
    // A hidden webview is not alive; when it is rebuilt it asks for 'load' again and the page goes with that.
    this.pendingPage = page;
    void this.panel.webview.postMessage({ type: 'scrollToPage', page } satisfies HostMessage).then((delivered) => {
      if (delivered && this.pendingPage === page) this.pendingPage = undefined;
    });
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}

/**
 * A plain Uint8Array over the file's bytes. The node host's readFile gives a Buffer, which VS Code's webview message
 * serializer does not recognise as a typed array (it would arrive as a plain object); a small Buffer is also a view
 * into a shared pool, which must not be sent whole.
 */
function plainBytes(b: Uint8Array): Uint8Array {
  if (b.constructor === Uint8Array) return b;
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength) return new Uint8Array(b.buffer);
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return copy;
}
