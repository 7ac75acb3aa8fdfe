/**
 * A check split for the layer-quality score's other languages (language.ts: the nineteen beyond English, German, French
 * and Russian): Debian's translated manual pages (the manpages-xx packages) typeset by `man -Tpdf`, the first page of
 * each rendered and OCR'd by Tesseract three ways:
 * - `good`: 200 dpi, in the page's language;
 * - `blur`: 72 dpi and blurred, in the page's language (poor layers);
 * - `cyr`: 150 dpi, read as Russian, the wrong script (poor layers: Cyrillic garbage over a Latin page).
 * Tesseract's own PDF renderer writes each layer over its image. Each page is labelled as the dev split's README says
 * (the CER of the layer's text, `pdftotext`, against the source page's, both normalised), so the dev split's judge
 * reads it: `npm run ocr-quality -- --data DIR`.
 *
 *   node --import tsx scripts/ocr-languages-build.ts --out DIR [--per-language N] [--offset K] [--languages pl,cs,...]
 *
 * From each language's manual pages (sorted by name) every seventh is taken from the K-th on, counting from 1 (K = 5
 * by default; the thresholds of language.ts were set on pages of K = 3), up to N (2) whose first page holds 600
 * characters or more.
 * Needs man and groff with its PDF device (gropdf: Debian's groff, not groff-base alone), poppler-utils (pdftoppm,
 * pdftotext), ImageMagick (convert), tesseract with the languages' traineddata and rus (tesseract-ocr-pol, …), and the
 * manpages-xx packages; it says what is missing. Not run in CI.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, have, labelClass, levenshtein, normalise } from './ocr-split-sources';

/** manual page locale → Tesseract language */
export const LANGUAGE_PAGES: Record<string, string> = {
  es: 'spa',
  it: 'ita',
  pt_BR: 'por',
  nl: 'nld',
  pl: 'pol',
  cs: 'ces',
  sv: 'swe',
  da: 'dan',
  fi: 'fin',
  hu: 'hun',
  tr: 'tur',
  ro: 'ron',
};

/** how each page is OCR'd: its resolution, ImageMagick's filter before OCR, and the Tesseract language ('' for the page's own) */
export const VARIANTS: { name: string; dpi: number; filter: string[]; tesseract: string }[] = [
  { name: 'good', dpi: 200, filter: [], tesseract: '' },
  { name: 'blur', dpi: 72, filter: ['-blur', '0x0.8'], tesseract: '' },
  { name: 'cyr', dpi: 150, filter: [], tesseract: 'rus' },
];

/** every seventh of `names` in order, from the offset-th (counting from 1) */
export function pick(names: string[], offset: number): string[] {
  return [...names].sort().filter((_, i) => i % 7 === (offset - 1 + 7) % 7);
}

function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Buffer {
  return execFileSync(cmd, args, { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'], ...opts });
}

function main(): number {
  const out = arg('--out');
  if (!out) {
    console.error('usage: ocr-languages-build.ts --out DIR [--per-language N] [--offset K] [--languages pl,cs,...]');
    return 2;
  }
  const perLanguage = Number(arg('--per-language') ?? 2);
  const offset = Number(arg('--offset') ?? 5);
  const languages = (arg('--languages') ?? Object.keys(LANGUAGE_PAGES).join(',')).split(',');
  const unknown = languages.filter((l) => !LANGUAGE_PAGES[l]);
  if (!(perLanguage > 0) || !(offset >= 0) || unknown.length) {
    console.error(
      `ocr-languages-build: --per-language and --offset take whole numbers${unknown.length ? `; no such language: ${unknown.join(', ')}` : ''}`,
    );
    return 2;
  }
  const tools: [string, string[]][] = [
    ['man', ['--version']],
    // `man -Tpdf` needs groff's PDF device (Debian's groff, not only groff-base)
    ['gropdf', ['-v']],
    ['pdftoppm', ['-v']],
    ['pdftotext', ['-v']],
    ['convert', ['-version']],
    ['tesseract', ['--version']],
  ];
  const missing = tools.filter(([t, a]) => !have(t, a)).map(([t]) => t);
  const installed = have('tesseract', ['--list-langs']) ? run('tesseract', ['--list-langs']).toString() : '';
  for (const l of languages) {
    if (!existsSync(`/usr/share/man/${l}/man1`)) missing.push(`manpages-${l.toLowerCase().replace('_', '-')}`);
    if (!installed.split('\n').includes(LANGUAGE_PAGES[l])) missing.push(`tesseract-ocr-${LANGUAGE_PAGES[l]}`);
  }
  if (!installed.split('\n').includes('rus')) missing.push('tesseract-ocr-rus');
  if (missing.length) {
    console.error(`ocr-languages-build: missing ${[...new Set(missing)].join(', ')} (Debian packages)`);
    return 2;
  }
  const dir = resolve(out);
  const work = join(dir, 'work');
  mkdirSync(join(dir, 'files'), { recursive: true });
  mkdirSync(work, { recursive: true });
  const labels: string[] = [];
  for (const l of languages) {
    const manDir = `/usr/share/man/${l}/man1`;
    let taken = 0;
    for (const page of pick(
      readdirSync(manDir).filter((n) => n.endsWith('.1.gz')),
      offset,
    )) {
      if (taken >= perLanguage) break;
      const name = `${l}-${page.replace(/\.[^.]+\.gz$/, '')}`;
      const src = join(work, `${name}.pdf`);
      try {
        writeFileSync(src, run('man', ['-Tpdf', '-l', join(manDir, page)], { env: { ...process.env, LANG: 'C.UTF-8' } }));
      } catch {
        continue;
      }
      const truth = normalise(run('pdftotext', ['-f', '1', '-l', '1', src, '-']).toString());
      if (truth.replace(/\s/g, '').length < 600) continue;
      taken++;
      for (const v of VARIANTS) {
        const base = join(work, `${name}-${v.name}`);
        run('pdftoppm', ['-f', '1', '-l', '1', '-singlefile', '-r', String(v.dpi), '-gray', '-png', src, base]);
        run('convert', [`${base}.png`, ...v.filter, '-quality', '60', `${base}.jpg`]);
        const lang = v.tesseract || LANGUAGE_PAGES[l];
        run('tesseract', [`${base}.jpg`, join(dir, 'files', `${name}-${v.name}`), '-l', lang, '--psm', '3', 'pdf']);
        const layer = normalise(run('pdftotext', [join(dir, 'files', `${name}-${v.name}.pdf`), '-']).toString());
        const cer = levenshtein(layer, truth) / Math.max(1, truth.length);
        const cls = labelClass(cer);
        labels.push(
          JSON.stringify({
            file: `files/${name}-${v.name}.pdf`,
            pages: [
              {
                page: 1,
                source: `man-${page.replace(/\.[^.]+\.gz$/, '')}-${l.toLowerCase()} p1`,
                lang: LANGUAGE_PAGES[l],
                recipe: { kind: 'tesseract', dpi: v.dpi, lang, psm: 3, degrade: v.filter.length ? { blur: 0.8 } : {}, renderer: 'tesseract-pdf' },
                truth_chars: truth.length,
                layer_chars: layer.length,
                cer: Math.round(cer * 1e4) / 1e4,
                class: cls,
                reocr: cls === 'poor',
              },
            ],
          }),
        );
      }
      console.log(`${name}: ${VARIANTS.map((v) => v.name).join(', ')}`);
    }
  }
  writeFileSync(join(dir, 'labels.jsonl'), labels.join('\n') + '\n');
  console.log(`${labels.length} pages in ${dir} (judge: npm run ocr-quality -- --data ${dir})`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
