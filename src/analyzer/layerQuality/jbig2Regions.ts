/**
 * The arithmetic-coded region procedures of ITU-T T.88 (JBIG2) that the symbol dictionary, text region and page
 * decoders build on: generic region decoding with MMR = 0 (6.2: templates 0–3, adaptive template pixels, typical
 * prediction TPGDON) and with MMR = 1 (through the Group 4 decoder of ccitt.ts), generic refinement region decoding (6.3: templates 0 and 1, TPGRON), and the integer (IAx, Annex
 * A.2) and symbol id (IAID, Annex A.3) decoding procedures. The MQ decoder itself is ./mq.ts, shared with JPEG 2000.
 *
 * Written from the recommendation. A context is the template's pixels read as a number, in the bit order the figures
 * of 6.2.5.3 and 6.3.5.3 give (the pixel just left of the one being decoded is bit 0; the adaptive pixels A1–A4 keep
 * their bits wherever they are moved). The order matters beyond labelling: TPGDON and TPGRON code their SLTP bit in a
 * context that a pixel would also use (the standard's "reused context"), so its number must be the standard's.
 *
 * Speed: a page is millions of pixels, one MQ decision each, so a row's context is carried from pixel to pixel as a
 * shift register: every template is a few contiguous runs of pixels in the rows above (and the current row), each run
 * a contiguous run of context bits, so moving one pixel right shifts the context by one, drops each run's leaving
 * pixel and reads one entering pixel a run. Adaptive pixels at their default places extend those runs; elsewhere they
 * are read one by one. Pixels outside the bitmap (or the reference) read 0.
 *
 * Bounded: the caller's sizes are checked against a cap, every pixel costs at most one decision, garbage data only
 * yields garbage pixels (the MQ decoder feeds 1 bits past its end), and `outOfTime` is read every few rows.
 */
import { decodeFax } from './ccitt';
import { MqDecoder } from './mq';

/** a bilevel bitmap, one byte a pixel (1 = black), row-major */
export interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}

export function newBitmap(width: number, height: number): Bitmap {
  return { width, height, data: new Uint8Array(width * height) };
}

/** the most pixels one region may have (a 600 dpi A3 page is about 70 M) */
const MAX_PIXELS = 1 << 28;
/** rows between reads of the caller's clock */
const CLOCK_ROWS = 16;

/**
 * Generic region decoding with MMR = 1 (6.2.6): `data` is T.6 (Group 4) code of `width` × `height` pixels, black 1,
 * without byte alignment; `deadline` is performance.now()'s. The bitmap, or why not.
 */
export function decodeMmr(data: Uint8Array, width: number, height: number, deadline: number): Bitmap | string {
  if (width === 0 || height === 0) return newBitmap(width, height);
  if (width * height > MAX_PIXELS) return `JBIG2 MMR region: ${width}×${height} pixels`;
  const fax = decodeFax(data, { k: -1, columns: width, rows: height, byteAlign: false, blackIs1: true }, deadline);
  if (fax.outOfTime) return 'JBIG2 MMR region: out of time';
  if (fax.rows !== height) return `JBIG2 MMR region: its data ends early (${fax.error ?? `${fax.rows} of ${height} rows`})`;
  return unpackRows(fax.data, 0, width, height);
}

/** A bitmap from packed rows (1 = black, most significant bit first, each row padded to a byte) at `at` in `src`. */
export function unpackRows(src: Uint8Array, at: number, width: number, height: number): Bitmap {
  const out = newBitmap(width, height);
  const rowBytes = (width + 7) >> 3;
  for (let y = 0; y < height; y++) {
    const row = at + y * rowBytes;
    for (let x = 0; x < width; x++) out.data[y * width + x] = (src[row + (x >> 3)] >> (7 - (x & 7))) & 1;
  }
  return out;
}

export interface GenericParams {
  width: number;
  height: number;
  template: 0 | 1 | 2 | 3;
  tpgdon: boolean;
  /** adaptive template pixels A1.. (4 for template 0, 1 for the others), offsets from the pixel being decoded */
  at: { x: number; y: number }[];
}

export interface RefinementParams {
  width: number;
  height: number;
  template: 0 | 1;
  reference: Bitmap;
  /** GRREFERENCEDX/DY: the pixel (x, y) is predicted from the reference around (x - dx, y - dy) */
  dx: number;
  dy: number;
  tpgron: boolean;
  /** template 0 only: A1 in the bitmap being decoded, A2 in the reference (offset from (x - dx, y - dy)) */
  at: { x: number; y: number }[];
}

/**
 * A template as the shift register sees it. A run covers the pixels at offsets lo..hi of one row; its pixel at offset
 * hi is context bit `bit`, the one at hi - 1 bit `bit + 1`, and so on.
 */
interface Run {
  /** the row offset (−2 or −1 in the bitmap; −1, 0, +1 in a refinement's reference) */
  row: number;
  lo: number;
  hi: number;
  bit: number;
}
interface Adaptive {
  x: number;
  y: number;
  bit: number;
}

// 6.2.5.3, Figures 3–6, as runs of the rows above (the current row's pixels x−n..x−1 are always bits n−1..0) and the
// adaptive pixels' context bits. The bit numbering is the one in which the SLTP contexts of 6.2.5.7 are 0x9B25 etc.
interface GenericTemplate {
  runs: Run[];
  current: number;
  atBits: number[];
  defaults: { x: number; y: number }[];
  sltp: number;
  contexts: number;
}
const GENERIC_TEMPLATES: GenericTemplate[] = [
  {
    runs: [
      { row: -2, lo: -1, hi: 1, bit: 12 },
      { row: -1, lo: -2, hi: 2, bit: 5 },
    ],
    current: 4,
    atBits: [4, 10, 11, 15],
    defaults: [
      { x: 3, y: -1 },
      { x: -3, y: -1 },
      { x: 2, y: -2 },
      { x: -2, y: -2 },
    ],
    sltp: 0x9b25,
    contexts: 1 << 16,
  },
  {
    runs: [
      { row: -2, lo: -1, hi: 2, bit: 9 },
      { row: -1, lo: -2, hi: 2, bit: 4 },
    ],
    current: 3,
    atBits: [3],
    defaults: [{ x: 3, y: -1 }],
    sltp: 0x0795,
    contexts: 1 << 13,
  },
  {
    runs: [
      { row: -2, lo: -1, hi: 1, bit: 7 },
      { row: -1, lo: -2, hi: 1, bit: 3 },
    ],
    current: 2,
    atBits: [2],
    defaults: [{ x: 2, y: -1 }],
    sltp: 0x00e5,
    contexts: 1 << 10,
  },
  {
    runs: [{ row: -1, lo: -3, hi: 1, bit: 5 }],
    current: 4,
    atBits: [4],
    defaults: [{ x: 2, y: -1 }],
    sltp: 0x0195,
    contexts: 1 << 10,
  },
];

// 6.3.5.3, Figures 12 and 13. Runs in the bitmap being decoded (row −1) and in the reference (rows −1, 0, +1 about
// (x − dx, y − dy)); the current row contributes only x − 1, bit 0. A1 is in the new bitmap, A2 in the reference.
interface RefinementTemplate {
  own: Run[];
  ref: Run[];
  atBits: number[];
  sltp: number;
  contexts: number;
}
const REFINEMENT_TEMPLATES: RefinementTemplate[] = [
  {
    own: [{ row: -1, lo: 0, hi: 1, bit: 1 }],
    ref: [
      { row: -1, lo: 0, hi: 1, bit: 10 },
      { row: 0, lo: -1, hi: 1, bit: 7 },
      { row: 1, lo: -1, hi: 1, bit: 4 },
    ],
    atBits: [3, 12],
    // 6.3.5.6, Figure 14: every template pixel 0 except the reference's centre
    sltp: 0x0100,
    contexts: 1 << 13,
  },
  {
    own: [{ row: -1, lo: -1, hi: 1, bit: 1 }],
    ref: [
      { row: -1, lo: 0, hi: 0, bit: 9 },
      { row: 0, lo: -1, hi: 1, bit: 6 },
      { row: 1, lo: 0, hi: 1, bit: 4 },
    ],
    atBits: [],
    // Figure 15: again only the reference's centre
    sltp: 0x0080,
    contexts: 1 << 10,
  },
];

/**
 * Folds the adaptive pixels that sit just beyond a run's end (with the bit just beyond the run's bits) into the run,
 * which is where the defaults are, so the common case costs no per-pixel reads; returns the runs and the rest.
 */
function fold(runs: Run[], at: Adaptive[]): { runs: Run[]; rest: Adaptive[] } {
  const out = runs.map((r) => ({ ...r }));
  let rest = at;
  for (let changed = true; changed;) {
    changed = false;
    const left: Adaptive[] = [];
    for (const a of rest) {
      const r = out.find(
        (r) => r.row === a.y && ((a.x === r.hi + 1 && a.bit === r.bit - 1) || (a.x === r.lo - 1 && a.bit === r.bit + r.hi - r.lo + 1)),
      );
      if (!r) left.push(a);
      else {
        if (a.x === r.hi + 1) {
          r.hi++;
          r.bit--;
        } else r.lo--;
        changed = true;
      }
    }
    rest = left;
  }
  return { runs: out, rest };
}

/** the bits a one-pixel shift keeps: every run's bits but its lowest (which the entering pixel takes) */
function keepMask(runs: Run[]): number {
  let m = 0;
  for (const r of runs) for (let b = r.bit + 1; b <= r.bit + r.hi - r.lo; b++) m |= 1 << b;
  return m;
}

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

function checkSize(what: string, width: number, height: number): string | null {
  if (!isInt(width) || !isInt(height) || width < 0 || height < 0) return `JBIG2 ${what}: bad size ${width} × ${height}`;
  if (width * height > MAX_PIXELS) return `JBIG2 ${what}: ${width} × ${height} is too large`;
  return null;
}

function checkAt(what: string, at: { x: number; y: number }[] | undefined, n: number): string | null {
  if (!Array.isArray(at) || at.length < n) return `JBIG2 ${what}: ${n} adaptive template pixels needed`;
  for (let i = 0; i < n; i++) {
    const a = at[i];
    if (!a || !isInt(a.x) || !isInt(a.y) || Math.abs(a.x) > 256 || Math.abs(a.y) > 256) return `JBIG2 ${what}: bad adaptive template pixel`;
  }
  return null;
}

/** T.88 6.2 generic region decoding, MMR = 0 */
export function decodeGeneric(mq: MqDecoder, cx: Uint8Array, p: GenericParams, outOfTime: () => boolean): Bitmap | string {
  const bad = checkSize('generic region', p.width, p.height);
  if (bad) return bad;
  const t = GENERIC_TEMPLATES[p.template];
  if (!t) return `JBIG2 generic region: no template ${p.template}`;
  const badAt = checkAt('generic region', p.at, t.atBits.length);
  if (badAt) return badAt;
  if (cx.length < t.contexts) return 'JBIG2 generic region: too few contexts';

  const w = p.width;
  const h = p.height;
  const out = newBitmap(w, h);
  const data = out.data;
  const { runs, rest } = fold(
    t.runs,
    t.atBits.map((bit, i) => ({ x: p.at[i].x, y: p.at[i].y, bit })),
  );
  const mask = keepMask(runs) | (((1 << t.current) - 1) & ~1);
  // the two rows above as (lo, hi, bit), absent runs as an empty run of the row that never reads
  const r2 = runs.find((r) => r.row === -2);
  const r1 = runs.find((r) => r.row === -1) as Run;
  const hi2 = r2 ? r2.hi : 0;
  const bit2 = r2 ? r2.bit : 0;
  const hi1 = r1.hi;
  const bit1 = r1.bit;
  const nat = rest.length;
  const atX = new Int32Array(4);
  const atY = new Int32Array(4);
  const atBit = new Int32Array(4);
  const atBase = new Int32Array(4);
  for (let i = 0; i < nat; i++) {
    atX[i] = rest[i].x;
    atY[i] = rest[i].y;
    atBit[i] = rest[i].bit;
  }
  const zeros = new Uint8Array(w);
  const sltp = t.sltp;
  let ltp = 0;

  for (let y = 0; y < h; y++) {
    if (y % CLOCK_ROWS === 0 && outOfTime()) return 'JBIG2 generic region: out of time';
    const o0 = y * w;
    if (p.tpgdon) {
      ltp ^= mq.decode(cx, sltp);
      if (ltp) {
        // 6.2.5.7: a typical row repeats the row above (the row above the first is white)
        if (y > 0) data.copyWithin(o0, o0 - w, o0);
        continue;
      }
    }
    // the rows above, or a white row; a run whose row is absent reads the white row
    const row1 = y >= 1 ? data : zeros;
    const o1 = y >= 1 ? o0 - w : 0;
    const row2 = r2 && y >= 2 ? data : zeros;
    const o2 = r2 && y >= 2 ? o0 - 2 * w : 0;
    for (let i = 0; i < nat; i++) {
      const ay = y + atY[i];
      atBase[i] = ay >= 0 && ay < h ? ay * w : -1;
    }
    // the context of the pixel left of the first: only the rows above's pixels at columns 0.. are inside
    let ctx = 0;
    for (let c = 0; c < hi1 && c < w; c++) ctx |= row1[o1 + c] << (bit1 + hi1 - 1 - c);
    if (r2) for (let c = 0; c < hi2 && c < w; c++) ctx |= row2[o2 + c] << (bit2 + hi2 - 1 - c);
    let pix = 0;
    for (let x = 0; x < w; x++) {
      const c1 = x + hi1;
      const c2 = x + hi2;
      ctx = ((ctx << 1) & mask) | ((c1 < w ? row1[o1 + c1] : 0) << bit1) | ((c2 < w ? row2[o2 + c2] : 0) << bit2) | pix;
      let c = ctx;
      for (let i = 0; i < nat; i++) {
        const ax = x + atX[i];
        if (atBase[i] >= 0 && ax >= 0 && ax < w) c |= data[atBase[i] + ax] << atBit[i];
      }
      pix = mq.decode(cx, c);
      data[o0 + x] = pix;
    }
  }
  return out;
}

/** T.88 6.3 generic refinement region decoding */
export function decodeRefinement(mq: MqDecoder, cx: Uint8Array, p: RefinementParams, outOfTime: () => boolean): Bitmap | string {
  const bad = checkSize('refinement region', p.width, p.height);
  if (bad) return bad;
  const t = REFINEMENT_TEMPLATES[p.template];
  if (!t) return `JBIG2 refinement region: no template ${p.template}`;
  const badAt = checkAt('refinement region', p.at, t.atBits.length);
  if (badAt) return badAt;
  if (cx.length < t.contexts) return 'JBIG2 refinement region: too few contexts';
  const ref = p.reference;
  if (
    !ref ||
    !(ref.data instanceof Uint8Array) ||
    checkSize('refinement reference', ref.width, ref.height) ||
    ref.data.length < ref.width * ref.height
  )
    return 'JBIG2 refinement region: bad reference bitmap';
  if (!isInt(p.dx) || !isInt(p.dy)) return 'JBIG2 refinement region: bad reference offset';

  const w = p.width;
  const h = p.height;
  const out = newBitmap(w, h);
  const data = out.data;
  const rw = ref.width;
  const rh = ref.height;
  const rdata = ref.data;
  const dx = p.dx;
  const dy = p.dy;

  // A1 (own bitmap) and A2 (reference) fold into the row −1 runs at their defaults (−1, −1)
  let own = t.own;
  let refRuns = t.ref;
  let a1: Adaptive | null = null;
  let a2: Adaptive | null = null;
  if (t.atBits.length === 2) {
    const f1 = fold(own, [{ x: p.at[0].x, y: p.at[0].y, bit: t.atBits[0] }]);
    own = f1.runs;
    a1 = f1.rest[0] ?? null;
    const f2 = fold(refRuns, [{ x: p.at[1].x, y: p.at[1].y, bit: t.atBits[1] }]);
    refRuns = f2.runs;
    a2 = f2.rest[0] ?? null;
  }
  const mask = keepMask(own) | keepMask(refRuns);
  const ownHi = own[0].hi;
  const ownBit = own[0].bit;
  const [rm, r0, rp] = refRuns;
  const rmHi = rm.hi;
  const rmBit = rm.bit;
  const r0Hi = r0.hi;
  const r0Bit = r0.bit;
  const rpHi = rp.hi;
  const rpBit = rp.bit;
  const a1x = a1 ? a1.x : 0;
  const a1Bit = a1 ? a1.bit : 0;
  const a2x = a2 ? a2.x : 0;
  const a2Bit = a2 ? a2.bit : 0;
  const zeros = new Uint8Array(w);
  const sltp = t.sltp;
  let ltp = 0;

  for (let y = 0; y < h; y++) {
    if (y % CLOCK_ROWS === 0 && outOfTime()) return 'JBIG2 refinement region: out of time';
    if (p.tpgron) ltp ^= mq.decode(cx, sltp);
    const o0 = y * w;
    const up = y >= 1 ? data : zeros;
    const oUp = y >= 1 ? o0 - w : 0;
    // the reference's rows about y − dy, −1 where outside it
    const ry = y - dy;
    const bm = ry - 1 >= 0 && ry - 1 < rh ? (ry - 1) * rw : -1;
    const b0 = ry >= 0 && ry < rh ? ry * rw : -1;
    const bp = ry + 1 >= 0 && ry + 1 < rh ? (ry + 1) * rw : -1;
    const a1Base = a1 && y + a1.y >= 0 && y + a1.y < h ? (y + a1.y) * w : -1;
    const a2Row = a2 ? ry + a2.y : -1;
    const a2Base = a2 && a2Row >= 0 && a2Row < rh ? a2Row * rw : -1;

    // the context of the pixel left of the first (x = −1)
    let ctx = 0;
    for (let c = 0; c < ownHi && c < w; c++) ctx |= up[oUp + c] << (ownBit + ownHi - 1 - c);
    const rx0 = -1 - dx;
    for (const [r, base] of [
      [rm, bm],
      [r0, b0],
      [rp, bp],
    ] as const) {
      if (base < 0) continue;
      for (let k = r.lo; k <= r.hi; k++) {
        const c = rx0 + k;
        if (c >= 0 && c < rw) ctx |= rdata[base + c] << (r.bit + r.hi - k);
      }
    }

    let pix = 0;
    for (let x = 0; x < w; x++) {
      const rx = x - dx;
      const cu = x + ownHi;
      const cm = rx + rmHi;
      const c0 = rx + r0Hi;
      const cp = rx + rpHi;
      ctx =
        ((ctx << 1) & mask) |
        ((cu < w ? up[oUp + cu] : 0) << ownBit) |
        ((bm >= 0 && cm >= 0 && cm < rw ? rdata[bm + cm] : 0) << rmBit) |
        ((b0 >= 0 && c0 >= 0 && c0 < rw ? rdata[b0 + c0] : 0) << r0Bit) |
        ((bp >= 0 && cp >= 0 && cp < rw ? rdata[bp + cp] : 0) << rpBit) |
        pix;
      if (ltp) {
        // 6.3.5.6 TPGRON: where the reference's 3 × 3 neighbourhood is uniform the pixel is its value, not coded
        const v = refPixel(ref, rx, ry);
        if (
          refPixel(ref, rx - 1, ry - 1) === v &&
          refPixel(ref, rx, ry - 1) === v &&
          refPixel(ref, rx + 1, ry - 1) === v &&
          refPixel(ref, rx - 1, ry) === v &&
          refPixel(ref, rx + 1, ry) === v &&
          refPixel(ref, rx - 1, ry + 1) === v &&
          refPixel(ref, rx, ry + 1) === v &&
          refPixel(ref, rx + 1, ry + 1) === v
        ) {
          pix = v;
          data[o0 + x] = v;
          continue;
        }
      }
      let c = ctx;
      if (a1Base >= 0) {
        const ax = x + a1x;
        if (ax >= 0 && ax < w) c |= data[a1Base + ax] << a1Bit;
      }
      if (a2Base >= 0) {
        const ax = rx + a2x;
        if (ax >= 0 && ax < rw) c |= rdata[a2Base + ax] << a2Bit;
      }
      pix = mq.decode(cx, c);
      data[o0 + x] = pix;
    }
  }
  return out;
}

function refPixel(b: Bitmap, x: number, y: number): number {
  return x >= 0 && y >= 0 && x < b.width && y < b.height ? b.data[y * b.width + x] : 0;
}

// Table A.1 by the number of 1s in the prefix
const INT_BITS = [2, 4, 6, 8, 12, 32];
const INT_OFFSETS = [0, 4, 20, 84, 340, 4436];

/**
 * T.88 Annex A.2, the integer arithmetic decoding procedure: one instance per IAx (IADH, IADW, IAEX, …), each with its
 * own 512 contexts, indexed by PREV, the bits decoded so far in this integer behind a leading 1.
 */
export class IntDecoder {
  private readonly cx = new Uint8Array(512);
  private prev = 1;

  /** the integer, or null for OOB (a negative zero) */
  decode(mq: MqDecoder): number | null {
    this.prev = 1;
    const s = this.bit(mq);
    // the prefix of up to five 1s picks the range (Table A.1): the value's bits and its offset
    let ones = 0;
    while (ones < 5 && this.bit(mq)) ones++;
    const n = INT_BITS[ones];
    const offset = INT_OFFSETS[ones];
    // multiplication, not shifts: 32 bits plus the offset pass int32
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit(mq);
    v += offset;
    if (s) return v === 0 ? null : -v;
    return v;
  }

  // A.2's PREV update: shift the bit in, and once past 8 bits keep the low 8 behind a fixed 1 (so it stays below 512)
  private bit(mq: MqDecoder): number {
    const prev = this.prev;
    const d = mq.decode(this.cx, prev);
    this.prev = prev < 256 ? (prev << 1) | d : (((prev << 1) | d) & 511) | 256;
    return d;
  }
}

/** T.88 Annex A.3, IAID: a symbol id of codeLength bits (SBSYMCODELEN), most significant first, in 2^(codeLength+1) contexts */
export class IdDecoder {
  private readonly cx: Uint8Array;
  private readonly codeLength: number;

  /** codeLength 0..24 (a caller with more than 2^24 symbols has garbage); outside that it throws a RangeError */
  constructor(codeLength: number) {
    if (!isInt(codeLength) || codeLength < 0 || codeLength > 24) throw new RangeError(`JBIG2 IAID: bad code length ${codeLength}`);
    this.codeLength = codeLength;
    this.cx = new Uint8Array(1 << (codeLength + 1));
  }

  decode(mq: MqDecoder): number {
    const cx = this.cx;
    let prev = 1;
    for (let i = 0; i < this.codeLength; i++) prev = (prev << 1) | mq.decode(cx, prev);
    return prev - (1 << this.codeLength);
  }
}
