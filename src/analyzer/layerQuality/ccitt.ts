/**
 * CCITTFaxDecode for the layer-quality score's scan: ITU-T T.4 one-dimensional (Modified Huffman) and two-dimensional
 * (Modified READ) coding, and T.6 (Group 4), as PDF's /DecodeParms name them (K < 0: Group 4; K = 0: one-dimensional;
 * K > 0: mixed, a tag bit after each line's EOL). Bilevel archive scans are mostly Group 4.
 *
 * Written from the recommendations' description of the coding; the code words are T.4's run-length tables
 * (terminating, make-up and extended make-up codes) and its two-dimensional mode codes, which T.6 reuses; they are
 * checked against libtiff's codes (test/ccitt.test.ts). Pure.
 *
 * Bounded: the output is the image's size, which the caller has checked and charged; every code word consumes at
 * least one bit, runs never pass the line's end, and the clock is read every few dozen lines.
 */
import { pastDeadline } from '../budget';

export interface FaxParams {
  /** PDF's /K: < 0 Group 4, 0 one-dimensional, > 0 mixed */
  k: number;
  /** pixels a line (/Columns, the image's /Width) */
  columns: number;
  /** lines to decode (the image's /Height) */
  rows: number;
  /** /EncodedByteAlign: each line's code begins on a byte */
  byteAlign: boolean;
  /** /BlackIs1: the output's 1 bits are black */
  blackIs1: boolean;
}

export interface FaxImage {
  /** the lines packed as 1-bit samples, ceil(columns / 8) bytes each, most significant bit first (the PDF sample layout) */
  data: Uint8Array;
  /** lines decoded; fewer than asked when the data ended or broke early */
  rows: number;
  /** why decoding stopped before the last line (damaged data: the line it broke on), if it did */
  error?: string;
  /** the deadline passed: `rows` is where decoding stopped */
  outOfTime?: boolean;
}

// ---- code tables ------------------------------------------------------------------------------------------------
// Each table lists code words as bit strings; a run table's word i codes run i (terminating codes) or 64 × (i + 1)
// (make-up codes). The extended make-up codes (1792 to 2560) are shared by both colours.

const WHITE_TERMINATING =
  '00110101 000111 0111 1000 1011 1100 1110 1111 10011 10100 00111 01000 001000 000011 110100 110101 101010 101011 0100111 ' +
  '0001100 0001000 0010111 0000011 0000100 0101000 0101011 0010011 0100100 0011000 00000010 00000011 00011010 00011011 ' +
  '00010010 00010011 00010100 00010101 00010110 00010111 00101000 00101001 00101010 00101011 00101100 00101101 00000100 ' +
  '00000101 00001010 00001011 01010010 01010011 01010100 01010101 00100100 00100101 01011000 01011001 01011010 01011011 ' +
  '01001010 01001011 00110010 00110011 00110100';
const WHITE_MAKEUP =
  '11011 10010 010111 0110111 00110110 00110111 01100100 01100101 01101000 01100111 011001100 011001101 011010010 011010011 ' +
  '011010100 011010101 011010110 011010111 011011000 011011001 011011010 011011011 010011000 010011001 010011010 011000 010011011';
const BLACK_TERMINATING =
  '0000110111 010 11 10 011 0011 0010 00011 000101 000100 0000100 0000101 0000111 00000100 00000111 000011000 0000010111 ' +
  '0000011000 0000001000 00001100111 00001101000 00001101100 00000110111 00000101000 00000010111 00000011000 000011001010 ' +
  '000011001011 000011001100 000011001101 000001101000 000001101001 000001101010 000001101011 000011010010 000011010011 ' +
  '000011010100 000011010101 000011010110 000011010111 000001101100 000001101101 000011011010 000011011011 000001010100 ' +
  '000001010101 000001010110 000001010111 000001100100 000001100101 000001010010 000001010011 000000100100 000000110111 ' +
  '000000111000 000000100111 000000101000 000001011000 000001011001 000000101011 000000101100 000001011010 000001100110 ' +
  '000001100111';
const BLACK_MAKEUP =
  '0000001111 000011001000 000011001001 000001011011 000000110011 000000110100 000000110101 0000001101100 0000001101101 ' +
  '0000001001010 0000001001011 0000001001100 0000001001101 0000001110010 0000001110011 0000001110100 0000001110101 ' +
  '0000001110110 0000001110111 0000001010010 0000001010011 0000001010100 0000001010101 0000001011010 0000001011011 ' +
  '0000001100100 0000001100101';
const EXTENDED_MAKEUP =
  '00000001000 00000001100 00000001101 000000010010 000000010011 000000010100 000000010101 000000010110 000000010111 ' +
  '000000011100 000000011101 000000011110 000000011111';

/** the two-dimensional mode codes, in the order of the MODE_* values */
const MODES = '0001 001 1 011 000011 0000011 010 000010 0000010';
const MODE_PASS = 0;
const MODE_HORIZONTAL = 1;
/** MODE_V0 + i is the vertical mode whose a1 is b1 + VERTICAL_OFFSET[i] */
const MODE_V0 = 2;
const VERTICAL_OFFSET = [0, 1, 2, 3, -1, -2, -3];

/** the longest run code word, and so the bits a run look-up reads */
const RUN_BITS = 13;
const MODE_BITS = 7;
/** the end-of-line code word 000000000001: 12 bits, eleven zeros and a one */
const EOL_BITS = 12;

/** A look-up table of 2^bits entries: a code word's entries hold value × 32 + its length; −1 where no word matches. */
function lookup(bits: number, words: { code: string; value: number }[]): Int32Array {
  const t = new Int32Array(1 << bits).fill(-1);
  for (const { code, value } of words) {
    const free = bits - code.length;
    const first = parseInt(code, 2) << free;
    for (let i = 0; i < 1 << free; i++) t[first + i] = value * 32 + code.length;
  }
  return t;
}

function runWords(terminating: string, makeup: string): { code: string; value: number }[] {
  const words = terminating.split(' ').map((code, i) => ({ code, value: i }));
  makeup.split(' ').forEach((code, i) => words.push({ code, value: 64 * (i + 1) }));
  EXTENDED_MAKEUP.split(' ').forEach((code, i) => words.push({ code, value: 1792 + 64 * i }));
  return words;
}

let tables: { white: Int32Array; black: Int32Array; modes: Int32Array } | undefined;
/** built on first use: a document without a fax image never pays for them */
function codeTables(): { white: Int32Array; black: Int32Array; modes: Int32Array } {
  tables ??= {
    white: lookup(RUN_BITS, runWords(WHITE_TERMINATING, WHITE_MAKEUP)),
    black: lookup(RUN_BITS, runWords(BLACK_TERMINATING, BLACK_MAKEUP)),
    modes: lookup(
      MODE_BITS,
      MODES.split(' ').map((code, value) => ({ code, value })),
    ),
  };
  return tables;
}

/** the code words as the tables list them, for a test that they form prefix codes */
export const FAX_CODE_WORDS = { WHITE_TERMINATING, WHITE_MAKEUP, BLACK_TERMINATING, BLACK_MAKEUP, EXTENDED_MAKEUP, MODES };

// ---- decoding ---------------------------------------------------------------------------------------------------

/** fill bits read before an end-of-line code (writers pad to a byte; a run of zeros this long is no fill) */
const MAX_FILL = 4096;

/** lines between two looks at the clock: a line costs a few microseconds */
const CLOCK_LINES = 32;

class FaxError extends Error {}

/**
 * Decodes a CCITTFaxDecode stream into `p.rows` lines of `p.columns` pixels. Never throws: damaged data ends the image
 * at the line it broke on, with `error` set; data that ends early (or at an end-of-block or return-to-control code)
 * leaves `rows` short.
 */
export function decodeFax(src: Uint8Array, p: FaxParams, deadline = Infinity): FaxImage {
  if (!(Number.isInteger(p.columns) && p.columns > 0 && Number.isInteger(p.rows) && p.rows >= 0 && src instanceof Uint8Array))
    return { data: new Uint8Array(0), rows: 0, error: 'no image of these parameters' };
  const cols = p.columns;
  const rowBytes = (cols + 7) >> 3;
  const data = new Uint8Array(rowBytes * Math.max(0, p.rows));
  const { white, black, modes } = codeTables();
  const totalBits = src.length * 8;
  let pos = 0;

  /** the next n (≤ 17) bits, zeros past the end */
  const peek = (n: number): number => {
    const i = pos >> 3;
    const w = ((src[i] ?? 0) << 16) | ((src[i + 1] ?? 0) << 8) | (src[i + 2] ?? 0);
    return (w >> (24 - (pos & 7) - n)) & ((1 << n) - 1);
  };
  /** zero bits from `pos` (at most `max`) */
  const zeros = (max: number): number => {
    let z = 0;
    while (z < max && pos + z < totalBits && ((src[(pos + z) >> 3] >> (7 - ((pos + z) & 7))) & 1) === 0) z++;
    return z;
  };
  const run = (table: Int32Array): number => {
    let total = 0;
    for (;;) {
      const e = table[peek(RUN_BITS)];
      if (e < 0 || pos >= totalBits) throw new FaxError('no run code word');
      pos += e & 31;
      const v = e >> 5;
      total += v;
      if (total > cols) throw new FaxError('a run past the end of the line');
      if (v < 64) return total;
    }
  };

  // changes of colour, as pixel offsets: even entries white → black, odd black → white; three sentinels at `cols`
  let ref = new Int32Array(cols + 5);
  let cur = new Int32Array(cols + 5);
  ref.fill(cols, 0, 3);

  let row = 0;
  const line = (): void => {
    let curLen = 0;
    const push = (x: number) => {
      if (curLen >= cols + 2) throw new FaxError('more changes than pixels');
      cur[curLen++] = x;
    };
    let twoD = p.k < 0;
    if (p.k >= 0) {
      // end-of-line codes (with any fill before them) may precede a line; six in a row end the page
      let eols = 0;
      for (;;) {
        const z = zeros(MAX_FILL);
        if (z < EOL_BITS - 1) break;
        if (pos + z >= totalBits) throw new EndOfData();
        if (z >= MAX_FILL) throw new FaxError('zeros where a line should begin');
        pos += z + 1;
        if (++eols === 6) throw new EndOfData();
      }
      if (eols === 0 && p.byteAlign) pos = (pos + 7) & ~7;
      if (p.k > 0) {
        // the tag bit: 1 codes the line one-dimensionally, 0 two-dimensionally
        twoD = ((src[pos >> 3] >> (7 - (pos & 7))) & 1) === 0;
        pos++;
      }
    } else {
      if (p.byteAlign) pos = (pos + 7) & ~7;
      // the end-of-block code: an EOL where a line's first mode code would be
      if (peek(EOL_BITS) === 1) throw new EndOfData();
    }
    if (pos >= totalBits) throw new EndOfData();

    if (!twoD) {
      for (let a = 0, color = 0; a < cols; color ^= 1) {
        a += run(color ? black : white);
        push(a);
      }
    } else {
      let a0 = -1;
      let color = 0;
      let j = 0;
      while (a0 < cols) {
        // b1: the reference line's first change right of a0 to the colour opposite a0's; b2 the next one
        while (j > 0 && ref[j - 1] > a0) j--;
        while (ref[j] <= a0 || (j & 1) !== color) j++;
        const b1 = ref[j];
        const b2 = ref[j + 1];
        const e = modes[peek(MODE_BITS)];
        if (e < 0 || pos >= totalBits) throw new FaxError('no mode code word');
        pos += e & 31;
        const mode = e >> 5;
        const start = Math.max(a0, 0);
        if (mode === MODE_PASS) {
          a0 = b2;
        } else if (mode === MODE_HORIZONTAL) {
          const a1 = start + run(color ? black : white);
          const a2 = a1 + run(color ? white : black);
          if (a2 > cols) throw new FaxError('a run past the end of the line');
          push(a1);
          push(a2);
          a0 = a2;
        } else {
          const a1 = b1 + VERTICAL_OFFSET[mode - MODE_V0];
          if (a1 < start || a1 > cols) throw new FaxError('a vertical code off the line');
          push(a1);
          a0 = a1;
          color ^= 1;
        }
      }
    }
    // paint the black runs: between change 2i and 2i + 1
    const o = row * rowBytes;
    for (let i = 0; i < curLen; i += 2) {
      const to = Math.min(i + 1 < curLen ? cur[i + 1] : cols, cols);
      let x = cur[i];
      // the bits up to a byte, whole bytes, the bits after
      for (; x < to && x & 7; x++) data[o + (x >> 3)] |= 0x80 >> (x & 7);
      for (; x + 8 <= to; x += 8) data[o + (x >> 3)] = 0xff;
      for (; x < to; x++) data[o + (x >> 3)] |= 0x80 >> (x & 7);
    }
    [ref, cur] = [cur, ref];
    ref.fill(cols, curLen, curLen + 3);
  };

  const result = (extra: Partial<FaxImage>): FaxImage => {
    // decoded with 1 = black; PDF's default (BlackIs1 false) has 0 for black
    if (!p.blackIs1) for (let i = 0; i < data.length; i++) data[i] = ~data[i];
    return { data, rows: row, ...extra };
  };
  try {
    for (; row < p.rows; row++) {
      if (row % CLOCK_LINES === 0 && row > 0 && pastDeadline(deadline)) return result({ outOfTime: true });
      line();
    }
    return result({});
  } catch (e) {
    if (e instanceof EndOfData) return result({});
    if (e instanceof FaxError) return result({ error: `line ${row + 1}: ${e.message}` });
    return result({ error: `decoding failed: ${e instanceof Error ? e.message : String(e)}` });
  }
}

class EndOfData extends Error {}
