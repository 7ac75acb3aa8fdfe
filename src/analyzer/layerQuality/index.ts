/**
 * The layer-quality score: how wrong a page's text layer is, estimated from the layer itself and from the scan under
 * it, and the advice "keep" or "re-OCR". Pure TypeScript (no Node APIs): it runs in the CLI, the extension and a
 * browser alike.
 *
 * Signals (all in `signals`, each measured on the dev split, see README "Layer quality"):
 * - language: `nonWords` (share of letter-only words costing more than NONWORD_BITS a letter under both of the page's
 *   two likeliest languages: words that read like no language of the page; tokens with digits are not judged),
 *   `bitsPerChar` (character trigram cross-entropy under the page's likeliest model, language.ts), `wordLike` (share of
 *   words that read like that language), `wordLikeEither` (like either of the two likeliest: a Russian manual page
 *   with English commands has words of both), `language`;
 * - encoding: `badShare` (U+FFFD, private use, controls), `symbolShare` (neither letter, digit nor common
 *   punctuation), `mixedScript` (words mixing Latin and Cyrillic letters: a wrong-script OCR);
 * - word shape: `garbled` (words with a shape no word has: a capital after a small letter, a digit between letters,
 *   two scripts; what OCR with the wrong language or on a bad scan writes), `fragments` (one- and two-letter words:
 *   spaces inserted), `longWords` (words of 16+ letters: spaces lost);
 * - layout: `widthSpread` (median absolute deviation of log(box width / (the letters' expected width × font size))
 *   over the words, widths.ts: an OCR engine fits each word to its box, so a word that is not the box's word, or has
 *   lost or gained letters, stretches or squeezes), and its tails in characters, `boxSlack` (box the words do not
 *   fill: letters dropped inside a box, leader dots read short) and `boxOverflow` (letters their boxes cannot hold);
 * - image (only when the scan is a baseline JPEG it can decode): `textInkMissed` (the share of the scan's text-like
 *   ink outside the layer's word boxes: blobs of uncovered ink at least half as dense as the text the layer covers, so
 *   a dropped line counts and a form's frames, rules, line art and large type (a logo, a title) do not), `inkCovered` (the share of all ink under
 *   the boxes), `boxesOnInk` (share of word boxes with ink in them), `faintPrint` (on a scan of faint print, the
 *   factor its darkness was stretched by: ink.ts FAINT); where the scan is read at letter scale,
 *   `letterShapes` (shape.ts: do the words' ascenders and descenders sit where the scan has them; `ascenders`,
 *   `descenders` apart), `leadersMissed` (leaders.ts: the share of the page's characters in leader dots between a
 *   line's words that the layer lacks; shown, not scored, see leaderSignals) and `capitals` (the share of capitals
 *   among the letters it judged: capitals have no x-height band to agree with);
 * - producer (context only, never in the score): `font` (the layer's main font, e.g. GlyphLessFont).
 * - route: `layerTooSmall` (true on an `ocr` page: its hidden text is too small to route as an OCR layer, and re-OCR
 *   is advised whatever the rest says).
 * Each scored run also gets `likelihood` (language.ts wordLikelihood), for a view that colours the words.
 *
 * The estimate has the shape of the error itself: a layer that lacks a share `missing` of the page's text and gets the
 * rest wrong at a rate `e` has CER ≈ missing + (1 − missing)·e.
 * - `missing` comes from the image: textInkMissed less a small floor (MISSING; the refit finds a slope of 1: the
 *   share of text ink missing is the share of text missing), and from the boxes: a share of boxSlack (BOX_FIT);
 * - `e` from the text: ln(e + 0.01) linear in ln(widthSpread + 0.02), ln(garbled + 0.02) and ln(nonWords + 0.02)
 *   (WEIGHTS; with ln(letterShapes) besides where the scan is read at letter scale, WEIGHTS_WITH_SHAPES), and never
 *   below the share of non-words beyond what a usable page has (NONWORD_CLEAN), so well-fitting boxes cannot hide
 *   nonsense words, nor below UNLIKE_SCAN's bound when words on the scan's ink agree with its letter shapes not at
 *   all, so well-read words cannot hide that they are not the scan's; plus a share of boxOverflow (BOX_FIT).
 * The weights were fitted on the dev split (a grid over floor and slope, ridge least squares for the weights;
 * scripts/ocr-quality.ts refits them leaving one document out) and rounded. The other signals are shown as evidence
 * but not scored: on the dev split they added nothing a leave-one-document-out check could confirm. It is turned into
 * `score = 1 − estimated CER` (clamped to 0..1) and `reocr` when the estimated CER passes 0.25 (the "poor" class).
 * `signals.estimatedCer` is that estimate, `signals.textError` its `e` (the text that is there) and `signals.textMissing`
 * its `missing` (where the scan was read; also on a page with too little text to judge), which tell a layer whose words
 * are wrong from one that lacks words (the preview colours words one by one only on the first kind; the CLI and the
 * tree say which).
 */
import type { Budget } from '../budget';
import type { Matrix } from '../geometry';
import type { GlyphRun, LayerQuality, TextLayer } from '../types';
import { type InkMap, inkMap, pixelMap } from './ink';
import { type BlockMask, decodeJpegDc, decodeJpegGray, type GrayImage, jpegWorkBytes } from './jpeg';
import { ASCII_SHARE, SHARE_BAD, SHARE_NONE, SHARE_SYMBOL } from './chars';
import { type Language, languageEvidence, MAX_CHARS, type ShiftedAlphabet, shiftedAlphabet, wordCounts, wordLikelihood } from './language';
import { inkLevel, LINE_PAD as SHAPE_PAD, letterShapes, type LetterShapes, type PixelMap, pixelRect as toPixelRect } from './shape';
import { type DecodedScan, isBilevel, reduceScan } from './pixels';
import { boxFit, SPREAD_WORDS } from './boxFit';
import { type CharSignals, charSignals, nonWords, TEXT_CHARS } from './words';
import { median, medianScratch } from './median';
import { type InkCoverage, inkCoverage, MAX_MISSING_REGIONS } from './missing';
import { type Gap, lineGaps, missedLeaders } from './leaders';

export { decodeJpegDc, decodeJpegGray } from './jpeg';
export { languageEvidence } from './language';

/** the scan image under the layer: a JPEG still encoded, or an image already decoded to gray (pixels.ts) */
export interface ScanInput {
  /** JPEG bytes (the stream decoded up to its DCTDecode filter); empty when `pixels` holds the scan */
  jpeg: Uint8Array;
  /** the scan decoded (a Flate, LZW, unfiltered, fax, JPEG 2000 or JBIG2 image), in gray or, bilevel, as its bits (pixels.ts), instead of a JPEG */
  pixels?: DecodedScan;
  /** `pixels` hold the image at 1 / reduced of its size each way (a JPEG 2000 scan read at a lower resolution); 1 when absent */
  reduced?: 1 | 2 | 4;
  /** the CTM that paints it (unit square → page) */
  ctm: Matrix;
  /** pixel size as the image dictionary gives it */
  width: number;
  height: number;
  /** the image XObject (any object that stays the same for the same image within a document): its ink map is then kept for other pages that paint it */
  key?: object;
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
  /** false: skip the runs' word likelihoods (they are only reported with the text layer: AnalyzerOptions.textLayer) */
  likelihoods?: boolean;
  /** true: write where the scan has text no run covers into the layer (TextLayer.missingText; reported with the text layer) */
  missingText?: boolean;
  /** without `scan`: why the page's scan image could not be read (for signals.image), e.g. its filter */
  unreadScan?: string;
  /**
   * the page routes `ocr`: its hidden text is fewer characters than an OCR layer needs to route as one
   * (AnalyzerOptions.minOcrLayerChars) over a scan that covers the page. Re-OCR is then advised whatever the words say
   * (signals.layerTooSmall), so that the advice never keeps what the route sends to OCR.
   */
  routedOcr?: boolean;
}

/** the reocr cut: the estimated CER above which a layer is poor */
export const REOCR_CER = 0.25;

/**
 * The text's error rate: ln(e + 0.01) = intercept + widthSpread·ln(widthSpread + 0.02) + garbled·ln(garbled + 0.02) +
 * nonWords·ln(nonWords + 0.02), i.e. e grows as a power of the words' misfit to their boxes, of the share of garbled
 * words and of the share of words that read like no language of the page. Fitted on the 121 dev pages
 * (scripts/ocr-quality.ts prints the fit, per-signal figures and a leave-one-document-out check) and rounded.
 */
export const WEIGHTS = {
  intercept: 4.2,
  /** layout (exponent): words that do not fit their boxes raise it */
  widthSpread: 1.6,
  /** word shape (exponent): words with a shape no word has (a capital after a small letter, a digit between letters, two scripts) raise it */
  garbled: 0.35,
  /** language (exponent): words whose letters cost more than NONWORD_BITS each under both of the page's likeliest languages raise it */
  nonWords: 0.95,
};

/**
 * The text's error rate when the scan could be read at letter scale (shape.ts): the same form with the letter shapes'
 * agreement as one more term, + letterShapes·ln(max(LETTER_SHAPES_FLOOR, letterShapes) + 0.02): words whose
 * ascenders and descenders are not where the scan has them raise it. Fitted the same way on the same pages.
 */
export const WEIGHTS_WITH_SHAPES = {
  intercept: 0.8,
  widthSpread: 0.9,
  garbled: 0.25,
  nonWords: 0.5,
  letterShapes: -0.6,
};
/** agreements under this (none, or against) count as this: past it there is nothing more to learn */
export const LETTER_SHAPES_FLOOR = 0.02;

/**
 * Letter shapes below LETTER_SHAPES_FLOOR (no agreement at all, or against) on words whose letters are at most
 * `maxCapitals` capitals and whose boxes sit on the scan's ink (at least `minBoxesOnInk` of them): the text's error is
 * at least `error`. On the dev split and the stand-ins the layers that agree that little are poor, but for three fair
 * real-OCR layers (CER 0.16–0.21) the other signals already advise re-OCR, and for code listings and tables in
 * capitals; on the corpus, a layer whose boxes sit beside the print (an eighth of them on blank paper) agrees that
 * little while its words read right (docs/layer-quality-notes.md).
 */
export const UNLIKE_SCAN = { error: 0.4, maxCapitals: 0.5, minBoxesOnInk: 0.95 };

/**
 * the share of non-words (nonWords) a usable layer can have (dev split: good pages 0.02–0.12, fair ones up to 0.29):
 * e is never below nonWords less this. Refitted with each model (scripts/ocr-quality.ts grids it): the text-only model
 * leans on nonWords for all the text tells, the model with the letter shapes has the scan's witness of the words besides
 * and needs the floor only where the words are nonsense the shapes cannot see (OCR confusions keep most letters' shapes).
 * The refit finds 0.15 for it; 0.2 is shipped: on a short page a few words the small models do not know are a large
 * share (a clean 12-word line reads 0.25).
 */
export const NONWORD_CLEAN = { textOnly: 0.3, withShapes: 0.2 };

/**
 * The boxes' tails (boxFit): a word whose box is more than `tail` times as wide as its letters need, or less than
 * 1 / `tail`, counts; `slack` (the box's characters beyond the word's) adds to the text missing, `overflow` (the word's
 * characters beyond its box's) to the text's error, each at its weight. Chosen on the dev split with the other weights
 * held, and checked on both halves of the stand-ins (docs/layer-quality-notes.md): the tails overstate, since a line's
 * last word or a justified line also stretches.
 */
export const BOX_FIT = { tail: 1.5, slack: 0.25, overflow: 0.5 };

/** the share of the text missing: (textInkMissed − floor) × slope, within 0..MISSING.max */
export const MISSING = { floor: 0.01, slope: 1, max: 0.95 };

/** The estimated CER from the signals the model uses. */
export function estimateCer(s: EstimateInput): number {
  return estimateError(s).cer;
}

/** the signals the estimate reads; letterShapes only when the scan could be read at letter scale */
export interface EstimateInput {
  widthSpread: number;
  /** boxFit's tails (0 when absent): characters' worth of box the words do not fill, and of letters their boxes cannot hold */
  boxSlack?: number;
  boxOverflow?: number;
  garbled: number;
  nonWords: number;
  textInkMissed: number;
  letterShapes?: number;
  /** with letterShapes: the share of the judged words' letters that are capitals (shape.ts) */
  capitals?: number;
  /** the share of word boxes with ink in them, where the scan could be read */
  boxesOnInk?: number;
  /** where the scan could be read: true when its print is faint (its ink stretched, ink.ts FAINT) */
  faintPrint?: boolean;
  /** the share of the text's characters a shifted alphabet moved (language.ts shiftedAlphabet), when it is shifted */
  shiftedShare?: number;
}

/**
 * The estimate's parts: `missing` (the share of the text missing), `text` (the error rate of the text that is there,
 * signals.textError: what tells a layer whose words are wrong from one that lacks words) and their `cer`.
 */
export function estimateError(s: EstimateInput): {
  missing: number;
  text: number;
  cer: number;
} {
  const shapes = s.letterShapes;
  const W = shapes === undefined ? WEIGHTS : WEIGHTS_WITH_SHAPES;
  let z =
    W.intercept + W.widthSpread * Math.log(s.widthSpread + 0.02) + W.garbled * Math.log(s.garbled + 0.02) + W.nonWords * Math.log(s.nonWords + 0.02);
  if (shapes !== undefined) z += WEIGHTS_WITH_SHAPES.letterShapes * Math.log(Math.max(LETTER_SHAPES_FLOOR, shapes) + 0.02);
  // the text alone bounds the error from below: words that read like no language of the page beyond the share a usable
  // page has are wrong words, whatever their boxes say; boxes that fit well must not hide them
  const clean = shapes === undefined ? NONWORD_CLEAN.textOnly : NONWORD_CLEAN.withShapes;
  // a shifted alphabet: each letter of a shifted word is a wrong character, however the rest reads
  const e0 = Math.min(1.5, Math.max(0, Math.exp(z) - 0.01, s.nonWords - clean, unlikeScanError(s), s.shiftedShare ?? 0));
  // the boxes' tails: letters beyond what a box holds were added, box beyond a word's letters is text the layer lacks
  const e = Math.min(1.5, e0 + BOX_FIT.overflow * (s.boxOverflow ?? 0));
  const missing = Math.min(MISSING.max, missingShare(s.textInkMissed) + BOX_FIT.slack * (s.boxSlack ?? 0));
  return { missing, text: e, cer: missing + (1 - missing) * e };
}

/**
 * The scan's bound on the text's error (UNLIKE_SCAN.error, else 0): words whose boxes sit on the scan's ink but whose
 * letters agree with its shapes not at all are not the scan's words (another page's text, lines shuffled into other
 * lines' boxes), however well they read and fit their boxes. Not when the words are mostly capitals, whose print has no
 * x-height band to agree with, nor when boxes miss the ink (a layer placed beside its scan: the shapes under its boxes
 * are not its letters'), nor on faint print, whose strokes barely stand out of the paper's grain at letter scale (a
 * right layer's agreement is then near none too).
 */
export function unlikeScanError(s: Pick<EstimateInput, 'letterShapes' | 'capitals' | 'boxesOnInk' | 'faintPrint'>): number {
  const unlike =
    s.letterShapes !== undefined &&
    s.letterShapes < LETTER_SHAPES_FLOOR &&
    (s.capitals ?? 1) <= UNLIKE_SCAN.maxCapitals &&
    (s.boxesOnInk ?? 0) >= UNLIKE_SCAN.minBoxesOnInk &&
    !s.faintPrint;
  return unlike ? UNLIKE_SCAN.error : 0;
}

/** the share of the text missing from the layer, from the share of the scan's text-like ink no word covers */
function missingShare(textInkMissed: number): number {
  return Math.min(MISSING.max, Math.max(0, (textInkMissed - MISSING.floor) * MISSING.slope));
}

/** what textInkMissed counts as when the scan cannot be read: the floor, so no text is taken as missing (no news either way) */
const INK_MISSED_UNKNOWN = MISSING.floor;

/** runs given a likelihood at most */
const LIKELIHOOD_RUNS = 20_000;

export function layerQuality(input: LayerQualityInput): LayerQuality {
  const q = judgeLayer(input);
  if (input.routedOcr) {
    // a layer too small to route as one, mostly an engine that read a few words of a scan full of text (whose ink the
    // coarse map may not tell from a table's rules at 72 dpi): the page goes to OCR by its route, and a tool reading
    // only the advice must not keep it
    q.reocr = true;
    q.score = r3(Math.min(q.score, 1 - REOCR_CER));
    q.signals.layerTooSmall = true;
  }
  return q;
}

function judgeLayer(input: LayerQualityInput): LayerQuality {
  const { layer } = input;
  const runs = runsOf(layer.runs, input.which === 'invisible');
  const text = runs.length === layer.runs.length ? layer.text : runs.map((r) => r.text).join(' ');
  const maxScanPixels = input.maxScanPixels ?? 40_000_000;
  // too little text to judge by its words: its word statistics would be noise, and they are not made (told before
  // anything is read under the models, and again by the statistics' own count when the bound could not tell)
  const c = littleCounts(text);
  if (c && tooLittle(c.letters, c.words)) return littleText(input, runs, text, c.letters, c.words, maxScanPixels, c.shares);
  const x = textSignals(text, runs);
  if (tooLittle(x.values.letters, x.values.words)) return littleText(input, runs, text, x.values.letters, x.values.words, maxScanPixels);
  const signals = shownSignals(x);
  if (input.likelihoods !== false) setLikelihoods(runs, x.language, x.second);
  // the scan decoded whole for the letter shapes gives its block means too: one walk of its entropy-coded data serves
  // the ink map as well. Only under an OCR layer: a text page's visible glyphs are drawn by the file itself, and the
  // image behind them (a background, a page photo beside the text) is no witness of their letters
  const whole = input.scan && input.which === 'invisible' ? readWhole(runs, input.scan, input.budget, maxScanPixels) : undefined;
  try {
    return scoreWith(input, runs, x, signals, whole, maxScanPixels);
  } finally {
    if (whole && 'release' in whole) whole.release();
  }
}

/** Each word's likelihood, for a view that colours the layer's words (runs past LIKELIHOOD_RUNS are left without). */
function setLikelihoods(runs: GlyphRun[], a: Language, b: Language): void {
  const nr = Math.min(runs.length, LIKELIHOOD_RUNS);
  for (let i = 0; i < nr; i++) {
    const l = wordLikelihood(runs[i].text, a, b);
    if (l !== undefined) runs[i].likelihood = l;
  }
}

/** letters a character can become in the models' ids at most: NFKC makes up to 18 of one (U+FDFA), lower-casing up to three of each */
const MAX_LETTERS_PER_CHAR = 54;
/** words a character can become at most: each is two of those letters and a space */
const MAX_WORDS_PER_CHAR = MAX_LETTERS_PER_CHAR / 3;

/**
 * Undefined when the text may have enough to judge (not tooLittle): upper bounds on the letters and words the models
 * count (wordCounts), read only until both reach their cuts (a page of text does within its first words), so that a
 * page with text is not read twice. ASCII is exact (a letter is a letter, anything else a space), and so are U+FFFD and
 * private-use characters (no letter); any other character counts as the most it can become. Only time rests on it: a
 * page it lets through is still told by the statistics' own count. Else wordCounts' counts, made in the same pass when
 * the text is ASCII and all of it is read (the models' ids of ASCII text are its letters, lower-cased, and spaces):
 * most pages with little text are, and wordCounts' second pass cost more than their score's other work. Such a page
 * also gets charSignals' two shares that littleText shows, counted in the same pass by the same rule for ASCII: a
 * second pass through charSignals was the larger part of a little page's score.
 */
function littleCounts(text: string): LittleCounts | undefined {
  let letters = 0;
  let words = 0;
  let run = 0;
  // wordCounts' counts of ASCII text: letters in words of two or more, and those words
  let ascii = true;
  let wordLetters = 0;
  let wordsOfTwo = 0;
  // charSignals' counts of ASCII text (ASCII_SHARE): characters past U+0020 that are not white space, the undecodable
  // (U+007F) and the symbols among them
  let nonSpace = 0;
  let bad = 0;
  let symbols = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      letters++;
      nonSpace++;
      if (++run === 2) words++;
    } else {
      if (run >= 2) {
        wordLetters += run;
        wordsOfTwo++;
      }
      run = 0;
      if (c < 0x80) {
        const share = ASCII_SHARE[c];
        if (share !== SHARE_NONE) {
          nonSpace++;
          if (share === SHARE_BAD) bad++;
          else if (share === SHARE_SYMBOL) symbols++;
        }
      } else {
        ascii = false;
        // an undecodable glyph or a private-use character: no letter, and NFKC leaves it as it is
        if (!(c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff))) {
          letters += MAX_LETTERS_PER_CHAR;
          words += MAX_WORDS_PER_CHAR;
        }
      }
    }
    if (letters >= MIN_LETTERS && words >= MIN_WORDS) return undefined;
  }
  if (!ascii || text.length > MAX_CHARS) return wordCounts(text);
  if (run >= 2) {
    wordLetters += run;
    wordsOfTwo++;
  }
  // the shares of the whole text are charSignals' when it reads the whole text too
  const shares = text.length <= TEXT_CHARS ? { symbolShare: nonSpace ? symbols / nonSpace : 0, badShare: nonSpace ? bad / nonSpace : 0 } : undefined;
  return { letters: wordLetters, words: wordsOfTwo, shares };
}

/** littleCounts' answer: the counts, and for ASCII text read whole charSignals' shares that littleText shows */
interface LittleCounts {
  letters: number;
  words: number;
  shares?: Pick<CharSignals, 'symbolShare' | 'badShare'>;
}

/**
 * Too little text to judge by its words: fewer than MIN_LETTERS letters in words of two or more (a page number, a lone
 * name, a row of digits), or fewer than MIN_WORDS such words (a heading, a label: a share of non-words from six words
 * moves by a sixth with each, and cannot tell a page with none from one with a third).
 */
function tooLittle(letters: number, words: number): boolean {
  return letters < MIN_LETTERS || words < MIN_WORDS;
}

/**
 * A page with too little text to judge by its words (tooLittle). A handful of words is no sample of a text's error, so the word
 * statistics are not made (nor shown): the page has its letters, its shares of symbols and undecodable characters, and
 * the scan's evidence. Never a confident keep: its score is at most 1 − REOCR_CER, and lower by what is known of its
 * error (the scan's text missing, undecodable characters); re-OCR only on evidence beyond the words: one character in
 * fifty or more that does not decode, or the scan's text missing from the layer.
 */
function littleText(
  input: LayerQualityInput,
  runs: GlyphRun[],
  text: string,
  letters: number,
  words: number,
  maxScanPixels: number,
  shares?: LittleCounts['shares'],
): LayerQuality {
  const c = shares ?? charSignals(text);
  const signals: LayerQuality['signals'] = { letters, words, symbolShare: r3(c.symbolShare), badShare: r3(c.badShare) };
  // the runs' likelihoods still need the page's languages, and their words are still coloured by them
  if (input.likelihoods !== false && runs.length > 0) {
    const lang = languageEvidence(text);
    setLikelihoods(runs, lang.language, lang.second);
  }
  const missing = missingShare(inkEvidence(input, runs, signals, undefined, maxScanPixels));
  if (signals.textInkMissed !== undefined) signals.textMissing = r3(missing);
  contextSignals(input, signals);
  signals.incomplete = TOO_LITTLE_TEXT;
  // what is known of its error: the text missing, and the characters that do not decode (each one surely wrong)
  const known = missing + (1 - missing) * c.badShare;
  return { score: r3(Math.min(1 - known, 1 - REOCR_CER)), reocr: c.badShare >= BAD_DECISIVE || missing > REOCR_CER, signals };
}

const TOO_LITTLE_TEXT = 'too little text to judge';

/** which limit a text layer's cut (TextLayer.cut) was, for signals.incomplete */
const LAYER_CUT: Record<NonNullable<TextLayer['cut']>, string> = {
  runs: 'more glyph runs than maxTextRunsPerPage',
  text: 'more text than maxTextLayerChars',
  memory: "the document's memory budget",
  tounicode: 'a ToUnicode map past maxTextCodesPerFont or maxTextRangesPerFont',
};

/**
 * The runs scored: an OCR layer's hidden ones or a text page's visible ones. The array itself when every run is one
 * (a text page's runs mostly are): a page's first filter and its closure cost more than a small page's score.
 */
function runsOf(all: GlyphRun[], invisible: boolean): GlyphRun[] {
  let i = 0;
  while (i < all.length && (all[i].visibility !== 'visible') === invisible) i++;
  if (i === all.length) return all;
  const kept = all.slice(0, i);
  for (i++; i < all.length; i++) if ((all[i].visibility !== 'visible') === invisible) kept.push(all[i]);
  return kept;
}

/** layerQuality's second half: the image evidence (`whole`: the scan decoded whole, or why not) and the estimate */
function scoreWith(
  input: LayerQualityInput,
  runs: GlyphRun[],
  x: TextSignals,
  signals: LayerQuality['signals'],
  whole: Whole | { note: string } | undefined,
  maxScanPixels: number,
): LayerQuality {
  const { layer } = input;
  const textInkMissed = inkEvidence(input, runs, signals, whole, maxScanPixels);
  let shapes: number | undefined;
  if (whole) {
    const sh = 'note' in whole ? whole : shapeSignals(runs, whole, () => input.budget?.outOfTime('decode') ?? false);
    if ('note' in sh) signals.letterShapesNote = sh.note;
    else {
      shapes = (sh.ascenders + sh.descenders) / 2;
      signals.ascenders = r3(sh.ascenders);
      signals.descenders = r3(sh.descenders);
      signals.letterShapes = r3(shapes);
      signals.capitals = r3(sh.capitals);
    }
  }
  if (whole && !('note' in whole)) leaderSignals(input, runs, whole, signals);
  contextSignals(input, signals);
  const v = x.values;
  const {
    cer,
    text: textError,
    missing,
  } = estimateError({
    widthSpread: finiteOr(v.widthSpread, 0),
    boxSlack: finiteOr(v.boxSlack, 0),
    boxOverflow: finiteOr(v.boxOverflow, 0),
    garbled: finiteOr(v.garbled, 0),
    nonWords: finiteOr(v.nonWords, 0),
    textInkMissed: finiteOr(textInkMissed, INK_MISSED_UNKNOWN),
    letterShapes: shapes,
    capitals: typeof signals.capitals === 'number' ? signals.capitals : undefined,
    boxesOnInk: typeof signals.boxesOnInk === 'number' ? signals.boxesOnInk : undefined,
    faintPrint: typeof signals.faintPrint === 'number',
    shiftedShare: x.shifted?.share,
  });
  signals.estimatedCer = r3(cer);
  signals.textError = r3(textError);
  // the other part, where the scan could be read or the boxes tell some (without either nothing is known missing: no
  // news, not none)
  if (signals.textInkMissed !== undefined || missing > 0) signals.textMissing = r3(missing);
  let score = Math.min(1, Math.max(0, 1 - cer));
  let reocr = cer > REOCR_CER;
  if (layer.cut) {
    // evidence cut short: never a confident "keep"
    signals.incomplete = `text layer cut by a limit: ${LAYER_CUT[layer.cut]}`;
    score = Math.min(score, 1 - REOCR_CER);
  }
  // words that cannot be judged: a handful is no sample of the text's error ("Clownfish" is a non-word to the models,
  // a page number has no letters at all), and a language the models do not know reads as garbled whatever its
  // quality. Neither a confident keep nor a re-OCR on them: re-OCR only on evidence beyond the words, glyphs that do
  // not decode or the scan's text missing from the layer
  const unjudged =
    v.unmodeled >= UNMODELED_MAX
      ? `language not modelled: ${Math.round(100 * v.unmodeled)} % of the letters are in none of the models' alphabets`
      : v.topLetter >= ONE_LETTER_MAX
        ? `not a language's text: ${Math.round(100 * v.topLetter)} % of the letters are one letter`
        : undefined;
  if (unjudged) {
    signals.incomplete = unjudged;
    score = Math.min(score, 1 - REOCR_CER);
    reocr = v.badShare >= BAD_DECISIVE || missing > REOCR_CER;
  }
  return { score: r3(score), reocr, signals };
}

/**
 * The scan's evidence of the text (its ink and the runs' boxes) into `signals`; returns textInkMissed, or the neutral
 * INK_MISSED_UNKNOWN without a scan that can be read.
 */
function inkEvidence(
  input: LayerQualityInput,
  runs: GlyphRun[],
  signals: LayerQuality['signals'],
  whole: Whole | { note: string } | undefined,
  maxScanPixels: number,
): number {
  // runs a limit left out (maxTextRunsPerPage, the memory budget) would leave their text's ink uncovered: read as text
  // missing from the layer, our own limit would advise re-OCR. Their ink is not matched at all: nothing is known missing
  const cut = input.layer.runs.length < input.layer.runCount;
  const ink = cut
    ? { note: "not matched to the scan: a limit cut the layer's runs" }
    : input.scan
      ? inkSignals(runs, input.scan, input.budget, maxScanPixels, whole && 'means' in whole ? whole.means : undefined)
      : { note: input.unreadScan ?? 'no scan image' };
  if ('note' in ink) {
    signals.image = ink.note;
    return INK_MISSED_UNKNOWN;
  }
  signals.inkCovered = r3(1 - ink.inkMissed);
  signals.boxesOnInk = r3(1 - ink.boxesOffInk);
  if (ink.stretch > 1) signals.faintPrint = r3(ink.stretch);
  signals.textInkMissed = r3(ink.textInkMissed);
  if (input.missingText && ink.missed.length > 0) input.layer.missingText = ink.missed;
  return ink.textInkMissed;
}

/** the layer's main font and the document's producer, as context (never scored) */
function contextSignals(input: LayerQualityInput, signals: LayerQuality['signals']): void {
  if (input.font) signals.font = input.font;
  if (input.producer) signals.producer = input.producer.slice(0, 80);
}

/** fewer letters (in words of two or more) than this: too little text to judge by its words */
const MIN_LETTERS = 20;
/** fewer words (of two letters or more) than this: too little text to judge by its words */
const MIN_WORDS = 10;
/**
 * letters in none of the models' alphabets from this share on: the page is in a script the models do not know (Chinese,
 * Thai, Korean, Greek: 0.4–1 on the corpus). Below it, a Latin-script language no model holds with a few letters of
 * its own is still read by the nearest models, and so are OCR substitutions that scatter stray letters (0.06 on the dev
 * split)
 */
const UNMODELED_MAX = 0.2;
/**
 * one letter's share of the letters from which the text is no language's (a test page of "aaaa…", a row of x's): the
 * commonest letter of a language is under a fifth of its letters (e in German and English, о in Russian), and an
 * OCR layer's errors only spread the letters further. Such a text's words say nothing of its errors either way
 */
const ONE_LETTER_MAX = 0.5;
/** undecodable characters (U+FFFD, private use, controls: badShare) from this share on (one in fifty) are a broken layer, whatever else can be judged */
const BAD_DECISIVE = 0.02;

function finiteOr(v: number, d: number): number {
  return Number.isFinite(v) ? v : d;
}

/** the text's signals (textSignals), as numbers */
interface TextValues {
  bitsPerChar: number;
  wordLike: number;
  symbolShare: number;
  badShare: number;
  mixedScript: number;
  garbled: number;
  wordLikeEither: number;
  fragments: number;
  longWords: number;
  widthSpread: number;
  boxSlack: number;
  boxOverflow: number;
  nonWords: number;
  unmodeled: number;
  topLetter: number;
  letters: number;
  words: number;
}

interface TextSignals {
  values: TextValues;
  /** the page's two likeliest languages */
  language: Language;
  second: Language;
  /** the text reads as a language only shifted back along its alphabet (language.ts shiftedAlphabet) */
  shifted?: ShiftedAlphabet;
}

/**
 * The share of non-words from which a page's text is read for a shifted alphabet: a shifted text's words read like no
 * language (the dev split's Caesar-shifted layers: 0.70–0.82), a right one's mostly do (good pages up to 0.12), and
 * the 25 or 31 shifts' reading is then spent on few pages.
 */
export const SHIFT_NONWORDS = 0.3;

/** The signals object shown for a page, opened with the text's signals (rounded) in a fixed order. */
function shownSignals(x: TextSignals): LayerQuality['signals'] {
  const v = x.values;
  return {
    language: x.language,
    letters: v.letters,
    bitsPerChar: r3(v.bitsPerChar),
    wordLike: r3(v.wordLike),
    symbolShare: r3(v.symbolShare),
    badShare: r3(v.badShare),
    mixedScript: r3(v.mixedScript),
    garbled: r3(v.garbled),
    wordLikeEither: r3(v.wordLikeEither),
    fragments: r3(v.fragments),
    longWords: r3(v.longWords),
    widthSpread: r3(v.widthSpread),
    boxSlack: r3(v.boxSlack),
    boxOverflow: r3(v.boxOverflow),
    nonWords: r3(v.nonWords),
    unmodeled: r3(v.unmodeled),
    ...(x.shifted ? { shift: x.shifted.shift, shiftedShare: r3(x.shifted.share) } : {}),
  };
}

function textSignals(text: string, runs: GlyphRun[]): TextSignals {
  const lang = languageEvidence(text);
  const c = charSignals(text);
  const fit = boxFit(runs, BOX_FIT.tail);
  const values: TextValues = {
    bitsPerChar: Number.isFinite(lang.bitsPerChar) ? lang.bitsPerChar : 8,
    wordLike: lang.wordLike,
    symbolShare: c.symbolShare,
    badShare: c.badShare,
    mixedScript: c.mixedScript,
    garbled: c.garbled,
    wordLikeEither: lang.wordLikeEither,
    fragments: c.fragments,
    longWords: c.longWords,
    widthSpread: fit.spread,
    boxSlack: fit.slack,
    boxOverflow: fit.overflow,
    nonWords: nonWords(text, lang.language, lang.second),
    unmodeled: lang.unmodeled,
    topLetter: lang.topLetter,
    letters: lang.letters,
    words: lang.words,
  };
  const shifted = values.nonWords >= SHIFT_NONWORDS ? shiftedAlphabet(text) : undefined;
  return { values, language: lang.language, second: lang.second, ...(shifted ? { shifted } : {}) };
}

type InkResult = { map: InkMap } | { note: string };

/** ink maps kept per document (its Budget) and image XObject, so a scan shared by pages is decoded once */
const inkCache = new WeakMap<Budget, Map<object, { ink: InkResult; bytes: number }>>();
/** the most ink maps kept per document */
const INK_CACHE_ENTRIES = 4;

function inkSignals(
  runs: GlyphRun[],
  scan: ScanInput,
  budget: Budget | undefined,
  maxPixels: number,
  means?: GrayImage,
): InkCoverage | { note: string } {
  const ink = inkOf(scan, budget, maxPixels, means);
  if ('note' in ink) return ink;
  // inkCoverage's scratch, held while it runs: per sample a mask, a seen flag, the flood's stack and a blob's members
  const scratch = ink.map.width * ink.map.height * COVERAGE_SCRATCH_BYTES;
  if (budget && !budget.tryCharge(scratch, 'decode')) return { note: "the scan's ink does not fit the memory budget" };
  try {
    return inkCoverage(ink.map, runs);
  } finally {
    budget?.release(scratch);
  }
}

/** bytes per ink map sample that inkCoverage holds while it runs (Uint8 mask and seen, Int32 stack and members) */
const COVERAGE_SCRATCH_BYTES = 10;

/** the scan decoded whole (at the letter shapes' scale), with its block means, charged to the budget until released */
interface Whole {
  image: GrayImage;
  /** the image's ink level (shape.ts inkLevel), read once for the letter shapes and the leader dots */
  ink: { level: number; dark: number };
  means: GrayImage;
  map: PixelMap;
  /** the wide gaps between the words of the layer's lines (leaders.ts), decoded whole with the words */
  gaps: Gap[];
  release: () => void;
}

/**
 * The scan decoded whole for the letter shapes (width × height bytes at its scale, charged to the budget until
 * released; only the blocks under the word lines through the inverse DCT), or a note saying why not.
 */
function readWhole(runs: GlyphRun[], scan: ScanInput, budget: Budget | undefined, maxPixels: number): Whole | { note: string } {
  if (!(scan.width > 0 && scan.height > 0) || scan.width * scan.height > maxPixels)
    return { note: 'the scan image is too large to read at letter scale' };
  const gaps = lineGaps(runs);
  const { scale, blocks } = shapePlan(runs, scan, gaps);
  if (scan.pixels) return wholeOfPixels(scan, scan.pixels, scale, budget, gaps);
  // the image (at that scale), its block means and mask, and the entropy-coded data read in place (the letter shapes
  // read the image as it is: a line's row profile and its words' columns, nothing of the image's size)
  const bytes =
    Math.ceil(scan.width / scale) * Math.ceil(scan.height / scale) +
    2 * Math.ceil(scan.width / 8) * Math.ceil(scan.height / 8) +
    scan.jpeg.length +
    jpegWorkBytes(scan.jpeg, false);
  if (budget && !budget.tryCharge(bytes, 'decode')) return { note: 'the scan image does not fit the memory budget at letter scale' };
  const release = () => budget?.release(bytes);
  const dec = decodeJpegGray(scan.jpeg, maxPixels, () => budget?.outOfTime('decode') ?? false, scale, blocks, true);
  const map = dec.ok ? pixelMap(scan.ctm, dec.image.width, dec.image.height) : undefined;
  if (!dec.ok || !dec.means || !map) {
    release();
    return { note: !dec.ok ? `scan image not read at letter scale: ${dec.error} (${dec.message})` : 'the scan image is painted flat' };
  }
  return { image: dec.image, ink: inkLevel(dec.image), means: dec.means, map, gaps, release };
}

/** readWhole for a scan decoded already: the image at the letter shapes' scale and its block means, charged alike. */
function wholeOfPixels(scan: ScanInput, pixels: DecodedScan, scale: 1 | 2 | 4, budget: Budget | undefined, gaps: Gap[]): Whole | { note: string } {
  // the scales are the full image's: pixels read reduced already are reduced the rest of the way (or not at all, when
  // they are coarser than the letter shapes asked for)
  const reduced = scan.reduced ?? 1;
  const s = Math.max(1, scale / reduced);
  const m = 8 / reduced;
  // the image at its scale is new unless it is the gray scan itself (a bilevel scan at scale 1 is made gray here)
  const bytes =
    (s > 1 || isBilevel(pixels) ? Math.ceil(pixels.width / s) * Math.ceil(pixels.height / s) : 0) +
    Math.ceil(pixels.width / m) * Math.ceil(pixels.height / m);
  if (budget && !budget.tryCharge(bytes, 'decode')) return { note: 'the scan image does not fit the memory budget at letter scale' };
  const image = reduceScan(pixels, s);
  const map = pixelMap(scan.ctm, image.width, image.height);
  if (!map) {
    budget?.release(bytes);
    return { note: 'the scan image is painted flat' };
  }
  return { image, ink: inkLevel(image), means: reduceScan(pixels, m), map, gaps, release: () => budget?.release(bytes) };
}

/**
 * The leader dots the layer lacks (leaders.ts) into `signals.leadersMissed`: their characters' share of the page's (the
 * layer's characters and spaces and theirs), and where they are into the layer's missing text when asked for. Shown,
 * not scored (docs/layer-quality-notes.md: in the estimate's missing share they moved the stand-ins' figures up but
 * the dev split's Spearman down by 0.0004, under its ratchet).
 */
function leaderSignals(input: LayerQualityInput, runs: GlyphRun[], whole: Whole, signals: LayerQuality['signals']): void {
  if (whole.gaps.length === 0) return;
  const lead = missedLeaders(whole.image, whole.map, whole.gaps, () => input.budget?.outOfTime('decode') ?? false, whole.ink);
  if (lead.chars === 0) return;
  let chars = 0;
  for (const r of runs) chars += r.chars + 1;
  signals.leadersMissed = r3(lead.chars / (chars + lead.chars));
  if (input.missingText) {
    const have = input.layer.missingText ?? [];
    input.layer.missingText = have.concat(lead.rects.slice(0, Math.max(0, MAX_MISSING_REGIONS - have.length)));
  }
}

/** The letter shapes (shape.ts) of the runs on the scan decoded whole, or a note saying why there are none. */
function shapeSignals(runs: GlyphRun[], whole: Whole, outOfTime: () => boolean): LetterShapes | { note: string } {
  const sh = letterShapes(whole.image, whole.map, runs, outOfTime, whole.ink);
  return typeof sh === 'string' ? { note: `no letter shapes: ${sh}` } : sh;
}

/** word boxes at least this many pixels tall (median) are read at half or a quarter of the scan's size */
const SHAPE_LINE_PX = 16;

/**
 * How the scan is decoded for the letter shapes, from the word boxes in its pixels (one pass): the scale, 1, or 2 or
 * 4 when the boxes (their median height) stay at least SHAPE_LINE_PX tall at it (a 300 dpi scan holds its letters in
 * four times the pixels the shapes need; the dev split's 72–150 dpi scans are read whole), and the 8×8 blocks
 * letterShapes reads: those under the boxes, widened up and down as it widens a line. Scale 1 and no mask when the
 * scan is painted flat.
 */
function shapePlan(runs: GlyphRun[], scan: ScanInput, gaps: readonly Gap[]): { scale: 1 | 2 | 4; blocks?: BlockMask } {
  const map = pixelMap(scan.ctm, scan.width, scan.height);
  if (!map) return { scale: 1 };
  const columns = Math.ceil(scan.width / 8);
  const rows = Math.ceil(scan.height / 8);
  const want = new Uint8Array(columns * rows);
  // the blocks a pixel rectangle [x0, y0, x1, y1] touches (clipped to the image's)
  const mark = (x0: number, y0: number, x1: number, y1: number) => {
    const b0 = Math.max(0, Math.floor(y0 / 8));
    const b1 = Math.min(rows - 1, Math.floor(y1 / 8));
    const a0 = Math.max(0, Math.floor(x0 / 8));
    const a1 = Math.min(columns - 1, Math.floor(x1 / 8));
    for (let by = b0; by <= b1; by++) want.fill(1, by * columns + a0, by * columns + a1 + 1);
  };
  const cap = Math.min(runs.length, SPREAD_WORDS);
  const hs = medianScratch(cap);
  let n = 0;
  for (const r of runs) {
    const px = toPixelRect(map, scan.width, scan.height, r.rect);
    if (!px) continue;
    if (n < cap && r.chars >= 2) hs[n++] = px[3] - px[1];
    // a block more each side, the line's padding up and down
    const pad = SHAPE_PAD * (px[3] - px[1]) + 2;
    mark(px[0] - 8, px[1] - pad, px[2] + 8, px[3] + pad);
  }
  // the gaps between a line's words, from the baseline's dots to the x-height above them (leaders.ts)
  for (const g of gaps) {
    const px = toPixelRect(map, scan.width, scan.height, [g.x0, g.y - 0.2 * g.size, g.x1, g.y + 0.8 * g.size]);
    if (px) mark(px[0], px[1], px[2], px[3]);
  }
  const h = n ? median(hs.subarray(0, n)) : 0;
  return { scale: h >= 4 * SHAPE_LINE_PX ? 4 : h >= 2 * SHAPE_LINE_PX ? 2 : 1, blocks: { columns, rows, want } };
}

function inkOf(scan: ScanInput, budget: Budget | undefined, maxPixels: number, means?: GrayImage): InkResult {
  const cache = budget && scan.key ? (inkCache.get(budget) ?? new Map<object, { ink: InkResult; bytes: number }>()) : undefined;
  const hit = cache?.get(scan.key!);
  if (hit) return hit.ink;
  if (means) {
    // the block means at hand (from the letter shapes' full decode): no second walk of the entropy-coded data
    const m = inkMap(means, scan.ctm);
    return remember(cache, budget, scan, m ? { map: m } : { note: 'the scan image shows no contrast' });
  }
  if (scan.pixels) {
    // decoded already: its block means (an eighth of the image's size each way, as a JPEG's DC terms give them)
    const m = inkMap(reduceScan(scan.pixels, 8 / (scan.reduced ?? 1)), scan.ctm);
    return remember(cache, budget, scan, m ? { map: m } : { note: 'the scan image shows no contrast' });
  }
  // the block means: width/8 × height/8 samples, 7 bytes each in the map; the entropy-coded data is copied once
  const samples = Math.ceil(scan.width / 8) * Math.ceil(scan.height / 8);
  const work = samples * 8 + scan.jpeg.length + jpegWorkBytes(scan.jpeg, true);
  if (budget && !budget.tryCharge(work, 'decode')) return { note: 'the scan image does not fit the memory budget' };
  let ink: InkResult;
  try {
    const dec = decodeJpegDc(scan.jpeg, maxPixels, () => budget?.outOfTime('decode') ?? false);
    if (!dec.ok) ink = { note: `scan image not read: ${dec.error} (${dec.message})` };
    else {
      const m = inkMap(dec.image, scan.ctm);
      ink = m ? { map: m } : { note: 'the scan image shows no contrast' };
    }
  } finally {
    budget?.release(work);
  }
  return remember(cache, budget, scan, ink);
}

/** An image's ink map kept for the document's other pages that paint it (not when the time ran out: no verdict) */
function remember(
  cache: Map<object, { ink: InkResult; bytes: number }> | undefined,
  budget: Budget | undefined,
  scan: ScanInput,
  ink: InkResult,
): InkResult {
  if (cache && budget && !('note' in ink && /out-of-time/.test(ink.note))) {
    const bytes = 'map' in ink ? ink.map.width * ink.map.height * 6 : 0;
    if (bytes === 0 || budget.tryCharge(bytes, 'decode')) {
      if (cache.size >= INK_CACHE_ENTRIES) {
        const [k, old] = cache.entries().next().value!;
        cache.delete(k);
        budget.release(old.bytes);
      }
      cache.set(scan.key!, { ink, bytes });
      inkCache.set(budget, cache);
    }
  }
  return ink;
}

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
