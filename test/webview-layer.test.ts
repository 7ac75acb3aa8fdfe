import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GOOD_LAYER_SCORE, layerGrade } from '../src/shared/routes';
import { layerBadgeText, layerMeaning, runQuality } from '../webview/layerColors';

test('the runs of an OCR layer take their page grade; visible text and other routes do not', () => {
  const poor = { score: 0.31, reocr: true };
  for (const v of ['invisible', 'clipped', 'hidden'] as const)
    assert.deepEqual(runQuality('ocr-layer', poor, v), { grade: 'poor', score: 0.31, reocr: true });
  assert.equal(runQuality('ocr-layer', poor, 'visible'), undefined, "a page's visible text is not its OCR layer");
  assert.equal(runQuality('text', { score: 0.2, reocr: true }, 'invisible'), undefined, 'text pages are not graded');
  assert.equal(runQuality('ocr-layer', undefined, 'invisible'), undefined, 'no score: no colour');
  assert.equal(runQuality(undefined, poor, 'invisible'), undefined);
  assert.equal(runQuality('ocr-layer', { score: 0.97, reocr: false }, 'invisible')?.grade, 'good');
  assert.equal(runQuality('ocr-layer', { score: 0.8, reocr: false }, 'hidden')?.grade, 'fair');
});

test('the badge and its meaning say the grade, the score and the advice', () => {
  assert.equal(layerBadgeText({ score: 0.31, reocr: true }), 'layer poor 0.31 · re-OCR');
  assert.equal(layerBadgeText({ score: 0.984, reocr: false }), 'layer good 0.98');
  assert.equal(layerBadgeText({ score: 0.75, reocr: false }), 'layer fair 0.75');
  assert.match(layerMeaning({ score: 0.31, reocr: true }), /poor .*0\.31.*re-OCR advised/);
  assert.match(layerMeaning({ score: 0.9, reocr: false }), /fair/);
  assert.match(layerMeaning({ score: 1, reocr: false }), /good .*keep/);
});

test('grades: poor is the analyzer advice, good from 0.95 on, fair in between', () => {
  assert.equal(GOOD_LAYER_SCORE, 0.95);
  assert.equal(layerGrade({ score: 0.95, reocr: false }), 'good');
  assert.equal(layerGrade({ score: 0.949, reocr: false }), 'fair');
  // a layer cut by a limit is capped at 0.75 without the advice: fair, never good
  assert.equal(layerGrade({ score: 0.75, reocr: false }), 'fair');
  assert.equal(layerGrade({ score: 0.74, reocr: true }), 'poor');
  // the advice wins over the number (a layer with no letters at all is re-OCR whatever its capped score)
  assert.equal(layerGrade({ score: 0.99, reocr: true }), 'poor');
});
