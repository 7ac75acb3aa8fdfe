// The shape anchors (src/analyzer/shapes.ts): made once, on the first analysis, from a tiny document that really goes
// through the xref, both font kinds, a ToUnicode CMap and the content interpreter — so their classes' maps are held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzePdfSync } from '../src/analyzer/analyze';
import { anchored } from '../src/analyzer/shapes';

test('the first analysis anchors a tiny document read without a fault, through both font kinds', () => {
  analyzePdfSync(new Uint8Array(0));
  const a = anchored();
  // the document, its context, scans and scanners, a lexer, a parser, a CMap lexer, the flagged options, an XMP reader
  assert.equal(a.held, 9);
  assert.ok(a.summary);
  assert.equal(a.summary.pages, 1);
  assert.deepEqual(a.summary.faults, []);
  // (shape) in Helvetica and two CIDs mapped by the ToUnicode CMap
  assert.equal(a.summary.visibleChars, 7);
  assert.deepEqual(a.summary.fonts.sort(), ['Helvetica:encoding', 'Shape:tounicode']);
  // a second analysis makes no new anchors
  analyzePdfSync(new Uint8Array(0));
  assert.equal(anchored().held, 9);
});

test('the text layer and the score anchor their own shapes only when an analysis asks for them', () => {
  analyzePdfSync(new Uint8Array(0));
  assert.equal(anchored().layerHeld, 0, 'an analysis without them anchors nothing of theirs (and loads no language model)');
  analyzePdfSync(new Uint8Array(0), { textLayer: true });
  assert.equal(anchored().layerHeld, 7, 'the document, its context, scans and scanners, a builder and its layer, a ToUnicode reader and its text');
  assert.equal(anchored().turnedRuns, 1, 'the layer holds a turned run: its map is kept too');
  analyzePdfSync(new Uint8Array(0), { layerQuality: true });
  assert.equal(anchored().layerHeld, 8, "the score adds the scores of the page read for the text layer's anchors");
  analyzePdfSync(new Uint8Array(0), { layerQuality: true, textLayer: true });
  assert.equal(anchored().layerHeld, 8, 'made once');
});

test('the tiny document is also analysed whole, once per kind of options, and its report held', () => {
  for (const o of [{}, { textLayer: true }, { layerQuality: true }, { textLayer: true, layerQuality: true }, { layerQuality: true, maxPages: 3 }])
    analyzePdfSync(new Uint8Array(0), o);
  // four kinds (the text layer and the score, each on or off; other options make no kind of their own), each a
  // report of the tiny document read whole: one page, no error
  assert.equal(anchored().reports, 4);
});
