/**
 * DEFLATE decoding (RFC 1951) written for hostile input: output stops exactly at a byte cap, the clock is checked as
 * output grows and every few blocks, and a fault keeps everything decoded before it. A general-purpose inflater gives none of these
 * without replaying the stream: streaming APIs drop the output of a chunk that throws and cannot stop at a cap, and
 * the resizing ones make room for 128 KB at every block, which dominated on files of many small streams.
 *
 * Synchronous and not re-entrant: the Huffman tables of dynamic blocks live in module-level scratch arrays.
 */

import { pastDeadline } from './budget';

export interface InflateResult {
  /** output, at most `cap` bytes; may be a view of a larger buffer */
  data: Uint8Array;
  /** the cap was reached and the stream had more */
  truncated: boolean;
  /** the final block was completed */
  ended: boolean;
  /** the data was corrupt, or ended before the final block ("unexpected end of data") */
  error?: string;
  /** stopped because `deadline` passed */
  outOfTime?: boolean;
}

// Length codes 257..285 and distance codes 0..29: base values and extra bits (RFC 1951 3.2.5).
const LEN_BASE = new Uint16Array([3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]);
const LEN_EXTRA = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]);
const DIST_BASE = new Uint16Array([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
]);
const DIST_EXTRA = new Uint8Array([0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]);
/** order in which code-length code lengths are sent */
const CL_ORDER = new Uint8Array([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

/**
 * A lookup table indexed by the next `bits` input bits (codes are sent bit-reversed, so the table is filled at the
 * reversed code and every index that shares its low bits). Entry = length << 16 | symbol; 0 = no such code.
 */
interface Table {
  t: Int32Array;
  bits: number;
}

const count = new Uint16Array(16);
const nextCode = new Uint16Array(16);

/** Builds a canonical Huffman table into `t`; false when the lengths over-subscribe the code space. */
function build(lengths: Uint8Array, n: number, into: Table): boolean {
  count.fill(0);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const l = lengths[i];
    count[l]++;
    if (l > max) max = l;
  }
  count[0] = 0;
  let code = 0;
  let left = 1;
  for (let l = 1; l <= 15; l++) {
    left = (left << 1) - count[l];
    if (left < 0) return false;
    code = (code + count[l - 1]) << 1;
    nextCode[l] = code;
  }
  const bits = Math.max(max, 1);
  const size = 1 << bits;
  const t = into.t;
  t.fill(0, 0, size);
  for (let s = 0; s < n; s++) {
    const l = lengths[s];
    if (l === 0) continue;
    let c = nextCode[l]++;
    let rev = 0;
    for (let i = 0; i < l; i++) {
      rev = (rev << 1) | (c & 1);
      c >>= 1;
    }
    const entry = (l << 16) | s;
    for (let j = rev; j < size; j += 1 << l) t[j] = entry;
  }
  into.bits = bits;
  return true;
}

const FIXED_LIT: Table = { t: new Int32Array(1 << 9), bits: 9 };
const FIXED_DIST: Table = { t: new Int32Array(1 << 5), bits: 5 };
{
  const l = new Uint8Array(288);
  l.fill(8, 0, 144);
  l.fill(9, 144, 256);
  l.fill(7, 256, 280);
  l.fill(8, 280, 288);
  build(l, 288, FIXED_LIT);
  build(new Uint8Array(30).fill(5), 30, FIXED_DIST);
}
const DYN_LIT: Table = { t: new Int32Array(1 << 15), bits: 0 };
const DYN_DIST: Table = { t: new Int32Array(1 << 15), bits: 0 };
const CL_TABLE: Table = { t: new Int32Array(1 << 7), bits: 0 };
const lengths = new Uint8Array(288 + 32);
const clLengths = new Uint8Array(19);

/**
 * A larger buffer holding `out[0..used]`: doubled (at least 1 KB), or `need`, never past `cap` (then possibly short
 * of `need`). Shared with the other decoders in filters.ts.
 */
export function enlarge(out: Uint8Array, used: number, need: number, cap: number): Uint8Array {
  if (out.length >= cap) return out;
  const nb = new Uint8Array(Math.min(cap, Math.max(need, out.length * 2, 1024)));
  nb.set(out.subarray(0, used));
  return nb;
}

/**
 * The first `len` bytes of `buf`. Doubling leaves at most half of a buffer unused, which is cheaper to keep than to
 * copy; only a far too large first guess is copied out.
 */
export function trimmed(buf: Uint8Array, len: number): Uint8Array {
  return buf.length > 2 * len + 4096 ? buf.slice(0, len) : buf.subarray(0, len);
}

/** Output is checked against the clock at most this often (bytes): tuning, the deadline is the limit. */
const CLOCK_EVERY = 1 << 20;
/**
 * Blocks between two looks at the clock, whatever they output: a dynamic block can cost a 32 K-entry table fill
 * and yield no byte at all (a stream of a million such blocks took 40 s when only output growth was timed). Sixteen
 * of the costliest blocks take well under a millisecond, and a stream of tiny blocks reads the clock rarely enough.
 */
const CLOCK_EVERY_BLOCKS = 16;

/**
 * Inflates raw DEFLATE data `input[start..]`. Never throws. At most `cap` bytes of output are produced; `truncated`
 * says there was more. Data after the final block is ignored.
 */
export function inflateRaw(input: Uint8Array, start: number, cap: number, deadline = Infinity): InflateResult {
  const end = input.length;
  let out: Uint8Array = new Uint8Array(Math.max(0, Math.min(cap, Math.max(1024, (end - start) * 4))));
  let op = 0;
  let pos = start;
  let bitBuf = 0;
  let bitCnt = 0;
  let final = false;
  let error: string | undefined;
  let truncated = false;
  let outOfTime = false;
  let clockAt = CLOCK_EVERY;
  let blocksLeft = CLOCK_EVERY_BLOCKS;

  blocks: while (!final) {
    if (op >= clockAt || --blocksLeft === 0) {
      clockAt = op + CLOCK_EVERY;
      blocksLeft = CLOCK_EVERY_BLOCKS;
      if (pastDeadline(deadline)) {
        outOfTime = true;
        break;
      }
    }
    while (bitCnt < 3 && pos < end) {
      bitBuf |= input[pos++] << bitCnt;
      bitCnt += 8;
    }
    if (bitCnt < 3) {
      error = 'unexpected end of data';
      break;
    }
    final = (bitBuf & 1) === 1;
    const type = (bitBuf >>> 1) & 3;
    bitBuf >>>= 3;
    bitCnt -= 3;

    if (type === 0) {
      // stored: skip to a byte boundary; the whole bytes still in the bit buffer are given back to the input
      bitBuf = 0;
      pos -= bitCnt >> 3;
      bitCnt = 0;
      if (pos + 4 > end) {
        error = 'unexpected end of data';
        break;
      }
      const len = input[pos] | (input[pos + 1] << 8);
      const nlen = input[pos + 2] | (input[pos + 3] << 8);
      if (len !== (~nlen & 0xffff) && (len !== 0 || nlen !== 0)) {
        error = 'invalid stored block lengths';
        break;
      }
      pos += 4;
      const avail = Math.min(len, end - pos);
      let take = avail;
      if (op + avail > out.length) out = enlarge(out, op, op + avail, cap);
      if (op + avail > out.length) {
        take = out.length - op;
        truncated = true;
      }
      out.set(input.subarray(pos, pos + take), op);
      op += take;
      pos += take;
      if (truncated) break;
      if (avail < len) {
        error = 'unexpected end of data';
        break;
      }
      continue;
    }

    let lit: Table;
    let dist: Table;
    if (type === 1) {
      lit = FIXED_LIT;
      dist = FIXED_DIST;
    } else if (type === 2) {
      while (bitCnt < 14 && pos < end) {
        bitBuf |= input[pos++] << bitCnt;
        bitCnt += 8;
      }
      if (bitCnt < 14) {
        error = 'unexpected end of data';
        break;
      }
      const hlit = (bitBuf & 31) + 257;
      const hdist = ((bitBuf >>> 5) & 31) + 1;
      const hclen = ((bitBuf >>> 10) & 15) + 4;
      bitBuf >>>= 14;
      bitCnt -= 14;
      if (hlit > 286 || hdist > 30) {
        error = 'invalid code counts';
        break;
      }
      clLengths.fill(0);
      for (let i = 0; i < hclen; i++) {
        while (bitCnt < 3 && pos < end) {
          bitBuf |= input[pos++] << bitCnt;
          bitCnt += 8;
        }
        if (bitCnt < 3) {
          error = 'unexpected end of data';
          break blocks;
        }
        clLengths[CL_ORDER[i]] = bitBuf & 7;
        bitBuf >>>= 3;
        bitCnt -= 3;
      }
      if (!build(clLengths, 19, CL_TABLE)) {
        error = 'invalid code lengths set';
        break;
      }
      const total = hlit + hdist;
      const clMask = (1 << CL_TABLE.bits) - 1;
      let i = 0;
      while (i < total) {
        while (bitCnt < 14 && pos < end) {
          bitBuf |= input[pos++] << bitCnt;
          bitCnt += 8;
        }
        const e = CL_TABLE.t[bitBuf & clMask];
        const l = e >>> 16;
        if (l === 0 || l > bitCnt) {
          error = l === 0 ? 'invalid code lengths set' : 'unexpected end of data';
          break blocks;
        }
        bitBuf >>>= l;
        bitCnt -= l;
        const sym = e & 0xffff;
        if (sym < 16) {
          lengths[i++] = sym;
          continue;
        }
        let rep: number;
        let val = 0;
        if (sym === 16) {
          if (i === 0) {
            error = 'invalid bit length repeat';
            break blocks;
          }
          val = lengths[i - 1];
          rep = 3 + (bitBuf & 3);
          bitBuf >>>= 2;
          bitCnt -= 2;
        } else if (sym === 17) {
          rep = 3 + (bitBuf & 7);
          bitBuf >>>= 3;
          bitCnt -= 3;
        } else {
          rep = 11 + (bitBuf & 127);
          bitBuf >>>= 7;
          bitCnt -= 7;
        }
        if (bitCnt < 0) {
          error = 'unexpected end of data';
          break blocks;
        }
        if (i + rep > total) {
          error = 'invalid bit length repeat';
          break blocks;
        }
        lengths.fill(val, i, i + rep);
        i += rep;
      }
      if (lengths[256] === 0) {
        error = 'invalid code -- missing end-of-block';
        break;
      }
      if (!build(lengths.subarray(0, hlit), hlit, DYN_LIT) || !build(lengths.subarray(hlit, total), hdist, DYN_DIST)) {
        error = 'invalid literal/lengths set';
        break;
      }
      lit = DYN_LIT;
      dist = DYN_DIST;
    } else {
      error = 'invalid block type';
      break;
    }

    // Huffman-coded data
    const lt = lit.t;
    const lMask = (1 << lit.bits) - 1;
    const dt = dist.t;
    const dMask = (1 << dist.bits) - 1;
    for (;;) {
      if (bitCnt < 15) {
        // two bytes at once where the input allows (bitCnt ≤ 14, so the buffer stays under 31 bits)
        if (pos + 1 < end) {
          bitBuf |= (input[pos] | (input[pos + 1] << 8)) << bitCnt;
          pos += 2;
          bitCnt += 16;
        } else if (pos < end) {
          bitBuf |= input[pos++] << bitCnt;
          bitCnt += 8;
        }
      }
      let e = lt[bitBuf & lMask];
      let l = e >>> 16;
      if (l === 0 || l > bitCnt) {
        error = l === 0 ? 'invalid literal/length code' : 'unexpected end of data';
        break blocks;
      }
      bitBuf >>>= l;
      bitCnt -= l;
      const sym = e & 0xffff;
      if (sym < 256) {
        if (op >= out.length) {
          out = enlarge(out, op, op + 1, cap);
          if (op >= out.length) {
            truncated = true;
            break blocks;
          }
        }
        out[op++] = sym;
        continue;
      }
      if (sym === 256) break;
      const li = sym - 257;
      if (li >= 29) {
        error = 'invalid literal/length code';
        break blocks;
      }
      let len = LEN_BASE[li];
      const lx = LEN_EXTRA[li];
      if (lx > 0) {
        while (bitCnt < lx && pos < end) {
          bitBuf |= input[pos++] << bitCnt;
          bitCnt += 8;
        }
        if (bitCnt < lx) {
          error = 'unexpected end of data';
          break blocks;
        }
        len += bitBuf & ((1 << lx) - 1);
        bitBuf >>>= lx;
        bitCnt -= lx;
      }
      while (bitCnt < 15 && pos < end) {
        bitBuf |= input[pos++] << bitCnt;
        bitCnt += 8;
      }
      e = dt[bitBuf & dMask];
      l = e >>> 16;
      if (l === 0 || l > bitCnt) {
        error = l === 0 ? 'invalid distance code' : 'unexpected end of data';
        break blocks;
      }
      bitBuf >>>= l;
      bitCnt -= l;
      const di = e & 0xffff;
      if (di >= 30) {
        error = 'invalid distance code';
        break blocks;
      }
      let d = DIST_BASE[di];
      const dx = DIST_EXTRA[di];
      if (dx > 0) {
        while (bitCnt < dx && pos < end) {
          bitBuf |= input[pos++] << bitCnt;
          bitCnt += 8;
        }
        if (bitCnt < dx) {
          error = 'unexpected end of data';
          break blocks;
        }
        d += bitBuf & ((1 << dx) - 1);
        bitBuf >>>= dx;
        bitCnt -= dx;
      }
      if (d > op) {
        error = 'invalid distance too far back';
        break blocks;
      }
      if (op + len > out.length) {
        out = enlarge(out, op, op + len, cap);
        if (op + len > out.length) {
          len = out.length - op;
          truncated = true;
        }
      }
      let from = op - d;
      if (len >= 32 && d >= len) {
        out.copyWithin(op, from, from + len);
        op += len;
      } else {
        const stop = op + len;
        while (op < stop) out[op++] = out[from++];
      }
      if (truncated) break blocks;
      if (op >= clockAt) {
        clockAt = op + CLOCK_EVERY;
        if (pastDeadline(deadline)) {
          outOfTime = true;
          break blocks;
        }
      }
    }
  }
  // A stream that fills the cap exactly and ends there is complete, not truncated: `truncated` is only set when
  // a symbol had no room.
  const res: InflateResult = { data: trimmed(out, op), truncated, ended: final && error === undefined && !truncated && !outOfTime };
  if (error !== undefined) res.error = error;
  if (outOfTime) res.outOfTime = true;
  return res;
}
