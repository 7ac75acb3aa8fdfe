/** Matrices, rectangles and the area of a union of rectangles. */
import type { Rect } from './types';

/** [a b c d e f] as in PDF: x' = a·x + c·y + e, y' = b·x + d·y + f */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Readonly<Matrix> = [1, 0, 0, 1, 0, 0];

/** m1 × m2: apply m1 first, then m2 (PDF's `cm` makes CTM' = M × CTM). */
export function multiply(m1: Readonly<Matrix>, m2: Readonly<Matrix>): Matrix {
  return [
    m1[0] * m2[0] + m1[1] * m2[2],
    m1[0] * m2[1] + m1[1] * m2[3],
    m1[2] * m2[0] + m1[3] * m2[2],
    m1[2] * m2[1] + m1[3] * m2[3],
    m1[4] * m2[0] + m1[5] * m2[2] + m2[4],
    m1[4] * m2[1] + m1[5] * m2[3] + m2[5],
  ];
}

/** Bounds of the rectangle [x0,y0,x1,y1] mapped through m. */
export function transformRect(m: Readonly<Matrix>, x0: number, y0: number, x1: number, y1: number): Rect {
  const ax = m[0] * x0 + m[2] * y0 + m[4];
  const ay = m[1] * x0 + m[3] * y0 + m[5];
  const bx = m[0] * x1 + m[2] * y0 + m[4];
  const by = m[1] * x1 + m[3] * y0 + m[5];
  const cx = m[0] * x0 + m[2] * y1 + m[4];
  const cy = m[1] * x0 + m[3] * y1 + m[5];
  const dx = m[0] * x1 + m[2] * y1 + m[4];
  const dy = m[1] * x1 + m[3] * y1 + m[5];
  return [Math.min(ax, bx, cx, dx), Math.min(ay, by, cy, dy), Math.max(ax, bx, cx, dx), Math.max(ay, by, cy, dy)];
}

export function clipRect(r: Rect, clip: Rect): Rect | undefined {
  const x0 = Math.max(r[0], clip[0]);
  const y0 = Math.max(r[1], clip[1]);
  const x1 = Math.min(r[2], clip[2]);
  const y1 = Math.min(r[3], clip[3]);
  return x1 > x0 && y1 > y0 ? [x0, y0, x1, y1] : undefined;
}

export function area(r: Rect): number {
  return Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1]);
}

/** True when the rectangles share some area (touching edges do not count). */
export function intersects(a: Rect, b: Rect): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

/** True when `inner` lies within `outer`, with a tolerance in user-space units. */
export function contains(outer: Rect, inner: Rect, tol: number): boolean {
  return inner[0] >= outer[0] - tol && inner[1] >= outer[1] - tol && inner[2] <= outer[2] + tol && inner[3] <= outer[3] + tol;
}

/** Exact area of the union of rectangles (a sweep over x with merged y-intervals per slab). */
export function unionArea(rects: readonly Rect[]): number {
  const n = rects.length;
  if (n === 0) return 0;
  if (n === 1) return area(rects[0]);
  if (n > 2000) return rasterUnionArea(rects);
  const xs = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    xs[2 * i] = rects[i][0];
    xs[2 * i + 1] = rects[i][2];
  }
  xs.sort();
  // Rects sorted by x0 so each slab only looks at those that have started.
  const order = rects.slice().sort((a, b) => a[0] - b[0]);
  let total = 0;
  const ys: [number, number][] = [];
  for (let i = 0; i + 1 < xs.length; i++) {
    const xa = xs[i];
    const xb = xs[i + 1];
    if (xb <= xa) continue;
    ys.length = 0;
    for (const r of order) {
      if (r[0] > xa) break;
      if (r[2] >= xb) ys.push([r[1], r[3]]);
    }
    if (ys.length === 0) continue;
    ys.sort((a, b) => a[0] - b[0]);
    let covered = 0;
    let [cy0, cy1] = ys[0];
    for (let k = 1; k < ys.length; k++) {
      const [y0, y1] = ys[k];
      if (y0 > cy1) {
        covered += cy1 - cy0;
        cy0 = y0;
        cy1 = y1;
      } else if (y1 > cy1) cy1 = y1;
    }
    covered += cy1 - cy0;
    total += covered * (xb - xa);
  }
  return total;
}

/** Approximate union area on a 512×512 grid over the rectangles' bounds: for pages with thousands of image tiles. */
function rasterUnionArea(rects: readonly Rect[]): number {
  let bx0 = Infinity;
  let by0 = Infinity;
  let bx1 = -Infinity;
  let by1 = -Infinity;
  for (const r of rects) {
    bx0 = Math.min(bx0, r[0]);
    by0 = Math.min(by0, r[1]);
    bx1 = Math.max(bx1, r[2]);
    by1 = Math.max(by1, r[3]);
  }
  const N = 512;
  const sx = (bx1 - bx0) / N;
  const sy = (by1 - by0) / N;
  if (!(sx > 0 && sy > 0)) return 0;
  const grid = new Uint8Array(N * N);
  for (const r of rects) {
    const i0 = Math.max(0, Math.round((r[0] - bx0) / sx));
    const i1 = Math.min(N, Math.round((r[2] - bx0) / sx));
    const j0 = Math.max(0, Math.round((r[1] - by0) / sy));
    const j1 = Math.min(N, Math.round((r[3] - by0) / sy));
    for (let j = j0; j < j1; j++) grid.fill(1, j * N + i0, j * N + i1);
  }
  let cells = 0;
  for (let k = 0; k < grid.length; k++) cells += grid[k];
  return cells * sx * sy;
}
