/**
 * Where the scan has ink, and how the layer's word boxes sit on it. The scan's luminance (jpeg.ts; in practice its
 * block means, an eighth of its size) is read as ink darkness: how far a sample falls below the paper level, less a
 * noise margin. At that scale a line of text is one to three samples high and no sample is solid black, so ink is a
 * weight, not a yes/no. A summed-area table of the weights answers "how much ink inside this box" in constant time.
 * Pure; the map holds width × height × 6 bytes (the summed-area table, the weights and the luminance).
 */
import type { Matrix } from '../geometry';
import type { Rect } from '../types';
import type { GrayImage } from './jpeg';

export interface InkMap {
  width: number;
  height: number;
  /** summed-area table of ink weights, (width + 1) × (height + 1) */
  sat: Int32Array;
  /** ink weight of each sample, 0 (paper) .. 255 */
  ink: Uint8Array;
  /** the image's luminance samples (0 = black): what lies next to a blob of ink, to tell the rim of a shaded area */
  gray: Uint8Array;
  /** ink weight of the whole image */
  total: number;
  /** paper and ink levels found, and whether they differ enough to tell ink at all */
  paper: number;
  dark: number;
  /** what each sample's darkness was multiplied by to make its weight: 1, or more on a scan of faint print (FAINT) */
  stretch: number;
  /** page space → pixel: col = a·x + b·y + c, row = d·x + e·y + f */
  map: [number, number, number, number, number, number];
}

/**
 * ink must be at least this much darker than paper (of 255) for the map to mean anything. In block means, faint print
 * (printed or scanned at a sixth of full contrast, thin type at 100 dpi) is 10–15 darker than its paper; a blank
 * page's grain stays within 2 (the corpus's near-blank scans, the stand-ins' paper) and a solid fill within 0.
 */
const MIN_CONTRAST = 8;
/**
 * a page whose ink is less than this much darker than its paper is faint print: its darkness is stretched to this
 * range, so that its text is ink to the map's tests as a normal page's is (their thresholds are darkness levels, and
 * at a sixth of full contrast a line of text in block means is hardly past them); the noise margin is taken first, so
 * grain is not stretched into ink
 */
const FAINT = 32;

/** Builds the ink map of an image placed by `ctm` (unit square → page). undefined when the image holds no contrast. */
export function inkMap(img: GrayImage, ctm: Matrix): InkMap | undefined {
  const { width: w, height: h, data } = img;
  if (w * h > 8_000_000) return undefined;
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  const n = data.length;
  // paper: the 75th percentile (a text page is mostly paper, even in block means); dark: the 0.5th percentile.
  // The margin keeps paper grain out of the ink: nothing on a page is lighter than paper but grain, so the spread
  // above the paper level measures it.
  const paper = percentile(hist, n, 0.75);
  const dark = percentile(hist, n, 0.005);
  if (paper - dark < MIN_CONTRAST) return undefined;
  const margin = Math.max(3, 1.5 * (percentile(hist, n, 0.95) - paper), (paper - dark) * 0.05);
  const stretch = paper - dark < FAINT ? FAINT / (paper - dark) : 1;
  // the paper around each sample: the lightest within LOCAL samples each way (a separable max filter), never above
  // the page's paper. A shaded table cell or a photo is then its own background, not ink; print is darker than
  // what surrounds it.
  const local = localPaper(data, w, h, paper);
  const sat = new Int32Array((w + 1) * (h + 1));
  const ink = new Uint8Array(w * h);
  let total = 0;
  for (let y = 0; y < h; y++) {
    let rowSum = 0;
    const o = (y + 1) * (w + 1);
    const prev = y * (w + 1);
    const src = y * w;
    for (let x = 0; x < w; x++) {
      const d = (local[src + x] - margin - data[src + x]) * stretch;
      if (d > 0) {
        const v = d > 255 ? 255 : d;
        rowSum += v;
        ink[src + x] = v;
      }
      sat[o + x + 1] = sat[prev + x + 1] + rowSum;
    }
    total += rowSum;
  }
  const map = pixelMap(ctm, w, h);
  if (!map) return undefined;
  return { width: w, height: h, sat, ink, gray: data, total, paper, dark, stretch, map };
}

/** The page-to-pixel map of a w × h image painted by `ctm` (unit square → page); undefined when ctm is singular. */
export function pixelMap(ctm: Matrix, w: number, h: number): InkMap['map'] | undefined {
  // invert ctm: page (x, y) → unit (u, v); col = u·w, row = (1 − v)·h
  const [a, b, c, d, e, f] = ctm;
  const det = a * d - b * c;
  if (!(Math.abs(det) > 1e-9)) return undefined;
  const ia = d / det;
  const ib = -c / det;
  const ic = -b / det;
  const id = a / det;
  // u = ia·(x − e) + ib·(y − f); v = ic·(x − e) + id·(y − f)
  return [ia * w, ib * w, -(ia * e + ib * f) * w, -ic * h, -id * h, h + (ic * e + id * f) * h];
}

/** samples each way the local paper level is looked for */
const LOCAL = 3;

function localPaper(data: Uint8Array, w: number, h: number, paper: number): Uint8Array {
  // the lightest within the window, capped at the page's paper: once a sample reaches the paper level the window's
  // answer is known (most of a page is paper, so most windows stop at their first sample)
  const rows = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      let m = 0;
      const x1 = Math.min(w - 1, x + LOCAL);
      for (let k = Math.max(0, x - LOCAL); k <= x1; k++) {
        const v = data[o + k];
        if (v > m) {
          m = v;
          if (m >= paper) break;
        }
      }
      rows[o + x] = m < paper ? m : paper;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - LOCAL);
    const y1 = Math.min(h - 1, y + LOCAL);
    for (let x = 0; x < w; x++) {
      let m = 0;
      for (let k = y0; k <= y1; k++) {
        const v = rows[k * w + x];
        if (v > m) {
          m = v;
          if (m >= paper) break;
        }
      }
      out[y * w + x] = m;
    }
  }
  return out;
}

/** the coefficient of variation of xs[x0..x1] (a rule's ink per column, a leader's dot spacing) */
export function variation(xs: Float64Array, x0: number, x1: number): number {
  let s1 = 0;
  let s2 = 0;
  for (let x = x0; x <= x1; x++) {
    s1 += xs[x];
    s2 += xs[x] * xs[x];
  }
  const n = x1 - x0 + 1;
  const mean = s1 / n;
  return Math.sqrt(Math.max(0, s2 / n - mean * mean)) / Math.max(1e-9, mean);
}

/** the least value v of a histogram of n samples with at least q·n samples at or below it (255 when none) */
export function percentile(hist: Uint32Array, n: number, q: number): number {
  const target = q * n;
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v];
    if (acc >= target) return v;
  }
  return 255;
}

/** A page rectangle in pixel coordinates of the map, clipped to it: [c0, r0, c1, r1) or undefined when outside. */
export function toPixels(m: InkMap, r: Rect): [number, number, number, number] | undefined {
  const [a, b, c, d, e, f] = m.map;
  const xs = [a * r[0] + b * r[1] + c, a * r[2] + b * r[1] + c, a * r[0] + b * r[3] + c, a * r[2] + b * r[3] + c];
  const ys = [d * r[0] + e * r[1] + f, d * r[2] + e * r[1] + f, d * r[0] + e * r[3] + f, d * r[2] + e * r[3] + f];
  const c0 = Math.max(0, Math.floor(Math.min(...xs)));
  const c1 = Math.min(m.width, Math.ceil(Math.max(...xs)));
  const r0 = Math.max(0, Math.floor(Math.min(...ys)));
  const r1 = Math.min(m.height, Math.ceil(Math.max(...ys)));
  if (c1 <= c0 || r1 <= r0) return undefined;
  return [c0, r0, c1, r1];
}

/** ink weight in [c0, c1) × [r0, r1) */
export function inkIn(m: InkMap, c0: number, r0: number, c1: number, r1: number): number {
  const W = m.width + 1;
  const s = m.sat;
  return s[r1 * W + c1] - s[r0 * W + c1] - s[r1 * W + c0] + s[r0 * W + c0];
}

/** pixels per page unit along x (for converting sizes) */
export function pixelsPerUnit(m: InkMap): number {
  return Math.hypot(m.map[0], m.map[3]);
}
