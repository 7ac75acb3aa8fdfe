/**
 * The routing rule: evidence in, route and reasons out. The order of the checks is the contract
 * (README "Routes"); every number comes from AnalyzerOptions.
 */
import type { AnalyzerOptions } from './options';
import type { PageRoute, RouteReason } from './types';

export interface RouteInput {
  visibleChars: number;
  invisibleChars: number;
  hiddenUnderImage: number;
  badChars: number;
  imageCoverage: number;
  imageCount: number;
  vectorOps: number;
}

export interface RouteDecision {
  route: PageRoute;
  reasons: RouteReason[];
}

export function decideRoute(e: RouteInput, o: AnalyzerOptions): RouteDecision {
  const visible = e.visibleChars;
  if (visible >= o.minTextChars) {
    if (e.badChars >= visible * o.undecodableShare) return { route: 'ocr', reasons: ['undecodable-text'] };
    if (visible <= o.borderlineMaxChars && e.imageCoverage > o.borderlineCoverage) return { route: 'review', reasons: ['few-chars-over-image'] };
    return { route: 'text', reasons: ['text-layer'] };
  }
  if (e.invisibleChars >= o.minOcrLayerChars && e.imageCoverage >= o.ocrLayerCoverage) {
    const under = e.hiddenUnderImage * 2 > e.invisibleChars;
    return { route: 'ocr-layer', reasons: [under ? 'text-under-image' : 'invisible-text-over-scan'] };
  }
  if (e.imageCoverage >= o.scanCoverage) return { route: 'ocr', reasons: ['image-only'] };
  // A few characters, visible or not: a title page, a slide, "12" — or a lone note — read from the file.
  if (visible > 0) return { route: 'text', reasons: ['sparse-text'] };
  if (e.invisibleChars > 0) return { route: 'text', reasons: ['invisible-text-only'] };
  if (e.vectorOps >= o.minVectorOps) return { route: 'review', reasons: ['vector-only'] };
  if (e.imageCount > 0) return { route: 'review', reasons: ['small-image-only'] };
  return { route: 'blank', reasons: [e.vectorOps > 0 ? 'little-paint' : 'nothing-painted'] };
}
