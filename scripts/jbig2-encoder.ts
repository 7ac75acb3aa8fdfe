/**
 * A test-only JBIG2 (ITU-T T.88) arithmetic encoder for the region procedures, written from the recommendation, to
 * round-trip src/analyzer/layerQuality/jbig2Regions.ts: generic regions (6.2, MMR = 0, templates 0–3, adaptive pixels,
 * TPGDON), generic refinement regions (6.3, templates 0 and 1, TPGRON), and the integer (IAx, Annex A.2) and symbol id
 * (IAID, Annex A.3) procedures, on the MQ encoder of scripts/jpx-block-encoder.ts. scripts/jbig2-symbol-encoder.ts
 * builds symbol dictionaries and text regions on it.
 *
 * Deliberately slow and plain: each pixel's context is built by reading every template pixel one by one, in the
 * order of the recommendation's figures (most significant first), from a bitmap of what the decoder has decoded so far
 * (so non-causal adaptive pixels read what a decoder would: 0 until decoded). The decoder carries contexts as shift
 * registers along a row, so the two formulations check each other.
 *
 * Usage: one MqEncoder a segment, contexts as the decoder's (a Uint8Array of zeros of the size the decoder documents,
 * kept across calls where the decoder keeps them), then `mq.flush()` for the segment's bytes.
 */
import type { Bitmap, GenericParams, RefinementParams } from '../src/analyzer/layerQuality/jbig2Regions';
import { MqEncoder } from './jpx-block-encoder';

export { MqEncoder };

/** a template pixel: an offset, or adaptive pixel `at` (index into the caller's `at`) */
type Pixel = { x: number; y: number } | { at: number };

// 6.2.5.3, Figures 3–6, most significant bit first.
// prettier-ignore
const GENERIC: Pixel[][] = [
  [
    { at: 3 }, { x: -1, y: -2 }, { x: 0, y: -2 }, { x: 1, y: -2 }, { at: 2 },
    { at: 1 }, { x: -2, y: -1 }, { x: -1, y: -1 }, { x: 0, y: -1 }, { x: 1, y: -1 }, { x: 2, y: -1 }, { at: 0 },
    { x: -4, y: 0 }, { x: -3, y: 0 }, { x: -2, y: 0 }, { x: -1, y: 0 },
  ],
  [
    { x: -1, y: -2 }, { x: 0, y: -2 }, { x: 1, y: -2 }, { x: 2, y: -2 },
    { x: -2, y: -1 }, { x: -1, y: -1 }, { x: 0, y: -1 }, { x: 1, y: -1 }, { x: 2, y: -1 }, { at: 0 },
    { x: -3, y: 0 }, { x: -2, y: 0 }, { x: -1, y: 0 },
  ],
  [
    { x: -1, y: -2 }, { x: 0, y: -2 }, { x: 1, y: -2 },
    { x: -2, y: -1 }, { x: -1, y: -1 }, { x: 0, y: -1 }, { x: 1, y: -1 }, { at: 0 },
    { x: -2, y: 0 }, { x: -1, y: 0 },
  ],
  [
    { x: -3, y: -1 }, { x: -2, y: -1 }, { x: -1, y: -1 }, { x: 0, y: -1 }, { x: 1, y: -1 }, { at: 0 },
    { x: -4, y: 0 }, { x: -3, y: 0 }, { x: -2, y: 0 }, { x: -1, y: 0 },
  ],
];

/** 6.2.5.7: the contexts TPGDON codes SLTP in */
export const GENERIC_SLTP = [0x9b25, 0x0795, 0x00e5, 0x0195];

/** the default adaptive pixels of each generic template (6.2.5.4) */
export const GENERIC_DEFAULT_AT = [
  [
    { x: 3, y: -1 },
    { x: -3, y: -1 },
    { x: 2, y: -2 },
    { x: -2, y: -2 },
  ],
  [{ x: 3, y: -1 }],
  [{ x: 2, y: -1 }],
  [{ x: 2, y: -1 }],
];

/** a refinement template pixel: in the new bitmap or the reference; `at` 0 is A1 (new), 1 is A2 (reference) */
type RefPixel = { ref: boolean; x: number; y: number } | { ref: boolean; at: number };

// 6.3.5.3, Figures 12 and 13, most significant bit first.
// prettier-ignore
const REFINEMENT: RefPixel[][] = [
  [
    { ref: true, at: 1 }, { ref: true, x: 0, y: -1 }, { ref: true, x: 1, y: -1 },
    { ref: true, x: -1, y: 0 }, { ref: true, x: 0, y: 0 }, { ref: true, x: 1, y: 0 },
    { ref: true, x: -1, y: 1 }, { ref: true, x: 0, y: 1 }, { ref: true, x: 1, y: 1 },
    { ref: false, at: 0 }, { ref: false, x: 0, y: -1 }, { ref: false, x: 1, y: -1 }, { ref: false, x: -1, y: 0 },
  ],
  [
    { ref: true, x: 0, y: -1 }, { ref: true, x: -1, y: 0 }, { ref: true, x: 0, y: 0 }, { ref: true, x: 1, y: 0 },
    { ref: true, x: 0, y: 1 }, { ref: true, x: 1, y: 1 },
    { ref: false, x: -1, y: -1 }, { ref: false, x: 0, y: -1 }, { ref: false, x: 1, y: -1 }, { ref: false, x: -1, y: 0 },
  ],
];

/** the refinement defaults: A1 (−1, −1) in the new bitmap, A2 (−1, −1) in the reference */
export const REFINEMENT_DEFAULT_AT = [
  { x: -1, y: -1 },
  { x: -1, y: -1 },
];

function pixel(b: Bitmap, x: number, y: number): number {
  return x >= 0 && y >= 0 && x < b.width && y < b.height ? b.data[y * b.width + x] : 0;
}

function blank(width: number, height: number): Bitmap {
  return { width, height, data: new Uint8Array(width * height) };
}

function genericContext(done: Bitmap, template: number, at: { x: number; y: number }[], x: number, y: number): number {
  let ctx = 0;
  for (const q of GENERIC[template]) {
    const o = 'at' in q ? at[q.at] : q;
    ctx = (ctx << 1) | pixel(done, x + o.x, y + o.y);
  }
  return ctx;
}

function rowsEqual(b: Bitmap, y: number): boolean {
  for (let x = 0; x < b.width; x++) if (pixel(b, x, y) !== pixel(b, x, y - 1)) return false;
  return true;
}

/** 6.2 with MMR = 0: codes `bitmap` as decodeGeneric reads it (p's width and height, if given, are ignored) */
export function encodeGeneric(mq: MqEncoder, cx: Uint8Array, bitmap: Bitmap, p: Omit<GenericParams, 'width' | 'height'>): void {
  const done = blank(bitmap.width, bitmap.height);
  let ltp = false;
  for (let y = 0; y < bitmap.height; y++) {
    if (p.tpgdon) {
      // a row equal to the one above (white above the first) is typical: toggle LTP when that changes
      const typical = rowsEqual(bitmap, y);
      mq.encode(cx, GENERIC_SLTP[p.template], typical !== ltp ? 1 : 0);
      ltp = typical;
      if (typical) {
        for (let x = 0; x < bitmap.width; x++) done.data[y * bitmap.width + x] = pixel(done, x, y - 1);
        continue;
      }
    }
    for (let x = 0; x < bitmap.width; x++) {
      const v = pixel(bitmap, x, y);
      mq.encode(cx, genericContext(done, p.template, p.at, x, y), v);
      done.data[y * bitmap.width + x] = v;
    }
  }
}

function refinementContext(done: Bitmap, p: Omit<RefinementParams, 'width' | 'height'>, x: number, y: number): number {
  let ctx = 0;
  for (const q of REFINEMENT[p.template]) {
    const o = 'at' in q ? p.at[q.at] : q;
    ctx = (ctx << 1) | (q.ref ? pixel(p.reference, x - p.dx + o.x, y - p.dy + o.y) : pixel(done, x + o.x, y + o.y));
  }
  return ctx;
}

/** the SLTP context of 6.3.5.6: the template with only the reference's centre pixel 1 */
export function refinementSltp(template: 0 | 1): number {
  let ctx = 0;
  for (const q of REFINEMENT[template]) ctx = (ctx << 1) | (q.ref && !('at' in q) && q.x === 0 && q.y === 0 ? 1 : 0);
  return ctx;
}

/** is the reference's 3 × 3 neighbourhood of (x, y) one colour (then TPGRON predicts it) */
function uniform(ref: Bitmap, x: number, y: number): boolean {
  const v = pixel(ref, x, y);
  for (let j = -1; j <= 1; j++) for (let i = -1; i <= 1; i++) if (pixel(ref, x + i, y + j) !== v) return false;
  return true;
}

/**
 * 6.3: codes `bitmap` against p.reference as decodeRefinement reads it. With TPGRON a row is typical when every pixel
 * with a uniform reference neighbourhood has that colour; the encoder marks such rows typical, so both branches run.
 */
export function encodeRefinement(mq: MqEncoder, cx: Uint8Array, bitmap: Bitmap, p: Omit<RefinementParams, 'width' | 'height'>): void {
  const done = blank(bitmap.width, bitmap.height);
  let ltp = false;
  for (let y = 0; y < bitmap.height; y++) {
    let typical = false;
    if (p.tpgron) {
      typical = true;
      for (let x = 0; x < bitmap.width; x++) {
        if (uniform(p.reference, x - p.dx, y - p.dy) && pixel(p.reference, x - p.dx, y - p.dy) !== pixel(bitmap, x, y)) typical = false;
      }
      mq.encode(cx, refinementSltp(p.template), typical !== ltp ? 1 : 0);
      ltp = typical;
    }
    for (let x = 0; x < bitmap.width; x++) {
      const v = pixel(bitmap, x, y);
      if (!(typical && uniform(p.reference, x - p.dx, y - p.dy))) mq.encode(cx, refinementContext(done, p, x, y), v);
      done.data[y * bitmap.width + x] = v;
    }
  }
}

/**
 * Annex A.2: codes `value` (null for OOB) with one IAx's 512 contexts (`cx`, a Uint8Array(512) the caller keeps for
 * that IAx). |value| above 4436 + 2^32 − 1 cannot be coded.
 */
export function encodeInt(mq: MqEncoder, cx: Uint8Array, value: number | null): void {
  let prev = 1;
  const put = (d: number) => {
    mq.encode(cx, prev, d);
    prev = prev < 256 ? (prev << 1) | d : (((prev << 1) | d) & 511) | 256;
  };
  const s = value === null || value < 0 ? 1 : 0;
  const v = value === null ? 0 : Math.abs(value);
  // Table A.1: prefix, value bits, offset
  const ranges: [string, number, number][] = [
    ['0', 2, 0],
    ['10', 4, 4],
    ['110', 6, 20],
    ['1110', 8, 84],
    ['11110', 12, 340],
    ['11111', 32, 4436],
  ];
  const [prefix, n, offset] = ranges.find(([, n, offset]) => v - offset < 2 ** n) as [string, number, number];
  if (v - offset >= 2 ** n || !Number.isInteger(v)) throw new RangeError(`encodeInt: ${value}`);
  put(s);
  for (const c of prefix) put(c === '1' ? 1 : 0);
  const rest = v - offset;
  for (let i = n - 1; i >= 0; i--) put(Math.floor(rest / 2 ** i) % 2);
}

/** Annex A.3: codes symbol id `id` in `codeLength` bits with the IAID contexts `cx` (a Uint8Array(2^(codeLength+1))) */
export function encodeId(mq: MqEncoder, cx: Uint8Array, codeLength: number, id: number): void {
  let prev = 1;
  for (let i = codeLength - 1; i >= 0; i--) {
    const d = (id >> i) & 1;
    mq.encode(cx, prev, d);
    prev = (prev << 1) | d;
  }
}
