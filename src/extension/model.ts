/**
 * The view model every surface derives from a stored report: the verdict, the tree's nodes and texts, the Problems
 * entries, the status bar text, the metadata rows and the webview overlay. Pure (no `vscode`), so the tree, the
 * diagnostics, the status bar and the exports cannot disagree: they all call these functions on the same report.
 */
import type { DocumentReport, PageReport, PageRoute, RouteReason } from '../analyzer/types';
import { pageRanges } from '../analyzer/serialize';
import { fontRowsOf, type OverlayReport, type PageOverlay, PAGE_ROUTES } from '../shared/protocol';
import { ROUTE_STYLE, type RouteStyle, cantTell, percent, reasonWords } from '../shared/routes';
import { t } from './l10n';

export { PAGE_ROUTES };

// The route vocabulary's presentation lives in src/shared/routes.ts, where the webview reads it too.
export { ROUTE_STYLE, type RouteStyle, cantTell, percent, reasonWords };

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

/** The status bar's text for a document: "PDF: 38 text · 2 OCR". */
export function statusText(report: DocumentReport | undefined, trustOcrLayer: boolean): string {
  if (!report) return t('PDF: not classified');
  if (report.error) return t("PDF: can't tell ({0})", reasonText(report.error.reason));
  const v = verdictOf(report, trustOcrLayer);
  const parts: string[] = [];
  // Text first, then what needs attention: the status bar reads "38 text · 2 OCR".
  if (v.counts.text > 0) parts.push(`${v.counts.text} ${routeLabel('text')}`);
  for (const r of PAGE_ROUTES) if (r !== 'text' && v.counts[r] > 0) parts.push(`${v.counts[r]} ${routeLabel(r)}`);
  return t('PDF: {0}', parts.length ? parts.join(' · ') : t('no pages'));
}

/**
 * A page item's description: visible characters and image coverage. An `unknown` page says why in words instead
 * ("can't tell: budget exceeded"): its counts are incomplete, and "0 chars · 0%" would read as a blank page.
 */
export function pageDescription(p: PageReport, withRoute = false): string {
  if (p.route === 'unknown') return cantTellText(p.reasons);
  const e = p.evidence;
  const base = t('{0} chars · {1} image', e.visibleChars, percent(e.imageCoverage));
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
}
/** A line under a document that could not be read. */
export interface InfoNode {
  kind: 'info';
  id: string;
  uri: string;
  text: string;
}
export type TreeNode = DocNode | GroupNode | PageNode | InfoNode;

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
    if (count > 0 && shown(route)) out.push({ kind: 'group', id: `group|${uri}|${route}`, uri, route, count });
  }
  return out;
}

export function groupChildren(doc: TreeDoc, route: PageRoute): PageNode[] {
  return doc.report.pages.filter((p) => p.route === route).map((p) => pageNode(doc.uri, p));
}

function pageNode(uri: string, p: PageReport): PageNode {
  return { kind: 'page', id: `page|${uri}|${p.page}`, uri, page: p.page, route: p.route };
}

export function parentOf(node: TreeNode, mode: GroupMode): TreeNode | undefined {
  switch (node.kind) {
    case 'doc':
      return undefined;
    case 'group':
    case 'info':
      return docNode(node.uri);
    case 'page':
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

/** A report for a file the host could not analyse itself (worker killed, crashed, unreadable). */
export function failureReport(reason: RouteReason, message: string, elapsedMs = 0): DocumentReport {
  return {
    pageCount: 0,
    pages: [],
    needsOcr: false,
    ocrPages: [],
    routeCounts: { text: 0, 'ocr-layer': 0, ocr: 0, blank: 0, review: 0, unknown: 0 },
    encryption: { encrypted: false },
    metadata: { info: {}, xmp: {}, hints: [] },
    error: { reason, message },
    notes: [],
    elapsedMs,
  };
}
