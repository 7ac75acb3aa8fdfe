// CCITTFaxDecode (layerQuality/ccitt.ts): Group 4, and T.4 one- and two-dimensional coding, as bilevel scans use them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFax, FAX_CODE_WORDS, type FaxParams } from '../src/analyzer/layerQuality/ccitt';
import { encodeFax } from '../scripts/fax-encoder';
import { prng } from '../scripts/fuzz';

// A 40 × 10 image coded by libtiff 4.5 (`tiffcp -c g4`, `-c g3:1d`, `-c g3:2d:fill`, one strip): the codes of another
// writer, so the tables and modes are checked against the recommendations as libtiff reads them, not against ourselves.
const IMAGE = [
  '........................................',
  '...#.....###.....#...####......#.###..#.',
  '.....####...#.....###.....#...####......',
  '.#.###..#......###....#....###......#..#',
  '###...#.....###.....#...####......#.###.',
  '########################################',
  '....#.###..#......###....#....###......#',
  '...###.........###.........###.........#',
  '####......#.###..#......###....#....###.',
  '.....#...####......#.###..#......###....',
];
const LIBTIFF: [number, string][] = [
  [
    -1,
    '98472388c33c88f04a247661336150210c8e82045d082046d3370254c2084102082104104143c4444459b4478ba3d1b46e54c41021040b0411e40811740811b409448e90842474081174208140040040',
  ],
  [0, '001290018596287c879d0e0038e1658a1f0008e879d756aee4e8004d68596287c87870013506c001b43cebab57720018a952a2001357c879d756ae1c007143e43cebab'],
  [
    1,
    '000194800118472388c33c88f04a0001e38596287c000111d0408ba10408da66e04a00019ad0b2c50f90f0e001444444580001da1e75d5abb9000126208108205800019abe43cebab570e001091d210848e81022e8410280',
  ],
];

const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
const params = (k: number, columns: number, rows: number, more: Partial<FaxParams> = {}): FaxParams => ({
  k,
  columns,
  rows,
  byteAlign: false,
  blackIs1: true,
  ...more,
});
/** the decoded lines as '#' (black) and '.' */
function picture(data: Uint8Array, columns: number, rows: number, blackIs1 = true): string[] {
  const rb = (columns + 7) >> 3;
  const out: string[] = [];
  for (let y = 0; y < rows; y++) {
    let s = '';
    for (let x = 0; x < columns; x++) s += ((data[y * rb + (x >> 3)] >> (7 - (x & 7))) & 1) === (blackIs1 ? 1 : 0) ? '#' : '.';
    out.push(s);
  }
  return out;
}

test("libtiff's Group 4, one-dimensional and two-dimensional codes decode to the image, with BlackIs1 either way", () => {
  for (const [k, code] of LIBTIFF) {
    const r = decodeFax(hex(code), params(k, 40, 10));
    assert.equal(r.error, undefined, `K ${k}`);
    assert.equal(r.rows, 10, `K ${k}`);
    assert.deepEqual(picture(r.data, 40, 10), IMAGE, `K ${k}`);
    // PDF's default: 0 is black
    const d = decodeFax(hex(code), params(k, 40, 10, { blackIs1: false }));
    assert.deepEqual(picture(d.data, 40, 10, false), IMAGE, `K ${k}, BlackIs1 false`);
  }
});

/**
 * Every run code of both colours: white runs 0 to 63 beside black runs 63 to 0, then runs of 64 × k (+ a few pixels) for
 * k = 1 to 40 (every make-up and extended make-up code), laid along 6000-pixel lines, white first, the rest white.
 */
function allRunsImage(): string[] {
  const whites = [...Array(64).keys(), ...Array.from({ length: 40 }, (_, i) => 64 * (i + 1) + ((i + 1) % 64))];
  const blacks = [...Array.from({ length: 64 }, (_, i) => 63 - i), ...Array.from({ length: 40 }, (_, i) => 64 * (i + 1) + (((i + 1) * 7) % 64))];
  const lines: string[] = [];
  let cur = '';
  whites.forEach((w, i) => {
    if (cur.length + w + blacks[i] > 6000) {
      lines.push(cur.padEnd(6000, '.'));
      cur = '';
    }
    cur += '.'.repeat(w) + '#'.repeat(blacks[i]);
  });
  lines.push(cur.padEnd(6000, '.'));
  return lines;
}
// that image as libtiff codes it one-dimensionally (`tiffcp -c g3:1d`): 25 lines
const ALL_RUNS =
  '001350671c199c16a00b2c0af01678163c0a2604f4038381ba009080530c14b4065d4192a057ac159382a8c054101b65c36818368406c501aeac358986aa40d4301a6041a406' +
  '0d6340d4360d2240d02619a281982a1962c1942e060a00b948282a06e561b0b034168670402014180a05c2c30a40ea608a81d54292042511605591ad12d9a534b8cb33523503' +
  'c7270c8075e03243637b05b0cc681b00136c0330d337e0340da64f03506565981b00a1a2806d0676c2800167381289988025823348026068690604d0cb00169e80720d26a6a0' +
  '7306d6ad4074064dcc005ad581d409dae9c0ec0ccda50002d81807736c880290769ac800b68b814c33b6c18150328dd4000a60201541ac07cdd6400532a00b40d803edc2c005' +
  '34ac0b60ae03f22900160981900e007c6c00536900ca0b403aa00040418010c072a00101804030280b4c004068180d020050d4004048680480c00d590010131b01306a010160' +
  '02028240281aec1480080a8980a82b2646c004058500580ddb6a000405c5405c0b1b3500080e0b00e4d8980080e8b80e846b1a80080f1400f030d35900101f2901f02ecd0b';

test('every run code, terminating and make-up, of both colours decodes as libtiff wrote it', () => {
  const want = allRunsImage();
  assert.equal(want.length, 25);
  const r = decodeFax(hex(ALL_RUNS), params(0, 6000, 25));
  assert.equal(r.error, undefined);
  assert.equal(r.rows, 25);
  assert.deepEqual(picture(r.data, 6000, 25), want);
});

test('each code table is a prefix code of the sizes T.4 gives, and no code word starts like an end-of-line', () => {
  const w = (s: string) => s.split(' ');
  const sets = {
    white: [...w(FAX_CODE_WORDS.WHITE_TERMINATING), ...w(FAX_CODE_WORDS.WHITE_MAKEUP), ...w(FAX_CODE_WORDS.EXTENDED_MAKEUP)],
    black: [...w(FAX_CODE_WORDS.BLACK_TERMINATING), ...w(FAX_CODE_WORDS.BLACK_MAKEUP), ...w(FAX_CODE_WORDS.EXTENDED_MAKEUP)],
    modes: w(FAX_CODE_WORDS.MODES),
  };
  assert.equal(w(FAX_CODE_WORDS.WHITE_TERMINATING).length, 64);
  assert.equal(w(FAX_CODE_WORDS.BLACK_TERMINATING).length, 64);
  assert.equal(w(FAX_CODE_WORDS.WHITE_MAKEUP).length, 27);
  assert.equal(w(FAX_CODE_WORDS.BLACK_MAKEUP).length, 27);
  assert.equal(w(FAX_CODE_WORDS.EXTENDED_MAKEUP).length, 13);
  for (const [name, codes] of Object.entries(sets)) {
    for (const a of codes) {
      assert.match(a, /^[01]{1,13}$/, name);
      assert.ok(!a.startsWith('00000000000'), `${name} ${a}`);
      for (const b of codes) if (a !== b) assert.ok(!b.startsWith(a), `${name}: ${a} is a prefix of ${b}`);
    }
    // the words' Kraft sum is at most 1; the run codes leave room only for words that start with seven zeros (the
    // end-of-line), the modes for the extension code (0000001) and the end-of-line too
    const kraft = codes.reduce((s, c) => s + 2 ** -c.length, 0);
    assert.ok(kraft <= 1 && kraft >= 1 - (name === 'modes' ? 2 ** -6 : 2 ** -7), `${name} Kraft sum ${kraft}`);
  }
});

/** a seeded image: random runs, some longer than 2560 pixels (two make-up codes), and lines copied from the one above */
function randomImage(seed: number, columns: number, rows: number): boolean[][] {
  const rnd = prng(seed);
  const out: boolean[][] = [];
  for (let y = 0; y < rows; y++) {
    if (y > 0 && rnd() < 0.3) {
      out.push([...out[y - 1]]);
      continue;
    }
    const line: boolean[] = [];
    let black = rnd() < 0.5;
    while (line.length < columns) {
      const n = rnd() < 0.1 ? Math.floor(rnd() * 6000) : 1 + Math.floor(rnd() * 40);
      for (let i = 0; i < n && line.length < columns; i++) line.push(black);
      black = !black;
    }
    out.push(line);
  }
  return out;
}

test('round trips: Group 4 lines, one-dimensional lines with and without end-of-line codes and byte alignment', () => {
  for (const [seed, columns] of [
    [1, 1],
    [2, 37],
    [3, 1728],
    [4, 6000],
  ]) {
    const img = randomImage(seed, columns, 24);
    const want = img.map((l) => l.map((b) => (b ? '#' : '.')).join(''));
    const cases: [-1 | 0, { eol?: boolean; byteAlign?: boolean }][] = [
      [-1, {}],
      [-1, { byteAlign: true }],
      [0, {}],
      [0, { eol: true }],
      [0, { byteAlign: true }],
      [0, { eol: true, byteAlign: true }],
    ];
    for (const [k, o] of cases) {
      const r = decodeFax(encodeFax(img, k, o), params(k, columns, 24, { byteAlign: o.byteAlign === true }));
      assert.equal(r.error, undefined, `${columns} K ${k} ${JSON.stringify(o)}`);
      assert.deepEqual(picture(r.data, columns, 24), want, `${columns} K ${k} ${JSON.stringify(o)}`);
    }
  }
});

test('data that ends early or breaks leaves the lines short, with the line it broke on; nothing throws', () => {
  const g4 = hex(LIBTIFF[0][1]);
  const short = decodeFax(g4.subarray(0, 20), params(-1, 40, 10));
  assert.ok(short.rows < 10, `rows ${short.rows}`);
  // a byte of zeros inside a line: no code word begins with eight zeros and a one there
  const broken = g4.slice();
  broken.fill(0, 30, 32);
  const b = decodeFax(broken, params(-1, 40, 10));
  assert.ok(b.rows < 10 && b.error !== undefined && /^line \d+: /.test(b.error), JSON.stringify(b.error));
  // the wrong width: the codes run past the line's end, or the lines come out wrong; never a throw
  assert.doesNotThrow(() => decodeFax(g4, params(-1, 7, 10)));
  // zeros past any fill where a one-dimensional line should begin (the bit after the longest fill is no end-of-line)
  const zeros = new Uint8Array(2000);
  zeros[1000] = 0xff;
  const z = decodeFax(zeros, params(0, 40, 10));
  assert.equal(z.rows, 0);
  assert.match(String(z.error), /^line 1: zeros where a line should begin/);
  // parameters no image has: an error, no throw
  for (const bad of [params(-1, 0, 10), params(-1, Number.NaN, 10), params(-1, 40, -1), params(-1, 2.5, 3)])
    assert.deepEqual(decodeFax(g4, bad), { data: new Uint8Array(0), rows: 0, error: 'no image of these parameters' });
  // asked for more lines than coded: the image ends at the end-of-block code
  assert.equal(decodeFax(g4, params(-1, 40, 50)).rows, 10);
});

test('random bytes never throw, and cost at most about the image they are decoded into', () => {
  const rnd = prng(7);
  const t0 = Date.now();
  for (let i = 0; i < 300; i++) {
    const src = new Uint8Array(1 + Math.floor(rnd() * 3000)).map(() => Math.floor(rnd() * 256));
    const k = [-1, 0, 1][i % 3];
    const r = decodeFax(src, params(k, 1 + Math.floor(rnd() * 3000), 1 + Math.floor(rnd() * 200), { byteAlign: i % 5 === 0 }));
    assert.ok(r.rows >= 0 && r.data.length === Math.ceil(r.data.length));
  }
  // generous: 300 images of up to 3000 × 200 pixels
  assert.ok(Date.now() - t0 < 20_000, `${Date.now() - t0} ms`);
});

test('the deadline stops decoding between lines', () => {
  const img = randomImage(9, 500, 200);
  const r = decodeFax(encodeFax(img, -1), params(-1, 500, 200), Date.now() - 1);
  assert.equal(r.outOfTime, true);
  assert.ok(r.rows > 0 && r.rows < 200, `rows ${r.rows}`);
});
