/**
 * The stand-in splits mixed as the dev split is mixed: an estimate of how the layer-quality score carries to the private
 * held-out split (issue 16), which is "built the same way from different source documents".
 *
 * Each stand-in split judged alone (scripts/ocr-quality.ts --data DIR) mixes its pages its own way: more good pages,
 * other corruption rates, real-OCR pages only. Its figures then say as much about its mix as about the score. Here the
 * dev split's pages are counted by stratum (recipe kind: real OCR or synthetic; source: a manual page or a real-world
 * document; CER band) and each draw takes as many pages of each stratum from the stand-ins, at random with
 * replacement. The figures (Spearman of score with −CER, AUROC of a low score for the pages to re-OCR, decision
 * accuracy, computed as score.py computes them) are given as the median and the 10th–90th percentile over the draws,
 * beside the dev split's own, and so for the draws' real-OCR and synthetic layers, manual and document pages apart.
 *
 *   node --import tsx scripts/ocr-quality-mix.ts --dev RECORDS [--dev-labels LABELS] --stand-in DIR=RECORDS ...
 *        [--text-only CORPUS_LABELS] [--dev-recipes] [--draws N] [--seed N]
 *
 * RECORDS are CLI records (`scripts/ocr-quality.ts --data DIR --out RECORDS` writes them); DIR holds a stand-in's
 * labels.jsonl (scripts/ocr-layers-build.ts, scripts/ocr-synth-build.ts). --text-only keeps only the stand-ins'
 * document pages whose source page has no image in the corpus's labels (the dev split's document pages are "text-only
 * pages of real-world digital PDFs"); manual pages are kept. --dev-recipes keeps only the synthetic stand-in pages whose
 * corruption parameters are values the dev split's pages use (recipeLikeDev). Strata of the dev split that no stand-in
 * page fills are named and left out of the draws. It never reads the dev split's truth.jsonl.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auroc, spearman } from './ocr-quality-stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** upper ends of the CER bands a stratum is cut into (the classes' cuts 0.05 and 0.25 among them) */
export const CER_BANDS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.6, 1];

export interface Page {
  file: string;
  page: number;
  kind: 'tesseract' | 'synthetic';
  source: 'manual' | 'document';
  /** the label's source page ("man-ls p1", "real/…-name.pdf p3", "name p3") */
  sourcePage: string;
  /** the label's recipe (its kind and parameters: a synthetic layer's corruption and rate, a real-OCR layer's dpi…) */
  recipe: Recipe;
  cer: number;
  reocr: boolean;
  score: number;
  decision: boolean;
}

export interface Figures {
  spearman: number;
  auroc: number;
  accuracy: number;
}

/** a label's recipe: `kind` and its parameters (scalars; objects such as `degrade` are not compared) */
export type Recipe = { kind: string } & Record<string, unknown>;

interface LabelLine {
  file: string;
  pages: { page: number; cer: number; reocr: boolean; source?: string; recipe: Recipe }[];
}

/** The labelled pages of a split joined with their records (matched by file base name, as score.py does); pages without a layerQuality record are left out. */
export function joinPages(labels: string, records: string): Page[] {
  const recs = new Map<string, Map<number, { score: number; reocr: boolean }>>();
  for (const l of records.split('\n')) {
    if (!l.trim()) continue;
    const r = JSON.parse(l) as { file: string; pages?: { page: number; layerQuality?: { score: number; reocr: boolean } }[] };
    const m = new Map<number, { score: number; reocr: boolean }>();
    for (const p of r.pages ?? []) if (p.layerQuality) m.set(p.page, p.layerQuality);
    recs.set(baseName(r.file), m);
  }
  const out: Page[] = [];
  for (const l of labels.split('\n')) {
    if (!l.trim()) continue;
    const lab = JSON.parse(l) as LabelLine;
    const name = baseName(lab.file);
    for (const p of lab.pages) {
      const q = recs.get(name)?.get(p.page);
      if (!q) continue;
      const src = p.source ?? '';
      out.push({
        file: name,
        page: p.page,
        kind: p.recipe.kind === 'synthetic' ? 'synthetic' : 'tesseract',
        source: /^man-/.test(src) ? 'manual' : 'document',
        sourcePage: src,
        recipe: p.recipe,
        cer: p.cer,
        reocr: p.reocr,
        score: q.score,
        decision: q.reocr,
      });
    }
  }
  return out;
}

function baseName(f: string): string {
  return f.split(/[\\/]/).pop() ?? f;
}

/** the stratum a page is drawn in: its kind, its source and its CER band */
export function stratum(p: Pick<Page, 'kind' | 'source' | 'cer'>): string {
  let band = CER_BANDS.findIndex((b) => p.cer <= b);
  if (band < 0) band = CER_BANDS.length;
  return `${p.kind}/${p.source}/${band}`;
}

/** the three figures on a set of pages */
export function figures(pages: Page[]): Figures {
  const score = pages.map((p) => p.score);
  return {
    spearman: spearman(
      score,
      pages.map((p) => -p.cer),
    ),
    auroc: auroc(
      score,
      pages.map((p) => p.reocr),
    ),
    accuracy: pages.filter((p) => p.decision === p.reocr).length / pages.length,
  };
}

/** a small deterministic generator (a draw is the same for the same seed on every machine) */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

/**
 * One draw: for each stratum of `target`, as many pages from the pool's pages of that stratum, at random with
 * replacement. Strata the pool lacks are skipped (`missing`).
 */
export function draw(target: Page[], pool: Page[], rnd: () => number): { pages: Page[]; missing: string[] } {
  const want = new Map<string, number>();
  for (const p of target) want.set(stratum(p), (want.get(stratum(p)) ?? 0) + 1);
  const have = new Map<string, Page[]>();
  for (const p of pool) {
    const k = stratum(p);
    const list = have.get(k);
    if (list) list.push(p);
    else have.set(k, [p]);
  }
  const pages: Page[] = [];
  const missing: string[] = [];
  for (const [k, n] of [...want].sort(([a], [b]) => a.localeCompare(b))) {
    const list = have.get(k);
    if (!list) {
      missing.push(`${k} (${n})`);
      continue;
    }
    for (let i = 0; i < n; i++) pages.push(list[Math.floor(rnd() * list.length)]);
  }
  return { pages, missing };
}

/**
 * Parameters a synthetic recipe draws anew for each page whatever list the split's maker keeps (the shift of a Caesar
 * layer, the page another page's text comes from): any value is as the dev split's.
 */
const FREE_PARAMETERS = new Set(['shift', 'other', 'seed', 'store_dpi', 'jpeg_quality']);

/** the recipe's parameters whose values are compared with the dev split's: scalars other than the kind and the free ones */
function comparedParameters(recipe: Recipe): [string, unknown][] {
  return Object.entries(recipe).filter(([k, v]) => k !== 'kind' && !FREE_PARAMETERS.has(k) && (v === null || typeof v !== 'object'));
}

/**
 * The synthetic recipes' parameter values the dev split uses, per corruption and parameter ("subst rate" → 0.01,
 * 0.05, …). The dev split's rates are few (five substitution rates in fifteen pages, four confusion rates in six),
 * so its maker seems to draw them from short lists, and a held-out split "built the same way" from the same lists;
 * the stand-ins' builder draws from wider ones (scripts/ocr-synth-build.ts).
 */
export function recipeValues(dev: Page[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const p of dev) {
    if (p.kind !== 'synthetic') continue;
    for (const [k, v] of comparedParameters(p.recipe)) {
      const key = `${String(p.recipe.corruption)} ${k}`;
      let set = out.get(key);
      if (!set) out.set(key, (set = new Set()));
      set.add(String(v));
    }
  }
  return out;
}

/**
 * Whether a page's recipe is one the dev split's could be: a real-OCR page always (its parameters are the renderer's
 * and the scan's, drawn from the same lists by both builders), a synthetic one when each of its parameters takes a
 * value the dev split's pages of its corruption take (`values`: recipeValues).
 */
export function recipeLikeDev(p: Page, values: Map<string, Set<string>>): boolean {
  if (p.kind !== 'synthetic') return true;
  return comparedParameters(p.recipe).every(([k, v]) => values.get(`${String(p.recipe.corruption)} ${k}`)?.has(String(v)));
}

/** the corpus's source pages with no image (its labels.jsonl: `images` per page), by both names a split's labels use */
export function pagesWithoutImages(corpusLabels: string): Set<string> {
  const out = new Set<string>();
  for (const l of corpusLabels.split('\n')) {
    if (!l.trim()) continue;
    const d = JSON.parse(l) as { file: string; pages?: { page: number; images?: number }[] };
    const stem = baseName(d.file)
      .replace(/^[0-9a-f]{12}-/, '')
      .replace(/\.pdf$/i, '');
    for (const p of d.pages ?? [])
      if (p.images === 0) {
        out.add(`${d.file} p${p.page}`);
        out.add(`${stem} p${p.page}`);
      }
  }
  return out;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
}

function main(): number {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const devRecords = opt('--dev');
  const devLabels = opt('--dev-labels') ?? join(ROOT, '..', 'shared', 'ocr-quality', 'labels.jsonl');
  const standIns = args.flatMap((a, i) => (a === '--stand-in' && args[i + 1] ? [args[i + 1]] : []));
  if (!devRecords || standIns.length === 0) {
    console.error(
      'usage: ocr-quality-mix.ts --dev RECORDS [--dev-labels LABELS] --stand-in DIR=RECORDS ... [--text-only CORPUS_LABELS] [--dev-recipes] [--draws N] [--seed N]',
    );
    return 2;
  }
  if (!existsSync(devLabels)) {
    console.log(`ocr-quality-mix: skipped, the dev split's labels are absent (${devLabels})`);
    return 0;
  }
  const draws = Number(opt('--draws') ?? 40);
  const seed = Number(opt('--seed') ?? 1);
  if (!(Number.isInteger(draws) && draws > 0) || !Number.isInteger(seed)) {
    console.error('ocr-quality-mix: --draws and --seed take whole numbers (draws at least 1)');
    return 2;
  }
  const dev = joinPages(readFileSync(devLabels, 'utf8'), readFileSync(devRecords, 'utf8'));
  let pool: Page[] = [];
  for (const s of standIns) {
    const eq = s.indexOf('=');
    if (eq < 0) {
      console.error(`ocr-quality-mix: --stand-in takes DIR=RECORDS, not ${s}`);
      return 2;
    }
    pool.push(...joinPages(readFileSync(join(s.slice(0, eq), 'labels.jsonl'), 'utf8'), readFileSync(s.slice(eq + 1), 'utf8')));
  }
  const textOnly = opt('--text-only');
  if (textOnly) {
    const clean = pagesWithoutImages(readFileSync(textOnly, 'utf8'));
    const before = pool.length;
    pool = pool.filter((p) => p.source === 'manual' || clean.has(p.sourcePage));
    console.log(`stand-in pages: ${before}, ${pool.length} of them manual pages or document pages without images`);
  } else console.log(`stand-in pages: ${pool.length}`);
  if (args.includes('--dev-recipes')) {
    const values = recipeValues(dev);
    const before = pool.length;
    pool = pool.filter((p) => recipeLikeDev(p, values));
    console.log(`stand-in pages whose recipe's parameters the dev split uses: ${pool.length} of ${before}`);
  }
  const fmt = (f: Figures) => `${f.spearman.toFixed(3)} / ${f.auroc.toFixed(3)} / ${(100 * f.accuracy).toFixed(1)} %`;
  console.log(`dev split (${dev.length} pages): ${fmt(figures(dev))}   (Spearman / AUROC / decisions)`);
  const rnd = random(seed);
  const groups = (['tesseract', 'synthetic'] as const).flatMap((kind) => (['manual', 'document'] as const).map((source) => ({ kind, source })));
  const runs: Figures[] = [];
  const byGroup = groups.map(() => [] as Figures[]);
  let missing: string[] = [];
  for (let i = 0; i < draws; i++) {
    const d = draw(dev, pool, rnd);
    missing = d.missing;
    runs.push(figures(d.pages));
    groups.forEach((g, j) => byGroup[j].push(figures(d.pages.filter((p) => p.kind === g.kind && p.source === g.source))));
  }
  if (missing.length) console.log(`dev strata no stand-in page fills (left out): ${missing.join(', ')}`);
  const spread = (rs: Figures[], k: keyof Figures, pct: boolean) => {
    const v = rs
      .map((r) => r[k])
      .filter((x) => !Number.isNaN(x))
      .sort((a, b) => a - b);
    const f = (x: number) => (pct ? `${(100 * x).toFixed(1)} %` : x.toFixed(3));
    return v.length ? `${f(quantile(v, 0.5))} [${f(quantile(v, 0.1))}, ${f(quantile(v, 0.9))}]` : '–';
  };
  const line = (rs: Figures[]) =>
    `Spearman ${spread(rs, 'spearman', false)}, AUROC ${spread(rs, 'auroc', false)}, decisions ${spread(rs, 'accuracy', true)}`;
  console.log(`stand-ins mixed as the dev split (${draws} draws, median [10th, 90th percentile]): ${line(runs)}`);
  // kind by kind, source by source: where a figure is lost
  console.log("\nby recipe kind and source: the dev split | the draws' pages of that kind and source (median [10th, 90th percentile])");
  groups.forEach((g, j) => {
    const a = dev.filter((p) => p.kind === g.kind && p.source === g.source);
    if (a.length < 2) return;
    console.log(`  ${`${g.kind}, ${g.source} pages`.padEnd(28)} ${String(a.length).padStart(4)}  ${fmt(figures(a))} | ${line(byGroup[j])}`);
  });
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
