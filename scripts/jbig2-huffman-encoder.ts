/**
 * A test-only JBIG2 (ITU-T T.88) encoder for Huffman coding, written from the recommendation to round-trip
 * src/analyzer/layerQuality/jbig2Huffman.ts and the SDHUFF / SBHUFF paths of jbig2Symbols.ts. It writes:
 *   - code words of a table given by its lines (Annex B.2), with codes assigned here by Annex B.3's procedure (not by
 *     the decoder's HuffmanTable; only the standard tables' lines, Tables B.1–B.15, are taken from the decoder's module);
 *   - tables segments' data (7.4.13: HTOOB, HTPS, HTRS, HTLOW, HTHIGH, the lines, the lower, upper and OOB PREFLENs);
 *   - Huffman-coded symbol dictionary segments' data (7.4.2.1 with SDHUFF = 1, 6.5): height classes of direct symbols
 *     in one collective bitmap each (6.5.9: uncompressed rows padded to bytes, or MMR through scripts/fax-encoder.ts),
 *     or refinement/aggregate coding (6.5.8.2: one refined instance, IDs in SBSYMCODELEN bits, RDX, RDY by Table B.15,
 *     BMSIZE by Table B.1 and the arithmetic refinement in those bytes; or several instances as a text region with
 *     Table 17's tables), the export runs by Table B.1 (6.5.10), every table selector incl. custom tables;
 *   - Huffman-coded text region segments' data (7.4.3.1 with SBHUFF = 1, 6.4) from the text region segment flags on:
 *     the Huffman flags, the symbol ID table with run codes 0–34 (7.4.3.1.7), strips, CURT in LOG2SBSTRIPS bits, R_I as
 *     one bit, refined instances (RDW, RDH, RDX, RDY, BMSIZE by the RSIZE table, the arithmetic refinement in those
 *     bytes, refinement contexts kept across the region), every table selector incl. custom tables.
 *
 * Text regions are described as scripts/jbig2-symbol-encoder.ts describes them (its TextRegionSpec: the top-left pixel
 * where each instance lands) and the coded values are derived from that picture by its walkTextInstances, written here
 * as table codes, so the decoder's step sequence (6.4.5) is checked against geometry. Arithmetic-coded refinements go
 * through scripts/jbig2-encoder.ts. Segment headers are scripts/jbig2-segments.ts's business. Custom tables are
 * returned in the order the decoder takes them from the referred tables segments (dictionary: DH, DW, BMSIZE, AGGINST;
 * text region: FS, DS, DT, RDW, RDH, RDX, RDY, RSIZE).
 */
import type { Bitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import { type Line, LOWER, OOB, standardLines } from '../src/analyzer/layerQuality/jbig2Huffman';
import { encodeRefinement, MqEncoder, REFINEMENT_DEFAULT_AT } from './jbig2-encoder';
import {
  aggregateBitmap,
  type At,
  atBytes,
  be32,
  type DictionaryBase,
  exportRuns,
  symCodeLength,
  textRegionHeader,
  type TextRegionSpec,
  walkTextInstances,
} from './jbig2-symbol-encoder';
import { encodeFax } from './fax-encoder';

/** Bits, most significant first, packed into bytes; the last byte padded with 0s. */
export class BitWriter {
  private out: number[] = [];
  private acc = 0;
  private n = 0;

  bit(b: number): void {
    this.acc = (this.acc << 1) | (b & 1);
    if (++this.n === 8) {
      this.out.push(this.acc);
      this.acc = 0;
      this.n = 0;
    }
  }

  /** `value` (0 ≤ value < 2^n, n ≤ 32) in n bits */
  bits(value: number, n: number): void {
    if (!Number.isInteger(value) || value < 0 || value >= 2 ** n) throw new RangeError(`BitWriter: ${value} in ${n} bits`);
    for (let i = n - 1; i >= 0; i--) this.bit(Math.floor(value / 2 ** i) % 2);
  }

  /** 0s up to the next byte boundary */
  align(): void {
    while (this.n !== 0) this.bit(0);
  }

  /** whole bytes, from a byte boundary */
  bytes(data: ArrayLike<number>): void {
    this.align();
    for (let i = 0; i < data.length; i++) this.out.push(data[i] & 255);
  }

  /** the bits written so far as '0' and '1' (for tests that pin code words) */
  toString(): string {
    let s = this.out.map((b) => b.toString(2).padStart(8, '0')).join('');
    for (let i = this.n - 1; i >= 0; i--) s += (this.acc >> i) & 1;
    return s;
  }

  /** the bytes, the last one padded */
  finish(): number[] {
    this.align();
    return this.out.slice();
  }
}

/**
 * Annex B.3: the code of each entry from its prefix length (0: the entry gets no code; its code is −1), in the order
 * given. A RangeError when the lengths cannot make a prefix code (Kraft sum above 1).
 */
export function assignCodes(prefLens: readonly number[]): number[] {
  let kraft = 0;
  for (const p of prefLens) if (p > 0) kraft += 2 ** -p;
  if (kraft > 1) throw new RangeError(`prefix lengths ${prefLens.join(',')} are no prefix code`);
  // 1) the histogram LENCOUNT, LENMAX; LENCOUNT[0] = 0
  const lenMax = Math.max(0, ...prefLens);
  const lenCount = new Array<number>(lenMax + 1).fill(0);
  for (const p of prefLens) lenCount[p]++;
  lenCount[0] = 0;
  const codes = prefLens.map(() => -1);
  // 2)–3) FIRSTCODE[0] = 0; FIRSTCODE[CURLEN] = (FIRSTCODE[CURLEN − 1] + LENCOUNT[CURLEN − 1]) × 2; the entries of that
  // length take consecutive codes in their order
  let firstCode = 0;
  for (let curLen = 1; curLen <= lenMax; curLen++) {
    firstCode = (firstCode + lenCount[curLen - 1]) * 2;
    let curCode = firstCode;
    for (let curTemp = 0; curTemp < prefLens.length; curTemp++) if (prefLens[curTemp] === curLen) codes[curTemp] = curCode++;
  }
  return codes;
}

/** A table's lines (B.2) with their B.3 codes, for writing values. */
export class HuffmanCode {
  private readonly codes: number[];

  constructor(readonly lines: readonly Line[]) {
    this.codes = assignCodes(lines.map((l) => l[0]));
  }

  /** the first coded line that holds `value` (null: OOB), and the range bits; undefined when none does */
  private find(value: number | null): { line: number; offset: number } | undefined {
    for (let i = 0; i < this.lines.length; i++) {
      const [p, r, low, kind] = this.lines[i];
      if (p === 0) continue;
      if (value === null || kind === OOB) {
        if (value === null && kind === OOB) return { line: i, offset: 0 };
        continue;
      }
      const offset = kind === LOWER ? low - value : value - low;
      if (offset >= 0 && offset < 2 ** r) return { line: i, offset };
    }
    return undefined;
  }

  canCode(value: number | null): boolean {
    return this.find(value) !== undefined;
  }

  /** writes `value` (null: OOB): its line's prefix, then the offset in the line's range bits */
  put(w: BitWriter, value: number | null): void {
    const f = this.find(value);
    if (!f) throw new RangeError(`${value ?? 'OOB'} has no code in this table`);
    const [p, r] = this.lines[f.line];
    w.bits(this.codes[f.line], p);
    w.bits(f.offset, r);
  }
}

const standardCodes: HuffmanCode[] = [];
/** Table B.n (1..15) for writing */
export const standardCode = (n: number): HuffmanCode => (standardCodes[n] ??= new HuffmanCode(standardLines(n)));

/** A table as a tables segment states it (B.2, 7.4.13). */
export interface CustomTable {
  /** HTLOW */
  low: number;
  /** the lines from HTLOW up, [PREFLEN, RANGELEN] each; each starts where the one before ends */
  lines: [number, number][];
  /** the PREFLEN of the lower range line (values below HTLOW), of the upper range line (HTHIGH and up), of the OOB line (absent: HTOOB 0) */
  lower: number;
  upper: number;
  oob?: number;
  /** HTHIGH; by default where the lines end (then the last line ends just below it) */
  high?: number;
  /** HTPS, HTRS (1..8); by default the fewest bits that hold the PREFLENs and the RANGELENs */
  htps?: number;
  htrs?: number;
}

const bitsFor = (max: number) => Math.max(1, Math.ceil(Math.log2(max + 1)));

function tableHigh(t: CustomTable): number {
  return t.high ?? t.lines.reduce((cur, [, r]) => cur + 2 ** r, t.low);
}

/** the lines B.2 makes of a tables segment: its lines, the lower range line (HTLOW − 1 and below), the upper one (HTHIGH up), OOB */
export function tableLines(t: CustomTable): Line[] {
  const out: Line[] = [];
  let cur = t.low;
  for (const [p, r] of t.lines) {
    out.push([p, r, cur]);
    cur += 2 ** r;
  }
  out.push([t.lower, 32, t.low - 1, LOWER], [t.upper, 32, tableHigh(t)]);
  if (t.oob !== undefined) out.push([t.oob, 0, 0, OOB]);
  return out;
}

/** 7.4.13: a tables segment's data field */
export function encodeTableSegment(t: CustomTable): Uint8Array {
  const high = tableHigh(t);
  // the decoder reads lines while CURRANGELOW < HTHIGH: exactly these
  let cur = t.low;
  for (const [, r] of t.lines) {
    if (cur >= high) throw new Error('a table line past HTHIGH');
    cur += 2 ** r;
  }
  if (cur < high) throw new Error('table lines that end before HTHIGH');
  const prefs = [...t.lines.map((l) => l[0]), t.lower, t.upper, ...(t.oob !== undefined ? [t.oob] : [])];
  const htps = t.htps ?? bitsFor(Math.max(...prefs));
  const htrs = t.htrs ?? bitsFor(Math.max(0, ...t.lines.map((l) => l[1])));
  const flags = (t.oob !== undefined ? 1 : 0) | ((htps - 1) << 1) | ((htrs - 1) << 4);
  const w = new BitWriter();
  for (const [p, r] of t.lines) {
    w.bits(p, htps);
    w.bits(r, htrs);
  }
  w.bits(t.lower, htps);
  w.bits(t.upper, htps);
  if (t.oob !== undefined) w.bits(t.oob, htps);
  return Uint8Array.from([flags, ...be32(t.low), ...be32(high), ...w.finish()]);
}

/**
 * Huffman code lengths for symbols used `counts[k]` times (0: no code), at most `maxLen` bits (else all used symbols
 * get one length); a lone symbol gets 1 bit.
 */
export function huffmanLengths(counts: readonly number[], maxLen = 32): number[] {
  const used = counts.map((c, k) => (c > 0 ? k : -1)).filter((k) => k >= 0);
  const lengths = counts.map(() => 0);
  if (used.length === 1) lengths[used[0]] = 1;
  if (used.length <= 1) return lengths;
  // leaves then merged nodes: weight, parent
  const weight = used.map((k) => counts[k]);
  const parent = used.map(() => -1);
  const open = used.map((_, i) => i);
  while (open.length > 1) {
    open.sort((a, b) => weight[a] - weight[b] || a - b);
    const [a, b] = open.splice(0, 2);
    const node = weight.length;
    weight.push(weight[a] + weight[b]);
    parent.push(-1);
    parent[a] = parent[b] = node;
    open.push(node);
  }
  used.forEach((k, i) => {
    let d = 0;
    for (let n = i; parent[n] >= 0; n = parent[n]) d++;
    lengths[k] = d;
  });
  if (Math.max(...lengths) > maxLen) {
    const flat = bitsFor(used.length - 1);
    for (const k of used) lengths[k] = flat;
  }
  return lengths;
}

/**
 * 7.4.3.1.7: a text region's symbol ID table: the PREFLENs of RUNCODE0–34 in four bits each, then the symbol ID code
 * lengths in run codes (0–31 a length; 32 the previous length 3–6 times, two more bits; 33 zeros 3–10 times, three
 * bits; 34 zeros 11–138 times, seven bits), then the rest of the byte. Returns the run codes written and each
 * symbol's code (B.3 on the lengths).
 */
export function writeSymbolIdTable(w: BitWriter, lengths: readonly number[]): { runCodes: number[]; codes: number[] } {
  const runs: { code: number; extra?: [number, number] }[] = [];
  for (let i = 0; i < lengths.length;) {
    const len = lengths[i];
    if (!Number.isInteger(len) || len < 0 || len > 31) throw new RangeError(`a symbol ID code length ${len}`);
    let same = 0;
    while (i + same < lengths.length && lengths[i + same] === len) same++;
    if (len === 0 && same >= 11) {
      const n = Math.min(same, 138);
      runs.push({ code: 34, extra: [n - 11, 7] });
      i += n;
    } else if (len === 0 && same >= 3) {
      const n = Math.min(same, 10);
      runs.push({ code: 33, extra: [n - 3, 3] });
      i += n;
    } else if (i > 0 && lengths[i - 1] === len && same >= 3) {
      const n = Math.min(same, 6);
      runs.push({ code: 32, extra: [n - 3, 2] });
      i += n;
    } else {
      runs.push({ code: len });
      i++;
    }
  }
  const counts = new Array<number>(35).fill(0);
  for (const r of runs) counts[r.code]++;
  const runLengths = huffmanLengths(counts, 15);
  for (const p of runLengths) w.bits(p, 4);
  const runCodes = assignCodes(runLengths);
  for (const r of runs) {
    w.bits(runCodes[r.code], runLengths[r.code]);
    if (r.extra) w.bits(r.extra[0], r.extra[1]);
  }
  w.align();
  return { runCodes: runs.map((r) => r.code), codes: assignCodes(lengths) };
}

/** the tables and symbol ID code of the text region decoding procedure with SBHUFF = 1 (Table 9), and its refinement contexts */
interface TextCoding {
  fs: HuffmanCode;
  ds: HuffmanCode;
  dt: HuffmanCode;
  rdw: HuffmanCode;
  rdh: HuffmanCode;
  rdx: HuffmanCode;
  rdy: HuffmanCode;
  rsize: HuffmanCode;
  id: (w: BitWriter, id: number) => void;
  /** the generic refinement contexts (GRTEMPLATE 0 needs 2^13), kept for a whole region or dictionary */
  gr: Uint8Array;
}

/** an arithmetic-coded refinement of `reference` into `bitmap`, alone in its bytes (a new MQ code, the contexts `gr` kept) */
function refinementBytes(gr: Uint8Array, bitmap: Bitmap, reference: Bitmap, dx: number, dy: number, template: 0 | 1, at: At): Uint8Array {
  const mq = new MqEncoder();
  encodeRefinement(mq, gr, bitmap, { template, reference, dx, dy, tpgron: false, at });
  return mq.flush();
}

/** a whole number of strip heights, or the spec is wrong */
function strips(value: number, stripSize: number): number {
  const v = value / stripSize;
  if (!Number.isInteger(v)) throw new Error(`a strip T step ${value} that is no multiple of SBSTRIPS ${stripSize}`);
  return v;
}

/**
 * The instances of a text region, their values as jbig2-symbol-encoder's walkTextInstances derives them from the
 * geometry, written by the tables and symbol ID code `c`: CURT in LOG2SBSTRIPS bits (6.4.9), R_I one bit, a refined
 * instance's deltas, then BMSIZE by the RSIZE table and its arithmetic code (6.4.11). `initialT` as the walk takes it.
 */
function writeInstances(w: BitWriter, c: TextCoding, spec: TextRegionSpec, initialT: number): void {
  const stripSize = spec.stripSize ?? 1;
  const stripBits = Math.log2(stripSize);
  const rTemplate = spec.rTemplate ?? 0;
  const rAt = spec.rAt ?? REFINEMENT_DEFAULT_AT;
  // the initial STRIPT is a whole number of strip heights too (the walk codes it negated as the first DT)
  strips(initialT, stripSize);
  walkTextInstances(spec, initialT, {
    dt: (v) => c.dt.put(w, strips(v * stripSize, stripSize)),
    fs: (v) => c.fs.put(w, v),
    ds: (v) => c.ds.put(w, v),
    it: (v) => w.bits(v, stripBits),
    id: (v) => c.id(w, v),
    ri: (v) => w.bit(v),
    refinement: (r) => {
      c.rdw.put(w, r.rdw);
      c.rdh.put(w, r.rdh);
      c.rdx.put(w, r.rdx);
      c.rdy.put(w, r.rdy);
      const bytes = refinementBytes(c.gr, r.bitmap, r.reference, r.dx, r.dy, rTemplate, rAt);
      c.rsize.put(w, bytes.length);
      w.bytes(bytes);
    },
  });
}

/** a table choice: Table B.n by its number, or a custom table (a tables segment the segment refers to) */
export type TableChoice = number | CustomTable;

/** the selector of `choice` among `standard` (Table numbers by selector value), or `customSelector`; custom ones are collected in order */
function chooser(custom: CustomTable[]) {
  return (choice: TableChoice, standard: number[], customSelector: number): [number, HuffmanCode] => {
    if (typeof choice !== 'number') {
      custom.push(choice);
      return [customSelector, new HuffmanCode(tableLines(choice))];
    }
    const sel = standard.indexOf(choice);
    if (sel < 0) throw new Error(`Table B.${choice} is not one of B.${standard.join(', B.')}`);
    return [sel, standardCode(choice)];
  };
}

export interface HuffmanTextRegionSpec extends TextRegionSpec {
  /** SBHUFFFS: B.6 (default), B.7 or custom */
  fs?: TableChoice;
  /** SBHUFFDS: B.8 (default), B.9, B.10 or custom (it needs OOB) */
  ds?: TableChoice;
  /** SBHUFFDT: B.11 (default), B.12, B.13 or custom. B.11–B.13 code only values ≥ 1: strips go down the page. */
  dt?: TableChoice;
  /** SBHUFFRDW … SBHUFFRDY: B.14 (default: −2..2 only), B.15 or custom */
  rdw?: TableChoice;
  rdh?: TableChoice;
  rdx?: TableChoice;
  rdy?: TableChoice;
  /** SBHUFFRSIZE: B.1 (default) or custom */
  rsize?: TableChoice;
  /** the symbol ID code lengths, one a symbol (0: not used); by default max(1, ⌈log2 SBNUMSYMS⌉) each */
  idLengths?: number[];
  /** STRIPT before the first strip (a multiple of SBSTRIPS, coded negated as the first DT); by default −SBSTRIPS (DT 1) */
  initialT?: number;
  /** the Huffman flags word as written, when a test wants it other than the choices imply */
  huffmanFlags?: number;
}

/**
 * A Huffman-coded text region segment's data from the text region segment flags on (7.4.3.1): flags, Huffman flags,
 * SBRAT, SBNUMINSTANCES, the symbol ID table, the coded instances. Also the custom tables in the order the decoder
 * takes them from the referred tables segments, and the run codes of the symbol ID table.
 */
export function encodeHuffmanTextRegion(spec: HuffmanTextRegionSpec): { data: Uint8Array; tables: CustomTable[]; runCodes: number[] } {
  const tables: CustomTable[] = [];
  const choose = chooser(tables);
  const [fsSel, fs] = choose(spec.fs ?? 6, [6, 7], 3);
  const [dsSel, ds] = choose(spec.ds ?? 8, [8, 9, 10], 3);
  const [dtSel, dt] = choose(spec.dt ?? 11, [11, 12, 13], 3);
  const [rdwSel, rdw] = choose(spec.rdw ?? 14, [14, 15], 3);
  const [rdhSel, rdh] = choose(spec.rdh ?? 14, [14, 15], 3);
  const [rdxSel, rdx] = choose(spec.rdx ?? 14, [14, 15], 3);
  const [rdySel, rdy] = choose(spec.rdy ?? 14, [14, 15], 3);
  const [rsizeSel, rsize] = choose(spec.rsize ?? 1, [1], 1);
  const hFlags =
    spec.huffmanFlags ?? fsSel | (dsSel << 2) | (dtSel << 4) | (rdwSel << 6) | (rdhSel << 8) | (rdxSel << 10) | (rdySel << 12) | (rsizeSel << 14);
  const w = new BitWriter();
  const lengths = spec.idLengths ?? spec.symbols.map(() => Math.max(1, symCodeLength(spec.symbols.length)));
  if (lengths.length !== spec.symbols.length) throw new Error('one symbol ID code length a symbol');
  const { runCodes, codes } = writeSymbolIdTable(w, lengths);
  const id = (bw: BitWriter, k: number) => {
    if (!(lengths[k] > 0)) throw new Error(`symbol ${k} has no code`);
    bw.bits(codes[k], lengths[k]);
  };
  writeInstances(w, { fs, ds, dt, rdw, rdh, rdx, rdy, rsize, id, gr: new Uint8Array(8192) }, spec, spec.initialT ?? -(spec.stripSize ?? 1));
  return { data: Uint8Array.from([...textRegionHeader(spec, hFlags), ...w.finish()]), tables, runCodes };
}

export interface HuffmanDictionarySpec extends DictionaryBase {
  /** SDHUFFDH: B.4 (default: heights only go up), B.5 or custom */
  dh?: TableChoice;
  /** SDHUFFDW: B.2 (default: widths only grow within a class), B.3 or custom (it needs OOB) */
  dw?: TableChoice;
  /** SDHUFFBMSIZE: B.1 (default) or custom */
  bmSize?: TableChoice;
  /** SDHUFFAGGINST: B.1 (default) or custom */
  aggInst?: TableChoice;
  /** collective bitmaps MMR-coded (else uncompressed): all, none, or one flag a class */
  mmr?: boolean | boolean[];
}

/** 6.5.9: a height class's symbols side by side, written uncompressed (BMSIZE 0, rows padded to bytes) or MMR-coded */
function writeCollectiveBitmap(w: BitWriter, bmSize: HuffmanCode, symbols: Bitmap[], height: number, mmr: boolean): void {
  const total = symbols.reduce((n, b) => n + b.width, 0);
  const rows = Array.from({ length: height }, (_, y) =>
    symbols.flatMap((b) => Array.from(b.data.subarray(y * b.width, (y + 1) * b.width), (v) => v === 1)),
  );
  if (mmr && total > 0 && height > 0) {
    const code = encodeFax(rows, -1);
    bmSize.put(w, code.length);
    w.bytes(code);
    return;
  }
  bmSize.put(w, 0);
  w.align();
  for (const row of rows) {
    for (const px of row) w.bit(px ? 1 : 0);
    w.align();
  }
}

/**
 * A Huffman-coded symbol dictionary segment's whole data field (7.4.2.1 with SDHUFF = 1: flags, SDRAT, the counts; no
 * GBAT), then the coded dictionary (6.5). Also the new symbols as coded and the custom tables in the decoder's order.
 */
export function encodeHuffmanDictionary(spec: HuffmanDictionarySpec): { data: Uint8Array; newSymbols: Bitmap[]; tables: CustomTable[] } {
  const refAgg = spec.refAgg ?? false;
  const rTemplate = spec.rTemplate ?? 0;
  const rAt = spec.rAt ?? REFINEMENT_DEFAULT_AT;
  const tables: CustomTable[] = [];
  const choose = chooser(tables);
  const [dhSel, dh] = choose(spec.dh ?? 4, [4, 5], 3);
  const [dwSel, dw] = choose(spec.dw ?? 2, [2, 3], 3);
  const [bmSel, bmSize] = choose(spec.bmSize ?? 1, [1], 1);
  const [aggSel, aggInst] = choose(spec.aggInst ?? 1, [1], 1);
  const numIn = spec.input.length;
  const numNew = spec.classes.reduce((n, c) => n + c.symbols.length, 0);
  const numEx = spec.exported.filter(Boolean).length;
  const flags =
    1 | (refAgg ? 2 : 0) | (dhSel << 2) | (dwSel << 4) | (bmSel << 6) | (aggSel << 7) | (refAgg ? rTemplate << 12 : 0) | (spec.extraFlags ?? 0);
  const header = [
    flags >> 8,
    flags & 255,
    ...(refAgg && rTemplate === 0 ? atBytes(rAt) : []),
    ...be32(spec.numEx ?? numEx),
    ...be32(spec.numNew ?? numNew),
  ];

  const w = new BitWriter();
  // 6.5.8.2.3: IDs in SBSYMCODELEN bits, at least one; Table 17's tables for aggregates
  const idBits = Math.max(1, symCodeLength(numIn + numNew));
  const b15 = standardCode(15);
  const gr = new Uint8Array(8192);
  const agg: TextCoding = {
    fs: standardCode(6),
    ds: standardCode(8),
    dt: standardCode(11),
    rdw: b15,
    rdh: b15,
    rdx: b15,
    rdy: b15,
    rsize: standardCode(1),
    id: (bw, k) => bw.bits(k, idBits),
    gr,
  };
  const symbols = spec.input.slice();
  const newSymbols: Bitmap[] = [];
  let height = 0;
  spec.classes.forEach((cls, classIndex) => {
    dh.put(w, cls.height - height);
    height = cls.height;
    let width = 0;
    const direct: Bitmap[] = [];
    for (const sym of cls.symbols) {
      const symWidth = 'bitmap' in sym ? sym.bitmap.width : sym.width;
      if ('bitmap' in sym && sym.bitmap.height !== cls.height) throw new Error('a symbol of another height than its class');
      dw.put(w, symWidth - width);
      width = symWidth;
      let bitmap: Bitmap;
      if (!refAgg) {
        if (!('bitmap' in sym) || 'refine' in sym) throw new Error('refined and aggregate symbols need REFAGG');
        bitmap = sym.bitmap;
        direct.push(bitmap);
      } else if ('refine' in sym) {
        // 6.5.8.2.2: one instance: its ID, RDX and RDY (B.15), BMSIZE (B.1), the byte's rest, the refinement's code
        aggInst.put(w, 1);
        agg.id(w, sym.refine.id);
        b15.put(w, sym.refine.rdx);
        b15.put(w, sym.refine.rdy);
        const bytes = refinementBytes(gr, sym.bitmap, symbols[sym.refine.id], sym.refine.rdx, sym.refine.rdy, rTemplate, rAt);
        agg.rsize.put(w, bytes.length);
        w.bytes(bytes);
        bitmap = sym.bitmap;
      } else if ('aggregate' in sym) {
        // 6.5.8.2.1: a text region of the symbol's size, SBSTRIPS 1, top-left corners, refinement on (Table 17); its
        // first DT 1 (STRIPT −1), since B.11 codes nothing below 1
        aggInst.put(
          w,
          sym.aggregate.reduce((n, s) => n + s.instances.length, 0),
        );
        writeInstances(w, agg, { symbols, strips: sym.aggregate, refine: true, rTemplate, rAt }, -1);
        bitmap = aggregateBitmap(sym.width, cls.height, sym.aggregate, symbols);
      } else throw new Error('with REFAGG every symbol is refined or aggregated');
      symbols.push(bitmap);
      newSymbols.push(bitmap);
    }
    dw.put(w, null);
    if (!refAgg)
      writeCollectiveBitmap(w, bmSize, direct, cls.height, Array.isArray(spec.mmr) ? (spec.mmr[classIndex] ?? false) : (spec.mmr ?? false));
  });
  // 6.5.10: runs of equal export flags by Table B.1, the first run (possibly empty) of symbols not exported
  const b1 = standardCode(1);
  for (const run of exportRuns(spec.exported)) b1.put(w, run);
  return { data: Uint8Array.from([...header, ...w.finish()]), newSymbols, tables };
}
