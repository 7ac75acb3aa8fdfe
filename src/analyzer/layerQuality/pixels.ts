/**
 * Scans that are not JPEG: the samples of a decoded Flate, LZW, unfiltered or CCITT fax image as the score keeps them
 * (gray, or a bilevel scan's bits), and the two reductions the ink map and the letter shapes read (8×8 block means,
 * and a box-averaged smaller copy for a scan of more resolution than the letters need). Pure.
 */
import type { GrayImage } from './jpeg';

/**
 * A scan decoded for the score: gray pixels, or a bilevel scan kept as its packed rows (1 bit a pixel, most significant
 * first, rows byte-aligned) with the gray of a 0 and of a 1 bit. A bilevel page is read only reduced (reduceScan), so
 * it never becomes gray at full size: an eighth of the memory, and its block sums come from whole bytes.
 */
export type DecodedScan = GrayImage | BilevelScan;

export interface BilevelScan {
  width: number;
  height: number;
  /** the packed rows, ceil(width / 8) bytes each */
  bits: Uint8Array;
  /** the gray a 0 bit and a 1 bit read as (the palette's or /Decode's: 0 and 255, or 255 and 0, or a palette's two entries) */
  zero: number;
  one: number;
}

export const isBilevel = (s: DecodedScan): s is BilevelScan => 'bits' in s;

/** set bits of every byte */
const POPCOUNT = new Uint8Array(256).map((_, b) => {
  let n = 0;
  for (let v = b; v; v >>= 1) n += v & 1;
  return n;
});

/**
 * The scan reduced by `s` each way (each pixel the mean of its s × s block, partial blocks at the edges too; s = 1
 * the scan itself in gray). A bilevel scan's blocks are counted from its bits for s = 2, 4 and 8 (the same means
 * boxReduce gives its gray image), and expanded to gray otherwise.
 */
export function reduceScan(scan: DecodedScan, s: number): GrayImage {
  if (!isBilevel(scan)) return boxReduce(scan, s);
  if (s !== 2 && s !== 4 && s !== 8) return boxReduce(bilevelGray(scan), s);
  const { width: w, height: h, bits, zero, one } = scan;
  const rowBytes = (w + 7) >> 3;
  const W = Math.ceil(w / s);
  const H = Math.ceil(h / s);
  // each byte holds 8 / s blocks' bits of a row: block k of a byte is its bits [k·s, (k + 1)·s)
  const per = 8 / s;
  const masks = Array.from({ length: per }, (_, k) => ((0xff >> (8 - s)) << (8 - s * (k + 1))) & 0xff);
  const ones = new Uint32Array(W);
  const out = new Uint8Array(W * H);
  // the last byte's bits past the width are no pixels
  const tail = w & 7 ? (0xff << (8 - (w & 7))) & 0xff : 0xff;
  for (let Y = 0; Y < H; Y++) {
    ones.fill(0);
    const y0 = Y * s;
    const y1 = Math.min(h, y0 + s);
    for (let y = y0; y < y1; y++) {
      const row = y * rowBytes;
      for (let i = 0; i < rowBytes; i++) {
        const b = i === rowBytes - 1 ? bits[row + i] & tail : bits[row + i];
        if (b === 0) continue;
        for (let k = 0, X = i * per; k < per && X < W; k++, X++) ones[X] += POPCOUNT[b & masks[k]];
      }
    }
    const rows = y1 - y0;
    for (let X = 0; X < W; X++) {
      const n = (Math.min(w, (X + 1) * s) - X * s) * rows;
      out[Y * W + X] = Math.round((ones[X] * one + (n - ones[X]) * zero) / n);
    }
  }
  return { width: W, height: H, data: out };
}

/**
 * The samples as the score keeps them: a bilevel image (1 bit of gray or of a two-entry palette) as its bits, any
 * other in gray (grayFromSamples); undefined when too few bytes.
 */
export function decodedScan(data: Uint8Array, l: SampleLayout): DecodedScan | undefined {
  if (l.bitsPerComponent !== 1) return grayFromSamples(data, l);
  if (!(l.width > 0 && l.height > 0) || data.length < ((l.width + 7) >> 3) * l.height) return undefined;
  const [zero, one] = l.palette ? [l.palette[0], l.palette[1] ?? l.palette[0]] : l.inverted ? [255, 0] : [0, 255];
  return { width: l.width, height: l.height, bits: data, zero, one };
}

/** a bilevel scan in gray at full size */
function bilevelGray(scan: BilevelScan): GrayImage {
  return grayFromSamples(scan.bits, {
    width: scan.width,
    height: scan.height,
    components: 1,
    bitsPerComponent: 1,
    inverted: false,
    palette: new Uint8Array([scan.zero, scan.one]),
  })!;
}

/** how an image's samples are laid out, as far as the score reads them */
export interface SampleLayout {
  width: number;
  height: number;
  /** 1 (gray, or a palette's index) or 3 (RGB) */
  components: 1 | 3;
  /** 8 or 16 (read to its high byte), or 1, 2 or 4 (gray or a palette's index only: bilevel, 4- and 16-level scans) */
  bitsPerComponent: 1 | 2 | 4 | 8 | 16;
  /** the image's /Decode array inverts the samples ([1 0]: 0 is white) */
  inverted: boolean;
  /** an /Indexed image's palette as gray, one entry an index (the samples are indices) */
  palette?: Uint8Array;
}

/** Rec. 601 luma in integers */
export const luma = (r: number, g: number, b: number): number => (r * 77 + g * 150 + b * 29) >> 8;

/**
 * The samples as an 8-bit gray image (RGB by its luminance, fewer bits scaled to 0..255, 16 bits by their high byte,
 * a palette's indices by their entries' gray), or undefined when too few bytes.
 */
export function grayFromSamples(data: Uint8Array, l: SampleLayout): GrayImage | undefined {
  const { width: w, height: h, components: n, bitsPerComponent: bpc, inverted, palette } = l;
  const rowBytes = bpc >= 8 ? (w * n * bpc) / 8 : Math.ceil((w * bpc) / 8);
  if (!(w > 0 && h > 0) || data.length < rowBytes * h) return undefined;
  const out = new Uint8Array(w * h);
  // what a sample value reads as: its palette entry, or its level scaled to 0..255 (n = 1 only)
  let levels: Uint8Array | undefined = palette;
  if (!levels && bpc < 8) {
    const max = (1 << bpc) - 1;
    levels = new Uint8Array(max + 1).map((_, v) => Math.round((v * 255) / max));
  }
  if (levels && inverted) levels = levels.map((v) => 255 - v);
  for (let y = 0; y < h; y++) {
    const row = y * rowBytes;
    const o = y * w;
    if (bpc === 1 && levels) {
      // a byte at a time: a bilevel page is millions of pixels
      const [zero, one] = [levels[0], levels[1] ?? levels[0]];
      const whole = w >> 3;
      for (let i = 0, x = o; i < whole; i++, x += 8) {
        const b = data[row + i];
        out[x] = b & 0x80 ? one : zero;
        out[x + 1] = b & 0x40 ? one : zero;
        out[x + 2] = b & 0x20 ? one : zero;
        out[x + 3] = b & 0x10 ? one : zero;
        out[x + 4] = b & 0x08 ? one : zero;
        out[x + 5] = b & 0x04 ? one : zero;
        out[x + 6] = b & 0x02 ? one : zero;
        out[x + 7] = b & 0x01 ? one : zero;
      }
      for (let x = whole * 8; x < w; x++) out[o + x] = (data[row + (x >> 3)] >> (7 - (x & 7))) & 1 ? one : zero;
    } else if (levels) {
      const mask = (1 << bpc) - 1;
      const top = levels.length - 1;
      for (let x = 0; x < w; x++) {
        const bit = x * bpc;
        const v = (data[row + (bit >> 3)] >> (8 - bpc - (bit & 7))) & mask;
        // an index past the palette's end reads as its last entry (the PDF reference's clamp)
        out[o + x] = levels[v > top ? top : v];
      }
    } else if (bpc === 16) {
      // a sample's high byte: the eight bits below it are finer than any ink the score looks for
      if (n === 1) for (let x = 0, i = row; x < w; x++, i += 2) out[o + x] = data[i];
      else for (let x = 0, i = row; x < w; x++, i += 6) out[o + x] = luma(data[i], data[i + 2], data[i + 4]);
      if (inverted) for (let x = 0; x < w; x++) out[o + x] = 255 - out[o + x];
    } else {
      if (n === 1) out.set(data.subarray(row, row + w), o);
      else for (let x = 0, i = row; x < w; x++, i += 3) out[o + x] = luma(data[i], data[i + 1], data[i + 2]);
      if (inverted) for (let x = 0; x < w; x++) out[o + x] = 255 - out[o + x];
    }
  }
  return { width: w, height: h, data: out };
}

/** The image reduced by `s` each way (each pixel the mean of its s × s block; partial blocks at the edges too). */
export function boxReduce(img: GrayImage, s: number): GrayImage {
  if (s <= 1) return img;
  const { width: w, height: h, data } = img;
  const W = Math.ceil(w / s);
  const H = Math.ceil(h / s);
  // each column's block, worked out once (no division a pixel: this is a full pass over the scan)
  const colOf = new Int32Array(w);
  for (let x = 0; x < w; x++) colOf[x] = (x / s) | 0;
  const lastW = w - (W - 1) * s;
  const sum = new Uint32Array(W);
  const out = new Uint8Array(W * H);
  for (let Y = 0; Y < H; Y++) {
    sum.fill(0);
    const y0 = Y * s;
    const y1 = Math.min(h, y0 + s);
    for (let y = y0; y < y1; y++) for (let x = 0, i = y * w; x < w; x++, i++) sum[colOf[x]] += data[i];
    const rows = y1 - y0;
    for (let X = 0; X < W; X++) out[Y * W + X] = Math.round(sum[X] / ((X < W - 1 ? s : lastW) * rows));
  }
  return { width: W, height: H, data: out };
}
