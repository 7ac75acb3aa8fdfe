// Letter shapes (layerQuality/shape.ts): a layer's ascenders and descenders against a scan's, on drawn pages whose
// letters are known, and on the OCR-quality data when it is present.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { letterShapes, type LetterShapes, type PixelMap } from '../src/analyzer/layerQuality/shape';
import { analyzePdfSync } from '../src/analyzer/index';
import type { GlyphRun } from '../src/analyzer/types';

const SHARED = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'ocr-quality', 'files');

const UP = new Set([...'bdfhklt']);
const DOWN = new Set([...'gjpqy']);
const WORDS =
  'the quick brown fox jumps over lazy dogs while eight happy kings bring joy to every quiet village by the deep river bank at night'.split(' ');

/**
 * A page of `lines` lines of WORDS drawn as a printer would (x-height band, stems above for b d f h k l t, tails below
 * for g j p q y; every letter 6 pixels wide, a space of 6), and the runs of a layer over it whose text is `textOf(word,
 * index)`: the drawn word, or another. Pixel space is page space here (map: col = x, row = 1000 − y).
 */
function page(
  lines: number,
  textOf: (w: string, i: number) => string,
): { img: { width: number; height: number; data: Uint8Array }; map: PixelMap; runs: GlyphRun[] } {
  const width = 800;
  const height = 1000;
  const data = new Uint8Array(width * height).fill(235);
  const runs: GlyphRun[] = [];
  let i = 0;
  for (let l = 0; l < lines; l++) {
    const base = 60 + l * 30; // the baseline's row
    let x = 20;
    for (let k = 0; k < 8; k++, i++) {
      const w = WORDS[i % WORDS.length];
      const x0 = x;
      for (const ch of w) {
        const top = UP.has(ch) ? base - 14 : base - 8;
        const bot = DOWN.has(ch) ? base + 5 : base;
        for (let y = top; y < bot; y++) for (let c = x + 1; c < x + 5; c++) data[y * width + c] = 40;
        x += 6;
      }
      runs.push({
        text: textOf(w, i),
        rect: [x0, 1000 - (base + 6), x, 1000 - (base - 15)],
        visibility: 'invisible',
        font: 'F',
        size: 10,
        hScale: 1,
        chars: w.length,
      });
      x += 6;
    }
  }
  return { img: { width, height, data }, map: [1, 0, 0, 0, -1, 1000], runs };
}

/** the figure, failing the test when there is none */
function judged(x: LetterShapes | string): LetterShapes {
  if (typeof x === 'string') assert.fail(`no figure: ${x}`);
  return x;
}

test('letter shapes: a layer that reads the scan agrees with it; its words in the wrong boxes do not', () => {
  const right = page(20, (w) => w);
  const r = judged(letterShapes(right.img, right.map, right.runs));
  assert.ok(r.ascenders > 0.6 && r.descenders > 0.6, JSON.stringify(r));
  assert.equal(r.words, 160);
  // the same well-formed words, each in another word's box (a layer from another page, or shuffled)
  const wrong = page(20, (_, i) => WORDS[(i * 7 + 3) % WORDS.length]);
  const s = judged(letterShapes(wrong.img, wrong.map, wrong.runs));
  assert.ok(s.ascenders < 0.3 && s.descenders < 0.3, JSON.stringify(s));
  // letters substituted at random in a third of the places: in between
  const subst = page(20, (w, i) => [...w].map((ch, k) => ((i + k) % 3 === 0 ? 'oaxgkl'[(i + k) % 6] : ch)).join(''));
  const t = judged(letterShapes(subst.img, subst.map, subst.runs));
  assert.ok(t.ascenders < r.ascenders && t.ascenders > s.ascenders, JSON.stringify(t));
  // the words' letters are small letters: none of them capitals
  assert.equal(r.capitals, 0);
});

test('letter shapes: the share of the judged letters that are capitals (a text of capitals has no x-height band)', () => {
  // the same words, every other one in capitals: half the letters of the judged words, as the words are told
  const p = page(20, (w, i) => (i % 2 ? w.toUpperCase() : w));
  const r = judged(letterShapes(p.img, p.map, p.runs));
  let caps = 0;
  let all = 0;
  for (const run of p.runs) {
    all += run.text.length;
    if (run.text === run.text.toUpperCase()) caps += run.text.length;
  }
  assert.ok(caps > 0 && caps < all);
  assert.ok(Math.abs(r.capitals - caps / all) < 1e-9, `${r.capitals} against ${caps / all}`);
});

test('letter shapes: no figure from too few words, from blank paper, or when the clock runs out, and why', () => {
  const few = page(1, (w) => w);
  assert.equal(letterShapes(few.img, few.map, few.runs), 'too few words on ink');
  const p = page(20, (w) => w);
  const blank = { ...p.img, data: new Uint8Array(p.img.data.length).fill(235) };
  assert.equal(letterShapes(blank, p.map, p.runs), 'too few words on ink');
  assert.equal(
    letterShapes(p.img, p.map, p.runs, () => true),
    'out of time',
  );
  // boxes off the image are left out, not read out of bounds
  const off = p.runs.map((r) => ({ ...r, rect: [r.rect[0] + 5000, r.rect[1], r.rect[2] + 5000, r.rect[3]] as [number, number, number, number] }));
  assert.equal(letterShapes(p.img, p.map, off), 'too few words on ink');
});

test('letter shapes: turned text is not read as upright, on a turned page or in a turned image', () => {
  const p = page(20, (w) => w);
  const upright = judged(letterShapes(p.img, p.map, p.runs));
  // the page's runs turned (a page scanned sideways and OCR'd as it lies): no figure, and why
  const turnedRuns = p.runs.map((r) => ({ ...r, turned: true as const }));
  assert.equal(letterShapes(p.img, p.map, turnedRuns), "the text runs across the scan's rows (turned text)");
  // upright runs over an image painted turned (its columns follow the page's y): the same
  const t = new Uint8Array(p.img.data.length);
  for (let y = 0; y < p.img.height; y++) for (let x = 0; x < p.img.width; x++) t[x * p.img.height + y] = p.img.data[y * p.img.width + x];
  const turnedImage = { width: p.img.height, height: p.img.width, data: t };
  // page (x, y) → pixel: the old row (1000 − y) is the new column, the old column (x) the new row
  const turnedMap: PixelMap = [0, -1, 1000, 1, 0, 0];
  assert.equal(letterShapes(turnedImage, turnedMap, p.runs), "the text runs across the scan's rows (turned text)");
  // a few turned runs among upright ones (vertical labels) are left out: their words, wrong for these boxes, change nothing
  const labels = p.runs.slice(0, 10).map((r, i) => ({ ...r, text: WORDS[(i * 7 + 3) % WORDS.length], turned: true as const }));
  assert.deepEqual(judged(letterShapes(p.img, p.map, [...labels, ...p.runs])), upright);
  // …while read as upright, the same wrong words lower the agreement (the check above can fail)
  const unmarked = labels.map(({ turned: _, ...r }) => r);
  assert.ok(judged(letterShapes(p.img, p.map, [...unmarked, ...p.runs])).ascenders < upright.ascenders);
});

test('letter shapes: thousands of page-sized boxes are not read thousands of times', () => {
  const p = page(20, (w) => w);
  const huge = Array.from({ length: 4000 }, (_, i) => ({
    ...p.runs[i % p.runs.length],
    rect: [0, 0, 800, 1000] as [number, number, number, number],
  }));
  const t0 = process.hrtime.bigint();
  assert.equal(letterShapes(p.img, p.map, huge), 'the word boxes overlap too much');
  // generous: the bound stops it after a few reads of the image (4000 full reads would take minutes)
  assert.ok(Number(process.hrtime.bigint() - t0) / 1e6 < 5000);
});

test("letter shapes on the OCR-quality data: another page's words agree far less than a clean layer", (t) => {
  let clean: Buffer;
  let other: Buffer;
  try {
    clean = readFileSync(join(SHARED, '044-man-sed.pdf'));
    other = readFileSync(join(SHARED, '028-man-tar.pdf'));
  } catch {
    t.skip('../shared/ocr-quality is absent');
    return;
  }
  const shapes = (pdf: Buffer, page: number) =>
    analyzePdfSync(new Uint8Array(pdf), { layerQuality: true }).pages[page - 1].evidence.layerQuality!.signals.letterShapes as number;
  // 044 p2 is a clean layer, 028 p3 another page's text laid in this page's lines (labels.jsonl)
  assert.ok(shapes(clean, 2) > 0.3, String(shapes(clean, 2)));
  assert.ok(shapes(other, 3) < 0.1, String(shapes(other, 3)));
});
