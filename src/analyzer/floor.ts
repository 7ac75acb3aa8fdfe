/**
 * The benchmark's floor: the least work any structural classifier must do — read the xref, walk the page tree and
 * decode every page's content streams — with no interpretation. Our analyzer is measured against it.
 * Not part of the public API (index.ts): scripts/build.mjs bundles it alone as dist/bench/floor.js for bench/contenders.mjs.
 */
import { openDocument } from './document';
import { PdfStream } from './objects';
import { resolveOptions } from './options';
import { anchorShapes } from './shapes';

export function floorScan(bytes: Uint8Array): { pages: number; contentBytes: number } {
  // the same anchors as the analyzer (see shapes.ts), so the two are compared on equal terms
  anchorShapes();
  const opts = resolveOptions();
  const doc = openDocument(bytes, opts);
  let contentBytes = 0;
  for (const p of doc.pages) {
    const c = doc.xref.resolve(p.dict.get('Contents'));
    const list = Array.isArray(c) ? c : [c];
    for (const s of list) {
      const st = doc.xref.resolve(s);
      if (st instanceof PdfStream) contentBytes += doc.xref.decodeStream(st).data.length;
    }
  }
  return { pages: doc.pages.length, contentBytes };
}
