/** The report of a file that could not be analysed by the analyzer itself: one home for the host, the pool and the CLI. */
import type { DocumentReport, RouteReason } from '../analyzer/types';

/** What a report without pages says besides its error, in the order the CLI's records write it. */
export function noPages(): Pick<DocumentReport, 'pageCount' | 'needsOcr' | 'ocrPages' | 'routeCounts' | 'encryption' | 'metadata'> {
  return {
    pageCount: 0,
    needsOcr: false,
    ocrPages: [],
    routeCounts: { text: 0, 'ocr-layer': 0, ocr: 0, blank: 0, review: 0, unknown: 0 },
    encryption: { encrypted: false },
    metadata: { info: {}, xmp: {}, hints: [] },
  };
}

/** A report for a file the host could not analyse itself (worker killed, crashed, unreadable): no pages, the reason named. */
export function failureReport(reason: RouteReason, message: string, elapsedMs = 0): DocumentReport {
  return { ...noPages(), error: { reason, message }, notes: [], elapsedMs, pages: [] };
}
