/**
 * Forms for the interpreter (content.ts): Form XObjects run inside their /BBox with their own resources, and
 * annotation appearances placed on their /Rect (ISO 32000-1, 8.10 and 12.5.5); cycles and depth are bounded.
 */
import { BudgetExhausted } from './budget';
import type { PageScanner } from './content';
import { addImage } from './contentPaint';
import { type Matrix, IDENTITY, clipRect, multiply, transformRect } from './geometry';
import { type ClipTextNode, type GState, LimitHit } from './gstate';
import { PdfDict, PdfStream, type Resolver, isNumber, numberArray } from './objects';
import type { Rect } from './types';

export function doXObject(
  s: PageScanner,
  g: GState,
  xobjRes: PdfDict | undefined,
  name: string,
  resources: PdfDict | undefined,
  depth: number,
): void {
  const xo = s.r.resolve(xobjRes?.get(name));
  if (!(xo instanceof PdfStream)) return;
  const subtype = s.r.resolve(xo.dict.get('Subtype'));
  if (subtype === 'Image') addImage(s, g, xo.dict, 'xobject', xo);
  else if (subtype === 'Form') runForm(s, xo, g.ctm, resources, depth, g.clip, undefined, g.textClip);
}

/** Runs a form XObject (or an annotation appearance) with the given CTM already including its placement. */
function runForm(
  s: PageScanner,
  form: PdfStream,
  ctm: Matrix,
  parentRes: PdfDict | undefined,
  depth: number,
  clip: Rect | null,
  placed?: Matrix,
  textClip: ClipTextNode | null = null,
): void {
  if (depth + 1 > s.opt.maxFormDepth) {
    s.faults.add('form-depth-exceeded');
    return;
  }
  if (s.activeForms.has(form)) {
    s.notes.push('a form XObject paints itself (cycle skipped)');
    return;
  }
  const mat = placed ?? (numberArray(s.r, form.dict.get('Matrix')) as Matrix | undefined);
  const m = mat && mat.length === 6 ? multiply(mat, ctm) : ctm;
  const resV = s.r.resolve(form.dict.get('Resources'));
  const res = resV instanceof PdfDict ? resV : parentRes;
  s.activeForms.add(form);
  const savedClip = s.formClip;
  const savedTextClip = s.formTextClip;
  // A form paints only inside its /BBox.
  const bb = numberArray(s.r, form.dict.get('BBox'));
  if (bb && bb.length >= 4) {
    const br = transformRect(m, Math.min(bb[0], bb[2]), Math.min(bb[1], bb[3]), Math.max(bb[0], bb[2]), Math.max(bb[1], bb[3]));
    clip = clip ? (clipRect(clip, br) ?? [0, 0, 0, 0]) : br;
  }
  s.formClip = clip;
  s.formTextClip = textClip;
  try {
    s.execute(s.decode(form), res, m, depth + 1);
  } finally {
    s.activeForms.delete(form);
    s.formClip = savedClip;
    s.formTextClip = savedTextClip;
  }
}

/**
 * A FreeText annotation without an appearance stream still shows its /Contents: viewers (MuPDF, Acrobat) build the
 * appearance from /DA. Its characters count, invisibly when the annotation is fully transparent (/CA 0).
 */
function freeTextWithoutAppearance(s: PageScanner, a: PdfDict): void {
  const contents = s.r.resolve(a.get('Contents'));
  if (!(contents instanceof Uint8Array)) return;
  const n = countTextChars(contents.subarray(0, s.opt.maxFreeTextBytes));
  const ca = s.r.resolve(a.get('CA'));
  if (isNumber(ca) && ca === 0) s.invisibleChars += n;
  else s.visibleChars += n;
}

/** Paints the page's annotations that show (not Hidden, not NoView, not popups) through their normal appearance. */
export function paintAnnotations(s: PageScanner): void {
  const r = s.r;
  const annots = r.resolve(s.page.dict.get('Annots'));
  if (!Array.isArray(annots)) return;
  for (let i = 0, max = Math.min(annots.length, s.opt.maxAnnotationsPerPage); i < max; i++) {
    const a = r.resolve(annots[i]);
    if (!(a instanceof PdfDict)) continue;
    const flags = r.resolve(a.get('F'));
    if (isNumber(flags) && (flags & (2 | 32)) !== 0) continue; // Hidden, NoView
    const subtype = r.resolve(a.get('Subtype'));
    if (subtype === 'Popup') continue;
    const ap = r.resolve(a.get('AP'));
    if (!(ap instanceof PdfDict)) {
      if (subtype === 'FreeText') freeTextWithoutAppearance(s, a);
      continue;
    }
    let n = r.resolve(ap.get('N'));
    if (n instanceof PdfDict) {
      const as = r.resolve(a.get('AS'));
      n = typeof as === 'string' ? r.resolve(n.get(as)) : undefined;
    }
    if (!(n instanceof PdfStream)) continue;
    const rect = numberArray(r, a.get('Rect'));
    if (!rect || rect.length < 4) continue;
    const placement = appearanceMatrix(n, rect, r);
    if (!placement) continue;
    s.fromAnnotation = true;
    try {
      runForm(s, n, IDENTITY.slice() as Matrix, s.page.resources, 0, null, placement);
    } catch (e) {
      if (e instanceof LimitHit || e instanceof BudgetExhausted) throw e;
      s.notes.push('an annotation appearance could not be interpreted');
    } finally {
      s.fromAnnotation = false;
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
