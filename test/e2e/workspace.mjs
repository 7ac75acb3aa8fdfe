// Lays out the e2e workspace from the project's own fixtures: a text file, a scan, a mixed file with a scanned last
// page, an OCR'd scan whose Producer names an OCR engine, a Tesseract-style OCR'd scan, two same-named files, a
// password-protected file, a damaged one, and OCR'd scans with good and poor text layers (zoning-minutes.pdf).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FX = path.join(ROOT, 'test', 'fixtures', 'analyzer');

/** Appends an incremental update that gives the file a new /Info with the given Producer. */
function withProducer(bytes, producer) {
  const text = bytes.toString('latin1');
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(text.slice(text.lastIndexOf('trailer')))?.[1] ?? /\/Root\s+(\d+\s+\d+\s+R)/.exec(text)?.[1];
  const size = Number(/\/Size\s+(\d+)/.exec(text.slice(text.lastIndexOf('trailer')))?.[1] ?? 0);
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  if (!root || !size || !Number.isFinite(prev)) throw new Error('fixture has no classic trailer to update');
  const num = size;
  const base = bytes.length + 1;
  const obj = `${num} 0 obj\n<< /Producer (${producer}) /Creator (e2e) >>\nendobj\n`;
  const xrefAt = base + Buffer.byteLength(obj, 'latin1');
  const tail = `xref\n${num} 1\n${String(base).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${num + 1} /Root ${root} /Info ${num} 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([bytes, Buffer.from('\n' + obj + tail, 'latin1')]);
}

export function makeWorkspace(ws) {
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(path.join(ws, 'docs', 'more'), { recursive: true });
  const copy = (from, to) => fs.copyFileSync(path.join(FX, from), path.join(ws, to));
  copy('01-text.pdf', 'docs/text.pdf');
  copy('07-scan.pdf', 'docs/scan.pdf');
  copy('17-mixed.pdf', 'docs/mixed.pdf');
  copy('06-enc-user-password.pdf', 'docs/more/locked.pdf');
  copy('21-not-a-pdf.pdf', 'docs/more/damaged.pdf');
  copy('04-truncated.pdf', 'docs/more/truncated.pdf');
  // an OCR'd scan as Tesseract writes it (GlyphLessFont in 3 Tr over the words of a page image), for the text-layer
  // overlay and the fonts table
  copy('26-tesseract-ocr.pdf', 'docs/tesseract.pdf');
  // two files of the same name in different folders: the tree tells them apart by their path
  copy('01-text.pdf', 'docs/summary.pdf');
  copy('01-text.pdf', 'docs/more/summary.pdf');
  fs.writeFileSync(
    path.join(ws, 'docs', 'ocr-layer.pdf'),
    withProducer(fs.readFileSync(path.join(FX, '13-ocr-layer.pdf')), 'OCRmyPDF 16.0 / Tesseract OCR-PDF 5.3.0'),
  );
  // OCR layers good (pages 1, 3) and poor (2: garbage, 4: most of the ink has no word), and a text page: the layer
  // grades, the re-OCR group and warning (test/fixtures/e2e/README.md). Its name sorts last among the documents.
  fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'e2e', 'layer-quality.pdf'), path.join(ws, 'docs', 'zoning-minutes.pdf'));
  fs.writeFileSync(path.join(ws, 'README.md'), '# PDF Page Diagnostics sample workspace\n');
  return ws;
}

/** A text PDF of `pages` pages (one line of text each): big enough that analysing it takes a second or more. */
export function manyPagePdf(pages) {
  const objs = [];
  const add = (s) => objs.push(s);
  add(''); // 1: catalog, 2: pages tree (filled in below), 3: font
  add('');
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids = [];
  for (let i = 1; i <= pages; i++) {
    const text = `BT /F1 11 Tf 72 720 Td (Page ${i} has a real text layer and can be read without OCR.) Tj ET`;
    const content = add(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objs[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objs[1] = `<< /Type /Pages /Count ${pages} /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] >>`;
  let out = '%PDF-1.7\n';
  const offsets = objs.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** `copies` big PDFs in <ws>/zz-bulk (sorted after docs/, so a workspace run reaches them last). */
export function makeBulk(ws, copies = 6, pages = 30000) {
  const dir = path.join(ws, 'zz-bulk');
  fs.mkdirSync(dir, { recursive: true });
  const bytes = manyPagePdf(pages);
  for (let i = 1; i <= copies; i++) fs.writeFileSync(path.join(dir, `big-${String(i).padStart(2, '0')}.pdf`), bytes);
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(makeWorkspace(path.resolve(process.argv[2] ?? 'e2e-workspace')));
}
