import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from '../scripts/fuzz';
import {
  caesar,
  confuse,
  dropLines,
  glueWords,
  layIntoSpan,
  otherPage,
  shuffleLines,
  splitWords,
  substitute,
  wer,
  wordF1,
} from '../scripts/ocr-synth-build';
import type { Line } from '../scripts/ocr-layer-writer';

const TEXT = 'The quick brown fox jumps over the lazy dog while modern clerks model old words';
const page = (n: number, tag = 'w'): Line[] =>
  Array.from({ length: n }, (_, i) => ({
    top: 10 * i,
    bottom: 10 * i + 9,
    base: 10 * i + 7,
    size: 9,
    words: [0, 1, 2].map((k) => ({ text: `${tag}${i}x${k}`, x1: 10 + 40 * k, x2: 40 + 40 * k })),
  }));
const lineTexts = (ls: Line[]) => ls.map((l) => l.words.map((w) => w.text).join(' '));

test('subst: rate 0 changes nothing, rate 1 changes every non-space character, spaces stay', () => {
  assert.equal(substitute(TEXT, 0, prng(1)), TEXT);
  const all = substitute(TEXT, 1, prng(2));
  assert.equal(all.length, TEXT.length);
  for (let i = 0; i < TEXT.length; i++) assert.ok(TEXT[i] === ' ' ? all[i] === ' ' : all[i] !== TEXT[i], `char ${i}`);
  const some = substitute(TEXT.repeat(20), 0.3, prng(3));
  const changed = [...some].filter((c, i) => c !== TEXT.repeat(20)[i]).length / TEXT.repeat(20).replace(/ /g, '').length;
  assert.ok(changed > 0.2 && changed < 0.4, `changed ${changed}`);
  assert.match(substitute('привет мир', 1, prng(4)), /^[а-яА-Я]{6} [а-яА-Я]{3}$/);
});

test('confusion: rate 0 changes nothing, rate 1 applies the confusions (rn→m, cl→d, m→rn, O→0)', () => {
  assert.equal(confuse(TEXT, 0, prng(1)), TEXT);
  assert.equal(confuse('rn cl m O', 1, prng(1)), 'm d rn 0');
  assert.notEqual(confuse(TEXT, 1, prng(1)), TEXT);
});

test('caesar shifts letters in their alphabet, keeps case and the rest', () => {
  assert.equal(caesar('abc XYZ 123, z!', 3), 'def ABC 123, c!');
  assert.equal(caesar(caesar(TEXT, 11), 15), TEXT);
  assert.equal(caesar('абв Я', 1), 'бвг А');
});

test('drop removes round(frac × lines) lines, one run in block mode, the rest in order', () => {
  const ls = page(20);
  for (const mode of ['block', 'random'] as const) {
    const kept = dropLines(ls, 0.3, mode, prng(5));
    assert.equal(kept.length, 14);
    const idx = kept.map((l) => ls.indexOf(l));
    assert.deepEqual(
      idx,
      [...idx].sort((a, b) => a - b),
    );
    if (mode === 'block') {
      const gone = ls.map((_, i) => i).filter((i) => !idx.includes(i));
      assert.equal(gone[gone.length - 1] - gone[0], 5, 'one run');
    }
  }
  assert.equal(dropLines(ls, 0, 'random', prng(1)).length, 20);
});

test('shuffle keeps the multiset of lines, moves every line, keeps the positions', () => {
  const ls = page(12);
  const sh = shuffleLines(ls, prng(7));
  assert.deepEqual([...lineTexts(sh)].sort(), [...lineTexts(ls)].sort());
  lineTexts(sh).forEach((t, i) => assert.notEqual(t, lineTexts(ls)[i]));
  sh.forEach((l, i) => {
    assert.equal(l.base, ls[i].base);
    assert.equal(l.words[0].x1, ls[i].words[0].x1);
    assert.ok(Math.abs(l.words[l.words.length - 1].x2 - ls[i].words[2].x2) < 1e-9);
  });
});

test('other-page lays the other page’s lines into this page’s lines, in order', () => {
  const mine = page(5, 'a');
  const other = page(3, 'b');
  const out = otherPage(mine, other);
  assert.deepEqual(lineTexts(out), lineTexts(other));
  assert.equal(out[2].base, mine[2].base);
});

test('layIntoSpan shares the span out by length', () => {
  const w = layIntoSpan(['ab', 'abcd'], 0, 70);
  assert.deepEqual(
    w.map((x) => [x.x1, x.x2]),
    [
      [0, 20],
      [30, 70],
    ],
  );
});

test('no-space glues words into one wider box; space-inserted splits words of 4+ letters', () => {
  const ls = page(3);
  const glued = glueWords(ls, 1, prng(1));
  assert.deepEqual(
    glued.map((l) => l.words.length),
    [1, 1, 1],
  );
  assert.equal(glued[0].words[0].text, 'w0x0w0x1w0x2');
  assert.equal(glued[0].words[0].x2, ls[0].words[2].x2);
  assert.deepEqual(lineTexts(glueWords(ls, 0, prng(1))), lineTexts(ls));
  const split = splitWords(
    [
      {
        ...ls[0],
        words: [
          { text: 'abcdef', x1: 0, x2: 60 },
          { text: 'abc', x1: 70, x2: 100 },
        ],
      },
    ],
    1,
    prng(3),
  );
  assert.equal(split[0].words.length, 3);
  assert.equal(split[0].words[0].text + split[0].words[1].text, 'abcdef');
  assert.equal(split[0].words[1].x2, 60);
  assert.equal(split[0].words[2].text, 'abc');
});

test('labels: WER and bag-of-words F1', () => {
  assert.equal(wer('a b c', 'a b c'), 0);
  assert.equal(wer('a x c', 'a b c'), 1 / 3);
  assert.equal(wordF1('c b a', 'a b c'), 1);
  assert.equal(wordF1('a b', 'a b c d'), 2 / 3);
});
