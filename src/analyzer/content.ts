/**
 * The content-stream interpreter: runs a page's content (and the forms and annotation appearances it paints)
 * far enough to count characters drawn visibly and invisibly, to place images, and to count vector painting.
 * It never rasterises: it follows the graphics state (q/Q, cm), the text state and matrices, and XObjects.
 */
import { type Budget, BudgetExhausted } from './budget';
import type { PageNode } from './document';
import { FontCache, isGlyphlessFont, type LoadedFont, type TextTally } from './fonts';
import { type Matrix, IDENTITY, area, clipRect, contains, intersects, multiply, transformRect, unionArea } from './geometry';
import { ARRAY_START, Cmd, DICT_START, EOF, Lexer, isRegular, isWhite } from './lexer';
import { PdfDict, PdfStream, type PdfValue, type Resolver, isNumber, numberArray } from './objects';
import type { AnalyzerOptions } from './options';
import { Parser } from './parser';
import { TextLayerBuilder, boundsInto, codeBytes } from './textLayer';
import { type FontText, fontText } from './textLayerFonts';
import type { FontEvidence, ImageBox, Rect, RouteReason, TextLayer } from './types';

export interface PageScan {
  visibleChars: number;
  invisibleChars: number;
  hiddenUnderImage: number;
  badChars: number;
  fonts: FontEvidence[];
  imageBoxes: ImageBox[];
  imageCoverage: number;
  vectorOps: number;
  operators: number;
  /** limits hit or faults met; the evidence is what was gathered before */
  faults: RouteReason[];
  notes: string[];
  /** the text layer, when options.textLayer or options.layerQuality asks for it */
  textLayer?: TextLayer;
  /** image XObjects painted by the page content (at most MAX_SCAN_IMAGES), when options.layerQuality asks for them */
  scanImages?: ScanImage[];
}

/** An image XObject as painted: its stream (still encoded) and where it lands, for the layer-quality check. */
export interface ScanImage {
  stream: PdfStream;
  /** the CTM that maps the unit square onto the page (image row 0 is at the top: v = 1) */
  ctm: Matrix;
  rect: Rect;
  width: number;
  height: number;
  /** the last filter, e.g. DCTDecode */
  filter?: string;
}

const MAX_SCAN_IMAGES = 16;

/** Moves the text matrix `d` text-space units along the writing direction (horizontal scaling applies across only). */
function advanceText(tm: Matrix, d: number, th: number, vertical: boolean): void {
  if (vertical) {
    tm[4] -= d * tm[2];
    tm[5] -= d * tm[3];
  } else {
    tm[4] += d * th * tm[0];
    tm[5] += d * th * tm[1];
  }
}

/** Shared across the pages of one document: one font cache, bounded by fontCacheBytes, for pages, forms and annotations. */
export class ScanContext {
  readonly fonts: FontCache;
  /** the text of each loaded font, for the text layer (filled only when it is asked for) */
  private fontTexts: WeakMap<LoadedFont, FontText> | undefined;
  constructor(
    readonly r: Resolver,
    readonly options: AnalyzerOptions,
    readonly budget: Budget,
  ) {
    this.fonts = new FontCache(r, budget, options.fontCacheBytes);
  }
  /** Throws BudgetExhausted (time ran out loading it, or it can't be held even alone). */
  font(d: PdfDict): LoadedFont {
    return this.fonts.get(d);
  }
  /** The text of a loaded font's codes (text layer only). Its memory is charged to the budget; past it, texts are unknown. */
  fontText(font: LoadedFont, d: PdfDict): FontText {
    const map = (this.fontTexts ??= new WeakMap());
    let ft = map.get(font);
    if (!ft) {
      ft = fontText(d, this.r, this.budget);
      if (!this.budget.tryCharge(ft.bytes, 'fonts')) ft = UNKNOWN_TEXT;
      map.set(font, ft);
    }
    return ft;
  }
  textOf(font: LoadedFont): FontText | undefined {
    return this.fontTexts?.get(font);
  }
}

/** the text layer's scratch glyph box (TextLayerBuilder.glyph copies what it keeps) */
const glyphRect: Rect = [0, 0, 0, 0];

const UNKNOWN_TEXT: FontText = { bytes: 0, truncated: true, text: () => undefined };

class LimitHit extends Error {
  constructor(readonly reason: RouteReason) {
    super(reason);
  }
}

interface GState {
  ctm: Matrix;
  font: LoadedFont | null;
  fontName: string;
  fontSize: number;
  charSpace: number;
  wordSpace: number;
  hScale: number;
  leading: number;
  rise: number;
  render: number;
  fillAlpha: number;
  softMask: boolean;
  /** page-space bounds of the current clipping path; null = not clipped */
  clip: Rect | null;
  /** the fill colour is a shading pattern (paints like an image where the path is filled) */
  fillShading: PdfDict | null;
  /** text drawn invisibly in a clipping render mode (7, or 4–6 with a transparent fill) that is part of the clip */
  textClip: ClipTextNode | null;
}

/**
 * Characters whose glyph outlines became part of the clipping path without being painted (Tr 7). Until something is
 * painted through the clip they are invisible; an image, a shading or a fill painted through them shows the glyph
 * shapes, which is visible text drawn by other means (not an OCR layer), so they then count as visible.
 */
interface ClipText {
  rect: Rect;
  chars: number;
  bad: number;
  shown: boolean;
  /** the text layer's runs drawn with it: [lf, lt) (text layer only) */
  lf?: number;
  lt?: number;
  /** the font's tally, whose invisible count changes when the text shows (runs merged past the cap: the first one's) */
  fe?: FontEvidence;
}

/** The clip-mode text of one text object, on top of what the clip held before: a saved state shares the tail. */
interface ClipTextNode {
  runs: ClipText[];
  /** runs not yet shown */
  left: number;
  next: ClipTextNode | null;
}

/** `ctm` and `clip` are replaced, never changed in place, so a saved state can share them. */
function cloneState(g: GState): GState {
  return {
    ctm: g.ctm,
    font: g.font,
    fontName: g.fontName,
    fontSize: g.fontSize,
    charSpace: g.charSpace,
    wordSpace: g.wordSpace,
    hScale: g.hScale,
    leading: g.leading,
    rise: g.rise,
    render: g.render,
    fillAlpha: g.fillAlpha,
    softMask: g.softMask,
    clip: g.clip,
    fillShading: g.fillShading,
    textClip: g.textClip,
  };
}

/** A run of visible text placed on the page, kept so a later opaque image can hide it. */
interface TextRun {
  rect: Rect;
  chars: number;
  bad: number;
  hidden: boolean;
  /** the text layer's runs drawn with it: [lf, lt) (text layer only) */
  lf?: number;
  lt?: number;
  /** the font's tally, whose invisible count grows when an image hides the run */
  fe?: FontEvidence;
}

const MAX_STACK = 256;
const MAX_OPERANDS = 1024;
/** work spent checking text runs against images before giving up on that check (bounds pathological pages) */
const MAX_HIDE_CHECKS = 20_000_000;
/** clip-mode text runs kept per text object; later ones merge into the last (bounds the checks per paint) */
const MAX_CLIP_RUNS = 1024;

export function scanPage(page: PageNode, ctx: ScanContext): PageScan {
  const s = new PageScanner(page, ctx);
  return s.run();
}

class PageScanner {
  private readonly r: Resolver;
  private readonly opt: AnalyzerOptions;
  private readonly visible: Rect;
  private visibleChars = 0;
  private invisibleChars = 0;
  private hiddenUnderImage = 0;
  private badChars = 0;
  private vectorOps = 0;
  private operators = 0;
  private bytesDecoded = 0;
  private hideChecks = 0;
  private readonly fontUse = new Map<LoadedFont, FontEvidence>();
  private readonly images: ImageBox[] = [];
  private readonly runs: TextRun[] = [];
  private readonly faults = new Set<RouteReason>();
  private readonly notes: string[] = [];
  private readonly activeForms = new Set<PdfStream>();
  private fromAnnotation = false;
  private missingFontNoted = false;
  /** clip inherited by a form from the state that painted it */
  private formClip: Rect | null = null;
  private formTextClip: ClipTextNode | null = null;
  private clipChecks = 0;
  /** clip-mode text of the current text object: it joins the clip at ET */
  private pendingTextClip: ClipText[] | null = null;
  private readonly tally: TextTally = { chars: 0, bad: 0, glyphs: 0, spaceCodes: 0, width: 0 };
  /** the text layer being collected, or null (the default: no per-glyph work at all) */
  private readonly layer: TextLayerBuilder | null;
  private scanImages: ScanImage[] | undefined;

  constructor(
    private readonly page: PageNode,
    private readonly ctx: ScanContext,
  ) {
    this.r = ctx.r;
    this.opt = ctx.options;
    this.visible = page.cropBox;
    this.layer = ctx.options.textLayer || ctx.options.layerQuality ? new TextLayerBuilder(ctx.options, ctx.budget) : null;
    if (ctx.options.layerQuality) this.scanImages = [];
  }

  run(): PageScan {
    try {
      const contents = this.r.resolve(this.page.dict.get('Contents'));
      const data = this.contentBytes(contents);
      this.execute(data, this.page.resources, IDENTITY.slice() as Matrix, 0);
      this.paintAnnotations();
    } catch (e) {
      if (e instanceof LimitHit) this.faults.add(e.reason);
      else if (e instanceof BudgetExhausted) {
        this.faults.add(e.reason);
        this.notes.push(
          e.reason === 'memory-limit'
            ? `a font could not be held within the font cache (${e.stage})`
            : `the time budget ran out while loading fonts (${e.stage})`,
        );
      } else {
        this.faults.add('damaged');
        this.notes.push(`interpreter fault: ${String(e).slice(0, 200)}`);
      }
    }
    const rects = this.images.map((b) => b.rect);
    const va = area(this.visible);
    const coverage = va > 0 ? Math.min(1, unionArea(rects) / va) : 0;
    // the text layer's fields go on last: spread first, they made V8 build the other eleven one slow step at a time
    // (a fifth of the run time of a text-heavy document with the layer on); without the layer the object is as before
    const extra: Pick<PageScan, 'textLayer' | 'scanImages'> = {};
    const scan: PageScan = {
      ...extra,
      visibleChars: this.visibleChars,
      invisibleChars: this.invisibleChars,
      hiddenUnderImage: this.hiddenUnderImage,
      badChars: this.badChars,
      fonts: [...this.fontUse.values()],
      imageBoxes: this.images,
      imageCoverage: coverage,
      vectorOps: this.vectorOps,
      operators: this.operators,
      faults: [...this.faults],
      notes: this.notes,
    };
    if (this.layer) scan.textLayer = this.layer.finish();
    if (this.scanImages) scan.scanImages = this.scanImages;
    return scan;
  }

  // ---- stream plumbing -------------------------------------------------------------------------------------------

  private decode(s: PdfStream): Uint8Array {
    const left = this.opt.maxPageBytes - this.bytesDecoded;
    if (left <= 0) throw new LimitHit('stream-too-large');
    const dec = this.r.decodeStream(s, Math.min(this.opt.maxStreamBytes, left));
    this.bytesDecoded += dec.data.length;
    if (dec.outOfTime) {
      // the decoder saw the deadline pass: the budget records the stage
      this.ctx.budget.outOfTime('decode');
      throw new LimitHit('budget-exceeded');
    }
    if (dec.truncated) {
      this.faults.add('stream-too-large');
      this.notes.push(`a content stream was cut at ${dec.data.length} decoded bytes`);
    }
    if (dec.error) {
      // nothing recovered is lost evidence, not an empty page; a partial decode is kept as what it shows
      if (dec.data.length === 0) {
        this.faults.add('damaged');
        this.notes.push(`a content stream could not be decoded at all: ${dec.error.slice(0, 120)}`);
      } else this.notes.push(`a content stream is damaged (${dec.data.length} bytes recovered): ${dec.error.slice(0, 120)}`);
    }
    return dec.data;
  }

  private contentBytes(contents: PdfValue | undefined): Uint8Array {
    if (contents instanceof PdfStream) return this.decode(contents);
    if (!Array.isArray(contents)) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    let total = 0;
    for (const c of contents) {
      const s = this.r.resolve(c);
      if (!(s instanceof PdfStream)) continue;
      const d = this.decode(s);
      parts.push(d);
      total += d.length + 1;
    }
    if (parts.length === 1) return parts[0];
    // Operands may be split across the parts: join them, with a separator so tokens don't merge.
    const out = new Uint8Array(total);
    let p = 0;
    for (const d of parts) {
      out.set(d, p);
      p += d.length;
      out[p++] = 10;
    }
    return out;
  }

  // ---- the interpreter ---------------------------------------------------------------------------------------------

  private execute(data: Uint8Array, resources: PdfDict | undefined, ctm: Matrix, depth: number): void {
    const lexer = new Lexer(data);
    const parser = new Parser(lexer);
    const ops: PdfValue[] = [];
    let g: GState = {
      ctm,
      font: null,
      fontName: '',
      fontSize: 0,
      charSpace: 0,
      wordSpace: 0,
      hScale: 1,
      leading: 0,
      rise: 0,
      render: 0,
      fillAlpha: 1,
      softMask: false,
      clip: this.formClip,
      fillShading: null,
      textClip: this.formTextClip,
    };
    const outerPending = this.pendingTextClip;
    this.pendingTextClip = null;
    // Current path bounds in page space, and a pending clip (W/W*) applied at the next painting operator.
    let px0 = Infinity;
    let py0 = Infinity;
    let px1 = -Infinity;
    let py1 = -Infinity;
    let pendingClip = false;
    const addPoint = (x: number, y: number) => {
      const m = g.ctm;
      const dx = m[0] * x + m[2] * y + m[4];
      const dy = m[1] * x + m[3] * y + m[5];
      if (dx < px0) px0 = dx;
      if (dx > px1) px1 = dx;
      if (dy < py0) py0 = dy;
      if (dy > py1) py1 = dy;
    };
    const endPath = (fill: boolean) => {
      const has = px1 >= px0 && py1 >= py0;
      if (fill && g.fillShading && has) this.addShading([px0, py0, px1, py1], g);
      else if (fill && has && g.textClip) this.revealClipText(g, [px0, py0, px1, py1]);
      if (pendingClip) {
        const r: Rect = has ? [px0, py0, px1, py1] : [0, 0, 0, 0];
        g.clip = g.clip ? (clipRect(g.clip, r) ?? [0, 0, 0, 0]) : r;
        pendingClip = false;
      }
      px0 = py0 = Infinity;
      px1 = py1 = -Infinity;
    };
    const stack: GState[] = [];
    let tm: Matrix = [1, 0, 0, 1, 0, 0];
    let tlm: Matrix = [1, 0, 0, 1, 0, 0];
    const fontRes = this.subDict(resources, 'Font');
    let xobjRes: PdfDict | undefined | null = null; // looked up on first use
    const budget = this.ctx.budget;
    // Operands count towards the clock too: a stream of megabytes of numbers has no operator to check it at.
    let tokens = 0;

    for (;;) {
      const tok = lexer.next();
      if (tok === EOF) break;
      if ((++tokens & 16383) === 0 && budget.outOfTime('content')) throw new LimitHit('budget-exceeded');
      if (!(tok instanceof Cmd)) {
        if (ops.length < MAX_OPERANDS) ops.push(tok);
        continue;
      }
      if (tok === ARRAY_START || tok === DICT_START) {
        const v = parser.fromToken(tok, 0);
        if (ops.length < MAX_OPERANDS && !(v instanceof Cmd) && v !== EOF) ops.push(v);
        continue;
      }
      if ((++this.operators & 4095) === 0) {
        if (this.operators > this.opt.maxOpsPerPage) throw new LimitHit('too-many-operators');
        if (budget.outOfTime('content')) throw new LimitHit('budget-exceeded');
      }
      const n = ops.length;
      switch (tok.op) {
        // graphics state
        case 'q':
          if (stack.length < MAX_STACK) stack.push(cloneState(g));
          break;
        case 'Q':
          if (stack.length > 0) g = stack.pop()!;
          break;
        case 'cm':
          if (n >= 6 && allNumbers(ops, n - 6, n)) g.ctm = multiply(ops.slice(n - 6, n) as Matrix, g.ctm);
          break;
        case 'gs':
          if (n >= 1 && typeof ops[n - 1] === 'string') this.extGState(g, resources, ops[n - 1] as string);
          break;
        // text objects and state
        case 'BT':
          tm = [1, 0, 0, 1, 0, 0];
          tlm = [1, 0, 0, 1, 0, 0];
          this.pendingTextClip = null;
          break;
        case 'ET':
          {
            // the glyphs shown in a clipping mode join the clip when the text object ends
            const pend = this.pendingTextClip as ClipText[] | null;
            if (pend) {
              g.textClip = { runs: pend, left: pend.length, next: g.textClip };
              this.pendingTextClip = null;
            }
          }
          break;
        case 'Tf':
          if (n >= 2) {
            const name = ops[n - 2];
            const size = ops[n - 1];
            if (isNumber(size)) g.fontSize = size;
            if (typeof name === 'string') {
              g.fontName = name;
              g.font = this.lookupFont(fontRes, name);
            }
          }
          break;
        case 'Tc':
          if (n >= 1 && isNumber(ops[n - 1])) g.charSpace = ops[n - 1] as number;
          break;
        case 'Tw':
          if (n >= 1 && isNumber(ops[n - 1])) g.wordSpace = ops[n - 1] as number;
          break;
        case 'Tz':
          if (n >= 1 && isNumber(ops[n - 1])) g.hScale = (ops[n - 1] as number) / 100;
          break;
        case 'TL':
          if (n >= 1 && isNumber(ops[n - 1])) g.leading = ops[n - 1] as number;
          break;
        case 'Ts':
          if (n >= 1 && isNumber(ops[n - 1])) g.rise = ops[n - 1] as number;
          break;
        case 'Tr':
          if (n >= 1 && isNumber(ops[n - 1])) g.render = ops[n - 1] as number;
          break;
        case 'Td':
          if (n >= 2 && isNumber(ops[n - 2]) && isNumber(ops[n - 1])) {
            tlm = translate(tlm, ops[n - 2] as number, ops[n - 1] as number);
            tm = tlm.slice() as Matrix;
          }
          break;
        case 'TD':
          if (n >= 2 && isNumber(ops[n - 2]) && isNumber(ops[n - 1])) {
            g.leading = -(ops[n - 1] as number);
            tlm = translate(tlm, ops[n - 2] as number, ops[n - 1] as number);
            tm = tlm.slice() as Matrix;
          }
          break;
        case 'Tm':
          if (n >= 6 && allNumbers(ops, n - 6, n)) {
            tlm = ops.slice(n - 6, n) as Matrix;
            tm = tlm.slice() as Matrix;
          }
          break;
        case 'T*':
          tlm = translate(tlm, 0, -g.leading);
          tm = tlm.slice() as Matrix;
          break;
        case 'Tj':
          if (n >= 1 && ops[n - 1] instanceof Uint8Array) this.showText(g, tm, [ops[n - 1]]);
          break;
        case 'TJ':
          if (n >= 1 && Array.isArray(ops[n - 1])) this.showText(g, tm, ops[n - 1] as PdfValue[]);
          break;
        case "'":
          tlm = translate(tlm, 0, -g.leading);
          tm = tlm.slice() as Matrix;
          if (n >= 1 && ops[n - 1] instanceof Uint8Array) this.showText(g, tm, [ops[n - 1]]);
          break;
        case '"':
          if (n >= 3) {
            if (isNumber(ops[n - 3])) g.wordSpace = ops[n - 3] as number;
            if (isNumber(ops[n - 2])) g.charSpace = ops[n - 2] as number;
            tlm = translate(tlm, 0, -g.leading);
            tm = tlm.slice() as Matrix;
            if (ops[n - 1] instanceof Uint8Array) this.showText(g, tm, [ops[n - 1]]);
          }
          break;
        // painting
        case 'm':
        case 'l':
          if (n >= 2 && isNumber(ops[n - 2]) && isNumber(ops[n - 1])) addPoint(ops[n - 2] as number, ops[n - 1] as number);
          break;
        case 'c':
          if (n >= 6 && allNumbers(ops, n - 6, n)) for (let k = n - 6; k < n; k += 2) addPoint(ops[k] as number, ops[k + 1] as number);
          break;
        case 'v':
        case 'y':
          if (n >= 4 && allNumbers(ops, n - 4, n)) for (let k = n - 4; k < n; k += 2) addPoint(ops[k] as number, ops[k + 1] as number);
          break;
        case 're':
          if (n >= 4 && allNumbers(ops, n - 4, n)) {
            const x = ops[n - 4] as number;
            const y = ops[n - 3] as number;
            const w = ops[n - 2] as number;
            const h = ops[n - 1] as number;
            addPoint(x, y);
            addPoint(x + w, y);
            addPoint(x, y + h);
            addPoint(x + w, y + h);
          }
          break;
        case 'W':
        case 'W*':
          pendingClip = true;
          break;
        case 'n':
          endPath(false);
          break;
        case 'S':
        case 's':
          this.vectorOps++;
          endPath(false);
          break;
        case 'f':
        case 'F':
        case 'f*':
        case 'B':
        case 'B*':
        case 'b':
        case 'b*':
          this.vectorOps++;
          endPath(true);
          break;
        case 'sh':
          this.vectorOps++;
          if (n >= 1 && typeof ops[n - 1] === 'string') {
            const sd = this.r.resolve(this.subDict(resources, 'Shading')?.get(ops[n - 1] as string));
            const shd = sd instanceof PdfStream ? sd.dict : sd;
            if (shd instanceof PdfDict) this.addShading(g.clip ?? this.visible, g, shd);
          }
          break;
        // fill colour: only whether it is a shading pattern matters
        case 'cs':
          g.fillShading = null;
          break;
        case 'scn':
          g.fillShading = n >= 1 && typeof ops[n - 1] === 'string' ? this.shadingPattern(resources, ops[n - 1] as string) : null;
          break;
        case 'g':
        case 'rg':
        case 'k':
        case 'sc':
          g.fillShading = null;
          break;
        // images and forms
        case 'Do':
          if (n >= 1 && typeof ops[n - 1] === 'string') {
            if (xobjRes === null) xobjRes = this.subDict(resources, 'XObject');
            this.doXObject(g, xobjRes, ops[n - 1] as string, resources, depth);
          }
          break;
        case 'BI':
          this.inlineImage(lexer, parser, g);
          break;
      }
      ops.length = 0;
    }
    this.pendingTextClip = outerPending;
  }

  private subDict(resources: PdfDict | undefined, key: string): PdfDict | undefined {
    if (!resources) return undefined;
    const v = this.r.resolve(resources.get(key));
    return v instanceof PdfDict ? v : undefined;
  }

  private lookupFont(fontRes: PdfDict | undefined, name: string): LoadedFont | null {
    const d = this.r.resolve(fontRes?.get(name));
    if (!(d instanceof PdfDict)) return null;
    const font = this.ctx.font(d);
    if (this.layer) this.ctx.fontText(font, d);
    return font;
  }

  private extGState(g: GState, resources: PdfDict | undefined, name: string): void {
    const gs = this.r.resolve(this.subDict(resources, 'ExtGState')?.get(name));
    if (!(gs instanceof PdfDict)) return;
    const ca = this.r.resolve(gs.get('ca'));
    if (isNumber(ca)) g.fillAlpha = ca;
    const sm = this.r.resolve(gs.get('SMask'));
    if (sm !== undefined) g.softMask = sm instanceof PdfDict;
    const font = this.r.resolve(gs.get('Font'));
    if (Array.isArray(font) && font.length >= 2) {
      const fd = this.r.resolve(font[0]);
      const size = this.r.resolve(font[1]);
      if (fd instanceof PdfDict) {
        g.font = this.ctx.font(fd);
        if (this.layer) this.ctx.fontText(g.font, fd);
      }
      if (isNumber(size)) g.fontSize = size;
    }
  }

  // ---- text --------------------------------------------------------------------------------------------------------

  /** Shows strings (and TJ adjustments), advancing `tm` in place, and books the characters as visible or invisible. */
  private showText(g: GState, tm: Matrix, items: PdfValue[]): void {
    const font = g.font;
    // Text shown before any Tf has no font at all: viewers skip it (MuPDF: "cannot draw text since font and size not set").
    if (!font && g.fontName === '') return;
    const t = this.tally;
    const fs = g.fontSize;
    const th = g.hScale;
    const vertical = font?.vertical ?? false;
    // Extent of the run in text space, starting at the current text position.
    const x0 = tm[4];
    const y0 = tm[5];
    let chars = 0;
    let bad = 0;
    let glyphs = 0;
    const layer = this.layer;
    if (layer) {
      layer.beginShow();
      const r = this.showGlyphs(g, tm, items, layer);
      chars = r.chars;
      bad = r.bad;
      glyphs = r.glyphs;
    } else
      for (const it of items) {
        if (it instanceof Uint8Array) {
          t.chars = 0;
          t.bad = 0;
          t.glyphs = 0;
          t.spaceCodes = 0;
          t.width = 0;
          if (font) font.tally(it, t);
          else {
            // Tf named no usable font: viewers (MuPDF, pdf.js) substitute a default font and decode the bytes with a
            // standard encoding, so the characters count as readable; the page's notes say the font is missing.
            if (!this.missingFontNoted) {
              this.missingFontNoted = true;
              this.notes.push(`text drawn with a font that is not in the resources (${g.fontName || 'none set'}): read with a substitute`);
            }
            for (let i = 0; i < it.length; i++) {
              t.glyphs++;
              if (!isWhite(it[i])) t.chars++;
              else if (it[i] === 32) t.spaceCodes++;
            }
            t.width = it.length * 0.5;
          }
          chars += t.chars;
          bad += t.bad;
          glyphs += t.glyphs;
          const adv = t.width * fs + g.charSpace * t.glyphs + g.wordSpace * t.spaceCodes;
          advanceText(tm, adv, th, vertical);
        } else if (isNumber(it)) {
          const adj = (-it / 1000) * fs;
          advanceText(tm, adj, th, vertical);
        }
      }
    let fe: FontEvidence | undefined;
    if (font) {
      fe = this.fontUse.get(font);
      if (!fe) {
        fe = { name: g.fontName, baseFont: font.baseFont, subtype: font.subtype, decoding: font.decoding, chars: 0 };
        if (font.embedded !== undefined) fe.embedded = font.embedded;
        if (font.toUnicodeState !== undefined) fe.toUnicode = font.toUnicodeState;
        fe.glyphs = 0;
        fe.invisibleChars = 0;
        fe.glyphless = isGlyphlessFont(font.baseFont);
        this.fontUse.set(font, fe);
        if (font.warning && this.notes.length < 20) this.notes.push(`font ${g.fontName} (${font.baseFont || font.subtype}): ${font.warning}`);
      }
      fe.chars += chars;
      fe.glyphs! += glyphs;
    }
    const invisibleMode = g.render === 3 || g.render === 7 || g.fillAlpha === 0;
    if (chars === 0 && !g.fillShading) {
      layer?.endShow(invisibleMode ? 'invisible' : 'visible');
      return;
    }
    const clipMode = g.render >= 4 && g.render <= 7;
    if (invisibleMode && !(clipMode && chars > 0)) {
      this.invisibleChars += chars;
      if (fe) fe.invisibleChars! += chars;
      layer?.endShow('invisible');
      return;
    }
    // Place the run: from the start to the end position in text space, font-size high, through the CTM.
    const m = multiply(tm, g.ctm);
    const dx = tm[4] - x0;
    const dy = tm[5] - y0;
    // start and end points in text space relative to the end matrix: end is (0,0), start is (-dx,-dy) in tm's frame
    const rect = this.runRect(m, tm, dx, dy, fs, g.rise, vertical);
    const v = this.visible;
    if (!rect || rect[2] < v[0] || rect[0] > v[2] || rect[3] < v[1] || rect[1] > v[3]) {
      this.invisibleChars += chars;
      if (fe) fe.invisibleChars! += chars;
      layer?.endShow('clipped');
      return;
    }
    if (invisibleMode) {
      // only clips, for now: invisible unless something is painted through it before the clip is restored
      this.invisibleChars += chars;
      if (fe) fe.invisibleChars! += chars;
      const lr = layer?.endShow('invisible');
      this.addClipText(rect, chars, bad, lr, fe);
      return;
    }
    // Glyphs filled with a smooth shading paint a gradient through their outlines: image-like area, as MuPDF records it.
    const fills = g.render === 0 || g.render === 2 || g.render === 4 || g.render === 6;
    if (g.fillShading && fills) this.addShading(rect, g, g.fillShading);
    const lr = layer?.endShow('visible');
    if (chars === 0) return;
    this.visibleChars += chars;
    this.badChars += bad;
    if (this.runs.length < 200_000) {
      const run: TextRun = { rect, chars, bad, hidden: false };
      if (fe) run.fe = fe;
      if (lr) {
        run.lf = lr[0];
        run.lt = lr[1];
      }
      this.runs.push(run);
    }
  }

  /**
   * The text layer's path through a text-showing operator: code by code, each tallied alone (so the characters add
   * up to what the whole-string tally gives), placed and decoded. Advances `tm` as showText does.
   */
  private showGlyphs(g: GState, tm: Matrix, items: PdfValue[], layer: TextLayerBuilder): { chars: number; bad: number; glyphs: number } {
    const font = g.font;
    const ft = font ? this.ctx.textOf(font) : undefined;
    if (ft?.truncated) layer.noteToUnicodeCut();
    const t = this.tally;
    const fs = g.fontSize;
    const th = g.hScale;
    const rise = g.rise;
    const vertical = font?.vertical ?? false;
    let chars = 0;
    let bad = 0;
    let glyphs = 0;
    // tm's linear part and the CTM stay fixed through the operator: their product (multiply(tm, ctm)) and the size too
    const c = g.ctm;
    const m0 = tm[0] * c[0] + tm[1] * c[2];
    const m1 = tm[0] * c[1] + tm[1] * c[3];
    const m2 = tm[2] * c[0] + tm[3] * c[2];
    const m3 = tm[2] * c[1] + tm[3] * c[3];
    const size = Math.abs(fs) * Math.hypot(m2, m3);
    const rect = glyphRect;
    for (const it of items) {
      if (it instanceof Uint8Array) {
        for (let i = 0; i < it.length;) {
          const len = font ? Math.max(1, font.codeLength(it, i)) : 1;
          const have = Math.min(len, it.length - i);
          let code = 0;
          for (let k = 0; k < have; k++) code = code * 256 + it[i + k];
          t.chars = 0;
          t.bad = 0;
          t.glyphs = 0;
          t.spaceCodes = 0;
          t.width = 0;
          if (font) font.tally(codeBytes(it, i, have), t);
          else {
            if (!this.missingFontNoted) {
              this.missingFontNoted = true;
              this.notes.push(`text drawn with a font that is not in the resources (${g.fontName || 'none set'}): read with a substitute`);
            }
            t.glyphs = 1;
            if (!isWhite(it[i])) t.chars = 1;
            else if (it[i] === 32) t.spaceCodes = 1;
            t.width = 0.5;
          }
          const adv = t.width * fs + g.charSpace * t.glyphs + g.wordSpace * t.spaceCodes;
          const m4 = tm[4] * c[0] + tm[5] * c[2] + c[4];
          const m5 = tm[4] * c[1] + tm[5] * c[3] + c[5];
          let x1: number;
          let y1: number;
          if (vertical) {
            boundsInto(rect, m0, m1, m2, m3, m4, m5, -fs / 2, -adv, fs / 2, 0);
            x1 = m4 - adv * m2;
            y1 = m5 - adv * m3;
          } else {
            const w = adv * th;
            boundsInto(rect, m0, m1, m2, m3, m4, m5, 0, rise - 0.2 * fs, w, rise + 0.8 * fs);
            x1 = w * m0 + rise * m2 + m4;
            y1 = w * m1 + rise * m3 + m5;
          }
          const x0 = rise * m2 + m4;
          const y0 = rise * m3 + m5;
          let text = '';
          if (t.chars > 0) text = (font ? ft?.text(code) : String.fromCharCode(code)) ?? '';
          layer.glyph(text, t.chars, rect, x0, y0, x1, y1, size, g.fontName, th);
          chars += t.chars;
          bad += t.bad;
          glyphs += t.glyphs;
          advanceText(tm, adv, th, vertical);
          i += len;
        }
      } else if (isNumber(it)) {
        const adj = (-it / 1000) * fs;
        advanceText(tm, adj, th, vertical);
      }
    }
    return { chars, bad, glyphs };
  }

  private addClipText(rect: Rect, chars: number, bad: number, lr?: [number, number], fe?: FontEvidence): void {
    const pending = (this.pendingTextClip ??= []);
    if (pending.length < MAX_CLIP_RUNS) {
      const ct: ClipText = { rect, chars, bad, shown: false };
      if (fe) ct.fe = fe;
      if (lr) {
        ct.lf = lr[0];
        ct.lt = lr[1];
      }
      pending.push(ct);
      return;
    }
    const last = pending[pending.length - 1];
    last.rect = [Math.min(last.rect[0], rect[0]), Math.min(last.rect[1], rect[1]), Math.max(last.rect[2], rect[2]), Math.max(last.rect[3], rect[3])];
    if (fe !== last.fe) {
      // merged into the last run: its font's tally takes the characters, so showing the run later moves them back whole
      if (fe) fe.invisibleChars! -= chars;
      if (last.fe) last.fe.invisibleChars! += chars;
    }
    last.chars += chars;
    last.bad += bad;
  }

  /** Something painted over `rect` through the current clip: clip-mode text it meets shows, as visible text. */
  private revealClipText(g: GState, rect: Rect): void {
    for (let node = g.textClip; node; node = node.next) {
      if (node.left === 0) continue;
      this.clipChecks += node.runs.length;
      if (this.clipChecks > MAX_HIDE_CHECKS) {
        if (this.clipChecks - node.runs.length <= MAX_HIDE_CHECKS)
          this.notes.push('too much clip-mode text to check against what is painted through it: the rest stays invisible');
        return;
      }
      for (const run of node.runs) {
        if (run.shown || !intersects(run.rect, rect)) continue;
        run.shown = true;
        node.left--;
        this.invisibleChars -= run.chars;
        this.visibleChars += run.chars;
        this.badChars += run.bad;
        if (run.fe) run.fe.invisibleChars! -= run.chars;
        if (run.lf !== undefined) this.layer?.setVisibility(run.lf, run.lt!, 'visible');
        if (this.runs.length < 200_000)
          this.runs.push({ rect: run.rect, chars: run.chars, bad: run.bad, hidden: false, lf: run.lf, lt: run.lt, fe: run.fe });
      }
    }
  }

  /** The page-space bounds of a text run that ended at text matrix `tm` after moving by (dx, dy) in text-line space. */
  private runRect(m: Matrix, tm: Matrix, dx: number, dy: number, fs: number, rise: number, vertical: boolean): Rect | undefined {
    // Convert the displacement back into the text matrix's own axes: solve tm·(u,v) = (dx,dy).
    const det = tm[0] * tm[3] - tm[1] * tm[2];
    if (det === 0 || !Number.isFinite(det)) return undefined;
    const u = (dx * tm[3] - dy * tm[2]) / det;
    const v = (dy * tm[0] - dx * tm[1]) / det;
    const size = Math.abs(fs) || 1;
    let x0: number;
    let x1: number;
    let y0: number;
    let y1: number;
    if (vertical) {
      x0 = -size / 2;
      x1 = size / 2;
      y0 = Math.min(-v, 0);
      y1 = Math.max(-v, 0);
    } else {
      x0 = Math.min(-u, 0);
      x1 = Math.max(-u, 0);
      y0 = -v + rise - 0.2 * size;
      y1 = -v + rise + 0.8 * size;
    }
    const r = transformRect(m, x0, y0, x1, y1);
    return r.every(Number.isFinite) ? r : undefined;
  }

  // ---- images and forms --------------------------------------------------------------------------------------------

  private doXObject(g: GState, xobjRes: PdfDict | undefined, name: string, resources: PdfDict | undefined, depth: number): void {
    const xo = this.r.resolve(xobjRes?.get(name));
    if (!(xo instanceof PdfStream)) return;
    const subtype = this.r.resolve(xo.dict.get('Subtype'));
    if (subtype === 'Image') {
      this.addImage(g, xo.dict, 'xobject', xo);
    } else if (subtype === 'Form') {
      this.runForm(xo, g.ctm, resources, depth, g.clip, undefined, g.textClip);
    }
  }

  /** Runs a form XObject (or an annotation appearance) with the given CTM already including its placement. */
  private runForm(
    form: PdfStream,
    ctm: Matrix,
    parentRes: PdfDict | undefined,
    depth: number,
    clip: Rect | null,
    placed?: Matrix,
    textClip: ClipTextNode | null = null,
  ): void {
    if (depth + 1 > this.opt.maxFormDepth) {
      this.faults.add('form-depth-exceeded');
      return;
    }
    if (this.activeForms.has(form)) {
      this.notes.push('a form XObject paints itself (cycle skipped)');
      return;
    }
    const mat = placed ?? (numberArray(this.r, form.dict.get('Matrix')) as Matrix | undefined);
    const m = mat && mat.length === 6 ? multiply(mat, ctm) : ctm;
    const resV = this.r.resolve(form.dict.get('Resources'));
    const res = resV instanceof PdfDict ? resV : parentRes;
    this.activeForms.add(form);
    const savedClip = this.formClip;
    const savedTextClip = this.formTextClip;
    // A form paints only inside its /BBox.
    const bb = numberArray(this.r, form.dict.get('BBox'));
    if (bb && bb.length >= 4) {
      const br = transformRect(m, Math.min(bb[0], bb[2]), Math.min(bb[1], bb[3]), Math.max(bb[0], bb[2]), Math.max(bb[1], bb[3]));
      clip = clip ? (clipRect(clip, br) ?? [0, 0, 0, 0]) : br;
    }
    this.formClip = clip;
    this.formTextClip = textClip;
    try {
      this.execute(this.decode(form), res, m, depth + 1);
    } finally {
      this.activeForms.delete(form);
      this.formClip = savedClip;
      this.formTextClip = savedTextClip;
    }
  }

  /** A shading pattern named `name` in the resources, or null (tiling patterns and colours are not images). */
  private shadingPattern(resources: PdfDict | undefined, name: string): PdfDict | null {
    const pv = this.r.resolve(this.subDict(resources, 'Pattern')?.get(name));
    const pd = pv instanceof PdfStream ? pv.dict : pv;
    if (!(pd instanceof PdfDict) || this.r.resolve(pd.get('PatternType')) !== 2) return null;
    const sh = this.r.resolve(pd.get('Shading'));
    const shd = sh instanceof PdfStream ? sh.dict : sh;
    return shd instanceof PdfDict ? shd : null;
  }

  /**
   * A smooth shading paints pixels over `area` (the filled path, or the clip for `sh`), as MuPDF's text device records
   * it: an image block. Shadings are counted as image area so that a page painted only with them is not called blank.
   */
  private addShading(areaRect: Rect, g: GState, shading?: PdfDict): void {
    let r: Rect | undefined = g.clip ? clipRect(areaRect, g.clip) : areaRect;
    if (r && shading) {
      const bb = numberArray(this.r, shading.get('BBox'));
      if (bb && bb.length >= 4)
        r = clipRect(r, transformRect(g.ctm, Math.min(bb[0], bb[2]), Math.min(bb[1], bb[3]), Math.max(bb[0], bb[2]), Math.max(bb[1], bb[3])));
    }
    if (r) r = clipRect(r, this.visible);
    if (!r) return;
    const va = area(this.visible);
    const box: ImageBox = { rect: r, share: va > 0 ? area(r) / va : 0, kind: 'shading' };
    if (this.fromAnnotation) box.fromAnnotation = true;
    if (this.images.length < 10_000) this.images.push(box);
    if (g.textClip) this.revealClipText(g, r);
  }

  private addImage(g: GState, dict: PdfDict, kind: 'xobject' | 'inline', stream?: PdfStream): void {
    const r = this.r;
    const rect0 = transformRect(g.ctm, 0, 0, 1, 1);
    if (!rect0.every(Number.isFinite)) return;
    const rect = clipRect(rect0, this.visible);
    const imageMask = r.resolve(dict.get('ImageMask') ?? dict.get('IM')) === true;
    const w = r.resolve(dict.get('Width') ?? dict.get('W'));
    const h = r.resolve(dict.get('Height') ?? dict.get('H'));
    const f = r.resolve(dict.get('Filter') ?? dict.get('F'));
    const filter = typeof f === 'string' ? f : Array.isArray(f) && typeof f[f.length - 1] === 'string' ? (f[f.length - 1] as string) : undefined;
    if (!rect) return;
    const va = area(this.visible);
    const box: ImageBox = { rect, share: va > 0 ? area(rect) / va : 0, kind };
    if (isNumber(w)) box.width = w;
    if (isNumber(h)) box.height = h;
    if (filter) box.filter = filter;
    if (this.fromAnnotation) box.fromAnnotation = true;
    if (this.images.length < 10_000) this.images.push(box);
    if (this.scanImages && stream && !imageMask && !this.fromAnnotation && isNumber(w) && isNumber(h) && this.scanImages.length < MAX_SCAN_IMAGES)
      this.scanImages.push({ stream, ctm: g.ctm, rect, width: w, height: h, filter });
    // Text painted before, under an opaque image, is hidden (one way OCR tools tuck their layer away).
    const opaque = !imageMask && g.fillAlpha >= 1 && !g.softMask && !dict.has('SMask') && !dict.has('Mask');
    if (opaque && this.runs.length > 0) this.hideRunsUnder(rect);
    // after hiding: an image painted through clip-mode text shows those glyphs rather than covering them
    if (g.textClip) this.revealClipText(g, rect);
  }

  private hideRunsUnder(rect: Rect): void {
    if (this.hideChecks > MAX_HIDE_CHECKS) return;
    this.hideChecks += this.runs.length;
    for (const run of this.runs) {
      if (run.hidden || !contains(rect, run.rect, 1)) continue;
      run.hidden = true;
      if (run.lf !== undefined) this.layer?.setVisibility(run.lf, run.lt!, 'hidden');
      this.visibleChars -= run.chars;
      this.badChars -= run.bad;
      this.invisibleChars += run.chars;
      this.hiddenUnderImage += run.chars;
      if (run.fe) run.fe.invisibleChars! += run.chars;
    }
  }

  /** BI <dict> ID <data> EI: reads the dictionary, skips the data, and places the image. */
  private inlineImage(lexer: Lexer, parser: Parser, g: GState): void {
    const dict = new PdfDict();
    for (let i = 0; i < 1000; i++) {
      const t = lexer.next();
      if (t === EOF) return;
      if (t instanceof Cmd && t.op === 'ID') break;
      if (typeof t !== 'string') continue;
      const v = parser.parseValue(0);
      if (v === EOF) return;
      if (v instanceof Cmd) {
        if (v.op === 'ID') break;
        continue;
      }
      dict.set(t, v);
    }
    const buf = lexer.buf;
    let p = lexer.pos;
    // One whitespace byte separates ID from the data.
    if (p < lexer.end && isWhite(buf[p])) p++;
    const len = this.inlineLength(dict);
    let end = -1;
    if (len !== undefined && p + len <= lexer.end) {
      // Trust the length when EI follows it.
      let q = p + len;
      while (q < lexer.end && isWhite(buf[q])) q++;
      if (buf[q] === 69 && buf[q + 1] === 73 && (q + 2 >= lexer.end || !isRegular(buf[q + 2]))) end = q + 2;
    }
    if (end < 0) end = findEI(buf, p, lexer.end);
    lexer.pos = end;
    this.addImage(g, dict, 'inline');
  }

  /** Byte length of inline image data when it can be known: /L, or unfiltered data from its dimensions. */
  private inlineLength(d: PdfDict): number | undefined {
    const l = d.get('L') ?? d.get('Length');
    if (isNumber(l) && l >= 0) return l;
    if (d.get('F') !== undefined || d.get('Filter') !== undefined) return undefined;
    const w = d.get('W') ?? d.get('Width');
    const h = d.get('H') ?? d.get('Height');
    const bpcV = d.get('BPC') ?? d.get('BitsPerComponent');
    const im = (d.get('IM') ?? d.get('ImageMask')) === true;
    if (!isNumber(w) || !isNumber(h)) return undefined;
    const bpc = im ? 1 : isNumber(bpcV) ? bpcV : 8;
    const cs = d.get('CS') ?? d.get('ColorSpace');
    let comps = 1;
    if (!im) {
      if (cs === 'RGB' || cs === 'DeviceRGB' || cs === 'CalRGB') comps = 3;
      else if (cs === 'CMYK' || cs === 'DeviceCMYK') comps = 4;
      else if (cs === 'G' || cs === 'DeviceGray' || cs === 'CalGray' || Array.isArray(cs)) comps = 1;
      else if (typeof cs === 'string') return undefined; // a named resource colour space: component count unknown here
    }
    return Math.ceil((w * comps * bpc) / 8) * h;
  }

  // ---- annotations -------------------------------------------------------------------------------------------------

  /**
   * A FreeText annotation without an appearance stream still shows its /Contents: viewers (MuPDF, Acrobat) build the
   * appearance from /DA. Its characters count, invisibly when the annotation is fully transparent (/CA 0).
   */
  private freeTextWithoutAppearance(a: PdfDict): void {
    const contents = this.r.resolve(a.get('Contents'));
    if (!(contents instanceof Uint8Array)) return;
    const n = countTextChars(contents.subarray(0, 65536));
    const ca = this.r.resolve(a.get('CA'));
    if (isNumber(ca) && ca === 0) this.invisibleChars += n;
    else this.visibleChars += n;
  }

  private paintAnnotations(): void {
    const annots = this.r.resolve(this.page.dict.get('Annots'));
    if (!Array.isArray(annots)) return;
    for (let i = 0; i < annots.length && i < 10_000; i++) {
      const a = this.r.resolve(annots[i]);
      if (!(a instanceof PdfDict)) continue;
      const flags = this.r.resolve(a.get('F'));
      if (isNumber(flags) && (flags & (2 | 32)) !== 0) continue; // Hidden, NoView
      const subtype = this.r.resolve(a.get('Subtype'));
      if (subtype === 'Popup') continue;
      const ap = this.r.resolve(a.get('AP'));
      if (!(ap instanceof PdfDict)) {
        if (subtype === 'FreeText') this.freeTextWithoutAppearance(a);
        continue;
      }
      let n = this.r.resolve(ap.get('N'));
      if (n instanceof PdfDict) {
        const as = this.r.resolve(a.get('AS'));
        n = typeof as === 'string' ? this.r.resolve(n.get(as)) : undefined;
      }
      if (!(n instanceof PdfStream)) continue;
      const rect = numberArray(this.r, a.get('Rect'));
      if (!rect || rect.length < 4) continue;
      const placement = appearanceMatrix(n, rect, this.r);
      if (!placement) continue;
      this.fromAnnotation = true;
      try {
        this.runForm(n, IDENTITY.slice() as Matrix, this.page.resources, 0, null, placement);
      } catch (e) {
        if (e instanceof LimitHit || e instanceof BudgetExhausted) throw e;
        this.notes.push('an annotation appearance could not be interpreted');
      } finally {
        this.fromAnnotation = false;
      }
    }
  }
}

/** Non-whitespace characters of a text string (PDFDocEncoding or UTF-16), without decoding it fully. */
function countTextChars(bytes: Uint8Array): number {
  let n = 0;
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    for (let i = 2; i + 1 < bytes.length; i += 2) {
      const c = (bytes[i] << 8) | bytes[i + 1];
      if (c > 32 && c !== 0xa0 && !(c >= 0xdc00 && c <= 0xdfff)) n++;
    }
    return n;
  }
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 32 && bytes[i] !== 0xa0) n++;
  return n;
}

/** The matrix that maps an appearance stream onto its annotation's /Rect (ISO 32000-1, 12.5.5): Matrix × A. */
function appearanceMatrix(form: PdfStream, rect: number[], r: Resolver): Matrix | undefined {
  const bbox = numberArray(r, form.dict.get('BBox'));
  if (!bbox || bbox.length < 4) return undefined;
  const mv = numberArray(r, form.dict.get('Matrix'));
  const mat: Matrix = mv && mv.length === 6 ? (mv as Matrix) : [1, 0, 0, 1, 0, 0];
  const tb = transformRect(mat, Math.min(bbox[0], bbox[2]), Math.min(bbox[1], bbox[3]), Math.max(bbox[0], bbox[2]), Math.max(bbox[1], bbox[3]));
  const rx0 = Math.min(rect[0], rect[2]);
  const ry0 = Math.min(rect[1], rect[3]);
  const rw = Math.abs(rect[2] - rect[0]);
  const rh = Math.abs(rect[3] - rect[1]);
  const bw = tb[2] - tb[0];
  const bh = tb[3] - tb[1];
  if (!(bw > 0 && bh > 0)) return undefined;
  const sx = rw / bw;
  const sy = rh / bh;
  const a: Matrix = [sx, 0, 0, sy, rx0 - tb[0] * sx, ry0 - tb[1] * sy];
  return multiply(mat, a);
}

function translate(m: Matrix, tx: number, ty: number): Matrix {
  return [m[0], m[1], m[2], m[3], tx * m[0] + ty * m[2] + m[4], tx * m[1] + ty * m[3] + m[5]];
}

function allNumbers(ops: PdfValue[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (typeof ops[i] !== 'number' || !Number.isFinite(ops[i])) return false;
  return true;
}

/**
 * Finds the end of inline image data when its length is unknown: an `EI` between whitespace (or at the end) that is
 * followed by what looks like content-stream syntax. Binary data can contain "EI", so a candidate must be followed by
 * printable bytes that lex as tokens, not more binary.
 */
function findEI(buf: Uint8Array, from: number, end: number): number {
  let p = from;
  while (p < end) {
    const q = buf.indexOf(69 /* E */, p);
    if (q < 0 || q + 1 >= end) return end;
    p = q + 1;
    if (buf[q + 1] !== 73) continue;
    if (q > from && !isWhite(buf[q - 1])) continue;
    const after = q + 2;
    if (after < end && !isWhite(buf[after])) continue;
    // Check the next bytes look like content: printable ASCII or whitespace.
    let ok = true;
    for (let i = after; i < Math.min(end, after + 48); i++) {
      const c = buf[i];
      if (!(c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127))) {
        ok = false;
        break;
      }
    }
    if (ok) return Math.min(end, after);
  }
  return end;
}
