/**
 * Builds a stand-in for the SYNTHETIC part of the OCR-quality held-out split (issue 16): the true words of a
 * born-digital page at their true positions, written the way the dev split's synthetic pages are (OCRmyPDF's legacy
 * hOCR renderer: Helvetica, render mode 3, one BT…ET per line, each word horizontally scaled to its box, the text in a
 * form drawn over a full-page grey JPEG), after one of the dev README's corruptions. Labelled as the dev split is, so
 * `npm run ocr-quality -- --data DIR` judges it. scripts/ocr-layers-build.ts is the stand-in for the real-OCR part.
 *
 *   node --import tsx scripts/ocr-synth-build.ts --out DIR [--pages 60] [--seed 1] [--corpus ../shared/corpus] [--man|--no-man]
 *
 * Sources (scripts/ocr-split-sources.ts, shared with ocr-layers-build.ts): corpus pages labelled `text` (600–6,000
 * visible characters, two images at most, none whose name shares a word with a dev-split source), and, when groff and
 * man are there (default on; --no-man turns it off), manual pages typeset by `man -Tpdf` in English, German, French
 * and Russian (Russian through a groff font directory made here with afmtodit from the URW Nimbus Roman fonts, which
 * have Cyrillic) of commands the dev split does not name. Two pages per source document at most; files of 1–3 pages;
 * one image resolution and quality per file.
 *
 * Per page: truth = the source page's `pdftotext -raw`, normalised; words and their boxes from `pdftotext -raw -bbox`
 * (content order), grouped into lines; the image = the page rendered grey (pdftoppm) at store_dpi 100–150, paper tint
 * and noise, baseline JPEG quality 45–70 (cjpeg); the layer = the corrupted words written as invisible Helvetica
 * (scripts/ocr-layer-writer.ts). The label is measured on the layer's text as written (its words in content order, as
 * PyMuPDF reads such a layer; see ocr-layer-writer.ts's layerText for why not `pdftotext -raw`, which the build log
 * prints beside it): CER, WER, bag-of-words F1, class good ≤ 0.05 < fair ≤ 0.25 < poor, reocr = poor. Needs pdftotext,
 * pdftoppm (poppler-utils) and cjpeg; without them: a clean skip.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from './fuzz';
import { layerText, writePdf, type Line, type OutPage, type Word } from './ocr-layer-writer';
import {
  arg,
  buildSetup,
  corpusSources,
  degradePgm,
  foreignScript,
  levenshtein,
  labelClass,
  manSources,
  MAX_PAGES_PER_DOCUMENT,
  normalise,
  readPgm,
  shuffleInPlace,
  type Rnd,
  type Source,
} from './ocr-split-sources';

const pick = <T>(xs: readonly T[], next: Rnd): T => xs[Math.floor(next() * xs.length)];

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

/**
 * typical OCR confusions, both ways (a scan merges and splits strokes); longer patterns first. The Latin ones are those
 * the dev split's confusion pages show (its layers diffed against truth.jsonl: e→c, a→o, o→0, t→f, i→í, n→ri, l→1,
 * u→ii, d→cl, h→b, m→rn, … and, rarely, the merges rn→m, cl→d, li→h); the dev split has no Russian synthetic page, so
 * the Cyrillic ones are ours
 */
export const CONFUSIONS: readonly [string, string][] = [
  ['rn', 'm'],
  ['cl', 'd'],
  ['li', 'h'],
  ['m', 'rn'],
  ['d', 'cl'],
  ['h', 'b'],
  ['n', 'ri'],
  ['u', 'ii'],
  ['l', '1'],
  ['1', 'l'],
  ['I', 'l'],
  ['i', 'í'],
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

// ---- the image ------------------------------------------------------------------------------------------------------

/** paper tint: the PGM's white pulled down to `paper` (ink stays dark) */
function tintPgm(file: string, paper: number): { width: number; height: number } {
  const { buf, width, height, pixels: px } = readPgm(file);
  for (let i = 0; i < px.length; i++) px[i] = Math.round((px[i] * paper) / 255);
  writeFileSync(file, buf);
  return { width, height };
}

interface PageText {
  src: Source;
  page: number;
  truth: string;
  width: number;
  height: number;
  lines: Line[];
}

/** a source page's truth and words; null when it is not usable (too little text, a script Helvetica cannot carry) */
function readPage(src: Source, page: number): PageText | null {
  const opts = { encoding: 'utf8' as const, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] as ('ignore' | 'pipe')[] };
  // a turned page (/Rotate) renders turned while poppler's word boxes are not: its layer would miss the scan
  const info = execFileSync('pdfinfo', ['-f', `${page}`, '-l', `${page}`, src.pdf], opts);
  if (/rot:\s*[1-9]/.test(info)) return null;
  const truth = normalise(execFileSync('pdftotext', ['-q', '-raw', '-f', `${page}`, '-l', `${page}`, src.pdf, '-'], opts));
  if (truth.length < 500 || truth.length > 8000) return null;
  if (foreignScript(src.lang).test(truth)) return null;
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
  const want = Number(arg('--pages') ?? 60);
  const seed = Number(arg('--seed') ?? 1);
  const next = prng(seed);
  const setup = buildSetup('ocr-synth-build');
  if (!setup) return 0;
  const { corpus, haveCorpus, useMan } = setup;
  const work = join(out, 'work');
  const filesDir = join(out, 'files');
  rmSync(filesDir, { recursive: true, force: true });
  mkdirSync(filesDir, { recursive: true });
  mkdirSync(work, { recursive: true });

  // half the pages from manual pages (when there), spread over the four languages; the rest from the corpus
  const manShare = useMan ? (haveCorpus ? 0.5 : 1) : 0;
  const manDocs = useMan ? manSources('ocr-synth-build', work, Math.ceil((want * manShare) / 4 / 1.5) + 3, next) : [];
  const corpusDocs = haveCorpus ? corpusSources(corpus) : [];
  shuffleInPlace(corpusDocs, next);

  // the pages: one or two per document (MAX_PAGES_PER_DOCUMENT), man and corpus documents interleaved
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
    const k = next() < 0.5 ? MAX_PAGES_PER_DOCUMENT : 1;
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
      const cls = labelClass(cer);
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
