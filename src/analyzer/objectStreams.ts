/**
 * Objects inside object streams (ISO 32000-1, 7.5.7) for an XRef (xref.ts): the stream's header of object numbers and
 * offsets, its decoded data kept in a charged LRU, and the objects parsed out of it on demand.
 */
import { Cmd, EOF, Lexer } from './lexer';
import { PdfStream, type PdfValue, Ref, isNumber } from './objects';
import { Parser } from './parser';
import type { ObjStmIndex, XRef } from './xref';

/** An estimate of what one entry of an object stream's offsets map costs in the JS heap (key, value, hash links). */
const OFFSET_ENTRY_BYTES = 64;
/** An estimate of a parsed object's own heap cost beyond its text (a PdfDict and its entries). */
const PARSED_OBJECT_BYTES = 128;

/**
 * An object out of object stream `stmNum`: undefined when the stream does not hold it.
 *
 * Decoded streams are kept in an LRU bounded by objectStreamCacheBytes. A stream that can't be kept (larger than
 * the cache), or that is decoded a second time (evicted, and wanted again: the cache thrashes, as when pages
 * alternate between streams), has all its other objects parsed now, charged to the memory account, so that no
 * stream is decoded more than twice however its objects are asked for. Decoding is bounded by bytes, never by
 * the clock: structure must come out the same on every run. Only a decode not yet begun is refused once the
 * deadline has passed (recorded as budget-exceeded in object-stream, so nothing built on it is answered
 * confidently): a file of thousands of object streams, each a bomb under the byte cap, could otherwise take hours.
 */
export function fromObjStm(x: XRef, stmNum: number, num: number): PdfValue | undefined {
  if (x.objStmStarved.has(stmNum)) return undefined;
  let idx = x.objStms.get(stmNum);
  if (idx === undefined) {
    if (x.budget.outOfTime('object-stream')) return undefined;
    const loaded = loadObjStm(x, stmNum);
    if (loaded === 'too-large') {
      x.objStmStarved.add(stmNum);
      x.notes.push(`object stream ${stmNum} does not fit in the memory left: its objects are missing`);
      return undefined;
    }
    idx = loaded;
    if (idx === null) {
      x.objStms.set(stmNum, null, OFFSET_ENTRY_BYTES);
      return undefined;
    }
    const again = x.objStmDecoded.has(stmNum);
    x.objStmDecoded.add(stmNum);
    if (again || !x.objStms.set(stmNum, idx, idx.cost)) {
      // Held only while its objects are parsed; if even that does not fit, its objects are missing and the
      // budget says so (memory-limit in object-stream), so no page built on them gets a confident answer.
      if (!x.budget.tryCharge(idx.cost, 'object-stream')) {
        x.objStmStarved.add(stmNum);
        x.notes.push(`object stream ${stmNum} (${idx.data.length} bytes decoded) does not fit in the memory left: its objects are missing`);
        return undefined;
      }
      try {
        extractAll(x, stmNum, idx, num);
      } finally {
        x.budget.release(idx.cost);
      }
    }
  }
  if (!idx) return undefined;
  return objectInStream(x, idx, num);
}

function objectInStream(x: XRef, idx: ObjStmIndex, num: number): PdfValue | undefined {
  const off = idx.offsets.get(num);
  if (off === undefined) return undefined;
  const lx = new Lexer(idx.data, idx.first + off, idx.data.length, x.limits);
  const v = new Parser(lx, undefined, x.limits).parseValue();
  if (v === EOF || v instanceof Cmd) return null;
  return v;
}

/** Parses every object the xref places in this stream (but `except`, which the caller parses) into the object cache. */
function extractAll(x: XRef, stmNum: number, idx: ObjStmIndex, except: number): void {
  // Each object's text ends where the next one starts: that span, plus a parsed object's own overhead, is what
  // keeping it costs.
  const spans = [...idx.offsets.entries()].sort((a, b) => a[1] - b[1]);
  for (let i = 0; i < spans.length; i++) {
    const [objNum, off] = spans[i];
    if (objNum === except || x.cache.has(objNum) || x.inProgress.has(objNum)) continue;
    const e = x.entries.get(objNum);
    if (!e || e.type !== 2 || e.stream !== stmNum) continue;
    const next = i + 1 < spans.length ? spans[i + 1][1] : idx.data.length - idx.first;
    const cost = Math.max(0, next - off) + PARSED_OBJECT_BYTES;
    if (!x.budget.tryCharge(cost, 'object-stream')) {
      x.objStmStarved.add(stmNum);
      x.notes.push(`the objects of object stream ${stmNum} do not fit in the memory left: the rest are missing`);
      return;
    }
    x.extractedBytes += cost;
    x.cache.set(objNum, objectInStream(x, idx, objNum) ?? null);
  }
}

function loadObjStm(x: XRef, stmNum: number): ObjStmIndex | null | 'too-large' {
  const s = x.fetch(new Ref(stmNum, 0));
  if (!(s instanceof PdfStream)) return null;
  const n = x.resolve(s.dict.get('N'));
  const first = x.resolve(s.dict.get('First'));
  if (!isNumber(n) || !isNumber(first) || n < 0 || first < 0) return null;
  // Decoded no further than the memory account could hold (counting what this cache would give up): a stream
  // past that is not allocated, only reported.
  const room = Math.max(0, x.budget.maxHeldBytes - x.budget.held + x.objStms.heldBytes);
  const cap = Math.min(x.limits.maxStreamBytes, room + 1);
  const dec = x.decodeRaw(s, x.security, cap, Infinity);
  const data = dec.data;
  if (dec.truncated && cap <= x.limits.maxStreamBytes && data.length > room) {
    x.budget.tryCharge(data.length, 'object-stream'); // fails: records memory-limit
    return 'too-large';
  }
  if (dec.truncated) x.notes.push(`object stream ${stmNum} decodes to more than ${x.limits.maxStreamBytes} bytes: objects past that are missing`);
  const offsets = readObjStmHeader(x, data, first, n);
  return { data, first, offsets, cost: data.length + offsets.size * OFFSET_ENTRY_BYTES };
}

export function readObjStmHeader(x: XRef, data: Uint8Array, first: number, n: number): Map<number, number> {
  const lx = new Lexer(data, 0, Math.min(first, data.length), x.limits);
  const offsets = new Map<number, number>();
  // An object in a stream takes at least a couple of bytes: a larger /N is a lie, not a reason to allocate.
  const maxObjects = Math.min(n, (data.length >> 1) + 1);
  for (let i = 0; i < maxObjects; i++) {
    const a = lx.next();
    const b = lx.next();
    if (typeof a !== 'number' || typeof b !== 'number') break;
    if (!offsets.has(a)) offsets.set(a, b);
  }
  return offsets;
}
