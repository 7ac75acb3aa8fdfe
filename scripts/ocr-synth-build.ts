/**
 * Builds a stand-in for the SYNTHETIC part of the OCR-quality held-out split (issue 16): the true words of a
 * born-digital page at their true positions, written the way the dev split's synthetic pages are (OCRmyPDF's legacy
 * hOCR renderer: Helvetica, render mode 3, one BT…ET per line, each word horizontally scaled to its box, the text in a
 * form drawn over a full-page grey JPEG), after one of the dev README's corruptions. Labelled as the dev split is, so
 * `npm run ocr-quality -- --data DIR` judges it. scripts/ocr-layers-build.ts is the stand-in for the real-OCR part.
 *
 *   node --import tsx scripts/ocr-synth-build.ts --out DIR [--pages 60] [--seed 1] [--corpus ../shared/corpus] [--man|--no-man]
 *
 * Sources: corpus pages labelled `text` (the rule of ocr-layers-build.ts: 600–6,000 visible characters, two images at
 * most, none whose name shares a word with a dev-split source), and, when groff and man are there (default on; --no-man
 * turns it off), manual pages typeset by `man -Tpdf` in English, German, French and Russian (Russian through a groff
 * font directory made here with afmtodit from the URW Nimbus Roman fonts, which have Cyrillic) of commands the dev split
 * does not name. Two pages per source document at most; files of 1–3 pages; one image resolution and quality per file.
 *
 * Per page: truth = the source page's `pdftotext -raw`, normalised; words and their boxes from `pdftotext -raw -bbox`
 * (content order), grouped into lines; the image = the page rendered grey (pdftoppm) at store_dpi 100–150, paper tint
 * and noise, baseline JPEG quality 45–70 (cjpeg); the layer = the corrupted words written as invisible Helvetica. The
 * label is measured on the layer's text as written (its words in content order, as PyMuPDF reads such a layer; see
 * layerText for why not `pdftotext -raw`, which the build log prints beside it): CER, WER, bag-of-words F1, class
 * good ≤ 0.05 < fair ≤ 0.25 < poor, reocr = poor. Needs pdftotext, pdftoppm (poppler-utils) and cjpeg; without them: a clean skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PdfBuilder, prng } from './fuzz';
import { degradePgm, have, levenshtein, normalise, stem } from './ocr-layers-build';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
type Rnd = () => number;
const pick = <T>(xs: readonly T[], next: Rnd): T => xs[Math.floor(next() * xs.length)];

// ---- the layer's model: lines of words with their horizontal extents ------------------------------------------------

export interface Word {
  text: string;
  x1: number;
  x2: number;
}
/**
 * a line: top-left coordinates in points, `base` the baseline, `size` the font size the renderer will use (before the
 * tilt); `lineHeight` the height each word's trailing space is widened at (size × 1.25 when not given) and `slope` the
 * baseline's tilt (none when not given), as an hOCR line has them (ocr-layers-build.ts writes real OCR's lines)
 */
export interface Line {
  words: Word[];
  top: number;
  bottom: number;
  base: number;
  size: number;
  lineHeight?: number;
  slope?: number;
}

// ---- corruptions (pure; the random source is passed in) -------------------------------------------------------------

const LATIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CYRILLIC = 'абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ';

/** each character replaced, with probability `rate`, by another of its script's letters and digits */
export function substitute(text: string, rate: number, next: Rnd): string {
  let out = '';
  for (const ch of text) {
    if (/\s/.test(ch) || next() >= rate) {
      out += ch;
      continue;
    }
    const pool = /\p{Script=Cyrillic}/u.test(ch) ? CYRILLIC : LATIN;
    let r = ch;
    while (r === ch) r = pool[Math.floor(next() * pool.length)];
    out += r;
  }
  return out;
}

/** typical OCR confusions, both ways (a scan merges and splits strokes); longer patterns first */
export const CONFUSIONS: readonly [string, string][] = [
  ['rn', 'm'],
  ['cl', 'd'],
  ['vv', 'w'],
  ['li', 'h'],
  ['m', 'rn'],
  ['d', 'cl'],
  ['w', 'vv'],
  ['h', 'li'],
  ['n', 'ri'],
  ['u', 'ii'],
  ['l', '1'],
  ['1', 'l'],
  ['I', 'l'],
  ['i', 'l'],
  ['O', '0'],
  ['0', 'O'],
  ['o', '0'],
  ['e', 'c'],
  ['c', 'e'],
  ['a', 'o'],
  ['t', 'f'],
  ['f', 't'],
  ['S', '5'],
  ['B', '8'],
  ['g', 'q'],
  ['.', ','],
  [',', '.'],
  ['е', 'с'],
  ['о', '0'],
  ['З', '3'],
  ['ш', 'щ'],
  ['н', 'и'],
  ['ь', 'б'],
  ['т', 'г'],
  ['п', 'л'],
];

/** OCR confusions applied at `rate` of the places where one can occur (left to right, not overlapping) */
export function confuse(text: string, rate: number, next: Rnd): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = CONFUSIONS.find(([from]) => text.startsWith(from, i));
    if (c && next() < rate) {
      out += c[1];
      i += c[0].length;
    } else if (c) {
      out += c[0];
      i += c[0].length;
    } else out += text[i++];
  }
  return out;
}

/** letters shifted by `shift` in their alphabet (Latin a–z, Russian а–я), case kept; everything else as it was */
export function caesar(text: string, shift: number): string {
  const rot = (ch: string, lo: number, n: number) => String.fromCharCode(lo + ((((ch.charCodeAt(0) - lo + shift) % n) + n) % n));
  let out = '';
  for (const ch of text) {
    if (ch >= 'a' && ch <= 'z') out += rot(ch, 0x61, 26);
    else if (ch >= 'A' && ch <= 'Z') out += rot(ch, 0x41, 26);
    else if (ch >= 'а' && ch <= 'я') out += rot(ch, 0x430, 32);
    else if (ch >= 'А' && ch <= 'Я') out += rot(ch, 0x410, 32);
    else out += ch;
  }
  return out;
}

/** the text of every word changed by `f` (its box kept) */
export function mapWords(lines: Line[], f: (text: string) => string): Line[] {
  return lines.map((l) => ({ ...l, words: l.words.map((w) => ({ ...w, text: f(w.text) })) }));
}

/** round(frac × lines) lines left out: one run (`block`) or `random` ones; the rest in their order */
export function dropLines(lines: Line[], frac: number, mode: 'block' | 'random', next: Rnd): Line[] {
  const n = Math.round(frac * lines.length);
  if (n <= 0) return lines.slice();
  const gone = new Set<number>();
  if (mode === 'block') {
    const start = Math.floor(next() * (lines.length - n + 1));
    for (let i = start; i < start + n; i++) gone.add(i);
  } else {
    const idx = lines.map((_, i) => i);
    shuffleInPlace(idx, next);
    for (const i of idx.slice(0, n)) gone.add(i);
  }
  return lines.filter((_, i) => !gone.has(i));
}

export function shuffleInPlace<T>(xs: T[], next: Rnd): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
}

/**
 * Words laid into a line's span [x1, x2] as the dev split's shuffle and other-page layers are: the span shared out in
 * proportion to the words' lengths, one character's share between words.
 */
export function layIntoSpan(texts: string[], x1: number, x2: number): Word[] {
  const chars = texts.reduce((s, t) => s + [...t].length, 0) + Math.max(0, texts.length - 1);
  if (!texts.length || chars === 0) return [];
  const unit = (x2 - x1) / chars;
  const out: Word[] = [];
  let at = 0;
  for (const t of texts) {
    const n = [...t].length;
    out.push({ text: t, x1: x1 + at * unit, x2: x1 + (at + n) * unit });
    at += n + 1;
  }
  return out;
}

const span = (l: Line): [number, number] => [l.words[0].x1, l.words[l.words.length - 1].x2];

/** the right lines in the wrong places: a permutation (no line kept where it was, when there are two or more) */
export function shuffleLines(lines: Line[], next: Rnd): Line[] {
  const idx = lines.map((_, i) => i);
  // Sattolo's algorithm: a single cycle, so no line stays in its place
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(next() * i);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return lines.map((l, i) => ({
    ...l,
    words: layIntoSpan(
      lines[idx[i]].words.map((w) => w.text),
      ...span(l),
    ),
  }));
}

/** another page's lines laid into this page's lines, in order (extra lines of either page are left out) */
export function otherPage(lines: Line[], other: Line[]): Line[] {
  const n = Math.min(lines.length, other.length);
  return lines.slice(0, n).map((l, i) => ({
    ...l,
    words: layIntoSpan(
      other[i].words.map((w) => w.text),
      ...span(l),
    ),
  }));
}

/** words run together: each word glued to the one before it on its line with probability `rate` (one wider box) */
export function glueWords(lines: Line[], rate: number, next: Rnd): Line[] {
  return lines.map((l) => {
    const words: Word[] = [];
    for (const w of l.words) {
      const prev = words[words.length - 1];
      if (prev && next() < rate) words[words.length - 1] = { text: prev.text + w.text, x1: prev.x1, x2: w.x2 };
      else words.push({ ...w });
    }
    return { ...l, words };
  });
}

/** a space inserted inside a word of 4+ letters with probability `rate`; its box split where the space falls */
export function splitWords(lines: Line[], rate: number, next: Rnd): Line[] {
  return lines.map((l) => {
    const words: Word[] = [];
    for (const w of l.words) {
      const chars = [...w.text];
      const letters = chars.filter((c) => /\p{L}/u.test(c)).length;
      if (letters < 4 || next() >= rate) {
        words.push({ ...w });
        continue;
      }
      const k = 1 + Math.floor(next() * (chars.length - 1));
      const x = w.x1 + ((w.x2 - w.x1) * k) / chars.length;
      words.push({ text: chars.slice(0, k).join(''), x1: w.x1, x2: x }, { text: chars.slice(k).join(''), x1: x, x2: w.x2 });
    }
    return { ...l, words };
  });
}

export interface Recipe {
  kind: 'synthetic';
  corruption: string;
  rate?: number;
  frac?: number;
  mode?: 'block' | 'random';
  shift?: number;
  other?: string;
}

/** the dev split's mix of corruptions (47 synthetic pages) and the parameter values it draws from */
const KINDS: [string, number][] = [
  ['subst', 15],
  ['confusion', 6],
  ['caesar', 5],
  ['clean', 4],
  ['drop', 4],
  ['space-inserted', 4],
  ['other-page', 3],
  ['shuffle', 2],
  ['subst+drop', 2],
  ['no-space', 2],
];

/** a corruption and its parameters, drawn as the dev README describes them (`other` is filled in by the caller) */
export function drawRecipe(next: Rnd): Recipe {
  const total = KINDS.reduce((s, [, w]) => s + w, 0);
  let r = next() * total;
  let corruption = KINDS[0][0];
  for (const [k, w] of KINDS) {
    if ((r -= w) < 0) {
      corruption = k;
      break;
    }
  }
  const rc: Recipe = { kind: 'synthetic', corruption };
  if (corruption === 'subst') rc.rate = pick([0.01, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.6], next);
  if (corruption === 'confusion') rc.rate = pick([0.1, 0.3, 0.6, 0.9], next);
  if (corruption === 'caesar') rc.shift = 1 + Math.floor(next() * 25);
  if (corruption === 'drop') {
    rc.frac = pick([0.1, 0.2, 0.3, 0.4, 0.5], next);
    rc.mode = next() < 0.5 ? 'block' : 'random';
  }
  if (corruption === 'subst+drop') {
    rc.rate = pick([0.05, 0.1, 0.2], next);
    rc.frac = pick([0.2, 0.3, 0.4], next);
    rc.mode = next() < 0.5 ? 'block' : 'random';
  }
  if (corruption === 'no-space') rc.rate = pick([0.1, 0.3, 0.5], next);
  if (corruption === 'space-inserted') rc.rate = pick([0.1, 0.3, 0.7], next);
  return rc;
}

/** the recipe applied to a page's lines (`other` = the other page's lines for other-page) */
export function corrupt(lines: Line[], rc: Recipe, next: Rnd, other: Line[] = []): Line[] {
  switch (rc.corruption) {
    case 'clean':
      return lines;
    case 'subst':
      return mapWords(lines, (t) => substitute(t, rc.rate ?? 0, next));
    case 'confusion':
      return mapWords(lines, (t) => confuse(t, rc.rate ?? 0, next));
    case 'caesar':
      return mapWords(lines, (t) => caesar(t, rc.shift ?? 0));
    case 'drop':
      return dropLines(lines, rc.frac ?? 0, rc.mode ?? 'random', next);
    case 'subst+drop':
      return mapWords(dropLines(lines, rc.frac ?? 0, rc.mode ?? 'random', next), (t) => substitute(t, rc.rate ?? 0, next));
    case 'shuffle':
      return shuffleLines(lines, next);
    case 'other-page':
      return otherPage(lines, other);
    case 'no-space':
      return glueWords(lines, rc.rate ?? 0, next);
    case 'space-inserted':
      return splitWords(lines, rc.rate ?? 0, next);
  }
  throw new Error(`unknown corruption ${rc.corruption}`);
}

// ---- the labels' measures --------------------------------------------------------------------------------------------

/** word error rate: Levenshtein over whitespace-separated words / the truth's words (each word one code unit) */
export function wer(layer: string, truth: string): number {
  const ids = new Map<string, number>();
  const code = (s: string) =>
    s
      .split(' ')
      .filter(Boolean)
      .map((w) => {
        if (!ids.has(w)) ids.set(w, 0x100 + ids.size);
        return String.fromCharCode(ids.get(w) as number);
      })
      .join('');
  const t = code(truth);
  const l = code(layer);
  return t.length ? levenshtein(l, t) / t.length : l.length ? 1 : 0;
}

/** order-free bag-of-words F1 */
export function wordF1(layer: string, truth: string): number {
  const bag = (s: string) => {
    const m = new Map<string, number>();
    for (const w of s.split(' ').filter(Boolean)) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const a = bag(layer);
  const b = bag(truth);
  let both = 0;
  for (const [w, n] of a) both += Math.min(n, b.get(w) ?? 0);
  const na = [...a.values()].reduce((s, x) => s + x, 0);
  const nb = [...b.values()].reduce((s, x) => s + x, 0);
  if (!na || !nb || !both) return 0;
  const p = both / na;
  const r = both / nb;
  return (2 * p * r) / (p + r);
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

// ---- the source page's words ----------------------------------------------------------------------------------------

const PT_PX = 72 / 300; // the hOCR the dev split's layers come from is at 300 dpi: every coordinate is on this grid

/**
 * `pdftotext -raw -bbox` of one page: the page size and its words in content order, grouped into lines (a word
 * starts a new line when its box is not level with the line's or lies left of the line's last word). Poppler splits a
 * word where the font changes ("[OPTION" + "]…"): pieces that touch are joined, as the page's text has them.
 */
export function parseBbox(xml: string): { width: number; height: number; lines: Line[] } {
  const page = /<page width="([\d.]+)" height="([\d.]+)"/.exec(xml);
  const width = page ? Number(page[1]) : 612;
  const height = page ? Number(page[2]) : 792;
  const words: { text: string; x1: number; y1: number; x2: number; y2: number }[] = [];
  const re = /<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)<\/word>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml))) {
    const text = normalise(
      m[5]
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'"),
    );
    if (text) words.push({ text, x1: Number(m[1]), y1: Number(m[2]), x2: Number(m[3]), y2: Number(m[4]) });
  }
  const lines: { words: typeof words }[] = [];
  for (const w of words) {
    const cur = lines[lines.length - 1];
    const last = cur?.words[cur.words.length - 1];
    const h = w.y2 - w.y1;
    if (last && Math.abs(last.y2 - w.y2) < 0.3 * h && w.x1 >= last.x2 - 0.5) {
      if (w.x1 - last.x2 < 0.08 * h) {
        last.text += w.text;
        last.x2 = w.x2;
        last.y1 = Math.min(last.y1, w.y1);
        last.y2 = Math.max(last.y2, w.y2);
      } else cur.words.push(w);
    } else lines.push({ words: [w] });
  }
  return {
    width,
    height,
    lines: lines
      .filter((l) => l.words.every((w) => w.y2 > w.y1 && w.x2 > w.x1))
      .map((l) => {
        const top = Math.min(...l.words.map((w) => w.y1));
        const bottom = Math.max(...l.words.map((w) => w.y2));
        const h = bottom - top;
        // the dev layers' font size is about 0.96 of poppler's box height and their baseline about a fifth of it above
        // the box's bottom (measured on a dev page against the same page's pdftotext boxes)
        return { top, bottom, base: bottom - 0.2 * h, size: 0.96 * h, words: l.words.map((w) => ({ text: w.text, x1: w.x1, x2: w.x2 })) };
      }),
  };
}

// ---- writing the page: a full-page JPEG and an OCRmyPDF-style invisible Helvetica layer -----------------------------

/** Helvetica's widths (the standard AFM, per 1000) for WinAnsi codes 32–255 */
const WIN_WIDTHS = (
  '278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,' +
  '667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,' +
  '556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584,0,556,0,222,556,' +
  '333,1000,556,556,333,1000,667,333,1000,0,611,0,0,222,222,333,333,350,556,1000,333,1000,500,333,944,0,500,667,278,333,556,556,556,' +
  '556,260,556,333,737,370,556,584,333,737,333,400,584,333,333,333,556,537,278,333,333,365,556,834,834,834,611,667,667,667,667,667,667,' +
  '1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,' +
  '500,556,556,556,556,278,278,278,278,556,556,556,556,556,556,556,584,611,556,556,556,556,500,556,500'
)
  .split(',')
  .map(Number);
/**
 * Helvetica has no Cyrillic: the widths of Nimbus Sans (Helvetica's metric clone, URW's AFM) for afii10017–afii10049
 * (А…Я with Ё seventh) and afii10065–afii10097 (а…я with ё seventh)
 */
const CYR_UPPER =
  '667,656,667,542,677,667,667,923,604,719,719,583,656,833,722,778,719,667,722,611,635,760,667,740,667,917,938,792,885,656,719,1010,722';
const CYR_LOWER =
  '556,573,531,365,583,556,556,669,458,559,559,438,583,688,552,556,542,556,500,458,500,823,500,573,521,802,823,625,719,521,510,750,542';

interface Encoding {
  /** Unicode character → byte */
  code: Map<string, number>;
  width: number[];
  /** the /Encoding entry */
  pdf: string;
}

function winAnsi(): Encoding {
  const code = new Map<string, number>();
  const dec = new TextDecoder('windows-1252');
  for (let b = 32; b < 256; b++) if (WIN_WIDTHS[b - 32] > 0) code.set(dec.decode(new Uint8Array([b])), b);
  return { code, width: WIN_WIDTHS.slice(), pdf: '/WinAnsiEncoding' };
}

/** WinAnsi with the Cyrillic letters where windows-1251 has them (А–я at 0xC0–0xFF, Ё 0xA8, ё 0xB8), by AGL names */
function cyrillic(): Encoding {
  const e = winAnsi();
  const diffs: string[] = [];
  const put = (byte: number, ch: string, name: string, w: number) => {
    for (const [k, v] of e.code) if (v === byte) e.code.delete(k);
    e.code.set(ch, byte);
    e.width[byte - 32] = w;
    diffs.push(`${byte} /${name}`);
  };
  const up = CYR_UPPER.split(',').map(Number);
  const lo = CYR_LOWER.split(',').map(Number);
  for (let i = 0; i < 33; i++) {
    const uc = i < 6 ? 0x410 + i : i === 6 ? 0x401 : 0x410 + i - 1;
    const byte = i < 6 ? 0xc0 + i : i === 6 ? 0xa8 : 0xc0 + i - 1;
    put(byte, String.fromCharCode(uc), `afii${10017 + i}`, up[i]);
    put(i === 6 ? 0xb8 : byte + 0x20, String.fromCharCode(i === 6 ? 0x451 : uc + 0x20), `afii${10065 + i}`, lo[i]);
  }
  return { ...e, pdf: `<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[${diffs.join(' ')}]>>` };
}

/** a number as reportlab writes it (seven significant digits, no trailing zeros) */
const num = (x: number): string => {
  const s = Number(x.toPrecision(7)).toString();
  return s.includes('e') ? x.toFixed(4) : s;
};

/**
 * The text form's content, as OCRmyPDF's legacy (reportlab) hOCR renderer writes it: the canvas preamble, then per
 * line `BT 1 0 0 1 0 0 Tm /F1 size Tf leading TL 3 Tr 1 0 0 1 x y Tm`, and per word a move from the last word's
 * start, `Tz` so that the word plus its trailing space fills the word's box plus a space at the line's height, `Tj`.
 * Coordinates are on the grid of the hOCR's pixels (`grid` points a pixel; 300 dpi unless given); a line with a
 * `slope` is turned by it and its font size divided by the angle's cosine, as the renderer does.
 */
export function layerContent(lines: Line[], pageHeight: number, enc: Encoding, grid = PT_PX): string {
  const qg = (x: number) => Math.round(x / grid) * grid;
  let s = '1 0 0 1 0 0 cm  BT /F1 12 Tf 14.4 TL ET\n0 1 1 RG\n0 1 1 rg\n0 w\n';
  for (const l of lines) {
    const words = l.words.filter((w) => w.text.trim());
    if (!words.length) continue;
    const angle = Math.atan(l.slope ?? 0);
    const size = Math.max(grid, qg(l.size)) / Math.cos(angle);
    const base = qg(l.base);
    const lineHeight = l.lineHeight ?? size * 1.25;
    const y = pageHeight - base;
    const x0 = qg(words[0].x1);
    const tm = l.slope ? `${num(Math.cos(angle))} ${num(-Math.sin(angle))} ${num(Math.sin(angle))} ${num(Math.cos(angle))}` : '1 0 0 1';
    s += `0 0 0 rg\nBT 1 0 0 1 0 0 Tm /F1 ${num(size)} Tf ${num(size * 1.2)} TL 3 Tr ${tm} ${num(x0)} ${num(y)} Tm`;
    let cursor = x0;
    for (const w of words) {
      const text = `${w.text} `;
      let bytes = '';
      let width = 0;
      for (const ch of text) {
        const b = enc.code.get(ch) ?? 0x3f;
        width += enc.width[b - 32];
        bytes += b === 0x28 || b === 0x29 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b < 0x80 ? String.fromCharCode(b) : `\\${b.toString(8)}`;
      }
      const x1 = qg(w.x1);
      const boxWidth = Math.max(grid, qg(w.x2) - x1) + (enc.width[0] * lineHeight) / 1000;
      const fontWidth = (width * size) / 1000;
      s += ` ${num(x1 - cursor)} 0 Td ${num((100 * boxWidth) / fontWidth)} Tz (${bytes}) Tj`;
      cursor = x1;
    }
    s += ' ET\n';
  }
  return s;
}

/**
 * The layer's text as a reader gets it: its words in content order, each string's trailing space a word break, the
 * characters Helvetica's encoding cannot carry as '?' (what PyMuPDF reads from such a layer). `pdftotext -raw` would
 * glue words whose trailing space, widened to the line's height as the renderer widens it, reaches past the next
 * word's start (dense justified text); it does so on the dev split's own layers too (a clean page labelled 0 reads at
 * 0.055 there), so the label does not use it.
 */
export function layerText(lines: Line[], cyr: boolean): string {
  const enc = cyr ? cyrillic() : winAnsi();
  return normalise(lines.map((l) => l.words.map((w) => [...w.text].map((c) => (enc.code.has(c) ? c : '?')).join('')).join(' ')).join(' '));
}

export interface OutPage {
  jpeg: Uint8Array;
  imgWidth: number;
  imgHeight: number;
  width: number;
  height: number;
  lines: Line[];
  cyrillic: boolean;
  /** points a pixel of the hOCR the layer comes from (72 / its dpi); 300 dpi's when not given */
  grid?: number;
}

/**
 * One PDF of these pages, laid out as the dev split's synthetic files are (PyMuPDF's insert_image + show_pdf_page):
 * the page's contents draw the JPEG (`fzImg0`) over the whole page, then a form (`fzFrm0`) whose matrix maps the
 * 300-dpi grid onto the page and which draws the layer's form (`fullpage`), whose font is Helvetica.
 */
export function writePdf(pages: OutPage[]): Uint8Array {
  const b = new PdfBuilder();
  const catalog = b.reserve();
  const pagesObj = b.reserve();
  const kids: number[] = [];
  const fonts = new Map<boolean, { obj: number; enc: Encoding }>();
  for (const p of pages) {
    let f = fonts.get(p.cyrillic);
    if (!f) {
      const enc = p.cyrillic ? cyrillic() : winAnsi();
      f = { obj: b.add(`<</BaseFont/Helvetica/Encoding ${enc.pdf}/Name/F1/Subtype/Type1/Type/Font>>`), enc };
      fonts.set(p.cyrillic, f);
    }
    const grid = p.grid ?? PT_PX;
    const gw = Math.round(p.width / grid) * grid;
    const gh = Math.round(p.height / grid) * grid;
    const img = b.stream(
      `/Filter/DCTDecode/Type/XObject/Subtype/Image/BitsPerComponent 8/Width ${p.imgWidth}/Height ${p.imgHeight}/ColorSpace/DeviceGray`,
      p.jpeg,
    );
    const draw = b.flate('', `\nq\n${num(p.width)} 0 0 ${num(p.height)} 0 0 cm\n/fzImg0 Do\nQ\n`);
    const fontRes = b.add(`<</F1 ${f.obj} 0 R>>`);
    const full = b.flate(
      `/Type/XObject/Subtype/Form/BBox[0 0 ${num(gw)} ${num(gh)}]/Matrix[1 0 0 1 0 0]/Resources<</Font ${fontRes} 0 R/ProcSet[/PDF/Text/ImageB/ImageC/ImageI]>>`,
      layerContent(p.lines, gh, f.enc, grid),
    );
    const frm = b.flate(
      `/Type/XObject/Subtype/Form/BBox[0 0 ${num(gw)} ${num(gh)}]/Matrix[${(p.width / gw).toFixed(5)} 0 0 ${(p.height / gh).toFixed(5)} 0 0]/Resources<</XObject<</fullpage ${full} 0 R>>>>`,
      '/fullpage Do',
    );
    const over = b.flate('', ' q /fzFrm0 Do Q ');
    const res = b.add(`<</XObject<</fzImg0 ${img} 0 R/fzFrm0 ${frm} 0 R>>>>`);
    kids.push(
      b.add(
        `<</Type/Page/MediaBox[0 0 ${num(p.width)} ${num(p.height)}]/Rotate 0/Resources ${res} 0 R/Parent ${pagesObj} 0 R/Contents[${draw} 0 R ${over} 0 R]>>`,
      ),
    );
  }
  b.set(catalog, `<</Type/Catalog/Pages ${pagesObj} 0 R>>`);
  b.set(pagesObj, `<</Type/Pages/Count ${kids.length}/Kids[${kids.map((k) => `${k} 0 R`).join(' ')}]>>`);
  return b.build(catalog);
}

// ---- the image ------------------------------------------------------------------------------------------------------

/** paper tint: the PGM's white pulled down to `paper` (ink stays dark) */
function tintPgm(file: string, paper: number): { width: number; height: number } {
  const buf = readFileSync(file);
  const head = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.subarray(0, 40).toString('latin1'));
  if (!head) throw new Error(`${file}: not an 8-bit binary PGM`);
  const px = buf.subarray(head[0].length);
  for (let i = 0; i < px.length; i++) px[i] = Math.round((px[i] * paper) / 255);
  writeFileSync(file, buf);
  return { width: Number(head[1]), height: Number(head[2]) };
}

// ---- sources --------------------------------------------------------------------------------------------------------

export interface Source {
  /** the dev split's `source` naming: the corpus file's stem, or man-CMD[-de|-fr|-ru] */
  name: string;
  pdf: string;
  pages: number[];
  lang: 'eng' | 'deu' | 'fra' | 'rus';
}
interface PageText {
  src: Source;
  page: number;
  truth: string;
  width: number;
  height: number;
  lines: Line[];
}

export const MAN_LANGS: { lang: Source['lang']; locale: string; suffix: string; dir: string }[] = [
  { lang: 'eng', locale: 'en', suffix: '', dir: '/usr/share/man/man1' },
  { lang: 'deu', locale: 'de', suffix: '-de', dir: '/usr/share/man/de/man1' },
  { lang: 'fra', locale: 'fr', suffix: '-fr', dir: '/usr/share/man/fr/man1' },
  { lang: 'rus', locale: 'ru', suffix: '-ru', dir: '/usr/share/man/ru/man1' },
];

/** a groff font directory whose Times (TR, TB, TI, TBI) are URW's Nimbus Roman, which has Cyrillic; null if it cannot be made */
function cyrillicFonts(work: string): string | null {
  const urw = '/usr/share/fonts/type1/urw-base35';
  const groff = readdirSync('/usr/share/groff')
    .map((v) => join('/usr/share/groff', v, 'font', 'devpdf'))
    .find((d) => existsSync(join(d, 'DESC')));
  if (!groff || !existsSync(join(urw, 'NimbusRoman-Regular.afm')) || !have('afmtodit', ['-v'])) return null;
  const dir = join(work, 'groff-font');
  const dev = join(dir, 'devpdf');
  mkdirSync(dev, { recursive: true });
  writeFileSync(join(dev, 'DESC'), readFileSync(join(groff, 'DESC')));
  const download = ['# foundry\tps name\tpsfile'];
  for (const [name, face] of [
    ['TR', 'Regular'],
    ['TB', 'Bold'],
    ['TI', 'Italic'],
    ['TBI', 'BoldItalic'],
  ]) {
    execFileSync('afmtodit', ['-e', join(groff, 'enc', 'text.enc'), join(urw, `NimbusRoman-${face}.afm`), join(groff, 'map', 'textmap'), name], {
      cwd: dev,
      stdio: 'ignore',
    });
    download.push(`\tNimbusRoman-${face}\t${join(urw, `NimbusRoman-${face}.t1`)}`);
  }
  for (const l of readFileSync(join(groff, 'download'), 'utf8').split('\n'))
    if (l.trim() && !l.startsWith('#') && !/NimbusRoman/.test(l)) download.push(l);
  writeFileSync(join(dev, 'download'), download.join('\n') + '\n');
  return dir;
}

/** manual pages of commands the dev split does not name, typeset to PDF, shuffled by the seed, `want` at most per language */
export function manSources(work: string, exclude: Set<string>, want: number, next: Rnd): Source[] {
  const out: Source[] = [];
  const fontDir = cyrillicFonts(work);
  for (const ml of MAN_LANGS) {
    if (ml.lang === 'rus' && !fontDir) {
      console.log('ocr-synth-build: no Cyrillic font for groff (afmtodit, fonts-urw-base35): Russian manual pages left out');
      continue;
    }
    if (!existsSync(ml.dir)) continue;
    const names = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((f) => f.replace(/\.1(\.gz)?$/, '')) : []);
    // English: only commands translated too (the core tools the dev split's manual pages are, not every package's pages)
    const translated = new Set(MAN_LANGS.filter((l) => l.lang !== 'eng').flatMap((l) => names(l.dir)));
    const cmds = [...new Set(names(ml.dir))]
      .filter((c) => /^[a-z][a-z0-9_-]*$/.test(c) && !exclude.has(c) && (ml.lang !== 'eng' || translated.has(c)))
      .sort();
    shuffleInPlace(cmds, next);
    let got = 0;
    for (const cmd of cmds) {
      if (got >= want) break;
      const pdf = join(work, `man-${cmd}${ml.suffix}.pdf`);
      try {
        const env = { ...process.env, MANWIDTH: '', MAN_KEEP_FORMATTING: '', ...(ml.lang === 'rus' ? { MANROFFOPT: `-F ${fontDir}` } : {}) };
        const bytes = execFileSync('man', ['-Tpdf', '-L', ml.locale, cmd], { env, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
        writeFileSync(pdf, bytes);
      } catch {
        continue;
      }
      const n = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1] ?? 0);
      if (n < 1) continue;
      out.push({ name: `man-${cmd}${ml.suffix}`, pdf, pages: Array.from({ length: n }, (_, i) => i + 1), lang: ml.lang });
      got++;
    }
  }
  return out;
}

/**
 * The dev split's sources (its labels.jsonl, when there): words of their names (corpus documents sharing one are left
 * out) and the commands of its manual pages (left out whatever the language).
 */
export function devSources(labelsFile: string): { words: Set<string>; commands: Set<string> } {
  const devWords = new Set<string>();
  const devCommands = new Set<string>();
  if (existsSync(labelsFile))
    for (const line of readFileSync(labelsFile, 'utf8').split('\n').filter(Boolean)) {
      const d = JSON.parse(line) as { pages: { source?: string; recipe?: { other?: string } }[] };
      for (const p of d.pages)
        for (const s of [p.source ?? '', p.recipe?.other ?? '']) {
          const m = /^man-(.+?)(-(de|fr|ru))? p\d+$/.exec(s);
          if (m) devCommands.add(m[1]);
          for (const w of s.split(/[\s_.-]+/)) if (w.length >= 3 && !/^p\d+$/.test(w)) devWords.add(w.toLowerCase());
        }
    }
  return { words: devWords, commands: devCommands };
}

/** manual pages with the languages in turn (first of each, second of each, …), so that each has its share */
export function inTurn(byLang: Source[]): Source[] {
  const manDocs: Source[] = [];
  for (let i = 0; manDocs.length < byLang.length; i++)
    for (const ml of MAN_LANGS) {
      const d = byLang.filter((s) => s.lang === ml.lang)[i];
      if (d) manDocs.push(d);
    }
  return manDocs;
}

interface CorpusPage {
  page: number;
  route: string;
  visibleChars: number;
  images: number;
}

/** corpus documents with text pages, by ocr-layers-build.ts's rule */
function corpusSources(corpus: string, devWords: Set<string>): Source[] {
  const out: Source[] = [];
  for (const line of readFileSync(join(corpus, 'labels.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const d = JSON.parse(line) as { file: string; encrypted?: boolean; pages: CorpusPage[] };
    if (d.encrypted || !d.file.startsWith('real/')) continue;
    const words = stem(d.file)
      .split(/[\s_.-]+/)
      .map((w) => w.toLowerCase());
    if (words.some((w) => devWords.has(w))) continue;
    const pages = (d.pages ?? [])
      .filter((p) => p.route === 'text' && p.images <= 2 && p.visibleChars >= 600 && p.visibleChars <= 6000)
      .map((p) => p.page);
    if (pages.length) out.push({ name: stem(d.file), pdf: join(corpus, d.file), pages, lang: 'eng' });
  }
  return out;
}

/** a source page's truth and words; null when it is not usable (too little text, a script Helvetica cannot carry) */
function readPage(src: Source, page: number): PageText | null {
  const opts = { encoding: 'utf8' as const, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] as ('ignore' | 'pipe')[] };
  // a turned page (/Rotate) renders turned while poppler's word boxes are not: its layer would miss the scan
  const info = execFileSync('pdfinfo', ['-f', `${page}`, '-l', `${page}`, src.pdf], opts);
  if (/rot:\s*[1-9]/.test(info)) return null;
  const truth = normalise(execFileSync('pdftotext', ['-q', '-raw', '-f', `${page}`, '-l', `${page}`, src.pdf, '-'], opts));
  if (truth.length < 500 || truth.length > 8000) return null;
  const allowed =
    src.lang === 'rus'
      ? /[^\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]/u
      : /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
  if (allowed.test(truth)) return null;
  const { width, height, lines } = parseBbox(
    execFileSync('pdftotext', ['-q', '-raw', '-bbox', '-f', `${page}`, '-l', `${page}`, src.pdf, '-'], opts),
  );
  if (lines.length < 5) return null;
  // the layer a clean recipe would write, as a reader gets it: a page whose words poppler boxes apart from its text
  // (sub- and superscripts, rotated text) or whose characters Helvetica cannot carry would not label a clean layer good
  if (levenshtein(layerText(lines, src.lang === 'rus'), truth) > 0.02 * truth.length) return null;
  return { src, page, truth, width, height, lines };
}

function main(): number {
  const out = arg('--out');
  if (!out) {
    console.error('usage: ocr-synth-build.ts --out DIR [--pages N] [--seed S] [--corpus DIR] [--man|--no-man]');
    return 2;
  }
  const corpus = resolve(arg('--corpus') ?? join(ROOT, '..', 'shared', 'corpus'));
  const dev = resolve(ROOT, '..', 'shared', 'ocr-quality', 'labels.jsonl');
  const want = Number(arg('--pages') ?? 60);
  const seed = Number(arg('--seed') ?? 1);
  const next = prng(seed);
  const missing = [
    ['pdftoppm', ['-v']],
    ['pdftotext', ['-v']],
    ['pdfinfo', ['-v']],
    ['cjpeg', ['-version']],
  ].filter(([t, a]) => !have(t as string, a as string[]));
  const haveCorpus = existsSync(join(corpus, 'labels.jsonl'));
  const manTools = have('groff', ['-v']) && have('man', ['--version']);
  const useMan = !process.argv.includes('--no-man') && manTools;
  if (process.argv.includes('--man') && !manTools) console.log('ocr-synth-build: --man asked for, but groff or man is missing: corpus pages only');
  if (missing.length || (!haveCorpus && !useMan)) {
    console.log(
      `ocr-synth-build: skipped (${missing.length ? `missing ${missing.map((m) => m[0]).join(', ')}` : `no corpus at ${corpus} and no man/groff`})`,
    );
    return 0;
  }
  const { words: devWords, commands: devCommands } = devSources(dev);
  const work = join(out, 'work');
  const filesDir = join(out, 'files');
  rmSync(filesDir, { recursive: true, force: true });
  mkdirSync(filesDir, { recursive: true });
  mkdirSync(work, { recursive: true });

  // half the pages from manual pages (when there), spread over the four languages; the rest from the corpus
  const manShare = useMan ? (haveCorpus ? 0.5 : 1) : 0;
  const byLang = useMan ? manSources(work, devCommands, Math.ceil((want * manShare) / 4 / 1.5) + 3, next) : [];
  const manDocs = inTurn(byLang);
  const corpusDocs = haveCorpus ? corpusSources(corpus, devWords) : [];
  shuffleInPlace(corpusDocs, next);
  if (useMan)
    console.log(`ocr-synth-build: ${manDocs.length} manual pages typeset (${[...devCommands].sort().join(', ')} left out: the dev split's)`);

  // the pages: up to two per document, man and corpus documents interleaved
  const chosen: PageText[][] = [];
  let total = 0;
  let mi = 0;
  let ci = 0;
  const wantMan = Math.round(want * manShare);
  let manPages = 0;
  while (total < want + 6 && (mi < manDocs.length || ci < corpusDocs.length)) {
    const fromMan = mi < manDocs.length && (manPages < wantMan || ci >= corpusDocs.length);
    const src = fromMan ? manDocs[mi++] : corpusDocs[ci++];
    const cands = src.pages.slice();
    shuffleInPlace(cands, next);
    const k = next() < 0.5 ? 2 : 1;
    const got: PageText[] = [];
    for (const p of cands) {
      if (got.length >= k) break;
      const pt = readPage(src, p);
      if (pt) got.push(pt);
    }
    if (!got.length) continue;
    got.sort((a, b) => a.page - b.page);
    chosen.push(got);
    total += got.length;
    if (fromMan) manPages += got.length;
  }
  const pool = chosen.flat();

  // files: one document's pages, and now and then a third page from the next document (1–3 pages a file)
  const labels: string[] = [];
  let n = 0;
  let built = 0;
  for (let d = 0; d < chosen.length && built < want; d++) {
    const pages = chosen[d].slice();
    if (pages.length < 3 && d + 1 < chosen.length && next() < 0.2) pages.push(chosen[++d][0]);
    const storeDpi = pick([100, 110, 120, 150], next);
    const quality = 45 + Math.floor(next() * 26);
    const name = `${String(++n).padStart(3, '0')}-${pages[0].src.name.slice(0, 40)}`;
    const outPages: OutPage[] = [];
    const recs: Record<string, unknown>[] = [];
    pages.forEach((pt, i) => {
      const rc = drawRecipe(next);
      let other: Line[] = [];
      if (rc.corruption === 'other-page') {
        const others = pool.filter((o) => o.src !== pt.src);
        const o = others.length ? pick(others, next) : pt;
        other = o.lines;
        rc.other = `${o.src.name} p${o.page}`;
      }
      const lines = corrupt(pt.lines, rc, next, other);
      const base = join(work, `${name}-${i + 1}`);
      execFileSync('pdftoppm', ['-q', '-r', `${storeDpi}`, '-gray', '-f', `${pt.page}`, '-l', `${pt.page}`, '-singlefile', pt.src.pdf, base]);
      const size = tintPgm(`${base}.pgm`, 236 + Math.floor(next() * 17));
      degradePgm(`${base}.pgm`, 1, pick([0, 3, 5, 8], next), next);
      execFileSync('cjpeg', ['-quality', `${quality}`, '-baseline', '-outfile', `${base}.jpg`, `${base}.pgm`]);
      outPages.push({
        jpeg: new Uint8Array(readFileSync(`${base}.jpg`)),
        imgWidth: size.width,
        imgHeight: size.height,
        width: pt.width,
        height: pt.height,
        lines,
        cyrillic: pt.src.lang === 'rus',
      });
      recs.push({ rc, pt });
    });
    const pdf = join(filesDir, `${name}.pdf`);
    writeFileSync(pdf, writePdf(outPages));
    const labelPages = recs.map(({ rc, pt }, i) => {
      const r = rc as Recipe;
      const p = pt as PageText;
      const layer = layerText(outPages[i].lines, outPages[i].cyrillic);
      const cer = levenshtein(layer, p.truth) / p.truth.length;
      // the finished page as pdftotext -raw reads it, for comparison (see layerText)
      const raw = normalise(
        execFileSync('pdftotext', ['-q', '-raw', '-f', `${i + 1}`, '-l', `${i + 1}`, pdf, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 }),
      );
      const cerRaw = levenshtein(raw, p.truth) / p.truth.length;
      const cls = cer <= 0.05 ? 'good' : cer <= 0.25 ? 'fair' : 'poor';
      console.log(
        `${name} p${i + 1}: ${p.src.name} p${p.page} ${r.corruption}${r.rate !== undefined ? ` rate ${r.rate}` : ''}${r.frac !== undefined ? ` frac ${r.frac} ${r.mode}` : ''}${r.shift !== undefined ? ` shift ${r.shift}` : ''}${r.other ? ` other ${r.other}` : ''}: CER ${cer.toFixed(3)} (${cls}; pdftotext -raw ${cerRaw.toFixed(3)})`,
      );
      return {
        page: i + 1,
        source: `${p.src.name} p${p.page}`,
        lang: p.src.lang,
        recipe: { ...r, store_dpi: storeDpi, jpeg_quality: quality },
        truth_chars: p.truth.length,
        layer_chars: layer.length,
        cer: r4(cer),
        wer: r4(wer(layer, p.truth)),
        word_f1: r4(wordF1(layer, p.truth)),
        class: cls,
        reocr: cls === 'poor',
      };
    });
    labels.push(JSON.stringify({ file: `files/${name}.pdf`, pages: labelPages }));
    built += labelPages.length;
  }
  writeFileSync(join(out, 'labels.jsonl'), labels.join('\n') + '\n');
  console.log(
    `\n${built} pages in ${labels.length} files in ${out} (labels.jsonl, files/); judge them: node --import tsx scripts/ocr-quality.ts --data ${out}`,
  );
  return 0;
}

// run as a script, not when a test imports its helpers
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = main();
