/**
 * The inverse discrete wavelet transform of JPEG 2000 for the JPXDecode reader: one level of two-dimensional subband
 * reconstruction (ITU-T T.800 | ISO/IEC 15444-1 Annex F, procedure 2D_SR: interleave, HOR_SR, then VER_SR), each
 * line through 1D_SR with the periodic symmetric extension of 1D_EXTR and the lifting of 1D_FILTR: the reversible 5-3
 * integer filter and the irreversible 9-7 filter with Annex F's lifting parameters.
 *
 * Written from Annex F's description of the procedures. Pure, no platform imports (it runs in browsers too).
 *
 * Speed: a scanned page is ~10^7 samples a level. The horizontal pass lifts one row at a time in a scratch line that
 * stays in L1; the vertical pass lifts whole rows of the output in place, all lifting steps pipelined down the image,
 * so the image goes through the cache about once a pass and every inner loop runs over contiguous memory.
 */

// Annex F's lifting parameters of the irreversible 9-7 filter (Table F.4).
const ALPHA = -1.586134342059924;
const BETA = -0.052980118572961;
const GAMMA = 0.882911075530934;
const DELTA = 0.443506852043971;
const K = 1.230174104914001;

/** Samples of extension each side: the most 1D_EXTR asks for (the 9-7 filter at an odd start or even end). */
const PAD = 4;
/** Beyond this, coordinates are garbage; refusing them keeps the parity arithmetic in int32. */
const MAX_COORD = 2 ** 30;

let scratch: Float32Array = new Float32Array(0);

/**
 * One level of 2-D synthesis (Annex F 2D_SR): the four subbands of resolution level r interleaved and filtered into the
 * region [x0, x1) × [y0, y1) of level r (coordinates in that level's tile-component grid; their parity decides which
 * samples are low-pass, so x0/y0 may be odd). Band sizes: LL and LH are (ceil(x1/2) − ceil(x0/2)) wide, HL and HH
 * (floor(x1/2) − floor(x0/2)) wide; LL and HL are (ceil(y1/2) − ceil(y0/2)) tall, LH and HH (floor(y1/2) − floor(y0/2)) tall. All arrays row-major, tightly packed.
 * `reversible`: the 5/3 integer filter (values are integers in and out); otherwise 9/7.
 * Returns the (x1−x0)×(y1−y0) result in `out` (allocated if not given or too small). Never throws.
 */
export function synthesize(
  ll: Float32Array,
  hl: Float32Array,
  lh: Float32Array,
  hh: Float32Array,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  reversible: boolean,
  out?: Float32Array,
): Float32Array {
  const bad = !(Math.abs(x0) <= MAX_COORD && Math.abs(y0) <= MAX_COORD && Math.abs(x1) <= MAX_COORD && Math.abs(y1) <= MAX_COORD);
  x0 = bad ? 0 : Math.floor(x0);
  y0 = bad ? 0 : Math.floor(y0);
  x1 = bad ? 0 : Math.floor(x1);
  y1 = bad ? 0 : Math.floor(y1);
  const w = x1 - x0;
  const h = y1 - y0;
  const n = w > 0 && h > 0 ? w * h : 0;
  if (!out || out.length < n) out = allocate(n);
  // an image too large to allocate comes back empty rather than as an exception: the caller sees out.length < n
  if (n === 0 || out.length < n) return out;
  // the horizontal pass's extended line, then the vertical pass's extension rows
  const need = Math.max(w + 2 * PAD, 2 * PAD * w);
  if (scratch.length < need) scratch = allocate(need);
  if (scratch.length < need) return out.fill(0, 0, n);
  horizontal(ll, hl, lh, hh, x0, y0, x1, y1, reversible, out, scratch);
  vertical(x0, y0, x1, y1, reversible, out, scratch);
  return out;
}

function allocate(n: number): Float32Array {
  try {
    return new Float32Array(n);
  } catch {
    return new Float32Array(0);
  }
}

/**
 * HOR_SR, with 2D_INTERLEAVE folded in: each row is assembled from its low band (LL or LH) and high band (HL or HH)
 * into the scratch line, extended, lifted, and copied out.
 */
function horizontal(
  ll: Float32Array,
  hl: Float32Array,
  lh: Float32Array,
  hh: Float32Array,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  reversible: boolean,
  out: Float32Array,
  b: Float32Array,
): void {
  const w = x1 - x0;
  const nL = ((x1 + 1) >> 1) - ((x0 + 1) >> 1);
  const nH = (x1 >> 1) - (x0 >> 1);
  const odd0 = x0 & 1;
  const odd1 = x1 & 1;
  // rows of even y come from LL/HL, odd y from LH/HH; these are the band rows of the region's first such row
  const firstLowRow = (y0 + 1) >> 1;
  const firstHighRow = y0 >> 1;
  // The 9-7 filter's steps 1 and 2 (× K on even samples, × 1/K on odd ones) are done here, in the copy: exact, since the
  // extension maps even indices to even ones. The vertical pass's steps 1 and 2 are folded in too (the horizontal
  // filter is linear), except for a single row, which VER_SR passes through unfiltered.
  const vertical = !reversible && y1 - y0 > 1;
  if (w === 1) {
    // 1D_SR of a one-sample signal: a low-pass sample passes, a high-pass one is halved (its analysis doubled it)
    for (let y = y0; y < y1; y++) {
      const even = (y & 1) === 0;
      const row = even ? (y >> 1) - firstLowRow : (y >> 1) - firstHighRow;
      const sV = vertical ? (even ? K : 1 / K) : 1;
      out[y - y0] = sV * (odd0 === 0 ? (even ? ll : lh)[row * nL] : half((even ? hl : hh)[row * nH], reversible));
    }
    return;
  }
  const pL = PAD + odd0;
  const pH = PAD + 1 - odd0;
  const period = 2 * (w - 1);
  for (let y = y0; y < y1; y++) {
    const even = (y & 1) === 0;
    const row = even ? (y >> 1) - firstLowRow : (y >> 1) - firstHighRow;
    const low = even ? ll : lh;
    const high = even ? hl : hh;
    const sV = vertical ? (even ? K : 1 / K) : 1;
    const sL = reversible ? 1 : K * sV;
    const sH = reversible ? 1 : sV / K;
    for (let k = 0, src = row * nL, dst = pL; k < nL; k++, src++, dst += 2) b[dst] = low[src] * sL;
    for (let k = 0, src = row * nH, dst = pH; k < nH; k++, src++, dst += 2) b[dst] = high[src] * sH;
    // 1D_EXTR: PAD samples each side, mirrored through the end samples (which are not repeated); more than the 5-3
    // filter reads, which leaves its result unchanged
    for (let p = 0; p < 2 * PAD; p++) {
      const d = p < PAD ? p - PAD : w + p - PAD;
      let m = d % period;
      if (m < 0) m += period;
      b[PAD + d] = b[PAD + (m < w ? m : period - m)];
    }
    // 1D_FILTR. Line p holds sample x0 − PAD + p, so p is even exactly where the sample index has the parity of x0 (PAD
    // is even); e and f are the lines of 2⌊x0/2⌋ and 2⌊x1/2⌋, which bound Annex F's ranges of n:
    // 5-3: X(2n) = Y(2n) − ⌊(Y(2n−1) + Y(2n+1) + 2)/4⌋ for ⌊i0/2⌋ ≤ n < ⌊i1/2⌋ + 1,
    //      X(2n+1) = Y(2n+1) + ⌊(X(2n) + X(2n+2))/2⌋ for ⌊i0/2⌋ ≤ n < ⌊i1/2⌋;
    // 9-7: steps 3 to 6, δ on the even samples of ⌊i0/2⌋ − 1 ≤ n < ⌊i1/2⌋ + 2, γ on the odd of ⌊i0/2⌋ − 1 ≤ n < ⌊i1/2⌋ + 1,
    //      β on the even of ⌊i0/2⌋ ≤ n < ⌊i1/2⌋ + 1, α on the odd of ⌊i0/2⌋ ≤ n < ⌊i1/2⌋.
    const e = PAD - odd0;
    const f = PAD + w - odd1;
    if (reversible) lineStep53(b, e, f);
    else lineStep97(b, e, f);
    out.set(b.subarray(PAD, PAD + w), (y - y0) * w);
  }
}

function lineStep53(b: Float32Array, e: number, f: number): void {
  for (let p = e; p <= f; p += 2) b[p] -= Math.floor((b[p - 1] + b[p + 1] + 2) / 4);
  for (let p = e + 1; p < f; p += 2) b[p] += Math.floor((b[p - 1] + b[p + 1]) / 2);
}

/**
 * The four 9-7 steps in one sweep: at even line p, δ at p, then γ at p − 1, β at p − 2 and α at p − 3, whose inputs
 * are all final by then; the line's values pass along in locals, rounded to float32 (Math.fround) exactly where the
 * step-by-step version stores them, so the result is the same to the bit. The first two sweeps also write β and α
 * below e (from zeros standing in for the steps not yet run): those lines are extension, never read again.
 */
function lineStep97(b: Float32Array, e: number, f: number): void {
  const fr = Math.fround;
  let odd = b[e - 1];
  let d = fr(b[e - 2] - DELTA * (b[e - 3] + odd));
  let g = 0;
  let be = 0;
  for (let p = e; p <= f + 2; p += 2) {
    const nextOdd = b[p + 1];
    const dn = fr(b[p] - DELTA * (odd + nextOdd));
    const gn = fr(odd - GAMMA * (d + dn));
    const bn = fr(d - BETA * (g + gn));
    b[p - 2] = bn;
    b[p - 3] = fr(g - ALPHA * (be + bn));
    odd = nextOdd;
    d = dn;
    g = gn;
    be = bn;
  }
}

/** a one-sample high-pass signal's sample halved: in integers toward zero for the 5-3 filter, as OpenJPEG does */
const half = (v: number, reversible: boolean): number => (reversible ? Math.trunc(v / 2) : v / 2);

/**
 * VER_SR in place in `out`, whole rows at a time. Line p (0 ≤ p < h + 2·PAD) is sample y0 − PAD + p of every column:
 * lines PAD … PAD+h−1 are the rows of `out`, the 2·PAD extension lines live in `ext`. The lifting steps run as a
 * pipeline down the image (step s at line q − s while step 1 is at line q), so each row is lifted by all steps while
 * it is still in cache instead of the image being swept once a step.
 */
function vertical(x0: number, y0: number, x1: number, y1: number, reversible: boolean, out: Float32Array, ext: Float32Array): void {
  const w = x1 - x0;
  const h = y1 - y0;
  if (h === 1) {
    // see the one-sample case of horizontal()
    if ((y0 & 1) !== 0) for (let i = 0; i < w; i++) out[i] = half(out[i], reversible);
    return;
  }
  // 1D_EXTR, of rows already scaled by steps 1 and 2 (see horizontal())
  const period = 2 * (h - 1);
  for (let p = 0; p < 2 * PAD; p++) {
    const d = p < PAD ? p - PAD : h + p - PAD;
    let m = d % period;
    if (m < 0) m += period;
    const from = (m < h ? m : period - m) * w;
    for (let x = 0, dst = p * w; x < w; x++) ext[dst++] = out[from + x];
  }
  // the ranges of horizontal(), in lines of this pass
  const e = PAD - (y0 & 1);
  const f = PAD + h - (y1 & 1);
  if (reversible) {
    for (let q = e; q <= f + 1; q += 2) {
      if (q <= f && q - 1 > e && q - 2 >= PAD && q + 1 < PAD + h) {
        rowSteps53(out, w, (q - PAD) * w);
        continue;
      }
      if (q <= f) rowStep53(out, ext, w, h, q, true);
      if (q - 1 > e && q - 1 < f) rowStep53(out, ext, w, h, q - 1, false);
    }
  } else {
    for (let q = e - 2; q <= f + 5; q += 2) {
      // away from the ends all four steps apply and all their lines are rows of `out`: one loop does them
      if (q >= e + 4 && q <= f + 2 && q - 4 >= PAD && q + 1 < PAD + h) {
        rowSteps97(out, w, (q - PAD) * w);
        continue;
      }
      if (q <= f + 2) rowStep97(out, ext, w, h, q, -DELTA);
      if (q - 1 >= e - 1 && q - 1 <= f + 1) rowStep97(out, ext, w, h, q - 1, -GAMMA);
      if (q - 2 >= e && q - 2 <= f) rowStep97(out, ext, w, h, q - 2, -BETA);
      if (q - 3 >= e + 1 && q - 3 < f) rowStep97(out, ext, w, h, q - 3, -ALPHA);
    }
  }
}

/**
 * The four 9-7 steps of vertical()'s pipeline at line q (whose row starts at `t` in `out`) in one loop: δ at q, γ at
 * q − 1, β at q − 2, α at q − 3, each column's values in locals (rounded to float32 as the row steps store them), so
 * a sample is loaded and stored once instead of once a step.
 */
function rowSteps97(out: Float32Array, w: number, t: number): void {
  const fr = Math.fround;
  for (let x = 0, q = t; x < w; x++, q++) {
    const odd = out[q - w];
    const d2 = out[q - 2 * w];
    const g3 = out[q - 3 * w];
    const d = fr(out[q] + -DELTA * (odd + out[q + w]));
    const g = fr(odd + -GAMMA * (d2 + d));
    const b = fr(d2 + -BETA * (g3 + g));
    out[q] = d;
    out[q - w] = g;
    out[q - 2 * w] = b;
    out[q - 3 * w] = fr(g3 + -ALPHA * (out[q - 4 * w] + b));
  }
}

/** 9-7 lifting of line p of the vertical pass: line p += weight · (line p−1 + line p+1). */
function rowStep97(out: Float32Array, ext: Float32Array, w: number, h: number, p: number, weight: number): void {
  const t = lineOf(out, ext, h, p);
  const a = lineOf(out, ext, h, p - 1);
  const c = lineOf(out, ext, h, p + 1);
  const to = lineAt(w, h, p);
  const ao = lineAt(w, h, p - 1);
  const co = lineAt(w, h, p + 1);
  for (let x = 0; x < w; x++) t[to + x] += weight * (a[ao + x] + c[co + x]);
}

/** The two 5-3 steps of vertical()'s pipeline at line q (row at `t` in `out`) in one loop: even at q, odd at q − 1. */
function rowSteps53(out: Float32Array, w: number, t: number): void {
  const fr = Math.fround;
  for (let x = 0, q = t; x < w; x++, q++) {
    const e = fr(out[q] - Math.floor((out[q - w] + out[q + w] + 2) / 4));
    out[q] = e;
    out[q - w] = fr(out[q - w] + Math.floor((out[q - 2 * w] + e) / 2));
  }
}

/** 5-3 lifting of line p of the vertical pass: the even (`even`) or the odd step, as in horizontal(). */
function rowStep53(out: Float32Array, ext: Float32Array, w: number, h: number, p: number, even: boolean): void {
  const t = lineOf(out, ext, h, p);
  const a = lineOf(out, ext, h, p - 1);
  const c = lineOf(out, ext, h, p + 1);
  const to = lineAt(w, h, p);
  const ao = lineAt(w, h, p - 1);
  const co = lineAt(w, h, p + 1);
  if (even) for (let x = 0; x < w; x++) t[to + x] -= Math.floor((a[ao + x] + c[co + x] + 2) / 4);
  else for (let x = 0; x < w; x++) t[to + x] += Math.floor((a[ao + x] + c[co + x]) / 2);
}

function lineOf(out: Float32Array, ext: Float32Array, h: number, p: number): Float32Array {
  return p < PAD || p >= PAD + h ? ext : out;
}

function lineAt(w: number, h: number, p: number): number {
  return (p < PAD ? p : p >= PAD + h ? p - h : p - PAD) * w;
}
