/**
 * JPXDecode (JPEG 2000, ITU-T T.800 | ISO/IEC 15444-1) for the layer-quality score's scan, decoded to gray: the JP2
 * boxes around the codestream, its markers, the packets (tier 2: tag trees, pass counts, code-block lengths, in all
 * five progression orders), then per code-block tier 1 (jpxBlock.ts), dequantisation and the inverse wavelet
 * (wavelet.ts). Archives (Internet Archive, Google Books, many libraries) store their scans this way under OCR layers.
 *
 * Only what gray needs is decoded: a three-component image with a component transform is read from its first
 * component alone (the ICT's Y is Rec. 601 luma; the RCT's is near it), and the image can be read at a reduced
 * resolution (whole wavelet levels skipped), which is what a 300 dpi scan needs for its ink and letter shapes.
 *
 * Written from the recommendation. Not read (an error says which): palettes (pclr), regions of interest (RGN),
 * progression order changes (POC), packed packet headers (PPM, PPT), components subsampled or of other sizes where
 * more than the first is needed, more than 16 bits a sample.
 *
 * Bounded: every size is checked against the pixel limit before anything is allocated (the caller charges
 * `jpxWorkBytes`); packet parsing never passes its tile's data; tier 1 is bounded per code-block; the clock is read per
 * packet and per code-block. Pure: no Node, no DOM.
 */
import { u16, u32 } from './binary';
import type { GrayImage } from './jpeg';
import { type CodeBlockStyle, decodeCodeBlockScaled, type JpxBand } from './jpxBlock';
import { luma } from './pixels';
import { synthesize } from './wavelet';

export type JpxResult = { ok: true; image: GrayImage } | { ok: false; error: string; outOfTime?: boolean };

export interface JpxHeader {
  /** the image's size on the reference grid (the first component's, at full resolution) */
  width: number;
  height: number;
  components: number;
  /** wavelet levels of the first component: the most a decode can reduce by */
  levels: number;
  /** at most this many precincts and code-blocks, as the main header codes the image (the decode holds it to that) */
  structures: number;
}

/** a codestream of more components is not read (a scan has one to four; each is parsed, read or not) */
const MAX_COMPONENTS = 16;
/** bytes a precinct or a code-block holds while its tile is read: the block, its share of two tag trees, its lengths */
const STRUCTURE_BYTES = 200;

/** an error inside the decoder, caught at its entry points */
class JpxError extends Error {}
const fail = (why: string): never => {
  throw new JpxError(why);
};

interface Coding {
  levels: number;
  /** code-block size exponents */
  xcb: number;
  ycb: number;
  style: CodeBlockStyle;
  reversible: boolean;
  /** per resolution: precinct size exponents (15 when the coding style defines none) */
  ppx: number[];
  ppy: number[];
}

interface Quant {
  /** 0 none (reversible), 1 scalar derived, 2 scalar expounded */
  style: number;
  guard: number;
  exps: number[];
  mants: number[];
}

interface ComponentInfo {
  signed: boolean;
  precision: number;
  dx: number;
  dy: number;
}

interface Header {
  x1: number;
  y1: number;
  x0: number;
  y0: number;
  tw: number;
  th: number;
  tx0: number;
  ty0: number;
  comps: ComponentInfo[];
  order: number;
  layers: number;
  mct: boolean;
  sop: boolean;
  eph: boolean;
  /** the main header's coding and quantisation markers, and a tile's (which take precedence: T.800 A.6) */
  main: CodingSet;
  tile?: CodingSet;
  /** the main header's end: where the first tile-part begins */
  end: number;
}

interface CodingSet {
  cod?: Coding;
  coc: (Coding | undefined)[];
  qcd?: Quant;
  qcc: (Quant | undefined)[];
}

/** a component's coding style and quantisation: a tile's COC, its COD, the main COC, the main COD, in that order */
const codingOf = (h: Header, c: number): Coding => (h.tile?.coc[c] ?? h.tile?.cod ?? h.main.coc[c] ?? h.main.cod)!;
const quantOf = (h: Header, c: number): Quant => (h.tile?.qcc[c] ?? h.tile?.qcd ?? h.main.qcc[c] ?? h.main.qcd)!;

interface TilePart {
  start: number;
  end: number;
}

// ---- boxes and markers ------------------------------------------------------------------------------------------

/** The codestream: the data itself when it begins with SOC, else the JP2 file's contiguous codestream box */
function codestreamOf(d: Uint8Array): Uint8Array {
  if (d.length >= 2 && d[0] === 0xff && d[1] === 0x4f) return d;
  let i = 0;
  while (i + 8 <= d.length) {
    let len = u32(d, i);
    const type = String.fromCharCode(d[i + 4], d[i + 5], d[i + 6], d[i + 7]);
    let head = 8;
    if (len === 1) {
      if (i + 16 > d.length) break;
      // a box over 4 GiB: its high word must be 0 for anything we could hold
      if (u32(d, i + 8) !== 0) fail('a box larger than 4 GiB');
      len = u32(d, i + 12);
      head = 16;
    } else if (len === 0) len = d.length - i;
    if (len < head || i + len > d.length) {
      // a truncated last box still holds what it holds
      if (type === 'jp2c') return d.subarray(i + head);
      break;
    }
    if (type === 'jp2h') {
      // a palette box makes the first component an index, not a sample
      for (let j = i + head; j + 8 <= i + len;) {
        const l = u32(d, j);
        if (String.fromCharCode(d[j + 4], d[j + 5], d[j + 6], d[j + 7]) === 'pclr') fail('a palette (pclr) image');
        if (l < 8) break;
        j += l;
      }
    }
    if (type === 'jp2c') return d.subarray(i + head, i + len);
    i += len;
  }
  return fail('no codestream (neither SOC nor a jp2c box)');
}

function readCoding(d: Uint8Array, i: number, end: number, definesPrecincts: boolean): Coding {
  if (i + 5 > end) fail('a short COD or COC marker');
  const levels = d[i];
  const xcb = (d[i + 1] & 15) + 2;
  const ycb = (d[i + 2] & 15) + 2;
  const s = d[i + 3];
  if (levels > 32) fail(`${levels} wavelet levels`);
  if (xcb > 10 || ycb > 10 || xcb + ycb > 12) fail('a code-block size over 4096 samples');
  const ppx: number[] = [];
  const ppy: number[] = [];
  for (let r = 0; r <= levels; r++) {
    if (definesPrecincts) {
      if (i + 5 + r >= end) fail('a short precinct size list');
      const p = d[i + 5 + r];
      ppx.push(p & 15);
      ppy.push(p >> 4);
      if (r > 0 && ((p & 15) === 0 || p >> 4 === 0)) fail('a precinct of one sample above resolution 0');
    } else {
      ppx.push(15);
      ppy.push(15);
    }
  }
  return {
    levels,
    xcb,
    ycb,
    style: {
      bypass: (s & 1) !== 0,
      reset: (s & 2) !== 0,
      termAll: (s & 4) !== 0,
      verticallyCausal: (s & 8) !== 0,
      segmentationSymbols: (s & 32) !== 0,
    },
    reversible: d[i + 4] === 1,
    ppx,
    ppy,
  };
}

function readQuant(d: Uint8Array, i: number, end: number): Quant {
  const s = d[i];
  const style = s & 31;
  const q: Quant = { style, guard: s >> 5, exps: [], mants: [] };
  if (style === 0) {
    for (let j = i + 1; j < end; j++) {
      q.exps.push(d[j] >> 3);
      q.mants.push(0);
    }
  } else if (style === 1 || style === 2) {
    for (let j = i + 1; j + 1 < end; j += 2) {
      const v = u16(d, j);
      q.exps.push(v >> 11);
      q.mants.push(v & 0x7ff);
    }
  } else fail(`quantisation style ${style}`);
  if (q.exps.length === 0) fail('a quantisation marker without steps');
  return q;
}

/** COD, COC, QCD or QCC into the header (the main one or a tile's copy); other markers are checked or skipped */
function readMarker(h: Header, set: CodingSet, d: Uint8Array, m: number, i: number, end: number): void {
  const cidx = () => (h.comps.length < 257 ? d[i] : u16(d, i));
  const csize = h.comps.length < 257 ? 1 : 2;
  switch (m) {
    case 0xff52: {
      // COD
      const scod = d[i];
      h.sop = (scod & 2) !== 0;
      h.eph = (scod & 4) !== 0;
      h.order = d[i + 1];
      h.layers = u16(d, i + 2);
      h.mct = d[i + 4] !== 0;
      if (h.order > 4) fail(`progression order ${h.order}`);
      if (h.layers === 0) fail('no quality layers');
      set.cod = readCoding(d, i + 5, end, (scod & 1) !== 0);
      return;
    }
    case 0xff53: {
      const c = cidx();
      if (c >= h.comps.length) fail('a COC for no component');
      set.coc[c] = readCoding(d, i + csize + 1, end, (d[i + csize] & 1) !== 0);
      return;
    }
    case 0xff5c:
      set.qcd = readQuant(d, i, end);
      return;
    case 0xff5d: {
      const c = cidx();
      if (c >= h.comps.length) fail('a QCC for no component');
      set.qcc[c] = readQuant(d, i + csize, end);
      return;
    }
    case 0xff5e:
      return fail('a region of interest (RGN)');
    case 0xff5f:
      return fail('a progression order change (POC)');
    case 0xff60:
    case 0xff61:
      return fail('packed packet headers (PPM, PPT)');
    default:
      // TLM, PLM, PLT, CRG, COM: nothing the decode needs
      return;
  }
}

function readHeader(d: Uint8Array): Header {
  if (d.length < 4 || u16(d, 0) !== 0xff4f || u16(d, 2) !== 0xff51) fail('no SOC and SIZ markers');
  const lsiz = u16(d, 4);
  if (4 + lsiz > d.length || lsiz < 41) fail('a short SIZ marker');
  const n = u16(d, 40);
  if (n < 1 || n > 16384 || lsiz !== 38 + 3 * n) fail('a SIZ marker of the wrong length');
  if (n > MAX_COMPONENTS) fail(`${n} components`);
  const comps: ComponentInfo[] = [];
  for (let c = 0; c < n; c++) {
    const s = d[42 + 3 * c];
    const precision = (s & 0x7f) + 1;
    if (precision > 16) fail(`${precision}-bit samples`);
    const dx = d[43 + 3 * c];
    const dy = d[44 + 3 * c];
    if (dx === 0 || dy === 0) fail('a component subsampled by 0');
    comps.push({ signed: (s & 0x80) !== 0, precision, dx, dy });
  }
  const h: Header = {
    x1: u32(d, 8),
    y1: u32(d, 12),
    x0: u32(d, 16),
    y0: u32(d, 20),
    tw: u32(d, 24),
    th: u32(d, 28),
    tx0: u32(d, 32),
    ty0: u32(d, 36),
    comps,
    order: 0,
    layers: 1,
    mct: false,
    sop: false,
    eph: false,
    main: { coc: [], qcc: [] },
    end: 0,
  };
  if (h.x1 <= h.x0 || h.y1 <= h.y0 || h.tw === 0 || h.th === 0) fail('an empty image or tile');
  if (h.tx0 > h.x0 || h.ty0 > h.y0 || h.tx0 + h.tw <= h.x0 || h.ty0 + h.th <= h.y0) fail('tiles that miss the image');
  let i = 4 + lsiz;
  for (;;) {
    if (i + 4 > d.length) fail('the main header ends early');
    const m = u16(d, i);
    if (m === 0xff90) break;
    const len = u16(d, i + 2);
    if (len < 2 || i + 2 + len > d.length) fail('a marker segment runs past the data');
    readMarker(h, h.main, d, m, i + 4, i + 2 + len);
    i += 2 + len;
  }
  if (!h.main.cod || !h.main.qcd) fail('no COD or QCD marker');
  h.end = i;
  return h;
}

// ---- geometry ---------------------------------------------------------------------------------------------------

const ceilDiv = (a: number, b: number) => Math.ceil(a / b);
const pow2 = (n: number) => 2 ** n;

/** what the header tells of the image, for the caller to check and charge before decoding */
export function readJpxHeader(data: Uint8Array): JpxHeader | { error: string } {
  try {
    const h = readHeader(codestreamOf(data));
    const c0 = h.comps[0];
    return {
      width: ceilDiv(h.x1, c0.dx) - ceilDiv(h.x0, c0.dx),
      height: ceilDiv(h.y1, c0.dy) - ceilDiv(h.y0, c0.dy),
      components: h.comps.length,
      levels: codingOf(h, 0).levels,
      structures: structures(h),
    };
  } catch (e) {
    return { error: e instanceof JpxError ? e.message : String(e) };
  }
}

/**
 * The bytes decodeJpx holds for an image of this header at this reduction: the gray image, and per tile the wavelet's
 * bands, its output and the level below (about 2.5 samples of 4 bytes a pixel of the largest tile), times the
 * components read; plus the codestream's code-block bookkeeping, bounded by its size.
 */
export function jpxWorkBytes(hd: JpxHeader, reduce: number, dataBytes: number): number {
  const s = pow2(reduce);
  const pixels = Math.ceil(hd.width / s) * Math.ceil(hd.height / s);
  const read = hd.components >= 3 ? 3 : 1;
  return pixels + Math.ceil(10 * pixels * read) + 4 * dataBytes + STRUCTURE_BYTES * hd.structures;
}

/**
 * An upper bound on the precincts and code-blocks of every component, as the main header codes them: per band, the
 * blocks of its grid plus those the tiles' edges cut (a precinct's edges fall on the block grid, the code-block size
 * being at most the precinct's). Small code-blocks or precincts on a large image make millions of them out of a few
 * bytes of header, so they are counted before anything is made.
 */
function structures(h: Header): number {
  const tilesX = ceilDiv(h.x1 - h.tx0, h.tw);
  const tilesY = ceilDiv(h.y1 - h.ty0, h.th);
  let n = 0;
  h.comps.forEach((ci, c) => {
    const k = codingOf(h, c);
    const w = ceilDiv(h.x1, ci.dx) - ceilDiv(h.x0, ci.dx);
    const ht = ceilDiv(h.y1, ci.dy) - ceilDiv(h.y0, ci.dy);
    for (let r = 0; r <= k.levels; r++) {
      const sc = pow2(k.levels - r);
      const rw = ceilDiv(w, sc) + 1;
      const rh = ceilDiv(ht, sc) + 1;
      n += (ceilDiv(rw, pow2(k.ppx[r])) + tilesX) * (ceilDiv(rh, pow2(k.ppy[r])) + tilesY);
      const bw = pow2(Math.min(k.xcb, r === 0 ? k.ppx[r] : k.ppx[r] - 1));
      const bh = pow2(Math.min(k.ycb, r === 0 ? k.ppy[r] : k.ppy[r] - 1));
      // a band at resolution r > 0 is half the resolution's size each way
      const half = r === 0 ? 1 : 2;
      n += (r === 0 ? 1 : 3) * (ceilDiv(ceilDiv(rw, half), bw) + tilesX) * (ceilDiv(ceilDiv(rh, half), bh) + tilesY);
    }
  });
  return n;
}

// ---- tag trees and header bits ----------------------------------------------------------------------------------

class HeaderBits {
  private byte = 0;
  private left = 0;
  constructor(
    private readonly d: Uint8Array,
    public pos: number,
    private readonly end: number,
  ) {}
  bit(): number {
    if (this.left === 0) {
      if (this.pos >= this.end) fail('a packet header runs past its tile');
      // after 0xFF the encoder stuffs a 0 bit, so that no marker appears in a header
      this.left = this.byte === 0xff ? 7 : 8;
      this.byte = this.d[this.pos++];
    }
    this.left--;
    return (this.byte >> this.left) & 1;
  }
  bits(n: number): number {
    let v = 0;
    for (let k = 0; k < n; k++) v = v * 2 + this.bit();
    return v;
  }
  /** the header's end: the rest of its last byte, and the stuffed byte after a last 0xFF */
  align(): number {
    if (this.byte === 0xff && this.left < 8) {
      if (this.pos >= this.end) fail('a packet header runs past its tile');
      this.pos++;
    }
    this.byte = 0;
    this.left = 0;
    return this.pos;
  }
}

class TagTree {
  private readonly w: number[] = [];
  private readonly value: Int32Array[] = [];
  private readonly known: Uint8Array[] = [];
  constructor(w: number, h: number) {
    for (;;) {
      this.w.push(w);
      this.value.push(new Int32Array(w * h));
      this.known.push(new Uint8Array(w * h));
      if (w <= 1 && h <= 1) break;
      w = Math.ceil(w / 2);
      h = Math.ceil(h / 2);
    }
  }
  /** the leaf's value as far as `threshold`: exact when below it (then `isKnown`), else at least the threshold */
  decode(b: HeaderBits, x: number, y: number, threshold: number): number {
    let low = 0;
    for (let k = this.w.length - 1; k >= 0; k--) {
      const i = (y >> k) * this.w[k] + (x >> k);
      const v = this.value[k];
      const kn = this.known[k];
      if (v[i] < low) v[i] = low;
      while (!kn[i] && v[i] < threshold) {
        if (b.bit()) kn[i] = 1;
        else v[i]++;
      }
      low = v[i];
    }
    return low;
  }
  isKnown(x: number, y: number): boolean {
    return this.known[0][y * this.w[0] + x] === 1;
  }
}

// ---- the tile's structure -----------------------------------------------------------------------------------------

/** precincts and code-blocks the decode may still make (structures(), charged by the caller) */
interface Held {
  left: number;
}
const hold = (held: Held, n: number) => {
  held.left -= n;
  if (held.left < 0) fail('more precincts and code-blocks than its main header declares');
};

interface Block {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  included: boolean;
  lblock: number;
  zeroPlanes: number;
  passes: number;
  /** passes the open codeword segment may still take */
  segLeft: number;
  /** the block's data as (offset, length) pairs in the tile's data */
  chunks: number[];
  segLengths: number[];
  segPasses: number[];
}

interface PrecinctBand {
  band: Band;
  cw: number;
  ch: number;
  blocks: Block[];
  incl: TagTree;
  zero: TagTree;
}

interface Band {
  kind: JpxBand;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** bit-planes of its coefficients (Mb) and its quantisation step (1 when reversible) */
  mb: number;
  step: number;
}

interface Resolution {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  bands: Band[];
  pw: number;
  ph: number;
  precincts: PrecinctBand[][];
  ppx: number;
  ppy: number;
}

interface TileComponent {
  coding: Coding;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  res: Resolution[];
}

const GAIN: Record<JpxBand, number> = { LL: 0, HL: 1, LH: 1, HH: 2 };

function tileComponent(h: Header, c: number, tx0: number, ty0: number, tx1: number, ty1: number): TileComponent {
  const ci = h.comps[c];
  const coding = codingOf(h, c);
  const q = quantOf(h, c);
  const nl = coding.levels;
  const x0 = ceilDiv(tx0, ci.dx);
  const y0 = ceilDiv(ty0, ci.dy);
  const x1 = ceilDiv(tx1, ci.dx);
  const y1 = ceilDiv(ty1, ci.dy);
  const res: Resolution[] = [];
  for (let r = 0; r <= nl; r++) {
    const s = pow2(nl - r);
    const rx0 = ceilDiv(x0, s);
    const ry0 = ceilDiv(y0, s);
    const rx1 = ceilDiv(x1, s);
    const ry1 = ceilDiv(y1, s);
    const kinds: JpxBand[] = r === 0 ? ['LL'] : ['HL', 'LH', 'HH'];
    const bands = kinds.map((kind, k): Band => {
      const nb = r === 0 ? nl : nl - r + 1;
      const ox = kind === 'HL' || kind === 'HH' ? 1 : 0;
      const oy = kind === 'LH' || kind === 'HH' ? 1 : 0;
      const sb = pow2(nb);
      const half = r === 0 ? 0 : pow2(nb - 1);
      const bx0 = ceilDiv(x0 - half * ox, sb);
      const by0 = ceilDiv(y0 - half * oy, sb);
      const bx1 = ceilDiv(x1 - half * ox, sb);
      const by1 = ceilDiv(y1 - half * oy, sb);
      const idx = r === 0 ? 0 : 1 + 3 * (r - 1) + k;
      let exp: number;
      let mant: number;
      if (q.style === 1) {
        exp = q.exps[0] - nl + nb;
        mant = q.mants[0];
      } else {
        if (idx >= q.exps.length) fail('fewer quantisation steps than bands');
        exp = q.exps[idx];
        mant = q.mants[idx];
      }
      const mb = q.guard + exp - 1;
      const step = coding.reversible || q.style === 0 ? 1 : pow2(ci.precision + GAIN[kind] - exp) * (1 + mant / 2048);
      return { kind, x0: bx0, y0: by0, x1: bx1, y1: by1, mb, step };
    });
    const ppx = coding.ppx[r];
    const ppy = coding.ppy[r];
    const pw = rx1 > rx0 ? ceilDiv(rx1, pow2(ppx)) - Math.floor(rx0 / pow2(ppx)) : 0;
    const ph = ry1 > ry0 ? ceilDiv(ry1, pow2(ppy)) - Math.floor(ry0 / pow2(ppy)) : 0;
    res.push({ x0: rx0, y0: ry0, x1: rx1, y1: ry1, bands, pw, ph, precincts: [], ppx, ppy });
  }
  return { coding, x0, y0, x1, y1, res };
}

/** the code-blocks of precinct k of resolution r, band by band (made when its first packet is read) */
function precinctOf(tc: TileComponent, r: number, k: number, held: Held): PrecinctBand[] {
  const R = tc.res[r];
  const have = R.precincts[k];
  if (have) return have;
  const kx = Math.floor(R.x0 / pow2(R.ppx)) + (k % R.pw);
  const ky = Math.floor(R.y0 / pow2(R.ppy)) + Math.floor(k / R.pw);
  // in a band a precinct is half its size at the resolution (except at resolution 0, whose band is the resolution)
  const bpx = r === 0 ? R.ppx : R.ppx - 1;
  const bpy = r === 0 ? R.ppy : R.ppy - 1;
  const xcb = Math.min(tc.coding.xcb, bpx);
  const ycb = Math.min(tc.coding.ycb, bpy);
  const out = R.bands.map((band): PrecinctBand => {
    const px0 = Math.max(band.x0, kx * pow2(bpx));
    const py0 = Math.max(band.y0, ky * pow2(bpy));
    const px1 = Math.min(band.x1, (kx + 1) * pow2(bpx));
    const py1 = Math.min(band.y1, (ky + 1) * pow2(bpy));
    const cbw = pow2(xcb);
    const cbh = pow2(ycb);
    const cw = px1 > px0 ? ceilDiv(px1, cbw) - Math.floor(px0 / cbw) : 0;
    const ch = py1 > py0 ? ceilDiv(py1, cbh) - Math.floor(py0 / cbh) : 0;
    hold(held, cw * ch);
    const blocks: Block[] = [];
    for (let j = 0; j < ch; j++)
      for (let i = 0; i < cw; i++) {
        const gx = Math.floor(px0 / cbw) + i;
        const gy = Math.floor(py0 / cbh) + j;
        blocks.push({
          x0: Math.max(px0, gx * cbw),
          y0: Math.max(py0, gy * cbh),
          x1: Math.min(px1, (gx + 1) * cbw),
          y1: Math.min(py1, (gy + 1) * cbh),
          included: false,
          lblock: 3,
          zeroPlanes: 0,
          passes: 0,
          segLeft: 0,
          chunks: [],
          segLengths: [],
          segPasses: [],
        });
      }
    return { band, cw, ch, blocks, incl: new TagTree(cw, ch), zero: new TagTree(cw, ch) };
  });
  R.precincts[k] = out;
  return out;
}

/** passes a codeword segment that starts at pass `s` may hold (the terminations the code-block style implies) */
function segmentRoom(style: CodeBlockStyle, s: number): number {
  if (style.termAll) return 1;
  if (!style.bypass) return Infinity;
  if (s < 10) return 10 - s;
  // after the first ten passes: raw significance and refinement passes together, then an arithmetic cleanup pass
  return (s - 10) % 3 === 0 ? 2 : 1;
}

function passCount(b: HeaderBits): number {
  if (!b.bit()) return 1;
  if (!b.bit()) return 2;
  const two = b.bits(2);
  if (two < 3) return 3 + two;
  const five = b.bits(5);
  if (five < 31) return 6 + five;
  return 37 + b.bits(7);
}

/** one packet: its header, then its body's bytes handed to the code-blocks; returns the position after it */
function readPacket(h: Header, d: Uint8Array, pos: number, end: number, tc: TileComponent, r: number, k: number, layer: number, held: Held): number {
  if (h.sop && pos + 6 <= end && d[pos] === 0xff && d[pos + 1] === 0x91) pos += 6;
  const bands = precinctOf(tc, r, k, held);
  const b = new HeaderBits(d, pos, end);
  const got: Block[] = [];
  const lens: number[] = [];
  if (b.bit()) {
    for (const pb of bands)
      for (let j = 0, n = 0; j < pb.ch; j++)
        for (let i = 0; i < pb.cw; i++, n++) {
          const blk = pb.blocks[n];
          let inc: boolean;
          if (!blk.included) {
            const v = pb.incl.decode(b, i, j, layer + 1);
            inc = v <= layer && pb.incl.isKnown(i, j);
          } else inc = b.bit() === 1;
          if (!inc) continue;
          if (!blk.included) {
            // zero bit-planes: the tree is read until the leaf is known (its value bounded by the bit-planes there are)
            const z = pb.zero.decode(b, i, j, 64);
            if (!pb.zero.isKnown(i, j)) fail('a code-block with more zero bit-planes than any band has');
            blk.zeroPlanes = z;
            blk.included = true;
          }
          let passes = passCount(b);
          while (b.bit()) blk.lblock++;
          if (blk.lblock > 32) fail('a code-block length of more than 32 bits');
          let total = 0;
          while (passes > 0) {
            if (blk.segLeft === 0) {
              blk.segLeft = segmentRoom(tc.coding.style, blk.passes);
              blk.segLengths.push(0);
              blk.segPasses.push(0);
            }
            const m = Math.min(passes, blk.segLeft);
            const len = b.bits(blk.lblock + Math.floor(Math.log2(m)));
            const last = blk.segLengths.length - 1;
            blk.segLengths[last] += len;
            blk.segPasses[last] += m;
            blk.segLeft -= m;
            blk.passes += m;
            passes -= m;
            total += len;
          }
          if (blk.passes > 164) fail('a code-block of more than 164 passes');
          got.push(blk);
          lens.push(total);
        }
  }
  pos = b.align();
  if (h.eph && pos + 2 <= end && d[pos] === 0xff && d[pos + 1] === 0x92) pos += 2;
  for (let n = 0; n < got.length; n++) {
    if (pos + lens[n] > end) fail('a packet runs past its tile');
    if (lens[n] > 0) got[n].chunks.push(pos, lens[n]);
    pos += lens[n];
  }
  return pos;
}

// ---- packets in progression order ---------------------------------------------------------------------------------

/** every packet of the tile, in its progression order, as (component, resolution, precinct, layer) */
function* packets(h: Header, tcs: TileComponent[], tx0: number, ty0: number, held: Held): Generator<[number, number, number, number]> {
  const maxR = Math.max(...tcs.map((t) => t.coding.levels));
  const L = h.layers;
  if (h.order === 0 || h.order === 1) {
    // LRCP, RLCP: precincts in raster order within their resolution
    const outer = h.order === 0 ? L : maxR + 1;
    const inner = h.order === 0 ? maxR + 1 : L;
    for (let a = 0; a < outer; a++)
      for (let b = 0; b < inner; b++) {
        const [l, r] = h.order === 0 ? [a, b] : [b, a];
        for (let c = 0; c < tcs.length; c++) {
          const R = tcs[c].res[r];
          if (!R) continue;
          for (let k = 0; k < R.pw * R.ph; k++) yield [c, r, k, l];
        }
      }
    return;
  }
  // RPCL, PCRL, CPRL: each precinct where the recommendation's walk over the reference grid meets it (its top-left
  // corner there, or the tile's for a precinct cut by the tile's edge), then all its layers
  const list: { c: number; r: number; k: number; x: number; y: number }[] = [];
  for (const tc of tcs) for (const R of tc.res) hold(held, R.pw * R.ph);
  for (let c = 0; c < tcs.length; c++) {
    const tc = tcs[c];
    const ci = h.comps[c];
    const nl = tc.coding.levels;
    tc.res.forEach((R, r) => {
      const sx = ci.dx * pow2(nl - r);
      const sy = ci.dy * pow2(nl - r);
      for (let k = 0; k < R.pw * R.ph; k++) {
        const px = (Math.floor(R.x0 / pow2(R.ppx)) + (k % R.pw)) * pow2(R.ppx);
        const py = (Math.floor(R.y0 / pow2(R.ppy)) + Math.floor(k / R.pw)) * pow2(R.ppy);
        list.push({ c, r, k, x: px < R.x0 ? tx0 : px * sx, y: py < R.y0 ? ty0 : py * sy });
      }
    });
  }
  const key: Record<number, (e: (typeof list)[number]) => number[]> = {
    2: (e) => [e.r, e.y, e.x, e.c],
    3: (e) => [e.y, e.x, e.c, e.r],
    4: (e) => [e.c, e.y, e.x, e.r],
  };
  const f = key[h.order];
  list.sort((p, q) => {
    const a = f(p);
    const b = f(q);
    for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return p.k - q.k;
  });
  for (const e of list) for (let l = 0; l < L; l++) yield [e.c, e.r, e.k, l];
}

// ---- decoding -----------------------------------------------------------------------------------------------------

/** the tile-component's samples at resolution `top` (DC shift not yet added), from its code-blocks and the wavelet */
function samplesOf(tc: TileComponent, data: Uint8Array, top: number, outOfTime: () => boolean): Float32Array {
  let image: Float32Array | undefined;
  let scratch = new Uint8Array(0);
  for (let r = 0; r <= top; r++) {
    const R = tc.res[r];
    const coeffs = R.bands.map((band) => {
      const w = band.x1 - band.x0;
      const out = new Float32Array(Math.max(0, w * (band.y1 - band.y0)));
      return { band, w, out };
    });
    for (let k = 0; k < R.pw * R.ph; k++) {
      const pbs = R.precincts[k];
      if (!pbs) continue;
      pbs.forEach((pb, bi) => {
        const { band, w, out } = coeffs[bi];
        for (const blk of pb.blocks) {
          if (blk.passes === 0) continue;
          if (outOfTime()) fail('out of time');
          const planes = band.mb - blk.zeroPlanes;
          if (planes <= 0) continue;
          // one buffer for the block's chunks, copied only when they are more than one
          let bytes: Uint8Array;
          if (blk.chunks.length === 2) bytes = data.subarray(blk.chunks[0], blk.chunks[0] + blk.chunks[1]);
          else {
            let n = 0;
            for (let i = 1; i < blk.chunks.length; i += 2) n += blk.chunks[i];
            if (scratch.length < n) scratch = new Uint8Array(Math.max(n, 2 * scratch.length));
            for (let i = 0, o = 0; i < blk.chunks.length; i += 2) {
              scratch.set(data.subarray(blk.chunks[i], blk.chunks[i] + blk.chunks[i + 1]), o);
              o += blk.chunks[i + 1];
            }
            bytes = scratch.subarray(0, n);
          }
          const segments: { offset: number; length: number; passes: number }[] = [];
          for (let i = 0, o = 0; i < blk.segLengths.length; i++) {
            segments.push({ offset: o, length: blk.segLengths[i], passes: blk.segPasses[i] });
            o += blk.segLengths[i];
          }
          // dequantised as the coefficients are stored
          const res = decodeCodeBlockScaled(
            { width: blk.x1 - blk.x0, height: blk.y1 - blk.y0, band: band.kind, bitPlanes: planes, data: bytes, segments, style: tc.coding.style },
            out,
            (blk.y0 - band.y0) * w + (blk.x0 - band.x0),
            w,
            band.step,
          );
          if (!res.ok) fail(`a damaged code-block (${res.error})`);
        }
      });
    }
    if (r === 0) image = coeffs[0].out;
    else image = synthesize(image!, coeffs[0].out, coeffs[1].out, coeffs[2].out, R.x0, R.y0, R.x1, R.y1, tc.coding.reversible);
  }
  return image!;
}

/**
 * The image in gray at 1 / 2^reduce of its size (reduce is capped at its wavelet levels), or why not. `maxPixels`
 * bounds the image; the caller has charged jpxWorkBytes.
 */
export function decodeJpx(data: Uint8Array, reduce: number, maxPixels: number, outOfTime: () => boolean): JpxResult {
  try {
    return { ok: true, image: decode(data, reduce, maxPixels, outOfTime) };
  } catch (e) {
    const why = e instanceof JpxError ? e.message : `an internal error (${String(e).slice(0, 80)})`;
    return { ok: false, error: why, ...(why === 'out of time' ? { outOfTime: true } : {}) };
  }
}

function decode(data: Uint8Array, reduce: number, maxPixels: number, outOfTime: () => boolean): GrayImage {
  const d = codestreamOf(data);
  const h = readHeader(d);
  const c0 = h.comps[0];
  const fullW = ceilDiv(h.x1, c0.dx) - ceilDiv(h.x0, c0.dx);
  const fullH = ceilDiv(h.y1, c0.dy) - ceilDiv(h.y0, c0.dy);
  if (fullW * fullH > maxPixels) fail('larger than the pixel limit');
  // which components make the gray: the irreversible transform's Y (Rec. 601 luma itself), or R, G and B (the
  // reversible transform's Y weighs blue as much as red, so its three components are read and undone), or the one
  const ict = h.mct && h.comps.length >= 3 && !codingOf(h, 0).reversible;
  const rct = h.mct && h.comps.length >= 3 && !ict;
  const use = ict ? [0] : h.comps.length >= 3 ? [0, 1, 2] : [0];
  if (h.comps.length === 4 && !h.mct) fail('four components (CMYK)');
  if (use.length === 3 && h.comps.some((c, i) => i < 3 && (c.dx !== c0.dx || c.dy !== c0.dy || c.precision !== c0.precision)))
    fail('colour components of different sizes');
  const levels = Math.min(...use.map((c) => codingOf(h, c).levels));
  const red = Math.max(0, Math.min(reduce, levels));
  const s = pow2(red);
  const ox = ceilDiv(ceilDiv(h.x0, c0.dx), s);
  const oy = ceilDiv(ceilDiv(h.y0, c0.dy), s);
  const W = ceilDiv(ceilDiv(h.x1, c0.dx), s) - ox;
  const H = ceilDiv(ceilDiv(h.y1, c0.dy), s) - oy;
  const gray = new Uint8Array(W * H);
  const held: Held = { left: structures(h) };
  const clamped = new Uint8ClampedArray(gray.buffer);
  const rgb = new Uint8ClampedArray(3);
  const tilesX = ceilDiv(h.x1 - h.tx0, h.tw);
  const tilesY = ceilDiv(h.y1 - h.ty0, h.th);
  if (tilesX * tilesY > 65535) fail('more than 65,535 tiles');
  // tile-parts by tile, in order
  const parts: TilePart[][] = [];
  const tileHeaders: (Header | undefined)[] = [];
  let i = h.end;
  while (i + 12 <= d.length && u16(d, i) === 0xff90) {
    const lsot = u16(d, i + 2);
    const t = u16(d, i + 4);
    const psot = u32(d, i + 6);
    const tpsot = d[i + 10];
    if (lsot !== 10 || t >= tilesX * tilesY) fail('a damaged SOT marker');
    const end = psot === 0 ? d.length : Math.min(d.length, i + psot);
    if (psot !== 0 && psot < 14) fail('a damaged SOT marker');
    // the tile-part header: a tile's coding markers (in its first tile-part), up to SOD
    let j = i + 12;
    let th = tileHeaders[t];
    if (tpsot === 0 && !th) {
      th = { ...h, tile: { coc: [], qcc: [] } };
      tileHeaders[t] = th;
    }
    for (;;) {
      if (j + 2 > end) fail('a tile-part header runs past its tile-part');
      const m = u16(d, j);
      if (m === 0xff93) break;
      const len = u16(d, j + 2);
      if (len < 2 || j + 2 + len > end) fail('a marker segment runs past its tile-part');
      if (th && tpsot === 0) readMarker(th, th.tile!, d, m, j + 4, j + 2 + len);
      else if (m === 0xff5e || m === 0xff5f || m === 0xff61) readMarker(h, h.main, d, m, j + 4, j + 2 + len);
      j += 2 + len;
    }
    (parts[t] ??= []).push({ start: j + 2, end });
    if (psot === 0) break;
    i = end;
  }
  for (let t = 0; t < tilesX * tilesY; t++) {
    const tp = parts[t];
    if (!tp) fail('a tile with no data');
    const th = tileHeaders[t] ?? h;
    const p = t % tilesX;
    const q = Math.floor(t / tilesX);
    const tx0 = Math.max(h.tx0 + p * h.tw, h.x0);
    const ty0 = Math.max(h.ty0 + q * h.th, h.y0);
    const tx1 = Math.min(h.tx0 + (p + 1) * h.tw, h.x1);
    const ty1 = Math.min(h.ty0 + (q + 1) * h.th, h.y1);
    // a tile's parts are read as one run of bytes
    let td: Uint8Array;
    if (tp.length === 1) td = d.subarray(0, tp[0].end);
    else {
      const n = tp.reduce((a, x) => a + x.end - x.start, 0);
      td = new Uint8Array(n);
      let o = 0;
      for (const x of tp) {
        td.set(d.subarray(x.start, x.end), o);
        o += x.end - x.start;
      }
      tp.splice(0, tp.length, { start: 0, end: n });
    }
    const tcs = h.comps.map((_, c) => tileComponent(th, c, tx0, ty0, tx1, ty1));
    let pos = tp[0].start;
    const tend = tp[0].end;
    // a codestream may end after any packet (fewer quality layers read), but the first layer of what the gray needs
    // must be there: without it a band is missing, not coarser
    let needed = 0;
    for (const c of use) for (let r = 0; r <= tcs[c].coding.levels - red; r++) needed += tcs[c].res[r].pw * tcs[c].res[r].ph;
    for (const [c, r, k, l] of packets(th, tcs, tx0, ty0, held)) {
      if (pos >= tend) break;
      if (outOfTime()) fail('out of time');
      pos = readPacket(th, td, pos, tend, tcs[c], r, k, l, held);
      if (l === 0 && r <= tcs[c].coding.levels - red && use.includes(c)) needed--;
    }
    if (needed > 0) fail('its data ends early');
    const planes = use.map((c) => {
      const tc = tcs[c];
      return { tc, samples: samplesOf(tc, td, tc.coding.levels - red, outOfTime), shift: h.comps[c].signed ? 0 : pow2(h.comps[c].precision - 1) };
    });
    // the tile at the reduced size, into the image
    const { tc } = planes[0];
    const rx0 = ceilDiv(tc.x0, s);
    const ry0 = ceilDiv(tc.y0, s);
    const rw = ceilDiv(tc.x1, s) - rx0;
    const rh = ceilDiv(tc.y1, s) - ry0;
    // samples to 8 bits: a clamped view rounds (to even, as OpenJPEG's lrintf does) and clamps as it stores
    const to8 = 255 / (pow2(c0.precision) - 1);
    for (let y = 0; y < rh; y++) {
      const o = (ry0 - oy + y) * W + (rx0 - ox);
      const row = y * rw;
      if (planes.length === 1) {
        const { samples, shift } = planes[0];
        if (to8 === 1) for (let x = 0; x < rw; x++) clamped[o + x] = samples[row + x] + shift;
        else for (let x = 0; x < rw; x++) clamped[o + x] = (samples[row + x] + shift) * to8;
      } else {
        const [a, b, c] = planes;
        for (let x = 0; x < rw; x++) {
          let r = a.samples[row + x];
          let g = b.samples[row + x];
          let bl = c.samples[row + x];
          if (rct) {
            // the reversible component transform undone: a is Y, b is U (blue less green), c is V (red less green)
            g = r - Math.floor((bl + g) / 4);
            r = c.samples[row + x] + g;
            bl = b.samples[row + x] + g;
          }
          rgb[0] = (r + a.shift) * to8;
          rgb[1] = (g + b.shift) * to8;
          rgb[2] = (bl + c.shift) * to8;
          gray[o + x] = luma(rgb[0], rgb[1], rgb[2]);
        }
      }
    }
  }
  return { width: W, height: H, data: gray };
}
