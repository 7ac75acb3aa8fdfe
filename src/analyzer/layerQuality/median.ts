/**
 * The median of per-page values (the words' fits to their boxes, the boxes' heights), over one scratch array shared by
 * the passes that take one: a typed array made per page cost more than the median of a small page's words. Pure.
 */

/** per-word values a median is taken of (boxFit's fits, box heights), grown as needed: at most 5 × SPREAD_WORDS (boxFit.ts) */
let medianValues = new Float64Array(64);

/**
 * A scratch of at least n values for a median (one at a time: each user takes its median before the next asks). A
 * typed array made per page cost more than the median of a small page's words.
 */
export function medianScratch(n: number): Float64Array {
  if (medianValues.length < n) medianValues = new Float64Array(Math.max(n, 2 * medianValues.length));
  return medianValues;
}

/** below this many values an insertion sort: a typed array's sort costs a call into the runtime, more than a small page's words */
const SMALL_SORT = 32;

/** the median of xs (sorts xs in place) */
export function median(xs: Float64Array): number {
  if (xs.length > SMALL_SORT || !sortSmall(xs)) xs.sort();
  const m = xs.length >> 1;
  return xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
}

/**
 * Sorts a few values in place as the typed array's sort would (its order but for −0 beside 0, which the median's
 * arithmetic cannot tell apart); false, with xs in some order, on a NaN, which only that sort places.
 */
function sortSmall(xs: Float64Array): boolean {
  for (let i = 1; i < xs.length; i++) {
    const v = xs[i];
    if (v !== v) return false;
    let j = i - 1;
    while (j >= 0 && xs[j] > v) {
      xs[j + 1] = xs[j];
      j--;
    }
    xs[j + 1] = v;
  }
  return xs.length === 0 || xs[0] === xs[0];
}
