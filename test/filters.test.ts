import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants as zlibConstants, deflateRawSync } from 'node:zlib';
import { deflateSync, unzlibSync, zlibSync } from 'fflate';
import { decodeFilters, type FilterParams } from '../src/analyzer/filters';

const enc = new TextEncoder();
const dec = new TextDecoder('latin1');
const bytes = (s: string): Uint8Array => enc.encode(s);
const text = (b: Uint8Array): string => dec.decode(b);
const BIG = 64 << 20;

/** Deterministic pseudo-random bytes. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 16;
}
function randomBytes(n: number, seed: number): Uint8Array {
  const r = prng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = r() & 0xff;
  return out;
}
/** Content-stream-like text of about `size` bytes (compresses like real page content). */
function pageContent(size: number, seed = 1): Uint8Array {
  const r = prng(seed);
  const words = ['the', 'page', 'analyzer', 'stream', 'font', 'text', 'image', 'content', 'Lorem', 'ipsum', 'dolor', 'sit'];
  const parts: string[] = [];
  let len = 0;
  while (len < size) {
    let line = `BT /F${r() % 5} ${8 + (r() % 6)} Tf ${(r() % 5000) / 10} ${(r() % 8000) / 10} Td (`;
    const n = 3 + (r() % 8);
    for (let i = 0; i < n; i++) line += words[r() % words.length] + ' ';
    line += ') Tj ET\n';
    parts.push(line);
    len += line.length;
  }
  return bytes(parts.join('')).subarray(0, size);
}
function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
function decode(raw: Uint8Array, filters: string[], params: (FilterParams | undefined)[] = [], max = BIG) {
  return decodeFilters(raw, filters, params, max);
}
function isPrefix(prefix: Uint8Array, of: Uint8Array): boolean {
  if (prefix.length > of.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== of[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Test encoders

class BitWriter {
  private out: number[] = [];
  private acc = 0;
  private n = 0;
  write(v: number, width: number): void {
    for (let i = width - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((v >> i) & 1);
      if (++this.n === 8) {
        this.out.push(this.acc);
        this.acc = 0;
        this.n = 0;
      }
    }
  }
  finish(): Uint8Array {
    if (this.n > 0) this.out.push(this.acc << (8 - this.n));
    return Uint8Array.from(this.out);
  }
}

/** PDF/TIFF-style LZW: MSB first, 9–12 bit codes, clear 256, EOD 257. `resetWhenFull` false lets the table fill up. */
function lzwEncode(data: Uint8Array, earlyChange = 1, resetWhenFull = true): Uint8Array {
  const bw = new BitWriter();
  let dict = new Map<number, number>();
  let next = 258;
  let width = 9;
  // The decoder adds its entry one code later than the encoder, hence `next - 1`.
  const bump = () => {
    if (next - 1 + earlyChange >= 1 << width && width < 12) width++;
  };
  bw.write(256, width);
  let w = -1;
  for (const c of data) {
    if (w < 0) {
      w = c;
      continue;
    }
    const key = w * 256 + c;
    const hit = dict.get(key);
    if (hit !== undefined) {
      w = hit;
      continue;
    }
    bw.write(w, width);
    if (next < 4096) {
      dict.set(key, next++);
      bump();
    }
    w = c;
    if (resetWhenFull && next >= 4094) {
      bw.write(w, width);
      if (next < 4096) {
        next++;
        bump();
      }
      bw.write(256, width);
      dict = new Map();
      next = 258;
      width = 9;
      w = -1;
    }
  }
  if (w >= 0) {
    bw.write(w, width);
    if (next < 4096) {
      next++;
      bump();
    }
  }
  bw.write(257, width);
  return bw.finish();
}

function pngEncode(raw: Uint8Array, rowBytes: number, bpp: number, tags: number[]): Uint8Array {
  const rows = Math.ceil(raw.length / rowBytes);
  const out = new Uint8Array(raw.length + rows);
  for (let r = 0; r < rows; r++) {
    const tag = tags[r % tags.length];
    const base = r * rowBytes;
    const end = Math.min(raw.length, base + rowBytes);
    out[r * (rowBytes + 1)] = tag;
    for (let i = base; i < end; i++) {
      const a = i - base >= bpp ? raw[i - bpp] : 0;
      const b = r > 0 ? raw[i - rowBytes] : 0;
      const c = r > 0 && i - base >= bpp ? raw[i - rowBytes - bpp] : 0;
      let pred = 0;
      if (tag === 1) pred = a;
      else if (tag === 2) pred = b;
      else if (tag === 3) pred = (a + b) >> 1;
      else if (tag === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[r * (rowBytes + 1) + 1 + i - base] = (raw[i] - pred) & 0xff;
    }
  }
  return out;
}

/** TIFF predictor 2 encoder over whole rows of `rowBytes` bytes. */
function tiffEncode(raw: Uint8Array, colors: number, bpc: number, columns: number): Uint8Array {
  const rowBytes = Math.ceil((colors * bpc * columns) / 8);
  const out = raw.slice();
  for (let r = 0; r * rowBytes < raw.length; r++) {
    const base = r * rowBytes;
    const samples = colors * columns;
    const get = (k: number): number => {
      if (bpc === 8) return raw[base + k];
      if (bpc === 16) return (raw[base + 2 * k] << 8) | raw[base + 2 * k + 1];
      const bit = k * bpc;
      return (raw[base + (bit >> 3)] >> (8 - bpc - (bit & 7))) & ((1 << bpc) - 1);
    };
    const set = (k: number, v: number): void => {
      if (bpc === 8) out[base + k] = v;
      else if (bpc === 16) {
        out[base + 2 * k] = v >> 8;
        out[base + 2 * k + 1] = v & 0xff;
      } else {
        const bit = k * bpc;
        const shift = 8 - bpc - (bit & 7);
        const m = ((1 << bpc) - 1) << shift;
        out[base + (bit >> 3)] = (out[base + (bit >> 3)] & ~m) | (v << shift);
      }
    };
    const mod = 2 ** bpc;
    for (let k = samples - 1; k >= colors; k--) set(k, (get(k) - get(k - colors) + mod) % mod);
  }
  return out;
}

function a85Encode(data: Uint8Array): Uint8Array {
  let s = '';
  for (let i = 0; i < data.length; i += 4) {
    const n = Math.min(4, data.length - i);
    let v = 0;
    for (let k = 0; k < 4; k++) v = v * 256 + (k < n ? data[i + k] : 0);
    if (v === 0 && n === 4) {
      s += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode(33 + (v % 85)));
      v = Math.floor(v / 85);
    }
    s += digits.slice(0, n + 1).join('');
    if (i % 60 === 56) s += '\n';
  }
  return bytes(s + '~>');
}

function hexEncode(data: Uint8Array): Uint8Array {
  let s = '';
  for (const b of data) s += b.toString(16).padStart(2, '0');
  return bytes(s + '>');
}

// ---------------------------------------------------------------------------------------------------------------
// No filters, names, caps

test('no filters returns the raw bytes, capped', () => {
  const raw = bytes('hello world');
  const r = decode(raw, [], []);
  assert.equal(text(r.data), 'hello world');
  assert.equal(r.truncated, false);
  assert.equal(r.error, undefined);
  assert.equal(r.stoppedAt, undefined);
  const c = decode(raw, [], [], 5);
  assert.equal(text(c.data), 'hello');
  assert.equal(c.truncated, true);
});

test('cap 0 and odd caps never throw', () => {
  const z = zlibSync(bytes('abc'));
  assert.deepEqual(decode(z, ['FlateDecode'], [], 0), { data: new Uint8Array(0), truncated: true });
  for (const cap of [NaN, -1, Infinity, 2.5]) {
    const r = decode(z, ['FlateDecode'], [], cap);
    assert.ok(r.data.length <= 3);
  }
  assert.equal(text(decode(z, ['FlateDecode'], [], Infinity).data), 'abc');
  assert.equal(text(decode(z, ['FlateDecode'], [], 2.5).data), 'ab');
});

test('leading slash and junk filter entries are tolerated', () => {
  const z = zlibSync(bytes('abc'));
  assert.equal(text(decode(z, ['/FlateDecode']).data), 'abc');
  const r = decodeFilters(z, [42 as unknown as string], [null as unknown as undefined], BIG);
  assert.equal(r.stoppedAt, '42');
  assert.deepEqual(r.data, z);
});

// ---------------------------------------------------------------------------------------------------------------
// FlateDecode

test('flate round trips (sizes, levels, abbreviation)', () => {
  const samples = [bytes('x'), pageContent(1000), pageContent(300_000, 2), randomBytes(200_000, 3), new Uint8Array(70_000)];
  for (const plain of samples) {
    for (const level of [0, 1, 6, 9] as const) {
      for (const name of ['FlateDecode', 'Fl']) {
        const r = decode(zlibSync(plain, { level }), [name]);
        assert.equal(r.error, undefined);
        assert.equal(r.truncated, false);
        assert.deepEqual(r.data, plain, `size ${plain.length} level ${level}`);
      }
    }
  }
});

test('flate: exact cap is not truncation, one byte less is', () => {
  const plain = pageContent(100_000);
  const z = zlibSync(plain);
  const exact = decode(z, ['FlateDecode'], [], plain.length);
  assert.equal(exact.truncated, false);
  assert.equal(exact.data.length, plain.length);
  const less = decode(z, ['FlateDecode'], [], plain.length - 1);
  assert.equal(less.truncated, true);
  assert.deepEqual(less.data, plain.subarray(0, plain.length - 1));
});

test('flate: empty input gives empty output', () => {
  const r = decode(new Uint8Array(0), ['FlateDecode']);
  assert.equal(r.data.length, 0);
  assert.equal(r.truncated, false);
});

test('flate: raw deflate without zlib header falls back to raw inflate', () => {
  for (const plain of [pageContent(50_000), bytes('short')]) {
    const r = decode(deflateSync(plain), ['FlateDecode']);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.data, plain);
  }
});

test('flate: truncated raw deflate yields its prefix, not a misaligned reading', () => {
  const plain = pageContent(200_000, 3);
  const raw = deflateSync(plain);
  const r = decode(raw.subarray(0, raw.length >> 1), ['FlateDecode']);
  assert.match(r.error ?? '', /unexpected end/);
  assert.ok(r.data.length > 50_000);
  assert.ok(isPrefix(r.data, plain));
});

test('flate: zlib header with a wrong check byte still decodes', () => {
  const plain = pageContent(20_000);
  const z = zlibSync(plain);
  z[1] ^= 0x01;
  const r = decode(z, ['FlateDecode']);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.data, plain);
});

test('flate: bad or missing adler and trailing garbage are no fault', () => {
  const plain = pageContent(80_000);
  const z = zlibSync(plain);
  const badAdler = z.slice();
  badAdler[badAdler.length - 1] ^= 0xff;
  const noAdler = z.subarray(0, z.length - 4);
  const garbage = concat(z, randomBytes(500_000, 9));
  for (const input of [badAdler, noAdler, garbage]) {
    const r = decode(input, ['FlateDecode']);
    assert.equal(r.error, undefined);
    assert.equal(r.truncated, false);
    assert.deepEqual(r.data, plain);
  }
});

test('flate: truncated data yields the bytes decoded so far plus an error', () => {
  const plain = pageContent(400_000);
  const z = zlibSync(plain);
  for (const cut of [1, 3, 100, 5000, z.length >> 1, z.length - 12]) {
    const r = decode(z.subarray(0, cut), ['FlateDecode']);
    assert.ok(r.error !== undefined && r.error.startsWith('FlateDecode:'), `cut ${cut}: ${r.error}`);
    assert.equal(r.truncated, false);
    assert.ok(isPrefix(r.data, plain), `cut ${cut}: output is not a prefix`);
    if (cut >= 5000) assert.ok(r.data.length > (plain.length * cut) / z.length / 2, `cut ${cut}: only ${r.data.length} bytes`);
  }
});

test('flate: corrupt data keeps everything decoded before the fault', () => {
  for (const size of [300_000, 3_000_000]) {
    const plain = pageContent(size, 5);
    // Non-final blocks ending in a sync flush (byte-aligned), so what follows is read as a block header.
    // (node's zlib here: fflate's Deflate.flush(true) can misalign the empty stored block.)
    const head = deflateRawSync(plain, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    // BFINAL=1 with block type 3: invalid
    const bad = concat(new Uint8Array([0x78, 0x9c]), head, new Uint8Array([0x07, 0xff, 0xff, 0xff]));
    const t0 = performance.now();
    const r = decode(bad, ['FlateDecode']);
    const ms = performance.now() - t0;
    assert.match(r.error ?? '', /^FlateDecode: invalid block type/);
    assert.deepEqual(r.data, plain);
    console.log(`corrupt flate, ${size} B of output recovered in ${ms.toFixed(1)} ms`);
  }
});

test('flate: decompression bomb stops at the cap', () => {
  const z = zlibSync(new Uint8Array(50 << 20), { level: 9 });
  assert.ok(z.length < 100_000);
  const cap = 1 << 20;
  const t0 = performance.now();
  const r = decode(z, ['FlateDecode'], [], cap);
  const ms = performance.now() - t0;
  assert.equal(r.truncated, true);
  assert.ok(r.data.length <= cap);
  assert.equal(r.data.length, cap);
  assert.equal(r.error, undefined);
  assert.ok(r.data.every((b) => b === 0));
  console.log(`bomb: ${z.length} B deflated → cap ${cap} B in ${ms.toFixed(1)} ms`);
});

// Speed is measured by `npm run bench`, never asserted here: this checks our inflater decodes the same bytes as fflate's.
test('flate: our inflater matches fflate one-shot on 5 MB of content', () => {
  const plain = pageContent(5 << 20, 11);
  const z = zlibSync(plain, { level: 6 });
  const timed = (f: () => void): number => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  // Interleaved, best of 7 each: the machine is shared, so single runs are noisy.
  let out: Uint8Array | undefined;
  let oneShot = Infinity;
  let ours = Infinity;
  for (let i = 0; i < 7; i++) {
    oneShot = Math.min(
      oneShot,
      timed(() => void unzlibSync(z)),
    );
    ours = Math.min(
      ours,
      timed(() => void (out = decode(z, ['FlateDecode']).data)),
    );
  }
  assert.deepEqual(out, plain);
  console.log(
    `5 MB content (${z.length} B deflated): fflate unzlibSync ${oneShot.toFixed(1)} ms, ` +
      `ours ${ours.toFixed(1)} ms, ratio ${(ours / oneShot).toFixed(2)}`,
  );
  assert.deepEqual(out, unzlibSync(z));
});

// ---------------------------------------------------------------------------------------------------------------
// Predictors

test('PNG predictors: every tag, several layouts, Predictor 10–15', () => {
  const layouts = [
    { colors: 3, bpc: 8, columns: 5 },
    { colors: 1, bpc: 8, columns: 1 },
    { colors: 1, bpc: 16, columns: 7 },
    { colors: 4, bpc: 8, columns: 33 },
    { colors: 1, bpc: 1, columns: 20 },
    { colors: 2, bpc: 4, columns: 3 },
  ];
  for (const { colors, bpc, columns } of layouts) {
    const rowBytes = Math.ceil((colors * bpc * columns) / 8);
    const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
    const raw = randomBytes(rowBytes * 12, colors * 100 + bpc + columns);
    for (const tags of [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]]) {
      const filtered = pngEncode(raw, rowBytes, bpp, tags);
      for (const predictor of [10, 12, 15]) {
        const p: FilterParams = { predictor, colors, bitsPerComponent: bpc, columns };
        const r = decode(zlibSync(filtered), ['FlateDecode'], [p]);
        assert.equal(r.error, undefined);
        assert.deepEqual(r.data, raw, `colors ${colors} bpc ${bpc} columns ${columns} tags ${tags}`);
      }
    }
  }
});

test('PNG predictor: known Up vector, partial last row, bad tag', () => {
  // columns 3: rows [1,2,3] (None) and Up of [1,1,1] → [2,3,4]
  const filtered = new Uint8Array([0, 1, 2, 3, 2, 1, 1, 1]);
  const p = { predictor: 12, columns: 3 };
  assert.deepEqual(decode(zlibSync(filtered), ['Fl'], [p]).data, new Uint8Array([1, 2, 3, 2, 3, 4]));
  const partial = decode(zlibSync(filtered.subarray(0, 7)), ['Fl'], [p]);
  assert.deepEqual(partial.data, new Uint8Array([1, 2, 3, 2, 3]));
  const bad = decode(zlibSync(new Uint8Array([0, 1, 2, 3, 9, 1, 1, 1])), ['Fl'], [p]);
  assert.match(bad.error ?? '', /PNG predictor tag 9/);
  assert.deepEqual(bad.data, new Uint8Array([1, 2, 3]));
});

test('predictor: huge Columns does not allocate by Columns', () => {
  const z = zlibSync(new Uint8Array([0, 5, 6, 7]));
  for (const predictor of [2, 12]) {
    const r = decode(z, ['Fl'], [{ predictor, columns: 2 ** 30, colors: 4, bitsPerComponent: 16 }]);
    assert.equal(r.error, undefined);
    assert.equal(r.data.length, predictor === 2 ? 4 : 3);
  }
  const absurd = decode(z, ['Fl'], [{ predictor: 12, columns: 2 ** 40 }]);
  assert.match(absurd.error ?? '', /invalid Columns/);
  assert.deepEqual(absurd.data, new Uint8Array([0, 5, 6, 7]));
});

test('predictor: unsupported values report an error and keep the data', () => {
  const z = zlibSync(new Uint8Array([1, 2, 3]));
  for (const p of [{ predictor: 7 }, { predictor: 12, bitsPerComponent: 3 }, { predictor: 2, colors: 0 }, { predictor: 12, columns: -1 }]) {
    const r = decode(z, ['Fl'], [p]);
    assert.ok(r.error !== undefined, JSON.stringify(p));
    assert.deepEqual(r.data, new Uint8Array([1, 2, 3]));
  }
  assert.equal(decode(z, ['Fl'], [{ predictor: 1, colors: 0 }]).error, undefined);
});

test('TIFF predictor 2: 1, 2, 4, 8 and 16 bpc', () => {
  const known = tiffEncode(new Uint8Array([10, 20, 30, 15, 25, 35]), 3, 8, 2);
  assert.deepEqual(known, new Uint8Array([10, 20, 30, 5, 5, 5]));
  for (const bpc of [1, 2, 4, 8, 16]) {
    for (const colors of [1, 2, 3]) {
      const columns = 13;
      const rowBytes = Math.ceil((colors * bpc * columns) / 8);
      const raw = randomBytes(rowBytes * 9, bpc * 10 + colors);
      // unused pad bits of sub-byte rows are not predicted: clear them so the round trip compares clean data
      const padBits = rowBytes * 8 - colors * bpc * columns;
      if (padBits > 0) for (let r = 0; r < 9; r++) raw[r * rowBytes + rowBytes - 1] &= 0xff << padBits;
      const p = { predictor: 2, colors, bitsPerComponent: bpc, columns };
      const r = decode(zlibSync(tiffEncode(raw, colors, bpc, columns)), ['FlateDecode'], [p]);
      assert.equal(r.error, undefined);
      assert.deepEqual(r.data, raw, `bpc ${bpc} colors ${colors}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------------------------
// LZWDecode

test('LZW: PDF reference example', () => {
  const r = decode(new Uint8Array([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]), ['LZWDecode']);
  assert.equal(r.error, undefined);
  assert.equal(text(r.data), '-----A---B');
});

test('LZW: round trips with EarlyChange 1 and 0, code widths up to 12, full table', () => {
  const samples = [bytes('a'), bytes('abababababababab'), pageContent(200_000, 4), randomBytes(30_000, 6), new Uint8Array(100_000)];
  for (const plain of samples) {
    for (const early of [1, 0]) {
      for (const reset of [true, false]) {
        const encoded = lzwEncode(plain, early, reset);
        const params = early === 1 ? [undefined] : [{ earlyChange: 0 }];
        const r = decode(encoded, [early === 1 ? 'LZWDecode' : 'LZW'], params);
        assert.equal(r.error, undefined, `size ${plain.length} early ${early} reset ${reset}`);
        assert.deepEqual(r.data, plain, `size ${plain.length} early ${early} reset ${reset}`);
      }
    }
  }
});

test('LZW: missing EOD, invalid code, cap, predictor', () => {
  const plain = pageContent(20_000);
  const encoded = lzwEncode(plain);
  assert.deepEqual(decode(encoded.subarray(0, encoded.length - 2), ['LZW']).data.length > 19_000, true);
  // 9-bit code 300 right after the clear code
  const bw = new BitWriter();
  bw.write(256, 9);
  bw.write(65, 9);
  bw.write(66, 9);
  bw.write(400, 9);
  const bad = decode(bw.finish(), ['LZW']);
  assert.match(bad.error ?? '', /LZW: invalid code 400/);
  assert.equal(text(bad.data), 'AB');
  const capped = decode(encoded, ['LZW'], [], 1234);
  assert.equal(capped.truncated, true);
  assert.deepEqual(capped.data, plain.subarray(0, 1234));
  const raw = randomBytes(40 * 10, 8);
  const p = { predictor: 11, columns: 40 };
  assert.deepEqual(decode(lzwEncode(pngEncode(raw, 40, 1, [1, 4, 2])), ['LZWDecode'], [p]).data, raw);
});

// ---------------------------------------------------------------------------------------------------------------
// ASCIIHexDecode, ASCII85Decode, RunLengthDecode

test('ASCIIHex: whitespace, case, odd final digit, EOD, errors', () => {
  assert.equal(text(decode(bytes('48 65\n6c6C 6F>'), ['ASCIIHexDecode']).data), 'Hello');
  assert.deepEqual(decode(bytes('616 >'), ['AHx']).data, new Uint8Array([0x61, 0x60]));
  assert.deepEqual(decode(bytes('7'), ['AHx']).data, new Uint8Array([0x70]));
  assert.equal(text(decode(bytes('4142>4344'), ['AHx']).data), 'AB');
  const bad = decode(bytes('4142zz43>'), ['AHx']);
  assert.match(bad.error ?? '', /^AHx: invalid character 0x7a/);
  assert.equal(text(bad.data), 'AB');
  const data = randomBytes(1000, 12);
  assert.deepEqual(decode(hexEncode(data), ['AHx']).data, data);
  const capped = decode(hexEncode(data), ['AHx'], [], 10);
  assert.equal(capped.truncated, true);
  assert.deepEqual(capped.data, data.subarray(0, 10));
});

test('ASCII85: known vectors, z, whitespace, short final group, EOD', () => {
  const leviathan =
    'Man is distinguished, not only by his reason, but by this singular passion from other animals, which is a lust ' +
    'of the mind, that by a perseverance of delight in the continued and indefatigable generation of knowledge, ' +
    'exceeds the short vehemence of any carnal pleasure.';
  const encoded =
    "9jqo^BlbD-BleB1DJ+*+F(f,q/0JhKF<GL>Cj@.4Gp$d7F!,L7@<6@)/0JDEF<G%<+EV:2F!,O<DJ+*.@<*K0@<6L(Df-\\0Ec5e;DffZ(EZee.Bl.9pF\"AGXBPCsi+DGm>@3BB/F*&OCAfu2/AKYi(DIb:@FD,*)+C]U=@3BN#EcYf8ATD3s@q?d$AftVqCh[NqF<G:8+EV:.+Cf>-FD5W8ARlolDIal(DId<j@<?3r@:F%a+D58'ATD4$Bl@l3De:,-DJs`8ARoFb/0JMK@qB4^F!,R<AKZ&-DfTqBG%G>uD.RTpAKYo'+CT/5+Cei#DII?(E,9)oF*2M7/c";
  const r = decode(bytes(encoded + '~>'), ['ASCII85Decode']);
  assert.equal(r.error, undefined);
  assert.equal(text(r.data), leviathan);
  // whitespace anywhere, no EOD
  assert.equal(text(decode(bytes(' 9jq\no^\r\n\tF*2M7 /c'), ['A85']).data), 'Man sure.');
  assert.equal(text(decode(bytes('F*2M7/c~>garbage'), ['A85']).data), 'sure.');
  assert.deepEqual(decode(bytes('z@:E^~>'), ['A85']).data, new Uint8Array([0, 0, 0, 0, 0x61, 0x62, 0x63]));
  assert.equal(text(decode(bytes('<~9jqo^~>'), ['A85']).data), 'Man ');
  for (const data of [randomBytes(1001, 13), randomBytes(1002, 14), randomBytes(1003, 15), new Uint8Array(64)]) {
    assert.deepEqual(decode(a85Encode(data), ['A85']).data, data);
  }
});

test('ASCII85: errors keep the data before them', () => {
  const bad = decode(bytes('9jqo^F*2{M7/c~>'), ['A85']);
  assert.match(bad.error ?? '', /^A85: invalid character 0x7b/);
  assert.equal(text(bad.data), 'Man ');
  assert.match(decode(bytes('9jqo^F~>'), ['A85']).error ?? '', /stray final character/);
  assert.match(decode(bytes('9jzqo^~>'), ['A85']).error ?? '', /'z' inside a group/);
  assert.match(decode(bytes('uuuuu~>'), ['A85']).error ?? '', /out of range/);
  const capped = decode(bytes('9jqo^F*2M7/c~>'), ['A85'], [], 6);
  assert.equal(capped.truncated, true);
  assert.equal(text(capped.data), 'Man su');
});

test('RunLength: literal and repeat runs, EOD, truncation', () => {
  const rl = new Uint8Array([2, 0x61, 0x62, 0x63, 253, 0x78, 0, 0x7a, 128, 0x41]);
  const r = decode(rl, ['RunLengthDecode']);
  assert.equal(r.error, undefined);
  assert.equal(text(r.data), 'abcxxxxz');
  assert.equal(text(decode(rl.subarray(0, 8), ['RL']).data), 'abcxxxxz'); // no EOD
  const cut = decode(new Uint8Array([4, 0x61, 0x62]), ['RL']);
  assert.match(cut.error ?? '', /unexpected end/);
  assert.equal(text(cut.data), 'ab');
  assert.match(decode(new Uint8Array([2, 0x61, 0x62, 0x63, 200]), ['RL']).error ?? '', /unexpected end/);
  const bomb = new Uint8Array(2000).fill(129); // 1000 × (repeat 128 times)
  const capped = decode(bomb, ['RL'], [], 5000);
  assert.equal(capped.truncated, true);
  assert.equal(capped.data.length, 5000);
  assert.equal(decode(bomb, ['RL']).data.length, 1000 * 128);
});

// ---------------------------------------------------------------------------------------------------------------
// Chains and stops

test('chains: A85 → Flate, AHx → Flate with predictor', () => {
  const plain = pageContent(100_000, 21);
  const r = decode(a85Encode(zlibSync(plain)), ['ASCII85Decode', 'FlateDecode'], [undefined, undefined]);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.data, plain);
  const raw = randomBytes(30 * 20, 22);
  const p = { predictor: 15, columns: 10, colors: 3 };
  const r2 = decode(hexEncode(zlibSync(pngEncode(raw, 30, 3, [4, 1]))), ['AHx', 'Fl'], [undefined, p]);
  assert.deepEqual(r2.data, raw);
});

test('chains: the cap applies to every stage; a truncated stage is no fault for the next', () => {
  const plain = pageContent(200_000, 23);
  const a85 = a85Encode(zlibSync(plain));
  const r = decode(a85, ['A85', 'Fl'], [], 20_000);
  assert.equal(r.truncated, true);
  assert.equal(r.error, undefined);
  assert.equal(r.data.length, 20_000);
  assert.deepEqual(r.data, plain.subarray(0, 20_000));
});

test('chains: a corrupt early stage still feeds its output on', () => {
  const z = zlibSync(pageContent(5000, 24));
  const hex = concat(hexEncode(z).subarray(0, 2000), bytes('#'));
  const r = decode(hex, ['AHx', 'Fl']);
  assert.match(r.error ?? '', /^AHx: invalid character/);
  assert.ok(r.data.length > 0);
});

test('image filters, Crypt and unknown filters stop the chain', () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  for (const [name, canonical] of [
    ['DCTDecode', 'DCTDecode'],
    ['DCT', 'DCTDecode'],
    ['JPXDecode', 'JPXDecode'],
    ['JBIG2Decode', 'JBIG2Decode'],
    ['CCITTFaxDecode', 'CCITTFaxDecode'],
    ['CCF', 'CCITTFaxDecode'],
    ['Crypt', 'Crypt'],
    ['BogusDecode', 'BogusDecode'],
  ]) {
    const alone = decode(jpeg, [name]);
    assert.equal(alone.stoppedAt, canonical);
    assert.deepEqual(alone.data, jpeg);
    const after = decode(a85Encode(zlibSync(jpeg)), ['A85', 'Fl', name, 'FlateDecode']);
    assert.equal(after.stoppedAt, canonical);
    assert.equal(after.error, undefined);
    assert.deepEqual(after.data, jpeg);
  }
});

test('garbage into every filter never throws', () => {
  const names = ['FlateDecode', 'LZWDecode', 'ASCIIHexDecode', 'ASCII85Decode', 'RunLengthDecode'];
  const params: FilterParams[] = [{}, { predictor: 12, columns: 3, colors: 2 }, { predictor: 2, bitsPerComponent: 4, columns: 5 }];
  for (let i = 0; i < 300; i++) {
    const data = randomBytes(1 + (i % 97) * 13, 1000 + i);
    if (i % 3 === 0) {
      data[0] = 0x78;
      data[1] = 0x9c;
    }
    const name = names[i % names.length];
    const r = decodeFilters(data, [name, names[(i >> 3) % names.length]], [params[i % 3], params[(i >> 2) % 3]], 4096 + i);
    assert.ok(r.data instanceof Uint8Array);
    assert.ok(r.data.length <= 4096 + i);
  }
});

test('flate: a passed deadline stops a bomb between pushes, keeping what decoded', () => {
  const z = zlibSync(new Uint8Array(50 << 20), { level: 9 });
  const late = decodeFilters(z, ['FlateDecode'], [], BIG, Date.now() - 1);
  assert.equal(late.outOfTime, true);
  assert.equal(late.error, undefined, 'running out of time is not a fault of the data');
  assert.ok(late.data.length > 0 && late.data.length < 50 << 20, `${late.data.length} bytes`);
  // the same stream with time to spare decodes in full
  const onTime = decodeFilters(z, ['FlateDecode'], [], BIG, Date.now() + 60_000);
  assert.equal(onTime.outOfTime, undefined);
  assert.equal(onTime.data.length, 50 << 20);
});

test('a chain stops after the stage during which the deadline passed', () => {
  const z = zlibSync(bytes('BT /F1 12 Tf (x) Tj ET'));
  const r = decodeFilters(hexEncode(z), ['ASCIIHexDecode', 'FlateDecode'], [], BIG, Date.now() - 1);
  assert.equal(r.outOfTime, true);
  assert.deepEqual(r.data, z, 'the hex stage ran, the flate stage did not');
});
