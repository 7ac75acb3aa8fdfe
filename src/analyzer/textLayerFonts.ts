/**
 * The Unicode text of a font's codes, for the text layer (only built when the analyzer is asked for it).
 *
 * fonts.ts decides how many characters each code yields and whether they decode (its tables keep classes, never
 * text, so the routing path stays small and fast). The text layer needs the text itself, so this module reads the
 * same sources again, in the same order of precedence, and keeps strings (a ToUnicode stream's tokens are not lexed
 * again: ToUnicodeTextReader listens while the font's loading parses them, and reads them itself only when it could
 * not):
 * - a ToUnicode map (bfchar / bfrange; cid entries are read as code points, as MuPDF does);
 * - simple fonts without one (or for the codes it lacks): /Differences glyph names, then /Encoding or
 *   /BaseEncoding, then the standard-14 encodings, Latin-1 for embedded TrueType, else StandardEncoding;
 * - composite fonts without one: codes of a Unicode CMap (UCS2/UTF16) are their code points; others are unknown.
 * A code whose text is not known here while fonts.ts counts it as a character comes out as U+FFFD, so the text
 * never claims more than the routing counts.
 *
 * Bounded: codes kept per map, ranges kept per map, and the clock is checked while parsing.
 */
import { type Budget, BudgetExhausted, limitsOf } from './budget';
import { CMapLexer, type CMapTokenTap, T_ARRAY_CLOSE, T_ARRAY_OPEN, T_EOF, T_KEYWORD, T_NAME, T_NUM, T_STR } from './cmap';
import { glyphNameToUnicode, latin1Encoding, namedEncoding, standardEncoding, symbolEncoding, zapfDingbatsEncoding } from './encodings';
import { type FontCache, standard14 } from './fonts';
import { PdfDict, PdfStream, type Resolver, getArray, getDict, getName, isNumber } from './objects';

/** code → text of one font */
export interface FontText {
  /** the text of a code, or undefined when this module does not know it */
  text(code: number): string | undefined;
  /** memory held, roughly */
  readonly bytes: number;
  /** the ToUnicode map was cut by a bound (codes past it come out unknown) */
  readonly truncated: boolean;
}

/** bfranges at least this long are kept as ranges, shorter ones as codes (tuning; their counts are limits) */
const SHORT_RANGE = 256;
/** UTF-16 units of one code's text (a ligature or a decomposition is a few; a longer target is junk): a fact of use */
const MAX_TARGET_UNITS = 32;

interface Range {
  lo: number;
  hi: number;
  /** destination UTF-16 units; the last one advances through the range */
  units: number[];
}

const EMPTY_SLAB = new Int32Array(0);

/**
 * A ToUnicode map's text by code. A map defines far more codes than a page shows, so a code below 0x10000 whose text
 * is one UTF-16 unit or code point keeps that number only (in `blocks`), and its string is made when it is first asked
 * for; other codes keep their strings (in `codes`). Nothing more is made up front: every font with a ToUnicode map
 * builds one of these with the text layer on, and two Maps per font were a fifth of the cost of reading a small map.
 */
class ToUnicodeText {
  /** code → text for codes at or above 0x10000 (made on the first one: most maps have none) */
  private codes: Map<number, string> | null = null;
  readonly ranges: Range[] = [];
  truncated = false;
  /**
   * codes < 0x10000 in blocks of 256 (block code >> 8, made when one of its codes is defined): 0 (not kept here), the
   * code point + 1, or -(index in `strings` + 1). A code point's string, once made, goes into `strings` and the entry
   * points to it. Blocks, not one table grown to the highest code: a CID font's map whose codes are high made a table
   * of 65,536 entries (256 KB zeroed, ~18 µs) for a page that shows one character.
   */
  private readonly blocks: (Int32Array | null)[] = [];
  /** where blocks are cut from: 1, 2, 4 … 32 blocks' worth (the first is made with the first block) */
  private slab = EMPTY_SLAB;
  private slabUsed = 0;
  /** per block: codes defined but not yet written into it, as [first code, last code, first entry] triples (setRun) */
  private pending: (number[] | null)[] | null = null;
  private readonly strings: string[] = [];
  /** codes defined in `blocks` */
  private denseCount = 0;

  /** distinct codes defined */
  get size(): number {
    return this.denseCount + (this.codes ? this.codes.size : 0);
  }

  has(code: number): boolean {
    if (code < 0x10000) {
      const b = this.block(code);
      return b !== null && b[code & 255] !== 0;
    }
    return this.codes !== null && this.codes.has(code);
  }

  /** defines a code's text, given as a string or as one code point (1..0x10FFFF) */
  set(code: number, text: string | number): void {
    if (code >= 0x10000) {
      (this.codes ??= new Map()).set(code, typeof text === 'number' ? codePointText(text) : text);
      return;
    }
    const b = this.block(code) ?? this.newBlock(code >> 8);
    const k = code & 255;
    if (b[k] === 0) this.denseCount++;
    if (typeof text === 'number') b[k] = text + 1;
    else {
      this.strings.push(text);
      b[k] = -this.strings.length;
    }
  }

  /**
   * Defines codes lo..hi (< 0x10000) as the code points u0, u0 + 1, …: what put() does code by code for a short
   * bfrange with a one-unit target (a code point 0 maps nothing; past maxCodes distinct codes, new codes are dropped).
   * Identity-like maps are 256 such ranges of 256 codes, 65,535 puts per font for a page that shows a few: so when
   * every code of the range fits under maxCodes, the part of it in a block with no entries yet (and none of its
   * codes pending) is only noted, and written when the block is first read or written (fill()).
   */
  setRun(lo: number, hi: number, u0: number, maxCodes: number): void {
    if (u0 === 0) {
      // code lo would map U+0000: no mapping
      lo++;
      u0 = 1;
    }
    const others = this.codes ? this.codes.size : 0;
    let count = this.denseCount;
    // no code of the range can be dropped: its parts in different blocks are independent
    const fits = count + others + (hi - lo + 1) <= maxCodes;
    // block by block: codes c0..c1 of one block, their entries k0..k1
    for (let c0 = lo; c0 <= hi; c0 = (c0 | 255) + 1) {
      const c1 = Math.min(hi, c0 | 255);
      if (fits && this.defer(c0, c1, u0 + 1 + (c0 - lo))) {
        count += c1 - c0 + 1;
        continue;
      }
      const b = this.block(c0) ?? this.newBlock(c0 >> 8);
      for (let k = c0 & 255, v = u0 + 1 + (c0 - lo); k <= (c1 & 255); k++, v++) {
        if (b[k] === 0) {
          if (count + others >= maxCodes) {
            this.truncated = true;
            continue;
          }
          count++;
        }
        b[k] = v;
      }
    }
    this.denseCount = count;
  }

  get(code: number): string | undefined {
    const s = this.textOf(code);
    if (s !== undefined) return s;
    for (let k = this.ranges.length - 1; k >= 0; k--) {
      const r = this.ranges[k];
      if (code >= r.lo && code <= r.hi) return unitsText(r.units, code - r.lo);
    }
    return undefined;
  }

  get bytes(): number {
    return 200 + this.size * 80 + this.ranges.length * 120;
  }

  /** the block of a code below 0x10000 (its pending codes written), or null when none of its codes is defined */
  private block(code: number): Int32Array | null {
    const i = code >> 8;
    const pending = this.pending;
    if (pending !== null && i < pending.length && pending[i] !== null) return this.fill(i);
    return i < this.blocks.length ? this.blocks[i] : null;
  }

  /** a new block i (of zeros): only for a block that has none */
  private newBlock(i: number): Int32Array {
    const blocks = this.blocks;
    while (blocks.length <= i) blocks.push(null);
    // blocks are views of a few larger arrays: each typed array past 64 bytes has its own off-heap store, whose
    // allocation cost more than filling the block (an identity map makes all 256)
    if (this.slabUsed === this.slab.length) {
      this.slab = new Int32Array(Math.min(Math.max(256, this.slab.length * 2), 256 * 32));
      this.slabUsed = 0;
    }
    const b = (blocks[i] = this.slab.subarray(this.slabUsed, this.slabUsed + 256));
    this.slabUsed += 256;
    return b;
  }

  /**
   * Notes codes c0..c1 of one block as the entries v0, v0 + 1, … to write later, when the block has no entries and
   * no pending codes among them (so all are new); false when it cannot.
   */
  private defer(c0: number, c1: number, v0: number): boolean {
    const i = c0 >> 8;
    if (i < this.blocks.length && this.blocks[i] !== null) return false;
    const pending = (this.pending ??= []);
    while (pending.length <= i) pending.push(null);
    const runs = pending[i];
    if (runs === null) pending[i] = [c0, c1, v0];
    else {
      for (let j = 0; j < runs.length; j += 3) if (c0 <= runs[j + 1] && runs[j] <= c1) return false;
      runs.push(c0, c1, v0);
    }
    return true;
  }

  /** writes block i's pending codes (it has no entries before) */
  private fill(i: number): Int32Array {
    const pending = this.pending!;
    const runs = pending[i]!;
    pending[i] = null;
    const b = this.newBlock(i);
    for (let j = 0; j < runs.length; j += 3) for (let c = runs[j], v = runs[j + 2]; c <= runs[j + 1]; c++, v++) b[c & 255] = v;
    return b;
  }

  private textOf(code: number): string | undefined {
    if (code >= 0x10000) return this.codes?.get(code);
    const b = this.block(code);
    if (b === null) return undefined;
    const k = code & 255;
    const v = b[k];
    if (v === 0) return undefined;
    if (v < 0) return this.strings[-v - 1];
    const s = codePointText(v - 1);
    this.strings.push(s);
    b[k] = -this.strings.length;
    return s;
  }
}

function unitsText(units: number[], offset: number): string | undefined {
  if (units.length === 0) return undefined;
  if (units.length === 1) {
    const u = units[0] + offset;
    // a lone U+0000 means "no mapping" (MuPDF falls back to the encoding)
    if (u === 0) return undefined;
    return u <= 0xffff ? String.fromCharCode(u) : String.fromCodePoint(u);
  }
  const copy = units.slice();
  copy[copy.length - 1] += offset;
  let s = '';
  for (const u of copy) s += String.fromCharCode(u & 0xffff);
  return s;
}

/** the text of one code point (1..0x10FFFF), as unitsText writes it */
function codePointText(u: number): string {
  return u <= 0xffff ? String.fromCharCode(u) : String.fromCodePoint(u);
}

/**
 * What unitsText(units, offset) gives, without making a string when it is one code point: that number, a string, or
 * undefined. Throws as unitsText does (a code point past U+10FFFF).
 */
function unitsValue(units: number[], offset: number): string | number | undefined {
  if (units.length === 1) {
    const u = units[0] + offset;
    if (u === 0) return undefined;
    if (u > 0x10ffff) return String.fromCodePoint(u);
    return u;
  }
  return unitsText(units, offset);
}

/** ToUnicode CMap stream → code → text. Throws through budget.checkTime, and RangeError for a code point past U+10FFFF. */
export function parseToUnicodeText(data: Uint8Array, budget?: Budget): ToUnicodeText {
  const reader = new ToUnicodeTextReader(budget);
  // the CMap parser's tokenizer (cmap.ts): one reading of CMap syntax for the routing path and the text layer
  const lx = new CMapLexer(data, budget);
  for (;;) {
    const t = lx.next();
    reader.token(t, lx);
    if (t === T_EOF || reader.failed) break;
  }
  return reader.result();
}

// where ToUnicodeTextReader is in the map's syntax: outside a block, or which token of which entry comes next
const MAIN = 0;
const BFCHAR_CODE = 1;
const BFCHAR_TARGET = 2;
const BFRANGE_LO = 3;
const BFRANGE_HI = 4;
const BFRANGE_TARGET = 5;
const BFRANGE_ARRAY = 6;
const CID_LO = 7;
const CID_HI = 8;
const CID_VALUE = 9;

/**
 * A ToUnicode map's text, read token by token as they are lexed: by parseToUnicodeText from its own lexer, or as the
 * tap of the fonts' parse of the same bytes (fonts.ts, cmap.ts), so that with the text layer on a map is lexed once.
 * The text is complete only when the reader saw the end of the map.
 *
 * The grammar, and what breaks out of a block on a token it does not expect: bfchar <code> <target>|/name;
 * bfrange <lo> <hi> <target>|[<t>|/name …]; cidchar <code> n; cidrange <lo> <hi> n (a word in place of n skips the
 * entry). A token that breaks out of a block is consumed by it (not read as the start of another).
 */
export class ToUnicodeTextReader implements CMapTokenTap {
  private readonly out = new ToUnicodeText();
  private readonly maxCodes: number;
  private readonly maxRanges: number;
  private state = MAIN;
  private cidRange = false;
  /** the entry's code, or its range's first and last codes */
  private lo = 0;
  private hi = 0;
  /** the next code of a bfrange's array */
  private next = 0;
  private ended = false;
  /** reading threw (a code point past U+10FFFF): the rest is ignored, and result() throws it */
  failed = false;
  private error: unknown = undefined;

  constructor(budget?: Budget) {
    const limits = limitsOf(budget);
    this.maxCodes = limits.maxTextCodesPerFont;
    this.maxRanges = limits.maxTextRangesPerFont;
  }

  /** the whole map was read (its end seen): result() is what parseToUnicodeText gives for it */
  get complete(): boolean {
    return this.ended;
  }

  token(t: number, lx: CMapLexer): void {
    if (this.ended) return;
    if (t === T_EOF) {
      this.ended = true;
      return;
    }
    if (this.failed) return;
    try {
      this.step(t, lx);
    } catch (e) {
      this.failed = true;
      this.error = e;
    }
  }

  /** the text read; throws what reading threw */
  result(): ToUnicodeText {
    if (this.failed) throw this.error;
    return this.out;
  }

  private step(t: number, lx: CMapLexer): void {
    switch (this.state) {
      case MAIN:
        if (t === T_KEYWORD) this.begin(lx);
        return;
      case BFCHAR_CODE:
      case BFRANGE_LO:
      case BFRANGE_HI:
      case CID_LO:
      case CID_HI:
        if (t === T_STR) this.code(codeOf(lx));
        else this.state = MAIN;
        return;
      case BFCHAR_TARGET:
        this.state = BFCHAR_CODE;
        if (t === T_STR) this.put(this.lo, unitsValue(unitsOf(lx), 0));
        else if (t === T_NAME) {
          const cp = glyphNameToUnicode(lx.text());
          if (cp > 0) this.put(this.lo, cp <= 0x10ffff ? cp : String.fromCodePoint(cp));
        } else this.state = MAIN;
        return;
      case BFRANGE_TARGET:
        this.state = BFRANGE_LO;
        if (t === T_STR) this.bfrange(unitsOf(lx));
        else if (t === T_ARRAY_OPEN) {
          this.next = this.lo;
          this.state = BFRANGE_ARRAY;
        } else this.state = MAIN;
        return;
      case BFRANGE_ARRAY:
        if (t === T_STR || t === T_NAME) {
          if (t === T_STR && this.next <= this.hi) this.put(this.next, unitsValue(unitsOf(lx), 0));
          this.next++;
        } else this.state = t === T_ARRAY_CLOSE ? BFRANGE_LO : MAIN;
        return;
      case CID_VALUE:
        if (t !== T_NUM && t !== T_KEYWORD) {
          this.state = MAIN;
          return;
        }
        this.state = CID_LO;
        this.cid(t === T_NUM ? lx.num : NaN);
        return;
    }
  }

  /** a keyword outside a block: the blocks read here start */
  private begin(lx: CMapLexer): void {
    if (lx.is('beginbfchar')) this.state = BFCHAR_CODE;
    else if (lx.is('beginbfrange')) this.state = BFRANGE_LO;
    else if (lx.is('begincidrange') || lx.is('begincidchar')) {
      this.cidRange = lx.is('begincidrange');
      this.state = CID_LO;
    }
  }

  /** a code token where the state expects one */
  private code(code: number): void {
    switch (this.state) {
      case BFCHAR_CODE:
        this.lo = code;
        this.state = BFCHAR_TARGET;
        return;
      case BFRANGE_LO:
        this.lo = code;
        this.state = BFRANGE_HI;
        return;
      case BFRANGE_HI:
        this.hi = code;
        this.state = BFRANGE_TARGET;
        return;
      case CID_LO:
        this.lo = this.hi = code;
        this.state = this.cidRange ? CID_HI : CID_VALUE;
        return;
      case CID_HI:
        this.hi = code;
        this.state = CID_VALUE;
        return;
    }
  }

  /** <lo> <hi> <target>: short ranges code by code, long ones kept as ranges */
  private bfrange(units: number[]): void {
    const { lo, hi, out } = this;
    if (hi < lo || units.length === 0) return;
    if (hi - lo < SHORT_RANGE) {
      if (units.length === 1 && hi < 0x10000) out.setRun(lo, hi, units[0], this.maxCodes);
      else for (let c = lo; c <= hi; c++) this.put(c, unitsValue(units, c - lo));
    } else if (out.ranges.length < this.maxRanges) out.ranges.push({ lo, hi, units });
    else out.truncated = true;
  }

  /** <lo> [<hi>] n: the codes' CIDs read as code points, only for codes no bf entry mapped (explicit bf entries win) */
  private cid(v: number): void {
    const { lo, hi, out } = this;
    if (!Number.isInteger(v) || v < 0 || hi < lo) return;
    if (hi - lo < SHORT_RANGE) for (let c = lo; c <= hi; c++) if (!out.has(c)) this.put(c, unitsValue([v + (c - lo)], 0));
    if (hi - lo >= SHORT_RANGE) {
      if (out.ranges.length < this.maxRanges) out.ranges.unshift({ lo, hi, units: [v] });
      else out.truncated = true;
    }
  }

  private put(code: number, text: string | number | undefined): void {
    if (text === undefined) return;
    const out = this.out;
    if (out.size >= this.maxCodes && !out.has(code)) {
      out.truncated = true;
      return;
    }
    out.set(code, text);
  }
}

/** the last string token as a big-endian code (its first 4 bytes) */
function codeOf(lx: CMapLexer): number {
  let v = 0;
  for (let i = 0; i < lx.strLen && i < 4; i++) v = v * 256 + lx.str[i];
  return v;
}

/** the last string token as UTF-16 units */
function unitsOf(lx: CMapLexer): number[] {
  const u: number[] = [];
  for (let i = 0; i + 1 < lx.strLen && u.length < MAX_TARGET_UNITS; i += 2) u.push((lx.str[i] << 8) | lx.str[i + 1]);
  return u;
}

function readToUnicode(dict: PdfDict, r: Resolver, budget?: Budget, fonts?: FontCache): ToUnicodeText | null {
  const v = r.resolve(dict.get('ToUnicode'));
  if (!(v instanceof PdfStream)) return null;
  const maxBytes = limitsOf(budget).maxCMapBytes;
  // the bytes the font's loading decoded a moment ago, when it did: the same stream, the same cap, the same bytes
  const kept = fonts?.takeDecoded(v, maxBytes);
  const dec = kept?.dec ?? r.decodeStream(v, maxBytes);
  if (dec.outOfTime) budget?.checkTime('cmap');
  // and the text a reader took from those bytes' tokens as the font's loading parsed them, when it read them all
  const reader = kept?.reader;
  const t = reader instanceof ToUnicodeTextReader && reader.complete ? reader.result() : parseToUnicodeText(dec.data, budget);
  if (dec.truncated || dec.error) t.truncated = true;
  return t.size + t.ranges.length > 0 ? t : null;
}

/**
 * The text of a font's codes. Throws only BudgetExhausted (through the budget's clock). `fonts`: the document's font
 * cache, which may still hold the font's ToUnicode bytes from loading it.
 */
export function fontText(dict: PdfDict, r: Resolver, budget?: Budget, fonts?: FontCache): FontText {
  const subtype = getName(r, dict, 'Subtype') ?? '';
  const composite = subtype === 'Type0' || subtype === 'CIDFontType0' || subtype === 'CIDFontType2' || (!subtype && dict.has('DescendantFonts'));
  let tu: ToUnicodeText | null = null;
  try {
    tu = readToUnicode(dict, r, budget, fonts);
  } catch (e) {
    if (e instanceof BudgetExhausted) throw e;
    tu = null;
  }
  if (composite) {
    const ident = r.resolve(dict.get('ToUnicode'));
    const enc = r.resolve(dict.get('Encoding'));
    const unicodeCMap = typeof enc === 'string' && /UCS2|UTF16/.test(enc);
    const identityTU = ident === 'Identity-H' || ident === 'Identity-V';
    return new CompositeText(tu, unicodeCMap || identityTU, limitsOf(budget).maxTextCodesPerFont);
  }
  return new SimpleText(tu, simpleTable(dict, r, subtype));
}

// The font texts are classes, not closures made per font: the interpreter's hot call `ft.text(code)` then always
// calls the same few functions. A closure per font lets optimised code inline one document's closure, which dies with
// the document, and a full GC then throws that code away: every document after a GC ran the text layer unoptimised
// (the bench's "GC between runs" regime: 3–5× the time on text-heavy files).

/** a composite font's text: its ToUnicode map, or the code itself under a Unicode CMap or Identity ToUnicode */
class CompositeText implements FontText {
  readonly bytes: number;
  readonly truncated: boolean;
  /** codes found through the ranges are remembered (a range is searched once per code, not once per glyph) */
  private readonly memo: Map<number, string | undefined> | undefined;

  constructor(
    private readonly tu: ToUnicodeText | null,
    private readonly unicode: boolean,
    private readonly maxMemo: number,
  ) {
    this.bytes = 300 + (tu ? tu.bytes : 0);
    this.truncated = tu?.truncated ?? false;
    this.memo = tu && tu.ranges.length > 0 ? new Map<number, string | undefined>() : undefined;
  }

  text(code: number): string | undefined {
    const memo = this.memo;
    if (memo) {
      const hit = memo.get(code);
      if (hit !== undefined || memo.has(code)) return hit;
      const t = this.tu!.get(code);
      if (memo.size < this.maxMemo) memo.set(code, t);
      return t;
    }
    if (this.tu) return this.tu.get(code);
    if (this.unicode && code > 0) return code <= 0xffff ? String.fromCharCode(code) : String.fromCodePoint(code);
    return undefined;
  }
}

const NULLS_256: (string | undefined | null)[] = new Array<string | undefined | null>(256).fill(null);

/** a simple font's text: its codes are bytes, each one's text (ToUnicode first, then the encoding) worked out once */
class SimpleText implements FontText {
  readonly bytes: number;
  readonly truncated: boolean;
  /** code → text, null until asked for (a copy of one array of nulls: cheaper than filling a new one per font) */
  private readonly memo = NULLS_256.slice();

  constructor(
    private readonly tu: ToUnicodeText | null,
    private readonly table: SimpleTable,
  ) {
    this.bytes = 300 + 256 * 48 + (tu ? tu.bytes : 0);
    this.truncated = tu?.truncated ?? false;
  }

  text(code: number): string | undefined {
    if (code > 0xff) return this.lookup(code);
    let t = this.memo[code];
    if (t === null) t = this.memo[code] = this.lookup(code);
    return t;
  }

  private lookup(code: number): string | undefined {
    if (this.tu) {
      const s = this.tu.get(code);
      if (s !== undefined) return s;
    }
    return this.table.text(code);
  }
}

/**
 * a simple font's encoding: /Differences names over a base encoding. Each code's text is worked out when first asked
 * for (a page shows few of the 256, and small documents pay for every font they load) and kept by SimpleText's memo,
 * the only caller: a second cache here was a second 256-entry array filled per font.
 */
class SimpleTable {
  constructor(
    private readonly names: (string | undefined)[] | undefined,
    private readonly base: Int32Array | undefined,
    private readonly isType3: boolean,
  ) {}

  text(code: number): string | undefined {
    return codeText(code & 0xff, this.names, this.base, this.isType3);
  }
}

function simpleTable(dict: PdfDict, r: Resolver, subtype: string): SimpleTable {
  const isType3 = subtype === 'Type3';
  const enc = r.resolve(dict.get('Encoding'));
  let base: Int32Array | undefined;
  let names: (string | undefined)[] | undefined;
  if (typeof enc === 'string') base = namedEncoding(enc);
  else if (enc instanceof PdfDict) {
    const bn = getName(r, enc, 'BaseEncoding');
    if (bn) base = namedEncoding(bn);
    const diff = getArray(r, enc, 'Differences');
    if (diff) {
      names = new Array<string | undefined>(256);
      let code = -1;
      for (let i = 0; i < diff.length && i < 4096; i++) {
        const v = r.resolve(diff[i]);
        if (isNumber(v)) code = Math.floor(v);
        else if (typeof v === 'string') {
          if (code >= 0 && code < 256) names[code] = v;
          code++;
        }
      }
    }
  }
  base ??= builtInEncoding(dict, r, subtype);
  return new SimpleTable(names, base, isType3);
}

/**
 * The base encoding of a simple font whose /Encoding names none: the standard-14 font's own, Latin-1 for an embedded
 * TrueType program, else StandardEncoding (none for Type3). Only looked up then: most fonts name their encoding, and
 * matching /BaseFont against the standard 14 names was most of this module's cost for them.
 */
function builtInEncoding(dict: PdfDict, r: Resolver, subtype: string): Int32Array | undefined {
  const isType3 = subtype === 'Type3';
  const baseFont = getName(r, dict, 'BaseFont') ?? '';
  const std = isType3 ? undefined : standard14(baseFont);
  const desc = getDict(r, dict, 'FontDescriptor');
  const embeddedTrueType = desc !== undefined && (r.resolve(desc.get('FontFile2')) instanceof PdfStream || subtype === 'TrueType');
  if (std?.family === 'Symbol') return symbolEncoding();
  if (std?.family === 'ZapfDingbats') return zapfDingbatsEncoding();
  if (embeddedTrueType && !std) return latin1Encoding();
  if (!isType3) return standardEncoding();
  return undefined;
}

/** the text of code c of a simple font: its /Differences name, else its base encoding's character */
function codeText(c: number, names: (string | undefined)[] | undefined, base: Int32Array | undefined, isType3: boolean): string | undefined {
  const name = names?.[c];
  let cp = -1;
  if (name !== undefined) {
    cp = glyphNameToUnicode(name);
    if (cp < 0 && name.indexOf('_') > 0) {
      // ligature names f_i → "fi"
      let s = '';
      for (const part of name.split('_').slice(0, 8)) {
        const q = glyphNameToUnicode(part);
        if (q > 0) s += String.fromCodePoint(q);
      }
      return s || undefined;
    }
  } else if (base && base[c] >= 0) cp = base[c];
  if (cp < 0 && isType3 && c > 0x20 && c < 0x7f) cp = c;
  if (cp > 0) return cp >= 0xfb00 && cp <= 0xfb06 ? LIGATURES[cp - 0xfb00] : String.fromCodePoint(cp);
  return undefined;
}

/** MuPDF spells the Latin ligatures out as their letters (fonts.ts counts them that way too) */
const LIGATURES = ['ff', 'fi', 'fl', 'ffi', 'ffl', 'st', 'st'];
