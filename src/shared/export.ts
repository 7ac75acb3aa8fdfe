/**
 * Report exports, spoken by the extension (Export Report…) and the CLI (merge --csv): JSON lines (one analyzer fileRecord per file, the CLI's `--json` shape) and CSV (one row per page,
 * plus one row for a file that could not be read). Pure: the command layer writes the text through workspace.fs.
 */
import { fileRecord, type FileRecord, type PageRecord } from '../analyzer/serialize';
import type { DocumentReport } from '../analyzer/types';

export interface ExportDoc {
  /** the path written into the `file` field */
  file: string;
  report: DocumentReport;
}

export function toRecords(docs: readonly ExportDoc[]): FileRecord[] {
  return docs.map((d) => fileRecord(d.file, d.report));
}

export function toJsonLines(docs: readonly ExportDoc[]): string {
  return toRecords(docs)
    .map((r) => JSON.stringify(r))
    .map((l) => `${l}\n`)
    .join('');
}

export function toJson(doc: ExportDoc): string {
  return JSON.stringify(fileRecord(doc.file, doc.report), null, 2);
}

export const CSV_COLUMNS = [
  'file',
  'page',
  'route',
  'reasons',
  'visibleChars',
  'invisibleChars',
  'hiddenUnderImage',
  'badChars',
  'textQuality',
  'imageCoverage',
  'imageCount',
  'vectorOps',
  'fonts',
  'rotate',
  'pdfVersion',
  'encrypted',
  'error',
] as const;

/** The layer-quality columns (AnalyzerOptions.layerQuality), appended after CSV_COLUMNS: empty on pages without a score. */
export const LAYER_CSV_COLUMNS = ['layerScore', 'reocr'] as const;

/** The columns of the CSV export (the extension's Export Report… and the CLI's merge --csv): CSV_COLUMNS, then LAYER_CSV_COLUMNS. */
export const EXPORT_CSV_COLUMNS = [...CSV_COLUMNS, ...LAYER_CSV_COLUMNS] as const;

/** The layer-quality cells of a page (`layerScore`, `reocr`): its score and advice, empty when it was not scored. */
export function layerCsvCells(q: { score: number; reocr: boolean } | undefined): [number | undefined, boolean | undefined] {
  return q ? [q.score, q.reocr] : [undefined, undefined];
}

/**
 * One CSV cell. Text cells are quoted when needed, and a text cell that a spreadsheet would take for a formula
 * (=, +, -, @, tab, CR at the start) gets a leading apostrophe: file names and PDF strings are untrusted.
 */
export function csvCell(v: string | number | boolean | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let s = v;
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * What a CSV row reads of a file record: a FileRecord, or a record the CLI wrote and merge --csv reads back (whose
 * error reason may be the CLI's own, e.g. not-found).
 */
export interface CsvRecord {
  file: string;
  pdfVersion?: string;
  encryption?: { encrypted?: boolean };
  error?: { reason: string; message: string };
  pages?: Pick<
    PageRecord,
    | 'page'
    | 'route'
    | 'reasons'
    | 'visibleChars'
    | 'invisibleChars'
    | 'hiddenUnderImage'
    | 'badChars'
    | 'textQuality'
    | 'imageCoverage'
    | 'imageCount'
    | 'vectorOps'
    | 'fonts'
    | 'rotate'
    | 'layerQuality'
  >[];
}

/** The CSV rows of one record, in EXPORT_CSV_COLUMNS: one per page, one for a file without pages (no line ends). */
export function csvRows(r: CsvRecord): string[] {
  const tail = [r.pdfVersion, r.encryption?.encrypted ?? false, r.error ? `${r.error.reason}: ${r.error.message}` : undefined];
  const pages = r.pages ?? [];
  const row = (cells: (string | number | boolean | undefined)[]) => cells.map(csvCell).join(',');
  if (pages.length === 0)
    return [
      row([r.file, undefined, 'unknown', r.error?.reason ?? '', ...Array<undefined>(10).fill(undefined), ...tail, ...layerCsvCells(undefined)]),
    ];
  return pages.map((p) =>
    row([
      r.file,
      p.page,
      p.route,
      p.reasons.join(';'),
      p.visibleChars,
      p.invisibleChars,
      p.hiddenUnderImage,
      p.badChars,
      p.textQuality,
      p.imageCoverage,
      p.imageCount,
      p.vectorOps,
      p.fonts.length,
      p.rotate,
      ...tail,
      ...layerCsvCells(p.layerQuality),
    ]),
  );
}

export function toCsv(docs: readonly ExportDoc[]): string {
  const lines: string[] = [EXPORT_CSV_COLUMNS.join(',')];
  for (const { file, report } of docs) lines.push(...csvRows(fileRecord(file, report)));
  return lines.join('\r\n') + '\r\n';
}

export type ExportFormat = 'jsonl' | 'csv';

export function formatForPath(path: string): ExportFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'jsonl';
}

export function exportText(docs: readonly ExportDoc[], format: ExportFormat): string {
  return format === 'csv' ? toCsv(docs) : toJsonLines(docs);
}
