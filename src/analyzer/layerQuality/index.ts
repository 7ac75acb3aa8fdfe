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
import type { GlyphRun, LayerQuality, Rect, TextLayer } from '../types';
import { type InkMap, inkIn, inkMap, pixelMap, toPixels, variation } from './ink';
import { type BlockMask, decodeJpegDc, decodeJpegGray, type GrayImage, jpegWorkBytes } from './jpeg';
import { ASCII_SHARE, ASCII_SPACE, C_LETTER, C_NUMBER, C_SPACE, C_WORDISH, classOf, SHARE_BAD, SHARE_NONE, SHARE_SYMBOL } from './chars';
import {
  isCyrillic,
  type Language,
  languageEvidence,
  languagesFor,
  MAX_CHARS,
  NONWORD_BITS,
  type ShiftedAlphabet,
  shiftedAlphabet,
  wordBitsIn,
  wordCounts,
  wordLikelihood,
} from './language';
import { inkLevel, LINE_PAD as SHAPE_PAD, letterShapes, type LetterShapes, type PixelMap, pixelRect as toPixelRect } from './shape';
import { type DecodedScan, isBilevel, reduceScan } from './pixels';
import { emWidth } from './widths';
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

/** 1 small letter, 2 capital, 0 a letter without case (Latin-1, Latin Extended-A, Greek and Cyrillic told apart; others 0) */
function caseOf(cp: number): number {
  if (cp >= 0x430 && cp <= 0x45f) return 1;
  if (cp >= 0x400 && cp <= 0x42f) return 2;
  if (cp >= 0xdf && cp <= 0xff) return cp === 0xf7 ? 0 : 1;
  if (cp >= 0xc0 && cp <= 0xde) return cp === 0xd7 ? 0 : 2;
  return 0;
}

/** characters of the text the shares are counted on at most */
const TEXT_CHARS = 20_000;

function textSignals(text: string, runs: GlyphRun[]): TextSignals {
  const lang = languageEvidence(text);
  const c = charSignals(text);
  const fit = boxFit(runs);
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

/** the text's shares read character by character (charSignals) */
interface CharSignals {
  symbolShare: number;
  badShare: number;
  mixedScript: number;
  garbled: number;
  fragments: number;
  longWords: number;
}

/** The shares of symbols and undecodable characters among the text's characters, and its words' shapes (exported for tests). */
export function charSignals(text: string): CharSignals {
  let nonSpace = 0;
  let bad = 0;
  let symbols = 0;
  // words: runs of non-whitespace (as /\s+/ splits); each counts its letters (UTF-16 units, as String#length does)
  let words = 0;
  let frags = 0;
  let longs = 0;
  let mixed = 0;
  let wLetters = 0;
  let wLatin = false;
  let wCyrillic = false;
  // word shape: the kind of the previous character (0 other, 1 lower, 2 upper, 3 digit), a digit after a letter,
  // and whether the word has a shape no word of a language has (a capital after a small letter, a digit between letters)
  let wPrev = 0;
  let wLetterDigit = false;
  let wBad = false;
  let garbled = 0;
  // the first TEXT_CHARS characters are read: shares of a sample that large are as good as the whole page's. One
  // loop with the word's state in locals (as closures, its fifteen variables lived in a heap context every character
  // read and wrote), and one pass past the text's end that closes the last word
  const n = Math.min(text.length, TEXT_CHARS);
  for (let i = 0; i <= n; i++) {
    // white space ends a word; anything else has a kind for the word's shape (0 other, 1 small, 2 capital, 3 digit)
    let space = true;
    let kind = 0;
    if (i < n) {
      let cp = text.charCodeAt(i);
      let units = 1;
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          units = 2;
        }
      }
      if (cp < 128) {
        space = ASCII_SPACE[cp] === 1;
        if (!space) {
          const share = ASCII_SHARE[cp];
          if (share !== SHARE_NONE) {
            nonSpace++;
            if (share === SHARE_BAD) bad++;
            else if (share === SHARE_SYMBOL) symbols++;
          }
          if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) {
            wLetters++;
            wLatin = true;
            kind = cp >= 97 ? 1 : 2;
          } else kind = cp >= 48 && cp <= 57 ? 3 : 0;
        }
      } else {
        const cls = classOf(cp);
        // every code point past U+0020 counts as a character, spaces such as U+00A0 included
        nonSpace++;
        if (cp === 0xfffd || (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0x7f && cp < 0xa0)) bad++;
        else if (!(cls & C_WORDISH)) symbols++;
        space = (cls & C_SPACE) !== 0;
        if (!space && cls & C_LETTER) {
          wLetters += units;
          if (cp >= 0x400 && cp <= 0x4ff) wCyrillic = true;
          kind = caseOf(cp);
        }
      }
      i += units - 1;
    }
    if (space) {
      if (wLetters > 0) {
        words++;
        if (wLetters <= 2) frags++;
        if (wLetters >= 16) longs++;
        if (wLatin && wCyrillic) mixed++;
        if (wBad || (wLatin && wCyrillic)) garbled++;
      }
      wLetters = 0;
      wLatin = false;
      wCyrillic = false;
      wPrev = 0;
      wLetterDigit = false;
      wBad = false;
    } else {
      if (kind === 2 && wPrev === 1) wBad = true;
      else if (kind === 3 && (wPrev === 1 || wPrev === 2)) wLetterDigit = true;
      else if ((kind === 1 || kind === 2) && wLetterDigit && wPrev === 3) wBad = true;
      if (kind === 1 || kind === 2) wLetterDigit = false;
      wPrev = kind;
    }
  }
  return {
    symbolShare: nonSpace ? symbols / nonSpace : 0,
    badShare: nonSpace ? bad / nonSpace : 0,
    mixedScript: words ? mixed / words : 0,
    garbled: words ? garbled / words : 0,
    fragments: words ? frags / words : 0,
    longWords: words ? longs / words : 0,
  };
}

/** words judged by nonWords at most (the first ones: a sample enough for a share) */
const NONWORD_WORDS = 4000;
export { NONWORD_BITS } from './language';

/** what a character is to nonWords: white space (as /\s/), a letter (\p{L}), a number (\p{N}) or anything else */
const K_OTHER = 0;
const K_SPACE = 1;
const K_LETTER = 2;
const K_NUMBER = 3;
function kindOf(cp: number): number {
  if (cp < 128) {
    if (ASCII_SPACE[cp]) return K_SPACE;
    if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) return K_LETTER;
    return cp >= 48 && cp <= 57 ? K_NUMBER : K_OTHER;
  }
  const cls = classOf(cp);
  return cls & C_SPACE ? K_SPACE : cls & C_LETTER ? K_LETTER : cls & C_NUMBER ? K_NUMBER : K_OTHER;
}

/** the code point at s[i] (a surrogate pair read whole, a lone surrogate as itself) */
function codePointAt(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
    const lo = s.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
  }
  return c;
}

/**
 * The share of words that read like no language of the page. Words are the page text's white-space-separated tokens with
 * their edges' punctuation, quotes and brackets stripped, cut into parts at hyphens and slashes (a compound's parts
 * are words of their own); tokens with a number anywhere are left out (codes, numbers, IDs: `garbled` judges digits
 * inside words). A part with a letter counts as a word; one of two or more letters and nothing else is judged: it
 * reads like no language when its letters cost more than NONWORD_BITS each under both of the page's two likeliest
 * languages (language.ts wordBits), or, when neither writes its script, under the language that does and the page's
 * likeliest (language.ts languagesFor). A one-letter word or one with other characters inside counts but is not judged.
 * A clear-cut version of wordLikeEither: fluent OCR garbage ("anjpicdbon", "corilfralk") costs far more than the cut,
 * while the rare real word the small models do not know (a name, a command) mostly stays under it. Read in place,
 * character by character: a page's words cost no strings. The page's text (the layer's reading order, its spaces
 * implied by the glyphs' positions), not the glyph runs: a file that places its glyphs one by one has runs that are
 * not words (a Caesar-shifted font's text read as one-letter runs judged nothing).
 */
function nonWords(s: string, a: Language, b: Language): number {
  // the two pairs a word can be judged under, worked out once a page
  const pagePair = languagesFor(false, a, b);
  const cyrillicPair = languagesFor(true, a, b);
  let words = 0;
  let non = 0;
  const n = s.length;
  let i = 0;
  while (i < n && words < NONWORD_WORDS) {
    // a token: the next run of non-space characters; [first, last) from its first letter or number to its last
    let cp = codePointAt(s, i, n);
    let k = kindOf(cp);
    if (k === K_SPACE) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    let first = -1;
    let last = -1;
    let number = false;
    while (i < n) {
      cp = codePointAt(s, i, n);
      k = kindOf(cp);
      if (k === K_SPACE) break;
      const w = cp > 0xffff ? 2 : 1;
      if (k === K_LETTER || k === K_NUMBER) {
        if (first < 0) first = i;
        last = i + w;
        if (k === K_NUMBER) number = true;
      }
      i += w;
    }
    if (first < 0 || number) continue;
    // its parts between hyphens and slashes
    let p = first;
    while (p < last) {
      let letters = 0;
      let others = 0;
      let cyrillic = false;
      let q = p;
      while (q < last) {
        const c = s.charCodeAt(q);
        if (c === 0x2d || c === 0x2f) break;
        const pc = codePointAt(s, q, last);
        if (kindOf(pc) === K_LETTER) {
          letters++;
          if (isCyrillic(pc)) cyrillic = true;
        } else others++;
        q += pc > 0xffff ? 2 : 1;
      }
      if (letters > 0) {
        words++;
        if (others === 0 && letters >= 2) {
          const [x, y] = cyrillic ? cyrillicPair : pagePair;
          if (wordBitsIn(s, p, q, x, y) > NONWORD_BITS) non++;
        }
      }
      p = q + 1;
    }
  }
  return words ? non / words : 0;
}

/** words of 2+ characters boxFit measures at most (the first ones: a sample enough for a median and the tails) */
const SPREAD_WORDS = 4000;

/** how the words fit their boxes (boxFit) */
interface BoxFit {
  /** widthSpread: the typical misfit */
  spread: number;
  /** boxSlack: characters' worth of box beyond the words' letters, a share of the layer's characters */
  slack: number;
  /** boxOverflow: characters' worth of letters beyond what their boxes hold, a share of the layer's characters */
  overflow: number;
}

/**
 * How the words fit their boxes, under the better fitting of two typefaces: a proportional one (widths.ts: an "ill"
 * narrower than an "mmm") and one of fixed pitch (every character as wide: a typewriter, Courier, a code listing).
 * - `spread`: the median absolute deviation of ln(width / (expected width × size)) over words of 3+ characters. A right
 *   layer fits one of the typefaces closely whatever the scan's print; words that are not the box's, or that lost or
 *   gained letters, fit neither.
 * - `slack` and `overflow`: the misfit's tails, which the median does not see, counted in characters. A word of n
 *   characters whose box is q times as wide as the page's typical word of its letters needs (BOX_FIT.tail < q) holds
 *   n·(q − 1) characters more than the word has: letters the engine dropped, a row of dots or dashes it read short,
 *   words it glued; (q < 1 / BOX_FIT.tail) n·(1 − q) characters more than the box holds: letters it added. Words of 2+
 *   characters (one character's box tells nothing: Tesseract's renderer spreads a word and its space over the box);
 *   shares of all the characters walked. On every split the tails follow the error the rest of the estimate misses
 *   (docs/layer-quality-notes.md).
 */
function boxFit(runs: GlyphRun[]): BoxFit {
  const cap = Math.min(runs.length, SPREAD_WORDS);
  // one scratch, two parts: per word of 2+ characters, its fit under each typeface and its characters; then the 3+
  // character words' fits, whose medians (sorted in place) are the page's typical fit
  const scratch = medianScratch(5 * cap);
  const words = scratch.subarray(0, 3 * cap);
  const xs = scratch.subarray(3 * cap);
  let k = 0;
  let j = 0;
  let chars = 0;
  for (const r of runs) {
    if (k >= cap) break;
    if (!(r.size > 0)) continue;
    // the word's characters and their expected width in ems (widths.ts), in one walk of its code points
    const t = r.text;
    let n = 0;
    let ems = 0;
    for (let i = 0; i < t.length; n++) {
      const c = codePointAt(t, i, t.length);
      ems += emWidth(c);
      i += c > 0xffff ? 2 : 1;
    }
    chars += n;
    if (n < 2) continue;
    const w = runLength(r);
    if (!(w > 0)) continue;
    const p = Math.log(w / (ems * r.size));
    const f = Math.log(w / (n * r.size));
    // a box or a size out of all proportion (a hostile file's: a box e^20 times its letters, a size that overflows the
    // ratio) is no word's fit; bounded, the tails' sums stay finite
    if (!(Math.abs(p) < MAX_LN_FIT && Math.abs(f) < MAX_LN_FIT)) continue;
    words[k] = p;
    words[cap + k] = f;
    words[2 * cap + k++] = n;
    if (n < 3) continue;
    xs[j] = p;
    xs[cap + j++] = f;
  }
  if (j < 5) return { spread: 0, slack: 0, overflow: 0 };
  const mp = median(xs.subarray(0, j));
  const mf = median(xs.subarray(cap, cap + j));
  const dp = deviation(xs.subarray(0, j), mp);
  const df = deviation(xs.subarray(cap, cap + j), mf);
  const fixed = df < dp;
  const centre = fixed ? mf : mp;
  const at = fixed ? cap : 0;
  let slack = 0;
  let overflow = 0;
  for (let i = 0; i < k; i++) {
    const q = Math.exp(words[at + i] - centre);
    const n = words[2 * cap + i];
    if (q > BOX_FIT.tail) slack += n * (q - 1);
    else if (q * BOX_FIT.tail < 1) overflow += n * (1 - q);
  }
  return { spread: Math.min(dp, df), slack: slack / chars, overflow: overflow / chars };
}

/** the largest ln(width / expected width) boxFit takes for a word's fit (e^20: no print is that far off its box) */
const MAX_LN_FIT = 20;

/** the median absolute deviation of v about its median `med` (v reordered and overwritten) */
function deviation(v: Float64Array, med: number): number {
  for (let i = 0; i < v.length; i++) v[i] = Math.abs(v[i] - med);
  return median(v);
}

/**
 * A run's length along its baseline, from its box: the box's width, or its height when the text runs up or down the
 * page (a landscape table on a portrait page, a rotated label). A glyph box is one font size across its baseline, so a
 * run turned by 90° is exactly its size wide (ACROSS_EXACT): on such a table the widths were the glyphs' height, and
 * every word read as squeezed to a tenth of its letters (widthSpread 0.3–0.4, re-OCR advised on born-digital pages).
 * OCR layers' boxes are only about their size tall (a word's box 3 % off), so nothing looser tells the two apart.
 */
function runLength(r: GlyphRun): number {
  const w = r.rect[2] - r.rect[0];
  const h = r.rect[3] - r.rect[1];
  const across = Math.abs(w - r.size);
  return across <= ACROSS_EXACT * r.size && Math.abs(h - r.size) > across ? h : w;
}

/** how near its size a turned run's width is (the size is rounded to 3 decimals, the box computed in floating point) */
const ACROSS_EXACT = 0.005;

/** per-word values a median is taken of (boxFit's fits, box heights), grown as needed: at most 5 × SPREAD_WORDS */
let medianValues = new Float64Array(64);

/**
 * A scratch of at least n values for a median (one at a time: each user takes its median before the next asks). A
 * typed array made per page cost more than the median of a small page's words.
 */
function medianScratch(n: number): Float64Array {
  if (medianValues.length < n) medianValues = new Float64Array(Math.max(n, 2 * medianValues.length));
  return medianValues;
}

/** below this many values an insertion sort: a typed array's sort costs a call into the runtime, more than a small page's words */
const SMALL_SORT = 32;

/** the median of xs (sorts xs in place) */
function median(xs: Float64Array): number {
  if (xs.length > SMALL_SORT || !sortSmall(xs)) xs.sort();
  const m = xs.length >> 1;
  return xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
}

/**
 * Sorts a few values in place as the typed array's sort would (its order but for −0 beside 0, which the median's
 * arithmetic cannot tell apart); false, with xs in some order, on a NaN, which only that sort places.
 */
function sortSmall(xs: Float64Array): boolean {
  for (let i = 1; i < xs.length; i++) {
    const v = xs[i];
    if (v !== v) return false;
    let j = i - 1;
    while (j >= 0 && xs[j] > v) {
      xs[j + 1] = xs[j];
      j--;
    }
    xs[j + 1] = v;
  }
  return xs.length === 0 || xs[0] === xs[0];
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

function r3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
