// JPEG 2000 tier-1 (layerQuality/mq.ts, layerQuality/jpxBlock.ts): the MQ decoder against the recommendation's test
// sequence, the code-block decoder against decisions derived by hand from Annex D, round trips through the test-only
// encoder (scripts/jpx-block-encoder.ts) for every code-block style and truncation point, and garbage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MqDecoder } from '../src/analyzer/layerQuality/mq';
import { type CodeBlock, type CodeBlockStyle, decodeCodeBlock, type JpxBand } from '../src/analyzer/layerQuality/jpxBlock';
import { encodeCodeBlock, MqEncoder, NO_STYLE } from '../scripts/jpx-block-encoder';
import { prng } from '../scripts/fuzz';

const hex = (s: string) => new Uint8Array(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const bitsOf = (bytes: Uint8Array) => Array.from(bytes, (b) => Array.from({ length: 8 }, (_, k) => (b >> (7 - k)) & 1)).flat();

// ITU-T T.88 Annex H.2 (the same test as T.800's for the MQ coder): 256 decisions in one context, and their code.
const MQ_PLAIN = hex('00 02 00 51 00 00 00 C0 03 52 87 2A AA AA AA AA 82 C0 20 00 FC D7 9E F6 BF 7F ED 90 4F 46 A3 BF');
const MQ_CODED = hex('84 C7 3B FC E1 A1 43 04 02 20 00 00 41 0D BB 86 F4 31 7F FF 88 FF 37 47 1A DB 6A DF FF AC');

function mqDecodeAll(data: Uint8Array, start: number, end: number, n: number): number[] {
  const mq = new MqDecoder(data, start, end);
  const cx = new Uint8Array(1);
  return Array.from({ length: n }, () => mq.decode(cx, 0));
}

test("the MQ decoder decodes the recommendation's test sequence", () => {
  assert.deepEqual(mqDecodeAll(MQ_CODED, 0, MQ_CODED.length, 256), bitsOf(MQ_PLAIN));
  // the same bytes inside a larger buffer
  const padded = new Uint8Array(MQ_CODED.length + 7);
  padded.set(MQ_CODED, 3);
  assert.deepEqual(mqDecodeAll(padded, 3, 3 + MQ_CODED.length, 256), bitsOf(MQ_PLAIN));
});

test("the test encoder writes the recommendation's code for the test sequence", () => {
  const enc = new MqEncoder();
  const cx = new Uint8Array(1);
  for (const bit of bitsOf(MQ_PLAIN)) enc.encode(cx, 0, bit);
  const code = enc.flush();
  // T.88's code ends in the 0xFFAC marker, after the flushed bytes (whose final 0xFF the encoder drops)
  assert.deepEqual(Array.from(code), Array.from(MQ_CODED.subarray(0, MQ_CODED.length - 2)));
});

test('the MQ decoder feeds 1 bits at a marker and past the end, and several contexts keep their own states', () => {
  const rnd = prng(7);
  for (let round = 0; round < 50; round++) {
    const n = 1 + Math.floor(rnd() * 2000);
    const skew = rnd();
    const symbols = Array.from({ length: n }, () => [Math.floor(rnd() * 5), rnd() < skew ? 1 : 0]);
    const enc = new MqEncoder();
    const ecx = new Uint8Array(5);
    ecx[3] = 46 << 1;
    for (const [c, d] of symbols) enc.encode(ecx, c, d);
    const code = enc.flush();
    const decodeWith = (bytes: Uint8Array, end: number) => {
      const dcx = new Uint8Array(5);
      dcx[3] = 46 << 1;
      const mq = new MqDecoder(bytes, 0, end);
      return symbols.map(([c]) => mq.decode(dcx, c));
    };
    const want = symbols.map(([, d]) => d);
    assert.deepEqual(decodeWith(code, code.length), want, `round ${round}`);
    // a marker (0xFF, then a byte above 0x8F) ends the data; bytes after it are never read
    const marked = new Uint8Array(code.length + 6);
    marked.set(code);
    marked.set([0xff, 0x90 + ((round * 13) % 0x70), 0x12, 0x34, 0x56, 0x78], code.length);
    assert.deepEqual(decodeWith(marked, marked.length), want, `round ${round} marker`);
    // `end` is honoured: what lies after it is not read
    const beyond = new Uint8Array(code.length + 4).fill(0x00);
    beyond.set(code);
    assert.deepEqual(decodeWith(beyond, code.length), want, `round ${round} end`);
  }
});

test('the MQ decoder: 0xFF then a byte above 0x8F is a marker (1 bits from there), up to 0x8F a stuffed data byte', () => {
  // in the uniform context (state 46, Qe fixed) every decision depends on the code register's bits
  const uniform = (bytes: number[]) => {
    const mq = new MqDecoder(Uint8Array.from(bytes), 0, bytes.length);
    const cx = Uint8Array.of(46 << 1);
    return Array.from({ length: 64 }, () => mq.decode(cx, 0)).join('');
  };
  const ones = uniform([]);
  assert.equal(uniform([0xff, 0xff, 0xff]), ones);
  for (let second = 0x90; second <= 0xff; second++) assert.equal(uniform([0xff, second, 0, 0, 0, 0]), ones, second.toString(16));
  for (let second = 0x00; second <= 0x8f; second += 0x0f) assert.notEqual(uniform([0xff, second, 0, 0, 0, 0]), ones, second.toString(16));
  assert.equal(uniform([0x12, 0x34, 0xff, 0xab, 0, 0]), uniform([0x12, 0x34]));
  assert.notEqual(uniform([0x12, 0x34, 0xff, 0x7f, 0, 0]), uniform([0x12, 0x34]));
});

// ---- the code-block decoder against decisions derived by hand from Annex D ----------------------------------------

/** Table D.7's initial states, written here from the recommendation rather than taken from the encoder */
function tableD7(): Uint8Array {
  const cx = new Uint8Array(19);
  cx[0] = 4 << 1;
  cx[17] = 3 << 1;
  cx[18] = 46 << 1;
  return cx;
}

/** codes [context, decision] pairs as one MQ segment */
function script(decisions: [number, number][]): Uint8Array {
  const enc = new MqEncoder();
  const cx = tableD7();
  for (const [c, d] of decisions) enc.encode(cx, c, d);
  return enc.flush();
}

function decode(cb: CodeBlock): number[] {
  const out = new Float32Array(cb.width * cb.height).fill(NaN);
  const r = decodeCodeBlock(cb, out, 0, cb.width);
  assert.deepEqual(r, { ok: true });
  return Array.from(out);
}

function block(
  width: number,
  height: number,
  band: JpxBand,
  bitPlanes: number,
  decisions: [number, number][],
  passes: number,
  style = NO_STYLE,
): CodeBlock {
  const data = script(decisions);
  return { width, height, band, bitPlanes, data, segments: [{ offset: 0, length: data.length, passes }], style };
}

test('hand-derived decisions: a lone negative coefficient', () => {
  // 1 × 1, one cleanup pass: zero coding in context 0 (no neighbours), the sign in context 9 (XOR 0)
  assert.deepEqual(
    decode(
      block(
        1,
        1,
        'LL',
        1,
        [
          [0, 1],
          [9, 1],
        ],
        1,
      ),
    ),
    [-1],
  );
  assert.deepEqual(
    decode(
      block(
        1,
        1,
        'HH',
        1,
        [
          [0, 1],
          [9, 0],
        ],
        1,
      ),
    ),
    [1],
  );
});

test('hand-derived decisions: run-length coding and the zero-coding contexts of each band', () => {
  // 4 × 4, one cleanup pass, only (x 0, y 2) = +1. Column 0 is a run: run-length 1, uniform 1 0 (row 2), sign in 9,
  // then row 3 sees its north neighbour. Column 1 touches the new coefficient, so it is coded sample by sample:
  // rows 0..3 see nothing, a diagonal (SW), a horizontal (W), a diagonal (NW). Columns 2 and 3 are runs of zeros.
  const contexts: Record<JpxBand, number[]> = { LL: [3, 0, 1, 5, 1], LH: [3, 0, 1, 5, 1], HL: [5, 0, 1, 3, 1], HH: [1, 0, 3, 1, 3] };
  for (const band of ['LL', 'LH', 'HL', 'HH'] as const) {
    const [below, c10, c11, c12, c13] = contexts[band];
    const decisions: [number, number][] = [
      [17, 1],
      [18, 1],
      [18, 0],
      [9, 0],
      [below, 0],
      [c10, 0],
      [c11, 0],
      [c12, 0],
      [c13, 0],
      [17, 0],
      [17, 0],
    ];
    const want = new Array<number>(16).fill(0);
    want[8] = 1;
    assert.deepEqual(decode(block(4, 4, band, 1, decisions, 1)), want, band);
  }
});

test('hand-derived decisions: sign contexts with the XOR bit, refinement, and the mid-point of missing planes', () => {
  // 2 × 1, values −1 −1: the second sees a negative west neighbour, so sign context 12 with XOR 1 (coded 0)
  const zc: Record<JpxBand, number> = { LL: 5, LH: 5, HL: 3, HH: 1 };
  for (const band of ['LL', 'LH', 'HL', 'HH'] as const) {
    assert.deepEqual(
      decode(
        block(
          2,
          1,
          band,
          1,
          [
            [0, 1],
            [9, 1],
            [zc[band], 1],
            [12, 0],
          ],
          1,
        ),
      ),
      [-1, -1],
      band,
    );
  }
  // 2 × 1, values 2 1, two planes: cleanup (plane 1): 1 in 0, sign 0 in 9, 0 in 5; significance (plane 0): the second
  // becomes significant (5, then sign 12 XOR 0); refinement: the first, whose neighbour is now significant, in 15
  const decisions: [number, number][] = [
    [0, 1],
    [9, 0],
    [5, 0],
    [5, 1],
    [12, 0],
    [15, 0],
  ];
  assert.deepEqual(decode(block(2, 1, 'LL', 2, decisions, 4)), [2, 1]);
  assert.deepEqual(decode(block(2, 1, 'LL', 2, decisions, 3)), [2, 1]);
  // after the significance pass the first still lacks plane 0: mid-point of [2, 4)
  assert.deepEqual(decode(block(2, 1, 'LL', 2, decisions.slice(0, 5), 2)), [3, 1]);
  // after the top cleanup alone: 2 + 1, and the second is not significant yet
  assert.deepEqual(decode(block(2, 1, 'LL', 2, decisions.slice(0, 3), 1)), [3, 0]);
});

test('hand-derived decisions: vertically causal context formation ignores the next stripe', () => {
  // 1 × 8, two planes, y 3 = 1 and y 4 = 2. Plane 1's cleanup: stripe 0 is a run of zeros; stripe 1 a run whose
  // first coefficient (y 4) is significant, then y 5 sees it (3) and y 6, y 7 see nothing.
  const top: [number, number][] = [
    [17, 0],
    [17, 1],
    [18, 0],
    [18, 0],
    [9, 0],
    [3, 0],
    [0, 0],
    [0, 0],
  ];
  const want = [0, 0, 0, 1, 2, 0, 0, 0];
  // Plane 0 normally: y 3 sees y 4 below it (significance in 3, sign in 10), y 5 sees y 4 (3); the refinement of y 4
  // sees y 3 (15); the cleanup codes y 0, y 1, y 2 (y 2 sees y 3: 3), then y 6 and y 7.
  const normal: [number, number][] = [
    [3, 1],
    [10, 0],
    [3, 0],
    [15, 0],
    [0, 0],
    [0, 0],
    [3, 0],
    [0, 0],
    [0, 0],
  ];
  assert.deepEqual(decode(block(1, 8, 'LL', 2, [...top, ...normal], 4)), want);
  // Vertically causal: y 3 may not look at y 4, so the significance pass codes only y 5; the refinement of y 4 sees
  // no significant neighbour (14); stripe 0 is a run in the cleanup, with y 3 (uniform 1 1) significant, sign in 9.
  const causal: [number, number][] = [
    [3, 0],
    [14, 0],
    [17, 1],
    [18, 1],
    [18, 1],
    [9, 0],
    [0, 0],
    [0, 0],
  ];
  const style = { ...NO_STYLE, verticallyCausal: true };
  assert.deepEqual(decode(block(1, 8, 'LL', 2, [...top, ...causal], 4, style)), want);
});

// ---- round trips ------------------------------------------------------------------------------------------------

const FLAGS = ['bypass', 'reset', 'termAll', 'verticallyCausal', 'segmentationSymbols'] as const;
const styleOf = (mask: number): CodeBlockStyle => Object.fromEntries(FLAGS.map((f, k) => [f, (mask & (1 << k)) !== 0])) as unknown as CodeBlockStyle;
const BANDS: JpxBand[] = ['LL', 'HL', 'LH', 'HH'];

/** coefficients below 2^bitPlanes: many zeros, magnitudes of every length, both signs */
function randomValues(rnd: () => number, n: number, bitPlanes: number): Int32Array {
  const v = new Int32Array(n);
  const zeros = rnd() * 0.8;
  for (let k = 0; k < n; k++) {
    if (rnd() < zeros) continue;
    const m = Math.min(2 ** bitPlanes - 1, Math.floor(2 ** (rnd() * bitPlanes)));
    v[k] = rnd() < 0.5 ? -m : m;
  }
  return v;
}

/**
 * What the decoder must give after `passes` passes, from the values alone and which coefficients the last plane's
 * significance pass coded: known planes exactly, half of the unknown interval added to significant coefficients.
 */
function expected(values: Int32Array, bitPlanes: number, passes: number, coded: Uint8Array): number[] {
  if (passes === 0) return Array.from(values, () => 0);
  const last = passes - 1;
  const kind = last === 0 ? 2 : (last - 1) % 3;
  const plane = bitPlanes - 1 - Math.ceil(last / 3);
  const half = (k: number) => (k > 0 ? 2 ** (k - 1) : 0);
  const knownTo = (m: number, k: number) => Math.floor(m / 2 ** k) * 2 ** k + half(k);
  return Array.from(values, (value, i) => {
    const m = Math.abs(value);
    const sign = value < 0 ? -1 : 1;
    const before = Math.floor(m / 2 ** (plane + 1)) !== 0;
    const now = Math.floor(m / 2 ** plane) % 2 === 1;
    if (kind === 2) return Math.floor(m / 2 ** plane) === 0 ? 0 : sign * knownTo(m, plane);
    if (before) return sign * knownTo(m, kind === 0 ? plane + 1 : plane);
    return coded[i] && now ? sign * knownTo(m, plane) : 0;
  });
}

function roundTrip(rnd: () => number, w: number, h: number, band: JpxBand, bitPlanes: number, style: CodeBlockStyle, passes?: number): void {
  const values = randomValues(rnd, w * h, bitPlanes);
  const all = Math.max(0, 3 * bitPlanes - 2);
  const n = passes ?? all;
  const { block: cb, codedInSignificancePass } = encodeCodeBlock(values, w, h, band, bitPlanes, style, n);
  const label = `${w}×${h} ${band} ${bitPlanes} planes, ${n}/${all} passes, ${JSON.stringify(style)}`;
  if (n === all) assert.deepEqual(decode(cb), Array.from(values), label);
  else assert.deepEqual(decode(cb), expected(values, bitPlanes, n, codedInSignificancePass), label);
}

test('round trips: every style combination, every band, block sizes from 1 × 1 to 64 × 64, 1 to 16 bit-planes', () => {
  const rnd = prng(1);
  const sizes: [number, number][] = [
    [1, 1],
    [3, 5],
    [4, 4],
    [7, 64],
    [64, 1],
  ];
  for (let mask = 0; mask < 32; mask++) {
    for (const band of BANDS) {
      for (const [w, h] of sizes) roundTrip(rnd, w, h, band, 1 + Math.floor(rnd() * 16), styleOf(mask));
      for (const bitPlanes of [1, 2, 3, 4, 11, 16]) roundTrip(rnd, 5, 6, band, bitPlanes, styleOf(mask));
    }
  }
  // the large blocks: each style flag alone, none and all, in a random band
  for (const mask of [0, 1, 2, 4, 8, 16, 31]) {
    for (const [w, h] of [
      [64, 64],
      [32, 128],
      [1024, 4],
      [4, 1024],
    ] as const) {
      roundTrip(rnd, w, h, BANDS[Math.floor(rnd() * 4)], 1 + Math.floor(rnd() * 16), styleOf(mask));
    }
  }
});

test('truncation after any pass: mid-points of the missing planes, every style combination', () => {
  const rnd = prng(2);
  for (let mask = 0; mask < 32; mask++) {
    const style = styleOf(mask);
    for (const [w, h, bitPlanes] of [
      [3, 5, 6],
      [7, 9, 5],
      [16, 8, 8],
    ] as const) {
      for (let passes = 0; passes <= 3 * bitPlanes - 2; passes++) roundTrip(rnd, w, h, BANDS[passes % 4], bitPlanes, style, passes);
    }
  }
  // deep blocks, a few truncation points each
  for (const mask of [0, 1, 4, 31]) {
    for (let k = 0; k < 6; k++) {
      const bitPlanes = 10 + Math.floor(rnd() * 7);
      roundTrip(rnd, 32, 32, BANDS[k % 4], bitPlanes, styleOf(mask), Math.floor(rnd() * (3 * bitPlanes - 1)));
    }
  }
});

test('a code-block is written at its offset and stride only, and magnitudes reach 2^16 − 1', () => {
  const values = Int32Array.from({ length: 12 }, (_, k) => (k % 2 ? -1 : 1) * (65535 - k * 1000));
  const { block: cb } = encodeCodeBlock(values, 4, 3, 'HH', 16);
  const out = new Float32Array(10 * 6).fill(7);
  assert.deepEqual(decodeCodeBlock(cb, out, 10 + 3, 10), { ok: true });
  for (let y = 0; y < 6; y++)
    for (let x = 0; x < 10; x++) {
      const inside = y >= 1 && y < 4 && x >= 3 && x < 7;
      assert.equal(out[y * 10 + x], inside ? values[(y - 1) * 4 + (x - 3)] : 7, `${x},${y}`);
    }
});

// ---- properties that do not depend on the encoder ---------------------------------------------------------------

test('no bit-planes, or no passes, decode to zeros', () => {
  for (const band of BANDS) {
    const none: CodeBlock = { width: 5, height: 7, band, bitPlanes: 0, data: new Uint8Array(0), segments: [], style: NO_STYLE };
    assert.deepEqual(decode(none), new Array<number>(35).fill(0));
    assert.deepEqual(decode({ ...none, bitPlanes: 9 }), new Array<number>(35).fill(0));
    assert.deepEqual(
      decode({ ...none, bitPlanes: 9, data: new Uint8Array(3), segments: [{ offset: 1, length: 2, passes: 0 }] }),
      new Array<number>(35).fill(0),
    );
  }
});

test('impossible input is an error, not a throw', () => {
  const ok: CodeBlock = {
    width: 4,
    height: 4,
    band: 'LL',
    bitPlanes: 3,
    data: new Uint8Array(10),
    segments: [{ offset: 0, length: 10, passes: 7 }],
    style: NO_STYLE,
  };
  const out = new Float32Array(4096);
  assert.deepEqual(decodeCodeBlock(ok, out, 0, 4), { ok: true });
  const bad: [string, CodeBlock, number, number][] = [
    ['31 bit-planes', { ...ok, bitPlanes: 31, segments: [] }, 0, 4],
    ['too many passes', { ...ok, segments: [{ offset: 0, length: 10, passes: 8 }] }, 0, 4],
    ['passes without bit-planes', { ...ok, bitPlanes: 0, segments: [{ offset: 0, length: 10, passes: 1 }] }, 0, 4],
    ['width 0', { ...ok, width: 0 }, 0, 4],
    ['height 1025', { ...ok, width: 1, height: 1025 }, 0, 1],
    ['65 × 65', { ...ok, width: 65, height: 65 }, 0, 65],
    ['fractional size', { ...ok, width: 2.5 }, 0, 4],
    ['segment past the data', { ...ok, segments: [{ offset: 4, length: 7, passes: 1 }] }, 0, 4],
    ['negative segment', { ...ok, segments: [{ offset: -1, length: 2, passes: 1 }] }, 0, 4],
    ['output too small', ok, 4090, 4],
    ['stride below the width', ok, 0, 3],
    ['unknown band', { ...ok, band: 'XX' as JpxBand }, 0, 4],
    [
      'raw and arithmetic passes in one segment',
      { ...ok, bitPlanes: 5, style: { ...NO_STYLE, bypass: true }, segments: [{ offset: 0, length: 10, passes: 11 }] },
      0,
      4,
    ],
  ];
  for (const [what, cb, offset, stride] of bad) {
    const r = decodeCodeBlock(cb, out, offset, stride);
    assert.equal(r.ok, false, what);
    assert.ok(!r.ok && r.error.length > 0, what);
  }
});

test('garbage never throws, stays within its bit-planes and takes bounded time', () => {
  const rnd = prng(3);
  const out = new Float32Array(4096);
  const started = performance.now();
  let slowest = 0;
  for (let round = 0; round < 600; round++) {
    const w = 1 + Math.floor(rnd() * 64);
    const h = Math.max(1, Math.min(1024, Math.floor(4096 / w) - Math.floor(rnd() * 8)));
    const bitPlanes = Math.floor(rnd() * 31);
    const data = Uint8Array.from({ length: Math.floor(rnd() * 3000) }, () => (rnd() < 0.1 ? 0xff : Math.floor(rnd() * 256)));
    const segments: CodeBlock['segments'] = [];
    let left = Math.floor(rnd() * Math.max(0, 3 * bitPlanes - 1));
    let at = 0;
    while (left > 0) {
      const passes = Math.min(left, 1 + Math.floor(rnd() * 12));
      const length = Math.floor(rnd() * (data.length - at + 1));
      segments.push({ offset: at, length, passes });
      at += length;
      left -= passes;
    }
    const style = styleOf(Math.floor(rnd() * 32));
    const t0 = performance.now();
    const r = decodeCodeBlock({ width: w, height: h, band: BANDS[round % 4], bitPlanes, data, segments, style }, out, 0, w);
    slowest = Math.max(slowest, performance.now() - t0);
    // with bypass, a random split may put raw and arithmetic passes together: that is the one error allowed here
    if (!r.ok) {
      assert.ok(style.bypass && r.error.includes('mixes'), r.error);
      continue;
    }
    for (let k = 0; k < w * h; k++)
      assert.ok(Math.abs(out[k]) < 2 ** bitPlanes || (bitPlanes === 0 && out[k] === 0), `${out[k]} with ${bitPlanes} planes`);
  }
  assert.ok(slowest < 1000, `slowest block ${slowest} ms`);
  assert.ok(performance.now() - started < 60_000);
});
