/**
 * Letter shapes: do the layer's words have the scan's ascenders and descenders where the words' letters put them?
 * Every line of print has three zones: the x-height band (where a, e, o, n, x sit), the zone above it (the stems of
 * b, d, h, k, l, t, capitals, digits, accents, the dots of i and j) and the zone below it (the tails of g, p, q, y).
 * Each word box of the layer is read on the full-resolution scan: per pixel column, the ink above and below the line's
 * x-height band, relative to the word's ink inside it. The word's own letters predict, per column, where that ink
 * must be (letters laid along the box by rough widths). A layer that reads the scan right has them in the same
 * columns; a layer with wrong letters, another page's words or words in the wrong boxes does not: the correlation of
 * prediction and measurement over all the page's columns falls towards 0. It needs no recognition, only the letters'
 * classes, and it witnesses what the text alone cannot: well-formed words that are not the words on the scan.
 * Pure; linear in the area of the word boxes.
 */
import type { GlyphRun } from '../types';
import type { GrayImage } from './jpeg';
import { percentile } from './ink';
import { emWidth } from './widths';

/** the page-to-pixel map of an image: col = a·x + b·y + c, row = d·x + e·y + f */
export type PixelMap = [number, number, number, number, number, number];

export interface LetterShapes {
  /** correlation of predicted and measured ink above the x-height band, over the columns of the judged words */
  ascenders: number;
  /** the same below the band */
  descenders: number;
  /** words judged */
  words: number;
  /**
   * the share of the judged words' letters that are capitals: a text of capitals has no x-height band, so its letter
   * shapes say little either way (a right layer of a code listing in capitals agrees about as little as a wrong one)
   */
  capitals: number;
}

/** fewer judged words than this: no figure (a correlation over a handful of words says little) */
const MIN_WORDS = 10;
/** words judged at most (the first ones: a sample enough for a correlation) */
const MAX_WORDS = 4000;
/**
 * a line's x-height band: the rows holding at least this share of its busiest row's ink. A line of capitals and
 * digits has no x-height band (its band is the cap height, its zone above empty), so even a right layer disagrees
 * there. Such lines are still judged: skipping lines whose layer letters are mostly capitals hid wrong-language
 * layers (Cyrillic read as Latin capitals), and skipping lines with little ink above the band lost more pages than it
 * gained on the real-OCR splits (scripts/ocr-layers-build.ts)
 */
const BAND = 0.5;
/** the zones above and below the band reach this many band heights */
const ZONE = 0.7;
/** pixels read at most, per pixel of the image (a page's lines read each of their pixels about twice) */
const MAX_READS_PER_PIXEL = 8;
/** ink must be this much darker than paper (of 255) to count: paper grain and JPEG ringing stay out */
const MARGIN = 8;

/** ascender letters: their ink reaches above the x-height band (capitals and digits too, see ascends()) */
const ASCENDING = new Set([...('bdfhklt' + 'ß' + 'бдйё' + '([{}])/\\|!?"\'' + 'àáâãäåèéêëìíîïòóôõöùúûüýÿœæ')]);
/** letters whose dot only reaches above the band */
const DOTTED = new Set([...'ij']);
/** descender letters and marks: their ink reaches below the band */
const DESCENDING = new Set([...('gjpqy' + ',;()[]{}|' + 'дцщруф' + 'çş')]);
function ascends(ch: string, capital: boolean): number {
  if (ASCENDING.has(ch)) return 1;
  if (DOTTED.has(ch)) return 0.4;
  // capitals and digits fill the zone above the band of lower-case text
  return capital || (ch >= '0' && ch <= '9') ? 1 : 0;
}

/** what letterShapes needs of a character: whether it is a letter (and a capital), its ink above and below the band, its width */
interface CharShape {
  letter: boolean;
  capital: boolean;
  ascends: number;
  descends: number;
  width: number;
}
/** the characters met so far (bounded: past its size they are worked out each time) */
const charShapes = new Map<string, CharShape>();
function shapeOf(ch: string): CharShape {
  let s = charShapes.get(ch);
  if (s === undefined) {
    const capital = ch !== ch.toLowerCase();
    s = {
      letter: ch.toLowerCase() !== ch.toUpperCase(),
      capital,
      ascends: ascends(ch, capital),
      descends: DESCENDING.has(ch) ? 1 : 0,
      width: emWidth(ch.codePointAt(0) ?? 0),
    };
    if (charShapes.size < 4096) charShapes.set(ch, s);
  }
  return s;
}

/** the ink above and below the band of a word's columns (grown as needed: a word's columns at most) */
let aboveScratch = new Float64Array(256);
let belowScratch = new Float64Array(256);

/** a running Pearson correlation */
class Correlation {
  n = 0;
  sx = 0;
  sy = 0;
  sxx = 0;
  syy = 0;
  sxy = 0;
  add(x: number, y: number): void {
    this.n++;
    this.sx += x;
    this.sy += y;
    this.sxx += x * x;
    this.syy += y * y;
    this.sxy += x * y;
  }
  value(): number {
    const { n } = this;
    const vx = this.sxx - (this.sx * this.sx) / n;
    const vy = this.syy - (this.sy * this.sy) / n;
    if (!(vx > 1e-12 && vy > 1e-12)) return 0;
    return (this.sxy - (this.sx * this.sy) / n) / Math.sqrt(vx * vy);
  }
}

/**
 * The ink level of a scan: darkness below `level` is ink (the paper's level, the 75th percentile: a text page is mostly
 * paper, less MARGIN); `dark`, its print's dark end (the darkest tenth of the ink: a page of a few lines has too little
 * ink for a percentile of all its pixels). A third of the pixels, every third in memory order, is sample enough.
 */
export function inkLevel(img: GrayImage): { level: number; dark: number } {
  const { data } = img;
  const hist = new Uint32Array(256);
  let sampled = 0;
  for (let i = 0; i < data.length; i += 3, sampled++) hist[data[i]]++;
  const level = percentile(hist, sampled, 0.75) - MARGIN;
  let ink = 0;
  for (let v = 0; v < level; v++) ink += hist[v];
  // (no ink: no range, level − dark ≤ 0)
  return { level, dark: ink > 0 ? percentile(hist, ink, 0.1) : level };
}

/** a line is read this many of its boxes' heights above and below them (its ascenders and descenders may reach out) */
export const LINE_PAD = 0.5;

/** The pixel rectangle [c0, r0, c1, r1) of a page rectangle (its bounding box under the map), clipped; undefined outside. */
export function pixelRect(map: PixelMap, w: number, h: number, r: readonly number[]): [number, number, number, number] | undefined {
  const [a, b, c, d, e, f] = map;
  const xs = [a * r[0] + b * r[1] + c, a * r[2] + b * r[1] + c, a * r[0] + b * r[3] + c, a * r[2] + b * r[3] + c];
  const ys = [d * r[0] + e * r[1] + f, d * r[2] + e * r[1] + f, d * r[0] + e * r[3] + f, d * r[2] + e * r[3] + f];
  const c0 = Math.max(0, Math.round(Math.min(...xs)));
  const c1 = Math.min(w, Math.round(Math.max(...xs)));
  const r0 = Math.max(0, Math.round(Math.min(...ys)));
  const r1 = Math.min(h, Math.round(Math.max(...ys)));
  if (c1 <= c0 || r1 <= r0) return undefined;
  return [c0, r0, c1, r1];
}

/**
 * The letter-shape agreement of a layer's runs with a scan (`img`, placed by `map`), or why there is none: fewer than
 * MIN_WORDS words could be judged (no lines, no ink, too little text), the boxes overlap so that reading them would
 * take more than MAX_READS_PER_PIXEL reads per pixel, or the time ran out (`outOfTime` is asked once per line: a
 * correlation over a part of the page chosen by the clock is no evidence).
 */
export function letterShapes(
  img: GrayImage,
  map: PixelMap,
  runs: readonly GlyphRun[],
  outOfTime: () => boolean = () => false,
  { level } = inkLevel(img),
): LetterShapes | string {
  const { width: w, height: h, data } = img;
  // lines: the word boxes on the same pixel rows (to 2 pixels)
  const lines = new Map<number, { run: GlyphRun; px: [number, number, number, number] }[]>();
  let words = 0;
  // Runs whose line crosses the scan's rows (a page scanned sideways and OCR'd as it lies, vertical labels): their
  // ascenders point along the rows, and read as if upright a perfect layer agrees below zero. A run is turned in the
  // scan when its baseline is turned on the page (GlyphRun.turned) or the image is painted turned (its columns follow
  // the page's y), not both. Turned runs are left out; when they are most of the words, the page has no figure.
  const imageTurned = Math.abs(map[1]) > Math.abs(map[0]);
  const across = (run: GlyphRun) => (run.turned === true) !== imageTurned;
  let turned = 0;
  let upright = 0;
  for (const run of runs) {
    if (turned + upright >= MAX_WORDS) break;
    if (run.chars < 2) continue;
    if (across(run)) turned++;
    else upright++;
  }
  if (turned > upright) return "the text runs across the scan's rows (turned text)";
  for (const run of runs) {
    if (words >= MAX_WORDS) break;
    if (!run.text) continue;
    if (turned > 0 && across(run)) continue;
    const px = pixelRect(map, w, h, run.rect);
    if (!px) continue;
    const key = Math.round(px[1] / 2) * 65536 + Math.round(px[3] / 2);
    let line = lines.get(key);
    if (!line) lines.set(key, (line = []));
    line.push({ run, px });
    words++;
  }
  const asc = new Correlation();
  const desc = new Correlation();
  let judged = 0;
  let judgedLetters = 0;
  let judgedCapitals = 0;
  // pixels read: word boxes that overlap (or a hostile layer's thousands of page-sized boxes) would read the image many
  // times over; past MAX_READS_PER_PIXEL times its size the page gets no figure
  let reads = 0;
  const maxReads = MAX_READS_PER_PIXEL * w * h;
  for (const line of lines.values()) {
    if (outOfTime()) return 'out of time';
    let r0 = h;
    let r1 = 0;
    for (const { px } of line) {
      r0 = Math.min(r0, px[1]);
      r1 = Math.max(r1, px[3]);
    }
    const pad = Math.round(LINE_PAD * (r1 - r0));
    const R0 = Math.max(0, r0 - pad);
    const R1 = Math.min(h, r1 + pad + 1);
    for (const { px } of line) reads += 2 * (R1 - R0) * (px[2] - px[0]);
    if (reads > maxReads) return 'the word boxes overlap too much';
    // the line's row profile: the ink under its words, row by row (the zones are read again per word below, in the
    // image's own order: as fast as keeping the line's ink column by column, which took up to the image's size again)
    const H = R1 - R0;
    const rows = new Float64Array(H);
    let need = 0;
    for (const { px } of line) need += H * (px[2] - px[0]);
    // a line is a strip of the page: more than the image's size under its words is overlap
    if (need > w * h) return 'the word boxes overlap too much';
    for (const { px } of line) {
      const n = px[2] - px[0];
      for (let y = 0; y < H; y++) {
        const row = (R0 + y) * w + px[0];
        let s = 0;
        for (let x = 0; x < n; x++) {
          const d = data[row + x];
          s += d < level ? level - d : 0;
        }
        rows[y] += s;
      }
    }
    let peak = 0;
    for (const v of rows) if (v > peak) peak = v;
    if (!(peak > 0)) continue;
    let top = -1;
    let bot = -1;
    for (let y = 0; y < rows.length; y++)
      if (rows[y] >= BAND * peak) {
        if (top < 0) top = y;
        bot = y;
      }
    const xh = bot - top + 1;
    const za0 = Math.max(0, top - Math.round(ZONE * xh));
    const zd1 = Math.min(rows.length, bot + 1 + Math.round(ZONE * xh));
    for (const { run, px } of line) {
      const text = run.text;
      let letters = 0;
      let caps = 0;
      for (const ch of text) {
        const cs = shapeOf(ch);
        if (cs.letter) {
          letters++;
          if (cs.capital) caps++;
        }
      }
      if (letters < 2) continue;
      const [c0, , c1] = px;
      const n = c1 - c0;
      if (n < 3) continue;
      // the word's ink per column above the band and below it, and its ink in the band
      if (aboveScratch.length < n) {
        aboveScratch = new Float64Array(2 * n);
        belowScratch = new Float64Array(2 * n);
      }
      const above = aboveScratch;
      const below = belowScratch;
      above.fill(0, 0, n);
      below.fill(0, 0, n);
      let bandSum = 0;
      for (let y = za0; y < zd1; y++) {
        const row = (R0 + y) * w + c0;
        if (y < top) {
          for (let x = 0; x < n; x++) {
            const d = data[row + x];
            if (d < level) above[x] += level - d;
          }
        } else if (y <= bot) {
          for (let x = 0; x < n; x++) {
            const d = data[row + x];
            if (d < level) bandSum += level - d;
          }
        } else {
          for (let x = 0; x < n; x++) {
            const d = data[row + x];
            if (d < level) below[x] += level - d;
          }
        }
      }
      const mean = bandSum / n;
      if (!(mean > 0)) continue;
      judgedLetters += letters;
      judgedCapitals += caps;
      // the letters laid along the box by their rough widths
      let total = 0;
      for (const ch of text) total += shapeOf(ch).width;
      let at = 0;
      for (const ch of text) {
        const cs = shapeOf(ch);
        const s0 = Math.floor((at / total) * n);
        at += cs.width;
        const s1 = Math.max(s0 + 1, Math.floor((at / total) * n));
        const pa = cs.ascends;
        const pd = cs.descends;
        for (let x = s0; x < Math.min(s1, n); x++) {
          asc.add(pa, above[x] / mean);
          desc.add(pd, below[x] / mean);
        }
      }
      judged++;
    }
  }
  if (judged < MIN_WORDS) return 'too few words on ink';
  return { ascenders: asc.value(), descenders: desc.value(), words: judged, capitals: judgedLetters ? judgedCapitals / judgedLetters : 0 };
}
