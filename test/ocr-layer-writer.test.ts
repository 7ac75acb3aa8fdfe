// The layer writer both stand-in splits write their layers with (scripts/ocr-layer-writer.ts): the text a reader
// gets from such a layer, which their labels are measured on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layerText, type Line } from '../scripts/ocr-layer-writer';

const line = (texts: string[], top = 0): Line => ({
  top,
  bottom: top + 9,
  base: top + 7,
  size: 9,
  words: texts.map((text, k) => ({ text, x1: 10 + 40 * k, x2: 40 + 40 * k })),
});

test('layerText: the words in content order, what the encoding cannot carry as ?', () => {
  assert.equal(layerText([line(['w0x0', 'w0x1', 'w0x2']), line(['w1x0', 'w1x1', 'w1x2'], 10)], false), 'w0x0 w0x1 w0x2 w1x0 w1x1 w1x2');
  assert.equal(layerText([line(['x⇒ё'])], false), 'x??');
  assert.equal(layerText([line(['x⇒ё'])], true), 'x?ё');
});
