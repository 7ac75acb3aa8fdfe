/**
 * A test-only JPEG 2000 tier-1 encoder (ITU-T T.800 | ISO/IEC 15444-1 Annexes C and D), written from the
 * recommendation, to round-trip src/analyzer/layerQuality/jpxBlock.ts: the MQ encoder (INITENC, CODEMPS, CODELPS,
 * RENORME, BYTEOUT, FLUSH) and the three coding passes with every code-block style switch, truncated after any pass.
 *
 * It shares no code with the decoder and is deliberately plain: contexts are computed from the neighbours' states in
 * two-dimensional arrays through its own copy of the recommendation's tables, not through the decoder's packed flags
 * and lookup tables, so a mistake in the decoder's bookkeeping shows as a failed round trip. (A misreading of the
 * recommendation made in both would not; test/jpx-block.test.ts checks the MQ coder against the recommendation's test
 * sequence and the context choice against hand-derived decisions for that.)
 */
import type { CodeBlock, CodeBlockStyle, JpxBand } from '../src/analyzer/layerQuality/jpxBlock';

// Table C.2 again, one row per state: Qe, NMPS, NLPS, SWITCH.
// prettier-ignore
const STATES: [number, number, number, number][] = [
  [0x5601, 1, 1, 1], [0x3401, 2, 6, 0], [0x1801, 3, 9, 0], [0x0ac1, 4, 12, 0], [0x0521, 5, 29, 0], [0x0221, 38, 33, 0],
  [0x5601, 7, 6, 1], [0x5401, 8, 14, 0], [0x4801, 9, 14, 0], [0x3801, 10, 14, 0], [0x3001, 11, 17, 0], [0x2401, 12, 18, 0],
  [0x1c01, 13, 20, 0], [0x1601, 29, 21, 0], [0x5601, 15, 14, 1], [0x5401, 16, 14, 0], [0x5101, 17, 15, 0], [0x4801, 18, 16, 0],
  [0x3801, 19, 17, 0], [0x3401, 20, 18, 0], [0x3001, 21, 19, 0], [0x2801, 22, 19, 0], [0x2401, 23, 20, 0], [0x2201, 24, 21, 0],
  [0x1c01, 25, 22, 0], [0x1801, 26, 23, 0], [0x1601, 27, 24, 0], [0x1401, 28, 25, 0], [0x1201, 29, 26, 0], [0x1101, 30, 27, 0],
  [0x0ac1, 31, 28, 0], [0x09c1, 32, 29, 0], [0x08a1, 33, 30, 0], [0x0521, 34, 31, 0], [0x0441, 35, 32, 0], [0x02a1, 36, 33, 0],
  [0x0221, 37, 34, 0], [0x0141, 38, 35, 0], [0x0111, 39, 36, 0], [0x0085, 40, 37, 0], [0x0049, 41, 38, 0], [0x0025, 42, 39, 0],
  [0x0015, 43, 40, 0], [0x0009, 44, 41, 0], [0x0005, 45, 42, 0], [0x0001, 45, 43, 0], [0x5601, 46, 46, 0],
];

/** The MQ encoder of Annex C.2; contexts are packed as the decoder's, (state << 1) | MPS. */
export class MqEncoder {
  private a = 0x8000;
  private c = 0;
  private ct = 12;
  /** the byte at `bp`; -1 is the recommendation's byte before the buffer, which no carry reaches */
  private b = 0;
  private bp = -1;
  private out: number[] = [];

  encode(cx: Uint8Array, i: number, d: number): void {
    const state = cx[i] >> 1;
    const mps = cx[i] & 1;
    const [qe, nmps, nlps, sw] = STATES[state];
    this.a -= qe;
    if (d === mps) {
      if ((this.a & 0x8000) === 0) {
        if (this.a < qe) this.a = qe;
        else this.c += qe;
        cx[i] = (nmps << 1) | mps;
        this.renorm();
      } else this.c += qe;
    } else {
      if (this.a < qe) this.c += qe;
      else this.a = qe;
      cx[i] = (nlps << 1) | (sw ? 1 - mps : mps);
      this.renorm();
    }
  }

  private renorm(): void {
    do {
      this.a = (this.a << 1) & 0xffff;
      this.c *= 2;
      this.ct--;
      if (this.ct === 0) this.byteOut();
    } while ((this.a & 0x8000) === 0);
  }

  private put(): void {
    this.out[this.bp] = this.b & 0xff;
  }

  private byteOut(): void {
    if (this.b === 0xff) {
      this.bp++;
      this.b = Math.floor(this.c / 0x100000);
      this.c %= 0x100000;
      this.ct = 7;
    } else if (this.c < 0x8000000) {
      this.bp++;
      this.b = Math.floor(this.c / 0x80000);
      this.c %= 0x80000;
      this.ct = 8;
    } else {
      // a carry into the byte already written
      this.b++;
      if (this.bp >= 0) this.put();
      if (this.b === 0xff) {
        this.c %= 0x8000000;
        this.bp++;
        this.b = Math.floor(this.c / 0x100000);
        this.c %= 0x100000;
        this.ct = 7;
      } else {
        this.bp++;
        this.b = Math.floor(this.c / 0x80000) & 0xff;
        this.c %= 0x80000;
        this.ct = 8;
      }
    }
    this.put();
  }

  /** FLUSH (with SETBITS), then the encoder is ready for a new segment. A final 0xFF is dropped: the decoder feeds 1s. */
  flush(): Uint8Array {
    const tempc = this.c + this.a;
    this.c = this.c - (this.c % 0x10000) + 0xffff;
    if (this.c >= tempc) this.c -= 0x8000;
    this.c *= 2 ** this.ct;
    this.byteOut();
    this.c *= 2 ** this.ct;
    this.byteOut();
    let bytes = this.out.slice(0, this.bp + 1);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0xff) bytes = bytes.slice(0, -1);
    this.a = 0x8000;
    this.c = 0;
    this.ct = 12;
    this.b = 0;
    this.bp = -1;
    this.out = [];
    return Uint8Array.from(bytes);
  }
}

/** Raw (bypass) bits, most significant first, a 0 stuffed at the top of the byte after each 0xFF. */
class RawEncoder {
  private out: number[] = [];
  private byte = 0;
  private n = 0;
  private room = 8;
  put(bit: number): void {
    this.byte = (this.byte << 1) | bit;
    if (++this.n === this.room) {
      this.out.push(this.byte);
      this.room = this.byte === 0xff ? 7 : 8;
      this.byte = 0;
      this.n = 0;
    }
  }
  /** pads the last byte with 0, 1, 0, … and drops a final 0xFF, which the decoder reads past the end anyway */
  flush(): Uint8Array {
    for (let pad = 0; this.n !== 0; pad ^= 1) this.put(pad);
    const bytes = this.out;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0xff) bytes.pop();
    this.out = [];
    this.room = 8;
    return Uint8Array.from(bytes);
  }
}

// Table D.1, the rows as the recommendation prints them: [sum H, sum V, sum D, context], -1 meaning "any", >= written as
// a range [min, max]. LL and LH; HL is the same with H and V exchanged.
type Range = number | [number, number];
// prettier-ignore
const ZC_LL: [Range, Range, Range, number][] = [
  [2, -1, -1, 8], [1, [1, 2], -1, 7], [1, 0, [1, 4], 6], [1, 0, 0, 5], [0, 2, -1, 4], [0, 1, -1, 3], [0, 0, [2, 4], 2], [0, 0, 1, 1], [0, 0, 0, 0],
];
// HH: [sum H+V, sum D, context]
// prettier-ignore
const ZC_HH: [Range, Range, number][] = [
  [-1, [3, 4], 8], [[1, 4], 2, 7], [0, 2, 6], [[2, 4], 1, 5], [1, 1, 4], [0, 1, 3], [[2, 4], 0, 2], [1, 0, 1], [0, 0, 0],
];
const fits = (r: Range, x: number) => (r === -1 ? true : typeof r === 'number' ? r === x : x >= r[0] && x <= r[1]);

export function zeroCodingContext(band: JpxBand, h: number, v: number, d: number): number {
  if (band === 'HH') return ZC_HH.find(([hv, dd]) => fits(hv, h + v) && fits(dd, d))![2];
  if (band === 'HL') [h, v] = [v, h];
  return ZC_LL.find(([hh, vv, dd]) => fits(hh, h) && fits(vv, v) && fits(dd, d))![3];
}

// Table D.3: [H contribution, V contribution, context, XOR bit]
// prettier-ignore
const SC: [number, number, number, number][] = [
  [1, 1, 13, 0], [1, 0, 12, 0], [1, -1, 11, 0], [0, 1, 10, 0], [0, 0, 9, 0], [0, -1, 10, 1], [-1, 1, 11, 1], [-1, 0, 12, 1], [-1, -1, 13, 1],
];
export function signCodingContext(h: number, v: number): [number, number] {
  const row = SC.find(([hh, vv]) => hh === h && vv === v)!;
  return [row[2], row[3]];
}

/** Table D.7's initial states, for all 19 contexts */
export function initialContexts(): Uint8Array {
  const cx = new Uint8Array(19);
  cx[0] = 4 << 1;
  cx[17] = 3 << 1;
  cx[18] = 46 << 1;
  return cx;
}

export const NO_STYLE: CodeBlockStyle = { bypass: false, reset: false, termAll: false, verticallyCausal: false, segmentationSymbols: false };

export interface EncodedBlock {
  block: CodeBlock;
  /** which coefficients the last included pass's bit-plane had coded in its significance pass (row-major) */
  codedInSignificancePass: Uint8Array;
}

/**
 * Codes `values` (row-major, magnitudes below 2^bitPlanes) as a code-block, stopping after `passes` coding passes
 * (default all, 3·bitPlanes − 2). Each segment is terminated (FLUSH, or the raw padding), the last one where the
 * passes stop, so a truncated block is what an encoder that chose that truncation point would write.
 */
export function encodeCodeBlock(
  values: ArrayLike<number>,
  width: number,
  height: number,
  band: JpxBand,
  bitPlanes: number,
  style: CodeBlockStyle = NO_STYLE,
  passes = Math.max(0, 3 * bitPlanes - 2),
): EncodedBlock {
  const n = width * height;
  const mag = Array.from({ length: n }, (_, k) => Math.abs(values[k]));
  const negative = Array.from({ length: n }, (_, k) => values[k] < 0);
  const sig = new Uint8Array(n);
  const coded = new Uint8Array(n);
  const refined = new Uint8Array(n);
  const cx = initialContexts();
  const mq = new MqEncoder();
  const rawEnc = new RawEncoder();
  const chunks: Uint8Array[] = [];
  const segments: CodeBlock['segments'] = [];
  let offset = 0;
  let segPasses = 0;

  // the state of neighbour (nx, ny) as coefficient (x, y) sees it: nothing outside the block, and nothing in the next
  // stripe in vertically causal mode
  const visible = (x: number, y: number, nx: number, ny: number) =>
    nx >= 0 && nx < width && ny >= 0 && ny < height && !(style.verticallyCausal && ny > y && ny >> 2 !== y >> 2);
  const sigAt = (x: number, y: number, nx: number, ny: number) => (visible(x, y, nx, ny) && sig[ny * width + nx] ? 1 : 0);
  const sums = (x: number, y: number) => {
    const h = sigAt(x, y, x - 1, y) + sigAt(x, y, x + 1, y);
    const v = sigAt(x, y, x, y - 1) + sigAt(x, y, x, y + 1);
    const d = sigAt(x, y, x - 1, y - 1) + sigAt(x, y, x + 1, y - 1) + sigAt(x, y, x - 1, y + 1) + sigAt(x, y, x + 1, y + 1);
    return { h, v, d };
  };
  const signOf = (x: number, y: number, nx: number, ny: number) => (sigAt(x, y, nx, ny) ? (negative[ny * width + nx] ? -1 : 1) : 0);
  const clamp = (t: number) => Math.max(-1, Math.min(1, t));

  const isRaw = (p: number) => style.bypass && p >= 10 && p % 3 !== 0;
  const emit = (bit: number, context: number, raw: boolean) => (raw ? rawEnc.put(bit) : mq.encode(cx, context, bit));
  const codeSign = (x: number, y: number, raw: boolean) => {
    const k = y * width + x;
    if (raw) return rawEnc.put(negative[k] ? 1 : 0);
    const h = clamp(signOf(x, y, x - 1, y) + signOf(x, y, x + 1, y));
    const v = clamp(signOf(x, y, x, y - 1) + signOf(x, y, x, y + 1));
    const [context, xor] = signCodingContext(h, v);
    mq.encode(cx, context, (negative[k] ? 1 : 0) ^ xor);
  };
  const bitOf = (k: number, plane: number) => Math.floor(mag[k] / 2 ** plane) % 2;
  // the stripe scan: stripes of four rows, column by column within a stripe
  const scan = (visit: (x: number, y: number) => void) => {
    for (let y0 = 0; y0 < height; y0 += 4) for (let x = 0; x < width; x++) for (let y = y0; y < Math.min(y0 + 4, height); y++) visit(x, y);
  };

  for (let p = 0; p < passes; p++) {
    const kind = p === 0 ? 'cleanup' : (['significance', 'refinement', 'cleanup'] as const)[(p - 1) % 3];
    const plane = bitPlanes - 1 - Math.ceil(p / 3);
    const raw = isRaw(p);
    if (kind === 'significance') {
      coded.fill(0);
      scan((x, y) => {
        const k = y * width + x;
        const { h, v, d } = sums(x, y);
        if (sig[k] || h + v + d === 0) return;
        const bit = bitOf(k, plane);
        emit(bit, zeroCodingContext(band, h, v, d), raw);
        if (bit) {
          codeSign(x, y, raw);
          sig[k] = 1;
        }
        coded[k] = 1;
      });
    } else if (kind === 'refinement') {
      scan((x, y) => {
        const k = y * width + x;
        if (!sig[k] || coded[k]) return;
        const { h, v, d } = sums(x, y);
        emit(bitOf(k, plane), refined[k] ? 16 : h + v + d > 0 ? 15 : 14, raw);
        refined[k] = 1;
      });
    } else {
      for (let y0 = 0; y0 < height; y0 += 4) {
        const y1 = Math.min(y0 + 4, height);
        for (let x = 0; x < width; x++) {
          let y = y0;
          const quiet = (yy: number) => {
            const k = yy * width + x;
            const { h, v, d } = sums(x, yy);
            return !sig[k] && !coded[k] && h + v + d === 0;
          };
          if (y1 - y0 === 4 && quiet(y0) && quiet(y0 + 1) && quiet(y0 + 2) && quiet(y0 + 3)) {
            let first = -1;
            for (let r = 0; r < 4 && first < 0; r++) if (bitOf((y0 + r) * width + x, plane)) first = r;
            mq.encode(cx, 17, first >= 0 ? 1 : 0);
            if (first < 0) continue;
            mq.encode(cx, 18, first >> 1);
            mq.encode(cx, 18, first & 1);
            y = y0 + first;
            codeSign(x, y, false);
            sig[y * width + x] = 1;
            y++;
          }
          for (; y < y1; y++) {
            const k = y * width + x;
            if (sig[k] || coded[k]) continue;
            const { h, v, d } = sums(x, y);
            const bit = bitOf(k, plane);
            mq.encode(cx, zeroCodingContext(band, h, v, d), bit);
            if (bit) {
              codeSign(x, y, false);
              sig[k] = 1;
            }
          }
        }
      }
      if (style.segmentationSymbols) for (const bit of [1, 0, 1, 0]) mq.encode(cx, 18, bit);
    }
    if (style.reset) cx.set(initialContexts());
    segPasses++;
    const last = p === passes - 1;
    if (last || style.termAll || (style.bypass && (p === 9 || (p > 9 && kind !== 'significance')))) {
      const bytes = raw ? rawEnc.flush() : mq.flush();
      chunks.push(bytes);
      segments.push({ offset, length: bytes.length, passes: segPasses });
      offset += bytes.length;
      segPasses = 0;
    }
    if (kind === 'cleanup' && !last) coded.fill(0);
  }
  const data = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return { block: { width, height, band, bitPlanes, data, segments, style }, codedInSignificancePass: coded };
}
