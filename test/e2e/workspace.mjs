// Lays out the e2e workspace from the project's own fixtures: a text file, a scan, a mixed file with a scanned last
// page, an OCR'd scan whose Producer names an OCR engine, a password-protected file and a damaged one.
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
  fs.writeFileSync(path.join(ws, 'docs', 'ocr-layer.pdf'), withProducer(fs.readFileSync(path.join(FX, '13-ocr-layer.pdf')), 'OCRmyPDF 16.0 / Tesseract OCR-PDF 5.3.0'));
  fs.writeFileSync(path.join(ws, 'README.md'), '# PDF Page Diagnostics sample workspace\n');
  return ws;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(makeWorkspace(path.resolve(process.argv[2] ?? 'e2e-workspace')));
}
