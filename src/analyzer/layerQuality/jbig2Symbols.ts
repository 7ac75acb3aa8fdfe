/**
 * JBIG2 (ITU-T T.88) symbol dictionaries and text regions, arithmetic-coded: how JBIG2 encoders (jbig2enc, as OCRmyPDF
 * uses it, and book scanners) store text, each distinct glyph shape once in a dictionary and the page as a list of
 * placements of those shapes.
 *
 * Written from the recommendation: the symbol dictionary segment's data header (7.4.2.1) and decoding procedure (6.5:
 * height classes, symbol widths, direct generic-region coding or refinement/aggregate coding, the export flags) and
 * the text region segment's data header (7.4.3.1) and decoding procedure (6.4: strips, S and T coordinates, symbol
 * IDs, refinement of instances, reference corners, transposition, combination operators). The generic and refinement
 * region decoders and the arithmetic integer decoders (Annex A.2, A.3) are jbig2Regions.ts's; one MQ decoder (mq.ts)
 * reads a segment's whole coded data, since every procedure of a segment draws from the same arithmetic code.
 * Huffman-coded dictionaries and regions (SDHUFF, SBHUFF) are refused, as are dictionaries that share coding contexts
 * with an earlier one.
 * Round trips through a test-only encoder (scripts/jbig2-symbol-encoder.ts) check it (test/jbig2-symbols.test.ts).
 *
 * Bounded: counts, sizes and coordinates are read from the file and untrusted, so symbol and instance counts are
 * capped before anything is decoded, every decoded or allocated pixel is charged to a budget, drawing is charged to
 * another, and the caller's clock is consulted every few dozen symbols or instances. Failures are error strings.
 */
import { s8, u32 } from './binary';
import { MqDecoder } from './mq';
import { type Bitmap, decodeGeneric, decodeRefinement, IdDecoder, IntDecoder, newBitmap } from './jbig2Regions';

/** symbols a dictionary may hold (input + new), and symbols a text region may refer to: also bounds IAID's 2^SBSYMCODELEN contexts */
const MAX_SYMBOLS = 1 << 20;
/** symbol instances a text region may declare, and a dictionary's aggregates may hold in all */
const MAX_INSTANCES = 1 << 20;
/** pixels decoded or allocated for one segment: symbols, refined instances, the region itself */
const MAX_PIXELS = 64 * 1024 * 1024;
/** pixels combined into a text region by drawing instances (clipped), which costs less than decoding them */
const MAX_DRAWN = 256 * 1024 * 1024;
/** the clock is asked after this many symbols or instances */
const CLOCK_EVERY = 32;

const OUT_OF_TIME = 'out of time';

// REFCORNER (7.4.3.1.1): 0 BOTTOMLEFT, 1 TOPLEFT, 2 BOTTOMRIGHT, 3 TOPRIGHT, so bit 0 is set for the top corners and
// bit 1 for the right ones.
const TOPLEFT = 1;

// SBCOMBOP (6.4.5 and 7.4.3.1.1)
const OR = 0;
const AND = 1;
const XOR = 2;
const XNOR = 3;

/** what a segment may still spend */
interface Budget {
  pixels: number;
  drawn: number;
  instances: number;
}

/**
 * The text region decoding procedure's arithmetic decoders (6.4, Table 9's IADT … IAID) and the refinement contexts.
 * A text region segment has its own; a symbol dictionary keeps one set for all its aggregate and refined symbols,
 * since 7.4.2.2 initialises them once per dictionary and never again.
 */
interface TextCoders {
  iadt: IntDecoder;
  iafs: IntDecoder;
  iads: IntDecoder;
  iait: IntDecoder;
  iari: IntDecoder;
  iardw: IntDecoder;
  iardh: IntDecoder;
  iardx: IntDecoder;
  iardy: IntDecoder;
  iaid: IdDecoder;
  /** the generic refinement region contexts (GRTEMPLATE 0 needs 2^13) */
  gr: Uint8Array;
}

function textCoders(symCodeLen: number): TextCoders {
  return {
    iadt: new IntDecoder(),
    iafs: new IntDecoder(),
    iads: new IntDecoder(),
    iait: new IntDecoder(),
    iari: new IntDecoder(),
    iardw: new IntDecoder(),
    iardh: new IntDecoder(),
    iardx: new IntDecoder(),
    iardy: new IntDecoder(),
    iaid: new IdDecoder(symCodeLen),
    gr: new Uint8Array(8192),
  };
}

/** Table 9's parameters of the text region decoding procedure (the arithmetic ones) */
interface TextParams {
  width: number;
  height: number;
  refine: boolean;
  strips: number;
  instances: number;
  /** SBSYMS: the symbols IDs refer to (in a dictionary, those decoded so far) */
  symbols: Bitmap[];
  defPixel: number;
  combOp: number;
  transposed: boolean;
  refCorner: number;
  dsOffset: number;
  rTemplate: 0 | 1;
  rAt: { x: number; y: number }[];
}

/** ceil(log2(n)), 0 for n ≤ 1: SBSYMCODELEN, the bits of a symbol ID */
function codeLength(n: number): number {
  let len = 0;
  while (2 ** len < n) len++;
  return len;
}

/** Reads `count` AT pixels (signed byte x, signed byte y) at `pos`. */
function atPixels(d: Uint8Array, pos: number, count: number): { x: number; y: number }[] {
  const at: { x: number; y: number }[] = [];
  for (let k = 0; k < count; k++) at.push({ x: s8(d[pos + 2 * k]), y: s8(d[pos + 2 * k + 1]) });
  return at;
}

/** Charges a bitmap of w × h about to be made; a refusal, or null. (Empty bitmaps cost 1, so nothing is free.) */
function charge(budget: Budget, w: number, h: number): string | null {
  if (!Number.isSafeInteger(w) || !Number.isSafeInteger(h) || w < 0 || h < 0) return `bitmap of ${w}×${h} pixels`;
  budget.pixels -= Math.max(w * h, 1);
  return budget.pixels < 0 ? 'symbol bitmaps larger than the decoder allows' : null;
}

/** Refinement decoding of w × h pixels against `reference`; an empty bitmap takes no decisions, so none are made. */
function refine(
  mq: MqDecoder,
  c: TextCoders,
  p: TextParams,
  w: number,
  h: number,
  reference: Bitmap,
  dx: number,
  dy: number,
  outOfTime: () => boolean,
) {
  if (w === 0 || h === 0) return newBitmap(w, h);
  return decodeRefinement(mq, c.gr, { width: w, height: h, template: p.rTemplate, reference, dx, dy, tpgron: false, at: p.rAt }, outOfTime);
}

/** Combines `sym` into `region` with its top-left pixel at (x0, y0), dropping what falls outside (6.4.5 step 3 c) vii). */
function draw(region: Bitmap, sym: Bitmap, x0: number, y0: number, op: number, budget: Budget): void {
  const xs = Math.max(0, -x0);
  const xe = Math.min(sym.width, region.width - x0);
  const ys = Math.max(0, -y0);
  const ye = Math.min(sym.height, region.height - y0);
  if (xs >= xe || ys >= ye) return;
  budget.drawn -= (xe - xs) * (ye - ys);
  const rd = region.data;
  const sd = sym.data;
  for (let y = ys; y < ye; y++) {
    const r = (y0 + y) * region.width + x0;
    const s = y * sym.width;
    for (let x = xs; x < xe; x++) {
      const v = sd[s + x];
      switch (op) {
        case OR:
          rd[r + x] |= v;
          break;
        case AND:
          rd[r + x] &= v;
          break;
        case XOR:
          rd[r + x] ^= v;
          break;
        case XNOR:
          rd[r + x] = rd[r + x] ^ v ^ 1;
          break;
        default:
          // REPLACE (only a symbol dictionary's own parameters could name it; the segment flags have two bits)
          rd[r + x] = v;
      }
    }
  }
}

/** 6.4.5: the text region decoding procedure over the segment's (or dictionary's) MQ decoder and coders. */
function decodeText(mq: MqDecoder, c: TextCoders, p: TextParams, budget: Budget, outOfTime: () => boolean): Bitmap | string {
  const refused = charge(budget, p.width, p.height);
  if (refused) return refused;
  const region = newBitmap(p.width, p.height);
  if (p.defPixel) region.data.fill(1);
  const right = (p.refCorner & 2) !== 0;
  const bottom = (p.refCorner & 1) === 0;

  // 6.4.6: strip T values are coded in units of SBSTRIPS; the first is negated.
  const t0 = c.iadt.decode(mq);
  if (t0 === null) return 'text region: out-of-band initial strip T';
  let stripT = -t0 * p.strips;
  let firstS = 0;
  let n = 0;
  while (n < p.instances) {
    const dt = c.iadt.decode(mq);
    if (dt === null) return 'text region: out-of-band strip delta T';
    stripT += dt * p.strips;
    let curS = 0;
    for (let first = true; ; first = false) {
      if (first) {
        const dfs = c.iafs.decode(mq);
        if (dfs === null) return 'text region: out-of-band first S';
        firstS += dfs;
        curS = firstS;
      } else {
        // 6.4.8: OOB ends the strip; SBDSOFFSET adjusts every later instance's gap
        const ids = c.iads.decode(mq);
        if (ids === null) break;
        curS += ids + p.dsOffset;
      }
      if (n >= p.instances) return 'text region: more symbol instances than declared';
      // a dictionary's aggregates each declare their own count; together they may not exceed one region's
      if (--budget.instances < 0) return 'symbol instances more than the decoder allows';
      // 6.4.9: T within the strip, coded only when there are several strip rows
      let curT = 0;
      if (p.strips > 1) {
        const it = c.iait.decode(mq);
        if (it === null) return 'text region: out-of-band T';
        curT = it;
      }
      const tI = stripT + curT;
      const id = c.iaid.decode(mq);
      if (id >= p.symbols.length) return `text region: symbol ${id} of ${p.symbols.length}`;
      let ib = p.symbols[id];
      // 6.4.11: a refined instance is its symbol refined to (WO + RDW) × (HO + RDH), offset by RDW/2 + RDX, RDH/2 + RDY
      if (p.refine) {
        const ri = c.iari.decode(mq);
        if (ri === null) return 'text region: out-of-band refinement flag';
        if (ri !== 0) {
          const rdw = c.iardw.decode(mq);
          const rdh = c.iardh.decode(mq);
          const rdx = c.iardx.decode(mq);
          const rdy = c.iardy.decode(mq);
          if (rdw === null || rdh === null || rdx === null || rdy === null) return 'text region: out-of-band refinement delta';
          const w = ib.width + rdw;
          const h = ib.height + rdh;
          const bad = charge(budget, w, h);
          if (bad) return bad;
          const refined = refine(mq, c, p, w, h, ib, Math.floor(rdw / 2) + rdx, Math.floor(rdh / 2) + rdy, outOfTime);
          if (typeof refined === 'string') return refined;
          ib = refined;
        }
      }
      // 6.4.5 step 3 c) v–x: CURS runs along S over the instance's extent, before or after placing it depending on
      // which side of the instance the reference corner is; S is x unless TRANSPOSED, when it is y.
      const wI = ib.width;
      const hI = ib.height;
      if (!p.transposed && right) curS += wI - 1;
      else if (p.transposed && bottom) curS += hI - 1;
      const x = p.transposed ? tI : curS;
      const y = p.transposed ? curS : tI;
      draw(region, ib, right ? x - wI + 1 : x, bottom ? y - hI + 1 : y, p.combOp, budget);
      if (budget.drawn < 0) return 'text region: more drawing than the decoder allows';
      if (!p.transposed && !right) curS += wI - 1;
      else if (p.transposed && !bottom) curS += hI - 1;
      n++;
      if (n % CLOCK_EVERY === 0 && outOfTime()) return OUT_OF_TIME;
    }
  }
  return region;
}

/**
 * T.88 7.4.2 + 6.5: a symbol dictionary segment's data (the whole segment data field: flags, AT, refinement AT,
 * SDNUMEXSYMS, SDNUMNEWSYMS, then the coded data), given the input symbols (the exported symbols of the dictionaries it
 * refers to, in order); returns the exported symbols, or an error string. Arithmetic coding only (SDHUFF = 1: the error
 * 'Huffman-coded symbol dictionaries are not read'); refinement/aggregate coding (SDREFAGG) supported; "bitmap coding
 * context used/retained" flags set: an error. At most `maxPixels` pixels are decoded or allocated (the caller's share
 * of its memory budget; never more than MAX_PIXELS).
 */
export function decodeSymbolDictionary(data: Uint8Array, input: Bitmap[], outOfTime: () => boolean, maxPixels = MAX_PIXELS): Bitmap[] | string {
  if (data.length < 2) return 'symbol dictionary: segment too short';
  // 7.4.2.1.1
  const flags = (data[0] << 8) | data[1];
  if (flags & 1) return 'Huffman-coded symbol dictionaries are not read';
  const refAgg = (flags & 2) !== 0;
  if (flags & 0x300) return 'symbol dictionary: bitmap coding contexts shared between dictionaries are not read';
  const template = ((flags >> 10) & 3) as 0 | 1 | 2 | 3;
  const rTemplate = ((flags >> 12) & 1) as 0 | 1;
  // 7.4.2.1.2–5: GBAT (four pixels for template 0, one otherwise), SDRAT (two, for refinement template 0), the counts
  let pos = 2;
  const atCount = template === 0 ? 4 : 1;
  const rAtCount = refAgg && rTemplate === 0 ? 2 : 0;
  if (data.length < pos + 2 * atCount + 2 * rAtCount + 8) return 'symbol dictionary: segment too short';
  const at = atPixels(data, pos, atCount);
  pos += 2 * atCount;
  const rAt = atPixels(data, pos, rAtCount);
  pos += 2 * rAtCount;
  const numEx = u32(data, pos);
  const numNew = u32(data, pos + 4);
  pos += 8;
  const numIn = input.length;
  if (numIn + numNew > MAX_SYMBOLS) return `symbol dictionary: ${numIn} + ${numNew} symbols`;
  if (numEx > numIn + numNew) return `symbol dictionary: exports ${numEx} of ${numIn + numNew} symbols`;

  // 7.4.2.2: one arithmetic code, and every decoder's contexts set up once for the whole dictionary
  const mq = new MqDecoder(data, pos, data.length);
  const iadh = new IntDecoder();
  const iadw = new IntDecoder();
  const iaex = new IntDecoder();
  const iaai = new IntDecoder();
  const gb = new Uint8Array(65536);
  const symCodeLen = codeLength(numIn + numNew);
  const coders = refAgg ? textCoders(symCodeLen) : null;
  const budget: Budget = { pixels: Math.min(maxPixels, MAX_PIXELS), drawn: MAX_DRAWN, instances: MAX_INSTANCES };

  // SBSYMS of the refinement/aggregate coding: the input symbols, then the new ones as they are decoded
  const symbols = input.slice();
  const newSyms: Bitmap[] = [];
  let hcHeight = 0;
  // a height class without symbols is pointless but not forbidden; many of them are garbage
  let classes = 0;
  while (newSyms.length < numNew) {
    if (++classes > 2 * numNew + 16) return 'symbol dictionary: too many height classes';
    if (classes % CLOCK_EVERY === 0 && outOfTime()) return OUT_OF_TIME;
    // 6.5.6: heights are coded as differences from the previous class's
    const dh = iadh.decode(mq);
    if (dh === null) return 'symbol dictionary: out-of-band height class delta';
    hcHeight += dh;
    if (hcHeight < 0) return `symbol dictionary: height ${hcHeight}`;
    let symWidth = 0;
    for (;;) {
      // 6.5.7: widths are differences too, and OOB ends the class
      const dw = iadw.decode(mq);
      if (dw === null) break;
      if (newSyms.length >= numNew) return 'symbol dictionary: more symbols than declared';
      symWidth += dw;
      const refused = charge(budget, symWidth, hcHeight);
      if (refused) return refused;
      let bitmap: Bitmap | string;
      if (!refAgg || !coders) {
        // 6.5.8.1: generic region decoding, TPGDON off, contexts carried from symbol to symbol
        bitmap =
          symWidth === 0 || hcHeight === 0
            ? newBitmap(symWidth, hcHeight)
            : decodeGeneric(mq, gb, { width: symWidth, height: hcHeight, template, tpgdon: false, at }, outOfTime);
      } else {
        // 6.5.8.2: REFAGGNINST instances of known symbols make this one
        const nInst = iaai.decode(mq);
        if (nInst === null || nInst < 1 || nInst > MAX_INSTANCES) return `symbol dictionary: ${nInst ?? 'out-of-band'} aggregated instances`;
        const p: TextParams = {
          width: symWidth,
          height: hcHeight,
          refine: true,
          strips: 1,
          instances: nInst,
          symbols,
          defPixel: 0,
          combOp: OR,
          transposed: false,
          refCorner: TOPLEFT,
          dsOffset: 0,
          rTemplate,
          rAt,
        };
        if (nInst === 1) {
          // 6.5.8.2.2: one instance is refined straight to the symbol's size, offset by RDX, RDY alone (Table 18)
          const id = coders.iaid.decode(mq);
          const rdx = coders.iardx.decode(mq);
          const rdy = coders.iardy.decode(mq);
          if (rdx === null || rdy === null) return 'symbol dictionary: out-of-band refinement delta';
          if (id >= symbols.length) return `symbol dictionary: symbol ${id} of ${symbols.length}`;
          bitmap = refine(mq, coders, p, symWidth, hcHeight, symbols[id], rdx, rdy, outOfTime);
        } else {
          // 6.5.8.2.1 (Table 17): a text region of the symbol's size, one strip, top-left corners, OR, refinement on
          bitmap = decodeText(mq, coders, p, budget, outOfTime);
        }
      }
      if (typeof bitmap === 'string') return bitmap;
      newSyms.push(bitmap);
      symbols.push(bitmap);
      if (newSyms.length % CLOCK_EVERY === 0 && outOfTime()) return OUT_OF_TIME;
    }
  }

  // 6.5.10: run lengths of alternately not exported and exported symbols, over the input then the new symbols
  const total = numIn + numNew;
  const exported: Bitmap[] = [];
  let exIndex = 0;
  let exFlag = false;
  for (let runs = 0; exIndex < total; runs++) {
    if (runs > 2 * total + 2) return 'symbol dictionary: too many export runs';
    const run = iaex.decode(mq);
    if (run === null || run < 0 || exIndex + run > total) return `symbol dictionary: export run ${run ?? 'out-of-band'}`;
    if (exFlag) for (let k = exIndex; k < exIndex + run; k++) exported.push(k < numIn ? input[k] : newSyms[k - numIn]);
    exIndex += run;
    exFlag = !exFlag;
  }
  // text regions code symbol IDs in as many bits as the declared count needs, so another count would misread them
  if (exported.length !== numEx) return `symbol dictionary: exports ${exported.length} symbols, declares ${numEx}`;
  return exported;
}

/**
 * T.88 7.4.3 + 6.4: a text region segment's data after its 17-byte region segment information field (from the text
 * region segment flags on), the region's width and height (from that field), and the symbols it may use (the referred
 * dictionaries' exported symbols, in order); returns the region bitmap, or an error string. Arithmetic only (SBHUFF = 1:
 * the error 'Huffman-coded text regions are not read'); SBREFINE supported; transposition, reference corners,
 * SBDSOFFSET, SBDEFPIXEL and SBCOMBOP as the standard says. At most `maxPixels` pixels decoded or allocated.
 */
export function decodeTextRegion(
  data: Uint8Array,
  width: number,
  height: number,
  symbols: Bitmap[],
  outOfTime: () => boolean,
  maxPixels = MAX_PIXELS,
): Bitmap | string {
  const cap = Math.min(maxPixels, MAX_PIXELS);
  if (data.length < 2) return 'text region: segment too short';
  // 7.4.3.1.1
  const flags = (data[0] << 8) | data[1];
  if (flags & 1) return 'Huffman-coded text regions are not read';
  const refineOn = (flags & 2) !== 0;
  const rTemplate = ((flags >> 15) & 1) as 0 | 1;
  // 7.4.3.1.3–4: SBRAT (refinement template 0 only), SBNUMINSTANCES
  let pos = 2;
  const rAtCount = refineOn && rTemplate === 0 ? 2 : 0;
  if (data.length < pos + 2 * rAtCount + 4) return 'text region: segment too short';
  const rAt = atPixels(data, pos, rAtCount);
  pos += 2 * rAtCount;
  const instances = u32(data, pos);
  pos += 4;
  if (instances > MAX_INSTANCES) return `text region: ${instances} symbol instances`;
  if (symbols.length > MAX_SYMBOLS) return `text region: ${symbols.length} symbols`;
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 0 || height < 0 || width * height > cap)
    return `text region: ${width}×${height} pixels`;
  const dsField = (flags >> 10) & 31;
  const p: TextParams = {
    width,
    height,
    refine: refineOn,
    strips: 1 << ((flags >> 2) & 3),
    instances,
    symbols,
    defPixel: (flags >> 9) & 1,
    combOp: (flags >> 7) & 3,
    transposed: (flags & 0x40) !== 0,
    refCorner: (flags >> 4) & 3,
    // a 5-bit two's complement number
    dsOffset: dsField >= 16 ? dsField - 32 : dsField,
    rTemplate,
    rAt,
  };
  const mq = new MqDecoder(data, pos, data.length);
  return decodeText(mq, textCoders(codeLength(symbols.length)), p, { pixels: cap, drawn: MAX_DRAWN, instances: MAX_INSTANCES }, outOfTime);
}
