// The real-OCR split's labels rest on these two helpers: the dev split README's normalisation and the edit distance
// its CER is measured with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { levenshtein, mergeLabels, normalise } from '../scripts/ocr-layers-build';

test('normalise folds what the dev split folds: NFKC, dashes, quotes, soft hyphens, white space', () => {
  assert.equal(normalise('  ﬁne\u00ad-tuned \u2014 \u201cquoted\u201d \u2018it\u2019s\u2019\n\n\tnext  '), "fine-tuned - \"quoted\" 'it's' next");
  assert.equal(normalise('a\u2212b\u2013c'), 'a-b-c');
  assert.equal(normalise(''), '');
});

test('levenshtein counts substitutions, insertions and deletions, and is symmetric', () => {
  assert.equal(levenshtein('kitten', 'sitting'), 3);
  assert.equal(levenshtein('sitting', 'kitten'), 3);
  assert.equal(levenshtein('', 'abc'), 3);
  assert.equal(levenshtein('abc', ''), 3);
  assert.equal(levenshtein('same', 'same'), 0);
  assert.equal(levenshtein('ab', 'ba'), 2);
  // against the plain definition on random strings
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const word = () => Array.from({ length: Math.floor(rnd() * 9) }, () => 'abc'[Math.floor(rnd() * 3)]).join('');
  const slow = (a: string, b: string): number =>
    !a.length
      ? b.length
      : !b.length
        ? a.length
        : Math.min(slow(a.slice(1), b) + 1, slow(a, b.slice(1)) + 1, slow(a.slice(1), b.slice(1)) + (a[0] === b[0] ? 0 : 1));
  for (let i = 0; i < 60; i++) {
    const a = word();
    const b = word();
    assert.equal(levenshtein(a, b), slow(a, b), `${a} / ${b}`);
  }
});

test('mergeLabels pools splits: names from different seeds stay apart, each label keeps its pages', () => {
  const one = '{"file":"files/001-a.pdf","pages":[{"page":1,"cer":0.1}]}\n{"file":"files/002-b.pdf","pages":[{"page":1,"cer":0.4}]}\n';
  const two = '{"file":"files/001-a.pdf","pages":[{"page":1,"cer":0.02}]}\n\n';
  const { labels, files } = mergeLabels([one, two]);
  const docs = labels
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { file: string; pages: { page: number; cer: number }[] });
  assert.deepEqual(
    docs.map((d) => d.file),
    ['files/s1-001-a.pdf', 'files/s1-002-b.pdf', 'files/s2-001-a.pdf'],
  );
  assert.deepEqual(
    docs.map((d) => d.pages[0].cer),
    [0.1, 0.4, 0.02],
  );
  assert.deepEqual(files, [
    { from: 'files/001-a.pdf', to: 's1-001-a.pdf', split: 0 },
    { from: 'files/002-b.pdf', to: 's1-002-b.pdf', split: 0 },
    { from: 'files/001-a.pdf', to: 's2-001-a.pdf', split: 1 },
  ]);
  assert.deepEqual(mergeLabels([]), { labels: '', files: [] });
});
