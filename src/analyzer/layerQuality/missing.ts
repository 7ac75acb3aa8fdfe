/**
 * The scan's text that the layer leaves out: how the layer's word boxes cover the ink map (ink.ts), and which of the
 * ink no box covers looks like lines of print (textInkMissed) rather than rules, frames, filled shapes, large type or
 * the rims of shaded areas; and where that ink lies (TextLayer.missingText). Pure; linear in the map's size.
 */
import type { GlyphRun, Rect } from '../types';
import { SPREAD_WORDS } from './boxFit';
import { type InkMap, inkIn, toPixels, variation } from './ink';
import { median, medianScratch } from './median';

/** How a layer's runs cover a scan's ink (inkCoverage). */
export interface InkCoverage {
  /** the share of all ink outside the runs' boxes */
  inkMissed: number;
  /** the share of the text-like ink outside them (textLikeMissed) */
  textInkMissed: number;
  /** the share of the runs' boxes (of two characters or more) with less than a trace of ink under them */
  boxesOffInk: number;
  /** where that text-like ink lies: page-space boxes of its blobs, the most ink first, at most MAX_MISSING_REGIONS */
  missed: Rect[];
  /** the map's InkMap.stretch: more than 1 on a scan of faint print */
  stretch: number;
}

/** regions of missing text (TextLayer.missingText) kept at most: the largest, enough to show where a layer falls short */
export const MAX_MISSING_REGIONS = 32;
/** a region with less than this share of the page's missing text-like ink is not reported (specks of noise) */
const MISSING_REGION_SHARE = 0.01;
/** blobs of missing text kept to be joined into lines at most (a dropped page of words: a few hundred) */
const MAX_BLOBS_KEPT = 1024;

/** How the runs cover the ink of a map (exported for tests). */
export function inkCoverage(m: InkMap, runs: GlyphRun[]): InkCoverage {
  const mask = new Uint8Array(m.width * m.height);
  let boxes = 0;
  let off = 0;
  for (const r of runs) {
    const pad = 0.15 * r.size;
    const px = toPixels(m, [r.rect[0] - pad, r.rect[1] - pad, r.rect[2] + pad, r.rect[3] + pad]);
    if (!px) {
      if (r.chars >= 2) {
        boxes++;
        off++;
      }
      continue;
    }
    const [c0, r0, c1, r1] = px;
    for (let y = r0; y < r1; y++) mask.fill(1, y * m.width + c0, y * m.width + c1);
    if (r.chars >= 2) {
      boxes++;
      const inner = toPixels(m, r.rect);
      const area = inner ? (inner[2] - inner[0]) * (inner[3] - inner[1]) : 0;
      const inkPx = inner ? inkIn(m, inner[0], inner[1], inner[2], inner[3]) : 0;
      // less than a trace of ink (of 255 per sample) under the box: the word lies on paper
      if (area === 0 || inkPx / area < 1.5) off++;
    }
  }
  let covered = 0;
  let coveredArea = 0;
  const ink = m.ink;
  // the covered text's ink levels (its inked samples), for the filled-shape test
  const levels = new Uint32Array(256);
  let inked = 0;
  for (let i = 0; i < ink.length; i++)
    if (mask[i]) {
      covered += ink[i];
      coveredArea++;
      if (ink[i] >= BLOB_INK) {
        levels[ink[i]]++;
        inked++;
      }
    }
  let textSolid = 0;
  for (let v = 0, acc = 0; v < 256 && inked > 0; v++) {
    acc += levels[v];
    if (acc >= SOLID_TEXT * inked) {
      textSolid = v;
      break;
    }
  }
  // the body text's line height in samples: the median height of the word boxes
  const cap = Math.min(runs.length, SPREAD_WORDS);
  const hs = medianScratch(cap);
  let nh = 0;
  for (const r of runs) {
    if (nh >= cap) break;
    if (r.chars < 2) continue;
    const px = toPixels(m, r.rect);
    if (px) hs[nh++] = px[3] - px[1];
  }
  const lineH = nh ? median(hs.subarray(0, nh)) : 0;
  const blobs: Blob[] = [];
  const textLike = textLikeMissed(m, mask, coveredArea > 0 ? covered / coveredArea : 0, lineH, textSolid, blobs);
  return {
    inkMissed: m.total > 0 ? 1 - covered / m.total : 0,
    textInkMissed: m.total > 0 ? textLike / Math.max(1, covered + textLike) : 0,
    boxesOffInk: boxes > 0 ? off / boxes : 0,
    // (a map from a near-singular matrix can send a box out of the numbers: such a box is left out, never NaN in a report)
    missed: largestBlobs(lineRegions(blobs, lineH), textLike)
      .map((b) => pageRect(m, b))
      .filter((r) => r.every(Number.isFinite)),
    stretch: m.stretch,
  };
}

/** a blob of uncovered text-like ink: its samples' bounding box [x0, y0, x1, y1] (inclusive) and its ink */
type Blob = [number, number, number, number, number];

/**
 * The blobs joined into the lines they belong to (a dropped line's words are blobs of their own where the word spaces
 * are wider than a block): blobs in order of their middle row form a line while each shares at least half its height
 * with the line so far; along a line, blobs within two body lines (`lineH`, samples) of each other join. n log n.
 */
function lineRegions(blobs: Blob[], lineH: number): Blob[] {
  const gap = 2 * Math.max(1, lineH);
  const height = (b: Blob) => b[3] - b[1] + 1;
  const out: Blob[] = [];
  const join = (line: Blob[]) => {
    line.sort((p, q) => p[0] - q[0]);
    let cur: Blob = [...line[0]];
    for (let i = 1; i < line.length; i++) {
      const b = line[i];
      if (b[0] - cur[2] - 1 <= gap) {
        cur[1] = Math.min(cur[1], b[1]);
        cur[2] = Math.max(cur[2], b[2]);
        cur[3] = Math.max(cur[3], b[3]);
        cur[4] += b[4];
      } else {
        out.push(cur);
        cur = [...b];
      }
    }
    out.push(cur);
  };
  let line: Blob[] = [];
  let top = 0;
  let bottom = -1;
  for (const b of [...blobs].sort((p, q) => p[1] + p[3] - (q[1] + q[3]))) {
    const overlap = Math.min(bottom, b[3]) - Math.max(top, b[1]) + 1;
    if (line.length > 0 && overlap >= 0.5 * Math.min(bottom - top + 1, height(b))) {
      line.push(b);
      top = Math.min(top, b[1]);
      bottom = Math.max(bottom, b[3]);
    } else {
      if (line.length > 0) join(line);
      line = [b];
      top = b[1];
      bottom = b[3];
    }
  }
  if (line.length > 0) join(line);
  return out;
}

/** The MAX_MISSING_REGIONS blobs with the most ink, each at least MISSING_REGION_SHARE of `total`, the most first. */
function largestBlobs(blobs: Blob[], total: number): Blob[] {
  return blobs
    .filter((b) => b[4] >= MISSING_REGION_SHARE * total)
    .sort((a, b) => b[4] - a[4])
    .slice(0, MAX_MISSING_REGIONS);
}

/** The page-space box of a blob's samples (the map's pixel-to-page inverse, rounded to a hundredth of a point). */
function pageRect(m: InkMap, b: Blob): Rect {
  const [a, bb, c, d, e, f] = m.map;
  const det = a * e - bb * d;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const col of [b[0], b[2] + 1])
    for (const row of [b[1], b[3] + 1]) {
      xs.push((e * (col - c) - bb * (row - f)) / det);
      ys.push((a * (row - f) - d * (col - c)) / det);
    }
  // (+ 0: no -0 in the report)
  const r2 = (v: number) => Math.round(v * 100) / 100 + 0;
  return [r2(Math.min(...xs)), r2(Math.min(...ys)), r2(Math.max(...xs)), r2(Math.max(...ys))];
}

/** ink weight (of 255) from which a sample joins a blob of uncovered ink */
const BLOB_INK = 8;
/** the share of the covered text's ink density a blob needs to count as text */
const BLOB_DENSITY = 0.5;
/** a blob up to this many times as dense as the covered text is plain text, whatever its shape */
const BLOB_PLAIN = 1.2;
/** past this many times, it is bold or large type (or not text): it must be line-shaped */
const BLOB_BOLD = 1.5;
/** a blob whose lines are more than this many times as tall as the body text's lines is large type: a logo or a title */
const BLOB_LARGE = 3;
/** a blob taller than this many body lines is a block of lines, whatever its profile: never large type */
const BLOB_TITLE = 8;
/**
 * A blob at most RULE_HEIGHT samples tall, at least RULE_LENGTH times as wide as tall, whose ink per column varies by
 * less than RULE_VARIATION (coefficient of variation) is a rule: a line of print has letters and gaps, a rule (even a
 * skewed one, over two rows) the same ink all along
 */
const RULE_HEIGHT = 2;
const RULE_LENGTH = 6;
const RULE_VARIATION = 0.2;
/**
 * A blob at least FRAME_HEIGHT samples tall and RULE_LENGTH times as wide as tall whose ink per column (less its
 * FRAME_SIDE end columns each side, the frame's own sides) varies by less than FRAME_VARIATION, and whose inner rows
 * each hold less than FRAME_HOLLOW of the ink of its top and of its bottom rows (each the busier of its outer two: a
 * scanned edge spreads over two samples), is a frame: a form's entry box, drawn round empty or lightly shaded space.
 * Its edges are as dense as text at block scale and its shading counts as ink near them; text has ink in every line of
 * a blob, not only in its first and last.
 */
const FRAME_HEIGHT = 5;
const FRAME_SIDE = 2;
const FRAME_VARIATION = 0.3;
const FRAME_HOLLOW = 0.5;
/**
 * A sample at least SOLID_INK of the page's ink range dark (paper to its darkest blocks) and at least as dark as
 * SOLID_TEXT of the covered text's inked samples is solid, and a blob at least SOLID_SHARE of whose samples are solid
 * is a filled shape: a black title bar or header row with white type, a bar of a chart, a filled box. Print leaves
 * paper between its strokes in nearly every 8×8 block, so its blobs have few solid samples; a filled shape is solid
 * inside and lighter only at its edges and where white type cuts it. The second bound is for pages of text alone:
 * there the darkest blocks are text, and by the page's range alone a dropped paragraph of dense type was a filled
 * shape (a man page's dropped block read as 3 % missing; scripts/ocr-synth-build.ts splits).
 */
const SOLID_INK = 0.6;
const SOLID_TEXT = 0.8;
const SOLID_SHARE = 0.5;
/** a blob a quarter of whose border is as dark as its own ink is the rim of a shaded area (shadeBorder), not print */
const SHADE_RIM = 0.25;
/** a row of a blob under this share of the row above it ends a line of the blob (its row profile falls into a valley) */
const BLOB_VALLEY = 0.6;
/**
 * The ink outside the layer's boxes that looks like text: blobs of uncovered ink (8-connected samples of at least
 * BLOB_INK) whose ink fills their bounding box about as densely as the layer's boxes are filled, in the shape of
 * lines. Text left out of a layer (a dropped line or block) is as dense as the text the layer covers; a form's frames
 * and rules, a table's grid and line art spread little ink over a large box; bars, logos and filled plots are denser
 * and not line-shaped. A blob whose lines (peaks of its row profile) are more than BLOB_LARGE times as tall as the
 * body text's lines (`lineH`, samples) is large type, a logo or a title that an original often holds as an image: not
 * counted; nor is a rule (RULE_VARIATION), a frame (FRAME_HOLLOW), a filled shape (SOLID_SHARE) or the rim of a
 * shaded area (SHADE_RIM). The blobs counted go onto `counted` (the most ink among them kept: see inkCoverage's
 * `missed`). Linear in the map's size (a connected blob's box has sides at most as long as its samples are many).
 */
function textLikeMissed(m: InkMap, mask: Uint8Array, density: number, lineH: number, textSolid: number, counted: Blob[]): number {
  const w = m.width;
  const h = m.height;
  const ink = m.ink;
  const gray = m.gray;
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  const members = new Int32Array(w * h);
  // the blob's ink per row and per column (reset after each blob over its rows and columns only)
  const rows = new Float64Array(h);
  const cols = new Float64Array(w);
  let total = 0;
  // (the page's range in ink weights: stretched as its ink is on faint print)
  const solidInk = Math.max(SOLID_INK * (m.paper - m.dark) * m.stretch, textSolid);
  for (let start = 0; start < ink.length; start++) {
    if (seen[start] || mask[start] || ink[start] < BLOB_INK) continue;
    let sp = 0;
    stack[sp++] = start;
    seen[start] = 1;
    let sum = 0;
    let samples = 0;
    let solid = 0;
    let lum = 0;
    let x0 = w;
    let x1 = 0;
    let y0 = h;
    let y1 = 0;
    while (sp > 0) {
      const i = stack[--sp];
      // the blob's samples, members[0..samples)
      members[samples++] = i;
      sum += ink[i];
      lum += gray[i];
      if (ink[i] >= solidInk) solid++;
      const y = (i / w) | 0;
      const x = i - y * w;
      rows[y] += ink[i];
      cols[x] += ink[i];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let k = 0, nn = neighbours(i, w, h, near); k < nn; k++) {
        const j = near[k];
        if (!seen[j] && !mask[j] && ink[j] >= BLOB_INK) {
          seen[j] = 1;
          stack[sp++] = j;
        }
      }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    const rel = sum / (bw * bh) / Math.max(density, 1e-9);
    // text is written in lines: its blobs are wider than tall, unless no denser than the covered text (a tall block
    // of a narrow column); a blob much denser than the covered text is bold or large type, so a line at least twice
    // as wide as tall. Bars, logos, filled plots and photos' edges are dense and not line-shaped.
    let ok = solid < SOLID_SHARE * samples && rel >= BLOB_DENSITY && (bw >= bh || rel <= BLOB_PLAIN) && (rel <= BLOB_BOLD || bw >= 2 * bh);
    if (ok && lineH > 0 && bh > BLOB_LARGE * lineH && bh <= BLOB_TITLE * lineH) ok = bh / blobLines(rows, y0, y1) <= BLOB_LARGE * lineH;
    if (ok && bh <= RULE_HEIGHT && bw >= RULE_LENGTH * bh && variation(cols, x0, x1) < RULE_VARIATION) ok = false;
    if (ok && bh >= FRAME_HEIGHT && bw >= RULE_LENGTH * bh && isFrame(rows, cols, x0, x1, y0, y1)) ok = false;
    if (ok && shadeBorder(m, members, samples, lum / samples) >= SHADE_RIM) ok = false;
    if (ok) {
      total += sum;
      // the blobs counted, for where the text is missing: past MAX_BLOBS_KEPT (a noisy scan's specks pass one by one)
      // the half with the most ink is kept
      counted.push([x0, y0, x1, y1, sum]);
      if (counted.length >= MAX_BLOBS_KEPT) {
        counted.sort((p, q) => q[4] - p[4]);
        counted.length = MAX_BLOBS_KEPT / 2;
      }
    }
    rows.fill(0, y0, y1 + 1);
    cols.fill(0, x0, x1 + 1);
  }
  return total;
}

/**
 * The share of a blob's border (its samples' neighbours that are not ink, under a layer box or not, counted once per
 * sample they touch) at least as dark as the blob's own mean (`lum`, luminance). Ink is measured against the
 * lightest paper within LOCAL samples, so where a darker area meets a lighter one (a shaded table row, a grey box, a
 * cell of a colour chart) a band LOCAL samples wide along the edge reads as ink: often line-shaped and as dense as
 * text. Past the band the shade goes on at the band's own level without being ink, so a good part of its border is as
 * dark as it is (0.25–0.35 on a stand-in's chart of grey cells: half the band's border is shade, of which about the
 * half below the band's mean); print has lighter paper, or a lighter shade, all round (on the dev split and the
 * stand-ins, 99.8 % of the ink counted as missing text lay under 0.15).
 */
function shadeBorder(m: InkMap, members: Int32Array, n: number, lum: number): number {
  const w = m.width;
  const h = m.height;
  const gray = m.gray;
  const ink = m.ink;
  let border = 0;
  let dark = 0;
  for (let k = 0; k < n; k++) {
    for (let q = 0, nn = neighbours(members[k], w, h, near); q < nn; q++) {
      const j = near[q];
      // a sample of ink at least BLOB_INK is the blob's own (8-connected) or, under a box, the layer's print. A covered
      // sample that is not ink is border like any other: light type the map cannot see as ink (a colour chart's white
      // labels on its dark cells) has its boxes on the shade itself, next to the rim
      if (ink[j] >= BLOB_INK) continue;
      border++;
      if (gray[j] <= lum) dark++;
    }
  }
  return border > 0 ? dark / border : 0;
}

/** scratch for the neighbour walks of textLikeMissed's flood and shadeBorder (a sample has at most eight) */
const near = new Int32Array(8);

/** The 8-connected neighbours of sample i of a w × h map (fewer at its edges), written into out; returns how many. */
function neighbours(i: number, w: number, h: number, out: Int32Array): number {
  const y = (i / w) | 0;
  const x = i - y * w;
  let n = 0;
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= h) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      if (xx < 0 || xx >= w || (dx === 0 && dy === 0)) continue;
      out[n++] = yy * w + xx;
    }
  }
  return n;
}

/** Whether a blob (its ink per row and per column over [x0, x1] × [y0, y1]) is a frame (FRAME_HOLLOW). */
function isFrame(rows: Float64Array, cols: Float64Array, x0: number, x1: number, y0: number, y1: number): boolean {
  if (variation(cols, x0 + FRAME_SIDE, x1 - FRAME_SIDE) >= FRAME_VARIATION) return false;
  const edge = Math.min(Math.max(rows[y0], rows[y0 + 1]), Math.max(rows[y1], rows[y1 - 1]));
  for (let y = y0 + 2; y <= y1 - 2; y++) if (rows[y] >= FRAME_HOLLOW * edge) return false;
  return true;
}

/** the lines of a blob: the peaks of its row profile rows[y0..y1], each followed by a valley under BLOB_VALLEY of it */
function blobLines(rows: Float64Array, y0: number, y1: number): number {
  let lines = 0;
  let prev = 0;
  let rising = true;
  let peak = 0;
  for (let y = y0; y <= y1 + 1; y++) {
    const r = y <= y1 ? rows[y] : 0;
    if (rising && r < prev) {
      lines++;
      peak = prev;
      rising = false;
    } else if (!rising && r > prev && prev < BLOB_VALLEY * peak) rising = true;
    prev = r;
  }
  return Math.max(1, lines);
}
