/**
 * JBIG2 (ITU-T T.88) symbol dictionaries and text regions: how JBIG2 encoders (jbig2enc, as OCRmyPDF uses it, and book
 * scanners) store text, each distinct glyph shape once in a dictionary and the page as a list of placements of those
 * shapes. Arithmetic-coded, or Huffman-coded (SDHUFF, SBHUFF: jbig2Huffman.ts's tables, the standard ones or a tables
 * segment's; a dictionary's height classes then in one collective bitmap, uncompressed or MMR).
 *
 * Written from the recommendation: the symbol dictionary segment's data header (7.4.2.1) and decoding procedure (6.5:
 * height classes, symbol widths, direct generic-region coding or refinement/aggregate coding, the export flags) and
 * the text region segment's data header (7.4.3.1) and decoding procedure (6.4: strips, S and T coordinates, symbol
 * IDs, refinement of instances, reference corners, transposition, combination operators). The generic and refinement
 * region decoders and the arithmetic integer decoders (Annex A.2, A.3) are jbig2Regions.ts's; one MQ decoder (mq.ts)
 * reads a segment's whole coded data, since every procedure of a segment draws from the same arithmetic code.
 * Dictionaries that share coding contexts with an earlier one are refused.
 * Round trips through test-only encoders (scripts/jbig2-symbol-encoder.ts) check it (test/jbig2-symbols.test.ts).
 *
 * Bounded: counts, sizes and coordinates are read from the file and untrusted, so symbol and instance counts are
 * capped before anything is decoded, every decoded or allocated pixel is charged to a budget, drawing is charged to
 * another, and the caller's clock is consulted every few dozen symbols or instances. Failures are error strings.
 */
import { s8, u32 } from './binary';
import { BitReader, HuffmanError, HuffmanTable, standardTable, symbolIdTable } from './jbig2Huffman';
import { MqDecoder } from './mq';
import { type Bitmap, decodeGeneric, decodeMmr, decodeRefinement, IdDecoder, IntDecoder, newBitmap, unpackRows } from './jbig2Regions';

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
 * The text region decoding procedure's arithmetic decoders (6.4, Table 9's IADT … IAID). A text region segment has its
 * own; a symbol dictionary keeps one set for all its aggregate and refined symbols, since 7.4.2.2 initialises them once
 * per dictionary and never again.
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
  };
}

/** the generic refinement region contexts (GRTEMPLATE 0 needs 2^13), kept for a whole region or dictionary */
const refinementContexts = (): Uint8Array => new Uint8Array(8192);

/**
 * Where the text region decoding procedure's values come from (6.4.6–6.4.11): the arithmetic IAx decoders or the
 * Huffman tables (SBHUFF); null is OOB. `refinement()` is the arithmetic code a refined instance's bitmap is read from:
 * the region's own, or with Huffman coding the BMSIZE bytes that follow the instance's deltas (6.4.11.5).
 */
interface TextValues {
  dt(): number | null;
  fs(): number | null;
  ds(): number | null;
  it(): number | null;
  id(): number;
  ri(): number | null;
  rdw(): number | null;
  rdh(): number | null;
  rdx(): number | null;
  rdy(): number | null;
  refinement(): MqDecoder;
}

function arithmeticValues(mq: MqDecoder, c: TextCoders): TextValues {
  return {
    dt: () => c.iadt.decode(mq),
    fs: () => c.iafs.decode(mq),
    ds: () => c.iads.decode(mq),
    it: () => c.iait.decode(mq),
    id: () => c.iaid.decode(mq),
    ri: () => c.iari.decode(mq),
    rdw: () => c.iardw.decode(mq),
    rdh: () => c.iardh.decode(mq),
    rdx: () => c.iardx.decode(mq),
    rdy: () => c.iardy.decode(mq),
    refinement: () => mq,
  };
}

/** Table 9's Huffman tables (SBHUFFFS … SBHUFFRSIZE), and the symbol ID code: a table, or a fixed number of bits */
interface TextTables {
  fs: HuffmanTable;
  ds: HuffmanTable;
  dt: HuffmanTable;
  rdw: HuffmanTable;
  rdh: HuffmanTable;
  rdx: HuffmanTable;
  rdy: HuffmanTable;
  rsize: HuffmanTable;
  id: HuffmanTable | number;
}

/** Huffman-coded values from `r` over `data`; `stripBits` is LOG2SBSTRIPS, the bits of an instance's T in its strip (6.4.9) */
function huffmanValues(r: BitReader, data: Uint8Array, t: TextTables, stripBits: number): TextValues {
  const ids = t.id;
  return {
    dt: () => t.dt.decode(r),
    fs: () => t.fs.decode(r),
    ds: () => t.ds.decode(r),
    it: () => r.bits(stripBits),
    id: typeof ids === 'number' ? () => r.bits(ids) : () => ids.value(r, 'symbol ID'),
    ri: () => r.read(),
    rdw: () => t.rdw.decode(r),
    rdh: () => t.rdh.decode(r),
    rdx: () => t.rdx.decode(r),
    rdy: () => t.rdy.decode(r),
    refinement: () => {
      const size = t.rsize.value(r, 'refinement size');
      const at = r.byteOffset();
      r.skip(size);
      return new MqDecoder(data, at, at + size);
    },
  };
}

/** Table 17's tables: a dictionary's aggregates, Huffman-coded, are text regions of these, with IDs of `idBits` bits */
function aggregateTables(idBits: number): TextTables {
  const b15 = standardTable(15);
  return {
    fs: standardTable(6),
    ds: standardTable(8),
    dt: standardTable(11),
    rdw: b15,
    rdh: b15,
    rdx: b15,
    rdy: b15,
    rsize: standardTable(1),
    id: idBits,
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
  gr: Uint8Array,
  p: TextParams,
  w: number,
  h: number,
  reference: Bitmap,
  dx: number,
  dy: number,
  outOfTime: () => boolean,
) {
  if (w === 0 || h === 0) return newBitmap(w, h);
  return decodeRefinement(mq, gr, { width: w, height: h, template: p.rTemplate, reference, dx, dy, tpgron: false, at: p.rAt }, outOfTime);
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

/** 6.4.5: the text region decoding procedure, its values from `v`, refinements in the contexts `gr`. */
function decodeText(v: TextValues, gr: Uint8Array, p: TextParams, budget: Budget, outOfTime: () => boolean): Bitmap | string {
  const refused = charge(budget, p.width, p.height);
  if (refused) return refused;
  const region = newBitmap(p.width, p.height);
  if (p.defPixel) region.data.fill(1);
  const right = (p.refCorner & 2) !== 0;
  const bottom = (p.refCorner & 1) === 0;

  // 6.4.6: strip T values are coded in units of SBSTRIPS; the first is negated.
  const t0 = v.dt();
  if (t0 === null) return 'text region: out-of-band initial strip T';
  let stripT = -t0 * p.strips;
  let firstS = 0;
  let n = 0;
  while (n < p.instances) {
    const dt = v.dt();
    if (dt === null) return 'text region: out-of-band strip delta T';
    stripT += dt * p.strips;
    let curS = 0;
    for (let first = true; ; first = false) {
      if (first) {
        const dfs = v.fs();
        if (dfs === null) return 'text region: out-of-band first S';
        firstS += dfs;
        curS = firstS;
      } else {
        // 6.4.8: OOB ends the strip; SBDSOFFSET adjusts every later instance's gap
        const ids = v.ds();
        if (ids === null) break;
        curS += ids + p.dsOffset;
      }
      if (n >= p.instances) return 'text region: more symbol instances than declared';
      // a dictionary's aggregates each declare their own count; together they may not exceed one region's
      if (--budget.instances < 0) return 'symbol instances more than the decoder allows';
      // 6.4.9: T within the strip, coded only when there are several strip rows
      let curT = 0;
      if (p.strips > 1) {
        const it = v.it();
        if (it === null) return 'text region: out-of-band T';
        curT = it;
      }
      const tI = stripT + curT;
      const id = v.id();
      if (id >= p.symbols.length) return `text region: symbol ${id} of ${p.symbols.length}`;
      let ib = p.symbols[id];
      // 6.4.11: a refined instance is its symbol refined to (WO + RDW) × (HO + RDH), offset by RDW/2 + RDX, RDH/2 + RDY
      if (p.refine) {
        const ri = v.ri();
        if (ri === null) return 'text region: out-of-band refinement flag';
        if (ri !== 0) {
          const rdw = v.rdw();
          const rdh = v.rdh();
          const rdx = v.rdx();
          const rdy = v.rdy();
          if (rdw === null || rdh === null || rdx === null || rdy === null) return 'text region: out-of-band refinement delta';
          const mq = v.refinement();
          const w = ib.width + rdw;
          const h = ib.height + rdh;
          const bad = charge(budget, w, h);
          if (bad) return bad;
          const refined = refine(mq, gr, p, w, h, ib, Math.floor(rdw / 2) + rdx, Math.floor(rdh / 2) + rdy, outOfTime);
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

/** the Huffman coding's errors (data that ends early, a code no table has) as the error strings this module returns */
function huffmanSafe<T>(f: () => T | string): T | string {
  try {
    return f();
  } catch (e) {
    if (e instanceof HuffmanError) return e.message;
    throw e;
  }
}

/**
 * Picks a table by its selector: a standard one (`standard[selector]`), or at `customSelector` (3 for a two-bit
 * selector, 1 for a one-bit one) the next of the referred tables segments (7.4.2.1.6, 7.4.3.1.6: they are used in the
 * order the flags name them).
 */
function selectTable(selector: number, standard: readonly number[], customSelector: number, custom: HuffmanTable[], what: string): HuffmanTable {
  if (selector === customSelector) {
    const t = custom.shift();
    if (!t) throw new HuffmanError(`a custom ${what} table that is not there`);
    return t;
  }
  if (selector >= standard.length) throw new HuffmanError(`the ${what} table selector ${selector}`);
  return standardTable(standard[selector]);
}

/**
 * The collective bitmap of a Huffman-coded height class (6.5.9): BMSIZE, then the rest of the byte, then the bitmap,
 * uncompressed (BMSIZE 0: rows padded to bytes) or MMR-coded in BMSIZE bytes.
 */
function collectiveBitmap(r: BitReader, data: Uint8Array, size: HuffmanTable, width: number, height: number, deadline: number): Bitmap | string {
  const bmSize = size.value(r, 'collective bitmap size');
  const at = r.byteOffset();
  if (bmSize !== 0) {
    if (bmSize > data.length - at) return 'symbol dictionary: its collective bitmap ends early';
    r.skip(bmSize);
    return decodeMmr(data.subarray(at, at + bmSize), width, height, deadline);
  }
  const rowBytes = (width + 7) >> 3;
  if (rowBytes * height > data.length - at) return 'symbol dictionary: its collective bitmap ends early';
  r.skip(rowBytes * height);
  return unpackRows(data, at, width, height);
}

/** the columns [x0, x0 + w) of `b` */
function columns(b: Bitmap, x0: number, w: number): Bitmap {
  const out = newBitmap(w, b.height);
  for (let y = 0; y < b.height; y++) out.data.set(b.data.subarray(y * b.width + x0, y * b.width + x0 + w), y * w);
  return out;
}

/**
 * T.88 7.4.2 + 6.5: a symbol dictionary segment's data (the whole segment data field: flags, AT, refinement AT,
 * SDNUMEXSYMS, SDNUMNEWSYMS, then the coded data), given the input symbols (the exported symbols of the dictionaries it
 * refers to, in order) and the tables segments it refers to (in order); returns the exported symbols, or an error
 * string. Arithmetic or Huffman coding, with or without refinement/aggregate coding (SDREFAGG); "bitmap coding context
 * used/retained" flags set: an error. At most `maxPixels` pixels are decoded or allocated (the caller's share of its
 * memory budget; never more than MAX_PIXELS); `deadline` (performance.now()) bounds MMR-coded collective bitmaps.
 */
export function decodeSymbolDictionary(
  data: Uint8Array,
  input: Bitmap[],
  outOfTime: () => boolean,
  maxPixels = MAX_PIXELS,
  tables: readonly HuffmanTable[] = [],
  deadline = Infinity,
): Bitmap[] | string {
  return huffmanSafe(() => symbolDictionary(data, input, outOfTime, maxPixels, tables, deadline));
}

function symbolDictionary(
  data: Uint8Array,
  input: Bitmap[],
  outOfTime: () => boolean,
  maxPixels: number,
  tables: readonly HuffmanTable[],
  deadline: number,
): Bitmap[] | string {
  if (data.length < 2) return 'symbol dictionary: segment too short';
  // 7.4.2.1.1
  const flags = (data[0] << 8) | data[1];
  const huffman = (flags & 1) !== 0;
  const refAgg = (flags & 2) !== 0;
  if (flags & 0x300) return 'symbol dictionary: bitmap coding contexts shared between dictionaries are not read';
  const template = ((flags >> 10) & 3) as 0 | 1 | 2 | 3;
  const rTemplate = ((flags >> 12) & 1) as 0 | 1;
  // 7.4.2.1.2–5: GBAT (arithmetic only: four pixels for template 0, one otherwise), SDRAT (two, for refinement
  // template 0), the counts
  let pos = 2;
  const atCount = huffman ? 0 : template === 0 ? 4 : 1;
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

  // 7.4.2.2: one code (arithmetic or Huffman) for the whole dictionary, every arithmetic decoder's contexts set up once
  const mq = huffman ? undefined : new MqDecoder(data, pos, data.length);
  const r = huffman ? new BitReader(data, pos) : undefined;
  const iadh = new IntDecoder();
  const iadw = new IntDecoder();
  const iaex = new IntDecoder();
  const iaai = new IntDecoder();
  // 7.4.2.1.1's table selectors; custom tables are the referred ones, in the order DH, DW, BMSIZE, AGGINST
  const custom = tables.slice();
  const huff = huffman
    ? {
        dh: selectTable((flags >> 2) & 3, [4, 5], 3, custom, 'height class delta'),
        dw: selectTable((flags >> 4) & 3, [2, 3], 3, custom, 'symbol width delta'),
        bmSize: selectTable((flags >> 6) & 1, [1], 1, custom, 'collective bitmap size'),
        aggInst: selectTable((flags >> 7) & 1, [1], 1, custom, 'aggregate instances'),
      }
    : undefined;
  const deltaHeight = r && huff ? () => huff.dh.decode(r) : () => iadh.decode(mq!);
  const deltaWidth = r && huff ? () => huff.dw.decode(r) : () => iadw.decode(mq!);
  const aggInstances = r && huff ? () => huff.aggInst.decode(r) : () => iaai.decode(mq!);
  const exportRun = r ? () => standardTable(1).decode(r) : () => iaex.decode(mq!);
  const gb = new Uint8Array(65536);
  const symCodeLen = codeLength(numIn + numNew);
  const coders = refAgg && mq ? textCoders(symCodeLen) : null;
  const gr = refinementContexts();
  // 6.5.8.2.3: Huffman-coded aggregates name symbols in SBSYMCODELEN bits, at least one
  const aggValues = refAgg ? (r ? huffmanValues(r, data, aggregateTables(Math.max(1, symCodeLen)), 0) : arithmeticValues(mq!, coders!)) : null;
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
    const dh = deltaHeight();
    if (dh === null) return 'symbol dictionary: out-of-band height class delta';
    hcHeight += dh;
    if (hcHeight < 0) return `symbol dictionary: height ${hcHeight}`;
    let symWidth = 0;
    // a Huffman-coded class without refinement/aggregation: its symbols' widths, its bitmap after them (6.5.5 4 c–d)
    const widths: number[] = [];
    let totWidth = 0;
    for (;;) {
      // 6.5.7: widths are differences too, and OOB ends the class
      const dw = deltaWidth();
      if (dw === null) break;
      if (newSyms.length + widths.length >= numNew) return 'symbol dictionary: more symbols than declared';
      symWidth += dw;
      const refused = charge(budget, symWidth, hcHeight);
      if (refused) return refused;
      if (huffman && !refAgg) {
        widths.push(symWidth);
        totWidth += symWidth;
        if (widths.length % CLOCK_EVERY === 0 && outOfTime()) return OUT_OF_TIME;
        continue;
      }
      let bitmap: Bitmap | string;
      if (!aggValues) {
        // 6.5.8.1: generic region decoding, TPGDON off, contexts carried from symbol to symbol
        bitmap =
          symWidth === 0 || hcHeight === 0
            ? newBitmap(symWidth, hcHeight)
            : decodeGeneric(mq!, gb, { width: symWidth, height: hcHeight, template, tpgdon: false, at }, outOfTime);
      } else {
        // 6.5.8.2: REFAGGNINST instances of known symbols make this one
        const nInst = aggInstances();
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
          // 6.5.8.2.2: one instance is refined straight to the symbol's size, offset by RDX, RDY alone (Table 18); with
          // Huffman coding its bitmap is the arithmetic code in the BMSIZE (Table B.1) bytes after them
          const id = aggValues.id();
          const rdx = aggValues.rdx();
          const rdy = aggValues.rdy();
          if (rdx === null || rdy === null) return 'symbol dictionary: out-of-band refinement delta';
          const code = aggValues.refinement();
          if (id >= symbols.length) return `symbol dictionary: symbol ${id} of ${symbols.length}`;
          bitmap = refine(code, gr, p, symWidth, hcHeight, symbols[id], rdx, rdy, outOfTime);
        } else {
          // 6.5.8.2.1 (Table 17): a text region of the symbol's size, one strip, top-left corners, OR, refinement on
          bitmap = decodeText(aggValues, gr, p, budget, outOfTime);
        }
      }
      if (typeof bitmap === 'string') return bitmap;
      newSyms.push(bitmap);
      symbols.push(bitmap);
      if (newSyms.length % CLOCK_EVERY === 0 && outOfTime()) return OUT_OF_TIME;
    }
    if (r && huff && !refAgg) {
      // 6.5.9: the class's symbols side by side in one bitmap, cut into them by their widths
      const refused = charge(budget, totWidth, hcHeight);
      if (refused) return refused;
      const all = collectiveBitmap(r, data, huff.bmSize, totWidth, hcHeight, deadline);
      if (typeof all === 'string') return all;
      let x = 0;
      for (const w of widths) {
        const bitmap = columns(all, x, w);
        x += w;
        newSyms.push(bitmap);
        symbols.push(bitmap);
      }
      if (outOfTime()) return OUT_OF_TIME;
    }
  }

  // 6.5.10: run lengths of alternately not exported and exported symbols, over the input then the new symbols
  const total = numIn + numNew;
  const exported: Bitmap[] = [];
  let exIndex = 0;
  let exFlag = false;
  for (let runs = 0; exIndex < total; runs++) {
    if (runs > 2 * total + 2) return 'symbol dictionary: too many export runs';
    const run = exportRun();
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
 * region segment flags on), the region's width and height (from that field), the symbols it may use (the referred
 * dictionaries' exported symbols, in order) and the tables segments it refers to (in order); returns the region
 * bitmap, or an error string. Arithmetic or Huffman coding (SBHUFF: the Huffman flags, and the symbol ID table before
 * the coded data); SBREFINE, transposition, reference corners, SBDSOFFSET, SBDEFPIXEL and SBCOMBOP as the standard
 * says. At most `maxPixels` pixels decoded or allocated.
 */
export function decodeTextRegion(
  data: Uint8Array,
  width: number,
  height: number,
  symbols: Bitmap[],
  outOfTime: () => boolean,
  maxPixels = MAX_PIXELS,
  tables: readonly HuffmanTable[] = [],
): Bitmap | string {
  return huffmanSafe(() => textRegion(data, width, height, symbols, outOfTime, maxPixels, tables));
}

function textRegion(
  data: Uint8Array,
  width: number,
  height: number,
  symbols: Bitmap[],
  outOfTime: () => boolean,
  maxPixels: number,
  tables: readonly HuffmanTable[],
): Bitmap | string {
  const cap = Math.min(maxPixels, MAX_PIXELS);
  if (data.length < 2) return 'text region: segment too short';
  // 7.4.3.1.1
  const flags = (data[0] << 8) | data[1];
  const huffman = (flags & 1) !== 0;
  const refineOn = (flags & 2) !== 0;
  const rTemplate = ((flags >> 15) & 1) as 0 | 1;
  // 7.4.3.1.2–4: the Huffman flags, SBRAT (refinement template 0 only), SBNUMINSTANCES
  let pos = 2;
  const hFlags = huffman && data.length >= 4 ? (data[2] << 8) | data[3] : 0;
  if (huffman) pos += 2;
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
  const stripLog = (flags >> 2) & 3;
  const p: TextParams = {
    width,
    height,
    refine: refineOn,
    strips: 1 << stripLog,
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
  const budget = { pixels: cap, drawn: MAX_DRAWN, instances: MAX_INSTANCES };
  if (!huffman)
    return decodeText(
      arithmeticValues(new MqDecoder(data, pos, data.length), textCoders(codeLength(symbols.length))),
      refinementContexts(),
      p,
      budget,
      outOfTime,
    );
  // 7.4.3.1.6: the tables, custom ones taken from the referred tables segments in this order
  const custom = tables.slice();
  const delta = [14, 15];
  const t: TextTables = {
    fs: selectTable(hFlags & 3, [6, 7], 3, custom, 'first S'),
    ds: selectTable((hFlags >> 2) & 3, [8, 9, 10], 3, custom, 'S delta'),
    dt: selectTable((hFlags >> 4) & 3, [11, 12, 13], 3, custom, 'T delta'),
    rdw: selectTable((hFlags >> 6) & 3, delta, 3, custom, 'refinement width'),
    rdh: selectTable((hFlags >> 8) & 3, delta, 3, custom, 'refinement height'),
    rdx: selectTable((hFlags >> 10) & 3, delta, 3, custom, 'refinement x'),
    rdy: selectTable((hFlags >> 12) & 3, delta, 3, custom, 'refinement y'),
    rsize: selectTable((hFlags >> 14) & 1, [1], 1, custom, 'refinement size'),
    id: 0,
  };
  // 7.4.3.1.7: the symbol ID table comes before the coded data
  const r = new BitReader(data, pos);
  t.id = symbolIdTable(r, symbols.length);
  return decodeText(huffmanValues(r, data, t, stripLog), refinementContexts(), p, budget, outOfTime);
}
