/**
 * The cross-reference layer: finds every object of the file and hands it out on demand.
 *
 * Reads classic xref tables and xref streams (following /Prev, hybrid /XRefStm), objects inside object streams,
 * and falls back to scanning the whole file for `N G obj` headers and trailers when the xref is missing, wrong or
 * truncated, as real readers do. Objects are parsed lazily and cached; stream data is never copied, only decoded
 * on request.
 */
import { Budget, ChargedLru } from './budget';
import { type FilterParams, decodeFilters } from './filters';
import { isDigit, isWhite } from './bytes';
import { Cmd, EOF, Lexer } from './lexer';
import { type DecodedStream, PdfDict, PdfStream, type PdfValue, Ref, type Resolver, isNumber } from './objects';
import type { AnalyzerOptions } from './options';
import { Parser } from './parser';

/** What a SecurityHandler must offer the xref layer (see crypto.ts). */
export interface Decryptor {
  decryptString(data: Uint8Array, num: number, gen: number): Uint8Array;
  decryptStream(data: Uint8Array, num: number, gen: number, streamDict?: PdfDict): Uint8Array;
}

interface Entry {
  /** 1: at a byte offset; 2: inside an object stream */
  type: 1 | 2;
  /** type 1: byte offset; type 2: number of the object stream */
  a: number;
  /** type 1: generation; type 2: index in the object stream */
  b: number;
}

interface ObjStmIndex {
  data: Uint8Array;
  first: number;
  offsets: Map<number, number>;
  /** what holding it costs: the decoded bytes plus the offsets map */
  cost: number;
}

/** What one scan of the whole file finds; built once, on demand (repair, or an object missing from the xref). */
interface FileScan {
  /** object number → offset of its last `N G obj` header (as in incremental updates, the last one wins) */
  index: Map<number, number>;
  /** offsets of every header, ascending: the next one bounds the object before it */
  headers: number[];
  /** offsets of every `trailer` keyword, ascending */
  trailers: number[];
  /** the deadline passed before the scan reached the end of the file */
  cut: boolean;
}

/** An estimate of what one entry of an object stream's offsets map costs in the JS heap (key, value, hash links). */
const OFFSET_ENTRY_BYTES = 64;
/** An estimate of a parsed object's own heap cost beyond its text (a PdfDict is a Map and a wrapper). */
const PARSED_OBJECT_BYTES = 128;
/** Work between two looks at the clock in loops over objects or sections: cheap against one Date.now(). */
const CLOCK_EVERY_ITEMS = 256;
/** Bytes scanned between two looks at the clock while scanning the file. */
const CLOCK_EVERY_BYTES = 1 << 20;

/** The bounds the xref layer reads (AnalyzerOptions), for itself and for the lexers and parsers it makes. */
export type XRefLimits = Pick<
  AnalyzerOptions,
  | 'maxStreamBytes'
  | 'maxRefChain'
  | 'objectStreamCacheBytes'
  | 'maxXrefSections'
  | 'maxObjectNumber'
  | 'maxFiltersPerStream'
  | 'maxTokenBytes'
  | 'maxNameBytes'
  | 'maxObjectNesting'
  | 'maxObjectElements'
>;

const OBJ = Cmd.of('obj');
const STREAM = Cmd.of('stream');

export class XRef implements Resolver {
  readonly entries = new Map<number, Entry>();
  trailer = new PdfDict();
  repaired = false;
  readonly notes: string[] = [];
  security: Decryptor | undefined;
  /** object numbers whose string values must not be decrypted (the /Encrypt dictionary) */
  readonly plainObjects = new Set<number>();

  private readonly cache = new Map<number, PdfValue>();
  private readonly inProgress = new Set<number>();
  /** decoded object streams, least recently used evicted first (null: not a usable object stream) */
  private objStms: ChargedLru<number, ObjStmIndex | null>;
  /** object streams decoded since the parsed objects were last dropped: a second decode means the cache thrashes */
  private readonly objStmDecoded = new Set<number>();
  /** object streams the memory account could not hold: their objects are missing (recorded as memory-limit) */
  private readonly objStmStarved = new Set<number>();
  /** bytes charged for objects parsed out of object streams ahead of need; released with the parsed objects */
  private extractedBytes = 0;
  private scan: FileScan | undefined;
  /** the xref's object offsets, ascending (see objectEnd); built on first need, dropped when the entries change */
  private starts: Float64Array | undefined;
  /** whether every offset in `starts` is known to hold an object header */
  private startsChecked = false;
  /** while the xref sections are read the entries are incomplete, so objects are not bounded by them yet */
  private loading = false;
  private sortedEndstreams: number[] | undefined;
  private objectCount = 0;
  private budgetRef: Budget = Budget.unbounded();

  constructor(
    readonly bytes: Uint8Array,
    readonly limits: XRefLimits,
  ) {
    this.objStms = new ChargedLru(this.budgetRef, 'object-stream', limits.objectStreamCacheBytes);
  }

  /** the analysis's deadline and memory account; set by the document opener (before anything is read) */
  get budget(): Budget {
    return this.budgetRef;
  }
  set budget(b: Budget) {
    this.objStms.clear();
    this.budgetRef = b;
    this.objStms = new ChargedLru(b, 'object-stream', this.limits.objectStreamCacheBytes);
  }

  /** Loads the xref; on failure, repairs by scanning. Returns false when nothing usable was found. */
  load(): boolean {
    let ok = false;
    this.loading = true;
    try {
      ok = this.loadFromStartxref();
    } catch {
      ok = false;
    } finally {
      this.loading = false;
      this.starts = undefined;
    }
    if (!ok || !this.rootLooksValid()) {
      this.repair();
    }
    return this.trailer.has('Root');
  }

  private rootLooksValid(): boolean {
    const root = this.resolve(this.trailer.get('Root'));
    if (!(root instanceof PdfDict)) return false;
    const pages = this.resolve(root.get('Pages'));
    return pages instanceof PdfDict;
  }

  private loadFromStartxref(): boolean {
    const buf = this.bytes;
    const sx = Lexer.lastIndexOf(buf, 'startxref', buf.length - 9, Math.max(0, buf.length - 65536));
    if (sx < 0) return false;
    const lx = new Lexer(buf, sx + 9, buf.length, this.limits);
    const off = lx.next();
    if (typeof off !== 'number' || !Number.isInteger(off) || off < 0 || off >= buf.length) return false;
    let offset: number | undefined = off;
    const seen = new Set<number>();
    let first = true;
    while (offset !== undefined && !seen.has(offset) && seen.size < this.limits.maxXrefSections) {
      // Each section is read once, but a chain of hundreds of large ones still grows with the file. The newest
      // section is always read: without it there is nothing to go on but a repair.
      if (!first && this.budget.outOfTime('xref')) {
        this.notes.push('the time budget ran out while reading the /Prev chain of xref sections: older sections ignored');
        break;
      }
      seen.add(offset);
      const trailer = this.readSection(offset);
      if (!trailer) {
        if (first) return false;
        this.notes.push('a /Prev xref section could not be read');
        break;
      }
      if (first) {
        this.trailer = trailer;
        first = false;
      } else {
        // Older trailers fill in keys the newest lacks (some writers drop /Info or /ID in updates).
        for (const k of ['Root', 'Info', 'ID', 'Encrypt']) {
          if (!this.trailer.has(k) && trailer.has(k)) this.trailer.set(k, trailer.get(k)!);
        }
      }
      const xrefStm = trailer.get('XRefStm');
      if (isNumber(xrefStm) && !seen.has(xrefStm)) {
        seen.add(xrefStm);
        this.readSection(xrefStm);
      }
      const prev = trailer.get('Prev');
      offset = isNumber(prev) && prev >= 0 && prev < buf.length ? Math.floor(prev) : undefined;
    }
    return this.entries.size > 0 && this.trailer.has('Root');
  }

  /** Reads one xref section (table or stream) at `offset`, adding entries not yet known. Returns its trailer. */
  private readSection(offset: number): PdfDict | undefined {
    const lx = new Lexer(this.bytes, offset, this.bytes.length, this.limits);
    lx.skipWhite();
    if (Lexer.indexOf(this.bytes, 'xref', lx.pos, lx.pos + 4) === lx.pos) {
      lx.pos += 4;
      return this.readTable(lx);
    }
    return this.readXrefStream(offset);
  }

  private readTable(lx: Lexer): PdfDict | undefined {
    const buf = this.bytes;
    const maxNum = this.limits.maxObjectNumber;
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
        if ((i & 0xffff) === 0xffff && this.budget.outOfTime('xref')) return undefined;
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
        if (kind === 110 && !this.entries.has(num) && o > 0 && num < maxNum) {
          this.entries.set(num, { type: 1, a: o, b: g });
        }
      }
    }
    const p = new Parser(lx, undefined, this.limits);
    const d = p.parseValue();
    return d instanceof PdfDict ? d : undefined;
  }

  private readXrefStream(offset: number): PdfDict | undefined {
    const obj = this.parseObjectAt(offset, undefined);
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
    const dec = this.decodeRaw(s, undefined, this.limits.maxStreamBytes, Infinity);
    const data = dec.data;
    const rowLen = w0 + w1 + w2;
    if (rowLen === 0) return dict;
    // Held only while its rows are read, but held all the same.
    if (!this.budget.tryCharge(data.length, 'xref')) {
      this.notes.push('an xref stream is larger than the memory left for decoded data: its entries were not read');
      return undefined;
    }
    try {
      this.readXrefRows(index, data, w0, w1, w2);
    } finally {
      this.budget.release(data.length);
    }
    return dict;
  }

  private readXrefRows(index: PdfValue[], data: Uint8Array, w0: number, w1: number, w2: number): void {
    const rowLen = w0 + w1 + w2;
    // Every real object takes a few bytes of the file, so a file can't hold more objects than this: rows beyond it
    // are claims a hostile xref stream makes to exhaust memory (10 M rows from a 1 KB file).
    const maxEntries = (this.bytes.length >> 2) + 1024;
    const maxNum = this.limits.maxObjectNumber;
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
        if (num >= maxNum || this.entries.has(num)) continue;
        if (this.entries.size >= maxEntries) {
          this.notes.push(`an xref stream lists more objects than the file can hold: the rest ignored`);
          return;
        }
        if (type === 1 && f1 > 0 && f1 < this.bytes.length) this.entries.set(num, { type: 1, a: f1, b: f2 });
        else if (type === 2 && f1 !== num) this.entries.set(num, { type: 2, a: f1, b: f2 });
      }
    }
  }

  // ---- object access -------------------------------------------------------------------------------------------

  resolve(v: PdfValue | undefined): PdfValue | undefined {
    let n = 0;
    while (v instanceof Ref) {
      if (n++ >= this.limits.maxRefChain) return null;
      v = this.fetch(v);
    }
    return v;
  }

  fetch(ref: Ref): PdfValue {
    const num = ref.num;
    const cached = this.cache.get(num);
    if (cached !== undefined) return cached;
    if (this.inProgress.has(num)) return null; // a reference cycle through /Length or an object stream
    this.inProgress.add(num);
    let v: PdfValue = null;
    try {
      v = this.load1(num, ref.gen);
    } catch {
      v = null;
    } finally {
      this.inProgress.delete(num);
    }
    this.cache.set(num, v);
    return v;
  }

  private load1(num: number, gen: number): PdfValue {
    const e = this.entries.get(num);
    if (e && e.type === 1) {
      const obj = this.parseObjectAt(e.a, num);
      if (obj && obj.num === num) return obj.value;
    } else if (e && e.type === 2) {
      const v = this.fromObjStm(e.a, num);
      if (v !== undefined) return v;
      // The memory account could not hold its object stream: that is recorded, and scanning would not find it.
      if (this.objStmStarved.has(e.a)) return null;
    }
    // The table pointed somewhere wrong, or the object is absent from it: look it up by scanning.
    const idx = this.getScan().index;
    const off = idx.get(num);
    if (off !== undefined && !(e && e.type === 1 && e.a === off)) {
      const obj = this.parseObjectAt(off, num, true);
      if (obj && obj.num === num) {
        if (e) this.notes.push(`object ${num} ${gen} found by scanning, not at its xref offset`);
        return obj.value;
      }
    }
    return null;
  }

  /**
   * Parses `N G obj … endobj` at offset.
   * @param scanned the offset comes from the file scan: the next header the scan found bounds it too
   */
  private parseObjectAt(offset: number, expectNum: number | undefined, scanned = false): { num: number; gen: number; value: PdfValue } | undefined {
    if (offset < 0 || offset >= this.bytes.length) return undefined;
    let end = this.objectEnd(offset);
    if (scanned && this.scan) end = Math.min(end, nextAfter(this.scan.headers, offset, this.bytes.length));
    const lx = new Lexer(this.bytes, offset, end, this.limits);
    const num = lx.next();
    const gen = lx.next();
    const kw = lx.next();
    if (typeof num !== 'number' || typeof gen !== 'number' || kw !== OBJ) return undefined;
    if (expectNum !== undefined && num !== expectNum) return { num, gen, value: null };
    this.objectCount++;
    const sec = this.security;
    const hook = sec && !this.plainObjects.has(num) ? (s: Uint8Array) => sec.decryptString(s, num, gen) : undefined;
    const parser = new Parser(lx, hook, this.limits);
    const value = parser.parseValue();
    if (value === EOF || value instanceof Cmd) return { num, gen, value: null };
    if (value instanceof PdfDict) {
      const save = lx.pos;
      const t = lx.next();
      if (t === STREAM) return { num, gen, value: this.readStreamBody(lx.pos, end, value, new Ref(num, gen)) };
      lx.pos = save;
    }
    return { num, gen, value };
  }

  /**
   * Where the object starting at `offset` ends at the latest: the next known object header. Parsing within it keeps
   * a damaged object (an unclosed string or dictionary) from reading on through every object after it, which made
   * files of many such objects cost time quadratic in their size. Stream data may run past it (see readStreamBody).
   */
  private objectEnd(offset: number): number {
    const len = this.bytes.length;
    if (this.loading) return len;
    // In a repaired file every header the scan found is a start.
    if (this.repaired && this.scan) return nextAfter(this.scan.headers, offset, len);
    const starts = (this.starts ??= this.buildStarts());
    const next = nextAfter(starts, offset, len);
    if (next === len || this.startsChecked || this.headerAt(next)) return next;
    // An xref offset where no header stands (into the middle of another object, or text that looks like a header
    // inside a string or stream) must not cut the object short. Checking each offset only when a lookup lands on it
    // keeps well-formed files from paying for a check of every entry; once one is wrong, all are checked in one pass,
    // so a table full of wrong offsets costs one pass, not one per lookup.
    this.starts = starts.filter((p) => this.headerAt(p));
    this.startsChecked = true;
    return nextAfter(this.starts, offset, len);
  }

  /** The xref's offsets of uncompressed objects, ascending (not yet checked for a header: see objectEnd). */
  private buildStarts(): Float64Array {
    this.startsChecked = false;
    const out = new Float64Array(this.entries.size);
    let n = 0;
    for (const e of this.entries.values()) if (e.type === 1) out[n++] = e.a;
    // a typed array sorts numerically, natively, without a comparator call per step
    return out.subarray(0, n).sort();
  }

  /** Whether `N G obj` starts at `p` (looked at within a few dozen bytes). */
  private headerAt(p: number): boolean {
    const buf = this.bytes;
    const stop = Math.min(buf.length, p + 40);
    let i = p;
    // digits, white, digits, white, "obj" — written out: closures made on every call cost more than the look
    for (let part = 0; part < 4; part++) {
      const s = i;
      if (part % 2 === 0) while (i < stop && isDigit(buf[i])) i++;
      else while (i < stop && isWhite(buf[i])) i++;
      if (i === s) return false;
    }
    return i + 3 <= stop && buf[i] === 111 && buf[i + 1] === 98 && buf[i + 2] === 106;
  }

  /**
   * The stream's data starts after the end-of-line that follows `stream`. Spaces or tabs before that end-of-line
   * (hand-edited and damaged files) are skipped, and a CR alone is taken as the end-of-line, as qpdf does (libqpdf
   * QPDF.cc, the readObject/readStream step after the `stream` keyword: it warns "stream keyword followed by
   * extraneous whitespace" and goes on; without any end-of-line the data starts at the first non-space byte).
   * pdf.js (src/core/parser.js, makeStream → Lexer.skipToNextLine) is looser still: it skips any bytes to the next
   * end-of-line, which would eat the first line of data written without one.
   *
   * @param objEnd where the next object starts: the end is looked for before it, /Length may reach past it
   */
  private readStreamBody(afterKeyword: number, objEnd: number, dict: PdfDict, ref: Ref): PdfStream {
    const buf = this.bytes;
    let start = afterKeyword;
    // spaces, tabs, form feeds, and vertical tabs (not PDF white-space, but qpdf skips them too); not the EOL itself
    while (start < buf.length && (buf[start] === 32 || buf[start] === 9 || buf[start] === 12 || buf[start] === 11)) start++;
    if (buf[start] === 13) start++;
    if (buf[start] === 10) start++;
    let length: number | undefined;
    const lv = dict.get('Length');
    const lr = lv instanceof Ref ? this.resolve(lv) : lv;
    if (isNumber(lr) && lr >= 0) length = Math.floor(lr);
    let end = -1;
    if (length !== undefined && start + length <= buf.length) {
      // Trust /Length only when `endstream` follows it.
      const p = start + length;
      const q = Lexer.indexOf(buf, 'endstream', p, Math.min(buf.length, p + 64));
      if (q >= 0) {
        let gap = true;
        for (let i = p; i < q; i++) if (!(buf[i] === 10 || buf[i] === 13 || buf[i] === 32 || buf[i] === 9 || buf[i] === 0)) gap = false;
        if (gap) end = p;
      }
    }
    if (end < 0) {
      // The first `endstream` after the data, found in a sorted list of them rather than by a search from here:
      // thousands of streams without one each searched to the end of the file.
      let q = this.nextEndstream(start);
      // Without /Length, data that runs into the next object has lost its end: stop where that object starts.
      if (q < 0 || q > objEnd) q = objEnd < buf.length ? objEnd : q;
      end = q < 0 ? buf.length : q;
      // Drop the EOL that precedes endstream.
      if (end > start && buf[end - 1] === 10) end--;
      if (end > start && buf[end - 1] === 13) end--;
    }
    return new PdfStream(dict, buf.subarray(start, end), ref);
  }

  /** Offset of the first `endstream` at or after `from`, or -1. */
  private nextEndstream(from: number): number {
    if (!this.sortedEndstreams) {
      const out: number[] = [];
      const buf = this.bytes;
      for (let p = Lexer.indexOf(buf, 'endstream', 0); p >= 0; p = Lexer.indexOf(buf, 'endstream', p + 9)) out.push(p);
      this.sortedEndstreams = out;
    }
    const s = this.sortedEndstreams;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < s.length ? s[lo] : -1;
  }

  // ---- object streams --------------------------------------------------------------------------------------------

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
  private fromObjStm(stmNum: number, num: number): PdfValue | undefined {
    if (this.objStmStarved.has(stmNum)) return undefined;
    let idx = this.objStms.get(stmNum);
    if (idx === undefined) {
      if (this.budget.outOfTime('object-stream')) return undefined;
      const loaded = this.loadObjStm(stmNum);
      if (loaded === 'too-large') {
        this.objStmStarved.add(stmNum);
        this.notes.push(`object stream ${stmNum} does not fit in the memory left: its objects are missing`);
        return undefined;
      }
      idx = loaded;
      if (idx === null) {
        this.objStms.set(stmNum, null, OFFSET_ENTRY_BYTES);
        return undefined;
      }
      const again = this.objStmDecoded.has(stmNum);
      this.objStmDecoded.add(stmNum);
      if (again || !this.objStms.set(stmNum, idx, idx.cost)) {
        // Held only while its objects are parsed; if even that does not fit, its objects are missing and the
        // budget says so (memory-limit in object-stream), so no page built on them gets a confident answer.
        if (!this.budget.tryCharge(idx.cost, 'object-stream')) {
          this.objStmStarved.add(stmNum);
          this.notes.push(`object stream ${stmNum} (${idx.data.length} bytes decoded) does not fit in the memory left: its objects are missing`);
          return undefined;
        }
        try {
          this.extractAll(stmNum, idx, num);
        } finally {
          this.budget.release(idx.cost);
        }
      }
    }
    if (!idx) return undefined;
    return this.objectInStream(idx, num);
  }

  private objectInStream(idx: ObjStmIndex, num: number): PdfValue | undefined {
    const off = idx.offsets.get(num);
    if (off === undefined) return undefined;
    const lx = new Lexer(idx.data, idx.first + off, idx.data.length, this.limits);
    const v = new Parser(lx, undefined, this.limits).parseValue();
    if (v === EOF || v instanceof Cmd) return null;
    return v;
  }

  /** Parses every object the xref places in this stream (but `except`, which the caller parses) into the object cache. */
  private extractAll(stmNum: number, idx: ObjStmIndex, except: number): void {
    // Each object's text ends where the next one starts: that span, plus a parsed object's own overhead, is what
    // keeping it costs.
    const spans = [...idx.offsets.entries()].sort((a, b) => a[1] - b[1]);
    for (let i = 0; i < spans.length; i++) {
      const [objNum, off] = spans[i];
      if (objNum === except || this.cache.has(objNum) || this.inProgress.has(objNum)) continue;
      const e = this.entries.get(objNum);
      if (!e || e.type !== 2 || e.a !== stmNum) continue;
      const next = i + 1 < spans.length ? spans[i + 1][1] : idx.data.length - idx.first;
      const cost = Math.max(0, next - off) + PARSED_OBJECT_BYTES;
      if (!this.budget.tryCharge(cost, 'object-stream')) {
        this.objStmStarved.add(stmNum);
        this.notes.push(`the objects of object stream ${stmNum} do not fit in the memory left: the rest are missing`);
        return;
      }
      this.extractedBytes += cost;
      this.cache.set(objNum, this.objectInStream(idx, objNum) ?? null);
    }
  }

  private loadObjStm(stmNum: number): ObjStmIndex | null | 'too-large' {
    const s = this.fetch(new Ref(stmNum, 0));
    if (!(s instanceof PdfStream)) return null;
    const n = this.resolve(s.dict.get('N'));
    const first = this.resolve(s.dict.get('First'));
    if (!isNumber(n) || !isNumber(first) || n < 0 || first < 0) return null;
    // Decoded no further than the memory account could hold (counting what this cache would give up): a stream
    // past that is not allocated, only reported.
    const room = Math.max(0, this.budget.maxHeldBytes - this.budget.held + this.objStms.heldBytes);
    const cap = Math.min(this.limits.maxStreamBytes, room + 1);
    const dec = this.decodeRaw(s, this.security, cap, Infinity);
    const data = dec.data;
    if (dec.truncated && cap <= this.limits.maxStreamBytes && data.length > room) {
      this.budget.tryCharge(data.length, 'object-stream'); // fails: records memory-limit
      return 'too-large';
    }
    if (dec.truncated)
      this.notes.push(`object stream ${stmNum} decodes to more than ${this.limits.maxStreamBytes} bytes: objects past that are missing`);
    const offsets = this.readObjStmHeader(data, first, n);
    return { data, first, offsets, cost: data.length + offsets.size * OFFSET_ENTRY_BYTES };
  }

  private readObjStmHeader(data: Uint8Array, first: number, n: number): Map<number, number> {
    const lx = new Lexer(data, 0, Math.min(first, data.length), this.limits);
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

  // ---- streams ---------------------------------------------------------------------------------------------------

  decodeStream(s: PdfStream, maxBytes?: number): DecodedStream {
    return this.decodeRaw(s, this.security, maxBytes);
  }

  /** @param deadline Infinity for structure (xref and object streams), which must not depend on timing */
  private decodeRaw(s: PdfStream, sec: Decryptor | undefined, maxBytes = this.limits.maxStreamBytes, deadline = this.budget.deadline): DecodedStream {
    try {
      let raw = s.raw;
      if (sec && s.ref && !this.plainObjects.has(s.ref.num)) raw = sec.decryptStream(raw, s.ref.num, s.ref.gen, s.dict);
      const fv = this.resolve(s.dict.get('Filter') ?? s.dict.get('F'));
      const pv = this.resolve(s.dict.get('DecodeParms') ?? s.dict.get('DP'));
      const filters: string[] = [];
      const params: (FilterParams | undefined)[] = [];
      if (typeof fv === 'string' && fv !== 'Crypt') {
        filters.push(fv);
        params.push(this.filterParams(Array.isArray(pv) ? pv[0] : pv));
      } else if (Array.isArray(fv)) {
        for (let i = 0, max = this.limits.maxFiltersPerStream; i < fv.length && i < max; i++) {
          const f = this.resolve(fv[i]);
          // A /Crypt filter was applied by the security handler already.
          if (typeof f !== 'string' || f === 'Crypt') continue;
          filters.push(f);
          params.push(this.filterParams(Array.isArray(pv) ? pv[i] : undefined));
        }
      }
      if (filters.length === 0) {
        if (raw.length > maxBytes) return { data: raw.subarray(0, maxBytes), truncated: true };
        return { data: raw, truncated: false };
      }
      return decodeFilters(raw, filters, params, maxBytes, deadline);
    } catch (e) {
      return { data: new Uint8Array(0), truncated: false, error: String(e) };
    }
  }

  private filterParams(v: PdfValue | undefined): FilterParams | undefined {
    const d = this.resolve(v);
    if (!(d instanceof PdfDict)) return undefined;
    const num = (k: string): number | undefined => {
      const x = this.resolve(d.get(k));
      return isNumber(x) ? x : undefined;
    };
    return {
      predictor: num('Predictor'),
      colors: num('Colors'),
      bitsPerComponent: num('BitsPerComponent'),
      columns: num('Columns'),
      earlyChange: num('EarlyChange'),
    };
  }

  /** Drops parsed objects (after the security handler is installed, strings must be re-read decrypted). */
  clearCache(): void {
    this.dropParsed();
  }

  private dropParsed(): void {
    this.cache.clear();
    this.objStms.clear();
    this.objStmDecoded.clear();
    this.objStmStarved.clear();
    this.budget.release(this.extractedBytes);
    this.extractedBytes = 0;
  }

  // ---- repair ----------------------------------------------------------------------------------------------------

  /**
   * One pass over the file for every `N G obj` header and every `trailer` keyword, built once. The two searches
   * move forward together and never go back, so the pass is linear however many headers or trailers there are.
   * The clock is looked at every CLOCK_EVERY_BYTES: past the deadline the scan keeps what it found (noted).
   */
  private getScan(): FileScan {
    if (this.scan) return this.scan;
    const index = new Map<number, number>();
    const headers: number[] = [];
    const trailers: number[] = [];
    const buf = this.bytes;
    let cut = false;
    let clockAt = CLOCK_EVERY_BYTES;
    let nextObj = Lexer.indexOf(buf, 'obj', 0);
    let nextTrailer = Lexer.indexOf(buf, 'trailer', 0);
    while (nextObj >= 0 || nextTrailer >= 0) {
      const here = nextObj < 0 ? nextTrailer : nextTrailer < 0 ? nextObj : Math.min(nextObj, nextTrailer);
      if (here >= clockAt) {
        clockAt = here + CLOCK_EVERY_BYTES;
        if (this.budget.outOfTime('xref')) {
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
      const h = headerBefore(buf, q, this.limits.maxObjectNumber);
      if (h === undefined) continue;
      headers.push(h.start);
      index.set(h.num, h.start);
    }
    if (cut) this.notes.push('the time budget ran out while scanning the file for objects: objects further on were not found');
    this.scan = { index, headers, trailers, cut };
    return this.scan;
  }

  /** Rebuilds the xref from a scan of the file: every object header, every trailer, every xref stream. */
  private repair(): void {
    this.repaired = true;
    this.notes.push('xref damaged or missing: repaired by scanning the file');
    this.dropParsed();
    const oldEntries = new Map(this.entries);
    this.entries.clear();
    const scan = this.getScan();
    for (const [num, off] of scan.index) this.entries.set(num, { type: 1, a: off, b: 0 });
    this.starts = undefined;
    const buf = this.bytes;
    let stopped = false;
    // Trailers, last one wins for each key. Each is read only up to the next trailer or object header: thousands of
    // unclosed trailer dictionaries otherwise each read on to the end of the file.
    let trailer = new PdfDict();
    const headers = scan.headers;
    let h = 0;
    for (let i = 0; i < scan.trailers.length && !stopped; i++) {
      if (i % CLOCK_EVERY_ITEMS === CLOCK_EVERY_ITEMS - 1 && this.budget.outOfTime('xref')) {
        stopped = true;
        break;
      }
      const t = scan.trailers[i];
      while (h < headers.length && headers[h] <= t) h++;
      const end = Math.min(i + 1 < scan.trailers.length ? scan.trailers[i + 1] : buf.length, h < headers.length ? headers[h] : buf.length);
      const d = new Parser(new Lexer(buf, t + 7, end, this.limits), undefined, this.limits).parseValue();
      if (d instanceof PdfDict) trailer = mergeTrailer(trailer, d);
    }
    // Compressed objects: the object numbers in every object stream, and the trailer keys of every xref stream.
    // Each object is parsed within its own span (objectEnd), so this loop costs one more pass over the file.
    let n = 0;
    for (const [num] of scan.index) {
      if (stopped) break;
      if (++n % CLOCK_EVERY_ITEMS === 0 && this.budget.outOfTime('xref')) {
        stopped = true;
        break;
      }
      const v = this.fetch(new Ref(num, 0));
      if (!(v instanceof PdfStream)) continue;
      const type = v.dict.get('Type');
      if (type === 'XRef') {
        trailer = mergeTrailer(trailer, v.dict);
      } else if (type === 'ObjStm') {
        for (const objNum of this.objStmNumbers(v)) if (!this.entries.has(objNum)) this.entries.set(objNum, { type: 2, a: num, b: 0 });
        // a decode costs far more than a look at the clock
        if (this.budget.outOfTime('xref')) stopped = true;
      }
    }
    // Entries of the old xref for objects the scan did not find (object streams listed there).
    for (const [num, e] of oldEntries) if (!this.entries.has(num) && e.type === 2) this.entries.set(num, e);
    this.dropParsed();
    if (!stopped && !(this.resolve(trailer.get('Root')) instanceof PdfDict)) {
      // No usable trailer: look for the catalog itself.
      for (const [num] of this.entries) {
        // every fetch here may decode an object stream
        if (this.budget.outOfTime('xref')) {
          stopped = true;
          break;
        }
        const v = this.fetch(new Ref(num, 0));
        if (v instanceof PdfDict && v.get('Type') === 'Catalog' && this.resolve(v.get('Pages')) instanceof PdfDict) {
          trailer.set('Root', new Ref(num, 0));
          break;
        }
      }
    }
    if (stopped) this.notes.push('the time budget ran out while rebuilding the xref: the objects found by then are used');
    this.trailer = trailer;
  }

  /**
   * The object numbers an object stream holds. Only its header (the first /First bytes) is decoded: the objects
   * themselves are read when asked for, through the cache.
   */
  private objStmNumbers(s: PdfStream): number[] {
    const n = this.resolve(s.dict.get('N'));
    const first = this.resolve(s.dict.get('First'));
    if (!isNumber(n) || !isNumber(first) || n < 0 || first < 0) return [];
    const dec = this.decodeRaw(s, this.security, Math.min(this.limits.maxStreamBytes, Math.ceil(first)), Infinity);
    return [...this.readObjStmHeader(dec.data, first, n).keys()];
  }
}

/** The first of the ascending `sorted` greater than `offset`, or `dflt`. */
function nextAfter(sorted: ArrayLike<number>, offset: number, dflt: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo] : dflt;
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
