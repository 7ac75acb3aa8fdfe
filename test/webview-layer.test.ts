import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TextLayer } from '../src/analyzer/types';
import { pageTextLayerOf, parseHostMessage } from '../src/shared/protocol';
import { GOOD_LAYER_SCORE, layerGrade, WORD_GOOD_LIKELIHOOD, WORDS_GRADED_ABOVE, wordGrade, wordsGraded } from '../src/shared/routes';
import { layerBadgeText, layerMeaning, runQuality } from '../webview/layerColors';

test('the runs of an OCR layer take their page grade; visible text and other routes do not', () => {
  const poor = { score: 0.31, reocr: true };
  for (const v of ['invisible', 'clipped', 'hidden'] as const)
    assert.deepEqual(runQuality('ocr-layer', poor, v), { grade: 'poor', score: 0.31, reocr: true, fill: 'poor' });
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
  // with the estimate's parts it says why: the larger first, the other from 10 % on; a good layer needs no why
  assert.equal(
    layerMeaning({ score: 0.18, reocr: true, textMissing: 0.81, textError: 0.05 }),
    "OCR layer poor (page score 0.18): text missing: 81% of the page's text is not in the layer; re-OCR advised",
  );
  assert.equal(
    layerMeaning({ score: 0.85, reocr: false, textMissing: 0, textError: 0.15 }),
    'OCR layer fair (page score 0.85): usable for search, worth a look (words wrong: an estimated 15% of the characters there)',
  );
  assert.equal(layerMeaning({ score: 0.98, reocr: false, textMissing: 0, textError: 0.02 }), 'OCR layer good (page score 0.98): keep');
  assert.equal(
    layerMeaning({ score: 0.3, reocr: true, textMissing: 0, textError: 0.7, shift: 3 }),
    'OCR layer poor (page score 0.30): words wrong: an estimated 70% of the characters there, its letters shifted 3 places along the alphabet; re-OCR advised',
  );
  // judged by its words alone (the scan gave no evidence): the badge and its meaning say so
  const blind = {
    score: 0.98,
    reocr: false,
    scanNote: 'scan image not read: unsupported (JPEG process SOF3 (only baseline and progressive are decoded))',
  };
  assert.equal(layerBadgeText(blind), 'layer good 0.98 · words only');
  // kept on incomplete evidence: the badge and its meaning say why it is no confident keep
  const little = { score: 0.75, reocr: false, incomplete: 'too little text to judge' };
  assert.equal(layerBadgeText(little), 'layer fair 0.75 · incomplete evidence');
  assert.equal(
    layerMeaning(little),
    'OCR layer fair (page score 0.75): usable for search, worth a look. Kept on incomplete evidence (too little text to judge): the score is at most 0.75',
  );
  assert.equal(
    layerMeaning(blind),
    'OCR layer good (page score 0.98): keep. Judged by its words alone (scan image not read: unsupported (JPEG process SOF3 (only baseline and progressive are decoded))): text the layer lacks cannot be seen',
  );
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

test("a run's word likelihood is carried for display; on a layer whose text reads right the run keeps the page's grade", () => {
  const good = { score: 0.97, reocr: false };
  assert.deepEqual(runQuality('ocr-layer', good, 'invisible', 0.2), { grade: 'good', score: 0.97, reocr: false, likelihood: 0.2, fill: 'good' });
  assert.deepEqual(
    runQuality('ocr-layer', good, 'invisible'),
    { grade: 'good', score: 0.97, reocr: false, fill: 'good' },
    'no likelihood: none shown',
  );
  assert.equal(runQuality('ocr-layer', { ...good, textError: 0.03 }, 'invisible', 0.2)?.fill, 'good', 'text judged right: page grade');
  assert.equal(runQuality('ocr-layer', good, 'visible', 0.1), undefined, 'visible text is not the layer');
  // the word's own grade, for its tooltip: below the analyzer's word-likeness cut (½) poor
  assert.equal(wordGrade(0.49), 'poor');
  assert.equal(wordGrade(0.5), 'fair');
  assert.equal(wordGrade(WORD_GOOD_LIKELIHOOD), 'good');
});

test("where the page's text is judged wrong, each run takes its own word's grade; a layer poor for missing text does not", () => {
  const garbled = { score: 0.4, reocr: true, textError: 0.6 };
  assert.equal(runQuality('ocr-layer', garbled, 'invisible', 0.1)?.fill, 'poor');
  assert.equal(runQuality('ocr-layer', garbled, 'invisible', 0.6)?.fill, 'fair');
  assert.equal(runQuality('ocr-layer', garbled, 'hidden', 0.95)?.fill, 'good');
  assert.equal(runQuality('ocr-layer', garbled, 'invisible', 0.95)?.grade, 'poor', "the page's grade is still the run's grade");
  assert.equal(runQuality('ocr-layer', garbled, 'invisible')?.fill, 'poor', 'no likelihood: the page grade');
  const fair = { score: 0.85, reocr: false, textError: 0.12 };
  assert.equal(runQuality('ocr-layer', fair, 'invisible', 0.3)?.fill, 'poor');
  assert.equal(runQuality('ocr-layer', fair, 'invisible', 0.9)?.fill, 'good');
  // poor because most of the page's ink has no word: the words there read right and keep the page's grade
  const partial = { score: 0.2, reocr: true, textError: 0.01 };
  assert.equal(runQuality('ocr-layer', partial, 'invisible', 0.11)?.fill, 'poor');
  assert.equal(runQuality('ocr-layer', partial, 'invisible', 0.99)?.fill, 'poor');
  assert.equal(wordsGraded({ textError: WORDS_GRADED_ABOVE }), false);
  assert.equal(wordsGraded({ textError: WORDS_GRADED_ABOVE + 0.001 }), true);
  assert.equal(wordsGraded({}), false, 'no estimate: the page grade');
});

test('the protocol carries a run likelihood, clamped to 0..1, and drops one that is not a number', () => {
  const layer = {
    runs: [
      { text: 'word', rect: [0, 0, 10, 10], visibility: 'invisible', font: 'F1', size: 10, hScale: 1, chars: 4, likelihood: 0.3 },
      { text: '42', rect: [0, 0, 10, 10], visibility: 'invisible', font: 'F1', size: 10, hScale: 1, chars: 2 },
    ],
    runCount: 2,
    text: 'word 42',
  } as unknown as TextLayer;
  const box = pageTextLayerOf(1, layer);
  assert.equal(box.runs[0].likelihood, 0.3);
  assert.equal('likelihood' in box.runs[1], false);
  const parsed = parseHostMessage({
    type: 'textLayer',
    report: 1,
    pages: [
      {
        ...box,
        runs: [
          { ...box.runs[0], likelihood: 7 },
          { ...box.runs[1], likelihood: 'x' },
        ],
      },
    ],
  });
  assert.ok(parsed && parsed.type === 'textLayer');
  assert.equal(parsed.pages[0].runs[0].likelihood, 1);
  assert.equal('likelihood' in parsed.pages[0].runs[1], false);
});
