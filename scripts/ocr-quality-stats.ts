/**
 * The judge's figures, computed as the dev split's score.py computes them (tied values share their mean rank):
 * Spearman's rank correlation and the AUROC of a low score for the pages to re-OCR. One home for scripts/ocr-quality.ts
 * (the dev split and the stand-ins judged one at a time) and scripts/ocr-quality-mix.ts (the stand-ins mixed as the dev
 * split is).
 */

/** 1-based ranks, ties sharing their mean rank */
export function ranks(xs: number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && xs[order[j + 1]] === xs[order[i]]) j++;
    for (let k = i; k <= j; k++) r[order[k]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/** Spearman's rank correlation of a and b; NaN when either is constant */
export function spearman(a: number[], b: number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const ma = ra.reduce((s, x) => s + x, 0) / ra.length;
  const mb = rb.reduce((s, x) => s + x, 0) / rb.length;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < ra.length; i++) {
    cov += (ra[i] - ma) * (rb[i] - mb);
    va += (ra[i] - ma) ** 2;
    vb += (rb[i] - mb) ** 2;
  }
  return va && vb ? cov / Math.sqrt(va * vb) : NaN;
}

/** how well a low `score` finds the positives, as score.py computes it; NaN without both kinds */
export function auroc(score: number[], positive: boolean[]): number {
  const s = score.map((x) => -x);
  const r = ranks(s);
  const np = positive.filter(Boolean).length;
  const nn = positive.length - np;
  if (!np || !nn) return NaN;
  const rp = r.reduce((acc, x, i) => acc + (positive[i] ? x : 0), 0);
  return (rp - (np * (np + 1)) / 2) / (np * nn);
}
