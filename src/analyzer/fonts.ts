/**
 * Fonts as the content interpreter needs them: for each string a text-showing operator draws, how many
 * characters it yields, how many of those do not decode to Unicode, and how far it advances.
 *
 * Everything is decided once per font: a simple font keeps three 256-entry tables (characters, undecodable
 * characters, width per code); a composite (Type0) font keeps its codespace and fills per-code tables lazily,
 * in pages of 256 codes, the first time a code is shown. `tally` then only indexes arrays.
 *
 * The decoding rules follow what MuPDF's text extraction yields, since the reference labels come from it
 * (checked code by code against mupdf.js on synthetic fonts and page by page on the corpus):
 * - simple fonts: ToUnicode first, codes it lacks fall back to the encoding: /Encoding (name, or /BaseEncoding
 *   + /Differences), else the font's built-in one (standard-14 tables, the cleartext encoding of an embedded
 *   Type1 program, the encoding and charset of an embedded CFF program, Latin-1 codes for embedded TrueType),
 *   else StandardEncoding;
 * - Type0 fonts: a ToUnicode map alone decides when there is one (codes it lacks are bad); otherwise a
 *   predefined CJK CMap or an Adobe character collection (Identity + /CIDSystemInfo Adobe-Japan1…) decodes;
 *   Identity without either does not decode. Codes the encoding CMap leaves unmapped are skipped, as MuPDF does.
 * Deliberate differences from MuPDF: code 32 of a simple font whose glyph says nothing stays a space, and
 * ZapfDingbats codes decode as dingbats (MuPDF turns their a1…a191 names into arbitrary ASCII).
 */
import { Budget, BudgetExhausted, ChargedLru, limitsOf } from './budget';
import { isWhite } from './bytes';
import type { AnalyzerOptions } from './options';
import { type DecodedStream, PdfDict, PdfStream, PdfValue, Resolver, getArray, getDict, getName, getNumber, isNumber } from './objects';
import type { FontEvidence } from './types';
import {
  CLASS_BAD,
  CLASS_GOOD,
  CLASS_SPACE,
  CodeClass,
  EncodingTable,
  classifyCodepoint,
  cffStandardString,
  classifyGlyphName,
  latin1Encoding,
  namedEncoding,
  standardEncoding,
  symbolEncoding,
  zapfDingbatsEncoding,
} from './encodings';
import { CidMap, type CMapTokenTap, CodespaceRange, ParsedCMap, PredefinedCMap, cmapBytes, parseCMap, predefinedCMap, toUnicodeMap } from './cmap';
import { latin1Token } from './text';
import { type Std14Face, std14Width } from './std14Widths';

export interface TextTally {
  /** non-whitespace Unicode characters produced (a code mapping to "fi" counts 2; an unmappable code counts 1 and is bad) */
  chars: number;
  /** of chars: those that do not decode: no mapping, U+FFFD, private use (U+E000–F8FF, planes 15/16), C0/C1 controls */
  bad: number;
  /** codes shown */
  glyphs: number;
  /** single-byte codes 32 (word spacing Tw applies to them) */
  spaceCodes: number;
  /** sum of glyph advances in text space units (glyph width/1000 for normal fonts; via /FontMatrix for Type3), before Tc/Tw/Tz */
  width: number;
}

export interface LoadedFont {
  /** e.g. 'Type0', 'Type1', 'TrueType', 'Type3', 'MMType1' */
  baseFont: string;
  subtype: string;
  /** the decoding rung */
  decoding: FontEvidence['decoding'];
  /** Identity-V or other -V CMap (advance goes down) */
  vertical: boolean;
  /** what the font holds in memory, roughly: its tables, maps and the most its per-code caches can grow to */
  readonly bytes: number;
  /** something about the font a reader of the page's notes should know (e.g. a byte-swapped ToUnicode map) */
  readonly warning?: string;
  /** the font program is in the file (FontEvidence.embedded); undefined when the font dict could not be read */
  readonly embedded?: boolean;
  /** the ToUnicode entry (FontEvidence.toUnicode); undefined when the font dict could not be read */
  readonly toUnicodeState?: FontEvidence['toUnicode'];
  /** adds the tally of one string operand to `out` (does not reset it) */
  tally(bytes: Uint8Array, out: TextTally): void;
  /**
   * Bytes in the code that starts at `bytes[i]` (1 for simple fonts): how `tally` splits a string, so that tallying
   * each code alone adds up to the tally of the whole string (the text layer uses it to place every glyph).
   */
  codeLength(bytes: Uint8Array, i: number): number;
  /** adds the tally of the `n`-byte code at `bytes[i]` to `out`, as tally() of those bytes alone would (the text layer's per-glyph path) */
  tallyCode(bytes: Uint8Array, i: number, n: number, out: TextTally): void;
}

/** scratch arrays for codes of 1 to 4 bytes, so the per-code tally allocates no view */
const CODE_BYTES = [new Uint8Array(0), new Uint8Array(1), new Uint8Array(2), new Uint8Array(3), new Uint8Array(4)];

/** bytes [i, i + n) of `s`, in a scratch array when n ≤ 4 (valid until the next call: the caller only reads it at once) */
function codeBytes(s: Uint8Array, i: number, n: number): Uint8Array {
  if (n > 4) return s.subarray(i, i + n);
  const out = CODE_BYTES[n];
  for (let k = 0; k < n; k++) out[k] = s[i + k];
  return out;
}

export function newTally(): TextTally {
  return { chars: 0, bad: 0, glyphs: 0, spaceCodes: 0, width: 0 };
}

// The bounds of font loading are AnalyzerOptions (maxCMapBytes, maxType1Bytes, maxFontProgramBytes, maxWidthSegments,
// maxWidthValues, maxCMapChain, maxCodePagesPerFont, maxLongCodesCached), read from the document's Budget.limits.

/** What loading a font needs: objects, the clock and the limits (its budget), and parsed CMaps (shared between fonts when cached). */
interface FontEnv {
  r: Resolver;
  budget: Budget;
  /** `toUnicode`: the stream is a font's /ToUnicode (the text layer may read its text along) */
  cmap(s: PdfStream, toUnicode?: boolean): ParsedCMap;
}

/** Work units (CMap codes, width entries) between two looks at the clock while loading a font: tuning, not a limit. */
const CLOCK_EVERY = 1 << 16;

/**
 * Loads a font without caching it (tests, one-off use); documents go through a FontCache.
 * Throws only BudgetExhausted (the budget ran out); a broken font dict yields a best-effort font
 * (1-byte codes, decoding 'none' unless known otherwise).
 */
export function loadFont(fontDict: PdfDict, r: Resolver, budget: Budget = Budget.unbounded()): LoadedFont {
  const memo = new Map<PdfStream, ParsedCMap>();
  return loadWith(fontDict, {
    r,
    budget,
    cmap: (s) => {
      let p = memo.get(s);
      if (!p) memo.set(s, (p = parseCMapStream(s, r, budget)));
      return p;
    },
  });
}

function loadWith(fontDict: PdfDict, env: FontEnv): LoadedFont {
  // one look per font: a page that names thousands of small fonts is stopped here
  env.budget.checkTime('fonts');
  try {
    return buildFont(fontDict, env);
  } catch (e) {
    if (e instanceof BudgetExhausted) throw e;
    return fallbackFont(fontDict);
  }
}

/**
 * The fonts of one document, shared by its pages, forms and annotations: an LRU charged to the document's Budget
 * (fonts get three quarters of `maxBytes`, parsed CMap streams shared between fonts one quarter). A font evicted is
 * loaded again when next used; a font too large to be held even alone is refused with BudgetExhausted
 * ('memory-limit'), every time it is asked for, so the pages that need it say their evidence is incomplete.
 */
export class FontCache {
  private readonly fonts: ChargedLru<PdfDict, LoadedFont>;
  private readonly cmaps: ChargedLru<PdfStream, ParsedCMap>;
  private readonly oversize = new WeakSet<PdfDict>();
  private readonly env: FontEnv;
  /**
   * With the text layer on: the CMap stream this cache decoded last, and its bytes. The layer reads a font's ToUnicode
   * again for its text right after the font is loaded (textLayerFonts.ts); it takes these bytes instead of inflating
   * the stream a second time, and the text its reader took from the tokens while the stream was parsed here, when it
   * had one. One stream at most, for as long as the document's fonts live.
   */
  private lastDecoded: DecodedCMap | undefined;

  /**
   * @param textReader with the text layer on (and only then): makes the reader that listens to a ToUnicode stream's
   * parse for its text (textLayerFonts.ts makes it; this module only hands it over)
   */
  constructor(
    r: Resolver,
    private readonly budget: Budget,
    maxBytes: number,
    textReader?: () => CMapTokenTap,
  ) {
    const cmapShare = Math.floor(maxBytes / 4);
    this.fonts = new ChargedLru(budget, 'fonts', maxBytes - cmapShare);
    this.cmaps = new ChargedLru(budget, 'cmap', cmapShare);
    // the text layer (which alone has a reader to hand) reads the ToUnicode bytes again: they are kept for it
    const keep = textReader !== undefined;
    this.env = {
      r,
      budget,
      cmap: (s, toUnicode) => {
        let p = this.cmaps.get(s);
        if (!p) {
          p = parseCMapStream(s, r, budget, keep ? this : undefined, toUnicode ? textReader : undefined);
          this.cmaps.set(s, p, cmapBytes(p));
        }
        return p;
      },
    };
  }

  /** the bytes of `s` if this cache decoded it last (see lastDecoded), and its text reader; each is handed out once */
  takeDecoded(s: PdfStream, maxBytes: number): { dec: DecodedStream; reader?: CMapTokenTap } | undefined {
    const d = this.lastDecoded;
    if (!d || d.stream !== s || d.maxBytes !== maxBytes) return undefined;
    this.lastDecoded = undefined;
    return d;
  }

  /** @internal parseCMapStream's hand-over */
  keepDecoded(d: DecodedCMap): void {
    this.lastDecoded = d;
  }

  /** fonts held */
  get size(): number {
    return this.fonts.size;
  }

  /** bytes charged for the fonts and CMaps held */
  get heldBytes(): number {
    return this.fonts.heldBytes + this.cmaps.heldBytes;
  }

  /** Throws BudgetExhausted when time runs out while loading, or the font can't be held even alone. */
  get(dict: PdfDict): LoadedFont {
    const hit = this.fonts.get(dict);
    if (hit) return hit;
    if (this.oversize.has(dict)) throw new BudgetExhausted('memory-limit', 'fonts');
    const font = loadWith(dict, this.env);
    if (!this.fonts.set(dict, font, font.bytes)) {
      this.oversize.add(dict);
      this.budget.exhausted ??= { reason: 'memory-limit', stage: 'fonts' };
      throw new BudgetExhausted('memory-limit', 'fonts');
    }
    return font;
  }
}

function buildFont(dict: PdfDict, env: FontEnv): LoadedFont {
  const r = env.r;
  const subtype = getName(r, dict, 'Subtype') ?? '';
  const baseFont = getName(r, dict, 'BaseFont') ?? '';
  if (subtype === 'Type0' || (!subtype && dict.has('DescendantFonts'))) return loadComposite(dict, env, baseFont, subtype || 'Type0');
  if (subtype === 'CIDFontType0' || subtype === 'CIDFontType2') return loadComposite(dict, env, baseFont, subtype);
  return loadSimple(dict, env, baseFont, subtype || 'Type1');
}

function fallbackFont(dict: PdfDict): LoadedFont {
  const chars = new Uint8Array(256).fill(1);
  const bad = new Uint8Array(256).fill(1);
  const width = new Float64Array(256).fill(0.5);
  chars[32] = 0;
  bad[32] = 0;
  width[32] = 0.25;
  let baseFont = '';
  let subtype = '';
  try {
    const b = dict.get('BaseFont');
    const s = dict.get('Subtype');
    if (typeof b === 'string') baseFont = b;
    if (typeof s === 'string') subtype = s;
  } catch {
    // keep the empty names
  }
  return new SimpleFont(baseFont, subtype, 'none', chars, bad, width);
}

interface DecodedCMap {
  stream: PdfStream;
  maxBytes: number;
  dec: DecodedStream;
  /** what listened to the parse (textReader's), when one did */
  reader?: CMapTokenTap;
}

/**
 * @param keep the cache to hand the decoded bytes to (text layer on)
 * @param textReader makes a listener for the parse's tokens (a ToUnicode stream with the text layer on)
 */
function parseCMapStream(s: PdfStream, r: Resolver, budget: Budget, keep?: FontCache, textReader?: () => CMapTokenTap): ParsedCMap {
  const maxBytes = budget.limits.maxCMapBytes;
  const dec = r.decodeStream(s, maxBytes);
  if (dec.outOfTime) budget.checkTime('cmap');
  // the decoded text is held while it is parsed (up to maxCMapBytes): charged for that long
  const held = dec.data.length;
  if (!budget.tryCharge(held, 'cmap')) throw new BudgetExhausted('memory-limit', 'cmap');
  let parsed: ParsedCMap;
  const reader = textReader?.();
  try {
    parsed = parseCMap(dec.data, budget, undefined, reader);
  } finally {
    budget.release(held);
  }
  if (dec.truncated || dec.error || dec.outOfTime) parsed.truncated = true;
  const wmode = s.dict.get('WMode');
  if (wmode === 1) parsed.wmode = 1;
  keep?.keepDecoded({ stream: s, maxBytes, dec, reader });
  return parsed;
}

/** code → class (see encodings.ts), -1 for codes the map leaves out */
interface UnicodeLookup {
  get(code: number): number;
  /** most codes map to byte-swapped ASCII: those were made undecodable (see UnicodeMap.judgeSwapped) */
  readonly swapped?: boolean;
  readonly bytes?: number;
}

const SWAPPED_WARNING = 'its ToUnicode map gives byte-swapped UTF-16 (U+4100 for "A"): those characters count as undecodable';

/**
 * /ToUnicode /Identity-H: MuPDF reads the code as the Unicode value. Real files rely on it (producers that use
 * Unicode values as CIDs), so it counts as a map here too; codes that are no characters still come out bad.
 */
const IDENTITY_UNICODE: UnicodeLookup = { get: (code) => (code === 0 ? -1 : classifyCodepoint(code)) };

/**
 * What the /ToUnicode entry is worth, for the fonts table: 'yes' when `lookup` (what loadToUnicode made of it) maps
 * codes and is whole, 'no' when there is none, 'broken' when one is there but maps nothing, was cut short or is
 * byte-swapped.
 */
function toUnicodeState(dict: PdfDict, env: FontEnv, lookup: UnicodeLookup | null): NonNullable<FontEvidence['toUnicode']> {
  const v = env.r.resolve(dict.get('ToUnicode'));
  if (v === undefined || v === null) return 'no';
  if (!lookup || lookup.swapped) return 'broken';
  return v instanceof PdfStream && env.cmap(v, true).truncated ? 'broken' : 'yes';
}

/**
 * Whether /BaseFont names the glyphless font OCR engines draw their invisible text layer with: Tesseract writes
 * "GlyphLessFont" (a Type0 font over a TrueType program whose glyphs have no outlines); OCRmyPDF, which reuses it, too,
 * sometimes behind a subset prefix.
 */
export function isGlyphlessFont(baseFont: string): boolean {
  return /^(?:[A-Z]{6}\+)?GlyphLess(?:Font)?$/i.test(baseFont);
}

/** Whether a font descriptor holds a font program. */
function hasFontProgram(r: Resolver, desc: PdfDict | undefined): boolean {
  if (!desc) return false;
  return ['FontFile', 'FontFile2', 'FontFile3'].some((k) => r.resolve(desc.get(k)) instanceof PdfStream);
}

/** A ToUnicode entry that maps something: a parsed stream with at least one code, or (composite fonts) an Identity name. */
function loadToUnicode(dict: PdfDict, env: FontEnv, composite: boolean): UnicodeLookup | null {
  const v = env.r.resolve(dict.get('ToUnicode'));
  if (composite && (v === 'Identity-H' || v === 'Identity-V')) return IDENTITY_UNICODE;
  if (!(v instanceof PdfStream)) return null;
  return toUnicodeMap(env.cmap(v, true));
}

// ---------------------------------------------------------------------------------------------------------------
// Simple fonts

class SimpleFont implements LoadedFont {
  readonly vertical = false;
  embedded?: boolean;
  toUnicodeState?: FontEvidence['toUnicode'];
  /** three 256-entry tables and the object around them */
  readonly bytes = 256 + 256 + 2048 + 400;
  constructor(
    readonly baseFont: string,
    readonly subtype: string,
    readonly decoding: FontEvidence['decoding'],
    readonly chars: Uint8Array,
    readonly bad: Uint8Array,
    readonly widths: Float64Array,
    readonly warning?: string,
  ) {}

  tally(bytes: Uint8Array, out: TextTally): void {
    const chars = this.chars;
    const bad = this.bad;
    const widths = this.widths;
    const n = bytes.length;
    let c = 0;
    let b = 0;
    let sp = 0;
    let w = 0;
    for (let i = 0; i < n; i++) {
      const k = bytes[i];
      c += chars[k];
      b += bad[k];
      w += widths[k];
      if (k === 32) sp++;
    }
    out.chars += c;
    out.bad += b;
    out.glyphs += n;
    out.spaceCodes += sp;
    out.width += w;
  }

  codeLength(): number {
    return 1;
  }

  tallyCode(bytes: Uint8Array, i: number, n: number, out: TextTally): void {
    // a simple font's codes are single bytes: this is tally() of one byte, without a view of it
    if (n !== 1) return this.tally(bytes.subarray(i, i + n), out);
    const k = bytes[i];
    out.chars += this.chars[k];
    out.bad += this.bad[k];
    out.glyphs += 1;
    if (k === 32) out.spaceCodes++;
    out.width += this.widths[k];
  }
}

/** A simple font's per-code tables (characters, undecodable characters, advances), for the text layer's loop over single-byte codes; undefined for a composite font. */
export function simpleFontTables(
  font: LoadedFont,
): { readonly chars: Uint8Array; readonly bad: Uint8Array; readonly widths: Float64Array } | undefined {
  return font instanceof SimpleFont ? font : undefined;
}

type Std14Family = 'Helvetica' | 'Times' | 'Courier' | 'Symbol' | 'ZapfDingbats';
interface Std14 {
  family: Std14Family;
  bold: boolean;
  /** italic or oblique (Times' italic faces have widths of their own; Helvetica's oblique ones share the upright's) */
  italic: boolean;
}

const STD14_PREFIXES: [string, Std14Family][] = [
  ['timesnewromanps', 'Times'],
  ['timesnewroman', 'Times'],
  ['times', 'Times'],
  ['helvetica', 'Helvetica'],
  ['arial', 'Helvetica'],
  ['couriernewps', 'Courier'],
  ['couriernew', 'Courier'],
  ['courier', 'Courier'],
  ['symbol', 'Symbol'],
  ['itczapfdingbats', 'ZapfDingbats'],
  ['zapfdingbats', 'ZapfDingbats'],
  ['dingbats', 'ZapfDingbats'],
];
const STYLE_WORDS = ['bolditalic', 'boldoblique', 'bold', 'italic', 'oblique', 'roman', 'regular', 'psmt', 'mt', 'ps'];

/** The standard-14 font (or a common alias such as Arial, TimesNewRoman,Bold, CourierNewPSMT) a /BaseFont names. */
export function standard14(baseFont: string): Std14 | undefined {
  let name = baseFont;
  const plus = name.indexOf('+');
  if (plus === 6) name = name.slice(7);
  name = name.toLowerCase().replace(/[\s_]/g, '');
  for (const [prefix, family] of STD14_PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    let rest = name.slice(prefix.length).replace(/[-,]/g, '');
    const bold = rest.includes('bold');
    const italic = rest.includes('italic') || rest.includes('oblique');
    for (let guard = 0; rest && guard < 8; guard++) {
      const w = STYLE_WORDS.find((s) => rest.startsWith(s));
      if (!w) break;
      rest = rest.slice(w.length);
    }
    if (rest) return undefined;
    return { family, bold, italic };
  }
  return undefined;
}

/** the face whose published metrics a standard-14 font without /Widths has, when std14Widths.ts holds them */
function std14Face(std: Std14 | undefined): Std14Face | undefined {
  if (std?.family === 'Helvetica') return std.bold ? 'Helvetica-Bold' : 'Helvetica';
  if (std?.family === 'Times') return std.bold ? (std.italic ? 'Times-BoldItalic' : 'Times-Bold') : std.italic ? 'Times-Italic' : 'Times-Roman';
  return undefined;
}

/** A rough advance (thousandths of text space) for fonts without /Widths, by family and kind of character. */
function approxWidth(family: Std14Family | undefined, bold: boolean, cp: number): number {
  if (family === 'Courier') return 600;
  if (family === 'Symbol') return cp === 0x20 ? 250 : 600;
  if (family === 'ZapfDingbats') return cp === 0x20 ? 278 : 800;
  const times = family === 'Times';
  if (cp === 0x20 || cp === 0xa0) return times ? 250 : 278;
  if (cp >= 0x30 && cp <= 0x39) return times ? 500 : 556;
  if (cp >= 0x41 && cp <= 0x5a) return bold ? 722 : 667;
  if (cp >= 0x61 && cp <= 0x7a) return times ? (bold ? 500 : 444) : bold ? 556 : 500;
  if (cp > 0x20 && cp < 0x7f) return times ? 333 : 300;
  return times ? 500 : 556;
}

function loadSimple(dict: PdfDict, env: FontEnv, baseFont: string, subtype: string): LoadedFont {
  const r = env.r;
  const desc = getDict(r, dict, 'FontDescriptor');
  const fontFile = desc ? r.resolve(desc.get('FontFile')) : undefined;
  const fontFile2 = desc ? r.resolve(desc.get('FontFile2')) : undefined;
  const fontFile3 = desc ? r.resolve(desc.get('FontFile3')) : undefined;
  const isType3 = subtype === 'Type3';
  const std = isType3 ? undefined : standard14(baseFont);
  const embeddedTrueType =
    fontFile2 instanceof PdfStream ||
    (fontFile3 instanceof PdfStream && (subtype === 'TrueType' || getName(r, fontFile3.dict, 'Subtype') === 'OpenType'));

  const enc = r.resolve(dict.get('Encoding'));
  const named = typeof enc === 'string' ? namedEncoding(enc) : undefined;
  const baseName = enc instanceof PdfDict ? getName(r, enc, 'BaseEncoding') : undefined;
  const baseTable = baseName ? namedEncoding(baseName) : undefined;
  const needBuiltin = !named && !baseTable;

  // the font's own encoding, used when /Encoding is absent or gives no /BaseEncoding (so only read then)
  let builtin: EncodingTable | null;
  let builtinNames: (string | undefined)[] | null = null;
  if (isType3) builtin = null;
  else if (embeddedTrueType) builtin = latin1Encoding();
  else {
    builtin = std ? std14Encoding(std.family) : standardEncoding();
    let own: 'standard' | (string | undefined)[] | undefined;
    if (needBuiltin && fontFile instanceof PdfStream) own = type1Encoding(fontFile, r, env.budget);
    else if (needBuiltin && fontFile3 instanceof PdfStream) {
      const dec = r.decodeStream(fontFile3, env.budget.limits.maxFontProgramBytes);
      if (dec.outOfTime) env.budget.checkTime('fonts');
      own = cffEncoding(dec.data);
    }
    if (own === 'standard') builtin = standardEncoding();
    else if (own) {
      builtin = null;
      builtinNames = own;
    }
  }
  const dingbats = std?.family === 'ZapfDingbats';

  let decoding: FontEvidence['decoding'];
  let base: EncodingTable | null = builtin;
  let baseNames = builtinNames;
  let differences: (string | undefined)[] | null = null;
  if (named) {
    base = named;
    baseNames = null;
    decoding = 'encoding';
  } else if (enc instanceof PdfDict) {
    if (baseTable) {
      base = baseTable;
      baseNames = null;
    }
    differences = readDifferences(enc, r);
    decoding = 'encoding';
  } else if (isType3) decoding = 'none';
  else if (std && !embeddedTrueType && !builtinNames) decoding = 'standard14';
  else decoding = 'encoding';

  const toUnicode = loadToUnicode(dict, env, false);
  if (toUnicode) decoding = 'tounicode';

  const chars = new Uint8Array(256);
  const bad = new Uint8Array(256);
  const cps = new Int32Array(256).fill(-1);
  for (let c = 0; c < 256; c++) {
    let cls: CodeClass = -1;
    const mapped = toUnicode ? toUnicode.get(c) : -1;
    if (mapped >= 0) cls = mapped;
    else {
      const diff = differences ? differences[c] : undefined;
      const name = diff ?? (baseNames ? baseNames[c] : undefined);
      if (name !== undefined) cls = classifyGlyphName(name, dingbats);
      else if (base && base[c] >= 0) {
        cps[c] = base[c];
        cls = classifyCodepoint(base[c]);
      } else cls = CLASS_BAD;
      // MuPDF shows a Type3 glyph it cannot name as its code when that is printable ASCII
      if (isType3 && cls >>> 8 !== 0 && c > 0x20 && c < 0x7f) cls = CLASS_GOOD;
      // a space code whose glyph says nothing is still drawn as the word gap
      if (c === 32 && cls >>> 8 !== 0) cls = CLASS_SPACE;
    }
    chars[c] = cls & 0xff;
    bad[c] = (cls >>> 8) & 0xff;
  }

  const widths = simpleWidths(dict, r, desc, isType3, std, cps);
  const font = new SimpleFont(baseFont, subtype, decoding, chars, bad, widths, toUnicode?.swapped ? SWAPPED_WARNING : undefined);
  font.embedded = isType3 || fontFile instanceof PdfStream || fontFile2 instanceof PdfStream || fontFile3 instanceof PdfStream;
  font.toUnicodeState = toUnicodeState(dict, env, toUnicode);
  return font;
}

function std14Encoding(family: Std14Family): EncodingTable {
  if (family === 'Symbol') return symbolEncoding();
  if (family === 'ZapfDingbats') return zapfDingbatsEncoding();
  return standardEncoding();
}

/** /Differences: [code /name /name … code /name …] */
function readDifferences(enc: PdfDict, r: Resolver): (string | undefined)[] | null {
  const arr = getArray(r, enc, 'Differences');
  if (!arr) return null;
  const names = new Array<string | undefined>(256);
  let code = -1;
  // 256 codes, each with a name and maybe a code number before it: entries past 4096 are junk (a fact of the
  // format, not a tunable limit; the array itself is bounded by maxObjectElements)
  const n = Math.min(arr.length, 4096);
  for (let i = 0; i < n; i++) {
    const v = r.resolve(arr[i]);
    if (isNumber(v)) code = Math.floor(v);
    else if (typeof v === 'string') {
      if (code >= 0 && code < 256) names[code] = v;
      code++;
    }
  }
  return names;
}

function simpleWidths(
  dict: PdfDict,
  r: Resolver,
  desc: PdfDict | undefined,
  isType3: boolean,
  std: Std14 | undefined,
  cps: Int32Array,
): Float64Array {
  const out = new Float64Array(256);
  let scale = 0.001;
  if (isType3) {
    const m = getArray(r, dict, 'FontMatrix');
    const a = m ? r.resolve(m[0]) : undefined;
    scale = isNumber(a) ? Math.abs(a) : 0.001;
    if (scale > 1e3) scale = 1e3;
  }
  const widths = getArray(r, dict, 'Widths');
  const first = getNumber(r, dict, 'FirstChar') ?? 0;
  const missingRaw = getNumber(r, desc, 'MissingWidth');
  if (widths) {
    const missing = missingRaw ?? 0;
    for (let c = 0; c < 256; c++) {
      const i = c - first;
      const v = i >= 0 && i < widths.length ? r.resolve(widths[i]) : undefined;
      const w = isNumber(v) ? v : missing;
      out[c] = w * scale;
    }
    return out;
  }
  if (isType3) return out.fill(missingRaw !== undefined ? missingRaw * scale : 0);
  // a standard-14 font's own metrics where they hold the character (an OCR layer's invisible Helvetica is sized word
  // by word with Tz against them: rough widths put most of its boxes a tenth to a quarter off), else a rough figure
  const face = std14Face(std);
  for (let c = 0; c < 256; c++) {
    const cp = cps[c] >= 0 ? cps[c] : c;
    const w = face !== undefined ? std14Width(face, cp) : undefined;
    out[c] = (w ?? (missingRaw !== undefined && missingRaw > 0 && !std ? missingRaw : approxWidth(std?.family, std?.bold ?? false, cp))) * 0.001;
  }
  return out;
}

/**
 * The encoding in the cleartext part of an embedded Type1 program: 'standard' for `/Encoding StandardEncoding def`,
 * or the names its `dup <code> /<name> put` entries give. undefined when there is none to read.
 */
export function type1Encoding(s: PdfStream, r: Resolver, budget?: Budget): 'standard' | (string | undefined)[] | undefined {
  const len1 = s.dict.get('Length1');
  // only the cleartext part (the encoding) is read: at most /Length1 and a little, and never past maxType1Bytes
  const max = limitsOf(budget).maxType1Bytes;
  const cap = isNumber(len1) && len1 > 0 ? Math.min(len1 + 64, max) : max;
  const dec = r.decodeStream(s, cap);
  if (dec.outOfTime) budget?.checkTime('fonts');
  const d = dec.data;
  let end = d.length;
  if (isNumber(len1) && len1 > 0 && len1 < end) end = len1;
  const eexec = indexOf(d, 'eexec', 0, end);
  if (eexec >= 0) end = eexec;
  const at = indexOf(d, '/Encoding', 0, end);
  if (at < 0) return undefined;
  let p = at + 9;
  while (p < end && isWhite(d[p])) p++;
  if (startsWith(d, p, 'StandardEncoding')) return 'standard';
  const names = new Array<string | undefined>(256);
  let found = 0;
  // tokens: dup <code> /<name> put … up to the closing `def` (or `readonly def`)
  let prev1 = '';
  let prev2 = '';
  let prev3 = '';
  // a backstop: every token moves p forward, and the text is bounded by maxType1Bytes
  for (let guard = 0; p < end && guard < 8192; guard++) {
    while (p < end && isWhite(d[p])) p++;
    const start = p;
    if (d[p] === 47 /* / */) p++;
    while (p < end && !isWhite(d[p]) && d[p] !== 47 && d[p] !== 91 && d[p] !== 93 && d[p] !== 123 && d[p] !== 125) p++;
    if (p === start) p++;
    const tok = latin1Token(d, start, p, TOKEN_MAX);
    if (tok === 'put' && prev3 === 'dup' && prev1.startsWith('/')) {
      const code = Number(prev2);
      if (Number.isInteger(code) && code >= 0 && code < 256) {
        names[code] = prev1.slice(1);
        found++;
      }
    } else if (tok === 'def' || tok === 'readonly') break;
    prev3 = prev2;
    prev2 = prev1;
    prev1 = tok;
  }
  return found > 0 ? names : undefined;
}

/**
 * The built-in encoding of a bare CFF program (FontFile3 /Type1C), as glyph names per code: 'standard' when the
 * font uses the standard encoding, undefined when it cannot be read (CID-keyed, expert encodings, damage).
 * TeX fonts embedded this way (CMMI, CMSY…) place their glyphs at codes no PDF encoding names.
 */
export function cffEncoding(d: Uint8Array): 'standard' | (string | undefined)[] | undefined {
  try {
    return readCff(d);
  } catch {
    return undefined;
  }
}

function readCff(d: Uint8Array): 'standard' | (string | undefined)[] | undefined {
  const n = d.length;
  if (n < 4 || d[0] !== 1) return undefined;
  const card16 = (p: number) => (p + 1 < n ? (d[p] << 8) | d[p + 1] : -1);
  /** INDEX at p: its count, offset size and where its offsets and data begin; next = the byte after it */
  const index = (p: number) => {
    const count = card16(p);
    if (count < 0) return undefined;
    if (count === 0) return { count, offSize: 0, offsets: p + 2, data: p + 2, next: p + 2 };
    const offSize = d[p + 2];
    if (offSize < 1 || offSize > 4) return undefined;
    const offsets = p + 3;
    const data = offsets + (count + 1) * offSize - 1;
    const ix = { count, offSize, offsets, data, next: 0 };
    ix.next = data + offsetAt(ix, count);
    return ix.next <= n ? ix : undefined;
  };
  const offsetAt = (ix: { offSize: number; offsets: number }, k: number) => {
    let v = 0;
    const at = ix.offsets + k * ix.offSize;
    for (let i = 0; i < ix.offSize; i++) v = v * 256 + (d[at + i] ?? 0);
    return v;
  };
  const names = index(d[2]);
  if (!names) return undefined;
  const tops = index(names.next);
  if (!tops || tops.count < 1) return undefined;
  const strings = index(tops.next);
  if (!strings) return undefined;

  // Top DICT of the first font: charset (15), Encoding (16), CharStrings (17); ROS (12 30) means CID-keyed
  let charset = 0;
  let encoding = 0;
  let charStrings = -1;
  const ops: number[] = [];
  let p = tops.data + offsetAt(tops, 0);
  const end = Math.min(n, tops.data + offsetAt(tops, 1));
  while (p < end) {
    const b = d[p];
    if (b <= 21) {
      let op = b;
      p++;
      if (b === 12) op = 1200 + d[p++];
      if (op === 1230) return undefined;
      const v = ops.length ? ops[ops.length - 1] : 0;
      if (op === 15) charset = v;
      else if (op === 16) encoding = v;
      else if (op === 17) charStrings = v;
      ops.length = 0;
    } else if (b === 28) {
      ops.push(((d[p + 1] << 24) >> 16) | d[p + 2]);
      p += 3;
    } else if (b === 29) {
      ops.push((d[p + 1] << 24) | (d[p + 2] << 16) | (d[p + 3] << 8) | d[p + 4]);
      p += 5;
    } else if (b === 30) {
      // a real: nibbles up to an 0xf terminator; never an offset, so its value does not matter here
      p++;
      while (p < end && (d[p] & 0x0f) !== 0x0f && (d[p] & 0xf0) !== 0xf0) p++;
      p++;
      ops.push(0);
    } else if (b >= 32 && b <= 246) {
      ops.push(b - 139);
      p++;
    } else if (b >= 247 && b <= 250) {
      ops.push((b - 247) * 256 + d[p + 1] + 108);
      p += 2;
    } else if (b >= 251 && b <= 254) {
      ops.push(-(b - 251) * 256 - d[p + 1] - 108);
      p += 2;
    } else p++;
    if (ops.length > 48) ops.length = 0;
  }
  if (encoding === 0) return 'standard';
  if (encoding === 1 || encoding < 0 || encoding >= n || charStrings <= 0) return undefined;
  const glyphs = index(charStrings);
  const nGlyphs = glyphs ? Math.min(glyphs.count, 65536) : 0;
  if (nGlyphs < 2) return undefined;

  const sidName = (sid: number): string | undefined => {
    if (sid < 391) return cffStandardString(sid);
    const k = sid - 391;
    if (k >= strings.count) return undefined;
    const from = strings.data + offsetAt(strings, k);
    const to = Math.min(strings.data + offsetAt(strings, k + 1), from + 64, n);
    return latin1Token(d, from, to, TOKEN_MAX);
  };
  // glyph → SID from the charset: 0 is ISOAdobe (GID = SID); 1 and 2 (expert sets) are not read
  const gidSid = new Int32Array(nGlyphs).fill(-1);
  if (charset === 0) for (let g = 0; g < nGlyphs && g <= 228; g++) gidSid[g] = g;
  else if (charset > 2 && charset < n) {
    const format = d[charset];
    let q = charset + 1;
    let g = 1;
    if (format === 0) {
      for (; g < nGlyphs && q + 1 < n; g++, q += 2) gidSid[g] = card16(q);
    } else if (format === 1 || format === 2) {
      while (g < nGlyphs && q + 2 < n) {
        const first = card16(q);
        const left = format === 1 ? d[q + 2] : card16(q + 2);
        q += format === 1 ? 3 : 4;
        for (let k = 0; k <= left && g < nGlyphs; k++) gidSid[g++] = first + k;
      }
    } else return undefined;
  } else return undefined;

  const out = new Array<string | undefined>(256);
  const format = d[encoding] & 0x7f;
  let q = encoding + 1;
  if (format === 0) {
    const nCodes = d[q++];
    for (let g = 1; g <= nCodes && q < n; g++, q++) if (g < nGlyphs && gidSid[g] >= 0) out[d[q]] = sidName(gidSid[g]);
  } else if (format === 1) {
    const nRanges = d[q++];
    let g = 1;
    for (let k = 0; k < nRanges && q + 1 < n; k++, q += 2) {
      const first = d[q];
      const left = d[q + 1];
      for (let c = first; c <= first + left && c < 256; c++, g++) if (g < nGlyphs && gidSid[g] >= 0) out[c] = sidName(gidSid[g]);
    }
  } else return undefined;
  if (d[encoding] & 0x80) {
    const nSups = d[q++];
    for (let k = 0; k < nSups && q + 2 < n; k++, q += 3) out[d[q]] = sidName(card16(q + 1));
  }
  return out;
}

function startsWith(d: Uint8Array, at: number, s: string): boolean {
  if (at + s.length > d.length) return false;
  for (let i = 0; i < s.length; i++) if (d[at + i] !== s.charCodeAt(i)) return false;
  return true;
}
function indexOf(d: Uint8Array, s: string, from: number, to: number): number {
  const first = s.charCodeAt(0);
  const last = to - s.length;
  for (let i = from; i <= last; i++) if (d[i] === first && startsWith(d, i, s)) return i;
  return -1;
}
/** the longest token read as a string, bytes (tokens here are names and numbers; longer ones are junk) */
const TOKEN_MAX = 128;

// ---------------------------------------------------------------------------------------------------------------
// Composite (Type0) fonts

/** How a composite font's codes decode when ToUnicode does not say. */
const MODE_NONE = 0;
const MODE_UNICODE = 1; // the code is Unicode (UCS2/UTF16/UTF32/UTF8 CMaps)
const MODE_LEGACY = 2; // a national multi-byte encoding decoded through its collection
const MODE_SINGLE = 3; // one-byte predefined CMaps (Hankaku, Roman…)
const MODE_COLLECTION = 4; // CIDs of a known Adobe collection (Identity or embedded CMap)

/** CIDs that are spaces in each Adobe collection (proportional, half-width, ideographic), and its last CID. */
const COLLECTIONS: Record<string, { spaces: number[]; max: number }> = {
  Japan1: { spaces: [1, 231, 633], max: 23059 },
  GB1: { spaces: [1, 96, 7716], max: 30283 },
  CNS1: { spaces: [1, 99, 13648], max: 19178 },
  Korea1: { spaces: [1, 101, 8094], max: 18351 },
  KR: { spaces: [1], max: 22896 },
};

/** /W or /W2 as sorted segments: CIDs start..end take `value`, or values[index + (cid − start)] when index ≥ 0. */
class WidthTable {
  private start: Float64Array;
  private end: Float64Array;
  private value: Float64Array;
  private index: Int32Array;
  private values: Float64Array;

  constructor(arr: PdfValue[] | undefined, r: Resolver, vertical: boolean, budget: Budget) {
    const starts: number[] = [];
    const ends: number[] = [];
    const vals: number[] = [];
    const idx: number[] = [];
    const flat: number[] = [];
    const step = vertical ? 3 : 1; // W2 arrays hold w1y vx vy per CID; only w1y matters
    if (arr) {
      const n = arr.length;
      let i = 0;
      let work = 0;
      const maxSegments = budget.limits.maxWidthSegments;
      const maxValues = budget.limits.maxWidthValues;
      while (i < n && starts.length < maxSegments) {
        if (++work === CLOCK_EVERY) {
          work = 0;
          budget.checkTime('fonts');
        }
        const a = r.resolve(arr[i]);
        if (!isNumber(a)) {
          i++;
          continue;
        }
        const b = i + 1 < n ? r.resolve(arr[i + 1]) : undefined;
        if (Array.isArray(b)) {
          const first = Math.floor(a);
          const at = flat.length;
          let count = 0;
          for (let k = 0; k + step - 1 < b.length && flat.length < maxValues; k += step) {
            if (++work === CLOCK_EVERY) {
              work = 0;
              budget.checkTime('fonts');
            }
            const w = r.resolve(b[k]);
            flat.push(isNumber(w) ? w : NaN);
            count++;
          }
          if (count > 0) {
            starts.push(first);
            ends.push(first + count - 1);
            vals.push(0);
            idx.push(at);
          }
          i += 2;
        } else if (isNumber(b)) {
          const w = i + 2 < n ? r.resolve(arr[i + 2]) : undefined;
          if (isNumber(w) && b >= a) {
            starts.push(Math.floor(a));
            ends.push(Math.floor(b));
            vals.push(w);
            idx.push(-1);
          }
          i += 2 + step;
        } else i++;
      }
    }
    const order = starts.map((_, k) => k).sort((x, y) => starts[x] - starts[y] || x - y);
    const m = order.length;
    this.start = new Float64Array(m);
    this.end = new Float64Array(m);
    this.value = new Float64Array(m);
    this.index = new Int32Array(m);
    for (let k = 0; k < m; k++) {
      const o = order[k];
      this.start[k] = starts[o];
      this.end[k] = ends[o];
      this.value[k] = vals[o];
      this.index[k] = idx[o];
    }
    this.values = Float64Array.from(flat);
  }

  get bytes(): number {
    return 200 + this.start.length * 28 + this.values.byteLength;
  }

  /** the width of a CID, or NaN when the table does not give one */
  get(cid: number): number {
    const s = this.start;
    let a = 0;
    let b = s.length - 1;
    let found = -1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (s[mid] <= cid) {
        found = mid;
        a = mid + 1;
      } else b = mid - 1;
    }
    for (let k = found, steps = 0; k >= 0 && steps < 8; k--, steps++) {
      if (cid <= this.end[k]) {
        const ix = this.index[k];
        return ix < 0 ? this.value[k] : this.values[ix + (cid - s[k])];
      }
    }
    return NaN;
  }
}

class CompositeFont implements LoadedFont {
  decoding: FontEvidence['decoding'] = 'none';
  vertical = false;
  bytes = 0;
  warning: string | undefined;
  embedded?: boolean;
  toUnicodeState?: FontEvidence['toUnicode'];

  // codespace: 1-byte codes by flag, longer ones by numeric ranges (MuPDF's matching: shortest length first)
  private oneByte = new Uint8Array(256);
  private lo2: number[] = [];
  private hi2: number[] = [];
  private lo3: number[] = [];
  private hi3: number[] = [];
  private lo4: number[] = [];
  private hi4: number[] = [];
  /** Identity-like: every pair of bytes is a code */
  private fixed2 = false;

  toUnicode: UnicodeLookup | null = null;
  cidMaps: CidMap[] = [];
  predefined: PredefinedCMap | undefined;
  mode = MODE_NONE;
  ordering = '';
  /** codes no CID map defines are their own CID (Identity, usecmap Identity, or an embedded CMap without CID entries) */
  identityFallback = true;
  widths!: WidthTable;
  /** default advance in text space units */
  dw = 1;

  // per-code caches: class (-1 = not yet computed) and advance
  private cls1 = new Int32Array(256).fill(-1);
  private w1 = new Float64Array(256);
  private clsPages = new Array<Int32Array | undefined>(256);
  private wPages = new Array<Float64Array | undefined>(256);
  private bigCls = new Map<number, number>();
  private bigW = new Map<number, number>();
  private pagesHeld = 0;
  /**
   * 256-code pages of 2-byte codes cached (3 KB each; maxCodePagesPerFont). Codes past them are looked up each time
   * they are shown, a little slower; a subset font's codes rarely spread over more.
   */
  private readonly maxPages: number;
  /** 3- and 4-byte codes whose class is cached, each a Map entry in two Maps (maxLongCodesCached) */
  private readonly maxBig: number;
  /** advance of the code last looked up */
  private lastWidth = 0;

  constructor(
    readonly baseFont: string,
    readonly subtype: string,
    limits: Pick<AnalyzerOptions, 'maxCodePagesPerFont' | 'maxLongCodesCached'>,
  ) {
    this.maxPages = limits.maxCodePagesPerFont;
    this.maxBig = limits.maxLongCodesCached;
  }

  setCodespace(ranges: CodespaceRange[]): void {
    for (const cr of ranges) {
      if (cr.len === 1) for (let b = cr.lo; b <= cr.hi && b < 256; b++) this.oneByte[b] = 1;
      else if (cr.len === 2) {
        this.lo2.push(cr.lo);
        this.hi2.push(cr.hi);
      } else if (cr.len === 3) {
        this.lo3.push(cr.lo);
        this.hi3.push(cr.hi);
      } else if (cr.len === 4) {
        this.lo4.push(cr.lo);
        this.hi4.push(cr.hi);
      }
    }
    let anyOne = false;
    for (let b = 0; b < 256; b++) if (this.oneByte[b]) anyOne = true;
    this.fixed2 = !anyOne && this.lo2.length > 0 && this.lo2.some((lo, k) => lo === 0 && this.hi2[k] >= 0xffff);
  }

  /**
   * The font's size as charged: its tables and maps, plus the most its per-code caches can grow to (they fill as
   * codes are shown, after the font is charged): a 256-code page of class and advance per 2-byte page the codespace
   * reaches, and the 3/4-byte cache at its cap.
   */
  estimateBytes(): number {
    let n = 4000 + (this.lo2.length + this.lo3.length + this.lo4.length) * 16;
    const tu = this.toUnicode;
    if (tu && tu.bytes) n += tu.bytes;
    for (const m of this.cidMaps) n += m.bytes;
    n += this.widths.bytes;
    let pages = 0;
    if (this.fixed2) pages = 256;
    else {
      const seen = new Uint8Array(256);
      for (let k = 0; k < this.lo2.length; k++) for (let p = this.lo2[k] >> 8; p <= this.hi2[k] >> 8 && p < 256; p++) seen[p] = 1;
      for (let p = 0; p < 256; p++) pages += seen[p];
    }
    n += Math.min(pages, this.maxPages) * (256 * 4 + 256 * 8 + 64);
    if (this.lo3.length + this.lo4.length > 0) n += this.maxBig * 2 * 80;
    return n;
  }

  tally(bytes: Uint8Array, out: TextTally): void {
    const n = bytes.length;
    let chars = 0;
    let bad = 0;
    let glyphs = 0;
    let sp = 0;
    let w = 0;
    let i = 0;
    if (this.fixed2) {
      for (; i + 1 < n; i += 2) {
        const code = (bytes[i] << 8) | bytes[i + 1];
        const page = this.clsPages[code >> 8];
        let cls = page ? page[code & 0xff] : -1;
        if (cls < 0) {
          cls = this.lookup(code, 2);
          w += this.lastWidth;
        } else w += this.wPages[code >> 8]![code & 0xff];
        chars += cls & 0xff;
        bad += (cls >>> 8) & 0xff;
        glyphs++;
      }
      if (i < n) {
        // a dangling odd byte reads as code 0, as in MuPDF
        const cls = this.single(0);
        chars += cls & 0xff;
        bad += (cls >>> 8) & 0xff;
        glyphs++;
        w += this.lastWidth;
      }
    } else {
      while (i < n) {
        const b0 = bytes[i];
        let len = 0;
        let code = 0;
        if (this.oneByte[b0]) {
          len = 1;
          code = b0;
        } else {
          len = this.match(bytes, i, n);
          if (len > 0) {
            code = b0;
            for (let k = 1; k < len; k++) code = code * 256 + bytes[i + k];
          }
        }
        let cls: number;
        if (len === 0) {
          // outside every codespace range: MuPDF takes one byte as code 0 (which most CMaps leave unmapped)
          cls = this.single(0);
          w += this.lastWidth;
          len = 1;
        } else if (len === 1) {
          cls = this.single(code);
          w += this.lastWidth;
          if (code === 32) sp++;
        } else if (len === 2) {
          const page = this.clsPages[code >> 8];
          cls = page ? page[code & 0xff] : -1;
          if (cls < 0) {
            cls = this.lookup(code, 2);
            w += this.lastWidth;
          } else w += this.wPages[code >> 8]![code & 0xff];
        } else {
          const cached = this.bigCls.get(code);
          if (cached !== undefined) {
            cls = cached;
            w += this.bigW.get(code)!;
          } else {
            cls = this.lookup(code, len);
            w += this.lastWidth;
          }
        }
        chars += cls & 0xff;
        bad += (cls >>> 8) & 0xff;
        glyphs++;
        i += len;
      }
    }
    out.chars += chars;
    out.bad += bad;
    out.glyphs += glyphs;
    out.spaceCodes += sp;
    out.width += w;
  }

  codeLength(bytes: Uint8Array, i: number): number {
    const n = bytes.length;
    if (this.fixed2) return i + 1 < n ? 2 : 1;
    if (this.oneByte[bytes[i]]) return 1;
    return this.match(bytes, i, n) || 1;
  }

  tallyCode(bytes: Uint8Array, i: number, n: number, out: TextTally): void {
    this.tally(codeBytes(bytes, i, n), out);
  }

  /** class of a one-byte code; its advance goes to lastWidth */
  private single(code: number): number {
    const cls = this.cls1[code];
    if (cls < 0) return this.lookup(code, 1);
    this.lastWidth = this.w1[code];
    return cls;
  }

  /** length (2–4) of the multi-byte code starting at i, or 0 */
  private match(bytes: Uint8Array, i: number, n: number): number {
    if (i + 1 >= n) return 0;
    let c = (bytes[i] << 8) | bytes[i + 1];
    for (let k = 0; k < this.lo2.length; k++) if (c >= this.lo2[k] && c <= this.hi2[k]) return 2;
    if (i + 2 >= n) return 0;
    c = c * 256 + bytes[i + 2];
    for (let k = 0; k < this.lo3.length; k++) if (c >= this.lo3[k] && c <= this.hi3[k]) return 3;
    if (i + 3 >= n) return 0;
    c = c * 256 + bytes[i + 3];
    for (let k = 0; k < this.lo4.length; k++) if (c >= this.lo4[k] && c <= this.hi4[k]) return 4;
    return 0;
  }

  /** computes, caches and returns a code's class; its advance goes to lastWidth */
  private lookup(code: number, len: number): number {
    let cls: number;
    let w: number;
    if (this.isMapped(code, len)) {
      // with a ToUnicode map, MuPDF does not consult the collection: codes the map lacks do not decode
      cls = this.toUnicode ? this.toUnicode.get(code) : this.fallbackClass(code, len);
      if (cls < 0) cls = CLASS_BAD;
      w = this.advance(code);
    } else {
      // MuPDF skips a code its encoding CMap does not map: no character, no advance
      cls = CLASS_SPACE;
      w = 0;
    }
    this.lastWidth = w;
    if (len === 1) {
      this.cls1[code] = cls;
      this.w1[code] = w;
    } else if (len === 2) {
      const p = code >> 8;
      let page = this.clsPages[p];
      if (!page && this.pagesHeld < this.maxPages) {
        this.pagesHeld++;
        page = this.clsPages[p] = new Int32Array(256).fill(-1);
        this.wPages[p] = new Float64Array(256);
      }
      if (page) {
        page[code & 0xff] = cls;
        this.wPages[p]![code & 0xff] = w;
      }
    } else if (this.bigCls.size < this.maxBig) {
      this.bigCls.set(code, cls);
      this.bigW.set(code, w);
    }
    return cls;
  }

  /** whether the encoding CMap maps the code to a CID at all (for predefined CMaps: the codes they are known to map) */
  private isMapped(code: number, len: number): boolean {
    for (const m of this.cidMaps) if (m.lookup(code) >= 0) return true;
    if (this.identityFallback) return true;
    const p = this.predefined;
    if (!p || p.kind === 'identity') return false;
    if (p.kind === 'legacy' || p.kind === 'single') {
      return len > 1 || (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xdf);
    }
    const cp = unicodeOfCode(p.kind, code, len);
    return cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0) && !(cp >= 0xe000 && cp <= 0xf8ff);
  }

  private cidOf(code: number): number {
    for (const m of this.cidMaps) {
      const cid = m.lookup(code);
      if (cid >= 0) return cid;
    }
    return this.identityFallback ? code : -1;
  }

  private fallbackClass(code: number, len: number): CodeClass {
    switch (this.mode) {
      case MODE_UNICODE:
        return classifyCodepoint(unicodeOfCode(this.predefined!.kind, code, len));
      case MODE_LEGACY:
        if (len === 1) return code === 0x20 ? CLASS_SPACE : CLASS_GOOD;
        return code === this.predefined!.ideographicSpace ? CLASS_SPACE : CLASS_GOOD;
      case MODE_SINGLE:
        return code === 0x20 ? CLASS_SPACE : CLASS_GOOD;
      case MODE_COLLECTION: {
        const info = COLLECTIONS[this.ordering];
        const cid = this.cidOf(code);
        if (cid <= 0 || cid > info.max) return CLASS_BAD;
        return info.spaces.includes(cid) ? CLASS_SPACE : CLASS_GOOD;
      }
      default:
        return CLASS_BAD;
    }
  }

  private advance(code: number): number {
    let cid = this.cidOf(code);
    const kind = this.predefined?.kind;
    // Unicode CMaps send ASCII to the proportional roman CIDs 1–95; other predefined CIDs are not known here
    if (cid < 0 && kind && kind !== 'identity' && kind !== 'legacy' && kind !== 'single' && code >= 0x20 && code < 0x7f) cid = code - 0x1f;
    if (cid >= 0) {
      const w = this.widths.get(cid);
      if (!isNaN(w)) return this.vertical ? Math.abs(w) / 1000 : w / 1000;
    }
    return this.dw;
  }
}

/** the Unicode code point a Unicode-encoding CMap's code stands for */
function unicodeOfCode(kind: string, code: number, len: number): number {
  if (kind === 'utf16' && len === 4) {
    const hi = Math.floor(code / 0x10000);
    const lo = code % 0x10000;
    return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
  }
  if (kind === 'utf8') {
    if (len === 1) return code;
    if (len === 2) return (((code >> 8) & 0x1f) << 6) | (code & 0x3f);
    if (len === 3) return (((code >> 16) & 0x0f) << 12) | (((code >> 8) & 0x3f) << 6) | (code & 0x3f);
    const b0 = Math.floor(code / 0x1000000);
    return ((b0 & 0x07) << 18) | (((code >> 16) & 0x3f) << 12) | (((code >> 8) & 0x3f) << 6) | (code & 0x3f);
  }
  return code;
}

function pdfText(v: PdfValue | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) {
    let s = '';
    for (let i = 0; i < v.length && i < 64; i++) s += String.fromCharCode(v[i]);
    return s;
  }
  return undefined;
}

function loadComposite(dict: PdfDict, env: FontEnv, baseFont: string, subtype: string): LoadedFont {
  const r = env.r;
  const limits = env.budget.limits;
  const font = new CompositeFont(baseFont, subtype, limits);

  // the encoding CMap: predefined name, or an embedded stream (possibly built on another through usecmap)
  let codespace: CodespaceRange[] = [];
  let predefined: PredefinedCMap | undefined;
  let vertical = false;
  let embedded = false;
  let enc: PdfValue | undefined = subtype === 'Type0' ? r.resolve(dict.get('Encoding')) : 'Identity-H';
  for (let depth = 0; depth < limits.maxCMapChain && enc !== undefined; depth++) {
    if (typeof enc === 'string') {
      predefined = predefinedCMap(enc);
      if (predefined && predefined.vertical && !embedded) vertical = true;
      break;
    }
    if (!(enc instanceof PdfStream)) break;
    embedded = true;
    const cm = env.cmap(enc);
    if (!codespace.length) codespace = cm.codespace;
    if (cm.cids) font.cidMaps.push(cm.cids);
    if (depth === 0 && cm.wmode === 1) vertical = true;
    const use = r.resolve(enc.dict.get('UseCMap'));
    enc = use !== undefined && use !== null ? use : cm.useCMap;
  }
  if (!codespace.length) codespace = predefined ? predefined.codespace : [{ len: 2, lo: 0, hi: 0xffff }];
  font.setCodespace(codespace);
  font.vertical = vertical;
  font.predefined = predefined;
  // an embedded CMap without CID entries of its own passes codes through; with them, codes it leaves out are
  // unmapped unless it builds on Identity
  font.identityFallback = predefined ? predefined.kind === 'identity' : font.cidMaps.length === 0;

  // the descendant CIDFont: widths and character collection
  let cidFont: PdfDict | undefined;
  if (subtype === 'Type0') {
    const desc = getArray(r, dict, 'DescendantFonts');
    const d0 = desc && desc.length ? r.resolve(desc[0]) : undefined;
    if (d0 instanceof PdfDict) cidFont = d0;
  } else cidFont = dict;
  const info = getDict(r, cidFont, 'CIDSystemInfo');
  const registry = pdfText(r.resolve(info?.get('Registry')));
  const ordering = pdfText(r.resolve(info?.get('Ordering')));

  if (vertical) {
    const dw2 = getArray(r, cidFont, 'DW2');
    const w1y = dw2 && dw2.length >= 2 ? r.resolve(dw2[1]) : undefined;
    font.dw = isNumber(w1y) && w1y !== 0 ? Math.abs(w1y) / 1000 : 1;
    font.widths = new WidthTable(getArray(r, cidFont, 'W2'), r, true, env.budget);
  } else {
    const dw = getNumber(r, cidFont, 'DW');
    font.dw = dw !== undefined ? dw / 1000 : 1;
    font.widths = new WidthTable(getArray(r, cidFont, 'W'), r, false, env.budget);
  }

  // decoding
  if (predefined && predefined.kind !== 'identity') {
    font.predefined = predefined;
    font.mode = predefined.kind === 'legacy' ? MODE_LEGACY : predefined.kind === 'single' ? MODE_SINGLE : MODE_UNICODE;
  } else {
    const coll = predefined?.ordering || (registry === 'Adobe' && ordering ? ordering : '');
    if (coll && Object.hasOwn(COLLECTIONS, coll)) {
      font.mode = MODE_COLLECTION;
      font.ordering = coll;
    }
  }
  font.toUnicode = loadToUnicode(dict, env, true);
  if (font.toUnicode?.swapped) font.warning = SWAPPED_WARNING;
  if (!font.toUnicode && r.resolve(dict.get('ToUnicode')) instanceof PdfStream) {
    // MuPDF consults the collection only when there is no ToUnicode stream at all: an empty or unreadable one
    // leaves every code undecoded
    font.mode = MODE_NONE;
  }
  font.decoding = font.toUnicode ? 'tounicode' : font.mode !== MODE_NONE ? 'predefined-cmap' : 'none';
  font.embedded = hasFontProgram(r, getDict(r, cidFont, 'FontDescriptor'));
  font.toUnicodeState = toUnicodeState(dict, env, font.toUnicode);
  font.bytes = font.estimateBytes();
  return font;
}
