/**
 * JPEG 2000 tier-1: the EBCOT code-block decoder of ITU-T T.800 | ISO/IEC 15444-1 Annex D. A code-block's codeword
 * segments (found by tier-2 in jpx.ts) become its quantized coefficients: bit-planes from the most significant down,
 * each coded in up to three passes (significance propagation, magnitude refinement, cleanup) with the MQ decoder
 * (mq.ts) or, in the selective bypass mode, as raw bits.
 *
 * Written from the recommendation: the context assignment, the initial context states, the pass order, run-length
 * coding, the code-block style switches and the raw segments' bit stuffing.
 * Round trips through a test-only encoder (scripts/jpx-block-encoder.ts) and hand-derived symbol sequences check it
 * (test/jpx-block.test.ts).
 *
 * Bounded: at most 3·30−2 passes over at most 4096 coefficients; every decision reads at most a byte or feeds 1 bits,
 * so garbage costs no more than a full-depth block. The flags and magnitudes are module scratch, reused block to block.
 */
import { MqDecoder } from './mq';

export type JpxBand = 'LL' | 'HL' | 'LH' | 'HH';
export interface CodeBlockStyle {
  /** selective arithmetic coding bypass (raw passes) */ bypass: boolean;
  /** reset context probabilities at each pass */ reset: boolean;
  /** termination on each coding pass */ termAll: boolean;
  /** vertically causal context formation */ verticallyCausal: boolean;
  /** segmentation symbols after each cleanup pass */ segmentationSymbols: boolean;
}
export interface CodeBlock {
  width: number;
  height: number; // 1..1024 each, width*height <= 4096
  band: JpxBand;
  /** bit-planes the block's first pass starts from: Mb − zero bit-planes (Mb from the quantization: guard bits + exponent − 1); 0 → all coefficients zero */
  bitPlanes: number;
  /** the codeword segments of the block's included passes, in order: each segment's bytes are data.subarray(offset, offset+length) and cover `passes` coding passes. The first pass is the cleanup pass of the most significant plane; passes then run significance, refinement, cleanup for each lower plane. Without termAll/bypass there is one segment for all passes (tier-2 concatenates a block's contributions from several quality layers into one segment). With termAll each pass is its own segment. With bypass (and not termAll), the segments follow the standard's rule (passes up to the first 10 are one arithmetic segment; then raw (significance+refinement) and arithmetic (cleanup) segments alternate), and tier-2 splits them that way; each segment is decoded in the mode its passes have. */
  data: Uint8Array;
  segments: { offset: number; length: number; passes: number }[];
  style: CodeBlockStyle;
}

// Context labels (Table D.7's order): 0–8 significance (zero coding), 9–13 sign, 14–16 refinement, run-length, uniform.
const CX_REFINE_FIRST_ALONE = 14;
const CX_REFINE_FIRST = 15;
const CX_REFINE_LATER = 16;
const CX_RUN = 17;
const CX_UNIFORM = 18;
const CX_COUNT = 19;

// Per-coefficient flags, one Uint16 each over the block plus a one-sample border (so neighbours never need a bounds
// test). The low byte is the significance of the eight neighbours and bits 8–11 the signs of the four direct ones,
// kept up to date as coefficients become significant, so every context is one table lookup.
const N_SIG = 1;
const S_SIG = 2;
const W_SIG = 4;
const E_SIG = 8;
const NW_SIG = 0x10;
const NE_SIG = 0x20;
const SW_SIG = 0x40;
const SE_SIG = 0x80;
const N_NEG = 0x100;
const S_NEG = 0x200;
const W_NEG = 0x400;
const E_NEG = 0x800;
const SIG = 0x1000;
/** coded in this bit-plane's significance pass, so the refinement and cleanup passes leave it */
const VISITED = 0x2000;
const REFINED = 0x4000;
const NEG = 0x8000;
const NEIGHBOURS = 0xff;

// A summary byte per stripe column (the four coefficients of one column in a stripe), so the passes step over the
// columns they have nothing to do in with one test: COL_SIG if one of them is significant, COL_ACTIVE if one is
// significant or has a significant neighbour (exactly: zero means all four have flags & (SIG | NEIGHBOURS) = 0). It is
// bordered like the flags (a stripe above, one below, a column each side), so marking neighbours needs no bounds test.
const COL_SIG = 1;
const COL_ACTIVE = 2;

const PASS_SIGNIFICANCE = 0;
const PASS_REFINEMENT = 1;
const PASS_CLEANUP = 2;

const MAX_BIT_PLANES = 30;
const MAX_SIDE = 1024;
const MAX_AREA = 4096;

/** Table D.1: the zero-coding context from the counts of significant horizontal, vertical and diagonal neighbours */
function zeroCodingLabel(band: JpxBand, h: number, v: number, d: number): number {
  if (band === 'HH') {
    const hv = h + v;
    if (d >= 3) return 8;
    if (d === 2) return hv >= 1 ? 7 : 6;
    if (d === 1) return hv >= 2 ? 5 : hv === 1 ? 4 : 3;
    return hv >= 2 ? 2 : hv;
  }
  // HL (horizontally high-pass) swaps the roles of the horizontal and vertical neighbours of LL and LH
  if (band === 'HL') [h, v] = [v, h];
  if (h === 2) return 8;
  if (h === 1) return v >= 1 ? 7 : d >= 1 ? 6 : 5;
  if (v === 2) return 4;
  if (v === 1) return 3;
  return d >= 2 ? 2 : d;
}

// ZERO_CODING[base + neighbour byte]: LL and LH at 0, HL at 256, HH at 512.
const ZERO_CODING = new Uint8Array(768);
const BAND_BASE: Record<JpxBand, number> = { LL: 0, LH: 0, HL: 256, HH: 512 };
// SIGN_CODING[(direct neighbours' significance) | (their signs << 4)] = (context << 1) | XOR bit, Tables D.2 and D.3.
const SIGN_CODING = new Uint8Array(256);
{
  const bit = (x: number, m: number) => ((x & m) !== 0 ? 1 : 0);
  for (const band of ['LL', 'HL', 'HH'] as const) {
    for (let n = 0; n < 256; n++) {
      const h = bit(n, W_SIG) + bit(n, E_SIG);
      const v = bit(n, N_SIG) + bit(n, S_SIG);
      const d = bit(n, NW_SIG) + bit(n, NE_SIG) + bit(n, SW_SIG) + bit(n, SE_SIG);
      ZERO_CODING[BAND_BASE[band] + n] = zeroCodingLabel(band, h, v, d);
    }
  }
  // a significant neighbour counts +1 when positive, −1 when negative; each direction's sum is clamped to −1..1
  const contribution = (n: number, sig: number) => (n & sig ? ((n >> 4) & sig ? -1 : 1) : 0);
  const clamp = (x: number) => Math.max(-1, Math.min(1, x));
  for (let n = 0; n < 256; n++) {
    let h = clamp(contribution(n, W_SIG) + contribution(n, E_SIG));
    let v = clamp(contribution(n, N_SIG) + contribution(n, S_SIG));
    // Table D.3 is symmetric under negating both contributions, with the XOR bit set on the negated half
    let xor = 0;
    if (h < 0 || (h === 0 && v < 0)) {
      h = -h;
      v = -v;
      xor = 1;
    }
    const label = h === 0 ? (v === 0 ? 9 : 10) : v === 1 ? 13 : v === 0 ? 12 : 11;
    SIGN_CODING[n] = (label << 1) | xor;
  }
}

/** Table D.7: all contexts start in state 0 with MPS 0, except uniform (46), run-length (3) and zero-coding 0 (4) */
function resetContexts(cx: Uint8Array): void {
  cx.fill(0);
  cx[0] = 4 << 1;
  cx[CX_RUN] = 3 << 1;
  cx[CX_UNIFORM] = 46 << 1;
}

/** Raw (bypass) segments: bits most significant first; the byte after an 0xFF carries only 7 (its top bit is stuffed). */
class RawDecoder {
  private data: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private end = 0;
  private byte = 0;
  private left = 0;
  init(data: Uint8Array, start: number, end: number): void {
    this.data = data;
    this.pos = start;
    this.end = end;
    this.byte = 0;
    this.left = 0;
  }
  bit(): number {
    if (this.left === 0) {
      const afterFF = this.byte === 0xff;
      // past the end the segment reads as 1 bits, like the MQ decoder's
      this.byte = this.pos < this.end ? this.data[this.pos] : 0xff;
      this.pos++;
      this.left = afterFF ? 7 : 8;
    }
    this.left--;
    return (this.byte >> this.left) & 1;
  }
}

// Scratch reused block to block: the largest bordered block is 1024 × 4 → 1026 × 6; its column summaries are 3 stripes
// of 1026 (64 × 64 → 18 of 66 is less).
const SCRATCH = 1026 * 6;
const flagsScratch = new Uint16Array(SCRATCH);
const magScratch = new Int32Array(SCRATCH);
const colsScratch = new Uint8Array(SCRATCH);
const contexts = new Uint8Array(CX_COUNT);
const mq = new MqDecoder();
const raw = new RawDecoder();

/** The state the passes share; the pass functions copy it into locals. */
interface Block {
  flags: Uint16Array;
  mag: Int32Array;
  /** the column summaries, stripe s's column x at (s + 1) · sw + x + 1 */
  cols: Uint8Array;
  w: number;
  h: number;
  /** the bordered row length, w + 2 */
  sw: number;
  zeroBase: number;
  causal: boolean;
}

/**
 * A coefficient (row y, flags index i, column summary c) becomes significant: tell its eight neighbours and the
 * summaries of the stripe columns they are in. In vertically causal mode a coefficient on a stripe's first row stays
 * hidden from the row above it (the previous stripe's last row), which must not look into the next stripe.
 */
function setSignificant(flags: Uint16Array, cols: Uint8Array, i: number, c: number, sw: number, neg: number, y: number, causal: boolean): void {
  const hideAbove = causal && (y & 3) === 0;
  cols[c - 1] |= COL_ACTIVE;
  cols[c] |= COL_SIG | COL_ACTIVE;
  cols[c + 1] |= COL_ACTIVE;
  // the row above or below may be in the neighbouring stripe
  const near = (y & 3) === 0 ? (hideAbove ? 0 : c - sw) : (y & 3) === 3 ? c + sw : 0;
  if (near !== 0) {
    cols[near - 1] |= COL_ACTIVE;
    cols[near] |= COL_ACTIVE;
    cols[near + 1] |= COL_ACTIVE;
  }
  if (neg) {
    flags[i] |= SIG | NEG;
    flags[i - 1] |= E_SIG | E_NEG;
    flags[i + 1] |= W_SIG | W_NEG;
    flags[i + sw] |= N_SIG | N_NEG;
    if (!hideAbove) flags[i - sw] |= S_SIG | S_NEG;
  } else {
    flags[i] |= SIG;
    flags[i - 1] |= E_SIG;
    flags[i + 1] |= W_SIG;
    flags[i + sw] |= N_SIG;
    if (!hideAbove) flags[i - sw] |= S_SIG;
  }
  flags[i + sw - 1] |= NE_SIG;
  flags[i + sw + 1] |= NW_SIG;
  if (!hideAbove) {
    flags[i - sw - 1] |= SE_SIG;
    flags[i - sw + 1] |= SW_SIG;
  }
}

function significancePass(b: Block, cx: Uint8Array, plane: number, bypass: boolean): void {
  const { flags, mag, cols, w, h, sw, zeroBase, causal } = b;
  const one = 1 << plane;
  for (let y0 = 0, c0 = sw + 1; y0 < h; y0 += 4, c0 += sw) {
    const y1 = Math.min(y0 + 4, h);
    for (let x = 0; x < w; x++) {
      // nothing significant in or next to the column: nothing to code
      if (cols[c0 + x] === 0) continue;
      let i = (y0 + 1) * sw + x + 1;
      for (let y = y0; y < y1; y++, i += sw) {
        const f = flags[i];
        // only insignificant coefficients with a significant neighbour
        if ((f & SIG) !== 0 || (f & NEIGHBOURS) === 0) continue;
        if (bypass) {
          if (raw.bit() !== 0) {
            mag[i] = one;
            setSignificant(flags, cols, i, c0 + x, sw, raw.bit(), y, causal);
          }
        } else if (mq.decode(cx, ZERO_CODING[zeroBase + (f & NEIGHBOURS)]) !== 0) {
          const sc = SIGN_CODING[(f & 0xf) | ((f >> 4) & 0xf0)];
          mag[i] = one;
          setSignificant(flags, cols, i, c0 + x, sw, mq.decode(cx, sc >> 1) ^ (sc & 1), y, causal);
        }
        flags[i] |= VISITED;
      }
    }
  }
}

function refinementPass(b: Block, cx: Uint8Array, plane: number, bypass: boolean): void {
  const { flags, mag, cols, w, h, sw } = b;
  const one = 1 << plane;
  for (let y0 = 0, c0 = sw + 1; y0 < h; y0 += 4, c0 += sw) {
    const y1 = Math.min(y0 + 4, h);
    for (let x = 0; x < w; x++) {
      if ((cols[c0 + x] & COL_SIG) === 0) continue;
      let i = (y0 + 1) * sw + x + 1;
      for (let y = y0; y < y1; y++, i += sw) {
        const f = flags[i];
        // significant before this bit-plane (those found in its significance pass were just coded)
        if ((f & (SIG | VISITED)) !== SIG) continue;
        let bit: number;
        if (bypass) bit = raw.bit();
        else bit = mq.decode(cx, (f & REFINED) !== 0 ? CX_REFINE_LATER : (f & NEIGHBOURS) !== 0 ? CX_REFINE_FIRST : CX_REFINE_FIRST_ALONE);
        if (bit !== 0) mag[i] |= one;
        flags[i] = f | REFINED;
      }
    }
  }
}

function cleanupPass(b: Block, cx: Uint8Array, plane: number, segmentationSymbols: boolean): void {
  const { flags, mag, cols, w, h, sw, zeroBase, causal } = b;
  const one = 1 << plane;
  for (let y0 = 0, c0 = sw + 1; y0 < h; y0 += 4, c0 += sw) {
    const y1 = Math.min(y0 + 4, h);
    // run-length coding needs a full column of four
    const full = y1 - y0 === 4;
    for (let x = 0; x < w; x++) {
      let i = (y0 + 1) * sw + x + 1;
      let y = y0;
      // (a coefficient is VISITED only if it has a significant neighbour, so an inactive column has none)
      if (full && cols[c0 + x] === 0) {
        // four insignificant coefficients, none coded yet, all in the zero context: one decision says whether any
        // becomes significant, two uniform ones which is the first; the rest of the column is coded as usual
        if (mq.decode(cx, CX_RUN) === 0) continue;
        const r = (mq.decode(cx, CX_UNIFORM) << 1) | mq.decode(cx, CX_UNIFORM);
        i += r * sw;
        y += r;
        const sc = SIGN_CODING[(flags[i] & 0xf) | ((flags[i] >> 4) & 0xf0)];
        mag[i] = one;
        setSignificant(flags, cols, i, c0 + x, sw, mq.decode(cx, sc >> 1) ^ (sc & 1), y, causal);
        i += sw;
        y++;
      }
      for (; y < y1; y++, i += sw) {
        const f = flags[i];
        if ((f & (SIG | VISITED)) !== 0) {
          // the next bit-plane's significance pass starts afresh
          flags[i] = f & ~VISITED;
          continue;
        }
        if (mq.decode(cx, ZERO_CODING[zeroBase + (f & NEIGHBOURS)]) !== 0) {
          const sc = SIGN_CODING[(f & 0xf) | ((f >> 4) & 0xf0)];
          mag[i] = one;
          setSignificant(flags, cols, i, c0 + x, sw, mq.decode(cx, sc >> 1) ^ (sc & 1), y, causal);
        }
      }
    }
  }
  // the segmentation symbol (1010 in the uniform context) only helps an encoder-side error check; its value is ignored
  if (segmentationSymbols) for (let k = 0; k < 4; k++) mq.decode(cx, CX_UNIFORM);
}

/** In bypass mode, after the first ten passes (the top four bit-planes), significance and refinement passes are raw. */
const isRawPass = (bypass: boolean, pass: number) => bypass && pass >= 10 && (pass + 2) % 3 !== PASS_CLEANUP;

const isCount = (n: number, min: number, max: number): boolean => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** Decodes one code-block into `out` (width*height values, row-major at `stride`, starting at `offset`), as signed reconstructed magnitudes in units of bit-plane 0: a coefficient whose bit-planes were all decoded down to plane 0 is its exact integer; one whose lowest k planes were not decoded (passes missing) gets the mid-point of its interval (+ 2^k / 2 before the sign, only if it is significant). Zero where insignificant. Returns an error (never throws) for impossible input (bitPlanes > 30, more passes than 3*bitPlanes-2, sizes out of range). */
export function decodeCodeBlock(cb: CodeBlock, out: Float32Array, offset: number, stride: number): { ok: true } | { ok: false; error: string } {
  return decodeCodeBlockScaled(cb, out, offset, stride, 1);
}

/**
 * decodeCodeBlock, with each value multiplied by `scale` (the dequantisation step) as it is stored: the same float32
 * as storing the value and multiplying it in place later, without the second sweep over the band.
 */
export function decodeCodeBlockScaled(
  cb: CodeBlock,
  out: Float32Array,
  offset: number,
  stride: number,
  scale: number,
): { ok: true } | { ok: false; error: string } {
  const { width: w, height: h, bitPlanes, data, segments, style } = cb;
  if (!isCount(w, 1, MAX_SIDE) || !isCount(h, 1, MAX_SIDE) || w * h > MAX_AREA)
    return { ok: false, error: `code-block size ${w} × ${h} out of range` };
  if (cb.band !== 'LL' && cb.band !== 'LH' && cb.band !== 'HL' && cb.band !== 'HH')
    return { ok: false, error: `unknown sub-band ${JSON.stringify(cb.band)}` };
  if (!isCount(bitPlanes, 0, MAX_BIT_PLANES)) return { ok: false, error: `${bitPlanes} bit-planes (at most ${MAX_BIT_PLANES})` };
  if (!isCount(offset, 0, Infinity) || !isCount(stride, w, Infinity) || offset + (h - 1) * stride + w > out.length)
    return { ok: false, error: 'code-block does not fit its output' };
  let passes = 0;
  for (const s of segments) {
    if (!isCount(s.passes, 0, Infinity) || !isCount(s.offset, 0, data.length) || !isCount(s.length, 0, data.length - s.offset))
      return { ok: false, error: 'codeword segment out of range' };
    passes += s.passes;
  }
  if (passes > Math.max(0, 3 * bitPlanes - 2)) return { ok: false, error: `${passes} coding passes for ${bitPlanes} bit-planes` };

  const sw = w + 2;
  const size = sw * (h + 2);
  const flags = flagsScratch;
  const mag = magScratch;
  flags.fill(0, 0, size);
  mag.fill(0, 0, size);
  const cols = colsScratch;
  cols.fill(0, 0, sw * (Math.ceil(h / 4) + 2));
  const b: Block = { flags, mag, cols, w, h, sw, zeroBase: BAND_BASE[cb.band], causal: style.verticallyCausal };
  const cx = contexts;
  resetContexts(cx);

  let pass = 0;
  let lastKind = PASS_CLEANUP;
  let lastPlane = 0;
  for (const s of segments) {
    if (s.passes === 0) continue;
    const bypass = isRawPass(style.bypass, pass);
    for (let p = pass + 1; p < pass + s.passes; p++)
      if (isRawPass(style.bypass, p) !== bypass)
        return { ok: false, error: `codeword segment mixes raw and arithmetic passes (${pass}..${pass + s.passes - 1})` };
    if (bypass) raw.init(data, s.offset, s.offset + s.length);
    else mq.init(data, s.offset, s.offset + s.length);
    for (let k = 0; k < s.passes; k++, pass++) {
      // pass 0 is the top plane's cleanup; then significance, refinement, cleanup for each lower plane
      const kind = (pass + 2) % 3;
      const plane = bitPlanes - 1 - Math.floor((pass + 2) / 3);
      if (kind === PASS_SIGNIFICANCE) significancePass(b, cx, plane, bypass);
      else if (kind === PASS_REFINEMENT) refinementPass(b, cx, plane, bypass);
      else cleanupPass(b, cx, plane, style.segmentationSymbols);
      if (style.reset) resetContexts(cx);
      lastKind = kind;
      lastPlane = plane;
    }
  }

  // Planes below the last pass's are unknown: add half of the unknown interval. After a significance pass the
  // coefficients it did not visit (significant earlier) still lack that plane's bit.
  const half = passes === 0 ? 0 : lastPlane > 0 ? 2 ** (lastPlane - 1) : 0;
  const halfUnvisited = passes > 0 && lastKind === PASS_SIGNIFICANCE ? 2 ** lastPlane : half;
  // the value is rounded to float32 first, as storing it unscaled would do
  for (let y = 0; y < h; y++) {
    let i = (y + 1) * sw + 1;
    let o = offset + y * stride;
    for (let x = 0; x < w; x++, i++, o++) {
      const f = flags[i];
      if ((f & SIG) === 0) out[o] = 0;
      else {
        const v = Math.fround(mag[i] + ((f & VISITED) !== 0 || lastKind !== PASS_SIGNIFICANCE ? half : halfUnvisited)) * scale;
        out[o] = (f & NEG) !== 0 ? -v : v;
      }
    }
  }
  return { ok: true };
}
