/**
 * Builds a second, independent split for the layer-quality score (issue 16): real Tesseract OCR layers over scans of
 * born-digital pages that the dev split (../shared/ocr-quality) never used, labelled the way that split is labelled,
 * so `npm run ocr-quality -- --data DIR` can judge the score on documents it was never fitted to. The dev split's
 * private held-out half is made "the same way from other documents and another seed"; this is our own stand-in for
 * its real-OCR part (it has no synthetic corruptions; scripts/ocr-synth-build.ts is the stand-in for those).
 *
 *   node --import tsx scripts/ocr-layers-build.ts --out DIR [--pages 40] [--seed 1] [--corpus ../shared/corpus] [--man|--no-man] [--pymupdf]
 *        [--store-like-dev]
 *   node --import tsx scripts/ocr-layers-build.ts --out DIR --merge SPLIT SPLIT…
 *
 * --merge pools splits already built (several seeds) into one, so that `npm run ocr-quality -- --data DIR` judges them
 * together, with every table: each split's files are linked as s1-…, s2-… (in the order given) and its labels
 * renamed to match.
 *
 * Per page: the source page rendered to grey at a random resolution (pdftoppm), degraded (noise, faint print), saved
 * as a baseline JPEG (cjpeg), OCR'd by Tesseract in the page's language (`rus+eng` for Russian, whose commands and
 * options are Latin; sometimes a wrong language, as the dev split does), and its layer written by one of the dev
 * split's two renderers, one a file, recorded as `recipe.renderer`:
 * - `tesseract-pdf`: Tesseract's own PDF (tesseract … pdf), its image and an invisible GlyphLessFont layer;
 * - `hocr` (about half the files): Tesseract's hOCR (tesseract … hocr, read by parseHocr), its lines written over the
 *   same JPEG the way OCRmyPDF's legacy hOCR renderer writes them (scripts/ocr-layer-writer.ts's writePdf, which
 *   ocr-synth-build.ts writes with too: invisible Helvetica, one BT a line at the hOCR baseline, font size the line's
 *   height less the baseline's offset, each word Tz-scaled to its box plus a space; coordinates on the hOCR's pixel
 *   grid). Like OCRmyPDF, which takes this renderer only for languages Latin-1 covers, a page OCR'd with Russian is
 *   always `tesseract-pdf` (the dev split has no Russian hocr page either); as there, only ocr_line, ocr_header and
 *   ocr_textfloat lines are written and ligatures are spelled out.
 * --store-like-dev (with --pymupdf) stores and degrades the page as the dev split's README and files show it is done:
 * the page OCR'd is degraded further (turned by 1–3° on a quarter of the pages, blurred on a tenth, a JPEG round trip
 * at quality 5–35 on a fifth; faint print down to 0.15, noise up to 40) and read by Tesseract as it is, while the image
 * the PDF stores is that page shrunk to `store_dpi` (the OCR resolution up to 100 dpi, else 100, 110, 120 or 150) and
 * saved as a JPEG; Tesseract's own renderer then writes a text-only layer (textonly_pdf) which PyMuPDF shows over the
 * stored image as a form (the dev split's files hold fzImg0, fzFrm0 and fullpage, PyMuPDF's names for exactly that).
 * Without the flag the PDF stores the very JPEG Tesseract read, at the OCR resolution (builds before this flag).
 * The label: CER of the layer's text against the source page's text (pdftotext), each normalised as the dev split's
 * README says (NFKC, dashes and quotes folded, soft hyphens removed, white space collapsed), the smaller of content
 * order and layout order (-layout: line by line across the page), as the dev split takes the smaller of its two
 * orders for real OCR (Tesseract puts every word where the scan has it, so an order that differs from the original's
 * is the original's); class good ≤ 0.05 < fair ≤ 0.25 < poor. Content order: `pdftotext -raw` of a tesseract-pdf
 * layer; of an hocr layer, its words as written (ocr-layer-writer.ts's layerText says why not pdftotext -raw there).
 * With --pymupdf, both texts in both orders are PyMuPDF's (`get_text()` and `get_text(sort=True)` of the finished
 * page and of the source page), the reader the dev split's README names, and each label says `"reader": "pymupdf"`;
 * it needs a python3 with PyMuPDF (Debian: python3-fitz, AGPL, run as a tool). Layout order then differs from
 * `pdftotext -layout`'s (blocks sorted by position, not lines across the page), so tables and columns label apart.
 *
 * Sources (scripts/ocr-split-sources.ts, shared with ocr-synth-build.ts): corpus pages labelled `text` (600–6,000
 * visible characters, two images at most), two pages per document at most, none whose name shares a word with a
 * dev-split source; and, when groff, man and the German, French and Russian manual pages are there (default on;
 * --no-man turns it off, --man asks for it with whatever languages are there), about half the pages from manual pages
 * typeset by `man -Tpdf` (ocr-split-sources.ts's manSources: English, German, French and Russian in turn, Russian
 * through its URW Nimbus font directory, commands the dev split does not name), two pages of a manual page at most.
 * One page a file. A layer under 40 characters (the page would route `ocr`) is left out. Needs pdftoppm, pdftotext and
 * pdfinfo (poppler-utils), cjpeg (libjpeg-turbo-progs) and tesseract with eng, deu, fra and rus (tesseract-ocr-*);
 * without them: a clean skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from './fuzz';
import { layerText, writePdf, type Line } from './ocr-layer-writer';
import {
  arg,
  buildSetup,
  corpusSources,
  blurGrey,
  degradePgm,
  foreignScript,
  type Grey,
  levenshtein,
  labelClass,
  manSources,
  MAX_PAGES_PER_DOCUMENT,
  normalise,
  pymupdfPython,
  pymupdfTexts,
  readPgm,
  rotateGrey,
  shrinkGrey,
  shuffleInPlace,
  writePgm,
  type Source,
} from './ocr-split-sources';

/**
 * The labels of several splits as one split's: each line's file (`files/NAME`) renamed `files/s<i>-NAME`, i counting
 * the splits from 1, so that names from different seeds do not collide (the judge matches files by name).
 */
export function mergeLabels(splits: string[]): { labels: string; files: { from: string; to: string; split: number }[] } {
  const lines: string[] = [];
  const files: { from: string; to: string; split: number }[] = [];
  splits.forEach((text, i) => {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const doc = JSON.parse(line) as { file: string };
      const name = basename(doc.file);
      const to = `s${i + 1}-${name}`;
      files.push({ from: doc.file, to, split: i });
      lines.push(JSON.stringify({ ...doc, file: `files/${to}` }));
    }
  });
  return { labels: lines.length ? lines.join('\n') + '\n' : '', files };
}

// ---- hOCR ------------------------------------------------------------------------------------------------------------

type Box = [number, number, number, number];
export interface HocrWord {
  text: string;
  /** x0 y0 x1 y1 in the image's pixels, y downwards */
  bbox: Box;
}
export interface HocrLine {
  /** ocr_line, ocr_header, ocr_caption or ocr_textfloat */
  kind: string;
  bbox: Box;
  /** `baseline slope intercept`: the baseline's tilt and its offset (pixels, negative = up) from the box's bottom */
  slope: number;
  intercept: number;
  words: HocrWord[];
}

const decodeEntities = (s: string): string =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * Tesseract's hOCR read with regular expressions: the page's size (the ocr_page's bbox) and its lines (spans of class
 * ocr_line, ocr_header, ocr_caption or ocr_textfloat) in document order, each with its box, baseline and the
 * ocrx_word spans inside it (text with inner tags dropped and entities decoded; empty words left out). Words before
 * any line are left out.
 */
export function parseHocr(html: string): { width: number; height: number; lines: HocrLine[] } {
  const bboxOf = (title: string): Box | null => {
    const m = /\bbbox\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)/.exec(title);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : null;
  };
  let width = 0;
  let height = 0;
  const lines: HocrLine[] = [];
  const tag = /<(span|div)\b([^>]*)>/g;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(html))) {
    const cls = /\bclass\s*=\s*(['"])(.*?)\1/.exec(m[2])?.[2] ?? '';
    const title = /\btitle\s*=\s*(['"])(.*?)\1/.exec(m[2])?.[2] ?? '';
    const box = bboxOf(title);
    if (cls === 'ocr_page' && box) {
      width = box[2] - box[0];
      height = box[3] - box[1];
    } else if (/^ocr_(line|header|caption|textfloat)$/.test(cls) && box) {
      const b = /\bbaseline\s+([-+]?[\d.]+(?:e-?\d+)?)\s+([-+]?[\d.]+)/.exec(title);
      lines.push({ kind: cls, bbox: box, slope: b ? Number(b[1]) : 0, intercept: b ? Number(b[2]) : 0, words: [] });
    } else if (cls === 'ocrx_word' && box && lines.length) {
      const end = html.indexOf('</span>', tag.lastIndex);
      const text = decodeEntities(html.slice(tag.lastIndex, end < 0 ? undefined : end).replace(/<[^>]*>/g, '')).trim();
      if (text) lines[lines.length - 1].words.push({ text, bbox: box });
    }
  }
  return { width, height, lines };
}

/** the line classes OCRmyPDF's hOCR renderer writes (a caption line's words it leaves out) */
const RENDERED = new Set(['ocr_line', 'ocr_header', 'ocr_textfloat']);
/** OCRmyPDF's ligatures spelled out (Helvetica has none) */
const LIGATURES: Record<string, string> = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'f\u200cf\u200ci',
  '\ufb04': 'f\u200cf\u200cl',
};

/**
 * hOCR lines as OCRmyPDF's legacy hOCR renderer lays them out, in points (`dpi` the image's): the font size the
 * line's height less the baseline's offset, the baseline that offset above the box's bottom, a trailing space as wide
 * as at the line's height, a tilt only from a slope of 0.005 on; empty lines left out.
 */
export function hocrLines(lines: HocrLine[], dpi: number): Line[] {
  const g = 72 / dpi;
  const out: Line[] = [];
  for (const l of lines) {
    if (!RENDERED.has(l.kind)) continue;
    const words = l.words
      .map((w) => ({ text: w.text.replace(/[\ufb00-\ufb04]/g, (c) => LIGATURES[c]), x1: w.bbox[0] * g, x2: w.bbox[2] * g }))
      .filter((w) => w.text.trim());
    if (!words.length) continue;
    const top = l.bbox[1] * g;
    const bottom = l.bbox[3] * g;
    const intercept = l.intercept * g;
    const line: Line = { words, top, bottom, base: bottom + intercept, size: bottom - top - Math.abs(intercept), lineHeight: bottom - top };
    if (Math.abs(l.slope) >= 0.005) line.slope = l.slope;
    out.push(line);
  }
  return out;
}

/** --merge: the splits' files hard-linked (copied when a link fails) into OUT/files, and their merged labels */
function merge(out: string, dirs: string[]): number {
  const missing = dirs.filter((d) => !existsSync(join(d, 'labels.jsonl')));
  if (dirs.length === 0 || missing.length) {
    console.error(`ocr-layers-build: --merge needs built splits (labels.jsonl in each); missing: ${missing.join(', ') || 'none given'}`);
    return 2;
  }
  const { labels, files } = mergeLabels(dirs.map((d) => readFileSync(join(d, 'labels.jsonl'), 'utf8')));
  rmSync(join(out, 'files'), { recursive: true, force: true });
  mkdirSync(join(out, 'files'), { recursive: true });
  for (const f of files) {
    const from = join(dirs[f.split], f.from);
    const to = join(out, 'files', f.to);
    try {
      linkSync(from, to);
    } catch {
      writeFileSync(to, readFileSync(from));
    }
  }
  writeFileSync(join(out, 'labels.jsonl'), labels);
  console.log(`ocr-layers-build: ${files.length} documents of ${dirs.length} splits in ${out}`);
  return 0;
}

/** a page to OCR: its source document, the page, and how the label names it */
interface Candidate {
  pdf: string;
  page: number;
  /** the file name's stem and the label's `source` */
  name: string;
  source: string;
  lang: Source['lang'];
}

const LANGS: Source['lang'][] = ['eng', 'deu', 'fra', 'rus'];

/**
 * A one-page PDF as the dev split's files are made (their objects say so: fzImg0, fzFrm0, fullpage): a page of the
 * layer's size rounded to points, the stored JPEG over it, and the text-only PDF's page shown over that as a form.
 */
function overlay(python: string, textOnlyPdf: string, jpeg: string, out: string): void {
  const script =
    'import sys, fitz\n' +
    't = fitz.open(sys.argv[1])\n' +
    'r = t[0].rect\n' +
    'o = fitz.open()\n' +
    'p = o.new_page(width=round(r.width), height=round(r.height))\n' +
    'p.insert_image(p.rect, filename=sys.argv[2])\n' +
    'p.show_pdf_page(p.rect, t, 0)\n' +
    'o.save(sys.argv[3], garbage=3, deflate=True)\n';
  execFileSync(python, ['-c', script, textOnlyPdf, jpeg, out]);
}

function main(): number {
  const out = arg('--out');
  if (!out) {
    console.error('usage: ocr-layers-build.ts --out DIR [--pages N] [--seed S] [--corpus DIR] [--man|--no-man] | --out DIR --merge SPLIT…');
    return 2;
  }
  const m = process.argv.indexOf('--merge');
  if (m >= 0) {
    // the splits: the arguments after --merge, up to the next option
    const rest = process.argv.slice(m + 1);
    const end = rest.findIndex((a) => a.startsWith('--'));
    return merge(out, end < 0 ? rest : rest.slice(0, end));
  }
  const want = Number(arg('--pages') ?? 40);
  const next = prng(Number(arg('--seed') ?? 1));
  // --pymupdf: label with the reader the dev split's labels were measured with (both texts, both orders)
  const py = process.argv.includes('--pymupdf') ? pymupdfPython() : null;
  if (process.argv.includes('--pymupdf') && !py) {
    console.error('ocr-layers-build: --pymupdf needs a python3 that imports fitz (Debian: python3-fitz)');
    return 2;
  }
  const likeDev = process.argv.includes('--store-like-dev');
  if (likeDev && !py) {
    console.error('ocr-layers-build: --store-like-dev needs --pymupdf (the layer is shown over the stored image with PyMuPDF)');
    return 2;
  }
  const setup = buildSetup('ocr-layers-build', { tools: [['tesseract', ['--version']]], manNeedsLanguages: true });
  if (!setup) return 0;
  const { corpus, haveCorpus, useMan } = setup;
  const files = join(out, 'files');
  const work = join(out, 'work');
  mkdirSync(files, { recursive: true });
  mkdirSync(work, { recursive: true });
  const candidates: Candidate[] = [];
  // the dev split's sources are left out: a corpus document sharing a word of their names, a manual page of one of
  // their commands (whatever the language)
  for (const d of haveCorpus ? corpusSources(corpus) : []) {
    // MAX_PAGES_PER_DOCUMENT of its pages at random
    const pages = d.pages.slice();
    for (let k = 0; k < MAX_PAGES_PER_DOCUMENT && pages.length; k++) {
      const page = pages.splice(Math.floor(next() * pages.length), 1)[0];
      candidates.push({ pdf: d.pdf, page, name: d.name, source: `${d.file} p${page}`, lang: 'eng' });
    }
  }
  // a seeded shuffle
  shuffleInPlace(candidates, next);
  // manual pages: half the pages (all when there is no corpus), the languages in turn, MAX_PAGES_PER_DOCUMENT of each at most
  const wantMan = useMan ? (haveCorpus ? Math.round(want / 2) : want) : 0;
  const manCands: Candidate[] = [];
  if (useMan) {
    const docs = manSources('ocr-layers-build', work, Math.ceil(wantMan / 4 / 1.5) + 3, next);
    for (const d of docs) {
      const pages = d.pages.slice();
      shuffleInPlace(pages, next);
      for (const page of pages.slice(0, MAX_PAGES_PER_DOCUMENT).sort((a, b) => a - b))
        manCands.push({ pdf: d.pdf, page, name: d.name, source: `${d.name} p${page}`, lang: d.lang });
    }
  }
  const labels: string[] = [];
  const opts = { encoding: 'utf8' as const, maxBuffer: 1 << 28 };
  let n = 0;
  let nMan = 0;
  let ci = 0;
  let mi = 0;
  while (n < want) {
    // manual and corpus pages in turn until the manual pages have their share
    const manTurn = nMan < wantMan && mi < manCands.length && (nMan <= n - nMan || ci >= candidates.length);
    const c = manTurn ? manCands[mi++] : ci < candidates.length ? candidates[ci++] : mi < manCands.length ? manCands[mi++] : null;
    if (!c) break;
    const fromMan = manCands.includes(c);
    const truth = py ? pymupdfTexts(py, c.pdf, c.page) : undefined;
    const truthRaw = normalise(truth?.content ?? execFileSync('pdftotext', ['-q', '-raw', '-f', `${c.page}`, '-l', `${c.page}`, c.pdf, '-'], opts));
    const truthRead = normalise(
      truth?.layout ?? execFileSync('pdftotext', ['-q', '-layout', '-f', `${c.page}`, '-l', `${c.page}`, c.pdf, '-'], opts),
    );
    if (truthRaw.length < 500 || foreignScript(c.lang).test(truthRaw)) continue;
    const dpi = [300, 200, 150, 100, 72][Math.floor(next() * 5)];
    const contrast = next() < 0.25 ? (likeDev ? 0.15 + 0.35 * next() : 0.3 + 0.2 * next()) : 1;
    const noise = next() < 0.4 ? (likeDev ? [8, 15, 25, 40] : [8, 15, 25])[Math.floor(next() * (likeDev ? 4 : 3))] : 0;
    const right = c.lang === 'rus' ? 'rus+eng' : c.lang;
    const others = LANGS.filter((l) => l !== c.lang);
    const lang = next() < 0.15 ? others[Math.floor(next() * others.length)] : right;
    // OCRmyPDF writes hOCR only for languages Latin-1 covers
    const renderer = next() < 0.5 && !lang.includes('rus') ? 'hocr' : 'tesseract-pdf';
    const quality = 45 + Math.floor(next() * 26);
    // --store-like-dev: the dev split's other degradations, and its stored image's resolution
    const more: { skew?: number; blur?: number; jpeg_q?: number } = {};
    let storeDpi = dpi;
    if (likeDev) {
      if (next() < 0.25) more.skew = Math.round((next() < 0.5 ? -1 : 1) * (1 + 2 * next()) * 100) / 100;
      if (next() < 0.1) more.blur = Math.round((0.8 + 1.2 * next()) * 100) / 100;
      if (next() < 0.2) more.jpeg_q = [5, 10, 20, 35][Math.floor(next() * 4)];
      storeDpi = dpi <= 100 ? dpi : [100, 110, 120, 150][Math.floor(next() * 4)];
    }
    const name = `${String(n + 1).padStart(3, '0')}-${c.name.slice(0, 40)}`;
    const pgm = join(work, `${name}.pgm`);
    execFileSync('pdftoppm', ['-q', '-r', `${dpi}`, '-gray', '-f', `${c.page}`, '-l', `${c.page}`, '-singlefile', c.pdf, pgm.replace(/\.pgm$/, '')]);
    degradePgm(pgm, contrast, noise, next);
    const jpg = join(work, `${name}.jpg`);
    // what Tesseract reads: the stored JPEG, or (--store-like-dev) the degraded page at the OCR resolution
    let ocrInput = jpg;
    // --store-like-dev: the page Tesseract reads (as the PGM on disk holds it) and the page the PDF stores, in memory
    let ocrImage: Grey | undefined;
    let stored: Grey | undefined;
    if (likeDev) {
      let img: Grey = readPgm(pgm);
      if (more.blur) img = blurGrey(img, more.blur);
      if (more.skew) img = rotateGrey(img, more.skew);
      if (more.blur || more.skew) writePgm(pgm, img);
      if (more.jpeg_q) {
        const round = join(work, `${name}.q.jpg`);
        execFileSync('cjpeg', ['-quality', `${more.jpeg_q}`, '-outfile', round, pgm]);
        execFileSync('djpeg', ['-pnm', '-outfile', pgm, round]);
        img = readPgm(pgm);
      }
      ocrInput = pgm;
      ocrImage = img;
      stored = shrinkGrey(img, storeDpi / dpi);
      const storedPgm = join(work, `${name}.store.pgm`);
      writePgm(storedPgm, stored);
      execFileSync('cjpeg', ['-quality', `${quality}`, '-outfile', jpg, storedPgm]);
    } else execFileSync('cjpeg', ['-quality', `${quality}`, '-outfile', jpg, pgm]);
    const pdf = join(files, `${name}.pdf`);
    let layerRaw: string;
    if (renderer === 'hocr') {
      execFileSync('tesseract', [ocrInput, join(work, name), '--dpi', `${dpi}`, '-l', lang, '--psm', '3', 'hocr'], { stdio: 'ignore' });
      const lines = hocrLines(parseHocr(readFileSync(join(work, `${name}.hocr`), 'utf8')).lines, dpi);
      const img = ocrImage ?? readPgm(pgm);
      const kept = stored ?? img;
      const g = 72 / dpi;
      writeFileSync(
        pdf,
        writePdf([
          {
            jpeg: new Uint8Array(readFileSync(jpg)),
            imgWidth: kept.width,
            imgHeight: kept.height,
            width: img.width * g,
            height: img.height * g,
            lines,
            cyrillic: false,
            grid: g,
          },
        ]),
      );
      layerRaw = layerText(lines, false);
    } else if (likeDev && py) {
      // as the dev split's files are made: the text-only layer Tesseract writes, shown over the stored image (PyMuPDF)
      const textOnly = join(work, name);
      execFileSync('tesseract', [ocrInput, textOnly, '--dpi', `${dpi}`, '-l', lang, '--psm', '3', '-c', 'textonly_pdf=1', 'pdf'], {
        stdio: 'ignore',
      });
      overlay(py, `${textOnly}.pdf`, jpg, pdf);
      layerRaw = normalise(execFileSync('pdftotext', ['-q', '-raw', pdf, '-'], opts));
    } else {
      execFileSync('tesseract', [jpg, join(files, name), '--dpi', `${dpi}`, '-l', lang, '--psm', '3', 'pdf'], { stdio: 'ignore' });
      layerRaw = normalise(execFileSync('pdftotext', ['-q', '-raw', pdf, '-'], opts));
    }
    // PyMuPDF reads the finished page as the dev split's reader does, whichever renderer wrote it
    const read = py ? pymupdfTexts(py, pdf, 1) : undefined;
    if (read) layerRaw = normalise(read.content);
    if (layerRaw.length < 40) {
      // a layer this small makes the page route `ocr`, not `ocr-layer` (the dev split replaces such recipes too)
      rmSync(pdf);
      console.log(`${name}: layer of ${layerRaw.length} characters, left out`);
      continue;
    }
    const layerRead = normalise(read?.layout ?? execFileSync('pdftotext', ['-q', '-layout', pdf, '-'], opts));
    const cerRaw = levenshtein(layerRaw, truthRaw) / truthRaw.length;
    const cerRead = levenshtein(layerRead, truthRead) / truthRead.length;
    const cer = Math.min(cerRaw, cerRead);
    const cls = labelClass(cer);
    const degrade: Record<string, number> = {};
    if (noise) degrade.noise = noise;
    if (contrast < 1) degrade.contrast = Math.round(contrast * 100) / 100;
    Object.assign(degrade, more);
    labels.push(
      JSON.stringify({
        file: `files/${name}.pdf`,
        pages: [
          {
            page: 1,
            source: c.source,
            lang: c.lang,
            recipe: { kind: 'tesseract', dpi, lang, psm: 3, degrade, renderer, store_dpi: storeDpi, jpeg_quality: quality },
            ...(py ? { reader: 'pymupdf' } : {}),
            truth_chars: truthRaw.length,
            layer_chars: layerRaw.length,
            cer: Math.round(cer * 1e4) / 1e4,
            class: cls,
            reocr: cls === 'poor',
          },
        ],
      }),
    );
    n++;
    if (fromMan) nMan++;
    console.log(
      `${name}: ${dpi} dpi, ${lang}, ${renderer}, contrast ${contrast.toFixed(2)}, noise ${noise}, q ${quality}${likeDev ? `, ${JSON.stringify(more)}, stored at ${storeDpi} dpi` : ''}: CER ${cer.toFixed(3)} (${cls}; content ${cerRaw.toFixed(3)}, layout ${cerRead.toFixed(3)})`,
    );
  }
  writeFileSync(join(out, 'labels.jsonl'), labels.join('\n') + '\n');
  console.log(
    `\n${n} pages (${nMan} of manual pages) in ${out} (labels.jsonl, files/); judge them: node --import tsx scripts/ocr-quality.ts --data ${out}`,
  );
  return 0;
}

// run as a script, not when a test imports its helpers
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = main();
