/**
 * Runs the real webview bundle (webview/main.ts, pdf.js replaced by a fake) against a minimal fake DOM with a
 * 1,000,000-page report: how many nodes it creates, what it asks the host for, go to page, scrolling and the page-list
 * keyboard. The fake DOM lays pages out the way main.css does (a page is its surface plus 62 px of chrome) but does no
 * browser layout or painting, so the timing here is the webview's own code only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { build } from 'esbuild';
import {
  overlayHeadOf,
  type HostMessage,
  type OverlayHead,
  type PageOverlay,
  PREVIEW_MAX_PAGES_PER_REQUEST,
  type WebviewMessage,
} from '../src/shared/protocol';
import { MAX_SCROLL_PX } from '../webview/layout';

const PAGES = 1_000_000;
const VIEW_H = 800;
const CHROME = 62;

class Text {
  readonly nodeType = 3;
  parent: El | null = null;
  constructor(public textContent: string) {}
  remove(): void {
    this.parent?.removeChild(this);
  }
}

type Node = El | Text;

class El {
  readonly nodeType = 1;
  children: Node[] = [];
  parent: El | null = null;
  attrs = new Map<string, string>();
  style: Record<string, string> = {};
  listeners = new Map<string, ((e: unknown) => void)[]>();
  hidden = false;
  value = '';
  max = '';
  tabIndex = -1;
  width = 0;
  height = 0;
  clientWidth = 0;
  clientHeight = 0;
  private top = 0;
  constructor(
    readonly tagName: string,
    readonly doc: FakeDocument,
  ) {}
  get classList() {
    const get = () => new Set((this.attrs.get('class') ?? '').split(/\s+/).filter(Boolean));
    const set = (s: Set<string>) => this.attrs.set('class', [...s].join(' '));
    return {
      add: (c: string) => set(get().add(c)),
      remove: (c: string) => {
        const s = get();
        s.delete(c);
        set(s);
      },
      toggle: (c: string, force?: boolean) => {
        const s = get();
        const on = force ?? !s.has(c);
        if (on) s.add(c);
        else s.delete(c);
        set(s);
        return on;
      },
      contains: (c: string) => get().has(c),
    };
  }
  set className(v: string) {
    this.attrs.set('class', v);
  }
  get className(): string {
    return this.attrs.get('class') ?? '';
  }
  get title(): string {
    return this.attrs.get('title') ?? '';
  }
  get dataset(): Record<string, string | undefined> {
    return { page: this.attrs.get('data-page') };
  }
  setAttribute(k: string, v: string): void {
    this.attrs.set(k, v);
    if (k === 'value') this.value = v;
  }
  getAttribute(k: string): string | null {
    return this.attrs.get(k) ?? null;
  }
  removeAttribute(k: string): void {
    this.attrs.delete(k);
  }
  append(...nodes: Node[]): void {
    for (const n of nodes) {
      n.parent?.removeChild(n);
      n.parent = this;
      this.children.push(n);
    }
  }
  insertBefore(n: Node, ref: Node): void {
    n.parent?.removeChild(n);
    n.parent = this;
    this.children.splice(this.children.indexOf(ref), 0, n);
  }
  removeChild(n: Node): void {
    const i = this.children.indexOf(n);
    if (i >= 0) this.children.splice(i, 1);
    n.parent = null;
  }
  remove(): void {
    this.parent?.removeChild(this);
  }
  get firstChild(): Node | null {
    return this.children[0] ?? null;
  }
  get textContent(): string {
    return this.children.map((c) => c.textContent).join('');
  }
  set textContent(v: string) {
    this.children = [];
    this.append(new Text(v));
  }
  addEventListener(type: string, fn: (e: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  dispatch(type: string, e: Record<string, unknown> = {}): void {
    for (const fn of this.listeners.get(type) ?? []) fn({ preventDefault() {}, target: this, ...e });
  }
  focus(): void {
    this.doc.activeElement = this;
  }
  /** A page is as tall as its surface plus the chrome main.css gives it. */
  get offsetHeight(): number {
    if (this.classList.contains('page')) {
      const surface = this.children.find((c): c is El => c instanceof El && c.classList.contains('surface'));
      // Each evidence note is one more line of 18 px under the page (main.css), beyond the layout's estimate.
      const notes = all(this, (e) => e.classList.contains('note')).length;
      return Math.round(parseFloat(surface?.style.height ?? '0')) + CHROME + 18 * notes;
    }
    return 0;
  }
  get offsetWidth(): number {
    return 0;
  }
  /** Clamped to the spacer (the first child) as a browser clamps it to the content. */
  get scrollTop(): number {
    return this.top;
  }
  set scrollTop(v: number) {
    const spacer = this.children[0] as El | undefined;
    const max = Math.max(0, parseFloat(spacer?.style.height ?? '0') - this.clientHeight);
    this.top = Math.min(Math.max(0, v), max);
  }
}

class FakeDocument {
  activeElement: El | null = null;
  title = '';
  body = new El('body', this);
  app = new El('div', this);
  getElementById(): El {
    return this.app;
  }
  createElement(tag: string): El {
    const e = new El(tag, this);
    if (tag === 'main') {
      e.clientHeight = VIEW_H;
      e.clientWidth = 1000;
    }
    if (tag === 'nav') {
      e.clientHeight = VIEW_H;
      e.clientWidth = 72;
    }
    return e;
  }
  createTextNode(s: string): Text {
    return new Text(s);
  }
}

function all(root: El, pred: (e: El) => boolean, out: El[] = []): El[] {
  for (const c of root.children) {
    if (!(c instanceof El)) continue;
    if (pred(c)) out.push(c);
    all(c, pred, out);
  }
  return out;
}

/** Bundles the webview as esbuild does for the extension, with pdf.js swapped for a fake that reads globalThis.__pdf. */
async function bundle(): Promise<string> {
  const r = await build({
    entryPoints: ['webview/main.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
    plugins: [
      {
        name: 'fake-pdfjs',
        setup(b) {
          b.onResolve({ filter: /^pdfjs-dist$/ }, () => ({ path: 'pdfjs', namespace: 'fake' }));
          b.onLoad({ filter: /.*/, namespace: 'fake' }, () => ({
            contents: 'export const GlobalWorkerOptions = {}; export function getDocument(o) { return globalThis.__pdf.getDocument(o); }',
            loader: 'js',
          }));
        },
      },
    ],
  });
  return r.outputFiles[0].text;
}

function fakePdf(numPages: number) {
  const page = (n: number) => ({
    getViewport: ({ scale }: { scale: number }) => ({
      width: 612 * scale,
      height: 792 * scale,
      convertToViewportRectangle: ([x1, y1, x2, y2]: number[]) => [x1 * scale, (792 - y1) * scale, x2 * scale, (792 - y2) * scale],
    }),
    render: () => ({ promise: Promise.resolve(), cancel() {} }),
    cleanup() {},
    n,
  });
  const doc = { numPages, getPage: async (n: number) => page(n), destroy: async () => {} };
  return { getDocument: () => ({ promise: Promise.resolve(doc), destroy: async () => {}, onPassword: null }) };
}

function overlay(n: number, boxes: number, notes?: string[]): PageOverlay {
  return {
    ...(notes ? { notes } : {}),
    page: n,
    route: 'ocr',
    reasons: ['image-only'] as PageOverlay['reasons'],
    visibleChars: 0,
    invisibleChars: 0,
    imageCoverage: 1,
    imageCount: boxes,
    vectorOps: 0,
    fonts: 0,
    imageBoxes: Array.from({ length: boxes }, () => ({
      rect: [0, 0, 612, 792] as [number, number, number, number],
      share: 1,
      kind: 'xobject' as const,
    })),
    cropBox: [0, 0, 612, 792],
    mediaBox: [0, 0, 612, 792],
    rotate: 0,
  };
}

/** A head for PAGES letter pages, built directly (overlayHeadOf over a million objects is the host's cost, not ours). */
function bigHead(id: number): OverlayHead {
  const small = overlayHeadOf({ pageCount: 1, verdict: 'needs OCR', findings: [], pages: [overlay(1, 0)] }, id);
  const sizes = new Uint8Array(PAGES * 8);
  for (let i = 0; i < PAGES; i++) sizes.set(small.sizes, i * 8);
  return { ...small, pageCount: PAGES, sizes, routes: new Uint8Array(PAGES).fill(small.routes[0]) };
}

async function harness() {
  const doc = new FakeDocument();
  const posted: WebviewMessage[] = [];
  let onMessage: ((e: { data: unknown }) => void) | undefined;
  const frames: (() => void)[] = [];
  const observers: { cb: (entries: { target: El }[]) => void; els: Set<El> }[] = [];
  const ctx: Record<string, unknown> = {
    document: doc,
    console,
    setTimeout,
    clearTimeout,
    performance,
    devicePixelRatio: 1,
    acquireVsCodeApi: () => ({ postMessage: (m: WebviewMessage) => posted.push(m), getState: () => undefined, setState() {} }),
    addEventListener: (type: string, fn: (e: { data: unknown }) => void) => {
      if (type === 'message') onMessage = fn;
    },
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
    getComputedStyle: () => ({ getPropertyValue: () => '' }),
    ResizeObserver: class {
      o: { cb: (entries: { target: El }[]) => void; els: Set<El> };
      constructor(cb: (entries: { target: El }[]) => void) {
        this.o = { cb, els: new Set() };
        observers.push(this.o);
      }
      observe(el: El) {
        this.o.els.add(el);
      }
      unobserve(el: El) {
        this.o.els.delete(el);
      }
    },
    MutationObserver: class {
      observe() {}
    },
    pdfjsWorker: {},
    __pdf: fakePdf(PAGES),
  };
  ctx.window = ctx;
  ctx.globalThis = ctx;
  vm.createContext(ctx);
  vm.runInContext(await bundle(), ctx);
  const settle = async () => {
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setImmediate(r));
      // Measure what is in the DOM (as a browser's ResizeObserver would after layout), then run the frame.
      for (const o of observers) if (o.els.size) o.cb([...o.els].map((target) => ({ target })));
      const f = frames.splice(0);
      for (const fn of f) fn();
      if (!f.length && i > 5) break;
    }
  };
  // Messages arrive in the webview's own realm (so its `instanceof Uint8Array` checks hold), as VS Code delivers them.
  const CtxU8 = vm.runInContext('Uint8Array', ctx) as Uint8ArrayConstructor;
  const toRealm = (v: unknown): unknown =>
    v instanceof Uint8Array
      ? new CtxU8(v)
      : Array.isArray(v)
        ? v.map(toRealm)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toRealm(x)]))
          : v;
  const send = (m: HostMessage) => onMessage!({ data: toRealm(m) });
  const sendTimed = (m: HostMessage) => {
    const data = toRealm(m);
    const t0 = performance.now();
    onMessage!({ data });
    return t0;
  };
  const root = doc.app;
  const pagesEl = () => all(root, (e) => e.tagName === 'main')[0];
  const listEl = () => all(root, (e) => e.tagName === 'nav')[0];
  const pageEls = () => all(root, (e) => e.classList.contains('page'));
  const pageEl = (n: number) => pageEls().find((e) => e.dataset.page === String(n));
  /** Where page n's element is on screen, from the top of the pane. */
  const screenTop = (n: number) => parseFloat(pageEl(n)!.style.top) - pagesEl().scrollTop;
  return { doc, posted, send, sendTimed, settle, root, pagesEl, listEl, pageEls, pageEl, screenTop };
}

/** Positions in a 10M px spacer carry float rounding far below a pixel. */
function near(a: number, b: number): void {
  assert.ok(Math.abs(a - b) < 0.01, `${a} ≉ ${b}`);
}

const assets = { workerSrc: 'w', cMapUrl: 'c/', standardFontDataUrl: 's/', wasmUrl: 'x/' };

test('a 1,000,000-page document: page 1 laid out at once, a bounded DOM, evidence asked for near the viewport only', async () => {
  const w = await harness();
  const head = bigHead(5);
  const t0 = w.sendTimed({ type: 'load', fileName: 'big.pdf', uri: 'file:///big.pdf', bytes: new Uint8Array(4), assets, report: head });
  for (let i = 0; i < 5 && !w.pageEl(1); i++) await Promise.resolve();
  const ms = performance.now() - t0;
  assert.ok(w.pageEl(1), 'page 1 is in the DOM before pdf.js has opened the file');
  console.log(`# time to first page layout (1,000,000 pages, webview code, fake DOM): ${ms.toFixed(1)} ms`);
  assert.ok(ms < 3000, `${ms} ms`);
  await w.settle();
  assert.ok(w.pageEls().length >= 2 && w.pageEls().length <= 60, `pages in the DOM: ${w.pageEls().length}`);
  const rows = all(w.root, (e) => e.classList.contains('page-link'));
  assert.ok(rows.length > 10 && rows.length <= 100, `page-list rows in the DOM: ${rows.length}`);
  const spacer = w.pagesEl().children[0] as El;
  assert.ok(parseFloat(spacer.style.height) <= MAX_SCROLL_PX, `spacer ${spacer.style.height}`);
  near(w.screenTop(1), 8);
  const asks = w.posted.filter((m): m is Extract<WebviewMessage, { type: 'needPages' }> => m.type === 'needPages');
  assert.ok(asks.length >= 1);
  for (const a of asks) {
    assert.equal(a.report, 5);
    assert.ok(a.to - a.from + 1 <= PREVIEW_MAX_PAGES_PER_REQUEST);
    assert.ok(a.from >= 1 && a.to <= 60, `asked ${a.from}–${a.to}`);
  }
  // The host answers: page 1's box is drawn over it, with its share.
  w.send({ type: 'pages', report: 5, pages: [overlay(1, 1)] });
  await w.settle();
  const boxes = all(w.pageEl(1)!, (e) => e.classList.contains('box'));
  assert.equal(boxes.length, 1);
  assert.match(all(boxes[0], (e) => e.classList.contains('box-label'))[0].textContent, /100%/);
  assert.ok(all(w.pageEl(1)!, (e) => e.tagName === 'canvas' && e.classList.contains('canvas')).length === 1, 'canvas.canvas rendered');
  // Evidence of another report is not drawn.
  w.send({ type: 'pages', report: 4, pages: [overlay(2, 1)] });
  await w.settle();
  assert.equal(all(w.pageEl(2)!, (e) => e.classList.contains('box')).length, 0);

  // Go to page: the page input.
  const input = all(w.root, (e) => e.classList.contains('page-input'))[0];
  input.value = '500000';
  input.dispatch('change');
  await w.settle();
  assert.ok(w.pageEl(500_000), 'page 500000 in the DOM');
  near(w.screenTop(500_000), 8);
  assert.ok(w.pageEls().length <= 60);
  assert.ok(w.posted.some((m) => m.type === 'pageChanged' && m.page === 500_000));
  assert.ok(
    all(w.root, (e) => e.classList.contains('page-link') && e.classList.contains('current'))[0]?.dataset.page === '500000',
    'the list marks the page',
  );

  // Evidence with notes makes pages taller than estimated, above and below the page read: it stays where it is.
  const around = Array.from({ length: 21 }, (_, i) => overlay(499_990 + i, 0, ['a note', 'another note']));
  w.send({ type: 'pages', report: 5, pages: around });
  await w.settle();
  assert.equal(all(w.pageEl(499_999)!, (e) => e.classList.contains('note')).length, 2, 'notes drawn above the page read');
  near(w.screenTop(500_000), 8);
  near(w.screenTop(500_001) - w.screenTop(500_000), Math.floor(792 * (968 / 612)) + CHROME + 36);

  // Zoom keeps the page being read.
  const zoom = all(w.root, (e) => e.classList.contains('zoom'))[0];
  zoom.value = '0.5';
  zoom.dispatch('change');
  await w.settle();
  assert.equal(input.value, '500000');
  assert.ok(Math.abs(w.screenTop(500_000) - 8) < 1, `page 500000 at ${w.screenTop(500_000)} after zooming out`);
  assert.equal(parseFloat(all(w.pageEl(500_000)!, (e) => e.classList.contains('surface'))[0].style.width), 306);
  zoom.value = '0';
  zoom.dispatch('change');
  await w.settle();
  near(w.screenTop(500_000), 8);

  // A wheel notch: the content moves by as much as the scroll position, not by the scaled amount.
  w.pagesEl().scrollTop += 100;
  w.pagesEl().dispatch('scroll');
  await w.settle();
  near(w.screenTop(500_000), 8 - 100);

  // The host's scrollToPage, near the end.
  w.send({ type: 'scrollToPage', page: 999_990 });
  await w.settle();
  near(w.screenTop(999_990), 8);

  // Keyboard in the page list: End goes to the last page, ArrowUp one back.
  const list = w.listEl();
  list.dispatch('keydown', { key: 'End' });
  await w.settle();
  assert.ok(w.pageEl(1_000_000), 'last page in the DOM');
  assert.equal(w.doc.activeElement?.dataset.page, '1000000', 'focus on the last row');
  list.dispatch('keydown', { key: 'ArrowUp' });
  await w.settle();
  assert.equal(w.doc.activeElement?.dataset.page, '999999');
  assert.ok(w.pageEl(999_999));
});

test('remember the place: a new preview opens at the page and zoom the host remembers; a #page=N link wins over it', async () => {
  const w = await harness();
  w.send({
    type: 'load',
    fileName: 'big.pdf',
    uri: 'file:///big.pdf',
    bytes: new Uint8Array(4),
    assets,
    report: bigHead(7),
    place: { page: 250, zoom: 2 },
  });
  await w.settle();
  const zoom = all(w.root, (e) => e.classList.contains('zoom'))[0];
  assert.equal(zoom.value, '2', 'the remembered zoom');
  assert.ok(w.pageEl(250), 'the remembered page is in the DOM');
  near(w.screenTop(250), 8);
  assert.equal(parseFloat(all(w.pageEl(250)!, (e) => e.classList.contains('surface'))[0].style.width), 1224, '612 pt at 200 %');
  assert.ok(
    w.posted.some((m) => m.type === 'pageChanged' && m.page === 250 && m.zoom === 2),
    'it tells the host where it is, with the zoom',
  );

  const v = await harness();
  v.send({
    type: 'load',
    fileName: 'big.pdf',
    uri: 'file:///big.pdf',
    bytes: new Uint8Array(4),
    assets,
    report: bigHead(8),
    page: 40,
    place: { page: 250, zoom: 1 },
  });
  await v.settle();
  assert.ok(v.pageEl(40), 'the page asked for');
  near(v.screenTop(40), 8);
  assert.equal(all(v.root, (e) => e.classList.contains('zoom'))[0].value, '1', 'with the remembered zoom');
});
