// The CLI's --layer-quality and --text-layer flags (issue 16): off, records and tables are as before; on, ocr-layer
// pages carry layerQuality { score, reocr, signals }, the table a 'layer' column and a re-OCR count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../src/cli/args';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const PDF = join(ROOT, 'test', 'fixtures', 'analyzer', '13-ocr-layer.pdf');

function run(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, 'classify', ...args, PDF], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout + r.stderr;
}

test('the flags parse, off by default', () => {
  const off = parseArgs(['classify', 'a.pdf']);
  const on = parseArgs(['classify', '--layer-quality', '--text-layer', 'a.pdf']);
  assert.ok(off.kind === 'run' && !off.args.layerQuality && !off.args.textLayer);
  assert.ok(on.kind === 'run' && on.args.layerQuality && on.args.textLayer);
});

test('--layer-quality adds the score to ocr-layer pages, a table column and the re-OCR count; without it nothing changes', (t) => {
  if (!existsSync(CLI)) {
    t.skip('dist/cli.js is missing (npm test builds it first)');
    return;
  }
  const off = JSON.parse(run('--json')) as { pages: Record<string, unknown>[] };
  for (const p of off.pages) {
    assert.equal(p.layerQuality, undefined);
    assert.equal(p.textLayer, undefined);
  }
  assert.ok(!run('-p').includes('layer quality'));
  const on = JSON.parse(run('--json', '--layer-quality')) as {
    pages: { route: string; layerQuality?: { score: number; reocr: boolean; signals: object } }[];
  };
  const layered = on.pages.filter((p) => p.route === 'ocr-layer');
  assert.ok(layered.length > 0);
  for (const p of layered) {
    assert.deepEqual(Object.keys(p.layerQuality!).sort(), ['reocr', 'score', 'signals']);
    assert.ok(p.layerQuality!.score >= 0 && p.layerQuality!.score <= 1);
  }
  const table = run('-p', '--layer-quality');
  assert.match(table, /page {2}route .* layer /);
  assert.match(table, /layer quality: \d+ pages? to keep, \d+ to re-OCR/);
  assert.match(table, /\d+ to re-OCR · /);
  const text = JSON.parse(run('--json', '--text-layer')) as { pages: { textLayer?: { text: string; runs: unknown[] } }[] };
  assert.ok(text.pages.some((p) => p.textLayer && p.textLayer.runs.length > 0 && p.textLayer.text.length > 0));
});
