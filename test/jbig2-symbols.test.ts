// JBIG2 symbol dictionaries and text regions (layerQuality/jbig2Symbols.ts): round trips through the test-only
// encoder (scripts/jbig2-symbol-encoder.ts) whose expected bitmaps are made here by putting glyphs where they belong,
// for direct and refinement/aggregate dictionaries, every reference corner, transposition, strips, SBDSOFFSET,
// combination operators, the default pixel and refined instances; then garbage, truncation and hostile counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Bitmap, newBitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import { decodeSymbolDictionary, decodeTextRegion } from '../src/analyzer/layerQuality/jbig2Symbols';
import { encodeSymbolDictionary, encodeTextRegion, type SymbolSpec, type TextStrip } from '../scripts/jbig2-symbol-encoder';
import { prng } from '../scripts/fuzz';
import { assertBitmap, assertSymbols, directSymbols, glyph, layout, type LayoutOptions, never, put, render, variant } from './jbig2-helpers';

/** input symbols, classes of new ones, export flags: the dictionary of the direct-coding tests */
function directDictionary(rand: () => number) {
  const input = [glyph(rand, 5, 7), glyph(rand, 3, 4)];
  // heights up, down (a negative IADH) and a class of one; widths up and down within a class (negative IADW)
  const classes = [
    { height: 6, symbols: [glyph(rand, 4, 6), glyph(rand, 7, 6), glyph(rand, 5, 6)] },
    { height: 9, symbols: [glyph(rand, 8, 9), glyph(rand, 8, 9)] },
    { height: 2, symbols: [glyph(rand, 11, 2)] },
  ];
  const fresh = classes.flatMap((c) => c.symbols);
  //             input        new: 0     1      2      3     4      5
  const exported = [true, false, true, true, false, false, true, true];
  return { input, classes, fresh, exported };
}

test('a directly coded symbol dictionary exports the chosen input and new symbols, in every generic template', () => {
  const rand = prng(11);
  const { input, classes, fresh, exported } = directDictionary(rand);
  const expected = [...input, ...fresh].filter((_, i) => exported[i]);
  for (const template of [0, 1, 2, 3] as const) {
    const { data } = encodeSymbolDictionary({
      input,
      classes: directSymbols(classes),
      exported,
      template,
    });
    assertSymbols(decodeSymbolDictionary(data, input, never), expected, `template ${template}`);
  }
  // adaptive pixels away from their defaults
  const at = [
    { x: -4, y: -1 },
    { x: 2, y: -2 },
    { x: -1, y: -3 },
    { x: 1, y: -2 },
  ];
  const { data } = encodeSymbolDictionary({
    input,
    classes: directSymbols(classes),
    exported,
    at,
  });
  assertSymbols(decodeSymbolDictionary(data, input, never), expected, 'moved AT pixels');
});

test('a dictionary with no input, exporting everything or a first symbol only, and an empty one', () => {
  const rand = prng(12);
  const syms = [glyph(rand, 6, 5), glyph(rand, 2, 5), glyph(rand, 9, 3)];
  const classes = [
    { height: 5, symbols: [{ bitmap: syms[0] }, { bitmap: syms[1] }] },
    { height: 3, symbols: [{ bitmap: syms[2] }] },
  ];
  assertSymbols(decodeSymbolDictionary(encodeSymbolDictionary({ input: [], classes, exported: [true, true, true] }).data, [], never), syms, 'all');
  assertSymbols(
    decodeSymbolDictionary(encodeSymbolDictionary({ input: [], classes, exported: [true, false, false] }).data, [], never),
    [syms[0]],
    'first',
  );
  // no new symbols: the dictionary re-exports some of its input
  const input = [glyph(rand, 3, 3), glyph(rand, 4, 4), glyph(rand, 5, 5)];
  assertSymbols(
    decodeSymbolDictionary(encodeSymbolDictionary({ input, classes: [], exported: [false, true, true] }).data, input, never),
    input.slice(1),
    'input only',
  );
});

test('a refinement/aggregate dictionary: single instances refined from input and new symbols, and aggregates', () => {
  for (const rTemplate of [0, 1] as const) {
    const rand = prng(20 + rTemplate);
    const input = [glyph(rand, 6, 8), glyph(rand, 5, 8), glyph(rand, 4, 5)];
    // refinements of input symbols: the same size, offsets 0; another size, offsets ±1
    const r0 = variant(rand, input[1]);
    const r1 = variant(rand, input[0], 7, 9);
    // a refinement of a new symbol (SBSYMS holds the new symbols decoded so far)
    const r2 = variant(rand, r1, 7, 9);
    // an aggregate of two input symbols side by side, the second refined, and one of three
    const refined = variant(rand, input[2], 5, 6);
    const agg1: TextStrip[] = [
      { t: 0, instances: [{ id: 1, x: 0, y: 0 }] },
      { t: 1, instances: [{ id: 2, x: 6, y: 1, refine: { bitmap: refined, rdx: 0, rdy: 1 } }] },
    ];
    // two instances in one strip (an IADS gap), then one a strip further down
    const agg2: TextStrip[] = [
      {
        t: 0,
        instances: [
          { id: 2, x: 0, y: 0 },
          { id: 0, x: 12, y: 0 },
        ],
      },
      { t: 2, instances: [{ id: 3, x: 3, y: 2 }] },
    ];
    const classes: { height: number; symbols: SymbolSpec[] }[] = [
      {
        height: 8,
        symbols: [
          { bitmap: r0, refine: { id: 1, rdx: 0, rdy: 0 } },
          { width: 12, aggregate: agg1 },
        ],
      },
      {
        height: 9,
        symbols: [
          { bitmap: r1, refine: { id: 0, rdx: 1, rdy: -1 } },
          { bitmap: r2, refine: { id: 5, rdx: -1, rdy: 0 } },
          { width: 18, aggregate: agg2 },
        ],
      },
    ];
    // the aggregates as they should come out: instances ORed at their top-left corners
    const a1 = newBitmap(12, 8);
    put(a1, input[1], 0, 0);
    put(a1, refined, 6, 1);
    const a2 = newBitmap(18, 9);
    put(a2, input[2], 0, 0);
    put(a2, r0, 3, 2);
    put(a2, input[0], 12, 0);
    const all = [...input, r0, a1, r1, r2, a2];
    const exported = [false, true, false, true, true, false, true, true];
    const { data, newSymbols } = encodeSymbolDictionary({
      input,
      classes,
      exported,
      refAgg: true,
      rTemplate,
      rAt: [
        { x: 1, y: -1 },
        { x: 0, y: -1 },
      ],
    });
    assertBitmap(newSymbols[1], a1, 'the encoder aggregates as the test does');
    assertSymbols(
      decodeSymbolDictionary(data, input, never),
      all.filter((_, i) => exported[i]),
      `refinement template ${rTemplate}`,
    );
  }
});

/**
 * Instances in strips (the helpers' layout) with these tests' strip steps: whole strips covering 1–8 rows; the fourth
 * strip goes back up the page (a negative IADT).
 */
function stripLayout(rand: () => number, symbols: Bitmap[], o: Pick<LayoutOptions, 'stripSize' | 'corner' | 'transposed' | 'refine'>): TextStrip[] {
  return layout(rand, symbols, { ...o, back: true, step: (r, size) => size * Math.ceil((1 + Math.floor(r() * 8)) / size) });
}

test('text regions: every reference corner, transposed or not, strips of 1 and 4 rows, SBDSOFFSET', () => {
  const rand = prng(30);
  const symbols = Array.from({ length: 7 }, () => glyph(rand, 2 + Math.floor(rand() * 8), 2 + Math.floor(rand() * 8)));
  let cases = 0;
  for (const corner of [0, 1, 2, 3])
    for (const transposed of [false, true])
      for (const stripSize of [1, 4])
        for (const dsOffset of [0, 3, -5]) {
          const o = { stripSize, corner, transposed, refine: false };
          const strips = stripLayout(rand, symbols, o);
          const data = encodeTextRegion({ symbols, strips, stripSize, refCorner: corner, transposed, dsOffset });
          const what = `corner ${corner}, ${transposed ? 'transposed' : 'upright'}, SBSTRIPS ${stripSize}, SBDSOFFSET ${dsOffset}`;
          assertBitmap(decodeTextRegion(data, 40, 30, symbols, never), render(40, 30, symbols, strips, 0, 0), what);
          cases++;
        }
  assert.equal(cases, 48);
});

test('text regions: combination operators, default pixel 1, 2 and 8 strip rows', () => {
  const rand = prng(31);
  const symbols = Array.from({ length: 5 }, () => glyph(rand, 3 + Math.floor(rand() * 6), 3 + Math.floor(rand() * 6)));
  for (const combOp of [0, 1, 2, 3])
    for (const defPixel of [0, 1])
      for (const stripSize of [2, 8]) {
        const o = { stripSize, corner: combOp, transposed: defPixel === 1, refine: false };
        const strips = stripLayout(rand, symbols, o);
        const data = encodeTextRegion({ symbols, strips, stripSize, refCorner: o.corner, transposed: o.transposed, dsOffset: -1, combOp, defPixel });
        assertBitmap(
          decodeTextRegion(data, 33, 27, symbols, never),
          render(33, 27, symbols, strips, defPixel, combOp),
          `SBCOMBOP ${combOp}, SBDEFPIXEL ${defPixel}`,
        );
      }
});

test('text regions with refined instances, both refinement templates, every corner', () => {
  const rand = prng(32);
  const symbols = Array.from({ length: 9 }, () => glyph(rand, 3 + Math.floor(rand() * 7), 3 + Math.floor(rand() * 7)));
  for (const rTemplate of [0, 1] as const)
    for (const corner of [0, 1, 2, 3])
      for (const transposed of [false, true]) {
        const o = { stripSize: 4, corner, transposed, refine: true };
        const strips = stripLayout(rand, symbols, o);
        assert.ok(strips.some((s) => s.instances.some((i) => i.refine)));
        const rAt = [
          { x: -2, y: -1 },
          { x: 1, y: 1 },
        ];
        const data = encodeTextRegion({
          symbols,
          strips,
          stripSize: 4,
          refCorner: corner,
          transposed,
          dsOffset: 2,
          refine: true,
          rTemplate,
          rAt,
          combOp: 2,
        });
        const what = `GRTEMPLATE ${rTemplate}, corner ${corner}, ${transposed ? 'transposed' : 'upright'}`;
        assertBitmap(decodeTextRegion(data, 45, 38, symbols, never), render(45, 38, symbols, strips, 0, 2), what);
      }
});

test('a hand-placed text region: bottom-left corners, T counted from the strip, S gaps', () => {
  // two 3 × 2 glyphs; the first with its bottom-left pixel at (1, 4), the second 2 columns after the first's last
  const g = newBitmap(3, 2);
  g.data.set([1, 1, 1, 1, 0, 1]);
  const strips: TextStrip[] = [
    {
      t: 4,
      instances: [
        { id: 0, x: 1, y: 3 },
        { id: 0, x: 6, y: 3 },
      ],
    },
  ];
  const data = encodeTextRegion({ symbols: [g], strips, refCorner: 0 });
  const expected = newBitmap(10, 6);
  // prettier-ignore
  expected.data.set([
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 0, 0, 1, 1, 1, 0,
    0, 1, 0, 1, 0, 0, 1, 0, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  ]);
  assertBitmap(decodeTextRegion(data, 10, 6, [g], never), expected, 'two glyphs');
  // the region flags carry SBDSOFFSET as 5-bit two's complement: −16 and 15 both round-trip
  for (const dsOffset of [-16, 15]) {
    const d = encodeTextRegion({ symbols: [g], strips, refCorner: 0, dsOffset });
    assertBitmap(decodeTextRegion(d, 10, 6, [g], never), expected, `SBDSOFFSET ${dsOffset}`);
  }
});

test('refused: shared coding contexts, counts that disagree', () => {
  const rand = prng(40);
  const { input, classes, exported } = directDictionary(rand);
  const spec = { input, classes: directSymbols(classes), exported };
  for (const f of [0x100, 0x200])
    assert.equal(typeof decodeSymbolDictionary(encodeSymbolDictionary({ ...spec, extraFlags: f }).data, input, never), 'string');
  // SDNUMEXSYMS one off; SDNUMNEWSYMS one short (a symbol more than declared)
  assert.equal(typeof decodeSymbolDictionary(encodeSymbolDictionary({ ...spec, numEx: 4 }).data, input, never), 'string');
  assert.equal(typeof decodeSymbolDictionary(encodeSymbolDictionary({ ...spec, numNew: 5 }).data, input, never), 'string');
  const symbols = [glyph(rand, 4, 4)];
  const strips: TextStrip[] = [{ t: 0, instances: [0, 6, 12].map((x) => ({ id: 0, x, y: 0 })) }];
  // SBNUMINSTANCES below the instances coded
  assert.equal(typeof decodeTextRegion(encodeTextRegion({ symbols, strips, numInstances: 2 }), 20, 10, symbols, never), 'string');
  // an ID past the symbols
  assert.equal(
    typeof decodeTextRegion(
      encodeTextRegion({ symbols: [...symbols, symbols[0]], strips: [{ t: 0, instances: [{ id: 1, x: 0, y: 0 }] }] }),
      20,
      10,
      symbols,
      never,
    ),
    'string',
  );
});

test('hostile counts and sizes are refused at once', () => {
  const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  const started = Date.now();
  // SDNUMNEWSYMS 2^32 − 1, then garbage
  const dict = Uint8Array.from([0, 0, 3, 255, 253, 255, 2, 254, 254, 254, ...be32(0), ...be32(0xffffffff), 1, 2, 3, 4]);
  assert.equal(typeof decodeSymbolDictionary(dict, [], never), 'string');
  // SDNUMEXSYMS above all the symbols there are
  const dict2 = Uint8Array.from([0, 0, 3, 255, 253, 255, 2, 254, 254, 254, ...be32(1000), ...be32(3), 1, 2, 3, 4]);
  assert.equal(typeof decodeSymbolDictionary(dict2, [], never), 'string');
  // SBNUMINSTANCES 2^32 − 1
  assert.equal(typeof decodeTextRegion(Uint8Array.from([0, 0x10, ...be32(0xffffffff), 1, 2, 3]), 100, 100, [newBitmap(2, 2)], never), 'string');
  // a region of 2^32 × 2^32
  assert.equal(typeof decodeTextRegion(Uint8Array.from([0, 0x10, ...be32(1), 1, 2, 3]), 0xffffffff, 0xffffffff, [newBitmap(2, 2)], never), 'string');
  assert.ok(Date.now() - started < 1000);
});

test('garbage, truncated and bit-flipped data never throw, and a clock stops long work', () => {
  const rand = prng(50);
  const { input, classes, exported } = directDictionary(rand);
  const dict = encodeSymbolDictionary({
    input,
    classes: directSymbols(classes),
    exported,
  }).data;
  const symbols = Array.from({ length: 6 }, () => glyph(rand, 2 + Math.floor(rand() * 8), 2 + Math.floor(rand() * 8)));
  const strips = stripLayout(rand, symbols, { stripSize: 4, corner: 1, transposed: false, refine: true });
  const text = encodeTextRegion({ symbols, strips, stripSize: 4, refine: true });
  const check = (r: unknown) => assert.ok(typeof r === 'string' || Array.isArray(r) || (typeof r === 'object' && r !== null && 'data' in r));
  for (let n = 0; n <= dict.length; n++) check(decodeSymbolDictionary(dict.subarray(0, n), input, never));
  for (let n = 0; n <= text.length; n++) check(decodeTextRegion(text.subarray(0, n), 40, 30, symbols, never));
  const started = Date.now();
  const deadline = () => Date.now() - started > 3000;
  for (let k = 0; k < 300; k++) {
    const d = dict.slice();
    const t = text.slice();
    for (let j = 0; j < 3; j++) {
      d[Math.floor(rand() * d.length)] ^= 1 << Math.floor(rand() * 8);
      t[Math.floor(rand() * t.length)] ^= 1 << Math.floor(rand() * 8);
    }
    check(decodeSymbolDictionary(d, input, deadline));
    check(decodeTextRegion(t, 40, 30, symbols, deadline));
    const g = Uint8Array.from({ length: 1 + Math.floor(rand() * 60) }, () => Math.floor(rand() * 256));
    check(decodeSymbolDictionary(g, input, deadline));
    check(decodeTextRegion(g, 64, 64, symbols, deadline));
  }
  // every flags word on garbage: Huffman and context bits refused, the rest decode something or fail cleanly
  for (let f = 0; f < 65536; f += 97) {
    const g = Uint8Array.from([f >> 8, f & 255, ...Array.from({ length: 40 }, () => Math.floor(rand() * 256))]);
    check(decodeSymbolDictionary(g, input, deadline));
    check(decodeTextRegion(g, 50, 50, symbols, deadline));
  }
  // a large declared dictionary on garbage ends by the clock (or an error), not by decoding a million symbols
  const big = Uint8Array.from([
    0,
    0,
    3,
    255,
    253,
    255,
    2,
    254,
    254,
    254,
    0,
    0,
    0,
    1,
    0,
    15,
    0,
    0,
    ...Array.from({ length: 200 }, () => Math.floor(rand() * 256)),
  ]);
  const t0 = Date.now();
  const r = decodeSymbolDictionary(big, [], () => Date.now() - t0 > 200);
  assert.equal(typeof r, 'string');
  assert.ok(Date.now() - t0 < 3000, `${Date.now() - t0} ms`);
  assert.ok(Date.now() - started < 20000);
});
