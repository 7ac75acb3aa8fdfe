// Helpers of the JBIG2 symbol and Huffman tests (test/jbig2-symbols.test.ts, test/jbig2-huffman.test.ts): glyphs and
// their refinements, text regions laid out in strips and rendered as the decoder must place them, bitmap assertions.
// A plain module (no tests), so importing it runs nothing.
import assert from 'node:assert/strict';
import { type Bitmap, newBitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import type { SymbolSpec, TextInstance, TextStrip } from '../scripts/jbig2-symbol-encoder';

/** a clock that never stops the decoders */
export const never = () => false;

export function glyph(rand: () => number, width: number, height: number, density = 0.45): Bitmap {
  const b = newBitmap(width, height);
  for (let i = 0; i < b.data.length; i++) b.data[i] = rand() < density ? 1 : 0;
  return b;
}

/** a copy of `b` with a few pixels flipped and, if asked, another size (what a refinement codes) */
export function variant(rand: () => number, b: Bitmap, width = b.width, height = b.height): Bitmap {
  const out = newBitmap(width, height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) out.data[y * width + x] = x < b.width && y < b.height ? b.data[y * b.width + x] : 0;
  for (let k = 0; k < 3; k++) out.data[Math.floor(rand() * out.data.length)] ^= 1;
  return out;
}

/** combines `b` into `region` with its top-left pixel at (x, y), by operator `op` (0 OR, 1 AND, 2 XOR, 3 XNOR), clipped */
export function put(region: Bitmap, b: Bitmap, x: number, y: number, op = 0): void {
  for (let j = 0; j < b.height; j++)
    for (let i = 0; i < b.width; i++) {
      const X = x + i;
      const Y = y + j;
      if (X < 0 || Y < 0 || X >= region.width || Y >= region.height) continue;
      const r = region.data[Y * region.width + X];
      const s = b.data[j * b.width + i];
      region.data[Y * region.width + X] = op === 0 ? r | s : op === 1 ? r & s : op === 2 ? r ^ s : 1 - (r ^ s);
    }
}

/** a `w` × `h` region of `defPixel` with the strips' instances (refined ones as refined) put at their top-left pixels by `op` */
export function render(w: number, h: number, symbols: Bitmap[], strips: TextStrip[], defPixel = 0, op = 0): Bitmap {
  const out = newBitmap(w, h);
  out.data.fill(defPixel);
  for (const strip of strips) for (const inst of strip.instances) put(out, inst.refine?.bitmap ?? symbols[inst.id], inst.x, inst.y, op);
  return out;
}

export function assertBitmap(actual: Bitmap | string, expected: Bitmap, what: string): void {
  if (typeof actual === 'string') assert.fail(`${what}: ${actual}`);
  assert.equal(actual.width, expected.width, `${what}: width`);
  assert.equal(actual.height, expected.height, `${what}: height`);
  assert.ok(Buffer.from(actual.data).equals(Buffer.from(expected.data)), `${what}: pixels differ`);
}

export function assertSymbols(actual: Bitmap[] | string, expected: Bitmap[], what: string): void {
  if (typeof actual === 'string') assert.fail(`${what}: ${actual}`);
  assert.equal(actual.length, expected.length, `${what}: exported count`);
  actual.forEach((b, i) => assertBitmap(b, expected[i], `${what}, symbol ${i}`));
}

/** height classes of bitmaps as a dictionary spec's classes of directly coded symbols */
export function directSymbols(classes: { height: number; symbols: Bitmap[] }[]): { height: number; symbols: SymbolSpec[] }[] {
  return classes.map((c) => ({ height: c.height, symbols: c.symbols.map((bitmap): SymbolSpec => ({ bitmap })) }));
}

export interface LayoutOptions {
  stripSize: number;
  corner: number;
  transposed: boolean;
  refine: boolean;
  /** the fourth strip goes back up the page (a negative DT; with Huffman coding, custom DT tables only) */
  back: boolean;
  /** the symbols instances may use (all by default) */
  ids?: number[];
  /** a strip's step down the page from the one before, a multiple of SBSTRIPS; by default 1 to max(1, 8 / SBSTRIPS) strips */
  step?: (rand: () => number, stripSize: number) => number;
}

/**
 * Five strips of symbol instances as the decoder must place them: (S, T) of the reference corner, T within its strip,
 * then the top-left pixel; S gaps, overlaps too.
 */
export function layout(rand: () => number, symbols: Bitmap[], o: LayoutOptions): TextStrip[] {
  const strips: TextStrip[] = [];
  const right = o.corner === 2 || o.corner === 3;
  const bottom = o.corner === 0 || o.corner === 2;
  const ids = o.ids ?? symbols.map((_, i) => i);
  const step = o.step ?? ((r: () => number, size: number) => size * (1 + Math.floor(r() * Math.max(1, 8 / size))));
  let t = -o.stripSize;
  for (let k = 0; k < 5; k++) {
    t += o.back && k === 3 ? -2 * o.stripSize : step(rand, o.stripSize);
    const instances: TextInstance[] = [];
    let s = Math.floor(rand() * 10) - 4;
    for (let i = 0, n = 1 + Math.floor(rand() * 5); i < n; i++) {
      const id = ids[Math.floor(rand() * ids.length)];
      const sym = symbols[id];
      const refine =
        o.refine && rand() < 0.5
          ? {
              bitmap: variant(rand, sym, sym.width + Math.floor(rand() * 3) - 1, sym.height + Math.floor(rand() * 3) - 1),
              rdx: Math.floor(rand() * 3) - 1,
              rdy: Math.floor(rand() * 3) - 1,
            }
          : undefined;
      const b = refine?.bitmap ?? sym;
      const tt = t + Math.floor(rand() * o.stripSize);
      // the reference corner's T is its row (column when transposed); S runs from the first column (row)
      const x = o.transposed ? (right ? tt - b.width + 1 : tt) : s;
      const y = o.transposed ? s : bottom ? tt - b.height + 1 : tt;
      instances.push({ id, x, y, ...(refine ? { refine } : {}) });
      // the next starts a gap after this one's last column (row); gaps of −2 overlap
      s += (o.transposed ? b.height : b.width) + Math.floor(rand() * 5) - 2;
    }
    strips.push({ t, instances });
  }
  return strips;
}
