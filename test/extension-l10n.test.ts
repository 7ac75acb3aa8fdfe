// The pure modules' strings go through l10n.t(): vscode.l10n.t in the host, a plain formatter elsewhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMessage, setTranslator, t } from '../src/extension/l10n';
import { countsText, pageEvidenceLines, problemsOf, statusText, verdictOf } from '../src/extension/model';
import { fortyPages } from './extension-helpers';

test('formatMessage fills {0}, {1}… and leaves a placeholder without an argument', () => {
  assert.equal(formatMessage('Page {0} of {1}', [3, 'x.pdf']), 'Page 3 of x.pdf');
  assert.equal(formatMessage('{1}{0}{1}', ['a', 'b']), 'bab');
  assert.equal(formatMessage('no {2} here', ['a']), 'no {2} here');
  assert.equal(t('plain'), 'plain');
});

test("the tree's, the status bar's and the Problems' strings go through the translator", () => {
  const report = fortyPages();
  const english = { verdict: verdictOf(report, false).summary, status: statusText(report, false), counts: countsText(report.routeCounts) };
  const seen: string[] = [];
  const old = setTranslator((message, args) => {
    seen.push(message);
    return `«${formatMessage(message, args)}»`;
  });
  try {
    assert.notEqual(verdictOf(report, false).summary, english.verdict);
    assert.match(statusText(report, false), /^«PDF: /);
    assert.notEqual(countsText(report.routeCounts), english.counts);
    const lines = pageEvidenceLines(report.pages[0]);
    assert.ok(
      lines.every((l) => l.startsWith('«')),
      lines.join(' / '),
    );
    const problems = problemsOf(report, new Set(['ocr', 'review', 'unknown', 'ocr-layer', 'blank']), false);
    assert.ok(problems.length > 0 && problems.every((p) => p.message.startsWith('«')));
    // the keys are the English messages with placeholders, as vscode.l10n wants them
    assert.ok(seen.includes('PDF: {0}') && seen.includes('Pages {0} need OCR: {1}'));
  } finally {
    setTranslator(old);
  }
  assert.equal(verdictOf(report, false).summary, english.verdict, 'back to the plain formatter');
});
