// The CLI's --layer-quality and --text-layer flags (issue 16): off, records and tables are as before; on, ocr-layer
// pages carry layerQuality { score, reocr, signals }, the table a 'layer' column and a re-OCR count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../src/cli/args';
import { formatTable, reocrWhy } from '../src/cli/table';
import { analyzePdfSync } from '../src/analyzer/index';
import { fileRecord } from '../src/analyzer/serialize';
import { makePdf } from './pdf-helpers';
import { MISSING } from '../src/analyzer/layerQuality/index';

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
  const off = JSON.parse(run('--json')) as { reocrPages?: number[]; pages: Record<string, unknown>[] };
  assert.equal('reocrPages' in off, false, 'no document-level re-OCR list without the option');
  for (const p of off.pages) {
    assert.equal(p.layerQuality, undefined);
    assert.equal(p.textLayer, undefined);
  }
  assert.ok(!run('-p').includes('layer quality'));
  const on = JSON.parse(run('--json', '--layer-quality')) as {
    reocrPages?: number[];
    pages: { page: number; route: string; layerQuality?: { score: number; reocr: boolean; signals: object } }[];
  };
  assert.deepEqual(
    on.reocrPages,
    on.pages.filter((p) => p.layerQuality?.reocr).map((p) => p.page),
  );
  const layered = on.pages.filter((p) => p.route === 'ocr-layer');
  assert.ok(layered.length > 0);
  for (const p of layered) {
    assert.deepEqual(Object.keys(p.layerQuality!).sort(), ['reocr', 'score', 'signals']);
    assert.ok(p.layerQuality!.score >= 0 && p.layerQuality!.score <= 1);
  }
  const table = run('-p', '--layer-quality');
  assert.match(table, /page {2}route .* layer /);
  assert.match(table, /layer quality: \d+ pages? to keep, \d+ to re-OCR/);
  // the fixture's scan is one flat grey: its layer is judged by its words alone, and the table says so
  assert.match(table, /\n {4}judged by the words alone on page 1: the scan image shows no contrast\n/);
  assert.match(table, /\d+ to re-OCR · /);
  const text = JSON.parse(run('--json', '--text-layer')) as { pages: { textLayer?: { text: string; runs: unknown[] } }[] };
  assert.ok(text.pages.some((p) => p.textLayer && p.textLayer.runs.length > 0 && p.textLayer.text.length > 0));
});

test('--text-layer with --layer-quality says where the scan has text the layer lacks: on the partial layer only, never without the score', (t) => {
  if (!existsSync(CLI)) {
    t.skip('dist/cli.js is missing (npm test builds it first)');
    return;
  }
  // p1 and p3 a good layer over the whole paragraph, p2 garbage over it, p4 only its first line (test/fixtures/e2e/README.md)
  const fixture = join(ROOT, 'test', 'fixtures', 'e2e', 'layer-quality.pdf');
  const records = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, 'classify', '--json', ...args, fixture], { encoding: 'utf8' });
    assert.equal(r.status === 0 || r.status === 1, true, r.stderr);
    return (
      JSON.parse(r.stdout) as {
        pages: {
          page: number;
          layerQuality?: { signals: Record<string, unknown> };
          textLayer?: { runs: { rect: number[] }[]; missingText?: number[][] };
        }[];
      }
    ).pages;
  };
  const pages = records('--layer-quality', '--text-layer');
  for (const p of pages.filter((q) => q.page !== 4)) assert.equal(p.textLayer?.missingText, undefined, `page ${p.page}`);
  const partial = pages.find((p) => p.page === 4)!;
  const regions = partial.textLayer!.missingText!;
  // the paragraph's other lines, each one region (its words joined): wide, short, one under the other
  assert.ok(regions.length >= 3 && regions.length <= 32, JSON.stringify(regions));
  for (const [x0, y0, x1, y1] of regions) assert.ok(x1 - x0 > 10 * (y1 - y0), JSON.stringify(regions));
  assert.ok((partial.layerQuality!.signals.textInkMissed as number) > 0.5);
  // the estimate's missing part is reported where the scan was read, and only there (p5 is born-digital text)
  const inkMissed = partial.layerQuality!.signals.textInkMissed as number;
  assert.ok(Math.abs((partial.layerQuality!.signals.textMissing as number) - (inkMissed - MISSING.floor) * MISSING.slope) < 0.002);
  assert.equal(pages.find((p) => p.page === 1)!.layerQuality!.signals.textMissing, 0);
  assert.equal(pages.find((p) => p.page === 5)!.layerQuality!.signals.textMissing, undefined);
  // the regions lie below the layer's only line, inside the page
  const lineBottom = Math.min(...partial.textLayer!.runs.map((r) => r.rect[1]));
  for (const [x0, y0, x1, y1] of regions)
    assert.ok(x0 >= 0 && x1 <= 612 && y0 < y1 && y1 <= lineBottom + 1, JSON.stringify([x0, y0, x1, y1, lineBottom]));
  // without the score there is no such evidence
  for (const p of records('--text-layer')) assert.equal(p.textLayer?.missingText, undefined);
});

test('the table says why each page is advised re-OCR: text missing, words wrong, or what else decided it', () => {
  const q = (signals: Record<string, number>) => ({ score: 0.2, reocr: true, signals });
  assert.equal(reocrWhy(q({ textMissing: 0.81, textError: 0.05 })), "text missing: 81% of the page's text is not in the layer");
  assert.equal(reocrWhy(q({ textMissing: 0, textError: 1 })), 'words wrong: an estimated 100% of the characters there');
  // a shifted alphabet (signals.shift) says how far its letters stand off; a shift that is no whole number of places
  // along an alphabet is not said
  assert.equal(
    reocrWhy(q({ textMissing: 0, textError: 0.7, shift: 3 })),
    'words wrong: an estimated 70% of the characters there, its letters shifted 3 places along the alphabet',
  );
  for (const shift of [0, 2.5, 40])
    assert.equal(reocrWhy(q({ textMissing: 0, textError: 0.7, shift })), 'words wrong: an estimated 70% of the characters there');
  assert.equal(
    reocrWhy(q({ textMissing: 0.43, textError: 0.22 })),
    "text missing: 43% of the page's text is not in the layer; words wrong: an estimated 22% of the characters there",
  );
  // without the estimate's parts: the undecodable characters, else the estimate itself
  assert.equal(reocrWhy(q({ badShare: 0.04 })), 'characters that do not decode: 4%');
  assert.equal(reocrWhy(q({ estimatedCer: 0.3 })), 'estimated character error 30%');
});

test('the table says which pages were kept on incomplete evidence, and why an ocr page is advised re-OCR', () => {
  // a page-covering flat grey scan (no ink evidence either way) under hidden text: `words` hidden characters
  const flat = new Uint8Array(64 * 64).fill(200);
  const image = `<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /BitsPerComponent 8 /ColorSpace /DeviceGray /Length ${flat.length} >>\nstream\n${Buffer.from(flat).toString('latin1')}\nendstream`;
  const table = (hidden: string) =>
    formatTable(
      fileRecord(
        'a.pdf',
        analyzePdfSync(
          makePdf(
            `q 612 0 0 792 0 0 cm /Im1 Do Q BT 3 Tr /F1 10 Tf 72 700 Td (${hidden}) Tj ET`,
            '<< /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >>',
            [image, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
          ),
          { layerQuality: true },
        ),
      ),
      false,
    );
  // an ocr-layer page of five words: kept, and the table says the keep is no judgement
  assert.match(
    table('Page 7 of the annual report, filed with the registry'),
    /layer quality: 1 page to keep, 0 to re-OCR\n {4}page 1 kept on incomplete evidence \(score at most 0\.75\): too little text to judge; scan: the scan image shows no contrast$/,
  );
  // an ocr page (too few hidden characters to route as a layer): re-OCR, the route's reason first
  assert.match(
    table('Page 7'),
    /layer quality: 0 pages to keep, 1 to re-OCR \(pages 1\)\n {4}page 1: too few hidden characters to route as an OCR layer \(the page goes to OCR\)$/,
  );
});

test('on the e2e fixture the table names page 2 words wrong and page 4 text missing', (t) => {
  if (!existsSync(CLI)) {
    t.skip('dist/cli.js is missing (npm test builds it first)');
    return;
  }
  const r = spawnSync(process.execPath, [CLI, 'classify', '-p', '--layer-quality', join(ROOT, 'test', 'fixtures', 'e2e', 'layer-quality.pdf')], {
    encoding: 'utf8',
  });
  assert.match(r.stdout, /layer quality: 3 pages to keep, 2 to re-OCR \(pages 2, 4\)\n {4}page 2: words wrong: .*\n {4}page 4: text missing: /);
});

test('reocrPages: the pages advised re-OCR, beside ocrPages, whenever the score is on (empty when none); absent when it is off', (t) => {
  // p2 garbage over the paragraph and p4 only its first line are advised re-OCR (test/fixtures/e2e/README.md)
  const bytes = new Uint8Array(readFileSync(join(ROOT, 'test', 'fixtures', 'e2e', 'layer-quality.pdf')));
  const on = analyzePdfSync(bytes, { layerQuality: true });
  assert.deepEqual(on.reocrPages, [2, 4]);
  assert.equal(analyzePdfSync(bytes).reocrPages, undefined);
  assert.deepEqual(
    analyzePdfSync(
      makePdf('BT /F1 12 Tf 72 700 Td (Hello there, plain text.) Tj ET', '<< /Font << /F1 5 0 R >> >>', [
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      ]),
      { layerQuality: true },
    ).reocrPages,
    [],
  );
  assert.deepEqual(
    analyzePdfSync(new TextEncoder().encode('not a pdf'), { layerQuality: true }).reocrPages,
    [],
    'an unreadable file: none advised, the list still there',
  );
  const keys = Object.keys(fileRecord('x.pdf', on));
  assert.deepEqual(keys.slice(keys.indexOf('ocrPages'), keys.indexOf('ocrPages') + 2), ['ocrPages', 'reocrPages']);
  if (!existsSync(CLI)) {
    t.skip('dist/cli.js is missing (npm test builds it first)');
    return;
  }
  const r = spawnSync(process.execPath, [CLI, 'classify', '--json', '--layer-quality', join(ROOT, 'test', 'fixtures', 'e2e', 'layer-quality.pdf')], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { reocrPages: number[] }).reocrPages, [2, 4]);
});
