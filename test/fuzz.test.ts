// The bounded, fixed-seed fuzz run of CI (issue 6) and the replay of every saved reproducer.
//
// FUZZ_COUNT mutants of seed FUZZ_SEED, sized by count, not by wall time, so the run is the same everywhere. 2,000
// took 47–69 s on the shared 2-core dev machine (depending on the others' load), so CI runs 1,500 (31 s measured on a quieter machine, ~50 s loaded): most
// mutants cost a few ms; those that legitimately run into their 2 s budget (exponential form fan-out, operator
// floods) and the Flate bombs dominate. The long run: `npm run fuzz -- --count 10000` (README "Robustness").
// On a failure, regenerate and save the input with:
//   node --import tsx scripts/fuzz.ts --seed <FUZZ_SEED> --index <index>

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FUZZ_DIR, IsolatedAnalyzer, LAYER_QUALITY_OPTIONS, recodedScanSeeds, runFuzz } from '../scripts/fuzz';
import { analyzePdfSync } from '../src/analyzer/index';

const FUZZ_SEED = 6;
const FUZZ_COUNT = 1500;
const BUDGET_MS = 2000;
const MARGIN_MS = 1500;
/**
 * The same with the layer-quality score and the text layer on (the OCR-layer fixtures' scans decoded, the score's
 * signals, likelihoods and regions of missing text checked too): fewer mutants of another seed, each costing more.
 */
const LQ_SEED = 16;
const LQ_COUNT = 500;

/** The run's summary line in the test output, and no crash or timeout (the first ten named, to regenerate with --index). */
function assertClean(s: Awaited<ReturnType<typeof runFuzz>>, count: number): void {
  console.log(`# ${s.line}`);
  const detail = s.failures
    .slice(0, 10)
    .map((f) => `#${f.index} ${f.kind} (${f.from}; ${f.ops.join(', ')}): ${f.detail.slice(0, 400)}`)
    .join('\n');
  assert.equal(s.mutants, count);
  assert.equal(s.crashes, 0, detail);
  assert.equal(s.timeouts, 0, detail);
}

describe('fuzz', () => {
  test(`${FUZZ_COUNT} mutants of seed ${FUZZ_SEED}: no crash, no timeout`, { timeout: 300_000 }, async () => {
    assertClean(await runFuzz({ seed: FUZZ_SEED, count: FUZZ_COUNT, budgetMs: BUDGET_MS, marginMs: MARGIN_MS, save: false }), FUZZ_COUNT);
  });

  test(`${LQ_COUNT} mutants of seed ${LQ_SEED} with the layer-quality score: no crash, no timeout`, { timeout: 300_000 }, async () => {
    const s = await runFuzz({ seed: LQ_SEED, count: LQ_COUNT, budgetMs: BUDGET_MS, marginMs: MARGIN_MS, limits: LAYER_QUALITY_OPTIONS, save: false });
    assertClean(s, LQ_COUNT);
  });
});

test("the layer-quality seeds store the fixture's scan as Group 4, as a palette, as JPEG 2000 and as JBIG2 (arithmetic and Huffman), read with the same advice", () => {
  const fixture = {
    name: 'layer-quality.pdf',
    bytes: new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', 'e2e', 'layer-quality.pdf'))),
  };
  const advice = (bytes: Uint8Array) =>
    analyzePdfSync(bytes, LAYER_QUALITY_OPTIONS).pages.map((p) => [p.route, p.evidence.layerQuality?.reocr, p.evidence.layerQuality?.signals.image]);
  const seeds = recodedScanSeeds(fixture);
  assert.deepEqual(
    seeds.map((s) => s.name),
    [
      'layer-quality.pdf (scan as g4)',
      'layer-quality.pdf (scan as palette16)',
      'layer-quality.pdf (scan as jpx)',
      'layer-quality.pdf (scan as jbig2)',
      'layer-quality.pdf (scan as jbig2huffman)',
    ],
  );
  const want = advice(fixture.bytes);
  // four scanned pages read (no signals.image note), two of them advised re-OCR
  assert.deepEqual(
    want.map((a) => a[1]),
    [false, true, false, true, false],
  );
  const filters: Record<string, RegExp> = {
    g4: /\/CCITTFaxDecode/,
    palette16: /\/Indexed \/DeviceGray 15/,
    jpx: /\/DeviceGray \/BitsPerComponent 8 \/Filter \/JPXDecode/,
    jbig2: /\/DeviceGray \/BitsPerComponent 1 \/Filter \/JBIG2Decode/,
    jbig2huffman: /\/DeviceGray \/BitsPerComponent 1 \/Filter \/JBIG2Decode/,
  };
  for (const s of seeds) {
    assert.match(Buffer.from(s.bytes).toString('latin1'), filters[/\(scan as (\w+)\)/.exec(s.name)![1]]);
    assert.deepEqual(advice(s.bytes), want, s.name);
  }
});

/** `name` → the todo reason of its README line (`[todo: …]`), for reproducers of bugs still open. */
function todos(): Map<string, string> {
  const m = new Map<string, string>();
  const readme = join(FUZZ_DIR, 'README.md');
  if (!existsSync(readme)) return m;
  for (const line of readFileSync(readme, 'utf8').split('\n')) {
    const r = /^- `([^`]+)`.*\[todo: ([^\]]+)\]/.exec(line);
    if (r) m.set(r[1], r[2]);
  }
  return m;
}

describe('fuzz reproducers (test/fixtures/fuzz)', () => {
  // a smaller heap than the fuzz run's: a reproducer of unbounded memory then dies in seconds, not half a minute
  const iso = new IsolatedAnalyzer(384);
  after(() => iso.close());
  const files = existsSync(FUZZ_DIR)
    ? readdirSync(FUZZ_DIR)
        .filter((f) => f.endsWith('.pdf'))
        .sort()
    : [];
  const todo = todos();
  test('every reproducer is listed in the README', () => {
    const readme = existsSync(join(FUZZ_DIR, 'README.md')) ? readFileSync(join(FUZZ_DIR, 'README.md'), 'utf8') : '';
    for (const f of files) assert.ok(readme.includes(`\`${f}\``), f);
  });
  for (const f of files) {
    test(f, { todo: todo.get(f) }, async () => {
      // an open bug (todo) gets a short leash: it is expected to fail, only not to slow the suite down
      const hard = BUDGET_MS + MARGIN_MS + (todo.has(f) ? 1000 : 10_000);
      const o = await iso.analyze(new Uint8Array(readFileSync(join(FUZZ_DIR, f))), { timeBudgetMs: BUDGET_MS }, hard);
      assert.ok(!o.killed, 'no answer: hang');
      assert.equal(o.crash, undefined, o.crash);
      assert.deepEqual(o.violations, []);
      assert.ok(o.ms! <= BUDGET_MS + MARGIN_MS, `${Math.round(o.ms!)} ms`);
    });
  }
});
