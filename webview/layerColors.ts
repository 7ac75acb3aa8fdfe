/**
 * How the preview shows an OCR layer's quality: the page's grade badge and which glyph runs take the grade's colour.
 * Pure (no DOM), so it is unit-tested; the grade itself comes from src/shared/routes.ts, as the tree's does.
 *
 * The analyzer scores a page's layer as a whole (LayerQuality has no per-word likelihood), so every run of the layer
 * takes the page's grade: on an `ocr-layer` page the layer is its unseen text (the runs the analyzer scored: invisible,
 * clipped or hidden), never its visible text.
 */
import type { PageOverlay, RunBox } from '../src/shared/protocol';
import { type LayerGrade, layerGrade, scoreText } from '../src/shared/routes';

export interface RunQuality {
  grade: LayerGrade;
  /** the page's score, 0..1 */
  score: number;
  reocr: boolean;
}

/** The grade a run of page `route` is coloured with, or undefined when the run is not part of a graded layer. */
export function runQuality(
  route: PageOverlay['route'] | undefined,
  layer: PageOverlay['layer'],
  visibility: RunBox['visibility'],
): RunQuality | undefined {
  if (route !== 'ocr-layer' || !layer || visibility === 'visible') return undefined;
  return { grade: layerGrade(layer), score: layer.score, reocr: layer.reocr };
}

/** The page header's badge: "layer poor 0.31 · re-OCR", "layer good 0.98". */
export function layerBadgeText(layer: NonNullable<PageOverlay['layer']>): string {
  const text = `layer ${layerGrade(layer)} ${scoreText(layer.score)}`;
  return layer.reocr ? `${text} · re-OCR` : text;
}

/** The badge's tooltip and a run's description: what the grade means. */
export function layerMeaning(layer: NonNullable<PageOverlay['layer']>): string {
  const g = layerGrade(layer);
  const score = scoreText(layer.score);
  if (g === 'poor') return `OCR layer poor (page score ${score}): more than a quarter of its characters estimated wrong; re-OCR advised`;
  if (g === 'fair') return `OCR layer fair (page score ${score}): usable for search, worth a look`;
  return `OCR layer good (page score ${score}): keep`;
}
