// The layer-quality ratchet: `scripts/ocr-quality.ts --check` on ../shared/ocr-quality fails when Spearman, AUROC,
// decision accuracy or coverage fall below test/ocr-quality-baseline.json. Skipped, with a message, without the data.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(ROOT, '..', 'shared', 'ocr-quality', 'labels.jsonl');

test('layer-quality figures on the dev split do not fall below the committed baseline', (t) => {
  if (!existsSync(DATA)) {
    t.skip('../shared/ocr-quality is absent: the layer-quality ratchet cannot run here');
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'cli.js'))) {
    t.skip('dist/cli.js is missing (npm test builds it first)');
    return;
  }
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts', 'ocr-quality.ts'), '--check', join(ROOT, 'test', 'ocr-quality-baseline.json'), '--quiet'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  assert.equal(r.status, 0, `ocr-quality --check failed:\n${r.stdout}\n${r.stderr}`);
});
