/**
 * The view model every surface derives from a stored report: the verdict, the tree's nodes and texts, the Problems
 * entries, the status bar text, the metadata rows and the webview overlay. Pure (no `vscode`), so the tree, the
 * diagnostics, the status bar and the exports cannot disagree: they all call these functions on the same report.
 */
import type { DocumentReport, PageReport, PageRoute } from '../analyzer/types';
import { pageRanges } from '../analyzer/serialize';
import { fontRowsOf, MAX_SCAN_NOTE, type OverlayReport, type PageOverlay, PAGE_ROUTES } from '../shared/protocol';
import {
  cantTell,
  gradedLayer,
  layerCause,
  LAYER_GRADE_STYLE,
  type LayerGrade,
  layerGrade,
  type LayerTally,
  layerTally,
  percent,
  reasonWords,
  ROUTE_STYLE,
  type RouteStyle,
  keptIncomplete,
  scanNote,
  scoreText,
} from '../shared/routes';
import { t } from './l10n';

export { PAGE_ROUTES };

// The route vocabulary's presentation lives in src/shared/routes.ts, where the webview reads it too; so do the grades.
export { ROUTE_STYLE, type RouteStyle, cantTell, percent, reasonWords };
export { gradedLayer, LAYER_GRADE_STYLE, type LayerGrade, layerGrade, type LayerTally, layerTally };

export interface Verdict {
  /** pages to send to OCR: `ocr`, plus `ocr-layer` when OCR layers are not trusted */
  ocrPages: number[];
  needsOcr: boolean;
  counts: Record<PageRoute, number>;
  /** one line: "needs OCR: pages 39–40", "can't tell: password required", "no OCR needed · 12 text" */
  summary: string;
}

export function verdictOf(report: DocumentReport, trustOcrLayer: boolean): Verdict {
  const counts = { ...report.routeCounts };
  const ocrPages: number[] = [];
  for (const p of report.pages) if (p.route === 'ocr' || (!trustOcrLayer && p.route === 'ocr-layer')) ocrPages.push(p.page);
  let summary: string;
  if (report.error) summary = cantTellText([report.error.reason]);
  else if (ocrPages.length > 0)
    summary = ocrPages.length === 1 ? t('needs OCR: page {0}', pageRanges(ocrPages)) : t('needs OCR: pages {0}', pageRanges(ocrPages));
  else if (report.pages.length === 0) summary = t('no pages');
  else if (counts.review > 0 || counts.unknown > 0) summary = countsText(counts);
  else summary = t('no OCR needed · {0}', countsText(counts));
  return { ocrPages, needsOcr: ocrPages.length > 0, counts, summary };
}

/** "38 text · 2 OCR · 1 review" in urgency order, zero counts left out. */
export function countsText(counts: Record<PageRoute, number>): string {
  const parts: string[] = [];
  for (const r of PAGE_ROUTES) if (counts[r] > 0) parts.push(`${counts[r]} ${routeLabel(r)}`);
  return parts.length ? parts.join(' · ') : t('no pages');
}

// ---------------------------------------------------------------------------------------------------------------
// OCR-layer grades (AnalyzerOptions.layerQuality; the mapping is in src/shared/routes.ts)

/** A grade in the user's language. */
export function gradeLabel(g: LayerGrade): string {
  switch (g) {
    case 'good':
      return t('good');
    case 'fair':
      return t('fair');
    case 'poor':
      return t('poor');
  }
}

/**
 * A graded page's badge: "layer poor (0.31) · re-OCR", "layer good (0.98)", "layer good (0.98) · words only" (its scan
 * gave no evidence: signals.image says why), "layer fair (0.75) · incomplete evidence" (kept without a confident
 * judgement: routes.ts keptIncomplete); undefined for a page without a grade.
 */
export function layerBadge(p: PageReport): string | undefined {
  const q = gradedLayer(p);
  if (!q) return undefined;
  let badge = t('layer {0} ({1})', gradeLabel(layerGrade(q)), scoreText(q.score));
  if (scanNote(q) !== undefined) badge = `${badge} · ${t('words only')}`;
  if (keptIncomplete(q) !== undefined) badge = `${badge} · ${t('incomplete evidence')}`;
  return q.reocr ? `${badge} · ${t('re-OCR')}` : badge;
}

/** "12 pages good, 3 poor (re-OCR pages 4, 9, 11)": the graded pages of a document, zero counts left out. */
export function layerCountsText(tally: LayerTally): string {
  const parts: string[] = [];
  for (const g of ['good', 'fair', 'poor'] as const) {
    const n = tally[g].length;
    if (n === 0) continue;
    if (parts.length === 0) parts.push(n === 1 ? t('1 page {0}', gradeLabel(g)) : t('{0} pages {1}', n, gradeLabel(g)));
    else parts.push(t('{0} {1}', n, gradeLabel(g)));
  }
  const text = parts.join(', ');
  if (tally.poor.length === 0) return text;
  const where = pageRanges(tally.poor);
  return tally.poor.length === 1 ? t('{0} (re-OCR page {1})', text, where) : t('{0} (re-OCR pages {1})', text, where);
}

/** The document's layer summary, "OCR layer: 12 pages good, 3 poor (re-OCR pages 4, 9, 11)"; undefined when no page was graded. */
export function layerSummary(report: DocumentReport): string | undefined {
  const tally = layerTally(report.pages);
  return tally ? t('OCR layer: {0}', layerCountsText(tally)) : undefined;
}

/** Pages whose OCR layer should be redone (poor), in report order. */
export function reocrPages(report: DocumentReport): number[] {
  return layerTally(report.pages)?.poor ?? [];
}

/** The document row's description in the tree: the verdict, then the pages to re-OCR when there are any. */
export function docDescription(report: DocumentReport, trustOcrLayer: boolean): string {
  const summary = verdictOf(report, trustOcrLayer).summary;
  const re = reocrPages(report);
  if (re.length === 0) return summary;
  return `${summary} · ${re.length === 1 ? t('re-OCR page {0}', pageRanges(re)) : t('re-OCR pages {0}', pageRanges(re))}`;
}

/** A graded page's tooltip lines: the grade and score, then the evidence behind it (signal names may change: read defensively). */
export function layerLines(p: PageReport): string[] {
  const q = gradedLayer(p);
  if (!q) return [];
  const g = gradeLabel(layerGrade(q));
  const lines = [
    q.reocr ? t('OCR layer: {0} (score {1}): re-OCR advised', g, scoreText(q.score)) : t('OCR layer: {0} (score {1}): keep', g, scoreText(q.score)),
  ];
  const s = q.signals;
  const num = (k: string): number | undefined => {
    const v = s[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  };
  const parts: string[] = [];
  const cer = num('estimatedCer');
  if (cer !== undefined) parts.push(t('estimated character error {0}', percent(cer)));
  const words = num('wordLike');
  if (words !== undefined)
    parts.push(
      typeof s.language === 'string'
        ? t('words that read like {0}: {1}', s.language, percent(words))
        : t('words that read like a language: {0}', percent(words)),
    );
  const ink = num('inkCovered');
  if (ink !== undefined) parts.push(t('ink covered by words: {0}', percent(ink)));
  else if (typeof s.image === 'string') parts.push(t('scan not read: {0}', s.image.slice(0, 120)));
  const spread = num('widthSpread');
  if (spread !== undefined) parts.push(t('word-width spread {0}', scoreText(spread)));
  if (parts.length) lines.push(t('layer evidence: {0}', parts.join(', ')));
  // what the estimated error is made of, on layers not kept as good
  const why = layerGrade(q) === 'good' ? [] : layerCause(q);
  if (why.length)
    lines.push(
      t(
        'why: {0}',
        why
          .map((c) =>
            c.kind === 'missing'
              ? t("text missing ({0} of the page's text is not in the layer)", percent(c.share))
              : c.shift === undefined
                ? t('words wrong (an estimated {0} of the characters there)', percent(c.share))
                : t(
                    'words wrong (an estimated {0} of the characters there, its letters shifted {1} places along the alphabet)',
                    percent(c.share),
                    c.shift,
                  ),
          )
          .join('; '),
      ),
    );
  if (typeof s.incomplete === 'string') lines.push(t('layer judged on incomplete evidence: {0}', s.incomplete.slice(0, 120)));
  return lines;
}

/** The status bar's text for a document: "PDF: 38 text · 2 OCR". */
export function statusText(report: DocumentReport | undefined, trustOcrLayer: boolean): string {
  if (!report) return t('PDF: not classified');
  if (report.error) return t("PDF: can't tell ({0})", reasonText(report.error.reason));
  const v = verdictOf(report, trustOcrLayer);
  const parts: string[] = [];
  // Text first, then what needs attention: the status bar reads "38 text · 2 OCR".
  if (v.counts.text > 0) parts.push(`${v.counts.text} ${routeLabel('text')}`);
  for (const r of PAGE_ROUTES) if (r !== 'text' && v.counts[r] > 0) parts.push(`${v.counts[r]} ${routeLabel(r)}`);
  const re = reocrPages(report).length;
  if (re > 0) parts.push(t('{0} re-OCR', re));
  return t('PDF: {0}', parts.length ? parts.join(' · ') : t('no pages'));
}

/**
 * A page item's description: visible characters and image coverage. An `unknown` page says why in words instead
 * ("can't tell: budget exceeded"): its counts are incomplete, and "0 chars · 0%" would read as a blank page.
 */
export function pageDescription(p: PageReport, withRoute = false): string {
  if (p.route === 'unknown') return cantTellText(p.reasons);
  const e = p.evidence;
  let base = t('{0} chars · {1} image', e.visibleChars, percent(e.imageCoverage));
  const badge = layerBadge(p);
  if (badge) base = `${badge} · ${base}`;
  return withRoute ? `${routeLabel(p.route)} · ${base}` : base;
}

/** A page's evidence as plain text lines (tooltips, Problems). Strings from the PDF stay plain text. */
export function pageEvidenceLines(p: PageReport): string[] {
  const e = p.evidence;
  const lines = [
    t('Page {0}: {1} ({2})', p.page, routeLabel(p.route), routeMeaning(p.route)),
    t('reasons: {0}', p.reasons.join(', ') || '—'),
    e.hiddenUnderImage
      ? t('visible chars: {0}, invisible: {1} ({2} under an image)', e.visibleChars, e.invisibleChars, e.hiddenUnderImage)
      : t('visible chars: {0}, invisible: {1}', e.visibleChars, e.invisibleChars),
    e.badChars ? t('text quality: {0} ({1} undecodable)', percent(e.textQuality), e.badChars) : t('text quality: {0}', percent(e.textQuality)),
    e.imageCount === 1
      ? t('image coverage: {0} in 1 image', percent(e.imageCoverage))
      : t('image coverage: {0} in {1} images', percent(e.imageCoverage), e.imageCount),
    t('vector ops: {0}, operators: {1}', e.vectorOps, e.operators),
    ...layerLines(p),
  ];
  if (e.fonts.length) {
    const shown = e.fonts
      .slice(0, 8)
      .map((f) =>
        t('{0} ({1}, {2}, {3} chars{4})', f.baseFont || f.name, f.subtype, f.decoding, f.chars, f.glyphless ? t(', OCR glyphless font') : ''),
      );
    lines.push(e.fonts.length > 8 ? t('fonts: {0}; +{1} more', shown.join('; '), e.fonts.length - 8) : t('fonts: {0}', shown.join('; ')));
  }
  if (e.rotate) lines.push(t('rotated {0}°', e.rotate));
  for (const n of (p.notes ?? []).slice(0, 5)) lines.push(t('note: {0}', n));
  return lines;
}

/** Document-level findings: the analyzer's hints and notes plus counts worth saying. */
export function findingsOf(report: DocumentReport, trustOcrLayer: boolean): string[] {
  const out: string[] = [];
  if (report.error) out.push(`${report.error.reason}: ${report.error.message}`);
  if (report.encryption.needsPassword && report.error?.reason !== 'password-required') out.push(t('password required'));
  for (const h of report.metadata.hints) out.push(h.message);
  const c = report.routeCounts;
  if (c.blank > 0) out.push(c.blank === 1 ? t('1 blank page') : t('{0} blank pages', c.blank));
  if (c['ocr-layer'] > 0) {
    const n = c['ocr-layer'];
    const layer = n === 1 ? t('1 page with an OCR text layer') : t('{0} pages with an OCR text layer', n);
    out.push(trustOcrLayer ? layer : t('{0} (not trusted: reported for OCR)', layer));
  }
  const layers = layerSummary(report);
  if (layers) out.push(layers);
  for (const n of report.notes) out.push(n);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Tree model

export type GroupMode = 'route' | 'page';

export interface DocNode {
  kind: 'doc';
  id: string;
  uri: string;
}
export interface GroupNode {
  kind: 'group';
  id: string;
  uri: string;
  route: PageRoute;
  count: number;
}
export interface PageNode {
  kind: 'page';
  id: string;
  uri: string;
  page: number;
  route: PageRoute;
  /** listed under the document's re-OCR group (its id differs from the same page's under its route group) */
  via?: 'reocr';
}
/** The pages of a document whose OCR layer should be redone (poor grade): a group beside the route groups. */
export interface ReocrNode {
  kind: 'reocr';
  id: string;
  uri: string;
  count: number;
}
/** A line under a document that could not be read. */
export interface InfoNode {
  kind: 'info';
  id: string;
  uri: string;
  text: string;
}
export type TreeNode = DocNode | GroupNode | ReocrNode | PageNode | InfoNode;

export interface TreeDoc {
  uri: string;
  report: DocumentReport;
}

export function docNode(uri: string): DocNode {
  return { kind: 'doc', id: `doc|${uri}`, uri };
}

/** Children of a document: route groups in urgency order (or pages in page order), filtered by route. */
export function docChildren(doc: TreeDoc, mode: GroupMode, filter: ReadonlySet<PageRoute> | undefined): TreeNode[] {
  const { uri, report } = doc;
  if (report.error && report.pages.length === 0) {
    return [{ kind: 'info', id: `info|${uri}`, uri, text: `${report.error.reason}: ${report.error.message}` }];
  }
  const shown = (r: PageRoute) => !filter || filter.has(r);
  if (mode === 'page') {
    return report.pages.filter((p) => shown(p.route)).map((p) => pageNode(uri, p));
  }
  const out: TreeNode[] = [];
  for (const route of PAGE_ROUTES) {
    const count = report.routeCounts[route];
    // the pages to re-OCR come first among the OCR layers: what to do about them, then all of them
    if (route === 'ocr-layer' && shown(route)) {
      const re = reocrPages(report).length;
      if (re > 0) out.push(reocrNode(uri, re));
    }
    if (count > 0 && shown(route)) out.push({ kind: 'group', id: `group|${uri}|${route}`, uri, route, count });
  }
  return out;
}

export function groupChildren(doc: TreeDoc, route: PageRoute): PageNode[] {
  return doc.report.pages.filter((p) => p.route === route).map((p) => pageNode(doc.uri, p));
}

/** The pages of the re-OCR group. */
export function reocrChildren(doc: TreeDoc): PageNode[] {
  const poor = new Set(reocrPages(doc.report));
  return doc.report.pages.filter((p) => poor.has(p.page)).map((p) => pageNode(doc.uri, p, 'reocr'));
}

function reocrNode(uri: string, count: number): ReocrNode {
  return { kind: 'reocr', id: `reocr|${uri}`, uri, count };
}

function pageNode(uri: string, p: PageReport, via?: 'reocr'): PageNode {
  if (via) return { kind: 'page', id: `page|${uri}|${p.page}|reocr`, uri, page: p.page, route: p.route, via };
  return { kind: 'page', id: `page|${uri}|${p.page}`, uri, page: p.page, route: p.route };
}

export function parentOf(node: TreeNode, mode: GroupMode): TreeNode | undefined {
  switch (node.kind) {
    case 'doc':
      return undefined;
    case 'group':
    case 'reocr':
    case 'info':
      return docNode(node.uri);
    case 'page':
      if (node.via === 'reocr') return reocrNode(node.uri, 0);
      return mode === 'route'
        ? { kind: 'group', id: `group|${node.uri}|${node.route}`, uri: node.uri, route: node.route, count: 0 }
        : docNode(node.uri);
  }
}

/**
 * Display names for documents, as VS Code's tabs tell same-named files apart: the file name when it is unique, else the
 * shortest path suffix no other document shares ("a/report.pdf", "b/report.pdf"). Paths use / or \; identical paths
 * keep their whole path. One pass over every suffix, so a workspace of 100 000 files costs its total path depth.
 */
export function distinctNames(paths: readonly string[]): string[] {
  const segs = paths.map((p) => p.split(/[\\/]+/).filter(Boolean));
  const key = (s: string[], k: number) => s.slice(s.length - k).join('/');
  const count = new Map<string, number>();
  for (const s of segs) for (let k = 1; k <= s.length; k++) count.set(key(s, k), (count.get(key(s, k)) ?? 0) + 1);
  return segs.map((s, i) => {
    if (s.length === 0) return paths[i];
    let k = 1;
    while (k < s.length && count.get(key(s, k))! > 1) k++;
    return key(s, k);
  });
}

/** Documents sorted for display: the ones that need attention first, then by label. */
export function sortDocs<T extends { label: string; report: DocumentReport }>(docs: T[], trustOcrLayer: boolean): T[] {
  const rank = (r: DocumentReport) => {
    if (r.error) return 1;
    if (verdictOf(r, trustOcrLayer).needsOcr) return 0;
    if (r.routeCounts.review > 0 || r.routeCounts.unknown > 0) return 2;
    return 3;
  };
  return [...docs].sort((a, b) => rank(a.report) - rank(b.report) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------------------------
// Problems entries

export type Severity = 'warning' | 'information';

/** The code of the document's poor-layer warning (its link opens the first page to re-OCR). */
export const REOCR_CODE = 'reocr';

export interface ProblemSpec {
  severity: Severity;
  message: string;
  /** the diagnostic's code: the route or the finding's reason */
  code: string;
  /** first page of the run, 0 for document-level entries */
  page: number;
}

export function severityOf(route: PageRoute, trustOcrLayer: boolean): Severity | undefined {
  switch (route) {
    case 'ocr':
    case 'review':
    case 'unknown':
      return 'warning';
    case 'ocr-layer':
      return trustOcrLayer ? 'information' : 'warning';
    case 'blank':
      return 'information';
    case 'text':
      return undefined;
  }
}

/** A Problems entry's sentence: "Page 4 needs OCR: image-only", "Pages 3–17 need OCR: …" (whole sentences, for translators). */
function routePhrase(route: PageRoute | 'ocr-layer-untrusted', many: boolean, where: string, detail: string): string {
  switch (route) {
    case 'ocr':
      return many ? t('Pages {0} need OCR: {1}', where, detail) : t('Page {0} needs OCR: {1}', where, detail);
    case 'review':
      return many ? t('Pages {0} need review: {1}', where, detail) : t('Page {0} needs review: {1}', where, detail);
    case 'ocr-layer':
      return many ? t('Pages {0} have an OCR text layer: {1}', where, detail) : t('Page {0} has an OCR text layer: {1}', where, detail);
    case 'ocr-layer-untrusted':
      return many
        ? t('Pages {0} have only an OCR layer: re-OCR: {1}', where, detail)
        : t('Page {0} has only an OCR layer: re-OCR: {1}', where, detail);
    case 'unknown':
      return many ? t('Pages {0} could not be analysed: {1}', where, detail) : t('Page {0} could not be analysed: {1}', where, detail);
    case 'blank':
      return many ? t('Pages {0} are blank: {1}', where, detail) : t('Page {0} is blank: {1}', where, detail);
    case 'text':
      return many ? t('Pages {0} have text: {1}', where, detail) : t('Page {0} has text: {1}', where, detail);
  }
}

/** A route's label in the user's language ("OCR", "text"…): ROUTE_STYLE's English label is the key. */
export function routeLabel(r: PageRoute): string {
  switch (r) {
    case 'ocr':
      return t('OCR');
    case 'review':
      return t('review');
    case 'ocr-layer':
      return t('OCR layer');
    case 'unknown':
      return t('unknown');
    case 'blank':
      return t('blank');
    case 'text':
      return t('text');
  }
}

/** What a route means, for tooltips, in the user's language. */
export function routeMeaning(r: PageRoute): string {
  switch (r) {
    case 'ocr':
      return t('no usable text layer: the page must go to OCR');
    case 'review':
      return t('borderline: little text over a large image');
    case 'ocr-layer':
      return t('a scan with an invisible OCR text layer');
    case 'unknown':
      return t('could not be analysed');
    case 'blank':
      return t('nothing meaningful painted');
    case 'text':
      return t('text can be read from the file');
  }
}

/** A reason id in words, in the user's language (reasonWords gives the English). */
export function reasonText(reason: string): string {
  return reason === 'not-a-pdf' ? t('not a PDF') : t(reasonWords(reason));
}

/** "can't tell: password required", in the user's language. */
export function cantTellText(reasons: readonly string[]): string {
  return reasons.length ? t("can't tell: {0}", reasons.map(reasonText).join(', ')) : t("can't tell");
}

/**
 * Problems entries for one document. Consecutive pages with the same route and reasons merge into one entry
 * ("Pages 3–17 need OCR: image-only"), so a 500-page scan gives one line, not 500.
 */
export function problemsOf(report: DocumentReport, routes: ReadonlySet<PageRoute>, trustOcrLayer: boolean): ProblemSpec[] {
  const out: ProblemSpec[] = [];
  if (report.error) {
    out.push({ severity: 'warning', message: t('Cannot analyse this PDF: {0}', report.error.message), code: report.error.reason, page: 0 });
  }
  for (const h of report.metadata.hints) out.push({ severity: 'information', message: h.message, code: h.kind, page: 0 });
  // One warning for the document's poor OCR layers, linked to the first of them. Not when layers are not trusted:
  // every ocr-layer page is then a re-OCR warning of its own already.
  const poor = trustOcrLayer ? reocrPages(report) : [];
  if (poor.length > 0) {
    const where = pageRanges(poor);
    out.push({
      severity: 'warning',
      message: poor.length === 1 ? t('OCR layer poor on page {0}: re-OCR advised', where) : t('OCR layer poor on pages {0}: re-OCR advised', where),
      code: REOCR_CODE,
      page: poor[0],
    });
  }
  const pages = report.pages;
  for (let i = 0; i < pages.length;) {
    const p = pages[i];
    const key = `${p.route}|${p.reasons.join(',')}`;
    let j = i;
    while (j + 1 < pages.length && pages[j + 1].page === pages[j].page + 1 && `${pages[j + 1].route}|${pages[j + 1].reasons.join(',')}` === key) j++;
    const severity = severityOf(p.route, trustOcrLayer);
    // Pages that are unknown for the document's own fault repeat the document-level entry: leave them out.
    const repeatsError = report.error && p.route === 'unknown' && p.reasons.length === 1 && p.reasons[0] === report.error.reason;
    if (severity && routes.has(p.route) && !repeatsError) {
      const many = j > i;
      const route = !trustOcrLayer && p.route === 'ocr-layer' ? 'ocr-layer-untrusted' : p.route;
      let detail = p.reasons.join(', ');
      if (!many && p.route !== 'unknown') detail += ` (${pageDescription(p)})`;
      const message = many ? routePhrase(route, true, `${p.page}–${pages[j].page}`, detail) : routePhrase(route, false, String(p.page), detail);
      out.push({ severity, message, code: p.route, page: p.page });
    }
    i = j + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Metadata panel rows

export interface MetaRow {
  label: string;
  value: string;
}
export interface MetaSection {
  title: string;
  rows: MetaRow[];
}

const MAX_VALUE = 500;

function clip(s: string): string {
  // Tree labels are single-line: control characters would garble them.
  const flat = s.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length > MAX_VALUE ? `${flat.slice(0, MAX_VALUE)}…` : flat;
}

export function metadataSections(report: DocumentReport, trustOcrLayer: boolean): MetaSection[] {
  const findings = findingsOf(report, trustOcrLayer).map((f) => ({ label: clip(f), value: '' }));
  const enc = report.encryption;
  const doc: MetaRow[] = [
    { label: t('Verdict'), value: verdictOf(report, trustOcrLayer).summary },
    { label: t('Pages'), value: String(report.pageCount) },
    { label: t('PDF version'), value: report.pdfVersion ?? t('unknown') },
    {
      label: t('Encryption'),
      value: enc.encrypted
        ? [
            enc.method ?? t('unknown method'),
            enc.revision !== undefined ? `R${enc.revision}` : '',
            enc.needsPassword ? t('password required') : t('opened with the empty password'),
          ]
            .filter(Boolean)
            .join(', ')
        : t('none'),
    },
    { label: t('Analysis time'), value: t('{0} ms', Math.round(report.elapsedMs)) },
  ];
  const tally = layerTally(report.pages);
  if (tally) doc.splice(2, 0, { label: t('OCR layer'), value: layerCountsText(tally) });
  const rows = (rec: Record<string, string>) =>
    Object.keys(rec)
      .sort()
      .map((k) => ({ label: clip(k), value: clip(rec[k]) }));
  const sections: MetaSection[] = [];
  sections.push({ title: t('Findings'), rows: findings });
  sections.push({ title: t('Document'), rows: doc });
  sections.push({ title: t('Info dictionary'), rows: rows(report.metadata.info) });
  sections.push({ title: t('XMP'), rows: rows(report.metadata.xmp) });
  return sections;
}

// ---------------------------------------------------------------------------------------------------------------
// Webview overlay

export function overlayOf(report: DocumentReport, trustOcrLayer: boolean): OverlayReport {
  const pages: PageOverlay[] = report.pages.map((p) => {
    const e = p.evidence;
    const o: PageOverlay = {
      page: p.page,
      route: p.route,
      reasons: p.reasons,
      visibleChars: e.visibleChars,
      invisibleChars: e.invisibleChars,
      imageCoverage: e.imageCoverage,
      imageCount: e.imageCount,
      vectorOps: e.vectorOps,
      fonts: e.fonts.length,
      imageBoxes: e.imageBoxes.map((b) => {
        const box: PageOverlay['imageBoxes'][number] = { rect: b.rect, share: b.share, kind: b.kind };
        if (b.width !== undefined) box.width = b.width;
        if (b.height !== undefined) box.height = b.height;
        if (b.filter !== undefined) box.filter = b.filter;
        return box;
      }),
      cropBox: e.boxes.cropBox,
      mediaBox: e.boxes.mediaBox,
      rotate: e.rotate,
    };
    if (p.notes) o.notes = p.notes;
    if (e.fonts.length) o.fontRows = fontRowsOf(e.fonts);
    const q = gradedLayer(p);
    if (q) {
      o.layer = { score: q.score, reocr: q.reocr };
      const te = q.signals.textError;
      if (typeof te === 'number' && Number.isFinite(te)) o.layer.textError = te;
      const tm = q.signals.textMissing;
      if (typeof tm === 'number' && Number.isFinite(tm)) o.layer.textMissing = tm;
      const shift = q.signals.shift;
      if (typeof shift === 'number' && Number.isInteger(shift)) o.layer.shift = shift;
      const note = scanNote(q);
      if (note !== undefined) o.layer.scanNote = note.slice(0, MAX_SCAN_NOTE);
      const incomplete = keptIncomplete(q);
      if (incomplete !== undefined) o.layer.incomplete = incomplete.slice(0, MAX_SCAN_NOTE);
    }
    return o;
  });
  const r: OverlayReport = {
    pageCount: report.pageCount,
    verdict: verdictOf(report, trustOcrLayer).summary,
    findings: findingsOf(report, trustOcrLayer),
    pages,
  };
  if (report.error) r.error = `${report.error.reason}: ${report.error.message}`;
  return r;
}

// failureReport lives in src/shared/report.ts (the pool and the CLI's workers make them too); re-exported for the host
export { failureReport } from '../shared/report';
