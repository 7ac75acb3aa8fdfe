/**
 * The one message protocol between the extension host and the page webview. Both sides import this file; each side
 * validates what it receives with the parser for the other side's messages, because a webview is a browser page that
 * renders attacker-supplied PDFs and its messages must not be trusted blindly.
 * No `vscode`, no DOM, no node imports: it is bundled into both sides.
 */
import type { ImageBox, PageRoute, Rect, RouteReason } from '../analyzer/types';

export const PAGE_ROUTES: readonly PageRoute[] = ['ocr', 'review', 'ocr-layer', 'unknown', 'blank', 'text'];

/** Hard ceiling for page numbers anywhere in the protocol (the analyzer's maxPages default is lower or equal). */
export const MAX_PAGE = 1_000_000;
const MAX_TEXT = 2000;
const MAX_BOXES_PER_PAGE = 500;
const MAX_STRINGS = 64;

/** What the webview needs to draw one page's overlay: a projection of the analyzer's PageReport. */
export interface PageOverlay {
  page: number;
  route: PageRoute;
  reasons: RouteReason[];
  visibleChars: number;
  invisibleChars: number;
  imageCoverage: number;
  imageCount: number;
  vectorOps: number;
  fonts: number;
  imageBoxes: Pick<ImageBox, 'rect' | 'share' | 'kind' | 'width' | 'height' | 'filter'>[];
  cropBox: Rect;
  mediaBox: Rect;
  rotate: number;
  notes?: string[];
}

/** Document facts for the webview header. Every string came from the PDF or the file name: render as text only. */
export interface OverlayReport {
  pageCount: number;
  /** one line verdict, e.g. "needs OCR: pages 39–40" */
  verdict: string;
  error?: string;
  findings: string[];
  pages: PageOverlay[];
}

export interface WebviewAssets {
  workerSrc: string;
  cMapUrl: string;
  standardFontDataUrl: string;
  wasmUrl: string;
}

/** host → webview */
export type HostMessage =
  | { type: 'load'; fileName: string; uri: string; bytes: Uint8Array; assets: WebviewAssets; report?: OverlayReport; page?: number }
  | { type: 'report'; report?: OverlayReport; classifying?: boolean }
  | { type: 'scrollToPage'; page: number }
  | { type: 'loadError'; message: string };

/** webview → host */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'classify' }
  | { type: 'pageChanged'; page: number }
  | { type: 'renderError'; page: number; message: string };

/** State the webview keeps across hide/show (vscode.setState); validated when read back. */
export interface WebviewState {
  uri?: string;
  page: number;
  showBoxes: boolean;
  zoom: number;
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function isPageNumber(x: unknown, max = MAX_PAGE): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= max;
}

function shortString(x: unknown, max = MAX_TEXT): string | undefined {
  return typeof x === 'string' ? (x.length > max ? x.slice(0, max) : x) : undefined;
}

/** Validates a message from the webview. Anything malformed yields undefined and is ignored by the caller. */
export function parseWebviewMessage(x: unknown, pageCount = MAX_PAGE): WebviewMessage | undefined {
  if (!isObj(x) || typeof x.type !== 'string') return undefined;
  const max = Math.min(Math.max(1, Math.floor(pageCount) || 1), MAX_PAGE);
  switch (x.type) {
    case 'ready':
      return { type: 'ready' };
    case 'classify':
      return { type: 'classify' };
    case 'pageChanged':
      return isPageNumber(x.page, max) ? { type: 'pageChanged', page: x.page } : undefined;
    case 'renderError': {
      const message = shortString(x.message);
      return isPageNumber(x.page, max) && message !== undefined ? { type: 'renderError', page: x.page, message } : undefined;
    }
    default:
      return undefined;
  }
}

function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

function parseRect(x: unknown): Rect | undefined {
  if (!Array.isArray(x) || x.length !== 4 || !x.every(isFiniteNumber)) return undefined;
  return [x[0], x[1], x[2], x[3]];
}

function stringList(x: unknown): string[] {
  if (!Array.isArray(x)) return [];
  const out: string[] = [];
  for (const s of x) {
    if (out.length >= MAX_STRINGS) break;
    const v = shortString(s);
    if (v !== undefined) out.push(v);
  }
  return out;
}

function parseOverlay(x: unknown): PageOverlay | undefined {
  if (!isObj(x) || !isPageNumber(x.page) || !PAGE_ROUTES.includes(x.route as PageRoute)) return undefined;
  const cropBox = parseRect(x.cropBox);
  const mediaBox = parseRect(x.mediaBox);
  if (!cropBox || !mediaBox) return undefined;
  const boxes: PageOverlay['imageBoxes'] = [];
  if (Array.isArray(x.imageBoxes)) {
    for (const b of x.imageBoxes) {
      if (boxes.length >= MAX_BOXES_PER_PAGE) break;
      if (!isObj(b)) continue;
      const rect = parseRect(b.rect);
      if (!rect || !isFiniteNumber(b.share)) continue;
      const kind = b.kind === 'inline' || b.kind === 'shading' ? b.kind : 'xobject';
      const box: PageOverlay['imageBoxes'][number] = { rect, share: b.share, kind };
      if (isFiniteNumber(b.width)) box.width = b.width;
      if (isFiniteNumber(b.height)) box.height = b.height;
      const filter = shortString(b.filter, 64);
      if (filter !== undefined) box.filter = filter;
      boxes.push(box);
    }
  }
  const num = (v: unknown) => (isFiniteNumber(v) ? v : 0);
  const out: PageOverlay = {
    page: x.page,
    route: x.route as PageRoute,
    reasons: stringList(x.reasons) as RouteReason[],
    visibleChars: num(x.visibleChars),
    invisibleChars: num(x.invisibleChars),
    imageCoverage: num(x.imageCoverage),
    imageCount: num(x.imageCount),
    vectorOps: num(x.vectorOps),
    fonts: num(x.fonts),
    imageBoxes: boxes,
    cropBox,
    mediaBox,
    rotate: [0, 90, 180, 270].includes(x.rotate as number) ? (x.rotate as number) : 0,
  };
  if (Array.isArray(x.notes)) out.notes = stringList(x.notes);
  return out;
}

function parseReport(x: unknown): OverlayReport | undefined {
  if (!isObj(x) || !isFiniteNumber(x.pageCount) || !Array.isArray(x.pages)) return undefined;
  const pages: PageOverlay[] = [];
  for (const p of x.pages) {
    if (pages.length >= MAX_PAGE) break;
    const o = parseOverlay(p);
    if (o) pages.push(o);
  }
  const r: OverlayReport = {
    pageCount: Math.max(0, Math.min(MAX_PAGE, Math.floor(x.pageCount))),
    verdict: shortString(x.verdict) ?? '',
    findings: stringList(x.findings),
    pages,
  };
  const error = shortString(x.error);
  if (error !== undefined) r.error = error;
  return r;
}

function parseAssets(x: unknown): WebviewAssets | undefined {
  if (!isObj(x)) return undefined;
  const keys = ['workerSrc', 'cMapUrl', 'standardFontDataUrl', 'wasmUrl'] as const;
  const out: Partial<WebviewAssets> = {};
  for (const k of keys) {
    const v = shortString(x[k], 4096);
    if (v === undefined) return undefined;
    out[k] = v;
  }
  return out as WebviewAssets;
}

/** Validates a message from the host (defence in depth on the webview side). */
export function parseHostMessage(x: unknown): HostMessage | undefined {
  if (!isObj(x) || typeof x.type !== 'string') return undefined;
  switch (x.type) {
    case 'load': {
      const assets = parseAssets(x.assets);
      const fileName = shortString(x.fileName, 1024);
      const uri = shortString(x.uri, 8192);
      if (!(x.bytes instanceof Uint8Array) || !assets || fileName === undefined || uri === undefined) return undefined;
      const m: HostMessage = { type: 'load', fileName, uri, bytes: x.bytes, assets };
      if (x.report !== undefined) {
        const report = parseReport(x.report);
        if (report) m.report = report;
      }
      if (isPageNumber(x.page)) m.page = x.page;
      return m;
    }
    case 'report': {
      const m: HostMessage = { type: 'report' };
      if (x.report !== undefined) {
        const report = parseReport(x.report);
        if (!report) return undefined;
        m.report = report;
      }
      if (x.classifying === true) m.classifying = true;
      return m;
    }
    case 'scrollToPage':
      return isPageNumber(x.page) ? { type: 'scrollToPage', page: x.page } : undefined;
    case 'loadError': {
      const message = shortString(x.message);
      return message !== undefined ? { type: 'loadError', message } : undefined;
    }
    default:
      return undefined;
  }
}

export const ZOOM_LEVELS: readonly number[] = [0, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/** Reads back persisted webview state; anything off falls back to defaults. zoom 0 means fit width. */
export function parseWebviewState(x: unknown): WebviewState {
  const out: WebviewState = { page: 1, showBoxes: true, zoom: 0 };
  if (!isObj(x)) return out;
  if (isPageNumber(x.page)) out.page = x.page;
  if (typeof x.showBoxes === 'boolean') out.showBoxes = x.showBoxes;
  if (typeof x.zoom === 'number' && ZOOM_LEVELS.includes(x.zoom)) out.zoom = x.zoom;
  const uri = shortString(x.uri, 8192);
  if (uri !== undefined) out.uri = uri;
  return out;
}
