/**
 * CMap parsing (embedded /Encoding CMaps and /ToUnicode maps) and the codespace facts of the predefined CMaps.
 *
 * What the font layer needs from a CMap is small: the codespace (to split strings into codes), code → CID
 * (for widths), and for ToUnicode maps code → how the mapped text tallies (characters, undecodable ones).
 * The text itself is never kept: each mapped code stores its class (see encodings.ts) in a dense Uint16Array
 * for codes below 65536 and in a Map above, which keeps a `<0000> <FFFF>` bfrange at one typed-array fill.
 *
 * Hostile input: the number of codes a map may assign and the number of ranges are capped (AnalyzerOptions:
 * maxCMapCodes, maxCidRanges, maxCodespaceRanges, maxLazyRanges, maxCMapStringBytes), the tokenizer is a single
 * forward byte loop, and nothing recurses.
 */
import { type Budget, BudgetExhausted, limitsOf } from './budget';
import { BYTE_CLASS, REGULAR, WHITE, hexValue } from './bytes';
import { CodeClass, addClass, classifyCodepoint, CLASS_SPACE } from './encodings';
import type { AnalyzerOptions } from './options';
import { latin1Token } from './text';

export interface CodespaceRange {
  /** bytes in a code of this range, 1–4 */
  len: number;
  lo: number;
  hi: number;
}

/** A bfrange over codes above 0xFFFF, kept as the range and classed on lookup instead of code by code. */
interface LazyRange {
  lo: number;
  hi: number;
  /** the UTF-16BE destination (its last code point advances through the range) */
  target: Uint8Array;
  /** how far the destination has advanced at `lo` (a range split at 0x10000 keeps its lower part per code) */
  offset: number;
}

/** dense value bit: the target is one code point 0xXX00 with XX printable ASCII (a byte-swapped Latin letter) */
const SWAP_SUSPECT = 0x4000;
/** the same flag on a sparse value, above the class's two bytes */
const SWAP_SUSPECT_SPARSE = 1 << 16;

/** code → class for the codes a ToUnicode map defines */
export class UnicodeMap {
  /** 0 = unmapped; else 0x8000 | chars | bad << 7 (each field capped at 127), | SWAP_SUSPECT */
  dense = new Uint16Array(256);
  /** class | SWAP_SUSPECT_SPARSE */
  sparse: Map<number, number> | null = null;
  /** long bfranges above 0xFFFF, in definition order (a later one wins) */
  lazy: LazyRange[] | null = null;
  /** cidrange/cidchar entries of a ToUnicode stream read as code → code point, for codes no bf entry maps */
  cidFallback: CidMap | null = null;
  /** codes assigned (counting overwrites) */
  assigned = 0;
  /** non-whitespace codes assigned, and those whose target looks like byte-swapped ASCII */
  private entries = 0;
  private suspects = 0;
  /** bit per high byte 0x21–0x7E seen in a suspect target */
  private suspectHigh = new Uint8Array(128);
  /** most of the map is byte-swapped ASCII (U+4100 for 'A'): those codes were made undecodable */
  swapped = false;

  /** the class of a code, or -1 when the map does not define it */
  get(code: number): number {
    if (code < this.dense.length) {
      const v = this.dense[code];
      if (v !== 0) return (v & 0x7f) | (((v >>> 7) & 0x7f) << 8);
    } else if (this.sparse) {
      const v = this.sparse.get(code);
      if (v !== undefined) return v & 0xffff;
    }
    if (this.lazy && code >= 0x10000) {
      for (let k = this.lazy.length - 1; k >= 0; k--) {
        const r = this.lazy[k];
        if (code >= r.lo && code <= r.hi) return targetClass(r.target, r.target.length, r.offset + (code - r.lo));
      }
    }
    if (this.cidFallback) {
      const cp = this.cidFallback.lookup(code);
      if (cp > 0) return classifyCodepoint(cp);
    }
    return -1;
  }

  /** @param target the single code point the code maps to, or -1 (several, or a glyph name) */
  set(code: number, cls: CodeClass, target = -1): void {
    this.assigned++;
    let suspect = false;
    if ((cls & 0xff) !== 0) {
      this.entries++;
      const hi = target >>> 8;
      if (target >= 0 && (target & 0xff) === 0 && hi > 0x20 && hi < 0x7f) {
        suspect = true;
        this.suspects++;
        this.suspectHigh[hi] = 1;
      }
    }
    if (code < 0x10000) {
      if (code >= this.dense.length) {
        let size = this.dense.length;
        while (size <= code) size *= 2;
        const grown = new Uint16Array(Math.min(0x10000, size));
        grown.set(this.dense);
        this.dense = grown;
      }
      const chars = Math.min(127, cls & 0xff);
      const bad = Math.min(127, (cls >>> 8) & 0xff);
      this.dense[code] = 0x8000 | chars | (bad << 7) | (suspect ? SWAP_SUSPECT : 0);
    } else {
      (this.sparse ??= new Map()).set(code, cls | (suspect ? SWAP_SUSPECT_SPARSE : 0));
    }
  }

  /**
   * false when the range could not be kept (`maxRanges` held already): the caller marks the map truncated
   * @param maxRanges AnalyzerOptions.maxLazyRanges
   */
  addLazy(lo: number, hi: number, target: Uint8Array, offset: number, maxRanges: number): boolean {
    const lazy = (this.lazy ??= []);
    if (lazy.length >= maxRanges) return false;
    lazy.push({ lo, hi, target, offset });
    // a range spends one unit of the map's code budget: it holds no per-code data
    this.assigned++;
    this.entries += Math.min(hi - lo + 1, 1 << 16);
    return true;
  }

  /**
   * A producer that wrote UTF-16 little-endian gives U+4100 for 'A', U+6500 for 'e': CJK or symbol code points
   * where the font draws Latin letters. Decoded, that is junk, so those codes count as undecodable. A genuine map
   * puts a code point ending in 00 about once in 256 entries, so "most entries, over several distinct letters"
   * does not happen to real CJK text.
   */
  judgeSwapped(): void {
    let distinct = 0;
    for (let i = 0; i < 128; i++) distinct += this.suspectHigh[i];
    if (!(this.suspects >= 4 && this.suspects * 2 >= this.entries && distinct >= 3)) return;
    this.swapped = true;
    const d = this.dense;
    for (let i = 0; i < d.length; i++) {
      const v = d[i];
      if (v & SWAP_SUSPECT) d[i] = 0x8000 | SWAP_SUSPECT | (v & 0x7f) | ((v & 0x7f) << 7);
    }
    if (this.sparse) {
      for (const [k, v] of this.sparse) if (v & SWAP_SUSPECT_SPARSE) this.sparse.set(k, SWAP_SUSPECT_SPARSE | (v & 0xff) | ((v & 0xff) << 8));
    }
  }

  /** what this map holds in memory, roughly (typed arrays by size; a Map entry with its boxed key ~80 bytes) */
  get bytes(): number {
    let n = 200 + this.dense.byteLength + (this.sparse ? this.sparse.size * 80 : 0);
    if (this.lazy) for (const r of this.lazy) n += 80 + r.target.byteLength;
    return n;
  }
}

/** code → CID from cidrange/cidchar, as sorted ranges */
export class CidMap {
  lo: Float64Array;
  hi: Float64Array;
  cid: Float64Array;
  constructor(los: number[], his: number[], cids: number[]) {
    const n = los.length;
    const order = new Array<number>(n);
    for (let i = 0; i < n; i++) order[i] = i;
    // stable by definition order among equal starts, so a later definition of the same start wins below
    order.sort((a, b) => los[a] - los[b] || a - b);
    this.lo = new Float64Array(n);
    this.hi = new Float64Array(n);
    this.cid = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = order[i];
      this.lo[i] = los[k];
      this.hi[i] = his[k];
      this.cid[i] = cids[k];
    }
  }
  get size(): number {
    return this.lo.length;
  }
  get bytes(): number {
    return 100 + this.lo.byteLength * 3;
  }
  /** the CID of a code, or -1 */
  lookup(code: number): number {
    const lo = this.lo;
    let a = 0;
    let b = lo.length - 1;
    let found = -1;
    while (a <= b) {
      const m = (a + b) >> 1;
      if (lo[m] <= code) {
        found = m;
        a = m + 1;
      } else b = m - 1;
    }
    // ranges may overlap (rare): look back a little for one that contains the code
    for (let i = found, steps = 0; i >= 0 && steps < 16; i--, steps++) {
      if (code <= this.hi[i]) return this.cid[i] + (code - this.lo[i]);
    }
    return -1;
  }
}

export interface ParsedCMap {
  codespace: CodespaceRange[];
  /** the CMap named by `usecmap` */
  useCMap?: string;
  /** 1 for vertical writing */
  wmode: number;
  name?: string;
  registry?: string;
  ordering?: string;
  /** bfchar/bfrange content, or null when there was none */
  unicode: UnicodeMap | null;
  /** cidchar/cidrange content, or null when there was none */
  cids: CidMap | null;
  /** a cap was hit: the map holds only part of what the stream defines */
  truncated: boolean;
}

/** The memory a parsed CMap holds, roughly. */
export function cmapBytes(p: ParsedCMap): number {
  return 300 + p.codespace.length * 40 + (p.unicode ? p.unicode.bytes : 0) + (p.cids ? p.cids.bytes : 0);
}

const toUnicodeCache = new WeakMap<ParsedCMap, UnicodeMap | null>();

/**
 * The code → Unicode map a ToUnicode CMap defines. Besides bfchar/bfrange, MuPDF reads cidchar/cidrange entries of
 * a ToUnicode stream as code → code point too (some producers write identity "cid" ranges there); explicit bf
 * entries win where both define a code. The cid entries stay ranges, consulted on lookup: a `<00000000>
 * <FFFFFFFF>` cidrange costs one range, not a table. null when the stream maps nothing.
 */
export function toUnicodeMap(parsed: ParsedCMap): UnicodeMap | null {
  const hit = toUnicodeCache.get(parsed);
  if (hit !== undefined) return hit;
  let map = parsed.unicode;
  const cids = parsed.cids;
  if (cids && cids.size) {
    // a view sharing the parsed tables: the parsed map itself stays as the stream defines it
    const view = new UnicodeMap();
    if (map) {
      view.dense = map.dense;
      view.sparse = map.sparse;
      view.lazy = map.lazy;
      view.assigned = map.assigned;
      view.swapped = map.swapped;
    }
    view.cidFallback = cids;
    view.assigned += cids.size;
    map = view;
  }
  const out = map && map.assigned > 0 ? map : null;
  toUnicodeCache.set(parsed, out);
  return out;
}

/** The bounds a CMap parse reads (AnalyzerOptions); the document's come with its Budget (Budget.limits). */
export type CMapLimits = Pick<AnalyzerOptions, 'maxCMapCodes' | 'maxCidRanges' | 'maxCodespaceRanges' | 'maxLazyRanges' | 'maxCMapStringBytes'>;

/** a bfrange longer than this above 0xFFFF is kept as a range rather than code by code (a representation choice, not a limit) */
const LAZY_RANGE_MIN = 256;
/** tokens (and codes of a range) between two looks at the clock: tuning, the deadline is the limit */
const CLOCK_EVERY = 4096;

// Token kinds
// CMapLexer's tokens (exported for the text layer's ToUnicode reader, textLayerFonts.ts)
export const T_EOF = 0;
export const T_NUM = 1;
export const T_STR = 2; // hex or literal string; bytes in the scratch buffer
export const T_NAME = 3;
export const T_KEYWORD = 4;
export const T_ARRAY_OPEN = 5;
export const T_ARRAY_CLOSE = 6;
export const T_OTHER = 7;

// bytes.ts's table and bits under module-local names, as in lexer.ts: the loops then read no import binding per byte
const CLASS = BYTE_CLASS;
const W = WHITE;
const R = REGULAR;

/**
 * Sees every token a CMapLexer reads, as it reads it, with the lexer's state for that token (its string, number or
 * word). The text layer's ToUnicode reader rides on the fonts' parse of the same bytes this way instead of lexing
 * the map a second time.
 */
export interface CMapTokenTap {
  token(t: number, lx: CMapLexer): void;
}

/**
 * A forward-only tokenizer over a CMap's bytes. Strings land in a reused scratch buffer of
 * `limits.maxCMapStringBytes` bytes; longer ones are cut (strTruncated).
 *
 * Why not the file Lexer (lexer.ts): a CMap is tens of thousands of `<code> <target>` pairs, and the Lexer returns
 * each hex string as a new Uint8Array and each keyword as an interned Cmd, where this tokenizer returns a token kind
 * and leaves the bytes in its scratch buffer. Tokenizing a 285 KB ToUnicode map of 20,000 bfchar entries took a median
 * 1.6 ms here against 29 ms through Lexer.next() (/tmp/cmapbench.mts, 2026-12-04, node 20). Both read bytes through
 * the one byte-class table of bytes.ts, so they agree on white-space, delimiters and hex digits.
 */
export class CMapLexer {
  /** told of each token read (see CMapTokenTap); null when nobody listens */
  tap: CMapTokenTap | null = null;
  pos = 0;
  start = 0;
  end = 0;
  num = 0;
  str: Uint8Array;
  strLen = 0;
  strTruncated = false;
  private tokens = 0;
  constructor(
    readonly d: Uint8Array,
    private readonly budget: Budget | undefined,
    limits: Pick<AnalyzerOptions, 'maxCMapStringBytes'> = limitsOf(budget),
  ) {
    this.str = new Uint8Array(Math.max(0, Math.floor(limits.maxCMapStringBytes)));
  }

  next(): number {
    const t = this.read();
    if (this.tap !== null) this.tap.token(t, this);
    return t;
  }

  private read(): number {
    // hundreds of fonts with megabytes of CMap each: parsing is work that grows with the input, so it sees the clock
    if (++this.tokens === CLOCK_EVERY) {
      this.tokens = 0;
      this.budget?.checkTime('cmap');
    }
    const d = this.d;
    const n = d.length;
    let p = this.pos;
    for (;;) {
      while (p < n && (CLASS[d[p]] & W) !== 0) p++;
      if (p >= n) {
        this.pos = p;
        return T_EOF;
      }
      if (d[p] === 37 /* % */) {
        while (p < n && d[p] !== 10 && d[p] !== 13) p++;
        continue;
      }
      break;
    }
    const c = d[p];
    if (c === 60 /* < */) {
      if (p + 1 < n && d[p + 1] === 60) {
        this.pos = p + 2;
        return T_OTHER; // <<
      }
      let q = p + 1;
      let len = 0;
      let hi = -1;
      const str = this.str;
      const max = str.length;
      this.strTruncated = false;
      while (q < n && d[q] !== 62) {
        const v = hexValue(d[q]);
        q++;
        if (v < 0) continue;
        if (hi < 0) hi = v;
        else {
          if (len < max) str[len++] = (hi << 4) | v;
          else this.strTruncated = true;
          hi = -1;
        }
      }
      if (hi >= 0) {
        if (len < max) str[len++] = hi << 4;
        else this.strTruncated = true;
      }
      this.strLen = len;
      this.pos = q < n ? q + 1 : q;
      return T_STR;
    }
    if (c === 40 /* ( */) {
      let q = p + 1;
      let depth = 1;
      let len = 0;
      const str = this.str;
      const max = str.length;
      this.strTruncated = false;
      while (q < n) {
        let b = d[q++];
        if (b === 92 /* \ */ && q < n) {
          b = d[q++];
          if (b >= 48 && b <= 55) {
            let v = b - 48;
            for (let k = 0; k < 2 && q < n && d[q] >= 48 && d[q] <= 55; k++) v = v * 8 + (d[q++] - 48);
            b = v & 0xff;
          } else if (b === 110) b = 10;
          else if (b === 114) b = 13;
          else if (b === 116) b = 9;
          else if (b === 98) b = 8;
          else if (b === 102) b = 12;
          else if (b === 10 || b === 13) continue;
        } else if (b === 40) depth++;
        else if (b === 41) {
          depth--;
          if (depth === 0) break;
        }
        if (len < max) str[len++] = b;
        else this.strTruncated = true;
      }
      this.strLen = len;
      this.pos = q;
      return T_STR;
    }
    if (c === 47 /* / */) {
      let q = p + 1;
      while (q < n && (CLASS[d[q]] & R) !== 0) q++;
      this.start = p + 1;
      this.end = q;
      this.pos = q;
      return T_NAME;
    }
    if (c === 91) {
      this.pos = p + 1;
      return T_ARRAY_OPEN;
    }
    if (c === 93) {
      this.pos = p + 1;
      return T_ARRAY_CLOSE;
    }
    if (c === 62 || c === 41 || c === 123 || c === 125) {
      this.pos = p + (c === 62 && p + 1 < n && d[p + 1] === 62 ? 2 : 1);
      return T_OTHER;
    }
    let q = p;
    while (q < n && (CLASS[d[q]] & R) !== 0) q++;
    this.start = p;
    this.end = q;
    this.pos = q;
    if ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46) {
      const v = Number(latin1Token(d, p, q, TOKEN_MAX));
      if (Number.isFinite(v)) {
        this.num = v;
        return T_NUM;
      }
    }
    return T_KEYWORD;
  }

  is(word: string): boolean {
    const len = this.end - this.start;
    if (len !== word.length) return false;
    for (let i = 0; i < len; i++) if (this.d[this.start + i] !== word.charCodeAt(i)) return false;
    return true;
  }
  text(): string {
    return latin1Token(this.d, this.start, this.end, TOKEN_MAX);
  }
  /** the scratch string as a big-endian number of at most 4 bytes; -1 when longer or empty */
  code(): number {
    const len = this.strLen;
    if (len === 0 || len > 4) return -1;
    let v = 0;
    for (let i = 0; i < len; i++) v = v * 256 + this.str[i];
    return v;
  }
  strText(): string {
    return latin1Token(this.str, 0, this.strLen, TOKEN_MAX);
  }
}

/** the longest token read as a string, bytes (tokens here are names and numbers; longer ones are junk) */
const TOKEN_MAX = 256;

/**
 * The class of a UTF-16BE target held in `str[0..len)`, with the last code point advanced by `offset`
 * (a bfrange increments its destination). Odd trailing bytes are ignored.
 */
function targetClass(str: Uint8Array, len: number, offset: number): CodeClass {
  const units = len >> 1;
  if (units === 0) return -1;
  // find where the last code point starts
  let lastStart = units - 1;
  if (units >= 2) {
    const lastUnit = (str[2 * lastStart] << 8) | str[2 * lastStart + 1];
    const prevUnit = (str[2 * lastStart - 2] << 8) | str[2 * lastStart - 1];
    if (lastUnit >= 0xdc00 && lastUnit <= 0xdfff && prevUnit >= 0xd800 && prevUnit <= 0xdbff) lastStart--;
  }
  let cls: CodeClass = CLASS_SPACE;
  let i = 0;
  while (i < lastStart) {
    const u = (str[2 * i] << 8) | str[2 * i + 1];
    i++;
    let cp = u;
    if (u >= 0xd800 && u <= 0xdbff && i < lastStart) {
      const u2 = (str[2 * i] << 8) | str[2 * i + 1];
      if (u2 >= 0xdc00 && u2 <= 0xdfff) {
        cp = 0x10000 + ((u - 0xd800) << 10) + (u2 - 0xdc00);
        i++;
      }
    }
    cls = addClass(cls, classifyCodepoint(cp));
  }
  let last = (str[2 * lastStart] << 8) | str[2 * lastStart + 1];
  if (lastStart < units - 1) {
    const u2 = (str[2 * lastStart + 2] << 8) | str[2 * lastStart + 3];
    last = 0x10000 + ((last - 0xd800) << 10) + (u2 - 0xdc00);
  }
  // MuPDF reads a lone U+0000 as "no mapping" and falls back to the encoding
  if (units === 1 && last + offset === 0) return -1;
  return addClass(cls, classifyCodepoint(last + offset));
}

/** The one code point a UTF-16BE target of one unit stands for (advanced by `offset`), or -1. */
function singleTarget(str: Uint8Array, len: number, offset: number): number {
  if (len !== 2) return -1;
  return ((str[0] << 8) | str[1]) + offset;
}

/**
 * Parses a CMap stream's bytes. Throws only BudgetExhausted (the budget's deadline passed); otherwise what could
 * not be read is left out. It reads every token up to the end (or up to what it throws or catches).
 * @param limits the caps (default: the budget's, else the defaults)
 * @param tap told of every token read, in order (see CMapTokenTap)
 */
export function parseCMap(data: Uint8Array, budget?: Budget, limits: CMapLimits = limitsOf(budget), tap?: CMapTokenTap): ParsedCMap {
  const lx = new CMapLexer(data, budget, limits);
  if (tap) lx.tap = tap;
  const maxCodes = limits.maxCMapCodes;
  const maxCidRanges = limits.maxCidRanges;
  const maxCodespace = limits.maxCodespaceRanges;
  const maxLazy = limits.maxLazyRanges;
  const out: ParsedCMap = { codespace: [], wmode: 0, unicode: null, cids: null, truncated: false };
  let uni = null as UnicodeMap | null;
  const cidLo: number[] = [];
  const cidHi: number[] = [];
  const cidVal: number[] = [];
  let lastName = '';
  let pendingKey = '';
  const hasRoom = () => (uni ? uni.assigned : 0) < maxCodes;
  const uniMap = () => (uni ??= new UnicodeMap());

  try {
    for (let t = lx.next(); t !== T_EOF; t = lx.next()) {
      if (t === T_KEYWORD) {
        pendingKey = '';
        if (lx.is('begincodespacerange')) {
          for (;;) {
            t = lx.next();
            if (t !== T_STR) break;
            const lo = lx.code();
            const len = lx.strLen;
            if (lx.next() !== T_STR) break;
            const hi = lx.code();
            if (lo >= 0 && hi >= lo && out.codespace.length < maxCodespace) out.codespace.push({ len, lo, hi });
          }
          if (t === T_EOF) break;
        } else if (lx.is('beginbfchar')) {
          for (;;) {
            t = lx.next();
            if (t !== T_STR) break;
            const code = lx.code();
            t = lx.next();
            if (t === T_STR) {
              const cls = targetClass(lx.str, lx.strLen, 0);
              if (code >= 0 && cls >= 0 && hasRoom()) uniMap().set(code, cls, singleTarget(lx.str, lx.strLen, 0));
              else if (!hasRoom()) out.truncated = true;
            } else if (t === T_NAME) {
              // a glyph name as target (rare); counts as one character we cannot check
              if (code >= 0 && hasRoom()) uniMap().set(code, 1);
            } else break;
          }
          if (t === T_EOF) break;
        } else if (lx.is('beginbfrange')) {
          for (;;) {
            t = lx.next();
            if (t !== T_STR) break;
            const lo = lx.code();
            if (lx.next() !== T_STR) break;
            const hi = lx.code();
            t = lx.next();
            const valid = lo >= 0 && hi >= lo;
            if (t === T_STR) {
              if (!valid) continue;
              const strLen = lx.strLen;
              if (strLen < 2) continue;
              const m = uniMap();
              const lazyLo = Math.max(lo, 0x10000);
              const lazy = hi - lazyLo + 1 > LAZY_RANGE_MIN;
              if (lazy) {
                // codes above 0xFFFF would take a Map entry each: keep that part as a range (a <00000000> <FFFFFFFF>
                // one costs one), and only the codes below 0x10000 go into the table
                if (m.assigned >= maxCodes || !m.addLazy(lazyLo, hi, lx.str.slice(0, strLen & ~1), lazyLo - lo, maxLazy)) out.truncated = true;
                if (lo >= 0x10000) continue;
              }
              let count = (lazy ? lazyLo - 1 : hi) - lo + 1;
              // the last code point advances through the range
              const room = maxCodes - m.assigned;
              if (count > room) {
                count = Math.max(0, room);
                out.truncated = true;
              }
              const one = strLen === 2;
              for (let i = 0; i < count; i++) {
                if ((i & (CLOCK_EVERY * 16 - 1)) === CLOCK_EVERY * 16 - 1) budget?.checkTime('cmap');
                const cls = targetClass(lx.str, strLen, i);
                if (cls >= 0) m.set(lo + i, cls, one ? singleTarget(lx.str, 2, i) : -1);
                else m.assigned++; // still spends the budget
              }
            } else if (t === T_ARRAY_OPEN) {
              let i = 0;
              for (;;) {
                t = lx.next();
                if (t !== T_STR && t !== T_NAME) break;
                if (valid && lo + i <= hi && hasRoom()) {
                  const cls = t === T_STR ? targetClass(lx.str, lx.strLen, 0) : 1;
                  if (cls >= 0) uniMap().set(lo + i, cls, t === T_STR ? singleTarget(lx.str, lx.strLen, 0) : -1);
                }
                i++;
              }
              if (t !== T_ARRAY_CLOSE) break;
            } else break;
          }
          if (t === T_EOF) break;
        } else if (lx.is('begincidrange') || lx.is('begincidchar')) {
          const isRange = lx.is('begincidrange');
          for (;;) {
            t = lx.next();
            if (t !== T_STR) break;
            const lo = lx.code();
            let hi = lo;
            if (isRange) {
              if (lx.next() !== T_STR) break;
              hi = lx.code();
            }
            t = lx.next();
            if (t !== T_NUM) break;
            if (lo >= 0 && hi >= lo && lx.num >= 0) {
              if (cidLo.length < maxCidRanges) {
                cidLo.push(lo);
                cidHi.push(hi);
                cidVal.push(Math.floor(lx.num));
              } else out.truncated = true;
            }
          }
          if (t === T_EOF) break;
        } else if (lx.is('usecmap')) {
          if (lastName) out.useCMap = lastName;
        }
        // notdefrange/notdefchar and everything else: their tokens simply pass through the main loop
      } else if (t === T_NAME) {
        const name = lx.text();
        if (pendingKey === 'CMapName') {
          out.name = name;
          pendingKey = '';
        } else pendingKey = name;
        lastName = name;
      } else if (t === T_NUM) {
        if (pendingKey === 'WMode') out.wmode = lx.num === 1 ? 1 : 0;
        pendingKey = '';
      } else if (t === T_STR) {
        if (pendingKey === 'Registry') out.registry = lx.strText();
        else if (pendingKey === 'Ordering') out.ordering = lx.strText();
        pendingKey = '';
      } else if (t !== T_OTHER) pendingKey = '';
    }
  } catch (e) {
    if (e instanceof BudgetExhausted) throw e;
    out.truncated = true;
  }
  uni?.judgeSwapped();
  out.unicode = uni;
  if (cidLo.length) out.cids = new CidMap(cidLo, cidHi, cidVal);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Predefined CMaps (Adobe's CJK CMaps and Identity). Codespace facts from the Adobe CMap resources.

/**
 * How codes of a predefined CMap decode without a ToUnicode map:
 * identity: code = CID; ucs2/utf16/utf32/utf8: the code is Unicode; legacy: a national multi-byte encoding
 * (Shift-JIS, EUC, GBK, Big5, UHC…) whose codes decode through the collection; single: a one-byte CMap.
 */
export type PredefinedKind = 'identity' | 'ucs2' | 'utf16' | 'utf32' | 'utf8' | 'legacy' | 'single';

export interface PredefinedCMap {
  name: string;
  kind: PredefinedKind;
  codespace: CodespaceRange[];
  /** the character collection: Japan1, GB1, CNS1, Korea1, KR; '' for Identity */
  ordering: string;
  vertical: boolean;
  /** the two-byte code of the ideographic space in a legacy encoding, or -1 */
  ideographicSpace: number;
}

const r = (len: number, lo: number, hi: number): CodespaceRange => ({ len, lo, hi });
const FULL2 = [r(2, 0, 0xffff)];
const UCS2 = [r(2, 0, 0xd7ff), r(2, 0xe000, 0xffff)];
const UTF16 = [r(2, 0, 0xd7ff), r(4, 0xd800dc00, 0xdbffdfff), r(2, 0xe000, 0xffff)];
const UTF32 = [r(4, 0, 0x10ffff)];
const UTF8 = [r(1, 0, 0x7f), r(2, 0xc080, 0xdfbf), r(3, 0xe08080, 0xefbfbf), r(4, 0xf0808080, 0xf7bfbfbf)];
const ONE = [r(1, 0, 0xff)];
const JIS = [r(2, 0x2121, 0x7e7e)];
const RKSJ = [r(1, 0, 0x80), r(2, 0x8140, 0x9ffc), r(1, 0xa0, 0xdf), r(2, 0xe040, 0xfcfc)];
const RKSJ_PV = [...RKSJ, r(1, 0xfd, 0xff)];
const EUC_JP = [r(1, 0, 0x80), r(2, 0x8ea0, 0x8edf), r(2, 0xa1a1, 0xfefe)];
const EUC = [r(1, 0, 0x80), r(2, 0xa1a1, 0xfefe)];
const EUC_PC = [r(1, 0, 0x80), r(2, 0xa1a1, 0xfcfe), r(1, 0xfd, 0xff)];
const GBK = [r(1, 0, 0x80), r(2, 0x8140, 0xfefe)];
const GBK2K = [r(1, 0, 0x7f), r(2, 0x8140, 0xfefe), r(4, 0x81308130, 0xfe39fe39)];
const B5 = [r(1, 0, 0x80), r(2, 0xa140, 0xfefe)];
const B5PC = [r(1, 0, 0x80), r(2, 0xa140, 0xfcfe), r(1, 0xfd, 0xff)];
const CNS_EUC = [r(1, 0, 0x80), r(2, 0xa1a1, 0xfefe), r(4, 0x8ea1a1a1, 0x8ea1fefe), r(4, 0x8ea2a1a1, 0x8ea2fefe), r(4, 0x8ea3a1a1, 0x8ea3fefe)];
const UHC = [r(1, 0, 0x80), r(2, 0x8141, 0xfefe)];
const KSC_PC = [r(1, 0, 0x84), r(2, 0xa141, 0xfdfe), r(1, 0xfe, 0xff)];
const JOHAB = [r(1, 0, 0x80), r(2, 0x8441, 0xd3fe), r(2, 0xd831, 0xdefe), r(2, 0xe031, 0xf9fe)];

/** legacy families: base name (without -H/-V) → [codespace, ordering, ideographic space code] */
const LEGACY: Record<string, [CodespaceRange[], string, number]> = {
  // Japanese
  RKSJ: [RKSJ, 'Japan1', 0x8140],
  '78-RKSJ': [RKSJ, 'Japan1', 0x8140],
  '78ms-RKSJ': [RKSJ, 'Japan1', 0x8140],
  '83pv-RKSJ': [RKSJ_PV, 'Japan1', 0x8140],
  '90ms-RKSJ': [RKSJ, 'Japan1', 0x8140],
  '90msp-RKSJ': [RKSJ, 'Japan1', 0x8140],
  '90pv-RKSJ': [RKSJ_PV, 'Japan1', 0x8140],
  'Add-RKSJ': [RKSJ, 'Japan1', 0x8140],
  'Ext-RKSJ': [RKSJ, 'Japan1', 0x8140],
  EUC: [EUC_JP, 'Japan1', 0xa1a1],
  '78-EUC': [EUC_JP, 'Japan1', 0xa1a1],
  'Hojo-EUC': [[r(3, 0x8fa1a1, 0x8ffefe)], 'Japan1', -1],
  '78': [JIS, 'Japan1', 0x2121],
  Add: [JIS, 'Japan1', 0x2121],
  Ext: [JIS, 'Japan1', 0x2121],
  NWP: [JIS, 'Japan1', 0x2121],
  Hojo: [JIS, 'Japan1', 0x2121],
  // Simplified Chinese
  GB: [JIS, 'GB1', 0x2121],
  GBT: [JIS, 'GB1', 0x2121],
  'GB-EUC': [EUC, 'GB1', 0xa1a1],
  'GBT-EUC': [EUC, 'GB1', 0xa1a1],
  'GBpc-EUC': [EUC_PC, 'GB1', 0xa1a1],
  'GBTpc-EUC': [EUC_PC, 'GB1', 0xa1a1],
  'GBK-EUC': [GBK, 'GB1', 0xa1a1],
  'GBKp-EUC': [GBK, 'GB1', 0xa1a1],
  GBK2K: [GBK2K, 'GB1', 0xa1a1],
  // Traditional Chinese
  B5: [B5, 'CNS1', 0xa140],
  B5pc: [B5PC, 'CNS1', 0xa140],
  'ETen-B5': [B5, 'CNS1', 0xa140],
  'ETenms-B5': [B5, 'CNS1', 0xa140],
  'HKdla-B5': [B5, 'CNS1', 0xa140],
  'HKm314-B5': [B5, 'CNS1', 0xa140],
  'HKm471-B5': [B5, 'CNS1', 0xa140],
  'HKscs-B5': [[r(1, 0, 0x80), r(2, 0x8740, 0xfefe)], 'CNS1', 0xa140],
  'ETHK-B5': [[r(1, 0, 0x80), r(2, 0x8740, 0xfefe)], 'CNS1', 0xa140],
  'HKdlb-B5': [[r(1, 0, 0x80), r(2, 0x8e40, 0xfefe)], 'CNS1', 0xa140],
  'HKgccs-B5': [[r(1, 0, 0x80), r(2, 0x8a40, 0xfefe)], 'CNS1', 0xa140],
  CNS1: [JIS, 'CNS1', 0x2121],
  CNS2: [JIS, 'CNS1', 0x2121],
  'CNS-EUC': [CNS_EUC, 'CNS1', 0xa1a1],
  // Korean
  KSC: [JIS, 'Korea1', 0x2121],
  'KSC-EUC': [EUC, 'Korea1', 0xa1a1],
  'KSCpc-EUC': [KSC_PC, 'Korea1', 0xa1a1],
  'KSCms-UHC': [UHC, 'Korea1', 0xa1a1],
  'KSCms-UHC-HW': [UHC, 'Korea1', 0xa1a1],
  'KSC-Johab': [JOHAB, 'Korea1', 0xd931],
};

const UNI_ORDERING: Record<string, string> = {
  JIS: 'Japan1',
  JISPro: 'Japan1',
  JIS2004: 'Japan1',
  JISX0213: 'Japan1',
  JISX02132004: 'Japan1',
  Hojo: 'Japan1',
  GB: 'GB1',
  CNS: 'CNS1',
  KS: 'Korea1',
  AKR: 'KR',
};

const ONE_BYTE = new Set(['Hankaku', 'Hiragana', 'Katakana', 'Roman', 'WP-Symbol']);

const predefinedCache = new Map<string, PredefinedCMap | null>();

/** The facts of a predefined CMap by name, or undefined when the name is not one. */
export function predefinedCMap(name: string): PredefinedCMap | undefined {
  const cached = predefinedCache.get(name);
  if (cached !== undefined) return cached ?? undefined;
  const found = lookupPredefined(name);
  if (predefinedCache.size < 256) predefinedCache.set(name, found ?? null);
  return found;
}

function lookupPredefined(name: string): PredefinedCMap | undefined {
  const mk = (kind: PredefinedKind, codespace: CodespaceRange[], ordering: string, vertical: boolean, space = -1): PredefinedCMap => ({
    name,
    kind,
    codespace,
    ordering,
    vertical,
    ideographicSpace: space,
  });
  if (name === 'Identity-H' || name === 'Identity-V') return mk('identity', FULL2, '', name === 'Identity-V');
  if (name === 'H' || name === 'V') return mk('legacy', JIS, 'Japan1', name === 'V', 0x2121);
  if (ONE_BYTE.has(name)) return mk('single', ONE, 'Japan1', false);
  const adobe = /^Adobe-(Japan1|GB1|CNS1|Korea1|KR)-\d+$/.exec(name);
  if (adobe) return mk('identity', FULL2, adobe[1], false);
  const vertical = name.endsWith('-V');
  if (!vertical && !name.endsWith('-H')) return undefined;
  const base = name.slice(0, -2);
  const uni = /^Uni([A-Za-z0-9]+)-(UCS2|UTF16|UTF32|UTF8)(?:-HW)?$/.exec(base);
  if (uni) {
    if (!Object.hasOwn(UNI_ORDERING, uni[1])) return undefined;
    const ordering = UNI_ORDERING[uni[1]];
    switch (uni[2]) {
      case 'UCS2':
        return mk('ucs2', UCS2, ordering, vertical);
      case 'UTF16':
        return mk('utf16', UTF16, ordering, vertical);
      case 'UTF32':
        return mk('utf32', UTF32, ordering, vertical);
      default:
        return mk('utf8', UTF8, ordering, vertical);
    }
  }
  if (!Object.hasOwn(LEGACY, base)) return undefined;
  const legacy = LEGACY[base];
  return mk('legacy', legacy[0], legacy[1], vertical, legacy[2]);
}
