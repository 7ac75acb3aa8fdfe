import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Language, languageEvidence, normaliseForModel, wordBits, wordBitsIn } from '../src/analyzer/layerQuality/language';

// languageEvidence reads text in one pass (NFKC only for non-ASCII text, each code point lower-cased alone); it must
// read any text exactly as it reads the text normaliseForModel makes of it, which is how the models were built
test('language evidence reads text as normaliseForModel leaves it', () => {
  const texts = [
    'The quick brown fox jumps over the lazy dog. 1234, (and) -- more! THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG',
    'Die Größe der Straße: ÄÖÜ äöü ß und ẞ.',
    'Le cœur a ses raisons ; l’œuvre, les ﬁlles et la ﬂûte — Ça va ?',
    'ЗАГЛАВНЫЕ и строчные буквы, ёЁ; man KEEP_FORMATTING',
    'İstanbul İİ ǅemal Ǆ ΣΑΣ σας ΌΣΟΣ',
    'emoji 😀 between words, 𝐁𝐨𝐥𝐝 math letters, ① ② ㎏ ﬀ',
    'lone \ud800 surrogate \udc00 and combining e\u0301 a\u0308',
    '   \n\t  ',
    'a',
    'ab',
    'x86 A4 2nd KOMAaHAbI HA3BAHME',
  ];
  for (const t of texts) assert.deepEqual(languageEvidence(t), languageEvidence(normaliseForModel(t)), JSON.stringify(t));
});

test('language evidence reads the first 20,000 characters of a long text', () => {
  const long = 'word '.repeat(3999) + 'tail '.repeat(2000);
  assert.deepEqual(languageEvidence(long), languageEvidence(long.slice(0, 20_000)));
});

// wordBitsIn reads a word in place, each code point lower-cased alone; it must read as wordBits reads the word's own
// string lower-cased whole (how the word pass read words before), on any slice
test('wordBitsIn reads a slice as wordBits reads that slice lower-cased whole', () => {
  const texts = [
    'Everyone has the RIGHT to take part',
    'İstanbul ΣΟΦΊΑΣ Straße ẞIG ǅemal',
    'ЗАГЛАВНЫЕ строчные ёЁ KOMAaHAbI',
    'emoji😀word 𝐁𝐨𝐥𝐝 lone\ud800sur e\u0301te',
    'anjpicdbon corilfralk ﬁnance œuvre',
  ];
  const pairs: [Language, Language][] = [
    ['en', 'de'],
    ['fr', 'ru'],
  ];
  for (const t of texts)
    for (let s = 0; s < t.length; s += 3)
      for (let e = s + 1; e <= Math.min(t.length, s + 14); e++)
        for (const [a, b] of pairs) {
          const want = wordBits(t.slice(s, e).toLowerCase(), a, b);
          const got = wordBitsIn(t, s, e, a, b);
          assert.ok(Object.is(got, want) || got === want, `${JSON.stringify(t.slice(s, e))} ${a}/${b}: ${got} vs ${want}`);
        }
});
