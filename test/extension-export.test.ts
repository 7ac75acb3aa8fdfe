import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileRecord } from '../src/analyzer/serialize';
import { csvCell, CSV_COLUMNS, formatForPath, toCsv, toJson, toJsonLines } from '../src/shared/export';
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
  assert.equal(rows[0], CSV_COLUMNS.join(','));
  assert.equal(rows.length, 4);
  assert.match(rows[1], /^a\.pdf,1,text,text-layer,1200,/);
  assert.match(rows[2], /^a\.pdf,2,ocr,image-only,0,0,0,0,1,0\.98,1,0,0,0,1\.7,false,$/);
  assert.equal(rows[3], 'b.pdf,,unknown,password-required,,,,,,,,,,,1.7,false,"password-required: needs a password, ""really"""');
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
