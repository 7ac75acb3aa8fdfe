// The real-OCR split's own parts: pooling splits (--merge) and reading Tesseract's hOCR into the lines the layer
// writer writes. What it shares with the synthetic split (normalise, levenshtein, the sources) is tested in
// ocr-split-sources.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hocrLines, mergeLabels, parseHocr } from '../scripts/ocr-layers-build';

test('mergeLabels pools splits: names from different seeds stay apart, each label keeps its pages', () => {
  const one = '{"file":"files/001-a.pdf","pages":[{"page":1,"cer":0.1}]}\n{"file":"files/002-b.pdf","pages":[{"page":1,"cer":0.4}]}\n';
  const two = '{"file":"files/001-a.pdf","pages":[{"page":1,"cer":0.02}]}\n\n';
  const { labels, files } = mergeLabels([one, two]);
  const docs = labels
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { file: string; pages: { page: number; cer: number }[] });
  assert.deepEqual(
    docs.map((d) => d.file),
    ['files/s1-001-a.pdf', 'files/s1-002-b.pdf', 'files/s2-001-a.pdf'],
  );
  assert.deepEqual(
    docs.map((d) => d.pages[0].cer),
    [0.1, 0.4, 0.02],
  );
  assert.deepEqual(files, [
    { from: 'files/001-a.pdf', to: 's1-001-a.pdf', split: 0 },
    { from: 'files/002-b.pdf', to: 's1-002-b.pdf', split: 0 },
    { from: 'files/001-a.pdf', to: 's2-001-a.pdf', split: 1 },
  ]);
  assert.deepEqual(mergeLabels([]), { labels: '', files: [] });
});

// Tesseract 5's hOCR as it writes it: single-quoted classes and word titles, double-quoted line titles, a page title
// with a quoted image name, entities in words; a caption line, an empty word and an inner tag
const HOCR = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en"><body>
  <div class='ocr_page' id='page_1' title='image "p.jpg"; bbox 0 0 1240 1755; ppageno 0; scan_res 150 150'>
   <div class='ocr_carea' id='block_1_1' title="bbox 151 86 1124 105">
    <p class='ocr_par' id='par_1_1' lang='deu' title="bbox 151 86 1124 105">
     <span class='ocr_line' id='line_1_1' title="bbox 151 86 1124 105; baseline 0 -5; x_size 17; x_descenders 3; x_ascenders 4">
      <span class='ocrx_word' id='word_1_1' title='bbox 151 86 197 103; x_wconf 84'>LS(1)</span>
      <span class='ocrx_word' id='word_1_2' title='bbox 508 86 657 105; x_wconf 92'>Dienst&amp;&lt;x&gt;</span>
      <span class='ocrx_word' id='word_1_3' title='bbox 664 86 687 100; x_wconf 97'> </span>
     </span>
     <span class='ocr_header' id='line_1_2' title="bbox 150 159 320 180; baseline -0.012 -4; x_size 21.5">
      <span class='ocrx_word' id='word_1_4' title='bbox 150 159 320 176; x_wconf 96'><strong>&#x201C;BEZ</strong>&#39;</span>
      <span class='ocrx_word' id='word_1_5' title='bbox 330 160 400 176; x_wconf 96'>ﬁnd</span>
     </span>
     <span class='ocr_caption' id='line_1_3' title="bbox 10 200 60 220; baseline 0.001 -3">
      <span class='ocrx_word' id='word_1_6' title='bbox 10 200 60 220; x_wconf 50'>Fig.</span>
     </span>
    </p>
   </div>
  </div>
</body></html>`;

test('parseHocr reads the page size, the lines in order with their box and baseline, and each line its words', () => {
  const h = parseHocr(HOCR);
  assert.equal(h.width, 1240);
  assert.equal(h.height, 1755);
  assert.deepEqual(
    h.lines.map((l) => [l.kind, l.bbox, l.slope, l.intercept]),
    [
      ['ocr_line', [151, 86, 1124, 105], 0, -5],
      ['ocr_header', [150, 159, 320, 180], -0.012, -4],
      ['ocr_caption', [10, 200, 60, 220], 0.001, -3],
    ],
  );
  assert.deepEqual(h.lines[0].words, [
    { text: 'LS(1)', bbox: [151, 86, 197, 103] },
    { text: 'Dienst&<x>', bbox: [508, 86, 657, 105] },
  ]);
  assert.deepEqual(
    h.lines[1].words.map((w) => w.text),
    ["\u201cBEZ'", 'ﬁnd'],
  );
  assert.deepEqual(
    h.lines[2].words.map((w) => w.bbox),
    [[10, 200, 60, 220]],
  );
  assert.deepEqual(parseHocr('<html><body></body></html>'), { width: 0, height: 0, lines: [] });
});

test('hocrLines lays the lines out as OCRmyPDF does: points, font size less the baseline offset, tilt from 0.005, no captions', () => {
  const lines = hocrLines(parseHocr(HOCR).lines, 150);
  const g = 72 / 150;
  const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
  assert.equal(lines.length, 2);
  const [a, b] = lines;
  near(a.top, 86 * g);
  near(a.bottom, 105 * g);
  near(a.base, (105 - 5) * g);
  near(a.size, (105 - 86 - 5) * g);
  near(a.lineHeight ?? 0, 19 * g);
  assert.equal(a.slope, undefined);
  near(a.words[1].x1, 508 * g);
  near(a.words[1].x2, 657 * g);
  assert.equal(b.slope, -0.012);
  near(b.size, (180 - 159 - 4) * g);
  // the ligature spelled out as the renderer does
  assert.equal(b.words[1].text, 'find');
  // a slope under 0.005 is no tilt
  const flat = hocrLines(
    [{ kind: 'ocr_line', bbox: [0, 0, 100, 20], slope: 0.004, intercept: -4, words: [{ text: 'x', bbox: [0, 0, 10, 20] }] }],
    300,
  );
  assert.equal(flat[0].slope, undefined);
});
