// JBIG2Decode (layerQuality/jbig2.ts): segments composed into the page, with jbig2Regions.ts and jbig2Symbols.ts doing
// the regions' coding (their own tests check those procedures); here the segment glue: page information, region
// placement and combination operators, unknown lengths, MMR, intermediate regions and refinement, globals, and what is
// refused. Streams are built by scripts/jbig2-segments.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJbig2, decodeJbig2Globals } from '../src/analyzer/layerQuality/jbig2';
import { type Bitmap, newBitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import { analyzePdfSync } from '../src/analyzer/index';
import { prng } from '../scripts/fuzz';
import { MqEncoder, encodeRefinement } from '../scripts/jbig2-encoder';
import {
  genericRegionData,
  jbig2HuffmanPageStream,
  mmrRegionData,
  pageInfo,
  regionInfo,
  segment,
  unknownLengthData,
} from '../scripts/jbig2-segments';
import { encodeSymbolDictionary, encodeTextRegion } from '../scripts/jbig2-symbol-encoder';
import { pdfOf, printInk, printScanPdf } from './pdf-helpers';

const never = () => false;
const T0 = {
  template: 0 as const,
  tpgdon: false,
  at: [
    { x: 3, y: -1 },
    { x: -3, y: -1 },
    { x: 2, y: -2 },
    { x: -2, y: -2 },
  ],
};
const T2 = { template: 2 as const, tpgdon: true, at: [{ x: 2, y: -1 }] };

/** a bitmap of "print": strokes 2 pixels wide every 5, in rows of 6 with a gap, offset by `seed` */
function print(width: number, height: number, seed = 0): Bitmap {
  const b = newBitmap(width, height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) b.data[y * width + x] = (x + seed) % 5 < 2 && (y + seed) % 8 < 6 ? 1 : 0;
  return b;
}

const stream = (...segs: number[][]) => new Uint8Array(segs.flat());
const decode = (data: Uint8Array, w: number, h: number, globals?: Uint8Array) => {
  const g = globals ? decodeJbig2Globals(globals, w, h, 4 * w * h, never) : undefined;
  assert.ok(!g || g.ok, g && !g.ok ? g.error : '');
  const r = decodeJbig2(data, g?.ok ? g.globals : undefined, w, h, 4 * w * h, never);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.page;
};

test('generic regions are placed where their information field says and combined by their operator', () => {
  const a = print(30, 20);
  const b = print(12, 9, 3);
  const page = decode(
    stream(
      segment(0, 48, pageInfo(40, 30)),
      segment(1, 38, genericRegionData(a, 5, 4, 0, T0)),
      segment(2, 39, genericRegionData(b, 20, 15, 2, T2)),
      segment(3, 49, []),
    ),
    40,
    30,
  );
  const want = new Uint8Array(40 * 30);
  for (let y = 0; y < 20; y++) for (let x = 0; x < 30; x++) want[(y + 4) * 40 + x + 5] = a.data[y * 30 + x];
  // the second region XORs into the first, clipped at the page's edge
  for (let y = 0; y < 9; y++) for (let x = 0; x < 12; x++) if (y + 15 < 30) want[(y + 15) * 40 + x + 20] ^= b.data[y * 12 + x];
  assert.deepEqual([...page.data], [...want]);
  // default pixel 1: the page starts black, and OR leaves it so
  const black = decode(stream(segment(0, 48, pageInfo(8, 8, 1)), segment(1, 38, genericRegionData(print(4, 4), 0, 0, 0, T0))), 8, 8);
  assert.ok(black.data.every((v) => v === 1));
});

test('an unknown-length generic region ends at its marker and row count; an MMR region is read as Group 4', () => {
  const a = print(33, 17, 1);
  const page = decode(
    stream(segment(0, 48, pageInfo(33, 17)), segment(1, 38, unknownLengthData(genericRegionData(a, 0, 0, 4, T0), 17), [], { unknownLength: true })),
    33,
    17,
  );
  assert.deepEqual([...page.data], [...a.data]);
  const m = decode(stream(segment(0, 48, pageInfo(33, 17)), segment(1, 38, mmrRegionData(a, 0, 0, 4))), 33, 17);
  assert.deepEqual([...m.data], [...a.data]);
});

test('a refinement region refines the intermediate region it refers to, or the page where it lies', () => {
  const rough = print(24, 16, 2);
  const fine = print(24, 16, 2);
  // the refined image differs in a few pixels
  for (const i of [5, 50, 200, 333]) fine.data[i] ^= 1;
  const refine = (reference: Bitmap) => {
    const mq = new MqEncoder();
    encodeRefinement(mq, new Uint8Array(8192), fine, { template: 1, reference, dx: 0, dy: 0, tpgron: false, at: [] });
    return [...regionInfo(24, 16, 3, 2, 4), 1, ...mq.flush()];
  };
  const viaRegion = decode(
    stream(segment(0, 48, pageInfo(30, 20)), segment(1, 36, genericRegionData(rough, 0, 0, 0, T0)), segment(2, 42, refine(rough), [1])),
    30,
    20,
  );
  const viaPage = decode(
    stream(segment(0, 48, pageInfo(30, 20)), segment(1, 38, genericRegionData(rough, 3, 2, 0, T0)), segment(2, 42, refine(rough))),
    30,
    20,
  );
  for (const p of [viaRegion, viaPage])
    for (let y = 0; y < 16; y++) for (let x = 0; x < 24; x++) assert.equal(p.data[(y + 2) * 30 + x + 3], fine.data[y * 24 + x], `${x},${y}`);
  // the intermediate region itself is not painted
  assert.equal(
    viaRegion.data.reduce((s, v) => s + v, 0),
    fine.data.reduce((s, v) => s + v, 0),
  );
});

test('an intermediate text region is kept for the refinement that refers to it, not painted', () => {
  const glyphs = [print(5, 7), print(3, 7, 1)];
  const dict = encodeSymbolDictionary({ input: [], classes: [{ height: 7, symbols: glyphs.map((bitmap) => ({ bitmap })) }], exported: [true, true] });
  const order = dict.newSymbols;
  const instances = [
    { id: 0, x: 1, y: 2 },
    { id: 1, x: 9, y: 2 },
    { id: 0, x: 14, y: 5 },
  ];
  const rough = newBitmap(24, 16);
  for (const it of instances) {
    const g = order[it.id];
    for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) rough.data[(it.y + y) * 24 + it.x + x] |= g.data[y * g.width + x];
  }
  const fine = { ...rough, data: rough.data.slice() };
  for (const i of [7, 40, 100, 300]) fine.data[i] ^= 1;
  const mq = new MqEncoder();
  encodeRefinement(mq, new Uint8Array(8192), fine, { template: 1, reference: rough, dx: 0, dy: 0, tpgron: false, at: [] });
  const text = encodeTextRegion({
    symbols: order,
    strips: [
      { t: 2, instances: instances.slice(0, 2) },
      { t: 5, instances: [instances[2]] },
    ],
  });
  const page = decode(
    stream(
      segment(0, 48, pageInfo(30, 20)),
      segment(1, 0, dict.data),
      segment(2, 4, [...regionInfo(24, 16, 0, 0, 0), ...text], [1]),
      segment(3, 42, [...regionInfo(24, 16, 3, 2, 4), 1, ...mq.flush()], [2]),
    ),
    30,
    20,
  );
  for (let y = 0; y < 16; y++) for (let x = 0; x < 24; x++) assert.equal(page.data[(y + 2) * 30 + x + 3], fine.data[y * 24 + x], `${x},${y}`);
  assert.equal(
    page.data.reduce((n, v) => n + v, 0),
    fine.data.reduce((n, v) => n + v, 0),
  );
});

test('a page stored as Huffman-coded text (tiles in a dictionary, a text region placing them) decodes to itself, edge tiles clipped', () => {
  const rand = prng(77);
  for (const [w, h] of [
    [37, 29],
    [64, 48],
    [101, 77],
  ]) {
    const page = newBitmap(w, h);
    for (let i = 0; i < w * h; i++) page.data[i] = rand() < 0.3 ? 1 : 0;
    assert.deepEqual(decode(jbig2HuffmanPageStream(page), w, h).data, page.data, `${w} × ${h}`);
  }
});

/** the shared-glyph pages' size (at least 32 pixels a side, so that the score takes them for scans) */
const GW = 64;
const GH = 40;

/** three glyphs, a global dictionary of them (segment 0, page 0), and a page whose text region places them */
function sharedGlyphs(): { globals: Uint8Array; page: (x: number) => Uint8Array; glyphs: Bitmap[] } {
  const glyphs = [print(5, 7), print(3, 7, 1), print(6, 4, 2)];
  const dict = encodeSymbolDictionary({
    input: [],
    classes: [
      { height: 4, symbols: [{ bitmap: glyphs[2] }] },
      { height: 7, symbols: [{ bitmap: glyphs[0] }, { bitmap: glyphs[1] }] },
    ],
    exported: [true, true, true],
  });
  const order = dict.newSymbols;
  const globals = stream(segment(0, 0, dict.data, [], { page: 0 }));
  // each page places the three glyphs on a line at x, in the dictionary's order (its symbols' ids)
  const page = (x: number) => {
    const instances = order.map((_, id) => ({ id, x: x + 8 * id, y: 2 }));
    const region = encodeTextRegion({ symbols: order, strips: [{ t: 2, instances }] });
    return stream(segment(1, 48, pageInfo(GW, GH)), segment(2, 6, [...regionInfo(GW, GH, 0, 0, 0), ...region], [0]), segment(3, 49, []));
  };
  return { globals, page, glyphs: order };
}

test('a text region places the symbols of a dictionary in the globals, decoded once for the pages that share it', () => {
  const { globals, page, glyphs } = sharedGlyphs();
  const g = decodeJbig2Globals(globals, GW, GH, 4 * GW * GH, never);
  assert.ok(g.ok, g.ok ? '' : g.error);
  assert.equal(
    g.globals.pixels,
    glyphs.reduce((n, b) => n + b.width * b.height, 0),
  );
  // one decoded globals, two pages
  for (const x of [1, 9]) {
    const r = decodeJbig2(page(x), g.globals, GW, GH, 4 * GW * GH, never);
    assert.ok(r.ok, r.ok ? '' : r.error);
    const want = new Uint8Array(GW * GH);
    glyphs.forEach((b, id) => {
      for (let y = 0; y < b.height; y++) for (let c = 0; c < b.width; c++) want[(2 + y) * GW + x + 8 * id + c] |= b.data[y * b.width + c];
    });
    assert.deepEqual([...r.page.data], [...want], `page at ${x}`);
  }
  // without its globals the region has no symbols to place
  assert.ok(!decodeJbig2(page(1), undefined, GW, GH, 4 * GW * GH, never).ok);
  // the globals' symbols count against what a page may keep
  assert.match((decodeJbig2(page(1), g.globals, GW, GH, 10, never) as { error: string }).error, /larger than the memory allowed/);
});

test('two pages whose JBIG2 scans share one /JBIG2Globals are both read', () => {
  const { globals, page } = sharedGlyphs();
  const pages = [page(1), page(9)];
  const text = 'BT 3 Tr /F1 10 Tf 72 700 Td (sample words written over the scan in a line here) Tj ET';
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    ...[0, 1].map(
      (i) =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 ${7 + i} 0 R >> /Font << /F1 10 0 R >> >> /Contents ${5 + i} 0 R >>`,
    ),
    ...[0, 1].map(() => `<< /Length ${text.length + 31} >>\nstream\nq 612 0 0 792 0 0 cm /Im1 Do Q ${text}\nendstream`),
    ...pages.map(
      (p) =>
        `<< /Type /XObject /Subtype /Image /Width ${GW} /Height ${GH} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode /DecodeParms << /JBIG2Globals 9 0 R >> /Length ${p.length} >>\nstream\n${Buffer.from(p).toString('latin1')}\nendstream`,
    ),
    `<< /Length ${globals.length} >>\nstream\n${Buffer.from(globals).toString('latin1')}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const report = analyzePdfSync(pdfOf(objs), { layerQuality: true });
  assert.equal(report.pages.length, 2);
  for (const p of report.pages) {
    assert.equal(p.route, 'ocr-layer', JSON.stringify(p.reasons));
    assert.equal(p.evidence.layerQuality!.signals.image, undefined, JSON.stringify(p.evidence.layerQuality!.signals));
  }
});

test('what is not read is named; damaged, truncated and hostile streams are an error, never a throw', () => {
  const why = (data: Uint8Array, w = 40, h = 30) => {
    const r = decodeJbig2(data, undefined, w, h, 4 * w * h, never);
    return r.ok ? 'read' : r.error;
  };
  const page = segment(0, 48, pageInfo(40, 30));
  assert.match(why(stream(page, segment(1, 16, [1, 2, 3]))), /halftone region or pattern dictionary/);
  assert.match(why(stream(page, segment(1, 4, regionInfo(4, 4, 0, 0)))), /text region: segment too short/);
  assert.match(why(stream(page, segment(1, 0, [0, 1, 0, 0]))), /symbol dictionary: segment too short/);
  assert.match(why(stream(page, segment(1, 38, genericRegionData(print(10, 10), 35, 0, 0, T0)))), /read/);
  assert.match(why(stream(page, segment(1, 38, genericRegionData(print(10, 10), 45, 0, 0, T0)))), /outside the page/);
  assert.match(why(stream(segment(0, 48, pageInfo(41, 30)))), /a page of 41 × 30 for an image of 40 × 30/);
  assert.match(why(stream(segment(1, 38, genericRegionData(print(4, 4), 0, 0, 0, T0)))), /before the page information/);
  assert.match(why(new Uint8Array(0)), /no page information/);
  // every prefix of a stream, and random damage
  const full = stream(
    page,
    segment(1, 38, genericRegionData(print(40, 30), 0, 0, 0, T0)),
    segment(2, 39, mmrRegionData(print(20, 10, 1), 10, 10, 2)),
  );
  for (let n = 0; n <= full.length; n++) decodeJbig2(full.subarray(0, n), undefined, 40, 30, 4800, never);
  const rnd = prng(11);
  for (let k = 0; k < 300; k++) {
    const c = full.slice();
    for (let j = 0; j < 1 + (k % 4); j++) c[Math.floor(rnd() * c.length)] = Math.floor(rnd() * 256);
    const r = decodeJbig2(c, undefined, 40, 30, 4800, never);
    if (r.ok) assert.equal(r.page.data.length, 1200);
  }
  const late = decodeJbig2(full, undefined, 40, 30, 4800, () => true);
  assert.ok(!late.ok && late.outOfTime === true);
});

/** the print scan (test/pdf-helpers.ts) as a JBIG2 generic region under an invisible layer over its first `covered` lines */
function jbig2ScanPage(covered: number, colorSpace = '/DeviceGray'): Uint8Array {
  const b = newBitmap(612, 792);
  for (let y = 0; y < 792; y++) for (let x = 0; x < 612; x++) b.data[y * 612 + x] = printInk(x, y) ? 1 : 0;
  const data = stream(segment(0, 48, pageInfo(612, 792)), segment(1, 38, genericRegionData(b, 0, 0, 0, T0)), segment(2, 49, []));
  return printScanPdf(`/Width 612 /Height 792 /ColorSpace ${colorSpace} /BitsPerComponent 1 /Filter /JBIG2Decode`, data, covered);
}

test('a JBIG2 scan is read like a JPEG one: the ink of the lines the layer lacks is missing text', () => {
  const full = analyzePdfSync(jbig2ScanPage(6), { layerQuality: true }).pages[0];
  assert.equal(full.route, 'ocr-layer');
  const q = full.evidence.layerQuality!;
  assert.equal(q.signals.image, undefined, JSON.stringify(q.signals));
  assert.ok((q.signals.textInkMissed as number) < 0.05, JSON.stringify(q.signals));
  const part = analyzePdfSync(jbig2ScanPage(2), { layerQuality: true, textLayer: true }).pages[0];
  const p = part.evidence.layerQuality!;
  assert.ok(Math.abs((p.signals.textInkMissed as number) - 2 / 3) < 0.1, JSON.stringify(p.signals));
  assert.equal(p.reocr, true);
  assert.equal(part.evidence.textLayer!.missingText!.length, 4, JSON.stringify(part.evidence.textLayer!.missingText));
  // a device space alone in an array, as some writers put it, is that space
  const boxed = analyzePdfSync(jbig2ScanPage(2, '[/DeviceGray]'), { layerQuality: true }).pages[0].evidence.layerQuality!;
  assert.equal(boxed.signals.image, undefined, JSON.stringify(boxed.signals));
});
