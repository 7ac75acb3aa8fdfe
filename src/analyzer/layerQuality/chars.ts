/**
 * What a character is to the layer-quality score: white space, a letter, a number, or "wordish" (what is not a
 * symbol). One table for the text signals, the non-word pass and the language models' ids, so that all of them
 * read a character the same way. Pure and bounded: the classes are worked out once per code point met.
 */

/** letters, digits and common punctuation: what is not a symbol */
const WORDISH = /[\p{L}\p{N}.,;:!?'"()\-/]/u;
/** ASCII characters WORDISH matches */
export const ASCII_WORDISH = Uint8Array.from({ length: 128 }, (_, i) => (WORDISH.test(String.fromCharCode(i)) ? 1 : 0));
/** ASCII characters /\s/ matches */
export const ASCII_SPACE = Uint8Array.from({ length: 128 }, (_, i) => (/\s/.test(String.fromCharCode(i)) ? 1 : 0));

/** what an ASCII character counts as in the text's shares (ASCII_SHARE) */
export const SHARE_NONE = 0;
export const SHARE_WORDISH = 1;
export const SHARE_SYMBOL = 2;
export const SHARE_BAD = 3;
/**
 * ASCII characters as the shares of symbols and undecodable characters count them: white space and the controls below
 * U+0020 not at all (SHARE_NONE), U+007F as undecodable (SHARE_BAD), the rest as a symbol or not (WORDISH). One table
 * for the two passes that count them (a page's text signals, and the pass that finds a page's text too little).
 */
export const ASCII_SHARE = Uint8Array.from({ length: 128 }, (_, i) =>
  i <= 32 || ASCII_SPACE[i] ? SHARE_NONE : i === 0x7f ? SHARE_BAD : ASCII_WORDISH[i] ? SHARE_WORDISH : SHARE_SYMBOL,
);

/** white space (as /\s/) */
export const C_SPACE = 1;
/** letters, digits and common punctuation (WORDISH) */
export const C_WORDISH = 2;
/** a letter (\p{L}) */
export const C_LETTER = 4;
/** a number (\p{N}) */
export const C_NUMBER = 8;

/**
 * Code points below this (Latin, Greek, Cyrillic: most characters past ASCII a page holds) are looked up in dense
 * tables filled as they are met, here and for the language models' ids, instead of a map.
 */
export const DENSE_CODE_POINTS = 0x530;

/** classes of the other code points met so far (bounded: past its size the regexes answer directly) */
const classes = new Map<number, number>();
const CLASS_UNSEEN = 0xff;
const denseClasses = new Uint8Array(DENSE_CODE_POINTS).fill(CLASS_UNSEEN);

/** The classes (C_SPACE | C_WORDISH | C_LETTER | C_NUMBER) of a code point. */
export function classOf(cp: number): number {
  if (cp < DENSE_CODE_POINTS) {
    const c = denseClasses[cp];
    return c !== CLASS_UNSEEN ? c : (denseClasses[cp] = classOfSlow(cp));
  }
  return classOfSlow(cp);
}

function classOfSlow(cp: number): number {
  const hit = classes.get(cp);
  if (hit !== undefined) return hit;
  const ch = String.fromCodePoint(cp);
  const cls =
    (/\s/.test(ch) ? C_SPACE : 0) | (WORDISH.test(ch) ? C_WORDISH : 0) | (/\p{L}/u.test(ch) ? C_LETTER : 0) | (/\p{N}/u.test(ch) ? C_NUMBER : 0);
  if (classes.size < 4096) classes.set(cp, cls);
  return cls;
}

/** Whether a code point is a letter (\p{L}). */
export function isLetter(cp: number): boolean {
  return (classOf(cp) & C_LETTER) !== 0;
}

/** the code point at s[i] (a surrogate pair read whole, a lone surrogate as itself) */
export function codePointAt(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
    const lo = s.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
  }
  return c;
}
