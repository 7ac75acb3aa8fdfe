/** Hand-made reports for the extension's unit tests (independent of the analyzer's current routing). */
import type { DocumentReport, PageReport, PageRoute, RouteReason } from '../src/analyzer/types';

export function page(n: number, route: PageRoute, reasons: RouteReason[] = [], over: Partial<PageReport['evidence']> = {}): PageReport {
  return {
    page: n,
    route,
    reasons,
    evidence: {
      visibleChars: route === 'text' ? 1200 : 0,
      invisibleChars: route === 'ocr-layer' ? 900 : 0,
      hiddenUnderImage: 0,
      badChars: 0,
      textQuality: 1,
      fonts: [],
      imageCoverage: route === 'ocr' || route === 'ocr-layer' ? 0.98 : 0,
      imageCount: route === 'ocr' || route === 'ocr-layer' ? 1 : 0,
      imageBoxes: route === 'ocr' ? [{ rect: [0, 0, 612, 792], share: 0.98, kind: 'xobject', width: 2550, height: 3300, filter: 'DCTDecode' }] : [],
      vectorOps: 0,
      operators: 10,
      boxes: { mediaBox: [0, 0, 612, 792], cropBox: [0, 0, 612, 792] },
      rotate: 0,
      ...over,
    },
  };
}

export function report(pages: PageReport[], extra: Partial<DocumentReport> = {}): DocumentReport {
  const routeCounts: Record<PageRoute, number> = { text: 0, 'ocr-layer': 0, ocr: 0, blank: 0, review: 0, unknown: 0 };
  for (const p of pages) routeCounts[p.route]++;
  const ocrPages = pages.filter((p) => p.route === 'ocr').map((p) => p.page);
  return {
    pageCount: pages.length,
    pages,
    needsOcr: ocrPages.length > 0,
    ocrPages,
    routeCounts,
    encryption: { encrypted: false },
    pdfVersion: '1.7',
    metadata: { info: {}, xmp: {}, hints: [] },
    notes: [],
    elapsedMs: 12,
    ...extra,
  };
}

/** 40 pages: 1–38 text, 39–40 ocr (the example). */
export function fortyPages(): DocumentReport {
  const pages: PageReport[] = [];
  for (let i = 1; i <= 38; i++) pages.push(page(i, 'text', ['text-layer']));
  pages.push(page(39, 'ocr', ['image-only']), page(40, 'ocr', ['image-only']));
  return report(pages);
}
