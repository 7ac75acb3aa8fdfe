// The layer-quality score (AnalyzerOptions.layerQuality): the baseline JPEG decoder against pdf.js's (a dev
// dependency, used here only as a witness), the language evidence, and the score on synthetic layers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJpegDc, decodeJpegGray } from '../src/analyzer/layerQuality/jpeg';
import { type Language, languageEvidence, NONWORD_BITS, wordBits, wordCounts } from '../src/analyzer/layerQuality/language';
import { estimateError, layerQuality, REOCR_CER, UNLIKE_SCAN, unlikeScanError } from '../src/analyzer/layerQuality/index';
import { charSignals } from '../src/analyzer/layerQuality/words';
import { type InkMap, inkMap } from '../src/analyzer/layerQuality/ink';
import { inkCoverage, MAX_MISSING_REGIONS } from '../src/analyzer/layerQuality/missing';
import { emWidth } from '../src/analyzer/layerQuality/widths';
import { analyzePdfSync } from '../src/analyzer/index';
import type { GlyphRun, TextLayer } from '../src/analyzer/types';
import { makePdf } from './pdf-helpers';
import { INCOMPLETE_SCORE_MAX } from '../src/shared/routes';

const SHARED = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'ocr-quality', 'files');

/** the first DCTDecode stream of a PDF, found crudely (the files here are uncompressed at the object level) */
function firstJpeg(pdf: Buffer): Uint8Array | undefined {
  const s = pdf.toString('latin1');
  const i = s.indexOf('/DCTDecode');
  if (i < 0) return undefined;
  const st = s.indexOf('stream', i) + 7;
  return new Uint8Array(pdf.subarray(st, s.indexOf('endstream', st)));
}

/** the scan of 002-man-sed.pdf in the OCR-quality data, or undefined (the test skipped) when the data is absent */
function sharedScan(t: { skip: (message: string) => void }): Uint8Array | undefined {
  try {
    return firstJpeg(readFileSync(join(SHARED, '002-man-sed.pdf')));
  } catch {
    t.skip('../shared/ocr-quality is absent');
    return undefined;
  }
}

test('the JPEG decoder agrees with pdf.js to within rounding on a scan of the ocr-quality data', async (t) => {
  const jpg = sharedScan(t);
  if (!jpg) return;
  const mine = decodeJpegGray(jpg, 1e8);
  assert.ok(mine.ok);
  // @ts-expect-error pdf.js ships no types for its image decoders
  const { JpegImage } = (await import('pdfjs-dist/image_decoders/pdf.image_decoders.mjs')) as {
    JpegImage: new () => { parse(b: Uint8Array): void; width: number; height: number; getData(o: object): Uint8Array };
  };
  const j = new JpegImage();
  j.parse(jpg);
  const ref = j.getData({ width: j.width, height: j.height, forceRGB: false, isSourcePDF: true });
  assert.equal(mine.image.width, j.width);
  assert.equal(mine.image.height, j.height);
  let worst = 0;
  for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(ref[i] - mine.image.data[i]));
  assert.ok(worst <= 1, `largest difference ${worst}`);
  const half = decodeJpegGray(jpg, 1e8, () => false, 2);
  assert.ok(half.ok && half.image.width === Math.ceil(j.width / 2));
});

test('DC-only decoding gives the mean of each 8×8 block of the full decode, to within rounding', (t) => {
  const jpg = sharedScan(t);
  if (!jpg) return;
  const full = decodeJpegGray(jpg, 1e8);
  const dc = decodeJpegDc(jpg, 1e8);
  assert.ok(full.ok && dc.ok);
  const W = full.image.width;
  assert.equal(dc.image.width, Math.ceil(W / 8));
  assert.equal(dc.image.height, Math.ceil(full.image.height / 8));
  let worst = 0;
  let sum = 0;
  let n = 0;
  for (let by = 0; by < Math.floor(full.image.height / 8); by++)
    for (let bx = 0; bx < Math.floor(W / 8); bx++) {
      let s = 0;
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) s += full.image.data[(by * 8 + y) * W + bx * 8 + x];
      const d = Math.abs(s / 64 - dc.image.data[by * dc.image.width + bx]);
      worst = Math.max(worst, d);
      sum += d;
      n++;
    }
  // the full decode clamps each pixel to 0..255, the block mean does not: a few levels where print is solid black
  assert.ok(sum / n < 1, `mean difference ${sum / n}`);
  assert.ok(worst <= 8, `largest difference ${worst}`);
  // the same refusals as the full decoder; a truncated scan is damaged or stops, never throws
  assert.equal(decodeJpegDc(new Uint8Array([1, 2, 3]), 1e6).ok, false);
  const cut = decodeJpegDc(jpg.subarray(0, jpg.length >> 1), 1e8);
  assert.ok(typeof cut.ok === 'boolean');
  const late = decodeJpegDc(jpg, 1e8, () => true);
  assert.equal(late.ok ? 'ok' : late.error, 'out-of-time');
});

test('a masked decode: the wanted blocks as the full decode has them, the others flat at their means, and the means as the DC-only scan has them', (t) => {
  const jpg = sharedScan(t);
  if (!jpg) return;
  const dc = decodeJpegDc(jpg, 1e8);
  assert.ok(dc.ok);
  const columns = dc.image.width;
  const rows = dc.image.height;
  // a band of blocks across the middle and a column down the left are wanted
  const want = new Uint8Array(columns * rows);
  for (let by = 0; by < rows; by++) for (let bx = 0; bx < columns; bx++) if ((by > rows / 3 && by < rows / 2) || bx < 4) want[by * columns + bx] = 1;
  for (const scale of [1, 2, 4] as const) {
    const full = decodeJpegGray(jpg, 1e8, () => false, scale);
    const part = decodeJpegGray(jpg, 1e8, () => false, scale, { columns, rows, want }, true);
    assert.ok(full.ok && part.ok && part.means);
    assert.deepEqual(part.means.data, dc.image.data, `scale ${scale}: the means`);
    const m = 8 / scale;
    const W = full.image.width;
    let differ = 0;
    for (let by = 0; by < rows; by++)
      for (let bx = 0; bx < columns; bx++)
        for (let y = by * m; y < Math.min(full.image.height, (by + 1) * m); y++)
          for (let x = bx * m; x < Math.min(W, (bx + 1) * m); x++) {
            const expected = want[by * columns + bx] ? full.image.data[y * W + x] : dc.image.data[by * columns + bx];
            if (part.image.data[y * W + x] !== expected) differ++;
          }
    assert.equal(differ, 0, `scale ${scale}`);
  }
});

test('the JPEG decoder refuses what it does not read, with a typed error, and stops on the clock', () => {
  assert.deepEqual(decodeJpegGray(new Uint8Array([1, 2, 3, 4]), 1e6), { ok: false, error: 'damaged', message: 'no SOI marker' });
  // SOI, then a lossless frame header (progressive files are read: test/jpeg-progressive.test.ts)
  const lossless = new Uint8Array([0xff, 0xd8, 0xff, 0xc3, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0]);
  const r = decodeJpegGray(lossless, 1e6);
  assert.equal(r.ok ? 'ok' : r.error, 'unsupported');
  const big = new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0x10, 0, 0x10, 0, 1, 1, 0x11, 0]);
  const r2 = decodeJpegGray(big, 1000);
  assert.equal(r2.ok ? 'ok' : r2.error, 'too-large');
});

test('language evidence: prose reads as its language, shifted letters do not', () => {
  const en = 'The quick brown fox jumps over the lazy dog and everyone has the right to freedom of opinion and expression.';
  const de = 'Jeder hat das Recht auf Meinungsfreiheit und freie Meinungsäußerung; dieses Recht schließt die Freiheit ein.';
  const ru = 'Каждый человек имеет право на свободу убеждений и на свободное выражение их; это право включает свободу.';
  assert.equal(languageEvidence(en).language, 'en');
  assert.equal(languageEvidence(de).language, 'de');
  assert.equal(languageEvidence(ru).language, 'ru');
  const caesar = en.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 3) % 26) + 97));
  assert.ok(languageEvidence(caesar).bitsPerChar > languageEvidence(en).bitsPerChar + 1.5);
  assert.ok(languageEvidence(caesar).wordLike < 0.3 && languageEvidence(en).wordLike > 0.6);
});

/**
 * A layer of words at size 10, eight a line, each as wide as a scan's word of its letters would be (widths.ts: an "ill"
 * narrower than an "mmm") at `widthPerChar` points an average letter (5: half an em).
 */
function layerOf(words: string[], widthPerChar: (w: string, i: number) => number): TextLayer {
  const runs: GlyphRun[] = words.map((w, i) => {
    const x = 72 + (i % 8) * 60;
    const y = 700 - Math.floor(i / 8) * 14;
    let ems = 0;
    for (const ch of w) ems += emWidth(ch.codePointAt(0)!);
    return {
      text: w,
      rect: [x, y - 2, x + widthPerChar(w, i) * 2 * ems, y + 8],
      visibility: 'invisible',
      font: 'F1',
      size: 10,
      hScale: 1,
      chars: w.length,
    };
  });
  return { runs, runCount: runs.length, text: words.join(' ') };
}

test('the score ranks a good layer above garbled and misplaced ones, and says why', () => {
  const words =
    'everyone has the right to freedom of opinion and expression this right includes freedom to hold opinions without interference and to seek receive and impart information and ideas through any media regardless of frontiers'.split(
      ' ',
    );
  const good = layerQuality({ layer: layerOf(words, () => 5), which: 'invisible' });
  const caesar = words.map((w) => w.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 3) % 26) + 97)));
  const bad = layerQuality({ layer: layerOf(caesar, () => 5), which: 'invisible' });
  // the right words in the wrong boxes: widths no longer fit the letters
  const shuffled = layerQuality({ layer: layerOf(words, (w, i) => (i % 3 === 0 ? 12 : i % 3 === 1 ? 2.5 : 5)), which: 'invisible' });
  assert.ok(good.score > 0.75 && !good.reocr, JSON.stringify(good));
  assert.ok(bad.score < good.score && bad.reocr, JSON.stringify(bad));
  assert.ok(shuffled.score < good.score, JSON.stringify(shuffled));
  assert.ok((shuffled.signals.widthSpread as number) > (good.signals.widthSpread as number));
  assert.equal(good.signals.image, 'no scan image');
  for (const k of ['wordLike', 'widthSpread', 'bitsPerChar', 'estimatedCer']) assert.equal(typeof good.signals[k], 'number', k);
});

test('the surfaces\' "score at most" for incomplete evidence is the analyzer\'s cap', () => {
  assert.equal(INCOMPLETE_SCORE_MAX, 1 - REOCR_CER);
});

test('a cut layer is never a confident keep', () => {
  const words = 'everyone has the right to freedom of opinion and expression this right includes freedom to hold opinions'.split(' ');
  const l = layerOf(words, () => 5);
  l.cut = 'runs';
  const q = layerQuality({ layer: l, which: 'invisible' });
  assert.ok(q.score <= 0.75, JSON.stringify(q));
  assert.equal(q.signals.incomplete, 'text layer cut by a limit: more glyph runs than maxTextRunsPerPage');
});

test('off by default; on, ocr-layer pages of the data get a score and nothing else changes', (t) => {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(join(SHARED, '002-man-sed.pdf')));
  } catch {
    t.skip('../shared/ocr-quality is absent');
    return;
  }
  const off = analyzePdfSync(bytes);
  const on = analyzePdfSync(bytes, { layerQuality: true });
  for (const p of off.pages) assert.equal(p.evidence.layerQuality, undefined);
  on.pages.forEach((p, i) => {
    assert.equal(p.route, off.pages[i].route);
    assert.equal(p.evidence.textLayer, undefined, 'the layer itself is only reported with textLayer');
    const q = p.evidence.layerQuality!;
    assert.ok(q.score >= 0 && q.score <= 1 && typeof q.reocr === 'boolean');
    assert.equal(typeof q.signals.inkCovered, 'number');
  });
  // page 1 is a Caesar-shifted layer
  assert.equal(on.pages[0].evidence.layerQuality!.reocr, true);
});

/** an ink map of w × h samples whose page coordinates are its pixel ones (x = column, y = h − row) */
function inkMapOf(w: number, h: number, ink: (col: number, row: number) => number, dark = 40): InkMap {
  const data = new Uint8Array(w * h);
  const sat = new Int32Array((w + 1) * (h + 1));
  let total = 0;
  for (let y = 0; y < h; y++) {
    let rowSum = 0;
    for (let x = 0; x < w; x++) {
      const v = ink(x, y);
      data[y * w + x] = v;
      rowSum += v;
      sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + rowSum;
    }
    total += rowSum;
  }
  // luminance: paper (230) less the ink
  const gray = data.map((v) => Math.max(0, 230 - v));
  return { width: w, height: h, sat, ink: data, gray, total, paper: 230, dark, stretch: 1, map: [1, 0, 0, 0, -1, h] };
}

/** the ink of a map's samples where `at(col, row)` holds */
function inkWhere(m: InkMap, at: (col: number, row: number) => boolean): number {
  let sum = 0;
  for (let r = 0; r < m.height; r++) for (let c = 0; c < m.width; c++) if (at(c, r)) sum += m.ink[r * m.width + c];
  return sum;
}

/** textInkMissed is the share of the text's ink that `missing` holds (to 0.03), against the ink of the text the layer covers */
function assertTextMissed(
  q: { textInkMissed: number },
  m: InkMap,
  missing: (col: number, row: number) => boolean,
  covered: (col: number, row: number) => boolean,
): void {
  const missed = inkWhere(m, missing);
  const kept = inkWhere(m, covered);
  assert.ok(Math.abs(q.textInkMissed - missed / (missed + kept)) < 0.03, JSON.stringify(q));
}

function runAt(text: string, col0: number, col1: number, row0: number, row1: number, h: number): GlyphRun {
  return { text, rect: [col0, h - row1, col1, h - row0], visibility: 'invisible', font: 'F1', size: 2, hScale: 1, chars: text.length };
}

/** A page painted whole by a baseline JPEG (its size read from the frame header), with `hidden` as invisible text. */
function scanPage(jpeg: Uint8Array, hidden: string): Uint8Array {
  let sof = 2;
  while (sof + 9 < jpeg.length && !(jpeg[sof] === 0xff && jpeg[sof + 1] === 0xc0)) sof++;
  const height = (jpeg[sof + 5] << 8) | jpeg[sof + 6];
  const width = (jpeg[sof + 7] << 8) | jpeg[sof + 8];
  const space = jpeg[sof + 9] === 1 ? '/DeviceGray' : '/DeviceRGB';
  const text = hidden ? `BT 3 Tr /F1 10 Tf 72 700 Td (${hidden}) Tj ET` : '';
  const image = `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /BitsPerComponent 8 /ColorSpace ${space} /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n${Buffer.from(jpeg).toString('latin1')}\nendstream`;
  return makePdf(`q 612 0 0 792 0 0 cm /Im1 Do Q ${text}`, '<< /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >>', [
    image,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

test('an ocr page whose scan carries a few hidden characters is scored too: an OCR layer that read almost nothing', (t) => {
  const jpeg = sharedScan(t);
  if (!jpeg) return;
  // a scan full of text under a layer of one word: too few hidden characters to route as an OCR layer
  const tiny = analyzePdfSync(scanPage(jpeg, 'Page 7'), { layerQuality: true }).pages[0];
  assert.equal(tiny.route, 'ocr');
  const q = tiny.evidence.layerQuality!;
  assert.ok(q, 'a page with an OCR layer gets layerQuality, however small the layer');
  assert.equal(q.signals.incomplete, 'too little text to judge');
  assert.ok((q.signals.textInkMissed as number) > 0.8, JSON.stringify(q.signals));
  assert.equal(q.reocr, true);
  assert.ok(q.score < 0.2, JSON.stringify(q));
  // the same page without hidden text has no layer to judge, and with the option off nothing is scored
  assert.equal(analyzePdfSync(scanPage(jpeg, ''), { layerQuality: true }).pages[0].evidence.layerQuality, undefined);
  const off = analyzePdfSync(scanPage(jpeg, 'Page 7')).pages[0];
  assert.equal(off.route, 'ocr');
  assert.equal(off.evidence.layerQuality, undefined);
});

test('an ocr page is advised re-OCR however little its words say: the advice never keeps what the route sends to OCR', () => {
  // a page-covering scan the ink map cannot read (flat grey: no contrast) under a hidden "Page 7": too few hidden
  // characters to route as an OCR layer, and too little text to judge by its words, with no news from the scan
  const flat = new Uint8Array(64 * 64).fill(200);
  const image = `<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /BitsPerComponent 8 /ColorSpace /DeviceGray /Length ${flat.length} >>\nstream\n${Buffer.from(flat).toString('latin1')}\nendstream`;
  const pdf = (hidden: string) =>
    makePdf(`q 612 0 0 792 0 0 cm /Im1 Do Q BT 3 Tr /F1 10 Tf 72 700 Td (${hidden}) Tj ET`, '<< /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >>', [
      image,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]);
  const tiny = analyzePdfSync(pdf('Page 7'), { layerQuality: true }).pages[0];
  assert.equal(tiny.route, 'ocr');
  const q = tiny.evidence.layerQuality!;
  assert.equal(q.signals.incomplete, 'too little text to judge');
  assert.equal(q.signals.textInkMissed, undefined, 'the scan gives no evidence either way');
  assert.equal(q.reocr, true, JSON.stringify(q));
  assert.equal(q.signals.layerTooSmall, true);
  assert.ok(q.score <= 0.75, JSON.stringify(q));
  // the same words as an ocr-layer page's (enough hidden characters to route as one) are kept, not judged: the rule is the route's
  const layer = analyzePdfSync(pdf('Page 7 of the annual report, filed with the registry'), { layerQuality: true }).pages[0];
  assert.equal(layer.route, 'ocr-layer');
  assert.equal(layer.evidence.layerQuality!.reocr, false, JSON.stringify(layer.evidence.layerQuality));
  assert.equal(layer.evidence.layerQuality!.signals.layerTooSmall, undefined);
});

test('text-like missing ink: a dropped line counts, a form frame does not', () => {
  const H = 40;
  // four text lines (rows 5-6, 10-11, 15-16, 20-21, columns 5-34; letters 100, the gaps between them 30) and a frame
  // (rows 24-39, columns 1-39, outline only)
  const line = (r: number) => [5, 10, 15, 20].some((l) => r === l || r === l + 1);
  const frame = (c: number, r: number) => r >= 24 && c >= 1 && c <= 39 && (r === 24 || r === 39 || c === 1 || c === 39);
  const m = inkMapOf(40, H, (c, r) => (line(r) && c >= 5 && c < 35 ? (c % 6 === 5 ? 30 : 100) : frame(c, r) ? 100 : 0));
  const runs = (lines: number[]) => lines.map((l) => runAt('words', 5, 35, l, l + 2, H));
  const all = inkCoverage(m, runs([5, 10, 15, 20]));
  const half = inkCoverage(m, runs([5, 10]));
  // the frame is ink no box covers, but not text: all ink says a part is missing, text-like ink says none
  assert.ok(all.inkMissed > 0.2, JSON.stringify(all));
  assert.ok(all.textInkMissed < 0.02, JSON.stringify(all));
  // two of four lines dropped: half the text ink is missing, the frame still does not count
  assert.ok(Math.abs(half.textInkMissed - 0.5) < 0.05, JSON.stringify(half));
  assert.ok(half.inkMissed > half.textInkMissed, JSON.stringify(half));
  // where: the two dropped lines' boxes in page space (rows 15-16 and 20-21, columns 5-34), the frame never
  assert.deepEqual(all.missed, []);
  assert.deepEqual(half.missed, [
    [5, H - 17, 35, H - 15],
    [5, H - 22, 35, H - 20],
  ]);
});

test('the rim of a shaded area is not missing text: a grey box, shaded bands, a grid of shaded columns', () => {
  // a scan's luminance (paper 230) with three lines of print (rows 5-6, 10-11, 15-16, columns 5-34: letters 90-170,
  // lighter gaps) and a shade drawn under it; the ink map is measured from it as a scan's would be
  const W = 80;
  const H = 60;
  const scan = (shade: (c: number, r: number) => number | undefined): InkMap => {
    const data = new Uint8Array(W * H).fill(230);
    for (let r = 0; r < H; r++)
      for (let c = 0; c < W; c++) {
        const s = shade(c, r);
        if (s !== undefined) data[r * W + c] = s;
      }
    for (const l of [5, 10, 15])
      for (const r of [l, l + 1])
        for (let c = 5; c < 35; c++)
          data[r * W + c] = c % 6 === 5 ? data[r * W + c] - 20 : Math.min(data[r * W + c], 90 + ((c * 7 + r * 3) % 5) * 20);
    return inkMap({ width: W, height: H, data }, [W, 0, 0, H, 0, 0])!;
  };
  const lines = (ls: number[]) => ls.map((l) => runAt('words', 5, 35, l, l + 2, H));
  const shades: [string, (c: number, r: number) => number | undefined][] = [
    ['a grey box on paper', (c, r) => (c >= 40 && c < 75 && r >= 20 && r < 45 ? 140 : undefined)],
    ['bands of two greys', (_c, r) => (r >= 25 ? (Math.floor(r / 8) % 2 ? 200 : 150) : undefined)],
    ['columns of two greys', (c, r) => (r >= 30 ? (Math.floor(c / 10) % 2 ? 110 : 70) : undefined)],
  ];
  for (const [what, shade] of shades) {
    const m = scan(shade);
    // the shade's edges are ink the layer does not cover, shaped like lines, but none of it is text
    const all = inkCoverage(m, lines([5, 10, 15]));
    assert.ok(all.inkMissed > 0.1, `${what}: ${JSON.stringify(all)}`);
    assert.ok(all.textInkMissed < 0.02, `${what}: ${JSON.stringify(all)}`);
    // a line of print the layer left out still counts, beside the shade: a third of the text
    const dropped = inkCoverage(m, lines([5, 10]));
    assert.ok(Math.abs(dropped.textInkMissed - 1 / 3) < 0.05, `${what}: ${JSON.stringify(dropped)}`);
  }
});

test('faint print is ink: a line dropped from a faint scan counts as one dropped from a normal scan; blank grain is no map', () => {
  // block means of a scan (paper 250): three lines of print (rows 5-6, 10-11, 15-16, columns 5-34), their letters up
  // to `dark` below the paper (as print's blocks are, of uneven darkness) and every sixth column a lighter gap; faint
  // print (a sixth of full contrast) is at most 12 below
  const W = 60;
  const H = 30;
  const scan = (dark: number, grain = 0): InkMap | undefined => {
    const data = new Uint8Array(W * H);
    for (let i = 0; i < data.length; i++) data[i] = 250 - (grain ? (i * 7919) % (grain + 1) : 0);
    for (const l of [5, 10, 15])
      for (const r of [l, l + 1])
        for (let c = 5; c < 35; c++) data[r * W + c] = 250 - Math.round((c % 6 === 5 ? 0.25 : 0.6 + 0.1 * ((c * 7 + r * 3) % 5)) * dark);
    return inkMap({ width: W, height: H, data }, [W, 0, 0, H, 0, 0]);
  };
  const lines = (ls: number[]) => ls.map((l) => runAt('words', 5, 35, l, l + 2, H));
  const normal = scan(120)!;
  const faint = scan(12);
  assert.ok(faint, 'a faint scan has a map');
  assert.equal(normal.stretch, 1);
  assert.ok(faint.stretch > 1, JSON.stringify(faint.stretch));
  for (const m of [normal, faint]) {
    assert.ok(inkCoverage(m, lines([5, 10, 15])).textInkMissed < 0.02, `stretch ${m.stretch}`);
    const dropped = inkCoverage(m, lines([5, 10]));
    assert.ok(Math.abs(dropped.textInkMissed - 1 / 3) < 0.05, `stretch ${m.stretch}: ${JSON.stringify(dropped)}`);
    assert.equal(dropped.stretch, m.stretch);
  }
  // a filled shape's samples are solid by the page's ink range, which is stretched as its ink is: faint lines darker
  // than the layer's one line (rows 5-6) are dropped print, not filled shapes (unstretched, the range made nearly every
  // stretched sample solid, and the dropped lines counted as nothing)
  const data = new Uint8Array(W * H).fill(250);
  for (const l of [5, 10, 15])
    for (const r of [l, l + 1])
      for (let c = 5; c < 35; c++)
        data[r * W + c] = 250 - Math.round(12 * (c % 6 === 5 ? 0.25 : (l === 5 ? 0.4 : 0.6) + 0.1 * ((c * 7 + r * 3) % 5)));
  const darker = inkCoverage(inkMap({ width: W, height: H, data }, [W, 0, 0, H, 0, 0])!, lines([5]));
  assert.ok(darker.textInkMissed > 0.6, JSON.stringify(darker));
  // a blank page's grain (within 2 levels) is no ink at all: no map, so nothing is known missing
  assert.equal(scan(0, 2), undefined);
});

test('the rim of a shaded bar whose light labels the layer holds is not missing text: a box beside the rim is its border too', () => {
  // a scan's luminance (paper 230): three lines of print (rows 5-6, 10-11, 15-16, columns 5-34) and a grey bar the
  // width of the page (rows 25-49, luminance 150) holding a row of white labels the map cannot see as ink (rows 40-45),
  // which the layer holds: their boxes reach the row above the bar's lower rim (rows 47-49, LOCAL samples of the
  // paper below). That rim's border is paper below and the labels' boxes above; counted without the boxes it was all
  // paper, and a perfect layer read as more than half its text missing (0.55; a colour chart's light labels)
  const W = 80;
  const H = 60;
  const data = new Uint8Array(W * H).fill(230);
  for (let r = 25; r < 50; r++) data.fill(150, r * W, (r + 1) * W);
  for (const l of [5, 10, 15])
    for (const r of [l, l + 1]) for (let c = 5; c < 35; c++) data[r * W + c] = c % 6 === 5 ? 210 : 90 + ((c * 7 + r * 3) % 5) * 20;
  const m = inkMap({ width: W, height: H, data }, [W, 0, 0, H, 0, 0])!;
  const print = [5, 10, 15].map((l) => runAt('words', 5, 35, l, l + 2, H));
  const labels = [0, 20, 40, 60].map((c) => runAt('labels', c + 2, c + 18, 40, 46, H));
  const all = inkCoverage(m, [...print, ...labels]);
  assert.ok(all.inkMissed > 0.1, JSON.stringify(all));
  assert.ok(all.textInkMissed < 0.02, JSON.stringify(all));
  // a line of print the layer left out still counts: a third of the text
  const dropped = inkCoverage(m, [...print.slice(0, 2), ...labels]);
  assert.ok(Math.abs(dropped.textInkMissed - 1 / 3) < 0.05, JSON.stringify(dropped));
});

test('where text is missing: the blobs with the most ink first, at most MAX_MISSING_REGIONS', () => {
  const W = 200;
  const H = 120;
  // one covered line (rows 2-3) and 40 dropped words, four rows of ten (rows 10-11, 20-21, 30-31, 40-41), word k
  // 3 + k % 7 samples wide at 18-sample pitch
  const word = (c: number, r: number) => {
    const row = [10, 20, 30, 40].findIndex((l) => r === l || r === l + 1);
    if (row < 0 || c % 18 >= 3 + ((row * 10 + Math.floor(c / 18)) % 7) || c >= 180) return -1;
    return row * 10 + Math.floor(c / 18);
  };
  const m = inkMapOf(W, H, (c, r) => ((r === 2 || r === 3) && c < 180 ? 90 : word(c, r) >= 0 ? 90 : 0));
  const q = inkCoverage(m, [runAt('words', 0, 180, 2, 4, H)]);
  assert.equal(q.missed.length, MAX_MISSING_REGIONS);
  // the widest words (9 samples) first, then 8, …: each region's width never grows down the list
  const widths = q.missed.map((r) => r[2] - r[0]);
  assert.equal(widths[0], 9);
  for (let i = 1; i < widths.length; i++) assert.ok(widths[i] <= widths[i - 1], JSON.stringify(widths));
  // every region is a dropped word's box: two rows tall, on a word row
  for (const r of q.missed) {
    assert.equal(r[3] - r[1], 2, JSON.stringify(r));
    assert.ok([10, 20, 30, 40].includes(H - r[3]), JSON.stringify(r));
  }
});

test("where text is missing: a dropped line's words, blobs of their own at block scale, are one region", () => {
  const H = 30;
  // a covered line (rows 2-3) and two dropped ones (rows 10-11 and 20-21), each of eight words five samples wide with
  // two blank columns between them (columns 0-54; letters 90, every third column 40)
  const word = (c: number) => c < 56 && c % 7 < 5;
  const line = (c: number, r: number) => (r === 2 || r === 3 || r === 10 || r === 11 || r === 20 || r === 21) && word(c);
  const m = inkMapOf(60, H, (c, r) => (line(c, r) ? (c % 3 === 2 ? 40 : 90) : 0));
  const q = inkCoverage(m, [runAt('words', 0, 55, 2, 4, H)]);
  assert.ok(Math.abs(q.textInkMissed - 2 / 3) < 0.03, JSON.stringify(q));
  assert.deepEqual(q.missed, [
    [0, H - 12, 54, H - 10],
    [0, H - 22, 54, H - 20],
  ]);
});

test('where text is missing: a map that cannot be inverted gives no regions, never NaN', () => {
  const H = 30;
  const m = inkMapOf(60, H, (c, r) => ((r === 10 || r === 11) && c < 50 ? (c % 6 === 5 ? 30 : 90) : 0));
  // a scan painted flat along y (rows independent of the page's y): its samples have no page box
  m.map = [1, 0, 0, 0, 0, 5];
  const q = inkCoverage(m, [runAt('words', 0, 50, 2, 4, H)]);
  assert.ok(Number.isFinite(q.textInkMissed), JSON.stringify(q));
  assert.deepEqual(q.missed, []);
});

test('where text is missing: a speck of the missing ink under a hundredth of it is counted but not shown', () => {
  const H = 30;
  // a covered line (rows 2-3) and a dropped one (rows 10-11), columns 0-99 (letters 90, every sixth column a gap of 30:
  // an even bar is a rule), and a speck of two samples of 60 (row 20)
  const line = (c: number, r: number) => (r === 2 || r === 3 || r === 10 || r === 11) && c < 100;
  const speck = (c: number, r: number) => r === 20 && (c === 150 || c === 151);
  const covered = [runAt('words', 0, 100, 2, 4, H)];
  const without = inkCoverage(
    inkMapOf(160, H, (c, r) => (line(c, r) ? (c % 6 === 5 ? 30 : 90) : 0)),
    covered,
  );
  const q = inkCoverage(
    inkMapOf(160, H, (c, r) => (line(c, r) ? (c % 6 === 5 ? 30 : 90) : speck(c, r) ? 60 : 0)),
    covered,
  );
  // the speck reads as text (the score counts it) but holds under 1 % of the missing ink: only the line is shown
  assert.ok(q.textInkMissed > without.textInkMissed, JSON.stringify([q, without]));
  assert.deepEqual(q.missed, [[0, H - 12, 100, H - 10]]);
  assert.deepEqual(without.missed, q.missed);
});

test("text-like missing ink: a form's shaded entry box with thick edges is not text, the same box written in is", () => {
  const W = 80;
  const H = 40;
  // text lines (rows 5-6, 10-11, columns 5-74; letters 60, gaps 20) and an entry box (rows 20-27, columns 2-77): edges
  // two samples thick (90), as a scan blurs a ruled box at block scale, and a light shading inside (15). At block
  // scale the box is as dense as the text and much wider than tall: without the frame test it reads as dropped text
  const text = (c: number, r: number) => [5, 10].some((l) => r === l || r === l + 1) && c >= 5 && c < 75;
  const gap = (c: number) => c % 6 === 5;
  const inBox = (c: number, r: number) => r >= 20 && r <= 27 && c >= 2 && c <= 77;
  const edge = (c: number, r: number) => r <= 21 || r >= 26 || c <= 3 || c >= 76;
  // written in: a line of text inside (rows 23-24, letters 90, gaps 30), which the layer left out
  const writing = (c: number, r: number) => (r === 23 || r === 24) && c >= 5 && c < 75;
  const box = (written: boolean) => (c: number, r: number) =>
    text(c, r) ? (gap(c) ? 20 : 60) : !inBox(c, r) ? 0 : edge(c, r) ? 90 : written && writing(c, r) ? (gap(c) ? 30 : 90) : 15;
  const covered = [runAt('words', 5, 75, 5, 7, H), runAt('words', 5, 75, 10, 12, H)];
  const empty = inkCoverage(inkMapOf(W, H, box(false)), covered);
  assert.ok(empty.inkMissed > 0.4, JSON.stringify(empty));
  assert.equal(empty.textInkMissed, 0, JSON.stringify(empty));
  // the box written in holds ink in its inner rows: not a frame, and its ink counts as text left out
  const written = inkCoverage(inkMapOf(W, H, box(true)), covered);
  assert.ok(written.textInkMissed > 0.4, JSON.stringify(written));
});

test('text-like missing ink: solid bars are not text, a dropped bold heading is', () => {
  const H = 40;
  // text lines (rows 5-6, 10-11; ink 40 of 255, 12 in the gaps between letters), three solid bars (columns 6-8, 16-18,
  // 26-28 from row 20 down; 200) and a bold heading (rows 30-31, columns 5-24; 70, 20 in the gaps)
  const text = (c: number, r: number) => (r === 5 || r === 6 || r === 10 || r === 11) && c >= 5 && c < 35;
  const bar = (c: number, r: number) => r >= 20 && r < 28 && [6, 16, 26].some((b) => c >= b && c < b + 3);
  const heading = (c: number, r: number) => (r === 30 || r === 31) && c >= 5 && c < 25;
  const gap = (c: number) => c % 6 === 5;
  const m = inkMapOf(40, H, (c, r) => (text(c, r) ? (gap(c) ? 12 : 40) : bar(c, r) ? 200 : heading(c, r) ? (gap(c) ? 20 : 70) : 0));
  const covered = [runAt('words', 5, 35, 5, 7, H), runAt('words', 5, 35, 10, 12, H)];
  const q = inkCoverage(m, covered);
  // the bars (3 × 8 × 3 samples of 200) are uncovered ink but not text; the heading is the only text missing
  assertTextMissed(q, m, heading, text);
  assert.ok(q.inkMissed > 0.5, JSON.stringify(q));
});

test('text-like missing ink: a black title bar with white type is a filled shape, not text; a dropped bold heading still counts', () => {
  const W = 80;
  const H = 40;
  // text lines (rows 5-6, 10-11, columns 5-74; letters 60, gaps 20); a black title bar (rows 20-23, columns 2-77; 200,
  // lighter where its white type cuts it: 90 in every sixth column); a bold heading dropped from the layer (rows
  // 30-31, columns 5-44; 90, gaps 30). The map's paper is 230 and its darkest blocks 40: solid is 0.6 × 190 = 114 or
  // more. The bar is dense and far wider than tall, the shape of a line of bold type
  const text = (c: number, r: number) => [5, 10].some((l) => r === l || r === l + 1) && c >= 5 && c < 75;
  const bar = (c: number, r: number) => r >= 20 && r <= 23 && c >= 2 && c <= 77;
  const heading = (c: number, r: number) => (r === 30 || r === 31) && c >= 5 && c < 45;
  const gap = (c: number) => c % 6 === 5;
  const m = inkMapOf(W, H, (c, r) => (text(c, r) ? (gap(c) ? 20 : 60) : bar(c, r) ? (gap(c) ? 90 : 200) : heading(c, r) ? (gap(c) ? 30 : 90) : 0));
  const q = inkCoverage(m, [runAt('words', 5, 75, 5, 7, H), runAt('words', 5, 75, 10, 12, H)]);
  // the heading is the only text missing; the bar is most of the uncovered ink
  assertTextMissed(q, m, heading, text);
  assert.ok(q.inkMissed > 0.6, JSON.stringify(q));
});

test('text-like missing ink: on a page of text alone a dropped paragraph of dense type is text, not a filled shape', () => {
  const W = 80;
  const H = 40;
  // body lines (rows 5-6 and 10-11, columns 5-74) and a paragraph the layer left out (three lines, rows 20-21, 23-24
  // and 26-27), the same type: letters 100, a third of them 120, 40 in the gaps. No graphics: the page's darkest blocks are
  // its text (230 - 120), so by the page's range alone (0.6 × 120 = 72) five samples in six of the paragraph are solid
  const line = (c: number, r: number) => [5, 10, 20, 23, 26].some((l) => r === l || r === l + 1) && c >= 5 && c < 75;
  const dropped = (c: number, r: number) => line(c, r) && r >= 20;
  const m = inkMapOf(W, H, (c, r) => (!line(c, r) ? 0 : c % 6 === 5 ? 40 : c % 3 ? 100 : 120), 110);
  const q = inkCoverage(m, [runAt('words', 5, 75, 5, 7, H), runAt('words', 5, 75, 10, 12, H)]);
  // the paragraph is three fifths of the text, all of it missing
  assertTextMissed(q, m, dropped, (c, r) => line(c, r) && r < 20);
});

test('text-like missing ink: a rule and a logo in large type are not dropped text, a dropped line of the same width is', () => {
  const H = 60;
  // body text (rows 5-6, 10-11, 15-16; letters 60, gaps 20); a rule (row 25, columns 2-37, 80 all along); a logo in
  // large type (rows 30-39, columns 5-24: one line ten rows tall, strokes 60 and gaps 20); a third text line dropped
  // from the layer (rows 50-51, like the body)
  const body = (c: number, r: number) => [5, 10, 15, 50].some((l) => r === l || r === l + 1) && c >= 5 && c < 35;
  const rule = (c: number, r: number) => r === 25 && c >= 2 && c < 38;
  const logo = (c: number, r: number) => r >= 30 && r < 40 && c >= 5 && c < 25;
  const gap = (c: number) => c % 6 === 5;
  const m = inkMapOf(40, H, (c, r) => (body(c, r) || logo(c, r) ? (gap(c) ? 20 : 60) : rule(c, r) ? 80 : 0));
  const q = inkCoverage(
    m,
    [5, 10, 15].map((l) => runAt('words', 5, 35, l, l + 2, H)),
  );
  // only the dropped line is missing text: a quarter of the body's ink, and its box (rows 50-51) the only region
  assert.ok(Math.abs(q.textInkMissed - 0.25) < 0.03, JSON.stringify(q));
  assert.ok(q.inkMissed > 0.5, JSON.stringify(q));
  assert.deepEqual(q.missed, [[5, H - 52, 35, H - 50]]);
});

test('nonWords: on a page that reads likeliest as Latin languages, Cyrillic words are judged under Russian', () => {
  // a Russian manual page of paths and commands: more Latin letters than Cyrillic, so the page's two likeliest
  // languages are Latin ones; its Russian words are right and must not read as non-words (the paths' parts may)
  const paths = '/usr/share/man/index.bt /var/cache/man/index.db /usr/share/man/whatis mandb apropos whatis manpath';
  const text = `${paths} ${paths} глобальный данных традиционная страница просмотра справочных страниц описание команды программы руководство использование`;
  const layer = layerOf(text.split(' '), () => 5);
  const q = layerQuality({ layer, which: 'invisible' });
  assert.notEqual(q.signals.language, 'ru', JSON.stringify(q.signals));
  // twelve right words added to the paths can only lower the share of non-words the paths alone have
  const paths2 = layerQuality({ layer: layerOf(`${paths} ${paths}`.split(' '), () => 5), which: 'invisible' });
  assert.ok((q.signals.nonWords as number) < (paths2.signals.nonWords as number), `${q.signals.nonWords} < ${paths2.signals.nonWords}`);
  // each Russian word's likelihood (the preview's colour) is that of a word (under Latin models alone, ten bits a
  // letter: 0), and most are over ½
  const russian = layer.runs.filter((r) => /[а-я]/.test(r.text));
  assert.equal(russian.length, 12);
  for (const r of russian) assert.ok(r.likelihood! > 0.3, `${r.text} ${r.likelihood}`);
  assert.ok(russian.filter((r) => r.likelihood! > 0.5).length >= 8);
});

test('nonWords: words that read like no language of the page rise with the OCR damage; tokens with digits are not judged', () => {
  const q = (s: string) => layerQuality({ layer: layerOf(s.split(' '), () => 5), which: 'invisible' });
  const clean = q('Everyone has the right to take part in the government of his country, directly or through freely chosen representatives.');
  const light = q('Evcryonc lias tlie riglit to takc part iu tbe govermnent of liis conntry, dircctly or tbrougb frccly cbosen reprcsentatives.');
  const heavy = q('Evexyqne hqs tke righf tq tnke pxrt ib tbe gqvernmcnt qf hjs cqunfry, dirgctly qr thxough frggly chqsen repwesentatives.');
  assert.equal(clean.signals.nonWords, 0, JSON.stringify(clean.signals));
  assert.ok((light.signals.nonWords as number) > 0.1 && (light.signals.nonWords as number) < 0.4, JSON.stringify(light.signals));
  assert.ok((heavy.signals.nonWords as number) > 0.6, JSON.stringify(heavy.signals));
  assert.ok(heavy.score < light.score && light.score <= clean.score, `${heavy.score} < ${light.score} <= ${clean.score}`);
  // more non-words than a usable layer has: re-OCR whatever the boxes say (they fit perfectly here)
  assert.equal(heavy.reocr, true);
  const codes = q('Everyone has the right to take part, ID f74c2df1-792d-42fd-9f37 x86_64 v2.3.1 0x7ffe');
  assert.equal(codes.signals.nonWords, 0, JSON.stringify(codes.signals));
});

test('nonWords judges the words of the page text, not glyph runs: a file that places glyphs one by one still has words', () => {
  // the text of a font whose codes are shifted by one letter ("Proceedings of the ..."), each glyph its own run
  const text = 'Opnbddchmfr ne sgd Zmmtzk Lddshmf ne sgd Zrrnbhzshnm enq Bnlotszshnmzk Khmftzrshbr zmc sgd Hmsdqmzshnmzk Bnmedqdmbd';
  const runs: GlyphRun[] = [...text.replace(/ /g, '')].map((ch, i) => ({
    text: ch,
    rect: [72 + i * 6, 700, 78 + i * 6, 710],
    visibility: 'visible',
    font: 'F1',
    size: 10,
    hScale: 1,
    chars: 1,
  }));
  const shifted = layerQuality({ layer: { runs, runCount: runs.length, text }, which: 'visible' });
  assert.ok((shifted.signals.nonWords as number) > 0.5, JSON.stringify(shifted.signals));
  assert.equal(shifted.reocr, true, JSON.stringify(shifted.signals));
});

test('widthSpread: a right layer fits its boxes in a proportional typeface or at a fixed pitch; other words fit neither', () => {
  const words =
    'everyone has the right to freedom of opinion and expression this right includes freedom to hold opinions without interference and to seek receive and impart information and ideas through any media regardless of frontiers'.split(
      ' ',
    );
  const spread = (layer: TextLayer) => layerQuality({ layer, which: 'invisible' }).signals.widthSpread as number;
  // proportional print: each box as wide as its letters in Helvetica (layerOf)
  const proportional = layerOf(words, () => 5);
  // a typewriter's (Courier's) print: every character 6 points
  const fixed: TextLayer = {
    ...proportional,
    runs: proportional.runs.map((r) => ({ ...r, rect: [r.rect[0], r.rect[1], r.rect[0] + 6 * r.text.length, r.rect[3]] })),
  };
  assert.ok(spread(proportional) < 0.01, `proportional ${spread(proportional)}`);
  assert.ok(spread(fixed) < 0.01, `fixed pitch ${spread(fixed)}`);
  // the same boxes holding the words of the next box (another line's words, letters lost or gained): neither fits
  const shifted = (layer: TextLayer): TextLayer => ({
    ...layer,
    runs: layer.runs.map((r, i) => ({ ...r, text: layer.runs[(i + 1) % layer.runs.length].text })),
  });
  assert.ok(spread(shifted(proportional)) > 0.2, `proportional boxes, other words ${spread(shifted(proportional))}`);
  assert.ok(spread(shifted(fixed)) > 0.2, `fixed-pitch boxes, other words ${spread(shifted(fixed))}`);
  // words that lost their vowels to a coarse scan ("information" read "nfrmtn"): shorter than their boxes say, by
  // more in some words than in others
  const lost = (layer: TextLayer): TextLayer => ({
    ...layer,
    runs: layer.runs.map((r) => ({ ...r, text: r.text.length > 3 ? r.text.replace(/[aeiou]/g, '') : r.text })),
  });
  assert.ok(spread(lost(proportional)) > 0.1, `letters lost ${spread(lost(proportional))}`);
});

test("boxSlack and boxOverflow count the boxes' misfit in characters: letters a box holds beyond its word, and a word beyond its box", () => {
  const words = (
    'everyone has the right to freedom of opinion and expression this right includes freedom to hold opinions without ' +
    'interference and to seek receive and impart information and ideas through any media regardless of frontiers'
  ).split(' ');
  const signals = (layer: TextLayer) => layerQuality({ layer, which: 'invisible' }).signals;
  const chars = (layer: TextLayer) => layer.runs.reduce((n, r) => n + r.text.length, 0);
  const right = layerOf(words, () => 5);
  const ok = signals(right);
  assert.equal(ok.boxSlack, 0, JSON.stringify(ok));
  assert.equal(ok.boxOverflow, 0, JSON.stringify(ok));
  // every fourth long word read as its first two letters in the box of the whole word (a coarse scan, leader dots read
  // short): the boxes hold about the letters dropped, and no word outgrows its box
  const cut = (r: GlyphRun, i: number) => i % 4 === 0 && r.text.length >= 6;
  const short: TextLayer = { ...right, runs: right.runs.map((r, i) => (cut(r, i) ? { ...r, text: r.text.slice(0, 2), chars: 2 } : r)) };
  const dropped = right.runs.reduce((n, r, i) => n + (cut(r, i) ? r.text.length - 2 : 0), 0) / chars(short);
  const s = signals(short);
  assert.ok(dropped > 0.05, `dropped ${dropped}`);
  assert.ok((s.boxSlack as number) > 0.5 * dropped && (s.boxSlack as number) < 1.5 * dropped, `${dropped} ${JSON.stringify(s)}`);
  assert.equal(s.boxOverflow, 0, JSON.stringify(s));
  // no scan to read, and still text known missing: the boxes tell it
  assert.ok((s.textMissing as number) > 0, JSON.stringify(s));
  assert.ok((s.estimatedCer as number) > (ok.estimatedCer as number), `${JSON.stringify(s)} ${JSON.stringify(ok)}`);
  // every fourth long word written twice into its box: the letters beyond what the box holds
  const twice: TextLayer = { ...right, runs: right.runs.map((r, i) => (cut(r, i) ? { ...r, text: r.text + r.text, chars: 2 * r.chars } : r)) };
  const added = right.runs.reduce((n, r, i) => n + (cut(r, i) ? r.text.length : 0), 0) / chars(twice);
  const t = signals(twice);
  assert.ok((t.boxOverflow as number) > 0.5 * added && (t.boxOverflow as number) < 1.5 * added, `${added} ${JSON.stringify(t)}`);
  assert.equal(t.boxSlack, 0, JSON.stringify(t));
  assert.ok((t.textError as number) > (ok.textError as number), `${JSON.stringify(t)} ${JSON.stringify(ok)}`);
});

test('boxes out of all proportion (a hostile file) leave every signal a finite number', () => {
  const words = 'everyone has the right to freedom of opinion and expression this right includes freedom to hold opinions'.split(' ');
  const layer = layerOf(words, () => 5);
  const odd = (text: string, width: number, size: number): GlyphRun => ({
    ...layer.runs[0],
    text,
    rect: [0, 0, width, 10],
    size,
    chars: text.length,
  });
  // a ratio that overflows (a width near the largest double over a size near the smallest) and one e^60 off
  const runs = [...layer.runs, odd('absurd', 1e308, 1e-300), odd('huge', 1e30, 10)];
  const q = layerQuality({ layer: { runs, runCount: runs.length, text: `${layer.text} absurd huge` }, which: 'invisible' });
  for (const [k, v] of Object.entries(q.signals)) if (typeof v === 'number') assert.ok(Number.isFinite(v), `${k} ${v}`);
  assert.equal(q.signals.boxSlack, 0, JSON.stringify(q.signals));
});

test('widthSpread measures a run along its baseline: a table turned by 90° fits its boxes as the same table upright', () => {
  const words = 'Serial Contract Description Method Procurement Contractor Suppliers Amount Currency Signed Date Number Total'.split(' ');
  const upright = layerOf(words, (w) => 5 + (w.length % 3) * 0.1);
  // the same runs turned: one font size wide (the glyph box across the baseline), as long as before up the page
  const turned: TextLayer = {
    ...upright,
    runs: upright.runs.map((r) => ({ ...r, rect: [r.rect[1], r.rect[0], r.rect[1] + r.size, r.rect[2]] })),
  };
  const a = layerQuality({ layer: upright, which: 'invisible' });
  const b = layerQuality({ layer: turned, which: 'invisible' });
  assert.equal(b.signals.widthSpread, a.signals.widthSpread, `${JSON.stringify(a.signals)} ${JSON.stringify(b.signals)}`);
  assert.ok((a.signals.widthSpread as number) < 0.05, JSON.stringify(a.signals));
});

test('too little text to judge: never a confident keep, and re-OCR only on glyphs that do not decode', () => {
  const q = (s: string) => layerQuality({ layer: layerOf(s.split(' '), () => 5), which: 'invisible' });
  // a page number, a lone name the models do not know, a row of digits: no evidence either way
  for (const s of ['7', 'Clownfish', '1 2 3 4 5 6 7 8', 'A B 1']) {
    const r = q(s);
    assert.equal(r.signals.incomplete, 'too little text to judge', s);
    assert.ok(r.score <= 0.75, `${s}: ${r.score}`);
    assert.equal(r.reocr, false, `${s}: ${JSON.stringify(r.signals)}`);
  }
  // glyphs that decode to nothing usable are a broken layer however short
  const broken = q('\ufffd\ufffd \ufffd\ufffd\ufffd 78');
  assert.equal(broken.signals.incomplete, 'too little text to judge');
  assert.equal(broken.reocr, true, JSON.stringify(broken.signals));
  assert.ok(broken.score < 0.75, `undecodable characters are known errors: ${broken.score}`);
  // no word statistics are made of a handful of words: the page shows its letters and its shares of characters
  const short = q('Table 3 ID f74c2df1-792d-42fd-9f37 x86_64 v2.3.1');
  assert.equal(short.signals.incomplete, 'too little text to judge');
  assert.equal(short.signals.letters, 11, JSON.stringify(short.signals));
  for (const k of ['language', 'nonWords', 'widthSpread', 'garbled', 'estimatedCer', 'textError'])
    assert.equal(short.signals[k], undefined, `${k}: ${JSON.stringify(short.signals)}`);
  assert.equal(short.signals.badShare, 0);
  assert.equal(short.score, 0.75);
  // single letters are no words either: 30 of them are too little text too, however long the page
  const letters = q('a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d');
  assert.equal(letters.signals.incomplete, 'too little text to judge', JSON.stringify(letters.signals));
  assert.equal(letters.signals.letters, 0);
  // the letters are the models' letters: a ligature is two of them (NFKC), so ten make ten words and 20 letters
  // (fi, st, ij, fl, lj twice: no letter is half of them, see the one-letter text below)
  const ligatures = q(['\ufb01', '\ufb06', '\u0133', '\ufb02', '\u01c9', '\ufb01', '\ufb06', '\u0133', '\ufb02', '\u01c9'].join(' '));
  assert.equal(ligatures.signals.letters, 20, JSON.stringify(ligatures.signals));
  assert.equal(ligatures.signals.incomplete, undefined, JSON.stringify(ligatures.signals));
  // ten of one ligature are 20 letters too, half of them f: no language's text
  assert.match(String(q(Array(10).fill('\ufb01').join(' ')).signals.incomplete), /^not a language's text: 50 %/);
  // nor is a heading or a label: fewer than ten words, however long
  const heading = q('Typewriter text, modified text, explanation text');
  assert.equal(heading.signals.incomplete, 'too little text to judge', JSON.stringify(heading.signals));
  assert.equal(heading.signals.words, 6);
  assert.equal(heading.signals.nonWords, undefined);
});

test("a page with little ASCII text counts its letters and words as the language models' ids do (wordCounts)", () => {
  const q = (s: string) => layerQuality({ layer: layerOf(s.split(' '), () => 5), which: 'invisible' });
  // words of one letter, edges and inner punctuation, digits inside and beside words, hyphens, a last word of two
  // letters, and a page longer than the models read (wordCounts reads the first MAX_CHARS characters: the words
  // after them are not counted)
  const texts = [
    'Original page 0',
    "KEY INVESTOR INFORMATION (don't) x86_64 A-B-C e.g. U.S. 2nd ab",
    'a b c d e f g h i j k l m n o p',
    '--- ** [Bug] 766086: relative-links/anchors ok',
    `${'7 '.repeat(10_100)}three words here`,
  ];
  for (const s of texts) {
    const r = q(s);
    assert.equal(r.signals.incomplete, 'too little text to judge', s.slice(0, 60));
    const c = wordCounts(s);
    assert.deepEqual({ letters: r.signals.letters, words: r.signals.words }, c, s.slice(0, 60));
  }
  assert.deepEqual(wordCounts(texts[4]), { letters: 0, words: 0 }, 'the words past the first 20,000 characters are not counted');
});

test("a page with little ASCII text shows charSignals' shares of symbols and undecodable characters", () => {
  const q = (s: string) => layerQuality({ layer: layerOf(s.split(' '), () => 5), which: 'invisible' });
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  // symbols, DEL (undecodable), a tab and a control character (neither counted), digits and letters, and a page
  // longer than the shares are counted on (charSignals reads the first 20,000 characters)
  const texts = ['Fig. 3 (b) — see §2', 'ab\x7f cd #$% ~~~ x\ty \x01z', '*** [ok] 42 {x}', `${'# '.repeat(10_100)}ab cd`];
  for (const s of texts) {
    const r = q(s);
    assert.equal(r.signals.incomplete, 'too little text to judge', s.slice(0, 60));
    const c = charSignals(s);
    assert.deepEqual([r.signals.symbolShare, r.signals.badShare], [r3(c.symbolShare), r3(c.badShare)], JSON.stringify(s.slice(0, 60)));
  }
  assert.ok(
    Number(q(texts[1]).signals.badShare) > 0 && Number(q(texts[2]).signals.symbolShare) > 0,
    'the texts hold undecodable characters and symbols',
  );
  // the rule itself (chars.ts ASCII_SHARE): of 'abc', DEL, '~~' and '#' (a tab and U+0001 not counted), DEL is undecodable and '~', '~', '#' symbols
  const c = charSignals('abc\x7f~~\t\x01#');
  assert.deepEqual([c.symbolShare, c.badShare], [3 / 7, 1 / 7]);
});

test('a script none of the models knows is not judged by its words: neither a confident keep nor a re-OCR', () => {
  const q = (words: string[]) => layerQuality({ layer: layerOf(words, () => 5), which: 'invisible' });
  const zh =
    '数字交互 时代 数字拟人品 兼具了 拟人产品 互动性 数字产品 数字技术 内核以及 自身内容化 表现出跃迁式 成长特征 但其概念 内涵不甚清晰'.split(' ');
  const r = q(zh);
  assert.equal(r.signals.unmodeled, 1, JSON.stringify(r.signals));
  assert.match(String(r.signals.incomplete), /^language not modelled/);
  assert.ok(r.score <= 0.75 && !r.reocr, JSON.stringify(r));
  // glyphs that do not decode still make it a broken layer
  const broken = q([...zh, '\ufffd\ufffd\ufffd']);
  assert.equal(broken.reocr, true, JSON.stringify(broken.signals));
  // a Latin-script page keeps being judged
  assert.equal(q('the committee met on tuesday morning to review the annual budget and agreed'.split(' ')).signals.incomplete, undefined);
});

test("text that is no language's (one letter over and over) is not judged by its words either", () => {
  const q = (words: string[]) => layerQuality({ layer: layerOf(words, () => 5), which: 'invisible' });
  // a test page of "aaaa…", one letter in seven replaced: its words are "non-words", and say nothing of its errors
  let k = 0;
  const aaa = Array.from({ length: 12 }, () => Array.from({ length: 9 }, () => (k++ % 7 === 3 ? 'bxqzmtr'[k % 7] : 'a')).join(''));
  const r = q(aaa);
  assert.match(String(r.signals.incomplete), /^not a language's text: 8\d % of the letters are one letter/, JSON.stringify(r.signals));
  assert.ok(r.score <= 0.75 && !r.reocr, JSON.stringify(r));
  // a language's text, even garbled, keeps being judged: its commonest letter is under a fifth of its letters
  const caesar = 'the committee met on tuesday morning to review the annual budget and agreed'
    .split(' ')
    .map((w) => w.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 3) % 26) + 97)));
  const judged = q(caesar);
  assert.equal(judged.signals.incomplete, undefined, JSON.stringify(judged.signals));
  assert.equal(judged.reocr, true);
  // and so does the one-letter page once most of it is garbled: half its letters no longer the one
  const garbled = q(aaa.map((w, i) => (i % 2 ? w.replace(/a/g, (_, j: number) => 'qwrtzpsdfghjklm'[(i + j) % 15]) : w)));
  assert.equal(garbled.signals.incomplete, undefined, JSON.stringify(garbled.signals));
});

// nonWords reads words in place, character by character; what a word is, is written here the way it was first
// written, with regular expressions: tokens split at white space, edges' non-letters stripped, tokens with a number
// left out, parts at hyphens and slashes, parts of 2+ letters and nothing else judged
test('nonWords reads words as the regular expressions say', () => {
  const spec = (runs: string[], a: Language, b: Language): number => {
    let words = 0;
    let non = 0;
    for (const r of runs)
      for (const token of r.split(/\s+/)) {
        const t = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
        if (!t || /\p{N}/u.test(t)) continue;
        for (const part of t.split(/[-/]/)) {
          if (!/\p{L}/u.test(part)) continue;
          words++;
          // a Cyrillic word on a page whose two likeliest languages are Latin ones is judged under Russian and the likeliest
          const [x, y]: Language[] = /[\u0400-\u04ff]/u.test(part) && a !== 'ru' && b !== 'ru' ? ['ru', a] : [a, b];
          if (/^\p{L}{2,}$/u.test(part) && wordBits(part, x, y) > NONWORD_BITS) non++;
        }
      }
    return words ? Math.round((non / words) * 1000) / 1000 : 0;
  };
  const texts = [
    'Evexyqne hqs tke righf tq tnke pxrt ib tbe gqvernmcnt qf hjs cqunfry',
    '(anjpicdbon) «corilfralk» "quoted" don\'t o\'clock x-ray/gamma --flag path/to/file a--b -/- ...',
    'İstanbul ΣΟΦΊΑΣ Straße ẞIG Ǆemal ЗАГЛАВНЫЕ строчные KOMAaHAbI HA3BAHME',
    'ID f74c2df1-792d-42fd-9f37 x86_64 v2.3.1 0x7ffe Ⅻ ½ ٣abc ²nd',
    'emoji😀word 𝐁𝐨𝐥𝐝 lone\ud800sur e\u0301te ﬁnance\u00a0œuvre\u2003qwxz\u3000zzkq',
    '\t\n  rt nal fn tye gales anid  ',
  ];
  for (const t of texts) {
    const runs = [t, ...t.split(' ')];
    const q = layerQuality({ layer: layerOf(runs, () => 5), which: 'invisible' });
    const lang = languageEvidence(runs.join(' '));
    assert.equal(q.signals.nonWords, spec(runs, lang.language, lang.second), JSON.stringify(t));
  }
});

test('word shape: capitals after small letters and digits between letters are garbled words; mixed-language pages read under either language', () => {
  const clean = 'The passwd command changes passwords for user accounts. A normal user may only change the password for their own account.';
  const garble = 'Nonb30satenbckue KOMAaHAbI HA3BAHME 3MeHseT Naponb nonb3oBaTena CVUHTAKCUC napamerppi YYETHAA OnUCAHKE';
  const words = (s: string) => s.split(' ');
  const q = (s: string) => layerQuality({ layer: layerOf(words(s), () => 5), which: 'invisible' });
  const qc = q(clean);
  const qg = q(`${clean} ${garble}`);
  assert.equal(qc.signals.garbled, 0, JSON.stringify(qc.signals));
  assert.ok((qg.signals.garbled as number) >= 0.15, JSON.stringify(qg.signals));
  assert.ok(qg.score < qc.score, `${qg.score} < ${qc.score}`);
  // "iPhone" style capitals after a small letter are rare; digits around letters ("2nd", "x86", "A4") are not garbled
  assert.equal(q('the 2nd edition of the x86 manuals on A4 paper is here today').signals.garbled, 0);
  // half English, half Russian: word-like under either language is more than under the likeliest alone
  const mixed = languageEvidence(
    'the command changes passwords for user accounts Каждый человек имеет право на свободу убеждений и на свободное выражение',
  );
  assert.ok(mixed.wordLikeEither > mixed.wordLike + 0.2, JSON.stringify(mixed));
});

test('each scored run gets a likelihood: words high, shifted letters low, undecodable glyphs 0, no letters none', () => {
  const words = 'everyone has the right to freedom of opinion and expression 1948 \ufffd\ufffd'.split(' ');
  const shifted = ['hyhub', 'kdv', 'wkh', 'uljkw'];
  const layer = layerOf([...words, ...shifted], () => 5);
  layerQuality({ layer, which: 'invisible' });
  const like = (t: string) => layer.runs.find((r) => r.text === t)?.likelihood;
  for (const w of ['everyone', 'right', 'freedom', 'opinion', 'expression']) assert.ok(like(w)! > 0.5, `${w} ${like(w)}`);
  for (const w of shifted) assert.ok(like(w)! < 0.5, `${w} ${like(w)}`);
  assert.equal(like('\ufffd\ufffd'), 0);
  assert.equal(like('1948'), undefined);
});

test('a text page reads a scan for its ink only when images cover it as a scan covers an OCR layer', (t) => {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'corpus', 'real');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.pdf'));
  } catch {
    t.skip('../shared/corpus is absent');
    return;
  }
  let small = 0;
  let covered = 0;
  for (const n of names) {
    const bytes = readFileSync(join(dir, n));
    if (bytes.length > 300_000) continue;
    for (const p of analyzePdfSync(new Uint8Array(bytes), { layerQuality: true }).pages) {
      const q = p.evidence.layerQuality;
      if (!q || p.route !== 'text') continue;
      if (p.evidence.imageCoverage < 0.8) {
        // a photo or a figure beside born-digital text is no witness of that text's ink
        assert.equal(q.signals.image, 'no scan image', `${n} p${p.page}`);
        assert.equal(q.signals.inkCovered, undefined, `${n} p${p.page}`);
        if (p.evidence.imageCount > 0) small++;
      } else if (typeof q.signals.inkCovered === 'number') covered++;
    }
  }
  assert.ok(small > 10, `text pages with small images checked: ${small}`);
  t.diagnostic(`text pages with small images: ${small}; scanned text pages read for ink: ${covered}`);
});

test("runs cut by a limit are not matched to the scan: our own limit never reads as the layer's missing text", () => {
  // the e2e fixture's page 1: a good layer of 74 runs over the whole paragraph (test/fixtures/e2e/README.md)
  const bytes = new Uint8Array(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'e2e', 'layer-quality.pdf')));
  const whole = analyzePdfSync(bytes, { layerQuality: true, textLayer: true }).pages[0].evidence;
  assert.equal(whole.layerQuality!.reocr, false);
  assert.equal(whole.layerQuality!.signals.textInkMissed, 0);
  // with 20 runs kept, the other 54 words' ink has no run over it: not text missing, but evidence cut short
  const cut = analyzePdfSync(bytes, { layerQuality: true, textLayer: true, maxTextRunsPerPage: 20 }).pages[0].evidence;
  assert.equal(cut.textLayer!.runs.length, 20);
  const q = cut.layerQuality!;
  assert.equal(q.reocr, false, JSON.stringify(q));
  assert.ok(q.score <= 0.75, 'never a confident keep either');
  assert.equal(q.signals.incomplete, 'text layer cut by a limit: more glyph runs than maxTextRunsPerPage');
  assert.equal(q.signals.textInkMissed, undefined);
  assert.match(String(q.signals.image), /a limit cut the layer's runs/);
  assert.equal(cut.textLayer!.missingText, undefined);
});

test("the letter shapes bound the text's error: words on the scan's ink that agree with its shapes not at all are not its words", () => {
  // a layer whose words read and fit their boxes as a good layer's do (another page's text, or lines shuffled into
  // other lines' boxes): the text signals alone keep it
  const text = { widthSpread: 0.04, garbled: 0, nonWords: 0.05, textInkMissed: 0 };
  const agree = estimateError({ ...text, letterShapes: 0.45, capitals: 0.05, boxesOnInk: 1 });
  assert.ok(agree.cer < REOCR_CER, JSON.stringify(agree));
  const none = estimateError({ ...text, letterShapes: 0.005, capitals: 0.05, boxesOnInk: 1 });
  assert.ok(none.text >= UNLIKE_SCAN.error && none.cer > REOCR_CER, JSON.stringify(none));
  // below the floor, agreement against the scan counts as none
  assert.equal(unlikeScanError({ letterShapes: -0.2, capitals: 0.05, boxesOnInk: 1 }), UNLIKE_SCAN.error);
  // not on words mostly in capitals (a code listing, a table of names: no x-height band to agree with), nor when the
  // boxes miss the ink (the shapes under them are not the words'), nor without the letter shapes or the boxes' witness
  assert.equal(unlikeScanError({ letterShapes: 0.005, capitals: 0.9, boxesOnInk: 1 }), 0);
  assert.equal(unlikeScanError({ letterShapes: 0.005, capitals: 0.05, boxesOnInk: 0.88 }), 0);
  // nor on faint print, whose strokes barely stand out of the paper at letter scale
  assert.equal(unlikeScanError({ letterShapes: 0.005, capitals: 0.05, boxesOnInk: 1, faintPrint: true }), 0);
  assert.equal(unlikeScanError({ letterShapes: 0.005, capitals: 0.05 }), 0);
  assert.equal(unlikeScanError({ capitals: 0.05, boxesOnInk: 1 }), 0);
  assert.equal(unlikeScanError({ letterShapes: 0.03, capitals: 0.05, boxesOnInk: 1 }), 0);
  const caps = estimateError({ ...text, letterShapes: 0.005, capitals: 0.9, boxesOnInk: 1 });
  assert.ok(caps.text < UNLIKE_SCAN.error, JSON.stringify(caps));
});
