/**
 * Makes a split's scans bilevel (issue 16): every JPEG image of its PDFs thresholded to black and white and stored as a
 * CCITT Group 4 image, the way archives and office scanners store text pages. The layers, labels and truth stay as
 * they are (links to the split's), so `npm run ocr-quality -- --data OUT` measures the score on the same pages read
 * through a bilevel scan: how much of its image evidence survives binarisation and the fax decoder.
 *
 *   node --import tsx scripts/ocr-split-bilevel.ts --out DIR [--data ../shared/ocr-quality] [--threshold 55]
 *
 * Per file: `qpdf --qdf` (streams uncompressed, one object a line), each DCTDecode image's JPEG thresholded to Group 4
 * by ImageMagick's `convert` (a one-strip TIFF, whose strip is the image's new data), the image dictionary rewritten
 * (/CCITTFaxDecode with /K -1, /Columns, /Rows and /BlackIs1 as the TIFF's photometric says, 1-bit DeviceGray), then
 * `fix-qdf` for the lengths and the xref. Needs qpdf (with fix-qdf) and ImageMagick; without them: a clean skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, have } from './ocr-split-sources';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A one-strip TIFF's strip (its image data) and whether its photometric interpretation is black-is-zero. */
export function tiffStrip(tiff: Uint8Array): { strip: Uint8Array; blackIsZero: boolean } | undefined {
  const v = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const le = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!le && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return undefined;
  const ifd = v.getUint32(4, le);
  const n = v.getUint16(ifd, le);
  const tags = new Map<number, { count: number; value: number }>();
  for (let i = 0; i < n; i++) {
    const at = ifd + 2 + 12 * i;
    const type = v.getUint16(at + 2, le);
    const count = v.getUint32(at + 4, le);
    const value = type === 3 && count === 1 ? v.getUint16(at + 8, le) : v.getUint32(at + 8, le);
    tags.set(v.getUint16(at, le), { count, value });
  }
  const offsets = tags.get(273);
  const counts = tags.get(279);
  if (!offsets || !counts || offsets.count !== 1) return undefined;
  return { strip: tiff.subarray(offsets.value, offsets.value + counts.value), blackIsZero: tags.get(262)?.value === 1 };
}

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');

/** The QDF file with each DCTDecode image replaced by its Group 4 version (lengths left for fix-qdf). */
function bilevel(qdf: string, work: string, threshold: number): { out: string; images: number } {
  const image = /(\d+) 0 obj\n(<<(?:(?!endobj)[\s\S])*?\/Filter \/DCTDecode(?:(?!endobj)[\s\S])*?>>)\nstream\n/g;
  let out = '';
  let last = 0;
  let images = 0;
  for (let m = image.exec(qdf); m; m = image.exec(qdf)) {
    const dict = m[2];
    const w = Number(/\/Width (\d+)/.exec(dict)?.[1]);
    const h = Number(/\/Height (\d+)/.exec(dict)?.[1]);
    const lengthObj = /\/Length (\d+) 0 R/.exec(dict)?.[1];
    const length = lengthObj ? Number(new RegExp(`\\n${lengthObj} 0 obj\\n(\\d+)\\nendobj`).exec(qdf)?.[1]) : NaN;
    if (!(w > 0 && h > 0 && length > 0)) continue;
    const start = m.index + m[0].length;
    writeFileSync(join(work, 'i.jpg'), Buffer.from(qdf.slice(start, start + length), 'latin1'));
    execFileSync('convert', [
      join(work, 'i.jpg'),
      ...['-colorspace', 'gray', '-threshold', `${threshold}%`, '-type', 'bilevel'],
      ...['-compress', 'Group4', '-define', `tiff:rows-per-strip=${h}`, join(work, 'i.tif')],
    ]);
    const t = tiffStrip(new Uint8Array(readFileSync(join(work, 'i.tif'))));
    if (!t) continue;
    const newDict = dict
      .replace('/Filter /DCTDecode', `/Filter /CCITTFaxDecode\n  /DecodeParms << /K -1 /Columns ${w} /Rows ${h} /BlackIs1 ${t.blackIsZero} >>`)
      .replace(/\/BitsPerComponent \d+/, '/BitsPerComponent 1')
      .replace(/\/ColorSpace \/Device\w+/, '/ColorSpace /DeviceGray');
    // the object up to its data, the new data, and on after the old data
    out += qdf.slice(last, m.index) + `${m[1]} 0 obj\n${newDict}\nstream\n` + latin1(t.strip);
    last = start + length;
    images++;
  }
  return { out: out + qdf.slice(last), images };
}

function main(): void {
  const data = resolve(arg('--data') ?? join(ROOT, '..', 'shared', 'ocr-quality'));
  const outArg = arg('--out');
  const threshold = Number(arg('--threshold') ?? 55);
  if (!outArg) {
    console.error('usage: node --import tsx scripts/ocr-split-bilevel.ts --out DIR [--data SPLIT] [--threshold 55]');
    process.exit(2);
  }
  const missing = [
    ['qpdf', ['--version']],
    ['fix-qdf', ['--version']],
    ['convert', ['-version']],
  ].filter(([t, a]) => !have(t as string, a as string[]));
  if (missing.length || !existsSync(join(data, 'labels.jsonl'))) {
    console.log(`ocr-split-bilevel: skipped (${missing.length ? `missing ${missing.map((m) => m[0]).join(', ')}` : `no split at ${data}`})`);
    return;
  }
  const out = resolve(outArg);
  mkdirSync(join(out, 'files'), { recursive: true });
  for (const f of ['labels.jsonl', 'truth.jsonl', 'score.py', 'README.md'])
    if (existsSync(join(data, f)) && !existsSync(join(out, f))) symlinkSync(join(data, f), join(out, f));
  const work = mkdtempSync(join(tmpdir(), 'bilevel-'));
  try {
    let total = 0;
    for (const name of readdirSync(join(data, 'files')).filter((n) => n.endsWith('.pdf'))) {
      const qdf = latin1(execFileSync('qpdf', ['--qdf', '--object-streams=disable', join(data, 'files', name), '-'], { maxBuffer: 1 << 30 }));
      const { out: edited, images } = bilevel(qdf, work, threshold);
      total += images;
      writeFileSync(join(work, 'e.pdf'), Buffer.from(edited, 'latin1'));
      writeFileSync(join(out, 'files', name), execFileSync('fix-qdf', [join(work, 'e.pdf')], { maxBuffer: 1 << 30 }));
    }
    console.log(`ocr-split-bilevel: ${total} images made Group 4 in ${out}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
