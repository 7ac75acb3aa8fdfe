/**
 * A small JPEG decoder (ITU-T T.81: sequential DCT, and progressive through jpegProgressive.ts; Huffman coding, 8-bit
 * samples), written from the specification for one purpose: the luminance of a scanned page, to see where its ink is.
 * It decodes the first component only (the Y of YCbCr, or the gray of a one-component image); the other components'
 * coefficients are read and dropped. Lossless, hierarchical, arithmetic-coded and 12-bit files are refused with a typed
 * error.
 *
 * Pure (no Node APIs), bounded: the caller gives the most pixels it accepts, and a clock that is asked every MCU row.
 */
import { type HuffmanTable, slowSymbol } from './jpegHuffman';
import { type CoefficientStore, progressiveScan } from './jpegProgressive';

export interface GrayImage {
  width: number;
  height: number;
  /** row-major luminance, 0 = black */
  data: Uint8Array;
}

export type JpegResult =
  /** `means`: the block means (an eighth of the size, as decodeJpegDc gives them), when asked for with a full decode */
  { ok: true; image: GrayImage; means?: GrayImage } | { ok: false; error: 'unsupported' | 'damaged' | 'too-large' | 'out-of-time'; message: string };

interface Huffman extends HuffmanTable {
  /** acValueTable of this table, made when a full decode first needs it */
  acValues?: Uint32Array;
  /** acSkipTable and acMultiTable of this table, made when a full decode first skips a block */
  acSkip?: Uint16Array;
  acMulti?: Uint32Array;
}

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  td: number;
  ta: number;
  pred: number;
  /** blocks per line and per column of this component (padded to whole MCUs) */
  bw: number;
  bh: number;
}

const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43,
  36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

/**
 * cos tables for the 8-point inverse DCT evaluated at the centres of 8 / s output samples (s = 1, 2, 4: the block's
 * pixels, or the means of 2×2 or 4×4 of them): C[x * 8 + u] = c(u) / 2 · cos((2·xc + 1) u π / 16), xc = s·x + (s − 1) / 2.
 */
function cosTable(s: number): Float64Array {
  const m = 8 / s;
  const t = new Float64Array(m * 8);
  for (let x = 0; x < m; x++) {
    const xc = s * x + (s - 1) / 2;
    for (let u = 0; u < 8; u++) t[x * 8 + u] = (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * xc + 1) * u * Math.PI) / 16);
  }
  return t;
}

class Damaged extends Error {}

/**
 * Bytes a decode of this JPEG needs beyond its output: a progressive image gathers its luminance's coefficients over
 * its scans, two bytes a pixel (padded to whole MCUs: at most three blocks more each way), or two a block for the block
 * means; a baseline one nothing. Read from the frame header; 0 when there is none.
 */
export function jpegWorkBytes(buf: Uint8Array, dcOnly: boolean): number {
  for (let p = 2; p + 8 < buf.length;) {
    if (buf[p] !== 0xff) return 0;
    const marker = buf[p + 1];
    if (marker === 0xff) {
      p++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return 0;
    if (marker === 0xc2) {
      const h = (buf[p + 5] << 8) | buf[p + 6];
      const w = (buf[p + 7] << 8) | buf[p + 8];
      const blocks = (Math.ceil(w / 8) + 3) * (Math.ceil(h / 8) + 3);
      return dcOnly ? 2 * blocks : 128 * blocks;
    }
    p += 2 + ((buf[p + 2] << 8) | buf[p + 3]);
  }
  return 0;
}

function buildHuffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const maxCode = new Int32Array(18).fill(-1);
  const minCode = new Int32Array(17);
  const valPtr = new Int32Array(17);
  const fast = new Uint16Array(512);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    const n = counts[len - 1];
    valPtr[len] = k;
    minCode[len] = code;
    if (n > 0) {
      for (let i = 0; i < n; i++) {
        if (len <= 9) {
          const shift = 9 - len;
          const base = code << shift;
          for (let j = 0; j < 1 << shift; j++) fast[base + j] = (len << 8) | values[k];
        }
        code++;
        k++;
      }
      maxCode[len] = code - 1;
    }
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff;
  return { maxCode, valPtr, minCode, values, fast };
}

/**
 * Decodes the luminance of a baseline JPEG. `maxPixels` bounds width × height; `outOfTime` is asked once per MCU row.
 * Never throws.
 */
export function decodeJpegGray(
  buf: Uint8Array,
  maxPixels: number,
  outOfTime: () => boolean = () => false,
  scale: 1 | 2 | 4 | 8 = 1,
  blocks?: BlockMask,
  withMeans = false,
): JpegResult {
  try {
    return decode(buf, maxPixels, outOfTime, scale, blocks, withMeans);
  } catch (e) {
    return { ok: false, error: 'damaged', message: String(e instanceof Error ? e.message : e).slice(0, 160) };
  }
}

/**
 * The luminance at an eighth of the size: each sample the mean of one 8×8 block, which is its DC coefficient. The AC
 * coefficients are Huffman-decoded only to be skipped (no dequantisation, no inverse DCT): about a third of the full
 * decode's time, and all a coarse ink map needs. Never throws.
 */
export function decodeJpegDc(buf: Uint8Array, maxPixels: number, outOfTime: () => boolean = () => false): JpegResult {
  return decodeJpegGray(buf, maxPixels, outOfTime, 8);
}

/**
 * The 8×8 blocks of the image a caller needs whole: `want[by · columns + bx]` non-zero (columns = ⌈width / 8⌉, rows =
 * ⌈height / 8⌉ of the full image). The other blocks get their mean (no inverse DCT). A mask whose size is not the
 * image's is ignored.
 */
export interface BlockMask {
  columns: number;
  rows: number;
  want: Uint8Array;
}

/**
 * `scale` 2 or 4 gives the image at half or a quarter of its size (each sample the IDCT at the centre of 2×2 or 4×4
 * pixels); 8 gives the block means (DC only).
 */
function decode(buf: Uint8Array, maxPixels: number, outOfTime: () => boolean, scale: number, blocks?: BlockMask, withMeans = false): JpegResult {
  const n = buf.length;
  if (n < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return { ok: false, error: 'damaged', message: 'no SOI marker' };
  const qt: Int32Array[] = [];
  const dcTables: (Huffman | undefined)[] = [];
  const acTables: (Huffman | undefined)[] = [];
  let comps: Component[] = [];
  let width = 0;
  let height = 0;
  let hmax = 1;
  let vmax = 1;
  let restart = 0;
  let out: Uint8Array | undefined;
  let means: Uint8Array | undefined;
  // a progressive image's first component, as quantised coefficients gathered over its scans (rendered at the end)
  let store: CoefficientStore | undefined;
  let p = 2;
  const u16 = (at: number) => {
    if (at + 1 >= n) throw new Damaged('truncated segment');
    return (buf[at] << 8) | buf[at + 1];
  };
  while (p < n) {
    if (buf[p] !== 0xff) {
      p++;
      continue;
    }
    const marker = buf[p + 1];
    p += 2;
    if (marker === 0xff || marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      if (marker === 0xff) p--;
      continue;
    }
    if (marker === 0xd9) break;
    const len = u16(p);
    const seg = p + 2;
    const end = p + len;
    if (end > n) throw new Damaged('segment past the end');
    switch (marker) {
      case 0xdb: {
        let q = seg;
        while (q < end) {
          const pq = buf[q] >> 4;
          const tq = buf[q] & 15;
          q++;
          const t = new Int32Array(64);
          for (let i = 0; i < 64; i++) {
            t[ZIGZAG[i]] = pq ? u16(q + 2 * i) : buf[q + i];
          }
          q += pq ? 128 : 64;
          qt[tq & 3] = t;
        }
        break;
      }
      case 0xc4: {
        let q = seg;
        while (q < end) {
          const tc = buf[q] >> 4;
          const th = buf[q] & 15;
          const counts = buf.subarray(q + 1, q + 17);
          let total = 0;
          for (let i = 0; i < 16; i++) total += counts[i];
          const values = buf.slice(q + 17, q + 17 + total);
          q += 17 + total;
          const h = buildHuffman(counts, values);
          if (tc === 0) dcTables[th & 3] = h;
          else acTables[th & 3] = h;
        }
        break;
      }
      case 0xdd:
        restart = u16(seg);
        break;
      case 0xc0:
      case 0xc1:
      case 0xc2: {
        if (out) throw new Damaged('a second frame');
        if (buf[seg] !== 8) return { ok: false, error: 'unsupported', message: `${buf[seg]}-bit samples` };
        height = u16(seg + 1);
        width = u16(seg + 3);
        const nc = buf[seg + 5];
        if (width === 0 || height === 0 || nc === 0) throw new Damaged('empty frame');
        if (width * height > maxPixels) return { ok: false, error: 'too-large', message: `${width}×${height} pixels` };
        comps = [];
        for (let i = 0; i < nc; i++) {
          const c = seg + 6 + 3 * i;
          const h = buf[c + 1] >> 4 || 1;
          const v = buf[c + 1] & 15 || 1;
          comps.push({ id: buf[c], h, v, tq: buf[c + 2] & 3, td: 0, ta: 0, pred: 0, bw: 0, bh: 0 });
          hmax = Math.max(hmax, h);
          vmax = Math.max(vmax, v);
        }
        const mcusX = Math.ceil(width / (8 * hmax));
        const mcusY = Math.ceil(height / (8 * vmax));
        for (const c of comps) {
          c.bw = mcusX * c.h;
          c.bh = mcusY * c.v;
        }
        out = new Uint8Array(Math.ceil(width / scale) * Math.ceil(height / scale)).fill(255);
        if (withMeans && scale !== 8) means = new Uint8Array(Math.ceil(width / 8) * Math.ceil(height / 8)).fill(255);
        if (marker === 0xc2) {
          const first = comps[0];
          if (first.h !== hmax || first.v !== vmax)
            return { ok: false, error: 'unsupported', message: 'a progressive image with subsampled luminance' };
          // the block means need the DC terms only; every other scale all 64 (jpegWorkBytes counts them for the caller)
          const stride = scale === 8 ? 1 : 64;
          store = { comp: first, coef: new Int16Array(first.bw * first.bh * stride), stride, columns: first.bw, rows: first.bh };
        }
        break;
      }
      case 0xc3:
      case 0xc5:
      case 0xc6:
      case 0xc7:
      case 0xc9:
      case 0xca:
      case 0xcb:
      case 0xcd:
      case 0xce:
      case 0xcf:
        return { ok: false, error: 'unsupported', message: `JPEG process SOF${marker - 0xc0} (only baseline and progressive are decoded)` };
      case 0xda: {
        if (!out) throw new Damaged('scan before frame');
        const ns = buf[seg];
        const scomps: Component[] = [];
        for (let i = 0; i < ns; i++) {
          const id = buf[seg + 1 + 2 * i];
          const sel = buf[seg + 2 + 2 * i];
          const c = comps.find((x) => x.id === id);
          if (!c) throw new Damaged('scan names an unknown component');
          c.td = sel >> 4;
          c.ta = sel & 15;
          scomps.push(c);
        }
        if (store) {
          // G.1.1.1: each scan predicts its DC terms from 0 again
          for (const c of scomps) c.pred = 0;
          const sa = buf[seg + 3 + 2 * ns];
          const spec = { comps: scomps, ss: buf[seg + 1 + 2 * ns], se: buf[seg + 2 + 2 * ns], ah: sa >> 4, al: sa & 15 };
          const after = progressiveScan(buf, end, spec, store, dcTables, acTables, { width, height, hmax, vmax, restart }, outOfTime);
          if (after < 0) return { ok: false, error: 'out-of-time', message: 'the time budget ran out while decoding the scan image' };
          p = after;
          continue;
        }
        const after = (scale === 8 ? scanDc : scan)(
          buf,
          end,
          scomps,
          comps[0],
          qt,
          dcTables,
          acTables,
          restart,
          width,
          height,
          hmax,
          vmax,
          out,
          outOfTime,
          scale,
          blocks &&
            blocks.columns === Math.ceil(width / 8) &&
            blocks.rows === Math.ceil(height / 8) &&
            blocks.want.length >= blocks.columns * blocks.rows
            ? blocks
            : undefined,
          means,
        );
        if (after < 0) return { ok: false, error: 'out-of-time', message: 'the time budget ran out while decoding the scan image' };
        p = after;
        continue;
      }
      default:
        break;
    }
    p = end;
  }
  if (!out) throw new Damaged('no frame');
  if (store) {
    const q = qt[comps[0].tq];
    if (!q) throw new Damaged('missing quantisation table');
    const mask =
      blocks && blocks.columns === Math.ceil(width / 8) && blocks.rows === Math.ceil(height / 8) && blocks.want.length >= blocks.columns * blocks.rows
        ? blocks
        : undefined;
    if (!renderProgressive(store.coef, store.stride, store.columns, q, width, height, out, scale, mask, means, outOfTime))
      return { ok: false, error: 'out-of-time', message: 'the time budget ran out while decoding the scan image' };
  }
  const image = { width: Math.ceil(width / scale), height: Math.ceil(height / scale), data: out };
  if (means) return { ok: true, image, means: { width: Math.ceil(width / 8), height: Math.ceil(height / 8), data: means } };
  if (scale === 8 && withMeans) return { ok: true, image, means: image };
  return { ok: true, image };
}

/** Decodes one scan; returns the offset after its entropy-coded data, or -1 when time ran out. */
function scan(
  buf: Uint8Array,
  start: number,
  scomps: Component[],
  first: Component,
  qt: Int32Array[],
  dcT: (Huffman | undefined)[],
  acT: (Huffman | undefined)[],
  restart: number,
  width: number,
  height: number,
  hmax: number,
  vmax: number,
  out: Uint8Array,
  outOfTime: () => boolean,
  scale: number,
  blocks?: BlockMask,
  means?: Uint8Array,
): number {
  const COS = cosTable(scale);
  const mw = Math.ceil(width / 8);
  const mh = Math.ceil(height / 8);
  const m = 8 / scale;
  const ow = Math.ceil(width / scale);
  const oh = Math.ceil(height / scale);
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
          const nx = buf[pos + 1];
          if (nx === 0) pos += 2;
          else {
            hitMarker = true;
            b = 0;
          }
        } else pos++;
      }
      bits = (bits << 8) | b;
      nbits += 8;
    }
  };
  const getBits = (k: number): number => {
    if (k === 0) return 0;
    if (nbits < k) fill();
    nbits -= k;
    return (bits >>> nbits) & ((1 << k) - 1);
  };
  const decodeSym = (h: Huffman): number => {
    if (nbits < 16) fill();
    const look = (bits >>> (nbits - 9)) & 511;
    const f = h.fast[look];
    if (f !== 0) {
      nbits -= f >> 8;
      return f & 255;
    }
    const r = slowSym(h, bits, nbits);
    nbits -= r >> 8;
    return r & 255;
  };
  const extend = (v: number, t: number) => (v < 1 << (t - 1) ? v - (1 << t) + 1 : v);
  const coef = new Int32Array(64);
  const tmp = new Float64Array(64);
  const fillBlock = (x0: number, y0: number, val: number) => fillFlat(out, ow, oh, m, x0, y0, val);
  const lookMask = (1 << AC_LOOK) - 1;
  const multiMask = (1 << AC_MULTI) - 1;
  /** a block's AC symbols passed over: several at a time while they stay inside the block, then one, then the slow way */
  const skipAc = (ac: Huffman) => {
    const skip = ac.acSkip ?? (ac.acSkip = acSkipTable(ac, AC_LOOK));
    const multi = ac.acMulti ?? (ac.acMulti = acMultiTable(ac));
    for (let k = 1; k < 64;) {
      if (nbits < 16) fill();
      const mf = multi[(bits >>> (nbits - AC_MULTI)) & multiMask];
      if (mf !== 0 && k + ((mf >> 1) & 255) <= 63) {
        nbits -= mf >>> 9;
        if (mf & 1) return;
        k += (mf >> 1) & 255;
        continue;
      }
      const f = skip[(bits >>> (nbits - AC_LOOK)) & lookMask];
      if (f !== 0) {
        nbits -= f >> 7;
        if (f & 1) return;
        k += (f >> 1) & 63;
        continue;
      }
      const rs = decodeSym(ac);
      const r = rs >> 4;
      const sz = rs & 15;
      if (sz === 0) {
        if (r === 15) {
          k += 16;
          continue;
        }
        return;
      }
      getBits(sz);
      k += r + 1;
    }
  };
  const decodeBlock = (c: Component, store: boolean, bx: number, by: number) => {
    const dc = dcT[c.td];
    const ac = acT[c.ta];
    if (!dc || !ac) throw new Damaged('missing Huffman table');
    const t = decodeSym(dc);
    const diff = t === 0 ? 0 : extend(getBits(t), t);
    c.pred += diff;
    // a block of another component needs only its DC (the prediction): its AC symbols are skipped several at a time,
    // as the DC-only scan skips them
    if (!store) {
      skipAc(ac);
      return;
    }
    const q = qt[c.tq];
    if (!q) throw new Damaged('missing quantisation table');
    // the block's mean, as the DC-only scan has it (q/8 and the product are exact in binary)
    const mean = clamp(Math.round((c.pred * q[0]) / 8 + 128));
    if (means && bx < mw && by < mh) means[by * mw + bx] = mean;
    // nor does a block outside the caller's mask: it gets its mean
    if (blocks !== undefined && !(bx < blocks.columns && by < blocks.rows && blocks.want[by * blocks.columns + bx] !== 0)) {
      skipAc(ac);
      fillBlock(bx * m, by * m, mean);
      return;
    }
    coef.fill(0);
    coef[0] = c.pred;
    let allZero = true;
    // the rows (vertical frequencies) holding a coefficient, and the highest horizontal frequency held: the inverse
    // DCT skips the rest (their terms are zeros; leaving them out changes no sum)
    let rowMask = 1;
    let uMax = 0;
    const values = ac.acValues ?? (ac.acValues = acValueTable(ac));
    for (let k = 1; k < 64;) {
      // a symbol and its extra bits at once from the value table; the rest the slow way
      if (nbits < 16) fill();
      const e = values[(bits >>> (nbits - AC_VALUE_LOOK)) & AC_VALUE_MASK];
      let v: number;
      if (e !== 0) {
        nbits -= e & 31;
        const kind = (e >> 5) & 3;
        if (kind === AC_END) break;
        if (kind === AC_ZEROS) {
          k += 16;
          continue;
        }
        k += (e >> 8) & 15;
        if (k > 63) break;
        v = (e >>> 16) - 32768;
      } else {
        const rs = decodeSym(ac);
        const r = rs >> 4;
        const s = rs & 15;
        if (s === 0) {
          if (r === 15) {
            k += 16;
            continue;
          }
          break;
        }
        k += r;
        if (k > 63) break;
        v = extend(getBits(s), s);
      }
      const z = ZIGZAG[k];
      coef[z] = v;
      allZero = false;
      rowMask |= 1 << (z >> 3);
      if ((z & 7) > uMax) uMax = z & 7;
      k++;
    }
    const x0 = bx * m;
    const y0 = by * m;
    if (allZero) {
      fillBlock(x0, y0, mean);
      return;
    }
    for (let i = 0; i < 64; i++) coef[i] *= q[i];
    renderBlock(coef, rowMask, uMax, COS, tmp, out, ow, oh, m, x0, y0);
  };
  // the first component is stored only at full resolution (h = v = hmax = vmax): a subsampled Y is rare in scans
  const storeFirst = first.h === hmax && first.v === vmax;
  const resetRestart = () => {
    // skip to the RSTn marker, past it
    nbits = 0;
    bits = 0;
    if (hitMarker) hitMarker = false;
    while (pos < n && !(buf[pos] === 0xff && buf[pos + 1] >= 0xd0 && buf[pos + 1] <= 0xd7)) pos++;
    if (pos < n) pos += 2;
    for (const c of scomps) c.pred = 0;
  };
  let mcu = 0;
  if (scomps.length === 1) {
    const c = scomps[0];
    // a single-component scan covers the component's own size in blocks, not padded MCUs
    const bw = Math.ceil(Math.ceil((width * c.h) / hmax) / 8);
    const bh = Math.ceil(Math.ceil((height * c.v) / vmax) / 8);
    const store = c === first && storeFirst;
    for (let by = 0; by < bh; by++) {
      if (outOfTime()) return -1;
      for (let bx = 0; bx < bw; bx++) {
        if (restart && mcu > 0 && mcu % restart === 0) resetRestart();
        decodeBlock(c, store, bx, by);
        mcu++;
      }
    }
  } else {
    const mcusX = Math.ceil(width / (8 * hmax));
    const mcusY = Math.ceil(height / (8 * vmax));
    for (let my = 0; my < mcusY; my++) {
      if (outOfTime()) return -1;
      for (let mx = 0; mx < mcusX; mx++) {
        if (restart && mcu > 0 && mcu % restart === 0) resetRestart();
        for (const c of scomps) {
          const store = c === first && storeFirst;
          for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) decodeBlock(c, store, mx * c.h + h, my * c.v + v);
        }
        mcu++;
      }
    }
  }
  // find the next marker after the entropy-coded data
  while (pos < n && !(buf[pos] === 0xff && buf[pos + 1] !== 0 && !(buf[pos + 1] >= 0xd0 && buf[pos + 1] <= 0xd7))) pos++;
  return pos;
}

/** the output block at (x0, y0), m × m samples of an ow × oh image, one flat value (clipped to the image) */
function fillFlat(out: Uint8Array, ow: number, oh: number, m: number, x0: number, y0: number, val: number): void {
  for (let y = 0; y < m; y++) {
    const yy = y0 + y;
    if (yy >= oh) break;
    const row = yy * ow;
    for (let x = 0; x < m && x0 + x < ow; x++) out[row + x0 + x] = val;
  }
}

/**
 * A block's dequantised coefficients (row-major; `rowMask` the rows holding any, `uMax` the highest horizontal
 * frequency held) through the inverse DCT into the m × m samples at (x0, y0) of an ow × oh image (m = 8 / scale, the
 * cos table COS of that scale).
 */
function renderBlock(
  coef: Int32Array,
  rowMask: number,
  uMax: number,
  COS: Float64Array,
  tmp: Float64Array,
  out: Uint8Array,
  ow: number,
  oh: number,
  m: number,
  x0: number,
  y0: number,
): void {
  if (m === 8 && x0 + 8 <= ow && y0 + 8 <= oh) {
    idct8(coef, rowMask, COS, tmp, out, y0 * ow + x0, ow);
    return;
  }
  // rows: tmp[v][x] = Σu C[x][u] F[v][u] (F row-major: v the vertical frequency), for the rows holding coefficients
  for (let v = 0; v < 8; v++) {
    if (!((rowMask >> v) & 1)) continue;
    for (let x = 0; x < m; x++) {
      let s = 0;
      for (let u = 0; u <= uMax; u++) s += COS[x * 8 + u] * coef[v * 8 + u];
      tmp[v * 8 + x] = s;
    }
  }
  for (let x = 0; x < m; x++) {
    const xx = x0 + x;
    if (xx >= ow) break;
    for (let y = 0; y < m; y++) {
      const yy = y0 + y;
      if (yy >= oh) break;
      let s = 0;
      for (let v = 0; v < 8; v++) if ((rowMask >> v) & 1) s += COS[y * 8 + v] * tmp[v * 8 + x];
      out[yy * ow + xx] = clamp(Math.round(s + 128));
    }
  }
}

/**
 * A progressive image's first component rendered from its coefficients (quantised, `stride` per block: 64, or 1 when
 * only the DC terms were kept) as a baseline scan renders its blocks: the block means into `means` (when given), and
 * into `out` the image at `scale` (8: the means themselves), blocks outside the caller's mask flat at their mean.
 */
function renderProgressive(
  coefs: Int16Array,
  stride: number,
  columns: number,
  q: Int32Array,
  width: number,
  height: number,
  out: Uint8Array,
  scale: number,
  blocks: BlockMask | undefined,
  means: Uint8Array | undefined,
  outOfTime: () => boolean,
): boolean {
  const mw = Math.ceil(width / 8);
  const mh = Math.ceil(height / 8);
  const m = 8 / scale;
  const ow = Math.ceil(width / scale);
  const oh = Math.ceil(height / scale);
  const COS = cosTable(scale);
  const coef = new Int32Array(64);
  const tmp = new Float64Array(64);
  for (let by = 0; by < mh; by++) {
    if (outOfTime()) return false;
    for (let bx = 0; bx < mw; bx++) {
      const o = (by * columns + bx) * stride;
      const mean = clamp(Math.round((coefs[o] * q[0]) / 8 + 128));
      if (means) means[by * mw + bx] = mean;
      if (stride === 1 || (blocks !== undefined && !(bx < blocks.columns && by < blocks.rows && blocks.want[by * blocks.columns + bx] !== 0))) {
        fillFlat(out, ow, oh, m, bx * m, by * m, mean);
        continue;
      }
      let rowMask = 0;
      let uMax = 0;
      for (let i = 0; i < 64; i++) {
        const c = coefs[o + i];
        coef[i] = c * q[i];
        if (c !== 0) {
          rowMask |= 1 << (i >> 3);
          if ((i & 7) > uMax) uMax = i & 7;
        }
      }
      if (rowMask <= 1 && uMax === 0) fillFlat(out, ow, oh, m, bx * m, by * m, mean);
      else renderBlock(coef, rowMask | 1, uMax, COS, tmp, out, ow, oh, m, bx * m, by * m);
    }
  }
  return true;
}

/**
 * The lookahead of the AC skip table: bits looked at once. An entry is (bits consumed << 7) | (coefficients advanced
 * << 1) for a symbol whose code and extra bits both fit in it, (bits consumed << 7) | 1 for end of block; 0 sends the
 * decoder the slow way.
 */
const AC_LOOK = 11;

function acSkipTable(h: Huffman, look = AC_LOOK): Uint16Array {
  const t = new Uint16Array(1 << look);
  forEachCode(h, look, (rs, len, code) => {
    const s = rs & 15;
    const r = rs >> 4;
    let entry: number;
    if (s === 0 && r !== 15) entry = (len << 7) | 1;
    else if (s === 0) entry = (len << 7) | (16 << 1);
    else if (len + s <= look) entry = ((len + s) << 7) | ((r + 1) << 1);
    else return;
    const shift = look - len;
    const base = code << shift;
    for (let j = 0; j < 1 << shift; j++) t[base + j] = entry;
  });
  return t;
}

/**
 * The full-size inverse DCT of one dequantised block into out (row stride `stride`, from `at`), by rows then columns,
 * each 8-point transform split into its even and odd halves: C[7 − x][u] = (−1)^u C[x][u], so out[x] = E + O and
 * out[7 − x] = E − O with E over the even frequencies and O over the odd ones (half the multiplications of the
 * direct sums; the same values to rounding). Rows without a coefficient (rowMask) are zeros.
 */
function idct8(coef: Int32Array, rowMask: number, C: Float64Array, tmp: Float64Array, out: Uint8Array, at: number, stride: number): void {
  for (let v = 0; v < 8; v++) {
    const r = v * 8;
    if (!((rowMask >> v) & 1)) {
      tmp.fill(0, r, r + 8);
      continue;
    }
    const f0 = coef[r];
    const f1 = coef[r + 1];
    const f2 = coef[r + 2];
    const f3 = coef[r + 3];
    const f4 = coef[r + 4];
    const f5 = coef[r + 5];
    const f6 = coef[r + 6];
    const f7 = coef[r + 7];
    for (let x = 0; x < 4; x++) {
      const c = x * 8;
      const e = C[c] * f0 + C[c + 2] * f2 + C[c + 4] * f4 + C[c + 6] * f6;
      const o = C[c + 1] * f1 + C[c + 3] * f3 + C[c + 5] * f5 + C[c + 7] * f7;
      tmp[r + x] = e + o;
      tmp[r + 7 - x] = e - o;
    }
  }
  for (let x = 0; x < 8; x++) {
    const g0 = tmp[x];
    const g1 = tmp[8 + x];
    const g2 = tmp[16 + x];
    const g3 = tmp[24 + x];
    const g4 = tmp[32 + x];
    const g5 = tmp[40 + x];
    const g6 = tmp[48 + x];
    const g7 = tmp[56 + x];
    for (let y = 0; y < 4; y++) {
      const c = y * 8;
      const e = C[c] * g0 + C[c + 2] * g2 + C[c + 4] * g4 + C[c + 6] * g6 + 128;
      const o = C[c + 1] * g1 + C[c + 3] * g3 + C[c + 5] * g5 + C[c + 7] * g7;
      out[at + y * stride + x] = clamp(Math.round(e + o));
      out[at + (7 - y) * stride + x] = clamp(Math.round(e - o));
    }
  }
}

/** bits the AC value table looks at once */
const AC_VALUE_LOOK = 11;
const AC_VALUE_MASK = (1 << AC_VALUE_LOOK) - 1;
/** kinds of AC value table entries: a coefficient, the end of the block, a run of 16 zeros */
const AC_VALUE = 1;
const AC_END = 2;
const AC_ZEROS = 3;

/**
 * Every AC symbol whose code and extra bits fit in AC_VALUE_LOOK bits, decoded: an entry is ((value + 32768) << 16) |
 * (zeros before it << 8) | (kind << 5) | bits consumed; 0 when the symbol does not fit (the decoder then reads it the
 * slow way).
 */
function acValueTable(h: Huffman): Uint32Array {
  const look = AC_VALUE_LOOK;
  const t = new Uint32Array(1 << look);
  forEachCode(h, look, (rs, len, code) => {
    const s = rs & 15;
    const r = rs >> 4;
    const shift = look - len;
    const base = code << shift;
    if (s === 0) {
      const entry = ((r === 15 ? AC_ZEROS : AC_END) << 5) | len;
      for (let j = 0; j < 1 << shift; j++) t[base + j] = entry;
      return;
    }
    if (len + s > look) return;
    for (let j = 0; j < 1 << shift; j++) {
      const extra = (j >> (shift - s)) & ((1 << s) - 1);
      const v = extra < 1 << (s - 1) ? extra - (1 << s) + 1 : extra;
      t[base + j] = (((v + 32768) << 16) >>> 0) + ((r << 8) | (AC_VALUE << 5) | (len + s));
    }
  });
  return t;
}

/** bits the multi-symbol AC table looks at once */
const AC_MULTI = 12;

/**
 * Every AC symbol (code and extra bits) that fits whole in the next AC_MULTI bits, taken at once: an entry is
 * (bits consumed << 9) | (coefficients advanced << 1) | (1 when the last is end of block); 0 when not even one fits.
 * The decoder applies an entry only when its coefficients stay inside the block.
 */
function acMultiTable(h: Huffman): Uint32Array {
  const one = acSkipTable(h, AC_MULTI);
  const size = 1 << AC_MULTI;
  const t = new Uint32Array(size);
  for (let v = 0; v < size; v++) {
    let used = 0;
    let adv = 0;
    let eob = 0;
    while (used < AC_MULTI && adv < 64) {
      const e = one[(v << used) & (size - 1)];
      if (e === 0 || e >> 7 > AC_MULTI - used) break;
      used += e >> 7;
      if (e & 1) {
        eob = 1;
        break;
      }
      adv += (e >> 1) & 63;
    }
    if (used > 0) t[v] = (used << 9) | (adv << 1) | eob;
  }
  return t;
}

/** Calls visit(symbol, code length, code) for each symbol of h whose code is at most `look` bits long, in code order. */
function forEachCode(h: Huffman, look: number, visit: (rs: number, len: number, code: number) => void): void {
  let code = 0;
  let k = 0;
  for (let len = 1; len <= look; len++) {
    const count = k < h.values.length ? countOfLength(h, len) : 0;
    for (let i = 0; i < count; i++, code++, k++) visit(h.values[k], len, code);
    code <<= 1;
  }
}

function countOfLength(h: Huffman, len: number): number {
  return h.maxCode[len] >= 0 ? h.maxCode[len] - h.minCode[len] + 1 : 0;
}

/** slowSymbol, a file's damage when no code matches */
function slowSym(h: Huffman, bits: number, nbits: number): number {
  const r = slowSymbol(h, bits, nbits);
  if (r < 0) throw new Damaged('bad Huffman code');
  return r;
}

/**
 * Decodes one scan for its DC terms only (scale 8: one sample per block of the first component, the block's mean).
 * The entropy-coded data is read in place (stuffed zero bytes skipped, reading stopped at markers); each block's DC
 * difference is decoded and its AC symbols skipped through acSkipTable. Returns the offset after the data, or -1 when
 * time ran out.
 */
function scanDc(
  buf: Uint8Array,
  start: number,
  scomps: Component[],
  first: Component,
  qt: Int32Array[],
  dcT: (Huffman | undefined)[],
  acT: (Huffman | undefined)[],
  restart: number,
  width: number,
  height: number,
  hmax: number,
  vmax: number,
  out: Uint8Array,
  outOfTime: () => boolean,
): number {
  const n = buf.length;
  const q = qt[first.tq];
  if (!q) throw new Damaged('missing quantisation table');
  const q0 = q[0] / 8;
  const ow = Math.ceil(width / 8);
  const oh = Math.ceil(height / 8);
  const storeFirst = first.h === hmax && first.v === vmax;
  const tables = scomps.map((c) => {
    const dc = dcT[c.td];
    const ac = acT[c.ta];
    if (!dc || !ac) throw new Damaged('missing Huffman table');
    return { dc, ac, skip: acSkipTable(ac), multi: acMultiTable(ac) };
  });
  // the blocks of one MCU: table index, component index, offset in the MCU (bx, by), stored or not
  const single = scomps.length === 1;
  const plan: { ti: number; dx: number; dy: number; store: boolean }[] = [];
  if (single) plan.push({ ti: 0, dx: 0, dy: 0, store: scomps[0] === first && storeFirst });
  else
    scomps.forEach((c, ti) => {
      for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) plan.push({ ti, dx: h, dy: v, store: c === first && storeFirst });
    });
  const c0 = scomps[0];
  const mcusX = single ? Math.ceil(Math.ceil((width * c0.h) / hmax) / 8) : Math.ceil(width / (8 * hmax));
  const mcusY = single ? Math.ceil(Math.ceil((height * c0.v) / vmax) / 8) : Math.ceil(height / (8 * vmax));
  const stepX = single ? 1 : first.h;
  const stepY = single ? 1 : first.v;
  const preds = new Int32Array(scomps.length);
  const lookMask = (1 << AC_LOOK) - 1;
  const multiMask = (1 << AC_MULTI) - 1;
  // the entropy-coded data is read in place: a stuffed 0xFF00 is one 0xFF byte; at a marker (a restart or the end)
  // reading stops (`end` moves there) and zeros are fed until the next restart moves past it
  let p = start;
  let end = n;
  let bits = 0;
  let nbits = 0;
  let mcu = 0;
  for (let my = 0; my < mcusY; my++) {
    if (outOfTime()) return -1;
    for (let mx = 0; mx < mcusX; mx++) {
      if (restart && mcu > 0 && mcu % restart === 0) {
        // past the next restart marker
        while (p + 1 < n && !(buf[p] === 0xff && buf[p + 1] >= 0xd0 && buf[p + 1] <= 0xd7)) p++;
        p = Math.min(n, p + 2);
        end = n;
        bits = 0;
        nbits = 0;
        preds.fill(0);
      }
      mcu++;
      for (let bi = 0; bi < plan.length; bi++) {
        const pl = plan[bi];
        const tb = tables[pl.ti];
        // DC difference
        while (nbits <= 24) {
          let byte = 0;
          if (p < end) {
            byte = buf[p++];
            if (byte === 0xff) {
              if (p < n && buf[p] === 0) p++;
              else {
                // a marker: stop before it
                byte = 0;
                end = --p;
              }
            }
          }
          bits = ((bits << 8) | byte) >>> 0;
          nbits += 8;
        }
        let f = tb.dc.fast[(bits >>> (nbits - 9)) & 511];
        let t: number;
        if (f !== 0) {
          nbits -= f >> 8;
          t = f & 255;
        } else {
          const r = slowSym(tb.dc, bits, nbits);
          nbits -= r >> 8;
          t = r & 255;
        }
        if (t !== 0) {
          if (t > 16) throw new Damaged('bad DC size');
          if (nbits < t) {
            while (nbits <= 24) {
              let byte = 0;
              if (p < end) {
                byte = buf[p++];
                if (byte === 0xff) {
                  if (p < n && buf[p] === 0) p++;
                  else {
                    // a marker: stop before it
                    byte = 0;
                    end = --p;
                  }
                }
              }
              bits = ((bits << 8) | byte) >>> 0;
              nbits += 8;
            }
          }
          nbits -= t;
          const v = (bits >>> nbits) & ((1 << t) - 1);
          preds[pl.ti] += v < 1 << (t - 1) ? v - (1 << t) + 1 : v;
        }
        // AC symbols, skipped
        const skip = tb.skip;
        const multi = tb.multi;
        for (let k = 1; k < 64;) {
          if (nbits < 16) {
            while (nbits <= 24) {
              let byte = 0;
              if (p < end) {
                byte = buf[p++];
                if (byte === 0xff) {
                  if (p < n && buf[p] === 0) p++;
                  else {
                    // a marker: stop before it
                    byte = 0;
                    end = --p;
                  }
                }
              }
              bits = ((bits << 8) | byte) >>> 0;
              nbits += 8;
            }
          }
          // several symbols at once while they stay inside the block
          const mf = multi[(bits >>> (nbits - AC_MULTI)) & multiMask];
          if (mf !== 0 && k + ((mf >> 1) & 255) <= 63) {
            nbits -= mf >>> 9;
            if (mf & 1) break;
            k += (mf >> 1) & 255;
            continue;
          }
          f = skip[(bits >>> (nbits - AC_LOOK)) & lookMask];
          if (f !== 0) {
            nbits -= f >> 7;
            if (f & 1) break;
            k += (f >> 1) & 63;
            continue;
          }
          // a long code or many extra bits
          const g = tb.ac.fast[(bits >>> (nbits - 9)) & 511];
          let rs: number;
          if (g !== 0) {
            nbits -= g >> 8;
            rs = g & 255;
          } else {
            const r = slowSym(tb.ac, bits, nbits);
            nbits -= r >> 8;
            rs = r & 255;
          }
          const sz = rs & 15;
          if (sz === 0) {
            if (rs >> 4 !== 15) break;
            k += 16;
            continue;
          }
          k += (rs >> 4) + 1;
          if (nbits < sz) {
            while (nbits <= 24) {
              let byte = 0;
              if (p < end) {
                byte = buf[p++];
                if (byte === 0xff) {
                  if (p < n && buf[p] === 0) p++;
                  else {
                    // a marker: stop before it
                    byte = 0;
                    end = --p;
                  }
                }
              }
              bits = ((bits << 8) | byte) >>> 0;
              nbits += 8;
            }
          }
          nbits -= sz;
        }
        if (pl.store) {
          const bx = mx * stepX + pl.dx;
          const by = my * stepY + pl.dy;
          if (bx < ow && by < oh) out[by * ow + bx] = clamp(Math.round(preds[pl.ti] * q0 + 128));
        }
      }
    }
  }
  // the offset after the entropy-coded data: the next marker that is not a restart
  let pos = p;
  while (pos < n) {
    if (buf[pos] !== 0xff) {
      pos++;
      continue;
    }
    const nx = pos + 1 < n ? buf[pos + 1] : 0xd9;
    if (nx === 0 || (nx >= 0xd0 && nx <= 0xd7)) pos += 2;
    else if (nx === 0xff) pos++;
    else break;
  }
  return pos;
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}
