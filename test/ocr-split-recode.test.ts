// scripts/ocr-split-recode.ts: the one-strip TIFF reader that takes ImageMagick's Group 4 strip as a PDF image's data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tiffStrip } from '../scripts/ocr-split-recode';

/** a TIFF whose one IFD holds the given SHORT (type 3) or LONG (type 4) tags, then `strip` */
function tiff(le: boolean, tags: [number, 3 | 4, number][], strip: number[]): Uint8Array {
  const ifd = 8;
  const dataAt = ifd + 2 + 12 * (tags.length + 2) + 4;
  const all: [number, 3 | 4, number][] = [...tags, [273, 4, dataAt], [279, 4, strip.length]].sort((a, b) => a[0] - b[0]) as [number, 3 | 4, number][];
  const b = new Uint8Array(dataAt + strip.length);
  const v = new DataView(b.buffer);
  b.set(le ? [0x49, 0x49] : [0x4d, 0x4d]);
  v.setUint16(2, 42, le);
  v.setUint32(4, ifd, le);
  v.setUint16(ifd, all.length, le);
  all.forEach(([tag, type, value], i) => {
    const at = ifd + 2 + 12 * i;
    v.setUint16(at, tag, le);
    v.setUint16(at + 2, type, le);
    v.setUint32(at + 4, 1, le);
    if (type === 3) v.setUint16(at + 8, value, le);
    else v.setUint32(at + 8, value, le);
  });
  b.set(strip, dataAt);
  return b;
}

test('tiffStrip reads the strip and the photometric interpretation, in either byte order', () => {
  for (const le of [true, false]) {
    const r = tiffStrip(
      tiff(
        le,
        [
          [262, 3, 1],
          [259, 3, 4],
        ],
        [1, 2, 3, 4, 5],
      ),
    );
    assert.deepEqual([...r!.strip], [1, 2, 3, 4, 5]);
    assert.equal(r!.blackIsZero, true);
    assert.equal(tiffStrip(tiff(le, [[262, 3, 0]], [9]))!.blackIsZero, false);
  }
  assert.equal(tiffStrip(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0, 0])), undefined);
});
