/**
 * How far one word's likelihood (GlyphRun.likelihood) can be trusted, by the page's text error estimate: the study
 * behind the preview's rule of grading words one by one only where the page's text is judged wrong
 * (src/shared/routes.ts WORDS_GRADED_ABOVE).
 *
 *   node --import tsx scripts/ocr-quality-words.ts [--cut 0.5]
 *
 * Runs the built CLI over ../shared/ocr-quality/files with --layer-quality --text-layer and, for every scored word of an
 * OCR layer, asks whether it is a word of the page's true text (truth.jsonl, normalised as the split's README says).
 * This is a study of the data, not a score: nothing the analyzer or the judge computes reads truth.jsonl. Prints, per
 * band of signals.textError: the words, the share wrong, the share under the cut, and how often a word under the cut
 * is wrong (precision) and how many wrong words are under it (recall). The data absent → a clean skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORDS_GRADED_ABOVE } from '../src/shared/routes';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = resolve(ROOT, '..', 'shared', 'ocr-quality');

interface Band {
  name: string;
  words: number;
  wrong: number;
  flagged: number;
  flaggedWrong: number;
}

/** as the split's README normalises texts: NFKC, dashes and quotes folded; here also lower case and edge punctuation off */
function norm(w: string): string {
  return w
    .normalize('NFKC')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

function main(): number {
  if (!existsSync(join(DATA, 'truth.jsonl')) || !existsSync(join(DATA, 'files'))) {
    console.log(`ocr-quality-words: skipped, the data is absent (${DATA})`);
    return 0;
  }
  const cli = join(ROOT, 'dist', 'cli.js');
  if (!existsSync(cli)) {
    console.error('ocr-quality-words: dist/cli.js is missing: run `npm run build` first');
    return 2;
  }
  const i = process.argv.indexOf('--cut');
  const cut = i >= 0 ? Number(process.argv[i + 1]) : 0.5;
  const truth = new Map<string, Set<string>>();
  for (const line of readFileSync(join(DATA, 'truth.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as { file: string; page: number; text: string };
    truth.set(`${t.file.split('/').pop()}:${t.page}`, new Set(t.text.split(' ').map(norm)));
  }
  const out = execFileSync(
    process.execPath,
    [cli, 'classify', '--json', '--layer-quality', '--text-layer', '--jobs', '2', '--quiet', join(DATA, 'files')],
    {
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    },
  );
  const bands: Band[] = [`textError ≤ ${WORDS_GRADED_ABOVE}`, `${WORDS_GRADED_ABOVE}–0.25`, 'over 0.25'].map((name) => ({
    name,
    words: 0,
    wrong: 0,
    flagged: 0,
    flaggedWrong: 0,
  }));
  for (const line of out.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as {
      file: string;
      pages?: {
        page: number;
        layerQuality?: { signals: Record<string, unknown> };
        textLayer?: { runs: { text: string; visibility: string; likelihood?: number }[] };
      }[];
    };
    for (const p of r.pages ?? []) {
      const bag = truth.get(`${r.file.split('/').pop()}:${p.page}`);
      const te = p.layerQuality?.signals.textError;
      if (!bag || typeof te !== 'number') continue;
      const band = bands[te <= WORDS_GRADED_ABOVE ? 0 : te <= 0.25 ? 1 : 2];
      for (const run of p.textLayer?.runs ?? []) {
        if (run.visibility === 'visible' || run.likelihood === undefined) continue;
        const w = norm(run.text);
        if (w.length < 2 || !/\p{L}/u.test(w)) continue;
        const wrong = !bag.has(w);
        const flagged = run.likelihood < cut;
        band.words++;
        if (wrong) band.wrong++;
        if (flagged) band.flagged++;
        if (flagged && wrong) band.flaggedWrong++;
      }
    }
  }
  const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');
  console.log(`words of OCR layers under the likelihood cut ${cut}, by the page's text error estimate`);
  console.log(
    'band'.padEnd(22) + 'words'.padStart(8) + 'wrong'.padStart(10) + 'under cut'.padStart(11) + 'precision'.padStart(11) + 'recall'.padStart(10),
  );
  for (const b of bands)
    console.log(
      b.name.padEnd(22) +
        String(b.words).padStart(8) +
        pct(b.wrong, b.words).padStart(10) +
        pct(b.flagged, b.words).padStart(11) +
        pct(b.flaggedWrong, b.flagged).padStart(11) +
        pct(b.flaggedWrong, b.wrong).padStart(10),
    );
  return 0;
}

process.exitCode = main();
