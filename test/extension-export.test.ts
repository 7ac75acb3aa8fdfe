import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileRecord } from '../src/analyzer/serialize';
import { csvCell, CSV_COLUMNS, EXPORT_CSV_COLUMNS, formatForPath, LAYER_CSV_COLUMNS, toCsv, toJson, toJsonLines } from '../src/shared/export';
import { fortyPages, page, report } from './extension-helpers';

test('JSON lines: one fileRecord per file, the CLI shape', () => {
  const a = fortyPages();
  const b = report([], { error: { reason: 'damaged', message: 'no xref' } });
  const text = toJsonLines([
    { file: 'docs/a.pdf', report: a },
    { file: 'b.pdf', report: b },
  ]);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.deepEqual(JSON.parse(lines[0]), JSON.parse(JSON.stringify(fileRecord('docs/a.pdf', a))));
  assert.equal(JSON.parse(lines[1]).error.reason, 'damaged');
  assert.ok(text.endsWith('\n'));
  assert.deepEqual(JSON.parse(toJson({ file: 'x', report: a })), JSON.parse(lines[0].replace('docs/a.pdf', 'x')));
});

test('CSV: header, one row per page, a row for an unreadable file', () => {
  const csv = toCsv([
    { file: 'a.pdf', report: report([page(1, 'text', ['text-layer']), page(2, 'ocr', ['image-only'])]) },
    { file: 'b.pdf', report: report([], { error: { reason: 'password-required', message: 'needs a password, "really"' } }) },
  ]);
  const rows = csv.trimEnd().split('\r\n');
  assert.equal(rows[0], EXPORT_CSV_COLUMNS.join(','));
  assert.equal(rows.length, 4);
  assert.match(rows[1], /^a\.pdf,1,text,text-layer,1200,/);
  assert.match(rows[2], /^a\.pdf,2,ocr,image-only,0,0,0,0,1,0\.98,1,0,0,0,1\.7,false,,,$/);
  assert.equal(rows[3], 'b.pdf,,unknown,password-required,,,,,,,,,,,1.7,false,"password-required: needs a password, ""really""",,');
});

test('CSV cells: quoting and spreadsheet formula guard', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('=HYPERLINK("http://x")'), '"\'=HYPERLINK(""http://x"")"');
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell('@cmd'), "'@cmd");
  assert.equal(csvCell(-3), '-3');
  assert.equal(csvCell(Number.NaN), '');
  assert.equal(csvCell(undefined), '');
});

test('export format from the chosen file name', () => {
  assert.equal(formatForPath('/x/report.CSV'), 'csv');
  assert.equal(formatForPath('/x/report.jsonl'), 'jsonl');
  assert.equal(formatForPath('/x/report'), 'jsonl');
});

const lq = (score: number, reocr: boolean) => ({ layerQuality: { score, reocr, signals: { wordLike: 0.1 } } });

test('CSV: the layer score and re-OCR advice are appended after the old columns, in their order', () => {
  assert.deepEqual(EXPORT_CSV_COLUMNS.slice(0, CSV_COLUMNS.length), [...CSV_COLUMNS], 'the existing columns keep their order');
  assert.deepEqual(EXPORT_CSV_COLUMNS.slice(CSV_COLUMNS.length), ['layerScore', 'reocr']);
  assert.deepEqual([...LAYER_CSV_COLUMNS], ['layerScore', 'reocr']);
  const csv = toCsv([
    {
      file: 'a.pdf',
      report: report([
        page(1, 'ocr-layer', ['invisible-text-over-scan'], lq(0.31, true)),
        page(2, 'ocr-layer', ['invisible-text-over-scan'], lq(0.97, false)),
        page(3, 'ocr', ['image-only']),
        page(4, 'text', ['text-layer'], lq(0.99, false)),
      ]),
    },
  ]);
  const cells = csv
    .trimEnd()
    .split('\r\n')
    .map((r) => r.split(','));
  const at = (name: string) => EXPORT_CSV_COLUMNS.indexOf(name as (typeof EXPORT_CSV_COLUMNS)[number]);
  for (const c of cells) assert.equal(c.length, EXPORT_CSV_COLUMNS.length, 'every row has every column');
  assert.deepEqual([cells[1][at('layerScore')], cells[1][at('reocr')]], ['0.31', 'true']);
  assert.deepEqual([cells[2][at('layerScore')], cells[2][at('reocr')]], ['0.97', 'false']);
  assert.deepEqual([cells[3][at('layerScore')], cells[3][at('reocr')]], ['', ''], 'not scored: empty');
  // a text page's score is exported too (only the extension's grades are for OCR layers)
  assert.deepEqual([cells[4][at('layerScore')], cells[4][at('reocr')]], ['0.99', 'false']);
});

test("JSON lines: the layer score and advice are the analyzer's layerQuality fields (score, reocr), as --json writes them", () => {
  const r = report([page(1, 'ocr-layer', ['invisible-text-over-scan'], lq(0.31, true)), page(2, 'ocr', ['image-only'])]);
  const [line] = toJsonLines([{ file: 'a.pdf', report: r }])
    .trimEnd()
    .split('\n');
  const rec = JSON.parse(line);
  assert.deepEqual(rec.pages[0].layerQuality, { score: 0.31, reocr: true, signals: { wordLike: 0.1 } });
  assert.equal(rec.pages[1].layerQuality, undefined);
  assert.deepEqual(rec, JSON.parse(JSON.stringify(fileRecord('a.pdf', r))), 'the same record as the CLI');
});
