/**
 * The page webview: renders the PDF with pdf.js (only the pages near the viewport), draws the analyzer's image boxes
 * over each page with their share, a route badge and the evidence, and keeps its page across hide/show through the
 * webview state. Everything from the PDF is rendered as text (see dom.ts).
 */
import * as pdfjs from 'pdfjs-dist';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import type { PageRoute } from '../src/analyzer/types';
import { ROUTE_STYLE, percent } from '../src/extension/model';
import {
  type HostMessage,
  type OverlayReport,
  type PageOverlay,
  parseHostMessage,
  parseWebviewState,
  type WebviewMessage,
  type WebviewState,
  ZOOM_LEVELS,
} from '../src/shared/protocol';
import { append, clear, h, icon } from './dom';

interface VsCodeApi {
  postMessage(msg: WebviewMessage): void;
  getState(): unknown;
  setState(s: WebviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
let state: WebviewState = parseWebviewState(vscode.getState());

interface Slot {
  n: number;
  el: HTMLDivElement;
  surface: HTMLDivElement;
  canvas: HTMLCanvasElement | null;
  overlay: HTMLDivElement;
  /** unrotated-at-scale-1 size in CSS px once known (from pdf.js, else from the report) */
  base: { w: number; h: number } | null;
  renderedScale: number;
  task: RenderTask | null;
  visible: boolean;
  page: PDFPageProxy | null;
}

let pdf: PDFDocumentProxy | null = null;
let loadingTask: PDFDocumentLoadingTask | null = null;
let report: OverlayReport | undefined;
let classifying = false;
let slots: Slot[] = [];
let targetPage: number | undefined;
let defaultBase: { w: number; h: number } = { w: 612, h: 792 };
let loadGeneration = 0;

// ---- layout -------------------------------------------------------------------------------------------------------

const app = document.getElementById('app')!;
const fileName = h('span', { class: 'file-name' });
const verdict = h('span', { class: 'verdict' });
const boxesToggle = h('button', { class: 'tool', title: 'Show or hide image boxes', 'aria-pressed': 'true' }, icon('symbol-misc'), ' Boxes');
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
  zoomSelect,
  h('label', { class: 'page-nav' }, 'Page ', pageInput, pageTotal),
);
const banner = h('div', { class: 'banner', role: 'status' });
const findings = h('details', { class: 'findings', hidden: true });
const pageList = h('nav', { class: 'page-list', 'aria-label': 'Pages' });
const pagesEl = h('main', { class: 'pages', tabindex: '0' });
append(app, toolbar, banner, findings, h('div', { class: 'body' }, pageList, pagesEl));

function setBanner(text: string, kind: 'info' | 'error' | 'none', action?: { label: string; run: () => void }): void {
  clear(banner);
  banner.className = `banner ${kind}`;
  if (kind === 'none') return;
  append(banner, icon(kind === 'error' ? 'error' : 'info'), ' ', text);
  if (action) append(banner, ' ', h('button', { class: 'link', onclick: action.run }, action.label));
}

function applyToggles(): void {
  document.body.classList.toggle('hide-boxes', !state.showBoxes);
  boxesToggle.setAttribute('aria-pressed', String(state.showBoxes));
  zoomSelect.value = String(state.zoom);
}

function saveState(): void {
  vscode.setState(state);
}

boxesToggle.addEventListener('click', () => {
  state.showBoxes = !state.showBoxes;
  applyToggles();
  saveState();
});
zoomSelect.addEventListener('change', () => {
  const z = Number(zoomSelect.value);
  if (!ZOOM_LEVELS.includes(z)) return;
  const keep = currentPage();
  state.zoom = z;
  saveState();
  relayout();
  scrollToPage(keep, false);
});
pageInput.addEventListener('change', () => {
  const n = Math.floor(Number(pageInput.value));
  if (n >= 1 && n <= slots.length) scrollToPage(n, true);
});

// ---- report / findings / page list ---------------------------------------------------------------------------------

function overlayFor(n: number): PageOverlay | undefined {
  const p = report?.pages[n - 1];
  return p && p.page === n ? p : report?.pages.find((x) => x.page === n);
}

function showReport(): void {
  clear(verdict);
  clear(findings);
  if (report) {
    verdict.textContent = report.verdict;
    const list = h('ul');
    for (const f of report.findings) list.append(h('li', null, f));
    append(findings, h('summary', null, `Findings (${report.findings.length})`), report.findings.length ? list : h('p', null, 'none'));
    findings.hidden = report.findings.length === 0;
    if (report.error && slots.length === 0) setBanner(`Could not analyse this PDF: ${report.error}`, 'error');
    else if (!classifying) setBanner('', 'none');
  } else {
    findings.hidden = true;
    if (classifying) setBanner('Classifying pages…', 'info');
    else setBanner('This PDF has not been classified yet.', 'info', { label: 'Classify', run: () => vscode.postMessage({ type: 'classify' }) });
  }
  if (classifying && report) setBanner('Re-classifying…', 'info');
  buildPageList();
  for (const s of slots) drawOverlay(s);
}

function buildPageList(): void {
  clear(pageList);
  const frag = document.createDocumentFragment();
  for (const s of slots) {
    const o = overlayFor(s.n);
    const route = o?.route;
    const b = h(
      'button',
      { class: `page-link${route ? ` route-${route}` : ''}`, title: o ? `Page ${s.n}: ${ROUTE_STYLE[o.route].label} (${o.reasons.join(', ')})` : `Page ${s.n}`, 'data-page': s.n },
      route ? icon(ROUTE_STYLE[route].icon) : null,
      String(s.n),
    );
    b.addEventListener('click', () => scrollToPage(s.n, true));
    frag.append(b);
  }
  pageList.append(frag);
  markCurrent(currentPage());
}

// ---- pages ---------------------------------------------------------------------------------------------------------

/** The page's size at scale 1 as pdf.js will lay it out: crop box clipped to the media box, then rotated. */
function baseFromOverlay(o: PageOverlay | undefined): { w: number; h: number } | null {
  if (!o) return null;
  const [a0, a1, a2, a3] = o.cropBox;
  const [m0, m1, m2, m3] = o.mediaBox;
  const w = Math.min(a2, m2) - Math.max(a0, m0);
  const hgt = Math.min(a3, m3) - Math.max(a1, m1);
  if (!(w > 0 && hgt > 0)) return null;
  return o.rotate % 180 === 0 ? { w, h: hgt } : { w: hgt, h: w };
}

function scaleFor(base: { w: number; h: number }): number {
  if (state.zoom > 0) return state.zoom;
  const avail = Math.max(200, pagesEl.clientWidth - 32);
  return Math.min(4, avail / base.w);
}

function sizeSlot(s: Slot): void {
  const base = s.base ?? baseFromOverlay(overlayFor(s.n)) ?? defaultBase;
  const scale = scaleFor(base);
  s.surface.style.width = `${Math.floor(base.w * scale)}px`;
  s.surface.style.height = `${Math.floor(base.h * scale)}px`;
}

function makeSlots(count: number): void {
  clear(pagesEl);
  slots = [];
  const frag = document.createDocumentFragment();
  for (let n = 1; n <= count; n++) {
    const overlay = h('div', { class: 'overlay' });
    const surface = h('div', { class: 'surface' }, overlay);
    const el = h('div', { class: 'page', 'data-page': n }, h('div', { class: 'page-head' }), surface, h('div', { class: 'evidence' }));
    const s: Slot = { n, el, surface, canvas: null, overlay, base: null, renderedScale: 0, task: null, visible: false, page: null };
    slots.push(s);
    sizeSlot(s);
    frag.append(el);
    observer.observe(el);
  }
  pagesEl.append(frag);
  pageTotal.textContent = `/ ${count}`;
  pageInput.max = String(count);
}

function relayout(): void {
  for (const s of slots) {
    sizeSlot(s);
    drawOverlay(s);
    if (s.visible) void renderSlot(s);
  }
}

const observer = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      const n = Number((e.target as HTMLElement).dataset.page);
      const s = slots[n - 1];
      if (!s) continue;
      s.visible = e.isIntersecting;
      if (s.visible) void renderSlot(s);
      else releaseSlot(s);
    }
  },
  { root: pagesEl, rootMargin: '150% 0px' },
);

async function renderSlot(s: Slot): Promise<void> {
  const doc = pdf;
  const gen = loadGeneration;
  if (!doc) return;
  try {
    if (!s.page) {
      s.page = await doc.getPage(s.n);
      if (gen !== loadGeneration) return;
      const vp1 = s.page.getViewport({ scale: 1 });
      s.base = { w: vp1.width, h: vp1.height };
      sizeSlot(s);
      drawOverlay(s);
    }
    const scale = scaleFor(s.base!);
    if (s.renderedScale === scale && s.canvas) return;
    s.task?.cancel();
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
    const hc = document.body.classList.contains('vscode-high-contrast') && !document.body.classList.contains('vscode-high-contrast-light');
    const css = getComputedStyle(document.body);
    const task = s.page.render({
      canvas,
      viewport,
      transform: dpr !== 1 ? [dpr, 0, 0, dpr, 0, 0] : undefined,
      pageColors: hc ? { background: css.getPropertyValue('--vscode-editor-background').trim() || '#000', foreground: css.getPropertyValue('--vscode-editor-foreground').trim() || '#fff' } : undefined,
    });
    s.task = task;
    s.renderedScale = scale;
    await task.promise;
    if (s.task === task) s.task = null;
  } catch (e) {
    const name = (e as { name?: string })?.name;
    if (name === 'RenderingCancelledException') return;
    s.renderedScale = 0;
    vscode.postMessage({ type: 'renderError', page: s.n, message: String(e).slice(0, 500) });
    const head = s.el.querySelector('.page-head');
    if (head) append(head, h('span', { class: 'render-error' }, icon('error'), ' cannot render this page'));
  }
}

function releaseSlot(s: Slot): void {
  s.task?.cancel();
  s.task = null;
  if (s.canvas) {
    // Zero-sized canvases give their memory back at once; far-away pages re-render when scrolled to.
    s.canvas.width = 0;
    s.canvas.height = 0;
    s.canvas.remove();
    s.canvas = null;
  }
  s.renderedScale = 0;
  s.page?.cleanup();
}

function drawOverlay(s: Slot): void {
  const o = overlayFor(s.n);
  const head = s.el.querySelector('.page-head')!;
  const ev = s.el.querySelector('.evidence')!;
  clear(head);
  clear(ev);
  clear(s.overlay);
  append(head, h('span', { class: 'page-no' }, `Page ${s.n}`));
  if (!o) return;
  const style = ROUTE_STYLE[o.route];
  append(head, h('span', { class: `badge route-${o.route}`, title: style.meaning }, icon(style.icon), ` ${style.label}`), h('span', { class: 'reasons' }, o.reasons.join(', ')));
  append(
    ev,
    `${o.visibleChars} visible chars · ${o.invisibleChars} invisible · ${percent(o.imageCoverage)} image in ${o.imageCount} image${o.imageCount === 1 ? '' : 's'} · ${o.vectorOps} vector ops · ${o.fonts} font${o.fonts === 1 ? '' : 's'}`,
  );
  for (const note of o.notes ?? []) append(ev, h('div', { class: 'note' }, note));
  if (!s.page || !s.base) return;
  const viewport = s.page.getViewport({ scale: scaleFor(s.base) });
  for (const b of o.imageBoxes) {
    const [x1, y1, x2, y2] = viewport.convertToViewportRectangle(b.rect);
    const left = Math.min(x1, x2);
    const top = Math.min(y1, y2);
    const box = h(
      'div',
      { class: `box kind-${b.kind}`, title: boxTitle(b) },
      h('span', { class: 'box-label' }, `${percent(b.share)}${b.filter ? ` · ${b.filter.replace(/Decode$/, '')}` : ''}${b.width && b.height ? ` · ${b.width}×${b.height}` : ''}`),
    );
    box.style.left = `${left}px`;
    box.style.top = `${top}px`;
    box.style.width = `${Math.max(1, Math.abs(x2 - x1))}px`;
    box.style.height = `${Math.max(1, Math.abs(y2 - y1))}px`;
    s.overlay.append(box);
  }
}

function boxTitle(b: PageOverlay['imageBoxes'][number]): string {
  const parts = [`${b.kind === 'shading' ? 'shading' : b.kind === 'inline' ? 'inline image' : 'image'}: ${percent(b.share)} of the page`];
  if (b.width && b.height) parts.push(`${b.width}×${b.height} px`);
  if (b.filter) parts.push(b.filter);
  return parts.join(', ');
}

// ---- current page and scrolling ---------------------------------------------------------------------------------

function currentPage(): number {
  const top = pagesEl.scrollTop + pagesEl.clientHeight / 3;
  // Binary search over the slots' offsets: pages are in document order.
  let lo = 0;
  let hi = slots.length - 1;
  let best = 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (slots[mid].el.offsetTop <= top) {
      best = mid + 1;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

function markCurrent(n: number): void {
  pageList.querySelector('.page-link.current')?.classList.remove('current');
  const link = pageList.querySelector(`.page-link[data-page="${n}"]`);
  link?.classList.add('current');
  (link as HTMLElement | null)?.scrollIntoView({ block: 'nearest' });
  if (document.activeElement !== pageInput) pageInput.value = String(n);
}

function scrollToPage(n: number, flash: boolean): void {
  const s = slots[Math.min(Math.max(1, n), slots.length) - 1];
  if (!s) {
    targetPage = n;
    return;
  }
  pagesEl.scrollTop = s.el.offsetTop - 8;
  if (flash) {
    s.el.classList.remove('flash');
    void s.el.offsetWidth;
    s.el.classList.add('flash');
  }
  onScrolled();
}

let scrollPending = false;
let lastReported = 0;
function onScrolled(): void {
  if (scrollPending) return;
  scrollPending = true;
  requestAnimationFrame(() => {
    scrollPending = false;
    if (!slots.length) return;
    const n = currentPage();
    markCurrent(n);
    if (n !== state.page) {
      state.page = n;
      saveState();
    }
    if (n !== lastReported) {
      lastReported = n;
      vscode.postMessage({ type: 'pageChanged', page: n });
    }
  });
}
pagesEl.addEventListener('scroll', onScrolled, { passive: true });
new ResizeObserver(() => {
  if (state.zoom === 0 && slots.length) {
    const keep = state.page;
    relayout();
    scrollToPage(keep, false);
  }
}).observe(pagesEl);

// ---- loading -------------------------------------------------------------------------------------------------------

async function load(m: Extract<HostMessage, { type: 'load' }>): Promise<void> {
  const gen = ++loadGeneration;
  await closeDocument();
  fileName.textContent = m.fileName;
  document.title = m.fileName;
  report = m.report;
  classifying = false;
  // A restored webview returns to its page, unless the host asks for another one.
  const startPage = m.page ?? targetPage ?? (state.uri === m.uri ? state.page : 1);
  targetPage = undefined;
  state.uri = m.uri;
  saveState();
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
    if (!report) {
      const first = await doc.getPage(1);
      const vp = first.getViewport({ scale: 1 });
      defaultBase = { w: vp.width, h: vp.height };
    }
    makeSlots(doc.numPages);
    showReport();
    scrollToPage(Math.min(startPage, doc.numPages), m.page !== undefined);
  } catch (e) {
    if (gen !== loadGeneration) return;
    const msg = (e as { name?: string })?.name === 'PasswordException' ? 'This PDF needs a password: the preview cannot show its pages.' : `pdf.js cannot open this file: ${String((e as Error)?.message ?? e).slice(0, 300)}`;
    setBanner(msg, 'error');
    // Still show the analyzer's verdict and findings.
    slots = [];
    clear(pagesEl);
    if (report) {
      clear(verdict);
      verdict.textContent = report.verdict;
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

async function closeDocument(): Promise<void> {
  for (const s of slots) {
    observer.unobserve(s.el);
    s.task?.cancel();
  }
  slots = [];
  clear(pagesEl);
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
    if (typeof d === 'object' && d && d.type === 'load') console.warn('load fields', Object.entries(d).map(([k, v]) => `${k}:${Object.prototype.toString.call(v)}`).join(' '));
    return;
  }
  switch (m.type) {
    case 'load':
      void load(m);
      break;
    case 'report':
      report = m.report ?? report;
      if (!m.report && !m.classifying) report = undefined;
      classifying = !!m.classifying;
      showReport();
      break;
    case 'scrollToPage':
      if (pdf && slots.length) scrollToPage(m.page, true);
      else targetPage = m.page;
      break;
    case 'loadError':
      setBanner(m.message, 'error');
      break;
  }
});

applyToggles();
setBanner('Loading…', 'info');
vscode.postMessage({ type: 'ready' });
