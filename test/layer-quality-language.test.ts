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

// Texts of our own (not from the declaration the models were built on), in languages beyond the core four.
const POLISH =
  'Polecenie kopiuje pliki i katalogi. Jeśli podano więcej niż jeden plik źródłowy, ostatnim argumentem musi być katalog docelowy. Opcje pozwalają zachować uprawnienia, właściciela oraz czas modyfikacji plików. Domyślnie istniejące pliki są nadpisywane bez pytania, chyba że użyto opcji interactive. Gdy katalog docelowy nie istnieje, zostanie utworzony przed skopiowaniem pierwszego pliku, a błędy odczytu są zgłaszane na standardowym wyjściu błędów. Przykład: cp --recursive --preserve source target.';
const CZECH =
  'Příkaz zkopíruje soubory a adresáře. Je-li zadáno více zdrojových souborů, posledním argumentem musí být cílový adresář. Volby umožňují zachovat oprávnění, vlastníka a čas poslední změny souborů. Existující soubory se ve výchozím stavu přepíší bez dotazu. Pokud cílový adresář neexistuje, vytvoří se před zkopírováním prvního souboru a chyby při čtení se vypisují na standardní chybový výstup.';
const HUNGARIAN =
  'A parancs fájlokat és könyvtárakat másol. Ha egynél több forrásfájlt adunk meg, az utolsó argumentumnak célkönyvtárnak kell lennie. A kapcsolókkal megőrizhetők a jogosultságok, a tulajdonos és a módosítás ideje. Alapértelmezés szerint a meglévő fájlokat kérdés nélkül felülírja. Ha a célkönyvtár nem létezik, az első fájl másolása előtt létrejön, az olvasási hibákat pedig a szabványos hibakimenetre írja. A másolás közben a program minden fájl nevét kiírja, ha ezt külön kérjük.';

test('a page that reads clearly as a language beyond the core four is judged under it, its other words under the language that reads them', () => {
  const pl = languageEvidence(POLISH);
  assert.equal(pl.language, 'pl');
  assert.equal(pl.second, 'en', "the page's English options and words are read as English");
  assert.ok(pl.wordLikeEither > 0.6, `Polish words read as words (${pl.wordLikeEither})`);
  // a page longer than the part the languages are told apart on: the language that takes it reads it all
  const long = languageEvidence(`${POLISH} `.repeat(12));
  assert.equal(long.language, 'pl');
  assert.ok(Number.isFinite(long.bitsPerChar) && long.words > 600, `${long.bitsPerChar} ${long.words}`);
  assert.equal(languageEvidence(CZECH).language, 'cs');
  assert.equal(languageEvidence(HUNGARIAN).language, 'hu');
});

test('garbage and the core languages are judged under the core languages, as before the others were added', () => {
  let seed = 5;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const word = (abc: string) => Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => abc[Math.floor(rnd() * abc.length)]).join('');
  const latin = Array.from({ length: 80 }, () => word('abcdefghijklmnopqrstuvwxyz')).join(' ');
  // letters of the other languages' alphabets scattered at random: still no language's text
  const accented = Array.from({ length: 80 }, () => word('abcdeéěfghijklłmnoóöőprsśštuüűvyzźżçşğı')).join(' ');
  const core = ['en', 'de', 'fr', 'ru'];
  for (const t of [latin, accented]) {
    const e = languageEvidence(t);
    assert.ok(core.includes(e.language) && core.includes(e.second), `${e.language}, ${e.second}`);
  }
  const en = languageEvidence(
    'The command copies files and directories. When more than one source file is given, the last argument must be a target directory.',
  );
  assert.equal(en.language, 'en');
  assert.ok(core.includes(en.second));
});
