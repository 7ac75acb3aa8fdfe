// JBIG2 region procedures (layerQuality/jbig2Regions.ts): generic and refinement regions, IAx and IAID, round-tripped
// through the slow, pixel-by-pixel test encoder of scripts/jbig2-encoder.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type Bitmap,
  decodeGeneric,
  decodeRefinement,
  type GenericParams,
  IdDecoder,
  IntDecoder,
  newBitmap,
  type RefinementParams,
} from '../src/analyzer/layerQuality/jbig2Regions';
import { MqDecoder } from '../src/analyzer/layerQuality/mq';
import {
  encodeGeneric,
  encodeId,
  encodeInt,
  encodeRefinement,
  GENERIC_DEFAULT_AT,
  GENERIC_SLTP,
  MqEncoder,
  REFINEMENT_DEFAULT_AT,
  refinementSltp,
} from '../scripts/jbig2-encoder';
import { prng } from '../scripts/fuzz';

const never = () => false;
const TEMPLATES = [0, 1, 2, 3] as const;

function randomBitmap(r: () => number, width: number, height: number, density: number): Bitmap {
  const b = newBitmap(width, height);
  for (let i = 0; i < b.data.length; i++) b.data[i] = r() < density ? 1 : 0;
  return b;
}

/** lines of glyph-like blobs (strokes and bars) between white margins and gaps, some rows repeated as in scans */
function textBitmap(r: () => number, width: number, height: number): Bitmap {
  const b = newBitmap(width, height);
  const set = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < width && y < height) b.data[y * width + x] = 1;
  };
  for (let top = 4; top + 14 < height; top += 16 + Math.floor(r() * 6)) {
    for (let x = 3 + Math.floor(r() * 8); x + 8 < width; x += 8 + Math.floor(r() * 4)) {
      if (r() < 0.15) x += 6; // a word gap
      const gw = 4 + Math.floor(r() * 4);
      const gh = 7 + Math.floor(r() * 6);
      const base = top + 12 - gh;
      // a stem, a bar or two, a bowl's corners: enough structure for the contexts to matter
      const stem = x + Math.floor(r() * gw);
      for (let y = base; y < base + gh; y++) set(stem, y);
      for (let k = 0; k < 1 + Math.floor(r() * 2); k++) {
        const y = base + Math.floor(r() * gh);
        for (let i = x; i < x + gw; i++) set(i, y);
      }
      if (r() < 0.5) for (let y = base + 2; y < base + gh - 1; y++) set(x + gw - 1, y);
    }
  }
  return b;
}

/** the picture with each row repeated 1–4 times (TPGDON's typical rows), after `white` white rows */
function stretched(r: () => number, b: Bitmap, white = 2, from = 0): Bitmap {
  const rows: Uint8Array[] = Array.from({ length: white }, () => new Uint8Array(b.width));
  for (let y = from; y < b.height && rows.length < b.height; y++) {
    const n = 1 + Math.floor(r() * 4);
    for (let k = 0; k < n; k++) rows.push(b.data.subarray(y * b.width, (y + 1) * b.width));
  }
  const out = newBitmap(b.width, b.height);
  for (let y = 0; y < b.height; y++) out.data.set(rows[y], y * b.width);
  return out;
}

/** contexts in random states (both MPS senses), so a decoder numbering its contexts differently desynchronises */
function randomContexts(r: () => number, n: number): Uint8Array {
  const cx = new Uint8Array(n);
  for (let i = 0; i < n; i++) cx[i] = (Math.floor(r() * 47) << 1) | (r() < 0.5 ? 1 : 0);
  return cx;
}

function sameBitmap(got: Bitmap | string, want: Bitmap, what: string): void {
  if (typeof got === 'string') assert.fail(`${what}: ${got}`);
  const g = got;
  assert.equal(g.width, want.width, what);
  assert.equal(g.height, want.height, what);
  let bad = -1;
  for (let i = 0; i < want.data.length && bad < 0; i++) if (g.data[i] !== want.data[i]) bad = i;
  assert.equal(bad, -1, `${what}: first wrong pixel (${bad % want.width}, ${Math.floor(bad / want.width)})`);
}

function roundTripGeneric(b: Bitmap, p: Omit<GenericParams, 'width' | 'height'>, what: string, cx0?: Uint8Array): void {
  const mq = new MqEncoder();
  const ecx = cx0 ? cx0.slice() : new Uint8Array(65536);
  encodeGeneric(mq, ecx, b, p);
  const bytes = mq.flush();
  const dcx = cx0 ? cx0.slice() : new Uint8Array(65536);
  sameBitmap(decodeGeneric(new MqDecoder(bytes), dcx, { ...p, width: b.width, height: b.height }, never), b, what);
  assert.deepEqual(dcx, ecx, `${what}: context states`);
}

// causal positions away from the defaults, one on top of a fixed template pixel, one far left, one far up
const ODD_AT = [
  [
    { x: -1, y: -1 },
    { x: -7, y: -3 },
    { x: 5, y: -1 },
    { x: -128, y: -4 },
  ],
  [{ x: -5, y: 0 }],
  [{ x: 4, y: -2 }],
  [{ x: 127, y: -1 }],
];
// not causal: reads pixels a decoder has not decoded yet (0), which the encoder mirrors
const NONCAUSAL_AT = [
  [
    { x: 1, y: 0 },
    { x: 0, y: 2 },
    { x: -3, y: -1 },
    { x: 2, y: -2 },
  ],
  [{ x: 0, y: 0 }],
  [{ x: 3, y: 1 }],
  [{ x: 1, y: 0 }],
];

test('generic regions round-trip for every template, with and without TPGDON, default and moved adaptive pixels', () => {
  const r = prng(0x6a62);
  const images: [string, Bitmap][] = [
    ['random 0.5', randomBitmap(r, 61, 29, 0.5)],
    ['random 0.08', randomBitmap(r, 130, 40, 0.08)],
    ['text', textBitmap(r, 203, 90)],
    ['stretched text', stretched(r, textBitmap(r, 150, 70))],
    ['stretched noise', stretched(r, randomBitmap(r, 50, 40, 0.3), 0)],
    ['stretched text, black first row', stretched(r, textBitmap(r, 120, 60), 0, 6)],
    ['1 × 1', randomBitmap(r, 1, 1, 1)],
    ['one column', randomBitmap(r, 1, 37, 0.5)],
    ['one row', randomBitmap(r, 77, 1, 0.5)],
    ['2 wide', randomBitmap(r, 2, 20, 0.5)],
    ['white', newBitmap(40, 12)],
  ];
  let n = 0;
  for (const [name, b] of images)
    for (const template of TEMPLATES)
      for (const tpgdon of [false, true])
        for (const [atName, at] of [
          ['default', GENERIC_DEFAULT_AT[template]],
          ['moved', ODD_AT[template]],
          ['non-causal', NONCAUSAL_AT[template]],
        ] as const) {
          roundTripGeneric(b, { template, tpgdon, at }, `${name}, template ${template}, TPGDON ${tpgdon}, AT ${atName}`);
          n++;
        }
  assert.equal(n, images.length * 4 * 2 * 3);
});

test('the generic contexts are numbered as the standard numbers them (random starting states)', () => {
  const r = prng(0x6a63);
  for (const template of TEMPLATES)
    for (const tpgdon of [false, true])
      for (const at of [GENERIC_DEFAULT_AT[template], ODD_AT[template]]) {
        const b = stretched(r, textBitmap(r, 90, 60));
        roundTripGeneric(b, { template, tpgdon, at }, `template ${template}, TPGDON ${tpgdon}, AT ${JSON.stringify(at)}`, randomContexts(r, 65536));
      }
});

test("TPGDON codes SLTP in the templates' reused contexts 0x9B25, 0x0795, 0x00E5, 0x0195", () => {
  // a white region under TPGDON is one decision a row: SLTP (1 for the first row, typical, then 0), nothing else
  for (const template of TEMPLATES) {
    assert.equal(GENERIC_SLTP[template], [0x9b25, 0x0795, 0x00e5, 0x0195][template]);
    const mq = new MqEncoder();
    const ecx = new Uint8Array(65536);
    encodeGeneric(mq, ecx, newBitmap(50, 30), { template, tpgdon: true, at: GENERIC_DEFAULT_AT[template] });
    const dcx = new Uint8Array(65536);
    const out = decodeGeneric(
      new MqDecoder(mq.flush()),
      dcx,
      { width: 50, height: 30, template, tpgdon: true, at: GENERIC_DEFAULT_AT[template] },
      never,
    );
    assert.equal(typeof out, 'object');
    const touched = [...dcx.keys()].filter((i) => dcx[i] !== 0);
    assert.deepEqual(touched, [GENERIC_SLTP[template]], `template ${template}`);
  }
});

test('a symbol dictionary keeps generic contexts across bitmaps in one MQ stream', () => {
  const r = prng(0x6a64);
  for (const template of TEMPLATES) {
    const glyphs = Array.from({ length: 12 }, () => textBitmap(r, 8 + Math.floor(r() * 20), 16 + Math.floor(r() * 10)));
    const p = { template, tpgdon: template === 1, at: ODD_AT[template] };
    const mq = new MqEncoder();
    const ecx = new Uint8Array(65536);
    for (const g of glyphs) encodeGeneric(mq, ecx, g, p);
    const dec = new MqDecoder(mq.flush());
    const dcx = new Uint8Array(65536);
    for (const [i, g] of glyphs.entries()) sameBitmap(decodeGeneric(dec, dcx, { ...p, width: g.width, height: g.height }, never), g, `glyph ${i}`);
  }
});

/** the bitmap moved by (dx, dy) with some pixels flipped: what a refinement against the original codes */
function perturbed(r: () => number, ref: Bitmap, width: number, height: number, dx: number, dy: number, flips: number): Bitmap {
  const b = newBitmap(width, height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const sx = x - dx;
      const sy = y - dy;
      if (sx >= 0 && sy >= 0 && sx < ref.width && sy < ref.height) b.data[y * width + x] = ref.data[sy * ref.width + sx];
    }
  for (let i = 0; i < b.data.length; i++) if (r() < flips) b.data[i] ^= 1;
  return b;
}

function roundTripRefinement(b: Bitmap, p: Omit<RefinementParams, 'width' | 'height'>, what: string, cx0?: Uint8Array): void {
  const mq = new MqEncoder();
  const ecx = cx0 ? cx0.slice() : new Uint8Array(8192);
  encodeRefinement(mq, ecx, b, p);
  const bytes = mq.flush();
  const dcx = cx0 ? cx0.slice() : new Uint8Array(8192);
  sameBitmap(decodeRefinement(new MqDecoder(bytes), dcx, { ...p, width: b.width, height: b.height }, never), b, what);
  assert.deepEqual(dcx, ecx, `${what}: context states`);
}

const REFINEMENT_AT: [string, { x: number; y: number }[]][] = [
  ['default', REFINEMENT_DEFAULT_AT],
  [
    'moved',
    [
      { x: -3, y: -2 },
      { x: 2, y: 2 },
    ],
  ],
  [
    'other',
    [
      { x: 1, y: -1 },
      { x: -1, y: 0 },
    ],
  ],
  [
    'non-causal',
    [
      { x: 2, y: 0 },
      { x: -30, y: 5 },
    ],
  ],
];

test('refinement regions round-trip: both templates, TPGRON, shifted and perturbed references, moved adaptive pixels', () => {
  const r = prng(0x6a65);
  const text = textBitmap(r, 80, 50);
  const noise = randomBitmap(r, 33, 21, 0.4);
  // the bitmap is the reference moved by (dx, dy) (what the decoder's offset says) and a further (sx, sy) it does not
  // know of, with a share of its pixels flipped
  const cases = [
    { name: 'same', ref: text, w: 80, h: 50, dx: 0, dy: 0, sx: 0, sy: 0, flips: 0 },
    { name: 'text flipped', ref: text, w: 80, h: 50, dx: 0, dy: 0, sx: 0, sy: 0, flips: 0.03 },
    { name: 'text offset', ref: text, w: 84, h: 47, dx: 2, dy: -1, sx: 0, sy: 0, flips: 0.01 },
    { name: 'text offset and moved', ref: text, w: 95, h: 60, dx: -3, dy: 4, sx: 1, sy: -1, flips: 0.02 },
    { name: 'noise', ref: noise, w: 33, h: 21, dx: 1, dy: 2, sx: 0, sy: 0, flips: 0.1 },
    { name: 'noise smaller', ref: noise, w: 20, h: 15, dx: -2, dy: 0, sx: 0, sy: 1, flips: 0.2 },
    { name: '1 × 1', ref: noise, w: 1, h: 1, dx: 0, dy: 1, sx: 0, sy: 0, flips: 0.5 },
  ];
  let n = 0;
  for (const c of cases)
    for (const template of [0, 1] as const)
      for (const tpgron of [false, true])
        for (const [atName, at] of template === 0 ? REFINEMENT_AT : REFINEMENT_AT.slice(0, 1)) {
          const b = perturbed(prng(c.w * 31 + c.h), c.ref, c.w, c.h, c.dx + c.sx, c.dy + c.sy, c.flips);
          const p = { template, reference: c.ref, dx: c.dx, dy: c.dy, tpgron, at };
          roundTripRefinement(b, p, `${c.name}, template ${template}, TPGRON ${tpgron}, AT ${atName}`);
          n++;
        }
  assert.equal(n, cases.length * 2 * 5);
});

test('a reference far off the bitmap reads white; dx and dy move the reference, not the bitmap', () => {
  const r = prng(0x6a66);
  const ref = textBitmap(r, 40, 30);
  for (const [dx, dy] of [
    [100, 0],
    [0, -100],
    [-41, 31],
  ])
    for (const template of [0, 1] as const)
      for (const tpgron of [false, true]) {
        const b = randomBitmap(r, 30, 20, 0.2);
        roundTripRefinement(b, { template, reference: ref, dx, dy, tpgron, at: REFINEMENT_DEFAULT_AT }, `dx ${dx} dy ${dy}`);
      }
  // a refinement of a bitmap into itself moved right by 3: decoding with dx 3 must need fewer bytes than with dx 0
  const moved = perturbed(r, ref, 40, 30, 3, 0, 0);
  const size = (dx: number) => {
    const mq = new MqEncoder();
    encodeRefinement(mq, new Uint8Array(8192), moved, { template: 0, reference: ref, dx, dy: 0, tpgron: false, at: REFINEMENT_DEFAULT_AT });
    return mq.flush().length;
  };
  assert.ok(size(3) < size(0) / 2, `${size(3)} vs ${size(0)}`);
});

test('the refinement contexts are numbered as the standard numbers them, and TPGRON reuses the reference-centre context', () => {
  const r = prng(0x6a67);
  for (const template of [0, 1] as const)
    for (const tpgron of [false, true])
      for (const [, at] of REFINEMENT_AT.slice(0, 2)) {
        const ref = textBitmap(r, 50, 40);
        const b = perturbed(r, ref, 52, 38, 1, -1, 0.02);
        roundTripRefinement(b, { template, reference: ref, dx: 1, dy: -1, tpgron, at }, `template ${template}`, randomContexts(r, 8192));
      }
  assert.equal(refinementSltp(0), 0x0100);
  assert.equal(refinementSltp(1), 0x0080);
  // white on white under TPGRON: every pixel predicted, one SLTP decision a row and nothing else
  for (const template of [0, 1] as const) {
    const p = { template, reference: newBitmap(20, 10), dx: 0, dy: 0, tpgron: true, at: REFINEMENT_DEFAULT_AT };
    const mq = new MqEncoder();
    encodeRefinement(mq, new Uint8Array(8192), newBitmap(20, 10), p);
    const dcx = new Uint8Array(8192);
    sameBitmap(decodeRefinement(new MqDecoder(mq.flush()), dcx, { ...p, width: 20, height: 10 }, never), newBitmap(20, 10), 'white');
    assert.deepEqual(
      [...dcx.keys()].filter((i) => dcx[i] !== 0),
      [refinementSltp(template)],
    );
  }
});

const INTS = [
  0,
  1,
  -1,
  2,
  -2,
  3,
  -3,
  4,
  -4,
  19,
  -19,
  20,
  -20,
  83,
  -83,
  84,
  -84,
  339,
  -339,
  340,
  -340,
  4435,
  -4435,
  4436,
  -4436,
  65535,
  -1e6,
  2 ** 31,
  4436 + 2 ** 32 - 1,
  -(4436 + 2 ** 32 - 1),
];

test('IAx integers round-trip across every range boundary, with OOB, each IAx in its own contexts', () => {
  const r = prng(0x6a68);
  const values: (number | null)[] = [...INTS, null, ...INTS.map((v) => -v).reverse(), null, null];
  for (let i = 0; i < 300; i++) values.push(r() < 0.1 ? null : Math.round((r() - 0.5) * 2 ** Math.floor(r() * 20)));
  for (const start of [undefined, 1]) {
    const s = prng(start ?? 7);
    const cxA = start ? randomContexts(s, 512) : new Uint8Array(512);
    const cxB = start ? randomContexts(s, 512) : new Uint8Array(512);
    const mq = new MqEncoder();
    // two interleaved IAx (as IADT and IAFS are), so sharing contexts between them would desynchronise
    const ea = cxA.slice();
    const eb = cxB.slice();
    values.forEach((v, i) => encodeInt(mq, i % 3 ? ea : eb, v));
    const dec = new MqDecoder(mq.flush());
    const a = new IntDecoder();
    const b = new IntDecoder();
    if (start) {
      // the decoders' contexts are private: seed them through a decoder of the same states
      (a as unknown as { cx: Uint8Array }).cx.set(cxA);
      (b as unknown as { cx: Uint8Array }).cx.set(cxB);
    }
    const got = values.map((_, i) => (i % 3 ? a : b).decode(dec));
    assert.deepEqual(
      got.map((v) => (Object.is(v, -0) ? 0 : v)),
      values.map((v) => (v === null ? null : v === 0 ? 0 : v)),
    );
  }
});

test('IAID symbol ids round-trip for code lengths 0 to 16', () => {
  const r = prng(0x6a69);
  for (let len = 0; len <= 16; len++) {
    const ids = [0, (1 << len) - 1, ...Array.from({ length: 60 }, () => Math.floor(r() * (1 << len)))];
    const mq = new MqEncoder();
    const ecx = new Uint8Array(1 << (len + 1));
    const other = new Uint8Array(512);
    // interleaved with an integer, as a text region codes them
    for (const id of ids) {
      encodeId(mq, ecx, len, id);
      encodeInt(mq, other, id - 7);
    }
    const dec = new MqDecoder(mq.flush());
    const d = new IdDecoder(len);
    const iax = new IntDecoder();
    for (const id of ids) {
      assert.equal(d.decode(dec), id, `length ${len}`);
      assert.equal(iax.decode(dec), id - 7);
    }
  }
  assert.throws(() => new IdDecoder(25), RangeError);
  assert.throws(() => new IdDecoder(-1), RangeError);
});

test('garbage never throws: any bytes decode to a bitmap of the asked size', () => {
  const r = prng(0x6a6a);
  for (let k = 0; k < 60; k++) {
    const bytes = Uint8Array.from({ length: Math.floor(r() * 200) }, () => Math.floor(r() * 256));
    const template = TEMPLATES[k % 4];
    const at = k % 2 ? GENERIC_DEFAULT_AT[template] : NONCAUSAL_AT[template];
    const g = decodeGeneric(new MqDecoder(bytes), randomContexts(r, 65536), { width: 57, height: 23, template, tpgdon: k % 3 === 0, at }, never);
    assert.ok(typeof g === 'object' && g.data.length === 57 * 23);
    const ref = randomBitmap(r, 20, 20, 0.5);
    const rf = decodeRefinement(
      new MqDecoder(bytes),
      randomContexts(r, 8192),
      {
        width: 25,
        height: 18,
        template: (k % 2) as 0 | 1,
        reference: ref,
        dx: (k % 7) - 3,
        dy: (k % 5) - 2,
        tpgron: k % 3 === 1,
        at: REFINEMENT_AT[k % 4][1],
      },
      never,
    );
    assert.ok(typeof rf === 'object' && rf.data.length === 25 * 18);
    const mq = new MqDecoder(bytes);
    const iax = new IntDecoder();
    const id = new IdDecoder(k % 17);
    for (let i = 0; i < 50; i++) {
      const v = iax.decode(mq);
      assert.ok(v === null || (Number.isInteger(v) && Math.abs(v) <= 4436 + 2 ** 32));
      const s = id.decode(mq);
      assert.ok(Number.isInteger(s) && s >= 0 && s < 2 ** (k % 17));
    }
  }
});

test('bad parameters come back as messages, not exceptions', () => {
  const mq = new MqDecoder(new Uint8Array(4));
  const g = (p: Partial<GenericParams>, cx = new Uint8Array(65536)) =>
    decodeGeneric(mq, cx, { width: 10, height: 10, template: 0, tpgdon: false, at: GENERIC_DEFAULT_AT[0], ...p }, never);
  for (const p of [
    { width: -1 },
    { height: 1.5 },
    { width: 1e5, height: 1e5 },
    { template: 4 },
    { at: [] },
    { at: [{ x: 0.5, y: 0 }, ...GENERIC_DEFAULT_AT[0].slice(1)] },
  ] as Partial<GenericParams>[])
    assert.equal(typeof g(p), 'string', JSON.stringify(p));
  assert.equal(typeof g({}, new Uint8Array(1024)), 'string');
  assert.equal(typeof g({ template: 2 }, new Uint8Array(1024)), 'object');
  const zero = g({ width: 0, height: 0 });
  assert.ok(typeof zero === 'object' && zero.data.length === 0);
  const rf = (p: Partial<RefinementParams>) =>
    decodeRefinement(
      mq,
      new Uint8Array(8192),
      {
        width: 5,
        height: 5,
        template: 0,
        reference: newBitmap(5, 5),
        dx: 0,
        dy: 0,
        tpgron: false,
        at: REFINEMENT_DEFAULT_AT,
        ...p,
      },
      never,
    );
  for (const p of [
    { width: -3 },
    { template: 2 },
    { at: [{ x: 0, y: 0 }] },
    { dx: 0.5 },
    { reference: { width: 5, height: 5, data: new Uint8Array(3) } },
  ] as Partial<RefinementParams>[])
    assert.equal(typeof rf(p), 'string', JSON.stringify(p));
  assert.equal(typeof rf({ template: 1, at: [] }), 'object');
});

test('outOfTime is read every few rows and stops the decoding', () => {
  const mq = () => new MqDecoder(new Uint8Array(100));
  let calls = 0;
  const late = () => ++calls > 2;
  const g = decodeGeneric(mq(), new Uint8Array(65536), { width: 100, height: 1000, template: 0, tpgdon: false, at: GENERIC_DEFAULT_AT[0] }, late);
  assert.equal(typeof g, 'string');
  assert.equal(calls, 3);
  calls = 0;
  const rf = decodeRefinement(
    mq(),
    new Uint8Array(8192),
    { width: 100, height: 1000, template: 1, reference: newBitmap(100, 1000), dx: 0, dy: 0, tpgron: true, at: [] },
    late,
  );
  assert.equal(typeof rf, 'string');
  assert.equal(calls, 3);
  // a decoder that never asks would decode all 1000 rows: it asks about once every 16 rows
  calls = 0;
  decodeGeneric(
    mq(),
    new Uint8Array(65536),
    { width: 10, height: 1000, template: 3, tpgdon: true, at: GENERIC_DEFAULT_AT[3] },
    () => (calls++, false),
  );
  assert.ok(calls >= 1000 / 32 && calls <= 1000 / 8, `${calls}`);
});
