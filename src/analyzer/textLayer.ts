/**
 * The text layer of a page, collected while the content interpreter runs (only when AnalyzerOptions.textLayer or
 * layerQuality asks for it; nothing here runs otherwise): glyph runs (words) with their boxes and visibility, and
 * the text in reading order.
 *
 * Reading order is content-stream order, as MuPDF's text device (PyMuPDF get_text()) gives it: glyphs follow each
 * other; a space is implied where the next glyph starts more than a fifth of the font size after the previous one
 * ended, and a line break where it leaves the baseline (more than half the font size across it) or jumps back.
 *
 * Bounds: runs kept (maxTextRunsPerPage), text kept (maxTextLayerChars), and the memory both hold is charged to the
 * document's Budget; the first bound hit is recorded in `cut`.
 */
import type { Budget } from './budget';
import type { AnalyzerOptions } from './options';
import type { GlyphRun, GlyphVisibility, Rect, TextLayer } from './types';

/** a word gap, as a share of the font size */
const GAP_SPACE = 0.2;
/** leaving the baseline by more than this share of the font size starts a new line */
const LINE_SHIFT = 0.5;
/** bytes charged per run besides its text (the object, its rect array and strings' headers) */
const RUN_BYTES = 160;
/** charge memory in steps of this many bytes */
const CHARGE_STEP = 64 * 1024;

export class TextLayerBuilder {
  readonly runs: GlyphRun[] = [];
  runCount = 0;
  cut: TextLayer['cut'];
  /** the text so far, without `pending` (appended with += : V8 joins the pieces once, when the text is read) */
  private text = '';
  /** a space or line break not yet appended: it is only written before the next non-space text, so a break can replace a space without rewriting the text */
  private pending = '';
  private textLen = 0;
  private textCut = false;
  private lastChar = 10; // as if after a line break: no leading space
  // the current run, and its text so far
  private cur: GlyphRun | null = null;
  private word = '';
  private curKept = false;
  // where the previous glyph ended, its baseline direction and size
  private hasPrev = false;
  private px = 0;
  private py = 0;
  private ux = 1;
  private uy = 0;
  private psize = 0;
  // the last glyph size seen and its rounding (NaN: none yet; NaN !== NaN, so a NaN size is rounded each time)
  private lastSize = NaN;
  private roundedSize = NaN;
  // the current operator's glyph size in user space, font resource name and horizontal scaling (see style())
  private size = NaN;
  private font = '';
  private hScale = NaN;
  // runs of the current text-showing operator: [showFrom, runs.length)
  private showFrom = 0;
  private uncharged = 0;
  private memoryOut = false;

  constructor(
    private readonly opt: AnalyzerOptions,
    private readonly budget: Budget,
  ) {}

  /** A text-showing operator starts. */
  beginShow(): void {
    this.endRun();
    this.showFrom = this.runs.length;
  }

  /** The glyphs that follow (up to the next call) have this size in user space, font resource name and scaling. */
  style(size: number, font: string, hScale: number): void {
    this.size = size;
    this.font = font;
    this.hScale = hScale;
  }

  /**
   * One glyph of the current style: its text ('' for none), its characters as fonts.ts counts them, and its
   * placement `g`: the box [0..3] and the baseline from (g[4], g[5]) to (g[6], g[7]) in user space. Numbers in an array
   * rather than arguments: a call that is not inlined boxes each number argument, six objects per glyph.
   */
  glyph(text: string, chars: number, g: GlyphPlacement): void {
    const x0 = g[4];
    const y0 = g[5];
    const x1 = g[6];
    const y1 = g[7];
    const size = this.size;
    const space = chars === 0;
    // reading order: gap or line break before this glyph
    if (this.hasPrev) {
      const dx = x0 - this.px;
      const dy = y0 - this.py;
      const along = dx * this.ux + dy * this.uy;
      const across = -dx * this.uy + dy * this.ux;
      const s = Math.max(this.psize, size, 1e-6);
      if (Math.abs(across) > LINE_SHIFT * s || along < -s) {
        this.endRun();
        this.emit('\n');
      } else if (along > GAP_SPACE * s) {
        this.endRun();
        this.emit(' ');
      }
    }
    this.pen(x1, y1, x1 - x0, y1 - y0);
    this.psize = size;
    this.hasPrev = true;
    if (space) {
      this.space();
      return;
    }
    this.add(text === '' ? '\ufffd'.repeat(Math.max(1, chars)) : text, chars, g);
  }

  /**
   * Glyphs of the current style that join the current run, or start one: one glyph from glyph(), or the glyphs of a
   * simple font's string after its first (each starts where the one before ended, so no gap or line break can fall
   * between them). `text` and `chars` are theirs together, up to the next space(), and `box` [0..3] holds the union of
   * their boxes; for a string, its pen() follows.
   */
  add(text: string, chars: number, box: GlyphPlacement): void {
    const cur = this.cur;
    // the size is the same for every glyph of an operator: rounded once
    let rs = this.roundedSize;
    if (this.size !== this.lastSize) {
      rs = this.roundedSize = round3(this.size);
      this.lastSize = this.size;
    }
    if (cur && cur.font === this.font && cur.size === rs) {
      // the run's text grows in `word`; it is written into the run and the page text once, when the run ends
      this.word += text;
      cur.chars += chars;
      const r = cur.rect;
      if (box[0] < r[0]) r[0] = box[0];
      if (box[1] < r[1]) r[1] = box[1];
      if (box[2] > r[2]) r[2] = box[2];
      if (box[3] > r[3]) r[3] = box[3];
      if (this.curKept) this.uncharged += text.length * 2;
      return;
    }
    this.endRun();
    this.word = text;
    const run: GlyphRun = {
      text,
      rect: [box[0], box[1], box[2], box[3]],
      visibility: 'visible',
      font: this.font,
      size: rs,
      hScale: round3(this.hScale),
      chars,
    };
    // the pen's direction is this glyph's (glyph() sets it first); set only on turned runs, so that upright text, nearly
    // all of it, keeps one shape of object and its JSON as it was
    if (Math.abs(this.uy) > Math.abs(this.ux)) run.turned = true;
    this.startRun(run);
  }

  /** A space glyph: the run ends, and a space is written unless one or a line break is already there. */
  space(): void {
    this.endRun();
    this.emit(' ');
  }

  /**
   * Where the pen is: the last glyph's end, and the baseline vector of the last glyph that moved (NaN for none), which
   * the next glyph's gap and line break are read against (glyph() sets it for each glyph, a simple font's string once).
   */
  pen(x: number, y: number, bx: number, by: number): void {
    this.px = x;
    this.py = y;
    // Math.sqrt, not Math.hypot: hypot was the costliest line of glyph() (page coordinates cannot overflow it)
    const len = Math.sqrt(bx * bx + by * by);
    if (len > 1e-9) {
      this.ux = bx / len;
      this.uy = by / len;
    }
  }

  /** A TJ adjustment or string boundary that moved the pen without drawing: a word ends there when the gap is large. */
  gap(): void {
    // the next glyph decides by its position; nothing to do until then
  }

  /** The operator's runs get their visibility; returns the index range of the runs kept, for a later change. */
  endShow(visibility: GlyphVisibility): [number, number] {
    this.endRun();
    const from = this.showFrom;
    const to = this.runs.length;
    for (let i = from; i < to; i++) this.runs[i].visibility = visibility;
    this.showFrom = to;
    return [from, to];
  }

  /** Runs [from, to) were covered by an opaque image painted later, or shown through a clip. */
  setVisibility(from: number, to: number, v: GlyphVisibility): void {
    for (let i = from; i < to && i < this.runs.length; i++) this.runs[i].visibility = v;
  }

  finish(): TextLayer {
    this.endRun();
    if (this.uncharged > 0) this.charge(0, true);
    const layer: TextLayer = { runs: this.runs, runCount: this.runCount, text: this.text.trim() };
    if (this.cut) layer.cut = this.cut;
    return layer;
  }

  /** a ToUnicode map was cut: the text holds U+FFFD past it */
  noteToUnicodeCut(): void {
    this.cut ??= 'tounicode';
  }

  // ---------------------------------------------------------------------------------------------------------------

  private startRun(run: GlyphRun): void {
    this.runCount++;
    this.cur = run;
    this.curKept = false;
    if (this.runs.length >= this.opt.maxTextRunsPerPage) {
      this.cut ??= 'runs';
      return;
    }
    if (this.memoryOut) return;
    if (!this.charge(RUN_BYTES + run.text.length * 2, false)) return;
    this.runs.push(run);
    this.curKept = true;
  }

  /** The current run ends: its text (glyphs appended since it started) goes into the run and the page text. */
  private endRun(): void {
    if (this.cur) {
      this.cur.text = this.word;
      this.emit(this.word);
      this.word = '';
    }
    this.cur = null;
    this.curKept = false;
  }

  private emit(s: string): void {
    if (this.textCut) return;
    const c = s.charCodeAt(s.length - 1);
    const white = s === ' ' || s === '\n';
    if (white) {
      // collapse: no space after a space or a break, a break replaces a trailing space
      if (this.lastChar === 10) return;
      if (this.lastChar === 32) {
        if (s === ' ') return;
        this.pending = '\n';
        this.lastChar = 10;
        return;
      }
    }
    if (this.textLen + s.length > this.opt.maxTextLayerChars) {
      this.textCut = true;
      this.cut ??= 'text';
      return;
    }
    if (white) this.pending = s;
    else {
      if (this.pending !== '') {
        this.text += this.pending;
        this.pending = '';
      }
      this.text += s;
    }
    this.textLen += s.length;
    this.uncharged += s.length * 2 + 16;
    this.lastChar = c;
    if (this.uncharged >= CHARGE_STEP) this.charge(0, true);
  }

  /** charges `bytes` (plus what is pending when `flush`); false once the document's memory would be passed */
  private charge(bytes: number, flush: boolean): boolean {
    this.uncharged += bytes;
    if (!flush && this.uncharged < CHARGE_STEP) return true;
    if (this.memoryOut) return false;
    if (!this.budget.tryCharge(this.uncharged, 'content')) {
      this.memoryOut = true;
      this.cut ??= 'memory';
      this.textCut = true;
      return false;
    }
    this.uncharged = 0;
    return true;
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** A glyph's box and baseline, as TextLayerBuilder.glyph reads them: [box x0, y0, x1, y1, baseline x0, y0, x1, y1]. */
export type GlyphPlacement = Float64Array;

/** Bounds of the rectangle [x0, y0, x1, y1] mapped through [a b c d e f], written into out[0..3] (no allocation per glyph). */
export function boundsInto(
  out: Rect | GlyphPlacement,
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): void {
  const ax = a * x0 + c * y0 + e;
  const ay = b * x0 + d * y0 + f;
  const bx = a * x1 + c * y0 + e;
  const by = b * x1 + d * y0 + f;
  const cx = a * x0 + c * y1 + e;
  const cy = b * x0 + d * y1 + f;
  const dx = a * x1 + c * y1 + e;
  const dy = b * x1 + d * y1 + f;
  out[0] = Math.min(ax, bx, cx, dx);
  out[1] = Math.min(ay, by, cy, dy);
  out[2] = Math.max(ax, bx, cx, dx);
  out[3] = Math.max(ay, by, cy, dy);
}
