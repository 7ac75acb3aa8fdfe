#!/usr/bin/env node
// Writes test/fixtures/e2e/layer-quality.pdf: OCR'd scans whose text layers are good and poor, for the extension's
// layer-quality surfaces (tree grades, the re-OCR group, the Problems warning, the preview's colours) in the e2e suite
// and its unit tests.
//
//   node test/e2e/make-layer-fixture.mjs
//
// Built byte by byte, like scripts/make-fixtures.mjs (which this does not touch: rerunning that one rewrites every
// analyzer fixture, and qpdf draws fresh salts for the AES ones). The output is committed; nothing regenerates it.
//
// Every scan page is the same baseline JPEG: a page image (4 px a point) with each word of a paragraph drawn coarsely
// as print (x-height bodies, stems and tails where its letters have them), coded with DC coefficients only (each 8×8
// block one flat grey: the analyzer's ink map reads block means, its letter shapes the blocks' stems and tails). Over
// it, an invisible (3 Tr) OCR layer in GlyphLessFont as Tesseract writes it, each word placed on its box with Tm and
// stretched to it with Tz:
//   p1  the paragraph's words on their boxes                                → ocr-layer, good
//   p2  letters that read as no language and do not fit the boxes, but for  → ocr-layer, poor (re-OCR)
//       the short words the, and, to, for
//   p3  the paragraph's words again                                         → ocr-layer, good
//   p4  only the first line's words: most of the page's ink has no word     → ocr-layer, poor (re-OCR)
//   p5  the paragraph in visible Helvetica, no scan                         → text (not graded)
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'e2e');

const PARAGRAPH = [
  'The committee met on Tuesday morning to review the annual budget and',
  'agreed that the library should receive new shelves before the winter.',
  'Several members asked whether the old reading room could be opened',
  'again for students who need a quiet place to work in the evenings.',
  'The chair promised to write to the council and report back next month',
  'with a plan for the repairs and an estimate of what they would cost.',
];
const W = 612;
const H = 792;
const SIZE = 12;
/** pixels a point in the scan */
const DPP = 4;

/** The words of the paragraph, laid out at 6.6 pt a character, 18 pt between lines, from y = 700 down. */
const WORDS = [];
PARAGRAPH.forEach((line, i) => {
  let x = 60;
  const y = 700 - i * 18;
  for (const text of line.split(' ')) {
    const width = text.length * 6.6;
    WORDS.push({ text, x, y, width, line: i });
    x += width + 6;
  }
});

/**
 * Garbage in place of a word, as a failed OCR run leaves it: consonant clusters no language model reads as words, of a
 * length that does not match the word's box (so the word, stretched to the box, is squeezed or spread: the layout
 * signal), deterministic.
 */
function garble(text, seed) {
  const letters = 'xqzkvjwpfgbhcdmnlrst';
  let s = seed * 7919 + 17;
  const next = () => (s = (s * 1103515245 + 12345) >>> 0) >>> 8;
  const n = Math.max(2, Math.round(text.length * (0.3 + (next() % 200) / 100)));
  let out = '';
  for (let i = 0; i < n; i++) out += letters[next() % letters.length];
  return out;
}

// ---- a baseline JPEG, DC coefficients only ----------------------------------------------------------------------

/** Canonical Huffman codes from BITS (counts per length 1..16) and HUFFVAL, as ITU T.81 Annex C generates them. */
function canonical(bits, vals) {
  const codes = new Map();
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < bits[len - 1]; i++) {
      codes.set(vals[k++], { code, len });
      code++;
    }
    code <<= 1;
  }
  return codes;
}

// the standard luminance DC table (T.81 Table K.3), and an AC table with one code: end of block
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALS = [0x00];

class BitWriter {
  bytes = [];
  acc = 0;
  n = 0;
  put(code, len) {
    for (let i = len - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((code >> i) & 1);
      if (++this.n === 8) this.flush();
    }
  }
  flush() {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0x00); // byte stuffing
    this.acc = 0;
    this.n = 0;
  }
  end() {
    while (this.n !== 0) this.put(1, 1); // pad with ones
    return Buffer.from(this.bytes);
  }
}

/** A greyscale baseline JPEG of `gray` (w×h bytes), each 8×8 block coded as its mean (quantiser 1, no AC). */
function jpegDcOnly(gray, w, h) {
  const dc = canonical(DC_BITS, DC_VALS);
  const ac = canonical(AC_BITS, AC_VALS);
  const bw = new BitWriter();
  let pred = 0;
  const bx = Math.ceil(w / 8);
  const by = Math.ceil(h / 8);
  for (let j = 0; j < by; j++)
    for (let i = 0; i < bx; i++) {
      let sum = 0;
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) sum += gray[Math.min(h - 1, j * 8 + y) * w + Math.min(w - 1, i * 8 + x)];
      // the DC coefficient of the level-shifted block: 8 × its mean − 1024
      const coef = Math.max(-1023, Math.min(1023, Math.round(sum / 8 - 1024)));
      const diff = coef - pred;
      pred = coef;
      const mag = Math.abs(diff);
      const cat = mag === 0 ? 0 : 32 - Math.clz32(mag);
      const c = dc.get(cat);
      bw.put(c.code, c.len);
      if (cat) bw.put(diff > 0 ? diff : diff + (1 << cat) - 1, cat);
      const eob = ac.get(0);
      bw.put(eob.code, eob.len);
    }
  const seg = (marker, body) => {
    const b = Buffer.from(body);
    return Buffer.concat([Buffer.from([0xff, marker, (b.length + 2) >> 8, (b.length + 2) & 0xff]), b]);
  };
  const dht = (cls, bits, vals) => seg(0xc4, [cls << 4, ...bits, ...vals]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    seg(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF 1.1, no thumbnail
    seg(0xdb, [0x00, ...new Array(64).fill(1)]),
    seg(0xc0, [8, h >> 8, h & 0xff, w >> 8, w & 0xff, 1, 1, 0x11, 0]),
    dht(0, DC_BITS, DC_VALS),
    dht(1, AC_BITS, AC_VALS),
    seg(0xda, [1, 1, 0x00, 0, 63, 0]),
    bw.end(),
    Buffer.from([0xff, 0xd9]),
  ]);
}

const ASCENDS = new Set([...'bdfhklt']);
const DESCENDS = new Set([...'gjpqy']);

/**
 * The scan: paper with each word's letters drawn as print has them, coarsely: a body in the x-height band (baseline to
 * 5 pt above), a stem up to 9 pt for b d f h k l t, capitals and digits 8.5 pt tall, a tail down to 3 pt below for
 * g j p q y, a dot over i and j; 6.6 pt a letter. At 4 px a point the 8×8 blocks (all the JPEG keeps) still show
 * where the stems and tails are, which the analyzer's letter shapes compare with the layer's words.
 */
function scanJpeg() {
  const w = W * DPP;
  const h = H * DPP;
  const px = Buffer.alloc(w * h, 0xf2);
  const fill = (x0, x1, y0, y1) => {
    for (let y = Math.round((H - y1) * DPP); y < Math.round((H - y0) * DPP); y++)
      for (let x = Math.round(x0 * DPP); x < Math.round(x1 * DPP); x++) px[y * w + x] = 0x28;
  };
  for (const word of WORDS)
    [...word.text].forEach((ch, i) => {
      const x0 = word.x + i * 6.6 + 0.8;
      const x1 = x0 + 5;
      const y = word.y;
      if (ch >= 'A' && ch <= 'Z') fill(x0, x1, y, y + 8.5);
      else if (ch >= '0' && ch <= '9') fill(x0, x1, y, y + 8.5);
      else if (/[a-z]/.test(ch)) {
        fill(x0, x1, y, y + 5);
        if (ASCENDS.has(ch)) fill(x0, x0 + 1.6, y + 5, y + 9);
        if (DESCENDS.has(ch)) fill(x1 - 1.6, x1, y - 3, y);
        if (ch === 'i' || ch === 'j') fill(x0 + 1.5, x0 + 3, y + 6.5, y + 8);
      } else if (ch === ',' || ch === '.') fill(x0, x0 + 1.6, y - (ch === ',' ? 2 : 0), y + 1.2);
    });
  return { bytes: jpegDcOnly(px, w, h), w, h };
}

// ---- the PDF --------------------------------------------------------------------------------------------------------

const objs = [];
const add = (body) => {
  objs.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
  return objs.length;
};
const stream = (dict, data) => {
  const d = Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1');
  return add(Buffer.concat([Buffer.from(`<< ${dict} /Length ${d.length} >>\nstream\n`, 'latin1'), d, Buffer.from('\nendstream', 'latin1')]));
};
const num = (x) => String(Math.round(x * 1000) / 1000);

const catalog = add('');
const pagesObj = add('');
const scan = scanJpeg();
const image = stream(
  `/Type /XObject /Subtype /Image /Width ${scan.w} /Height ${scan.h} /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /DCTDecode`,
  scan.bytes,
);

// GlyphLessFont as Tesseract writes it: Type0 / Identity-H, codes are UTF-16 units, a ToUnicode map gives them back
const codes = [...new Set([...PARAGRAPH.join(' '), ...'xqzkvjwpfgbhcdmnlrst'].map((c) => c.charCodeAt(0)))].sort((a, b) => a - b);
const hex4 = (c) => c.toString(16).padStart(4, '0');
let cmap = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n';
cmap += '/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n';
for (let i = 0; i < codes.length; i += 100) {
  const chunk = codes.slice(i, i + 100);
  cmap += `${chunk.length} beginbfchar\n${chunk.map((c) => `<${hex4(c)}> <${hex4(c)}>`).join('\n')}\nendbfchar\n`;
}
cmap += 'endcmap CMapName currentdict /CMap defineresource pop end end\n';
const toUnicode = stream('', cmap);
const program = stream('/Length1 16', Buffer.alloc(16));
const descriptor = add(
  `<< /Type /FontDescriptor /FontName /GlyphLessFont /Flags 5 /FontBBox [0 0 500 1000] /ItalicAngle 0 /Ascent 1000 /Descent 0 /CapHeight 1000 /StemV 80 /FontFile2 ${program} 0 R >>`,
);
const cidFont = add(
  `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GlyphLessFont /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /DW 500 /CIDToGIDMap /Identity >>`,
);
const glyphless = add(
  `<< /Type /Font /Subtype /Type0 /BaseFont /GlyphLessFont /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${toUnicode} 0 R >>`,
);
const helvetica = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');

/** The OCR layer over the scan: `words` in 3 Tr, each stretched to its box. */
function ocrLayer(words) {
  let s = 'BT\n3 Tr\n';
  for (const w of words) {
    const hex = [...w.text].map((c) => hex4(c.charCodeAt(0))).join('');
    const tz = (100 * w.width) / (w.text.length * 0.5 * SIZE); // GlyphLessFont advances 0.5 em a glyph
    s += `/F0 ${SIZE} Tf ${num(tz)} Tz 1 0 0 1 ${num(w.x)} ${num(w.y)} Tm [<${hex}>] TJ\n`;
  }
  return s + 'ET\n';
}

const kids = [];
function scanPage(words) {
  const content = stream('', `q ${W} 0 0 ${H} 0 0 cm /Im0 Do Q\n${ocrLayer(words)}`);
  kids.push(
    add(
      `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${W} ${H}] /Resources << /Font << /F0 ${glyphless} 0 R >> /XObject << /Im0 ${image} 0 R >> >> /Contents ${content} 0 R >>`,
    ),
  );
}
scanPage(WORDS);
// the short words an engine gets right even on a bad scan are kept: the page stays poor, and the preview, which grades
// the words of a page whose text reads wrong one by one, shows them good among the garbage
const KEPT = new Set(['the', 'and', 'to', 'for']);
scanPage(WORDS.map((w, i) => ({ ...w, text: KEPT.has(w.text) ? w.text : garble(w.text, i) })));
scanPage(WORDS);
scanPage(WORDS.filter((w) => w.line === 0));
{
  let s = 'BT /F1 11 Tf 14 TL 60 700 Td\n';
  for (const line of PARAGRAPH) s += `(${line}) Tj T*\n`;
  const content = stream('', `${s}ET\n`);
  kids.push(
    add(
      `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${W} ${H}] /Resources << /Font << /F1 ${helvetica} 0 R >> >> /Contents ${content} 0 R >>`,
    ),
  );
}
objs[catalog - 1] = Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1');
objs[pagesObj - 1] = Buffer.from(`<< /Type /Pages /Count ${kids.length} /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] >>`, 'latin1');
const info = add('<< /Producer (Tesseract 5.3.0 \\(e2e fixture\\)) /Title (layer quality fixture) >>');

const parts = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
let at = parts[0].length;
const offsets = objs.map((body, i) => {
  const o = at;
  const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
  parts.push(b);
  at += b.length;
  return o;
});
let xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
xref += `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${at}\n%%EOF\n`;
parts.push(Buffer.from(xref, 'latin1'));

mkdirSync(OUT, { recursive: true });
const file = join(OUT, 'layer-quality.pdf');
writeFileSync(file, Buffer.concat(parts));
console.log(
  `${file}: ${Buffer.concat(parts).length} bytes, ${kids.length} pages, ${WORDS.length} words, scan ${scan.w}×${scan.h} (${scan.bytes.length} bytes of JPEG)`,
);
