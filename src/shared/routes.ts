/**
 * Route presentation shared by the extension and the page webview. The webview must not import src/extension (data
 * flows analyzer -> extension -> webview, and the webview bundle must not pull host code), so the small pure helpers
 * both sides need live here. src/extension/model.ts re-exports them.
 */
import type { LayerQuality, PageReport, PageRoute } from '../analyzer/types';

export interface RouteStyle {
  label: string;
  /** codicon id */
  icon: string;
  /** theme colour id */
  color: string;
  /** what the group means, for the group's tooltip */
  meaning: string;
}

export const ROUTE_STYLE: Readonly<Record<PageRoute, RouteStyle>> = {
  ocr: { label: 'OCR', icon: 'file-media', color: 'charts.red', meaning: 'no usable text layer: the page must go to OCR' },
  review: { label: 'review', icon: 'eye', color: 'charts.yellow', meaning: 'borderline: little text over a large image' },
  'ocr-layer': { label: 'OCR layer', icon: 'layers', color: 'charts.blue', meaning: 'a scan with an invisible OCR text layer' },
  unknown: { label: 'unknown', icon: 'question', color: 'charts.orange', meaning: 'could not be analysed' },
  blank: { label: 'blank', icon: 'circle-large', color: 'disabledForeground', meaning: 'nothing meaningful painted' },
  text: { label: 'text', icon: 'whole-word', color: 'charts.green', meaning: 'text can be read from the file' },
};

/** Reasons whose words are not just the id with spaces for hyphens. */
const REASON_WORDS: Readonly<Record<string, string>> = {
  'not-a-pdf': 'not a PDF',
};

/** A reason id in words, for people: 'budget-exceeded' → 'budget exceeded', 'not-a-pdf' → 'not a PDF'. */
export function reasonWords(reason: string): string {
  return REASON_WORDS[reason] ?? reason.replace(/-/g, ' ');
}

/** What a page or document that could not be analysed says instead of counts: "can't tell: password required". */
export function cantTell(reasons: readonly string[]): string {
  return reasons.length ? `can't tell: ${reasons.map(reasonWords).join(', ')}` : "can't tell";
}

export function percent(share: number): string {
  const p = share * 100;
  return `${p > 0 && p < 1 ? p.toFixed(1) : Math.round(p)}%`;
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * OCR-layer grades, shared by the extension (tree, Problems, summaries) and the page webview (badge, run colours): the
 * one place the analyzer's layer-quality score (AnalyzerOptions.layerQuality, README "Layer quality") becomes a word.
 *
 * - poor: the analyzer advises re-OCR (`reocr`: more than a quarter of the characters estimated wrong, score < 0.75);
 * - good: kept, and the score is at least GOOD_LAYER_SCORE (the README's "keep, with confidence above 0.95");
 * - fair: kept, below that (the README's "serves search but is worth a look"; a layer cut by a limit or with too
 *   little text to judge is capped at 0.75 by the analyzer, so it is never good).
 * The poor cut is the analyzer's own `reocr`, never a threshold repeated here, so the extension and the CLI (which
 * prints "keep" / "re-OCR" from the same field) cannot disagree on which pages to re-OCR.
 *
 * Only `ocr-layer` pages are graded: the analyzer scores `text` pages too, but a born-digital page's text is the
 * document's own (a language the models do not know reads as garbled), and re-OCR is not the remedy there. Their
 * score is still in the exports.
 */

export type LayerGrade = 'good' | 'fair' | 'poor';

export const LAYER_GRADES: readonly LayerGrade[] = ['good', 'fair', 'poor'];

/** The score at or above which a layer the analyzer keeps is good. */
export const GOOD_LAYER_SCORE = 0.95;

/**
 * A word's own grade from its likelihood (GlyphRun.likelihood: how likely the run is a word of the page's languages;
 * the analyzer puts ½ at its word-likeness cut): below the cut poor, from WORD_GOOD_LIKELIHOOD good, fair between.
 */
export const WORD_GOOD_LIKELIHOOD = 0.8;

/**
 * The layer's text error (LayerQuality signals.textError: the share of the text that is there estimated wrong, missing
 * text apart) above which the preview colours the layer's words by their own likelihood rather than the page's grade.
 * One word is weak evidence under the small language models, so it is shown only where the page's text is judged
 * wrong. On the OCR-quality dev split, a word under the likelihood cut is wrong (not a word of the page's true text)
 * 94 % of the time on pages whose text error is estimated over 25 %, 59 % between 5 and 25 % (35 % of their words are
 * wrong), and 16 % at or under 5 % (7 % are wrong): on those, "Tuesday" or "budget" would be flagged for nothing
 * (scripts/ocr-quality-words.ts).
 */
export const WORDS_GRADED_ABOVE = 0.05;

/** Whether a layer's words are coloured one by one (see WORDS_GRADED_ABOVE). */
export function wordsGraded(layer: { textError?: number }): boolean {
  return layer.textError !== undefined && layer.textError > WORDS_GRADED_ABOVE;
}

export function wordGrade(likelihood: number): LayerGrade {
  if (likelihood < 0.5) return 'poor';
  return likelihood >= WORD_GOOD_LIKELIHOOD ? 'good' : 'fair';
}

export function layerGrade(q: Pick<LayerQuality, 'score' | 'reocr'>): LayerGrade {
  if (q.reocr) return 'poor';
  return q.score >= GOOD_LAYER_SCORE ? 'good' : 'fair';
}

export interface LayerGradeStyle {
  /** codicon id */
  icon: string;
  /** theme colour id (the webview uses the matching --vscode-charts-* variable) */
  color: string;
}

export const LAYER_GRADE_STYLE: Readonly<Record<LayerGrade, LayerGradeStyle>> = {
  good: { icon: 'pass', color: 'charts.green' },
  fair: { icon: 'info', color: 'charts.yellow' },
  poor: { icon: 'warning', color: 'charts.red' },
};

/** The score of a page's OCR layer as the extension shows it: only `ocr-layer` pages with a score have one. */
export function gradedLayer(p: Pick<PageReport, 'route' | 'evidence'>): LayerQuality | undefined {
  return p.route === 'ocr-layer' ? p.evidence.layerQuality : undefined;
}

/**
 * Why a layer's scan gave the score no evidence (signals.image: not read, not matched), or undefined when it was read.
 * Such a layer was judged by its words alone: text missing from it could not be seen ("words only" on every surface).
 */
export function scanNote(q: Pick<LayerQuality, 'signals'>): string | undefined {
  const v = q.signals.image;
  return typeof v === 'string' ? v : undefined;
}

/**
 * The highest score the analyzer gives a layer judged on incomplete evidence (signals.incomplete): its reocr cut,
 * 1 − REOCR_CER (src/analyzer/layerQuality), which this module does not import (the webview bundles it); a test ties
 * the two.
 */
export const INCOMPLETE_SCORE_MAX = 0.75;

/**
 * Why a layer the analyzer keeps rests on incomplete evidence (signals.incomplete: too little text to judge, a language
 * not modelled, a limit that cut the layer), or undefined. Such a keep is no confident one (its score is at most
 * INCOMPLETE_SCORE_MAX, so fair at best), and every surface says so beside the grade or the count ("incomplete evidence").
 */
export function keptIncomplete(q: Pick<LayerQuality, 'reocr' | 'signals'>): string | undefined {
  const v = q.signals.incomplete;
  return !q.reocr && typeof v === 'string' ? v : undefined;
}

/** The graded pages of a report by grade (page numbers in report order); undefined when no page was graded. */
export interface LayerTally {
  good: number[];
  fair: number[];
  poor: number[];
}

export function layerTally(pages: readonly Pick<PageReport, 'page' | 'route' | 'evidence'>[]): LayerTally | undefined {
  let out: LayerTally | undefined;
  for (const p of pages) {
    const q = gradedLayer(p);
    if (!q) continue;
    out ??= { good: [], fair: [], poor: [] };
    out[layerGrade(q)].push(p.page);
  }
  return out;
}

/**
 * What a layer's estimated error is made of, as the analyzer reports it: `missing`, the share of the page's text the
 * layer lacks (signals.textMissing: the scan's text no word covers, and text short inside word boxes), and `wrong`, the
 * share of the text that is there read wrong (signals.textError; absent on a page with too little text to judge). The part that weighs more in
 * the page's characters (missing, against wrong × (1 − missing)) comes first, when above zero; the other follows when
 * it is at least SECOND_CAUSE. Empty when neither is known or both are nothing.
 */
export interface LayerCause {
  kind: 'missing' | 'wrong';
  /** the share: of the page's text (missing), of the text there (wrong) */
  share: number;
  /** wrong: the places its letters stand along the alphabet from the ones meant, when the layer reads as shifted (signals.shift) */
  shift?: number;
}

/** the smaller part of a layer's error is named from this share on (below it, it is the estimate's noise) */
export const SECOND_CAUSE = 0.1;

export function layerCause(q: Pick<LayerQuality, 'signals'>): LayerCause[] {
  const share = (k: string): number | undefined => {
    const v = q.signals[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  };
  return causeOf(share('textMissing'), share('textError'), share('shift'));
}

/** a shifted alphabet's shift as a cause may carry it: a whole number of places along an alphabet (26 or 32 letters) */
function shiftOf(v: number | undefined): number | undefined {
  return v !== undefined && Number.isInteger(v) && v >= 1 && v <= 31 ? v : undefined;
}

/** layerCause from the two shares themselves, and the shift (the webview has them without the signals) */
export function causeOf(missing0: number | undefined, wrong0: number | undefined, shift0?: number): LayerCause[] {
  const clamp = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? undefined : Math.min(1, Math.max(0, v)));
  const missing = clamp(missing0);
  const wrong = clamp(wrong0);
  const parts: LayerCause[] = [];
  if (missing !== undefined) parts.push({ kind: 'missing', share: missing });
  const shift = shiftOf(shift0);
  if (wrong !== undefined) parts.push(shift === undefined ? { kind: 'wrong', share: wrong } : { kind: 'wrong', share: wrong, shift });
  const weight = (c: LayerCause) => (c.kind === 'missing' ? c.share : c.share * (1 - (missing ?? 0)));
  parts.sort((a, b) => weight(b) - weight(a));
  return parts.filter((c, i) => (i === 0 ? c.share > 0 : c.share >= SECOND_CAUSE));
}

/** A part of a layer's error in words (English: the CLI and the webview; the extension's tree says it through l10n). */
export function causeText(c: LayerCause): string {
  return c.kind === 'missing'
    ? `text missing: ${percent(c.share)} of the page's text is not in the layer`
    : `words wrong: an estimated ${percent(c.share)} of the characters there${c.shift === undefined ? '' : `, its letters shifted ${c.shift} places along the alphabet`}`;
}

/** A score as shown next to its grade: two decimals ("0.31"). */
export function scoreText(score: number): string {
  return Number.isFinite(score) ? score.toFixed(2) : '–';
}
