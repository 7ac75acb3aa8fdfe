/**
 * How the preview shows an OCR layer's quality: the page's grade badge and which glyph runs take the grade's colour.
 * Pure (no DOM), so it is unit-tested; the grade itself comes from src/shared/routes.ts, as the tree's does.
 *
 * On an `ocr-layer` page the layer is its unseen text (the runs the analyzer scored: invisible, clipped or hidden),
 * never its visible text. A run is filled with the page's grade, or, where the page's text is judged wrong
 * (routes.ts wordsGraded: the analyzer's text error estimate over 5 %), with its own word's grade from its likelihood
 * (GlyphRun.likelihood): there a word under the likelihood cut is wrong most of the time, while on a layer whose text
 * reads right one word is weak evidence (on a perfect layer about one real word in ten, "Tuesday", "budget", falls
 * under the cut) and a red word would say more than the analyzer knows. A layer poor for its missing text keeps the
 * page's grade on the words it has.
 */
import type { PageOverlay, RunBox } from '../src/shared/protocol';
import { causeOf, causeText, INCOMPLETE_SCORE_MAX, type LayerGrade, layerGrade, scoreText, wordGrade, wordsGraded } from '../src/shared/routes';

export interface RunQuality {
  grade: LayerGrade;
  /** the page's score, 0..1 */
  score: number;
  reocr: boolean;
  /** the run's own word likelihood */
  likelihood?: number;
  /** the grade the run is filled with: its word's own where the layer's words are graded, else the page's */
  fill: LayerGrade;
}

/** The grade a run of page `route` is coloured with, or undefined when the run is not part of a graded layer. */
export function runQuality(
  route: PageOverlay['route'] | undefined,
  layer: PageOverlay['layer'],
  visibility: RunBox['visibility'],
  likelihood?: number,
): RunQuality | undefined {
  if (route !== 'ocr-layer' || !layer || visibility === 'visible') return undefined;
  const grade = layerGrade(layer);
  const q: RunQuality = { grade, score: layer.score, reocr: layer.reocr, fill: grade };
  if (likelihood !== undefined) {
    q.likelihood = likelihood;
    if (wordsGraded(layer)) q.fill = wordGrade(likelihood);
  }
  return q;
}

/**
 * The page header's badge: "layer poor 0.31 · re-OCR", "layer good 0.98", "layer good 0.98 · words only" (no scan
 * evidence), "layer fair 0.75 · incomplete evidence" (kept without a confident judgement).
 */
export function layerBadgeText(layer: NonNullable<PageOverlay['layer']>): string {
  let text = `layer ${layerGrade(layer)} ${scoreText(layer.score)}${layer.scanNote !== undefined ? ' · words only' : ''}`;
  if (layer.incomplete !== undefined) text = `${text} · incomplete evidence`;
  return layer.reocr ? `${text} · re-OCR` : text;
}

/** The badge's tooltip and a run's description: what the grade means, and for a layer not good why (routes.ts causeOf). */
export function layerMeaning(layer: NonNullable<PageOverlay['layer']>): string {
  const g = layerGrade(layer);
  const score = scoreText(layer.score);
  const why = g === 'good' ? '' : causeOf(layer.textMissing, layer.textError, layer.shift).map(causeText).join('; ');
  // without the scan's evidence the layer was judged by its words alone: text missing from it could not be seen
  let notes = layer.scanNote !== undefined ? `. Judged by its words alone (${layer.scanNote}): text the layer lacks cannot be seen` : '';
  // kept without a confident judgement: the score is capped at the cut
  if (layer.incomplete !== undefined) notes += `. Kept on incomplete evidence (${layer.incomplete}): the score is at most ${INCOMPLETE_SCORE_MAX}`;
  if (g === 'poor')
    return `OCR layer poor (page score ${score}): ${why || 'more than a quarter of its characters estimated wrong'}; re-OCR advised${notes}`;
  if (g === 'fair') return `OCR layer fair (page score ${score}): usable for search, worth a look${why ? ` (${why})` : ''}${notes}`;
  return `OCR layer good (page score ${score}): keep${notes}`;
}
