/**
 * What the two stand-in splits for the OCR-layer quality score (issue 16) share about their SOURCES and TOOLS:
 * scripts/ocr-layers-build.ts (real Tesseract OCR layers) and scripts/ocr-synth-build.ts (synthetic corrupted layers)
 * both take their pages from the same places by the same rules. Here: the dev split's sources (devSources, left out of
 * both), the corpus page selection (corpusSources) and the pages-per-document cap, the manual pages (commands, the
 * Cyrillic groff font directory, typesetting with `man -Tpdf`, the languages in turn), the tool check and the
 * --man/--no-man decision with its clean skip (buildSetup), and the small helpers both use (arg, have, stem,
 * normalise, levenshtein, shuffleInPlace, degradePgm, foreignScript).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** the corpus the corpus pages come from, unless --corpus names another */
const DEFAULT_CORPUS = join(ROOT, '..', 'shared', 'corpus');
/** the dev split's labels, whose sources both splits leave out */
const DEV_LABELS = resolve(ROOT, '..', 'shared', 'ocr-quality', 'labels.jsonl');

/** the command line's value after `name`, if given */
export const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

export type Rnd = () => number;

// ---- small helpers ----------------------------------------------------------------------------------------------------

export function have(tool: string, args: string[]): boolean {
  try {
    execFileSync(tool, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A Python that has PyMuPDF (`import fitz`: Debian's python3-fitz), the reader the dev split's labels were measured with
 * (its README: `get_text()` in content order, `get_text(sort=True)` in layout order); null when none does. PyMuPDF is
 * AGPL-licensed: it is run as a tool by the stand-in builders, never linked into or shipped with the package.
 */
export function pymupdfPython(): string | null {
  for (const py of ['python3', '/usr/bin/python3']) if (have(py, ['-c', 'import fitz'])) return py;
  return null;
}

/** one page's text as PyMuPDF reads it, raw: in content order and sorted by position (layout order) */
export function pymupdfTexts(python: string, pdf: string, page: number): { content: string; layout: string } {
  const script =
    'import sys, json, fitz\n' +
    // the document held while its page is read (a page whose document is freed is "orphaned")
    'd = fitz.open(sys.argv[1])\n' +
    'p = d[int(sys.argv[2]) - 1]\n' +
    'sys.stdout.write(json.dumps({"content": p.get_text(), "layout": p.get_text(sort=True)}))';
  return JSON.parse(execFileSync(python, ['-c', script, pdf, String(page)], { encoding: 'utf8', maxBuffer: 1 << 28 })) as {
    content: string;
    layout: string;
  };
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

/** the dev split README's classes: good up to 5 % CER, fair up to 25 %, poor past it (poor = reocr) */
export function labelClass(cer: number): 'good' | 'fair' | 'poor' {
  return cer <= 0.05 ? 'good' : cer <= 0.25 ? 'fair' : 'poor';
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

/**
 * A binary 8-bit PGM as pdftoppm writes it (P5, width, height, 255, each after white space, one white-space byte
 * before the pixels, no comments): the file's bytes, its size, and its pixels as a view into those bytes.
 */
export function readPgm(file: string): { buf: Buffer; width: number; height: number; pixels: Buffer } {
  const buf = readFileSync(file);
  const head = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.subarray(0, 40).toString('latin1'));
  if (!head) throw new Error(`${file}: not an 8-bit binary PGM`);
  return { buf, width: Number(head[1]), height: Number(head[2]), pixels: buf.subarray(head[0].length) };
}

/** A binary PGM read, faded and noised in place, and written back. */
export function degradePgm(file: string, contrast: number, noise: number, next: () => number): void {
  const { buf, pixels: px } = readPgm(file);
  for (let i = 0; i < px.length; i++) {
    // faint print: ink pulled towards the paper; then Gaussian noise (Box–Muller)
    let v = 255 - (255 - px[i]) * contrast;
    if (noise > 0) v += noise * Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
    px[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  writeFileSync(file, buf);
}

/** a grey image in memory (8 bits a pixel, rows top to bottom) */
export interface Grey {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** A grey image written as a binary 8-bit PGM (what tesseract, cjpeg and readPgm read). */
export function writePgm(file: string, img: Grey): void {
  const head = Buffer.from(`P5\n${img.width} ${img.height}\n255\n`, 'latin1');
  writeFileSync(file, Buffer.concat([head, Buffer.from(img.pixels.buffer, img.pixels.byteOffset, img.pixels.length)]));
}

/** A grey image turned by `degrees` about its centre (bilinear), the corners it uncovers filled with paper. */
export function rotateGrey(img: Grey, degrees: number): Grey {
  const { width: w, height: h, pixels: src } = img;
  const out = new Uint8Array(w * h);
  const t = (degrees * Math.PI) / 180;
  const c = Math.cos(t);
  const s = Math.sin(t);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      // the source point the output pixel shows (the inverse turn)
      const dx = x - cx;
      const dy = y - cy;
      const sx = c * dx - s * dy + cx;
      const sy = s * dx + c * dy + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const at = (xx: number, yy: number) => (xx >= 0 && yy >= 0 && xx < w && yy < h ? src[yy * w + xx] : 255);
      const v = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) + fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
      out[y * w + x] = Math.round(v);
    }
  return { width: w, height: h, pixels: out };
}

/** A Gaussian-like blur of standard deviation `sigma` pixels: three box blurs each way (their widths from sigma). */
export function blurGrey(img: Grey, sigma: number): Grey {
  const { width: w, height: h } = img;
  // a box of radius r three times over has variance 3·((2r+1)² − 1) / 12 = r(r+1)
  const r = Math.max(1, Math.round((Math.sqrt(1 + 4 * sigma * sigma) - 1) / 2));
  let a = Float64Array.from(img.pixels);
  let b = new Float64Array(w * h);
  const pass = (len: number, count: number, stride: number, step: number) => {
    for (let k = 0; k < count; k++) {
      const base = k * stride;
      for (let i = 0; i < len; i++) {
        let sum = 0;
        let n = 0;
        for (let j = Math.max(0, i - r); j <= Math.min(len - 1, i + r); j++, n++) sum += a[base + j * step];
        b[base + i * step] = sum / n;
      }
    }
    [a, b] = [b, a];
  };
  for (let k = 0; k < 3; k++) {
    pass(w, h, w, 1);
    pass(h, w, 1, w);
  }
  return { width: w, height: h, pixels: Uint8Array.from(a, (v) => Math.round(v)) };
}

/** A grey image scaled down by `factor` (0 < factor ≤ 1), each output pixel the mean of the source area it covers. */
export function shrinkGrey(img: Grey, factor: number): Grey {
  const { width: w, height: h, pixels: src } = img;
  const W = Math.max(1, Math.round(w * factor));
  const H = Math.max(1, Math.round(h * factor));
  const out = new Uint8Array(W * H);
  for (let Y = 0; Y < H; Y++) {
    const y0 = (Y * h) / H;
    const y1 = ((Y + 1) * h) / H;
    for (let X = 0; X < W; X++) {
      const x0 = (X * w) / W;
      const x1 = ((X + 1) * w) / W;
      let sum = 0;
      let area = 0;
      for (let y = Math.floor(y0); y < Math.min(h, Math.ceil(y1)); y++) {
        const fy = Math.min(y + 1, y1) - Math.max(y, y0);
        for (let x = Math.floor(x0); x < Math.min(w, Math.ceil(x1)); x++) {
          const f = fy * (Math.min(x + 1, x1) - Math.max(x, x0));
          sum += f * src[y * w + x];
          area += f;
        }
      }
      out[Y * W + X] = Math.round(sum / area);
    }
  }
  return { width: W, height: H, pixels: out };
}

/** a corpus file's name without its folder, its content-hash prefix and `.pdf` */
export const stem = (file: string): string => basename(file, '.pdf').replace(/^[0-9a-f]{12}-/, '');

/** a seeded Fisher–Yates shuffle */
export function shuffleInPlace<T>(xs: T[], next: Rnd): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
}

/** a character a page in `lang` may not have: any outside Latin (and Cyrillic for Russian), Common and Inherited; such a page is left out */
export const foreignScript = (lang: Source['lang']): RegExp =>
  lang === 'rus'
    ? /[^\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]/u
    : /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;

// ---- sources --------------------------------------------------------------------------------------------------------

export interface Source {
  /** the dev split's `source` naming: the corpus file's stem, or man-CMD[-de|-fr|-ru] */
  name: string;
  pdf: string;
  pages: number[];
  lang: 'eng' | 'deu' | 'fra' | 'rus';
}

export const MAN_LANGS: { lang: Source['lang']; locale: string; suffix: string; dir: string }[] = [
  { lang: 'eng', locale: 'en', suffix: '', dir: '/usr/share/man/man1' },
  { lang: 'deu', locale: 'de', suffix: '-de', dir: '/usr/share/man/de/man1' },
  { lang: 'fra', locale: 'fr', suffix: '-fr', dir: '/usr/share/man/fr/man1' },
  { lang: 'rus', locale: 'ru', suffix: '-ru', dir: '/usr/share/man/ru/man1' },
];

/** a groff font directory whose Times (TR, TB, TI, TBI) are URW's Nimbus Roman, which has Cyrillic; null if it cannot be made */
function cyrillicFonts(work: string): string | null {
  const urw = '/usr/share/fonts/type1/urw-base35';
  const groff = readdirSync('/usr/share/groff')
    .map((v) => join('/usr/share/groff', v, 'font', 'devpdf'))
    .find((d) => existsSync(join(d, 'DESC')));
  if (!groff || !existsSync(join(urw, 'NimbusRoman-Regular.afm')) || !have('afmtodit', ['-v'])) return null;
  const dir = join(work, 'groff-font');
  const dev = join(dir, 'devpdf');
  mkdirSync(dev, { recursive: true });
  writeFileSync(join(dev, 'DESC'), readFileSync(join(groff, 'DESC')));
  const download = ['# foundry\tps name\tpsfile'];
  for (const [name, face] of [
    ['TR', 'Regular'],
    ['TB', 'Bold'],
    ['TI', 'Italic'],
    ['TBI', 'BoldItalic'],
  ]) {
    execFileSync('afmtodit', ['-e', join(groff, 'enc', 'text.enc'), join(urw, `NimbusRoman-${face}.afm`), join(groff, 'map', 'textmap'), name], {
      cwd: dev,
      stdio: 'ignore',
    });
    download.push(`\tNimbusRoman-${face}\t${join(urw, `NimbusRoman-${face}.t1`)}`);
  }
  for (const l of readFileSync(join(groff, 'download'), 'utf8').split('\n'))
    if (l.trim() && !l.startsWith('#') && !/NimbusRoman/.test(l)) download.push(l);
  writeFileSync(join(dev, 'download'), download.join('\n') + '\n');
  return dir;
}

/**
 * Manual pages of commands the dev split does not name (devSources), typeset to PDF in `work`, shuffled by the seed,
 * `want` at most per language, with the languages in turn (inTurn); what it typeset and left out is printed, `script`
 * naming the build.
 */
export function manSources(script: string, work: string, want: number, next: Rnd): Source[] {
  const exclude = devSources().commands;
  const out: Source[] = [];
  const fontDir = cyrillicFonts(work);
  let failed = 0;
  for (const ml of MAN_LANGS) {
    if (ml.lang === 'rus' && !fontDir) {
      console.log(`${script}: no Cyrillic font for groff (afmtodit, fonts-urw-base35): Russian manual pages left out`);
      continue;
    }
    if (!existsSync(ml.dir)) continue;
    const names = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((f) => f.replace(/\.1(\.gz)?$/, '')) : []);
    // English: only commands translated too (the core tools the dev split's manual pages are, not every package's pages)
    const translated = new Set(MAN_LANGS.filter((l) => l.lang !== 'eng').flatMap((l) => names(l.dir)));
    const cmds = [...new Set(names(ml.dir))]
      .filter((c) => /^[a-z][a-z0-9_-]*$/.test(c) && !exclude.has(c) && (ml.lang !== 'eng' || translated.has(c)))
      .sort();
    shuffleInPlace(cmds, next);
    let got = 0;
    for (const cmd of cmds) {
      if (got >= want) break;
      const pdf = join(work, `man-${cmd}${ml.suffix}.pdf`);
      try {
        const env = { ...process.env, MANWIDTH: '', MAN_KEEP_FORMATTING: '', ...(ml.lang === 'rus' ? { MANROFFOPT: `-F ${fontDir}` } : {}) };
        const bytes = execFileSync('man', ['-Tpdf', '-L', ml.locale, cmd], { env, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
        writeFileSync(pdf, bytes);
      } catch {
        failed++;
        continue;
      }
      const n = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1] ?? 0);
      if (n < 1) continue;
      out.push({ name: `man-${cmd}${ml.suffix}`, pdf, pages: Array.from({ length: n }, (_, i) => i + 1), lang: ml.lang });
      got++;
    }
  }
  const docs = inTurn(out);
  console.log(`${script}: ${docs.length} manual pages typeset (${[...exclude].sort().join(', ')} left out: the dev split's)`);
  if (docs.length === 0 && failed > 0) console.log(`${script}: \`man -Tpdf\` failed for all ${failed} pages tried`);
  return docs;
}

/**
 * The dev split's sources (its labels.jsonl, when there): words of their names (corpus documents sharing one are left
 * out) and the commands of its manual pages (left out whatever the language).
 */
export function devSources(labelsFile = DEV_LABELS): { words: Set<string>; commands: Set<string> } {
  const devWords = new Set<string>();
  const devCommands = new Set<string>();
  if (existsSync(labelsFile))
    for (const line of readFileSync(labelsFile, 'utf8').split('\n').filter(Boolean)) {
      const d = JSON.parse(line) as { pages: { source?: string; recipe?: { other?: string } }[] };
      for (const p of d.pages)
        for (const s of [p.source ?? '', p.recipe?.other ?? '']) {
          const m = /^man-(.+?)(-(de|fr|ru))? p\d+$/.exec(s);
          if (m) devCommands.add(m[1]);
          for (const w of s.split(/[\s_.-]+/)) if (w.length >= 3 && !/^p\d+$/.test(w)) devWords.add(w.toLowerCase());
        }
    }
  return { words: devWords, commands: devCommands };
}

/** manual pages with the languages in turn (first of each, second of each, …), so that each has its share */
function inTurn(byLang: Source[]): Source[] {
  const manDocs: Source[] = [];
  for (let i = 0; manDocs.length < byLang.length; i++)
    for (const ml of MAN_LANGS) {
      const d = byLang.filter((s) => s.lang === ml.lang)[i];
      if (d) manDocs.push(d);
    }
  return manDocs;
}

/** two pages of a source document at most (corpus document or manual page), so that no document weighs much */
export const MAX_PAGES_PER_DOCUMENT = 2;

interface CorpusPage {
  page: number;
  route: string;
  visibleChars: number;
  images: number;
}

/** a corpus document to take pages from; `file` as the corpus's labels.jsonl names it (`real/…`) */
export interface CorpusSource extends Source {
  file: string;
}

/**
 * The corpus documents to take pages from, in the order of the corpus's labels.jsonl: unencrypted `real/` documents
 * whose name shares no word with a dev-split source (`devWords`, of devSources), each with all its pages labelled
 * `text` that have two images at most and 600–6,000 visible characters (documents without one are left out). Which of
 * them a build takes, MAX_PAGES_PER_DOCUMENT at most, is that build's own draw.
 */
export function corpusSources(corpus: string, devWords = devSources().words): CorpusSource[] {
  const out: CorpusSource[] = [];
  for (const line of readFileSync(join(corpus, 'labels.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const d = JSON.parse(line) as { file: string; encrypted?: boolean; pages: CorpusPage[] };
    if (d.encrypted || !d.file.startsWith('real/')) continue;
    const words = stem(d.file)
      .split(/[\s_.-]+/)
      .map((w) => w.toLowerCase());
    if (words.some((w) => devWords.has(w))) continue;
    const pages = (d.pages ?? [])
      .filter((p) => p.route === 'text' && p.images <= 2 && p.visibleChars >= 600 && p.visibleChars <= 6000)
      .map((p) => p.page);
    if (pages.length) out.push({ name: stem(d.file), file: d.file, pdf: join(corpus, d.file), pages, lang: 'eng' });
  }
  return out;
}

// ---- tools ----------------------------------------------------------------------------------------------------------

/** what every build runs: pdftoppm, pdftotext and pdfinfo (poppler-utils) and cjpeg (libjpeg-turbo-progs), each with its version flag */
const TOOLS: [string, string[]][] = [
  ['pdftoppm', ['-v']],
  ['pdftotext', ['-v']],
  ['pdfinfo', ['-v']],
  ['cjpeg', ['-version']],
];

/**
 * What a build can take its pages from, or null when it must skip (it prints why, as `script: skipped (…)`): TOOLS and
 * `tools` must all be there, and the corpus (--corpus, ../shared/corpus by default; its labels.jsonl) or the manual
 * pages. Manual pages are on when groff's PDF device (gropdf) and man are there, unless --no-man; with
 * `manNeedsLanguages`, by default only when the German, French and Russian manual pages are there too (--man asks for
 * them with whatever languages there are). When they are off for want of a tool or a language, it says which Debian
 * packages would turn them on; --man without groff or man is said and ignored.
 */
export function buildSetup(
  script: string,
  { tools = [], manNeedsLanguages = false }: { tools?: [string, string[]][]; manNeedsLanguages?: boolean } = {},
): { corpus: string; haveCorpus: boolean; useMan: boolean } | null {
  const corpus = resolve(arg('--corpus') ?? DEFAULT_CORPUS);
  const missing = [...TOOLS, ...tools].filter(([t, a]) => !have(t, a));
  const haveCorpus = existsSync(join(corpus, 'labels.jsonl'));
  // `man -Tpdf` needs groff's PDF device, gropdf: Debian's groff-base has groff without it, and every page then fails
  // to typeset (a build without manual pages, not the dev split's mix)
  const manTools = have('gropdf', ['-v']) && have('man', ['--version']);
  const manLangs = !manNeedsLanguages || MAN_LANGS.every((l) => existsSync(l.dir)) || process.argv.includes('--man');
  const useMan = !process.argv.includes('--no-man') && manTools && manLangs;
  if (process.argv.includes('--man') && !manTools)
    console.log(`${script}: --man asked for, but groff's PDF device or man is missing (Debian: groff, man-db): corpus pages only`);
  else if (!manTools && !process.argv.includes('--no-man'))
    console.log(`${script}: no manual pages: groff's PDF device or man is missing (Debian: groff, man-db)`);
  else if (manTools && !manLangs && !process.argv.includes('--no-man'))
    console.log(
      `${script}: no manual pages: German, French or Russian ones are missing (Debian: manpages-de, manpages-fr, manpages-ru; --man takes whatever languages there are)`,
    );
  if (missing.length || (!haveCorpus && !useMan)) {
    console.log(
      `${script}: skipped (${missing.length ? `missing ${missing.map((m) => m[0]).join(', ')}` : `no corpus at ${corpus} and no man/groff`})`,
    );
    return null;
  }
  return { corpus, haveCorpus, useMan };
}
