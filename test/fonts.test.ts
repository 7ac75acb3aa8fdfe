import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PdfDict, PdfStream, PdfValue, Resolver } from '../src/analyzer/objects';
import { FontCache, cffEncoding, loadFont, newTally, standard14, type TextTally } from '../src/analyzer/fonts';
import { cmapBytes, parseCMap, predefinedCMap, toUnicodeMap } from '../src/analyzer/cmap';
import { DEFAULT_OPTIONS } from '../src/analyzer/options';
import { Budget, BudgetExhausted } from '../src/analyzer/budget';
import { cffStandardString, classifyGlyphName, classifyCodepoint, CLASS_BAD, CLASS_GOOD, CLASS_SPACE } from '../src/analyzer/encodings';

// ---- helpers -------------------------------------------------------------------------------------------------------

type Spec = PdfValue | { [k: string]: Spec } | Spec[];

/** Plain objects become dictionaries, JS strings are names (as in the object model), arrays recurse. */
function d(spec: { [k: string]: Spec }): PdfDict {
  const out = new PdfDict();
  for (const [k, v] of Object.entries(spec)) out.set(k, val(v));
  return out;
}
function val(v: Spec): PdfValue {
  if (Array.isArray(v)) return v.map(val);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array) && !(v instanceof PdfDict) && !(v instanceof PdfStream) && !('num' in v)) {
    return d(v);
  }
  return v as PdfValue;
}
/** a PDF string */
function str(s: string): Uint8Array {
  return new Uint8Array(Array.from(s, (c) => c.charCodeAt(0) & 0xff));
}
function hex(h: string): Uint8Array {
  const clean = h.replace(/\s+/g, '');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}
function stream(text: string, dict: { [k: string]: Spec } = {}): PdfStream {
  return new PdfStream(d(dict), str(text), undefined);
}

let decodes = 0;
const R: Resolver = {
  resolve: (v) => v,
  decodeStream: (s) => {
    decodes++;
    return { data: s.raw, truncated: false };
  },
};

function tally(fontDict: PdfDict, bytes: Uint8Array): TextTally {
  const t = newTally();
  loadFont(fontDict, R).tally(bytes, t);
  return t;
}
function close(a: number, b: number, eps = 1e-9): boolean {
  return Math.abs(a - b) < eps;
}

const cmapHead = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n';
const cmapTail = '\nendcmap CMapName currentdict /CMap defineresource pop end end\n';

// ---- simple fonts ----------------------------------------------------------------------------------------------------

test('WinAnsi + Differences: names decode, unknown names are bad, widths come from /Widths', () => {
  const font = d({
    Type: 'Font',
    Subtype: 'Type1',
    BaseFont: 'ABCDEF+Minion',
    FirstChar: 32,
    Widths: [250, ...Array.from({ length: 95 }, () => 500)],
    Encoding: { Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [65, 'g12', 'a.sc', 'fi', 'uni0042', 'f_l', 'Aogonek', 'afii10017'] },
  });
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'encoding');
  assert.equal(f.vertical, false);
  // A→g12 (bad), B→a.sc, C→fi (2), D→uni0042, E→f_l (2), F→Aogonek, G→afii10017, H (WinAnsi), space, é (0xE9 WinAnsi)
  const t = tally(font, str('ABCDEFGH \xe9'));
  assert.equal(t.glyphs, 10);
  assert.equal(t.chars, 1 + 1 + 2 + 1 + 2 + 1 + 1 + 1 + 0 + 1);
  assert.equal(t.bad, 1);
  assert.equal(t.spaceCodes, 1);
  // 8 letters at 500, the space at 250, 0xE9 outside FirstChar..LastChar → MissingWidth 0
  assert.ok(close(t.width, 8 * 0.5 + 0.25));
});

test('WinAnsi: unused codes are bullets, 0xA0 is a space, controls are bad', () => {
  const font = d({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'Arial', Encoding: 'WinAnsiEncoding' });
  const t = tally(font, hex('7f 81 a0 0a 41'));
  assert.equal(t.chars, 4); // bullet, bullet, (space), control, A
  assert.equal(t.bad, 1);
});

test("standard-14 without encoding: StandardEncoding, rung standard14, each face's own widths", () => {
  const helv = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' });
  const f = loadFont(helv, R);
  assert.equal(f.decoding, 'standard14');
  // 0xAE is fi in StandardEncoding (2 chars), 0x27 quoteright, 0xF0 has no glyph
  const t = tally(helv, hex('41 ae 27 f0 20'));
  assert.equal(t.chars, 5);
  assert.equal(t.bad, 1);
  // A 667 + fi 500 + quoteright 222 + space 278 (the missing glyph's rough figure beside them)
  assert.ok(t.width > 1.5 && t.width < 3.5, `width ${t.width}`);
  // Helvetica's own advances, not a rough 500 a small letter: i and l 222, m 833, space 278 (an OCR layer's words are
  // scaled to their boxes against these, so rough ones put most of its boxes a tenth to a quarter off)
  assert.ok(close(tally(helv, str('ill mm')).width, 3 * 0.222 + 0.278 + 2 * 0.833), `${tally(helv, str('ill mm')).width}`);
  const boldHelv = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Arial,Bold' });
  assert.ok(close(tally(boldHelv, str('ill mm')).width, 3 * 0.278 + 0.278 + 2 * 0.889));
  // Times' italic faces have widths of their own (W 833 against the roman's 944)
  const times = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Times-Roman' });
  const italic = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'TimesNewRomanPS-ItalicMT' });
  assert.ok(close(tally(times, str('W')).width, 0.944));
  assert.ok(close(tally(italic, str('W')).width, 0.833));
  const courier = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'CourierNewPS-BoldMT' });
  assert.equal(loadFont(courier, R).decoding, 'standard14');
  assert.ok(close(tally(courier, str('abc d')).width, 3.0));
  // aliases
  assert.deepEqual(standard14('Arial,Bold'), { family: 'Helvetica', bold: true, italic: false });
  assert.deepEqual(standard14('TimesNewRomanPS-ItalicMT'), { family: 'Times', bold: false, italic: true });
  assert.deepEqual(standard14('Helvetica-BoldOblique'), { family: 'Helvetica', bold: true, italic: true });
  assert.equal(standard14('ArialNarrow'), undefined);
  assert.equal(standard14('Garamond'), undefined);
});

test('Symbol and ZapfDingbats use their own built-in encodings', () => {
  const sym = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Symbol' });
  assert.equal(loadFont(sym, R).decoding, 'standard14');
  // a→alpha, b→beta, 0xB5 proportional, space, 0xF0 (Apple logo: nothing readable)
  const t = tally(sym, hex('61 62 b5 20 f0'));
  assert.equal(t.chars, 4);
  assert.equal(t.bad, 1);
  const zapf = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'ZapfDingbats' });
  const z = tally(zapf, hex('21 33 20 a1 ff'));
  assert.equal(z.chars, 4);
  assert.equal(z.bad, 1); // 0xFF has no dingbat
});

test('non-symbolic font without /Encoding falls back to StandardEncoding; code 32 stays a space', () => {
  const font = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Garamond', FontDescriptor: { Flags: 32 } });
  assert.equal(loadFont(font, R).decoding, 'encoding');
  assert.deepEqual(pick(tally(font, str('Hi there'))), { chars: 7, bad: 0, spaceCodes: 1 });
  const undecodable = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'X', Encoding: { Differences: [32, 'g3', 'g4'] } });
  assert.deepEqual(pick(tally(undecodable, hex('20 21 20'))), { chars: 1, bad: 1, spaceCodes: 2 });
});

function pick(t: TextTally) {
  return { chars: t.chars, bad: t.bad, spaceCodes: t.spaceCodes };
}

test('embedded TrueType without /Encoding: codes read as Latin-1 (MuPDF); C1 codes are bad', () => {
  const font = d({
    Type: 'Font',
    Subtype: 'TrueType',
    BaseFont: 'ABCDEF+Calibri',
    FontDescriptor: { Flags: 4, FontFile2: stream('not really a font') },
  });
  assert.equal(loadFont(font, R).decoding, 'encoding');
  const t = tally(font, hex('41 e9 ae 85 90 01'));
  assert.equal(t.chars, 6);
  assert.equal(t.bad, 3);
});

test('embedded Type1 program: the cleartext /Encoding array is used', () => {
  const program =
    '%!PS-AdobeFont-1.0: Foo\n/FontName /Foo def\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n' +
    'dup 1 /H put\ndup 2 /i put\ndup 3 /g7 put\ndup 4 /space put\nreadonly def\ncurrentfile eexec\n\x80\x81garbage';
  const font = d({
    Type: 'Font',
    Subtype: 'Type1',
    BaseFont: 'ABCDEF+Foo',
    FontDescriptor: { Flags: 4, FontFile: stream(program, { Length1: program.indexOf('eexec') + 6 }) },
  });
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'encoding');
  const t = tally(font, hex('01 02 04 03 41'));
  assert.equal(t.chars, 4); // H i (space) g7 A(no glyph)
  assert.equal(t.bad, 2);
});

/** A minimal bare CFF font: glyphs 1..n named by SIDs, placed at the given codes by a format-0 encoding. */
function tinyCff(glyphs: { sid: number; code: number }[], customStrings: string[] = []): Uint8Array {
  const out: number[] = [1, 0, 4, 1];
  const index = (items: number[][]) => {
    out.push(items.length >> 8, items.length & 0xff);
    if (!items.length) return;
    out.push(1);
    let off = 1;
    out.push(off);
    for (const it of items) out.push((off += it.length));
    for (const it of items) out.push(...it);
  };
  index([[70]]); // Name INDEX: "F"
  // Top DICT with fixed-size (int32) offsets patched below: charset (15), Encoding (16), CharStrings (17)
  const top = [29, 0, 0, 0, 0, 15, 29, 0, 0, 0, 0, 16, 29, 0, 0, 0, 0, 17];
  index([top]);
  const topAt = out.length - top.length;
  index(customStrings.map((s) => Array.from(s, (c) => c.charCodeAt(0))));
  index([]); // Global Subr INDEX
  const put32 = (at: number, v: number) => {
    out[at] = (v >>> 24) & 0xff;
    out[at + 1] = (v >>> 16) & 0xff;
    out[at + 2] = (v >>> 8) & 0xff;
    out[at + 3] = v & 0xff;
  };
  put32(topAt + 1, out.length);
  out.push(0, ...glyphs.flatMap((g) => [g.sid >> 8, g.sid & 0xff])); // charset format 0
  put32(topAt + 7, out.length);
  out.push(0, glyphs.length, ...glyphs.map((g) => g.code)); // encoding format 0
  put32(topAt + 13, out.length);
  index(Array.from({ length: glyphs.length + 1 }, () => [14])); // CharStrings: endchar per glyph
  return new Uint8Array(out);
}

test('embedded CFF (FontFile3) without /Encoding: its built-in encoding and charset name the glyphs', () => {
  const sid = (name: string) => {
    for (let i = 0; i < 391; i++) if (cffStandardString(i) === name) return i;
    throw new Error(name);
  };
  const cff = tinyCff(
    [
      { sid: sid('A'), code: 0x0b },
      { sid: sid('ffi'), code: 0x0c },
      { sid: 391, code: 0x0d }, // first custom string: "alpha"
      { sid: 392, code: 0x0e }, // "g17"
    ],
    ['alpha', 'g17'],
  );
  const names = cffEncoding(cff);
  assert.ok(Array.isArray(names));
  assert.equal(names[0x0b], 'A');
  assert.equal(names[0x0d], 'alpha');
  const font = d({
    Type: 'Font',
    Subtype: 'Type1',
    BaseFont: 'ABCDEF+CMMI10',
    FontDescriptor: { Flags: 4, FontFile3: new PdfStream(d({ Subtype: 'Type1C' }), cff, undefined) },
  });
  assert.equal(loadFont(font, R).decoding, 'encoding');
  // A, ffi (3), alpha, g17 (bad), 0x41 (not in the font's encoding: bad)
  assert.deepEqual(pick(tally(font, hex('0b 0c 0d 0e 41'))), { chars: 7, bad: 2, spaceCodes: 0 });
  // damaged programs are no encoding at all
  assert.equal(cffEncoding(cff.slice(0, 20)), undefined);
  assert.equal(cffEncoding(new Uint8Array([1, 0, 4, 1, 0, 1, 4, 0, 0, 0, 9])), undefined);
});

test('ToUnicode wins over the encoding; codes it lacks fall back to the encoding', () => {
  const tu = stream(`${cmapHead}1 begincodespacerange <00> <FF> endcodespacerange
2 beginbfchar <41> <0058> <42> <FFFD> endbfchar
1 beginbfrange <61> <63> <00660066> endbfrange${cmapTail}`);
  const font = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding', ToUnicode: tu });
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'tounicode');
  // A→X, B→U+FFFD (bad), a,b,c→"ff","fg","fh" (2 each), C (WinAnsi fallback)
  const t = tally(font, str('ABabcC'));
  assert.equal(t.chars, 1 + 1 + 6 + 1);
  assert.equal(t.bad, 1);
});

test('Type3: names from /Differences, width through /FontMatrix', () => {
  const font = d({
    Type: 'Font',
    Subtype: 'Type3',
    FontBBox: [0, 0, 100, 100],
    FontMatrix: [0.01, 0, 0, 0.01, 0, 0],
    CharProcs: {},
    Encoding: { Type: 'Encoding', Differences: [1, 'a', 'g2', 'space'] },
    FirstChar: 1,
    LastChar: 3,
    Widths: [50, 60, 25],
  });
  const f = loadFont(font, R);
  assert.equal(f.subtype, 'Type3');
  assert.equal(f.decoding, 'encoding');
  const t = tally(font, hex('01 02 03 01'));
  assert.equal(t.chars, 3);
  assert.equal(t.bad, 1);
  assert.ok(close(t.width, (50 + 60 + 25 + 50) * 0.01));
  const noEncoding = d({ Type: 'Font', Subtype: 'Type3', FontMatrix: [0.001, 0, 0, 0.001, 0, 0], Widths: [] });
  assert.equal(loadFont(noEncoding, R).decoding, 'none');
});

test('whitespace is never counted: spaces, NBSP, tabs, ideographic space, zero-width space', () => {
  const tu = stream(`${cmapHead}1 begincodespacerange <0000> <FFFF> endcodespacerange
6 beginbfchar <0001> <0020> <0002> <00A0> <0003> <0009> <0004> <3000> <0005> <200B> <0006> <0041> endbfchar${cmapTail}`);
  const font = d({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: 'X',
    Encoding: 'Identity-H',
    ToUnicode: tu,
    DescendantFonts: [d({ Subtype: 'CIDFontType2' })],
  });
  const t = tally(font, hex('0001 0002 0003 0004 0005 0006'));
  assert.deepEqual(pick(t), { chars: 1, bad: 0, spaceCodes: 0 });
  assert.equal(t.glyphs, 6);
  assert.equal(classifyCodepoint(0x20), CLASS_SPACE);
  assert.equal(classifyCodepoint(0x3000), CLASS_SPACE);
  assert.equal(classifyCodepoint(0xe000), CLASS_BAD);
  assert.equal(classifyCodepoint(0x100000), CLASS_BAD);
  assert.equal(classifyCodepoint(0x9c), CLASS_BAD);
  assert.equal(classifyCodepoint(0xfb03), 3);
});

test('glyph names: suffixes, ligatures, uniXXXX/uXXXX, meaningless names', () => {
  assert.equal(classifyGlyphName('a.sc'), CLASS_GOOD);
  assert.equal(classifyGlyphName('f_f_i'), 3);
  assert.equal(classifyGlyphName('ffl'), 3);
  assert.equal(classifyGlyphName('uni20AC'), CLASS_GOOD);
  assert.equal(classifyGlyphName('uni00410042'), 2);
  assert.equal(classifyGlyphName('u1F600'), CLASS_BAD); // MuPDF keeps 16 bits per simple-font code: U+F600 is private use
  assert.equal(classifyGlyphName('uniE000'), CLASS_BAD);
  assert.equal(classifyGlyphName('space'), CLASS_SPACE);
  for (const name of ['g12', 'glyph3', 'cid55', 'index7', '.notdef', 'Asmall', 'xyzzy']) assert.equal(classifyGlyphName(name), CLASS_BAD, name);
  assert.equal(classifyGlyphName('a71', true), CLASS_GOOD);
});

// ---- composite fonts -------------------------------------------------------------------------------------------------

function type0(encoding: PdfValue, descendant: { [k: string]: Spec }, extra: { [k: string]: Spec } = {}): PdfDict {
  return d({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: 'ABCDEF+SomeCID',
    Encoding: encoding,
    DescendantFonts: [d({ Type: 'Font', Subtype: 'CIDFontType2', ...descendant })],
    ...extra,
  });
}

test('Type0 Identity-H with ToUnicode: bfrange array form, ligature target, surrogate pair', () => {
  const tu = stream(`${cmapHead}/CMapName /Adobe-Identity-UCS def
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0003> <0020> <0010> <00660069> endbfchar
2 beginbfrange <0024> <0026> <0041>
<0030> <0032> [<0061> <FB01> <D835DC00>] endbfrange${cmapTail}`);
  const font = type0(
    'Identity-H',
    { CIDSystemInfo: { Registry: str('Adobe'), Ordering: str('Identity'), Supplement: 0 }, DW: 1000 },
    { ToUnicode: tu },
  );
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'tounicode');
  assert.equal(f.vertical, false);
  // A B C, space, "fi", a, ﬁ (2), 𝐀, then 0x0099 is not in the map → bad
  const t = tally(font, hex('0024 0025 0026 0003 0010 0030 0031 0032 0099'));
  assert.equal(t.glyphs, 9);
  assert.equal(t.chars, 3 + 0 + 2 + 1 + 2 + 1 + 1);
  assert.equal(t.bad, 1);
  assert.equal(t.spaceCodes, 0); // two-byte codes never take word spacing
  assert.ok(close(t.width, 9));
});

test('Type0 Identity-H without ToUnicode: every code is one bad character', () => {
  const font = type0('Identity-H', { CIDSystemInfo: { Registry: str('Adobe'), Ordering: str('Identity'), Supplement: 0 } });
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'none');
  const t = tally(font, hex('0024 0003 0101 00'));
  assert.deepEqual(pick(t), { chars: 4, bad: 4, spaceCodes: 0 });
  assert.equal(t.glyphs, 4); // the dangling byte is one more code
});

test('/ToUnicode /Identity-H on a Type0 font reads codes as Unicode (as MuPDF does); on a simple font it is ignored', () => {
  const named = type0('Identity-H', {}, { ToUnicode: 'Identity-H' });
  assert.equal(loadFont(named, R).decoding, 'tounicode');
  // 'A', 'ł', a space, U+E000 (private use), code 0 (nothing)
  assert.deepEqual(pick(tally(named, hex('0041 0142 0020 e000 0000'))), { chars: 4, bad: 2, spaceCodes: 0 });
  const simple = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding', ToUnicode: 'Identity-H' });
  assert.equal(loadFont(simple, R).decoding, 'encoding');
  assert.deepEqual(pick(tally(simple, hex('41 80'))), { chars: 2, bad: 0, spaceCodes: 0 }); // 0x80 is the euro in WinAnsi
});

test('Type0 Identity-H with an Adobe collection decodes through it (predefined-cmap)', () => {
  const font = type0('Identity-H', { CIDSystemInfo: { Registry: str('Adobe'), Ordering: str('Japan1'), Supplement: 6 } });
  assert.equal(loadFont(font, R).decoding, 'predefined-cmap');
  // CID 0 (notdef) bad, 1 space, 633 ideographic space, 1200 a kanji, 65535 beyond the collection
  const t = tally(font, hex('0000 0001 0279 04b0 ffff'));
  assert.deepEqual(pick(t), { chars: 3, bad: 2, spaceCodes: 0 });
});

test('Type0 with a ToUnicode map: codes it lacks do not decode, even in a known collection (as in MuPDF)', () => {
  const tu = stream(`${cmapHead}1 begincodespacerange <0000> <FFFF> endcodespacerange
1 beginbfchar <0024> <0041> endbfchar${cmapTail}`);
  const desc = { CIDSystemInfo: { Registry: str('Adobe'), Ordering: str('Japan1'), Supplement: 6 } };
  const font = type0('Identity-H', desc, { ToUnicode: tu });
  assert.equal(loadFont(font, R).decoding, 'tounicode');
  assert.deepEqual(pick(tally(font, hex('0024 04b0 0279'))), { chars: 3, bad: 2, spaceCodes: 0 });
  // an empty ToUnicode stream leaves nothing decodable
  const empty = type0('Identity-H', desc, { ToUnicode: stream(`${cmapHead}1 begincodespacerange <0000> <FFFF> endcodespacerange${cmapTail}`) });
  assert.equal(loadFont(empty, R).decoding, 'none');
  assert.deepEqual(pick(tally(empty, hex('0024 04b0'))), { chars: 2, bad: 2, spaceCodes: 0 });
});

test('ToUnicode targets that are empty or U+0000 count as unmapped (the encoding decides)', () => {
  const tu = stream(`${cmapHead}2 beginbfchar <41> <> <42> <0000> endbfchar 1 beginbfrange <43> <44> <0000> endbfrange${cmapTail}`);
  const font = d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding', ToUnicode: tu });
  // A, B, C fall back to WinAnsi; D maps to U+0001, a control
  assert.deepEqual(pick(tally(font, str('ABCD'))), { chars: 4, bad: 1, spaceCodes: 0 });
});

test('Type0 Identity-V is vertical and advances by /W2 and /DW2', () => {
  const font = type0('Identity-V', { DW2: [880, -1000], W2: [5, [-500, 250, 880], 10, 12, -800, 500, 880] });
  const f = loadFont(font, R);
  assert.equal(f.vertical, true);
  const t = tally(font, hex('0005 000b 0020'));
  assert.ok(close(t.width, 0.5 + 0.8 + 1.0), `${t.width}`);
});

test('widths: /W in both forms and /DW', () => {
  const font = type0('Identity-H', { DW: 600, W: [1, [100, 200, 300], 10, 20, 400, 30, [500]] });
  const t = tally(font, hex('0001 0002 0003 0004 000a 0014 0015 001e 001f'));
  assert.ok(close(t.width, (100 + 200 + 300 + 600 + 400 + 400 + 600 + 500 + 600) / 1000), `${t.width}`);
  const noDW = type0('Identity-H', {});
  assert.ok(close(tally(noDW, hex('0001 0002')).width, 2));
});

test('embedded CMap with a mixed 1/2-byte codespace splits codes and maps CIDs for widths', () => {
  const enc = stream(`${cmapHead}/CMapName /Mixed def
2 begincodespacerange <00> <7F> <8000> <FFFF> endcodespacerange
2 begincidrange <20> <7E> 1 <8000> <80FF> 100 endcidrange
1 begincidchar <8123> 500 endcidchar${cmapTail}`);
  const tu = stream(`${cmapHead}2 begincodespacerange <00> <7F> <8000> <FFFF> endcodespacerange
1 beginbfrange <41> <5A> <0041> endbfrange
2 beginbfchar <8001> <4E00> <8123> <4E01> endbfchar${cmapTail}`);
  const font = type0(enc, { W: [34, [500], 101, [700], 500, [900]], DW: 1000 }, { ToUnicode: tu });
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'tounicode');
  // A(1 byte) B(1 byte) 8001(2 bytes) 8123(2 bytes) 20(1 byte) 8002(2 bytes): the last two have no Unicode → bad
  // (in a composite font an unmapped 0x20 is a bad code like any other, as MuPDF reports it)
  const t = tally(font, hex('41 42 8001 8123 20 8002'));
  assert.equal(t.glyphs, 6);
  assert.equal(t.chars, 6);
  assert.equal(t.bad, 2);
  assert.equal(t.spaceCodes, 1);
  // CIDs: A→34 (500), B→35 (DW), 8001→101 (700), 8123→500 (900), space→1 (DW), 8002→102 (DW)
  assert.ok(close(t.width, (500 + 1000 + 700 + 900 + 1000 + 1000) / 1000), `${t.width}`);
  // a code the CMap does not map is skipped (as MuPDF does): 0x9000 is in the codespace but has no CID
  const skipped = tally(font, hex('9000'));
  assert.deepEqual(pick(skipped), { chars: 0, bad: 0, spaceCodes: 0 });
  assert.equal(skipped.width, 0);
});

test('an embedded CMap built on Identity-H (usecmap) passes codes it does not define through', () => {
  const enc = stream(`${cmapHead}/Identity-H usecmap
1 begincidrange <0100> <01FF> 5000 endcidrange${cmapTail}`);
  const font = type0(enc, { DW: 1000, W: [5000, [250], 66, [700]] });
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'none');
  const t = tally(font, hex('0100 0042'));
  assert.equal(t.glyphs, 2);
  assert.deepEqual(pick(t), { chars: 2, bad: 2, spaceCodes: 0 });
  assert.ok(close(t.width, 0.25 + 0.7), `${t.width}`); // CID 5000, and 0x42 = CID 66
});

test('predefined 90ms-RKSJ-H: one- and two-byte codes split by the Shift-JIS codespace', () => {
  const font = type0('90ms-RKSJ-H', { CIDSystemInfo: { Registry: str('Adobe'), Ordering: str('Japan1'), Supplement: 2 }, DW: 1000 });
  const f = loadFont(font, R);
  assert.equal(f.decoding, 'predefined-cmap');
  // A, space, ideographic space 8140, あ 82A0, half-width katakana B1, kanji 8A9F
  const t = tally(font, hex('41 20 8140 82a0 b1 8a9f'));
  assert.equal(t.glyphs, 6);
  assert.deepEqual(pick(t), { chars: 4, bad: 0, spaceCodes: 1 });
  assert.ok(close(t.width, 6));
  // bytes outside the codespace (FD FF) are taken one at a time and, unmapped, show nothing
  const stray = tally(font, hex('fd ff 41'));
  assert.equal(stray.glyphs, 3);
  assert.equal(stray.chars, 1);
});

test('predefined Unicode CMaps: UCS2 codes are Unicode, UTF16 surrogate pairs are one code', () => {
  const ucs2 = type0('UniJIS-UCS2-H', { DW: 1000, W: [1, 95, 500] });
  const t = tally(ucs2, hex('0041 3000 3042 0020'));
  assert.deepEqual(pick(t), { chars: 2, bad: 0, spaceCodes: 0 });
  assert.ok(close(t.width, 0.5 + 1 + 1 + 0.5)); // ASCII → proportional CIDs 1–95
  const utf16 = type0('UniGB-UTF16-V', { DW: 1000 });
  const f = loadFont(utf16, R);
  assert.equal(f.vertical, true);
  const u = tally(utf16, hex('d840dc0b 4e2d'));
  assert.equal(u.glyphs, 2);
  assert.equal(u.chars, 2);
});

test('predefined CMap facts', () => {
  assert.equal(predefinedCMap('GBK-EUC-H')?.ordering, 'GB1');
  assert.equal(predefinedCMap('KSCms-UHC-V')?.vertical, true);
  assert.equal(predefinedCMap('B5pc-H')?.codespace.length, 3);
  assert.equal(predefinedCMap('UniCNS-UTF8-H')?.kind, 'utf8');
  assert.equal(predefinedCMap('Identity-V')?.kind, 'identity');
  assert.equal(predefinedCMap('constructor-H'), undefined);
  assert.equal(predefinedCMap('Foo'), undefined);
});

// ---- robustness ------------------------------------------------------------------------------------------------------

test('hostile bfrange <0000> <FFFF> and thousands of full-plane ranges stay bounded', () => {
  const lines = ['1 begincodespacerange <0000> <FFFF> endcodespacerange', '1 beginbfrange <0000> <FFFF> <0041> endbfrange'];
  for (let i = 0; i < 50; i++) lines.push('100 beginbfrange ' + '<0000> <FFFF> <4E00> '.repeat(100) + 'endbfrange');
  lines.push('1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange');
  const data = str(cmapHead + lines.join('\n') + cmapTail);
  const parsed = parseCMap(data);
  assert.ok(parsed.unicode);
  assert.ok(parsed.truncated);
  assert.ok(parsed.unicode.assigned <= DEFAULT_OPTIONS.maxCMapCodes);
  assert.equal(parsed.unicode.dense.length, 0x10000);
  assert.equal(parsed.unicode.sparse, null); // the 4-byte range found the budget spent
  // the font built on it works and decodes
  const font = type0('Identity-H', {}, { ToUnicode: new PdfStream(new PdfDict(), data, undefined) });
  const t = tally(font, hex('0000 ffff 1234'));
  assert.deepEqual(pick(t), { chars: 3, bad: 0, spaceCodes: 0 });
});

test('a document font cache parses a shared ToUnicode stream once and keeps fonts per dictionary', () => {
  const tu = stream(`${cmapHead}1 beginbfchar <01> <0041> endbfchar${cmapTail}`);
  const f1 = d({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'A', ToUnicode: tu });
  const f2 = d({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'B', ToUnicode: tu });
  const budget = Budget.unbounded();
  const cache = new FontCache(R, budget, 1 << 20);
  const before = decodes;
  const a = cache.get(f1);
  cache.get(f2);
  assert.equal(cache.get(f1), a);
  assert.equal(decodes - before, 1);
  assert.equal(cache.size, 2);
  // what the cache holds is charged to the document's budget
  assert.ok(cache.heldBytes > 0);
  assert.equal(budget.held, cache.heldBytes);
});

// ---- limits: the clock, the memory account, byte-swapped maps ------------------------------------------------------

/** A simple font with its own ToUnicode stream mapping every 2-byte code (a large map: 65,536 codes). */
function bigMapFont(i: number): PdfDict {
  const tu = stream(`${cmapHead}1 begincodespacerange <0000> <FFFF> endcodespacerange\n1 beginbfrange <0000> <FFFF> <0041> endbfrange${cmapTail}`);
  return d({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: `F${i}`,
    Encoding: 'Identity-H',
    DescendantFonts: [d({ Subtype: 'CIDFontType2' })],
    ToUnicode: tu,
  });
}

test('font and CMap loading stop at the deadline with BudgetExhausted (not a best-effort font)', () => {
  const past = new Budget(Date.now() - 1);
  assert.throws(
    () => loadFont(bigMapFont(0), R, past),
    (e) => e instanceof BudgetExhausted && e.reason === 'budget-exceeded',
  );
  assert.deepEqual(past.exhausted, { reason: 'budget-exceeded', stage: 'fonts' });
  // deep inside a CMap: the parser looks at the clock every few thousand tokens and codes
  const lines: string[] = [];
  for (let i = 0; i < 2000; i++) lines.push(`<${(i * 16).toString(16).padStart(4, '0')}> <${(i * 16 + 15).toString(16).padStart(4, '0')}> <0041>`);
  const big = str(`${cmapHead}2000 beginbfrange\n${lines.join('\n')}\nendbfrange${cmapTail}`);
  const late = new Budget(Date.now() - 1);
  assert.throws(
    () => parseCMap(big, late),
    (e) => e instanceof BudgetExhausted && e.stage === 'cmap',
  );
  assert.ok(parseCMap(big, Budget.unbounded()).unicode);
});

test('the font cache stays within its bytes, evicting the least recently used; a font that cannot fit alone is a memory-limit', () => {
  const budget = Budget.unbounded();
  const cap = 1 << 20;
  const cache = new FontCache(R, budget, cap);
  const fonts = Array.from({ length: 40 }, (_, i) => bigMapFont(i));
  for (const f of fonts) {
    const font = cache.get(f);
    const t = newTally();
    font.tally(hex('0000 1234'), t);
    assert.deepEqual(pick(t), { chars: 2, bad: 0, spaceCodes: 0 });
    assert.ok(cache.heldBytes <= cap, `held ${cache.heldBytes}`);
  }
  assert.ok(cache.size < fonts.length, 'some fonts were evicted');
  assert.ok(budget.peakHeld <= cap);
  // each font charges its map and the per-code caches it may grow: more than a tiny cache can hold
  const tiny = new FontCache(R, budget, 64 * 1024);
  assert.throws(
    () => tiny.get(fonts[0]),
    (e) => e instanceof BudgetExhausted && e.reason === 'memory-limit',
  );
  assert.throws(
    () => tiny.get(fonts[0]),
    (e) => e instanceof BudgetExhausted && e.reason === 'memory-limit',
  );
  assert.equal(budget.exhausted?.reason, 'memory-limit');
});

test('a full-range cidrange or bfrange above 0xFFFF in a ToUnicode map stays one range', () => {
  const cm = str(`${cmapHead}1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange
1 begincidrange <00000000> <FFFFFFFF> 0 endcidrange
1 beginbfrange <00010000> <FFFFFFFF> <4E00> endbfrange
1 beginbfchar <00020000> <0041> endbfchar${cmapTail}`);
  const parsed = parseCMap(cm);
  assert.ok(cmapBytes(parsed) < 1 << 16, `bytes ${cmapBytes(parsed)}`);
  const m = toUnicodeMap(parsed);
  assert.ok(m);
  assert.equal(m.get(0x41), 1); // cid range: code 0x41 → U+0041
  assert.equal(m.get(0), -1); // U+0000 maps nothing
  assert.equal(m.get(0x10000), 1); // the bfrange (wins over the cid range)
  assert.equal(m.get(0x20000), 1); // bfchar
  assert.equal(m.get(0x10000 + 0xe000 - 0x4e00), 1 | (1 << 8)); // the range reaches private use: bad
});

/** bfchar lines mapping single-byte codes to `target(code)` */
function bfchars(codes: number[], target: (c: number) => number, width = 2): string {
  return `${codes.length} beginbfchar\n${codes.map((c) => `<${c.toString(16).padStart(width, '0')}> <${target(c).toString(16).padStart(4, '0')}>`).join('\n')}\nendbfchar`;
}
const LETTERS = Array.from('Thequickbrownfox', (c) => c.charCodeAt(0));

test('a ToUnicode map that byte-swaps ASCII (U+4100 for A) makes those codes undecodable', () => {
  const swapped = stream(`${cmapHead}${bfchars([...new Set(LETTERS)], (c) => c << 8)}${cmapTail}`);
  const font = d({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'Arial', Encoding: 'WinAnsiEncoding', ToUnicode: swapped });
  const f = loadFont(font, R);
  assert.match(f.warning ?? '', /byte-swapped/);
  // 'T' 'h' 'e' from the map are bad; 'Z' is not in the map and decodes through WinAnsi
  assert.deepEqual(pick(tally(font, str('TheZ'))), { chars: 4, bad: 3, spaceCodes: 0 });
  // the same on a composite font's 2-byte codes
  const t0 = type0('Identity-H', {}, { ToUnicode: stream(`${cmapHead}${bfchars([1, 2, 3, 4, 5, 6], (c) => (0x40 + c) << 8, 4)}${cmapTail}`) });
  assert.deepEqual(pick(tally(t0, hex('0001 0002 0003 0004'))), { chars: 4, bad: 4, spaceCodes: 0 });
});

test('genuine maps with a few U+XX00 code points are not byte-swapped', () => {
  // CJK: 一 (U+4E00), 且 (U+4E14)… three of eight end in 00, not most
  const cjk = [0x4e00, 0x4e14, 0x5b57, 0x6587, 0x6f22, 0x5b00, 0x8a9e, 0x6700];
  const t0 = type0('Identity-H', {}, { ToUnicode: stream(`${cmapHead}${bfchars([1, 2, 3, 4, 5, 6, 7, 8], (c) => cjk[c - 1], 4)}${cmapTail}`) });
  assert.equal(loadFont(t0, R).warning, undefined);
  assert.deepEqual(pick(tally(t0, hex('0001 0002 0003 0004 0005 0006 0007 0008'))), { chars: 8, bad: 0, spaceCodes: 0 });
  // a map of only U+XX00 targets, but all the same high byte: not the spread a swapped text gives
  const same = type0('Identity-H', {}, { ToUnicode: stream(`${cmapHead}${bfchars([1, 2, 3, 4, 5], () => 0x2500, 4)}${cmapTail}`) });
  assert.deepEqual(pick(tally(same, hex('0001 0002'))), { chars: 2, bad: 0, spaceCodes: 0 });
  // a correct Latin map
  const latin = d({
    Type: 'Font',
    Subtype: 'TrueType',
    BaseFont: 'Arial',
    ToUnicode: stream(`${cmapHead}${bfchars([...new Set(LETTERS)], (c) => c)}${cmapTail}`),
  });
  assert.deepEqual(pick(tally(latin, str('Thequick'))), { chars: 8, bad: 0, spaceCodes: 0 });
});

test('broken dictionaries never throw and give a best-effort font', () => {
  const cases: PdfDict[] = [
    d({}),
    d({ Subtype: 'Type0' }),
    d({ Subtype: 'Type0', Encoding: 42, DescendantFonts: 'nope' }),
    d({ Subtype: 'Type0', Encoding: stream('garbage <<<< >>>> [[[ (unterminated'), DescendantFonts: [d({ W: [1, 'x', [null], 5, 3, 7] })] }),
    d({ Subtype: 'Type1', Encoding: { Differences: 'x' }, Widths: 'bad', FirstChar: -5 }),
    d({ Subtype: 'Type3', FontMatrix: 'x', Encoding: { Differences: [300, 'a', -1, 'b'] } }),
    d({ Subtype: 'TrueType', ToUnicode: stream('begincmap 1 beginbfrange <0000> <FFFF> [ endbfrange beginbfchar <01>') }),
    d({ Subtype: 'Type1', FontDescriptor: { FontFile: stream('/Encoding 256 array dup 999 /A put dup x /B put') } }),
  ];
  for (const c of cases) {
    const f = loadFont(c, R);
    const t = newTally();
    f.tally(hex('00 01 41 20 ff fe'), t);
    assert.ok(t.glyphs >= 1 && Number.isFinite(t.width) && t.chars >= t.bad);
  }
  // a resolver that throws is survived too
  const throwing: Resolver = {
    resolve: () => {
      throw new Error('boom');
    },
    decodeStream: () => {
      throw new Error('boom');
    },
  };
  const f = loadFont(d({ Subtype: 'Type1', BaseFont: 'Helvetica' }), throwing);
  assert.equal(f.decoding, 'none');
  const t = newTally();
  f.tally(str('ab c'), t);
  assert.deepEqual(pick(t), { chars: 3, bad: 3, spaceCodes: 1 });
});

test('mutated CMaps, CFF programs and Type1 headers never throw and stay bounded', () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % n;
  };
  const cmap = str(`${cmapHead}2 begincodespacerange <00> <80> <8140> <FFFF> endcodespacerange
2 beginbfrange <0000> <00FF> <0041> <8140> <8150> [<0041> <D835DC00> <00660069>] endbfrange
1 beginbfchar <41> <0042> endbfchar 1 begincidrange <8140> <9000> 633 endcidrange /Foo usecmap${cmapTail}`);
  const cff = tinyCff(
    [
      { sid: 34, code: 65 },
      { sid: 35, code: 66 },
    ],
    ['x'],
  );
  const t1 = str('%!PS\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 65 /A put\nreadonly def\ncurrentfile eexec\n');
  for (let round = 0; round < 100; round++) {
    for (const base of [cmap, cff, t1]) {
      const v = base.slice(0, base.length - rand(Math.min(base.length, 40)));
      for (let k = 0; k < 6; k++) v[rand(v.length)] = rand(256);
      const parsed = parseCMap(v);
      assert.ok(!parsed.unicode || parsed.unicode.assigned <= DEFAULT_OPTIONS.maxCMapCodes);
      cffEncoding(v);
      const font = d({
        Subtype: 'Type1',
        FontDescriptor: { FontFile: new PdfStream(new PdfDict(), v, undefined) },
        ToUnicode: new PdfStream(new PdfDict(), v, undefined),
      });
      const t = newTally();
      loadFont(font, R).tally(v.subarray(0, 32), t);
      assert.ok(t.chars >= t.bad);
      const t0 = type0(new PdfStream(new PdfDict(), v, undefined), {}, { ToUnicode: new PdfStream(new PdfDict(), v, undefined) });
      loadFont(t0, R).tally(v.subarray(0, 32), t);
      assert.ok(Number.isFinite(t.width));
    }
  }
});

test('tallying code by code (codeLength, tallyCode) adds up to the whole string tally, simple and composite', () => {
  const tu = stream(`${cmapHead}/CMapName /Adobe-Identity-UCS def
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0003> <0020> <0010> <00660069> endbfchar
1 beginbfrange <0024> <0026> <0041> endbfrange${cmapTail}`);
  const cases: [PdfDict, Uint8Array][] = [
    [d({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' }), str('Hello, world \u00e9\u0001 x')],
    [
      d({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'Arial', FirstChar: 32, LastChar: 40, Widths: [250, 300, 350, 400, 450, 500, 550, 600, 650] }),
      str(' !"#$%&\'(Z'),
    ],
    [
      type0('Identity-H', { CIDSystemInfo: { Registry: str('Adobe'), Ordering: str('Identity'), Supplement: 0 }, DW: 900 }, { ToUnicode: tu }),
      hex('0024 0025 0003 0010 0099 00'),
    ],
  ];
  for (const [dict, bytes] of cases) {
    const f = loadFont(dict, R);
    const whole = newTally();
    f.tally(bytes, whole);
    const each = newTally();
    let codes = 0;
    for (let i = 0; i < bytes.length;) {
      const n = Math.min(Math.max(1, f.codeLength(bytes, i)), bytes.length - i);
      f.tallyCode(bytes, i, n, each);
      i += n;
      codes++;
    }
    assert.deepEqual({ ...each, width: Math.round(each.width * 1e9) }, { ...whole, width: Math.round(whole.width * 1e9) }, f.baseFont);
    assert.equal(each.glyphs, codes);
    assert.ok(whole.glyphs > 0 && whole.width > 0);
  }
});
