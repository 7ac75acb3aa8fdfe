/**
 * Text showing for the interpreter (content.ts): Tj, TJ, ' and " tally their codes through the font, advance the text
 * matrix, place the run on the page and book its characters as visible, invisible, clipped, or clip-mode text that a
 * later paint can reveal. With the text layer on, the same path runs code by code and records each glyph.
 */
import type { PageScanner } from './content';
import { isGlyphlessFont, simpleFontTables } from './fonts';
import { addShading } from './contentPaint';
import { type Matrix, multiply, transformRect } from './geometry';
import { type ClipText, type GState, type TextRun, advanceText } from './gstate';
import { isWhite } from './lexer';
import { type PdfValue, isNumber } from './objects';
import { type GlyphPlacement, type TextLayerBuilder, boundsInto } from './textLayer';
import type { FontEvidence, Rect } from './types';

/** the text layer's scratch glyph box and baseline (TextLayerBuilder.glyph copies what it keeps) */
const glyphAt: GlyphPlacement = new Float64Array(8);
/** the union of a word's glyph boxes after a string's first glyph (TextLayerBuilder.add copies what it keeps) */
const wordBox: GlyphPlacement = new Float64Array(4);

/** Shows strings (and TJ adjustments), advancing `tm` in place, and books the characters as visible or invisible. */
export function showText(s: PageScanner, g: GState, tm: Matrix, items: PdfValue[]): void {
  const ts = g.text;
  const font = ts.font;
  // Text shown before any Tf has no font at all: viewers skip it (MuPDF: "cannot draw text since font and size not set").
  if (!font && ts.fontName === '') return;
  const t = s.tally;
  const fs = ts.fontSize;
  const th = ts.hScale;
  const vertical = font?.vertical ?? false;
  // Extent of the run in text space, starting at the current text position.
  const x0 = tm[4];
  const y0 = tm[5];
  let chars = 0;
  let bad = 0;
  let glyphs = 0;
  const layer = s.layer;
  if (layer) {
    layer.beginShow();
    const r = showGlyphs(s, g, tm, items, layer);
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
          noteMissingFont(s, g);
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
        const adv = t.width * fs + ts.charSpace * t.glyphs + ts.wordSpace * t.spaceCodes;
        advanceText(tm, adv, th, vertical);
      } else if (isNumber(it)) {
        const adj = (-it / 1000) * fs;
        advanceText(tm, adj, th, vertical);
      }
    }
  let fe: FontEvidence | undefined;
  if (font) {
    fe = s.fontUse.get(font);
    if (!fe) {
      fe = { name: ts.fontName, baseFont: font.baseFont, subtype: font.subtype, decoding: font.decoding, chars: 0 };
      if (font.embedded !== undefined) fe.embedded = font.embedded;
      if (font.toUnicodeState !== undefined) fe.toUnicode = font.toUnicodeState;
      fe.glyphs = 0;
      fe.invisibleChars = 0;
      fe.glyphless = isGlyphlessFont(font.baseFont);
      s.fontUse.set(font, fe);
      if (font.warning && s.notes.length < 20) s.notes.push(`font ${ts.fontName} (${font.baseFont || font.subtype}): ${font.warning}`);
    }
    fe.chars += chars;
    fe.glyphs! += glyphs;
  }
  const invisibleMode = ts.render === 3 || ts.render === 7 || g.fillAlpha === 0;
  if (chars === 0 && !g.fillShading) {
    layer?.endShow(invisibleMode ? 'invisible' : 'visible');
    return;
  }
  const clipMode = ts.render >= 4 && ts.render <= 7;
  if (invisibleMode && !(clipMode && chars > 0)) {
    s.invisibleChars += chars;
    if (fe) fe.invisibleChars! += chars;
    layer?.endShow('invisible');
    return;
  }
  // Place the run: from the start to the end position in text space, font-size high, through the CTM.
  const m = multiply(tm, g.ctm);
  const dx = tm[4] - x0;
  const dy = tm[5] - y0;
  // start and end points in text space relative to the end matrix: end is (0,0), start is (-dx,-dy) in tm's frame
  const rect = runRect(m, tm, dx, dy, fs, ts.rise, vertical);
  const v = s.visible;
  if (!rect || rect[2] < v[0] || rect[0] > v[2] || rect[3] < v[1] || rect[1] > v[3]) {
    s.invisibleChars += chars;
    if (fe) fe.invisibleChars! += chars;
    layer?.endShow('clipped');
    return;
  }
  if (invisibleMode) {
    // only clips, for now: invisible unless something is painted through it before the clip is restored
    s.invisibleChars += chars;
    if (fe) fe.invisibleChars! += chars;
    const lr = layer?.endShow('invisible');
    addClipText(s, rect, chars, bad, lr, fe);
    return;
  }
  // Glyphs filled with a smooth shading paint a gradient through their outlines: image-like area, as MuPDF records it.
  const fills = ts.render === 0 || ts.render === 2 || ts.render === 4 || ts.render === 6;
  if (g.fillShading && fills) addShading(s, rect, g, g.fillShading);
  const lr = layer?.endShow('visible');
  if (chars === 0) return;
  s.visibleChars += chars;
  s.badChars += bad;
  if (s.runs.length < s.opt.maxTrackedTextRuns) {
    const run: TextRun = { rect, chars, bad, hidden: false };
    if (fe) run.fe = fe;
    if (lr) {
      run.lf = lr[0];
      run.lt = lr[1];
    }
    s.runs.push(run);
  }
}

function noteMissingFont(s: PageScanner, g: GState): void {
  if (s.missingFontNoted) return;
  s.missingFontNoted = true;
  s.notes.push(`text drawn with a font that is not in the resources (${g.text.fontName || 'none set'}): read with a substitute`);
}

/**
 * The text layer's path through a text-showing operator: code by code, each tallied alone (so the characters add
 * up to what the whole-string tally gives), placed and decoded. Advances `tm` as showText does.
 */
function showGlyphs(
  s: PageScanner,
  g: GState,
  tm: Matrix,
  items: PdfValue[],
  layer: TextLayerBuilder,
): { chars: number; bad: number; glyphs: number } {
  const ts = g.text;
  const font = ts.font;
  const ft = font ? s.ctx.textOf(font) : undefined;
  if (ft?.truncated) layer.noteToUnicodeCut();
  const t = s.tally;
  const fs = ts.fontSize;
  const th = ts.hScale;
  const rise = ts.rise;
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
  // Math.sqrt, not Math.hypot: hypot was the costliest line of a short operator's path (a matrix cannot overflow it)
  const size = Math.abs(fs) * Math.sqrt(m2 * m2 + m3 * m3);
  const at = glyphAt;
  layer.style(size, ts.fontName, th);
  const simple = font && !vertical ? simpleFontTables(font) : undefined;
  for (const it of items) {
    if (it instanceof Uint8Array && simple) {
      // a simple font's codes are single bytes: its tables read in place, with the same arithmetic as below
      const cc = simple.chars;
      const bb = simple.bad;
      const ww = simple.widths;
      const cs = ts.charSpace;
      const ws = ts.wordSpace;
      const yLo = rise - 0.2 * fs;
      const yHi = rise + 0.8 * fs;
      const r2 = rise * m2;
      const r3 = rise * m3;
      // the glyphs after the first, word by word (see TextLayerBuilder.add): their text, characters and box so far
      let wt = '';
      let wc = 0;
      const wb = wordBox;
      // where the last glyph ended, and the baseline of the last that moved (NaN: none yet)
      let ex = 0;
      let ey = 0;
      let dx = NaN;
      let dy = NaN;
      for (let i = 0; i < it.length; i++) {
        const k = it[i];
        const nc = cc[k];
        // (0 + width): the tally's sum, which turns a width of -0 into 0
        const adv = (0 + ww[k]) * fs + cs + ws * (k === 32 ? 1 : 0);
        const m4 = tm[4] * c[0] + tm[5] * c[2] + c[4];
        const m5 = tm[4] * c[1] + tm[5] * c[3] + c[5];
        const w = adv * th;
        if (i === 0) {
          boundsInto(at, m0, m1, m2, m3, m4, m5, 0, yLo, w, yHi);
          at[4] = r2 + m4;
          at[5] = r3 + m5;
          at[6] = w * m0 + r2 + m4;
          at[7] = w * m1 + r3 + m5;
          layer.glyph(nc > 0 ? (ft?.text(k) ?? '') : '', nc, at);
        } else {
          // the same start and end as glyph() is given above
          const sx = r2 + m4;
          const sy = r3 + m5;
          ex = w * m0 + r2 + m4;
          ey = w * m1 + r3 + m5;
          const bx = ex - sx;
          const by = ey - sy;
          // glyph() takes a baseline longer than 1e-9 as the direction: the same up to rounding at 1e-9 itself
          if (bx * bx + by * by > 1e-18) {
            dx = bx;
            dy = by;
          }
          if (nc === 0) {
            if (wc > 0) {
              layer.add(wt, wc, wb);
              wt = '';
              wc = 0;
            }
            layer.space();
          } else {
            boundsInto(at, m0, m1, m2, m3, m4, m5, 0, yLo, w, yHi);
            if (wc === 0) {
              wb[0] = at[0];
              wb[1] = at[1];
              wb[2] = at[2];
              wb[3] = at[3];
            } else {
              if (at[0] < wb[0]) wb[0] = at[0];
              if (at[1] < wb[1]) wb[1] = at[1];
              if (at[2] > wb[2]) wb[2] = at[2];
              if (at[3] > wb[3]) wb[3] = at[3];
            }
            const tx = ft?.text(k) ?? '';
            wt += tx === '' ? '\ufffd'.repeat(nc) : tx;
            wc += nc;
          }
        }
        chars += nc;
        bad += bb[k];
        glyphs++;
        // advanceText(tm, adv, th, false) written out (the same products): V8 had no inlining budget left for the call
        tm[4] += adv * th * tm[0];
        tm[5] += adv * th * tm[1];
      }
      if (it.length > 1) {
        if (wc > 0) layer.add(wt, wc, wb);
        layer.pen(ex, ey, dx, dy);
      }
    } else if (it instanceof Uint8Array) {
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
        if (font) font.tallyCode(it, i, have, t);
        else {
          noteMissingFont(s, g);
          t.glyphs = 1;
          if (!isWhite(it[i])) t.chars = 1;
          else if (it[i] === 32) t.spaceCodes = 1;
          t.width = 0.5;
        }
        const adv = t.width * fs + ts.charSpace * t.glyphs + ts.wordSpace * t.spaceCodes;
        const m4 = tm[4] * c[0] + tm[5] * c[2] + c[4];
        const m5 = tm[4] * c[1] + tm[5] * c[3] + c[5];
        let x1: number;
        let y1: number;
        if (vertical) {
          boundsInto(at, m0, m1, m2, m3, m4, m5, -fs / 2, -adv, fs / 2, 0);
          x1 = m4 - adv * m2;
          y1 = m5 - adv * m3;
        } else {
          const w = adv * th;
          boundsInto(at, m0, m1, m2, m3, m4, m5, 0, rise - 0.2 * fs, w, rise + 0.8 * fs);
          x1 = w * m0 + rise * m2 + m4;
          y1 = w * m1 + rise * m3 + m5;
        }
        const x0 = rise * m2 + m4;
        const y0 = rise * m3 + m5;
        let text = '';
        if (t.chars > 0) text = (font ? ft?.text(code) : String.fromCharCode(code)) ?? '';
        at[4] = x0;
        at[5] = y0;
        at[6] = x1;
        at[7] = y1;
        layer.glyph(text, t.chars, at);
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

/** Clip-mode text of the current text object: it joins the clip at ET. */
function addClipText(s: PageScanner, rect: Rect, chars: number, bad: number, lr?: [number, number], fe?: FontEvidence): void {
  const pending = (s.pendingTextClip ??= []);
  if (pending.length < s.opt.maxClipRunsPerTextObject) {
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

/** The page-space bounds of a text run that ended at text matrix `tm` after moving by (dx, dy) in text-line space. */
function runRect(m: Matrix, tm: Matrix, dx: number, dy: number, fs: number, rise: number, vertical: boolean): Rect | undefined {
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
