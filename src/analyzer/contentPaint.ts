/**
 * Painting for the interpreter (content.ts): image XObjects, inline images and smooth shadings placed as image boxes
 * (clipped to the visible page), opaque images hiding text painted before them, and paint revealing clip-mode text.
 */
import type { PageScanner, ScanImage } from './content';
import { area, clipRect, contains, intersects, transformRect } from './geometry';
import type { GState } from './gstate';
import { Cmd, EOF, type Lexer, isRegular, isWhite } from './lexer';
import { PdfDict, PdfStream, isNumber, numberArray } from './objects';
import type { Parser } from './parser';
import type { ImageBox, Rect } from './types';

/** A shading pattern named `name` in the resources, or null (tiling patterns and colours are not images). */
export function shadingPattern(s: PageScanner, resources: PdfDict | undefined, name: string): PdfDict | null {
  const pv = s.r.resolve(s.subDict(resources, 'Pattern')?.get(name));
  const pd = pv instanceof PdfStream ? pv.dict : pv;
  if (!(pd instanceof PdfDict) || s.r.resolve(pd.get('PatternType')) !== 2) return null;
  const sh = s.r.resolve(pd.get('Shading'));
  const shd = sh instanceof PdfStream ? sh.dict : sh;
  return shd instanceof PdfDict ? shd : null;
}

/**
 * A smooth shading paints pixels over `area` (the filled path, or the clip for `sh`), as MuPDF's text device records
 * it: an image block. Shadings are counted as image area so that a page painted only with them is not called blank.
 */
export function addShading(s: PageScanner, areaRect: Rect, g: GState, shading?: PdfDict): void {
  let r: Rect | undefined = g.clip ? clipRect(areaRect, g.clip) : areaRect;
  if (r && shading) {
    const bb = numberArray(s.r, shading.get('BBox'));
    if (bb && bb.length >= 4)
      r = clipRect(r, transformRect(g.ctm, Math.min(bb[0], bb[2]), Math.min(bb[1], bb[3]), Math.max(bb[0], bb[2]), Math.max(bb[1], bb[3])));
  }
  if (r) r = clipRect(r, s.visible);
  if (!r) return;
  const va = area(s.visible);
  const box: ImageBox = { rect: r, share: va > 0 ? area(r) / va : 0, kind: 'shading' };
  if (s.fromAnnotation) box.fromAnnotation = true;
  if (s.images.length < s.opt.maxTrackedImages) s.images.push(box);
  if (g.textClip) revealClipText(s, g, r);
}

export function addImage(s: PageScanner, g: GState, dict: PdfDict, kind: 'xobject' | 'inline', stream?: PdfStream): void {
  const r = s.r;
  const rect0 = transformRect(g.ctm, 0, 0, 1, 1);
  if (!rect0.every(Number.isFinite)) return;
  const rect = clipRect(rect0, s.visible);
  const imageMask = r.resolve(dict.get('ImageMask') ?? dict.get('IM')) === true;
  const w = r.resolve(dict.get('Width') ?? dict.get('W'));
  const h = r.resolve(dict.get('Height') ?? dict.get('H'));
  const filter = lastFilter(r, dict);
  if (!rect) return;
  const va = area(s.visible);
  const box: ImageBox = { rect, share: va > 0 ? area(rect) / va : 0, kind };
  if (isNumber(w)) box.width = w;
  if (isNumber(h)) box.height = h;
  if (filter) box.filter = filter;
  if (s.fromAnnotation) box.fromAnnotation = true;
  if (s.images.length < s.opt.maxTrackedImages) s.images.push(box);
  const scanImages = s.scanImages;
  if (scanImages && stream && !s.fromAnnotation && isNumber(w) && isNumber(h)) {
    if (imageMask) addScanImage(scanImages, s, { stream, ctm: g.ctm, rect, width: w, height: h, filter, mask: 'stencil' });
    else {
      addScanImage(scanImages, s, { stream, ctm: g.ctm, rect, width: w, height: h, filter });
      // the 1-bit masks it is painted through: where a mixed raster page keeps its text. Only an image that covers much
      // of the page has one worth reading (a transparent logo's or icon's mask is never the page's scan): its objects
      // are not even fetched for the others
      if (box.share >= MASK_MIN_SHARE)
        for (const [key, mask] of [
          ['SMask', 'soft'],
          ['Mask', 'stencil'],
        ] as const) {
          const m = r.resolve(dict.get(key));
          // 1-bit only: an 8-bit soft mask is a scan's alpha (a PNG's), not its text; a stencil may leave the depth out
          const bpc = m instanceof PdfStream ? r.resolve(m.dict.get('BitsPerComponent')) : undefined;
          if (!(m instanceof PdfStream) || (bpc !== 1 && !(mask === 'stencil' && bpc === undefined))) continue;
          const mw = r.resolve(m.dict.get('Width'));
          const mh = r.resolve(m.dict.get('Height'));
          if (isNumber(mw) && isNumber(mh))
            addScanImage(scanImages, s, { stream: m, ctm: g.ctm, rect, width: mw, height: mh, filter: lastFilter(r, m.dict), mask });
        }
    }
  }
  // Text painted before, under an opaque image, is hidden (one way OCR tools tuck their layer away).
  const opaque = !imageMask && g.fillAlpha >= 1 && !g.softMask && !dict.has('SMask') && !dict.has('Mask');
  if (opaque && s.runs.length > 0) hideRunsUnder(s, rect);
  // after hiding: an image painted through clip-mode text shows those glyphs rather than covering them
  if (g.textClip) revealClipText(s, g, rect);
}

/** an image's last filter (the one that holds its coding, e.g. DCTDecode), if it names one */
function lastFilter(r: PageScanner['r'], dict: PdfDict): string | undefined {
  const f = r.resolve(dict.get('Filter') ?? dict.get('F'));
  return typeof f === 'string' ? f : Array.isArray(f) && typeof f[f.length - 1] === 'string' ? (f[f.length - 1] as string) : undefined;
}

/** the share of the visible page an image must cover for its masks to be candidates for the page's scan */
const MASK_MIN_SHARE = 0.25;

function addScanImage(list: ScanImage[], s: PageScanner, im: ScanImage): void {
  if (list.length < s.opt.maxScanImagesPerPage) list.push(im);
}

function hideRunsUnder(s: PageScanner, rect: Rect): void {
  const max = s.opt.maxOverlapChecks;
  if (s.hideChecks > max) return;
  s.hideChecks += s.runs.length;
  if (s.hideChecks > max) {
    s.notes.push('too much text to check against the images painted over it: later images hide nothing');
    return;
  }
  for (const run of s.runs) {
    if (run.hidden || !contains(rect, run.rect, 1)) continue;
    run.hidden = true;
    if (run.lf !== undefined) s.layer?.setVisibility(run.lf, run.lt!, 'hidden');
    s.visibleChars -= run.chars;
    s.badChars -= run.bad;
    s.invisibleChars += run.chars;
    s.hiddenUnderImage += run.chars;
    if (run.fe) run.fe.invisibleChars! += run.chars;
  }
}

/** Something painted over `rect` through the current clip: clip-mode text it meets shows, as visible text. */
export function revealClipText(s: PageScanner, g: GState, rect: Rect): void {
  for (let node = g.textClip; node; node = node.next) {
    if (node.left === 0) continue;
    const max = s.opt.maxOverlapChecks;
    s.clipChecks += node.runs.length;
    if (s.clipChecks > max) {
      if (s.clipChecks - node.runs.length <= max)
        s.notes.push('too much clip-mode text to check against what is painted through it: the rest stays invisible');
      return;
    }
    for (const run of node.runs) {
      if (run.shown || !intersects(run.rect, rect)) continue;
      run.shown = true;
      node.left--;
      s.invisibleChars -= run.chars;
      s.visibleChars += run.chars;
      s.badChars += run.bad;
      if (run.fe) run.fe.invisibleChars! -= run.chars;
      if (run.lf !== undefined) s.layer?.setVisibility(run.lf, run.lt!, 'visible');
      if (s.runs.length < s.opt.maxTrackedTextRuns)
        s.runs.push({ rect: run.rect, chars: run.chars, bad: run.bad, hidden: false, lf: run.lf, lt: run.lt, fe: run.fe });
    }
  }
}

/** BI <dict> ID <data> EI: reads the dictionary, skips the data, and places the image. */
export function inlineImage(s: PageScanner, lexer: Lexer, parser: Parser, g: GState): void {
  const dict = new PdfDict();
  for (let i = 0, max = s.opt.maxInlineImageKeys; i < max; i++) {
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
  const len = inlineLength(dict);
  let end = -1;
  let dataEnd = -1;
  if (len !== undefined && p + len <= lexer.end) {
    // Trust the length when EI follows it.
    let q = p + len;
    while (q < lexer.end && isWhite(buf[q])) q++;
    if (buf[q] === 69 && buf[q + 1] === 73 && (q + 2 >= lexer.end || !isRegular(buf[q + 2]))) {
      end = q + 2;
      dataEnd = p + len;
    }
  }
  if (end < 0) {
    end = findEI(buf, p, lexer.end);
    // the data ends before EI and the white space before it
    dataEnd = Math.max(p, end - 2);
    if (dataEnd > p && isWhite(buf[dataEnd - 1])) dataEnd--;
  }
  lexer.pos = end;
  // for the layer-quality score, the data as a stream of its own (not copied; inline data is never encrypted apart from
  // its content stream): a fax program or an old scanner may store a whole page's scan inline
  addImage(s, g, dict, 'inline', s.scanImages ? new PdfStream(dict, buf.subarray(p, dataEnd), undefined) : undefined);
}

/** Byte length of inline image data when it can be known: /L, or unfiltered data from its dimensions. */
function inlineLength(d: PdfDict): number | undefined {
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
