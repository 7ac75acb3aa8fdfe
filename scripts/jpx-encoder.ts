/**
 * TEST ONLY: a minimal lossless JPEG 2000 encoder (ITU-T T.800 | ISO/IEC 15444-1) for one 8-bit gray component, so
 * that the decoder (src/analyzer/layerQuality/jpx.ts) can be checked against images whose every sample is known, and
 * the fuzzer has a JPEG 2000 scan to mutate. One tile, one quality layer, LRCP, the reversible 5/3 wavelet, 64 × 64
 * code-blocks with every pass, default precincts (one per resolution): the codestream's markers, the packets' tier-2
 * headers (tag trees, pass counts, lengths) written here from Annex B, tier 1 by scripts/jpx-block-encoder.ts and the
 * wavelet by scripts/wavelet-forward.ts. Optionally wrapped in a minimal JP2 file (Annex I).
 *
 * Written from the recommendation, sharing no code with the decoder; test/jpx-encoder.test.ts checks its output against
 * OpenJPEG's opj_decompress as well as ours, since a misreading shared by this encoder and our decoder would otherwise
 * pass unseen.
 */
import type { JpxBand } from '../src/analyzer/layerQuality/jpxBlock';
import { encodeCodeBlock } from './jpx-block-encoder';
import { analyze2d } from './wavelet-forward';

/** Bits most significant first, with T.800 B.10.1's stuffing: after a 0xFF byte only 7 bits go into the next byte. */
class HeaderWriter {
  private readonly out: number[] = [];
  private byte = 0;
  private n = 0;
  private room = 8;
  bit(b: number): void {
    this.byte = (this.byte << 1) | b;
    if (++this.n === this.room) this.emit();
  }
  bits(v: number, count: number): void {
    for (let k = count - 1; k >= 0; k--) this.bit(Math.floor(v / 2 ** k) % 2);
  }
  private emit(): void {
    this.out.push(this.byte);
    this.room = this.byte === 0xff ? 7 : 8;
    this.byte = 0;
    this.n = 0;
  }
  /**
   * The header padded with 0s to a byte; a header may not end in 0xFF (B.10.1), so a stuffed byte follows one, which
   * is also what the decoder skips.
   */
  finish(): number[] {
    if (this.n > 0) {
      this.byte <<= this.room - this.n;
      this.emit();
    }
    if (this.out[this.out.length - 1] === 0xff) this.out.push(0);
    return this.out;
  }
}

/** A tag tree (B.10.2) over a w × h grid of leaf values, each node the minimum of its children, coded incrementally. */
class TagTreeEncoder {
  private readonly w: number[] = [];
  private readonly value: number[][] = [];
  private readonly cur: number[][] = [];
  private readonly known: boolean[][] = [];
  constructor(leaves: number[], w: number, h: number) {
    let level = leaves;
    for (;;) {
      this.w.push(w);
      this.value.push(level);
      this.cur.push(level.map(() => 0));
      this.known.push(level.map(() => false));
      if (w <= 1 && h <= 1) break;
      const pw = Math.ceil(w / 2);
      const ph = Math.ceil(h / 2);
      const parent = new Array<number>(pw * ph).fill(Infinity);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) parent[(y >> 1) * pw + (x >> 1)] = Math.min(parent[(y >> 1) * pw + (x >> 1)], level[y * w + x]);
      level = parent;
      w = pw;
      h = ph;
    }
  }
  /** the bits that tell whether leaf (x, y)'s value is below `threshold`, and which it is if so, root first */
  encode(out: HeaderWriter, x: number, y: number, threshold: number): void {
    let low = 0;
    for (let k = this.w.length - 1; k >= 0; k--) {
      const i = (y >> k) * this.w[k] + (x >> k);
      if (this.cur[k][i] < low) this.cur[k][i] = low;
      while (!this.known[k][i] && this.cur[k][i] < threshold) {
        if (this.cur[k][i] >= this.value[k][i]) {
          out.bit(1);
          this.known[k][i] = true;
        } else {
          out.bit(0);
          this.cur[k][i]++;
        }
      }
      low = this.cur[k][i];
    }
  }
}

/** B.10.6's codewords for the number of coding passes, 1 to 164 */
function writePassCount(out: HeaderWriter, n: number): void {
  if (n === 1) out.bit(0);
  else if (n === 2) out.bits(0b10, 2);
  else if (n <= 5) out.bits((0b11 << 2) | (n - 3), 4);
  else if (n <= 36) out.bits((0b1111 << 5) | (n - 6), 9);
  else out.bits((0b111111111 << 7) | (n - 37), 16);
}

interface BandData {
  kind: JpxBand;
  w: number;
  h: number;
  coeffs: ArrayLike<number>;
}

const CB = 64;
const GAIN: Record<JpxBand, number> = { LL: 0, HL: 1, LH: 1, HH: 2 };
const PRECISION = 8;

const bitLength = (m: number) => 32 - Math.clz32(m);

/** One packet (the only layer of one resolution's only precinct): header then body, as bytes. */
function packet(bands: BandData[], mb: (kind: JpxBand) => number): number[] {
  const hw = new HeaderWriter();
  const body: number[] = [];
  const perBand = bands.map((b) => {
    const cw = Math.ceil(b.w / CB);
    const ch = Math.ceil(b.h / CB);
    const blocks: { planes: number; data: Uint8Array; passes: number }[] = [];
    for (let j = 0; j < ch; j++)
      for (let i = 0; i < cw; i++) {
        const bw = Math.min(CB, b.w - i * CB);
        const bh = Math.min(CB, b.h - j * CB);
        const values = new Array<number>(bw * bh);
        let max = 0;
        for (let y = 0; y < bh; y++)
          for (let x = 0; x < bw; x++) {
            const v = b.coeffs[(j * CB + y) * b.w + i * CB + x];
            values[y * bw + x] = v;
            max = Math.max(max, Math.abs(v));
          }
        const planes = bitLength(max);
        if (planes === 0) blocks.push({ planes, data: new Uint8Array(0), passes: 0 });
        else blocks.push({ planes, data: encodeCodeBlock(values, bw, bh, b.kind, planes).block.data, passes: 3 * planes - 2 });
      }
    return { b, cw, ch, blocks };
  });
  const any = perBand.some((p) => p.blocks.some((blk) => blk.passes > 0));
  hw.bit(any ? 1 : 0);
  if (any) {
    for (const { b, cw, ch, blocks } of perBand) {
      if (blocks.length === 0) continue;
      const m = mb(b.kind);
      // an all-zero block is never included: its inclusion leaf is past the one layer; its zero bit-planes leaf is
      // never read, so any value that keeps the tree a min-tree will do
      const inclusion = new TagTreeEncoder(
        blocks.map((blk) => (blk.passes > 0 ? 0 : 1)),
        cw,
        ch,
      );
      const zero = new TagTreeEncoder(
        blocks.map((blk) => (blk.passes > 0 ? m - blk.planes : m)),
        cw,
        ch,
      );
      for (let j = 0; j < ch; j++)
        for (let i = 0; i < cw; i++) {
          const blk = blocks[j * cw + i];
          inclusion.encode(hw, i, j, 1);
          if (blk.passes === 0) continue;
          zero.encode(hw, i, j, Infinity);
          writePassCount(hw, blk.passes);
          // Lblock starts at 3; the fewest increments that make the length fit Lblock + ⌊log2 passes⌋ bits
          const extra = Math.floor(Math.log2(blk.passes));
          let lblock = 3;
          while (blk.data.length >= 2 ** (lblock + extra)) {
            hw.bit(1);
            lblock++;
          }
          hw.bit(0);
          hw.bits(blk.data.length, lblock + extra);
          body.push(...blk.data);
        }
    }
  }
  return [...hw.finish(), ...body];
}

const u16 = (v: number) => [(v >> 8) & 0xff, v & 0xff];
const u32 = (v: number) => [(v >>> 24) & 0xff, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff];
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const box = (type: string, content: number[]) => [...u32(8 + content.length), ...ascii(type), ...content];

/**
 * A lossless JPEG 2000 codestream of the row-major 8-bit `gray` (or, with `jp2`, a JP2 file holding it), with `levels`
 * wavelet decompositions (default 5).
 */
export function encodeJpx(gray: Uint8Array, width: number, height: number, opts: { levels?: number; jp2?: boolean } = {}): Uint8Array {
  const levels = opts.levels ?? 5;
  if (!(width >= 1 && height >= 1 && gray.length === width * height)) throw new Error(`bad image size ${width} × ${height}`);
  if (!(levels >= 0 && levels <= 32)) throw new Error(`bad levels ${levels}`);

  // the forward transform level by level: each level's bands, the last LL; the DC shift makes the samples signed
  // (T.800 G.1)
  const resolutions: BandData[][] = [];
  let ll: ArrayLike<number> = Array.from(gray, (v) => v - 128);
  let w = width;
  let h = height;
  for (let l = 0; l < levels; l++) {
    const s = analyze2d(ll, 0, 0, w, h, true);
    const lw = Math.ceil(w / 2);
    const lh = Math.ceil(h / 2);
    const hw = Math.floor(w / 2);
    const hh = Math.floor(h / 2);
    resolutions.unshift([
      { kind: 'HL', w: hw, h: lh, coeffs: s.hl },
      { kind: 'LH', w: lw, h: hh, coeffs: s.lh },
      { kind: 'HH', w: hw, h: hh, coeffs: s.hh },
    ]);
    ll = s.ll;
    w = lw;
    h = lh;
  }
  resolutions.unshift([{ kind: 'LL', w, h, coeffs: ll }]);

  // Reversible: a band's exponent is its nominal range, the sample precision plus the band's gain (T.800 E.1.1); Mb =
  // guard + exponent − 1 bit-planes. The 5/3 filters overshoot that range (random black-and-white images reach 1.06
  // times it), so one guard bit is not enough; two leave twice the range, and more are taken should a coefficient
  // still not fit.
  let maxOver = 0;
  for (const res of resolutions)
    for (const b of res)
      for (let i = 0; i < b.coeffs.length; i++) maxOver = Math.max(maxOver, bitLength(Math.abs(b.coeffs[i])) - (PRECISION + GAIN[b.kind]));
  const guard = Math.max(2, maxOver + 1);
  if (guard > 7) throw new Error('coefficients beyond what guard bits can cover');
  const mb = (kind: JpxBand) => guard + PRECISION + GAIN[kind] - 1;

  const tileData: number[] = [];
  for (const res of resolutions) for (const byte of packet(res, mb)) tileData.push(byte);

  const siz = [
    ...u16(0), // Rsiz: no restrictions claimed
    ...u32(width),
    ...u32(height),
    ...u32(0),
    ...u32(0),
    ...u32(width),
    ...u32(height),
    ...u32(0),
    ...u32(0),
    ...u16(1),
    PRECISION - 1, // unsigned
    1,
    1,
  ];
  const cod = [0, 0, ...u16(1), 0, levels, 6 - 2, 6 - 2, 0, 1]; // LRCP, 1 layer, no MCT; 64 × 64 blocks, style 0, 5/3
  const qcd = [guard << 5, ...resolutions.flatMap((res) => res.map((b) => (PRECISION + GAIN[b.kind]) << 3))];
  const marker = (code: number, content: number[]) => [...u16(code), ...u16(content.length + 2), ...content];
  const sot = 12 + 2 + tileData.length;
  const codestream = Uint8Array.from([
    ...u16(0xff4f),
    ...marker(0xff51, siz),
    ...marker(0xff52, cod),
    ...marker(0xff5c, qcd),
    ...marker(0xff90, [...u16(0), ...u32(sot), 0, 1]),
    ...u16(0xff93),
    ...tileData,
    ...u16(0xffd9),
  ]);
  if (!opts.jp2) return codestream;

  const ihdr = box('ihdr', [...u32(height), ...u32(width), ...u16(1), PRECISION - 1, 7, 0, 0]); // compression type 7: JPEG 2000
  const colr = box('colr', [1, 0, 0, ...u32(17)]); // enumerated colourspace 17: greyscale
  const head = [
    ...box('jP  ', [0x0d, 0x0a, 0x87, 0x0a]),
    ...box('ftyp', [...ascii('jp2 '), ...u32(0), ...ascii('jp2 ')]),
    ...box('jp2h', [...ihdr, ...colr]),
  ];
  const file = new Uint8Array(head.length + 8 + codestream.length);
  file.set(head);
  file.set([...u32(8 + codestream.length), ...ascii('jp2c')], head.length);
  file.set(codestream, head.length + 8);
  return file;
}
