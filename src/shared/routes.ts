/**
 * Route presentation shared by the extension and the page webview. The webview must not import src/extension (data
 * flows analyzer -> extension -> webview, and the webview bundle must not pull host code), so the small pure helpers
 * both sides need live here. src/extension/model.ts re-exports them.
 */
import type { PageRoute } from '../analyzer/types';

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
