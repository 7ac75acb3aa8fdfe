/**
 * The one message protocol between the extension host and the page webview. Both sides import this file; each side
 * validates what it receives with the parser for the other side's messages, because a webview is a browser page that
 * renders attacker-supplied PDFs and its messages must not be trusted blindly.
 * No `vscode`, no DOM, no node imports: it is bundled into both sides.
 */
import type { FontEvidence, GlyphVisibility, ImageBox, PageRoute, Rect, RouteReason, TextLayer } from '../analyzer/types';

export const PAGE_ROUTES: readonly PageRoute[] = ['ocr', 'review', 'ocr-layer', 'unknown', 'blank', 'text'];

/** Hard ceiling for page numbers anywhere in the protocol (the analyzer's maxPages default is lower or equal). */
export const MAX_PAGE = 1_000_000;
const MAX_TEXT = 2000;
/** The analyzer keeps at most this many image boxes a page (options.maxImageBoxesPerPage); the webview drops the rest. */
export const MAX_BOXES_PER_PAGE = 500;
const MAX_STRINGS = 64;

/**
 * The preview sends per-page evidence (reasons, counts, notes, image boxes) only for the pages near the webview's
 * viewport, in messages of at most this many pages and this many image boxes. Why: VS Code serialises every webview
 * message on the extension host's thread and parses it again in the renderer; one message with the boxes of every
 * page (up to MAX_BOXES_PER_PAGE each) of a 100,000-page file is hundreds of MB and freezes both ends. With these caps
 * a message holds at most ~2,000 boxes (~200 KB of JSON) plus 32 pages' clipped strings, whatever the document.
 * The box cap is at least MAX_BOXES_PER_PAGE, so one page always fits in one message.
 */
export const PREVIEW_MAX_PAGES_PER_MESSAGE = 32;
export const PREVIEW_MAX_BOXES_PER_MESSAGE = 2000;
/** Pages one 'needPages' request may name: the webview only asks for what its viewport (plus a margin) shows. */
export const PREVIEW_MAX_PAGES_PER_REQUEST = 128;
/** routes[] value of a page the report has no entry for (pdf.js may count more pages than the analyzer reached). */
export const NO_ROUTE = 255;

/** Fonts sent per page for the fonts table (the most used first); PageOverlay.fonts still counts them all. */
export const MAX_FONTS_PER_PAGE = 64;
/** Characters kept of a font's name or of a glyph run's text in a message. */
export const MAX_NAME = 128;
export const MAX_RUN_TEXT = 200;
/**
 * The text layer (glyph-run boxes) goes to the webview like the evidence: on request, for the pages in view only, at
 * most MAX_RUNS_PER_PAGE boxes a page (the first, in content order; runCount says how many the page has) and at most
 * PREVIEW_MAX_RUNS_PER_MESSAGE in one message (~100 bytes of JSON each: about 1 MB a message).
 */
export const MAX_RUNS_PER_PAGE = 5000;
export const PREVIEW_MAX_RUNS_PER_MESSAGE = 10_000;
/** Pages one 'needTextLayer' request may name. */
export const PREVIEW_MAX_TEXT_PAGES_PER_REQUEST = 16;
export const GLYPH_VISIBILITIES: readonly GlyphVisibility[] = ['visible', 'invisible', 'clipped', 'hidden'];

/** One row of a page's fonts table: the analyzer's FontEvidence, names clipped. Optional columns are absent in reports older than them. */
export type FontRow = Pick<
  FontEvidence,
  'name' | 'baseFont' | 'subtype' | 'decoding' | 'chars' | 'embedded' | 'toUnicode' | 'glyphs' | 'invisibleChars' | 'glyphless'
>;

/** One glyph run's box for the text-layer overlay. */
export interface RunBox {
  /** the decoded string (U+FFFD where a glyph does not decode), at most MAX_RUN_TEXT characters */
  text: string;
  rect: Rect;
  visibility: GlyphVisibility;
  /** the font's resource name */
  font: string;
  /** font size in user space */
  size: number;
  /** how likely the run is a word of the page's languages, 0..1 (GlyphRun.likelihood; scored layers only) */
  likelihood?: number;
}

/** A page's text layer as the webview draws it. */
export interface PageTextLayer {
  page: number;
  runs: RunBox[];
  /** runs the page draws, kept or not */
  runCount: number;
  cut?: TextLayer['cut'];
  /** where the scan has text the layer lacks (TextLayer.missingText), at most MAX_MISSING_PER_PAGE regions */
  missing?: Rect[];
}

/** regions of missing text a page's text layer carries at most (the analyzer reports 32) */
export const MAX_MISSING_PER_PAGE = 32;
/** characters of a page's scan note (why its scan gave the layer score no evidence) the webview is sent */
export const MAX_SCAN_NOTE = 200;

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
  /** the fonts table: at most MAX_FONTS_PER_PAGE rows, the most used first */
  fontRows?: FontRow[];
  imageBoxes: Pick<ImageBox, 'rect' | 'share' | 'kind' | 'width' | 'height' | 'filter'>[];
  cropBox: Rect;
  mediaBox: Rect;
  rotate: number;
  notes?: string[];
  /**
   * The OCR layer's score (AnalyzerOptions.layerQuality) on a graded page (an `ocr-layer` page with a score): the
   * badge's grade and the colour of the layer's runs. `textError` (signals.textError, the share of the text there
   * estimated wrong) decides whether the runs take their own word's grade instead (routes.ts wordsGraded); it and
   * `textMissing` (signals.textMissing, the share of the page's text the layer lacks) say why (routes.ts causeOf), with
   * `shift` (signals.shift: how many places along the alphabet a shifted layer's letters stand) when the layer is one.
   * `scanNote` (signals.image, at most MAX_SCAN_NOTE characters) says why the scan gave no evidence: the layer was
   * judged by its words alone, and text missing from it was seen only where its word boxes hold more than their words.
   * `incomplete` (signals.incomplete of a kept layer, routes.ts keptIncomplete, at most MAX_SCAN_NOTE characters) says
   * why the keep is no confident one.
   */
  layer?: { score: number; reocr: boolean; textError?: number; textMissing?: number; shift?: number; scanNote?: string; incomplete?: string };
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

/**
 * What the webview gets of a report up front: the header, plus 9 bytes a page in two byte arrays (no object per page),
 * enough to lay out every page and colour the page list. At MAX_PAGE pages that is 9 MB, sent once per report; the
 * evidence follows on demand in 'pages' messages capped by PREVIEW_MAX_PAGES_PER_MESSAGE/PREVIEW_MAX_BOXES_PER_MESSAGE.
 * Byte arrays because they are the typed array VS Code's webview messaging is known to carry as binary.
 */
export interface OverlayHead {
  /** names this report: 'needPages' and 'pages' carry it, so evidence of a replaced report is never drawn */
  id: number;
  pageCount: number;
  verdict: string;
  error?: string;
  findings: string[];
  /** 8 bytes a page: width, height at scale 1 as pdf.js lays the page out (little-endian float32); 0 = unknown */
  sizes: Uint8Array;
  /** 1 byte a page: index into PAGE_ROUTES, NO_ROUTE when the report has no entry for the page */
  routes: Uint8Array;
}

export interface WebviewAssets {
  workerSrc: string;
  cMapUrl: string;
  standardFontDataUrl: string;
  wasmUrl: string;
}

/** Where a preview was left: its page and zoom (0 = fit width). The host remembers it per file. */
export interface PreviewPlace {
  page: number;
  zoom: number;
}

/** host → webview */
export type HostMessage =
  | {
      type: 'load';
      fileName: string;
      uri: string;
      bytes: Uint8Array;
      assets: WebviewAssets;
      report?: OverlayHead;
      /** scroll here (a #page=N link, a Problems entry, a tree click): wins over everything else */
      page?: number;
      /** where this file's preview was left last time: used by a webview that has no state of its own for the file */
      place?: PreviewPlace;
    }
  | { type: 'report'; report?: OverlayHead; classifying?: boolean }
  | { type: 'pages'; report: number; pages: PageOverlay[] }
  | { type: 'scrollToPage'; page: number }
  /** the "Toggle Image Boxes" command (a keybinding while the preview has focus) */
  | { type: 'toggleBoxes' }
  /** the "Toggle Text Layer" and "Toggle Fonts Table" commands */
  | { type: 'toggleTextLayer' }
  | { type: 'toggleFonts' }
  /** glyph-run boxes of pages asked for with 'needTextLayer' (report: the OverlayHead id they belong to) */
  | { type: 'textLayer'; report: number; pages: PageTextLayer[] }
  /** the text layer of the report is being read, or cannot be had (message says why) */
  | { type: 'textLayerStatus'; report: number; status: 'reading' | 'ready' | 'unavailable'; message?: string }
  | { type: 'loadError'; message: string };

/** webview → host */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'classify' }
  | { type: 'pageChanged'; page: number; zoom?: number }
  | { type: 'needPages'; report: number; from: number; to: number }
  /** the glyph-run boxes of pages from..to (the text-layer overlay is on and those pages are in view) */
  | { type: 'needTextLayer'; report: number; from: number; to: number }
  | { type: 'renderError'; page: number; message: string };

/** State the webview keeps across hide/show (vscode.setState); validated when read back. */
export interface WebviewState {
  uri?: string;
  page: number;
  showBoxes: boolean;
  /** the text-layer overlay is on */
  showText: boolean;
  /** the fonts table shows under each page */
  showFonts: boolean;
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
    case 'pageChanged': {
      if (!isPageNumber(x.page, max)) return undefined;
      const m: WebviewMessage = { type: 'pageChanged', page: x.page };
      if (isZoom(x.zoom)) m.zoom = x.zoom;
      return m;
    }
    case 'renderError': {
      const message = shortString(x.message);
      return isPageNumber(x.page, max) && message !== undefined ? { type: 'renderError', page: x.page, message } : undefined;
    }
    case 'needPages':
      if (!isReportId(x.report) || !isPageNumber(x.from, max) || !isPageNumber(x.to, max) || x.to < x.from) return undefined;
      // A larger range is clipped, not refused: the webview asks again for what it still lacks.
      return { type: 'needPages', report: x.report, from: x.from, to: Math.min(x.to, x.from + PREVIEW_MAX_PAGES_PER_REQUEST - 1) };
    case 'needTextLayer':
      if (!isReportId(x.report) || !isPageNumber(x.from, max) || !isPageNumber(x.to, max) || x.to < x.from) return undefined;
      return { type: 'needTextLayer', report: x.report, from: x.from, to: Math.min(x.to, x.from + PREVIEW_MAX_TEXT_PAGES_PER_REQUEST - 1) };
    default:
      return undefined;
  }
}

function isReportId(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
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
  if (Array.isArray(x.fontRows)) out.fontRows = parseFontRows(x.fontRows);
  if (isObj(x.layer) && isFiniteNumber(x.layer.score) && typeof x.layer.reocr === 'boolean')
    out.layer = {
      score: Math.min(1, Math.max(0, x.layer.score)),
      reocr: x.layer.reocr,
      ...(isFiniteNumber(x.layer.textError) ? { textError: Math.min(1.5, Math.max(0, x.layer.textError)) } : {}),
      ...(isFiniteNumber(x.layer.textMissing) ? { textMissing: Math.min(1, Math.max(0, x.layer.textMissing)) } : {}),
      ...(Number.isInteger(x.layer.shift) && (x.layer.shift as number) >= 1 && (x.layer.shift as number) <= 31
        ? { shift: x.layer.shift as number }
        : {}),
      ...(typeof x.layer.scanNote === 'string' ? { scanNote: x.layer.scanNote.slice(0, MAX_SCAN_NOTE) } : {}),
      ...(typeof x.layer.incomplete === 'string' ? { incomplete: x.layer.incomplete.slice(0, MAX_SCAN_NOTE) } : {}),
    };
  return out;
}

const DECODINGS: readonly FontEvidence['decoding'][] = ['tounicode', 'encoding', 'standard14', 'predefined-cmap', 'none'];
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

function parseFontRows(x: unknown[]): FontRow[] {
  const out: FontRow[] = [];
  for (const f of x) {
    if (out.length >= MAX_FONTS_PER_PAGE) break;
    if (!isObj(f)) continue;
    const row: FontRow = {
      name: shortString(f.name, MAX_NAME) ?? '',
      baseFont: shortString(f.baseFont, MAX_NAME) ?? '',
      subtype: shortString(f.subtype, MAX_NAME) ?? '',
      decoding: DECODINGS.includes(f.decoding as FontEvidence['decoding']) ? (f.decoding as FontEvidence['decoding']) : 'none',
      chars: count(f.chars),
    };
    if (typeof f.embedded === 'boolean') row.embedded = f.embedded;
    if (f.toUnicode === 'yes' || f.toUnicode === 'no' || f.toUnicode === 'broken') row.toUnicode = f.toUnicode;
    if (f.glyphs !== undefined) row.glyphs = count(f.glyphs);
    if (f.invisibleChars !== undefined) row.invisibleChars = count(f.invisibleChars);
    if (typeof f.glyphless === 'boolean') row.glyphless = f.glyphless;
    out.push(row);
  }
  return out;
}

/** A font as the webview's table gets it: names clipped, only the table's columns. */
export function fontRowOf(f: FontEvidence): FontRow {
  const row: FontRow = {
    name: f.name.slice(0, MAX_NAME),
    baseFont: f.baseFont.slice(0, MAX_NAME),
    subtype: f.subtype.slice(0, MAX_NAME),
    decoding: f.decoding,
    chars: f.chars,
  };
  if (f.embedded !== undefined) row.embedded = f.embedded;
  if (f.toUnicode !== undefined) row.toUnicode = f.toUnicode;
  if (f.glyphs !== undefined) row.glyphs = f.glyphs;
  if (f.invisibleChars !== undefined) row.invisibleChars = f.invisibleChars;
  if (f.glyphless !== undefined) row.glyphless = f.glyphless;
  return row;
}

/** The fonts table of a page: the MAX_FONTS_PER_PAGE fonts that drew the most characters, most first. */
export function fontRowsOf(fonts: readonly FontEvidence[]): FontRow[] {
  return [...fonts]
    .sort((a, b) => b.chars - a.chars)
    .slice(0, MAX_FONTS_PER_PAGE)
    .map(fontRowOf);
}

function parseRun(x: unknown): RunBox | undefined {
  if (!isObj(x)) return undefined;
  const rect = parseRect(x.rect);
  const text = shortString(x.text, MAX_RUN_TEXT);
  if (!rect || text === undefined || !GLYPH_VISIBILITIES.includes(x.visibility as GlyphVisibility)) return undefined;
  return {
    text,
    rect,
    visibility: x.visibility as GlyphVisibility,
    font: shortString(x.font, MAX_NAME) ?? '',
    size: isFiniteNumber(x.size) ? x.size : 0,
    ...(isFiniteNumber(x.likelihood) ? { likelihood: Math.min(1, Math.max(0, x.likelihood)) } : {}),
  };
}

/** Keeps whole pages in order while the runs fit PREVIEW_MAX_RUNS_PER_MESSAGE; each page at most MAX_RUNS_PER_PAGE runs. */
function parseTextLayers(x: unknown): PageTextLayer[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const out: PageTextLayer[] = [];
  let total = 0;
  for (const p of x) {
    if (out.length >= PREVIEW_MAX_TEXT_PAGES_PER_REQUEST) break;
    if (!isObj(p) || !isPageNumber(p.page) || !Array.isArray(p.runs)) continue;
    const runs: RunBox[] = [];
    for (const r of p.runs) {
      if (runs.length >= MAX_RUNS_PER_PAGE) break;
      const run = parseRun(r);
      if (run) runs.push(run);
    }
    if (total + runs.length > PREVIEW_MAX_RUNS_PER_MESSAGE) break;
    total += runs.length;
    const layer: PageTextLayer = { page: p.page, runs, runCount: Math.max(runs.length, count(p.runCount)) };
    if (p.cut === 'runs' || p.cut === 'text' || p.cut === 'memory' || p.cut === 'tounicode') layer.cut = p.cut;
    const missing = Array.isArray(p.missing)
      ? p.missing
          .slice(0, MAX_MISSING_PER_PAGE)
          .map(parseRect)
          .filter((r) => r !== undefined)
      : [];
    if (missing.length > 0) layer.missing = missing;
    out.push(layer);
  }
  return out;
}

/** A page's text layer as the webview gets it: the first MAX_RUNS_PER_PAGE runs, strings and names clipped. */
export function pageTextLayerOf(page: number, layer: TextLayer): PageTextLayer {
  const runs: RunBox[] = layer.runs.slice(0, MAX_RUNS_PER_PAGE).map((r) => {
    const box: RunBox = {
      text: r.text.length > MAX_RUN_TEXT ? r.text.slice(0, MAX_RUN_TEXT) : r.text,
      rect: r.rect,
      visibility: r.visibility,
      font: r.font.slice(0, MAX_NAME),
      size: r.size,
    };
    if (r.likelihood !== undefined) box.likelihood = r.likelihood;
    return box;
  });
  const out: PageTextLayer = { page, runs, runCount: layer.runCount };
  if (layer.cut) out.cut = layer.cut;
  else if (layer.runs.length > MAX_RUNS_PER_PAGE) out.cut = 'runs';
  if (layer.missingText?.length) out.missing = layer.missingText.slice(0, MAX_MISSING_PER_PAGE);
  return out;
}

/** Splits pages' text layers into 'textLayer' messages within PREVIEW_MAX_RUNS_PER_MESSAGE runs and PREVIEW_MAX_TEXT_PAGES_PER_REQUEST pages. */
export function textLayerMessages(pages: readonly PageTextLayer[], id: number): Extract<HostMessage, { type: 'textLayer' }>[] {
  const out: Extract<HostMessage, { type: 'textLayer' }>[] = [];
  let cur: PageTextLayer[] = [];
  let runs = 0;
  for (const p0 of pages) {
    const p = p0.runs.length > MAX_RUNS_PER_PAGE ? { ...p0, runs: p0.runs.slice(0, MAX_RUNS_PER_PAGE) } : p0;
    if (cur.length > 0 && (cur.length >= PREVIEW_MAX_TEXT_PAGES_PER_REQUEST || runs + p.runs.length > PREVIEW_MAX_RUNS_PER_MESSAGE)) {
      out.push({ type: 'textLayer', report: id, pages: cur });
      cur = [];
      runs = 0;
    }
    cur.push(p);
    runs += p.runs.length;
  }
  if (cur.length) out.push({ type: 'textLayer', report: id, pages: cur });
  return out;
}

function parseHead(x: unknown): OverlayHead | undefined {
  if (!isObj(x) || !isReportId(x.id) || !isFiniteNumber(x.pageCount)) return undefined;
  const pageCount = Math.floor(x.pageCount);
  if (pageCount < 0 || pageCount > MAX_PAGE) return undefined;
  if (!(x.sizes instanceof Uint8Array) || x.sizes.byteLength !== pageCount * 8) return undefined;
  if (!(x.routes instanceof Uint8Array) || x.routes.byteLength !== pageCount) return undefined;
  const r: OverlayHead = {
    id: x.id,
    pageCount,
    verdict: shortString(x.verdict) ?? '',
    findings: stringList(x.findings),
    sizes: x.sizes,
    routes: x.routes,
  };
  const error = shortString(x.error);
  if (error !== undefined) r.error = error;
  return r;
}

/**
 * Keeps what fits the caps: whole pages in order, at most PREVIEW_MAX_PAGES_PER_MESSAGE of them and at most
 * PREVIEW_MAX_BOXES_PER_MESSAGE boxes in all; a page that would cross the box cap and everything after it are dropped
 * (a well-behaved host never sends them, see chunkPageOverlays).
 */
function parsePageList(x: unknown): PageOverlay[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const pages: PageOverlay[] = [];
  let boxes = 0;
  for (const p of x) {
    if (pages.length >= PREVIEW_MAX_PAGES_PER_MESSAGE) break;
    const o = parseOverlay(p);
    if (!o) continue;
    if (boxes + o.imageBoxes.length > PREVIEW_MAX_BOXES_PER_MESSAGE) break;
    boxes += o.imageBoxes.length;
    pages.push(o);
  }
  return pages;
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
        const report = parseHead(x.report);
        if (report) m.report = report;
      }
      if (isPageNumber(x.page)) m.page = x.page;
      const place = parsePlace(x.place);
      if (place) m.place = place;
      return m;
    }
    case 'report': {
      const m: HostMessage = { type: 'report' };
      if (x.report !== undefined) {
        const report = parseHead(x.report);
        if (!report) return undefined;
        m.report = report;
      }
      if (x.classifying === true) m.classifying = true;
      return m;
    }
    case 'pages': {
      const pages = parsePageList(x.pages);
      return isReportId(x.report) && pages ? { type: 'pages', report: x.report, pages } : undefined;
    }
    case 'scrollToPage':
      return isPageNumber(x.page) ? { type: 'scrollToPage', page: x.page } : undefined;
    case 'toggleBoxes':
      return { type: 'toggleBoxes' };
    case 'toggleTextLayer':
      return { type: 'toggleTextLayer' };
    case 'toggleFonts':
      return { type: 'toggleFonts' };
    case 'textLayer': {
      const pages = parseTextLayers(x.pages);
      return isReportId(x.report) && pages ? { type: 'textLayer', report: x.report, pages } : undefined;
    }
    case 'textLayerStatus': {
      if (!isReportId(x.report) || (x.status !== 'reading' && x.status !== 'ready' && x.status !== 'unavailable')) return undefined;
      const m: HostMessage = { type: 'textLayerStatus', report: x.report, status: x.status };
      const message = shortString(x.message);
      if (message !== undefined) m.message = message;
      return m;
    }
    case 'loadError': {
      const message = shortString(x.message);
      return message !== undefined ? { type: 'loadError', message } : undefined;
    }
    default:
      return undefined;
  }
}

export const ZOOM_LEVELS: readonly number[] = [0, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];

export function isZoom(x: unknown): x is number {
  return typeof x === 'number' && ZOOM_LEVELS.includes(x);
}

/** A remembered place, or undefined when it is not one (a page number and one of ZOOM_LEVELS). */
export function parsePlace(x: unknown): PreviewPlace | undefined {
  return isObj(x) && isPageNumber(x.page) && isZoom(x.zoom) ? { page: x.page, zoom: x.zoom } : undefined;
}

/** Reads back persisted webview state; anything off falls back to defaults. zoom 0 means fit width. */
export function parseWebviewState(x: unknown): WebviewState {
  const out: WebviewState = { page: 1, showBoxes: true, showText: false, showFonts: false, zoom: 0 };
  if (!isObj(x)) return out;
  if (isPageNumber(x.page)) out.page = x.page;
  if (typeof x.showBoxes === 'boolean') out.showBoxes = x.showBoxes;
  if (typeof x.showText === 'boolean') out.showText = x.showText;
  if (typeof x.showFonts === 'boolean') out.showFonts = x.showFonts;
  if (typeof x.zoom === 'number' && ZOOM_LEVELS.includes(x.zoom)) out.zoom = x.zoom;
  const uri = shortString(x.uri, 8192);
  if (uri !== undefined) out.uri = uri;
  return out;
}

// ---- building the head and the evidence messages (host side; pure, so unit-tested) ---------------------------------

/** A page's size at scale 1 as pdf.js lays it out: the crop box clipped to the media box, then rotated. */
export function pageSizeOf(o: Pick<PageOverlay, 'cropBox' | 'mediaBox' | 'rotate'>): { w: number; h: number } | null {
  const [a0, a1, a2, a3] = o.cropBox;
  const [m0, m1, m2, m3] = o.mediaBox;
  // Boxes may be given with any corner first.
  const w = Math.min(Math.max(a0, a2), Math.max(m0, m2)) - Math.max(Math.min(a0, a2), Math.min(m0, m2));
  const h = Math.min(Math.max(a1, a3), Math.max(m1, m3)) - Math.max(Math.min(a1, a3), Math.min(m1, m3));
  if (!(w > 0 && h > 0)) return null;
  return o.rotate % 180 === 0 ? { w, h } : { w: h, h: w };
}

export function overlayHeadOf(r: OverlayReport, id: number): OverlayHead {
  const pageCount = Math.max(0, Math.min(MAX_PAGE, Math.floor(r.pageCount)));
  const sizes = new Uint8Array(pageCount * 8);
  const view = new DataView(sizes.buffer);
  const routes = new Uint8Array(pageCount).fill(NO_ROUTE);
  const routeIndex = new Map(PAGE_ROUTES.map((x, i) => [x, i]));
  for (const p of r.pages) {
    if (!isPageNumber(p.page, pageCount)) continue;
    const i = p.page - 1;
    routes[i] = routeIndex.get(p.route) ?? NO_ROUTE;
    const size = pageSizeOf(p);
    if (size) {
      view.setFloat32(i * 8, size.w, true);
      view.setFloat32(i * 8 + 4, size.h, true);
    }
  }
  const head: OverlayHead = { id, pageCount, verdict: r.verdict, findings: r.findings, sizes, routes };
  if (r.error !== undefined) head.error = r.error;
  return head;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Page sizes from a head as [w0, h0, w1, h1, …], read as little-endian whatever the platform. Values are as sent:
 * the layout treats anything but a positive finite size as unknown.
 */
export function unpackSizes(sizes: Uint8Array): Float32Array {
  const n = sizes.byteLength >> 2;
  const out = new Float32Array(n);
  if (LITTLE_ENDIAN) {
    // One copy of the bytes (which also aligns them); the typed array then reads them natively, ~10× faster than DataView.
    new Uint8Array(out.buffer).set(sizes.subarray(0, n * 4));
  } else {
    const view = new DataView(sizes.buffer, sizes.byteOffset, sizes.byteLength);
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  }
  return out;
}

/** The route of page n from a head, undefined when the report has none for it. */
export function routeOf(head: OverlayHead, n: number): PageRoute | undefined {
  return PAGE_ROUTES[head.routes[n - 1]];
}

/**
 * Splits pages' evidence into messages that respect PREVIEW_MAX_PAGES_PER_MESSAGE and PREVIEW_MAX_BOXES_PER_MESSAGE.
 * A page with more than MAX_BOXES_PER_PAGE boxes (the analyzer never sends one) keeps its first MAX_BOXES_PER_PAGE.
 */
export function chunkPageOverlays(
  pages: readonly PageOverlay[],
  maxPages = PREVIEW_MAX_PAGES_PER_MESSAGE,
  maxBoxes = PREVIEW_MAX_BOXES_PER_MESSAGE,
): PageOverlay[][] {
  const chunks: PageOverlay[][] = [];
  let cur: PageOverlay[] = [];
  let boxes = 0;
  for (const p0 of pages) {
    const p = p0.imageBoxes.length > MAX_BOXES_PER_PAGE ? { ...p0, imageBoxes: p0.imageBoxes.slice(0, MAX_BOXES_PER_PAGE) } : p0;
    if (cur.length > 0 && (cur.length >= maxPages || boxes + p.imageBoxes.length > maxBoxes)) {
      chunks.push(cur);
      cur = [];
      boxes = 0;
    }
    cur.push(p);
    boxes += p.imageBoxes.length;
  }
  if (cur.length) chunks.push(cur);
  return chunks;
}

/**
 * The host's answer to a 'needPages' request: the evidence of pages from..to of the report sent under `id`, split
 * by chunkPageOverlays. Reports list pages in order (page n at index n-1), which is looked up directly; any other order
 * goes through `index` (built once by the caller's first request and kept with the report).
 */
export function evidenceMessages(
  pages: readonly PageOverlay[],
  id: number,
  from: number,
  to: number,
  index?: () => Map<number, number>,
): Extract<HostMessage, { type: 'pages' }>[] {
  const found: PageOverlay[] = [];
  for (let n = Math.max(1, from); n <= to; n++) {
    let p: PageOverlay | undefined = pages[n - 1];
    if (p?.page !== n) {
      const i = (index ?? (() => new Map(pages.map((x, j) => [x.page, j]))))().get(n);
      p = i === undefined ? undefined : pages[i];
    }
    if (p) found.push(p);
  }
  return chunkPageOverlays(found).map((chunk) => ({ type: 'pages', report: id, pages: chunk }));
}
