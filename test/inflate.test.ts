// src/analyzer/inflate.ts against node's zlib (the reference encoder here) on every block type and strategy, plus the
// three things it exists for: an exact byte cap, the output decoded before a fault, and the clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants as Z, deflateRawSync } from 'node:zlib';
import { inflateRaw } from '../src/analyzer/inflate';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 16;
}

/** Data of four kinds: random (stored blocks), text-like, periodic (long matches), sparse (runs). */
function sample(seed: number): Uint8Array {
  const r = prng(seed);
  const n = r() % 150_000;
  const b = new Uint8Array(n);
  const kind = seed % 4;
  for (let i = 0; i < n; i++) {
    b[i] =
      kind === 0 ? r() & 255 : kind === 1 ? 'BT /F1 12 Tf (ab) Tj ET\n'.charCodeAt(r() % 24) : kind === 2 ? i % 17 : r() % 7 === 0 ? r() & 255 : 32;
  }
  return b;
}

const STRATEGIES = [Z.Z_DEFAULT_STRATEGY, Z.Z_FILTERED, Z.Z_HUFFMAN_ONLY, Z.Z_RLE, Z.Z_FIXED];

test('round trips against zlib: every level and strategy, stored, fixed and dynamic blocks', () => {
  let cases = 0;
  for (let seed = 0; seed < 60; seed++) {
    const plain = sample(seed);
    for (const level of [0, 1, 6, 9]) {
      const strategy = STRATEGIES[seed % STRATEGIES.length];
      const z = deflateRawSync(plain, { level, strategy });
      const r = inflateRaw(z, 0, 1 << 30);
      assert.equal(r.error, undefined, `seed ${seed} level ${level}`);
      assert.equal(r.ended, true);
      assert.equal(r.truncated, false);
      assert.deepEqual(Buffer.from(r.data), Buffer.from(plain), `seed ${seed} level ${level} strategy ${strategy}`);
      cases++;
    }
  }
  assert.equal(cases, 240);
});

test('empty input and an empty final block', () => {
  const none = inflateRaw(new Uint8Array(0), 0, 100);
  assert.equal(none.data.length, 0);
  assert.equal(none.ended, false);
  assert.equal(none.error, 'unexpected end of data');
  const empty = inflateRaw(deflateRawSync(new Uint8Array(0)), 0, 100);
  assert.equal(empty.error, undefined);
  assert.equal(empty.ended, true);
  assert.equal(empty.data.length, 0);
});

test('the cap: exact output is complete, one byte less is truncated; never more than the cap', () => {
  const plain = sample(5);
  const z = deflateRawSync(plain, { level: 6 });
  const exact = inflateRaw(z, 0, plain.length);
  assert.equal(exact.truncated, false);
  assert.equal(exact.ended, true);
  assert.equal(exact.data.length, plain.length);
  for (const cap of [0, 1, 257, plain.length - 1]) {
    const r = inflateRaw(z, 0, cap);
    assert.equal(r.truncated, true, `cap ${cap}`);
    assert.equal(r.ended, false);
    assert.equal(r.data.length, cap);
    assert.deepEqual(Buffer.from(r.data), Buffer.from(plain.subarray(0, cap)));
  }
  // a bomb: 20 MB of zeros from ~20 KB stops at the cap without decoding the rest
  const bomb = deflateRawSync(new Uint8Array(20 << 20), { level: 9 });
  const r = inflateRaw(bomb, 0, 1 << 20);
  assert.equal(r.truncated, true);
  assert.equal(r.data.length, 1 << 20);
});

test('cut short anywhere: the prefix decoded so far, exactly, with an error', () => {
  const plain = sample(9);
  const z = deflateRawSync(plain, { level: 6 });
  const r = prng(3);
  for (let k = 0; k < 40; k++) {
    const cut = r() % z.length;
    const o = inflateRaw(z.subarray(0, cut), 0, 1 << 30);
    assert.equal(o.error, 'unexpected end of data', `cut ${cut}`);
    assert.equal(o.ended, false);
    assert.ok(o.data.length <= plain.length);
    assert.deepEqual(Buffer.from(o.data), Buffer.from(plain.subarray(0, o.data.length)), `cut ${cut}: not a prefix`);
  }
});

test('corrupt data: what decoded before the fault is kept, and the fault is named', () => {
  const plain = sample(13);
  // block type 3 is reserved
  assert.equal(inflateRaw(new Uint8Array([0x07, 0, 0]), 0, 100).error, 'invalid block type');
  // a stored block whose NLEN is not the complement of LEN
  assert.equal(inflateRaw(new Uint8Array([0x01, 5, 0, 5, 0, 1, 2, 3, 4, 5]), 0, 100).error, 'invalid stored block lengths');
  // a distance before the start of the output: fixed block, literal 'a', then length 3 distance 2
  // (bits LSB first: BFINAL 1, BTYPE 01, literal 0x61 = 8-bit code 0x91, length code 257 = 7-bit 0000001, distance code 1 = 5-bit 00001)
  const far = inflateRaw(
    fixedBlock([
      [0x91, 8],
      [0b0000001, 7],
      [0b00001, 5],
    ]),
    0,
    100,
  );
  assert.equal(far.error, 'invalid distance too far back');
  assert.deepEqual([...far.data], [0x61]);
  // a good compressed part (not final: sync-flushed) followed by a reserved block type: all of the good part is kept
  const good = deflateRawSync(plain, { level: 6, finishFlush: Z.Z_SYNC_FLUSH });
  const spoilt = new Uint8Array(good.length + 1);
  spoilt.set(good);
  spoilt[good.length] = 0x07;
  const o = inflateRaw(spoilt, 0, 1 << 30);
  assert.equal(o.error, 'invalid block type');
  assert.deepEqual(Buffer.from(o.data), Buffer.from(plain));
});

test('data after the final block is ignored', () => {
  const plain = sample(2);
  const z = deflateRawSync(plain);
  const withTail = new Uint8Array(z.length + 100).fill(0xab);
  withTail.set(z);
  const r = inflateRaw(withTail, 0, 1 << 30);
  assert.equal(r.error, undefined);
  assert.equal(r.ended, true);
  assert.equal(r.data.length, plain.length);
});

test('a passed deadline stops at the next megabyte of output, keeping what decoded', () => {
  const bomb = deflateRawSync(new Uint8Array(40 << 20), { level: 9 });
  const r = inflateRaw(bomb, 0, 64 << 20, Date.now() - 1);
  assert.equal(r.outOfTime, true);
  assert.equal(r.ended, false);
  assert.equal(r.error, undefined);
  assert.ok(r.data.length >= 1 << 20 && r.data.length < 40 << 20, `${r.data.length}`);
  const onTime = inflateRaw(bomb, 0, 64 << 20, Date.now() + 60_000);
  assert.equal(onTime.outOfTime, undefined);
  assert.equal(onTime.data.length, 40 << 20);
});

/** A final fixed-Huffman block from codes given MSB-first (as RFC 1951 writes them), ending with code 256. */
function fixedBlock(codes: [number, number][]): Uint8Array {
  const bits: number[] = [1, 1, 0]; // BFINAL, BTYPE = 01 (LSB first)
  for (const [code, len] of [...codes, [0, 7] as [number, number]]) for (let i = len - 1; i >= 0; i--) bits.push((code >> i) & 1);
  const out = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((b, i) => (out[i >> 3] |= b << (i & 7)));
  return out;
}
