/**
 * The MQ arithmetic decoder of ITU-T T.800 | ISO/IEC 15444-1 Annex C (JPEG 2000 tier-1), which is also the arithmetic
 * decoder of ITU-T T.88 (JBIG2), so it knows nothing of either: it decodes binary decisions from a byte range in
 * contexts the caller owns.
 *
 * Written from the recommendation's description of the decoder (INITDEC, DECODE, RENORMD, BYTEIN) and its probability
 * estimation table (Table C.2); checked against the recommendation's test sequence in test/jpx-block.test.ts.
 *
 * A context is one byte, (state index << 1) | MPS, in a Uint8Array the caller allocates (and resets between uses), so
 * JPEG 2000's 19 contexts and JBIG2's 65536 generic-region contexts are the same thing to this decoder.
 */

// Table C.2: Qe, then the next state after an MPS and after an LPS, and whether an LPS switches the MPS sense.
// prettier-ignore
const QE_TABLE = [
  0x5601, 1, 1, 1,   0x3401, 2, 6, 0,   0x1801, 3, 9, 0,   0x0ac1, 4, 12, 0,  0x0521, 5, 29, 0,  0x0221, 38, 33, 0,
  0x5601, 7, 6, 1,   0x5401, 8, 14, 0,  0x4801, 9, 14, 0,  0x3801, 10, 14, 0, 0x3001, 11, 17, 0, 0x2401, 12, 18, 0,
  0x1c01, 13, 20, 0, 0x1601, 29, 21, 0, 0x5601, 15, 14, 1, 0x5401, 16, 14, 0, 0x5101, 17, 15, 0, 0x4801, 18, 16, 0,
  0x3801, 19, 17, 0, 0x3401, 20, 18, 0, 0x3001, 21, 19, 0, 0x2801, 22, 19, 0, 0x2401, 23, 20, 0, 0x2201, 24, 21, 0,
  0x1c01, 25, 22, 0, 0x1801, 26, 23, 0, 0x1601, 27, 24, 0, 0x1401, 28, 25, 0, 0x1201, 29, 26, 0, 0x1101, 30, 27, 0,
  0x0ac1, 31, 28, 0, 0x09c1, 32, 29, 0, 0x08a1, 33, 30, 0, 0x0521, 34, 31, 0, 0x0441, 35, 32, 0, 0x02a1, 36, 33, 0,
  0x0221, 37, 34, 0, 0x0141, 38, 35, 0, 0x0111, 39, 36, 0, 0x0085, 40, 37, 0, 0x0049, 41, 38, 0, 0x0025, 42, 39, 0,
  0x0015, 43, 40, 0, 0x0009, 44, 41, 0, 0x0005, 45, 42, 0, 0x0001, 45, 43, 0, 0x5601, 46, 46, 0,
];

/** the number of states of Table C.2 (a context byte's state index is below this) */
export const MQ_STATES = 47;

// Indexed by the packed context byte, so a decision costs no unpacking: Qe, and the packed byte after an MPS or an LPS.
// All 256 byte values are covered: a context byte past the table (a caller's bug) acts as state 46, never as undefined.
const QE = new Uint16Array(256);
const AFTER_MPS = new Uint8Array(256);
const AFTER_LPS = new Uint8Array(256);
for (let k = 0; k < 256; k++) {
  const s = Math.min(k >> 1, MQ_STATES - 1);
  const mps = k & 1;
  QE[k] = QE_TABLE[s * 4];
  AFTER_MPS[k] = (QE_TABLE[s * 4 + 1] << 1) | mps;
  AFTER_LPS[k] = (QE_TABLE[s * 4 + 2] << 1) | (mps ^ QE_TABLE[s * 4 + 3]);
}

/** The MQ decoder over data[start, end). Bytes past `end` read as 0xFF, so a truncated or exhausted segment is fed 1 bits. */
export class MqDecoder {
  private data: Uint8Array = new Uint8Array(0);
  private end = 0;
  /** the index of the last byte taken into C (the recommendation's BP) */
  private bp = 0;
  private a = 0;
  /** the code register as an int32 (so it stays a small integer to the JIT): C_high is c >>> 16 */
  private c = 0;
  private ct = 0;

  constructor(data?: Uint8Array, start = 0, end = data ? data.length : 0) {
    if (data) this.init(data, start, end);
  }

  /** INITDEC on a new segment; reusing one decoder saves an allocation per code-block segment */
  init(data: Uint8Array, start: number, end: number): void {
    this.data = data;
    this.end = Math.min(Math.max(end, 0), data.length);
    this.bp = Math.max(start, 0);
    this.c = (this.bp < this.end ? data[this.bp] : 0xff) << 16;
    this.ct = 0;
    this.byteIn();
    this.c <<= 7;
    this.ct -= 7;
    this.a = 0x8000;
  }

  // BYTEIN. After 0xFF the next byte carries 7 bits (the encoder stuffed a 0), unless it is above 0x8F: then the 0xFF
  // opens a marker that ends the data, the pointer stays on it and 1 bits are fed from then on, as past `end`.
  private byteIn(): void {
    const data = this.data;
    const end = this.end;
    const bp = this.bp;
    if ((bp < end ? data[bp] : 0xff) === 0xff) {
      const next = bp + 1 < end ? data[bp + 1] : 0xff;
      if (next > 0x8f) {
        this.c = (this.c + 0xff00) | 0;
        this.ct = 8;
      } else {
        this.bp = bp + 1;
        this.c = (this.c + (next << 9)) | 0;
        this.ct = 7;
      }
    } else {
      this.bp = bp + 1;
      this.c = (this.c + ((bp + 1 < end ? data[bp + 1] : 0xff) << 8)) | 0;
      this.ct = 8;
    }
  }

  /** DECODE: one decision in context cx[i], whose state it updates */
  decode(cx: Uint8Array, i: number): number {
    const s = cx[i];
    const qe = QE[s];
    let a = this.a - qe;
    let c = this.c;
    let d: number;
    if (c >>> 16 < qe) {
      // the lower sub-interval (size Qe): the LPS's, unless the conditional exchange gave it to the MPS
      if (a < qe) {
        d = s & 1;
        cx[i] = AFTER_MPS[s];
      } else {
        d = (s & 1) ^ 1;
        cx[i] = AFTER_LPS[s];
      }
      a = qe;
    } else {
      c = (c - (qe << 16)) | 0;
      if ((a & 0x8000) !== 0) {
        this.a = a;
        this.c = c;
        return s & 1;
      }
      if (a < qe) {
        d = (s & 1) ^ 1;
        cx[i] = AFTER_LPS[s];
      } else {
        d = s & 1;
        cx[i] = AFTER_MPS[s];
      }
    }
    // RENORMD
    let ct = this.ct;
    do {
      if (ct === 0) {
        this.c = c;
        this.byteIn();
        c = this.c;
        ct = this.ct;
      }
      a <<= 1;
      c <<= 1;
      ct--;
    } while ((a & 0x8000) === 0);
    this.a = a;
    this.c = c;
    this.ct = ct;
    return d;
  }
}
