// The test-only JPEG 2000 encoder (scripts/jpx-encoder.ts) against two decoders: ours (layerQuality/jpx.ts), and
// OpenJPEG's opj_decompress when it is installed. Lossless, so both must give every sample back; OpenJPEG agreeing is
// what shows the encoder writes T.800 and not merely what our decoder happens to read.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeJpx } from '../src/analyzer/layerQuality/jpx';
import { prng } from '../scripts/fuzz';
import { encodeJpx } from '../scripts/jpx-encoder';

const SIZES: [number, number][] = [
  [1, 1],
  [5, 3],
  [64, 64],
  [65, 130],
  [300, 200],
];

/** images that stress different parts: noise (every block, many planes), flat areas (all-zero blocks left out), edges */
function images(w: number, h: number, seed: number): [string, Uint8Array][] {
  const rnd = prng(seed);
  const of = (f: (x: number, y: number) => number) => Uint8Array.from({ length: w * h }, (_, i) => f(i % w, Math.floor(i / w)));
  return [
    ['random', of(() => Math.floor(rnd() * 256))],
    ['gradient', of((x, y) => (x * 3 + y * 5) & 255)],
    // all energy in the finest HH band
    ['checkerboard', of((x, y) => ((x + y) & 1 ? 255 : 0))],
    ['flat', of(() => 128)],
    ['black', of(() => 0)],
    // text-like: a white page with a dark block, so most code-blocks are zero and a few are not
    ['page', of((x, y) => (x > w / 3 && x < w / 2 && y > h / 4 && y < h / 3 ? 20 + ((x * y) % 7) : 250))],
  ];
}

/** Every (size, levels, image) case, encoded once for both decoders: the encoder is plain and slow */
interface Case {
  label: string;
  w: number;
  h: number;
  levels: number;
  gray: Uint8Array;
  data: Uint8Array;
  jp2: boolean;
}
let cache: Case[] | undefined;
function cases(): Case[] {
  if (cache) return cache;
  cache = [];
  let seed = 1;
  for (const [w, h] of SIZES)
    for (let levels = 0; levels <= 5; levels++)
      for (const [name, gray] of images(w, h, seed++))
        // the JP2 wrapping once per size and levels: it changes nothing inside the codestream
        for (const jp2 of name === 'random' ? [false, true] : [false])
          cache.push({
            label: `${name} ${w}×${h}, ${levels} levels${jp2 ? ', JP2' : ''}`,
            w,
            h,
            levels,
            gray,
            data: encodeJpx(gray, w, h, { levels, jp2 }),
            jp2,
          });
  return cache;
}

function ours(data: Uint8Array, reduce = 0): { width: number; height: number; data: Uint8Array } {
  const r = decodeJpx(data, reduce, 1 << 24, () => false);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.image;
}

test('our decoder gives every image back exactly, at every size and from 0 to 5 wavelet levels, codestream and JP2', () => {
  for (const { label, w, h, gray, data } of cases()) {
    const img = ours(data);
    assert.equal(img.width, w, label);
    assert.equal(img.height, h, label);
    assert.ok(Buffer.from(img.data).equals(Buffer.from(gray)), label);
  }
});

test('the default is 5 levels; the markers are those asked for, Psot is exact, and all-zero code-blocks are left out', () => {
  const w = 70;
  const h = 9;
  const d = encodeJpx(new Uint8Array(w * h).fill(128), w, h);
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const u16 = (i: number) => view.getUint16(i);
  const at = (m: number) => d.findIndex((_, i) => d[i] === 0xff && d[i + 1] === (m & 0xff));
  assert.equal(u16(0), 0xff4f);
  const cod = at(0xff52);
  // Scod 0, LRCP, 1 layer, no MCT, 5 levels, 64 × 64 code-blocks, style 0, 5/3
  assert.deepEqual([...d.subarray(cod + 4, cod + 14)], [0, 0, 0, 1, 0, 5, 4, 4, 0, 1]);
  const qcd = at(0xff5c);
  // two guard bits, no quantisation; exponents LL 8, then HL 9, LH 9, HH 10 for each level
  assert.deepEqual([...d.subarray(qcd + 4, qcd + 5 + 16)], [2 << 5, 8 << 3, ...Array.from({ length: 5 }, () => [9 << 3, 9 << 3, 10 << 3]).flat()]);
  const sot = at(0xff90);
  assert.equal(sot + view.getUint32(sot + 6), d.length - 2);
  assert.equal(u16(d.length - 2), 0xffd9);
  // a flat image's coefficients are all zero: six empty packets, one 0 byte each
  const sod = at(0xff93);
  assert.deepEqual([...d.subarray(sod + 2, d.length - 2)], [0, 0, 0, 0, 0, 0]);
  assert.deepEqual(ours(d).data, new Uint8Array(w * h).fill(128));
});

/** P5 with OpenJPEG's `#` comment line in the header */
function readPgm(bytes: Buffer): { width: number; height: number; max: number; data: Uint8Array } {
  const fields: number[] = [];
  let i = 2;
  assert.equal(bytes.toString('latin1', 0, 2), 'P5');
  while (fields.length < 3) {
    const c = bytes[i];
    if (c === 0x23) while (bytes[i] !== 0x0a) i++;
    else if (c >= 0x30 && c <= 0x39) {
      let v = 0;
      while (bytes[i] >= 0x30 && bytes[i] <= 0x39) v = v * 10 + bytes[i++] - 0x30;
      fields.push(v);
      continue;
    }
    i++;
  }
  // one whitespace byte after the maximum
  const [width, height, max] = fields;
  return { width, height, max, data: new Uint8Array(bytes.subarray(i + 1, i + 1 + width * height)) };
}

const HAVE_OPJ = !spawnSync('opj_decompress', ['-h'], { stdio: 'ignore' }).error;
const NO_OPJ = 'opj_decompress (OpenJPEG) is not installed';

/** OpenJPEG's decode of `data`, reduced by `reduce` levels, through files in `dir` */
function openJpeg(dir: string, name: string, data: Uint8Array, jp2: boolean, reduce: number): ReturnType<typeof readPgm> {
  const file = join(dir, `${name}.${jp2 ? 'jp2' : 'j2k'}`);
  writeFileSync(file, data);
  const out = `${file}.${reduce}.pgm`;
  execFileSync('opj_decompress', ['-i', file, '-o', out, '-r', String(reduce)], { stdio: 'pipe' });
  return readPgm(readFileSync(out));
}

test('OpenJPEG decodes the encoded files to the same pixels (full and reduced resolution)', (t) => {
  if (!HAVE_OPJ) return t.skip(NO_OPJ);
  const dir = mkdtempSync(join(tmpdir(), 'jpx-encoder-'));
  try {
    let n = 0;
    for (const { label, levels, gray, data, jp2 } of cases()) {
      // full resolution, and (where there are levels) reduced by all of them, which ours must match too
      for (const reduce of levels > 0 ? [0, levels] : [0]) {
        const pgm = openJpeg(dir, String(n++), data, jp2, reduce);
        const mine = ours(data, reduce);
        assert.equal(pgm.max, 255, label);
        assert.deepEqual([pgm.width, pgm.height], [mine.width, mine.height], `${label}, reduced ${reduce}`);
        if (reduce === 0) assert.ok(Buffer.from(pgm.data).equals(Buffer.from(gray)), `OpenJPEG: ${label}`);
        assert.ok(Buffer.from(pgm.data).equals(Buffer.from(mine.data)), `OpenJPEG and ours: ${label}, reduced ${reduce}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a packet header whose last byte would be 0xFF gets the stuffed byte after it, and both decoders read on', (t) => {
  // found by search: one code-block of 7 bit-planes whose 255 bytes make the header's 24 bits end in eight 1s
  const rnd = prng(39);
  const w = 12 + Math.floor(rnd() * 12);
  const h = 12 + Math.floor(rnd() * 12);
  const gray = Uint8Array.from({ length: w * h }, () => 128 + Math.floor(rnd() * 160) - 80);
  const data = encodeJpx(gray, w, h, { levels: 0 });
  const sod = data.findIndex((_, i) => data[i] === 0xff && data[i + 1] === 0x93);
  const tile = data.subarray(sod + 2, data.length - 2);
  assert.deepEqual([...tile.subarray(0, tile.length - 255)].slice(-2), [0xff, 0x00]);
  assert.ok(Buffer.from(ours(data).data).equals(Buffer.from(gray)));
  if (!HAVE_OPJ) return t.skip(NO_OPJ);
  const dir = mkdtempSync(join(tmpdir(), 'jpx-encoder-'));
  try {
    assert.ok(Buffer.from(openJpeg(dir, 'ff', data, false, 0).data).equals(Buffer.from(gray)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
