// JBIG2 Huffman coding (layerQuality/jbig2Huffman.ts, and the SDHUFF / SBHUFF paths of jbig2Symbols.ts and jbig2.ts):
// the standard tables against code words read off the recommendation's Tables B.1–B.15, tables segments, the symbol ID
// table, hand-built segments, then round trips through the test-only encoder (scripts/jbig2-huffman-encoder.ts, which
// assigns codes itself by Annex B.3) of dictionaries and text regions with every table selector, custom tables,
// uncompressed and MMR collective bitmaps, refinement/aggregation, refined instances, strips and the symbol ID run
// codes; a whole stream through decodeJbig2; and damage, which must give error strings, never throws.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJbig2, decodeJbig2Globals } from '../src/analyzer/layerQuality/jbig2';
import {
  BitReader,
  decodeTableSegment,
  HuffmanError,
  LOWER,
  OOB,
  standardLines,
  standardTable,
  symbolIdTable,
} from '../src/analyzer/layerQuality/jbig2Huffman';
import { type Bitmap, newBitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import { decodeSymbolDictionary, decodeTextRegion } from '../src/analyzer/layerQuality/jbig2Symbols';
import { prng } from '../scripts/fuzz';
import { pageInfo, regionInfo, segment } from '../scripts/jbig2-segments';
import type { SymbolSpec, TextStrip } from '../scripts/jbig2-symbol-encoder';
import {
  assignCodes,
  BitWriter,
  type CustomTable,
  encodeHuffmanDictionary,
  encodeHuffmanTextRegion,
  encodeTableSegment,
  HuffmanCode,
  huffmanLengths,
  standardCode,
  type TableChoice,
  tableLines,
  writeSymbolIdTable,
} from '../scripts/jbig2-huffman-encoder';
import { assertBitmap, assertSymbols, directSymbols, glyph, layout, never, put, render, variant } from './jbig2-helpers';

function bitmapOf(width: number, rows: number[]): Bitmap {
  const b = newBitmap(width, rows.length / width);
  b.data.set(rows);
  return b;
}

/** a string of 0s and 1s as bytes, the last padded with 0s */
function bytesOf(bits: string): Uint8Array {
  const w = new BitWriter();
  for (const c of bits) w.bit(c === '1' ? 1 : 0);
  return Uint8Array.from(w.finish());
}

const bin = (v: number, n: number) => v.toString(2).padStart(n, '0');

/** custom tables as the decoder gets them: through a tables segment */
const segmentTables = (tables: CustomTable[]) => tables.map((t) => decodeTableSegment(encodeTableSegment(t)));

test('Tables B.1–B.15 are complete prefix codes, and every line codes its ends through the decoder', () => {
  for (let n = 1; n <= 15; n++) {
    const lines = standardLines(n);
    const lens = lines.map((l) => l[0]);
    // Kraft sum exactly 1: every bit string begins a code word. All fifteen are complete; those without a lower range
    // line (B.1, B.2, B.4, B.11–B.14) or an upper one (B.14) just code no value out there.
    assert.equal(
      lens.reduce((s, p) => s + (p > 0 ? 2 ** -p : 0), 0),
      1,
      `Table B.${n}`,
    );
    const codes = assignCodes(lens);
    const words = codes.map((c, i) => bin(c, lens[i]));
    for (let i = 0; i < words.length; i++)
      for (let j = 0; j < words.length; j++) if (i !== j) assert.ok(!words[j].startsWith(words[i]), `B.${n}: ${words[i]} begins ${words[j]}`);
    // each line's lowest and highest value (the lower range line's: RANGELOW and 2^32 − 1 below), twice, so a decoder
    // that read too few or too many range bits misreads the second
    for (const [, r, low, kind] of lines) {
      const values = kind === OOB ? [null] : kind === LOWER ? [low, low - 1, low - (2 ** 32 - 1)] : [low, low + 2 ** r - 1];
      for (const v of values) {
        const w = new BitWriter();
        standardCode(n).put(w, v);
        standardCode(n).put(w, v);
        const rd = new BitReader(Uint8Array.from(w.finish()), 0);
        assert.equal(standardTable(n).decode(rd), v, `B.${n}: ${v}`);
        assert.equal(standardTable(n).decode(rd), v, `B.${n}: ${v}, again`);
      }
    }
  }
});

test('code words of the standard tables as the recommendation prints them', () => {
  const z32 = '0'.repeat(32);
  // [table, bits, value (null: OOB)]
  const pins: [number, string, number | null][] = [
    [1, '0' + '0000', 0],
    [1, '0' + '1111', 15],
    [1, '10' + '00000100', 20],
    [1, '110' + '0000000000000000', 272],
    [1, '111' + z32, 65808],
    [2, '0', 0],
    [2, '10', 1],
    [2, '110', 2],
    [2, '1110' + '111', 10],
    [2, '111110' + z32, 75],
    [2, '111111', null],
    [3, '0', 0],
    [3, '111110', null],
    [3, '1111110' + z32, 75],
    [3, '11111110' + '00000000', -256],
    [3, '11111110' + '11111111', -1],
    // the lower range line: −257 less the 32 range bits
    [3, '11111111' + bin(43, 32), -300],
    [4, '0', 1],
    [4, '11110' + '000000', 12],
    [5, '1111110' + '00000000', -255],
    [5, '1111111' + z32, -256],
    [6, '00' + '0000001', 1],
    [6, '111110' + z32, -2049],
    [7, '1011' + '00101', 5],
    [7, '11110' + z32, -1025],
    [8, '01', null],
    [8, '00' + '0', 0],
    [8, '00' + '1', 1],
    [8, '100' + '0000', 4],
    [8, '1010', -1],
    [8, '11010', 2],
    [9, '00', null],
    [9, '010' + '1', 0],
    [9, '011' + '0', 1],
    [9, '1010' + '0', -3],
    [10, '00' + '10', 0],
    [10, '01' + '000000', 6],
    [10, '10', null],
    [10, '11000', -3],
    [11, '0', 1],
    [11, '10' + '1', 3],
    [12, '110' + '1', 4],
    [12, '11100', 5],
    [13, '100', 2],
    [13, '101' + '000', 7],
    [13, '1100', 3],
    [13, '11100', 4],
    [14, '100', -2],
    [14, '101', -1],
    [14, '0', 0],
    [14, '110', 1],
    [14, '111', 2],
    [15, '0', 0],
    [15, '100', -1],
    [15, '101', 1],
    [15, '1100', -2],
    [15, '1111110' + bin(5, 32), -30],
    [15, '1111111' + z32, 25],
  ];
  for (const [n, bits, value] of pins) {
    assert.equal(standardTable(n).decode(new BitReader(bytesOf(bits), 0)), value, `B.${n}: ${bits}`);
    const w = new BitWriter();
    standardCode(n).put(w, value);
    assert.equal(w.toString(), bits, `B.${n}: ${value} as the encoder writes it`);
  }
  // range bits past the data's end; OOB where a value must be
  assert.throws(() => standardTable(1).decode(new BitReader(Uint8Array.from([0xff]), 0)), HuffmanError);
  assert.throws(() => standardTable(2).value(new BitReader(bytesOf('111111'), 0), 'x'), HuffmanError);
  // values the tables have no line for
  assert.equal(standardCode(14).canCode(3), false);
  assert.equal(standardCode(11).canCode(0), false);
});

test('a tables segment: its fields and lines as written, decoded as the lines say', () => {
  // by hand: HTOOB 1, HTPS 2, HTRS 3, HTLOW −1, HTHIGH 5; lines (1, 1) −1..0 and (2, 2) 1..4; lower 3, upper 0, OOB 3
  // prettier-ignore
  const hand: CustomTable = { low: -1, lines: [[1, 1], [2, 2]], lower: 3, upper: 0, oob: 3, htps: 2, htrs: 3 };
  const seg = encodeTableSegment(hand);
  // flags 1 | (2 − 1) << 1 | (3 − 1) << 4; then 01 001, 10 010, 11, 00, 11
  assert.deepEqual([...seg], [0x23, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 5, 0b01001100, 0b10110011]);
  const t = decodeTableSegment(seg);
  // codes (B.3): line 1 '0', line 2 '10', lower '110', OOB '111'; the upper line has PREFLEN 0, no code
  assert.equal(t.decode(new BitReader(bytesOf('0' + '1'), 0)), 0);
  assert.equal(t.decode(new BitReader(bytesOf('10' + '11'), 0)), 4);
  assert.equal(t.decode(new BitReader(bytesOf('110' + bin(3, 32)), 0)), -5);
  assert.equal(t.decode(new BitReader(bytesOf('111'), 0)), null);
  assert.equal(t.hasOob, true);

  // prettier-ignore
  const tables: CustomTable[] = [
    hand,
    { low: -10, lines: [[3, 2], [2, 3], [2, 0], [3, 4]], lower: 3, upper: 4, oob: 4 },
    // wide fields, a large HTLOW
    { low: 100000, lines: [[1, 8], [2, 16]], lower: 3, upper: 3, htps: 8, htrs: 8 },
    // HTHIGH inside the last line (5..8, 9..12): the upper range line starts at 11 all the same
    { low: 5, lines: [[2, 2], [2, 2]], high: 11, lower: 2, upper: 2 },
    // the lowest HTLOW there is
    { low: -(2 ** 31), lines: [[1, 4]], lower: 2, upper: 2 },
  ];
  for (const [k, c] of tables.entries()) {
    const decoded = decodeTableSegment(encodeTableSegment(c));
    const code = new HuffmanCode(tableLines(c));
    for (const [p, r, low, kind] of tableLines(c)) {
      if (p === 0) continue;
      const values = kind === OOB ? [null] : kind === LOWER ? [low, low - 7] : r === 32 ? [low, low + 2 ** 32 - 1] : [low, low + 2 ** r - 1];
      for (const v of values) {
        if (!code.canCode(v)) continue;
        const w = new BitWriter();
        code.put(w, v);
        code.put(w, v);
        const rd = new BitReader(Uint8Array.from(w.finish()), 0);
        assert.equal(decoded.decode(rd), v, `table ${k}: ${v}`);
        assert.equal(decoded.decode(rd), v, `table ${k}: ${v} again`);
      }
    }
  }
  // the overlapping table's 11 and 12 come from its second line (first in the order), 13 from the upper range line
  const overlap = decodeTableSegment(encodeTableSegment(tables[3]));
  assert.equal(overlap.decode(new BitReader(bytesOf('01' + '11'), 0)), 12);
  assert.equal(overlap.decode(new BitReader(bytesOf('11' + bin(2, 32)), 0)), 13);
});

/**
 * Symbol ID code lengths of 202 symbols: 8 of 5 bits (the length, code 32 repeating it six times, the length again),
 * 5 zeros (33), 4 of 4 bits (the length, 32 three times), 13 zeros (34), one of 2 bits, 169 zeros (34 twice), 2 of 3
 * bits: a complete code; the symbols used are 0–7, 13–16, 30, 200, 201.
 */
function runCodedLengths(): number[] {
  return [
    ...Array<number>(8).fill(5),
    ...Array<number>(5).fill(0),
    ...Array<number>(4).fill(4),
    ...Array<number>(13).fill(0),
    2,
    ...Array<number>(169).fill(0),
    3,
    3,
  ];
}

test('a symbol ID table: run code lengths, lengths in run codes 0–34, codes assigned by B.3', () => {
  const lengths = runCodedLengths();
  assert.equal(
    lengths.reduce((s, p) => s + (p ? 2 ** -p : 0), 0),
    1,
  );
  const w = new BitWriter();
  const { runCodes, codes } = writeSymbolIdTable(w, lengths);
  assert.deepEqual(runCodes, [5, 32, 5, 33, 4, 32, 34, 2, 34, 34, 3, 3]);
  const data = Uint8Array.from(w.finish());
  const r = new BitReader(data, 0);
  const t = symbolIdTable(r, lengths.length);
  // the table ends at a byte boundary: nothing of it is left
  assert.equal(r.byteOffset(), data.length);
  lengths.forEach((len, id) => {
    if (!len) return;
    assert.equal(t.decode(new BitReader(bytesOf(bin(codes[id], len)), 0)), id, `symbol ${id}`);
  });
  // B.3 by hand: the 2-bit code is 00, the 3-bit ones 010 and 011, the 4-bit ones 1000–1011, the 5-bit ones 11000–11111
  assert.deepEqual(
    [30, 200, 201, 13, 16, 0, 7].map((id) => bin(codes[id], lengths[id])),
    ['00', '010', '011', '1000', '1011', '11000', '11111'],
  );
});

test('hand-built: a Huffman text region and a Huffman dictionary, bit by bit from the recommendation', () => {
  // a text region: SBHUFF, REFCORNER TOPLEFT, two instances of one 3 × 2 glyph, standard tables B.6, B.8, B.11
  const g = bitmapOf(3, [1, 1, 1, 1, 0, 1]);
  const bits =
    // symbol ID table: RUNCODE1 of length 1, the other 34 of 0; then RUNCODE1 ('0'): symbol 0's length is 1; the byte's rest
    '0000' +
    '0001' +
    '0000'.repeat(33) +
    '0' +
    '000' +
    // first DT 1 (B.11 '0'): STRIPT −1; DT 3 (B.11 '10' + 1): STRIPT 2
    '0' +
    '101' +
    // first S 1 (B.6 '00' + 7 bits), symbol 0 ('0')
    '00' +
    '0000001' +
    '0' +
    // IDS 1 (B.8 '00' + 1 bit): after the first's last column 3, column 4; symbol 0; OOB (B.8 '01') ends the strip
    '001' +
    '0' +
    '01';
  const data = Uint8Array.from([0x00, 0x11, 0, 0, 0, 0, 0, 2, ...bytesOf(bits)]);
  const expected = bitmapOf(8, [
    ...[0, 0, 0, 0, 0, 0, 0, 0],
    ...[0, 0, 0, 0, 0, 0, 0, 0],
    ...[0, 1, 1, 1, 1, 1, 1, 0],
    ...[0, 1, 0, 1, 1, 0, 1, 0],
    ...[0, 0, 0, 0, 0, 0, 0, 0],
  ]);
  assertBitmap(decodeTextRegion(data, 8, 5, [g], never), expected, 'hand-built text region');
  // the encoder writes the same bytes
  const strips: TextStrip[] = [
    {
      t: 2,
      instances: [
        { id: 0, x: 1, y: 2 },
        { id: 0, x: 4, y: 2 },
      ],
    },
  ];
  assert.deepEqual([...encodeHuffmanTextRegion({ symbols: [g], strips }).data], [...data]);

  // a dictionary: SDHUFF, B.4, B.2, B.1; one class of height 2 with symbols 2 and 3 wide, uncompressed
  const a = bitmapOf(2, [1, 1, 0, 1]);
  const b = bitmapOf(3, [0, 0, 1, 1, 1, 1]);
  const dictBits =
    // DH 2 (B.4 '10'); DW 2 (B.2 '110'), DW 1 ('10'), OOB ('111111'); BMSIZE 0 (B.1 '0' + 4 bits); the byte's rest
    '10' +
    '110' +
    '10' +
    '111111' +
    '00000' +
    '000000' +
    // the collective bitmap, 5 × 2, rows padded to bytes
    '11' +
    '001' +
    '000' +
    '01' +
    '111' +
    '000' +
    // export runs (B.1): none not exported, 2 exported
    '00000' +
    '00010';
  const dict = Uint8Array.from([0, 1, 0, 0, 0, 2, 0, 0, 0, 2, ...bytesOf(dictBits)]);
  assertSymbols(decodeSymbolDictionary(dict, [], never), [a, b], 'hand-built dictionary');
  const enc = encodeHuffmanDictionary({ input: [], classes: [{ height: 2, symbols: [{ bitmap: a }, { bitmap: b }] }], exported: [true, true] });
  assert.deepEqual([...enc.data], [...dict]);
});

// custom tables the round trips choose (each a prefix code; some complete, some not)
// prettier-ignore
const CUSTOM = {
  dh: { low: -8, lines: [[3, 3], [3, 0], [2, 2], [2, 3], [4, 5]], lower: 4, upper: 4 } as CustomTable,
  dw: { low: -4, lines: [[3, 2], [2, 2], [2, 3], [3, 4]], lower: 5, upper: 5, oob: 3 } as CustomTable,
  bmSize: { low: 0, lines: [[2, 0], [2, 6], [2, 9]], lower: 0, upper: 3 } as CustomTable,
  aggInst: { low: 1, lines: [[1, 0], [2, 2]], lower: 0, upper: 3 } as CustomTable,
  fs: { low: -16, lines: [[2, 4], [2, 5], [3, 6]], lower: 3, upper: 3 } as CustomTable,
  ds: { low: -4, lines: [[2, 2], [2, 1], [3, 3], [4, 5]], lower: 4, upper: 4, oob: 3 } as CustomTable,
  dt: { low: -8, lines: [[3, 3], [2, 0], [2, 1], [2, 3]], lower: 4, upper: 4 } as CustomTable,
  rd: { low: -3, lines: [[3, 1], [3, 0], [1, 0], [3, 1]], lower: 4, upper: 4 } as CustomTable,
  rsize: { low: 0, lines: [[3, 3], [2, 5], [1, 7]], lower: 0, upper: 3 } as CustomTable,
};

/** height classes of direct symbols that the chosen DH and DW tables can code: B.4 only steps up, B.2 only widens */
function directClasses(rand: () => number, dh: TableChoice, dw: TableChoice): { height: number; symbols: Bitmap[] }[] {
  const classes: { height: number; symbols: Bitmap[] }[] = [];
  let h = 0;
  for (let c = 0, count = 4 + Math.floor(rand() * 3); c < count; c++) {
    h = dh === 4 || c === 0 ? h + 1 + Math.floor(rand() * 4) : Math.max(1, h + Math.floor(rand() * 9) - 4);
    const symbols: Bitmap[] = [];
    let w = 0;
    for (let k = 0, n = 1 + Math.floor(rand() * 6); k < n; k++) {
      w = dw === 2 ? (k === 0 ? 1 : w) + Math.floor(rand() * 3) : 1 + Math.floor(rand() * 10);
      symbols.push(glyph(rand, w, h));
    }
    classes.push({ height: h, symbols });
  }
  return classes;
}

test('Huffman dictionaries of direct symbols: every DH, DW and BMSIZE table, uncompressed and MMR collective bitmaps', () => {
  let n = 0;
  for (const dh of [4, 5, CUSTOM.dh])
    for (const dw of [2, 3, CUSTOM.dw])
      for (const bmSize of [1, CUSTOM.bmSize])
        for (const mmr of [false, true, 'mixed'] as const) {
          const rand = prng(100 + n++);
          const input = [glyph(rand, 5, 7), glyph(rand, 3, 4), glyph(rand, 6, 2)];
          const classes = directClasses(rand, dh, dw);
          const fresh = classes.flatMap((c) => c.symbols);
          const exported = [...input, ...fresh].map(() => rand() < 0.6);
          const { data, tables, newSymbols } = encodeHuffmanDictionary({
            input,
            classes: directSymbols(classes),
            exported,
            dh,
            dw,
            bmSize,
            mmr: mmr === 'mixed' ? classes.map((_, i) => i % 2 === 0) : mmr,
          });
          assert.equal(newSymbols.length, fresh.length);
          const what = `DH ${typeof dh === 'number' ? `B.${dh}` : 'custom'}, DW ${typeof dw === 'number' ? `B.${dw}` : 'custom'}, BMSIZE ${typeof bmSize === 'number' ? 'B.1' : 'custom'}, MMR ${mmr}`;
          assertSymbols(
            decodeSymbolDictionary(data, input, never, undefined, segmentTables(tables)),
            [...input, ...fresh].filter((_, i) => exported[i]),
            what,
          );
        }
  assert.equal(n, 54);
  // a height class without symbols still has its collective bitmap's BMSIZE (0: no rows of no pixels)
  const rand = prng(199);
  const a = glyph(rand, 4, 3);
  const b = glyph(rand, 6, 5);
  const empty = encodeHuffmanDictionary({
    input: [],
    classes: [
      { height: 3, symbols: [{ bitmap: a }] },
      { height: 4, symbols: [] },
      { height: 5, symbols: [{ bitmap: b }] },
    ],
    exported: [true, true],
    mmr: true,
  });
  assertSymbols(decodeSymbolDictionary(empty.data, [], never), [a, b], 'an empty height class');
});

test('Huffman refinement/aggregate dictionaries: one refined instance and aggregates of several, both templates', () => {
  let n = 0;
  for (const rTemplate of [0, 1] as const)
    for (const aggInst of [1, CUSTOM.aggInst])
      for (const [dh, dw] of [
        [5, 3],
        [CUSTOM.dh, CUSTOM.dw],
      ] as [TableChoice, TableChoice][]) {
        const rand = prng(200 + n++);
        // 37 input symbols: IDs of 6 bits (SBSYMCODELEN of 37 + 6 symbols)
        const input = Array.from({ length: 37 }, () => glyph(rand, 3 + Math.floor(rand() * 5), 4 + Math.floor(rand() * 5)));
        const r0 = variant(rand, input[1]);
        const r1 = variant(rand, input[0], input[0].width + 1, 9);
        const refinedInst = variant(rand, input[2], input[2].width + 1, input[2].height - 1);
        // strips go down (B.11 codes DT ≥ 1 only); the second instance of a strip may overlap the first (IDS < 0)
        const agg1: TextStrip[] = [
          {
            t: 0,
            instances: [
              { id: 1, x: 0, y: 0 },
              { id: 36, x: 3, y: 0 },
            ],
          },
          { t: 2, instances: [{ id: 2, x: 6, y: 2, refine: { bitmap: refinedInst, rdx: 1, rdy: -1 } }] },
        ];
        // an aggregate of new symbols (r0 is 37), one running past the symbol's right edge
        const agg2: TextStrip[] = [
          {
            t: 1,
            instances: [
              { id: 37, x: 1, y: 1 },
              { id: 5, x: 14, y: 1 },
            ],
          },
          { t: 4, instances: [{ id: 30, x: 2, y: 4 }] },
        ];
        const a1 = newBitmap(14, 8);
        put(a1, input[1], 0, 0);
        put(a1, input[36], 3, 0);
        put(a1, refinedInst, 6, 2);
        const a2 = newBitmap(16, 9);
        put(a2, r0, 1, 1);
        put(a2, input[5], 14, 1);
        put(a2, input[30], 2, 4);
        const r2 = variant(rand, a1, 14, 8);
        const r3 = variant(rand, r1, r1.width - 2, 9);
        const classes: { height: number; symbols: SymbolSpec[] }[] = [
          {
            height: r0.height,
            symbols: [{ bitmap: r0, refine: { id: 1, rdx: 0, rdy: 0 } }],
          },
          {
            height: 8,
            // the refinement of an aggregate (new symbol 38)
            symbols: [
              { width: 14, aggregate: agg1 },
              { bitmap: r2, refine: { id: 38, rdx: 0, rdy: 0 } },
            ],
          },
          {
            height: 9,
            // widths grow and shrink (DW < 0); the last refinement's reference far off (B.15's range lines)
            symbols: [
              { bitmap: r1, refine: { id: 0, rdx: 1, rdy: -1 } },
              { width: 16, aggregate: agg2 },
              { bitmap: r3, refine: { id: 40, rdx: -30, rdy: 27 } },
            ],
          },
        ];
        const all = [...input, r0, a1, r2, r1, a2, r3];
        const exported = all.map((_, i) => i >= 37 || i % 7 === 0);
        const { data, tables, newSymbols } = encodeHuffmanDictionary({
          input,
          classes,
          exported,
          refAgg: true,
          rTemplate,
          rAt: [
            { x: 1, y: -1 },
            { x: 0, y: -1 },
          ],
          aggInst,
          dh,
          dw,
        });
        assertBitmap(newSymbols[1], a1, 'the encoder aggregates as the test does');
        assertBitmap(newSymbols[4], a2, 'the encoder aggregates as the test does');
        const what = `GRTEMPLATE ${rTemplate}, AGGINST ${typeof aggInst === 'number' ? 'B.1' : 'custom'}, DH/DW ${typeof dh === 'number' ? 'B.5/B.3' : 'custom'}`;
        assertSymbols(
          decodeSymbolDictionary(data, input, never, undefined, segmentTables(tables)),
          all.filter((_, i) => exported[i]),
          what,
        );
      }
});

const tableName = (c: TableChoice) => (typeof c === 'number' ? `B.${c}` : 'custom');

test('Huffman text regions: every corner, transposition, 1–8 strip rows, every table selector, refined instances', () => {
  const fsChoices: TableChoice[] = [6, 7, CUSTOM.fs];
  const dsChoices: TableChoice[] = [8, 9, 10, CUSTOM.ds];
  const dtChoices: TableChoice[] = [11, 12, 13, CUSTOM.dt];
  const rdChoices: TableChoice[] = [14, 15, CUSTOM.rd];
  const rsizeChoices: TableChoice[] = [1, CUSTOM.rsize];
  const seen = new Set<string>();
  for (let i = 0; i < 48; i++) {
    const rand = prng(300 + i);
    const symbols = Array.from({ length: 3 + (i % 11) }, () => glyph(rand, 2 + Math.floor(rand() * 8), 2 + Math.floor(rand() * 8)));
    const corner = i & 3;
    const transposed = (i & 4) !== 0;
    const stripSize = [1, 2, 4, 8][(i >> 3) & 3];
    const refine = i % 3 !== 0;
    const fs = fsChoices[i % 3];
    const ds = dsChoices[Math.floor(i / 3) % 4];
    const dt = dtChoices[Math.floor(i / 2) % 4];
    const rd = [0, 1, 2, 3].map((k) => rdChoices[(i + k + Math.floor(i / 12)) % 3]);
    const rsize = rsizeChoices[Math.floor(i / 6) % 2];
    const strips = layout(rand, symbols, { stripSize, corner, transposed, refine, back: typeof dt !== 'number' });
    // symbol ID codes: all ⌈log2 SBNUMSYMS⌉ bits, or Huffman lengths from the instances' use (unused symbols: none)
    let idLengths: number[] | undefined;
    if (i % 4 === 3) {
      const counts = symbols.map(() => 0);
      for (const s of strips) for (const inst of s.instances) counts[inst.id]++;
      idLengths = huffmanLengths(counts);
    }
    const combOp = Math.floor(i / 4) % 4;
    const defPixel = (i >> 4) & 1;
    const dsOffset = [0, 3, -5, 15, -16][i % 5];
    const { data, tables } = encodeHuffmanTextRegion({
      symbols,
      strips,
      stripSize,
      refCorner: corner,
      transposed,
      combOp,
      defPixel,
      dsOffset,
      refine,
      rTemplate: (i >> 1) & 1 ? 1 : 0,
      rAt: [
        { x: -2, y: -1 },
        { x: 1, y: 1 },
      ],
      fs,
      ds,
      dt,
      ...(refine ? { rdw: rd[0], rdh: rd[1], rdx: rd[2], rdy: rd[3], rsize } : {}),
      ...(idLengths ? { idLengths } : {}),
    });
    seen
      .add(`fs ${tableName(fs)}`)
      .add(`ds ${tableName(ds)}`)
      .add(`dt ${tableName(dt)}`)
      .add(`strips ${stripSize}`);
    if (refine) {
      for (const [k, c] of rd.entries()) seen.add(`rd${k} ${tableName(c)}`);
      seen.add(`rsize ${tableName(rsize)}`);
      assert.ok(
        strips.some((s) => s.instances.some((inst) => inst.refine)),
        'a refined instance',
      );
    }
    const what = `case ${i}: corner ${corner}, ${transposed ? 'transposed' : 'upright'}, SBSTRIPS ${stripSize}, FS ${tableName(fs)}, DS ${tableName(ds)}, DT ${tableName(dt)}${refine ? `, RD ${rd.map(tableName).join('/')}, RSIZE ${tableName(rsize)}` : ''}`;
    assertBitmap(
      decodeTextRegion(data, 48, 40, symbols, never, undefined, segmentTables(tables)),
      render(48, 40, symbols, strips, defPixel, combOp),
      what,
    );
  }
  // every selector of every table occurred
  assert.equal(seen.size, 3 + 4 + 4 + 4 + 4 * 3 + 2);
});

test('Huffman text regions: symbol ID lengths in run codes 32, 33 and 34, and 256 symbols of 8 bits', () => {
  const rand = prng(400);
  // as in the symbol ID table test: 202 symbols, used ones 0–7, 13–16, 30, 200, 201
  const lengths = runCodedLengths();
  const symbols = lengths.map(() => glyph(rand, 2 + Math.floor(rand() * 6), 2 + Math.floor(rand() * 6)));
  const ids = lengths.flatMap((l, i) => (l ? [i] : []));
  const strips = layout(rand, symbols, { stripSize: 2, corner: 1, transposed: false, refine: true, back: false, ids });
  const { data, runCodes } = encodeHuffmanTextRegion({ symbols, strips, stripSize: 2, refine: true, idLengths: lengths, rdw: 15, rdh: 15 });
  for (const code of [32, 33, 34]) assert.ok(runCodes.includes(code), `run code ${code}`);
  assertBitmap(decodeTextRegion(data, 50, 40, symbols, never), render(50, 40, symbols, strips), 'run-coded symbol IDs');
  // the default lengths: 256 symbols, 8 bits each: the length, then code 32 for six symbols 42 times and three once
  const many = Array.from({ length: 256 }, () => glyph(rand, 3, 3));
  const strips2 = layout(rand, many, { stripSize: 1, corner: 3, transposed: true, refine: false, back: false });
  const enc = encodeHuffmanTextRegion({ symbols: many, strips: strips2, refCorner: 3, transposed: true });
  assert.deepEqual(enc.runCodes, [8, ...Array<number>(43).fill(32)]);
  assertBitmap(decodeTextRegion(enc.data, 50, 40, many, never), render(50, 40, many, strips2), '256 symbols');
});

test('a whole stream: page information, tables segments, a Huffman dictionary and a Huffman text region that refer to them', () => {
  const rand = prng(500);
  const classes = directClasses(rand, 5, CUSTOM.ds);
  const fresh = classes.flatMap((c) => c.symbols);
  // the dictionary's DW table is tables segment 1; it exports all its symbols but the first
  const dict = encodeHuffmanDictionary({
    input: [],
    classes: directSymbols(classes),
    exported: fresh.map((_, i) => i > 0),
    dh: 5,
    dw: CUSTOM.ds,
    mmr: true,
  });
  assert.deepEqual(dict.tables, [CUSTOM.ds]);
  const symbols = fresh.slice(1);
  const strips = layout(rand, symbols, { stripSize: 4, corner: 0, transposed: false, refine: true, back: true });
  // the text region's DS table is segment 1 again, its DT table segment 2, in the order it refers to them
  const text = encodeHuffmanTextRegion({ symbols, strips, stripSize: 4, refCorner: 0, refine: true, ds: CUSTOM.ds, dt: CUSTOM.dt, rdx: 15 });
  assert.deepEqual(text.tables, [CUSTOM.ds, CUSTOM.dt]);
  const stream = new Uint8Array([
    ...segment(0, 48, pageInfo(64, 48)),
    ...segment(1, 53, encodeTableSegment(CUSTOM.ds)),
    ...segment(2, 53, encodeTableSegment(CUSTOM.dt)),
    ...segment(3, 0, dict.data, [1]),
    ...segment(4, 6, [...regionInfo(50, 40, 9, 5, 0), ...text.data], [3, 1, 2]),
    ...segment(5, 49, []),
  ]);
  const r = decodeJbig2(stream, undefined, 64, 48, 4 * 64 * 48, never);
  assert.ok(r.ok, r.ok ? '' : r.error);
  const page = newBitmap(64, 48);
  put(page, render(50, 40, symbols, strips), 9, 5);
  assertBitmap(r.page, page, 'the page');
  // the same with the first tables segment and the dictionary in /JBIG2Globals
  const globals = decodeJbig2Globals(
    new Uint8Array([...segment(1, 53, encodeTableSegment(CUSTOM.ds), [], { page: 0 }), ...segment(3, 0, dict.data, [1], { page: 0 })]),
    64,
    48,
    4 * 64 * 48,
    never,
  );
  assert.ok(globals.ok, globals.ok ? '' : globals.error);
  const local = new Uint8Array([
    ...segment(0, 48, pageInfo(64, 48)),
    ...segment(2, 53, encodeTableSegment(CUSTOM.dt)),
    ...segment(4, 6, [...regionInfo(50, 40, 9, 5, 0), ...text.data], [3, 1, 2]),
    ...segment(5, 49, []),
  ]);
  const g = decodeJbig2(local, globals.globals, 64, 48, 4 * 64 * 48, never);
  assert.ok(g.ok, g.ok ? '' : g.error);
  assertBitmap(g.page, page, 'the page with globals');
  // the text region without the DT table it refers to: an error, not a page
  const missing = new Uint8Array([
    ...segment(0, 48, pageInfo(64, 48)),
    ...segment(1, 53, encodeTableSegment(CUSTOM.ds)),
    ...segment(3, 0, dict.data, [1]),
    ...segment(4, 6, [...regionInfo(50, 40, 9, 5, 0), ...text.data], [3, 1]),
  ]);
  const m = decodeJbig2(missing, undefined, 64, 48, 4 * 64 * 48, never);
  assert.ok(!m.ok && /custom T delta table/.test(m.error), m.ok ? 'decoded' : m.error);
});

/** the decoders' error string (a failure when they decoded something) */
function errorOf(r: Bitmap | Bitmap[] | string): string {
  if (typeof r !== 'string') assert.fail('decoded, not refused');
  return r;
}

/** a result of the decoders, which must be an error string, bitmaps or a bitmap */
function checkResult(r: Bitmap | Bitmap[] | string): void {
  assert.ok(typeof r === 'string' || Array.isArray(r) || (typeof r === 'object' && r !== null && 'data' in r));
}

test('damage gives error strings: every truncation, random bit flips', () => {
  const rand = prng(600);
  const input = [glyph(rand, 5, 7), glyph(rand, 3, 4)];
  const classes = directSymbols(directClasses(rand, 5, 3));
  const exported = [...input, ...classes.flatMap((c) => c.symbols)].map((_, i) => i % 2 === 1);
  const plain = encodeHuffmanDictionary({ input, classes, exported, dh: 5, dw: 3 });
  const mmr = encodeHuffmanDictionary({ input, classes, exported, dh: CUSTOM.dh, dw: 3, bmSize: CUSTOM.bmSize, mmr: true });
  const refAgg = encodeHuffmanDictionary({
    input,
    classes: [
      {
        height: 7,
        symbols: [
          { bitmap: variant(rand, input[0]), refine: { id: 0, rdx: 0, rdy: 0 } },
          {
            width: 12,
            aggregate: [
              {
                t: 0,
                instances: [
                  { id: 0, x: 0, y: 0 },
                  { id: 1, x: 6, y: 0, refine: { bitmap: variant(rand, input[1]), rdx: 1, rdy: 0 } },
                ],
              },
            ],
          },
        ],
      },
    ],
    exported: [true, false, true, true],
    refAgg: true,
    dh: 5,
    dw: 3,
  });
  const symbols = Array.from({ length: 6 }, () => glyph(rand, 2 + Math.floor(rand() * 8), 2 + Math.floor(rand() * 8)));
  const strips = layout(rand, symbols, { stripSize: 4, corner: 1, transposed: false, refine: true, back: false });
  const text = encodeHuffmanTextRegion({ symbols, strips, stripSize: 4, refine: true, fs: CUSTOM.fs, rsize: CUSTOM.rsize });
  const dicts: [string, Uint8Array, Bitmap[], CustomTable[]][] = [
    ['uncompressed', plain.data, input, plain.tables],
    ['MMR', mmr.data, input, mmr.tables],
    ['refinement/aggregate', refAgg.data, input, refAgg.tables],
  ];
  for (const [what, data, inp, custom] of dicts) {
    const t = segmentTables(custom);
    assert.equal(typeof decodeSymbolDictionary(data, inp, never, undefined, t), 'object', what);
    // the last byte holds the last export run's last bits: every shorter dictionary runs out of data
    for (let n = 0; n < data.length; n++)
      assert.equal(typeof decodeSymbolDictionary(data.subarray(0, n), inp, never, undefined, t), 'string', `${what}, ${n} bytes`);
  }
  const textTables = segmentTables(text.tables);
  assert.equal(typeof decodeTextRegion(text.data, 40, 30, symbols, never, undefined, textTables), 'object');
  // the last byte holds the last strip's OOB
  for (let n = 0; n < text.data.length; n++)
    assert.equal(
      typeof decodeTextRegion(text.data.subarray(0, n), 40, 30, symbols, never, undefined, textTables),
      'string',
      `text region, ${n} bytes`,
    );

  const started = Date.now();
  const clock = () => Date.now() - started > 2000;
  for (let k = 0; k < 150; k++) {
    for (const [, data, inp, custom] of dicts) {
      const d = data.slice();
      for (let j = 0; j < 1 + (k % 4); j++) d[Math.floor(rand() * d.length)] ^= 1 << Math.floor(rand() * 8);
      checkResult(decodeSymbolDictionary(d, inp, clock, undefined, segmentTables(custom)));
    }
    const t = text.data.slice();
    for (let j = 0; j < 1 + (k % 4); j++) t[Math.floor(rand() * t.length)] ^= 1 << Math.floor(rand() * 8);
    checkResult(decodeTextRegion(t, 40, 30, symbols, clock, undefined, textTables));
    // garbage after Huffman flags words
    const g = Uint8Array.from({ length: 8 + Math.floor(rand() * 60) }, () => Math.floor(rand() * 256));
    g[1] |= 1;
    checkResult(decodeSymbolDictionary(g, input, clock, undefined, textTables));
    checkResult(decodeTextRegion(g, 40, 30, symbols, clock, undefined, textTables));
  }
  assert.ok(Date.now() - started < 10000, `${Date.now() - started} ms`);
});

test('refused with an error string: custom tables not referred, undefined selectors, long range lines, codes a table lacks, OOB', () => {
  const rand = prng(700);
  const symbols = [glyph(rand, 4, 5), glyph(rand, 3, 3)];
  const strips = layout(rand, symbols, { stripSize: 1, corner: 1, transposed: false, refine: false, back: false });
  // custom S delta table, no tables given (or one table where two are named)
  const text = encodeHuffmanTextRegion({ symbols, strips, ds: CUSTOM.ds, dt: CUSTOM.dt });
  assert.match(errorOf(decodeTextRegion(text.data, 30, 30, symbols, never)), /custom S delta table that is not there/);
  assert.match(errorOf(decodeTextRegion(text.data, 30, 30, symbols, never, undefined, segmentTables([CUSTOM.ds]))), /custom T delta table/);
  assertBitmap(
    decodeTextRegion(text.data, 30, 30, symbols, never, undefined, segmentTables(text.tables)),
    render(30, 30, symbols, strips),
    'both given',
  );
  const dict = encodeHuffmanDictionary({
    input: [],
    classes: [{ height: 2, symbols: [{ bitmap: glyph(rand, 3, 2) }] }],
    exported: [true],
    dw: CUSTOM.dw,
  });
  assert.match(errorOf(decodeSymbolDictionary(dict.data, [], never)), /custom symbol width delta table/);
  // selectors the recommendation leaves undefined: FS 2, DH 2
  const fs2 = encodeHuffmanTextRegion({ symbols, strips, huffmanFlags: 2 });
  assert.match(errorOf(decodeTextRegion(fs2.data, 30, 30, symbols, never)), /first S table selector 2/);
  const dh2 = encodeHuffmanDictionary({
    input: [],
    classes: [{ height: 2, symbols: [{ bitmap: glyph(rand, 3, 2) }] }],
    exported: [true],
    extraFlags: 8,
  });
  assert.match(errorOf(decodeSymbolDictionary(dh2.data, [], never)), /height class delta table selector 2/);

  // a tables segment whose line needs 33 range bits (HTRS 6): refused by the segment decoder and by the stream
  const long = encodeTableSegment({ low: 0, lines: [[1, 33]], high: 10, lower: 1, upper: 0 });
  assert.throws(() => decodeTableSegment(long), HuffmanError);
  const stream = new Uint8Array([...segment(0, 48, pageInfo(16, 16)), ...segment(1, 53, long), ...segment(2, 49, [])]);
  const r = decodeJbig2(stream, undefined, 16, 16, 4 * 256, never);
  assert.ok(!r.ok && /33 range bits/.test(r.error), r.ok ? 'decoded' : r.error);
  // truncated tables segments
  const seg = encodeTableSegment(CUSTOM.ds);
  for (let n = 0; n < seg.length; n++) assert.throws(() => decodeTableSegment(seg.subarray(0, n)), HuffmanError, `${n} bytes`);

  // a first S below HTLOW (the lower range line, code 11) read with a table whose lower line has no code: 11 is no code
  // prettier-ignore
  const complete: CustomTable = { low: 0, lines: [[2, 4], [2, 4], [2, 4]], lower: 2, upper: 0 };
  const incomplete: CustomTable = { ...complete, lower: 0 };
  const g = glyph(rand, 5, 4);
  const left: TextStrip[] = [{ t: 1, instances: [{ id: 0, x: -3, y: 1 }] }];
  const enc = encodeHuffmanTextRegion({ symbols: [g], strips: left, fs: complete });
  assertBitmap(decodeTextRegion(enc.data, 10, 8, [g], never, undefined, segmentTables([complete])), render(10, 8, [g], left), 'clipped at the left');
  assert.equal(decodeTextRegion(enc.data, 10, 8, [g], never, undefined, segmentTables([incomplete])), 'a Huffman code its table does not have');

  // by hand: a custom DT table with OOB, and OOB where the first strip's T belongs; an OOB first S; an OOB width delta
  // where a dictionary's first symbol's is expected with B.3 is fine (it ends the class), but an OOB height delta is not
  const dtOob: CustomTable = { low: 0, lines: [[1, 3]], lower: 0, upper: 2, oob: 2 };
  const w = new BitWriter();
  writeSymbolIdTable(w, [1]);
  new HuffmanCode(tableLines(dtOob)).put(w, null);
  const oobText = Uint8Array.from([0, 0x11, 0, 0x30, 0, 0, 0, 1, ...w.finish()]);
  assert.equal(decodeTextRegion(oobText, 8, 8, [g], never, undefined, segmentTables([dtOob])), 'text region: out-of-band initial strip T');
  const dhOob: CustomTable = { low: 1, lines: [[1, 4]], lower: 0, upper: 2, oob: 2 };
  const d = new BitWriter();
  new HuffmanCode(tableLines(dhOob)).put(d, null);
  const oobDict = Uint8Array.from([0, 0x0d, 0, 0, 0, 1, 0, 0, 0, 1, ...d.finish()]);
  assert.equal(decodeSymbolDictionary(oobDict, [], never, undefined, segmentTables([dhOob])), 'symbol dictionary: out-of-band height class delta');
});

test('the tables a stream keeps are bounded: 4,096 lines a table, 65,536 in all', () => {
  // a table of 4,097 one-value lines (HTLOW 0 to HTHIGH 4,097), then one of 4,096
  const long = (n: number) =>
    encodeTableSegment({ low: 0, lines: Array.from({ length: n }, () => [13, 0] as [number, number]), lower: 13, upper: 13 });
  assert.throws(() => decodeTableSegment(long(4097)), /more than 4096 lines/);
  assert.equal(decodeTableSegment(long(4096)).size, 4098);
  const page = segment(0, 48, pageInfo(8, 8));
  const why = (segs: number[][]) => {
    const r = decodeJbig2(new Uint8Array([...page, ...segs.flat()]), undefined, 8, 8, 256, never);
    return r.ok ? 'read' : r.error;
  };
  // each such table counts 4,099 lines: fifteen are 61,485, sixteen 65,584 (the sixteenth is refused)
  const tables = (n: number) => Array.from({ length: n }, (_, i) => segment(i + 1, 53, long(4096)));
  assert.equal(why([...tables(15), segment(16, 49, [])]), 'read');
  assert.match(why(tables(16)), /Huffman tables are larger than the decoder keeps/);
});
