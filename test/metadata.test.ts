import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PdfDict, Ref } from '../src/analyzer/objects';
import { decodePdfText, latin1 } from '../src/analyzer/text';
import { parseXmp, producerHints, readMetadata } from '../src/analyzer/metadata';
import { DEFAULT_OPTIONS } from '../src/analyzer/options';

const bytes = (...b: number[]) => Uint8Array.from(b);
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const utf8 = (s: string) => new TextEncoder().encode(s);
function utf16be(s: string, bom = true): Uint8Array {
  const out: number[] = bom ? [0xfe, 0xff] : [];
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) >> 8, s.charCodeAt(i) & 0xff);
  return Uint8Array.from(out);
}
function utf16le(s: string, bom = true): Uint8Array {
  const out: number[] = bom ? [0xff, 0xfe] : [];
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) & 0xff, s.charCodeAt(i) >> 8);
  return Uint8Array.from(out);
}
function dict(entries: Record<string, unknown>): PdfDict {
  const d = new PdfDict();
  for (const [k, v] of Object.entries(entries)) d.set(k, v as never);
  return d;
}

// ---------------------------------------------------------------------------------------------------------------
// text

test('PDFDocEncoding: ASCII, Latin-1 and the PDF-specific positions', () => {
  assert.equal(decodePdfText(ascii('Hello (world)')), 'Hello (world)');
  // 0x18–0x1F diacritics
  assert.equal(decodePdfText(bytes(0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f)), '\u02d8\u02c7\u02c6\u02d9\u02dd\u02db\u02da\u02dc');
  // bullet, dagger, double dagger, ellipsis, em dash, en dash, florin, fraction
  assert.equal(decodePdfText(bytes(0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87)), '•†‡…—–ƒ⁄');
  // guillemets, minus, per mille, quotes
  assert.equal(decodePdfText(bytes(0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91)), '‹›−‰„“”‘’‚');
  // trademark, ligatures, Ł Œ Š Ÿ Ž ı ł œ š ž
  assert.equal(decodePdfText(bytes(0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e)), '™ﬁﬂŁŒŠŸŽıłœšž');
  assert.equal(decodePdfText(bytes(0xa0)), '€');
  assert.equal(decodePdfText(bytes(0xe9, 0xfc, 0xff, 0xa9)), 'éüÿ©');
  // undefined codes
  assert.equal(decodePdfText(bytes(0x7f, 0x9f, 0xad, 0x01)), '\ufffd\ufffd\ufffd\ufffd');
  // whitespace controls are defined
  assert.equal(decodePdfText(bytes(0x41, 0x09, 0x0a, 0x0d)), 'A\t\n\r');
  assert.equal(decodePdfText(new Uint8Array(0)), '');
});

test('UTF-16BE with BOM, surrogate pairs, odd trailing byte, lone surrogates', () => {
  assert.equal(decodePdfText(utf16be('Grüße')), 'Grüße');
  // U+1F600 as D83D DE00
  assert.equal(decodePdfText(bytes(0xfe, 0xff, 0x00, 0x41, 0xd8, 0x3d, 0xde, 0x00, 0x00, 0x42)), 'A\u{1F600}B');
  assert.equal(decodePdfText(bytes(0xfe, 0xff, 0x00, 0x41, 0x00)), 'A');
  assert.equal(decodePdfText(bytes(0xfe, 0xff, 0xd8, 0x3d, 0x00, 0x41)), '\ufffdA');
  assert.equal(decodePdfText(bytes(0xfe, 0xff, 0xde, 0x00)), '\ufffd');
  assert.equal(decodePdfText(bytes(0xfe, 0xff)), '');
});

test('UTF-16LE with BOM', () => {
  assert.equal(decodePdfText(utf16le('Señor ✓')), 'Señor ✓');
});

test('UTF-8 with BOM (PDF 2.0)', () => {
  const s = 'Ünïcødé 日本 \u{1F600}';
  assert.equal(decodePdfText(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(s)])), s);
  // malformed sequence → replacement, no throw
  assert.equal(decodePdfText(bytes(0xef, 0xbb, 0xbf, 0x41, 0xc3)), 'A\ufffd');
});

test('language escapes are stripped from Unicode strings', () => {
  assert.equal(decodePdfText(utf16be('\u001benUS\u001bHello')), 'Hello');
  assert.equal(decodePdfText(utf16be('a\u001bja\u001bb')), 'ab');
  assert.equal(decodePdfText(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('\u001bde\u001bTür')])), 'Tür');
  // an unterminated escape is just dropped
  assert.equal(decodePdfText(utf16be('x\u001b')), 'x');
});

test('latin1 handles large inputs in chunks', () => {
  const big = new Uint8Array(100_000).fill(0x61);
  big[99_999] = 0xe9;
  const s = latin1(big);
  assert.equal(s.length, 100_000);
  assert.equal(s.charCodeAt(99_999), 0xe9);
  assert.equal(latin1(ascii('%PDF-1.7')), '%PDF-1.7');
});

// ---------------------------------------------------------------------------------------------------------------
// Info

test('Info: strings, names, numbers, booleans and custom keys', () => {
  const info = dict({
    Title: utf16be('Bericht über Q3'),
    Author: ascii('J. Smith'),
    Producer: ascii('Acrobat Distiller 23.0\0'),
    CreationDate: ascii("D:20240101120000+01'00'"),
    Trapped: 'False',
    Pages: 12,
    Flag: true,
    Custom: ascii('<script>x</script>'),
    Nothing: null,
    Arr: [1, 2],
    Ref: new Ref(4, 0),
  });
  const m = readMetadata(info, undefined);
  assert.deepEqual(m.info, {
    Title: 'Bericht über Q3',
    Author: 'J. Smith',
    Producer: 'Acrobat Distiller 23.0',
    CreationDate: "D:20240101120000+01'00'",
    Trapped: 'False',
    Pages: '12',
    Flag: 'true',
    Custom: '<script>x</script>',
  });
  assert.deepEqual(m.xmp, {});
  assert.deepEqual(m.hints, []);
});

test('Info: a huge value is capped, entry count is bounded, __proto__ is a plain key', () => {
  const huge = new Uint8Array(5_000_000).fill(0x41);
  const info = dict({ Title: huge, Subject: utf16be('é'.repeat(100_000)), __proto__x: ascii('ok') });
  info.set('__proto__', ascii('evil'));
  for (let i = 0; i < 1000; i++) info.set('K' + i, ascii('v'));
  const m = readMetadata(info, undefined);
  assert.ok(m.info.Title.length <= 4096, `title length ${m.info.Title.length}`);
  assert.ok(m.info.Title.startsWith('AAAA'));
  assert.ok(m.info.Title.endsWith('\u2026'));
  assert.ok(m.info.Subject.length <= 4096);
  assert.equal(Object.getPrototypeOf(m.info), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(m.info, '__proto__')?.value, 'evil');
  assert.ok(Object.keys(m.info).length <= 256);
});

test('readMetadata never throws on junk', () => {
  assert.deepEqual(readMetadata(undefined, undefined), { info: {}, xmp: {}, hints: [] });
  const m = readMetadata({} as unknown as PdfDict, bytes(0, 0, 0, 0xff, 0x3c));
  assert.deepEqual(m.info, {});
  assert.deepEqual(parseXmp(new Uint8Array(0)), {});
  assert.deepEqual(parseXmp(ascii('<<<<<>>>> </ < / <x:y a="1" b=\'2\' c= d')), {});
});

// ---------------------------------------------------------------------------------------------------------------
// XMP

const ELEMENT_FORM = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.6">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xap="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:mm="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#">
   <dc:format>application/pdf</dc:format>
   <dc:title>
    <rdf:Alt>
     <rdf:li xml:lang="de-DE">Der Titel</rdf:li>
     <rdf:li xml:lang="x-default">The Title</rdf:li>
    </rdf:Alt>
   </dc:title>
   <dc:creator><rdf:Seq><rdf:li>Alice</rdf:li><rdf:li>Bob &amp; Carol</rdf:li></rdf:Seq></dc:creator>
   <dc:subject><rdf:Bag><rdf:li>one</rdf:li><rdf:li>two</rdf:li></rdf:Bag></dc:subject>
   <xap:CreatorTool>Writer &lt;v2&gt; &#x263A; &#65;</xap:CreatorTool>
   <pdf:Producer><![CDATA[Lib & Co <raw>]]></pdf:Producer>
   <mm:History><rdf:Seq><rdf:li rdf:parseType="Resource"><stEvt:action>saved</stEvt:action></rdf:li></rdf:Seq></mm:History>
   <mm:DerivedFrom rdf:parseType="Resource"><stRef:instanceID>x</stRef:instanceID></mm:DerivedFrom>
   <!-- <pdf:Keywords>commented out</pdf:Keywords> -->
   <pdf:Keywords/>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;

test('XMP element form: Alt picks x-default, Seq/Bag joined, prefixes normalised, entities and CDATA', () => {
  const x = parseXmp(utf8(ELEMENT_FORM));
  assert.deepEqual(x, {
    'dc:format': 'application/pdf',
    'dc:title': 'The Title',
    'dc:creator': 'Alice; Bob & Carol',
    'dc:subject': 'one; two',
    'xmp:CreatorTool': 'Writer <v2> \u263a A',
    'pdf:Producer': 'Lib & Co <raw>',
  });
});

test('XMP attribute form on rdf:Description, plus UTF-16 packets', () => {
  const packet = `<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>
<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
<rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:CreatorTool='Scan &quot;Pro&quot;'
  xmp:CreateDate='2024-01-01T10:00:00Z'/>
<rdf:Description rdf:about='' xmlns:a='http://www.aiim.org/pdfa/ns/id/' a:part='2' a:conformance='B'
  xmlns:foo='http://example.com/foo/' foo:Bar='baz'></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end='r'?>`;
  const expected = {
    'xmp:CreatorTool': 'Scan "Pro"',
    'xmp:CreateDate': '2024-01-01T10:00:00Z',
    'pdfaid:part': '2',
    'pdfaid:conformance': 'B',
    'foo:Bar': 'baz',
  };
  assert.deepEqual(parseXmp(utf8(packet)), expected);
  assert.deepEqual(parseXmp(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(packet)])), expected);
  assert.deepEqual(parseXmp(utf16be(packet)), expected);
  assert.deepEqual(parseXmp(utf16le(packet)), expected);
  assert.deepEqual(parseXmp(utf16be(packet, false)), expected);
  assert.deepEqual(parseXmp(utf16le(packet, false)), expected);
});

test('XMP: malformed and truncated packets still yield what was complete', () => {
  // no xpacket, no x:xmpmeta, unknown prefix without declaration, mismatched end tag, then cut off mid-property
  const broken = `<rdf:RDF><rdf:Description pdf:Producer="P1">
  <dc:title><rdf:Alt><rdf:li xml:lang="x-default">T</rdf:li></rdf:Alt></dc:title>
  <xmp:CreatorTool>Tool</xmp:Creator></xmp:CreatorTool>
  <pdf:Keywords>a, b</pdf:Keywords>
  <dc:description><rdf:Alt><rdf:li xml:lang="x-default">cut off her`;
  assert.deepEqual(parseXmp(utf8(broken)), {
    'pdf:Producer': 'P1',
    'dc:title': 'T',
    'xmp:CreatorTool': 'Tool',
    'pdf:Keywords': 'a, b',
  });
  // cut off inside a start tag and inside an attribute value
  assert.deepEqual(parseXmp(utf8('<rdf:Description xmp:A="1"><xmp:B>2</xmp:B><xmp:C x="')), { 'xmp:A': '1', 'xmp:B': '2' });
  // an unclosed element in the middle: later siblings still read
  const unclosed = `<rdf:Description><pdf:Producer>X</pdf:Producer><junk><pdf:Trapped>False</pdf:Trapped></rdf:Description>
  <rdf:Description><xmp:Label>L</xmp:Label></rdf:Description>`;
  assert.deepEqual(parseXmp(utf8(unclosed)), { 'pdf:Producer': 'X', 'xmp:Label': 'L' });
});

test('XMP: nesting, size and count are bounded', () => {
  const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
  // the deep run balances out, so the sibling after it is still read
  assert.deepEqual(parseXmp(utf8(`<rdf:Description>${deep}<xmp:X>1</xmp:X></rdf:Description>`)), { 'xmp:X': '1' });
  const many: string[] = [];
  for (let i = 0; i < 2000; i++) many.push(`<my:p${i}>v</my:p${i}>`);
  const x = parseXmp(utf8(`<rdf:Description>${many.join('')}</rdf:Description>`));
  assert.equal(Object.keys(x).length, 512);
  const hugeValue = parseXmp(utf8(`<rdf:Description><dc:title>${'z'.repeat(200_000)}</dc:title></rdf:Description>`));
  assert.ok(hugeValue['dc:title'].length <= 4096);
  // over the scan cap: a property after the first megabyte is not read
  const padded = parseXmp(utf8(`<rdf:Description><a:b>1</a:b>${' '.repeat(1_100_000)}<a:c>2</a:c></rdf:Description>`));
  assert.deepEqual(padded, { 'a:b': '1' });
});

// ---------------------------------------------------------------------------------------------------------------
// hints

test('OCR producers', () => {
  const cases: [Record<string, string>, Record<string, string>, string][] = [
    [{ Producer: 'Tesseract 5.3.0' }, {}, 'Producer'],
    [{ Creator: 'ocrmypdf 15.4.4 / Tesseract OCR-hOCR 5.3.4', Producer: 'pikepdf 8.15.1' }, {}, 'Creator'],
    [{ Producer: 'ABBYY FineReader PDF 16' }, {}, 'Producer'],
    [{ Producer: 'ABBYY Recognition Server 5.0' }, {}, 'Producer'],
    [{ Producer: 'Adobe Acrobat Pro DC 21.7.20091 Paper Capture Plug-in' }, {}, 'Producer'],
    [{}, { 'pdf:Producer': 'Adobe PDF Scan Library 3.2' }, 'pdf:Producer'],
    [{}, { 'xmp:CreatorTool': 'OmniPage CSDK 21' }, 'xmp:CreatorTool'],
    [{ Creator: 'Readiris 17' }, {}, 'Creator'],
    [{ Producer: 'Kofax Power PDF OCR' }, {}, 'Producer'],
  ];
  for (const [info, xmp, field] of cases) {
    const hints = producerHints(info, xmp).filter((h) => h.kind === 'ocr-producer');
    assert.equal(hints.length, 1, JSON.stringify(info) + JSON.stringify(xmp));
    assert.equal(hints[0].field, field);
    assert.equal(hints[0].message, `text layer written by an OCR engine: ${hints[0].value}`);
  }
  // pikepdf alone is a general PDF library, not OCR
  assert.deepEqual(producerHints({ Producer: 'pikepdf 8.15.1' }, {}), []);
  // the same value in Info and XMP gives one hint
  const dup = producerHints({ Producer: 'Tesseract 4.1.1' }, { 'pdf:Producer': 'Tesseract 4.1.1' });
  assert.equal(dup.length, 1);
});

test('scanner producers and img2pdf', () => {
  const scanners = [
    'Canon iR-ADV C5535  PDF',
    'Canon imageRUNNER ADVANCE DX',
    'Xerox WorkCentre 7855',
    'Xerox AltaLink C8045',
    'HP Digital Sending Device',
    'HP Scan',
    'RICOH IM C3000',
    'KONICA MINOLTA bizhub C458',
    'KYOCERA Document Solutions TASKalfa 3253ci',
    'SHARP MX-M365N',
    'Brother MFC-L2710DW',
    'Epson Scan 2',
    'ScanSnap Manager #iX1600',
    'PaperStream Capture',
    'NAPS2',
  ];
  for (const s of scanners) {
    const hints = producerHints({ Producer: s }, {});
    assert.equal(hints.length, 1, s);
    assert.equal(hints[0].kind, 'scanner-producer', s);
    assert.equal(hints[0].message, `produced by scanner software: ${s}`);
    assert.equal(hints[0].field, 'Producer');
    assert.equal(hints[0].value, s);
  }
  const img = producerHints({ Producer: 'img2pdf 0.5.1' }, {});
  assert.deepEqual(img, [{ kind: 'scanner-producer', message: 'pages made from images by img2pdf', field: 'Producer', value: 'img2pdf 0.5.1' }]);
});

test('ordinary producers give no hint', () => {
  for (const p of [
    'Microsoft® Word for Microsoft 365',
    'LibreOffice 7.5',
    'pdfTeX-1.40.25',
    'Adobe PDF Library 17.11.238',
    'Skia/PDF m120',
    'macOS Version 14.2 (Build 23C64) Quartz PDFContext',
    'iText® 7.2.5 ©2000-2023 iText Group NV',
    'Canon PDF Viewer', // the vendor alone is not enough: Canon rules need iR, imageRUNNER or scan
    'The Brothers Karamazov',
    'HPLIP 3.22',
  ]) {
    assert.deepEqual(producerHints({ Producer: p, Creator: p }, { 'pdf:Producer': p }), [], p);
  }
});

test('Info/XMP mismatch', () => {
  const hints = producerHints(
    { Producer: 'GPL Ghostscript 10.02', Creator: ' Writer ', Title: 'Annual   Report' },
    { 'pdf:Producer': 'Adobe PDF Library 15.0', 'xmp:CreatorTool': 'writer', 'dc:title': 'annual report' },
  );
  assert.deepEqual(hints, [
    {
      kind: 'info-xmp-mismatch',
      message: 'Info and XMP disagree on Producer: "GPL Ghostscript 10.02" vs "Adobe PDF Library 15.0"',
      field: 'Producer',
      value: 'GPL Ghostscript 10.02',
    },
  ]);
  const t = producerHints({ Title: 'A' }, { 'dc:title': 'B' });
  assert.equal(t.length, 1);
  assert.equal(t[0].message, 'Info and XMP disagree on Title: "A" vs "B"');
  const c = producerHints({ Creator: 'Word' }, { 'xmp:CreatorTool': 'Excel' });
  assert.equal(c[0].field, 'Creator');
  // only one side present: no mismatch
  assert.deepEqual(producerHints({ Producer: 'A' }, {}), []);
});

test('readMetadata end to end: Info + XMP → hints', () => {
  const info = dict({ Producer: ascii('pikepdf 8.15.1'), Creator: ascii('ocrmypdf 16.0.0 / Tesseract OCR-hOCR 5.3.4') });
  const xmp = utf8(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
    <pdf:Producer>pikepdf 8.15.1</pdf:Producer><xmp:CreatorTool>Canon iR-ADV C5535</xmp:CreatorTool>
    </rdf:Description></rdf:RDF></x:xmpmeta>`);
  const m = readMetadata(info, xmp);
  assert.equal(m.xmp['pdf:Producer'], 'pikepdf 8.15.1');
  const kinds = m.hints.map((h) => `${h.kind}:${h.field}`);
  assert.deepEqual(kinds, ['ocr-producer:Creator', 'scanner-producer:xmp:CreatorTool', 'info-xmp-mismatch:Creator']);
});

test('metadata limits come from AnalyzerOptions: values, keys, Info entries, XMP properties', () => {
  const info = new PdfDict();
  info.set('Title', ascii('a long title'));
  info.set('Author', ascii('someone'));
  info.set('Producer', ascii('x'));
  const limits = { ...DEFAULT_OPTIONS, maxMetadataValueChars: 5, maxInfoEntries: 2, maxMetadataKeyChars: 5, maxXmpProperties: 1 };
  const xmp = utf8(
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="long producer" pdf:Keywords="k"/></rdf:RDF></x:xmpmeta>',
  );
  const m = readMetadata(info, xmp, limits);
  assert.deepEqual(m.info, { Title: 'a lo\u2026' });
  assert.deepEqual(m.xmp, { 'pdf:\u2026': 'long\u2026' });
  assert.deepEqual(readMetadata(info, xmp).xmp, { 'pdf:Producer': 'long producer', 'pdf:Keywords': 'k' });
});
