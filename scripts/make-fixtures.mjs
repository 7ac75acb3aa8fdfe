#!/usr/bin/env node
// Writes the analyzer's test fixtures to test/fixtures/analyzer/.
//
// Every fixture is built byte by byte here (no PDF library) so that each one exercises exactly the
// structure its test is about. Needs only Node, plus Debian's `qpdf` for the encrypted variants
// (`apt-get install -y qpdf`). The output is committed; CI never runs this script.
//
//   node scripts/make-fixtures.mjs
//
// Page text is ASCII (plus one WinAnsi é) with no parentheses or backslashes in the source strings;
// the counts the tests assert are printed at the end (non-whitespace characters per block).

import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'analyzer');
mkdirSync(OUT, { recursive: true });

const latin1 = (s) => Buffer.from(s, 'latin1');
const r = (n) => `${n} 0 R`;
/** Numbers in content streams: short, no exponent, no float noise. */
const num = (x) => String(Math.round(x * 1000) / 1000);

// ---------------------------------------------------------------------------------------------
// A tiny PDF writer: numbered objects → bytes, with a classic xref table or an xref stream that
// packs every non-stream object into one object stream.

class Pdf {
  constructor(version = '1.7') {
    this.version = version;
    /** index = object number − 1; each entry { body: Buffer } or { dict: string, data: Buffer } */
    this.objs = [];
  }
  reserve() {
    this.objs.push(null);
    return this.objs.length;
  }
  /** body: any PDF object in PDF syntax */
  set(n, body) {
    this.objs[n - 1] = { body: latin1(body) };
    return n;
  }
  add(body) {
    return this.set(this.reserve(), body);
  }
  /** inner: dictionary entries without << >> and without /Length (added here) */
  setStream(n, inner, data) {
    this.objs[n - 1] = { dict: inner, data: typeof data === 'string' ? latin1(data) : Buffer.from(data) };
    return n;
  }
  addStream(inner, data) {
    return this.setStream(this.reserve(), inner, data);
  }
  /** A Flate-compressed stream. */
  addFlate(inner, data) {
    return this.addStream(`/Filter /FlateDecode ${inner}`, deflateSync(typeof data === 'string' ? latin1(data) : data));
  }

  static objBytes(o) {
    if (o.body) return o.body;
    return Buffer.concat([latin1(`<< ${o.dict} /Length ${o.data.length} >>\nstream\n`), o.data, latin1('\nendstream')]);
  }

  /**
   * @param {{root: number, info?: number, xref?: 'table' | 'stream', id?: boolean}} t
   */
  toBytes(t) {
    for (let i = 0; i < this.objs.length; i++) if (!this.objs[i]) throw new Error(`object ${i + 1} never set`);
    return t.xref === 'stream' ? this.#withXrefStream(t) : this.#withTable(t);
  }

  #header() {
    // the binary comment tells transfer tools the file is binary
    return Buffer.concat([latin1(`%PDF-${this.version}\n%`), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]), latin1('\n')]);
  }

  #trailerEntries(t, size) {
    let s = `/Size ${size} /Root ${r(t.root)}`;
    if (t.info) s += ` /Info ${r(t.info)}`;
    return s;
  }

  #withTable(t) {
    const parts = [this.#header()];
    let pos = parts[0].length;
    const offsets = [];
    this.objs.forEach((o, i) => {
      offsets.push(pos);
      const b = Buffer.concat([latin1(`${i + 1} 0 obj\n`), Pdf.objBytes(o), latin1('\nendobj\n')]);
      parts.push(b);
      pos += b.length;
    });
    const size = this.objs.length + 1;
    let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
    for (const off of offsets) xref += `${String(off).padStart(10, '0')} 00000 n \n`;
    xref += `trailer\n<< ${this.#trailerEntries(t, size)} >>\nstartxref\n${pos}\n%%EOF\n`;
    parts.push(latin1(xref));
    return Buffer.concat(parts);
  }

  #withXrefStream(t) {
    // Non-stream objects go into one object stream; streams stay top-level (they cannot be packed).
    const packed = [];
    const loose = [];
    this.objs.forEach((o, i) => (o.body ? packed : loose).push(i + 1));
    const objStmNum = this.objs.length + 1;
    const xrefNum = this.objs.length + 2;
    const size = this.objs.length + 3;

    let headerTxt = '';
    const bodies = [];
    let rel = 0;
    for (const n of packed) {
      headerTxt += `${n} ${rel} `;
      const b = Buffer.concat([this.objs[n - 1].body, latin1('\n')]);
      bodies.push(b);
      rel += b.length;
    }
    const header = latin1(headerTxt + '\n');
    const objStmData = deflateSync(Buffer.concat([header, ...bodies]));

    const parts = [this.#header()];
    let pos = parts[0].length;
    const entries = new Array(size); // [type, f2, f3]
    entries[0] = [0, 0, 65535];
    const emit = (n, objBytes) => {
      entries[n] = [1, pos, 0];
      const b = Buffer.concat([latin1(`${n} 0 obj\n`), objBytes, latin1('\nendobj\n')]);
      parts.push(b);
      pos += b.length;
    };
    for (const n of loose) emit(n, Pdf.objBytes(this.objs[n - 1]));
    emit(objStmNum, Pdf.objBytes({ dict: `/Type /ObjStm /N ${packed.length} /First ${header.length} /Filter /FlateDecode`, data: objStmData }));
    packed.forEach((n, idx) => (entries[n] = [2, objStmNum, idx]));
    entries[xrefNum] = [1, pos, 0];

    // W [1 4 2], rows PNG-Up-predicted as most writers do (Predictor 12, Columns 7)
    const W = [1, 4, 2];
    const cols = 7;
    const rows = Buffer.alloc(size * (cols + 1));
    let prev = Buffer.alloc(cols);
    for (let i = 0; i < size; i++) {
      const row = Buffer.alloc(cols);
      let k = 0;
      entries[i].forEach((v, f) => {
        for (let b = W[f] - 1; b >= 0; b--) row[k++] = Math.floor(v / 2 ** (8 * b)) & 0xff;
      });
      rows[i * (cols + 1)] = 2;
      for (let j = 0; j < cols; j++) rows[i * (cols + 1) + 1 + j] = (row[j] - prev[j]) & 0xff;
      prev = row;
    }
    const xrefData = deflateSync(rows);
    const xrefDict =
      `/Type /XRef ${this.#trailerEntries(t, size)} /W [1 4 2] /Filter /FlateDecode ` + `/DecodeParms << /Predictor 12 /Columns ${cols} >>`;
    parts.push(Buffer.concat([latin1(`${xrefNum} 0 obj\n`), Pdf.objBytes({ dict: xrefDict, data: xrefData }), latin1('\nendobj\n')]));
    parts.push(latin1(`startxref\n${pos}\n%%EOF\n`));
    return Buffer.concat(parts);
  }
}

// ---------------------------------------------------------------------------------------------
// Encoders for the stream filters (fixture 05).

function asciiHex(buf) {
  let s = '';
  for (let i = 0; i < buf.length; i++) {
    s += buf[i].toString(16).padStart(2, '0');
    if (i % 32 === 31) s += '\n';
  }
  return latin1(s + '>');
}

function ascii85(buf) {
  let s = '';
  let col = 0;
  const put = (t) => {
    s += t;
    col += t.length;
    if (col >= 70) {
      s += '\n';
      col = 0;
    }
  };
  for (let i = 0; i < buf.length; i += 4) {
    const n = Math.min(4, buf.length - i);
    let v = 0;
    for (let j = 0; j < 4; j++) v = v * 256 + (j < n ? buf[i + j] : 0);
    if (n === 4 && v === 0) {
      put('z');
      continue;
    }
    const d = [];
    for (let j = 0; j < 5; j++) {
      d.unshift(String.fromCharCode(33 + (v % 85)));
      v = Math.floor(v / 85);
    }
    put(d.slice(0, n + 1).join(''));
  }
  return latin1(s + '~>');
}

/** LZWDecode with the default EarlyChange 1: the code width grows one code before the table needs it. */
function lzw(buf) {
  const out = [];
  let acc = 0;
  let nbits = 0;
  const write = (code, width) => {
    acc = (acc << width) | code;
    nbits += width;
    while (nbits >= 8) {
      out.push((acc >>> (nbits - 8)) & 0xff);
      nbits -= 8;
    }
    acc &= (1 << nbits) - 1;
  };
  let dict;
  let next;
  let width;
  const reset = () => {
    dict = new Map();
    for (let i = 0; i < 256; i++) dict.set(String.fromCharCode(i), i);
    next = 258;
    width = 9;
  };
  reset();
  write(256, width);
  let w = '';
  for (let i = 0; i < buf.length; i++) {
    const c = String.fromCharCode(buf[i]);
    const wc = w + c;
    if (dict.has(wc)) {
      w = wc;
      continue;
    }
    write(dict.get(w), width);
    dict.set(wc, next++);
    // The decoder adds each entry one code later than the encoder, so its table is one short of
    // ours: it widens when (its next code) + EarlyChange reaches 2^width, i.e. when ours does.
    if (next >= 1 << width && width < 12) width++;
    if (next >= 4094) {
      write(256, width);
      reset();
    }
    w = c;
  }
  if (w) write(dict.get(w), width);
  // EOD: the decoder has added the entry for the last code too, before reading this one
  if (w && next + 1 >= 1 << width && width < 12) width++;
  write(257, width);
  if (nbits > 0) out.push((acc << (8 - nbits)) & 0xff);
  return Buffer.from(out);
}

function runLength(buf) {
  const out = [];
  let i = 0;
  while (i < buf.length) {
    let run = 1;
    while (i + run < buf.length && buf[i + run] === buf[i] && run < 128) run++;
    if (run >= 2) {
      out.push(257 - run, buf[i]);
      i += run;
      continue;
    }
    const start = i;
    while (i < buf.length && i - start < 128 && !(i + 1 < buf.length && buf[i + 1] === buf[i])) i++;
    if (i === start) i++;
    out.push(i - start - 1, ...buf.subarray(start, i));
  }
  out.push(128);
  return Buffer.from(out);
}

/** Flate over PNG "Up" rows (Predictor 12). */
function flatePngUp(buf, columns) {
  const rows = Math.ceil(buf.length / columns);
  const padded = Buffer.alloc(rows * columns, 0x20); // pad with spaces: harmless in a content stream
  buf.copy(padded);
  const out = Buffer.alloc(rows * (columns + 1));
  for (let y = 0; y < rows; y++) {
    out[y * (columns + 1)] = 2;
    for (let x = 0; x < columns; x++) {
      const up = y > 0 ? padded[(y - 1) * columns + x] : 0;
      out[y * (columns + 1) + 1 + x] = (padded[y * columns + x] - up) & 0xff;
    }
  }
  return deflateSync(out);
}

// ---------------------------------------------------------------------------------------------
// Page text and content helpers.

const PARAGRAPH = [
  'Scanned documents and born-digital files look alike on screen, yet only',
  'one of them carries a text layer that search, copy and screen readers',
  'can use. This paragraph exists so that the analyzer sees a page with',
  'plenty of ordinary characters drawn in Helvetica through the WinAnsi',
  'encoding, including a caf\u00e9 accent, digits 0123456789 and punctuation;',
  'every line is drawn with one of several text showing operators.',
];
const nonWs = (s) => s.replace(/\s/g, '').length;
const PARAGRAPH_CHARS = PARAGRAPH.reduce((a, l) => a + nonWs(l), 0);

/** A caption of exactly 100 non-whitespace characters, cut from the paragraph. */
const CAPTION = (() => {
  const all = PARAGRAPH.join(' ');
  let n = 0;
  let i = 0;
  while (n < 100) if (!/\s/.test(all[i++])) n++;
  return [all.slice(0, i).slice(0, 70), all.slice(0, i).slice(70)].map((s) => s.trim());
})();

function pdfString(s) {
  let o = '(';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch === '(' || ch === ')' || ch === '\\') o += '\\' + ch;
    else if (c < 32 || c > 126) o += '\\' + c.toString(8).padStart(3, '0');
    else o += ch;
  }
  return o + ')';
}

/**
 * Text lines in one BT…ET, shown with a mix of Tj, TJ (with kerning) and ' so that every showing
 * operator is exercised.
 */
function textBlock(lines, { x = 72, y = 720, size = 10, leading = 13, font = 'F1', mode = 0 } = {}) {
  let s = `BT /${font} ${size} Tf ${leading} TL ${mode ? `${mode} Tr ` : ''}${num(x)} ${num(y)} Td\n`;
  lines.forEach((line, i) => {
    if (i % 3 === 0) {
      s += `${i ? 'T* ' : ''}${pdfString(line)} Tj\n`;
    } else if (i % 3 === 1) {
      const words = line.split(' ');
      const half = Math.ceil(words.length / 2);
      s += `T* [${pdfString(words.slice(0, half).join(' ') + ' ')} -12 ${pdfString(words.slice(half).join(' '))}] TJ\n`;
    } else {
      s += `${pdfString(line)} '\n`;
    }
  });
  return s + 'ET\n';
}

const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
const FULL_PAGE = '612 0 0 792 0 0 cm';

/** A 100×100 gray image with real (deflated) pixel data. */
function grayImage(pdf, gray = 0xc0) {
  return pdf.addStream(
    '/Type /XObject /Subtype /Image /Width 100 /Height 100 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode',
    deflateSync(Buffer.alloc(100 * 100, gray)),
  );
}

// A real 16×16 baseline JPEG (gray 200), made once with mupdf's Pixmap.asJPEG and pasted here so the
// script stays dependency-free.
const JPEG16 = Buffer.from(
  '/9j/4AAQSkZJRgABAQEAYABgAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/wgALCAAQABABAREA/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/2gAIAQEAAAABpD//xAAUEAEAAAAAAAAAAAAAAAAAAAAg/9oACAEBAAEFAh//xAAUEAEAAAAAAAAAAAAAAAAAAAAg/9oACAEBAAY/Ah//xAAUEAEAAAAAAAAAAAAAAAAAAAAg/9oACAEBAAE/IR//2gAIAQEAAAAQD//EABQQAQAAAAAAAAAAAAAAAAAAACD/2gAIAQEAAT8QH//Z',
  'base64',
);
function jpegImage(pdf) {
  return pdf.addStream('/Type /XObject /Subtype /Image /Width 16 /Height 16 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /DCTDecode', JPEG16);
}

/**
 * Builds catalog + one /Pages node over pages made by the callbacks. Each callback gets (pdf, parent)
 * and returns its page object number.
 */
function doc(pageFns, { version = '1.7', pagesExtra = '', info = true } = {}) {
  const pdf = new Pdf(version);
  const catalog = pdf.reserve();
  const pages = pdf.reserve();
  const kids = pageFns.map((fn) => fn(pdf, pages));
  pdf.set(pages, `<< /Type /Pages /Kids [${kids.map(r).join(' ')}] /Count ${kids.length} ${pagesExtra}>>`);
  pdf.set(catalog, `<< /Type /Catalog /Pages ${r(pages)} >>`);
  const infoNum = info ? pdf.add('<< /Producer (make-fixtures.mjs) /Title (analyzer fixture) >>') : undefined;
  return { pdf, catalog, info: infoNum };
}

/** A page; resources and extra are PDF syntax; content is a string (plain) or a stream number. */
function page(pdf, parent, { content, resources = '', extra = '', mediaBox = '[0 0 612 792]' }) {
  const c = typeof content === 'number' ? content : content === undefined ? undefined : pdf.addStream('', content);
  return pdf.add(
    `<< /Type /Page /Parent ${r(parent)} ${mediaBox ? `/MediaBox ${mediaBox} ` : ''}/Resources << ${resources} >> ` +
      `${c !== undefined ? `/Contents ${r(c)} ` : ''}${extra}>>`,
  );
}

function textPage(opts = {}) {
  return (pdf, parent) => {
    const font = pdf.add(HELVETICA);
    return page(pdf, parent, { content: textBlock(PARAGRAPH), resources: `/Font << /F1 ${r(font)} >>`, ...opts });
  };
}

function scanPage(opts = {}) {
  return (pdf, parent) => {
    const im = grayImage(pdf);
    return page(pdf, parent, { content: `q ${FULL_PAGE} /Im1 Do Q\n`, resources: `/XObject << /Im1 ${r(im)} >>`, ...opts });
  };
}

const written = [];
function write(name, bytes, what) {
  writeFileSync(join(OUT, name), bytes);
  written.push([name, bytes.length, what]);
}
const save = (name, d, what, xref = 'table') => {
  const bytes = d.pdf.toBytes({ root: d.catalog, info: d.info, xref });
  write(name, bytes, what);
  return bytes;
};

// ---------------------------------------------------------------------------------------------
// The fixtures.

// 01 plain text page
const text01 = save('01-text.pdf', doc([textPage()]), 'Helvetica/WinAnsi paragraph → text');

// 02 same objects, xref stream + object stream (catalog, pages, page and font dicts packed)
save('02-text-objstm.pdf', doc([textPage()], { version: '1.5' }), 'xref stream (PNG-Up predicted) + object stream → text', 'stream');

// 03 broken xref: every offset wrong, startxref pointing into the header
{
  const s = text01.toString('latin1');
  const xrefAt = s.lastIndexOf('\nxref\n') + 1;
  const head = s.slice(0, xrefAt);
  let tail = s.slice(xrefAt);
  let k = 0;
  tail = tail.replace(/^(\d{10}) 00000 n /gm, () => `${String(100000 + 7919 * ++k).padStart(10, '0')} 00000 n `);
  tail = tail.replace(/startxref\n\d+\n/, 'startxref\n9\n');
  write('03-broken-xref.pdf', latin1(head + tail), 'xref offsets garbage, startxref wrong → text via repair');
}

// 04 truncated at 70%: page objects first, a bulky XMP stream last, so the cut lands in the XMP
{
  const d = doc([textPage()]);
  const xmp =
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>\n<x:xmpmeta xmlns:x="adobe:ns:meta/">\n' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n' +
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt>' +
    '<rdf:li xml:lang="x-default">truncated fixture</rdf:li></rdf:Alt></dc:title></rdf:Description>\n' +
    '</rdf:RDF>\n</x:xmpmeta>\n' +
    ' '.repeat(100).concat('\n').repeat(12) +
    '<?xpacket end="w"?>';
  d.pdf.addStream('/Type /Metadata /Subtype /XML', xmp);
  const full = d.pdf.toBytes({ root: d.catalog, info: d.info });
  const cut = Math.floor(full.length * 0.7);
  const s = full.toString('latin1');
  const contentEnd = s.indexOf('endstream'); // the first stream is page 1's content
  const fontAt = s.indexOf('/BaseFont /Helvetica');
  const pageAt = s.indexOf('/Type /Page ');
  if (!(contentEnd > 0 && contentEnd < cut && fontAt < cut && pageAt > 0 && pageAt < cut))
    throw new Error('04: cut would not fall after the page content');
  write(
    '04-truncated.pdf',
    full.subarray(0, cut),
    'cut at 70 % inside a trailing XMP stream: xref and trailer lost, page objects intact → page 1 recoverable as text',
  );
}

// 05 one page per filter (and a filter chain)
{
  const content = latin1(textBlock(PARAGRAPH));
  // the LZW page must outgrow 9-bit codes (table past entry 511) to exercise EarlyChange
  if (258 + (lzw(content).length * 8) / 10 < 512) throw new Error('05: LZW stream too short to reach 10-bit codes');
  const variants = [
    ['/Filter /ASCIIHexDecode', asciiHex(content)],
    ['/Filter /ASCII85Decode', ascii85(content)],
    ['/Filter /LZWDecode', lzw(content)],
    ['/Filter /RunLengthDecode', runLength(content)],
    ['/Filter /FlateDecode /DecodeParms << /Predictor 12 /Colors 1 /BitsPerComponent 8 /Columns 16 >>', flatePngUp(content, 16)],
    ['/Filter [/ASCII85Decode /FlateDecode]', ascii85(deflateSync(content))],
  ];
  const d = doc(
    variants.map(([inner, data]) => (pdf, parent) => {
      const font = pdf.add(HELVETICA);
      return page(pdf, parent, { content: pdf.addStream(inner, data), resources: `/Font << /F1 ${r(font)} >>` });
    }),
  );
  save('05-filters.pdf', d, 'pages: ASCIIHex, ASCII85, LZW, RunLength, Flate+PNG Up, [A85 Flate]; each the paragraph → text');
}

// 06 encryption via qpdf
{
  const tmp = join(tmpdir(), `mkfix-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  const src = join(tmp, 'in.pdf');
  writeFileSync(src, text01);
  let haveQpdf = true;
  try {
    execFileSync('qpdf', ['--version'], { stdio: 'ignore' });
  } catch {
    haveQpdf = false;
    console.warn('qpdf not found: the committed 06-* files are kept as they are');
  }
  const enc = (name, what, args) => {
    if (!haveQpdf) {
      // keep the committed file (and its README line) rather than fail every other fixture
      written.push([name, readFileSync(join(OUT, name)).length, what]);
      return;
    }
    const dst = join(tmp, name);
    // --static-id/--static-aes-iv keep reruns byte-stable where qpdf allows it
    execFileSync('qpdf', ['--static-id', '--allow-weak-crypto', ...args, src, dst]);
    write(name, readFileSync(dst), what);
  };
  enc('06-enc-r2-rc4-40.pdf', 'R2 RC4 40-bit, empty user password → text, RC4-40', ['--encrypt', '', 'owner', '40', '--']);
  enc('06-enc-r3-rc4-128.pdf', 'R3 RC4 128-bit, empty user password → text, RC4-128', ['--encrypt', '', 'owner', '128', '--use-aes=n', '--']);
  enc('06-enc-r4-aes-128.pdf', 'R4 AESV2, empty user password → text, AES-128', [
    '--static-aes-iv',
    '--encrypt',
    '',
    'owner',
    '128',
    '--use-aes=y',
    '--',
  ]);
  enc('06-enc-r5-aes-256.pdf', 'R5 (deprecated) AES-256, empty user password → text, AES-256', [
    '--static-aes-iv',
    '--encrypt',
    '',
    'owner',
    '256',
    '--force-R5',
    '--',
  ]);
  enc('06-enc-r6-aes-256.pdf', 'R6 AES-256, empty user password → text, AES-256', ['--static-aes-iv', '--encrypt', '', 'owner', '256', '--']);
  enc('06-enc-user-password.pdf', 'R6 AES-256, user password "secret" → unknown/password-required; with password → text', [
    '--static-aes-iv',
    '--encrypt',
    'secret',
    'owner',
    '256',
    '--',
  ]);
  rmSync(tmp, { recursive: true, force: true });
}

// 07 scan: one full-page DCT image
save(
  '07-scan.pdf',
  doc([
    (pdf, parent) => {
      const im = jpegImage(pdf);
      return page(pdf, parent, { content: `q ${FULL_PAGE} /Im1 Do Q\n`, resources: `/XObject << /Im1 ${r(im)} >>` });
    },
  ]),
  'one full-page DCT image → ocr, coverage 1',
);

// 08 strips: (1) 10 abutting strips, (2) 10 strips overlapping by half, union 60 % of the page,
// (3) three rectangles overlapping in both axes
const RECTS_08 = [
  [0, 0, 400, 400],
  [200, 200, 612, 792],
  [300, 0, 612, 300],
];
{
  // p1 uses one XObject per strip; p2 and p3 paint one XObject several times
  const stripsPage = (boxes, distinct) => (pdf, parent) => {
    let content = '';
    let xo = '';
    boxes.forEach(([x0, y0, x1, y1], i) => {
      const name = distinct ? `Im${i}` : 'Im0';
      if (distinct || i === 0) xo += `/${name} ${r(grayImage(pdf, 0x40 + i * 8))} `;
      content += `q ${num(x1 - x0)} 0 0 ${num(y1 - y0)} ${num(x0)} ${num(y0)} cm /${name} Do Q\n`;
    });
    return page(pdf, parent, { content, resources: `/XObject << ${xo}>>` });
  };
  const abut = Array.from({ length: 10 }, (_, i) => [0, i * 79.2, 612, (i + 1) * 79.2]);
  const h = 86.4; // 10 strips of 86.4 stepping 43.2: union 11 × 43.2 = 475.2 = 0.6 × 792; sum 1.09 pages
  const overlap = Array.from({ length: 10 }, (_, i) => [0, i * (h / 2), 612, i * (h / 2) + h]);
  save(
    '08-strips.pdf',
    doc([stripsPage(abut, true), stripsPage(overlap, false), stripsPage(RECTS_08, false)]),
    'p1 10 strips tiling the page → ocr cov 1; p2 strips overlapping 50 % → ocr cov 0.6; p3 3 rects overlapping in 2-D → ocr cov 0.8383',
  );
}

// 09 inline images whose data holds "EI", " EI " and "\nEI\n"
{
  const W = 40;
  const H = 40;
  const data = Buffer.alloc(W * H);
  for (let i = 0; i < data.length; i++) data[i] = 0x80 + ((i * 37) & 0x7f); // non-ASCII bytes
  latin1('EI').copy(data, 100); // preceded by a binary byte: not a delimiter-bounded EI
  latin1(' EI ').copy(data, 500); // bounded by spaces, followed by binary bytes
  data[504] = 0x00;
  data[505] = 0xff;
  latin1('\nEI\n').copy(data, 900);
  data[904] = 0xc8;
  const inline = (withL) =>
    Buffer.concat([latin1(`q ${FULL_PAGE}\nBI /W ${W} /H ${H} /BPC 8 /CS /G${withL ? ` /L ${data.length}` : ''} ID\n`), data, latin1('\nEI Q\n')]);
  const inlinePage = (withL, withText) => (pdf, parent) => {
    const font = pdf.add(HELVETICA);
    const content = Buffer.concat([inline(withL), withText ? latin1(textBlock(PARAGRAPH)) : latin1('0 g\n')]);
    return page(pdf, parent, { content: pdf.addFlate('', content), resources: `/Font << /F1 ${r(font)} >>` });
  };
  save(
    '09-inline-image.pdf',
    doc([inlinePage(true, false), inlinePage(false, false), inlinePage(false, true)]),
    'full-page inline image with EI inside its data: p1 has /L → ocr; p2 no /L → ocr; p3 no /L + paragraph after → text',
  );
}

// 10 form → form → image, each level scaling with /Matrix
save(
  '10-nested-forms.pdf',
  doc([
    (pdf, parent) => {
      const im = grayImage(pdf);
      const fm2 = pdf.addStream(
        `/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Matrix [306 0 0 396 0 0] /Resources << /XObject << /Im1 ${r(im)} >> >>`,
        '/Im1 Do\n',
      );
      const fm1 = pdf.addStream(
        `/Type /XObject /Subtype /Form /BBox [0 0 306 396] /Matrix [2 0 0 2 0 0] /Resources << /XObject << /Fm2 ${r(fm2)} >> >>`,
        '/Fm2 Do\n',
      );
      return page(pdf, parent, { content: '/Fm1 Do\n', resources: `/XObject << /Fm1 ${r(fm1)} >>` });
    },
  ]),
  'form (Matrix ×2) → form (Matrix 306×396) → image → ocr, coverage 1',
);

// 11 rotation: /Rotate 90 on the page, and -90 inherited from an intermediate /Pages node (→ 270)
{
  const d = doc([
    textPage({ extra: '/Rotate 90 ' }),
    scanPage({ extra: '/Rotate 90 ' }),
    (pdf, parent) => {
      const mid = pdf.reserve();
      const kid = textPage()(pdf, mid);
      pdf.set(mid, `<< /Type /Pages /Parent ${r(parent)} /Kids [${r(kid)}] /Count 1 /Rotate -90 >>`);
      return mid;
    },
  ]);
  save('11-rotated.pdf', d, 'p1 text /Rotate 90 → text; p2 scan /Rotate 90 → ocr; p3 text, /Rotate -90 inherited → text, rotate 270');
}

// 12 CropBox inside MediaBox
{
  const CROP = '[100 100 512 692]';
  const frame = [
    [0, 0, 612, 100],
    [0, 692, 612, 792],
    [0, 100, 100, 692],
    [512, 100, 612, 692],
  ];
  const d = doc([
    (pdf, parent) => {
      const im = grayImage(pdf);
      const content = frame.map(([x0, y0, x1, y1]) => `q ${x1 - x0} 0 0 ${y1 - y0} ${x0} ${y0} cm /Im1 Do Q\n`).join('');
      return page(pdf, parent, { content, resources: `/XObject << /Im1 ${r(im)} >>`, extra: `/CropBox ${CROP} ` });
    },
    (pdf, parent) => {
      const im = grayImage(pdf);
      return page(pdf, parent, {
        content: 'q 412 0 0 592 100 100 cm /Im1 Do Q\n',
        resources: `/XObject << /Im1 ${r(im)} >>`,
        extra: `/CropBox ${CROP} `,
      });
    },
  ]);
  save('12-cropbox.pdf', d, 'CropBox [100 100 512 692]: p1 images only in the frame outside it → not ocr, cov 0; p2 image = CropBox → ocr, cov 1');
}

// 13 OCR layer: scan + invisible text (3 Tr)
save(
  '13-ocr-layer.pdf',
  doc([
    (pdf, parent) => {
      const im = grayImage(pdf);
      const font = pdf.add(HELVETICA);
      return page(pdf, parent, {
        content: `q ${FULL_PAGE} /Im1 Do Q\n` + textBlock(PARAGRAPH, { mode: 3 }),
        resources: `/Font << /F1 ${r(font)} >> /XObject << /Im1 ${r(im)} >>`,
      });
    },
  ]),
  'full-page image then paragraph in 3 Tr → ocr-layer',
);

// 14 visible text painted over by an opaque full-page image
save(
  '14-text-under-image.pdf',
  doc([
    (pdf, parent) => {
      const im = grayImage(pdf);
      const font = pdf.add(HELVETICA);
      return page(pdf, parent, {
        content: textBlock(PARAGRAPH) + `q ${FULL_PAGE} /Im1 Do Q\n`,
        resources: `/Font << /F1 ${r(font)} >> /XObject << /Im1 ${r(im)} >>`,
      });
    },
  ]),
  'paragraph (mode 0) then an opaque full-page image over it → ocr-layer, hidden under image',
);

// 15 vector-only, blank, few strokes, small image
{
  let vec = '0.5 w\n';
  for (let i = 0; i < 25; i++) vec += `${72 + (i % 5) * 90} ${100 + Math.floor(i / 5) * 120} 80 100 re f\n`;
  for (let i = 0; i < 25; i++) vec += `${72 + i * 18} 700 m ${90 + i * 18} 760 l S\n`;
  const d = doc([
    (pdf, parent) => page(pdf, parent, { content: vec }),
    (pdf, parent) => page(pdf, parent, { content: '' }),
    (pdf, parent) => page(pdf, parent, { content: '1 w 72 72 m 540 72 l S 72 720 m 540 720 l S 72 72 m 72 720 l S\n' }),
    (pdf, parent) => {
      const im = grayImage(pdf);
      return page(pdf, parent, { content: 'q 100 0 0 50 72 700 cm /Im1 Do Q\n', resources: `/XObject << /Im1 ${r(im)} >>` });
    },
  ]);
  save(
    '15-vector.pdf',
    d,
    'p1 25 fills + 25 strokes → review vector-only; p2 empty content → blank; p3 3 strokes → blank; p4 one 100×50 pt logo → review small-image-only',
  );
}

// 16 Type0/Identity-H font, no ToUnicode, no font program
{
  const d = doc([
    (pdf, parent) => {
      const fd = pdf.add(
        '<< /Type /FontDescriptor /FontName /ABCDEF+NoUnicodeSans /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
      );
      const cid = pdf.add(
        `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+NoUnicodeSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${r(fd)} /DW 500 /CIDToGIDMap /Identity >>`,
      );
      const font = pdf.add(`<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+NoUnicodeSans /Encoding /Identity-H /DescendantFonts [${r(cid)}] >>`);
      let content = 'BT /F1 10 Tf 13 TL 72 720 Td\n';
      // 10 lines × 30 two-byte codes; subset-like low glyph ids (0x11…0x60), never 0 or 3 (often .notdef/space)
      for (let line = 0; line < 10; line++) {
        let hex = '';
        for (let i = 0; i < 30; i++) hex += (0x11 + (((line * 30 + i) * 7) % 80)).toString(16).padStart(4, '0');
        content += `${line ? 'T* ' : ''}<${hex}> Tj\n`;
      }
      content += 'ET\n';
      return page(pdf, parent, { content, resources: `/Font << /F1 ${r(font)} >>` });
    },
  ]);
  save('16-cid-no-tounicode.pdf', d, 'Type0 Identity-H, no ToUnicode, 300 codes → ocr undecodable-text');
}

// 17 mixed: 3 text pages then a scan; MediaBox inherited from the root /Pages
save(
  '17-mixed.pdf',
  doc([textPage({ mediaBox: '' }), textPage({ mediaBox: '' }), textPage({ mediaBox: '' }), scanPage({ mediaBox: '' })], {
    pagesExtra: '/MediaBox [0 0 612 792] ',
  }),
  '3 text pages + scan (MediaBox inherited) → needsOcr, ocrPages [4]',
);

// 18 caption of 100 chars over a scan
save(
  '18-caption-over-scan.pdf',
  doc([
    (pdf, parent) => {
      const im = grayImage(pdf);
      const font = pdf.add(HELVETICA);
      return page(pdf, parent, {
        content: `q ${FULL_PAGE} /Im1 Do Q\n` + textBlock(CAPTION, { y: 60 }),
        resources: `/Font << /F1 ${r(font)} >> /XObject << /Im1 ${r(im)} >>`,
      });
    },
  ]),
  'full-page image + 100 visible chars after it → review few-chars-over-image',
);

// 19 stamp annotation whose appearance is a full-page image (BBox 100×100 mapped onto the page Rect)
{
  const stampPage = (flags) => (pdf, parent) => {
    const im = grayImage(pdf);
    const ap = pdf.addStream(
      `/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /XObject << /Im1 ${r(im)} >> >>`,
      'q 100 0 0 100 0 0 cm /Im1 Do Q\n',
    );
    const annot = pdf.add(`<< /Type /Annot /Subtype /Stamp /Rect [0 0 612 792] /F ${flags} /AP << /N ${r(ap)} >> >>`);
    return page(pdf, parent, { content: '', extra: `/Annots [${r(annot)}] ` });
  };
  save(
    '19-annotation.pdf',
    doc([stampPage(4), stampPage(2)]),
    'empty content + /Stamp whose /AP /N is a full-page image: p1 /F 4 → ocr; p2 /F 2 hidden → blank',
  );
}

// 20 text outside the visible box
{
  const d = doc([
    // below the MediaBox entirely
    (pdf, parent) => {
      const font = pdf.add(HELVETICA);
      return page(pdf, parent, { content: textBlock(PARAGRAPH, { y: -200 }), resources: `/Font << /F1 ${r(font)} >>` });
    },
    // inside the MediaBox, in the margin under the CropBox
    (pdf, parent) => {
      const font = pdf.add(HELVETICA);
      return page(pdf, parent, {
        content: textBlock(PARAGRAPH, { y: 180 }),
        resources: `/Font << /F1 ${r(font)} >>`,
        extra: '/CropBox [0 300 612 792] ',
      });
    },
  ]);
  save('20-text-outside-crop.pdf', d, 'paragraph p1 below the MediaBox, p2 under a CropBox [0 300 612 792] → not text, chars invisible');
}

// 21 not a PDF, empty file
{
  const junk = Buffer.alloc(1024);
  let x = 0x9e3779b9;
  for (let i = 0; i < junk.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    junk[i] = x & 0xff;
  }
  if (junk.includes(latin1('%PDF'))) throw new Error('21: junk contains a header');
  write('21-not-a-pdf.pdf', junk, '1 KB of pseudo-random bytes → error not-a-pdf, no throw');
  write('21-empty.pdf', Buffer.alloc(0), '0 bytes → error empty-file, no throw');
}

// 22 text drawn in clip mode (7 Tr): an image painted through the clip shows the glyphs
{
  const clipPage = (order) => (pdf, parent) => {
    const im = grayImage(pdf, 0x30);
    const font = pdf.add(HELVETICA);
    const text = textBlock(PARAGRAPH, { mode: 7 });
    const image = `q ${FULL_PAGE} /Im1 Do Q\n`;
    // a form that paints the image, for the clip inherited by a form
    const form = pdf.addStream(`/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Im1 ${r(im)} >> >>`, image);
    let content;
    if (order === 'through') content = `q\n${text}${image}Q\n`;
    else if (order === 'before') content = image + text;
    else if (order === 'after-restore')
      content = `q\n${text}Q\n${image}`; // the clip is restored before the image is painted
    else if (order === 'fill') content = `q\n${text}0 0 1 rg 0 0 612 792 re f\nQ\n`;
    else content = `q\n${text}/Fm1 Do\nQ\n`;
    return page(pdf, parent, { content, resources: `/Font << /F1 ${r(font)} >> /XObject << /Im1 ${r(im)} /Fm1 ${r(form)} >>` });
  };
  save(
    '22-clip-text.pdf',
    doc([clipPage('through'), clipPage('before'), clipPage('after-restore'), clipPage('fill'), clipPage('form')]),
    'paragraph in 7 Tr: p1 a full-page image painted through the clip → text (the glyphs show); p2 image painted before → ocr-layer; p3 image after Q restored the clip → ocr-layer; p4 a blue rectangle filled through the clip → text; p5 a form painting the image through the clip → text',
  );
}

/** A ToUnicode CMap of single-byte codes; `map(code)` gives the UTF-16 unit written for each printable ASCII code. */
function simpleToUnicode(pdf, map) {
  const entries = [];
  for (let c = 0x21; c < 0x7f; c++) entries.push(`<${c.toString(16).padStart(2, '0')}> <${map(c).toString(16).padStart(4, '0')}>`);
  let body = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Fixture-UTF16 def /CMapType 2 def\n';
  body += '1 begincodespacerange <00> <FF> endcodespacerange\n';
  for (let i = 0; i < entries.length; i += 50) {
    const chunk = entries.slice(i, i + 50);
    body += `${chunk.length} beginbfchar\n${chunk.join('\n')}\nendbfchar\n`;
  }
  body += 'endcmap CMapName currentdict /CMap defineresource pop end end\n';
  return pdf.addFlate('', body);
}
/** Helvetica/WinAnsi whose ToUnicode writes every code byte-swapped: U+4100 for A, as a little-endian producer would. */
function swappedFont(pdf) {
  const tu = simpleToUnicode(pdf, (c) => c << 8);
  return pdf.add(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode ${r(tu)} >>`);
}

// 23 byte-swapped ToUnicode, and genuine CJK text that happens to hold a few U+XX00 ideographs
{
  const cjkPage = (pdf, parent) => {
    // 80 two-byte codes → ideographs spread over the CJK block; 4 of them end in 00 (U+4E00 一 and friends)
    const targets = [];
    for (let k = 0; k < 80; k++) targets.push(0x4e01 + k * 131);
    targets[5] = 0x4e00;
    targets[17] = 0x5b00;
    targets[40] = 0x6700;
    targets[63] = 0x7500;
    let cm = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Fixture-CJK def /CMapType 2 def\n';
    cm += '1 begincodespacerange <0000> <FFFF> endcodespacerange\n';
    for (let i = 0; i < targets.length; i += 40) {
      const chunk = targets.slice(i, i + 40);
      cm +=
        `${chunk.length} beginbfchar\n` +
        chunk.map((t, j) => `<${(0x10 + i + j).toString(16).padStart(4, '0')}> <${t.toString(16)}>`).join('\n') +
        '\nendbfchar\n';
    }
    cm += 'endcmap CMapName currentdict /CMap defineresource pop end end\n';
    const tu = pdf.addFlate('', cm);
    const cid = pdf.add(
      '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /FixtureMing /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 /CIDToGIDMap /Identity >>',
    );
    const font = pdf.add(
      `<< /Type /Font /Subtype /Type0 /BaseFont /FixtureMing /Encoding /Identity-H /DescendantFonts [${r(cid)}] /ToUnicode ${r(tu)} >>`,
    );
    let content = 'BT /F1 12 Tf 14 TL 72 720 Td\n';
    for (let line = 0; line < 4; line++) {
      let hex = '';
      for (let i = 0; i < 20; i++) hex += (0x10 + line * 20 + i).toString(16).padStart(4, '0');
      content += `${line ? 'T* ' : ''}<${hex}> Tj\n`;
    }
    content += 'ET\n';
    return page(pdf, parent, { content, resources: `/Font << /F1 ${r(font)} >>` });
  };
  const d = doc([
    (pdf, parent) => page(pdf, parent, { content: textBlock(PARAGRAPH), resources: `/Font << /F1 ${r(swappedFont(pdf))} >>` }),
    (pdf, parent) => {
      const tu = simpleToUnicode(pdf, (c) => c);
      const font = pdf.add(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode ${r(tu)} >>`);
      return page(pdf, parent, { content: textBlock(PARAGRAPH), resources: `/Font << /F1 ${r(font)} >>` });
    },
    cjkPage,
  ]);
  save(
    '23-swapped-tounicode.pdf',
    d,
    'p1 paragraph whose ToUnicode is byte-swapped (U+4100 for A) → ocr undecodable-text; p2 same font, correct ToUnicode → text; p3 Type0 with 80 genuine ideographs, 4 of them U+XX00 → text',
  );
}

// 24 both: clip-mode text with a byte-swapped ToUnicode, an image painted through it
save(
  '24-clip-swapped.pdf',
  doc([
    (pdf, parent) => {
      const im = grayImage(pdf, 0x30);
      const font = swappedFont(pdf);
      return page(pdf, parent, {
        content: `q\n${textBlock(PARAGRAPH, { mode: 7 })}q ${FULL_PAGE} /Im1 Do Q\nQ\n`,
        resources: `/Font << /F1 ${r(font)} >> /XObject << /Im1 ${r(im)} >>`,
      });
    },
  ]),
  'paragraph in 7 Tr with a byte-swapped ToUnicode, full-page image painted through the clip → ocr undecodable-text (words on the page that cannot be read from the file)',
);

// 25 content streams that do not decode: nothing recovered → unknown damaged; part recovered → what it shows
{
  const content = latin1(textBlock(PARAGRAPH));
  const z = deflateSync(content);
  // the first deflate block claims the reserved block type 3: nothing decodes
  const garbage = Buffer.concat([z.subarray(0, 2), Buffer.from([0x07]), z.subarray(2)]);
  const d = doc([
    (pdf, parent) => {
      const font = pdf.add(HELVETICA);
      return page(pdf, parent, { content: pdf.addStream('/Filter /FlateDecode', garbage), resources: `/Font << /F1 ${r(font)} >>` });
    },
    (pdf, parent) => {
      const font = pdf.add(HELVETICA);
      // the paragraph stored uncompressed in a deflate stored block, then junk where the next block header should be
      const stored = Buffer.alloc(5 + content.length);
      stored[0] = 0x00; // not final, stored
      stored.writeUInt16LE(content.length, 1);
      stored.writeUInt16LE(~content.length & 0xffff, 3);
      content.copy(stored, 5);
      const data = Buffer.concat([Buffer.from([0x78, 0x01]), stored, Buffer.from([0x07, 0xff, 0xff, 0xff])]);
      return page(pdf, parent, { content: pdf.addStream('/Filter /FlateDecode', data), resources: `/Font << /F1 ${r(font)} >>` });
    },
  ]);
  save(
    '25-damaged-content.pdf',
    d,
    'p1 Flate content stream that decodes to nothing → unknown damaged; p2 the paragraph decodes, then the stream breaks → text (a note says so)',
  );
}

// 26 an OCR'd scan as Tesseract writes it: a page image with words of ink, then the words again in 3 Tr with
// GlyphLessFont (Type0 / Identity-H over a CIDFontType2 with an embedded program; codes are UTF-16 units, a ToUnicode
// map gives them back), each word placed with Tm and stretched to its box with Tz. Page 2 holds all three
// visibilities: a visible heading, a paragraph drawn then covered by an opaque image (hidden), and an OCR layer in
// 3 Tr over that image (invisible).
{
  const W = 612;
  const H = 792;
  const SIZE = 12;
  /** the words of the first lines of the paragraph, laid out at 6.6 pt a character, 16 pt between lines */
  const words = [];
  PARAGRAPH.slice(0, 6).forEach((line, i) => {
    let x = 72;
    const y = 700 - i * 16;
    for (const w of line.split(' ')) {
      const width = w.length * 6.6;
      words.push({ text: w, x, y, width });
      x += width + 6;
    }
  });
  /** a gray page image (1 px per pt) with a dark bar where each word's ink is */
  const scan = (pdf) => {
    const px = Buffer.alloc(W * H, 0xf4);
    for (const w of words)
      for (let y = Math.round(H - (w.y + 8)); y < Math.round(H - (w.y - 1)); y++)
        for (let x = Math.round(w.x); x < Math.round(w.x + w.width); x++) px[y * W + x] = 0x30;
    return pdf.addStream(
      `/Type /XObject /Subtype /Image /Width ${W} /Height ${H} /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode`,
      deflateSync(px),
    );
  };
  const glyphless = (pdf) => {
    const used = [...new Set(words.flatMap((w) => [...w.text].map((c) => c.charCodeAt(0))))].sort((a, b) => a - b);
    let cm =
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n';
    cm += '/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n';
    for (let i = 0; i < used.length; i += 100) {
      const chunk = used.slice(i, i + 100);
      cm += `${chunk.length} beginbfchar\n${chunk.map((c) => `<${c.toString(16).padStart(4, '0')}> <${c.toString(16).padStart(4, '0')}>`).join('\n')}\nendbfchar\n`;
    }
    cm += 'endcmap CMapName currentdict /CMap defineresource pop end end\n';
    const tu = pdf.addFlate('', cm);
    // a stand-in for Tesseract's pdf.ttf (the analyzer reads no outlines; a viewer draws nothing in 3 Tr anyway)
    const program = pdf.addFlate('/Length1 16', Buffer.alloc(16));
    const fd = pdf.add(
      `<< /Type /FontDescriptor /FontName /GlyphLessFont /Flags 5 /FontBBox [0 0 500 1000] /ItalicAngle 0 /Ascent 1000 /Descent 0 /CapHeight 1000 /StemV 80 /FontFile2 ${r(program)} >>`,
    );
    const cid = pdf.add(
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GlyphLessFont /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${r(fd)} /DW 500 /CIDToGIDMap /Identity >>`,
    );
    return pdf.add(
      `<< /Type /Font /Subtype /Type0 /BaseFont /GlyphLessFont /Encoding /Identity-H /DescendantFonts [${r(cid)}] /ToUnicode ${r(tu)} >>`,
    );
  };
  const ocrLayer = () => {
    let s = 'BT\n3 Tr\n';
    for (const w of words) {
      const hex = [...w.text].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
      // GlyphLessFont advances 0.5 em a glyph: Tz stretches the word to its box
      const tz = (100 * w.width) / (w.text.length * 0.5 * SIZE);
      s += `/f-0-0 ${SIZE} Tf ${num(tz)} Tz 1 0 0 1 ${num(w.x)} ${num(w.y)} Tm [<${hex}>] TJ\n`;
    }
    return s + 'ET\n';
  };
  const chars = words.reduce((a, w) => a + w.text.length, 0);
  save(
    '26-tesseract-ocr.pdf',
    doc([
      (pdf, parent) => {
        const im = scan(pdf);
        const font = glyphless(pdf);
        return page(pdf, parent, {
          content: `q ${W} 0 0 ${H} 0 0 cm /Im0 Do Q\n${ocrLayer()}`,
          resources: `/Font << /f-0-0 ${r(font)} >> /XObject << /Im0 ${r(im)} >>`,
        });
      },
      (pdf, parent) => {
        const im = grayImage(pdf, 0xe0);
        const helv = pdf.add(HELVETICA);
        const font = glyphless(pdf);
        return page(pdf, parent, {
          content:
            textBlock(['A visible heading above the scan'], { y: 760, size: 14 }) +
            textBlock(PARAGRAPH.slice(0, 3), { y: 600 }) +
            `q 612 0 0 500 0 100 cm /Im1 Do Q\n` +
            ocrLayer().replace(/ (\d+(?:\.\d+)?) Tm/g, (m, y) => ` ${num(Number(y) - 300)} Tm`),
          resources: `/Font << /F1 ${r(helv)} /f-0-0 ${r(font)} >> /XObject << /Im1 ${r(im)} >>`,
        });
      },
    ]),
    `Tesseract-style OCR'd scan: p1 a page image with ${words.length} words of ink and the same ${words.length} words (${chars} chars) in 3 Tr with GlyphLessFont (Type0, embedded, ToUnicode) over them → ocr-layer; p2 a visible heading, a paragraph hidden under a 612×500 image, and the OCR layer (${chars} chars) in 3 Tr over the image → review few-chars-over-image (88 visible chars)`,
  );
}

// ---------------------------------------------------------------------------------------------

const union08 = (() => {
  // exact union of RECTS_08 by inclusion–exclusion over the three rectangles
  const inter = (a, b) => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  const area = (a) => Math.max(0, a[2] - a[0]) * Math.max(0, a[3] - a[1]);
  const [A, B, C] = RECTS_08;
  return (area(A) + area(B) + area(C) - area(inter(A, B)) - area(inter(A, C)) - area(inter(B, C)) + area(inter(inter(A, B), C))) / (612 * 792);
})();

console.log(`paragraph: ${PARAGRAPH_CHARS} non-whitespace chars; caption: ${nonWs(CAPTION.join(' '))}; 08 p3 union ${union08.toFixed(4)}`);
for (const [name, size] of written) console.log(`${String(size).padStart(6)}  ${name}`);

const readme = [
  '# Analyzer fixtures',
  '',
  'Generated by `node scripts/make-fixtures.mjs` (needs `qpdf` for 06-*); committed, CI does not regenerate them.',
  'Reruns are byte-identical except the AES-256 files (qpdf draws fresh salts).',
  `The paragraph used by the text fixtures has ${PARAGRAPH_CHARS} non-whitespace characters.`,
  '',
  ...written.map(([name, , what]) => `- \`${name}\`: ${what}`),
  '',
];
writeFileSync(join(OUT, 'README.md'), readme.join('\n'));
