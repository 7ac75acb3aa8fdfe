/**
 * PDF byte syntax in one home: the class of every byte (ISO 32000-1, 7.2.2 Character set: white-space characters,
 * delimiters, regular characters) with bits for decimal and hexadecimal digits, and the helpers built on it. The
 * file lexer, the CMap tokenizer, the ASCIIHex and ASCII85 decoders, the Type1 cleartext reader and the xref repair
 * all read bytes through this table, so they agree on what a space or a delimiter is.
 *
 * The table is indexed by a byte; an index past a buffer's end (`undefined`) reads as no class at all.
 */

/** white-space: NUL, TAB, LF, FF, CR, SPACE */
export const WHITE = 1;
/** delimiters: ( ) < > [ ] { } / % */
export const DELIM = 2;
/** every byte that is neither white-space nor a delimiter (it continues a name, number or keyword) */
export const REGULAR = 4;
/** 0–9 */
export const DIGIT = 8;
/** 0–9, A–F, a–f */
export const HEX = 16;

/** BYTE_CLASS[c]: the WHITE / DELIM / REGULAR / DIGIT / HEX bits of byte `c`. */
export const BYTE_CLASS = /* @__PURE__ */ buildClasses();

/** HEX_VALUE[c]: the value of hex digit `c`, or -1. */
export const HEX_VALUE = /* @__PURE__ */ buildHexValues();

function buildClasses(): Uint8Array {
  const t = new Uint8Array(256).fill(REGULAR);
  for (const c of [0, 9, 10, 12, 13, 32]) t[c] = WHITE;
  for (const c of '()<>[]{}/%') t[c.charCodeAt(0)] = DELIM;
  for (let c = 48; c <= 57; c++) t[c] |= DIGIT | HEX;
  for (let c = 65; c <= 70; c++) t[c] |= HEX;
  for (let c = 97; c <= 102; c++) t[c] |= HEX;
  return t;
}

function buildHexValues(): Int8Array {
  const t = new Int8Array(256).fill(-1);
  for (let c = 48; c <= 57; c++) t[c] = c - 48;
  for (let c = 65; c <= 70; c++) t[c] = c - 55;
  for (let c = 97; c <= 102; c++) t[c] = c - 87;
  return t;
}

/** PDF white-space (NUL, TAB, LF, FF, CR, SPACE). */
export function isWhite(c: number): boolean {
  return (BYTE_CLASS[c] & WHITE) !== 0;
}

/** One of the ten delimiters `( ) < > [ ] { } / %`. */
export function isDelimiter(c: number): boolean {
  return (BYTE_CLASS[c] & DELIM) !== 0;
}

/** Neither white-space nor a delimiter: a byte that continues a name, a number or a keyword. */
export function isRegular(c: number): boolean {
  return (BYTE_CLASS[c] & REGULAR) !== 0;
}

/** 0–9. */
export function isDigit(c: number): boolean {
  return (BYTE_CLASS[c] & DIGIT) !== 0;
}

/** The value of a hex digit (0–9, A–F, a–f), or -1. */
export function hexValue(c: number): number {
  // `& 0xff`: an index past a buffer's end (undefined) reads byte 0, which is no digit
  return HEX_VALUE[c & 0xff];
}
