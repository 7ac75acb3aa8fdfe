// Leader dots (layerQuality/leaders.ts): rows of dots between a line's words that the layer lacks, on drawn scans whose
// dots, rules and letters are known, and through the analyzer on a Flate scan of a table of contents.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { lineGaps, missedLeaders } from '../src/analyzer/layerQuality/leaders';
import type { PixelMap } from '../src/analyzer/layerQuality/shape';
import { analyzePdfSync } from '../src/analyzer/index';
import type { GlyphRun } from '../src/analyzer/types';
import { makePdf } from './pdf-helpers';

/** a run of `text` at size 10 from x0 to x1 on the baseline y (page space; its box from 0.2 em below to 0.8 em above) */
function run(text: string, x0: number, x1: number, y: number): GlyphRun {
  return { text, rect: [x0, y - 2, x1, y + 8], visibility: 'invisible', font: 'F', size: 10, hScale: 1, chars: text.length };
}

/** pixel space is page space (col = x, row = 400 − y) */
const MAP: PixelMap = [1, 0, 0, 0, -1, 400];

/**
 * A 600 × 400 scan of paper (235) with, on the baseline row 400 − y = 200 (y = 200), a word's ink from 20 to 100 and a
 * number's from 500 to 520 (letter bodies 7 px tall), and in the gap between them what `gap` draws.
 */
function scan(gap: (data: Uint8Array, w: number) => void): { width: number; height: number; data: Uint8Array } {
  const width = 600;
  const height = 400;
  const data = new Uint8Array(width * height).fill(235);
  for (const [a, b] of [
    [20, 100],
    [500, 520],
  ])
    for (let x = a; x < b; x++) if (x % 6 < 4) for (let r = 193; r < 200; r++) data[r * width + x] = 30;
  gap(data, width);
  return { width, height, data };
}

/** dots of 2 × 2 px on the baseline from x0 to x1, every `pitch` px (jittered by `jitter(i)` px) */
function dots(x0: number, x1: number, pitch: number, jitter: (i: number) => number = () => 0) {
  return (data: Uint8Array, w: number) => {
    for (let i = 0, x = x0; x < x1; i++, x = x0 + i * pitch + jitter(i)) for (const r of [198, 199]) for (const c of [x, x + 1]) data[r * w + c] = 40;
  };
}

const runs = [run('Introduction', 20, 100, 200), run('12', 500, 520, 200)];

test('lineGaps: the wide gaps between words of a line, none between words a space apart or on different lines', () => {
  const gaps = lineGaps(runs);
  assert.equal(gaps.length, 1);
  assert.deepEqual(gaps[0], { x0: 100, x1: 500, y: 200, size: 10 });
  // a word space (5 pt at size 10) is no gap; a word on the next line does not join this one
  assert.equal(lineGaps([run('one', 20, 60, 200), run('two', 65, 100, 200), run('three', 300, 340, 188)]).length, 0);
  // a run whose box is not its size tall (tilted, scaled) gives no baseline to read
  assert.equal(lineGaps([run('one', 20, 60, 200), { ...run('two', 300, 340, 200), rect: [300, 198, 340, 218] }]).length, 0);
});

test("a row of dots between a line's words is leader dots the layer lacks: a dot and a space each when set apart, a dot each when close", () => {
  const gaps = lineGaps(runs);
  // 5 px apart at 10 pt: half an em, set apart (". . .")
  const apart = missedLeaders(scan(dots(104, 496, 5)), MAP, gaps);
  assert.ok(apart.dots >= 75 && apart.dots <= 79, JSON.stringify(apart));
  assert.equal(apart.chars, 2 * apart.dots);
  assert.equal(apart.rects.length, 1);
  // 3 px apart: set close ("....")
  const close = missedLeaders(scan(dots(104, 496, 3)), MAP, gaps);
  assert.ok(close.dots >= 125, JSON.stringify(close));
  assert.equal(close.chars, close.dots);
});

test('a blank gap, a rule, a dropped word, specks or a few dots in a wide gap are no leader', () => {
  const gaps = lineGaps(runs);
  const none = (what: string, draw: (data: Uint8Array, w: number) => void) =>
    assert.deepEqual(missedLeaders(scan(draw), MAP, gaps), { dots: 0, chars: 0, rects: [] }, what);
  none('blank', () => {});
  none('a rule on the baseline', (data, w) => {
    for (let x = 104; x < 496; x++) data[199 * w + x] = 40;
  });
  // letters the layer dropped: dot-sized stems on the baseline, but with their bodies above
  none('a dropped word', (data, w) => {
    for (let x = 104; x < 496; x += 5) for (let r = 193; r < 200; r++) data[r * w + x] = 40;
  });
  // specks unevenly spaced (4 and 14 px apart in turn)
  none(
    'specks',
    dots(104, 496, 9, (i) => (i % 2 ? -5 : 0)),
  );
  // four dots at one end of the gap
  none('a few dots', dots(104, 124, 5));
});

test('gaps past four reads of the image are not read: a hostile layer of page-wide gaps reads the scan a few times, not thousands', () => {
  const img = scan(dots(104, 496, 5));
  const one = missedLeaders(img, MAP, lineGaps(runs)).dots;
  // each gap reads 398 columns by 3 + 4 rows (2,786 pixels): four reads of the 600 × 400 image hold 344 gaps of the 2,000
  const many = missedLeaders(
    img,
    MAP,
    Array.from({ length: 2000 }, () => lineGaps(runs)[0]),
  );
  assert.ok(many.dots > 250 * one && many.dots < 450 * one, `${one} ${many.dots}`);
});

test("an image painted turned gives no leaders (the gaps' rows are not the image's rows)", () => {
  const turned: PixelMap = [0, 1, 0, 1, 0, 0];
  assert.equal(missedLeaders(scan(dots(104, 496, 5)), turned, lineGaps(runs)).dots, 0);
});

const TITLES = [
  'Topological spaces and maps',
  'Metric spaces in brief',
  'Continuity and its limits',
  'Connected spaces and paths',
  'Compact spaces and covers',
  'Paths and their homotopy',
  'Exercises of the chapter',
  'Manifolds and complexes',
  'Simplicial complexes here',
  'Fundamental groups again',
];

/**
 * A table of contents scanned into a 612 × 792 Flate image (one pixel a point): ten entries, each a title's ink, a row
 * of dots (when `leaders`) and a page number's ink, under an invisible layer of the titles and numbers alone.
 */
function tocPdf(leaders: boolean): Uint8Array {
  const W = 612;
  const H = 792;
  const px = new Uint8Array(W * H).fill(235);
  let text = '';
  for (let l = 0; l < 10; l++) {
    const base = 120 + 40 * l; // the baseline's row
    const ink = (a: number, b: number) => {
      for (let x = a; x < b; x++) if ((x - a) % 7 < 5) for (let r = base - 7; r < base; r++) px[r * W + x] = 30;
    };
    ink(72, 200);
    ink(500, 515);
    if (leaders) for (let x = 210; x < 490; x += 5) for (const r of [base - 2, base - 1]) px[r * W + x] = px[r * W + x + 1] = 30;
    const y = H - base;
    text += `BT 3 Tr /F1 10 Tf 72 ${y} Td (${TITLES[l]}) Tj ET BT 3 Tr /F1 10 Tf 500 ${y} Td (${12 + 9 * l}) Tj ET `;
  }
  const z = deflateSync(px);
  const image = `<< /Type /XObject /Subtype /Image /Width ${W} /Height ${H} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${z.length} >>\nstream\n${Buffer.from(z).toString('latin1')}\nendstream`;
  return makePdf(`q 612 0 0 792 0 0 cm /Im1 Do Q ${text}`, '<< /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >>', [
    image,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

test('the analyzer shows the leader dots a layer lacks (signals.leadersMissed) and where they are, and not on a page without', () => {
  const page = analyzePdfSync(tocPdf(true), { layerQuality: true, textLayer: true }).pages[0];
  assert.equal(page.route, 'ocr-layer');
  const s = page.evidence.layerQuality!.signals;
  // 56 dots a line, a dot and a space each (1,120 characters), against the layer's ten lines of about 25 + 1 + 2 + 1
  const share = s.leadersMissed as number;
  assert.ok(share > 0.75 && share < 0.85, JSON.stringify(s));
  const regions = page.evidence.textLayer!.missingText!;
  const rows = regions.filter((r) => r[0] >= 150 && r[2] <= 505 && r[2] - r[0] > 200);
  assert.equal(rows.length, 10, JSON.stringify(regions));
  const plain = analyzePdfSync(tocPdf(false), { layerQuality: true }).pages[0].evidence.layerQuality!.signals;
  assert.equal(plain.leadersMissed, undefined, JSON.stringify(plain));
});
