/**
 * The accuracy ratchet: every document recorded in test/accuracy-baseline.json must still agree with the corpus
 * labels on its needs-OCR decision and OCR page list. Skips (with a message) when ../shared/corpus is absent.
 * `npm run accuracy -- --write-baseline` raises the baseline; never lower it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CORPUS_DIR, checkFile, corpusPresent, loadLabels } from '../scripts/accuracy-lib';

const baseline = JSON.parse(readFileSync(new URL('./accuracy-baseline.json', import.meta.url), 'utf8')) as { documents: string[] };

test('accuracy ratchet: baseline documents still agree with the corpus labels', (t) => {
  if (!corpusPresent()) {
    t.skip(`corpus not found at ${CORPUS_DIR}`);
    return;
  }
  const labels = new Map(loadLabels().map((l) => [l.file, l]));
  assert.ok(baseline.documents.length > 0, 'the baseline lists documents');
  const regressed: string[] = [];
  for (const file of baseline.documents) {
    const label = labels.get(file);
    if (!label) continue; // the corpus dropped the file: nothing to compare
    const r = checkFile(label);
    if (!r.docAgrees)
      regressed.push(
        `${file}: label ocrPages=[${label.ocrPages ?? ''}] ours=[${r.report.ocrPages}]${r.report.error ? ` (${r.report.error.reason})` : ''}`,
      );
  }
  assert.deepEqual(regressed, [], `documents that stopped agreeing:\n${regressed.join('\n')}`);
});
