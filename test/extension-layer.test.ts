// Issue 16 in the extension: OCR-layer grades in the tree, the re-OCR group, one Problems warning per document, the
// document summaries, the overlay's page score; on hand-made reports and on the generated fixture
// (test/fixtures/e2e/layer-quality.pdf, made by test/e2e/make-layer-fixture.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { test } from 'node:test';
import { analyzePdfSync } from '../src/analyzer/index';
import type { DocumentReport, PageReport } from '../src/analyzer/types';
import { formatMessage, setTranslator } from '../src/extension/l10n';
import {
  docChildren,
  docDescription,
  findingsOf,
  layerBadge,
  layerSummary,
  metadataSections,
  overlayOf,
  pageDescription,
  pageEvidenceLines,
  parentOf,
  problemsOf,
  REOCR_CODE,
  reocrChildren,
  reocrPages,
  statusText,
  type TreeNode,
} from '../src/extension/model';
import { readSettings } from '../src/extension/settings';
import { ReportStore } from '../src/extension/store';
import { chunkPageOverlays, MAX_SCAN_NOTE, parseHostMessage } from '../src/shared/protocol';
import { layerTally, wordsGraded } from '../src/shared/routes';
import { page, report } from './extension-helpers';

// tree.ts and diagnostics.ts import 'vscode': resolve it to the fake for this file (as extension-cache.test.ts does)
const fakeUrl = new URL('./fake-vscode.ts', import.meta.url).href;
register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function resolve(s, c, next) { return next(s === 'vscode' ? ${JSON.stringify(fakeUrl)} : s, c); }`),
);
const vscode = (await import('vscode')) as unknown as typeof import('./fake-vscode');
const { RoutesTree } = await import('../src/extension/tree');
const { ProblemsPublisher, pageOfDiagnostic, PdfCodeActions } = await import('../src/extension/diagnostics');

const ALL = new Set(['ocr', 'review', 'unknown', 'ocr-layer', 'blank'] as const);

function layerPage(n: number, score: number, reocr: boolean, signals: Record<string, number | string | boolean> = {}): PageReport {
  return page(n, 'ocr-layer', ['invisible-text-over-scan'], { layerQuality: { score, reocr, signals } });
}

/** 15 OCR-layer pages: 12 good, pages 4, 9, 11 poor; page 16 a text page with a (poor) score, which is not graded. */
function fifteenLayers(): DocumentReport {
  const pages: PageReport[] = [];
  for (let i = 1; i <= 15; i++) pages.push([4, 9, 11].includes(i) ? layerPage(i, 0.31 + i / 100, true) : layerPage(i, 0.98, false));
  pages.push(page(16, 'text', ['text-layer'], { layerQuality: { score: 0.2, reocr: true, signals: {} } }));
  return report(pages);
}

test("the document's layer summary: counts by grade and the pages to re-OCR", () => {
  const r = fifteenLayers();
  assert.equal(layerSummary(r), 'OCR layer: 12 pages good, 3 poor (re-OCR pages 4, 9, 11)');
  assert.deepEqual(reocrPages(r), [4, 9, 11], 'only ocr-layer pages: the text page 16 is not graded');
  assert.equal(layerSummary(report([layerPage(2, 0.5, true)])), 'OCR layer: 1 page poor (re-OCR page 2)');
  assert.equal(layerSummary(report([layerPage(1, 0.97, false), layerPage(2, 0.8, false)])), 'OCR layer: 1 page good, 1 fair');
  assert.equal(
    layerSummary(report([layerPage(1, 0.4, true), layerPage(2, 0.3, true), layerPage(3, 0.2, true)])),
    'OCR layer: 3 pages poor (re-OCR pages 1–3)',
  );
  // without scores (the setting off, or an old report): nothing is said
  assert.equal(layerSummary(report([page(1, 'ocr-layer', ['invisible-text-over-scan'])])), undefined);
  assert.equal(layerTally(report([page(1, 'ocr-layer')]).pages), undefined);
});

test('the summary shows in the findings, the metadata, the tree row and the status bar', () => {
  const r = fifteenLayers();
  assert.ok(findingsOf(r, true).includes('OCR layer: 12 pages good, 3 poor (re-OCR pages 4, 9, 11)'));
  const doc = metadataSections(r, true).find((s) => s.title === 'Document')!;
  assert.deepEqual(
    doc.rows.find((x) => x.label === 'OCR layer'),
    { label: 'OCR layer', value: '12 pages good, 3 poor (re-OCR pages 4, 9, 11)' },
  );
  assert.match(docDescription(r, true), /re-OCR pages 4, 9, 11$/);
  assert.match(statusText(r, true), /· 3 re-OCR$/);
  // a document without poor layers says nothing more than before
  const good = report([layerPage(1, 0.99, false)]);
  assert.doesNotMatch(docDescription(good, true), /re-OCR/);
  assert.doesNotMatch(statusText(good, true), /re-OCR/);
});

test('a graded page: its badge in the description, the grade and the evidence in the tooltip', () => {
  const p = layerPage(4, 0.31, true, { estimatedCer: 0.69, wordLike: 0.05, language: 'en', inkCovered: 0.4, widthSpread: 0.31 });
  assert.equal(layerBadge(p), 'layer poor (0.31) · re-OCR');
  assert.equal(pageDescription(p), 'layer poor (0.31) · re-OCR · 0 chars · 98% image');
  assert.equal(pageDescription(p, true), 'OCR layer · layer poor (0.31) · re-OCR · 0 chars · 98% image');
  const lines = pageEvidenceLines(p);
  assert.ok(lines.includes('OCR layer: poor (score 0.31): re-OCR advised'), lines.join('\n'));
  assert.ok(
    lines.some((l) => /^layer evidence: estimated character error 69%, words that read like en: 5%, ink covered by words: 40%/.test(l)),
    lines.join('\n'),
  );
  assert.ok(!lines.some((l) => l.startsWith('why:')), "without the estimate's parts no cause is given");
  // with them, the larger part first, the other from 10 % on; a good layer says no cause
  const why = (signals: Record<string, number>, score = 0.3, reocr = true) =>
    pageEvidenceLines(layerPage(2, score, reocr, signals)).filter((l) => l.startsWith('why:'));
  assert.deepEqual(why({ textMissing: 0.81, textError: 0.05 }), ["why: text missing (81% of the page's text is not in the layer)"]);
  assert.deepEqual(why({ textMissing: 0, textError: 1 }), ['why: words wrong (an estimated 100% of the characters there)']);
  assert.deepEqual(why({ textMissing: 0, textError: 0.7, shift: 3 }), [
    'why: words wrong (an estimated 70% of the characters there, its letters shifted 3 places along the alphabet)',
  ]);
  assert.deepEqual(why({ textMissing: 0.2, textError: 0.5 }), [
    "why: words wrong (an estimated 50% of the characters there); text missing (20% of the page's text is not in the layer)",
  ]);
  assert.deepEqual(why({ textMissing: 0.01, textError: 0.02 }, 0.97, false), []);
  assert.equal(layerBadge(layerPage(1, 0.97, false)), 'layer good (0.97)');
  assert.equal(layerBadge(layerPage(1, 0.9, false)), 'layer fair (0.90)');
  // judged by its words alone: its scan gave no evidence (signals.image)
  const blind = layerPage(1, 0.97, false);
  blind.evidence.layerQuality!.signals.image = 'scan image not read: unsupported (JPEG process SOF3 (only baseline and progressive are decoded))';
  assert.equal(layerBadge(blind), 'layer good (0.97) · words only');
  // kept on incomplete evidence (too little text to judge): fair at best, and the badge says why it is no judgement
  const little = layerPage(1, 0.75, false, { incomplete: 'too little text to judge' });
  assert.equal(layerBadge(little), 'layer fair (0.75) · incomplete evidence');
  // advised re-OCR on incomplete evidence (the scan's text missing): the advice is the judgement, no marker
  assert.equal(layerBadge(layerPage(1, 0.2, true, { incomplete: 'too little text to judge' })), 'layer poor (0.20) · re-OCR');
  const text = page(1, 'text', ['text-layer'], { layerQuality: { score: 0.2, reocr: true, signals: {} } });
  assert.equal(layerBadge(text), undefined, 'text pages are not graded');
  assert.equal(pageDescription(text), '1200 chars · 0% image');
  // odd signals (names and types may change) are left out, never shown as NaN or [object Object]
  const odd = pageEvidenceLines(layerPage(1, 0.5, true, { estimatedCer: 'x', inkCovered: Number.NaN, image: 'scan image not read: progressive' }));
  assert.ok(
    odd.every((l) => !/NaN|undefined|object/.test(l)),
    odd.join('\n'),
  );
  assert.ok(odd.some((l) => /scan not read: scan image not read: progressive/.test(l)));
});

test('Problems: one warning per document listing the pages to re-OCR, linked to the first', () => {
  const r = fifteenLayers();
  const warnings = problemsOf(r, ALL, true).filter((p) => p.code === REOCR_CODE);
  assert.deepEqual(warnings, [{ severity: 'warning', message: 'OCR layer poor on pages 4, 9, 11: re-OCR advised', code: 'reocr', page: 4 }]);
  const one = problemsOf(report([layerPage(1, 0.99, false), layerPage(2, 0.4, true)]), ALL, true).filter((p) => p.code === REOCR_CODE);
  assert.deepEqual(one, [{ severity: 'warning', message: 'OCR layer poor on page 2: re-OCR advised', code: 'reocr', page: 2 }]);
  // no poor layer: no warning; layers not trusted: every ocr-layer page is a re-OCR warning already
  assert.equal(problemsOf(report([layerPage(1, 0.99, false)]), ALL, true).filter((p) => p.code === REOCR_CODE).length, 0);
  assert.equal(problemsOf(r, ALL, false).filter((p) => p.code === REOCR_CODE).length, 0);
  // it does not depend on ocr-layer being one of the Problems routes (the info entries of layers can be turned off)
  assert.equal(problemsOf(r, new Set(['ocr'] as const), true).filter((p) => p.code === REOCR_CODE).length, 1);
});

test('the tree: a re-OCR group before the OCR-layer group, its pages with their own ids and parent', () => {
  const uri = 'file:///ws/a.pdf';
  const doc = { uri, report: fifteenLayers() };
  const kids = docChildren(doc, 'route', undefined);
  assert.deepEqual(
    kids.map((k) => k.id),
    [`reocr|${uri}`, `group|${uri}|ocr-layer`, `group|${uri}|text`],
  );
  assert.deepEqual(kids[0], { kind: 'reocr', id: `reocr|${uri}`, uri, count: 3 });
  const pages = reocrChildren(doc);
  assert.deepEqual(
    pages.map((p) => p.page),
    [4, 9, 11],
  );
  assert.ok(pages.every((p) => p.via === 'reocr' && p.route === 'ocr-layer'));
  // unique ids: page 4 is also under the OCR-layer group
  const all: TreeNode[] = [...kids, ...pages, ...docChildren(doc, 'page', undefined)];
  assert.equal(new Set(all.map((n) => n.id)).size, all.length, 'no two nodes share an id');
  assert.notEqual(pages[0].id, `page|${uri}|4`);
  assert.equal(parentOf(pages[0], 'route')?.id, `reocr|${uri}`);
  assert.equal(parentOf(kids[0], 'route')?.id, `doc|${uri}`);
  // filtered out with the OCR-layer route; absent without poor pages; none in page mode (the badge says it there)
  assert.ok(!docChildren(doc, 'route', new Set(['text'] as const)).some((k) => k.kind === 'reocr'));
  assert.ok(!docChildren({ uri, report: report([layerPage(1, 0.99, false)]) }, 'route', undefined).some((k) => k.kind === 'reocr'));
  assert.ok(!docChildren(doc, 'page', undefined).some((k) => k.kind === 'reocr'));
});

test('the overlay carries the score of graded pages only; the protocol keeps it and checks it', () => {
  const r = report([
    layerPage(1, 0.31, true),
    page(2, 'ocr', ['image-only']),
    page(3, 'text', ['text-layer'], { layerQuality: { score: 0.9, reocr: false, signals: {} } }),
  ]);
  const o = overlayOf(r, true);
  assert.deepEqual(o.pages[0].layer, { score: 0.31, reocr: true });
  assert.equal(o.pages[1].layer, undefined);
  assert.equal(o.pages[2].layer, undefined, 'text pages are not graded');
  const [chunk] = chunkPageOverlays(o.pages);
  const back = parseHostMessage(JSON.parse(JSON.stringify({ type: 'pages', report: 1, pages: chunk })));
  assert.ok(back && back.type === 'pages');
  assert.deepEqual(back.pages[0].layer, { score: 0.31, reocr: true });
  const bad = (layer: unknown) => {
    const m = parseHostMessage({ type: 'pages', report: 1, pages: [{ ...chunk[0], layer }] });
    return m && m.type === 'pages' ? m.pages[0].layer : 'dropped';
  };
  assert.equal(bad({ score: 'x', reocr: true }), undefined);
  assert.equal(bad({ score: 0.5 }), undefined);
  assert.equal(bad(7), undefined);
  assert.deepEqual(bad({ score: 7, reocr: false }), { score: 1, reocr: false }, 'clamped to 0..1');
  // the text error estimate (whether the preview grades the words one by one) goes along when the analyzer gives it
  assert.deepEqual(bad({ score: 0.4, reocr: true, textError: 0.6 }), { score: 0.4, reocr: true, textError: 0.6 });
  assert.deepEqual(bad({ score: 0.4, reocr: true, textError: -3 }), { score: 0.4, reocr: true, textError: 0 }, 'clamped');
  assert.deepEqual(bad({ score: 0.4, reocr: true, textError: 'x' }), { score: 0.4, reocr: true }, 'not a number: dropped');
  const withError = report([layerPage(1, 0.31, true)]);
  withError.pages[0].evidence.layerQuality!.signals.textError = 0.42;
  assert.deepEqual(overlayOf(withError, true).pages[0].layer, { score: 0.31, reocr: true, textError: 0.42 });
  // and the missing share (why the layer is poor), clamped to 0..1
  withError.pages[0].evidence.layerQuality!.signals.textMissing = 0.3;
  assert.deepEqual(overlayOf(withError, true).pages[0].layer, { score: 0.31, reocr: true, textError: 0.42, textMissing: 0.3 });
  assert.deepEqual(bad({ score: 0.4, reocr: true, textMissing: 2 }), { score: 0.4, reocr: true, textMissing: 1 });
  assert.deepEqual(bad({ score: 0.4, reocr: true, textMissing: null }), { score: 0.4, reocr: true });
  // and a shifted alphabet's shift, a whole number of places along an alphabet of at most 32 letters, or nothing
  withError.pages[0].evidence.layerQuality!.signals.shift = 3;
  assert.deepEqual(overlayOf(withError, true).pages[0].layer, { score: 0.31, reocr: true, textError: 0.42, textMissing: 0.3, shift: 3 });
  assert.deepEqual(bad({ score: 0.4, reocr: true, shift: 25 }), { score: 0.4, reocr: true, shift: 25 });
  for (const shift of [0, 1.5, 32, '3', -1]) assert.deepEqual(bad({ score: 0.4, reocr: true, shift }), { score: 0.4, reocr: true }, String(shift));
  // why the scan gave no evidence (signals.image) goes along, cut to MAX_SCAN_NOTE characters; a non-string is dropped
  const blind = report([layerPage(1, 0.98, false)]);
  blind.pages[0].evidence.layerQuality!.signals.image =
    'scan image not read: unsupported (JPEG process SOF3 (only baseline and progressive are decoded))';
  assert.equal(
    overlayOf(blind, true).pages[0].layer!.scanNote,
    'scan image not read: unsupported (JPEG process SOF3 (only baseline and progressive are decoded))',
  );
  assert.equal((bad({ score: 0.4, reocr: false, scanNote: 'x'.repeat(500) }) as { scanNote: string }).scanNote.length, MAX_SCAN_NOTE);
  assert.deepEqual(bad({ score: 0.4, reocr: false, scanNote: 7 }), { score: 0.4, reocr: false });
  // why a kept layer rests on incomplete evidence goes along the same way; a page advised re-OCR has none
  const little = report([
    layerPage(1, 0.75, false, { incomplete: 'too little text to judge' }),
    layerPage(2, 0.2, true, { incomplete: 'too little text to judge' }),
  ]);
  assert.equal(overlayOf(little, true).pages[0].layer!.incomplete, 'too little text to judge');
  assert.equal(overlayOf(little, true).pages[1].layer!.incomplete, undefined);
  assert.equal((bad({ score: 0.4, reocr: false, incomplete: 'x'.repeat(500) }) as { incomplete: string }).incomplete.length, MAX_SCAN_NOTE);
  assert.deepEqual(bad({ score: 0.4, reocr: false, incomplete: 7 }), { score: 0.4, reocr: false });
});

test('the layer strings go through the translator (the English text is the key)', () => {
  const seen: string[] = [];
  const old = setTranslator((message, args) => {
    seen.push(message);
    return `«${formatMessage(message, args)}»`;
  });
  try {
    const r = fifteenLayers();
    assert.match(layerSummary(r)!, /^«OCR layer: /);
    assert.ok(problemsOf(r, ALL, true).some((p) => p.code === REOCR_CODE && p.message.startsWith('«OCR layer poor on pages')));
    assert.match(layerBadge(r.pages[3])!, /^«layer «poor» \(0\.35\)» · «re-OCR»$/);
    for (const key of ['OCR layer: {0}', 'OCR layer poor on pages {0}: re-OCR advised', 'layer {0} ({1})', '{0} (re-OCR pages {1})', 'good', 'poor'])
      assert.ok(seen.includes(key), key);
  } finally {
    setTranslator(old);
  }
});

// ---- tree.ts and diagnostics.ts through the fake vscode -----------------------------------------------------------

function storeWith(uri: string, r: DocumentReport): ReportStore {
  const store = new ReportStore();
  store.set({ uri, label: 'docs/layers.pdf', stamp: { size: 1, mtime: 0, sha256: 'x', options: '' }, report: r });
  return store;
}

test('RoutesTree: the re-OCR group and graded pages as VS Code gets them', async () => {
  const uri = 'file:///ws/docs/layers.pdf';
  const store = storeWith(uri, fifteenLayers());
  const settings = readSettings(() => undefined);
  const tree = new RoutesTree(store, () => settings);
  try {
    const [docNode] = tree.getChildren();
    const docItem = tree.getTreeItem(docNode);
    assert.match(String(docItem.description), /re-OCR pages 4, 9, 11$/);
    assert.match(docItem.tooltip as string, /OCR layer: 12 pages good, 3 poor \(re-OCR pages 4, 9, 11\)/);
    assert.equal((docItem.iconPath as InstanceType<typeof vscode.ThemeIcon>).color?.id, 'charts.yellow', 'no page needs OCR, some need it again');
    const groups = tree.getChildren(docNode);
    const re = tree.getTreeItem(groups[0]);
    assert.equal(re.label, 're-OCR advised (3)');
    assert.equal(re.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    assert.equal(re.contextValue, 'pdfReocrGroup');
    assert.match(re.tooltip as string, /3 pages whose OCR layer is poor/);
    const icon = re.iconPath as InstanceType<typeof vscode.ThemeIcon>;
    assert.deepEqual([icon.id, icon.color?.id], ['refresh', 'charts.red']);
    const pages = tree.getChildren(groups[0]);
    const p4 = tree.getTreeItem(pages[0]);
    assert.equal(p4.label, 'Page 4');
    assert.equal(p4.description, 'layer poor (0.35) · re-OCR · 0 chars · 98% image');
    assert.match(p4.tooltip as string, /OCR layer: poor \(score 0\.35\): re-OCR advised/);
    assert.equal((p4.iconPath as InstanceType<typeof vscode.ThemeIcon>).color?.id, 'charts.red');
    assert.deepEqual(p4.command?.arguments, [pages[0]], 'a click opens the preview at the page');
    assert.equal(tree.getParent(pages[0])?.id, groups[0].id);
    // a good page under the OCR-layer group: its icon in the good colour
    const good = tree.getChildren(groups[1])[0];
    assert.equal((tree.getTreeItem(good).iconPath as InstanceType<typeof vscode.ThemeIcon>).color?.id, 'charts.green');
  } finally {
    tree.dispose();
    store.dispose();
  }
});

test('ProblemsPublisher: the re-OCR warning with the code link to its first page', () => {
  const uri = 'file:///ws/docs/layers.pdf';
  const store = storeWith(uri, fifteenLayers());
  const settings = readSettings(() => undefined);
  const pub = new ProblemsPublisher(store, () => settings);
  try {
    pub.update([uri]);
    const coll = vscode.languages.collections.at(-1)!;
    const diags = coll.entries.get(uri)!;
    const re = diags.filter((d) => typeof d.code === 'object' && d.code.value === 'reocr');
    assert.equal(re.length, 1);
    assert.equal(re[0].message, 'OCR layer poor on pages 4, 9, 11: re-OCR advised');
    assert.equal(re[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(re[0].source, 'PDF Page Diagnostics');
    const target = (re[0].code as { target: import('./fake-vscode').Uri }).target;
    assert.equal(target.scheme, 'command');
    assert.equal(target.path, 'pdfPageDiagnostics.showPagePreview');
    assert.deepEqual(JSON.parse(decodeURIComponent(target.query)), [uri, 4]);
    assert.equal(pageOfDiagnostic(re[0] as never), 4);
    // the quick fix where the PDF is open as text: "Show Page 4 in the Preview"
    const actions = new PdfCodeActions().provideCodeActions({ uri } as never, {} as never, { diagnostics: re } as never);
    assert.deepEqual(
      actions.map((a) => [a.title, a.command?.arguments]),
      [['Show Page 4 in the Preview', [uri, 4]]],
    );
  } finally {
    pub.dispose();
    store.dispose();
  }
});

// ---- the generated fixture, analysed with the extension's default settings -------------------------------------------

test('the e2e fixture: pages 2 and 4 poor, 1 and 3 good, the text page not graded', () => {
  const bytes = new Uint8Array(readFileSync(new URL('./fixtures/e2e/layer-quality.pdf', import.meta.url)));
  const settings = readSettings(() => undefined);
  const r = analyzePdfSync(bytes, settings.options);
  assert.deepEqual(
    r.pages.map((p) => p.route),
    ['ocr-layer', 'ocr-layer', 'ocr-layer', 'ocr-layer', 'text'],
  );
  assert.deepEqual(reocrPages(r), [2, 4]);
  // page 2's words are wrong, page 4 lacks words: the preview grades page 2's words one by one, not page 4's
  const te = r.pages.map((p) => p.evidence.layerQuality?.signals.textError);
  assert.ok(typeof te[1] === 'number' && wordsGraded({ textError: te[1] }), `page 2 text error ${te[1]}`);
  assert.ok(typeof te[3] === 'number' && !wordsGraded({ textError: te[3] }), `page 4 text error ${te[3]}`);
  assert.equal(layerSummary(r), 'OCR layer: 2 pages good, 2 poor (re-OCR pages 2, 4)');
  assert.deepEqual(
    problemsOf(r, settings.problemRoutes, settings.trustOcrLayer).filter((p) => p.code === REOCR_CODE),
    [{ severity: 'warning', message: 'OCR layer poor on pages 2, 4: re-OCR advised', code: 'reocr', page: 2 }],
  );
  const off = analyzePdfSync(bytes, readSettings((k) => (k === 'layerQuality' ? false : undefined)).options);
  assert.equal(layerSummary(off), undefined, 'the setting off: no scores, nothing shown');
});
