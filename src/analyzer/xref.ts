/**
 * The cross-reference layer: finds every object of the file and hands it out on demand.
 *
 * Reads classic xref tables and xref streams (following /Prev, hybrid /XRefStm), objects inside object streams,
 * and falls back to scanning the whole file for `N G obj` headers and trailers when the xref is missing, wrong or
 * truncated, as real readers do. Objects are parsed lazily and cached; stream data is never copied, only decoded
 * on request.
 */
import { Budget } from './budget';
import { type FilterParams, decodeFilters } from './filters';
import { Cmd, EOF, Lexer } from './lexer';
import { type DecodedStream, PdfDict, PdfStream, type PdfValue, Ref, type Resolver, isNumber } from './objects';
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
}

const OBJ = Cmd.of('obj');
const STREAM = Cmd.of('stream');
const MAX_XREF_SECTIONS = 512;
const MAX_OBJECT_NUMBER = 10_000_000;

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
  private readonly objStms = new Map<number, ObjStmIndex | null>();
  private scanIndex: Map<number, number> | undefined;
  private objectCount = 0;
  /** the analysis's deadline and memory account; set by the document opener */
  budget: Budget = Budget.unbounded();

  constructor(
    readonly bytes: Uint8Array,
    readonly limits: { maxStreamBytes: number; maxRefChain: number },
  ) {}

  /** Loads the xref; on failure, repairs by scanning. Returns false when nothing usable was found. */
  load(): boolean {
    let ok = false;
    try {
      ok = this.loadFromStartxref();
    } catch {
      ok = false;
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
    const lx = new Lexer(buf, sx + 9);
    const off = lx.next();
    if (typeof off !== 'number' || !Number.isInteger(off) || off < 0 || off >= buf.length) return false;
    let offset: number | undefined = off;
    const seen = new Set<number>();
    let first = true;
    while (offset !== undefined && !seen.has(offset) && seen.size < MAX_XREF_SECTIONS) {
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
    const lx = new Lexer(this.bytes, offset);
    lx.skipWhite();
    if (Lexer.indexOf(this.bytes, 'xref', lx.pos, lx.pos + 4) === lx.pos) {
      lx.pos += 4;
      return this.readTable(lx);
    }
    return this.readXrefStream(offset);
  }

  private readTable(lx: Lexer): PdfDict | undefined {
    const buf = this.bytes;
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
        if (kind === 110 && !this.entries.has(num) && o > 0 && num < MAX_OBJECT_NUMBER) {
          this.entries.set(num, { type: 1, a: o, b: g });
        }
      }
    }
    const p = new Parser(lx);
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
    const [w0, w1, w2] = w as number[];
    if (w0 < 0 || w1 < 0 || w2 < 0 || w0 > 8 || w1 > 8 || w2 > 8) return undefined;
    const size = dict.get('Size');
    let index = dict.get('Index');
    if (!Array.isArray(index)) index = [0, isNumber(size) ? size : 0];
    const dec = this.decodeRaw(s, undefined);
    const data = dec.data;
    const rowLen = w0 + w1 + w2;
    if (rowLen === 0) return dict;
    // Every real object takes a few bytes of the file, so a file can't hold more objects than this: rows beyond it
    // are claims a hostile xref stream makes to exhaust memory (10 M rows from a 1 KB file).
    const maxEntries = (this.bytes.length >> 2) + 1024;
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
        if (num >= MAX_OBJECT_NUMBER || this.entries.has(num)) continue;
        if (this.entries.size >= maxEntries) {
          this.notes.push(`an xref stream lists more objects than the file can hold: the rest ignored`);
          return dict;
        }
        if (type === 1 && f1 > 0 && f1 < this.bytes.length) this.entries.set(num, { type: 1, a: f1, b: f2 });
        else if (type === 2 && f1 !== num) this.entries.set(num, { type: 2, a: f1, b: f2 });
      }
    }
    return dict;
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
    }
    // The table pointed somewhere wrong, or the object is absent from it: look it up by scanning.
    const idx = this.getScanIndex();
    const off = idx.get(num);
    if (off !== undefined && !(e && e.type === 1 && e.a === off)) {
      const obj = this.parseObjectAt(off, num);
      if (obj && obj.num === num) {
        if (e) this.notes.push(`object ${num} ${gen} found by scanning, not at its xref offset`);
        return obj.value;
      }
    }
    return null;
  }

  /** Parses `N G obj … endobj` at offset. */
  private parseObjectAt(offset: number, expectNum: number | undefined): { num: number; gen: number; value: PdfValue } | undefined {
    if (offset < 0 || offset >= this.bytes.length) return undefined;
    const lx = new Lexer(this.bytes, offset);
    const num = lx.next();
    const gen = lx.next();
    const kw = lx.next();
    if (typeof num !== 'number' || typeof gen !== 'number' || kw !== OBJ) return undefined;
    if (expectNum !== undefined && num !== expectNum) return { num, gen, value: null };
    this.objectCount++;
    const sec = this.security;
    const hook = sec && !this.plainObjects.has(num) ? (s: Uint8Array) => sec.decryptString(s, num, gen) : undefined;
    const parser = new Parser(lx, hook);
    const value = parser.parseValue();
    if (value === EOF || value instanceof Cmd) return { num, gen, value: null };
    if (value instanceof PdfDict) {
      const save = lx.pos;
      const t = lx.next();
      if (t === STREAM) return { num, gen, value: this.readStreamBody(lx, value, new Ref(num, gen)) };
      lx.pos = save;
    }
    return { num, gen, value };
  }

  private readStreamBody(lx: Lexer, dict: PdfDict, ref: Ref): PdfStream {
    const buf = this.bytes;
    let start = lx.pos;
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
      const q = Lexer.indexOf(buf, 'endstream', start);
      end = q < 0 ? buf.length : q;
      // Drop the EOL that precedes endstream.
      if (end > start && buf[end - 1] === 10) end--;
      if (end > start && buf[end - 1] === 13) end--;
    }
    return new PdfStream(dict, buf.subarray(start, end), ref);
  }

  private fromObjStm(stmNum: number, num: number): PdfValue | undefined {
    let idx = this.objStms.get(stmNum);
    if (idx === undefined) {
      idx = this.loadObjStm(stmNum);
      this.objStms.set(stmNum, idx);
    }
    if (!idx) return undefined;
    const off = idx.offsets.get(num);
    if (off === undefined) return undefined;
    const lx = new Lexer(idx.data, idx.first + off);
    const v = new Parser(lx).parseValue();
    if (v === EOF || v instanceof Cmd) return null;
    return v;
  }

  private loadObjStm(stmNum: number): ObjStmIndex | null {
    const s = this.fetch(new Ref(stmNum, 0));
    if (!(s instanceof PdfStream)) return null;
    const n = this.resolve(s.dict.get('N'));
    const first = this.resolve(s.dict.get('First'));
    if (!isNumber(n) || !isNumber(first) || n < 0 || first < 0) return null;
    const dec = this.decodeStream(s);
    const data = dec.data;
    const lx = new Lexer(data, 0, Math.min(first, data.length));
    const offsets = new Map<number, number>();
    // An object in a stream takes at least a couple of bytes: a larger /N is a lie, not a reason to allocate.
    const maxObjects = Math.min(n, (data.length >> 1) + 1);
    for (let i = 0; i < maxObjects; i++) {
      const a = lx.next();
      const b = lx.next();
      if (typeof a !== 'number' || typeof b !== 'number') break;
      if (!offsets.has(a)) offsets.set(a, b);
    }
    return { data, first, offsets };
  }

  // ---- streams ---------------------------------------------------------------------------------------------------

  decodeStream(s: PdfStream, maxBytes?: number): DecodedStream {
    return this.decodeRaw(s, this.security, maxBytes);
  }

  private decodeRaw(s: PdfStream, sec: Decryptor | undefined, maxBytes = this.limits.maxStreamBytes): DecodedStream {
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
        for (let i = 0; i < fv.length && i < 16; i++) {
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
      return decodeFilters(raw, filters, params, maxBytes, this.budget.deadline);
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
    this.cache.clear();
    this.objStms.clear();
  }

  // ---- repair ----------------------------------------------------------------------------------------------------

  /** Offsets of every `N G obj` header in the file, the last one winning (as in incremental updates). */
  private getScanIndex(): Map<number, number> {
    if (this.scanIndex) return this.scanIndex;
    const idx = new Map<number, number>();
    const buf = this.bytes;
    let p = 0;
    for (;;) {
      const q = Lexer.indexOf(buf, 'obj', p);
      if (q < 0) break;
      p = q + 3;
      // "obj" must be followed by a non-regular character and preceded by "num ws gen ws".
      const after = buf[q + 3];
      if (after !== undefined && !(after <= 32 || after === 60 || after === 91 || after === 47 || after === 40 || after === 37)) continue;
      let i = q - 1;
      if (i < 0 || !(buf[i] <= 32)) continue;
      while (i >= 0 && buf[i] <= 32 && buf[i] !== 0) i--;
      const genEnd = i + 1;
      while (i >= 0 && buf[i] >= 48 && buf[i] <= 57) i--;
      if (i + 1 === genEnd || genEnd - (i + 1) > 5) continue;
      if (i < 0 || !(buf[i] <= 32)) continue;
      while (i >= 0 && buf[i] <= 32 && buf[i] !== 0) i--;
      const numEnd = i + 1;
      while (i >= 0 && buf[i] >= 48 && buf[i] <= 57) i--;
      const numStart = i + 1;
      if (numStart === numEnd || numEnd - numStart > 10) continue;
      let num = 0;
      for (let k = numStart; k < numEnd; k++) num = num * 10 + (buf[k] - 48);
      if (num >= MAX_OBJECT_NUMBER) continue;
      idx.set(num, numStart);
    }
    this.scanIndex = idx;
    return idx;
  }

  /** Rebuilds the xref from a scan of the file: every object header, every trailer, every xref stream. */
  private repair(): void {
    this.repaired = true;
    this.notes.push('xref damaged or missing: repaired by scanning the file');
    this.cache.clear();
    this.objStms.clear();
    const oldEntries = new Map(this.entries);
    this.entries.clear();
    const idx = this.getScanIndex();
    for (const [num, off] of idx) this.entries.set(num, { type: 1, a: off, b: 0 });
    const buf = this.bytes;
    // Trailers, last one wins for each key.
    let trailer = new PdfDict();
    let p = 0;
    for (let n = 0; n < 10_000; n++) {
      const q = Lexer.indexOf(buf, 'trailer', p);
      if (q < 0) break;
      p = q + 7;
      const lx = new Lexer(buf, p);
      const d = new Parser(lx).parseValue();
      if (d instanceof PdfDict) trailer = mergeTrailer(trailer, d);
    }
    // Compressed objects: read every object stream and xref stream we found.
    for (const [num] of idx) {
      const v = this.fetch(new Ref(num, 0));
      if (!(v instanceof PdfStream)) continue;
      const type = v.dict.get('Type');
      if (type === 'XRef') {
        trailer = mergeTrailer(trailer, v.dict);
      } else if (type === 'ObjStm') {
        const os = this.loadObjStm(num);
        this.objStms.set(num, os);
        if (os) for (const [objNum, _off] of os.offsets) if (!this.entries.has(objNum)) this.entries.set(objNum, { type: 2, a: num, b: 0 });
      }
    }
    // Entries of the old xref for objects the scan did not find (object streams listed there).
    for (const [num, e] of oldEntries) if (!this.entries.has(num) && e.type === 2) this.entries.set(num, e);
    this.cache.clear();
    if (!(this.resolve(trailer.get('Root')) instanceof PdfDict)) {
      // No usable trailer: look for the catalog itself.
      for (const [num] of this.entries) {
        const v = this.fetch(new Ref(num, 0));
        if (v instanceof PdfDict && v.get('Type') === 'Catalog' && this.resolve(v.get('Pages')) instanceof PdfDict) {
          trailer.set('Root', new Ref(num, 0));
          break;
        }
      }
    }
    this.trailer = trailer;
  }
}

function mergeTrailer(into: PdfDict, d: PdfDict): PdfDict {
  for (const k of ['Root', 'Info', 'ID', 'Encrypt', 'Size']) {
    const v = d.get(k);
    if (v !== undefined) into.set(k, v);
  }
  return into;
}
