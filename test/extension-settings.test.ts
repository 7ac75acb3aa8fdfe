import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_OPTIONS } from '../src/analyzer/options';
import {
  affectsAnalysis,
  clampSetting,
  effectiveWorkerCount,
  EXTENSION_DEFAULTS,
  EXTENSION_NUMBER_SETTINGS,
  OPTION_SETTINGS,
  optionsKey,
  readSettings,
  RESTRICTED_SETTINGS,
  SECTION,
  trustAwareReader,
  type InspectedSetting,
} from '../src/extension/settings';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const props: Record<string, { default: unknown; type: string; minimum?: number; maximum?: number }> = pkg.contributes.configuration.properties;
const MB = 1024 * 1024;

test('package.json defaults of analyzer settings equal DEFAULT_OPTIONS (in the setting unit)', () => {
  for (const { setting, option, scale } of OPTION_SETTINGS) {
    const p = props[`${SECTION}.${setting}`];
    assert.ok(p, `${setting} is contributed`);
    assert.equal(p.default, (DEFAULT_OPTIONS[option] as number) / scale, `${setting} default`);
  }
});

test('package.json bounds and types equal the mapping table', () => {
  for (const row of OPTION_SETTINGS) {
    const p = props[`${SECTION}.${row.setting}`];
    assert.equal(p.minimum, row.min, `${row.setting} minimum`);
    assert.equal(p.maximum, row.max, `${row.setting} maximum`);
    assert.equal(p.type, row.integer ? 'integer' : 'number', `${row.setting} type`);
    // the default must lie inside its own bounds
    assert.ok((p.default as number) >= row.min && (p.default as number) <= row.max, `${row.setting} default in bounds`);
  }
  for (const [key, b] of Object.entries(EXTENSION_NUMBER_SETTINGS)) {
    const p = props[`${SECTION}.${key}`];
    assert.equal(p.minimum, b.min, `${key} minimum`);
    assert.equal(p.maximum, b.max, `${key} maximum`);
    assert.equal(p.type, b.integer ? 'integer' : 'number', `${key} type`);
  }
});

test('every contributed threshold/limit setting maps onto an analyzer option, each option once', () => {
  const mapped = new Set(OPTION_SETTINGS.map((s) => `${SECTION}.${s.setting}`));
  for (const key of Object.keys(props)) {
    if (/\.(thresholds|limits)\./.test(key)) assert.ok(mapped.has(key), `${key} is mapped`);
  }
  const options = OPTION_SETTINGS.map((s) => s.option);
  assert.equal(new Set(options).size, options.length);
  for (const o of options) assert.ok(o in DEFAULT_OPTIONS, `${o} is an analyzer option`);
  // the two: the memory bound in MB and the image box cap
  assert.ok(OPTION_SETTINGS.some((s) => s.option === 'maxHeldBytes' && s.scale === MB && /MB$/.test(s.setting)));
  assert.ok(OPTION_SETTINGS.some((s) => s.option === 'maxImageBoxesPerPage'));
});

test('package.json defaults of extension settings equal EXTENSION_DEFAULTS', () => {
  assert.deepEqual(props[`${SECTION}.problemRoutes`].default, [...EXTENSION_DEFAULTS.problemRoutes]);
  assert.equal(props[`${SECTION}.trustOcrLayer`].default, EXTENSION_DEFAULTS.trustOcrLayer);
  assert.equal(props[`${SECTION}.maxFileSizeMB`].default, EXTENSION_DEFAULTS.maxFileSizeMB);
  assert.equal(props[`${SECTION}.workerCount`].default, EXTENSION_DEFAULTS.workerCount);
  assert.equal(props[`${SECTION}.layerQuality`].default, EXTENSION_DEFAULTS.layerQuality);
  assert.equal(props[`${SECTION}.layerQuality`].type, 'boolean');
});

test('layerQuality: on by default, off when set off; part of the cache key and an analysis input', () => {
  assert.equal(readSettings(() => undefined).options.layerQuality, true);
  const off = readSettings((k) => (k === 'layerQuality' ? false : undefined));
  assert.equal(off.options.layerQuality, undefined, 'off: the analyzer default (no score)');
  assert.equal(readSettings((k) => (k === 'layerQuality' ? 'yes' : undefined)).options.layerQuality, true, 'not a boolean: the default');
  // off gives the key reports had before the setting existed; on gives another one
  assert.equal(optionsKey(off.options), optionsKey({}));
  assert.notEqual(optionsKey({ layerQuality: true }), optionsKey({}));
  assert.match(optionsKey({ layerQuality: true }), /;layerQuality=true$/);
  assert.equal(
    affectsAnalysis((k) => k === 'pdfPageDiagnostics.layerQuality'),
    true,
  );
  assert.ok(!RESTRICTED_SETTINGS.includes(`${SECTION}.layerQuality`), 'bounded by the time budget: a workspace may set it');
});

test('settings map onto AnalyzerOptions keys; package defaults give the analyzer defaults', () => {
  const defaults = (k: string) => props[`${SECTION}.${k}`]?.default;
  const s = readSettings(defaults);
  for (const { option } of OPTION_SETTINGS) assert.equal(s.options[option], DEFAULT_OPTIONS[option], option);
  // the extension scores OCR layers by default, which the analyzer does not
  assert.equal(s.options.layerQuality, true);
  assert.equal(optionsKey(s.options), optionsKey({ layerQuality: true }));
  assert.equal(s.maxFileSizeBytes, 256 * MB);
  assert.deepEqual([...s.problemRoutes].sort(), ['blank', 'ocr', 'ocr-layer', 'review', 'unknown']);
});

test('MB settings become bytes', () => {
  const s = readSettings((k) => ({ 'limits.maxHeldMB': 100, 'limits.maxStreamMB': 8, 'limits.maxPageContentMB': 16 })[k]);
  assert.equal(s.options.maxHeldBytes, 100 * MB);
  assert.equal(s.options.maxStreamBytes, 8 * MB);
  assert.equal(s.options.maxPageBytes, 16 * MB);
});

test('user values pass through; invalid ones are dropped', () => {
  const values: Record<string, unknown> = {
    'thresholds.minTextChars': 100,
    'thresholds.scanCoverage': 0.6,
    'thresholds.borderlineCoverage': -1,
    'thresholds.minVectorOps': 'lots',
    'thresholds.ocrLayerCoverage': Number.NaN,
    'limits.timeBudgetMs': 0,
    'limits.maxPages': Number.POSITIVE_INFINITY,
    problemRoutes: ['ocr', 'bogus', 'review'],
    trustOcrLayer: false,
    maxFileSizeMB: -5,
    workerCount: 99,
  };
  const s = readSettings((k) => values[k]);
  assert.deepEqual(s.options, { minTextChars: 100, scanCoverage: 0.6, layerQuality: true });
  assert.deepEqual([...s.problemRoutes], ['ocr', 'review']);
  assert.equal(s.trustOcrLayer, false);
  assert.equal(s.maxFileSizeBytes, EXTENSION_DEFAULTS.maxFileSizeMB * MB);
  assert.equal(s.workerCount, 16);
  assert.notEqual(optionsKey(s.options), optionsKey({}));
});

test('out-of-range values are clamped to the schema bounds (2e9 ms → the maximum)', () => {
  const values: Record<string, unknown> = {
    'limits.timeBudgetMs': 2e9,
    'limits.maxPages': 1e12,
    'limits.maxHeldMB': 1e9,
    'limits.maxImageBoxesPerPage': 5e6,
    'limits.maxOpsPerPage': 3, // below the minimum: raised to it
    'thresholds.undecodableShare': 7,
    'thresholds.minTextChars': 12.9, // integer setting
    maxFileSizeMB: 1e6,
    workerCount: 3.7,
  };
  const s = readSettings((k) => values[k]);
  const row = (option: string) => OPTION_SETTINGS.find((r) => r.option === option)!;
  assert.equal(s.options.timeBudgetMs, row('timeBudgetMs').max);
  // what the pool arms its overrun timer with stays a valid setTimeout delay
  assert.ok(Math.ceil(s.options.timeBudgetMs * 1.5) + 5000 <= 2 ** 31 - 1);
  assert.equal(s.options.maxPages, row('maxPages').max);
  assert.equal(s.options.maxHeldBytes, row('maxHeldBytes').max * MB);
  assert.equal(s.options.maxImageBoxesPerPage, row('maxImageBoxesPerPage').max);
  assert.equal(s.options.maxOpsPerPage, row('maxOpsPerPage').min);
  assert.equal(s.options.undecodableShare, 1);
  assert.equal(s.options.minTextChars, 12);
  assert.equal(s.maxFileSizeBytes, EXTENSION_NUMBER_SETTINGS.maxFileSizeMB.max * MB);
  assert.equal(s.workerCount, 3);
});

test('clampSetting: numbers only, never negative, within bounds', () => {
  const b = { min: 10, max: 20, integer: true };
  assert.equal(clampSetting(15.5, b), 15);
  assert.equal(clampSetting(5, b), 10);
  assert.equal(clampSetting(25, b), 20);
  assert.equal(clampSetting(-1, b), undefined);
  assert.equal(clampSetting('15', b), undefined);
  assert.equal(clampSetting(Number.NaN, b), undefined);
  assert.equal(clampSetting(undefined, b), undefined);
});

test('unset configuration gives analyzer defaults and extension defaults', () => {
  const s = readSettings(() => undefined);
  assert.deepEqual(s.options, { layerQuality: true });
  assert.equal(s.trustOcrLayer, true);
  assert.equal(s.workerCount, 0);
});

test('only analysis settings invalidate reports', () => {
  assert.equal(
    affectsAnalysis((k) => k === 'pdfPageDiagnostics.thresholds.scanCoverage'),
    true,
  );
  assert.equal(
    affectsAnalysis((k) => k === 'pdfPageDiagnostics.limits.maxHeldMB'),
    true,
  );
  assert.equal(
    affectsAnalysis((k) => k === 'pdfPageDiagnostics.trustOcrLayer'),
    false,
  );
  assert.equal(
    affectsAnalysis((k) => k === 'pdfPageDiagnostics.workerCount'),
    false,
  );
});

test('worker count: explicit, or cores − 1 capped at 4', () => {
  assert.equal(effectiveWorkerCount(3, 8), 3);
  assert.equal(effectiveWorkerCount(0, 8), 4);
  assert.equal(effectiveWorkerCount(0, 2), 1);
  assert.equal(effectiveWorkerCount(0, undefined), 1);
});

/** A configuration as a repository's .vscode/settings.json would make it: workspace values over user values. */
function hostileConfig(): { get(k: string): unknown; inspect(k: string): InspectedSetting | undefined } {
  const inspected: Record<string, InspectedSetting> = {
    'limits.timeBudgetMs': { defaultValue: 20000, workspaceValue: 2e9 },
    'limits.maxHeldMB': { defaultValue: 512, globalValue: 256, workspaceFolderValue: 2048 },
    workerCount: { defaultValue: 0, workspaceValue: 16 },
    'thresholds.minTextChars': { defaultValue: 40, workspaceValue: 10 },
  };
  return {
    get: (k) => {
      const i = inspected[k];
      return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue ?? i?.defaultValue;
    },
    inspect: (k) => inspected[k],
  };
}

test('untrusted workspace: restricted settings come from user or default values only', () => {
  const s = readSettings(trustAwareReader(hostileConfig(), false));
  assert.equal(s.options.timeBudgetMs, 20000, 'workspace value ignored, default used');
  assert.equal(s.options.maxHeldBytes, 256 * MB, 'folder value ignored, user value used');
  assert.equal(s.workerCount, 0);
  // thresholds are not limits: a project may tune them, trusted or not
  assert.equal(s.options.minTextChars, 10);
});

test('trusted workspace: workspace values apply, still clamped', () => {
  const s = readSettings(trustAwareReader(hostileConfig(), true));
  assert.equal(s.options.timeBudgetMs, OPTION_SETTINGS.find((r) => r.option === 'timeBudgetMs')!.max);
  assert.equal(s.options.maxHeldBytes, 2048 * MB);
  assert.equal(s.workerCount, 16);
});

test('every limit is restricted; thresholds and presentation settings are not', () => {
  for (const row of OPTION_SETTINGS) {
    assert.equal(RESTRICTED_SETTINGS.includes(`${SECTION}.${row.setting}`), row.setting.startsWith('limits.'), row.setting);
  }
  assert.ok(RESTRICTED_SETTINGS.includes(`${SECTION}.maxFileSizeMB`));
  assert.ok(RESTRICTED_SETTINGS.includes(`${SECTION}.workerCount`));
  assert.ok(!RESTRICTED_SETTINGS.includes(`${SECTION}.trustOcrLayer`));
});

test('in-process analysis always carries a time budget, capped so one file cannot hold the host long', async () => {
  const { IN_PROCESS_MAX_BUDGET_MS, inProcessOptions, withInProcessBudget } = await import('../src/extension/settings');
  assert.equal(inProcessOptions({}).timeBudgetMs, Math.min(DEFAULT_OPTIONS.timeBudgetMs, IN_PROCESS_MAX_BUDGET_MS));
  assert.equal(inProcessOptions({ timeBudgetMs: 3_600_000 }).timeBudgetMs, IN_PROCESS_MAX_BUDGET_MS);
  assert.equal(inProcessOptions({ timeBudgetMs: 500, minTextChars: 3 }).timeBudgetMs, 500);
  assert.equal(inProcessOptions({ timeBudgetMs: 500, minTextChars: 3 }).minTextChars, 3);

  const seen: unknown[] = [];
  let terminated = 0;
  const wrapped = withInProcessBudget(() => ({
    postMessage: (msg) => seen.push(msg),
    onMessage: (cb) => cb({ type: 'ready' }),
    onError() {},
    terminate: () => terminated++,
  }))();
  const ready: unknown[] = [];
  wrapped.onMessage((m) => ready.push(m));
  const bytes = new Uint8Array([1]);
  wrapped.postMessage({ id: 7, bytes, options: { timeBudgetMs: 2e9 } });
  wrapped.terminate();
  assert.deepEqual(ready, [{ type: 'ready' }]);
  assert.deepEqual(seen, [{ id: 7, bytes, options: { timeBudgetMs: IN_PROCESS_MAX_BUDGET_MS } }]);
  assert.equal(terminated, 1);
});

test('the in-process fallback with the budget: a real analysis through the wrapped worker answers', async () => {
  const { withInProcessBudget } = await import('../src/extension/settings');
  const { inProcessWorker } = await import('../src/extension/worker/inProcess');
  const w = withInProcessBudget(inProcessWorker)();
  const answer = await new Promise<unknown>((resolve) => {
    w.onMessage((m) => {
      if ((m as { type: string }).type !== 'ready') resolve(m);
    });
    w.postMessage({ id: 1, bytes: new TextEncoder().encode('not a pdf'), options: {} });
  });
  assert.equal((answer as { type: string; id: number }).type, 'result');
  assert.equal((answer as { id: number }).id, 1);
  w.terminate();
});
