import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languageEvidence, normaliseForModel } from '../src/analyzer/layerQuality/language';

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
