/**
 * JBIG2Decode (ITU-T T.88) for the layer-quality score's scan: the segments of a PDF's embedded stream (and of its
 * /JBIG2Globals), composed into the page: generic regions (arithmetic in jbig2Regions.ts, MMR through the Group 4
 * decoder of ccitt.ts), refinement regions, and symbol dictionaries with the text regions that place their symbols
 * (jbig2Symbols.ts), arithmetic- or Huffman-coded with the tables segments they refer to (jbig2Huffman.ts), as OCRmyPDF
 * (jbig2enc) and book scanners store bilevel scans.
 *
 * Written from the recommendation. Not read (an error says which): pattern dictionaries and halftone regions.
 *
 * Bounded: the page is at most the caller's pixel limit; a region at most the page's pixels, what one segment decodes
 * four pages' worth; the bitmaps segments keep (dictionaries' symbols, intermediate regions) are counted against
 * `maxHeldPixels`; jbig2WorkBytes adds these up for the caller to charge. The clock is read per segment and inside each
 * decoding procedure. Pure: no Node, no DOM.
 */
import { s8, u16, u32 } from './binary';
import { type Bitmap, decodeGeneric, decodeMmr, decodeRefinement, newBitmap } from './jbig2Regions';
import { decodeTableSegment, HuffmanError, type HuffmanTable } from './jbig2Huffman';
import { decodeSymbolDictionary, decodeTextRegion } from './jbig2Symbols';
import { MqDecoder } from './mq';

/** Huffman table lines the tables segments of a stream (and its globals) may keep, each ~10 bytes */
const TABLE_LINES_HELD = 1 << 16;

/**
 * A tables segment's table, kept in `tables` while the tables kept hold at most TABLE_LINES_HELD lines in all (`held`,
 * counted as they come; a table counts one line more, so that empty ones are counted too).
 */
function keepTable(s: Segment, tables: Map<number, HuffmanTable>, held: { lines: number }): void {
  const t = decodeTableSegment(s.data);
  held.lines += t.size + 1;
  if (held.lines > TABLE_LINES_HELD) fail('its Huffman tables are larger than the decoder keeps');
  tables.set(s.number, t);
}

/** pixels one segment may decode, and the segments kept may hold, in pages' worth */
const SEGMENT_PAGES = 4;
const HELD_PAGES = 4;
/**
 * bytes a decode of a page this size holds at most (a byte a pixel): the page, the bitmaps kept, the segment being
 * decoded, and a region's reference
 */
export const jbig2WorkBytes = (width: number, height: number): number => (2 + HELD_PAGES + SEGMENT_PAGES) * width * height;
/** the pixels decodeJbig2's segments may keep for a page this size */
export const jbig2HeldPixels = (width: number, height: number): number => HELD_PAGES * width * height;

export type Jbig2Result = { ok: true; page: Bitmap } | { ok: false; error: string; outOfTime?: boolean };

interface Segment {
  number: number;
  type: number;
  refers: number[];
  /** the segment's data, as far as the stream holds it */
  data: Uint8Array;
  /** an immediate generic region of unknown length: the row count its data ends with, its real height (7.4.6.4) */
  rows?: number;
}

class Jbig2Error extends Error {}
const fail = (why: string): never => {
  throw new Jbig2Error(why);
};

/** The segments of an embedded stream (T.88 7.2: sequential organisation, no file header), in order. */
function segmentsOf(d: Uint8Array): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  while (i + 11 <= d.length) {
    const number = u32(d, i);
    const flags = d[i + 4];
    const type = flags & 63;
    i += 5;
    let count = d[i] >> 5;
    if (count === 7) {
      // the long form: a 29-bit count, then a retention bit for the segment and each it refers to
      if (i + 4 > d.length) break;
      count = u32(d, i) & 0x1fffffff;
      if (count > 4096) fail('a segment refers to more than 4,096 others');
      i += 4 + Math.ceil((count + 1) / 8);
    } else {
      if (count > 4) fail('a damaged referred-to segment count');
      i += 1;
    }
    const size = number <= 256 ? 1 : number <= 65536 ? 2 : 4;
    if (i + count * size + ((flags & 64) !== 0 ? 4 : 1) + 4 > d.length) break;
    const refers: number[] = [];
    for (let k = 0; k < count; k++, i += size) refers.push(size === 1 ? d[i] : size === 2 ? u16(d, i) : u32(d, i));
    i += (flags & 64) !== 0 ? 4 : 1;
    let length = u32(d, i);
    i += 4;
    let rows: number | undefined;
    if (length === 0xffffffff) {
      // an immediate generic region of unknown length (7.2.7): its data ends at a marker and a row count
      if (type !== 38 && type !== 39) fail('a segment of unknown length that is not a generic region');
      const mmr = i + 17 < d.length && (d[i + 17] & 1) === 1;
      let j = i + 18;
      for (; j + 1 < d.length; j++) if (mmr ? d[j] === 0 && d[j + 1] === 0 : d[j] === 0xff && d[j + 1] === 0xac) break;
      if (j + 6 > d.length) fail('a generic region of unknown length without its end marker');
      length = j + 6 - i;
      rows = u32(d, j + 2);
    }
    out.push({ number, type, refers, data: d.subarray(i, Math.min(d.length, i + length)), ...(rows !== undefined ? { rows } : {}) });
    i += length;
    if (type === 51) break;
  }
  return out;
}

interface RegionInfo {
  width: number;
  height: number;
  x: number;
  y: number;
  op: number;
}

function regionInfo(d: Uint8Array): RegionInfo {
  if (d.length < 17) fail('a region segment shorter than its information field');
  return { width: u32(d, 0), height: u32(d, 4), x: u32(d, 8), y: u32(d, 12), op: d[16] & 7 };
}

/** a region's bitmap combined into the page at (x, y) by operator `op` (0 OR, 1 AND, 2 XOR, 3 XNOR, 4 REPLACE) */
function compose(page: Bitmap, r: Bitmap, x0: number, y0: number, op: number): void {
  const w = Math.min(r.width, page.width - x0);
  const h = Math.min(r.height, page.height - y0);
  for (let y = 0; y < h; y++) {
    const p = (y0 + y) * page.width + x0;
    const q = y * r.width;
    const pd = page.data;
    const rd = r.data;
    if (op === 0) for (let x = 0; x < w; x++) pd[p + x] |= rd[q + x];
    else if (op === 1) for (let x = 0; x < w; x++) pd[p + x] &= rd[q + x];
    else if (op === 2) for (let x = 0; x < w; x++) pd[p + x] ^= rd[q + x];
    else if (op === 3) for (let x = 0; x < w; x++) pd[p + x] = 1 - (pd[p + x] ^ rd[q + x]);
    else pd.set(rd.subarray(q, q + w), p);
  }
}

const TIME = 'out of time';
const text = (r: Bitmap | string): Bitmap => (typeof r === 'string' ? fail(r) : r);

/** A generic region segment's bitmap (7.4.6): arithmetic, or MMR through the Group 4 decoder. */
function genericRegion(s: Segment, info: RegionInfo, pagePixels: number, outOfTime: () => boolean, deadline: number): Bitmap {
  const d = s.data;
  const flags = d[17];
  const mmr = (flags & 1) === 1;
  const template = ((flags >> 1) & 3) as 0 | 1 | 2 | 3;
  const tpgdon = (flags & 8) !== 0;
  if ((flags & 16) !== 0) fail('an extended generic template');
  let i = 18;
  const at: { x: number; y: number }[] = [];
  if (!mmr) {
    const n = template === 0 ? 4 : 1;
    if (i + 2 * n > d.length) fail('a generic region shorter than its flags');
    for (let k = 0; k < n; k++, i += 2) at.push({ x: s8(d[i]), y: s8(d[i + 1]) });
  }
  // a region of unknown length ends with its row count, which is its height (the declared one may be larger)
  let height = s.rows ?? info.height;
  if (height === 0xffffffff && d.length >= 4) height = u32(d, d.length - 4);
  if (info.width * height > pagePixels) fail('a region larger than the page');
  if (mmr) return text(decodeMmr(d.subarray(i), info.width, height, deadline));
  const mq = new MqDecoder(d, i, d.length);
  return text(decodeGeneric(mq, new Uint8Array(65536), { width: info.width, height, template, tpgdon, at }, outOfTime));
}

/** A refinement region segment's bitmap (7.4.7): of the region it refers to, or of the page where it lies. */
function refinementRegion(s: Segment, info: RegionInfo, page: Bitmap, regions: Map<number, Bitmap>, outOfTime: () => boolean): Bitmap {
  const d = s.data;
  const flags = d[17];
  const template = (flags & 1) as 0 | 1;
  const tpgron = (flags & 2) !== 0;
  let i = 18;
  const at: { x: number; y: number }[] = [];
  if (template === 0) {
    if (i + 4 > d.length) fail('a refinement region shorter than its flags');
    for (let k = 0; k < 2; k++, i += 2) at.push({ x: s8(d[i]), y: s8(d[i + 1]) });
  }
  let reference = s.refers.map((n) => regions.get(n)).find((r) => r !== undefined);
  if (!reference) {
    // the page's pixels under the region
    reference = newBitmap(info.width, info.height);
    for (let y = 0; y < info.height && info.y + y < page.height; y++)
      for (let x = 0; x < info.width && info.x + x < page.width; x++)
        reference.data[y * info.width + x] = page.data[(info.y + y) * page.width + info.x + x];
  }
  const mq = new MqDecoder(d, i, d.length);
  return text(
    decodeRefinement(mq, new Uint8Array(8192), { width: info.width, height: info.height, template, reference, dx: 0, dy: 0, tpgron, at }, outOfTime),
  );
}

/**
 * A /JBIG2Globals stream's symbol dictionaries, decoded once for every page that shares them (a book's pages share one
 * dictionary of its glyphs), with the pixels they hold.
 */
export interface Jbig2Globals {
  dictionaries: ReadonlyMap<number, Bitmap[]>;
  /** its tables segments' Huffman tables, which the page's segments may refer to */
  tables: ReadonlyMap<number, HuffmanTable>;
  pixels: number;
}

const caught = (e: unknown): { ok: false; error: string; outOfTime?: boolean } => {
  const why = e instanceof Jbig2Error || e instanceof HuffmanError ? e.message : `an internal error (${String(e).slice(0, 80)})`;
  // the regions' and symbols' decoders say so in their own words ("JBIG2 refinement region: out of time")
  return { ok: false, error: why, ...(why.endsWith(TIME) ? { outOfTime: true } : {}) };
};

/** The symbol dictionaries of a globals stream, for pages of `width` × `height` (their caps are the page's), or why not. */
export function decodeJbig2Globals(
  globals: Uint8Array,
  width: number,
  height: number,
  maxHeldPixels: number,
  outOfTime: () => boolean,
  deadline = Infinity,
): { ok: true; globals: Jbig2Globals } | { ok: false; error: string; outOfTime?: boolean } {
  try {
    const dictionaries = new Map<number, Bitmap[]>();
    const tables = new Map<number, HuffmanTable>();
    const held = { lines: 0 };
    let pixels = 0;
    for (const s of segmentsOf(globals)) {
      if (outOfTime()) fail(TIME);
      // globals hold dictionaries and tables; a region there belongs to no page
      if (s.type === 53) keepTable(s, tables, held);
      if (s.type !== 0) continue;
      const symbols = dictionary(s, dictionaries, tables, width, height, outOfTime, deadline);
      pixels += symbols.reduce((a, b) => a + b.width * b.height, 0);
      if (pixels > maxHeldPixels) fail('its symbols are larger than the memory allowed');
      dictionaries.set(s.number, symbols);
    }
    return { ok: true, globals: { dictionaries, tables, pixels } };
  } catch (e) {
    return caught(e);
  }
}

/** the Huffman tables of the tables segments `s` refers to, in order */
const tablesOf = (s: Segment, tables: ReadonlyMap<number, HuffmanTable>): HuffmanTable[] =>
  s.refers.flatMap((n) => {
    const t = tables.get(n);
    return t ? [t] : [];
  });

/** a symbol dictionary segment's exported symbols, its input the dictionaries it refers to */
function dictionary(
  s: Segment,
  dictionaries: ReadonlyMap<number, Bitmap[]>,
  tables: ReadonlyMap<number, HuffmanTable>,
  width: number,
  height: number,
  outOfTime: () => boolean,
  deadline: number,
): Bitmap[] {
  const input = s.refers.flatMap((n) => dictionaries.get(n) ?? []);
  // a dictionary holds at most four pages' worth of symbols (a book's shared dictionary outgrows one page)
  const symbols = decodeSymbolDictionary(s.data, input, outOfTime, SEGMENT_PAGES * width * height, tablesOf(s, tables), deadline);
  return typeof symbols === 'string' ? fail(symbols) : symbols;
}

/**
 * The page of an embedded JBIG2 stream (after its globals' dictionaries, decoded by decodeJbig2Globals), or why it
 * could not be read. `width` and `height` are the image's, which the page information segment must match;
 * `maxHeldPixels` bounds the pixels of the bitmaps segments keep for later ones, the globals' included. `outOfTime` is
 * read by the arithmetic decoding, `deadline` by the MMR one.
 */
export function decodeJbig2(
  data: Uint8Array,
  globals: Jbig2Globals | undefined,
  width: number,
  height: number,
  maxHeldPixels: number,
  outOfTime: () => boolean,
  deadline = Infinity,
): Jbig2Result {
  try {
    return { ok: true, page: decode(data, globals, width, height, maxHeldPixels, outOfTime, deadline) };
  } catch (e) {
    return caught(e);
  }
}

function decode(
  data: Uint8Array,
  globals: Jbig2Globals | undefined,
  width: number,
  height: number,
  maxHeld: number,
  outOfTime: () => boolean,
  deadline: number,
): Bitmap {
  const segments = segmentsOf(data);
  const dictionaries = new Map<number, Bitmap[]>(globals?.dictionaries);
  const tables = new Map<number, HuffmanTable>(globals?.tables);
  const tableLines = { lines: 0 };
  for (const t of tables.values()) tableLines.lines += t.size + 1;
  const regions = new Map<number, Bitmap>();
  let held = 0;
  const keep = (pixels: number) => {
    held += pixels;
    if (held > maxHeld) fail('its symbols and regions are larger than the memory allowed');
  };
  keep(globals?.pixels ?? 0);
  let page: Bitmap | undefined;
  // the page is the image's size from its information segment on (a striped page of unknown height too), and every
  // region lies in it
  const region = (info: RegionInfo, p: Bitmap) => {
    if (info.width > width || info.height > height || info.x >= width || info.y >= height) fail('a region outside the page');
    if (info.width * info.height > p.width * p.height) fail('a region larger than the page');
  };
  for (const s of segments) {
    if (outOfTime()) fail(TIME);
    const d = s.data;
    switch (s.type) {
      case 48: {
        if (d.length < 19) fail('a short page information segment');
        const w = u32(d, 0);
        const h = u32(d, 4);
        if (w !== width || (h !== 0xffffffff && h !== height)) fail(`a page of ${w} × ${h} for an image of ${width} × ${height}`);
        page = newBitmap(width, height);
        // default pixel value 1: the page starts black
        if ((d[16] & 4) !== 0) page.data.fill(1);
        break;
      }
      case 0: {
        const symbols = dictionary(s, dictionaries, tables, width, height, outOfTime, deadline);
        keep(symbols.reduce((a, b) => a + b.width * b.height, 0));
        dictionaries.set(s.number, symbols);
        break;
      }
      case 4:
      case 6:
      case 7:
      case 38:
      case 39:
      case 42:
      case 43:
      case 36:
      case 40: {
        if (!page) fail('a region before the page information');
        const p = page!;
        const info = regionInfo(d);
        const known =
          s.rows !== undefined
            ? { ...info, height: s.rows }
            : s.type === 38 || s.type === 39
              ? { ...info, height: info.height === 0xffffffff ? 1 : info.height }
              : info;
        region(known, p);
        let bitmap: Bitmap;
        if (s.type === 4 || s.type === 6 || s.type === 7) {
          const symbols = s.refers.flatMap((n) => dictionaries.get(n) ?? []);
          const t = tablesOf(s, tables);
          bitmap = text(decodeTextRegion(d.subarray(17), info.width, info.height, symbols, outOfTime, SEGMENT_PAGES * width * height, t));
        } else if (s.type === 36 || s.type === 38 || s.type === 39) bitmap = genericRegion(s, info, width * height, outOfTime, deadline);
        else bitmap = refinementRegion(s, info, p, regions, outOfTime);
        if (s.type === 4 || s.type === 36 || s.type === 40) {
          // intermediate: kept for a refinement that refers to it
          keep(bitmap.width * bitmap.height);
          regions.set(s.number, bitmap);
          break;
        }
        compose(p, bitmap, info.x, info.y, info.op);
        break;
      }
      case 16:
      case 20:
      case 22:
      case 23:
        fail('a halftone region or pattern dictionary');
        break;
      case 53:
        keepTable(s, tables, tableLines);
        break;
      case 49:
      case 51:
        return page ?? fail('no page information');
      default:
        // end of stripe (50), profiles (52), extensions (62), others
        break;
    }
  }
  return page ?? fail('no page information');
}
