/**
 * Test-only: JBIG2 embedded streams (ITU-T T.88 7.2, sequential organisation, as a PDF holds them) built from segments,
 * for the decoder's tests and the fuzzer's seeds. Generic regions are coded by scripts/jbig2-encoder.ts (arithmetic)
 * or scripts/fax-encoder.ts (MMR, Group 4); Huffman-coded text by scripts/jbig2-huffman-encoder.ts. Written from the recommendation; not shipped.
 */
import { type Bitmap, type GenericParams, newBitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import { encodeGeneric, GENERIC_DEFAULT_AT, MqEncoder } from './jbig2-encoder';
import { encodeFax } from './fax-encoder';
import { encodeHuffmanDictionary, encodeHuffmanTextRegion } from './jbig2-huffman-encoder';
import type { TextInstance, TextStrip } from './jbig2-symbol-encoder';

const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];

/** a segment: its header (a one-byte page association: 1, or 0 for a global segment; the short referred-to form) and its data */
export function segment(
  number: number,
  type: number,
  data: Uint8Array | number[],
  refers: number[] = [],
  opts: { page?: number; unknownLength?: boolean } = {},
): number[] {
  const { page = 1, unknownLength = false } = opts;
  if (refers.length > 4) throw new Error('the short form refers to at most four segments');
  const size = number <= 256 ? 1 : number <= 65536 ? 2 : 4;
  const ids = refers.flatMap((r) => (size === 1 ? [r] : size === 2 ? [r >> 8, r & 255] : be32(r)));
  return [...be32(number), type, refers.length << 5, ...ids, page, ...be32(unknownLength ? 0xffffffff : data.length), ...data];
}

/** 7.4.8: the page information segment's data (no striping; default pixel 0 unless said; combination operator OR) */
export function pageInfo(width: number, height: number, defaultPixel = 0): number[] {
  return [...be32(width), ...be32(height), ...be32(0), ...be32(0), defaultPixel ? 4 : 0, 0, 0];
}

/** 7.4.1: a region segment information field */
export function regionInfo(width: number, height: number, x: number, y: number, op = 0): number[] {
  return [...be32(width), ...be32(height), ...be32(x), ...be32(y), op];
}

/** 7.4.6: an arithmetic generic region segment's data (the AT pixels p.at as the template needs them) */
export function genericRegionData(bitmap: Bitmap, x: number, y: number, op: number, p: Omit<GenericParams, 'width' | 'height'>): number[] {
  const mq = new MqEncoder();
  encodeGeneric(mq, new Uint8Array(65536), bitmap, p);
  const at = p.at.flatMap((a) => [a.x & 255, a.y & 255]);
  return [...regionInfo(bitmap.width, bitmap.height, x, y, op), (p.template << 1) | (p.tpgdon ? 8 : 0), ...at, ...mq.flush()];
}

/** 7.4.6 with MMR = 1: a generic region coded as Group 4 */
export function mmrRegionData(bitmap: Bitmap, x: number, y: number, op: number): number[] {
  const rows = Array.from({ length: bitmap.height }, (_, r) =>
    Array.from({ length: bitmap.width }, (_, c) => bitmap.data[r * bitmap.width + c] === 1),
  );
  return [...regionInfo(bitmap.width, bitmap.height, x, y, op), 1, ...encodeFax(rows, -1)];
}

/** an unknown-length generic region's data (7.2.7): its height field unknown, then the end marker and the row count */
export function unknownLengthData(data: number[], height: number): number[] {
  const out = data.slice();
  out.splice(4, 4, 0xff, 0xff, 0xff, 0xff);
  return [...out, 0xff, 0xac, ...be32(height)];
}

/** a bilevel page as an embedded stream: page information, one generic region (template 0, typical prediction), end of page */
export function jbig2PageStream(page: Bitmap): Uint8Array {
  const t0 = { template: 0 as const, tpgdon: true, at: [...GENERIC_DEFAULT_AT[0]] };
  return new Uint8Array([
    ...segment(0, 48, pageInfo(page.width, page.height)),
    ...segment(1, 38, genericRegionData(page, 0, 0, 0, t0)),
    ...segment(2, 49, []),
  ]);
}

/**
 * A bilevel page as JBIG2 text, Huffman-coded as a symbol-coding encoder would store it: the page cut into tiles of
 * `tile` pixels, each distinct inked tile once in a Huffman symbol dictionary (one height class, its collective bitmap
 * MMR-coded), and a Huffman text region placing them (standard tables). The same page as jbig2PageStream, by the other
 * coding.
 */
export function jbig2HuffmanPageStream(page: Bitmap, tile = 16): Uint8Array {
  const symbols: Bitmap[] = [];
  const ids = new Map<string, number>();
  const strips: TextStrip[] = [];
  // tiles at the right and bottom edges reach past the page (blank there): the region clips what it draws
  for (let y0 = 0; y0 < page.height; y0 += tile) {
    const instances: TextInstance[] = [];
    for (let x0 = 0; x0 < page.width; x0 += tile) {
      const t = newBitmap(tile, tile);
      const w = Math.min(tile, page.width - x0);
      for (let y = 0; y < tile && y0 + y < page.height; y++)
        t.data.set(page.data.subarray((y0 + y) * page.width + x0, (y0 + y) * page.width + x0 + w), y * tile);
      if (!t.data.includes(1)) continue;
      const key = t.data.join('');
      let id = ids.get(key);
      if (id === undefined) {
        id = symbols.length;
        ids.set(key, id);
        symbols.push(t);
      }
      instances.push({ id, x: x0, y: y0 });
    }
    if (instances.length > 0) strips.push({ t: y0, instances });
  }
  const dict = encodeHuffmanDictionary({
    input: [],
    classes: [{ height: tile, symbols: symbols.map((bitmap) => ({ bitmap })) }],
    exported: symbols.map(() => true),
    mmr: true,
  });
  const text = encodeHuffmanTextRegion({ symbols: dict.newSymbols, strips });
  return new Uint8Array([
    ...segment(0, 48, pageInfo(page.width, page.height)),
    ...segment(1, 0, dict.data),
    ...segment(2, 6, [...regionInfo(page.width, page.height, 0, 0), ...text.data], [1]),
    ...segment(3, 49, []),
  ]);
}
