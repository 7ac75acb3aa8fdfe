/**
 * JBIG2 (ITU-T T.88) Huffman coding: the bit reader of Huffman-coded segments, code tables built from their lines
 * (Annex B.2, with codes assigned by B.3), the fifteen standard tables of Annex B.5 (Tables B.1 to B.15), the tables
 * segment (7.4.13) and a text region's symbol ID table (7.4.3.1.7). Symbol dictionaries and text regions coded this
 * way (SDHUFF, SBHUFF) read their integers through these tables (jbig2Symbols.ts).
 *
 * Written from the recommendation; the standard tables' lines are its figures. Checked against other decoders on
 * dev-time files (see the README's JBIG2 paragraph) and by round trips through a test-only encoder.
 *
 * Bounded: a table has at most as many lines as its segment has bits to code them, prefixes and ranges of at most 32
 * bits; a read past the data's end is an error (HuffmanError), caught by the callers, never garbage bits.
 */

/** a read past the end of the coded data, or a bit pattern that is no code of the table */
export class HuffmanError extends Error {}

/** The bits of a segment's data, most significant first, from a byte offset. */
export class BitReader {
  private bit = 0;

  constructor(
    private readonly data: Uint8Array,
    /** the byte the next bit is read from */
    private pos: number,
    private readonly end = data.length,
  ) {}

  read(): number {
    if (this.pos >= this.end) throw new HuffmanError('its Huffman-coded data ends early');
    const b = (this.data[this.pos] >> (7 - this.bit)) & 1;
    if (++this.bit === 8) {
      this.bit = 0;
      this.pos++;
    }
    return b;
  }

  /** n (0..32) bits as an unsigned integer */
  bits(n: number): number {
    let v = 0;
    // multiplication, not shifts: 32 bits pass int32
    for (let i = 0; i < n; i++) v = v * 2 + this.read();
    return v;
  }

  /** skips the rest of the current byte ("skip over any bits remaining in the last byte read") */
  align(): void {
    if (this.bit !== 0) {
      this.bit = 0;
      this.pos++;
    }
  }

  /** the byte offset of the next bit, aligned first */
  byteOffset(): number {
    this.align();
    return this.pos;
  }

  /** moves past n whole bytes (after align()), which another decoder reads */
  skip(n: number): void {
    this.align();
    if (n > this.end - this.pos) throw new HuffmanError('its Huffman-coded data ends early');
    this.pos += n;
  }
}

/** a line's kind: a value range from RANGELOW up (the default), the lower range line (values below it), or the out-of-band value */
export const LOWER = 1;
export const OOB = 2;

/** one line of a table: PREFLEN, RANGELEN, RANGELOW and its kind (LOWER, OOB, or none) */
export type Line = [number, number, number, number?];

/** the longest prefix or range a table may have (the standard's own reach 32 bits at most) */
const MAX_BITS = 32;
/** lines a tables segment's table may have */
const MAX_TABLE_LINES = 4096;

/**
 * A Huffman table (B.2): lines of (PREFLEN, RANGELEN, RANGELOW), the lower range line, the upper one and an OOB line if
 * the table has one; codes assigned by B.3 (canonical: by length, then in the order of the lines). Decoding reads a
 * prefix one bit at a time: the codes of a length are consecutive, so a prefix is a code when it lies in its length's
 * run of them.
 */
export class HuffmanTable {
  /** per prefix length: its first code, how many lines have it, and where they start in the line arrays */
  private readonly first = new Float64Array(MAX_BITS + 1);
  private readonly count = new Int32Array(MAX_BITS + 1);
  private readonly start = new Int32Array(MAX_BITS + 1);
  /**
   * the coded lines by prefix length, then in the table's order: RANGELEN, RANGELOW and kind (typed arrays: a text
   * region's symbol ID table has a line per symbol)
   */
  private readonly rangeLen: Uint8Array;
  private readonly rangeLow: Float64Array;
  private readonly kind: Uint8Array;
  private readonly maxLength: number;
  /** lines with a code (what the table holds) */
  readonly size: number;
  readonly hasOob: boolean;

  /**
   * Lines in the table's order, as PREFLEN, RANGELEN and RANGELOW per line (and kinds: LOWER, OOB, or 0); a
   * HuffmanError for a prefix or range over 32 bits
   */
  constructor(prefLen: ArrayLike<number>, rangeLen: ArrayLike<number>, rangeLow: ArrayLike<number>, kind?: ArrayLike<number>) {
    const n = prefLen.length;
    let max = 0;
    let oob = false;
    for (let i = 0; i < n; i++) {
      const p = prefLen[i];
      const r = rangeLen[i];
      if (!(p >= 0 && p <= MAX_BITS && r >= 0 && r <= MAX_BITS)) throw new HuffmanError(`a Huffman table line of ${p} + ${r} bits`);
      this.count[p]++;
      if (p > max) max = p;
      if (p > 0 && kind && kind[i] === OOB) oob = true;
    }
    this.maxLength = max;
    this.hasOob = oob;
    // B.3: FIRSTCODE[len] = (FIRSTCODE[len − 1] + LENCOUNT[len − 1]) × 2, with LENCOUNT[0] taken as 0; a length's codes
    // go to its lines in their order
    let code = 0;
    let at = 0;
    for (let len = 1; len <= max; len++) {
      code = (code + (len > 1 ? this.count[len - 1] : 0)) * 2;
      this.first[len] = code;
      this.start[len] = at;
      at += this.count[len];
    }
    this.size = at;
    this.rangeLen = new Uint8Array(at);
    this.rangeLow = new Float64Array(at);
    this.kind = new Uint8Array(at);
    const next = this.start.slice();
    for (let i = 0; i < n; i++) {
      const p = prefLen[i];
      if (p === 0) continue;
      const k = next[p]++;
      this.rangeLen[k] = rangeLen[i];
      this.rangeLow[k] = rangeLow[i];
      this.kind[k] = kind ? kind[i] : 0;
    }
  }

  /** a table of lines [PREFLEN, RANGELEN, RANGELOW, kind?] */
  static of(lines: readonly Line[]): HuffmanTable {
    return new HuffmanTable(
      lines.map((l) => l[0]),
      lines.map((l) => l[1]),
      lines.map((l) => l[2]),
      lines.map((l) => l[3] ?? 0),
    );
  }

  /** the next value, or null for OOB */
  decode(r: BitReader): number | null {
    let code = 0;
    for (let len = 1; len <= this.maxLength; len++) {
      code = code * 2 + r.read();
      const k = code - this.first[len];
      if (k >= 0 && k < this.count[len]) {
        const i = this.start[len] + k;
        const kind = this.kind[i];
        if (kind === OOB) return null;
        const offset = r.bits(this.rangeLen[i]);
        return kind === LOWER ? this.rangeLow[i] - offset : this.rangeLow[i] + offset;
      }
    }
    throw new HuffmanError('a Huffman code its table does not have');
  }

  /** the next value, which may not be OOB */
  value(r: BitReader, what: string): number {
    const v = this.decode(r);
    if (v === null) throw new HuffmanError(`an out-of-band ${what}`);
    return v;
  }
}

// Annex B.5, Tables B.1–B.15: each line [PREFLEN, RANGELEN, RANGELOW] (an upper range line is one with 32 range
// bits), the lower range line marked LOWER (its values are RANGELOW less the range bits), the OOB line [PREFLEN, 0, 0, OOB].
// prettier-ignore
const STANDARD: readonly (readonly Line[])[] = [
  [],
  // B.1
  [[1, 4, 0], [2, 8, 16], [3, 16, 272], [3, 32, 65808]],
  // B.2
  [[1, 0, 0], [2, 0, 1], [3, 0, 2], [4, 3, 3], [5, 6, 11], [6, 32, 75], [6, 0, 0, OOB]],
  // B.3
  [[8, 8, -256], [1, 0, 0], [2, 0, 1], [3, 0, 2], [4, 3, 3], [5, 6, 11], [8, 32, -257, LOWER], [7, 32, 75], [6, 0, 0, OOB]],
  // B.4
  [[1, 0, 1], [2, 0, 2], [3, 0, 3], [4, 3, 4], [5, 6, 12], [5, 32, 76]],
  // B.5
  [[7, 8, -255], [1, 0, 1], [2, 0, 2], [3, 0, 3], [4, 3, 4], [5, 6, 12], [7, 32, -256, LOWER], [6, 32, 76]],
  // B.6
  [[5, 10, -2048], [4, 9, -1024], [4, 8, -512], [4, 7, -256], [5, 6, -128], [5, 5, -64], [4, 5, -32], [2, 7, 0],
   [3, 7, 128], [3, 8, 256], [4, 9, 512], [4, 10, 1024], [6, 32, -2049, LOWER], [6, 32, 2048]],
  // B.7
  [[4, 9, -1024], [3, 8, -512], [4, 7, -256], [5, 6, -128], [5, 5, -64], [4, 5, -32], [4, 5, 0], [5, 5, 32],
   [5, 6, 64], [4, 7, 128], [3, 8, 256], [3, 9, 512], [3, 10, 1024], [5, 32, -1025, LOWER], [5, 32, 2048]],
  // B.8
  [[8, 3, -15], [9, 1, -7], [8, 1, -5], [9, 0, -3], [7, 0, -2], [4, 0, -1], [2, 1, 0], [5, 0, 2], [6, 0, 3],
   [3, 4, 4], [6, 1, 20], [4, 4, 22], [4, 5, 38], [5, 6, 70], [5, 7, 134], [6, 7, 262], [7, 8, 390], [6, 10, 646],
   [9, 32, -16, LOWER], [9, 32, 1670], [2, 0, 0, OOB]],
  // B.9
  [[8, 4, -31], [9, 2, -15], [8, 2, -11], [9, 1, -7], [7, 1, -5], [4, 1, -3], [3, 1, -1], [3, 1, 1], [5, 1, 3],
   [6, 1, 5], [3, 5, 7], [6, 2, 39], [4, 5, 43], [4, 6, 75], [5, 7, 139], [5, 8, 267], [6, 8, 523], [7, 9, 779],
   [6, 11, 1291], [9, 32, -32, LOWER], [9, 32, 3339], [2, 0, 0, OOB]],
  // B.10
  [[7, 4, -21], [8, 0, -5], [7, 0, -4], [5, 0, -3], [2, 2, -2], [5, 0, 2], [6, 0, 3], [7, 0, 4], [8, 0, 5],
   [2, 6, 6], [5, 5, 70], [6, 5, 102], [6, 6, 134], [6, 7, 198], [6, 8, 326], [6, 9, 582], [6, 10, 1094],
   [7, 11, 2118], [8, 32, -22, LOWER], [8, 32, 4166], [2, 0, 0, OOB]],
  // B.11
  [[1, 0, 1], [2, 1, 2], [4, 0, 4], [4, 1, 5], [5, 1, 7], [5, 2, 9], [6, 2, 13], [7, 2, 17], [7, 3, 21], [7, 4, 29],
   [7, 5, 45], [7, 6, 77], [7, 32, 141]],
  // B.12
  [[1, 0, 1], [2, 0, 2], [3, 1, 3], [5, 0, 5], [5, 1, 6], [6, 1, 8], [7, 0, 10], [7, 1, 11], [7, 2, 13], [7, 3, 17],
   [7, 4, 25], [8, 5, 41], [8, 32, 73]],
  // B.13
  [[1, 0, 1], [3, 0, 2], [4, 0, 3], [5, 0, 4], [4, 1, 5], [3, 3, 7], [6, 1, 15], [6, 2, 17], [6, 3, 21], [6, 4, 29],
   [6, 5, 45], [7, 6, 77], [7, 32, 141]],
  // B.14
  [[3, 0, -2], [3, 0, -1], [1, 0, 0], [3, 0, 1], [3, 0, 2]],
  // B.15
  [[7, 4, -24], [6, 2, -8], [5, 1, -4], [4, 0, -2], [3, 0, -1], [1, 0, 0], [3, 0, 1], [4, 0, 2], [5, 1, 3],
   [6, 2, 5], [7, 4, 9], [7, 32, -25, LOWER], [7, 32, 25]],
];

const standardTables: HuffmanTable[] = [];

/** the lines of Table B.n (1..15), in the recommendation's order */
export const standardLines = (n: number): readonly Line[] => STANDARD[n];

/** Table B.n (1..15), built once */
export function standardTable(n: number): HuffmanTable {
  return (standardTables[n] ??= HuffmanTable.of(STANDARD[n]));
}

/**
 * A tables segment's table (7.4.13, B.2): flags (HTOOB, HTPS, HTRS), HTLOW, HTHIGH, then the lines' PREFLEN and
 * RANGELEN fields until the ranges reach HTHIGH, the lower and upper range lines' PREFLENs and, with HTOOB, the OOB
 * line's. A HuffmanError when the data ends first or a line needs more than 32 bits.
 */
export function decodeTableSegment(data: Uint8Array): HuffmanTable {
  if (data.length < 9) throw new HuffmanError('a short Huffman table segment');
  const flags = data[0];
  const oob = (flags & 1) !== 0;
  const prefBits = ((flags >> 1) & 7) + 1;
  const rangeBits = ((flags >> 4) & 7) + 1;
  const low = (data[1] << 24) | (data[2] << 16) | (data[3] << 8) | data[4] | 0;
  const high = (data[5] << 24) | (data[6] << 16) | (data[7] << 8) | data[8] | 0;
  if (high <= low) throw new HuffmanError(`a Huffman table from ${low} to ${high}`);
  const r = new BitReader(data, 9);
  const lines: Line[] = [];
  // each line takes at least prefBits + rangeBits ≥ 2 bits of the segment, so the data bounds the lines
  for (let cur = low; cur < high;) {
    const p = r.bits(prefBits);
    const len = r.bits(rangeBits);
    if (len > MAX_BITS) throw new HuffmanError(`a Huffman table line of ${len} range bits`);
    // a table's lines are kept (a few hundred in any real one): capped beside the data's own bound
    if (lines.length >= MAX_TABLE_LINES) throw new HuffmanError(`a Huffman table of more than ${MAX_TABLE_LINES} lines`);
    lines.push([p, len, cur]);
    cur += 2 ** len;
  }
  lines.push([r.bits(prefBits), 32, low - 1, LOWER]);
  lines.push([r.bits(prefBits), 32, high]);
  if (oob) lines.push([r.bits(prefBits), 0, 0, OOB]);
  return HuffmanTable.of(lines);
}

/**
 * A text region's symbol ID table (7.4.3.1.7): the code lengths of RUNCODE0–34 (four bits each), then, coded with
 * them, the code lengths of `symbols` symbol IDs (RUNCODE0–31: that length; 32: the previous length 3–6 times; 33 and
 * 34: zero 3–10 and 11–138 times), then the rest of the byte. The table's values are the symbol IDs.
 */
export function symbolIdTable(r: BitReader, symbols: number): HuffmanTable {
  const runLines: Line[] = [];
  for (let k = 0; k < 35; k++) runLines.push([r.bits(4), 0, k]);
  const runCodes = HuffmanTable.of(runLines);
  const lengths: number[] = [];
  while (lengths.length < symbols) {
    const code = runCodes.value(r, 'run code');
    if (code < 32) lengths.push(code);
    else if (code === 32) {
      if (lengths.length === 0) throw new HuffmanError('a symbol ID length repeated before any');
      const prev = lengths[lengths.length - 1];
      for (let n = 3 + r.bits(2); n > 0; n--) lengths.push(prev);
    } else for (let n = code === 33 ? 3 + r.bits(3) : 11 + r.bits(7); n > 0; n--) lengths.push(0);
  }
  // a repeat may run past the last symbol; what is past it codes nothing
  lengths.length = symbols;
  r.align();
  const ids = new Float64Array(symbols);
  for (let id = 0; id < symbols; id++) ids[id] = id;
  return new HuffmanTable(lengths, new Uint8Array(symbols), ids);
}
