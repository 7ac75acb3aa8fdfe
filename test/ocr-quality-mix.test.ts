// scripts/ocr-quality-mix.ts: the stand-ins drawn in the dev split's strata, and the figures on the draws.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { draw, figures, joinPages, type Page, pagesWithoutImages, random, recipeLikeDev, recipeValues, stratum } from '../scripts/ocr-quality-mix';
import { auroc, spearman } from '../scripts/ocr-quality-stats';

const page = (kind: Page['kind'], source: Page['source'], cer: number, score: number, file = 'f.pdf', pg = 1): Page => ({
  file,
  page: pg,
  kind,
  source,
  sourcePage: source === 'manual' ? `man-ls p${pg}` : `doc p${pg}`,
  recipe: { kind },
  cer,
  reocr: cer > 0.25,
  score,
  decision: 1 - score > 0.25,
});

test('labels join their records by base name and page; pages without a score are left out', () => {
  const labels = [
    JSON.stringify({
      file: 'files/a.pdf',
      pages: [
        { page: 1, cer: 0.01, reocr: false, source: 'man-ls p1', recipe: { kind: 'tesseract' } },
        { page: 2, cer: 0.5, reocr: true, source: 'real/0123456789ab-x.pdf p2', recipe: { kind: 'synthetic' } },
        { page: 3, cer: 0.1, reocr: false, source: 'x p3', recipe: { kind: 'synthetic' } },
      ],
    }),
  ].join('\n');
  const records = JSON.stringify({
    file: '/somewhere/else/a.pdf',
    pages: [{ page: 1, layerQuality: { score: 0.97, reocr: false } }, { page: 2, layerQuality: { score: 0.2, reocr: true } }, { page: 3 }],
  });
  const pages = joinPages(labels, records);
  assert.deepEqual(
    pages.map((p) => [p.page, p.kind, p.source, p.score, p.decision]),
    [
      [1, 'tesseract', 'manual', 0.97, false],
      [2, 'synthetic', 'document', 0.2, true],
    ],
  );
});

test('a stratum is the kind, the source and the CER band (the class cuts are band edges)', () => {
  assert.equal(stratum({ kind: 'tesseract', source: 'manual', cer: 0.05 }), 'tesseract/manual/1');
  assert.equal(stratum({ kind: 'tesseract', source: 'manual', cer: 0.0501 }), 'tesseract/manual/2');
  assert.equal(stratum({ kind: 'synthetic', source: 'document', cer: 0.25 }), 'synthetic/document/5');
  assert.equal(stratum({ kind: 'synthetic', source: 'document', cer: 0.26 }), 'synthetic/document/6');
  assert.equal(stratum({ kind: 'synthetic', source: 'document', cer: 1.7 }), 'synthetic/document/10');
});

test('a draw takes as many pages of each stratum as the target has, from that stratum only, and names the strata it cannot fill', () => {
  const target = [
    page('tesseract', 'manual', 0.01, 0.9),
    page('tesseract', 'manual', 0.012, 0.9),
    page('synthetic', 'document', 0.5, 0.3),
    page('tesseract', 'document', 0.3, 0.5),
  ];
  const pool = [
    page('tesseract', 'manual', 0.015, 0.95, 'a.pdf'),
    page('tesseract', 'manual', 0.4, 0.1, 'b.pdf'),
    page('synthetic', 'document', 0.45, 0.2, 'c.pdf'),
    page('synthetic', 'manual', 0.45, 0.2, 'd.pdf'),
  ];
  const d = draw(target, pool, random(7));
  assert.equal(d.pages.length, 3);
  assert.equal(d.pages.filter((p) => p.file === 'a.pdf').length, 2);
  assert.deepEqual([...new Set(d.pages.map((p) => p.file))].sort(), ['a.pdf', 'c.pdf']);
  assert.deepEqual(d.missing, ['tesseract/document/6 (1)']);
});

test('the generator is deterministic and within [0, 1)', () => {
  const a = random(3);
  const b = random(3);
  const xs = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(
    xs.slice(0, 5),
    Array.from({ length: 5 }, () => b()),
  );
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.ok(new Set(xs).size > 990);
});

test('figures: Spearman against −CER, AUROC of a low score for re-OCR pages, decisions', () => {
  const pages = [
    page('tesseract', 'manual', 0.01, 0.99),
    page('tesseract', 'manual', 0.1, 0.8),
    page('tesseract', 'manual', 0.3, 0.7),
    page('tesseract', 'manual', 0.6, 0.74),
  ];
  const f = figures(pages);
  assert.equal(f.spearman, spearman([0.99, 0.8, 0.7, 0.74], [-0.01, -0.1, -0.3, -0.6]));
  assert.equal(f.auroc, 1);
  // 0.74 and 0.7 are advised re-OCR (estimated CER above 0.25), the 0.8 page kept: all right
  assert.equal(f.accuracy, 1);
  assert.equal(auroc([0.2, 0.9], [false, true]), 0);
  assert.ok(Number.isNaN(auroc([0.2, 0.9], [true, true])));
});

test('text-only source pages: those the corpus labels with no image, by the corpus name and by its stem', () => {
  const corpus = [
    JSON.stringify({
      file: 'real/0123456789ab-report.pdf',
      pages: [
        { page: 1, images: 0 },
        { page: 2, images: 1 },
      ],
    }),
    JSON.stringify({ file: 'constructed/x.pdf', pages: [{ page: 1, images: 0 }] }),
  ].join('\n');
  const s = pagesWithoutImages(corpus);
  assert.ok(s.has('real/0123456789ab-report.pdf p1'));
  assert.ok(s.has('report p1'));
  assert.ok(!s.has('report p2'));
  assert.ok(s.has('x p1'));
});

test("a synthetic stand-in page is like the dev split's when each of its corruption's parameters takes a value the dev split's use", () => {
  const withRecipe = (p: Page, recipe: Page['recipe']): Page => ({ ...p, recipe });
  const syn = page('synthetic', 'manual', 0.1, 0.9);
  const dev = [
    withRecipe(syn, { kind: 'synthetic', corruption: 'subst', rate: 0.05, store_dpi: 150 }),
    withRecipe(syn, { kind: 'synthetic', corruption: 'subst', rate: 0.3 }),
    withRecipe(syn, { kind: 'synthetic', corruption: 'drop', frac: 0.3, mode: 'random' }),
    withRecipe(syn, { kind: 'synthetic', corruption: 'drop', frac: 0.5, mode: 'block' }),
    withRecipe(syn, { kind: 'synthetic', corruption: 'caesar', shift: 3 }),
    withRecipe(page('tesseract', 'manual', 0.1, 0.9), { kind: 'tesseract', dpi: 300 }),
  ];
  const values = recipeValues(dev);
  const like = (recipe: Page['recipe'], kind: Page['kind'] = 'synthetic') =>
    recipeLikeDev(withRecipe(page(kind, 'document', 0.2, 0.8), recipe), values);
  assert.equal(like({ kind: 'synthetic', corruption: 'subst', rate: 0.3, store_dpi: 72, jpeg_quality: 50 }), true);
  assert.equal(like({ kind: 'synthetic', corruption: 'subst', rate: 0.2 }), false);
  // each parameter apart: a drop of 0.3 in one block is as likely from the dev split's lists as the pairs it shows
  assert.equal(like({ kind: 'synthetic', corruption: 'drop', frac: 0.3, mode: 'block' }), true);
  assert.equal(like({ kind: 'synthetic', corruption: 'drop', frac: 0.1, mode: 'block' }), false);
  // a shift is drawn anew whatever the lists are; a corruption the dev split never shows is not like it
  assert.equal(like({ kind: 'synthetic', corruption: 'caesar', shift: 17 }), true);
  assert.equal(like({ kind: 'synthetic', corruption: 'no-space', rate: 0.1 }), false);
  // real-OCR pages are always kept: their parameters are the scan's and the renderer's
  assert.equal(like({ kind: 'tesseract', dpi: 72 }, 'tesseract'), true);
});
