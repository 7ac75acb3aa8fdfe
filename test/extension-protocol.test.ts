import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHostMessage, parseWebviewMessage, parseWebviewState } from '../src/shared/protocol';
import { overlayOf } from '../src/extension/model';
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
  const report = overlayOf(fortyPages(), true);
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
  assert.deepEqual(parsed.report, JSON.parse(JSON.stringify(report)));
  assert.equal(parsed.page, 39);
  assert.deepEqual(parseHostMessage({ type: 'scrollToPage', page: 3 }), { type: 'scrollToPage', page: 3 });
  assert.equal(parseHostMessage({ type: 'scrollToPage', page: 'x' }), undefined);
  assert.equal(parseHostMessage({ ...load, bytes: [1, 2] }), undefined);
  assert.deepEqual(parseHostMessage({ type: 'report', classifying: true }), { type: 'report', classifying: true });
});

test('overlay pages with bad rects or routes are dropped, not trusted', () => {
  const m = parseHostMessage({
    type: 'report',
    report: {
      pageCount: 2,
      verdict: 'v',
      findings: ['a', 3],
      pages: [
        { page: 1, route: 'ocr', reasons: [], cropBox: [0, 0, 1, 1], mediaBox: [0, 0, 1, 1], imageBoxes: [{ rect: [0, 0, 'x', 1], share: 1 }, { rect: [0, 0, 1, 1], share: 0.5, kind: '<b>' }] },
        { page: 2, route: 'evil', cropBox: [0, 0, 1, 1], mediaBox: [0, 0, 1, 1] },
      ],
    },
  });
  assert.ok(m && m.type === 'report' && m.report);
  assert.equal(m.report.pages.length, 1);
  assert.deepEqual(m.report.findings, ['a']);
  assert.deepEqual(m.report.pages[0].imageBoxes, [{ rect: [0, 0, 1, 1], share: 0.5, kind: 'xobject' }]);
});

test('persisted webview state is validated', () => {
  assert.deepEqual(parseWebviewState(undefined), { page: 1, showBoxes: true, zoom: 0 });
  assert.deepEqual(parseWebviewState({ page: 7, showBoxes: false, zoom: 1.5, uri: 'file:///a.pdf' }), { page: 7, showBoxes: false, zoom: 1.5, uri: 'file:///a.pdf' });
  assert.deepEqual(parseWebviewState({ page: -7, showBoxes: 'no', zoom: 13 }), { page: 1, showBoxes: true, zoom: 0 });
});
