/**
 * Leader dots a layer left out: the rows of dots that join a line's words across a wide gap (a table of contents'
 * "1.3 Stetigkeit . . . . . . 12", a table's "Violent crime . . . . 467.9"). The original's text holds them, a dot and
 * a space each when set apart, a dot each when set close, and OCR engines often drop them while every word they keep
 * is right: such a layer lacks up to half the page's characters. The block-scale ink map cannot see them (a dot fills a
 * sixteenth of a block, far less than print), so the gaps between a line's words are read here on the scan decoded at
 * letter scale (shape.ts's image): a gap whose ink is a row of small, evenly spaced marks on the line's baseline, with
 * nothing above them, is a leader the layer lacks.
 * Pure; linear in the area of the gaps read.
 */
import type { GlyphRun, Rect } from '../types';
import { variation } from './ink';
import type { GrayImage } from './jpeg';
import { inkLevel, pixelRect, type PixelMap } from './shape';

/** a gap between two words of a line at least this many ems wide may hold a leader (a word space is a third of one) */
export const LEADER_GAP = 2;
/** gaps read at most (a page of a table of contents has a few dozen) */
const MAX_GAPS = 2000;
/**
 * pixels read at most, per pixel of the image: a page's gaps read a strip of each line once; a hostile layer's
 * thousands of page-wide gaps at a page's size would read the image thousands of times. Past it the rest is not read
 * (the dots found so far are a lower bound: the signal is shown, not scored).
 */
const MAX_READS_PER_PIXEL = 4;
/** a line's words: baselines within this many ems of the line's first */
const SAME_LINE = 0.25;
/** fewer dots than this in a gap is no leader (a colon, an ellipsis, specks) */
const MIN_DOTS = 4;
/** the dots' spacing varies by less than this (coefficient of variation): a leader is set evenly, specks are not */
const EVEN = 0.35;
/** a dot is at most this many ems wide; wider ink is a dash, a rule or a letter */
const DOT_WIDTH = 0.3;
/** a dot may be this many pixels wide however small the ems (a scan's blur spreads a dot over two or three columns) */
const MIN_DOT_PX = 3;
/** the dots span at least this share of the gap */
const SPAN = 0.5;
/** dots at least this many ems apart are set apart (". . ."): a dot and a space each in the text; closer, a dot each */
const SPACED = 0.4;
/** the share of the page's ink range (paper to its darkest pixels) a column of a dot's rows must reach to count as ink */
const DOT_INK = 0.3;

/** a gap between two words of a line, in page space: from `x0` to `x1` along a baseline at `y`, at font size `size` */
export interface Gap {
  x0: number;
  x1: number;
  y: number;
  size: number;
}

/**
 * The wide gaps (LEADER_GAP ems or more) between words of the same line: upright runs only (a baseline along the page's
 * x axis), lines of runs whose baselines lie within SAME_LINE ems. n log n in the runs.
 */
export function lineGaps(runs: readonly GlyphRun[]): Gap[] {
  const words: Gap[] = [];
  for (const r of runs) {
    if (r.turned || !(r.size > 0) || !r.text.trim()) continue;
    // the box runs from 0.2 em below the baseline to 0.8 em above it (GlyphRun.rect)
    const h = r.rect[3] - r.rect[1];
    // a run whose box is not about its size tall is tilted or scaled: its baseline is not where the box says
    if (Math.abs(h - r.size) > 0.1 * r.size) continue;
    words.push({ x0: r.rect[0], x1: r.rect[2], y: r.rect[1] + 0.2 * r.size, size: r.size });
  }
  words.sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const gaps: Gap[] = [];
  for (let i = 0; i < words.length && gaps.length < MAX_GAPS;) {
    let j = i + 1;
    while (j < words.length && words[j].y - words[i].y <= SAME_LINE * words[i].size) j++;
    const line = words.slice(i, j).sort((a, b) => a.x0 - b.x0);
    for (let k = 1; k < line.length && gaps.length < MAX_GAPS; k++) {
      const a = line[k - 1];
      const b = line[k];
      const size = Math.min(a.size, b.size);
      if (Math.max(a.size, b.size) > 1.5 * size) continue;
      if (b.x0 - a.x1 >= LEADER_GAP * size) gaps.push({ x0: a.x1, x1: b.x0, y: (a.y + b.y) / 2, size });
    }
    i = j;
  }
  return gaps;
}

/** leader dots found in the gaps of a layer's lines */
export interface Leaders {
  /** the dots */
  dots: number;
  /** the characters they stand for in the original's text (a dot and a space each when set apart, else a dot each) */
  chars: number;
  /** where the rows of dots are, in page space (the gap along the line, from the baseline to the x-height), at most MAX_RECTS */
  rects: Rect[];
}

/** rows of dots whose place is kept at most */
const MAX_RECTS = 32;

/**
 * The leader dots in a layer's line gaps (lineGaps) on the scan (`img`, placed by `map`; upright: an image painted
 * turned gives none), whose ink level is `ink` (shape.ts inkLevel: the letter shapes' too, read once for both).
 * `outOfTime` is asked once per gap.
 */
export function missedLeaders(
  img: GrayImage,
  map: PixelMap,
  gaps: readonly Gap[],
  outOfTime: () => boolean = () => false,
  ink: { level: number; dark: number } = inkLevel(img),
): Leaders {
  const out: Leaders = { dots: 0, chars: 0, rects: [] };
  if (Math.abs(map[1]) > Math.abs(map[0]) || gaps.length === 0) return out;
  const { width: w, height: h, data } = img;
  const { level, dark } = ink;
  const range = level - dark;
  if (!(range > 0)) return out;
  let reads = 0;
  for (const g of gaps) {
    if (outOfTime()) break;
    // the dots' rows (a dot sits on the baseline and is about a tenth of an em tall) and the rows above them, up to
    // the x-height, which a leader leaves blank and a letter fills
    const low = pixelRect(map, w, h, [g.x0 + 0.1 * g.size, g.y - 0.1 * g.size, g.x1 - 0.1 * g.size, g.y + 0.25 * g.size]);
    const high = pixelRect(map, w, h, [g.x0 + 0.1 * g.size, g.y + 0.3 * g.size, g.x1 - 0.1 * g.size, g.y + 0.7 * g.size]);
    if (!low || !high) continue;
    const [c0, r0, c1, r1] = low;
    const n = c1 - c0;
    const em = Math.abs(map[0]) * g.size;
    if (n < 3 || !(em > 0)) continue;
    reads += n * (r1 - r0 + Math.max(0, high[3] - high[1]));
    if (reads > MAX_READS_PER_PIXEL * w * h) break;
    const cols = new Float64Array(n);
    for (let y = r0; y < r1; y++) {
      const row = y * w + c0;
      for (let x = 0; x < n; x++) {
        const d = data[row + x];
        if (d < level && level - d > cols[x]) cols[x] = level - d;
      }
    }
    const above = new Float64Array(n);
    for (let y = high[1]; y < high[3]; y++) {
      const row = y * w;
      for (let x = Math.max(c0, high[0]); x < Math.min(c1, high[2]); x++) {
        const d = data[row + x];
        if (d < level) above[x - c0] += level - d;
      }
    }
    // the marks: runs of columns whose darkest pixel in the dots' rows reaches DOT_INK of the ink range; a dot is narrow
    // (a mark wider is a dash, a rule or a letter) with nothing above it (a letter's body)
    const wide = Math.max(MIN_DOT_PX, DOT_WIDTH * em);
    let best: number[] = [];
    let run: number[] = [];
    const end = () => {
      if (run.length > best.length) best = run;
      run = [];
    };
    for (let x = 0; x < n;) {
      if (cols[x] < DOT_INK * range) {
        x++;
        continue;
      }
      let e = x;
      let up = 0;
      let ink = 0;
      while (e < n && cols[e] >= DOT_INK * range) {
        up += above[e];
        ink += cols[e];
        e++;
      }
      if (e - x > wide || up > 0.5 * ink) end();
      else run.push((x + e - 1) / 2);
      x = e;
    }
    end();
    // the longest row of dots: evenly set, and along most of the gap (a few specks in a wide gap are no leader)
    if (best.length < MIN_DOTS || best[best.length - 1] - best[0] < SPAN * (n - 1)) continue;
    const steps = new Float64Array(best.length - 1);
    for (let i = 1; i < best.length; i++) steps[i - 1] = best[i] - best[i - 1];
    const mean = (best[best.length - 1] - best[0]) / steps.length;
    if (!(mean > 0) || variation(steps, 0, steps.length - 1) > EVEN) continue;
    out.dots += best.length;
    out.chars += best.length * (mean >= SPACED * em ? 2 : 1);
    if (out.rects.length < MAX_RECTS) out.rects.push([g.x0, g.y - 0.1 * g.size, g.x1, g.y + 0.5 * g.size]);
  }
  return out;
}
