import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cantTell,
  distinctNames,
  docChildren,
  groupChildren,
  metadataSections,
  overlayOf,
  pageDescription,
  pageEvidenceLines,
  parentOf,
  problemsOf,
  reasonWords,
  sortDocs,
  statusText,
  verdictOf,
} from '../src/extension/model';
import type { PageRoute } from '../src/analyzer/types';
import { fortyPages, page, report } from './extension-helpers';

const ALL: ReadonlySet<PageRoute> = new Set(['ocr', 'review', 'unknown', 'ocr-layer', 'blank']);

test('document verdict: "needs OCR: pages 39–40"', () => {
  const v = verdictOf(fortyPages(), true);
  assert.equal(v.summary, 'needs OCR: pages 39–40');
  assert.deepEqual(v.ocrPages, [39, 40]);
  assert.equal(statusText(fortyPages(), true), 'PDF: 38 text · 2 OCR');
});

test('untrusted OCR layers join the OCR pages everywhere', () => {
  const r = report([page(1, 'text'), page(2, 'ocr-layer', ['invisible-text-over-scan'])]);
  assert.equal(verdictOf(r, true).needsOcr, false);
  assert.equal(verdictOf(r, false).summary, 'needs OCR: page 2');
  assert.equal(problemsOf(r, ALL, true)[0].severity, 'information');
  assert.equal(problemsOf(r, ALL, false)[0].severity, 'warning');
});

test('unreadable document: unknown with its reason, one info child', () => {
  const r = report([], { error: { reason: 'password-required', message: 'the document needs a password to open' } });
  assert.equal(verdictOf(r, true).summary, "can't tell: password required");
  const kids = docChildren({ uri: 'file:///a.pdf', report: r }, 'route', undefined);
  assert.equal(kids.length, 1);
  assert.equal(kids[0].kind, 'info');
  assert.equal(statusText(r, true), "PDF: can't tell (password required)");
  assert.equal(problemsOf(r, ALL, true)[0].code, 'password-required');
});

test('reasons in words: hyphens become spaces, a few get their own words', () => {
  assert.equal(reasonWords('budget-exceeded'), 'budget exceeded');
  assert.equal(reasonWords('password-required'), 'password required');
  assert.equal(reasonWords('not-a-pdf'), 'not a PDF');
  assert.equal(cantTell(['damaged', 'page-unreadable']), "can't tell: damaged, page unreadable");
  assert.equal(verdictOf(report([], { error: { reason: 'not-a-pdf', message: 'no header' } }), true).summary, "can't tell: not a PDF");
});

test('route groups in urgency order with counts; pages under them', () => {
  const r = report([
    page(1, 'text'),
    page(2, 'blank'),
    page(3, 'ocr'),
    page(4, 'review'),
    page(5, 'unknown', ['budget-exceeded']),
    page(6, 'ocr-layer'),
  ]);
  const doc = { uri: 'u', report: r };
  const groups = docChildren(doc, 'route', undefined);
  assert.deepEqual(
    groups.map((g) => (g.kind === 'group' ? g.route : g.kind)),
    ['ocr', 'review', 'ocr-layer', 'unknown', 'blank', 'text'],
  );
  assert.deepEqual(
    groupChildren(doc, 'ocr').map((p) => p.page),
    [3],
  );
  const filtered = docChildren(doc, 'route', new Set<PageRoute>(['ocr', 'text']));
  assert.deepEqual(
    filtered.map((g) => (g.kind === 'group' ? g.route : '')),
    ['ocr', 'text'],
  );
  const pages = docChildren(doc, 'page', new Set<PageRoute>(['ocr', 'review']));
  assert.deepEqual(
    pages.map((p) => (p.kind === 'page' ? p.page : 0)),
    [3, 4],
  );
});

test('tree ids are stable and parents resolve for reveal', () => {
  const doc = { uri: 'file:///x.pdf', report: fortyPages() };
  const [pg] = groupChildren(doc, 'ocr');
  assert.equal(pg.id, 'page|file:///x.pdf|39');
  assert.equal(parentOf(pg, 'route')?.id, 'group|file:///x.pdf|ocr');
  assert.equal(parentOf(pg, 'page')?.id, 'doc|file:///x.pdf');
  assert.equal(parentOf(parentOf(pg, 'route')!, 'route')?.id, 'doc|file:///x.pdf');
});

test('page description and evidence tooltip', () => {
  const p = page(7, 'ocr', ['image-only']);
  assert.equal(pageDescription(p), '0 chars · 98% image');
  assert.equal(pageDescription(p, true), 'OCR · 0 chars · 98% image');
  // An unknown page's counts are incomplete: it says why, in words, with or without the route.
  assert.equal(pageDescription(page(5, 'unknown', ['budget-exceeded'])), "can't tell: budget exceeded");
  assert.equal(pageDescription(page(5, 'unknown', ['password-required']), true), "can't tell: password required");
  assert.equal(pageDescription(page(5, 'unknown', [])), "can't tell");
  const lines = pageEvidenceLines(p);
  assert.match(lines[0], /^Page 7: OCR/);
  assert.ok(lines.some((l) => l === 'reasons: image-only'));
});

test('Problems: consecutive pages with the same route and reasons merge; routes setting filters', () => {
  const pages = [];
  for (let i = 1; i <= 5; i++) pages.push(page(i, 'ocr', ['image-only']));
  pages.push(page(6, 'text'), page(7, 'blank', ['nothing-painted']), page(8, 'ocr', ['image-only']));
  const r = report(pages);
  const all = problemsOf(r, ALL, true);
  assert.deepEqual(
    all.map((p) => [p.severity, p.message]),
    [
      ['warning', 'Pages 1–5 need OCR: image-only'],
      ['information', 'Page 7 is blank: nothing-painted (0 chars · 0% image)'],
      ['warning', 'Page 8 needs OCR: image-only (0 chars · 98% image)'],
    ],
  );
  assert.equal(problemsOf(r, new Set<PageRoute>(['ocr']), true).length, 2);
  assert.equal(problemsOf(r, new Set<PageRoute>(), true).length, 0);
});

test('producer hints become information entries and findings', () => {
  const r = report([page(1, 'ocr-layer')], {
    metadata: {
      info: { Producer: 'ABBYY FineReader 14' },
      xmp: {},
      hints: [{ kind: 'ocr-producer', message: 'text layer written by an OCR engine: ABBYY FineReader 14' }],
    },
  });
  const probs = problemsOf(r, ALL, true);
  assert.equal(probs[0].message, 'text layer written by an OCR engine: ABBYY FineReader 14');
  const [findings] = metadataSections(r, true);
  assert.equal(findings.title, 'Findings');
  assert.ok(findings.rows.some((x) => x.label.includes('ABBYY')));
});

test('metadata values stay raw text (the tree renders them as text): markup is not interpreted or mangled', () => {
  const evil = '<img src=x onerror=alert(1)>';
  const r = report([page(1, 'text')], {
    metadata: { info: { Title: evil, 'Bad\nKey': 'line1\nline2\u0000' }, xmp: { 'dc:title': evil }, hints: [] },
  });
  const sections = metadataSections(r, true);
  const info = sections.find((s) => s.title === 'Info dictionary')!;
  assert.deepEqual(
    info.rows.find((x) => x.label === 'Title'),
    { label: 'Title', value: evil },
  );
  assert.deepEqual(
    info.rows.find((x) => x.label === 'Bad Key'),
    { label: 'Bad Key', value: 'line1 line2 ' },
  );
  assert.equal(sections.find((s) => s.title === 'XMP')!.rows[0].value, evil);
});

test('documents needing OCR sort first', () => {
  const docs = [
    { label: 'b.pdf', report: report([page(1, 'text')]) },
    { label: 'a.pdf', report: report([page(1, 'text')]) },
    { label: 'z.pdf', report: fortyPages() },
  ];
  assert.deepEqual(
    sortDocs(docs, true).map((d) => d.label),
    ['z.pdf', 'a.pdf', 'b.pdf'],
  );
});

test('overlay for the webview carries boxes, route and verdict from the same report', () => {
  const o = overlayOf(fortyPages(), true);
  assert.equal(o.verdict, 'needs OCR: pages 39–40');
  assert.equal(o.pages[38].route, 'ocr');
  assert.deepEqual(o.pages[38].imageBoxes[0], {
    rect: [0, 0, 612, 792],
    share: 0.98,
    kind: 'xobject',
    width: 2550,
    height: 3300,
    filter: 'DCTDecode',
  });
});

test('a document error is one Problems entry, not repeated by its unknown pages', () => {
  const r = report([page(1, 'unknown', ['password-required']), page(2, 'unknown', ['budget-exceeded'])], {
    error: { reason: 'password-required', message: 'needs a password' },
  });
  const probs = problemsOf(r, ALL, true);
  assert.deepEqual(
    probs.map((p) => p.code),
    ['password-required', 'unknown'],
  );
});

test('same-named documents: the shortest distinct path suffix, as VS Code tabs do', () => {
  assert.deepEqual(distinctNames(['a/report.pdf', 'b/report.pdf', 'c/notes.pdf']), ['a/report.pdf', 'b/report.pdf', 'notes.pdf']);
  // only as much path as it takes: x/a and y/a share "a"
  assert.deepEqual(distinctNames(['x/a/report.pdf', 'y/a/report.pdf', 'z/b/report.pdf']), ['x/a/report.pdf', 'y/a/report.pdf', 'b/report.pdf']);
  // one path is a suffix of the other: the shorter keeps all it has, the longer goes one further
  assert.deepEqual(distinctNames(['a/report.pdf', 'x/a/report.pdf']), ['a/report.pdf', 'x/a/report.pdf']);
  // Windows separators and multi-root labels ("folder/path") alike; a unique name stays bare
  assert.deepEqual(distinctNames(['docs\\2024\\scan.pdf', 'docs\\2025\\scan.pdf', 'only.pdf']), ['2024/scan.pdf', '2025/scan.pdf', 'only.pdf']);
  // names differ by case: different files, no path needed
  assert.deepEqual(distinctNames(['a/Report.pdf', 'b/report.pdf']), ['Report.pdf', 'report.pdf']);
  assert.deepEqual(distinctNames([]), []);
  assert.deepEqual(distinctNames(['same/x.pdf', 'same/x.pdf']), ['same/x.pdf', 'same/x.pdf']);
});
