/**
 * The page webview: renders the PDF with pdf.js, draws the analyzer's image boxes over each page with their share, a
 * route badge and the evidence, and keeps its page across hide/show through the webview state. Everything from the
 * PDF is rendered as text (see dom.ts).
 *
 * Virtualised for very long documents: the geometry of every page lives in layout.ts (prefix sums over the pages'
 * heights, taken from the report's page boxes before pdf.js has seen a page); the DOM holds only the pages near the
 * viewport and the page-list rows in sight, and the host sends a page's evidence when the viewport needs it.
 */
import * as pdfjs from 'pdfjs-dist';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import {
  type FontRow,
  type HostMessage,
  NO_ROUTE,
  type OverlayHead,
  type PageOverlay,
  type PageTextLayer,
  parseHostMessage,
  parseWebviewState,
  PREVIEW_MAX_PAGES_PER_REQUEST,
  PREVIEW_MAX_TEXT_PAGES_PER_REQUEST,
  type RunBox,
  routeOf,
  unpackSizes,
  type WebviewMessage,
  type WebviewState,
  ZOOM_LEVELS,
} from '../src/shared/protocol';
import { LAYER_GRADE_STYLE, layerGrade, percent, ROUTE_STYLE, scoreText, wordGrade } from '../src/shared/routes';
import { append, clear, h, icon } from './dom';
import { placeLabels } from './labels';
import { layerBadgeText, layerMeaning, runQuality } from './layerColors';
import { PAD_TOP, PageLayout, ScrollMap, type Size } from './layout';

interface VsCodeApi {
  postMessage(msg: WebviewMessage): void;
  getState(): unknown;
  setState(s: WebviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const state: WebviewState = parseWebviewState(vscode.getState());

/** A page in the DOM: only pages near the viewport have one. */
interface Slot {
  n: number;
  el: HTMLDivElement;
  head: HTMLDivElement;
  surface: HTMLDivElement;
  evidence: HTMLDivElement;
  canvas: HTMLCanvasElement | null;
  overlay: HTMLDivElement;
  /** the text layer's glyph-run boxes (drawn when the text-layer toggle is on) */
  textOverlay: HTMLDivElement;
  /** what drawText last drew from */
  textDrawn: { layer: PageTextLayer | undefined; quality: PageOverlay['layer']; scale: number; hasPage: boolean; on: boolean } | null;
  renderedScale: number;
  task: RenderTask | null;
  page: PDFPageProxy | null;
  loadingPage: boolean;
  /** what drawOverlay last drew from: redraw only when the evidence or the scale changed */
  drawn: { o: PageOverlay | undefined; route: string | undefined; scale: number; hasPage: boolean; fonts: boolean } | null;
}

let pdf: PDFDocumentProxy | null = null;
let loadingTask: PDFDocumentLoadingTask | null = null;
let head: OverlayHead | undefined;
let classifying = false;
let layout: PageLayout | null = null;
const slots = new Map<number, Slot>();
let targetPage: number | undefined;
let loadGeneration = 0;
/** pdf.js could not open the file: the verdict and findings show, but no pages. */
let pdfFailed = false;

/** Evidence of the pages near the viewport, by page number, as the host sent it; far pages are dropped again. */
const overlays = new Map<number, PageOverlay>();
/** Pages asked of the host and not answered yet. */
const asked = new Set<number>();
const KEEP_OVERLAYS = 2000;
/** Glyph-run boxes of the pages near the viewport (asked for only while the text-layer toggle is on). */
const textLayers = new Map<number, PageTextLayer>();
const askedText = new Set<number>();
const KEEP_TEXT_LAYERS = 40;
/** the host's word on the text layer of the current report */
let textStatus: 'none' | 'reading' | 'ready' | 'unavailable' = 'none';
let textMessage = '';

/** Pages in the DOM at most (a far zoomed-out view of tiny pages must not create thousands). */
const MAX_SLOTS = 60;
/** The page header, evidence line and gap below a page until its element is measured (see main.css). */
const CHROME_ESTIMATE = 62;
/** Page-list row height in px: fixed in main.css, so the list needs no measuring. */
const ROW_H = 22;
const LIST_PAD = 4;

// ---- layout -------------------------------------------------------------------------------------------------------

const app = document.getElementById('app')!;
const fileName = h('span', { class: 'file-name' });
const verdict = h('span', { class: 'verdict' });
const boxesToggle = h('button', { class: 'tool', title: 'Show or hide image boxes (Alt+B)', 'aria-pressed': 'true' }, icon('symbol-misc'), ' Boxes');
const textToggle = h(
  'button',
  { class: 'tool text-toggle', title: 'Show or hide the text layer: the boxes of the text the analyzer found (Alt+T)', 'aria-pressed': 'false' },
  icon('layers'),
  ' Text',
);
const fontsToggle = h(
  'button',
  { class: 'tool fonts-toggle', title: "Show or hide each page's fonts table (Shift+Alt+T)", 'aria-pressed': 'false' },
  icon('table'),
  ' Fonts',
);
const textInfo = h('span', { class: 'text-info', role: 'status' });
/** The colours of the text-layer boxes, shown while the overlay is on. */
const legend = h(
  'div',
  { class: 'legend', 'aria-label': 'Text layer colours' },
  h('span', { class: 'swatch vis-visible' }),
  ' visible text ',
  h('span', { class: 'swatch vis-invisible' }),
  ' invisible (render mode 3, clipped) ',
  h('span', { class: 'swatch vis-hidden' }),
  ' hidden under an image ',
  h(
    'span',
    {
      class: 'legend-layer',
      title:
        "An OCR layer's runs are filled with its page's grade; where the page's text is judged wrong, each word with its own grade (how much it reads like the page's language)",
    },
    ' · OCR layer (page, or word where the text reads wrong): ',
    h('span', { class: 'swatch lq-good' }),
    ' good ',
    h('span', { class: 'swatch lq-fair' }),
    ' fair ',
    h('span', { class: 'swatch lq-poor' }),
    ' poor, re-OCR ',
  ),
  h(
    'span',
    {
      class: 'legend-missing',
      title: 'Where the scan has ink that reads as text but no word of the layer covers it: what the score counts as missing',
    },
    ' · ',
    h('span', { class: 'swatch missing' }),
    ' text the layer lacks ',
  ),
  textInfo,
);
/** The string of the glyph run under the pointer or the keyboard focus. */
const tip = h('div', { class: 'run-tip', role: 'tooltip', id: 'run-tip', hidden: true });
const zoomSelect = h('select', { class: 'zoom', title: 'Zoom' });
for (const z of ZOOM_LEVELS) zoomSelect.append(h('option', { value: String(z) }, z === 0 ? 'Fit width' : `${Math.round(z * 100)}%`));
const pageInput = h('input', { class: 'page-input', type: 'number', min: '1', value: '1', title: 'Go to page', 'aria-label': 'Page number' });
const pageTotal = h('span', { class: 'page-total' }, '/ –');
const toolbar = h(
  'header',
  { class: 'toolbar' },
  icon('file-pdf'),
  fileName,
  verdict,
  h('span', { class: 'spacer' }),
  boxesToggle,
  textToggle,
  fontsToggle,
  zoomSelect,
  h('label', { class: 'page-nav' }, 'Page ', pageInput, pageTotal),
);
const banner = h('div', { class: 'banner', role: 'status' });
const findings = h('details', { class: 'findings', hidden: true });
const pageList = h('nav', { class: 'page-list', 'aria-label': 'Pages' });
const listSpace = h('div', { class: 'scroll-space' });
pageList.append(listSpace);
const pagesEl = h('main', { class: 'pages', tabindex: '0', 'aria-label': 'Page preview' });
const pagesSpace = h('div', { class: 'scroll-space' });
pagesEl.append(pagesSpace);
append(app, toolbar, legend, banner, findings, h('div', { class: 'body' }, pageList, pagesEl), tip);

function setBanner(text: string, kind: 'info' | 'error' | 'none', action?: { label: string; run: () => void }): void {
  clear(banner);
  banner.className = `banner ${kind}`;
  if (kind === 'none') return;
  append(banner, icon(kind === 'error' ? 'error' : 'info'), ' ', text);
  if (action) append(banner, ' ', h('button', { class: 'link', onclick: action.run }, action.label));
}

function applyToggles(): void {
  document.body.classList.toggle('hide-boxes', !state.showBoxes);
  document.body.classList.toggle('show-text', state.showText);
  document.body.classList.toggle('show-fonts', state.showFonts);
  boxesToggle.setAttribute('aria-pressed', String(state.showBoxes));
  textToggle.setAttribute('aria-pressed', String(state.showText));
  fontsToggle.setAttribute('aria-pressed', String(state.showFonts));
  zoomSelect.value = String(state.zoom);
}

function saveState(): void {
  vscode.setState(state);
}

function toggleBoxes(): void {
  state.showBoxes = !state.showBoxes;
  applyToggles();
  saveState();
}
boxesToggle.addEventListener('click', toggleBoxes);

function toggleText(): void {
  state.showText = !state.showText;
  applyToggles();
  saveState();
  if (!state.showText) hideTip();
  showTextInfo();
  // draws what is held, and asks the host for the text layer of the pages in view
  update();
}
textToggle.addEventListener('click', toggleText);

function toggleFonts(): void {
  state.showFonts = !state.showFonts;
  applyToggles();
  saveState();
  captureAnchor();
  for (const s of slots.values()) drawOverlay(s);
  update();
}
fontsToggle.addEventListener('click', toggleFonts);
zoomSelect.addEventListener('change', () => {
  const z = Number(zoomSelect.value);
  if (!ZOOM_LEVELS.includes(z)) return;
  state.zoom = z;
  saveState();
  relayout();
  // the host remembers the zoom with the page, for the next preview of this file
  if (current) vscode.postMessage({ type: 'pageChanged', page: current, zoom: state.zoom });
});
pageInput.addEventListener('change', () => {
  const n = Math.floor(Number(pageInput.value));
  if (layout && n >= 1 && n <= layout.count) scrollToPage(n, true);
});

// ---- virtual scrolling ---------------------------------------------------------------------------------------------

/**
 * One scroll container over a capped spacer (see ScrollMap): feeds its scroll events to the map, reanchors when
 * scrolling pauses, and calls `changed` once a frame.
 */
class VScroll {
  readonly map = new ScrollMap();
  private pending = false;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private sized: { total: number; view: number; width?: number } = { total: -1, view: -1 };

  constructor(
    readonly el: HTMLElement,
    readonly space: HTMLElement,
    private readonly changed: () => void,
  ) {
    el.addEventListener('scroll', () => this.onScroll(), { passive: true });
  }

  private onScroll(): void {
    const before = this.map.y;
    const atEnd = this.map.onScroll(this.el.scrollTop);
    if (pendingAnchor && this === pages) pendingAnchor.dy += this.map.y - before;
    if (atEnd) this.setPhysical(this.map.reanchor());
    if (this.map.scaled) {
      clearTimeout(this.idle);
      this.idle = setTimeout(() => {
        this.setPhysical(this.map.reanchor());
        this.changed();
      }, 200);
    }
    this.schedule();
  }

  schedule(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.changed();
    });
  }

  private setPhysical(s: number): void {
    // Setting scrollTop, even to where it is, may cancel a smooth scroll in progress: only when it moves.
    if (Math.abs(this.el.scrollTop - s) >= 0.5) this.el.scrollTop = s;
    // The browser rounds scrollTop; positions are computed from what it really is.
    this.map.s = this.el.scrollTop;
  }

  /** Sizes the spacer for a document `total` px tall and keeps the current virtual top. */
  resize(total: number, width?: number): void {
    const view = this.el.clientHeight;
    if (total === this.sized.total && view === this.sized.view && width === this.sized.width) return;
    // Only on a real change: setting scrollTop cancels a smooth scroll in progress.
    this.sized = { total, view, width };
    const s = this.map.resize(total, view);
    this.space.style.height = `${Math.round(this.map.spacer)}px`;
    if (width !== undefined) this.space.style.width = `${Math.ceil(width)}px`;
    this.setPhysical(s);
  }

  goTo(y: number): void {
    this.setPhysical(this.map.goTo(y));
  }

  /** Where an element at virtual offset y goes inside the spacer. */
  place(y: number): number {
    return y - this.map.shift;
  }
}

const pages = new VScroll(pagesEl, pagesSpace, () => update());
const list = new VScroll(pageList, listSpace, () => updateList());

/**
 * Where the view is, in page terms: kept across anything that changes page heights (a measured page, a page size from
 * pdf.js, zoom, a resize, a new report), so the page being read does not move. Captured before the first change of a
 * frame, applied at the next update.
 */
let pendingAnchor: { page: number; delta: number; frac: number; scaled: boolean; dy: number } | null = null;

/**
 * @param scaled the whole page changes size (zoom, width): keep the same fraction of it in view. Otherwise a page's
 * header or evidence changed, or one page's size: keep the same pixel offset into the anchored page.
 */
function captureAnchor(scaled = false): void {
  if (pendingAnchor || !layout || layout.count === 0) return;
  const y = pages.map.y;
  // The page being read (as currentPage() picks it), not a page whose last pixels show at the very top.
  const page = layout.pageAt(y + pagesEl.clientHeight / 3);
  const delta = y - layout.offsetOf(page);
  pendingAnchor = { page, delta, frac: delta / Math.max(1, layout.heightOf(page)), scaled, dy: 0 };
}

/** Sizes the spacer for the layout and, if heights changed, puts the anchored page back where it was on screen. */
function applyLayout(): void {
  const a = pendingAnchor;
  pendingAnchor = null;
  if (!layout) return;
  pages.resize(layout.total, layout.width);
  // dy: what was scrolled between the capture and now (VScroll.onScroll adds it), on top of the page's new position.
  if (!a) return;
  // Above the page's top (its margin) the offset stays in pixels; inside it, a zoom keeps the same share of the page.
  const y = layout.offsetOf(a.page) + (a.scaled && a.delta > 0 ? a.frac * layout.heightOf(a.page) : a.delta) + a.dy;
  if (Math.abs(y - pages.map.y) >= 0.5) pages.goTo(y);
}

function viewOf(): { zoom: number; width: number; height: number } {
  return { zoom: state.zoom, width: pagesEl.clientWidth, height: pagesEl.clientHeight };
}

function relayout(): void {
  if (!layout) return;
  captureAnchor(true);
  layout.setView(viewOf());
  update();
}

new ResizeObserver(() => relayout()).observe(pagesEl);
new ResizeObserver(() => {
  if (layout) list.resize(layout.count * ROW_H + 2 * LIST_PAD);
  updateList();
}).observe(pageList);

/** Measures pages in the DOM: their header and evidence may wrap, and the layout's estimate is corrected. */
const measure = new ResizeObserver((entries) => {
  if (!layout) return;
  for (const e of entries) {
    const el = e.target as HTMLElement;
    const n = Number(el.dataset.page);
    const s = slots.get(n);
    if (!s || s.el !== el) continue;
    const chrome = el.offsetHeight - layout.surfaceOf(n).h;
    if (chrome !== layout.heightOf(n) - layout.surfaceOf(n).h) {
      captureAnchor();
      layout.setChrome(n, chrome);
    }
  }
  // Now, not at the next frame: a ResizeObserver runs after layout and before paint, so corrected positions show
  // without a frame of pages drawn at their estimated places.
  if (pendingAnchor) update();
});

// ---- the pages in the DOM ------------------------------------------------------------------------------------------

/** Lays out the pages in sight (and a screen above and below), renders them, and asks for their evidence. */
function update(): void {
  if (!layout) return;
  applyLayout();
  const view = pagesEl.clientHeight;
  const y = pages.map.y;
  const { first, last } = layout.range(y - view, y + 2 * view, MAX_SLOTS);
  for (const [n, s] of slots) if (n < first || n > last) dropSlot(s);
  for (let n = first; n <= last; n++) {
    let s = slots.get(n);
    if (!s) {
      s = makeSlot(n);
      slots.set(n, s);
      pagesSpace.append(s.el);
      measure.observe(s.el);
    }
    const size = layout.surfaceOf(n);
    s.surface.style.width = `${size.w}px`;
    s.surface.style.height = `${size.h}px`;
    s.el.style.top = `${pages.place(layout.offsetOf(n))}px`;
    drawOverlay(s);
    drawText(s);
    void renderSlot(s);
  }
  askEvidence(first, last);
  if (state.showText) askTextLayer(first, last);
  trackCurrent();
}

function makeSlot(n: number): Slot {
  const overlay = h('div', { class: 'overlay' });
  const textOverlay = h('div', { class: 'text-overlay', role: 'group', 'aria-label': `Text layer of page ${n}` });
  const surface = h('div', { class: 'surface' }, overlay, textOverlay);
  const headEl = h('div', { class: 'page-head' });
  const evidence = h('div', { class: 'evidence' });
  const el = h('div', { class: 'page', 'data-page': n }, headEl, surface, evidence);
  return {
    n,
    el,
    head: headEl,
    surface,
    evidence,
    canvas: null,
    overlay,
    textOverlay,
    textDrawn: null,
    renderedScale: 0,
    task: null,
    page: null,
    loadingPage: false,
    drawn: null,
  };
}

function dropSlot(s: Slot): void {
  measure.unobserve(s.el);
  s.task?.cancel();
  s.task = null;
  if (s.canvas) {
    // Zero-sized canvases give their memory back at once.
    s.canvas.width = 0;
    s.canvas.height = 0;
  }
  s.page?.cleanup();
  s.el.remove();
  slots.delete(s.n);
}

function dropAllSlots(): void {
  for (const s of [...slots.values()]) dropSlot(s);
}

async function renderSlot(s: Slot): Promise<void> {
  const doc = pdf;
  const gen = loadGeneration;
  if (!doc || !layout || s.n > doc.numPages) return;
  try {
    if (!s.page) {
      if (s.loadingPage) return;
      s.loadingPage = true;
      let page: PDFPageProxy;
      try {
        page = await doc.getPage(s.n);
      } finally {
        s.loadingPage = false;
      }
      if (gen !== loadGeneration || slots.get(s.n) !== s) return;
      s.page = page;
      const vp1 = page.getViewport({ scale: 1 });
      const hadAnchor = pendingAnchor !== null;
      captureAnchor();
      if (layout.setBase(s.n, { w: vp1.width, h: vp1.height })) pages.schedule();
      else if (!hadAnchor) pendingAnchor = null;
      // The overlay's boxes need the page's viewport: draw them now that it is known.
      drawOverlay(s);
      drawText(s);
    }
    const scale = layout.scaleOf(s.n);
    if ((s.renderedScale === scale && s.canvas) || s.task) return;
    const viewport = s.page.getViewport({ scale });
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const canvas = s.canvas ?? h('canvas', { class: 'canvas', 'aria-label': `Page ${s.n}` });
    canvas.width = Math.floor(viewport.width * dpr);
    canvas.height = Math.floor(viewport.height * dpr);
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    if (!s.canvas) {
      s.surface.insertBefore(canvas, s.overlay);
      s.canvas = canvas;
    }
    const hc = highContrast();
    const css = getComputedStyle(document.body);
    const task = s.page.render({
      canvas,
      viewport,
      transform: dpr !== 1 ? [dpr, 0, 0, dpr, 0, 0] : undefined,
      pageColors: hc
        ? {
            background: css.getPropertyValue('--vscode-editor-background').trim() || '#000',
            foreground: css.getPropertyValue('--vscode-editor-foreground').trim() || '#fff',
          }
        : undefined,
    });
    s.task = task;
    s.renderedScale = scale;
    try {
      await task.promise;
    } finally {
      if (s.task === task) s.task = null;
    }
    // The zoom may have changed while this scale was drawn.
    if (slots.get(s.n) === s && layout && layout.scaleOf(s.n) !== scale) void renderSlot(s);
  } catch (e) {
    const name = (e as { name?: string })?.name;
    if (name === 'RenderingCancelledException') return;
    s.renderedScale = 0;
    vscode.postMessage({ type: 'renderError', page: s.n, message: String(e).slice(0, 500) });
    append(s.head, h('span', { class: 'render-error' }, icon('error'), ' cannot render this page'));
  }
}

/** Re-renders every page in the DOM (the theme's high-contrast colours are drawn into the canvas). */
function rerenderAll(): void {
  for (const s of slots.values()) {
    s.task?.cancel();
    s.task = null;
    s.renderedScale = 0;
    void renderSlot(s);
  }
}
function highContrast(): boolean {
  return document.body.classList.contains('vscode-high-contrast') && !document.body.classList.contains('vscode-high-contrast-light');
}
let wasHighContrast = highContrast();
new MutationObserver(() => {
  if (highContrast() === wasHighContrast) return;
  wasHighContrast = highContrast();
  rerenderAll();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

function drawOverlay(s: Slot): void {
  const o = overlays.get(s.n);
  const route = head ? routeOf(head, s.n) : undefined;
  const scale = layout ? layout.scaleOf(s.n) : 0;
  const d = s.drawn;
  const fonts = state.showFonts;
  if (d && d.o === o && d.route === route && d.scale === scale && d.hasPage === !!s.page && d.fonts === fonts) return;
  s.drawn = { o, route, scale, hasPage: !!s.page, fonts };
  clear(s.head);
  clear(s.evidence);
  clear(s.overlay);
  append(s.head, h('span', { class: 'page-no' }, `Page ${s.n}`));
  if (!route) return;
  const style = ROUTE_STYLE[route];
  append(s.head, h('span', { class: `badge route-${route}`, title: style.meaning }, icon(style.icon), ` ${style.label}`));
  if (o?.layer && route === 'ocr-layer') {
    const g = layerGrade(o.layer);
    append(
      s.head,
      h(
        'span',
        { class: `badge layer-grade lq-${g}`, title: layerMeaning(o.layer), 'data-grade': g },
        icon(LAYER_GRADE_STYLE[g].icon),
        ` ${layerBadgeText(o.layer)}`,
      ),
    );
  }
  if (!o) {
    append(s.evidence, h('span', { class: 'pending' }, '…'));
    return;
  }
  // The header is one line (its height is in the layout's estimate): long reasons are cut, and in full in the tooltip.
  append(s.head, h('span', { class: 'reasons', title: o.reasons.join(', ') }, o.reasons.join(', ')));
  append(
    s.evidence,
    `${o.visibleChars} visible chars · ${o.invisibleChars} invisible · ${percent(o.imageCoverage)} image in ${o.imageCount} image${o.imageCount === 1 ? '' : 's'} · ${o.vectorOps} vector ops · ${o.fonts} font${o.fonts === 1 ? '' : 's'}`,
  );
  for (const note of o.notes ?? []) append(s.evidence, h('div', { class: 'note' }, note));
  if (fonts) s.evidence.append(fontsTable(s.n, o));
  if (!s.page) return;
  const viewport = s.page.getViewport({ scale });
  const placed: LabelBox[] = [];
  for (const b of o.imageBoxes) {
    const [x1, y1, x2, y2] = viewport.convertToViewportRectangle(b.rect) as number[]; // pdf.js types it any[]
    const box = h(
      'div',
      { class: `box kind-${b.kind}`, title: boxTitle(b) },
      h(
        'span',
        { class: 'box-label' },
        `${percent(b.share)}${b.filter ? ` · ${b.filter.replace(/Decode$/, '')}` : ''}${b.width && b.height ? ` · ${b.width}×${b.height}` : ''}`,
      ),
    );
    box.style.left = `${Math.min(x1, x2)}px`;
    box.style.top = `${Math.min(y1, y2)}px`;
    box.style.width = `${Math.max(1, Math.abs(x2 - x1))}px`;
    box.style.height = `${Math.max(1, Math.abs(y2 - y1))}px`;
    s.overlay.append(box);
    placed.push({ box, label: box.firstChild as HTMLElement, x: Math.min(x1, x2), y: Math.min(y1, y2), w: Math.abs(x2 - x1), h: Math.abs(y2 - y1) });
  }
  placeBoxLabels(placed);
}

const yesNo = (v: boolean | undefined): string => (v === undefined ? '—' : v ? 'yes' : 'no');

/** A page's fonts: the columns a user reads to see why a text layer does or does not decode. */
function fontsTable(n: number, o: PageOverlay): HTMLElement {
  const rows = o.fontRows ?? [];
  if (rows.length === 0)
    return h(
      'div',
      { class: 'fonts-none' },
      o.fonts ? `${o.fonts} fonts (not listed in this report: classify again)` : 'No text drawn with a font on this page.',
    );
  const th = (text: string, title?: string) => h('th', { scope: 'col', title }, text);
  const table = h(
    'table',
    { class: 'fonts-table' },
    h('caption', null, `Fonts on page ${n}`),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        th('Font', 'the /BaseFont, and the resource name the page uses'),
        th('Type', '/Subtype'),
        th('Embedded', 'the font program is in the file'),
        th('ToUnicode', 'yes: a map to Unicode; no: none; broken: present but maps nothing, cut, or byte-swapped'),
        th('Decoded by', 'how the analyzer maps codes to Unicode'),
        th('Glyphs', 'glyphs drawn with the font, spaces included'),
        th('Invisible', 'characters drawn but not seen: render mode 3, clipped, or hidden under an image'),
        th('OCR font', 'the glyphless font OCR engines draw their invisible text with (GlyphLessFont)'),
      ),
    ),
  );
  const body = h('tbody');
  for (const f of rows) body.append(fontRow(f));
  table.append(body);
  if (o.fonts > rows.length) table.append(h('tfoot', null, h('tr', null, h('td', { colspan: '8' }, `+${o.fonts - rows.length} more fonts`))));
  return table;
}

function fontRow(f: FontRow): HTMLTableRowElement {
  const broken = f.toUnicode === 'broken' || f.decoding === 'none';
  return h(
    'tr',
    { class: f.glyphless ? 'glyphless' : undefined },
    h(
      'td',
      { class: 'font-name', title: `${f.baseFont || '(no /BaseFont)'} (${f.name})` },
      f.baseFont || '(none)',
      h('span', { class: 'res-name' }, ` ${f.name}`),
    ),
    h('td', null, f.subtype || '—'),
    h('td', null, yesNo(f.embedded)),
    h('td', { class: f.toUnicode === 'broken' ? 'bad' : undefined }, f.toUnicode ?? '—'),
    h('td', { class: broken ? 'bad' : undefined }, f.decoding),
    h('td', { class: 'num' }, f.glyphs === undefined ? '—' : String(f.glyphs)),
    h('td', { class: 'num' }, f.invisibleChars === undefined ? '—' : `${f.invisibleChars} of ${f.chars}`),
    h('td', null, f.glyphless ? 'GlyphLessFont' : yesNo(f.glyphless)),
  );
}

// ---- the text layer ------------------------------------------------------------------------------------------------

const VIS_LABEL: Record<RunBox['visibility'], string> = {
  visible: 'visible',
  invisible: 'invisible (render mode 3/7 or transparent)',
  clipped: 'invisible (outside the page)',
  hidden: 'hidden under an image',
};

/** Draws (or clears) the glyph-run boxes of a page: one box a run, coloured by how it shows. */
function drawText(s: Slot): void {
  const layer = state.showText ? textLayers.get(s.n) : undefined;
  const quality = overlays.get(s.n)?.layer;
  const route = head ? routeOf(head, s.n) : undefined;
  const scale = layout ? layout.scaleOf(s.n) : 0;
  const d = s.textDrawn;
  if (d && d.layer === layer && d.quality === quality && d.scale === scale && d.hasPage === !!s.page && d.on === state.showText) return;
  s.textDrawn = { layer, quality, scale, hasPage: !!s.page, on: state.showText };
  clear(s.textOverlay);
  if (!layer || !s.page) return;
  const viewport = s.page.getViewport({ scale });
  const frag = document.createDocumentFragment();
  layer.runs.forEach((r, i) => {
    // a run of a graded OCR layer is filled with the page's grade, or its word's where the page's text is judged
    // wrong (layerColors.ts); its border still says how it shows
    const q = runQuality(route, quality, r.visibility, r.likelihood);
    const box = h('div', {
      class: `run vis-${r.visibility === 'clipped' ? 'invisible' : r.visibility}${q ? ` lq-${q.fill}` : ''}`,
      tabindex: i === 0 ? '0' : '-1',
      'data-run': i,
      'data-grade': q?.grade,
      'data-fill': q?.fill,
      'aria-describedby': 'run-tip',
      'aria-label': `${r.text} (${VIS_LABEL[r.visibility]}${q ? `; OCR layer ${q.grade}${q.reocr ? ', re-OCR advised' : ''}${q.likelihood !== undefined ? `; word ${wordGrade(q.likelihood)}, likelihood ${scoreText(q.likelihood)}` : ''}` : ''})`,
    });
    place(box, viewport.convertToViewportRectangle(r.rect) as number[]);
    frag.append(box);
  });
  // where the scan has text the layer lacks (what the score counts as missing): after the runs, in the same arrow-key
  // order, so a keyboard reaches them too
  const missing = layer.missing ?? [];
  missing.forEach((rect, j) => {
    const box = h('div', {
      class: 'missing',
      // the page's one tab stop is its first box: a region when the page has no runs
      tabindex: layer.runs.length === 0 && j === 0 ? '0' : '-1',
      'data-run': layer.runs.length + j,
      'aria-describedby': 'run-tip',
      'aria-label': `Text on the scan that the layer lacks (region ${j + 1} of ${missing.length})`,
    });
    place(box, viewport.convertToViewportRectangle(rect) as number[]);
    frag.append(box);
  });
  s.textOverlay.append(frag);
}

/** Sets a box's position and size from its viewport rectangle [x1, y1, x2, y2]. */
function place(box: HTMLElement, [x1, y1, x2, y2]: number[]): void {
  box.style.left = `${Math.min(x1, x2)}px`;
  box.style.top = `${Math.min(y1, y2)}px`;
  box.style.width = `${Math.max(1, Math.abs(x2 - x1))}px`;
  box.style.height = `${Math.max(1, Math.abs(y2 - y1))}px`;
}

/** The run, or the region of missing text, a box element stands for. */
function runOf(el: Element | null): { run?: RunBox; box: HTMLElement } | undefined {
  const box = el instanceof HTMLElement ? el.closest<HTMLElement>('.run, .missing') : null;
  if (!box) return undefined;
  if (box.classList.contains('missing')) return { box };
  const n = Number(box.closest<HTMLElement>('.page')?.dataset.page);
  const run = textLayers.get(n)?.runs[Number(box.dataset.run)];
  return run ? { run, box } : undefined;
}

function showTip(run: RunBox | undefined, box: HTMLElement): void {
  clear(tip);
  if (!run) {
    append(
      tip,
      h('div', { class: 'tip-text' }, 'Text the layer lacks'),
      h(
        'div',
        { class: 'tip-meta' },
        'The scan has ink here that reads as text, outside every word of the layer: the score counts it as missing (signals.textInkMissed)',
      ),
    );
    moveTip(box);
    return;
  }
  const n = Number(box.closest<HTMLElement>('.page')?.dataset.page);
  const quality = overlays.get(n)?.layer;
  const q = head && quality ? runQuality(routeOf(head, n), quality, run.visibility, run.likelihood) : undefined;
  append(
    tip,
    h('div', { class: 'tip-text' }, run.text || '(no decodable text)'),
    h('div', { class: 'tip-meta' }, `${VIS_LABEL[run.visibility]} · ${run.font} · ${Math.round(run.size * 10) / 10} pt`),
    q?.likelihood !== undefined
      ? h(
          'div',
          { class: 'tip-meta' },
          `word likelihood ${scoreText(q.likelihood)} (${wordGrade(q.likelihood)}: how much it reads like the page's language)`,
        )
      : null,
    q && quality ? h('div', { class: `tip-meta tip-layer lq-${q.grade}` }, layerMeaning(quality)) : null,
  );
  moveTip(box);
}

/** Shows the tip next to a box: below it where it fits, else above. */
function moveTip(box: HTMLElement): void {
  tip.hidden = false;
  const b = box.getBoundingClientRect();
  const t = tip.getBoundingClientRect();
  const below = b.bottom + 4 + t.height < window.innerHeight;
  tip.style.left = `${Math.max(4, Math.min(b.left, window.innerWidth - t.width - 4))}px`;
  tip.style.top = `${below ? b.bottom + 4 : Math.max(4, b.top - t.height - 4)}px`;
}

function hideTip(): void {
  tip.hidden = true;
}

pagesEl.addEventListener('mouseover', (e) => {
  const r = runOf(e.target as Element);
  if (r) showTip(r.run, r.box);
});
pagesEl.addEventListener('mouseout', (e) => {
  if (runOf(e.target as Element) && !runOf(e.relatedTarget as Element | null)) hideTip();
});
pagesEl.addEventListener('focusin', (e) => {
  const r = runOf(e.target as Element);
  if (r) showTip(r.run, r.box);
});
pagesEl.addEventListener('focusout', (e) => {
  if (runOf(e.target as Element)) hideTip();
});
/** Arrow keys move between the runs of a page (one tab stop a page), Escape hides the string. */
pagesEl.addEventListener('keydown', (e: KeyboardEvent) => {
  const r = runOf(e.target as Element);
  if (!r) return;
  if (e.key === 'Escape') {
    hideTip();
    return;
  }
  const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
  const runs = r.box.parentElement?.children;
  if (!step || !runs) return;
  e.preventDefault();
  const next = runs[Number(r.box.dataset.run) + step] as HTMLElement | undefined;
  if (!next) return;
  r.box.tabIndex = -1;
  next.tabIndex = 0;
  next.focus({ preventScroll: false });
});

/** Asks the host for the glyph-run boxes of pages first..last it has not sent. */
function askTextLayer(first: number, last: number): void {
  if (!head || textStatus === 'unavailable') return;
  const report = head.id;
  askPages(first, last, textLayers, askedText, PREVIEW_MAX_TEXT_PAGES_PER_REQUEST, (from, to) =>
    vscode.postMessage({ type: 'needTextLayer', report, from, to }),
  );
}

function receiveTextLayer(m: Extract<HostMessage, { type: 'textLayer' }>): void {
  if (!head || m.report !== head.id) return;
  for (const p of m.pages) {
    if (p.page > head.pageCount) continue;
    askedText.delete(p.page);
    textLayers.set(p.page, p);
  }
  if (textLayers.size > KEEP_TEXT_LAYERS)
    for (const n of textLayers.keys()) {
      if (textLayers.size <= KEEP_TEXT_LAYERS / 2) break;
      if (!slots.has(n)) textLayers.delete(n);
    }
  for (const p of m.pages) {
    const s = slots.get(p.page);
    if (s) drawText(s);
  }
  showTextInfo();
}

function showTextInfo(): void {
  clear(textInfo);
  if (!state.showText) return;
  if (textStatus === 'reading') append(textInfo, icon('loading'), ' reading the text layer…');
  else if (textStatus === 'unavailable') append(textInfo, icon('warning'), ` ${textMessage || 'the text layer is not available'}`);
  else if (current && textLayers.has(current)) {
    const l = textLayers.get(current)!;
    const drawn = l.runs.length < l.runCount ? ` (the first ${l.runs.length} drawn)` : '';
    const m = l.missing?.length ?? 0;
    const lacks = m > 0 ? `; ${m} region${m === 1 ? '' : 's'} of text the layer lacks` : '';
    append(textInfo, `page ${current}: ${l.runCount} text run${l.runCount === 1 ? '' : 's'}${drawn}${lacks}`);
  }
}

interface LabelBox {
  box: HTMLElement;
  label: HTMLElement;
  x: number;
  y: number;
  w: number;
  h: number;
}
const LABEL_H = 16;

/** Puts each image box's label where no other label is (labels.ts); one with no free place shows on hover. */
function placeBoxLabels(boxes: LabelBox[]): void {
  const offsets = placeLabels(
    boxes.map((b) => ({ x: b.x, y: b.y, w: b.w, h: b.h, labelW: (b.label.textContent?.length ?? 0) * 6.5 + 8 })),
    LABEL_H,
  );
  boxes.forEach((b, i) => {
    const dy = offsets[i];
    b.label.classList.toggle('label-hidden', dy === null);
    if (dy !== null) b.label.style.top = `${dy}px`;
  });
}

function boxTitle(b: PageOverlay['imageBoxes'][number]): string {
  const parts = [`${b.kind === 'shading' ? 'shading' : b.kind === 'inline' ? 'inline image' : 'image'}: ${percent(b.share)} of the page`];
  if (b.width && b.height) parts.push(`${b.width}×${b.height} px`);
  if (b.filter) parts.push(b.filter);
  return parts.join(', ');
}

// ---- evidence on demand --------------------------------------------------------------------------------------------

/** Asks the host for the evidence of pages first..last it has not sent, in requests the protocol accepts. */
function askEvidence(first: number, last: number): void {
  if (!head) return;
  const report = head.id;
  askPages(first, last, overlays, asked, PREVIEW_MAX_PAGES_PER_REQUEST, (from, to) => vscode.postMessage({ type: 'needPages', report, from, to }));
}

/**
 * The pages of first..last with a route that are neither held (`have`) nor asked for yet, marked as asked and sent in
 * runs of consecutive pages of at most `max`.
 */
function askPages(
  first: number,
  last: number,
  have: ReadonlyMap<number, unknown>,
  asked: Set<number>,
  max: number,
  send: (from: number, to: number) => void,
): void {
  if (!head) return;
  let from = 0;
  const flush = (to: number) => {
    if (from) send(from, to);
    from = 0;
  };
  for (let n = first; n <= Math.min(last, head.pageCount); n++) {
    const want = head.routes[n - 1] !== NO_ROUTE && !have.has(n) && !asked.has(n);
    if (want) {
      asked.add(n);
      if (!from) from = n;
      if (n - from + 1 >= max) flush(n);
    } else flush(n - 1);
  }
  flush(Math.min(last, head.pageCount));
}

function receiveEvidence(m: Extract<HostMessage, { type: 'pages' }>): void {
  if (!head || m.report !== head.id) return; // evidence of a report that has since been replaced
  for (const o of m.pages) {
    if (o.page > head.pageCount) continue;
    asked.delete(o.page);
    overlays.set(o.page, o);
  }
  if (overlays.size > KEEP_OVERLAYS) {
    // Oldest first (a Map iterates in insertion order), sparing the pages in the DOM.
    for (const n of overlays.keys()) {
      if (overlays.size <= KEEP_OVERLAYS / 2) break;
      if (!slots.has(n)) overlays.delete(n);
    }
  }
  for (const o of m.pages) {
    const s = slots.get(o.page);
    if (s) {
      drawOverlay(s);
      // the runs of an OCR layer take the grade the evidence brings
      drawText(s);
    }
  }
  updateList(true);
}

// ---- page list -----------------------------------------------------------------------------------------------------

const rows = new Map<number, HTMLButtonElement>();
let current = 0;
/** A row to focus once it is in the DOM (keyboard moves in the list). */
let focusRowLater: number | undefined;

function rowLabel(n: number): { route: ReturnType<typeof routeOf>; title: string } {
  const route = head ? routeOf(head, n) : undefined;
  const o = overlays.get(n);
  const layer = o?.layer && route === 'ocr-layer' ? `, ${layerBadgeText(o.layer)}` : '';
  const title = route ? `Page ${n}: ${ROUTE_STYLE[route].label}${o ? ` (${o.reasons.join(', ')})` : ''}${layer}` : `Page ${n}`;
  return { route, title };
}

function makeRow(n: number): HTMLButtonElement {
  const { route, title } = rowLabel(n);
  const b = h(
    'button',
    { class: `page-link${route ? ` route-${route}` : ''}`, title, 'data-page': n, tabindex: '-1' },
    route ? icon(ROUTE_STYLE[route].icon) : null,
    String(n),
    // a page whose OCR layer should be redone is marked in the list too (the title says so in words)
    route === 'ocr-layer' && overlays.get(n)?.layer?.reocr ? h('span', { class: 'reocr-mark' }, icon(LAYER_GRADE_STYLE.poor.icon)) : null,
  );
  b.addEventListener('click', () => scrollToPage(n, true));
  return b;
}

/** The rows in sight of the page list (the list is uniform: row n at (n-1)·ROW_H). */
function updateList(refresh = false): void {
  const count = layout?.count ?? 0;
  const view = pageList.clientHeight;
  const y = list.map.y;
  const first = Math.max(1, Math.floor((y - LIST_PAD) / ROW_H) + 1 - 10);
  const last = Math.min(count, Math.ceil((y + view) / ROW_H) + 10);
  for (const [n, b] of rows) {
    if (n < first || n > last || refresh) {
      if (refresh && n >= first && n <= last && b.title === rowLabel(n).title) continue;
      const focused = document.activeElement === b;
      b.remove();
      rows.delete(n);
      if (focused && n >= first && n <= last) focusRowLater = n;
    }
  }
  for (let n = first; n <= last; n++) {
    let b = rows.get(n);
    if (!b) {
      b = makeRow(n);
      rows.set(n, b);
      listSpace.append(b);
    }
    b.style.top = `${list.place(LIST_PAD + (n - 1) * ROW_H)}px`;
    const isCurrent = n === current;
    b.classList.toggle('current', isCurrent);
    // One tab stop for the whole list (the current page); arrows move within it.
    b.tabIndex = isCurrent ? 0 : -1;
    if (isCurrent) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  if (focusRowLater !== undefined) {
    const b = rows.get(focusRowLater);
    focusRowLater = undefined;
    b?.focus({ preventScroll: true });
  }
}
/** Keeps row n in the list's view. */
function revealRow(n: number): void {
  const top = LIST_PAD + (n - 1) * ROW_H;
  const view = pageList.clientHeight;
  const y = list.map.y;
  if (top < y) list.goTo(top - LIST_PAD);
  else if (top + ROW_H > y + view) list.goTo(top + ROW_H - view + LIST_PAD);
}

pageList.addEventListener('keydown', (e: KeyboardEvent) => {
  if (!layout || layout.count === 0) return;
  const from = Number((document.activeElement as HTMLElement | null)?.dataset?.page) || current || 1;
  const perScreen = Math.max(1, Math.floor(pageList.clientHeight / ROW_H) - 1);
  const to =
    e.key === 'ArrowDown'
      ? from + 1
      : e.key === 'ArrowUp'
        ? from - 1
        : e.key === 'PageDown'
          ? from + perScreen
          : e.key === 'PageUp'
            ? from - perScreen
            : e.key === 'Home'
              ? 1
              : e.key === 'End'
                ? layout.count
                : 0;
  if (!to) return;
  e.preventDefault();
  const n = Math.min(Math.max(1, to), layout.count);
  scrollToPage(n, false);
  focusRowLater = n;
  updateList();
});

// ---- current page and scrolling ---------------------------------------------------------------------------------

function currentPage(): number {
  if (!layout || layout.count === 0) return 1;
  return layout.pageAt(pages.map.y + pagesEl.clientHeight / 3);
}

let lastReported = 0;
function trackCurrent(): void {
  if (!layout || layout.count === 0) return;
  const n = currentPage();
  if (n !== current) {
    current = n;
    revealRow(n);
    if (document.activeElement !== pageInput) pageInput.value = String(n);
    showTextInfo();
  }
  updateList();
  if (n !== state.page) {
    state.page = n;
    saveState();
  }
  if (n !== lastReported) {
    lastReported = n;
    vscode.postMessage({ type: 'pageChanged', page: n, zoom: state.zoom });
  }
}

function scrollToPage(n: number, flash: boolean): void {
  if (!layout || layout.count === 0) {
    targetPage = n;
    return;
  }
  const page = Math.min(Math.max(1, n), layout.count);
  applyLayout();
  pendingAnchor = null;
  pages.goTo(layout.offsetOf(page) - PAD_TOP);
  update();
  // update() may have measured nothing yet; pin the page again once the frame's measurements are in.
  const delta = pages.map.y - layout.offsetOf(page);
  pendingAnchor = { page, delta, frac: delta / Math.max(1, layout.heightOf(page)), scaled: false, dy: 0 };
  pages.schedule();
  const s = slots.get(page);
  if (flash && s) {
    s.el.classList.remove('flash');
    void s.el.offsetWidth;
    s.el.classList.add('flash');
  }
}

/** A new layout for `count` pages: sizes from the report where it has them, pdf.js's for pages it has loaded. */
function buildLayout(count: number, defaultBase: Size, keepPage?: number): void {
  const page = keepPage ?? (layout ? currentPage() : 1);
  const sizes = head ? unpackSizes(head.sizes) : undefined;
  layout = new PageLayout(count, sizes, defaultBase, CHROME_ESTIMATE);
  layout.setView(viewOf());
  for (const s of slots.values()) {
    if (s.n > count) continue;
    if (s.page) {
      const vp = s.page.getViewport({ scale: 1 });
      layout.setBase(s.n, { w: vp.width, h: vp.height });
    }
  }
  for (const s of [...slots.values()]) if (s.n > count) dropSlot(s);
  pageTotal.textContent = `/ ${count}`;
  pageInput.max = String(count);
  list.resize(count * ROW_H + 2 * LIST_PAD);
  pages.resize(layout.total, layout.width);
  for (const b of rows.values()) b.remove();
  rows.clear();
  current = 0;
  scrollToPage(page, false);
}

// ---- report / findings ---------------------------------------------------------------------------------------------

function showReport(): void {
  clear(verdict);
  clear(findings);
  if (head) {
    verdict.textContent = head.verdict;
    // the toolbar cuts a long verdict: the tooltip has all of it
    verdict.setAttribute('title', head.verdict);
    const ul = h('ul');
    for (const f of head.findings) ul.append(h('li', null, f));
    append(findings, h('summary', null, `Findings (${head.findings.length})`), head.findings.length ? ul : h('p', null, 'none'));
    findings.hidden = head.findings.length === 0;
    if (head.error && !pdf) setBanner(`Could not analyse this PDF: ${head.error}`, 'error');
    else if (!classifying) setBanner('', 'none');
  } else {
    findings.hidden = true;
    if (classifying) setBanner('Classifying pages…', 'info');
    else setBanner('This PDF has not been classified yet.', 'info', { label: 'Classify', run: () => vscode.postMessage({ type: 'classify' }) });
  }
  if (classifying && head) setBanner('Re-classifying…', 'info');
}

/** A new report (or none): its page sizes replace the layout's, its evidence is asked for afresh. */
function setHead(next: OverlayHead | undefined): void {
  head = next;
  overlays.clear();
  asked.clear();
  textLayers.clear();
  askedText.clear();
  textStatus = 'none';
  showReport();
  if (pdf && layout) buildLayout(pdf.numPages, layout.defaultBase);
  else if (!pdf && !pdfFailed && head && head.pageCount > 0) buildLayout(head.pageCount, layout?.defaultBase ?? { w: 612, h: 792 });
  for (const s of slots.values()) {
    drawOverlay(s);
    drawText(s);
  }
  updateList(true);
}

// ---- loading -------------------------------------------------------------------------------------------------------

async function load(m: Extract<HostMessage, { type: 'load' }>): Promise<void> {
  const gen = ++loadGeneration;
  await closeDocument();
  fileName.textContent = m.fileName;
  fileName.setAttribute('title', m.fileName);
  document.title = m.fileName;
  head = m.report;
  classifying = false;
  pdfFailed = false;
  // A restored webview returns to its page and zoom, unless the host asks for another page; a new one opens where
  // this file's preview was left last (the host remembers it).
  const own = state.uri === m.uri;
  if (!own && m.place) {
    state.zoom = m.place.zoom;
    applyToggles();
  }
  const startPage = m.page ?? targetPage ?? (own ? state.page : (m.place?.page ?? 1));
  targetPage = undefined;
  state.uri = m.uri;
  saveState();
  // With a report the pages are laid out (placeholders sized from its page boxes) before pdf.js has parsed the file.
  if (head && head.pageCount > 0) buildLayout(head.pageCount, { w: 612, h: 792 }, Math.min(startPage, head.pageCount));
  pdfjs.GlobalWorkerOptions.workerSrc = m.assets.workerSrc;
  setBanner('Loading…', 'info');
  try {
    await loadPdfjsWorkerInPage(m.assets.workerSrc);
  } catch (e) {
    setBanner(`Cannot load the PDF renderer: ${String(e).slice(0, 200)}`, 'error');
    return;
  }
  if (gen !== loadGeneration) return;
  const task = pdfjs.getDocument({
    data: m.bytes,
    isEvalSupported: false,
    // No wasm: our CSP has no 'wasm-unsafe-eval'. JPEG 2000 uses pdf.js's JS fallback from wasmUrl, JBIG2/CCITT its JS decoders.
    useWasm: false,
    wasmUrl: m.assets.wasmUrl,
    cMapUrl: m.assets.cMapUrl,
    cMapPacked: true,
    standardFontDataUrl: m.assets.standardFontDataUrl,
    enableXfa: false,
    stopAtErrors: false,
  });
  loadingTask = task;
  task.onPassword = () => {
    setBanner('This PDF needs a password: the preview cannot show its pages.', 'error');
    void task.destroy();
  };
  try {
    const doc = await task.promise;
    if (gen !== loadGeneration) {
      void doc.destroy();
      return;
    }
    pdf = doc;
    // Without a report every page is assumed to be the size of page 1 until pdf.js has loaded it.
    let base = layout?.defaultBase ?? { w: 612, h: 792 };
    if (!head || head.pageCount !== doc.numPages) {
      const vp = (await doc.getPage(1)).getViewport({ scale: 1 });
      if (gen !== loadGeneration) return;
      base = { w: vp.width, h: vp.height };
    }
    showReport();
    if (!layout || layout.count !== doc.numPages) buildLayout(doc.numPages, base, layout ? currentPage() : Math.min(startPage, doc.numPages));
    else {
      captureAnchor();
      layout.setDefaultBase(base);
      update();
    }
    if (m.page !== undefined) scrollToPage(Math.min(m.page, doc.numPages), true);
  } catch (e) {
    if (gen !== loadGeneration) return;
    const msg =
      (e as { name?: string })?.name === 'PasswordException'
        ? 'This PDF needs a password: the preview cannot show its pages.'
        : `pdf.js cannot open this file: ${String((e as Error)?.message ?? e).slice(0, 300)}`;
    setBanner(msg, 'error');
    // Still show the analyzer's verdict and findings, without pages.
    pdfFailed = true;
    teardownPages();
    if (head) {
      clear(verdict);
      verdict.textContent = head.verdict;
    }
  }
}

/**
 * pdf.js's worker code runs in this page (pdf.js's "fake worker"), imported from the copy shipped in the extension.
 * A real Worker cannot be used: the webview's resources live on another origin, so pdf.js wraps the worker URL in a
 * blob: module that imports it, and that import is not served by the webview's resource loader (it hangs with neither
 * message nor error). Running in the page also lets the CSP say worker-src 'none'.
 */
async function loadPdfjsWorkerInPage(workerSrc: string): Promise<void> {
  const g = globalThis as unknown as { pdfjsWorker?: unknown };
  if (g.pdfjsWorker) return;
  g.pdfjsWorker = await import(/* @vite-ignore */ workerSrc);
}

function teardownPages(): void {
  dropAllSlots();
  for (const b of rows.values()) b.remove();
  rows.clear();
  layout = null;
  current = 0;
  pendingAnchor = null;
  pages.resize(0, 0);
  list.resize(0);
}

async function closeDocument(): Promise<void> {
  teardownPages();
  overlays.clear();
  asked.clear();
  textLayers.clear();
  askedText.clear();
  textStatus = 'none';
  const t = loadingTask;
  loadingTask = null;
  pdf = null;
  if (t) await t.destroy().catch(() => {});
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = parseHostMessage(e.data);
  if (!m) {
    const d = e.data as { type?: unknown } | null;
    console.warn(`pdf-page-diagnostics: ignored a malformed message (type ${typeof d === 'object' && d ? String(d.type) : typeof d})`);
    if (typeof d === 'object' && d && d.type === 'load')
      console.warn(
        'load fields',
        Object.entries(d)
          .map(([k, v]) => `${k}:${Object.prototype.toString.call(v)}`)
          .join(' '),
      );
    return;
  }
  switch (m.type) {
    case 'load':
      void load(m);
      break;
    case 'report':
      classifying = !!m.classifying;
      // "classifying" alone keeps the current report on screen until the new one comes.
      if (m.report || !m.classifying) setHead(m.report);
      else showReport();
      break;
    case 'pages':
      receiveEvidence(m);
      break;
    case 'scrollToPage':
      if (layout && layout.count) scrollToPage(m.page, true);
      else targetPage = m.page;
      break;
    case 'toggleBoxes':
      toggleBoxes();
      break;
    case 'toggleTextLayer':
      toggleText();
      break;
    case 'toggleFonts':
      toggleFonts();
      break;
    case 'textLayer':
      receiveTextLayer(m);
      break;
    case 'textLayerStatus':
      if (!head || m.report !== head.id) break;
      textStatus = m.status;
      textMessage = m.message ?? '';
      if (m.status === 'unavailable') askedText.clear();
      showTextInfo();
      break;
    case 'loadError':
      setBanner(m.message, 'error');
      break;
  }
});

applyToggles();
setBanner('Loading…', 'info');
vscode.postMessage({ type: 'ready' });
