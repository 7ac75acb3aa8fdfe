/**
 * The content-stream interpreter: runs a page's content (and the forms and annotation appearances it paints)
 * far enough to count characters drawn visibly and invisibly, to place images, and to count vector painting.
 * It never rasterises: it follows the graphics state (q/Q, cm), the text state and matrices, and XObjects.
 */
import { type Budget, BudgetExhausted } from './budget';
import { doXObject, paintAnnotations } from './contentForms';
import { addShading, inlineImage, revealClipText, shadingPattern } from './contentPaint';
import { showText } from './contentText';
import type { PageNode } from './document';
import { FontCache, type LoadedFont, type TextTally } from './fonts';
import { type Matrix, IDENTITY, area, clipRect, multiply, unionArea } from './geometry';
import { type ClipText, type ClipTextNode, type GState, LimitHit, type TextRun, allNumbers, cloneState, initialState, translate } from './gstate';
import { ARRAY_START, Cmd, DICT_START, EOF, Lexer } from './lexer';
import { PdfDict, PdfStream, type PdfValue, type Resolver, isNumber } from './objects';
import { OPERANDS, Op } from './operators';
import { type AnalyzerOptions, buildsTextLayer } from './options';
import { Parser } from './parser';
import { TextLayerBuilder } from './textLayer';
import { type FontText, ToUnicodeTextReader, fontText } from './textLayerFonts';
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
  /** image XObjects painted by the page content (the first few), when options.layerQuality asks for them */
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
  /**
   * a 1-bit mask of what an image paints, not an image of the page itself: the /SMask (1 = painted) or stencil /Mask of
   * a painted image, or an /ImageMask image (0 = painted, unless /Decode inverts). Mixed raster scans (Internet Archive,
   * DjVu conversions, MRC compressors) keep the page's text there, at full resolution, over a coarse background image.
   */
  mask?: 'soft' | 'stencil';
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
    // with the text layer on, a font's ToUnicode text is read from the tokens the font's loading lexes
    this.fonts = new FontCache(r, budget, options.fontCacheBytes, buildsTextLayer(options) ? () => new ToUnicodeTextReader(budget) : undefined);
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
      ft = fontText(d, this.r, this.budget, this.fonts);
      if (!this.budget.tryCharge(ft.bytes, 'fonts')) ft = UNKNOWN_TEXT;
      map.set(font, ft);
    }
    return ft;
  }
  textOf(font: LoadedFont): FontText | undefined {
    return this.fontTexts?.get(font);
  }
}

const UNKNOWN_TEXT: FontText = { bytes: 0, truncated: true, text: () => undefined };

export function scanPage(page: PageNode, ctx: ScanContext): PageScan {
  const s = new PageScanner(page, ctx);
  return s.run();
}

/**
 * One page's interpretation. Its fields are the page's tallies and the state that outlives one content stream; the
 * operator loop lives here, text showing in contentText.ts, images and shadings in contentPaint.ts, forms and
 * annotations in contentForms.ts (functions of the scanner, so the hot loop stays one monomorphic class).
 */
export class PageScanner {
  readonly r: Resolver;
  readonly opt: AnalyzerOptions;
  readonly visible: Rect;
  visibleChars = 0;
  invisibleChars = 0;
  hiddenUnderImage = 0;
  badChars = 0;
  vectorOps = 0;
  operators = 0;
  private bytesDecoded = 0;
  hideChecks = 0;
  readonly fontUse = new Map<LoadedFont, FontEvidence>();
  readonly images: ImageBox[] = [];
  readonly runs: TextRun[] = [];
  readonly faults = new Set<RouteReason>();
  readonly notes: string[] = [];
  readonly activeForms = new Set<PdfStream>();
  private readonly limitsNoted = new Set<string>();
  fromAnnotation = false;
  missingFontNoted = false;
  /** clip inherited by a form from the state that painted it */
  formClip: Rect | null = null;
  formTextClip: ClipTextNode | null = null;
  clipChecks = 0;
  /** clip-mode text of the current text object: it joins the clip at ET */
  pendingTextClip: ClipText[] | null = null;
  readonly tally: TextTally = { chars: 0, bad: 0, glyphs: 0, spaceCodes: 0, width: 0 };
  /** the text layer being collected, or null (the default: no per-glyph work at all) */
  readonly layer: TextLayerBuilder | null;
  readonly scanImages: ScanImage[] | undefined;

  constructor(
    readonly page: PageNode,
    readonly ctx: ScanContext,
  ) {
    this.r = ctx.r;
    this.opt = ctx.options;
    this.visible = page.cropBox;
    this.layer = buildsTextLayer(ctx.options) ? new TextLayerBuilder(ctx.options, ctx.budget) : null;
    this.scanImages = ctx.options.layerQuality ? [] : undefined;
  }

  run(): PageScan {
    try {
      const contents = this.r.resolve(this.page.dict.get('Contents'));
      const data = this.contentBytes(contents);
      this.execute(data, this.page.resources, IDENTITY.slice() as Matrix, 0);
      paintAnnotations(this);
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

  /** A content stream's bytes, within the page's decoded-bytes limit; a cut or damaged stream is noted, never hidden. */
  decode(s: PdfStream): Uint8Array {
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

  // ---- the operator loop -----------------------------------------------------------------------------------------

  /** Runs one content stream (the page's, a form's or an appearance's) from a fresh state at `ctm`. */
  execute(data: Uint8Array, resources: PdfDict | undefined, ctm: Matrix, depth: number): void {
    const lexer = new Lexer(data, 0, data.length, this.opt);
    const parser = new Parser(lexer, undefined, this.opt);
    const ops: PdfValue[] = [];
    let g: GState = initialState(ctm, this.formClip, this.formTextClip);
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
      if (fill && g.fillShading && has) addShading(this, [px0, py0, px1, py1], g);
      else if (fill && has && g.textClip) revealClipText(this, g, [px0, py0, px1, py1]);
      if (pendingClip) {
        const r: Rect = has ? [px0, py0, px1, py1] : [0, 0, 0, 0];
        g.clip = g.clip ? (clipRect(g.clip, r) ?? [0, 0, 0, 0]) : r;
        pendingClip = false;
      }
      px0 = py0 = Infinity;
      px1 = py1 = -Infinity;
    };
    const stack: GState[] = [];
    // the text object's matrices (9.4.2): not part of the graphics state, reset by BT
    let tm: Matrix = [1, 0, 0, 1, 0, 0];
    let tlm: Matrix = [1, 0, 0, 1, 0, 0];
    const fontRes = this.subDict(resources, 'Font');
    let xobjRes: PdfDict | undefined | null = null; // looked up on first use
    const budget = this.ctx.budget;
    const maxOps = this.opt.maxOpsPerPage;
    const maxOperands = this.opt.maxOperands;
    const maxSaveDepth = this.opt.maxSaveDepth;
    // Operands count towards the clock too: a stream of megabytes of numbers has no operator to check it at.
    let tokens = 0;

    for (;;) {
      const tok = lexer.next();
      if (tok === EOF) break;
      if ((++tokens & 16383) === 0 && budget.outOfTime('content')) throw new LimitHit('budget-exceeded');
      if (!(tok instanceof Cmd)) {
        if (ops.length < maxOperands) ops.push(tok);
        else this.noteLimit('operands');
        continue;
      }
      if (tok === ARRAY_START || tok === DICT_START) {
        const v = parser.fromToken(tok, 0);
        if (ops.length < maxOperands && !(v instanceof Cmd) && v !== EOF) ops.push(v);
        else if (ops.length >= maxOperands) this.noteLimit('operands');
        continue;
      }
      if ((++this.operators & 4095) === 0) {
        if (this.operators > maxOps) throw new LimitHit('too-many-operators');
        if (budget.outOfTime('content')) throw new LimitHit('budget-exceeded');
      }
      const code = tok.code;
      const n = ops.length;
      // an operator short of operands is skipped whole (operators.ts); Op.None needs none and does nothing
      if (code === Op.None || n < OPERANDS[code]) {
        ops.length = 0;
        continue;
      }
      const ts = g.text;
      switch (code) {
        // graphics state
        case Op.Save:
          if (stack.length < maxSaveDepth) stack.push(cloneState(g));
          else this.noteLimit('save');
          break;
        case Op.Restore:
          if (stack.length > 0) g = stack.pop()!;
          break;
        case Op.Concat:
          if (allNumbers(ops, n - 6, n)) g.ctm = multiply(ops.slice(n - 6, n) as Matrix, g.ctm);
          break;
        case Op.ExtGState:
          if (typeof ops[n - 1] === 'string') this.extGState(g, resources, ops[n - 1] as string);
          break;
        // text objects and state
        case Op.BeginText:
          tm = [1, 0, 0, 1, 0, 0];
          tlm = [1, 0, 0, 1, 0, 0];
          this.pendingTextClip = null;
          break;
        case Op.EndText:
          {
            // the glyphs shown in a clipping mode join the clip when the text object ends
            const pend = this.pendingTextClip as ClipText[] | null;
            if (pend) {
              g.textClip = { runs: pend, left: pend.length, next: g.textClip };
              this.pendingTextClip = null;
            }
          }
          break;
        case Op.SetFont:
          {
            const name = ops[n - 2];
            const size = ops[n - 1];
            if (isNumber(size)) ts.fontSize = size;
            if (typeof name === 'string') {
              ts.fontName = name;
              ts.font = this.lookupFont(fontRes, name);
            }
          }
          break;
        case Op.CharSpace:
          if (isNumber(ops[n - 1])) ts.charSpace = ops[n - 1] as number;
          break;
        case Op.WordSpace:
          if (isNumber(ops[n - 1])) ts.wordSpace = ops[n - 1] as number;
          break;
        case Op.HScale:
          if (isNumber(ops[n - 1])) ts.hScale = (ops[n - 1] as number) / 100;
          break;
        case Op.Leading:
          if (isNumber(ops[n - 1])) ts.leading = ops[n - 1] as number;
          break;
        case Op.Rise:
          if (isNumber(ops[n - 1])) ts.rise = ops[n - 1] as number;
          break;
        case Op.RenderMode:
          if (isNumber(ops[n - 1])) ts.render = ops[n - 1] as number;
          break;
        case Op.MoveText:
          if (isNumber(ops[n - 2]) && isNumber(ops[n - 1])) {
            tlm = translate(tlm, ops[n - 2] as number, ops[n - 1] as number);
            tm = tlm.slice() as Matrix;
          }
          break;
        case Op.MoveTextLeading:
          if (isNumber(ops[n - 2]) && isNumber(ops[n - 1])) {
            ts.leading = -(ops[n - 1] as number);
            tlm = translate(tlm, ops[n - 2] as number, ops[n - 1] as number);
            tm = tlm.slice() as Matrix;
          }
          break;
        case Op.TextMatrix:
          if (allNumbers(ops, n - 6, n)) {
            tlm = ops.slice(n - 6, n) as Matrix;
            tm = tlm.slice() as Matrix;
          }
          break;
        case Op.NextLine:
          tlm = translate(tlm, 0, -ts.leading);
          tm = tlm.slice() as Matrix;
          break;
        case Op.ShowText:
          if (ops[n - 1] instanceof Uint8Array) showText(this, g, tm, [ops[n - 1]]);
          break;
        case Op.ShowTextArray:
          if (Array.isArray(ops[n - 1])) showText(this, g, tm, ops[n - 1] as PdfValue[]);
          break;
        case Op.NextLineShow:
          tlm = translate(tlm, 0, -ts.leading);
          tm = tlm.slice() as Matrix;
          if (n >= 1 && ops[n - 1] instanceof Uint8Array) showText(this, g, tm, [ops[n - 1]]);
          break;
        case Op.NextLineSpacingShow:
          if (isNumber(ops[n - 3])) ts.wordSpace = ops[n - 3] as number;
          if (isNumber(ops[n - 2])) ts.charSpace = ops[n - 2] as number;
          tlm = translate(tlm, 0, -ts.leading);
          tm = tlm.slice() as Matrix;
          if (ops[n - 1] instanceof Uint8Array) showText(this, g, tm, [ops[n - 1]]);
          break;
        // paths
        case Op.MoveTo:
        case Op.LineTo:
          if (isNumber(ops[n - 2]) && isNumber(ops[n - 1])) addPoint(ops[n - 2] as number, ops[n - 1] as number);
          break;
        case Op.CurveTo:
          if (allNumbers(ops, n - 6, n)) for (let k = n - 6; k < n; k += 2) addPoint(ops[k] as number, ops[k + 1] as number);
          break;
        case Op.CurveToV:
        case Op.CurveToY:
          if (allNumbers(ops, n - 4, n)) for (let k = n - 4; k < n; k += 2) addPoint(ops[k] as number, ops[k + 1] as number);
          break;
        case Op.Rectangle:
          if (allNumbers(ops, n - 4, n)) {
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
        // clipping and painting
        case Op.Clip:
          pendingClip = true;
          break;
        case Op.EndPath:
          endPath(false);
          break;
        case Op.Stroke:
          this.vectorOps++;
          endPath(false);
          break;
        case Op.Fill:
          this.vectorOps++;
          endPath(true);
          break;
        case Op.Shade:
          this.vectorOps++;
          if (n >= 1 && typeof ops[n - 1] === 'string') {
            const sd = this.r.resolve(this.subDict(resources, 'Shading')?.get(ops[n - 1] as string));
            const shd = sd instanceof PdfStream ? sd.dict : sd;
            if (shd instanceof PdfDict) addShading(this, g.clip ?? this.visible, g, shd);
          }
          break;
        // fill colour: only whether it is a shading pattern matters
        case Op.FillSpace:
        case Op.FillColour:
          g.fillShading = null;
          break;
        case Op.FillPattern:
          g.fillShading = n >= 1 && typeof ops[n - 1] === 'string' ? shadingPattern(this, resources, ops[n - 1] as string) : null;
          break;
        // images and forms
        case Op.PaintXObject:
          if (typeof ops[n - 1] === 'string') {
            if (xobjRes === null) xobjRes = this.subDict(resources, 'XObject');
            doXObject(this, g, xobjRes, ops[n - 1] as string, resources, depth);
          }
          break;
        case Op.InlineImage:
          inlineImage(this, lexer, parser, g);
          break;
      }
      ops.length = 0;
    }
    this.pendingTextClip = outerPending;
  }

  /** A note, once per page and kind, that a bound of the interpreter dropped something (never silently). */
  private noteLimit(kind: 'operands' | 'save'): void {
    if (this.limitsNoted.has(kind)) return;
    this.limitsNoted.add(kind);
    this.notes.push(
      kind === 'operands'
        ? `more than ${this.opt.maxOperands} operands before one operator: the rest were dropped (maxOperands)`
        : `q nested deeper than ${this.opt.maxSaveDepth}: the deeper states were not saved (maxSaveDepth)`,
    );
  }

  subDict(resources: PdfDict | undefined, key: string): PdfDict | undefined {
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
        g.text.font = this.ctx.font(fd);
        if (this.layer) this.ctx.fontText(g.text.font, fd);
      }
      if (isNumber(size)) g.text.fontSize = size;
    }
  }
}
