// The text layer (AnalyzerOptions.textLayer): glyph runs, their visibility and the reading-order text, checked
// against the character counts the routing already reports, on the synthetic fixtures and on small PDFs built here.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePdfSync } from '../src/analyzer/index';
import type { PageReport } from '../src/analyzer/types';
import { parseToUnicodeText } from '../src/analyzer/textLayerFonts';
import { makePdf } from './pdf-helpers';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'analyzer');

function sums(p: PageReport): { visible: number; invisible: number } {
  let visible = 0;
  let invisible = 0;
  for (const r of p.evidence.textLayer!.runs) {
    if (r.visibility === 'visible') visible += r.chars;
    else invisible += r.chars;
  }
  return { visible, invisible };
}

test('off by default: no textLayer in the evidence', () => {
  const rep = analyzePdfSync(new Uint8Array(readFileSync(join(DIR, '01-text.pdf'))));
  for (const p of rep.pages) assert.equal(p.evidence.textLayer, undefined);
});

test('glyph runs add up to the visible and invisible character counts on every fixture', () => {
  let checked = 0;
  for (const name of readdirSync(DIR).filter((f) => f.endsWith('.pdf'))) {
    const bytes = new Uint8Array(readFileSync(join(DIR, name)));
    const off = analyzePdfSync(bytes);
    const on = analyzePdfSync(bytes, { textLayer: true });
    assert.equal(on.pages.length, off.pages.length, name);
    on.pages.forEach((p, i) => {
      // the option changes nothing else
      assert.equal(p.route, off.pages[i].route, `${name} p${p.page} route`);
      assert.equal(p.evidence.visibleChars, off.pages[i].evidence.visibleChars, `${name} p${p.page}`);
      assert.equal(p.evidence.invisibleChars, off.pages[i].evidence.invisibleChars, `${name} p${p.page}`);
      const layer = p.evidence.textLayer;
      if (!layer) return; // a page that was never interpreted (unknown)
      assert.equal(layer.cut, undefined, `${name} p${p.page} cut`);
      // annotations without appearance (FreeText) count characters without drawing glyphs: none in these fixtures' runs
      if (name.startsWith('19-')) return;
      const s = sums(p);
      assert.equal(s.visible, p.evidence.visibleChars, `${name} p${p.page} visible`);
      assert.equal(s.invisible, p.evidence.invisibleChars, `${name} p${p.page} invisible`);
      const nonWhite = layer.text.replace(/\s+/g, '').length;
      assert.ok(nonWhite >= p.evidence.visibleChars + p.evidence.invisibleChars - p.evidence.badChars, `${name} p${p.page} text length`);
      checked++;
    });
  }
  assert.ok(checked > 20, `checked ${checked} pages`);
});

test('an OCR layer: invisible words with boxes, sizes and horizontal scaling; the text in reading order', () => {
  const content = [
    'q 612 0 0 792 0 0 cm /Im1 Do Q',
    'BT 3 Tr /F1 10 Tf 1 0 0 1 72 700 Tm 120 Tz (Hello ) Tj 40 0 Td 100 Tz (world ) Tj ET',
    'BT 3 Tr /F1 10 Tf 1 0 0 1 72 686 Tm (second line) Tj ET',
  ].join('\n');
  const pdf = makePdf(content, '<< /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >>', [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\u00ff\u00ff\u00ff\u00ff\nendstream',
  ]);
  const p = analyzePdfSync(pdf, { textLayer: true }).pages[0];
  // (too few characters for the ocr-layer route: it is a scan; the layer is read all the same)
  const layer = p.evidence.textLayer!;
  assert.deepEqual(
    layer.runs.map((r) => r.text),
    ['Hello', 'world', 'second', 'line'],
  );
  assert.ok(layer.runs.every((r) => r.visibility === 'invisible' && r.font === 'F1' && r.size === 10));
  assert.equal(layer.runs[0].hScale, 1.2);
  const hello = layer.runs[0].rect;
  assert.equal(hello[0], 72);
  assert.ok(Math.abs(hello[1] - 698) < 1e-6 && Math.abs(hello[3] - 708) < 1e-6, `rect ${hello.join(' ')}`);
  // no /Widths: Helvetica's own advances (std14Widths.ts), H 722 + e 556 + l 222 + l 222 + o 556 = 2278 thousandths ×
  // 10 pt × 1.2 (a rough 500 a small letter made it 2667: the box a sixth too wide)
  assert.ok(Math.abs(hello[2] - (72 + 27.336)) < 0.01, `width ${hello[2]}`);
  assert.equal(layer.text, 'Hello world\nsecond line');
  assert.equal(layer.runCount, 4);
});

test('turned text: a run whose baseline runs up or down the page says so; upright runs have no such field', () => {
  const content = [
    'BT /F1 10 Tf 1 0 0 1 72 700 Tm (upright words) Tj ET',
    'BT /F1 10 Tf 0 1 -1 0 300 100 Tm (going up) Tj ET',
    'BT /F1 10 Tf 0 -1 1 0 400 700 Tm (going down) Tj ET',
    // a slight slant (a skewed scan's words) is not turned
    'BT /F1 10 Tf 0.99 0.14 -0.14 0.99 72 500 Tm (slanted) Tj ET',
  ].join('\n');
  const pdf = makePdf(content, '<< /Font << /F1 5 0 R >> >>', ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>']);
  const runs = analyzePdfSync(pdf, { textLayer: true }).pages[0].evidence.textLayer!.runs;
  assert.deepEqual(
    runs.map((r) => [r.text, r.turned ?? false]),
    [
      ['upright', false],
      ['words', false],
      ['going', true],
      ['up', true],
      ['going', true],
      ['down', true],
      ['slanted', false],
    ],
  );
  assert.ok(runs.filter((r) => !r.turned).every((r) => !('turned' in r)));
  // a turned run's rect is its bounds: taller than wide
  const up = runs[2].rect;
  assert.ok(up[3] - up[1] > up[2] - up[0], `rect ${up.join(' ')}`);
});

test('text under an opaque image is hidden; a Type0 Identity-H font decodes through its ToUnicode map', () => {
  const tu =
    '/CIDInit /ProcSet findresource begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <FFFF> <0000> endbfrange endcmap';
  const content = ['BT /F2 12 Tf 1 0 0 1 100 500 Tm <0041004200430020004400C4> Tj ET', 'q 612 0 0 792 0 0 cm /Im1 Do Q'].join('\n');
  const pdf = makePdf(content, '<< /Font << /F2 5 0 R >> /XObject << /Im1 8 0 R >> >>', [
    '<< /Type /Font /Subtype /Type0 /BaseFont /GlyphLessFont /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>',
    '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GlyphLessFont /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 >>',
    `<< /Length ${tu.length} >>\nstream\n${tu}\nendstream`,
    '<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 1 >>\nstream\n\u0080\nendstream',
  ]);
  const p = analyzePdfSync(pdf, { textLayer: true }).pages[0];
  const layer = p.evidence.textLayer!;
  assert.deepEqual(
    layer.runs.map((r) => [r.text, r.visibility]),
    [
      ['ABC', 'hidden'],
      ['DÄ', 'hidden'],
    ],
  );
  assert.equal(p.evidence.hiddenUnderImage, 5);
  assert.equal(layer.text, 'ABC DÄ');
});

test('the bounds cut the runs and the text, and say so', () => {
  const words = Array.from({ length: 50 }, (_, i) => `(w${i} ) Tj`).join(' ');
  const pdf = makePdf(`BT /F1 10 Tf 1 0 0 1 72 700 Tm ${words} ET`, '<< /Font << /F1 5 0 R >> >>', [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]);
  const runsCut = analyzePdfSync(pdf, { textLayer: true, maxTextRunsPerPage: 10 }).pages[0].evidence.textLayer!;
  assert.equal(runsCut.runs.length, 10);
  assert.equal(runsCut.runCount, 50);
  assert.equal(runsCut.cut, 'runs');
  const textCut = analyzePdfSync(pdf, { textLayer: true, maxTextLayerChars: 30 }).pages[0].evidence.textLayer!;
  assert.ok(textCut.text.length <= 30);
  assert.equal(textCut.cut, 'text');
  const memCut = analyzePdfSync(pdf, { textLayer: true, maxHeldBytes: 1 }).pages[0];
  // with no memory at all, the layer (or the page) says its evidence is incomplete
  assert.ok(memCut.route === 'unknown' || memCut.evidence.textLayer?.cut === 'memory', JSON.stringify(memCut.evidence.textLayer?.cut));
});

test('ToUnicode text parser: bfchar, bfrange with an array and an advancing target, and a later entry winning', () => {
  const cmap =
    '2 beginbfchar <01> <0066006C> <02> <00E9> endbfchar 2 beginbfrange <10> <12> <0061> <20> <21> [<0078> <0079>] endbfrange 1 beginbfchar <02> <0045> endbfchar';
  const t = parseToUnicodeText(new Uint8Array(Buffer.from(cmap, 'latin1')));
  assert.equal(t.get(1), 'fl');
  assert.equal(t.get(2), 'E');
  assert.equal(t.get(0x12), 'c');
  assert.equal(t.get(0x21), 'y');
  assert.equal(t.get(0x30), undefined);
});

test('ToUnicode text parser: codes kept as numbers read as the strings they stood for', () => {
  const cmap = [
    // one unit, a ligature, a code point past U+FFFF (surrogate pair), a 4-byte code, U+0000 (no mapping)
    '5 beginbfchar <0001> <0041> <0002> <00660069> <0003> <D83DDE00> <00010000> <0042> <0004> <0000> endbfchar',
    // a short range whose target advances past U+FFFF, then a later entry overwriting a code the range made
    '1 beginbfrange <0010> <0012> <FFFE> endbfrange 1 beginbfchar <0011> <0043> endbfchar',
    // cid entries fill only codes no bf entry maps; one lands past U+FFFF
    '1 begincidrange <0001> <0002> 120 endcidrange 1 begincidchar <0020> 128512 endcidchar',
  ].join(' ');
  const t = parseToUnicodeText(new Uint8Array(Buffer.from(cmap, 'latin1')));
  assert.equal(t.get(1), 'A');
  assert.equal(t.get(2), 'fi');
  assert.equal(t.get(3), '\u{1F600}');
  assert.equal(t.get(0x10000), 'B');
  assert.equal(t.get(4), undefined);
  assert.equal(t.get(0x10), '\ufffe');
  assert.equal(t.get(0x11), 'C');
  assert.equal(t.get(0x12), String.fromCodePoint(0x10000));
  assert.equal(t.get(0x20), '\u{1F600}');
  // asked twice, the same text
  assert.equal(t.get(1), 'A');
  // distinct codes: 1, 2, 3, 0x10000, 0x10, 0x11, 0x12, 0x20 (U+0000 defines nothing; the overwrite adds no code)
  assert.equal(t.size, 8);
  assert.equal(t.bytes, 200 + 8 * 80);
  assert.equal(t.truncated, false);
});

test('ToUnicode text parser: the code bound counts distinct codes and marks the map truncated past it', async () => {
  const { Budget } = await import('../src/analyzer/budget');
  const { resolveOptions } = await import('../src/analyzer/options');
  const budget = new Budget(Infinity, Infinity, resolveOptions({ maxTextCodesPerFont: 3 }));
  const cmap = '4 beginbfchar <01> <0041> <02> <0042> <01> <0061> <03> <0043> endbfchar 1 beginbfchar <04> <0044> endbfchar';
  const t = parseToUnicodeText(new Uint8Array(Buffer.from(cmap, 'latin1')), budget);
  assert.equal(t.get(1), 'a', 'redefining a code held is not a new code');
  assert.equal(t.get(3), 'C');
  assert.equal(t.get(4), undefined);
  assert.equal(t.truncated, true);
});

test('ToUnicode text parser: short ranges with a one-unit target (identity maps) keep the code-by-code rules', async () => {
  const { Budget } = await import('../src/analyzer/budget');
  const { resolveOptions } = await import('../src/analyzer/options');
  // an identity map as producers write it: 256 ranges of 256 codes, the first one starting at U+0000 (no mapping)
  let ident = '256 beginbfrange';
  for (let b = 0; b < 256; b++) {
    const h = b.toString(16).padStart(2, '0');
    ident += ` <${h}00> <${h}ff> <${h}00>`;
  }
  const t = parseToUnicodeText(new Uint8Array(Buffer.from(ident + ' endbfrange', 'latin1')));
  assert.deepEqual([t.get(0), t.get(0x41), t.get(0x4e2d), t.get(0xffff)], [undefined, 'A', '\u4e2d', '\uffff']);
  assert.deepEqual([t.size, t.truncated], [65535, false]);
  // past the code bound mid-range: codes held are still redefined, new ones dropped; a target past U+FFFF advances
  const budget = new Budget(Infinity, Infinity, resolveOptions({ maxTextCodesPerFont: 5 }));
  const cmap = '2 beginbfchar <0012> <0078> <0001> <0079> endbfchar 2 beginbfrange <0010> <0014> <0061> <0020> <0021> <FFFF> endbfrange';
  const c = parseToUnicodeText(new Uint8Array(Buffer.from(cmap, 'latin1')), budget);
  assert.deepEqual(
    [0x01, 0x10, 0x11, 0x12, 0x13, 0x14, 0x20].map((k) => c.get(k)),
    ['y', 'a', 'b', 'c', 'd', undefined, undefined],
  );
  assert.deepEqual([c.size, c.truncated], [5, true]);
  // a range across a block of 256 codes, and codes far apart (a CID font's high codes)
  const far = parseToUnicodeText(
    new Uint8Array(Buffer.from('1 beginbfrange <00FE> <0101> <0041> endbfrange 2 beginbfchar <FFFE> <0058> <0100> <0059> endbfchar', 'latin1')),
  );
  assert.deepEqual(
    [0xfd, 0xfe, 0xff, 0x100, 0x101, 0x102, 0xfffe, 0xffff].map((k) => far.get(k)),
    [undefined, 'A', 'B', 'Y', 'D', undefined, 'X', undefined],
  );
  assert.equal(far.size, 5);
  // a later bfchar inside a range not yet written wins; cid entries fill only codes no bf entry mapped
  const later = parseToUnicodeText(
    new Uint8Array(
      Buffer.from(
        '1 beginbfrange <0100> <01FF> <0100> endbfrange 1 beginbfchar <0141> <0058> endbfchar 1 begincidrange <01FE> <0201> 66 endcidrange',
        'latin1',
      ),
    ),
  );
  assert.deepEqual(
    [0x200, 0x1fe, 0x141, 0x100, 0x201, 0x1ff].map((k) => later.get(k)),
    ['D', '\u01fe', 'X', '\u0100', 'E', '\u01ff'],
  );
  assert.equal(later.size, 258);
  const wide = parseToUnicodeText(new Uint8Array(Buffer.from('1 beginbfrange <0020> <0021> <FFFF> endbfrange', 'latin1')));
  assert.deepEqual([wide.get(0x20), wide.get(0x21)], ['\uffff', String.fromCodePoint(0x10000)]);
});

test('ToUnicode text reader: fed by the fonts parse (its lexer tap), the same text as parsed alone, broken blocks too', async () => {
  const { ToUnicodeTextReader } = await import('../src/analyzer/textLayerFonts');
  const { parseCMap } = await import('../src/analyzer/cmap');
  const maps = [
    // a cid value that is a word skips the entry here while the fonts parse leaves the block: the texts follow the reader
    '1 begincidrange <0001> <0003> junk <0004> <0005> 66 beginbfchar <0010> <0041> endbfchar endcidrange',
    // an array left open, a name target, a range written backwards, a code of 6 bytes, bytes past the end
    '2 beginbfrange <20> <22> [<0061> /b <0063> <30> <10> <0041> endbfrange 1 beginbfchar <010203040506> /fi <40> /A endbfchar <41',
    '1 beginbfchar <0001> <0041>',
  ];
  for (const m of maps) {
    const data = new Uint8Array(Buffer.from(m, 'latin1'));
    const alone = parseToUnicodeText(data);
    const reader = new ToUnicodeTextReader();
    parseCMap(data, undefined, undefined, reader);
    assert.ok(reader.complete, m);
    const tapped = reader.result();
    for (let code = 0; code < 0x80; code++) assert.equal(tapped.get(code), alone.get(code), `${m}: code ${code}`);
    assert.deepEqual([tapped.size, tapped.bytes, tapped.truncated], [alone.size, alone.bytes, alone.truncated], m);
  }
  // a code point past U+10FFFF: reading stops, the fonts parse goes on to the end, and the reader throws as parsing alone does
  const data = new Uint8Array(
    Buffer.from('1 begincidrange <0001> <0020> 1114100 endcidrange 1 begincodespacerange <00> <FF> endcodespacerange', 'latin1'),
  );
  assert.throws(() => parseToUnicodeText(data), RangeError);
  const reader = new ToUnicodeTextReader();
  const parsed = parseCMap(data, undefined, undefined, reader);
  assert.equal(parsed.codespace.length, 1);
  assert.ok(reader.complete);
  assert.throws(() => reader.result(), RangeError);
  // a reader that did not see the end has no complete text
  const partial = new ToUnicodeTextReader();
  assert.equal(partial.complete, false);
});

test("a simple font's string read word by word gives the layer that each glyph shown as its own string gives", () => {
  // [(ab cd)] TJ takes the simple-font fast path after its first glyph (TextLayerBuilder.add, space, pen);
  // [(a)(b)( )(c)(d)] TJ sends every glyph through TextLayerBuilder.glyph, gap and line tests included
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const fonts = [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    // explicit widths, some zero, and x named a glyph without text (U+FFFD in the layer)
    `<< /Type /Font /Subtype /Type1 /BaseFont /Foo /FirstChar 32 /LastChar 122 /Widths [${Array.from({ length: 91 }, (_, i) => (i % 7 === 3 ? 0 : 300 + ((i * 37) % 500))).join(' ')}] /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [120 /g123] >> >>`,
  ];
  const alphabet = 'abcdefghij KLMN 0123  xyz';
  for (let n = 0; n < 150; n++) {
    const ops: string[] = [];
    const split: string[] = [];
    for (let k = 0, nk = 1 + Math.floor(rnd() * 4); k < nk; k++) {
      const size = pick(['10', '12', '7.5', '0.001', '-9']);
      const state = `/F${1 + Math.floor(rnd() * 2)} ${size} Tf ${pick(['0', '0.7', '-1.3'])} Tc ${pick(['0', '2', '-3'])} Tw ${pick(['100', '80', '130'])} Tz ${pick(['0', '2.5'])} Ts`;
      const move = pick(['', '0 -14 Td', '30 0 Td', '-200 5 Td']);
      let s = '';
      for (let i = 0, len = 1 + Math.floor(rnd() * 12); i < len; i++) s += pick([...alphabet]);
      ops.push(`${state} ${move} [(${s})] TJ`);
      split.push(`${state} ${move} [${[...s].map((ch) => `(${ch})`).join('')}] TJ`);
    }
    const tm = pick(['1 0 0 1 72 700', '0 1 -1 0 300 100', '0.8 0.6 -0.6 0.8 100 100', '1 0 0 -1 50 50', '2 0 0.5 1 10 400']);
    const resources = '<< /Font << /F1 5 0 R /F2 6 0 R >> >>';
    const whole = makePdf(`BT ${tm} Tm ${ops.join(' ')} ET`, resources, fonts);
    const glyphs = makePdf(`BT ${tm} Tm ${split.join(' ')} ET`, resources, fonts);
    const a = analyzePdfSync(whole, { textLayer: true }).pages[0].evidence.textLayer!;
    const b = analyzePdfSync(glyphs, { textLayer: true }).pages[0].evidence.textLayer!;
    assert.deepEqual(a, b, ops.join(' '));
  }
});
