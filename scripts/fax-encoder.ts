// A small CCITT fax encoder for tests and the fuzzer's seeds: Modified Huffman lines (K = 0, optionally after
// end-of-line codes) and Group 4 lines coded in horizontal mode only (a valid T.6 line: pairs of runs). It uses the
// decoder's own code tables, so a round trip checks the decoder's modes, make-up runs and line handling, not the
// tables; the tables are checked against libtiff's output in test/ccitt.test.ts.
import { FAX_CODE_WORDS } from '../src/analyzer/layerQuality/ccitt';

const words = (s: string) => s.split(' ');
const W = { term: words(FAX_CODE_WORDS.WHITE_TERMINATING), makeup: words(FAX_CODE_WORDS.WHITE_MAKEUP) };
const B = { term: words(FAX_CODE_WORDS.BLACK_TERMINATING), makeup: words(FAX_CODE_WORDS.BLACK_MAKEUP) };
const EXT = words(FAX_CODE_WORDS.EXTENDED_MAKEUP);
const EOL = '000000000001';
const HORIZONTAL = '001';

function runCode(len: number, black: boolean): string {
  const t = black ? B : W;
  let s = '';
  for (; len >= 2560; len -= 2560) s += EXT[12];
  const m = len - (len % 64);
  if (m >= 1792) s += EXT[(m - 1792) / 64];
  else if (m >= 64) s += t.makeup[m / 64 - 1];
  return s + t.term[len - m];
}

/** the runs of a line, white (false) first (a zero-length white run when it starts black); also JBIG2's export runs */
export function runsOf(line: boolean[]): number[] {
  const runs: number[] = [];
  let color = false;
  let n = 0;
  for (const px of line) {
    if (px === color) n++;
    else {
      runs.push(n);
      color = px;
      n = 1;
    }
  }
  runs.push(n);
  return runs;
}

/** `rows[y][x]` true is black. K -1: Group 4 (horizontal mode); K 0: one-dimensional. */
export function encodeFax(rows: boolean[][], k: -1 | 0, opts: { eol?: boolean; byteAlign?: boolean } = {}): Uint8Array {
  let bits = '';
  const align = () => {
    while (bits.length % 8) bits += '0';
  };
  for (const line of rows) {
    const runs = runsOf(line);
    if (k === 0) {
      if (opts.eol) {
        // fill so that the code word after the EOL starts on a byte
        if (opts.byteAlign) while ((bits.length + EOL.length) % 8) bits += '0';
        bits += EOL;
      } else if (opts.byteAlign) align();
      runs.forEach((r, i) => (bits += runCode(r, i % 2 === 1)));
    } else {
      if (opts.byteAlign) align();
      if (runs.length % 2) runs.push(0);
      for (let i = 0; i < runs.length; i += 2) bits += HORIZONTAL + runCode(runs[i], false) + runCode(runs[i + 1], true);
    }
  }
  align();
  const out = new Uint8Array(bits.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(bits.slice(8 * i, 8 * i + 8), 2);
  return out;
}
