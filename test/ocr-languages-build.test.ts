// scripts/ocr-languages-build.ts: which manual pages it takes, and its usage errors (the build itself needs Debian's
// manual pages and Tesseract's languages; the session that wrote it ran it, see docs/layer-quality-notes.md).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGE_PAGES, pick, VARIANTS } from '../scripts/ocr-languages-build';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

test('every seventh page by name from the offset-th on (counting from 1), so that two offsets never share a page', () => {
  const names = Array.from({ length: 30 }, (_, i) => `p${String(i).padStart(2, '0')}.1.gz`).reverse();
  assert.deepEqual(pick(names, 3), ['p02.1.gz', 'p09.1.gz', 'p16.1.gz', 'p23.1.gz']);
  const five = new Set(pick(names, 5));
  assert.ok(pick(names, 3).every((n) => !five.has(n)));
});

test("the languages are the score's other languages that Debian translates manual pages into, each OCR'd three ways", () => {
  assert.deepEqual(Object.keys(LANGUAGE_PAGES).sort(), ['cs', 'da', 'es', 'fi', 'hu', 'it', 'nl', 'pl', 'pt_BR', 'ro', 'sv', 'tr']);
  assert.deepEqual(
    VARIANTS.map((v) => [v.name, v.tesseract]),
    [
      ['good', ''],
      ['blur', ''],
      ['cyr', 'rus'],
    ],
  );
});

test('usage errors exit 2 and say why', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'ocr-languages-build.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  const none = run();
  assert.equal(none.status, 2);
  assert.match(none.stderr, /usage: ocr-languages-build\.ts --out DIR/);
  const bad = run('--out', '/nonexistent-dir-for-a-test', '--languages', 'xx');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /no such language: xx/);
});
