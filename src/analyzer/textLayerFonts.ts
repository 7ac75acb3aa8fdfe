/**
 * The Unicode text of a font's codes, for the text layer (only built when the analyzer is asked for it).
 *
 * fonts.ts decides how many characters each code yields and whether they decode (its tables keep classes, never
 * text, so the routing path stays small and fast). The text layer needs the text itself, so this module reads the
 * same sources again, in the same order of precedence, and keeps strings:
 * - a ToUnicode map (bfchar / bfrange; cid entries are read as code points, as MuPDF does);
 * - simple fonts without one (or for the codes it lacks): /Differences glyph names, then /Encoding or
 *   /BaseEncoding, then the standard-14 encodings, Latin-1 for embedded TrueType, else StandardEncoding;
 * - composite fonts without one: codes of a Unicode CMap (UCS2/UTF16) are their code points; others are unknown.
 * A code whose text is not known here while fonts.ts counts it as a character comes out as U+FFFD, so the text
 * never claims more than the routing counts.
 *
 * Bounded: codes kept per map, ranges kept per map, and the clock is checked while parsing.
 */
import { type Budget, BudgetExhausted } from './budget';
import { glyphNameToUnicode, latin1Encoding, namedEncoding, standardEncoding, symbolEncoding, zapfDingbatsEncoding } from './encodings';
import { standard14 } from './fonts';
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

/** single codes kept from one ToUnicode map (a Map entry ~80 bytes each) */
const MAX_CODES = 1 << 16;
/** bfranges longer than SHORT_RANGE kept as ranges per map */
const MAX_RANGES = 512;
const SHORT_RANGE = 256;
/** bytes of a ToUnicode stream read at most */
const MAX_CMAP_BYTES = 4 * 1024 * 1024;
const MAX_TARGET_UNITS = 32;

interface Range {
  lo: number;
  hi: number;
  /** destination UTF-16 units; the last one advances through the range */
  units: number[];
}

class ToUnicodeText {
  readonly codes = new Map<number, string>();
  readonly ranges: Range[] = [];
  truncated = false;

  get(code: number): string | undefined {
    const s = this.codes.get(code);
    if (s !== undefined) return s;
    for (let k = this.ranges.length - 1; k >= 0; k--) {
      const r = this.ranges[k];
      if (code >= r.lo && code <= r.hi) return unitsText(r.units, code - r.lo);
    }
    return undefined;
  }

  get bytes(): number {
    return 200 + this.codes.size * 80 + this.ranges.length * 120;
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

/** ToUnicode CMap stream → code → text. Never throws except through budget.checkTime. */
export function parseToUnicodeText(data: Uint8Array, budget?: Budget): ToUnicodeText {
  const out = new ToUnicodeText();
  const n = data.length;
  let p = 0;
  let tokens = 0;
  // token state
  let kind = 0; // 0 eof, 1 hex, 2 keyword/number, 3 array open, 4 array close, 5 name, 6 other
  let hex: number[] = [];
  let word = '';
  const next = (): number => {
    for (;;) {
      if ((++tokens & 4095) === 0) budget?.checkTime('cmap');
      while (p < n && (data[p] <= 32 || data[p] === 0)) p++;
      if (p >= n) return (kind = 0);
      const c = data[p];
      if (c === 37 /* % */) {
        while (p < n && data[p] !== 10 && data[p] !== 13) p++;
        continue;
      }
      if (c === 60 /* < */) {
        if (data[p + 1] === 60) {
          p += 2;
          return (kind = 6);
        }
        p++;
        hex = [];
        let hi = -1;
        while (p < n && data[p] !== 62) {
          const v = hexVal(data[p++]);
          if (v < 0) continue;
          if (hi < 0) hi = v;
          else {
            if (hex.length < 64) hex.push(hi * 16 + v);
            hi = -1;
          }
        }
        if (hi >= 0 && hex.length < 64) hex.push(hi * 16);
        p++;
        return (kind = 1);
      }
      if (c === 91) {
        p++;
        return (kind = 3);
      }
      if (c === 93) {
        p++;
        return (kind = 4);
      }
      if (c === 62 || c === 40 || c === 41 || c === 123 || c === 125) {
        if (c === 40) {
          // literal strings are not used for codes here: skip balanced
          let depth = 0;
          while (p < n) {
            const d = data[p++];
            if (d === 92) p++;
            else if (d === 40) depth++;
            else if (d === 41 && --depth === 0) break;
          }
        } else p++;
        return (kind = 6);
      }
      const start = p;
      if (c === 47) p++;
      while (p < n && data[p] > 32 && !isDelim(data[p])) p++;
      word = '';
      for (let i = start; i < p && i < start + 64; i++) word += String.fromCharCode(data[i]);
      return (kind = c === 47 ? 5 : 2);
    }
  };
  /** the kind of the last token (a call: TypeScript would keep a comparison's narrowing across next()) */
  const last = (): number => kind;
  const codeOf = (b: number[]): number => {
    let v = 0;
    for (let i = 0; i < b.length && i < 4; i++) v = v * 256 + b[i];
    return v;
  };
  const unitsOf = (b: number[]): number[] => {
    const u: number[] = [];
    for (let i = 0; i + 1 < b.length && u.length < MAX_TARGET_UNITS; i += 2) u.push((b[i] << 8) | b[i + 1]);
    return u;
  };
  const put = (code: number, text: string | undefined) => {
    if (text === undefined) return;
    if (out.codes.size >= MAX_CODES && !out.codes.has(code)) {
      out.truncated = true;
      return;
    }
    out.codes.set(code, text);
  };
  while (next() !== 0) {
    if (kind !== 2) continue;
    if (word === 'beginbfchar') {
      while (next() === 1) {
        const code = codeOf(hex);
        if (next() === 1) put(code, unitsText(unitsOf(hex), 0));
        else if (last() === 5) {
          const cp = glyphNameToUnicode(word.slice(1));
          if (cp > 0) put(code, String.fromCodePoint(cp));
        } else break;
      }
    } else if (word === 'beginbfrange') {
      while (next() === 1) {
        const lo = codeOf(hex);
        if (next() !== 1) break;
        const hi = codeOf(hex);
        const t = next();
        if (t === 1) {
          const units = unitsOf(hex);
          if (hi < lo || units.length === 0) continue;
          if (hi - lo < SHORT_RANGE) for (let c = lo; c <= hi; c++) put(c, unitsText(units, c - lo));
          else if (out.ranges.length < MAX_RANGES) out.ranges.push({ lo, hi, units });
          else out.truncated = true;
        } else if (t === 3) {
          let c = lo;
          while (next() === 1 || last() === 5) {
            if (last() === 1 && c <= hi) put(c, unitsText(unitsOf(hex), 0));
            c++;
          }
          if (last() !== 4) break;
        } else break;
      }
    } else if (word === 'begincidrange' || word === 'begincidchar') {
      const range = word === 'begincidrange';
      while (next() === 1) {
        const lo = codeOf(hex);
        let hi = lo;
        if (range) {
          if (next() !== 1) break;
          hi = codeOf(hex);
        }
        if (next() !== 2) break;
        const v = Number(word);
        if (!Number.isInteger(v) || v < 0 || hi < lo) continue;
        // explicit bf entries win: only fill codes not mapped yet
        if (hi - lo < SHORT_RANGE) for (let c = lo; c <= hi; c++) if (!out.codes.has(c)) put(c, unitsText([v + (c - lo)], 0));
        if (hi - lo >= SHORT_RANGE) {
          if (out.ranges.length < MAX_RANGES) out.ranges.unshift({ lo, hi, units: [v] });
          else out.truncated = true;
        }
      }
    }
  }
  return out;
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}
function isDelim(c: number): boolean {
  return c === 40 || c === 41 || c === 60 || c === 62 || c === 91 || c === 93 || c === 123 || c === 125 || c === 47 || c === 37;
}

function readToUnicode(dict: PdfDict, r: Resolver, budget?: Budget): ToUnicodeText | null {
  const v = r.resolve(dict.get('ToUnicode'));
  if (!(v instanceof PdfStream)) return null;
  const dec = r.decodeStream(v, MAX_CMAP_BYTES);
  if (dec.outOfTime) budget?.checkTime('cmap');
  const t = parseToUnicodeText(dec.data, budget);
  if (dec.truncated || dec.error) t.truncated = true;
  return t.codes.size + t.ranges.length > 0 ? t : null;
}

/** The text of a font's codes. Throws only BudgetExhausted (through the budget's clock). */
export function fontText(dict: PdfDict, r: Resolver, budget?: Budget): FontText {
  const subtype = getName(r, dict, 'Subtype') ?? '';
  const composite = subtype === 'Type0' || subtype === 'CIDFontType0' || subtype === 'CIDFontType2' || (!subtype && dict.has('DescendantFonts'));
  let tu: ToUnicodeText | null = null;
  try {
    tu = readToUnicode(dict, r, budget);
  } catch (e) {
    if (e instanceof BudgetExhausted) throw e;
    tu = null;
  }
  if (composite) {
    const ident = r.resolve(dict.get('ToUnicode'));
    const enc = r.resolve(dict.get('Encoding'));
    const unicodeCMap = typeof enc === 'string' && /UCS2|UTF16/.test(enc);
    const identityTU = ident === 'Identity-H' || ident === 'Identity-V';
    // codes found through the ranges are remembered (a range is searched once per code, not once per glyph)
    const memo = tu && tu.ranges.length > 0 ? new Map<number, string | undefined>() : undefined;
    return {
      bytes: 300 + (tu ? tu.bytes : 0),
      truncated: tu?.truncated ?? false,
      text(code: number): string | undefined {
        if (memo) {
          const hit = memo.get(code);
          if (hit !== undefined || memo.has(code)) return hit;
          const t = tu!.get(code);
          if (memo.size < MAX_CODES) memo.set(code, t);
          return t;
        }
        if (tu) return tu.get(code);
        if ((unicodeCMap || identityTU) && code > 0) return code <= 0xffff ? String.fromCharCode(code) : String.fromCodePoint(code);
        return undefined;
      },
    };
  }
  const table = simpleTable(dict, r, subtype);
  // a simple font's codes are bytes: each one's text (ToUnicode first, then the encoding) is worked out once
  const memo = new Array<string | undefined | null>(256).fill(null);
  const lookup = (code: number): string | undefined => {
    if (tu) {
      const s = tu.get(code);
      if (s !== undefined) return s;
    }
    return table(code);
  };
  return {
    bytes: 300 + 256 * 48 + (tu ? tu.bytes : 0),
    truncated: tu?.truncated ?? false,
    text(code: number): string | undefined {
      if (code > 0xff) return lookup(code);
      let t = memo[code];
      if (t === null) t = memo[code] = lookup(code);
      return t;
    },
  };
}

function simpleTable(dict: PdfDict, r: Resolver, subtype: string): (code: number) => string | undefined {
  const isType3 = subtype === 'Type3';
  const baseFont = getName(r, dict, 'BaseFont') ?? '';
  const std = isType3 ? undefined : standard14(baseFont);
  const desc = getDict(r, dict, 'FontDescriptor');
  const embeddedTrueType = desc !== undefined && (r.resolve(desc.get('FontFile2')) instanceof PdfStream || subtype === 'TrueType');
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
  if (!base) {
    if (std?.family === 'Symbol') base = symbolEncoding();
    else if (std?.family === 'ZapfDingbats') base = zapfDingbatsEncoding();
    else if (embeddedTrueType && !std) base = latin1Encoding();
    else if (!isType3) base = standardEncoding();
  }
  // each code's text is worked out when first asked for: a page shows few of the 256, and small documents pay for
  // every font they load
  const cache = new Array<string | undefined | null>(256).fill(null);
  return (code: number): string | undefined => {
    const c = code & 0xff;
    let t = cache[c];
    if (t === null) t = cache[c] = codeText(c, names, base, isType3);
    return t;
  };
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
