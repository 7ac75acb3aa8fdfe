// Issue 12, robustness round 2: every limit ends in "can't tell", in bounded time and memory, and no page is lost
// silently. One or more constructed cases per class of the issue that lives in the document and routing layers (the
// xref, decoder, font and CLI classes have their own suites). Each runs in a child process with a hard kill, must
// end within its budget plus slack, and must give the route the rules demand.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AnalyzerOptions } from '../src/analyzer/options';
import type { DocumentReport } from '../src/analyzer/types';
import { IsolatedAnalyzer, PdfBuilder, docWith, hostile } from '../scripts/fuzz';

const iso = new IsolatedAnalyzer(undefined, true);
after(() => iso.close());
const HARD_MS = 30_000;
const SLACK_MS = 15_000;

async function run(bytes: Uint8Array, options: Partial<AnalyzerOptions> = {}): Promise<DocumentReport> {
  const o = await iso.analyze(bytes, options, HARD_MS, true);
  assert.ok(!o.killed, `no answer within ${HARD_MS} ms`);
  assert.equal(o.crash, undefined, o.crash);
  assert.deepEqual(o.violations, [], 'report invariants (no confident route but text behind a limit, among others)');
  assert.ok(o.ms! <= (options.timeBudgetMs ?? 20_000) + SLACK_MS, `took ${Math.round(o.ms!)} ms`);
  assert.ok((o.heapAfterMB ?? 0) < 1024, `heap+ArrayBuffers ${Math.round(o.heapAfterMB ?? 0)} MB`);
  return o.report!;
}

const TEXT = 'BT /F1 12 Tf 72 700 Td (The quick brown fox jumps over the lazy dog, twice over and once more.) Tj ET';
const IMAGE = '/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 8';
const imageBehindLargeForm = (padBytes: number) => hostile.imageBehindLargeForm(padBytes);

describe('a limit never hides behind a confident route', () => {
  test('a page whose only image sits behind a stream over maxStreamBytes is unknown (stream-too-large), not blank', async () => {
    const r = await run(imageBehindLargeForm(3 << 20), { maxStreamBytes: 1 << 20 });
    assert.equal(r.pages[0].route, 'unknown');
    assert.ok(r.pages[0].reasons.includes('stream-too-large'), JSON.stringify(r.pages[0].reasons));
    // the same page within the cap is the scan it is
    const ok = await run(imageBehindLargeForm(3 << 20), { maxStreamBytes: 8 << 20 });
    assert.equal(ok.pages[0].route, 'ocr');
  });

  test('a page whose image is inside forms nested deeper than maxFormDepth is unknown (form-depth-exceeded)', async () => {
    const r = await run(hostile.formChain(14));
    assert.equal(r.pages[0].route, 'unknown');
    assert.ok(r.pages[0].reasons.includes('form-depth-exceeded'), JSON.stringify(r.pages[0].reasons));
    const shallow = await run(hostile.formChain(3));
    assert.equal(shallow.pages[0].route, 'ocr');
  });

  test('a decompression bomb as the only content is unknown, not blank', async () => {
    const r = await run(hostile.flateBomb(128, 2));
    assert.equal(r.pages[0].route, 'unknown');
    assert.ok(r.pages[0].reasons.includes('stream-too-large'));
  });

  test('text already decoded past the threshold stands, with the limit in its reasons', async () => {
    const b = new PdfBuilder();
    const pad = '%' + 'y'.repeat(120) + '\n';
    const big = b.flate('', pad.repeat(Math.ceil((2 << 20) / pad.length)));
    const first = b.stream('', TEXT);
    const { bytes } = docWith([{ content: first }], b);
    // the page's /Contents is the text stream followed by the oversized one
    const pdf = new TextDecoder('latin1').decode(bytes()).replace(`/Contents ${first} 0 R`, `/Contents [${first} 0 R ${big} 0 R]`);
    const r = await run(
      Uint8Array.from(pdf, (c) => c.charCodeAt(0)),
      { maxStreamBytes: 1 << 20, maxPageBytes: 1 << 20 },
    );
    assert.equal(r.pages[0].route, 'text');
    assert.ok(r.pages[0].reasons.includes('stream-too-large'), JSON.stringify(r.pages[0].reasons));
  });

  test('the report names the limit that ran out and the stage', async () => {
    // forms drawing each other 8 times, 10 deep, in unfiltered streams: the interpreter, not a decoder, runs out
    const r = await run(hostile.formChain(10, 8), { timeBudgetMs: 200, maxOpsPerPage: 1e9 });
    assert.equal(r.pages[0].route, 'unknown');
    assert.deepEqual(r.limit, { reason: 'budget-exceeded', stage: 'content' });
    // a compressed flood under the same budget runs out while it is still being inflated: the stage says so
    const flood = await run(hostile.operatorFlood(3_000_000, '1 0 0 1 0 0 cm'), { timeBudgetMs: 50, maxOpsPerPage: 1e9 });
    assert.equal(flood.pages[0].route, 'unknown');
    assert.deepEqual(flood.limit, { reason: 'budget-exceeded', stage: 'decode' });
  });
});

describe('no page lost silently', () => {
  const truncatedAfterPage1 = (): Uint8Array => hostile.truncatedAfterPage1(3);

  test('a 3-page file truncated after page 1 reports 3 pages: 1 read, 2 unknown (page-unreadable), with a note', async () => {
    const r = await run(truncatedAfterPage1());
    assert.equal(r.pageCount, 3);
    assert.deepEqual(
      r.pages.map((p) => p.route),
      ['text', 'unknown', 'unknown'],
    );
    assert.deepEqual(r.pages[1].reasons, ['page-unreadable']);
    assert.match(r.notes.join('\n'), /could not be read/);
  });

  test('a lost intermediate node: /Count says how many pages went with it', async () => {
    // 99 0 R is a node of 4 pages that is not in the file
    const r = await run(hostile.lostPagesNode(5));
    assert.equal(r.pageCount, 5);
    assert.equal(r.pages[0].route, 'text');
    assert.deepEqual(
      r.pages.slice(1).map((p) => p.reasons[0]),
      ['page-unreadable', 'page-unreadable', 'page-unreadable', 'page-unreadable'],
    );
    assert.match(r.notes.join('\n'), /declares 5 pages but 1 could be read/);
  });

  test('the page count does not depend on the time budget', async () => {
    const pdf = hostile.manyPages(3000, 40);
    const slow = await run(pdf, { timeBudgetMs: 20_000 });
    const fast = await run(pdf, { timeBudgetMs: 30 });
    assert.equal(fast.pageCount, slow.pageCount);
    assert.equal(fast.pages.length, 3000);
    assert.ok(
      fast.pages.some((p) => p.reasons.includes('budget-exceeded')),
      'the short budget did run out',
    );
  });
});

describe('a bounded report', () => {
  test('10,000 image boxes on a page: the 500 largest are kept, the count and the coverage use all of them', async () => {
    const b = new PdfBuilder();
    const img = b.stream(IMAGE, '\x80'.repeat(100));
    let content = 'q 300 0 0 300 0 0 cm /Im Do Q\n';
    for (let i = 0; i < 9_999; i++) content += `q 2 0 0 2 ${(i % 100) * 6} ${400 + Math.floor(i / 100) * 3} cm /Im Do Q\n`;
    const { bytes } = docWith([{ content: b.flate('', content), res: `/XObject << /Im ${img} 0 R >>` }], b);
    const r = await run(bytes());
    const e = r.pages[0].evidence;
    assert.equal(e.imageCount, 10_000);
    assert.equal(e.imageBoxes.length, 500);
    assert.ok(
      e.imageBoxes.some((x) => x.rect[2] - x.rect[0] >= 299),
      'the largest box is kept',
    );
    assert.ok(e.imageCoverage > 0.19, `coverage ${e.imageCoverage}`);
  });
});
