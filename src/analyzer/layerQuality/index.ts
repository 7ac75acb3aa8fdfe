/**
 * The layer-quality score: how wrong a page's text layer is, estimated from the layer itself and from the scan under
 * it, and the advice "keep" or "re-OCR". Pure TypeScript (no Node APIs): it runs in the CLI, the extension and a
 * browser alike.
 *
 * Signals (all in `signals`, each measured on the dev split, see README "Layer quality"):
 * - language: `bitsPerChar` (character trigram cross-entropy under the best of the en/de/fr/ru models), `wordLike`
 *   (share of words that read like that language), `language`;
 * - encoding: `badShare` (U+FFFD, private use, controls), `symbolShare` (neither letter, digit nor common
 *   punctuation), `mixedScript` (words mixing Latin and Cyrillic letters: a wrong-script OCR);
 * - word shape: `fragments` (share of one- and two-letter words: spaces inserted), `longWords` (words of 16+ letters:
 *   spaces lost);
 * - layout: `widthSpread` (median absolute deviation of log(box width / (letters × font size)) over the words: an
 *   OCR engine fits each word to its box, so a word that is not the box's word stretches or squeezes);
 * - image (only when the scan is a baseline JPEG it can decode): `inkCovered` (share of the scan's ink under the
 *   layer's word boxes: a partial layer leaves ink uncovered), `boxesOnInk` (share of word boxes with ink in them);
 * - producer (context only, never in the score): `font` (the layer's main font, e.g. GlyphLessFont).
 *
 * The estimate: a linear model of ln(CER + 0.01) over three signals, one of each kind: wordLike (language),
 * widthSpread (layout) and 1 − inkCovered (image); weights fitted by ridge least squares on the dev split and
 * rounded (see WEIGHTS). The other signals are shown as evidence but not scored: on the dev split they added
 * nothing a leave-one-document-out check could confirm. It is turned into `score = 1 − estimated CER` (clamped to 0..1) and `reocr` when the
 * estimated CER passes 0.25 (the dataset's "poor" class).
 */
import type { Budget } from '../budget';
import type { Matrix } from '../geometry';
import type { GlyphRun, LayerQuality, TextLayer } from '../types';
import { type InkMap, inkIn, inkMap, toPixels } from './ink';
import { decodeJpegGray } from './jpeg';
import { languageEvidence } from './language';

export { decodeJpegGray } from './jpeg';
export { languageEvidence } from './language';

/** the scan image under the layer, still encoded */
export interface ScanInput {
  /** JPEG bytes (the stream decoded up to its DCTDecode filter) */
  jpeg: Uint8Array;
  /** the CTM that paints it (unit square → page) */
  ctm: Matrix;
  /** pixel size as the image dictionary gives it */
  width: number;
  height: number;
}

export interface LayerQualityInput {
  layer: TextLayer;
  /** which runs are the layer: the invisible ones of an OCR layer, or the visible text of a text page */
  which: 'invisible' | 'visible';
  scan?: ScanInput;
  budget?: Budget;
  /** the largest image decoded (pixels) */
  maxScanPixels?: number;
  /** context only (never scored): the layer's main font and the document's producer */
  font?: string;
  producer?: string;
}

/** the reocr cut: the estimated CER above which a layer is poor */
export const REOCR_CER = 0.25;

/**
 * Linear model of ln(CER + 0.01): intercept and one weight per signal. Fitted by least squares on the 121 dev pages
 * (scripts/ocr-quality.ts prints the fit, per-signal figures and a leave-one-document-out check) and rounded.
 */
export const WEIGHTS = {
  intercept: -0.9,
  /** language: words that read like the page's language lower the error */
  wordLike: -3.4,
  /** layout: words that do not fit their boxes raise it */
  widthSpread: 5.3,
  /** image: ink the layer leaves uncovered raises it */
  inkMissed: 2.3,
};

/** what inkMissed counts as when the scan cannot be read (the dev split's median: neither good nor bad news) */
const INK_MISSED_UNKNOWN = 0.07;

export type SignalName =
  Exclude<keyof typeof WEIGHTS, 'intercept'> | 'bitsPerChar' | 'symbolShare' | 'badShare' | 'mixedScript' | 'fragments' | 'longWords' | 'boxesOffInk';

export function layerQuality(input: LayerQualityInput): LayerQuality {
  const { layer } = input;
  const runs = layer.runs.filter((r) => (input.which === 'invisible' ? r.visibility !== 'visible' : r.visibility === 'visible'));
  const signals: LayerQuality['signals'] = {};
  const text = runs.length === layer.runs.length ? layer.text : runs.map((r) => r.text).join(' ');
  const x = textSignals(text, runs);
  Object.assign(signals, x.shown);
  const ink = input.scan ? inkSignals(runs, input.scan, input.budget, input.maxScanPixels ?? 40_000_000) : { note: 'no scan image' };
  if ('note' in ink) {
    signals.image = ink.note;
    x.values.inkMissed = INK_MISSED_UNKNOWN;
  } else {
    signals.inkCovered = r3(1 - ink.inkMissed);
    signals.boxesOnInk = r3(1 - ink.boxesOffInk);
    x.values.inkMissed = ink.inkMissed;
    x.values.boxesOffInk = ink.boxesOffInk;
  }
  if (input.font) signals.font = input.font;
  if (input.producer) signals.producer = input.producer.slice(0, 80);
  let z = WEIGHTS.intercept;
  for (const k of Object.keys(WEIGHTS) as (keyof typeof WEIGHTS)[]) {
    if (k === 'intercept') continue;
    const v = x.values[k as SignalName];
    if (v !== undefined && Number.isFinite(v)) z += WEIGHTS[k] * v;
  }
  const cer = Math.max(0, Math.exp(z) - 0.01);
  signals.estimatedCer = r3(cer);
  let score = Math.min(1, Math.max(0, 1 - cer));
  let reocr = cer > REOCR_CER;
  if (layer.cut) {
    // evidence cut short: never a confident "keep"
    signals.incomplete = layer.cut;
    score = Math.min(score, 1 - REOCR_CER);
  }
  if (x.values.letters !== undefined && x.values.letters < 20) {
    signals.incomplete = 'too little text to judge';
    score = Math.min(score, 1 - REOCR_CER);
    reocr = reocr || x.values.letters === 0;
  }
  return { score: r3(score), reocr, signals };
}

interface TextSignals {
  values: Partial<Record<SignalName | 'letters', number>>;
  shown: LayerQuality['signals'];
}

function textSignals(text: string, runs: GlyphRun[]): TextSignals {
  const lang = languageEvidence(text);
  let nonSpace = 0;
  let bad = 0;
  let symbols = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp <= 32) continue;
    nonSpace++;
    if (cp === 0xfffd || (cp >= 0xe000 && cp <= 0xf8ff) || cp < 32 || (cp >= 0x7f && cp < 0xa0)) bad++;
    else if (!/[\p{L}\p{N}.,;:!?'"()\-/]/u.test(ch)) symbols++;
  }
  let words = 0;
  let frags = 0;
  let longs = 0;
  let mixed = 0;
  for (const w of text.split(/\s+/)) {
    const letters = w.replace(/[^\p{L}]/gu, '');
    if (!letters) continue;
    words++;
    if (letters.length <= 2) frags++;
    if (letters.length >= 16) longs++;
    if (/[a-zA-Z]/.test(letters) && /[\u0400-\u04ff]/.test(letters)) mixed++;
  }
  const spread = widthSpread(runs);
  const values: TextSignals['values'] = {
    bitsPerChar: Number.isFinite(lang.bitsPerChar) ? lang.bitsPerChar : 8,
    wordLike: lang.wordLike,
    symbolShare: nonSpace ? symbols / nonSpace : 0,
    badShare: nonSpace ? bad / nonSpace : 0,
    mixedScript: words ? mixed / words : 0,
    fragments: words ? frags / words : 0,
    longWords: words ? longs / words : 0,
    widthSpread: spread,
    letters: lang.letters,
  };
  const shown: LayerQuality['signals'] = { language: lang.language, letters: lang.letters };
  for (const [k, v] of Object.entries(values)) if (k !== 'letters') shown[k] = r3(v);
  return { values, shown };
}

/** median absolute deviation of ln(width / (characters × size)) over words of 3+ characters */
function widthSpread(runs: GlyphRun[]): number {
  const xs: number[] = [];
  for (const r of runs) {
    const n = [...r.text].length;
    if (n < 3 || !(r.size > 0)) continue;
    const w = r.rect[2] - r.rect[0];
    if (!(w > 0)) continue;
    xs.push(Math.log(w / (n * r.size)));
    if (xs.length >= 20_000) break;
  }
  if (xs.length < 5) return 0;
  const med = median(xs);
  return median(xs.map((v) => Math.abs(v - med)));
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function inkSignals(
  runs: GlyphRun[],
  scan: ScanInput,
  budget: Budget | undefined,
  maxPixels: number,
): { inkMissed: number; boxesOffInk: number } | { note: string } {
  const pixels = scan.width * scan.height;
  const pxPerPt = Math.min(scan.width / Math.hypot(scan.ctm[0], scan.ctm[1]), scan.height / Math.hypot(scan.ctm[2], scan.ctm[3]));
  // about 75 samples per inch is enough to see words and lines
  const scale: 1 | 2 | 4 = pxPerPt > 3.2 ? 4 : pxPerPt > 1.6 ? 2 : 1;
  const bytes = Math.ceil(pixels / (scale * scale)) * 7;
  if (budget && !budget.tryCharge(bytes, 'decode')) return { note: 'the scan image does not fit the memory budget' };
  try {
    const dec = decodeJpegGray(scan.jpeg, maxPixels, () => budget?.outOfTime('decode') ?? false, scale);
    if (!dec.ok) return { note: `scan image not read: ${dec.error} (${dec.message})` };
    const m = inkMap(dec.image, scan.ctm);
    if (!m) return { note: 'the scan image shows no contrast' };
    return coverage(m, runs);
  } finally {
    budget?.release(bytes);
  }
}

function coverage(m: InkMap, runs: GlyphRun[]): { inkMissed: number; boxesOffInk: number } {
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
      if (area === 0 || inkPx / area < 0.03) off++;
    }
  }
  let covered = 0;
  const ink = m.ink;
  for (let i = 0; i < ink.length; i++) if (ink[i] && mask[i]) covered++;
  return { inkMissed: m.total > 0 ? 1 - covered / m.total : 0, boxesOffInk: boxes > 0 ? off / boxes : 0 };
}

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
