/**
 * Compares the analyzer with the corpus labels (../shared/corpus/labels.jsonl). Used by `npm run accuracy`
 * and by the ratchet test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyzePdfSync } from '../src/analyzer/analyze';
import type { DocumentReport, PageRoute } from '../src/analyzer/types';

export const CORPUS_DIR = resolve(import.meta.dirname, '..', '..', 'shared', 'corpus');

export interface LabelPage {
  page: number;
  route: PageRoute;
  why: string;
  visibleChars: number;
  invisibleChars: number;
  hiddenUnderImage: number;
  badChars: number;
  imageCoverage: number;
  images: number;
  drawings: number;
}
export interface Label {
  file: string;
  encrypted?: boolean;
  needsPassword?: boolean;
  pages?: LabelPage[];
  needsOcr?: boolean;
  ocrPages?: number[];
  error?: string;
  producer?: string;
}

export interface FileResult {
  file: string;
  label: Label;
  report: DocumentReport;
  /** document-level agreement: needs-OCR decision and the list of OCR pages */
  docAgrees: boolean;
  pageDisagreements: { page: number; label: LabelPage | undefined; ours: DocumentReport['pages'][number] | undefined }[];
  ms: number;
}

export function corpusPresent(dir = CORPUS_DIR): boolean {
  return existsSync(join(dir, 'labels.jsonl'));
}

export function loadLabels(dir = CORPUS_DIR): Label[] {
  return readFileSync(join(dir, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Label);
}

export function checkFile(label: Label, dir = CORPUS_DIR): FileResult {
  const bytes = new Uint8Array(readFileSync(join(dir, label.file)));
  const t0 = performance.now();
  const report = analyzePdfSync(bytes);
  const ms = performance.now() - t0;
  const expOcr = label.ocrPages ?? [];
  const docAgrees = (label.needsOcr ?? false) === report.needsOcr && sameList(expOcr, report.ocrPages);
  const pageDisagreements: FileResult['pageDisagreements'] = [];
  const lp = label.pages ?? [];
  const n = Math.max(lp.length, report.pages.length);
  for (let i = 0; i < n; i++) {
    const l = lp[i];
    const o = report.pages[i];
    if (label.error && !l) continue; // robustness cases carry no page labels
    if (!l || !o || l.route !== o.route) pageDisagreements.push({ page: i + 1, label: l, ours: o });
  }
  return { file: label.file, label, report, docAgrees, pageDisagreements, ms };
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
