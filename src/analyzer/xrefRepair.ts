/**
 * Repair for an XRef (xref.ts) whose cross-reference data is missing, wrong or truncated: one linear scan of the file
 * for `N G obj` headers and `trailer` keywords, then the xref rebuilt from it, as real readers do.
 */
import { Lexer } from './lexer';
import { readObjStmHeader } from './objectStreams';
import { PdfDict, PdfStream, Ref, isNumber } from './objects';
import { Parser } from './parser';
import type { FileScan, XRef } from './xref';

/** Work between two looks at the clock in loops over objects or sections: cheap against one Date.now() (tuning). */
const CLOCK_EVERY_ITEMS = 256;
/** Bytes scanned between two looks at the clock while scanning the file (tuning). */
const CLOCK_EVERY_BYTES = 1 << 20;

/**
 * One pass over the file for every `N G obj` header and every `trailer` keyword, built once. The two searches
 * move forward together and never go back, so the pass is linear however many headers or trailers there are.
 * The clock is looked at every CLOCK_EVERY_BYTES: past the deadline the scan keeps what it found (noted).
 */
export function getScan(x: XRef): FileScan {
  if (x.scan) return x.scan;
  const index = new Map<number, number>();
  const headers: number[] = [];
  const trailers: number[] = [];
  const buf = x.bytes;
  let cut = false;
  let clockAt = CLOCK_EVERY_BYTES;
  let nextObj = Lexer.indexOf(buf, 'obj', 0);
  let nextTrailer = Lexer.indexOf(buf, 'trailer', 0);
  while (nextObj >= 0 || nextTrailer >= 0) {
    const here = nextObj < 0 ? nextTrailer : nextTrailer < 0 ? nextObj : Math.min(nextObj, nextTrailer);
    if (here >= clockAt) {
      clockAt = here + CLOCK_EVERY_BYTES;
      if (x.budget.outOfTime('xref')) {
        cut = true;
        break;
      }
    }
    if (here === nextTrailer) {
      trailers.push(here);
      nextTrailer = Lexer.indexOf(buf, 'trailer', here + 7);
      continue;
    }
    const q = nextObj;
    nextObj = Lexer.indexOf(buf, 'obj', q + 3);
    const h = headerBefore(buf, q, x.limits.maxObjectNumber);
    if (h === undefined) continue;
    headers.push(h.start);
    index.set(h.num, h.start);
  }
  if (cut) x.notes.push('the time budget ran out while scanning the file for objects: objects further on were not found');
  x.scan = { index, headers, trailers, cut };
  return x.scan;
}

/** Rebuilds the xref from a scan of the file: every object header, every trailer, every xref stream. */
export function repair(x: XRef): void {
  x.repaired = true;
  x.notes.push('xref damaged or missing: repaired by scanning the file');
  x.dropParsed();
  const oldEntries = new Map(x.entries);
  x.entries.clear();
  const scan = getScan(x);
  for (const [num, off] of scan.index) x.entries.set(num, { type: 1, offset: off, gen: 0 });
  x.starts = undefined;
  const buf = x.bytes;
  let stopped = false;
  // Trailers, last one wins for each key. Each is read only up to the next trailer or object header: thousands of
  // unclosed trailer dictionaries otherwise each read on to the end of the file.
  let trailer = new PdfDict();
  const headers = scan.headers;
  let h = 0;
  for (let i = 0; i < scan.trailers.length && !stopped; i++) {
    if (i % CLOCK_EVERY_ITEMS === CLOCK_EVERY_ITEMS - 1 && x.budget.outOfTime('xref')) {
      stopped = true;
      break;
    }
    const t = scan.trailers[i];
    while (h < headers.length && headers[h] <= t) h++;
    const end = Math.min(i + 1 < scan.trailers.length ? scan.trailers[i + 1] : buf.length, h < headers.length ? headers[h] : buf.length);
    const d = new Parser(new Lexer(buf, t + 7, end, x.limits), undefined, x.limits).parseValue();
    if (d instanceof PdfDict) trailer = mergeTrailer(trailer, d);
  }
  // Compressed objects: the object numbers in every object stream, and the trailer keys of every xref stream.
  // Each object is parsed within its own span (objectEnd), so this loop costs one more pass over the file.
  let n = 0;
  for (const [num] of scan.index) {
    if (stopped) break;
    if (++n % CLOCK_EVERY_ITEMS === 0 && x.budget.outOfTime('xref')) {
      stopped = true;
      break;
    }
    const v = x.fetch(new Ref(num, 0));
    if (!(v instanceof PdfStream)) continue;
    const type = v.dict.get('Type');
    if (type === 'XRef') {
      trailer = mergeTrailer(trailer, v.dict);
    } else if (type === 'ObjStm') {
      for (const objNum of objStmNumbers(x, v)) if (!x.entries.has(objNum)) x.entries.set(objNum, { type: 2, stream: num, index: 0 });
      // a decode costs far more than a look at the clock
      if (x.budget.outOfTime('xref')) stopped = true;
    }
  }
  // Entries of the old xref for objects the scan did not find (object streams listed there).
  for (const [num, e] of oldEntries) if (!x.entries.has(num) && e.type === 2) x.entries.set(num, e);
  x.dropParsed();
  if (!stopped && !(x.resolve(trailer.get('Root')) instanceof PdfDict)) {
    // No usable trailer: look for the catalog itself.
    for (const [num] of x.entries) {
      // every fetch here may decode an object stream
      if (x.budget.outOfTime('xref')) {
        stopped = true;
        break;
      }
      const v = x.fetch(new Ref(num, 0));
      if (v instanceof PdfDict && v.get('Type') === 'Catalog' && x.resolve(v.get('Pages')) instanceof PdfDict) {
        trailer.set('Root', new Ref(num, 0));
        break;
      }
    }
  }
  if (stopped) x.notes.push('the time budget ran out while rebuilding the xref: the objects found by then are used');
  x.trailer = trailer;
}

/**
 * The object numbers an object stream holds. Only its header (the first /First bytes) is decoded: the objects
 * themselves are read when asked for, through the cache.
 */
function objStmNumbers(x: XRef, s: PdfStream): number[] {
  const n = x.resolve(s.dict.get('N'));
  const first = x.resolve(s.dict.get('First'));
  if (!isNumber(n) || !isNumber(first) || n < 0 || first < 0) return [];
  const dec = x.decodeRaw(s, x.security, Math.min(x.limits.maxStreamBytes, Math.ceil(first)), Infinity);
  return [...readObjStmHeader(x, dec.data, first, n).keys()];
}

/** The `N G obj` header whose keyword is at `q`, found by looking back from it; undefined when there is none. */
function headerBefore(buf: Uint8Array, q: number, maxObjectNumber: number): { num: number; start: number } | undefined {
  // "obj" must be followed by a non-regular character and preceded by "num ws gen ws". Looser than bytes.ts on
  // purpose, as repair is: any control byte counts as white-space here (damaged files hold them where spaces were).
  const after = buf[q + 3];
  if (after !== undefined && !(after <= 32 || after === 60 || after === 91 || after === 47 || after === 40 || after === 37)) return undefined;
  let i = q - 1;
  if (i < 0 || !(buf[i] <= 32)) return undefined;
  while (i >= 0 && buf[i] <= 32 && buf[i] !== 0) i--;
  const genEnd = i + 1;
  while (i >= 0 && buf[i] >= 48 && buf[i] <= 57) i--;
  if (i + 1 === genEnd || genEnd - (i + 1) > 5) return undefined;
  if (i < 0 || !(buf[i] <= 32)) return undefined;
  while (i >= 0 && buf[i] <= 32 && buf[i] !== 0) i--;
  const numEnd = i + 1;
  while (i >= 0 && buf[i] >= 48 && buf[i] <= 57) i--;
  const numStart = i + 1;
  if (numStart === numEnd || numEnd - numStart > 10) return undefined;
  let num = 0;
  for (let k = numStart; k < numEnd; k++) num = num * 10 + (buf[k] - 48);
  if (num >= maxObjectNumber) return undefined;
  return { num, start: numStart };
}

function mergeTrailer(into: PdfDict, d: PdfDict): PdfDict {
  for (const k of ['Root', 'Info', 'ID', 'Encrypt', 'Size']) {
    const v = d.get(k);
    if (v !== undefined) into.set(k, v);
  }
  return into;
}
