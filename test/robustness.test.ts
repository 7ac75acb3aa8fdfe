// Targeted hostile inputs (issue 6): each is built by the generators in scripts/fuzz.ts and analysed in a child
// process, so a hang or an out-of-memory abort fails the test (the child is killed after HARD_MS) instead of
// freezing or killing the suite. Every report
// must also pass the same invariants the fuzzer checks.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzePdfSync } from '../src/analyzer/index';
import type { AnalyzerOptions } from '../src/analyzer/options';
import type { DocumentReport, PageReport } from '../src/analyzer/types';
import { IsolatedAnalyzer, LAYER_QUALITY_OPTIONS, PdfBuilder, ROOT, checkInvariants, docWith, hostile } from '../scripts/fuzz';
import { MAX_MISSING_REGIONS } from '../src/analyzer/layerQuality/missing';

// garbage collected before each run: the memory bounds below are about what one input costs
const iso = new IsolatedAnalyzer(undefined, true);
after(() => iso.close());

/** wall time a run may take beyond its time budget before it counts as a hang */
const MARGIN_MS = 1500;
const HARD_MS = 30_000;

async function run(bytes: Uint8Array, options: Partial<AnalyzerOptions> = {}): Promise<{ report: DocumentReport; ms: number; heapMB: number }> {
  const o = await iso.analyze(bytes, options, HARD_MS, true);
  assert.ok(!o.killed, `no answer within ${HARD_MS} ms`);
  assert.equal(o.crash, undefined, o.crash);
  assert.deepEqual(o.violations, [], 'report invariants');
  const budget = options.timeBudgetMs ?? 20_000;
  assert.ok(o.ms! <= budget + MARGIN_MS, `took ${Math.round(o.ms!)} ms, budget ${budget}`);
  return { report: o.report!, ms: o.ms!, heapMB: o.heapAfterMB ?? 0 };
}

function page(r: DocumentReport, n = 1): PageReport {
  const p = r.pages[n - 1];
  assert.ok(p, `page ${n} exists (pageCount ${r.pageCount}, error ${JSON.stringify(r.error)})`);
  return p;
}
function allNotes(r: DocumentReport): string {
  return [...r.notes, ...r.pages.flatMap((p) => p.notes ?? [])].join('\n');
}

describe('decompression bombs', () => {
  test('a ~600-byte double-Flate stream of 128 MiB stops at the stream cap with stream-too-large', async () => {
    const pdf = hostile.flateBomb(128, 2);
    assert.ok(pdf.length < 4096, `file is ${pdf.length} bytes`);
    const { report, heapMB } = await run(pdf);
    const p = page(report);
    assert.ok(p.reasons.includes('stream-too-large'), JSON.stringify(p.reasons));
    assert.match(allNotes(report), /cut at \d+ decoded bytes/);
    const cut = Number(/cut at (\d+)/.exec(allNotes(report))![1]);
    assert.ok(cut <= 64 * 1024 * 1024, `decoded ${cut} bytes`);
    // the cap bounds memory: what is live after the run is a small multiple of it, not the 128 MiB bomb
    assert.ok(heapMB < 400, `heap+ArrayBuffers after the run ${Math.round(heapMB)} MB`);
  });

  test('a smaller maxStreamBytes is honoured', async () => {
    const { report } = await run(hostile.flateBomb(16, 1), { maxStreamBytes: 1 << 20 });
    const cut = Number(/cut at (\d+)/.exec(allNotes(report))?.[1]);
    assert.ok(cut <= 1 << 20, `decoded ${cut} bytes`);
    assert.ok(page(report).reasons.includes('stream-too-large'));
  });

  test('the per-page cap bounds several bombs in one /Contents array', async () => {
    const { report } = await run(hostile.flateBomb(16, 1, '\0', 5), { maxStreamBytes: 8 << 20, maxPageBytes: 20 << 20 });
    assert.ok(page(report).reasons.includes('stream-too-large'), JSON.stringify(page(report).reasons));
  });

  test('a bomb of operators (q q q …) stops at the operator or byte cap, not by exhausting memory', async () => {
    const { report } = await run(hostile.flateBomb(128, 2, 'q '), { timeBudgetMs: 5000 });
    const p = page(report);
    assert.equal(p.route, 'unknown');
    assert.ok(
      p.reasons.some((r) => r === 'too-many-operators' || r === 'stream-too-large' || r === 'budget-exceeded'),
      JSON.stringify(p.reasons),
    );
  });
});

describe('form XObjects', () => {
  for (const n of [1, 2, 3]) {
    test(`a cycle of ${n} form(s) drawing each other is cut, with a note`, async () => {
      const { report } = await run(hostile.selfDrawingForm(n), { timeBudgetMs: 5000 });
      assert.equal(report.pageCount, 1);
      assert.equal(report.error, undefined);
      assert.notEqual(page(report).route, 'unknown');
      assert.match(allNotes(report), /paints itself/);
    });
  }

  test('a chain deeper than maxFormDepth stops with form-depth-exceeded', async () => {
    const { report } = await run(hostile.formChain(40), { timeBudgetMs: 5000 });
    assert.ok(page(report).reasons.includes('form-depth-exceeded'), JSON.stringify(page(report).reasons));
  });

  test('a chain within the limit reaches its image', async () => {
    const { report } = await run(hostile.formChain(8));
    assert.equal(page(report).evidence.imageCount, 1);
    assert.equal(page(report).route, 'ocr');
  });

  test('exponential fan-out (each form draws the next 8 times, no cycle) ends within the time budget', async () => {
    const { report } = await run(hostile.formChain(12, 8), { timeBudgetMs: 1000 });
    const p = page(report);
    assert.equal(p.route, 'unknown');
    assert.ok(p.reasons.includes('budget-exceeded') || p.reasons.includes('too-many-operators'), JSON.stringify(p.reasons));
  });
});

describe('nesting, numbers and references', () => {
  for (const open of ['[', '<<', '[<<']) {
    test(`${open.repeat(3)}… nested 200,000 deep does not overflow the stack`, async () => {
      const { report } = await run(hostile.deepNesting(200_000, open), { timeBudgetMs: 5000 });
      assert.equal(report.pageCount, 1);
    });
  }

  for (const v of ['1e308', '-1e308', '99999999999999999999', '2147483648', '-0', '0.000000000000000000001', '1E400']) {
    test(`huge or odd number ${v} in boxes, matrices and text state`, async () => {
      const { report } = await run(hostile.hugeNumbers(v), { timeBudgetMs: 5000 });
      assert.equal(report.pageCount, 1);
    });
  }

  test('a reference chain longer than maxRefChain resolves to nothing, a short one to the content', async () => {
    const long = await run(hostile.refChain(100));
    assert.equal(page(long.report).evidence.visibleChars, 0);
    const short = await run(hostile.refChain(10));
    assert.ok(page(short.report).evidence.visibleChars > 40);
  });

  test('a cycle of references (1 → 2 → … → 1) terminates', async () => {
    const { report } = await run(hostile.refChain(7, true));
    assert.equal(report.pageCount, 1);
  });

  test('an object whose /Length refers to itself', async () => {
    const b = new PdfBuilder();
    const d = docWith([{ content: 'BT /F1 12 Tf (hello) Tj ET' }], b);
    const bytes = new TextDecoder('latin1')
      .decode(d.bytes())
      .replace(/\/Length (\d+) >>\nstream\nBT/, (_m, n) => `/Length 4 0 R ${' '.repeat(n.length)}>>\nstream\nBT`);
    const { report } = await run(new Uint8Array(Buffer.from(bytes, 'latin1')));
    assert.equal(report.pageCount, 1);
  });
});

describe('cross-reference', () => {
  // test/fixtures/fuzz/xref-stream-bomb.pdf is the 10 M-row version: it exhausts the heap and V8 aborts the process.
  // xref.ts caps the rows it keeps by what the file can hold.
  test('an xref stream claiming 1 M objects in a 1 KB file costs little memory', async () => {
    const o = await iso.analyze(hostile.xrefStreamBomb(1_000_000), {}, HARD_MS);
    assert.equal(o.crash, undefined, o.crash);
    assert.ok((o.heapAfterMB ?? 0) < 48, `heap+ArrayBuffers after the run ${Math.round(o.heapAfterMB ?? 0)} MB`);
  });
});

describe('page tree', () => {
  for (const c of ['2147483647', '-1', '1e300', '(two)', '0']) {
    test(`/Count ${c} is ignored: the pages are counted from the tree`, async () => {
      const { report } = await run(hostile.countLie(c));
      assert.equal(report.pageCount, 2);
      assert.deepEqual(
        report.pages.map((p) => p.route),
        ['text', 'text'],
      );
    });
  }

  test('a root that lists itself: the cycle is skipped, its page kept', async () => {
    const { report } = await run(hostile.pageTreeCycle('self'));
    assert.equal(report.pageCount, 1);
    assert.equal(page(report).route, 'text');
    assert.match(report.notes.join('\n'), /cycle/);
  });

  test('an intermediate node that lists the root', async () => {
    const { report } = await run(hostile.pageTreeCycle('grandchild'));
    assert.equal(report.pageCount, 1);
    assert.equal(page(report).route, 'text');
  });

  test('no usable tree and a /Parent chain that loops: the page is found by scanning', async () => {
    const { report } = await run(hostile.pageTreeCycle('parent-loop'));
    assert.equal(report.pageCount, 1);
    assert.deepEqual(page(report).evidence.boxes.mediaBox, [0, 0, 300, 300]);
  });

  test('200,000 kids: maxPages (100,000) caps the page list', async () => {
    const { report } = await run(hostile.manyPages(200_000), { timeBudgetMs: 1000 });
    assert.equal(report.pageCount, 100_000);
    assert.equal(report.routeCounts.unknown + report.routeCounts.text, 100_000);
  });

  test('more pages than maxPages: the rest are not analysed, with a note', async () => {
    const { report } = await run(hostile.manyPages(5000), { maxPages: 1000 });
    assert.equal(report.pageCount, 1000);
    assert.match(report.notes.join('\n'), /more than 1000 pages/);
  });
});

describe('time budget and operator floods', () => {
  test('2.5 million operators stop at maxOpsPerPage with too-many-operators', async () => {
    const { report } = await run(hostile.operatorFlood(2_500_000, 'q Q'), { timeBudgetMs: 10_000 });
    assert.equal(page(report).route, 'unknown');
    assert.deepEqual(page(report).reasons, ['too-many-operators']);
    assert.ok(page(report).evidence.operators <= 2_000_000 + 4096);
  });

  test('an operator flood under a small budget stops with budget-exceeded, in time', async () => {
    const { report, ms } = await run(hostile.operatorFlood(1_500_000, 'BT /F1 1 Tf (x) Tj ET /Im Do'), { timeBudgetMs: 100 });
    assert.equal(page(report).route, 'unknown');
    assert.deepEqual(page(report).reasons, ['budget-exceeded']);
    assert.ok(ms < 100 + MARGIN_MS);
  });

  test('pages not reached within the budget are unknown with budget-exceeded; the others keep their routes', async () => {
    const { report } = await run(hostile.manyPages(30_000, 50), { timeBudgetMs: 300 });
    assert.equal(report.pageCount, 30_000);
    assert.equal(report.pages[0].route, 'text');
    const last = report.pages[report.pages.length - 1];
    assert.equal(last.route, 'unknown');
    assert.deepEqual(last.reasons, ['budget-exceeded']);
    assert.ok(report.routeCounts.unknown > 0 && report.routeCounts.text > 0);
  });
});

describe('inputs that are not PDFs', () => {
  test('non-byte inputs and garbage return an error report, never throw', () => {
    for (const x of [null, undefined, 'a string', 42, {}, new ArrayBuffer(8), [37, 80, 68, 70]]) {
      const r = analyzePdfSync(x as Uint8Array);
      assert.equal(r.error?.reason, 'not-a-pdf');
      assert.deepEqual(checkInvariants(r), []);
    }
    for (const s of ['', '%PDF-', '%PDF-1.7\n', '%PDF-1.7\n1 0 obj\n<<', 'trailer << /Root 1 0 R >>', 'xref\n0 99999999999\n']) {
      const r = analyzePdfSync(new Uint8Array(Buffer.from(s, 'latin1')));
      assert.ok(r.error, s);
      assert.deepEqual(checkInvariants(r), [], s);
    }
  });
});

describe('interpreter bounds leave a note', () => {
  test('operands past maxOperands and q nesting past maxSaveDepth are dropped with a note, the text still counted', () => {
    const text = 'BT /F1 12 Tf 72 700 Td (' + 'Readable text on the page '.repeat(4) + ') Tj ET\n';
    const numbers = Array.from({ length: 40 }, (_, i) => String(i)).join(' ') + ' n\n';
    const nested = 'q '.repeat(20) + 'Q '.repeat(20) + '\n';
    const { bytes } = docWith([{ content: numbers + nested + text }]);
    const quiet = analyzePdfSync(bytes());
    assert.equal(allNotes(quiet), '', 'within the defaults nothing is dropped');
    const r = analyzePdfSync(bytes(), { maxOperands: 16, maxSaveDepth: 8 });
    const notes = allNotes(r);
    assert.match(notes, /more than 16 operands before one operator: the rest were dropped \(maxOperands\)/);
    assert.match(notes, /q nested deeper than 8: the deeper states were not saved \(maxSaveDepth\)/);
    assert.equal(notes.split('maxOperands').length - 1, 1, 'once per page');
    assert.equal(page(r).route, 'text');
  });
});

describe('the fuzzer checks the layer-quality evidence too', () => {
  test('the OCR-layer fixture passes; a NaN signal, a fourth key, a bad likelihood or too many missing-text boxes do not', () => {
    const bytes = new Uint8Array(readFileSync(join(ROOT, 'test', 'fixtures', 'e2e', 'layer-quality.pdf')));
    const good = analyzePdfSync(bytes, LAYER_QUALITY_OPTIONS);
    assert.deepEqual(checkInvariants(good), []);
    const p4 = good.pages[3].evidence;
    assert.ok(p4.layerQuality && p4.textLayer?.missingText?.length, 'the fixture has a score and regions of missing text to check');
    const broken = (edit: (r: DocumentReport) => void) => {
      const r = structuredClone(good);
      edit(r);
      return checkInvariants(r);
    };
    assert.match(broken((r) => (r.pages[3].evidence.layerQuality!.signals.textError = Number.NaN)).join(), /signal textError/);
    assert.match(broken((r) => Object.assign(r.pages[3].evidence.layerQuality!, { extra: 1 })).join(), /layerQuality keys/);
    assert.match(broken((r) => (r.pages[3].evidence.textLayer!.runs[0].likelihood = 2)).join(), /likelihood/);
    assert.match(
      broken((r) => (r.pages[3].evidence.textLayer!.missingText = Array.from({ length: MAX_MISSING_REGIONS + 1 }, () => [0, 0, 1, 1]))).join(),
      /missingText/,
    );
    assert.match(broken((r) => (r.pages[3].evidence.textLayer!.missingText = [[5, 0, 1, 1]])).join(), /missing-text box/);
  });
});
