/**
 * The flat record shape shared by the CLI's `--json` output and the extension's exports: one JSON object per file.
 */
import type { DocumentReport, PageReport } from './types';

export interface PageRecord {
  page: number;
  route: PageReport['route'];
  reasons: PageReport['reasons'];
  visibleChars: number;
  invisibleChars: number;
  hiddenUnderImage: number;
  badChars: number;
  textQuality: number;
  imageCoverage: number;
  imageCount: number;
  imageBoxes: PageReport['evidence']['imageBoxes'];
  fonts: PageReport['evidence']['fonts'];
  vectorOps: number;
  boxes: PageReport['evidence']['boxes'];
  rotate: number;
  notes?: string[];
  /** the text layer (AnalyzerOptions.textLayer) */
  textLayer?: PageReport['evidence']['textLayer'];
  /** the layer's quality (AnalyzerOptions.layerQuality): { score, reocr, signals } */
  layerQuality?: PageReport['evidence']['layerQuality'];
}

export interface FileRecord {
  file: string;
  pageCount: number;
  needsOcr: boolean;
  ocrPages: number[];
  /** with layer quality on: the pages whose layer is advised re-OCR */
  reocrPages?: number[];
  routeCounts: DocumentReport['routeCounts'];
  encryption: DocumentReport['encryption'];
  pdfVersion?: string;
  metadata: DocumentReport['metadata'];
  error?: DocumentReport['error'];
  /** the time or memory limit that ran out first, and the stage that hit it */
  limit?: DocumentReport['limit'];
  notes: string[];
  elapsedMs: number;
  pages: PageRecord[];
}

export function pageRecord(p: PageReport): PageRecord {
  const e = p.evidence;
  const r: PageRecord = {
    page: p.page,
    route: p.route,
    reasons: p.reasons,
    visibleChars: e.visibleChars,
    invisibleChars: e.invisibleChars,
    hiddenUnderImage: e.hiddenUnderImage,
    badChars: e.badChars,
    textQuality: e.textQuality,
    imageCoverage: e.imageCoverage,
    imageCount: e.imageCount,
    imageBoxes: e.imageBoxes,
    fonts: e.fonts,
    vectorOps: e.vectorOps,
    boxes: e.boxes,
    rotate: e.rotate,
  };
  if (p.notes) r.notes = p.notes;
  if (e.layerQuality) r.layerQuality = e.layerQuality;
  if (e.textLayer) r.textLayer = e.textLayer;
  return r;
}

export function fileRecord(file: string, report: DocumentReport): FileRecord {
  const r: FileRecord = {
    file,
    pageCount: report.pageCount,
    needsOcr: report.needsOcr,
    ocrPages: report.ocrPages,
    ...(report.reocrPages ? { reocrPages: report.reocrPages } : {}),
    routeCounts: report.routeCounts,
    encryption: report.encryption,
    pdfVersion: report.pdfVersion,
    metadata: report.metadata,
    notes: report.notes,
    elapsedMs: report.elapsedMs,
    pages: report.pages.map(pageRecord),
  };
  if (report.error) r.error = report.error;
  if (report.limit) r.limit = report.limit;
  return r;
}

/** Compresses sorted page numbers into "1–3, 7, 9–10". */
export function pageRanges(pages: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
    out.push(j === i ? `${pages[i]}` : `${pages[i]}–${pages[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}
