import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chunkPageOverlays,
  evidenceMessages,
  fontRowsOf,
  MAX_BOXES_PER_PAGE,
  MAX_FONTS_PER_PAGE,
  MAX_RUN_TEXT,
  MAX_MISSING_PER_PAGE,
  MAX_RUNS_PER_PAGE,
  pageTextLayerOf,
  PREVIEW_MAX_RUNS_PER_MESSAGE,
  PREVIEW_MAX_TEXT_PAGES_PER_REQUEST,
  textLayerMessages,
  NO_ROUTE,
  overlayHeadOf,
  type PageOverlay,
  pageSizeOf,
  parseHostMessage,
  parseWebviewMessage,
  parseWebviewState,
  PREVIEW_MAX_BOXES_PER_MESSAGE,
  PREVIEW_MAX_PAGES_PER_MESSAGE,
  PREVIEW_MAX_PAGES_PER_REQUEST,
  routeOf,
  unpackSizes,
} from '../src/shared/protocol';
import { overlayOf } from '../src/extension/model';
import type { FontEvidence, GlyphRun, TextLayer } from '../src/analyzer/types';
import { fortyPages } from './extension-helpers';

test('valid webview messages pass', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseWebviewMessage({ type: 'classify', extra: 1 }), { type: 'classify' });
  assert.deepEqual(parseWebviewMessage({ type: 'pageChanged', page: 40 }, 40), { type: 'pageChanged', page: 40 });
  assert.deepEqual(parseWebviewMessage({ type: 'renderError', page: 2, message: 'x' }), { type: 'renderError', page: 2, message: 'x' });
});

test('malformed webview messages are ignored', () => {
  const bad: unknown[] = [
    null,
    undefined,
    42,
    'ready',
    [],
    ['ready'],
    {},
    { type: 'nope' },
    { type: 'pageChanged' },
    { type: 'pageChanged', page: 0 },
    { type: 'pageChanged', page: -1 },
    { type: 'pageChanged', page: 1.5 },
    { type: 'pageChanged', page: '3' },
    { type: 'pageChanged', page: Number.NaN },
    { type: 'pageChanged', page: Infinity },
    { type: 'pageChanged', page: 41 }, // beyond the document (pageCount 40 below)
    { type: 'renderError', page: 1 },
    { type: 'renderError', page: 1, message: { toString: () => 'x' } },
    { type: { toString: () => 'ready' } },
    JSON.parse('{"__proto__": {"type": "ready"}}'),
  ];
  for (const m of bad) assert.equal(parseWebviewMessage(m, 40), undefined, JSON.stringify(m) ?? String(m));
});

test('long strings from the webview are clipped', () => {
  const m = parseWebviewMessage({ type: 'renderError', page: 1, message: 'x'.repeat(100_000) });
  assert.equal(m?.type === 'renderError' && m.message.length, 2000);
});

test('host messages round-trip through the webview-side validator', () => {
  const report = overlayHeadOf(overlayOf(fortyPages(), true), 7);
  const load = {
    type: 'load',
    fileName: 'a.pdf',
    uri: 'file:///a.pdf',
    bytes: new Uint8Array([37, 80, 68, 70]),
    assets: { workerSrc: 'w', cMapUrl: 'c/', standardFontDataUrl: 's/', wasmUrl: 'x/' },
    report,
    page: 39,
  };
  const parsed = parseHostMessage(load);
  assert.ok(parsed && parsed.type === 'load');
  assert.deepEqual(parsed.report, report);
  assert.equal(parsed.page, 39);
  // A head whose sizes do not match its page count is dropped; the PDF still loads.
  const short = parseHostMessage({ ...load, report: { ...report, sizes: report.sizes.subarray(8) } });
  assert.ok(short && short.type === 'load' && short.report === undefined);
  assert.deepEqual(parseHostMessage({ type: 'scrollToPage', page: 3 }), { type: 'scrollToPage', page: 3 });
  assert.equal(parseHostMessage({ type: 'scrollToPage', page: 'x' }), undefined);
  assert.equal(parseHostMessage({ ...load, bytes: [1, 2] }), undefined);
  assert.deepEqual(parseHostMessage({ type: 'report', classifying: true }), { type: 'report', classifying: true });
});

test('overlay pages with bad rects or routes are dropped, not trusted', () => {
  const m = parseHostMessage({
    type: 'pages',
    report: 3,
    pages: [
      {
        page: 1,
        route: 'ocr',
        reasons: [],
        cropBox: [0, 0, 1, 1],
        mediaBox: [0, 0, 1, 1],
        imageBoxes: [
          { rect: [0, 0, 'x', 1], share: 1 },
          { rect: [0, 0, 1, 1], share: 0.5, kind: '<b>' },
        ],
      },
      { page: 2, route: 'evil', cropBox: [0, 0, 1, 1], mediaBox: [0, 0, 1, 1] },
    ],
  });
  assert.ok(m && m.type === 'pages');
  assert.equal(m.pages.length, 1);
  assert.deepEqual(m.pages[0].imageBoxes, [{ rect: [0, 0, 1, 1], share: 0.5, kind: 'xobject' }]);
  assert.equal(parseHostMessage({ type: 'pages', report: -1, pages: [] }), undefined);
  assert.equal(parseHostMessage({ type: 'pages', report: 1.5, pages: [] }), undefined);
  const r = parseHostMessage({
    type: 'report',
    report: { id: 1, pageCount: 0, verdict: 'v', findings: ['a', 3], sizes: new Uint8Array(0), routes: new Uint8Array(0) },
  });
  assert.ok(r && r.type === 'report' && r.report);
  assert.deepEqual(r.report.findings, ['a']);
  // A head whose arrays do not match its page count is refused (it would lay out wrong pages).
  assert.equal(
    parseHostMessage({
      type: 'report',
      report: { id: 1, pageCount: 2, verdict: 'v', findings: [], sizes: new Uint8Array(8), routes: new Uint8Array(2) },
    }),
    undefined,
  );
  assert.equal(
    parseHostMessage({ type: 'report', report: { id: 1, pageCount: 2, verdict: 'v', findings: [], sizes: [0, 0], routes: new Uint8Array(2) } }),
    undefined,
  );
  assert.equal(
    parseHostMessage({
      type: 'report',
      report: { id: 1, pageCount: 2_000_000, verdict: 'v', findings: [], sizes: new Uint8Array(0), routes: new Uint8Array(0) },
    }),
    undefined,
  );
});

function overlay(n: number, boxes: number, extra: Partial<PageOverlay> = {}): PageOverlay {
  return {
    page: n,
    route: 'ocr',
    reasons: [],
    visibleChars: 0,
    invisibleChars: 0,
    imageCoverage: 1,
    imageCount: boxes,
    vectorOps: 0,
    fonts: 0,
    imageBoxes: Array.from({ length: boxes }, (_, i) => ({ rect: [i, 0, i + 1, 1], share: 0.001, kind: 'xobject' as const })),
    cropBox: [0, 0, 612, 792],
    mediaBox: [0, 0, 612, 792],
    rotate: 0,
    ...extra,
  };
}

test('the head: 9 bytes a page, sizes after crop and rotation, routes by index', () => {
  const pages = [
    overlay(1, 0),
    overlay(2, 0, { route: 'text', cropBox: [10, 20, 310, 420], rotate: 90 }),
    overlay(4, 0, { route: 'blank', mediaBox: [0, 0, 0, 0] }),
  ];
  const head = overlayHeadOf({ pageCount: 5, verdict: 'v', findings: [], pages }, 9);
  assert.equal(head.sizes.byteLength, 40);
  assert.equal(head.routes.byteLength, 5);
  assert.deepEqual([...unpackSizes(head.sizes)], [612, 792, 400, 300, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((n) => routeOf(head, n)),
    ['ocr', 'text', undefined, 'blank', undefined],
  );
  assert.equal(head.routes[2], NO_ROUTE);
  assert.deepEqual(pageSizeOf({ cropBox: [612, 792, 0, 0], mediaBox: [0, 0, 612, 792], rotate: 270 }), { w: 792, h: 612 });
  assert.equal(pageSizeOf({ cropBox: [700, 0, 800, 10], mediaBox: [0, 0, 612, 792], rotate: 0 }), null);
});

test('the head of a long report stays compact (typed arrays, no object per page)', () => {
  const proto = overlay(1, 0);
  const pages = Array.from({ length: 100_000 }, (_, i) => ({ ...proto, page: i + 1 }));
  const head = overlayHeadOf({ pageCount: pages.length, verdict: 'v', findings: [], pages }, 1);
  assert.equal(head.sizes.byteLength + head.routes.byteLength, 900_000);
  const parsed = parseHostMessage({ type: 'report', report: head });
  assert.ok(parsed && parsed.type === 'report' && parsed.report?.pageCount === 100_000);
  // The largest head the protocol accepts: MAX_PAGE pages, 9 MB.
  const max = { id: 1, pageCount: 1_000_000, verdict: '', findings: [], sizes: new Uint8Array(8_000_000), routes: new Uint8Array(1_000_000) };
  assert.ok(parseHostMessage({ type: 'report', report: max }));
});

test('evidence messages are capped: pages and boxes per message, whole pages, nothing lost', () => {
  assert.ok(PREVIEW_MAX_BOXES_PER_MESSAGE >= MAX_BOXES_PER_PAGE, 'one full page must fit one message');
  const pages = [
    ...Array.from({ length: 100 }, (_, i) => overlay(i + 1, 1)),
    overlay(101, 500),
    overlay(102, 500),
    overlay(103, 500),
    overlay(104, 500),
    overlay(105, 500),
    overlay(106, 900), // more than the analyzer ever keeps: clipped to MAX_BOXES_PER_PAGE
  ];
  const chunks = chunkPageOverlays(pages);
  for (const c of chunks) {
    assert.ok(c.length >= 1 && c.length <= PREVIEW_MAX_PAGES_PER_MESSAGE, `pages in a message: ${c.length}`);
    const boxes = c.reduce((a, p) => a + p.imageBoxes.length, 0);
    assert.ok(boxes <= PREVIEW_MAX_BOXES_PER_MESSAGE, `boxes in a message: ${boxes}`);
    // What the host sends, the webview's validator keeps whole.
    const m = parseHostMessage(JSON.parse(JSON.stringify({ type: 'pages', report: 1, pages: c })));
    assert.ok(m && m.type === 'pages');
    assert.equal(m.pages.length, c.length);
  }
  assert.deepEqual(
    chunks.flat().map((p) => p.page),
    pages.map((p) => p.page),
  );
  assert.equal(chunks.flat().at(-1)!.imageBoxes.length, MAX_BOXES_PER_PAGE);
  // 3×32 one-box pages; pages 97–103 (4 + 3×500 boxes); 104 would make 2,004 boxes, so 104–106 start a new message.
  assert.deepEqual(
    chunks.map((c) => c.length),
    [32, 32, 32, 7, 3],
  );
});

test("the host's answer to needPages: the pages asked for, in capped messages, in order or not", () => {
  const ordered = Array.from({ length: 300 }, (_, i) => overlay(i + 1, i % 3 === 0 ? 500 : 0));
  const msgs = evidenceMessages(ordered, 9, 10, 137);
  assert.ok(msgs.every((m) => m.type === 'pages' && m.report === 9));
  assert.deepEqual(
    msgs.flatMap((m) => m.pages.map((p) => p.page)),
    Array.from({ length: 128 }, (_, i) => i + 10),
  );
  for (const m of msgs) assert.ok(m.pages.reduce((a, p) => a + p.imageBoxes.length, 0) <= PREVIEW_MAX_BOXES_PER_MESSAGE);
  // A report without some pages and out of order (pdf.js may count pages the analyzer never reached).
  const shuffled = [overlay(5, 0), overlay(2, 0), overlay(9, 0), overlay(1, 0)];
  let built = 0;
  let map: Map<number, number> | undefined;
  const index = () => (map ??= (built++, new Map(shuffled.map((p, i) => [p.page, i]))));
  assert.deepEqual(
    evidenceMessages(shuffled, 1, 1, 12, index).flatMap((m) => m.pages.map((p) => p.page)),
    [1, 2, 5, 9],
  );
  assert.equal(built, 1, 'the index is built once');
  assert.deepEqual(evidenceMessages(shuffled, 1, 20, 30, index), []);
});

test('an oversized evidence message is cut to the caps by the webview', () => {
  const many = parseHostMessage({ type: 'pages', report: 1, pages: Array.from({ length: 100 }, (_, i) => overlay(i + 1, 0)) });
  assert.ok(many && many.type === 'pages');
  assert.equal(many.pages.length, PREVIEW_MAX_PAGES_PER_MESSAGE);
  const heavy = parseHostMessage({ type: 'pages', report: 1, pages: Array.from({ length: 10 }, (_, i) => overlay(i + 1, 500)) });
  assert.ok(heavy && heavy.type === 'pages');
  assert.equal(heavy.pages.length, PREVIEW_MAX_BOXES_PER_MESSAGE / 500);
});

test('needPages requests are validated and clipped to the request cap', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'needPages', report: 4, from: 3, to: 9 }, 40), { type: 'needPages', report: 4, from: 3, to: 9 });
  assert.deepEqual(parseWebviewMessage({ type: 'needPages', report: 4, from: 1, to: 1_000_000 }), {
    type: 'needPages',
    report: 4,
    from: 1,
    to: PREVIEW_MAX_PAGES_PER_REQUEST,
  });
  for (const bad of [
    { type: 'needPages', report: 4, from: 9, to: 3 },
    { type: 'needPages', report: 4, from: 0, to: 3 },
    { type: 'needPages', report: 4, from: 1, to: 41 },
    { type: 'needPages', report: '4', from: 1, to: 2 },
    { type: 'needPages', from: 1, to: 2 },
  ])
    assert.equal(parseWebviewMessage(bad, 40), undefined, JSON.stringify(bad));
});

test('persisted webview state is validated', () => {
  assert.deepEqual(parseWebviewState(undefined), { page: 1, showBoxes: true, showText: false, showFonts: false, zoom: 0 });
  assert.deepEqual(parseWebviewState({ page: 7, showBoxes: false, showText: true, showFonts: true, zoom: 1.5, uri: 'file:///a.pdf' }), {
    page: 7,
    showBoxes: false,
    showText: true,
    showFonts: true,
    zoom: 1.5,
    uri: 'file:///a.pdf',
  });
  assert.deepEqual(parseWebviewState({ page: -7, showBoxes: 'no', showText: 1, showFonts: 'yes', zoom: 13 }), {
    page: 1,
    showBoxes: true,
    showText: false,
    showFonts: false,
    zoom: 0,
  });
});

test('remember the place: pageChanged carries a valid zoom; load carries a valid place; anything else is dropped', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'pageChanged', page: 4, zoom: 1.5 }, 40), { type: 'pageChanged', page: 4, zoom: 1.5 });
  assert.deepEqual(parseWebviewMessage({ type: 'pageChanged', page: 4, zoom: 1.7 }, 40), { type: 'pageChanged', page: 4 }, 'not a zoom level');
  assert.deepEqual(parseWebviewMessage({ type: 'pageChanged', page: 4, zoom: '2' }, 40), { type: 'pageChanged', page: 4 });
  const base = {
    type: 'load',
    fileName: 'a.pdf',
    uri: 'file:///a.pdf',
    bytes: new Uint8Array(1),
    assets: { workerSrc: 'w', cMapUrl: 'c', standardFontDataUrl: 's', wasmUrl: 'x' },
  };
  const ok = parseHostMessage({ ...base, place: { page: 9, zoom: 2 } });
  assert.ok(ok?.type === 'load');
  assert.deepEqual(ok.place, { page: 9, zoom: 2 });
  for (const place of [{ page: 0, zoom: 2 }, { page: 9, zoom: 9 }, { page: 9 }, 'page=9', null]) {
    const m = parseHostMessage({ ...base, place });
    assert.ok(m?.type === 'load' && m.place === undefined, JSON.stringify(place));
  }
});

test('toggleBoxes from the host (a keybinding) parses; it carries nothing', () => {
  assert.deepEqual(parseHostMessage({ type: 'toggleBoxes', extra: 1 }), { type: 'toggleBoxes' });
});

test('toggleTextLayer and toggleFonts from the host parse; they carry nothing', () => {
  assert.deepEqual(parseHostMessage({ type: 'toggleTextLayer', page: 3 }), { type: 'toggleTextLayer' });
  assert.deepEqual(parseHostMessage({ type: 'toggleFonts', x: 1 }), { type: 'toggleFonts' });
});

const font = (name: string, chars: number, extra: Partial<FontEvidence> = {}): FontEvidence => ({
  name,
  baseFont: `Base${name}`,
  subtype: 'Type1',
  decoding: 'encoding',
  chars,
  ...extra,
});

test('the fonts table: the most used fonts first, at most MAX_FONTS_PER_PAGE, names clipped; the overlay carries it', () => {
  const fonts = Array.from({ length: MAX_FONTS_PER_PAGE + 10 }, (_, i) => font(`F${i}`, i));
  fonts[3] = font('F3', 10_000, {
    baseFont: 'X'.repeat(5000),
    embedded: true,
    toUnicode: 'broken',
    glyphs: 12_000,
    invisibleChars: 7,
    glyphless: true,
  });
  const rows = fontRowsOf(fonts);
  assert.equal(rows.length, MAX_FONTS_PER_PAGE);
  assert.equal(rows[0].name, 'F3');
  assert.equal(rows[0].baseFont.length, 128);
  assert.deepEqual(
    [rows[0].embedded, rows[0].toUnicode, rows[0].glyphs, rows[0].invisibleChars, rows[0].glyphless],
    [true, 'broken', 12_000, 7, true],
  );
  assert.ok(rows.every((r, i) => i === 0 || r.chars <= rows[i - 1].chars));
  // an old report without the new columns: they stay absent, not zero
  assert.deepEqual(fontRowsOf([font('F1', 5)]), [{ name: 'F1', baseFont: 'BaseF1', subtype: 'Type1', decoding: 'encoding', chars: 5 }]);
  const report = fortyPages();
  report.pages[0].evidence.fonts = [font('F1', 5, { glyphless: true })];
  const o = overlayOf(report, false).pages[0];
  assert.equal(o.fontRows?.[0].glyphless, true);
  // through the webview's validator: kept, with the counts and flags checked
  const head = parseHostMessage({
    type: 'pages',
    report: 1,
    pages: [{ ...o, fontRows: [{ ...o.fontRows[0], chars: -3, toUnicode: 'maybe', glyphless: 'yes' }, 'junk'] }],
  });
  assert.ok(head?.type === 'pages');
  assert.deepEqual(head.pages[0].fontRows, [{ name: 'F1', baseFont: 'BaseF1', subtype: 'Type1', decoding: 'encoding', chars: 0 }]);
});

const run = (i: number, extra: Partial<GlyphRun> = {}): GlyphRun => ({
  text: `w${i}`,
  rect: [i, 0, i + 5, 10],
  visibility: 'invisible',
  font: 'f-0-0',
  size: 12,
  hScale: 1,
  chars: 2,
  ...extra,
});

test("a page's text layer for the webview: the first MAX_RUNS_PER_PAGE runs, strings clipped, the cut said", () => {
  const layer: TextLayer = { runs: Array.from({ length: MAX_RUNS_PER_PAGE + 5 }, (_, i) => run(i)), runCount: MAX_RUNS_PER_PAGE + 5, text: '' };
  layer.runs[0] = run(0, { text: 'y'.repeat(MAX_RUN_TEXT + 50), visibility: 'hidden' });
  const p = pageTextLayerOf(4, layer);
  assert.equal(p.page, 4);
  assert.equal(p.runs.length, MAX_RUNS_PER_PAGE);
  assert.equal(p.runCount, MAX_RUNS_PER_PAGE + 5);
  assert.equal(p.cut, 'runs');
  assert.equal(p.runs[0].text.length, MAX_RUN_TEXT);
  assert.deepEqual(Object.keys(p.runs[1]).sort(), ['font', 'rect', 'size', 'text', 'visibility']);
  const small = pageTextLayerOf(1, { runs: [run(1)], runCount: 1, text: 'w1', cut: 'tounicode' });
  assert.equal(small.cut, 'tounicode');
  assert.equal(small.missing, undefined, 'no regions of missing text: none sent');
});

test("a page's text layer carries where the scan has text the layer lacks, at most MAX_MISSING_PER_PAGE regions, and the validator keeps only rectangles", () => {
  const regions = Array.from({ length: MAX_MISSING_PER_PAGE + 3 }, (_, k) => [10 * k, 0, 10 * k + 5, 8] as [number, number, number, number]);
  const p = pageTextLayerOf(2, { runs: [run(1)], runCount: 1, text: 'w1', missingText: regions });
  assert.deepEqual(p.missing, regions.slice(0, MAX_MISSING_PER_PAGE));
  const m = parseHostMessage({
    type: 'textLayer',
    report: 1,
    pages: [{ page: 2, runs: [], runCount: 0, missing: [[0, 0, 1], 'x', [1, 2, 3, 4], [0, 0, Infinity, 1], ...regions] }],
  });
  assert.ok(m?.type === 'textLayer');
  assert.deepEqual(
    m.pages[0].missing,
    [[1, 2, 3, 4], ...regions.slice(0, MAX_MISSING_PER_PAGE - 4)],
    'the first MAX_MISSING_PER_PAGE entries, bad ones dropped',
  );
  const none = parseHostMessage({ type: 'textLayer', report: 1, pages: [{ page: 2, runs: [], runCount: 0, missing: 'all' }] });
  assert.ok(none?.type === 'textLayer');
  assert.equal(none.pages[0].missing, undefined);
});

test('text-layer messages respect the run and page caps, keep pages whole and in order, and lose none', () => {
  const pages = Array.from({ length: 40 }, (_, i) => ({
    page: i + 1,
    runCount: i % 3 === 0 ? MAX_RUNS_PER_PAGE : 10,
    runs: Array.from({ length: i % 3 === 0 ? MAX_RUNS_PER_PAGE : 10 }, (_, k) => ({
      text: 'a',
      rect: [k, 0, k + 1, 1] as [number, number, number, number],
      visibility: 'visible' as const,
      font: 'F1',
      size: 10,
    })),
  }));
  const msgs = textLayerMessages(pages, 9);
  assert.ok(msgs.length > 1);
  for (const m of msgs) {
    assert.equal(m.report, 9);
    assert.ok(m.pages.length <= PREVIEW_MAX_TEXT_PAGES_PER_REQUEST);
    assert.ok(m.pages.reduce((a, p) => a + p.runs.length, 0) <= PREVIEW_MAX_RUNS_PER_MESSAGE);
    // each message passes the webview's validator unchanged
    assert.deepEqual(parseHostMessage(JSON.parse(JSON.stringify(m))), m);
  }
  assert.deepEqual(
    msgs.flatMap((m) => m.pages.map((p) => p.page)),
    pages.map((p) => p.page),
  );
});

test('the webview validator cuts an oversized text-layer message and drops bad runs', () => {
  const runs = Array.from({ length: MAX_RUNS_PER_PAGE + 100 }, (_, k) => ({
    text: 't',
    rect: [k, 0, k + 1, 1],
    visibility: 'invisible',
    font: 'F',
    size: 1,
  }));
  const bad = [
    { text: 'x', rect: [0, 0, 1], visibility: 'invisible' },
    { text: 'x', rect: [0, 0, 1, 1], visibility: 'sideways' },
    { text: 5, rect: [0, 0, 1, 1], visibility: 'visible' },
  ];
  const m = parseHostMessage({
    type: 'textLayer',
    report: 2,
    pages: [
      { page: 1, runs: [...bad, ...runs], runCount: 3 },
      { page: 2, runs, runCount: 1 },
      { page: 3, runs, runCount: 1 },
    ],
  });
  assert.ok(m?.type === 'textLayer');
  assert.equal(m.pages[0].runs.length, MAX_RUNS_PER_PAGE);
  assert.equal(m.pages[0].runCount, MAX_RUNS_PER_PAGE, 'runCount is at least the runs kept');
  assert.equal(m.pages.length, 2, 'the third page would pass the per-message cap');
  assert.equal(parseHostMessage({ type: 'textLayer', report: -1, pages: [] }), undefined);
  assert.deepEqual(parseHostMessage({ type: 'textLayerStatus', report: 2, status: 'unavailable', message: 'why' }), {
    type: 'textLayerStatus',
    report: 2,
    status: 'unavailable',
    message: 'why',
  });
  assert.equal(parseHostMessage({ type: 'textLayerStatus', report: 2, status: 'done' }), undefined);
});

test('needTextLayer requests are validated and clipped to their own cap', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'needTextLayer', report: 3, from: 2, to: 500 }, 1000), {
    type: 'needTextLayer',
    report: 3,
    from: 2,
    to: 2 + PREVIEW_MAX_TEXT_PAGES_PER_REQUEST - 1,
  });
  for (const bad of [
    { type: 'needTextLayer', report: 3, from: 5, to: 4 },
    { type: 'needTextLayer', report: 3, from: 0, to: 4 },
    { type: 'needTextLayer', report: 'x', from: 1, to: 4 },
    { type: 'needTextLayer', report: 3, from: 1, to: 41 },
  ])
    assert.equal(parseWebviewMessage(bad, 40), undefined, JSON.stringify(bad));
});
