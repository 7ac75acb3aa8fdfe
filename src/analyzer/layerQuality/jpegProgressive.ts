/**
 * Progressive JPEG (ITU-T T.81 Annex G, Huffman-coded: SOF2): the entropy decoding of its scans into the quantised DCT
 * coefficients of one component, which jpeg.ts dequantises and renders as it renders a baseline block. A progressive
 * file sends the coefficients in several scans: DC first (all components interleaved), then bands of AC coefficients
 * one component at a time (spectral selection), each band possibly first coarse and then refined a bit at a time
 * (successive approximation). Only the first component (the luminance) is kept: its scans are decoded, the other
 * components' AC scans are passed over whole, and their blocks in an interleaved DC scan decoded only to keep the
 * bit stream in step.
 *
 * Written from the recommendation (G.1.2: DC first and refinement; AC first with end-of-band runs; AC refinement with
 * its correction bits). With `dcOnly`, AC scans are passed over: the block means need only the DC coefficients.
 *
 * Bounded: the coefficients are the caller's buffer (sized and charged by it); the clock is read every block row.
 *
 * Its bit reader (fill, decodeSym) repeats the baseline scan's in jpeg.ts on purpose: there the bit buffer is a pair of
 * locals that the hot loops (the AC value and skip tables) read in place, which an object shared by both would not be.
 * A code longer than the 9-bit lookahead is found by the one lookup both share (jpegHuffman.ts slowSymbol).
 */
import { type HuffmanTable, slowSymbol } from './jpegHuffman';

/** a frame component as a scan uses it: sampling factors, table selectors, the DC prediction */
export interface ScanComponent {
  h: number;
  v: number;
  td: number;
  ta: number;
  pred: number;
}

export interface ProgressiveScan {
  /** the scan's components in order; AC scans have one */
  comps: ScanComponent[];
  /** Ss, Se: the band of zigzag positions; Ah, Al: successive approximation (the previous and this scan's shift) */
  ss: number;
  se: number;
  ah: number;
  al: number;
}

/** where the kept component's coefficients go: `stride` (64, or 1 for DC only) per block, `columns` blocks a row */
export interface CoefficientStore {
  comp: ScanComponent;
  coef: Int16Array;
  stride: 64 | 1;
  columns: number;
  rows: number;
}

export interface FrameGeometry {
  width: number;
  height: number;
  hmax: number;
  vmax: number;
  restart: number;
}

export class ProgressiveError extends Error {}

/** zigzag position → natural (row-major) position in a block */
const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43,
  36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

/** The offset of the next marker (not a restart) at or after `pos`: where a scan's entropy-coded data ends. */
export function nextMarker(buf: Uint8Array, pos: number): number {
  const n = buf.length;
  while (pos < n && !(buf[pos] === 0xff && buf[pos + 1] !== 0 && !(buf[pos + 1] >= 0xd0 && buf[pos + 1] <= 0xd7))) pos++;
  return pos;
}

/**
 * Decodes one scan whose entropy-coded data starts at `start`: the kept component's coefficients into `store`. Returns
 * the offset after the data, or -1 when the clock ran out. Damaged data throws ProgressiveError (jpeg.ts catches it).
 */
export function progressiveScan(
  buf: Uint8Array,
  start: number,
  scan: ProgressiveScan,
  store: CoefficientStore,
  dcT: (HuffmanTable | undefined)[],
  acT: (HuffmanTable | undefined)[],
  g: FrameGeometry,
  outOfTime: () => boolean,
): number {
  const { comps, ss, se, ah, al } = scan;
  const dc = ss === 0;
  if (se > 63 || ss > se || al > 13 || ah > 13 || (dc && se !== 0) || (!dc && comps.length !== 1))
    throw new ProgressiveError(`a progressive scan of band ${ss}–${se}, approximation ${ah}/${al}`);
  // an AC scan of another component, or any AC scan when only the DC terms are wanted, is passed over whole
  if (!dc && (comps[0] !== store.comp || store.stride === 1)) return nextMarker(buf, start);

  const n = buf.length;
  let pos = start;
  let bits = 0;
  let nbits = 0;
  let hitMarker = false;
  const fill = () => {
    while (nbits <= 24) {
      let b = 0;
      if (!hitMarker && pos < n) {
        b = buf[pos];
        if (b === 0xff) {
          if (buf[pos + 1] === 0) pos += 2;
          else {
            hitMarker = true;
            b = 0;
          }
        } else pos++;
      }
      bits = ((bits << 8) | b) >>> 0;
      nbits += 8;
    }
  };
  const bit = (): number => {
    if (nbits < 1) fill();
    nbits--;
    return (bits >>> nbits) & 1;
  };
  const getBits = (k: number): number => {
    if (k === 0) return 0;
    if (nbits < k) fill();
    nbits -= k;
    return (bits >>> nbits) & ((1 << k) - 1);
  };
  const decodeSym = (h: HuffmanTable): number => {
    if (nbits < 16) fill();
    const f = h.fast[(bits >>> (nbits - 9)) & 511];
    if (f !== 0) {
      nbits -= f >> 8;
      return f & 255;
    }
    const r = slowSymbol(h, bits, nbits);
    if (r < 0) throw new ProgressiveError('bad Huffman code');
    nbits -= r >> 8;
    return r & 255;
  };
  const extend = (v: number, t: number) => (v < 1 << (t - 1) ? v - (1 << t) + 1 : v);
  const coef = store.coef;
  const stride = store.stride;
  /** the kept block (bx, by)'s offset in the store, or -1 for a block outside it (padding, another component) */
  const at = (c: ScanComponent, bx: number, by: number) =>
    c === store.comp && bx < store.columns && by < store.rows ? (by * store.columns + bx) * stride : -1;

  let eobrun = 0;
  const dcFirst = (c: ScanComponent, o: number) => {
    const h = dcT[c.td];
    if (!h) throw new ProgressiveError('missing Huffman table');
    const t = decodeSym(h);
    c.pred += t === 0 ? 0 : extend(getBits(t), t);
    if (o >= 0) coef[o] = c.pred * (1 << al);
  };
  const dcRefine = (o: number) => {
    if (bit() && o >= 0) coef[o] |= 1 << al;
  };
  const acFirst = (h: HuffmanTable, o: number) => {
    if (eobrun > 0) {
      eobrun--;
      return;
    }
    for (let k = ss; k <= se; k++) {
      const rs = decodeSym(h);
      const r = rs >> 4;
      const s = rs & 15;
      if (s === 0) {
        if (r < 15) {
          // an end-of-band run: this block and the next 2^r + extra − 1 have no more coefficients in the band
          eobrun = (1 << r) + getBits(r) - 1;
          return;
        }
        k += 15;
        continue;
      }
      k += r;
      if (k > 63) throw new ProgressiveError('a coefficient past the block');
      if (o >= 0) coef[o + ZIGZAG[k]] = extend(getBits(s), s) * (1 << al);
      else getBits(s);
    }
  };
  const acRefine = (h: HuffmanTable, o: number) => {
    const p1 = 1 << al;
    const m1 = -1 << al;
    // a coefficient already non-zero gets one correction bit in each refinement scan of its band
    const correct = (z: number) => {
      if (bit() && (coef[z] & p1) === 0) coef[z] += coef[z] >= 0 ? p1 : m1;
    };
    let k = ss;
    if (eobrun === 0) {
      for (; k <= se; k++) {
        const rs = decodeSym(h);
        let r = rs >> 4;
        const s = rs & 15;
        let value = 0;
        if (s !== 0) {
          if (s !== 1) throw new ProgressiveError('a refinement coefficient of more than one bit');
          value = bit() ? p1 : m1;
        } else if (r !== 15) {
          eobrun = (1 << r) + getBits(r);
          break;
        }
        // pass r zero coefficients (refining the non-zero ones on the way); the new one lands on the next zero
        for (; k <= se; k++) {
          const z = o + ZIGZAG[k];
          if (coef[z] !== 0) correct(z);
          else if (r-- === 0) break;
        }
        if (value !== 0 && k <= se) coef[o + ZIGZAG[k]] = value;
      }
    }
    if (eobrun > 0) {
      for (; k <= se; k++) {
        const z = o + ZIGZAG[k];
        if (coef[z] !== 0) correct(z);
      }
      eobrun--;
    }
  };
  const block = (c: ScanComponent, bx: number, by: number) => {
    const o = at(c, bx, by);
    if (dc) {
      if (ah === 0) dcFirst(c, o);
      else dcRefine(o);
      return;
    }
    // (an AC scan is the kept component's alone, and its blocks all lie in the store: MCU padding only adds blocks)
    const h = acT[c.ta];
    if (!h) throw new ProgressiveError('missing Huffman table');
    if (ah === 0) acFirst(h, o);
    else acRefine(h, o);
  };

  const restartAt = () => {
    nbits = 0;
    bits = 0;
    hitMarker = false;
    while (pos < n && !(buf[pos] === 0xff && buf[pos + 1] >= 0xd0 && buf[pos + 1] <= 0xd7)) pos++;
    if (pos < n) pos += 2;
    for (const c of comps) c.pred = 0;
    eobrun = 0;
  };
  let mcu = 0;
  if (comps.length === 1) {
    const c = comps[0];
    // a single-component scan covers the component's own size in blocks, not padded MCUs
    const bw = Math.ceil(Math.ceil((g.width * c.h) / g.hmax) / 8);
    const bh = Math.ceil(Math.ceil((g.height * c.v) / g.vmax) / 8);
    for (let by = 0; by < bh; by++) {
      if (outOfTime()) return -1;
      for (let bx = 0; bx < bw; bx++) {
        if (g.restart && mcu > 0 && mcu % g.restart === 0) restartAt();
        block(c, bx, by);
        mcu++;
      }
    }
  } else {
    const mcusX = Math.ceil(g.width / (8 * g.hmax));
    const mcusY = Math.ceil(g.height / (8 * g.vmax));
    for (let my = 0; my < mcusY; my++) {
      if (outOfTime()) return -1;
      for (let mx = 0; mx < mcusX; mx++) {
        if (g.restart && mcu > 0 && mcu % g.restart === 0) restartAt();
        for (const c of comps) for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) block(c, mx * c.h + h, my * c.v + v);
        mcu++;
      }
    }
  }
  return nextMarker(buf, pos);
}
