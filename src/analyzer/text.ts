/**
 * PDF text strings (ISO 32000-2 §7.9.2.2) to JS strings, and a fast byte→string helper.
 *
 * A text string is UTF-16BE (BOM FE FF), UTF-8 (BOM EF BB BF, PDF 2.0) or PDFDocEncoding. UTF-16LE with a
 * FF FE mark is not in the spec but real producers write it, and readers accept it, so we do too.
 */

const REPLACEMENT = 0xfffd;
/** fromCharCode.apply takes its arguments on the stack; keep each call well below engine limits */
const CHUNK = 8192;

/** Annex D.3: the byte → Unicode map of PDFDocEncoding; 0 marks an undefined code. */
const PDF_DOC = /* @__PURE__ */ buildPdfDocTable();

function buildPdfDocTable(): Uint16Array {
  const t = new Uint16Array(256);
  // 0x00–0x17 are undefined except the three whitespace controls; 0x20–0x7E is ASCII, 0xA1–0xFF Latin-1.
  t[0x09] = 0x09;
  t[0x0a] = 0x0a;
  t[0x0d] = 0x0d;
  for (let i = 0x20; i < 0x7f; i++) t[i] = i;
  for (let i = 0xa1; i <= 0xff; i++) t[i] = i;
  t[0xad] = 0; // soft hyphen is the one Latin-1 position PDFDocEncoding leaves undefined
  // 0x18–0x1F: spacing diacritics breve, caron, circumflex, dot accent, double acute, ogonek, ring, small tilde
  const diacritics = [0x02d8, 0x02c7, 0x02c6, 0x02d9, 0x02dd, 0x02db, 0x02da, 0x02dc];
  for (let i = 0; i < 8; i++) t[0x18 + i] = diacritics[i];
  // 0x80–0x9E: bullet, dagger, double dagger, ellipsis, em dash, en dash, florin, fraction slash, single guillemets,
  // minus, per mille, low/left/right double quotes, left/right/low single quotes, trademark, fi, fl, Ł, Œ, Š, Ÿ, Ž, ı, ł,
  // œ, š, ž. 0x9F stays undefined.
  const block = [
    0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044, 0x2039, 0x203a, 0x2212, 0x2030, 0x201e, 0x201c, 0x201d, 0x2018, 0x2019, 0x201a,
    0x2122, 0xfb01, 0xfb02, 0x0141, 0x0152, 0x0160, 0x0178, 0x017d, 0x0131, 0x0142, 0x0153, 0x0161, 0x017e,
  ];
  for (let i = 0; i < block.length; i++) t[0x80 + i] = block[i];
  t[0xa0] = 0x20ac; // euro sign
  return t;
}

/** Byte → string where each byte is one code unit (ASCII, Latin-1). No per-byte allocation. */
export function latin1(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n <= CHUNK) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  const parts: string[] = [];
  for (let i = 0; i < n; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, bytes.subarray(i, Math.min(n, i + CHUNK)) as unknown as number[]));
  }
  return parts.join('');
}

/**
 * A short token's bytes `d[from..to)` as a string, at most `max` bytes of it (callers read names and numbers, where a
 * longer token is junk: the cap keeps a hostile token from costing a long string).
 */
export function latin1Token(d: Uint8Array, from: number, to: number, max: number): string {
  return latin1(d.subarray(from, Math.min(to, from + max)));
}

/** Code units → string, chunked. `n` is how many units of `units` are used. */
function unitsToString(units: Uint16Array, n: number): string {
  if (n <= CHUNK) return String.fromCharCode.apply(null, units.subarray(0, n) as unknown as number[]);
  const parts: string[] = [];
  for (let i = 0; i < n; i += CHUNK) {
    parts.push(String.fromCharCode.apply(null, units.subarray(i, Math.min(n, i + CHUNK)) as unknown as number[]));
  }
  return parts.join('');
}

/**
 * UTF-16 code units from `bytes[start..]`, with lone surrogates replaced by U+FFFD (so the result is well-formed
 * for JSON and the UI) and language-tag escapes (U+001B xx [yy] U+001B) removed. An odd trailing byte is ignored.
 */
export function decodeUtf16(bytes: Uint8Array, start: number, bigEndian: boolean): string {
  const count = (bytes.length - start) >> 1;
  const units = new Uint16Array(count);
  const hi = bigEndian ? 0 : 1;
  const lo = bigEndian ? 1 : 0;
  let n = 0;
  for (let k = 0, p = start; k < count; k++, p += 2) {
    units[n++] = (bytes[p + hi] << 8) | bytes[p + lo];
  }
  return unitsToString(units, fixUnits(units, n));
}

/**
 * In place: removes language escapes and replaces unpaired surrogates; returns the new length.
 * Shared by the UTF-16 and UTF-8 paths so both treat escapes the same way.
 */
function fixUnits(units: Uint16Array, n: number): number {
  let w = 0;
  for (let r = 0; r < n; r++) {
    const u = units[r];
    if (u === 0x1b) {
      // A language tag is ESC, 2 letters, optionally 2 more, ESC. Tolerate a slightly longer tag; a lone ESC is a
      // control character with no meaning in text, so it is dropped either way.
      let end = -1;
      const limit = Math.min(n, r + 10);
      for (let j = r + 1; j < limit; j++) {
        if (units[j] === 0x1b) {
          end = j;
          break;
        }
      }
      if (end >= 0) r = end;
      continue;
    }
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = r + 1 < n ? units[r + 1] : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        units[w++] = u;
        units[w++] = next;
        r++;
      } else {
        units[w++] = REPLACEMENT;
      }
      continue;
    }
    if (u >= 0xdc00 && u <= 0xdfff) {
      units[w++] = REPLACEMENT;
      continue;
    }
    units[w++] = u;
  }
  return w;
}

let utf8: TextDecoder | undefined;

/** UTF-8 (malformed sequences → U+FFFD), without a BOM, starting at `start`. */
export function decodeUtf8(bytes: Uint8Array, start = 0): string {
  // TextDecoder is available in browsers, workers and Node alike; it is the fastest correct UTF-8 decoder there.
  utf8 ??= new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  return utf8.decode(start === 0 ? bytes : bytes.subarray(start));
}

/** Decodes a PDF text string. Never throws. */
export function decodePdfText(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n >= 2) {
    const b0 = bytes[0];
    const b1 = bytes[1];
    if (b0 === 0xfe && b1 === 0xff) return decodeUtf16(bytes, 2, true);
    if (b0 === 0xff && b1 === 0xfe) return decodeUtf16(bytes, 2, false);
    if (b0 === 0xef && b1 === 0xbb && n >= 3 && bytes[2] === 0xbf) {
      const s = decodeUtf8(bytes, 3);
      // Language escapes are rare; only pay for the rewrite when one is present.
      if (s.indexOf('\u001b') < 0) return s;
      const units = new Uint16Array(s.length);
      for (let i = 0; i < s.length; i++) units[i] = s.charCodeAt(i);
      return unitsToString(units, fixUnits(units, s.length));
    }
  }
  const units = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const u = PDF_DOC[bytes[i]];
    units[i] = u === 0 ? REPLACEMENT : u;
  }
  return unitsToString(units, n);
}
