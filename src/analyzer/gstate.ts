/**
 * The interpreter's state: the graphics state (with the text state it carries, ISO 32000-1 8.4 and 9.3), the
 * text-space arithmetic, and the records of text placed on the page that later painting can hide or reveal.
 */
import type { LoadedFont } from './fonts';
import type { Matrix } from './geometry';
import type { PdfDict, PdfValue } from './objects';
import type { FontEvidence, Rect, RouteReason } from './types';

/** The text state parameters (9.3): part of the graphics state, saved and restored with it by q/Q. */
export interface TextState {
  font: LoadedFont | null;
  /** the resource name given to Tf ('' before any Tf) */
  fontName: string;
  fontSize: number;
  charSpace: number;
  wordSpace: number;
  /** horizontal scaling as a factor (Tz / 100) */
  hScale: number;
  leading: number;
  rise: number;
  render: number;
}

export interface GState {
  ctm: Matrix;
  text: TextState;
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
export interface ClipText {
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
export interface ClipTextNode {
  runs: ClipText[];
  /** runs not yet shown */
  left: number;
  next: ClipTextNode | null;
}

/** A run of visible text placed on the page, kept so a later opaque image can hide it. */
export interface TextRun {
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

/** The state a content stream starts in (a form's inherits the clip of the state that painted it). */
export function initialState(ctm: Matrix, clip: Rect | null, textClip: ClipTextNode | null): GState {
  return {
    ctm,
    text: { font: null, fontName: '', fontSize: 0, charSpace: 0, wordSpace: 0, hScale: 1, leading: 0, rise: 0, render: 0 },
    fillAlpha: 1,
    softMask: false,
    clip,
    fillShading: null,
    textClip,
  };
}

/** For q: `ctm` and `clip` are replaced, never changed in place, so the copy shares them; the text state is copied. */
export function cloneState(g: GState): GState {
  const t = g.text;
  return {
    ctm: g.ctm,
    text: {
      font: t.font,
      fontName: t.fontName,
      fontSize: t.fontSize,
      charSpace: t.charSpace,
      wordSpace: t.wordSpace,
      hScale: t.hScale,
      leading: t.leading,
      rise: t.rise,
      render: t.render,
    },
    fillAlpha: g.fillAlpha,
    softMask: g.softMask,
    clip: g.clip,
    fillShading: g.fillShading,
    textClip: g.textClip,
  };
}

/** Moves the text matrix `d` text-space units along the writing direction (horizontal scaling applies across only). */
export function advanceText(tm: Matrix, d: number, th: number, vertical: boolean): void {
  if (vertical) {
    tm[4] -= d * tm[2];
    tm[5] -= d * tm[3];
  } else {
    tm[4] += d * th * tm[0];
    tm[5] += d * th * tm[1];
  }
}

/** `m` moved by (tx, ty) in its own space: the new line matrix of Td, TD, T*. */
export function translate(m: Matrix, tx: number, ty: number): Matrix {
  return [m[0], m[1], m[2], m[3], tx * m[0] + ty * m[2] + m[4], tx * m[1] + ty * m[3] + m[5]];
}

export function allNumbers(ops: PdfValue[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (typeof ops[i] !== 'number' || !Number.isFinite(ops[i])) return false;
  return true;
}

/** A page limit hit inside the interpreter: unwinds to the page's scan, which records the reason as a fault. */
export class LimitHit extends Error {
  constructor(readonly reason: RouteReason) {
    super(reason);
  }
}
