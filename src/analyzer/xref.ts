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
import { fromObjStm } from './objectStreams';
import { Parser } from './parser';
import { getScan, repair } from './xrefRepair';
import { loadFromStartxref } from './xrefTable';

/** What a SecurityHandler must offer the xref layer (see crypto.ts). */
export interface Decryptor {
  decryptString(data: Uint8Array, num: number, gen: number): Uint8Array;
  decryptStream(data: Uint8Array, num: number, gen: number, streamDict?: PdfDict): Uint8Array;
}

/** Where an object is: at a byte offset of the file, or inside an object stream. */
export type Entry = { type: 1; offset: number; gen: number } | { type: 2; stream: number; index: number };

/** A decoded object stream: its data and where each object's text starts (after /First). */
export interface ObjStmIndex {
  data: Uint8Array;
  first: number;
  offsets: Map<number, number>;
  /** what holding it costs: the decoded bytes plus the offsets map */
  cost: number;
}

/** What one scan of the whole file finds; built once, on demand (repair, or an object missing from the xref). */
export interface FileScan {
  /** object number → offset of its last `N G obj` header (as in incremental updates, the last one wins) */
  index: Map<number, number>;
  /** offsets of every header, ascending: the next one bounds the object before it */
  headers: number[];
  /** offsets of every `trailer` keyword, ascending */
  trailers: number[];
  /** the deadline passed before the scan reached the end of the file */
  cut: boolean;
}

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

/**
 * The objects of one file. Its parts live where a reader would look for them: reading the sections (xrefTable.ts),
 * object streams (objectStreams.ts), repair by scanning (xrefRepair.ts); they are functions of the XRef, whose fields
 * they share. Made with the document's budget (deadline and memory account) and limits; load() reads the sections.
 */
export class XRef implements Resolver {
  readonly entries = new Map<number, Entry>();
  trailer = new PdfDict();
  repaired = false;
  readonly notes: string[] = [];
  security: Decryptor | undefined;
  /** object numbers whose string values must not be decrypted (the /Encrypt dictionary) */
  readonly plainObjects = new Set<number>();

  /** parsed objects by number */
  readonly cache = new Map<number, PdfValue>();
  readonly inProgress = new Set<number>();
  /** decoded object streams, least recently used evicted first (null: not a usable object stream) */
  readonly objStms: ChargedLru<number, ObjStmIndex | null>;
  /** object streams decoded since the parsed objects were last dropped: a second decode means the cache thrashes */
  readonly objStmDecoded = new Set<number>();
  /** object streams the memory account could not hold: their objects are missing (recorded as memory-limit) */
  readonly objStmStarved = new Set<number>();
  /** bytes charged for objects parsed out of object streams ahead of need; released with the parsed objects */
  extractedBytes = 0;
  /** the file scan (repair, or an object missing from the xref) */
  scan: FileScan | undefined;
  /** the xref's object offsets, ascending (see objectEnd); built on first need, dropped when the entries change */
  starts: Float64Array | undefined;
  /** whether every offset in `starts` is known to hold an object header */
  private startsChecked = false;
  /** while the xref sections are read the entries are incomplete, so objects are not bounded by them yet */
  private loading = false;
  private sortedEndstreams: number[] | undefined;
  private objectCount = 0;

  /** @param budget the analysis's deadline and memory account (the document's) */
  constructor(
    readonly bytes: Uint8Array,
    readonly limits: XRefLimits,
    readonly budget: Budget = Budget.unbounded(),
  ) {
    this.objStms = new ChargedLru(budget, 'object-stream', limits.objectStreamCacheBytes);
  }

  /** Loads the xref; on failure, repairs by scanning. Returns false when nothing usable was found. */
  load(): boolean {
    let ok = false;
    this.loading = true;
    try {
      ok = loadFromStartxref(this);
    } catch {
      ok = false;
    } finally {
      this.loading = false;
      this.starts = undefined;
    }
    if (!ok || !this.rootLooksValid()) {
      repair(this);
    }
    return this.trailer.has('Root');
  }

  private rootLooksValid(): boolean {
    const root = this.resolve(this.trailer.get('Root'));
    if (!(root instanceof PdfDict)) return false;
    const pages = this.resolve(root.get('Pages'));
    return pages instanceof PdfDict;
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
      const obj = this.parseObjectAt(e.offset, num);
      if (obj && obj.num === num) return obj.value;
    } else if (e && e.type === 2) {
      const v = fromObjStm(this, e.stream, num);
      if (v !== undefined) return v;
      // The memory account could not hold its object stream: that is recorded, and scanning would not find it.
      if (this.objStmStarved.has(e.stream)) return null;
    }
    // The table pointed somewhere wrong, or the object is absent from it: look it up by scanning.
    const idx = getScan(this).index;
    const off = idx.get(num);
    if (off !== undefined && !(e && e.type === 1 && e.offset === off)) {
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
  parseObjectAt(offset: number, expectNum: number | undefined, scanned = false): { num: number; gen: number; value: PdfValue } | undefined {
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
    for (const e of this.entries.values()) if (e.type === 1) out[n++] = e.offset;
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

  // ---- streams ---------------------------------------------------------------------------------------------------

  decodeStream(s: PdfStream, maxBytes?: number): DecodedStream {
    return this.decodeRaw(s, this.security, maxBytes);
  }

  /** @param deadline Infinity for structure (xref and object streams), which must not depend on timing */
  decodeRaw(s: PdfStream, sec: Decryptor | undefined, maxBytes = this.limits.maxStreamBytes, deadline = this.budget.deadline): DecodedStream {
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

  dropParsed(): void {
    this.cache.clear();
    this.objStms.clear();
    this.objStmDecoded.clear();
    this.objStmStarved.clear();
    this.budget.release(this.extractedBytes);
    this.extractedBytes = 0;
  }
}

/** The first of the ascending `sorted` greater than `offset`, or `dflt`. */
export function nextAfter(sorted: ArrayLike<number>, offset: number, dflt: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo] : dflt;
}
