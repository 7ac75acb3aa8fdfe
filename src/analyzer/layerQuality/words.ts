/**
 * What the layer's characters and words say of its text, read in place character by character: the shares of symbols
 * and undecodable characters, words of shapes no word has (garbled), one- and two-letter fragments, overlong words,
 * two scripts in one word (charSignals), and words that read like no language of the page (nonWords). Pure; bounded by
 * TEXT_CHARS and NONWORD_WORDS.
 */
import { ASCII_SHARE, ASCII_SPACE, C_LETTER, C_NUMBER, C_SPACE, C_WORDISH, classOf, codePointAt, SHARE_BAD, SHARE_NONE, SHARE_SYMBOL } from './chars';
import { isCyrillic, type Language, languagesFor, NONWORD_BITS, wordBitsIn } from './language';

/** 1 small letter, 2 capital, 0 a letter without case (Latin-1, Latin Extended-A, Greek and Cyrillic told apart; others 0) */
function caseOf(cp: number): number {
  if (cp >= 0x430 && cp <= 0x45f) return 1;
  if (cp >= 0x400 && cp <= 0x42f) return 2;
  if (cp >= 0xdf && cp <= 0xff) return cp === 0xf7 ? 0 : 1;
  if (cp >= 0xc0 && cp <= 0xde) return cp === 0xd7 ? 0 : 2;
  return 0;
}

/** characters of the text the shares are counted on at most */
export const TEXT_CHARS = 20_000;

/** the text's shares read character by character (charSignals) */
export interface CharSignals {
  symbolShare: number;
  badShare: number;
  mixedScript: number;
  garbled: number;
  fragments: number;
  longWords: number;
}

/** The shares of symbols and undecodable characters among the text's characters, and its words' shapes (exported for tests). */
export function charSignals(text: string): CharSignals {
  let nonSpace = 0;
  let bad = 0;
  let symbols = 0;
  // words: runs of non-whitespace (as /\s+/ splits); each counts its letters (UTF-16 units, as String#length does)
  let words = 0;
  let frags = 0;
  let longs = 0;
  let mixed = 0;
  let wLetters = 0;
  let wLatin = false;
  let wCyrillic = false;
  // word shape: the kind of the previous character (0 other, 1 lower, 2 upper, 3 digit), a digit after a letter,
  // and whether the word has a shape no word of a language has (a capital after a small letter, a digit between letters)
  let wPrev = 0;
  let wLetterDigit = false;
  let wBad = false;
  let garbled = 0;
  // the first TEXT_CHARS characters are read: shares of a sample that large are as good as the whole page's. One
  // loop with the word's state in locals (as closures, its fifteen variables lived in a heap context every character
  // read and wrote), and one pass past the text's end that closes the last word
  const n = Math.min(text.length, TEXT_CHARS);
  for (let i = 0; i <= n; i++) {
    // white space ends a word; anything else has a kind for the word's shape (0 other, 1 small, 2 capital, 3 digit)
    let space = true;
    let kind = 0;
    if (i < n) {
      let cp = text.charCodeAt(i);
      let units = 1;
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          units = 2;
        }
      }
      if (cp < 128) {
        space = ASCII_SPACE[cp] === 1;
        if (!space) {
          const share = ASCII_SHARE[cp];
          if (share !== SHARE_NONE) {
            nonSpace++;
            if (share === SHARE_BAD) bad++;
            else if (share === SHARE_SYMBOL) symbols++;
          }
          if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) {
            wLetters++;
            wLatin = true;
            kind = cp >= 97 ? 1 : 2;
          } else kind = cp >= 48 && cp <= 57 ? 3 : 0;
        }
      } else {
        const cls = classOf(cp);
        // every code point past U+0020 counts as a character, spaces such as U+00A0 included
        nonSpace++;
        if (cp === 0xfffd || (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0x7f && cp < 0xa0)) bad++;
        else if (!(cls & C_WORDISH)) symbols++;
        space = (cls & C_SPACE) !== 0;
        if (!space && cls & C_LETTER) {
          wLetters += units;
          if (cp >= 0x400 && cp <= 0x4ff) wCyrillic = true;
          kind = caseOf(cp);
        }
      }
      i += units - 1;
    }
    if (space) {
      if (wLetters > 0) {
        words++;
        if (wLetters <= 2) frags++;
        if (wLetters >= 16) longs++;
        if (wLatin && wCyrillic) mixed++;
        if (wBad || (wLatin && wCyrillic)) garbled++;
      }
      wLetters = 0;
      wLatin = false;
      wCyrillic = false;
      wPrev = 0;
      wLetterDigit = false;
      wBad = false;
    } else {
      if (kind === 2 && wPrev === 1) wBad = true;
      else if (kind === 3 && (wPrev === 1 || wPrev === 2)) wLetterDigit = true;
      else if ((kind === 1 || kind === 2) && wLetterDigit && wPrev === 3) wBad = true;
      if (kind === 1 || kind === 2) wLetterDigit = false;
      wPrev = kind;
    }
  }
  return {
    symbolShare: nonSpace ? symbols / nonSpace : 0,
    badShare: nonSpace ? bad / nonSpace : 0,
    mixedScript: words ? mixed / words : 0,
    garbled: words ? garbled / words : 0,
    fragments: words ? frags / words : 0,
    longWords: words ? longs / words : 0,
  };
}

/** words judged by nonWords at most (the first ones: a sample enough for a share) */
const NONWORD_WORDS = 4000;

/** what a character is to nonWords: white space (as /\s/), a letter (\p{L}), a number (\p{N}) or anything else */
const K_OTHER = 0;
const K_SPACE = 1;
const K_LETTER = 2;
const K_NUMBER = 3;
function kindOf(cp: number): number {
  if (cp < 128) {
    if (ASCII_SPACE[cp]) return K_SPACE;
    if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) return K_LETTER;
    return cp >= 48 && cp <= 57 ? K_NUMBER : K_OTHER;
  }
  const cls = classOf(cp);
  return cls & C_SPACE ? K_SPACE : cls & C_LETTER ? K_LETTER : cls & C_NUMBER ? K_NUMBER : K_OTHER;
}

/**
 * The share of words that read like no language of the page. Words are the page text's white-space-separated tokens with
 * their edges' punctuation, quotes and brackets stripped, cut into parts at hyphens and slashes (a compound's parts
 * are words of their own); tokens with a number anywhere are left out (codes, numbers, IDs: `garbled` judges digits
 * inside words). A part with a letter counts as a word; one of two or more letters and nothing else is judged: it
 * reads like no language when its letters cost more than NONWORD_BITS each under both of the page's two likeliest
 * languages (language.ts wordBits), or, when neither writes its script, under the language that does and the page's
 * likeliest (language.ts languagesFor). A one-letter word or one with other characters inside counts but is not judged.
 * A clear-cut version of wordLikeEither: fluent OCR garbage ("anjpicdbon", "corilfralk") costs far more than the cut,
 * while the rare real word the small models do not know (a name, a command) mostly stays under it. Read in place,
 * character by character: a page's words cost no strings. The page's text (the layer's reading order, its spaces
 * implied by the glyphs' positions), not the glyph runs: a file that places its glyphs one by one has runs that are
 * not words (a Caesar-shifted font's text read as one-letter runs judged nothing).
 */
export function nonWords(s: string, a: Language, b: Language): number {
  // the two pairs a word can be judged under, worked out once a page
  const pagePair = languagesFor(false, a, b);
  const cyrillicPair = languagesFor(true, a, b);
  let words = 0;
  let non = 0;
  const n = s.length;
  let i = 0;
  while (i < n && words < NONWORD_WORDS) {
    // a token: the next run of non-space characters; [first, last) from its first letter or number to its last
    let cp = codePointAt(s, i, n);
    let k = kindOf(cp);
    if (k === K_SPACE) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    let first = -1;
    let last = -1;
    let number = false;
    while (i < n) {
      cp = codePointAt(s, i, n);
      k = kindOf(cp);
      if (k === K_SPACE) break;
      const w = cp > 0xffff ? 2 : 1;
      if (k === K_LETTER || k === K_NUMBER) {
        if (first < 0) first = i;
        last = i + w;
        if (k === K_NUMBER) number = true;
      }
      i += w;
    }
    if (first < 0 || number) continue;
    // its parts between hyphens and slashes
    let p = first;
    while (p < last) {
      let letters = 0;
      let others = 0;
      let cyrillic = false;
      let q = p;
      while (q < last) {
        const c = s.charCodeAt(q);
        if (c === 0x2d || c === 0x2f) break;
        const pc = codePointAt(s, q, last);
        if (kindOf(pc) === K_LETTER) {
          letters++;
          if (isCyrillic(pc)) cyrillic = true;
        } else others++;
        q += pc > 0xffff ? 2 : 1;
      }
      if (letters > 0) {
        words++;
        if (others === 0 && letters >= 2) {
          const [x, y] = cyrillic ? cyrillicPair : pagePair;
          if (wordBitsIn(s, p, q, x, y) > NONWORD_BITS) non++;
        }
      }
      p = q + 1;
    }
  }
  return words ? non / words : 0;
}
