/**
 * TEST ONLY: the forward discrete wavelet transform of JPEG 2000 (ITU-T T.800 | ISO/IEC 15444-1 Annex F, procedures
 * 2D_SD, VER_SD, HOR_SD and 1D_SD with the 1D_EXTD extension), so that test/wavelet.test.ts can round-trip the decoder's
 * src/analyzer/layerQuality/wavelet.ts. Written from Annex F, deliberately plain (one sample at a time, doubles,
 * the extension computed by its formula) and sharing no code with the inverse, so the two do not share a shortcut.
 */

const ALPHA = -1.586134342059924;
const BETA = -0.052980118572961;
const GAMMA = 0.882911075530934;
const DELTA = 0.443506852043971;
const K = 1.230174104914001;

export interface Subbands {
  ll: Float32Array;
  hl: Float32Array;
  lh: Float32Array;
  hh: Float32Array;
}

/** Annex F's PSO: the index inside [i0, i1) whose sample the periodic symmetric extension puts at i. */
function pso(i: number, i0: number, i1: number): number {
  const period = 2 * (i1 - i0 - 1);
  const m = (((i - i0) % period) + period) % period;
  return Math.min(m, period - m) + i0;
}

/** 1D_SD of the signal x (x[0] is sample i0) over [i0, i1): the interleaved subband signal, same indexing. */
export function analyze1d(x: ArrayLike<number>, i0: number, i1: number, reversible: boolean): Float64Array {
  const len = i1 - i0;
  const y = new Float64Array(Math.max(len, 0));
  if (len <= 0) return y;
  if (len === 1) {
    y[0] = i0 % 2 === 0 ? x[0] : 2 * x[0];
    return y;
  }
  // Enough extension that every lifting step that reaches [i0, i1) has both neighbours computed.
  const margin = 6;
  const ext = new Map<number, number>();
  for (let i = i0 - margin; i < i1 + margin; i++) ext.set(i, x[pso(i, i0, i1) - i0]);
  const at = (i: number) => ext.get(i)!;
  const isOdd = (i: number) => ((i % 2) + 2) % 2 === 1;
  // One lifting step: samples of parity `odd` within `shrink` of the extended ends get f(own, left + right).
  const step = (odd: boolean, shrink: number, f: (v: number, s: number) => number) => {
    const next = new Map(ext);
    for (let i = i0 - margin + shrink; i < i1 + margin - shrink; i++) if (isOdd(i) === odd) next.set(i, f(at(i), at(i - 1) + at(i + 1)));
    for (const [i, v] of next) ext.set(i, v);
  };
  if (reversible) {
    step(true, 1, (v, s) => v - Math.floor(s / 2));
    step(false, 2, (v, s) => v + Math.floor((s + 2) / 4));
  } else {
    step(true, 1, (v, s) => v + ALPHA * s);
    step(false, 2, (v, s) => v + BETA * s);
    step(true, 3, (v, s) => v + GAMMA * s);
    step(false, 4, (v, s) => v + DELTA * s);
  }
  for (let i = i0; i < i1; i++) y[i - i0] = isOdd(i) ? (reversible ? at(i) : K * at(i)) : reversible ? at(i) : at(i) / K;
  return y;
}

/**
 * One level of 2D_SD on the (x1−x0)×(y1−y0) row-major region `a` of a level's grid: VER_SD on every column, HOR_SD on
 * every row, then 2D_DEINTERLEAVE by the parity of the absolute coordinates.
 */
export function analyze2d(a: ArrayLike<number>, x0: number, y0: number, x1: number, y1: number, reversible: boolean): Subbands {
  const w = Math.max(x1 - x0, 0);
  const h = Math.max(y1 - y0, 0);
  const t = new Float64Array(w * h);
  for (let i = 0; i < w * h; i++) t[i] = a[i];
  for (let x = 0; x < w; x++) {
    const col: number[] = [];
    for (let y = 0; y < h; y++) col.push(t[y * w + x]);
    const r = analyze1d(col, y0, y1, reversible);
    for (let y = 0; y < h; y++) t[y * w + x] = r[y];
  }
  for (let y = 0; y < h; y++) {
    const r = analyze1d(t.subarray(y * w, (y + 1) * w), x0, x1, reversible);
    t.set(r, y * w);
  }
  const band = (xOdd: number, yOdd: number) => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let x = x0; x < x1; x++) if (((x % 2) + 2) % 2 === xOdd) xs.push(x);
    for (let y = y0; y < y1; y++) if (((y % 2) + 2) % 2 === yOdd) ys.push(y);
    const out = new Float32Array(xs.length * ys.length);
    let k = 0;
    for (const y of ys) for (const x of xs) out[k++] = t[(y - y0) * w + (x - x0)];
    return out;
  };
  return { ll: band(0, 0), hl: band(1, 0), lh: band(0, 1), hh: band(1, 1) };
}
