import { type AnalyzerOptions, DEFAULT_OPTIONS } from './options';
import { BYTE_CLASS, REGULAR, WHITE, hexValue } from './bytes';
import { latin1 } from './text';
import { type Op, opCode } from './operators';

/**
 * Tokenizer for PDF syntax, shared by the object parser (file structure) and the content-stream interpreter.
 * It works on bytes, allocates only for the values it returns, and never throws: malformed input yields
 * best-effort tokens, and the end of the buffer yields `EOF`.
 */

/** A keyword or delimiter: operators in content streams, `obj`/`R`/`stream` in files, and `[ ] << >> { }`. */
export class Cmd {
  private static readonly table = new Map<string, Cmd>();
  /** the operator's code in the interpreter's table (operators.ts); Op.None for keywords it does not act on */
  readonly code: Op;
  private constructor(readonly op: string) {
    this.code = opCode(op);
  }
  /** Interned, so that operators compare by identity and switch on `op` without allocating. */
  static of(op: string): Cmd {
    let c = Cmd.table.get(op);
    if (!c) {
      c = new Cmd(op);
      // process-wide (shared by every document), so its bound is a fixed size, not a per-document option
      if (Cmd.table.size < 10_000) Cmd.table.set(op, c);
    }
    return c;
  }
}

export const EOF: unique symbol = Symbol('EOF');
export type Token = number | string | Uint8Array | boolean | null | Cmd | typeof EOF;

export const ARRAY_START = Cmd.of('[');
export const ARRAY_END = Cmd.of(']');
export const DICT_START = Cmd.of('<<');
export const DICT_END = Cmd.of('>>');
export const BRACE_START = Cmd.of('{');
export const BRACE_END = Cmd.of('}');

// Content streams are mostly short operators and short resource names (Tj, re, /F1, /Im0): looking them up by their
// bytes packed in a small integer spares a subarray and a new string per token. One bounded table serves both: a
// short name is the `op` string of the keyword with the same bytes.
const SHORT = new Map<number, Cmd>();
/** the table is process-wide, like Cmd's: a fixed bound, not a per-document option */
const SHORT_TABLE_MAX = 4096;

/** The keyword `buf[start..start+len]`, for len ≤ 3 (the key must fit a small integer). */
function shortCmd(buf: Uint8Array, start: number, len: number): Cmd {
  let k = len;
  for (let i = 0; i < len; i++) k = (k << 8) | buf[start + i];
  let c = SHORT.get(k);
  if (c === undefined) {
    c = Cmd.of(String.fromCharCode.apply(null, buf.subarray(start, start + len) as unknown as number[]));
    if (SHORT.size < SHORT_TABLE_MAX) SHORT.set(k, c);
  }
  return c;
}

// The byte classes live in bytes.ts; isWhite and isRegular are re-exported for the modules that import them from here.
export { isRegular, isWhite } from './bytes';

// bytes.ts's table and bits under module-local names: the hot loops then read no import binding per byte. With the
// imported names in its loops the lexer measured 2.5% slower over the corpus (CPU time, paired against the old
// table); with these aliases the difference is within the noise of the measurement (±4% per round).
const CLASS = BYTE_CLASS;
const W = WHITE;
const R = REGULAR;

/**
 * Names up to this many bytes are kept whole whatever maxNameBytes says, so that the common paths of readName test
 * only a constant (a check of the limit there measured up to 2.5% of the whole analysis over the corpus, CPU time paired); the
 * limit cuts only names longer than this, which no real file has.
 */
const NAME_ALWAYS_KEPT = 1024;
/** windows of at most this many bytes are searched byte by byte (see Lexer.indexOf) */
const SMALL_WINDOW = 256;

/** The bounds a lexer reads (AnalyzerOptions). */
export type LexerLimits = Pick<AnalyzerOptions, 'maxTokenBytes' | 'maxNameBytes'>;

// Names and keywords of 4 to 24 bytes (/Type, /Length, /FontDescriptor, endobj…) recur in every object: a small hash
// table of the strings already made spares a view and a new string per token, and their garbage (tuning: neither the
// table's size nor the length bound is a limit; a slot holds the last string that hashed to it).
const NAME_CACHE_LEN = 24;
const NAME_CACHE_SIZE = 1024;
const nameCache: (string | undefined)[] = new Array<string | undefined>(NAME_CACHE_SIZE);

/** The latin1 string of `buf[start..end)` (end − start ≤ NAME_CACHE_LEN), the same string object as last time when cached. */
function cachedName(buf: Uint8Array, start: number, end: number): string {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  const slot = (h ^ (h >>> 15)) & (NAME_CACHE_SIZE - 1);
  const hit = nameCache[slot];
  if (hit !== undefined && hit.length === end - start) {
    let i = 0;
    while (i < hit.length && hit.charCodeAt(i) === buf[start + i]) i++;
    if (i === hit.length) return hit;
  }
  const s = String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  nameCache[slot] = s;
  return s;
}

export class Lexer {
  pos: number;
  readonly end: number;
  /** longest string the lexer returns, so that a hostile file can't make one token allocate gigabytes */
  readonly maxTokenBytes: number;
  /** characters of a name kept: maxNameBytes, but never fewer than NAME_ALWAYS_KEPT */
  readonly maxNameBytes: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    end = buf.length,
    limits: LexerLimits = DEFAULT_OPTIONS,
  ) {
    this.pos = start;
    this.end = Math.min(end, buf.length);
    this.maxTokenBytes = limits.maxTokenBytes;
    this.maxNameBytes = Math.max(NAME_ALWAYS_KEPT, limits.maxNameBytes);
  }

  /** Skips whitespace and comments. */
  skipWhite(): void {
    const buf = this.buf;
    let p = this.pos;
    const end = this.end;
    while (p < end) {
      const c = buf[p];
      if ((CLASS[c] & W) !== 0) {
        p++;
      } else if (c === 37 /* % */) {
        while (p < end && buf[p] !== 10 && buf[p] !== 13) p++;
      } else break;
    }
    this.pos = p;
  }

  next(): Token {
    this.skipWhite();
    const buf = this.buf;
    const end = this.end;
    let p = this.pos;
    if (p >= end) return EOF;
    const c = buf[p];
    // Numbers: [+-]?digits[.digits] or .digits
    if ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46) {
      const n = this.readNumber();
      if (n !== undefined) return n;
      p = this.pos;
    }
    switch (c) {
      case 47 /* / */:
        return this.readName();
      case 40 /* ( */:
        return this.readLiteralString();
      case 60 /* < */:
        if (buf[p + 1] === 60) {
          this.pos = p + 2;
          return DICT_START;
        }
        return this.readHexString();
      case 62 /* > */:
        if (buf[p + 1] === 62) {
          this.pos = p + 2;
          return DICT_END;
        }
        this.pos = p + 1;
        return Cmd.of('>');
      case 91:
        this.pos = p + 1;
        return ARRAY_START;
      case 93:
        this.pos = p + 1;
        return ARRAY_END;
      case 123:
        this.pos = p + 1;
        return BRACE_START;
      case 125:
        this.pos = p + 1;
        return BRACE_END;
      case 41 /* ) stray */:
        this.pos = p + 1;
        return Cmd.of(')');
    }
    // Keyword: a run of regular characters.
    const start = p;
    while (p < end && (CLASS[buf[p]] & R) !== 0) p++;
    if (p === start) p++; // a lone delimiter we do not know; consume it
    this.pos = p;
    const len = p - start;
    if (len === 4 && buf[start] === 116 && buf[start + 1] === 114 && buf[start + 2] === 117 && buf[start + 3] === 101) return true;
    if (len === 5 && buf[start] === 102 && buf[start + 1] === 97 && buf[start + 2] === 108 && buf[start + 3] === 115 && buf[start + 4] === 101)
      return false;
    if (len === 4 && buf[start] === 110 && buf[start + 1] === 117 && buf[start + 2] === 108 && buf[start + 3] === 108) return null;
    if (len <= 3) return shortCmd(buf, start, len);
    if (len <= NAME_CACHE_LEN) return Cmd.of(cachedName(buf, start, p));
    return Cmd.of(len <= 64 ? String.fromCharCode.apply(null, buf.subarray(start, p) as unknown as number[]) : '?');
  }

  /** Reads a number at pos; returns undefined (pos unchanged) when the bytes are not a number. */
  readNumber(): number | undefined {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos;
    let sign = 1;
    // Tolerate runs of signs ("--5", "+-3") as real readers do.
    while (p < end && (buf[p] === 45 || buf[p] === 43)) {
      if (buf[p] === 45) sign = -sign;
      p++;
    }
    let intPart = 0;
    let digits = 0;
    while (p < end) {
      const c = buf[p];
      if (c < 48 || c > 57) break;
      intPart = intPart * 10 + (c - 48);
      digits++;
      p++;
    }
    let value = intPart;
    if (p < end && buf[p] === 46) {
      p++;
      let frac = 0;
      let scale = 1;
      while (p < end) {
        const c = buf[p];
        if (c < 48 || c > 57) break;
        if (scale < 1e15) {
          frac = frac * 10 + (c - 48);
          scale *= 10;
        }
        digits++;
        p++;
      }
      value += frac / scale;
    }
    if (digits === 0) return undefined;
    // A number glued to a following minus ("5-3") is two tokens in some writers; we stop at the minus.
    this.pos = p;
    return sign * value;
  }

  readName(): string {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos + 1;
    const start = p;
    let hasEscape = false;
    while (p < end && (CLASS[buf[p]] & R) !== 0) {
      if (buf[p] === 35) hasEscape = true;
      p++;
    }
    this.pos = p;
    if (!hasEscape) {
      if (p - start <= 3) return shortCmd(buf, start, p - start).op;
      if (p - start <= NAME_CACHE_LEN) return cachedName(buf, start, p);
      // up to 1024 bytes, fromCharCode.apply is quickest (names that short are always kept: NAME_ALWAYS_KEPT)
      if (p - start <= NAME_ALWAYS_KEPT) return String.fromCharCode.apply(null, buf.subarray(start, p) as unknown as number[]);
      return latin1(buf.subarray(start, Math.min(p, start + this.maxNameBytes)));
    }
    let s = '';
    const max = this.maxNameBytes;
    for (let i = start; i < p && s.length < max; i++) {
      const c = buf[i];
      if (c === 35 && i + 2 < p + 1) {
        const h = hexValue(buf[i + 1]);
        const l = hexValue(buf[i + 2]);
        if (h >= 0 && l >= 0) {
          s += String.fromCharCode(h * 16 + l);
          i += 2;
          continue;
        }
      }
      s += String.fromCharCode(c);
    }
    return s;
  }

  readLiteralString(): Uint8Array {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos + 1;
    // Fast path: no escapes and no CR, the common case in content streams.
    let depth = 1;
    let q = p;
    let simple = true;
    while (q < end) {
      const c = buf[q];
      if (c === 92 || c === 13) {
        simple = false;
        break;
      }
      if (c === 40) depth++;
      else if (c === 41 && --depth === 0) break;
      q++;
    }
    if (simple) {
      this.pos = Math.min(q + 1, end);
      return buf.subarray(p, Math.min(q, p + this.maxTokenBytes));
    }
    // The decoded string is no longer than its span: find that first (escaped characters don't count towards the
    // nesting), so the buffer fits the string rather than the rest of the stream.
    for (; q < end; q++) {
      const c = buf[q];
      if (c === 92) q++;
      else if (c === 40) depth++;
      else if (c === 41 && --depth === 0) break;
    }
    const out = new Uint8Array(Math.min(Math.min(q, end) - p, this.maxTokenBytes));
    let n = 0;
    depth = 1;
    while (p < end) {
      let c = buf[p++];
      if (c === 40) depth++;
      else if (c === 41) {
        if (--depth === 0) break;
      } else if (c === 92) {
        if (p >= end) break;
        c = buf[p++];
        switch (c) {
          case 110:
            c = 10;
            break;
          case 114:
            c = 13;
            break;
          case 116:
            c = 9;
            break;
          case 98:
            c = 8;
            break;
          case 102:
            c = 12;
            break;
          case 13:
            if (buf[p] === 10) p++;
            continue;
          case 10:
            continue;
          default:
            if (c >= 48 && c <= 55) {
              let v = c - 48;
              for (let k = 0; k < 2 && p < end && buf[p] >= 48 && buf[p] <= 55; k++) v = v * 8 + (buf[p++] - 48);
              c = v & 0xff;
            }
        }
      } else if (c === 13) {
        if (buf[p] === 10) p++;
        c = 10;
      }
      if (n < out.length) out[n++] = c;
    }
    this.pos = p;
    return n === out.length ? out : out.subarray(0, n);
  }

  readHexString(): Uint8Array {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos + 1;
    let q = p;
    while (q < end && buf[q] !== 62) q++;
    const out = new Uint8Array(Math.min((q - p + 1) >> 1, this.maxTokenBytes));
    let n = 0;
    let hi = -1;
    for (; p < q && n < out.length; p++) {
      const v = hexValue(buf[p]);
      if (v < 0) continue;
      if (hi < 0) hi = v;
      else {
        out[n++] = (hi << 4) | v;
        hi = -1;
      }
    }
    if (hi >= 0 && n < out.length) out[n++] = hi << 4;
    this.pos = Math.min(q + 1, end);
    return n === out.length ? out : out.subarray(0, n);
  }

  /** Finds `needle` at or after `from` and wholly before `to`, returning its offset or -1. */
  static indexOf(buf: Uint8Array, needle: string, from: number, to = buf.length): number {
    const first = needle.charCodeAt(0);
    const n = needle.length;
    const stop = Math.min(to, buf.length);
    const last = stop - n;
    const start = Math.max(0, from);
    if (start > last) return -1;
    // A small window (endstream after /Length, `xref` at an offset) is cheaper to walk than to set up a native search
    // on, which needs a view of its own: the native search for the first byte would run on past `to` when that byte
    // is absent, and a bounded look must cost its window, not the rest of the file.
    if (last - start < SMALL_WINDOW) {
      for (let i = start; i <= last; i++) {
        if (buf[i] !== first) continue;
        let k = 1;
        while (k < n && buf[i + k] === needle.charCodeAt(k)) k++;
        if (k === n) return i;
      }
      return -1;
    }
    const hay = stop < buf.length ? buf.subarray(0, stop) : buf;
    for (let i = start; i <= last; i++) {
      i = hay.indexOf(first, i);
      if (i < 0 || i > last) return -1;
      let k = 1;
      while (k < n && buf[i + k] === needle.charCodeAt(k)) k++;
      if (k === n) return i;
    }
    return -1;
  }

  static lastIndexOf(buf: Uint8Array, needle: string, from: number, to = 0): number {
    const n = needle.length;
    for (let i = Math.min(from, buf.length - n); i >= to; i--) {
      let k = 0;
      while (k < n && buf[i + k] === needle.charCodeAt(k)) k++;
      if (k === n) return i;
    }
    return -1;
  }
}
