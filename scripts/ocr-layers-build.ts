/**
 * Builds a second, independent split for the layer-quality score (issue 16): real Tesseract OCR layers over scans of
 * born-digital pages that the dev split (../shared/ocr-quality) never used, labelled the way that split is labelled,
 * so `npm run ocr-quality -- --data DIR` can judge the score on documents it was never fitted to. The dev split's
 * private held-out half is made "the same way from other documents and another seed"; this is our own stand-in for
 * its real-OCR part (it has no synthetic corruptions).
 *
 *   node --import tsx scripts/ocr-layers-build.ts --out DIR [--pages 40] [--seed 1] [--corpus ../shared/corpus]
 *   node --import tsx scripts/ocr-layers-build.ts --out DIR --merge SPLIT SPLIT…
 *
 * --merge pools splits already built (several seeds) into one, so that `npm run ocr-quality -- --data DIR` judges them
 * together, with every table: each split's files are linked as s1-…, s2-… (in the order given) and its labels
 * renamed to match.
 *
 * Per page: the source page rendered to grey at a random resolution (pdftoppm), degraded (noise, faint print), saved
 * as a baseline JPEG (cjpeg), OCR'd by Tesseract into a PDF with its image and an invisible GlyphLessFont layer
 * (tesseract … pdf; sometimes with a wrong language, as the dev split does). The label: CER of the layer's text
 * against the source page's text (pdftotext), each normalised as the dev split's README says (NFKC, dashes and quotes
 * folded, soft hyphens removed, white space collapsed), the smaller of content order (-raw) and layout order (-layout:
 * line by line across the page), as the dev split takes the smaller of its two orders for real OCR (Tesseract puts
 * every word where the scan has it, so an order that differs from the original's is the original's); class
 * good ≤ 0.05 < fair ≤ 0.25 < poor.
 *
 * Sources: corpus pages labelled `text` (600–6,000 visible characters, two images at most), two pages per document at
 * most, none whose name shares a word with a dev-split source. A layer under 40 characters (the page would route
 * `ocr`) is left out. Needs pdftoppm and pdftotext (poppler-utils), cjpeg
 * (libjpeg-turbo-progs) and tesseract with eng, deu, fra and rus (tesseract-ocr-*); without them: a clean skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from './fuzz';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

export function have(tool: string, args: string[]): boolean {
  try {
    execFileSync(tool, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** the dev split README's normalisation */
export function normalise(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/\u00ad/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Levenshtein distance over UTF-16 units, two rows */
export function levenshtein(a: string, b: string): number {
  if (a.length < b.length) [a, b] = [b, a];
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = prev[j] + 1;
      const ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** A binary PGM (P5, 8 bit) read, faded and noised in place, and written back. */
export function degradePgm(file: string, contrast: number, noise: number, next: () => number): void {
  const buf = readFileSync(file);
  // header: P5, width, height, maxval, each separated by white space (no comments from pdftoppm)
  const fields: string[] = [];
  let p = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(buf[p]))) p++;
    let tok = '';
    while (!/\s/.test(String.fromCharCode(buf[p]))) tok += String.fromCharCode(buf[p++]);
    fields.push(tok);
  }
  p++;
  if (fields[0] !== 'P5' || fields[3] !== '255') throw new Error(`${file}: not an 8-bit binary PGM`);
  const px = buf.subarray(p);
  for (let i = 0; i < px.length; i++) {
    // faint print: ink pulled towards the paper; then Gaussian noise (Box–Muller)
    let v = 255 - (255 - px[i]) * contrast;
    if (noise > 0) v += noise * Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
    px[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  writeFileSync(file, buf);
}

interface CorpusPage {
  page: number;
  route: string;
  visibleChars: number;
  images: number;
}

/** a corpus file's name without its folder, its content-hash prefix and `.pdf` */
export const stem = (file: string): string => basename(file, '.pdf').replace(/^[0-9a-f]{12}-/, '');

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

function main(): number {
  const out = arg('--out');
  if (!out) {
    console.error('usage: ocr-layers-build.ts --out DIR [--pages N] [--seed S] [--corpus DIR] | --out DIR --merge SPLIT…');
    return 2;
  }
  const m = process.argv.indexOf('--merge');
  if (m >= 0) {
    // the splits: the arguments after --merge, up to the next option
    const rest = process.argv.slice(m + 1);
    const end = rest.findIndex((a) => a.startsWith('--'));
    return merge(out, end < 0 ? rest : rest.slice(0, end));
  }
  const corpus = resolve(arg('--corpus') ?? join(ROOT, '..', 'shared', 'corpus'));
  const dev = resolve(ROOT, '..', 'shared', 'ocr-quality', 'labels.jsonl');
  const want = Number(arg('--pages') ?? 40);
  const next = prng(Number(arg('--seed') ?? 1));
  const missing = [
    ['pdftoppm', ['-v']],
    ['pdftotext', ['-v']],
    ['cjpeg', ['-version']],
    ['tesseract', ['--version']],
  ].filter(([t, a]) => !have(t as string, a as string[]));
  if (missing.length || !existsSync(join(corpus, 'labels.jsonl'))) {
    console.log(`ocr-layers-build: skipped (${missing.length ? `missing ${missing.map((m) => m[0]).join(', ')}` : `no corpus at ${corpus}`})`);
    return 0;
  }
  // words of the dev split's sources (file names and `source` fields): a document sharing one is left out
  const devWords = new Set<string>();
  if (existsSync(dev))
    for (const line of readFileSync(dev, 'utf8').split('\n').filter(Boolean)) {
      const d = JSON.parse(line) as { file: string; pages: { source?: string }[] };
      for (const p of d.pages)
        for (const w of (p.source ?? '').split(/[\s_.-]+/)) if (w.length >= 3 && !/^p\d+$/.test(w)) devWords.add(w.toLowerCase());
    }
  const candidates: { file: string; page: number }[] = [];
  for (const line of readFileSync(join(corpus, 'labels.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const d = JSON.parse(line) as { file: string; encrypted?: boolean; pages: CorpusPage[] };
    if (d.encrypted || !d.file.startsWith('real/')) continue;
    const words = stem(d.file)
      .split(/[\s_.-]+/)
      .map((w) => w.toLowerCase());
    if (words.some((w) => devWords.has(w))) continue;
    const pages = (d.pages ?? []).filter((p) => p.route === 'text' && p.images <= 2 && p.visibleChars >= 600 && p.visibleChars <= 6000);
    // two pages of a document at most, so that no document weighs much
    for (let k = 0; k < 2 && pages.length; k++) candidates.push({ file: d.file, page: pages.splice(Math.floor(next() * pages.length), 1)[0].page });
  }
  // a seeded shuffle, then the first `want`
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [candidates[i], candidates[j]] = [candidates[j], candidates[i]];
  }
  const files = join(out, 'files');
  const work = join(out, 'work');
  mkdirSync(files, { recursive: true });
  mkdirSync(work, { recursive: true });
  const labels: string[] = [];
  let n = 0;
  for (const c of candidates) {
    if (n >= want) break;
    const src = join(corpus, c.file);
    const truthRaw = normalise(execFileSync('pdftotext', ['-q', '-raw', '-f', `${c.page}`, '-l', `${c.page}`, src, '-'], { encoding: 'utf8' }));
    const truthRead = normalise(execFileSync('pdftotext', ['-q', '-layout', '-f', `${c.page}`, '-l', `${c.page}`, src, '-'], { encoding: 'utf8' }));
    if (truthRaw.length < 500 || /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(truthRaw)) continue;
    const dpi = [300, 200, 150, 100, 72][Math.floor(next() * 5)];
    const contrast = next() < 0.25 ? 0.3 + 0.2 * next() : 1;
    const noise = next() < 0.4 ? [8, 15, 25][Math.floor(next() * 3)] : 0;
    const lang = next() < 0.15 ? ['deu', 'fra', 'rus'][Math.floor(next() * 3)] : 'eng';
    const quality = 45 + Math.floor(next() * 26);
    const name = `${String(n + 1).padStart(3, '0')}-${stem(c.file).slice(0, 40)}`;
    const pgm = join(work, `${name}.pgm`);
    execFileSync('pdftoppm', ['-q', '-r', `${dpi}`, '-gray', '-f', `${c.page}`, '-l', `${c.page}`, '-singlefile', src, pgm.replace(/\.pgm$/, '')]);
    degradePgm(pgm, contrast, noise, next);
    const jpg = join(work, `${name}.jpg`);
    execFileSync('cjpeg', ['-quality', `${quality}`, '-outfile', jpg, pgm]);
    execFileSync('tesseract', [jpg, join(files, name), '--dpi', `${dpi}`, '-l', lang, '--psm', '3', 'pdf'], { stdio: 'ignore' });
    const pdf = join(files, `${name}.pdf`);
    const layerRaw = normalise(execFileSync('pdftotext', ['-q', '-raw', pdf, '-'], { encoding: 'utf8' }));
    if (layerRaw.length < 40) {
      // a layer this small makes the page route `ocr`, not `ocr-layer` (the dev split replaces such recipes too)
      rmSync(pdf);
      console.log(`${name}: layer of ${layerRaw.length} characters, left out`);
      continue;
    }
    const layerRead = normalise(execFileSync('pdftotext', ['-q', '-layout', pdf, '-'], { encoding: 'utf8' }));
    const cerRaw = levenshtein(layerRaw, truthRaw) / truthRaw.length;
    const cerRead = levenshtein(layerRead, truthRead) / truthRead.length;
    const cer = Math.min(cerRaw, cerRead);
    const cls = cer <= 0.05 ? 'good' : cer <= 0.25 ? 'fair' : 'poor';
    const degrade: Record<string, number> = {};
    if (noise) degrade.noise = noise;
    if (contrast < 1) degrade.contrast = Math.round(contrast * 100) / 100;
    labels.push(
      JSON.stringify({
        file: `files/${name}.pdf`,
        pages: [
          {
            page: 1,
            source: `${c.file} p${c.page}`,
            recipe: { kind: 'tesseract', dpi, lang, psm: 3, degrade, renderer: 'tesseract-pdf', store_dpi: dpi, jpeg_quality: quality },
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
    console.log(`${name}: ${dpi} dpi, ${lang}, contrast ${contrast.toFixed(2)}, noise ${noise}, q ${quality}: CER ${cer.toFixed(3)} (${cls})`);
  }
  writeFileSync(join(out, 'labels.jsonl'), labels.join('\n') + '\n');
  console.log(`\n${n} pages in ${out} (labels.jsonl, files/); judge them: node --import tsx scripts/ocr-quality.ts --data ${out}`);
  return 0;
}

// run as a script, not when a test imports its helpers
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = main();
