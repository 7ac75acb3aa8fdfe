/**
 * Reading the cross-reference sections of a file into an XRef (xref.ts): the newest section at `startxref`, then the
 * /Prev chain and hybrid /XRefStm sections, as classic tables or as xref streams. Entries already known win, as
 * incremental updates require.
 */
import { Cmd, Lexer } from './lexer';
import { PdfDict, PdfStream, type PdfValue, isNumber } from './objects';
import { Parser } from './parser';
import type { XRef } from './xref';

export function loadFromStartxref(x: XRef): boolean {
  const buf = x.bytes;
  const sx = Lexer.lastIndexOf(buf, 'startxref', buf.length - 9, Math.max(0, buf.length - 65536));
  if (sx < 0) return false;
  const lx = new Lexer(buf, sx + 9, buf.length, x.limits);
  const off = lx.next();
  if (typeof off !== 'number' || !Number.isInteger(off) || off < 0 || off >= buf.length) return false;
  let offset: number | undefined = off;
  const seen = new Set<number>();
  let first = true;
  while (offset !== undefined && !seen.has(offset) && seen.size < x.limits.maxXrefSections) {
    // Each section is read once, but a chain of hundreds of large ones still grows with the file. The newest
    // section is always read: without it there is nothing to go on but a repair.
    if (!first && x.budget.outOfTime('xref')) {
      x.notes.push('the time budget ran out while reading the /Prev chain of xref sections: older sections ignored');
      break;
    }
    seen.add(offset);
    const trailer = readSection(x, offset);
    if (!trailer) {
      if (first) return false;
      x.notes.push('a /Prev xref section could not be read');
      break;
    }
    if (first) {
      x.trailer = trailer;
      first = false;
    } else {
      // Older trailers fill in keys the newest lacks (some writers drop /Info or /ID in updates).
      for (const k of ['Root', 'Info', 'ID', 'Encrypt']) {
        if (!x.trailer.has(k) && trailer.has(k)) x.trailer.set(k, trailer.get(k)!);
      }
    }
    const xrefStm = trailer.get('XRefStm');
    if (isNumber(xrefStm) && !seen.has(xrefStm)) {
      seen.add(xrefStm);
      readSection(x, xrefStm);
    }
    const prev = trailer.get('Prev');
    offset = isNumber(prev) && prev >= 0 && prev < buf.length ? Math.floor(prev) : undefined;
  }
  return x.entries.size > 0 && x.trailer.has('Root');
}

/** Reads one xref section (table or stream) at `offset`, adding entries not yet known. Returns its trailer. */
function readSection(x: XRef, offset: number): PdfDict | undefined {
  const lx = new Lexer(x.bytes, offset, x.bytes.length, x.limits);
  lx.skipWhite();
  if (Lexer.indexOf(x.bytes, 'xref', lx.pos, lx.pos + 4) === lx.pos) {
    lx.pos += 4;
    return readTable(x, lx);
  }
  return readXrefStream(x, offset);
}

function readTable(x: XRef, lx: Lexer): PdfDict | undefined {
  const buf = x.bytes;
  const maxNum = x.limits.maxObjectNumber;
  // Each subsection moves the lexer on by its header at least, so the loop ends with the file; the count is only
  // a backstop, not a limit of its own.
  for (let sections = 0; sections < 100_000; sections++) {
    const save = lx.pos;
    const t = lx.next();
    if (t instanceof Cmd && t.op === 'trailer') break;
    if (typeof t !== 'number') {
      lx.pos = save;
      // Find the trailer anyway: some files have junk between the table and the trailer.
      const tp = Lexer.indexOf(buf, 'trailer', save, Math.min(buf.length, save + 4096));
      if (tp < 0) return undefined;
      lx.pos = tp + 7;
      break;
    }
    const count = lx.next();
    if (typeof count !== 'number' || count < 0) return undefined;
    let start = t;
    // Entries are "oooooooooo ggggg n" lines; read them as tokens to tolerate 19- and 21-byte lines.
    for (let i = 0; i < count; i++) {
      if ((i & 0xffff) === 0xffff && x.budget.outOfTime('xref')) return undefined;
      lx.skipWhite();
      const o = lx.readNumber();
      lx.skipWhite();
      const g = lx.readNumber();
      lx.skipWhite();
      const kind = buf[lx.pos];
      if (o === undefined || g === undefined || (kind !== 110 && kind !== 102)) {
        return undefined;
      }
      lx.pos++;
      // A classic mistake: a first section starting at 1 whose first entry is the free head of object 0.
      if (i === 0 && start === 1 && o === 0 && g === 65535 && kind === 102) start = 0;
      const num = start + i;
      if (kind === 110 && !x.entries.has(num) && o > 0 && num < maxNum) {
        x.entries.set(num, { type: 1, offset: o, gen: g });
      }
    }
  }
  const p = new Parser(lx, undefined, x.limits);
  const d = p.parseValue();
  return d instanceof PdfDict ? d : undefined;
}

function readXrefStream(x: XRef, offset: number): PdfDict | undefined {
  const obj = x.parseObjectAt(offset, undefined);
  if (!obj || !(obj.value instanceof PdfStream)) return undefined;
  const s = obj.value;
  const dict = s.dict;
  const w = dict.get('W');
  if (!Array.isArray(w) || w.length < 3 || !w.every(isNumber)) return undefined;
  const [w0, w1, w2] = w;
  if (w0 < 0 || w1 < 0 || w2 < 0 || w0 > 8 || w1 > 8 || w2 > 8) return undefined;
  const size = dict.get('Size');
  let index = dict.get('Index');
  if (!Array.isArray(index)) index = [0, isNumber(size) ? size : 0];
  // Structure: decoded whole or up to the byte cap, never cut by the clock, so the same file lists the same objects
  // on every run.
  const dec = x.decodeRaw(s, undefined, x.limits.maxStreamBytes, Infinity);
  const data = dec.data;
  const rowLen = w0 + w1 + w2;
  if (rowLen === 0) return dict;
  // Held only while its rows are read, but held all the same.
  if (!x.budget.tryCharge(data.length, 'xref')) {
    x.notes.push('an xref stream is larger than the memory left for decoded data: its entries were not read');
    return undefined;
  }
  try {
    readXrefRows(x, index, data, w0, w1, w2);
  } finally {
    x.budget.release(data.length);
  }
  return dict;
}

function readXrefRows(x: XRef, index: PdfValue[], data: Uint8Array, w0: number, w1: number, w2: number): void {
  const rowLen = w0 + w1 + w2;
  // Every real object takes a few bytes of the file, so a file can't hold more objects than this: rows beyond it
  // are claims a hostile xref stream makes to exhaust memory (10 M rows from a 1 KB file).
  const maxEntries = (x.bytes.length >> 2) + 1024;
  const maxNum = x.limits.maxObjectNumber;
  let p = 0;
  for (let i = 0; i + 1 < index.length; i += 2) {
    const start = index[i];
    const count = index[i + 1];
    if (!isNumber(start) || !isNumber(count)) break;
    for (let k = 0; k < count && p + rowLen <= data.length; k++) {
      let type = w0 === 0 ? 1 : 0;
      for (let j = 0; j < w0; j++) type = type * 256 + data[p++];
      let f1 = 0;
      for (let j = 0; j < w1; j++) f1 = f1 * 256 + data[p++];
      let f2 = 0;
      for (let j = 0; j < w2; j++) f2 = f2 * 256 + data[p++];
      const num = start + k;
      if (num >= maxNum || x.entries.has(num)) continue;
      if (x.entries.size >= maxEntries) {
        x.notes.push(`an xref stream lists more objects than the file can hold: the rest ignored`);
        return;
      }
      if (type === 1 && f1 > 0 && f1 < x.bytes.length) x.entries.set(num, { type: 1, offset: f1, gen: f2 });
      else if (type === 2 && f1 !== num) x.entries.set(num, { type: 2, stream: f1, index: f2 });
    }
  }
}
