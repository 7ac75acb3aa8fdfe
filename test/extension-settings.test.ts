import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_OPTIONS } from '../src/analyzer/options';
import { affectsAnalysis, effectiveWorkerCount, EXTENSION_DEFAULTS, OPTION_SETTINGS, optionsKey, readSettings, SECTION } from '../src/extension/settings';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const props: Record<string, { default: unknown; type: string }> = pkg.contributes.configuration.properties;

test('package.json defaults of analyzer settings equal DEFAULT_OPTIONS', () => {
  for (const { setting, option } of OPTION_SETTINGS) {
    const p = props[`${SECTION}.${setting}`];
    assert.ok(p, `${setting} is contributed`);
    assert.equal(p.default, DEFAULT_OPTIONS[option], `${setting} default`);
  }
});

test('every contributed threshold/limit setting maps onto an analyzer option', () => {
  const mapped = new Set(OPTION_SETTINGS.map((s) => `${SECTION}.${s.setting}`));
  for (const key of Object.keys(props)) {
    if (/\.(thresholds|limits)\./.test(key)) assert.ok(mapped.has(key), `${key} is mapped`);
  }
});

test('package.json defaults of extension settings equal EXTENSION_DEFAULTS', () => {
  assert.deepEqual(props[`${SECTION}.problemRoutes`].default, [...EXTENSION_DEFAULTS.problemRoutes]);
  assert.equal(props[`${SECTION}.trustOcrLayer`].default, EXTENSION_DEFAULTS.trustOcrLayer);
  assert.equal(props[`${SECTION}.maxFileSizeMB`].default, EXTENSION_DEFAULTS.maxFileSizeMB);
  assert.equal(props[`${SECTION}.workerCount`].default, EXTENSION_DEFAULTS.workerCount);
});

test('settings map onto AnalyzerOptions keys; package defaults give the analyzer defaults', () => {
  const defaults = (k: string) => props[`${SECTION}.${k}`]?.default;
  const s = readSettings(defaults);
  for (const { option } of OPTION_SETTINGS) assert.equal(s.options[option], DEFAULT_OPTIONS[option]);
  assert.equal(optionsKey(s.options), optionsKey({}));
  assert.equal(s.maxFileSizeBytes, 256 * 1024 * 1024);
  assert.deepEqual([...s.problemRoutes].sort(), ['blank', 'ocr', 'ocr-layer', 'review', 'unknown']);
});

test('user values pass through; invalid ones are dropped', () => {
  const values: Record<string, unknown> = {
    'thresholds.minTextChars': 100,
    'thresholds.scanCoverage': 0.6,
    'thresholds.borderlineCoverage': -1,
    'thresholds.minVectorOps': 'lots',
    'thresholds.ocrLayerCoverage': Number.NaN,
    'limits.timeBudgetMs': 0,
    problemRoutes: ['ocr', 'bogus', 'review'],
    trustOcrLayer: false,
    maxFileSizeMB: -5,
    workerCount: 99,
  };
  const s = readSettings((k) => values[k]);
  assert.deepEqual(s.options, { minTextChars: 100, scanCoverage: 0.6 });
  assert.deepEqual([...s.problemRoutes], ['ocr', 'review']);
  assert.equal(s.trustOcrLayer, false);
  assert.equal(s.maxFileSizeBytes, EXTENSION_DEFAULTS.maxFileSizeMB * 1024 * 1024);
  assert.equal(s.workerCount, 16);
  assert.notEqual(optionsKey(s.options), optionsKey({}));
});

test('unset configuration gives analyzer defaults and extension defaults', () => {
  const s = readSettings(() => undefined);
  assert.deepEqual(s.options, {});
  assert.equal(s.trustOcrLayer, true);
  assert.equal(s.workerCount, 0);
});

test('only analysis settings invalidate reports', () => {
  assert.equal(affectsAnalysis((k) => k === 'pdfPageDiagnostics.thresholds.scanCoverage'), true);
  assert.equal(affectsAnalysis((k) => k === 'pdfPageDiagnostics.trustOcrLayer'), false);
});

test('worker count: explicit, or cores − 1 capped at 4', () => {
  assert.equal(effectiveWorkerCount(3, 8), 3);
  assert.equal(effectiveWorkerCount(0, 8), 4);
  assert.equal(effectiveWorkerCount(0, 2), 1);
  assert.equal(effectiveWorkerCount(0, undefined), 1);
});
