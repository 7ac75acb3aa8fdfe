/**
 * Stores a split's scans another way (issue 16), as archives and scanning tools store text pages: `--as g4` (the
 * default) thresholds every JPEG image of its PDFs to black and white and stores it as a CCITT Group 4 image, as
 * office scanners and archives do; `--as palette16` posterises it to 16 grays and stores their indices, 4 bits a
 * pixel, Flate-compressed under an /Indexed palette, as OCRmyPDF's optimisation (pngquant) does; `--as jpx` stores
 * it as JPEG 2000 (a JP2 file, the 9/7 wavelet at compression ratio `--rate`), as archives do; `--as jbig2`
 * thresholds it as for Group 4 and stores it as a JBIG2 generic region, as OCRmyPDF does (`--as jbig2huffman`: the
 * same pixels as Huffman-coded JBIG2 text, tiles in a dictionary); `--as progressive` rewrites
 * the JPEG as a progressive one without loss (libjpeg's `jpegtran -progressive`: the same coefficients, so the scores
 * must not move), as images prepared for the web are stored. The layers, labels and
 * truth stay as they are (links to the split's), so `npm run ocr-quality -- --data OUT` measures the score on the same
 * pages read through another kind of scan: how much of its image evidence survives, and the decoders.
 *
 *   node --import tsx scripts/ocr-split-recode.ts --out DIR [--data ../shared/ocr-quality] [--as g4|palette16|jpx|jbig2|jbig2huffman|progressive] [--threshold 55] [--rate 20]
 *
 * Per file: `qpdf --qdf` (streams uncompressed, one object a line), each DCTDecode image's JPEG read by ImageMagick's
 * `convert` (for g4: thresholded to a one-strip Group 4 TIFF, whose strip is the image's new data; for palette16: its
 * gray samples), the image dictionary rewritten (g4: /CCITTFaxDecode with /K -1, /Columns, /Rows and /BlackIs1 as the
 * TIFF's photometric says, 1-bit DeviceGray; palette16: /FlateDecode, 4 bits, [/Indexed /DeviceGray 15 <…>]), then
 * `fix-qdf` for the lengths and the xref; jpx: OpenJPEG's `opj_compress` on the image as PNM, /JPXDecode. Needs qpdf
 * (with fix-qdf) and ImageMagick, and for jpx OpenJPEG's tools; without them: a clean skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { arg, have } from './ocr-split-sources';
import { jbig2HuffmanPageStream, jbig2PageStream } from './jbig2-segments';
import { newBitmap } from '../src/analyzer/layerQuality/jbig2Regions';

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

export type Recoding = 'g4' | 'palette16' | 'jpx' | 'jbig2' | 'jbig2huffman' | 'progressive';
const RECODINGS: readonly string[] = ['g4', 'palette16', 'jpx', 'jbig2', 'jbig2huffman', 'progressive'];

/** The QDF file with each DCTDecode image stored as `as` says (lengths left for fix-qdf). */
function recode(qdf: string, work: string, as: Recoding, threshold: number, rate: number): { out: string; images: number } {
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
    const recoded =
      as === 'g4'
        ? group4(work, w, h, threshold)
        : as === 'jpx'
          ? jpx(work, rate)
          : as === 'jbig2' || as === 'jbig2huffman'
            ? jbig2(work, w, h, threshold, as === 'jbig2huffman')
            : as === 'progressive'
              ? progressive(work)
              : palette16(work, w, h);
    if (!recoded) continue;
    const newDict = dict
      .replace('/Filter /DCTDecode', recoded.filter)
      .replace(/\/BitsPerComponent \d+/, `/BitsPerComponent ${recoded.bpc}`)
      .replace(/\/ColorSpace \/Device\w+/, (cs) => (recoded.colorSpace ? `/ColorSpace ${recoded.colorSpace}` : cs));
    // the object up to its data, the new data, and on after the old data
    out += qdf.slice(last, m.index) + `${m[1]} 0 obj\n${newDict}\nstream\n` + latin1(recoded.data);
    last = start + length;
    images++;
  }
  return { out: out + qdf.slice(last), images };
}

interface Recoded {
  data: Uint8Array;
  filter: string;
  bpc: number;
  colorSpace: string;
}

/** work/i.jpg thresholded to Group 4 */
function group4(work: string, w: number, h: number, threshold: number): Recoded | undefined {
  execFileSync('convert', [
    join(work, 'i.jpg'),
    ...['-colorspace', 'gray', '-threshold', `${threshold}%`, '-type', 'bilevel'],
    ...['-compress', 'Group4', '-define', `tiff:rows-per-strip=${h}`, join(work, 'i.tif')],
  ]);
  const t = tiffStrip(new Uint8Array(readFileSync(join(work, 'i.tif'))));
  if (!t) return undefined;
  return {
    data: t.strip,
    filter: `/Filter /CCITTFaxDecode\n  /DecodeParms << /K -1 /Columns ${w} /Rows ${h} /BlackIs1 ${t.blackIsZero} >>`,
    bpc: 1,
    colorSpace: '/DeviceGray',
  };
}

/**
 * work/i.jpg as a JP2 file of the 9/7 wavelet at `rate` (compression ratio), as archives store page scans; its colour
 * (gray or RGB, the latter with the component transform) and 8 bits stay as the JPEG had them
 */
function jpx(work: string, rate: number): Recoded | undefined {
  execFileSync('convert', [join(work, 'i.jpg'), join(work, 'i.pnm')]);
  execFileSync('opj_compress', ['-i', join(work, 'i.pnm'), '-o', join(work, 'i.jp2'), '-I', '-r', String(rate)], { stdio: 'ignore' });
  return { data: new Uint8Array(readFileSync(join(work, 'i.jp2'))), filter: '/Filter /JPXDecode', bpc: 8, colorSpace: '' };
}

/**
 * work/i.jpg thresholded as for Group 4, as a JBIG2 generic region, or with `huffman` as Huffman-coded JBIG2 text (its
 * tiles in a symbol dictionary, a text region placing them): the test-only coders of scripts/jbig2-segments.ts
 */
function jbig2(work: string, w: number, h: number, threshold: number, huffman: boolean): Recoded | undefined {
  const gray = new Uint8Array(
    execFileSync('convert', [join(work, 'i.jpg'), '-colorspace', 'gray', '-threshold', `${threshold}%`, '-depth', '8', 'gray:-'], {
      maxBuffer: 1 << 30,
    }),
  );
  if (gray.length !== w * h) return undefined;
  const page = newBitmap(w, h);
  for (let i = 0; i < gray.length; i++) page.data[i] = gray[i] < 128 ? 1 : 0;
  return { data: huffman ? jbig2HuffmanPageStream(page) : jbig2PageStream(page), filter: '/Filter /JBIG2Decode', bpc: 1, colorSpace: '/DeviceGray' };
}

/** work/i.jpg as a progressive JPEG, losslessly (the same quantised coefficients, sent in several scans) */
function progressive(work: string): Recoded | undefined {
  const data = new Uint8Array(execFileSync('jpegtran', ['-progressive', join(work, 'i.jpg')], { maxBuffer: 1 << 30 }));
  return { data, filter: '/Filter /DCTDecode', bpc: 8, colorSpace: '' };
}

/** work/i.jpg posterised to 16 grays, as 4-bit indices into a gray palette */
function palette16(work: string, w: number, h: number): Recoded | undefined {
  const gray = new Uint8Array(execFileSync('convert', [join(work, 'i.jpg'), '-colorspace', 'gray', '-depth', '8', 'gray:-'], { maxBuffer: 1 << 30 }));
  if (gray.length !== w * h) return undefined;
  const { indices, colorSpace } = palette16Of(gray, w, h);
  return { data: deflateSync(indices), filter: '/Filter /FlateDecode', bpc: 4, colorSpace };
}

/**
 * A gray image posterised to 16 grays: its 4-bit indices (two a byte, rows byte-aligned) and the /Indexed colour space
 * they index. The palette runs from white to black (index i is gray 17 × (15 − i)), so that an index is not its level.
 */
export function palette16Of(gray: Uint8Array, w: number, h: number): { indices: Uint8Array; colorSpace: string } {
  const rowBytes = Math.ceil(w / 2);
  const indices = new Uint8Array(rowBytes * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) indices[y * rowBytes + (x >> 1)] |= (15 - (gray[y * w + x] >> 4)) << (x & 1 ? 0 : 4);
  const palette = Array.from({ length: 16 }, (_, i) => (17 * (15 - i)).toString(16).padStart(2, '0')).join('');
  return { indices, colorSpace: `[/Indexed /DeviceGray 15 <${palette}>]` };
}

function main(): void {
  const data = resolve(arg('--data') ?? join(ROOT, '..', 'shared', 'ocr-quality'));
  const outArg = arg('--out');
  const threshold = Number(arg('--threshold') ?? 55);
  const as = arg('--as') ?? 'g4';
  const rate = Number(arg('--rate') ?? 20);
  if (!outArg || !RECODINGS.includes(as) || !(rate >= 1)) {
    console.error(
      'usage: node --import tsx scripts/ocr-split-recode.ts --out DIR [--data SPLIT] [--as g4|palette16|jpx|jbig2|jbig2huffman|progressive] [--threshold 55] [--rate 20]',
    );
    process.exit(2);
  }
  const missing = [
    ['qpdf', ['--version']],
    ['fix-qdf', ['--version']],
    ['convert', ['-version']],
    // opj_compress exits 1 on every way of asking for its help
    ...(as === 'jpx' ? [['sh', ['-c', 'command -v opj_compress']]] : []),
    ...(as === 'progressive' ? [['sh', ['-c', 'command -v jpegtran']]] : []),
  ].filter(([t, a]) => !have(t as string, a as string[]));
  if (missing.length || !existsSync(join(data, 'labels.jsonl'))) {
    console.log(`ocr-split-recode: skipped (${missing.length ? `missing ${missing.map((m) => m[0]).join(', ')}` : `no split at ${data}`})`);
    return;
  }
  const out = resolve(outArg);
  mkdirSync(join(out, 'files'), { recursive: true });
  for (const f of ['labels.jsonl', 'truth.jsonl', 'score.py', 'README.md'])
    if (existsSync(join(data, f)) && !existsSync(join(out, f))) symlinkSync(join(data, f), join(out, f));
  const work = mkdtempSync(join(tmpdir(), 'recode-'));
  try {
    let total = 0;
    for (const name of readdirSync(join(data, 'files')).filter((n) => n.endsWith('.pdf'))) {
      const qdf = latin1(execFileSync('qpdf', ['--qdf', '--object-streams=disable', join(data, 'files', name), '-'], { maxBuffer: 1 << 30 }));
      const { out: edited, images } = recode(qdf, work, as as Recoding, threshold, rate);
      total += images;
      writeFileSync(join(work, 'e.pdf'), Buffer.from(edited, 'latin1'));
      writeFileSync(join(out, 'files', name), execFileSync('fix-qdf', [join(work, 'e.pdf')], { maxBuffer: 1 << 30 }));
    }
    console.log(`ocr-split-recode: ${total} images stored as ${as} in ${out}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
