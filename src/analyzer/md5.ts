/**
 * MD5 (RFC 1321) for the standard security handler: the legacy key derivation hashes 16 bytes 50 times, and every
 * encrypted object needs the hash of a 10–21-byte key. A general-purpose hasher object per call (state, buffers,
 * views) cost more than the hashing itself there; this one allocates only its 16-byte result.
 *
 * MD5 is broken as a hash; here it is only the PDF format's key-derivation function, as the standard requires.
 */

// Per-round left-rotation amounts and the sine-derived constants K[i] = floor(abs(sin(i + 1)) * 2^32).
const S = new Uint8Array([
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4,
  11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
]);
const K = new Int32Array(64);
for (let i = 0; i < 64; i++) K[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 0x100000000) | 0;

const M = new Int32Array(16);
const TAIL = new Uint8Array(128);

/** The MD5 digest of the concatenation of `parts`. */
export function md5(...parts: Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const st = new Int32Array([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476]);
  // Whole 64-byte blocks are read straight from the input; the rest (and the padding) goes through TAIL.
  let fill = 0;
  for (const p of parts) {
    let i = 0;
    if (fill > 0) {
      const take = Math.min(64 - fill, p.length);
      TAIL.set(p.subarray(0, take), fill);
      fill += take;
      i = take;
      if (fill < 64) continue;
      block(st, TAIL, 0);
      fill = 0;
    }
    for (; i + 64 <= p.length; i += 64) block(st, p, i);
    TAIL.set(p.subarray(i), 0);
    fill = p.length - i;
  }
  TAIL.fill(0, fill);
  TAIL[fill] = 0x80;
  const end = fill < 56 ? 64 : 128;
  const bits = total * 8;
  TAIL[end - 8] = bits & 255;
  TAIL[end - 7] = (bits >>> 8) & 255;
  TAIL[end - 6] = (bits >>> 16) & 255;
  TAIL[end - 5] = (bits >>> 24) & 255;
  const hi = Math.floor(total / 0x20000000);
  TAIL[end - 4] = hi & 255;
  TAIL[end - 3] = (hi >>> 8) & 255;
  TAIL[end - 2] = (hi >>> 16) & 255;
  TAIL[end - 1] = (hi >>> 24) & 255;
  block(st, TAIL, 0);
  if (end === 128) block(st, TAIL, 64);
  const out = new Uint8Array(16);
  for (let i = 0; i < 4; i++) {
    const v = st[i];
    out[4 * i] = v & 255;
    out[4 * i + 1] = (v >>> 8) & 255;
    out[4 * i + 2] = (v >>> 16) & 255;
    out[4 * i + 3] = (v >>> 24) & 255;
  }
  return out;
}

function block(st: Int32Array, d: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + 4 * i;
    M[i] = d[j] | (d[j + 1] << 8) | (d[j + 2] << 16) | (d[j + 3] << 24);
  }
  let a = st[0];
  let b = st[1];
  let c = st[2];
  let d0 = st[3];
  for (let i = 0; i < 64; i++) {
    let f: number;
    let g: number;
    if (i < 16) {
      f = (b & c) | (~b & d0);
      g = i;
    } else if (i < 32) {
      f = (d0 & b) | (~d0 & c);
      g = (5 * i + 1) & 15;
    } else if (i < 48) {
      f = b ^ c ^ d0;
      g = (3 * i + 5) & 15;
    } else {
      f = c ^ (b | ~d0);
      g = (7 * i) & 15;
    }
    const x = (a + f + K[i] + M[g]) | 0;
    a = d0;
    d0 = c;
    c = b;
    b = (b + ((x << S[i]) | (x >>> (32 - S[i])))) | 0;
  }
  st[0] = (st[0] + a) | 0;
  st[1] = (st[1] + b) | 0;
  st[2] = (st[2] + c) | 0;
  st[3] = (st[3] + d0) | 0;
}
