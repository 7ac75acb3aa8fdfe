/**
 * `npm run ocr-quality`: the layer-quality score on the OCR-quality dev split (../shared/ocr-quality, issue 16).
 *
 * Runs the built CLI (dist/cli.js classify --json --layer-quality) over the split's PDFs, writes the records, runs the
 * split's own judge (`python3 score.py labels.jsonl records.jsonl --json`) and prints: Spearman(score, −CER), AUROC of a
 * low score for the pages to re-OCR, decision accuracy, a confusion table per recipe kind; the same figures for each
 * signal and for simple text-only baselines; and an overfitting check (the model refitted leaving one document
 * out, and on split halves).
 *
 *   node --import tsx scripts/ocr-quality.ts [--data DIR] [--out FILE] [--check BASELINE.json] [--write-baseline BASELINE.json] [--quiet]
 *
 * --data judges another split made the same way (labels.jsonl and files/ in DIR), e.g. the real-OCR split
 * scripts/ocr-layers-build.ts makes from documents the dev split never used.
 *
 * --check exits 1 when a figure falls below the committed baseline (the ratchet test/ocr-quality.test.ts runs it).
 * The data absent → a clean skip, status 0. truth.jsonl is never read.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BOX_FIT,
  LETTER_SHAPES_FLOOR,
  MISSING,
  NONWORD_CLEAN,
  REOCR_CER,
  unlikeScanError,
  WEIGHTS,
  WEIGHTS_WITH_SHAPES,
} from '../src/analyzer/layerQuality/index';
import { auroc, spearman } from './ocr-quality-stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SPLIT = resolve(ROOT, '..', 'shared', 'ocr-quality');
/** the split judged: the dev split, or another made the same way (--data DIR: its labels.jsonl and files/) */
const DATA = resolve(arg('--data') ?? SPLIT);
/** the judge is always the dev split's own score.py */
const JUDGE = join(SPLIT, 'score.py');

interface Figures {
  spearman: number;
  auroc: number;
  accuracy: number;
}
interface LabelPage {
  page: number;
  cer: number;
  reocr: boolean;
  class: string;
  source?: string;
  recipe: { kind: string; corruption?: string; renderer?: string };
}
interface Row {
  file: string;
  page: number;
  kind: string;
  /** how a real-OCR layer was written (tesseract-pdf or hocr) and where the page came from (a manual page or a real-world document) */
  renderer: string;
  source: 'manual' | 'document';
  cer: number;
  reocr: boolean;
  score: number;
  decision: boolean;
  signals: Record<string, number | string | boolean>;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const quiet = process.argv.includes('--quiet');
const log = (s = '') => {
  if (!quiet) console.log(s);
};

function main(): number {
  if (!existsSync(join(DATA, 'labels.jsonl')) || !existsSync(join(DATA, 'files')) || !existsSync(JUDGE)) {
    console.log(`ocr-quality: skipped, the data is absent (${DATA})`);
    return 0;
  }
  const cli = join(ROOT, 'dist', 'cli.js');
  if (!existsSync(cli)) {
    console.error('ocr-quality: dist/cli.js is missing: run `npm run build` first');
    return 2;
  }
  // the records are kept only when asked for (--out): a run without it leaves nothing behind
  const keep = arg('--out');
  const tmp = keep === undefined ? mkdtempSync(join(tmpdir(), 'ocr-quality-')) : undefined;
  try {
    return judge(cli, keep ?? join(tmp as string, 'records.jsonl'), keep !== undefined);
  } finally {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  }
}

function judge(cli: string, out: string, kept: boolean): number {
  const t0 = Date.now();
  const records = execFileSync(process.execPath, [cli, 'classify', '--json', '--layer-quality', '--jobs', '2', '--quiet', join(DATA, 'files')], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  writeFileSync(out, records);
  log(`records: ${kept ? out : 'not kept (--out FILE keeps them)'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const judged = JSON.parse(execFileSync('python3', [JUDGE, join(DATA, 'labels.jsonl'), out, '--json'], { encoding: 'utf8' })) as Figures & {
    coverage: number;
    balanced_accuracy: number;
    confusion: Record<string, number>;
    accuracy_by_class: Record<string, string>;
  };

  const rows = join_(records);
  log(`\nscore.py (the judge) on ${DATA}: pages ${rows.length}, coverage ${judged.coverage}`);
  log(
    `  Spearman(score, -CER) ${judged.spearman.toFixed(3)}   AUROC(reocr) ${judged.auroc.toFixed(3)}   decisions ${judged.accuracy.toFixed(3)} (balanced ${judged.balanced_accuracy.toFixed(3)})`,
  );
  log(`  confusion ${JSON.stringify(judged.confusion)}   by class ${JSON.stringify(judged.accuracy_by_class)}`);

  // per recipe kind
  log('\nper recipe kind            pages  keep ok  false re-OCR  missed re-OCR  re-OCR ok');
  const kinds = [...new Set(rows.map((r) => r.kind))].sort();
  let uncaught: string[] = [];
  for (const k of kinds) {
    const rs = rows.filter((r) => r.kind === k);
    const c = [0, 0, 0, 0];
    for (const r of rs) c[(r.reocr ? 2 : 0) + (r.decision ? 1 : 0)]++;
    if (c[2] + c[3] > 0 && c[3] === 0) uncaught.push(k);
    log(
      `  ${k.padEnd(24)} ${String(rs.length).padStart(5)}  ${String(c[0]).padStart(7)}  ${String(c[1]).padStart(12)}  ${String(c[2]).padStart(13)}  ${String(c[3]).padStart(9)}`,
    );
  }
  log(uncaught.length ? `  kinds with poor pages none of which is caught: ${uncaught.join(', ')}` : '  every kind with poor pages has some caught');
  uncaught = uncaught.sort();

  // the same figures by kind of page: the dev split's real-OCR pages come from manual pages and real-world documents,
  // written by two renderers, and a stand-in split is only like it if its parts are
  log('\nby kind of page (Spearman / AUROC / decisions)');
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const family = r.kind === 'tesseract' ? 'tesseract' : 'synthetic';
    for (const key of [family === 'tesseract' ? `tesseract, ${r.renderer}` : family, `${family}, ${r.source} pages`]) {
      const g = groups.get(key);
      if (g) g.push(r);
      else groups.set(key, [r]);
    }
  }
  for (const [key, rs] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const right = rs.filter((r) => r.decision === r.reocr).length;
    const s = rs.map((r) => r.score);
    const rho =
      rs.length >= 2
        ? spearman(
            s,
            rs.map((r) => -r.cer),
          ).toFixed(3)
        : '  –  ';
    // AUROC needs pages of both kinds
    const area =
      rs.some((r) => r.reocr) && rs.some((r) => !r.reocr)
        ? auroc(
            s,
            rs.map((r) => r.reocr),
          ).toFixed(3)
        : '  –  ';
    log(`  ${key.padEnd(34)} ${String(rs.length).padStart(4)} pages  ${rho} / ${area} / ${((100 * right) / rs.length).toFixed(1)} %`);
  }

  // the pages decided wrong, with the signals that decided them: where to look first when a figure moves
  const wrong = rows.filter((r) => r.decision !== r.reocr);
  log(`\nwrong decisions (${wrong.length} of ${rows.length})`);
  const keys = ['textInkMissed', 'nonWords', 'widthSpread', 'letterShapes'];
  for (const r of wrong)
    log(
      `  ${r.file} p${r.page}  ${r.kind}  CER ${r.cer.toFixed(3)}  score ${r.score.toFixed(3)}  advised ${r.decision ? 're-OCR' : 'keep'}  | ${keys
        .map((k) => `${k} ${typeof r.signals[k] === 'number' ? r.signals[k] : '–'}`)
        .join('  ')}`,
    );

  // each signal, and the simple baselines (text only), side by side
  const negCer = rows.map((r) => -r.cer);
  const pos = rows.map((r) => r.reocr);
  const table = (name: string, v: number[], higherIsBetter: boolean) => {
    const s = higherIsBetter ? v : v.map((x) => -x);
    const best = bestCut(s, pos);
    log(
      `  ${name.padEnd(34)} ${spearman(s, negCer).toFixed(3).padStart(8)}  ${auroc(s, pos).toFixed(3).padStart(6)}  ${best.toFixed(3).padStart(14)}`,
    );
  };
  const sig = (k: string, dflt: number) => rows.map((r) => (typeof r.signals[k] === 'number' ? r.signals[k] : dflt));
  log('\nsignal / baseline                   Spearman   AUROC  decisions(best cut)');
  table(
    'layerQuality.score (combined)',
    rows.map((r) => r.score),
    true,
  );
  table('nonWords (language, scored)', sig('nonWords', 0), false);
  table('wordLikeEither (language, shown)', sig('wordLikeEither', 0), true);
  table('widthSpread (layout, scored)', sig('widthSpread', 0), false);
  table('boxSlack (layout, scored)', sig('boxSlack', 0), false);
  table('boxOverflow (layout, scored)', sig('boxOverflow', 0), false);
  table('garbled (word shape, scored)', sig('garbled', 0), false);
  table('textInkMissed (image, scored)', sig('textInkMissed', MISSING.floor), false);
  table('letterShapes (image, scored)', sig('letterShapes', 0), true);
  table('ascenders (image, shown)', sig('ascenders', 0), true);
  table('descenders (image, shown)', sig('descenders', 0), true);
  table('wordLike (one language)', sig('wordLike', 0), true);
  table('inkCovered (all ink)', sig('inkCovered', 1 - MISSING.floor), true);
  table('bitsPerChar (trigram LM)', sig('bitsPerChar', 8), false);
  table('symbolShare', sig('symbolShare', 0), false);
  table('fragments (1-2 letter words)', sig('fragments', 0), false);
  table('longWords (16+ letters)', sig('longWords', 0), false);
  table('boxesOnInk', sig('boxesOnInk', 1), true);
  log('  baselines (text only):');
  table(
    'textQuality (decodability)',
    rows.map((r) => r.signals.__textQuality as number),
    true,
  );
  table('trigram LM (−bitsPerChar)', sig('bitsPerChar', 8), false);
  table('word-likeness', sig('wordLike', 0), true);
  table(
    'garble (symbols + fragments)',
    rows.map((r, i) => sig('symbolShare', 0)[i] * 5 + sig('fragments', 0)[i]),
    false,
  );

  // each signal per recipe kind (means), so a signal's reach is seen kind by kind
  const shownSignals = ['nonWords', 'widthSpread', 'garbled', 'letterShapes', 'textInkMissed', 'inkCovered', 'bitsPerChar', 'estimatedCer'];
  log(`\nsignal means per recipe kind (poor pages apart)\n  ${'kind'.padEnd(28)}${shownSignals.map((k) => k.slice(0, 13).padStart(14)).join('')}`);
  for (const k of kinds)
    for (const poor of [false, true]) {
      const rs = rows.filter((r) => r.kind === k && r.reocr === poor);
      if (!rs.length) continue;
      const mean = (name: string) => {
        const v = rs.map((r) => r.signals[name]).filter((x): x is number => typeof x === 'number');
        return v.length ? (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3) : '-';
      };
      log(`  ${`${k}${poor ? ' (poor)' : ''} ×${rs.length}`.padEnd(28)}${shownSignals.map((n) => mean(n).padStart(14)).join('')}`);
    }

  // overfitting check: refit the model (floor and slope of the missing share and the non-word floor on a grid, the
  // text weights by ridge least squares) without each document, and on halves; once for the text-only model (pages
  // whose scan cannot be read at letter scale) and once with the letter shapes (shape.ts), on the pages that have them
  const ws = sig('widthSpread', 0);
  const gb = sig('garbled', 0);
  const nw = sig('nonWords', 0);
  const miss = sig('textInkMissed', MISSING.floor);
  // the boxes' tails enter at their shipped weights (BOX_FIT), not refitted: one part of missing, one of e
  const slack = sig('boxSlack', 0).map((v) => BOX_FIT.slack * v);
  const overflow = sig('boxOverflow', 0).map((v) => BOX_FIT.overflow * v);
  const cers = rows.map((r) => r.cer);
  const all = rows.map((_, i) => i);
  const files = [...new Set(rows.map((r) => r.file))].sort();
  const fig = (cer: number[], idx: number[]) => {
    const s = idx.map((i) => -cer[i]);
    return {
      spearman: spearman(
        s,
        idx.map((i) => negCer[i]),
      ),
      auroc: auroc(
        s,
        idx.map((i) => pos[i]),
      ),
      accuracy: idx.filter((i) => cer[i] > REOCR_CER === pos[i]).length / idx.length,
    };
  };
  const refit = (label: string, X: number[][], pages: number[], names: string[], shipped: Record<string, number>, clean: number, bound: number[]) => {
    const fitModel = (X: number[][], nonWords: number[], miss: number[], cer: number[], idx: number[]) =>
      fitModelBounded(X, nonWords, miss, cer, idx, bound, slack, overflow);
    const full = fitModel(X, nw, miss, cers, pages);
    log(`\n${label}`);
    log(`  both with the boxes' tails at the shipped weights: missing + ${BOX_FIT.slack} × boxSlack, e + ${BOX_FIT.overflow} × boxOverflow`);
    log(
      `  refitted on its ${pages.length} pages: missing = (textInkMissed − ${full.floor}) × ${full.slope}; e ≥ nonWords − ${full.clean}; text: intercept ${full.w[0].toFixed(2)}, ${names.map((n, j) => `ln ${n} ${full.w[j + 1].toFixed(2)}`).join(', ')}`,
    );
    log(
      `  shipped (rounded):  missing = (textInkMissed − ${MISSING.floor}) × ${MISSING.slope}; e ≥ nonWords − ${clean}; text: intercept ${shipped.intercept}, ${names.map((n) => `ln ${n} ${shipped[n]}`).join(', ')}`,
    );
    const lodo = new Array<number>(rows.length);
    for (const f of files) {
      const train = pages.filter((i) => rows[i].file !== f);
      if (train.length === pages.length) continue;
      const m = fitModel(X, nw, miss, cers, train);
      for (const i of pages) if (rows[i].file === f) lodo[i] = m.predict(X[i], miss[i], nw[i], bound[i], slack[i], overflow[i]);
    }
    const ins = fig(
      all.map((i) => (pages.includes(i) ? full.predict(X[i], miss[i], nw[i], bound[i], slack[i], overflow[i]) : 0)),
      pages,
    );
    log(
      `  in-sample refit:                     Spearman ${ins.spearman.toFixed(3)}  AUROC ${ins.auroc.toFixed(3)}  decisions ${ins.accuracy.toFixed(3)}`,
    );
    const lo = fig(lodo, pages);
    log(
      `  leave-one-document-out (${files.length} folds):  Spearman ${lo.spearman.toFixed(3)}  AUROC ${lo.auroc.toFixed(3)}  decisions ${lo.accuracy.toFixed(3)}`,
    );
    const lodoKinds = kinds.map((k) => {
      const rs = pages.filter((i) => rows[i].kind === k && rows[i].reocr);
      return `${k} ${rs.filter((i) => lodo[i] > REOCR_CER).length}/${rs.length}`;
    });
    log(`    poor pages caught, leave-one-document-out: ${lodoKinds.join(', ')}`);
    for (const half of [0, 1]) {
      const trainF = new Set(files.filter((_, k) => k % 2 === half));
      const tr = pages.filter((i) => trainF.has(rows[i].file));
      const te = pages.filter((i) => !trainF.has(rows[i].file));
      const m = fitModel(X, nw, miss, cers, tr);
      const h = fig(
        all.map((i) => m.predict(X[i], miss[i], nw[i], bound[i], slack[i], overflow[i])),
        te,
      );
      log(
        `  split half ${half + 1} (fit on ${tr.length} pages, judged on ${te.length}): Spearman ${h.spearman.toFixed(3)}  AUROC ${h.auroc.toFixed(3)}  decisions ${h.accuracy.toFixed(3)}`,
      );
    }
  };
  const X3 = rows.map((_, i) => [Math.log(ws[i] + 0.02), Math.log(gb[i] + 0.02), Math.log(nw[i] + 0.02)]);
  refit(
    'text-only model (no letter shapes: the scan cannot be read at letter scale)',
    X3,
    all,
    ['widthSpread', 'garbled', 'nonWords'],
    WEIGHTS,
    NONWORD_CLEAN.textOnly,
    all.map(() => 0),
  );
  const withShapes = all.filter((i) => typeof rows[i].signals.letterShapes === 'number');
  const X4 = rows.map((r, i) => [...X3[i], Math.log(Math.max(LETTER_SHAPES_FLOOR, (r.signals.letterShapes as number) ?? 0) + 0.02)]);
  // the letter shapes' bound (UNLIKE_SCAN) is the shipped one, not refitted (a signal a page lacks reads as NaN, which
  // meets none of the bound's conditions, as an absent one does)
  const shapes = sig('letterShapes', NaN);
  const capitals = sig('capitals', NaN);
  const onInk = sig('boxesOnInk', NaN);
  const bound = all.map((i) => unlikeScanError({ letterShapes: shapes[i], capitals: capitals[i], boxesOnInk: onInk[i] }));
  if (withShapes.length)
    refit(
      'model with the letter shapes (the scan read at letter scale)',
      X4,
      withShapes,
      ['widthSpread', 'garbled', 'nonWords', 'letterShapes'],
      WEIGHTS_WITH_SHAPES,
      NONWORD_CLEAN.withShapes,
      bound,
    );

  const figures = { spearman: judged.spearman, auroc: judged.auroc, accuracy: judged.accuracy, coverage: judged.coverage };
  const write = arg('--write-baseline');
  if (write) {
    writeFileSync(
      write,
      JSON.stringify({ ...figures, note: 'layer-quality figures on ../shared/ocr-quality (npm run ocr-quality); may only rise' }, null, 2) + '\n',
    );
    log(`\nbaseline written: ${write}`);
  }
  const check = arg('--check');
  if (check) {
    const base = JSON.parse(readFileSync(check, 'utf8')) as Record<string, number>;
    const fell = (['spearman', 'auroc', 'accuracy', 'coverage'] as const).filter((k) => figures[k] < base[k] - 1e-4);
    if (fell.length) {
      console.error(`ocr-quality: figures fell below ${check}: ${fell.map((k) => `${k} ${figures[k]} < ${base[k]}`).join(', ')}`);
      return 1;
    }
    log(`\nratchet: no figure fell below ${check}`);
  }
  return 0;
}

function join_(records: string): Row[] {
  const labels = readFileSync(join(DATA, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { file: string; pages: LabelPage[] });
  const recs = new Map<string, { page: number; textQuality: number; layerQuality?: { score: number; reocr: boolean; signals: Row['signals'] } }[]>();
  for (const l of records.split('\n')) {
    if (!l.trim()) continue;
    const r = JSON.parse(l) as {
      file: string;
      pages: { page: number; textQuality: number; layerQuality?: { score: number; reocr: boolean; signals: Row['signals'] } }[];
    };
    recs.set(r.file.split(/[\\/]/).pop()!, r.pages);
  }
  const rows: Row[] = [];
  for (const lab of labels) {
    const name = lab.file.split('/').pop()!;
    for (const p of lab.pages) {
      const rec = recs.get(name)?.find((x) => x.page === p.page);
      const q = rec?.layerQuality;
      rows.push({
        file: name,
        page: p.page,
        kind: p.recipe.kind === 'synthetic' ? `synthetic/${p.recipe.corruption}` : p.recipe.kind,
        renderer: p.recipe.renderer ?? 'unknown',
        source: /^man-/.test(p.source ?? '') ? 'manual' : 'document',
        cer: p.cer,
        reocr: p.reocr,
        score: q?.score ?? 0.5,
        decision: q ? q.reocr : !p.reocr,
        signals: { ...(q?.signals ?? {}), __textQuality: rec?.textQuality ?? 1 },
      });
    }
  }
  return rows;
}

/** the best accuracy any single cut on `score` reaches (an optimistic figure for a baseline without its own cut) */
function bestCut(score: number[], positive: boolean[]): number {
  let best = 0;
  for (const t of [-Infinity, ...new Set(score)]) best = Math.max(best, score.filter((s, i) => s <= t === positive[i]).length / score.length);
  return best;
}
/** ridge least squares on standardised features (λ = 0.1), returned on the raw scale: [intercept, ...weights] */
function ridge(X: number[][], y: number[]): number[] {
  const n = X.length;
  const d = X[0].length;
  const mu = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (const x of X) x.forEach((v, j) => (mu[j] += v / n));
  for (const x of X) x.forEach((v, j) => (sd[j] += (v - mu[j]) ** 2 / n));
  for (let j = 0; j < d; j++) sd[j] = Math.sqrt(sd[j]) + 1e-9;
  const Z = X.map((x) => [1, ...x.map((v, j) => (v - mu[j]) / sd[j])]);
  const A = Array.from({ length: d + 1 }, (_, i) =>
    Array.from({ length: d + 1 }, (_, j) => Z.reduce((s, z) => s + z[i] * z[j], 0) + (i === j && i > 0 ? 0.1 : 0)),
  );
  const b = Array.from({ length: d + 1 }, (_, i) => Z.reduce((s, z, k) => s + z[i] * y[k], 0));
  const w = solve(A, b);
  const raw = w.slice(1).map((v, j) => v / sd[j]);
  return [w[0] - raw.reduce((s, v, j) => s + v * mu[j], 0), ...raw];
}
/**
 * The model's shape (layerQuality/index.ts): CER = missing + (1 − missing)·e, missing = clamp((textInkMissed − floor)·slope),
 * ln(e + 0.01) linear in the text signals (ln(widthSpread + 0.02), ln(garbled + 0.02), ln(nonWords + 0.02)), e never below
 * nonWords − clean (NONWORD_CLEAN) nor below the page's `bound` (the letter shapes' UNLIKE_SCAN bound, shipped, not
 * refitted; 0 for the text-only model), with the boxes' tails at their shipped weights (`slack` added to missing,
 * `overflow` to e, already weighted). Floor, slope and clean from a grid; for each, the weights by ridge on the text
 * error the CER implies; the triple whose fit is closest in ln(CER + 0.01) wins.
 */
function fitModelBounded(
  X: number[][],
  nonWords: number[],
  miss: number[],
  cer: number[],
  idx: number[],
  bound: number[],
  slack: number[],
  overflow: number[],
): FittedModel {
  let best: (FittedModel & { err: number }) | undefined;
  for (const floor of [0, 0.01, 0.02, 0.03, 0.05, 0.08]) {
    for (const slope of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1]) {
      const share = (m: number, sl: number) => Math.min(MISSING.max, Math.max(0, (m - floor) * slope) + sl);
      const y = idx.map((i) => {
        const f = share(miss[i], slack[i]);
        return Math.log(Math.max(0, (cer[i] - f) / (1 - f) - overflow[i]) + 0.01);
      });
      const w = ridge(
        idx.map((i) => X[i]),
        y,
      );
      for (const clean of [0.15, 0.2, 0.25, 0.3, 0.35]) {
        const predict = (x: number[], m: number, nonWords: number, lower: number, sl: number, over: number) => {
          const f = share(m, sl);
          const e = Math.min(1.5, Math.max(0, Math.exp(predictLinear(w, x)) - 0.01, nonWords - clean, lower));
          return f + (1 - f) * Math.min(1.5, e + over);
        };
        let err = 0;
        for (const i of idx)
          err += (Math.log(predict(X[i], miss[i], nonWords[i], bound[i], slack[i], overflow[i]) + 0.01) - Math.log(cer[i] + 0.01)) ** 2;
        if (!best || err < best.err) best = { err, floor, slope, clean, w, predict };
      }
    }
  }
  return best!;
}
interface FittedModel {
  floor: number;
  slope: number;
  clean: number;
  w: number[];
  predict: (x: number[], m: number, nonWords: number, lower: number, slack: number, overflow: number) => number;
}
function predictLinear(w: number[], x: number[]): number {
  return w[0] + x.reduce((s, v, j) => s + v * w[j + 1], 0);
}
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((r, i) => r[n] / r[i]);
}

process.exitCode = main();
