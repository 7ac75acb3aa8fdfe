/**
 * A JPEG Huffman table as the entropy decoders read it (jpeg.ts builds them from DHT segments; its baseline scans and
 * jpegProgressive.ts's scans decode with them), and the one lookup of a code longer than the 9-bit lookahead.
 */

/** per code length 1..16 the canonical codes (ITU-T T.81 F.2.2.3), and a 9-bit lookahead for the short ones */
export interface HuffmanTable {
  /** per code length 1..16: the largest code of that length (-1 if none), and where its values start */
  maxCode: Int32Array;
  valPtr: Int32Array;
  minCode: Int32Array;
  values: Uint8Array;
  /** 9-bit lookahead: (length << 8) | value, 0 when the code is longer */
  fast: Uint16Array;
}

/**
 * A symbol the 9-bit lookahead does not hold, read from the top of the bit buffer (`bits`, of which the low `nbits`
 * are unread; at least 16 of them): (code length << 8) | value, or -1 when no code of 16 bits or fewer matches (the
 * caller throws its own error). The bit buffer is the caller's locals, which its hot loops read in place.
 */
export function slowSymbol(h: HuffmanTable, bits: number, nbits: number): number {
  let code = 0;
  for (let len = 1; len <= 16; len++) {
    code = (code << 1) | ((bits >>> (nbits - len)) & 1);
    if (h.maxCode[len] >= 0 && code <= h.maxCode[len] && code >= h.minCode[len]) return (len << 8) | h.values[h.valPtr[len] + code - h.minCode[len]];
  }
  return -1;
}
