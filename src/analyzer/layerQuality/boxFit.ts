/**
 * How the layer's words fit their boxes: an OCR engine fits each word to the box it found on the scan, so a word that
 * is not the box's, or has lost or gained letters, stretches or squeezes (widthSpread, boxSlack, boxOverflow). Pure.
 */
import type { GlyphRun } from '../types';
import { codePointAt } from './chars';
import { median, medianScratch } from './median';
import { emWidth } from './widths';

/** words of 2+ characters boxFit measures at most (the first ones: a sample enough for a median and the tails) */
export const SPREAD_WORDS = 4000;

/** how the words fit their boxes (boxFit) */
export interface BoxFit {
  /** widthSpread: the typical misfit */
  spread: number;
  /** boxSlack: characters' worth of box beyond the words' letters, a share of the layer's characters */
  slack: number;
  /** boxOverflow: characters' worth of letters beyond what their boxes hold, a share of the layer's characters */
  overflow: number;
}

/**
 * How the words fit their boxes, under the better fitting of two typefaces: a proportional one (widths.ts: an "ill"
 * narrower than an "mmm") and one of fixed pitch (every character as wide: a typewriter, Courier, a code listing).
 * - `spread`: the median absolute deviation of ln(width / (expected width × size)) over words of 3+ characters. A right
 *   layer fits one of the typefaces closely whatever the scan's print; words that are not the box's, or that lost or
 *   gained letters, fit neither.
 * - `slack` and `overflow`: the misfit's tails, which the median does not see, counted in characters. A word of n
 *   characters whose box is q times as wide as the page's typical word of its letters needs (`tail` < q) holds
 *   n·(q − 1) characters more than the word has: letters the engine dropped, a row of dots or dashes it read short,
 *   words it glued; (q < 1 / `tail`) n·(1 − q) characters more than the box holds: letters it added. Words of 2+
 *   characters (one character's box tells nothing: Tesseract's renderer spreads a word and its space over the box);
 *   shares of all the characters walked. On every split the tails follow the error the rest of the estimate misses
 *   (docs/layer-quality-notes.md).
 */
export function boxFit(runs: GlyphRun[], tail: number): BoxFit {
  const cap = Math.min(runs.length, SPREAD_WORDS);
  // one scratch, two parts: per word of 2+ characters, its fit under each typeface and its characters; then the 3+
  // character words' fits, whose medians (sorted in place) are the page's typical fit
  const scratch = medianScratch(5 * cap);
  const words = scratch.subarray(0, 3 * cap);
  const xs = scratch.subarray(3 * cap);
  let k = 0;
  let j = 0;
  let chars = 0;
  for (const r of runs) {
    if (k >= cap) break;
    if (!(r.size > 0)) continue;
    // the word's characters and their expected width in ems (widths.ts), in one walk of its code points
    const t = r.text;
    let n = 0;
    let ems = 0;
    for (let i = 0; i < t.length; n++) {
      const c = codePointAt(t, i, t.length);
      ems += emWidth(c);
      i += c > 0xffff ? 2 : 1;
    }
    chars += n;
    if (n < 2) continue;
    const w = runLength(r);
    if (!(w > 0)) continue;
    const p = Math.log(w / (ems * r.size));
    const f = Math.log(w / (n * r.size));
    // a box or a size out of all proportion (a hostile file's: a box e^20 times its letters, a size that overflows the
    // ratio) is no word's fit; bounded, the tails' sums stay finite
    if (!(Math.abs(p) < MAX_LN_FIT && Math.abs(f) < MAX_LN_FIT)) continue;
    words[k] = p;
    words[cap + k] = f;
    words[2 * cap + k++] = n;
    if (n < 3) continue;
    xs[j] = p;
    xs[cap + j++] = f;
  }
  if (j < 5) return { spread: 0, slack: 0, overflow: 0 };
  const mp = median(xs.subarray(0, j));
  const mf = median(xs.subarray(cap, cap + j));
  const dp = deviation(xs.subarray(0, j), mp);
  const df = deviation(xs.subarray(cap, cap + j), mf);
  const fixed = df < dp;
  const centre = fixed ? mf : mp;
  const at = fixed ? cap : 0;
  let slack = 0;
  let overflow = 0;
  for (let i = 0; i < k; i++) {
    const q = Math.exp(words[at + i] - centre);
    const n = words[2 * cap + i];
    if (q > tail) slack += n * (q - 1);
    else if (q * tail < 1) overflow += n * (1 - q);
  }
  return { spread: Math.min(dp, df), slack: slack / chars, overflow: overflow / chars };
}

/** the largest ln(width / expected width) boxFit takes for a word's fit (e^20: no print is that far off its box) */
const MAX_LN_FIT = 20;

/** the median absolute deviation of v about its median `med` (v reordered and overwritten) */
function deviation(v: Float64Array, med: number): number {
  for (let i = 0; i < v.length; i++) v[i] = Math.abs(v[i] - med);
  return median(v);
}

/**
 * A run's length along its baseline, from its box: the box's width, or its height when the text runs up or down the
 * page (a landscape table on a portrait page, a rotated label). A glyph box is one font size across its baseline, so a
 * run turned by 90° is exactly its size wide (ACROSS_EXACT): on such a table the widths were the glyphs' height, and
 * every word read as squeezed to a tenth of its letters (widthSpread 0.3–0.4, re-OCR advised on born-digital pages).
 * OCR layers' boxes are only about their size tall (a word's box 3 % off), so nothing looser tells the two apart.
 */
function runLength(r: GlyphRun): number {
  const w = r.rect[2] - r.rect[0];
  const h = r.rect[3] - r.rect[1];
  const across = Math.abs(w - r.size);
  return across <= ACROSS_EXACT * r.size && Math.abs(h - r.size) > across ? h : w;
}

/** how near its size a turned run's width is (the size is rounded to 3 decimals, the box computed in floating point) */
const ACROSS_EXACT = 0.005;
