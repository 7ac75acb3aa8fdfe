// What both stand-in splits share about their sources (scripts/ocr-split-sources.ts): the dev split README's
// normalisation and the edit distance their CER is measured with, the dev split's sources they leave out, and the
// corpus page selection.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  blurGrey,
  buildSetup,
  corpusSources,
  devSources,
  foreignScript,
  type Grey,
  labelClass,
  levenshtein,
  normalise,
  readPgm,
  rotateGrey,
  shrinkGrey,
  stem,
  writePgm,
} from '../scripts/ocr-split-sources';

test('normalise folds what the dev split folds: NFKC, dashes, quotes, soft hyphens, white space', () => {
  assert.equal(normalise('  ﬁne\u00ad-tuned \u2014 \u201cquoted\u201d \u2018it\u2019s\u2019\n\n\tnext  '), "fine-tuned - \"quoted\" 'it's' next");
  assert.equal(normalise('a\u2212b\u2013c'), 'a-b-c');
  assert.equal(normalise(''), '');
});

test('levenshtein counts substitutions, insertions and deletions, and is symmetric', () => {
  assert.equal(levenshtein('kitten', 'sitting'), 3);
  assert.equal(levenshtein('sitting', 'kitten'), 3);
  assert.equal(levenshtein('', 'abc'), 3);
  assert.equal(levenshtein('abc', ''), 3);
  assert.equal(levenshtein('same', 'same'), 0);
  assert.equal(levenshtein('ab', 'ba'), 2);
  // against the plain definition on random strings
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const word = () => Array.from({ length: Math.floor(rnd() * 9) }, () => 'abc'[Math.floor(rnd() * 3)]).join('');
  const slow = (a: string, b: string): number =>
    !a.length
      ? b.length
      : !b.length
        ? a.length
        : Math.min(slow(a.slice(1), b) + 1, slow(a, b.slice(1)) + 1, slow(a.slice(1), b.slice(1)) + (a[0] === b[0] ? 0 : 1));
  for (let i = 0; i < 60; i++) {
    const a = word();
    const b = word();
    assert.equal(levenshtein(a, b), slow(a, b), `${a} / ${b}`);
  }
});

test("devSources: the words of the dev split's source names and the commands of its manual pages, whatever the language", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocr-split-sources-'));
  try {
    assert.deepEqual(devSources(join(dir, 'none.jsonl')), { words: new Set(), commands: new Set() });
    const labels = join(dir, 'labels.jsonl');
    writeFileSync(
      labels,
      [
        { pages: [{ source: 'man-ls-de p2' }, { source: 'Annual_report.2019 p3', recipe: { other: 'man-tar p1' } }] },
        { pages: [{ source: 'man-passwd p1' }, {}] },
      ]
        .map((d) => JSON.stringify(d))
        .join('\n') + '\n',
    );
    const { words, commands } = devSources(labels);
    assert.deepEqual([...commands].sort(), ['ls', 'passwd', 'tar']);
    assert.deepEqual([...words].sort(), ['2019', 'annual', 'man', 'passwd', 'report', 'tar']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('corpusSources: real, unencrypted documents sharing no word with the dev split, their text pages of 600–6,000 characters and two images at most', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocr-split-sources-'));
  try {
    const page = (page: number, visibleChars: number, images = 0, route = 'text') => ({ page, route, visibleChars, images });
    writeFileSync(
      join(dir, 'labels.jsonl'),
      [
        {
          file: 'real/0123456789ab-field_guide.pdf',
          pages: [page(1, 599), page(2, 600), page(3, 6000), page(4, 6001), page(5, 900, 3), page(6, 900, 2), page(7, 900, 0, 'ocr')],
        },
        { file: 'real/annual-report.pdf', pages: [page(1, 900)] },
        { file: 'real/locked.pdf', encrypted: true, pages: [page(1, 900)] },
        { file: 'synthetic/made.pdf', pages: [page(1, 900)] },
        { file: 'real/scanned.pdf', pages: [page(1, 900, 0, 'ocr')] },
        { file: 'real/notes.pdf', pages: [page(2, 1000)] },
      ]
        .map((d) => JSON.stringify(d))
        .join('\n') + '\n',
    );
    assert.deepEqual(corpusSources(dir, new Set(['report'])), [
      {
        name: 'field_guide',
        file: 'real/0123456789ab-field_guide.pdf',
        pdf: join(dir, 'real/0123456789ab-field_guide.pdf'),
        pages: [2, 3, 6],
        lang: 'eng',
      },
      { name: 'notes', file: 'real/notes.pdf', pdf: join(dir, 'real/notes.pdf'), pages: [2], lang: 'eng' },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stem drops the folder, the content-hash prefix and .pdf; foreignScript lets Cyrillic through for Russian only', () => {
  assert.equal(stem('real/0123456789ab-field_guide.pdf'), 'field_guide');
  assert.equal(stem('real/field_guide.pdf'), 'field_guide');
  assert.equal(foreignScript('eng').test('naïve – “x” ≥ 1'), false);
  assert.equal(foreignScript('eng').test('привет'), true);
  assert.equal(foreignScript('rus').test('привет, ls -l'), false);
  assert.equal(foreignScript('rus').test('日本'), true);
});

test("labelClass: the dev split README's cut-offs, each bound inclusive", () => {
  assert.equal(labelClass(0), 'good');
  assert.equal(labelClass(0.05), 'good');
  assert.equal(labelClass(0.0501), 'fair');
  assert.equal(labelClass(0.25), 'fair');
  assert.equal(labelClass(0.2501), 'poor');
  assert.equal(labelClass(1.4), 'poor');
});

test('readPgm: the size and the pixels of an 8-bit binary PGM, and a clear error for anything else', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgm-'));
  try {
    const file = join(dir, 'a.pgm');
    // a pixel value of 10 (a white-space byte) first: the header ends after exactly one white-space byte
    writeFileSync(file, Buffer.concat([Buffer.from('P5\n3 2\n255\n', 'latin1'), Buffer.from([10, 20, 30, 40, 50, 60])]));
    const img = readPgm(file);
    assert.deepEqual([img.width, img.height, [...img.pixels]], [3, 2, [10, 20, 30, 40, 50, 60]]);
    writeFileSync(file, Buffer.from('P2\n3 2\n255\n1 2 3 4 5 6\n', 'latin1'));
    assert.throws(() => readPgm(file), /not an 8-bit binary PGM/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the dev split's other degradations: a turn about the centre, a blur that keeps the mean, a shrink that averages areas", () => {
  // a white page with one black dot right of the centre
  const w = 21;
  const page = (): Grey => ({ width: w, height: w, pixels: new Uint8Array(w * w).fill(255) });
  const dot = page();
  dot.pixels[10 * w + 15] = 0;
  // turned by 90°, the dot lies as far from the centre along the other axis; the centre itself stays put
  const turned = rotateGrey(dot, 90);
  const darkest = turned.pixels.indexOf(Math.min(...turned.pixels));
  assert.deepEqual([darkest % w, Math.floor(darkest / w)].map((v) => Math.abs(v - 10)).sort(), [0, 5]);
  assert.equal(turned.pixels[10 * w + 10], 255);
  // the corners a turn uncovers are paper
  assert.equal(rotateGrey(page(), 30).pixels[0], 255);
  // a blur spreads the dot and keeps the page's ink (within rounding)
  const blurred = blurGrey(dot, 1.5);
  const ink = (g: Grey) => g.pixels.reduce((a, v) => a + (255 - v), 0);
  assert.ok(blurred.pixels[10 * w + 15] > 100, 'the dot is spread');
  assert.ok(blurred.pixels[10 * w + 16] < 255 && blurred.pixels[11 * w + 15] < 255, 'to both sides');
  assert.ok(Math.abs(ink(blurred) - 255) < 40, `ink kept: ${ink(blurred)}`);
  // a shrink by 1/3: each output pixel the mean of a 3×3 area
  const stripes: Grey = { width: 6, height: 3, pixels: Uint8Array.from({ length: 18 }, (_, i) => (i % 6 < 3 ? 0 : 90)) };
  assert.deepEqual(shrinkGrey(stripes, 1 / 3), { width: 2, height: 1, pixels: Uint8Array.from([0, 90]) });
  // written and read back as a PGM
  const dir = mkdtempSync(join(tmpdir(), 'pgm-'));
  try {
    writePgm(join(dir, 'a.pgm'), stripes);
    const back = readPgm(join(dir, 'a.pgm'));
    assert.deepEqual([back.width, back.height, [...back.pixels]], [6, 3, [...stripes.pixels]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("buildSetup: groff without its PDF device (Debian's groff-base) is no manual pages, and it says what to install", () => {
  // a PATH holding only a groff and a man that answer their version flags, as on a machine with groff-base and man-db:
  // `man -Tpdf` would fail on every page, so the build must not count on manual pages, and must say why
  const dir = mkdtempSync(join(tmpdir(), 'pdd-man-'));
  for (const tool of ['groff', 'man']) {
    writeFileSync(join(dir, tool), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, tool), 0o755);
  }
  const path = process.env.PATH;
  const log = console.log;
  const said: string[] = [];
  process.env.PATH = dir;
  console.log = (...a: unknown[]) => void said.push(a.join(' '));
  try {
    assert.equal(buildSetup('t'), null);
    writeFileSync(join(dir, 'gropdf'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(dir, 'gropdf'), 0o755);
    said.push('--- with gropdf');
    assert.equal(buildSetup('t'), null);
  } finally {
    process.env.PATH = path;
    console.log = log;
    rmSync(dir, { recursive: true, force: true });
  }
  const before = said.slice(0, said.indexOf('--- with gropdf'));
  const after = said.slice(said.indexOf('--- with gropdf') + 1);
  assert.ok(
    before.some((l) => /no manual pages: groff's PDF device or man is missing \(Debian: groff, man-db\)/.test(l)),
    before.join('\n'),
  );
  // the other tools are missing too: skipped, saying which
  assert.ok(
    before.some((l) => /^t: skipped \(missing pdftoppm/.test(l)),
    before.join('\n'),
  );
  assert.ok(!after.some((l) => /no manual pages/.test(l)), after.join('\n'));
});
