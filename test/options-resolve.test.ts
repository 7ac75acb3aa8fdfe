// resolveOptions copies prepared defaults and reads a plain object's own keys only (options.ts): the result must be
// what merging over every option name gives, fields in the same order, for every kind of partial.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { type AnalyzerOptions, DEFAULT_OPTIONS, resolveOptions } from '../src/analyzer/options';

/** the merge resolveOptions did before it was made cheaper: every option name read, then password and flags */
function reference(partial?: Partial<AnalyzerOptions>): AnalyzerOptions {
  const out: AnalyzerOptions = { ...DEFAULT_OPTIONS };
  if (!partial) return out;
  for (const key of Object.keys(DEFAULT_OPTIONS) as (keyof AnalyzerOptions)[]) {
    const v = partial[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) (out as unknown as Record<string, unknown>)[key] = v;
  }
  if (typeof partial.password === 'string') out.password = partial.password;
  if (partial.textLayer === true) out.textLayer = true;
  if (partial.layerQuality === true) out.layerQuality = true;
  return out;
}

function same(partial?: Partial<AnalyzerOptions>): void {
  const got = resolveOptions(partial);
  const want = reference(partial);
  assert.deepEqual(Object.entries(got), Object.entries(want));
}

test('resolveOptions: plain partials (flags, numbers, bad numbers, unknown keys, a password) as the full merge', () => {
  same();
  same({});
  same({ textLayer: true });
  same({ layerQuality: true });
  same({ layerQuality: true, textLayer: true });
  same({ textLayer: false, layerQuality: 'yes' as unknown as boolean });
  same({ maxPages: 3, timeBudgetMs: 10, minTextChars: -1, maxStreamBytes: NaN, maxHeldBytes: Infinity });
  same({ maxPages: '3' as unknown as number, ['nope' as keyof AnalyzerOptions]: 5 });
  same({ password: 'pw', layerQuality: true, maxPages: 2 });
  same({ password: 'pw', textLayer: true });
  same(Object.assign(Object.create(null) as Partial<AnalyzerOptions>, { maxPages: 7, layerQuality: true }));
});

test('resolveOptions: inherited and non-enumerable values are read as before', () => {
  class Settings {
    get maxPages(): number {
      return 9;
    }
  }
  const inherited = Object.create({ maxPages: 4, textLayer: true }) as Partial<AnalyzerOptions>;
  same(inherited);
  same(new Settings());
  const hidden: Partial<AnalyzerOptions> = { layerQuality: true };
  Object.defineProperty(hidden, 'maxOpsPerPage', { value: 11, enumerable: false });
  same(hidden);
  assert.equal(resolveOptions(hidden).maxOpsPerPage, 11);
});

test('resolveOptions: each result is a fresh object (changing one leaves the next as it was)', () => {
  const a = resolveOptions({ layerQuality: true });
  a.maxPages = 1;
  assert.equal(resolveOptions({ layerQuality: true }).maxPages, DEFAULT_OPTIONS.maxPages);
  assert.equal(resolveOptions().maxPages, DEFAULT_OPTIONS.maxPages);
});
