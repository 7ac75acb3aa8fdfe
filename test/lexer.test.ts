// The lexer's string and token reading: the content interpreter and the object parser both stand on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hexValue, isDelimiter, isDigit, isRegular, isWhite } from '../src/analyzer/bytes';
import { Cmd, EOF, Lexer, type Token, isRegular as lexerIsRegular, isWhite as lexerIsWhite } from '../src/analyzer/lexer';
import { DEFAULT_OPTIONS } from '../src/analyzer/options';
import { Parser } from '../src/analyzer/parser';

const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const str = (t: Token): string =>
  t instanceof Uint8Array ? String.fromCharCode(...t) : `not a string: ${t instanceof Cmd ? `operator ${t.op}` : String(t)}`;
function tokens(s: string): Token[] {
  const lx = new Lexer(bytes(s));
  const out: Token[] = [];
  for (let t = lx.next(); t !== EOF; t = lx.next()) out.push(t);
  return out;
}

test('literal strings: escapes, nesting, end-of-line rules, and the token after them', () => {
  const cases: [string, string][] = [
    ['(plain)', 'plain'],
    ['(a (nested) b)', 'a (nested) b'],
    ['(\\n\\r\\t\\b\\f\\(\\)\\\\)', '\n\r\t\b\f()\\'],
    ['(\\101\\60\\7x)', 'A0\x07x'],
    ['(\\0053)', '\x053'],
    ['(line\\\ncontinued)', 'linecontinued'],
    ['(line\\\r\ncontinued)', 'linecontinued'],
    ['(a\rb)', 'a\nb'],
    ['(a\r\nb)', 'a\nb'],
    ['(a\r)', 'a\n'],
    ['(\\q)', 'q'],
    ['(esc\\)aped paren)', 'esc)aped paren'],
  ];
  for (const [src, want] of cases) {
    const t = tokens(`${src} Tj`);
    assert.equal(str(t[0]), want, src);
    assert.equal(t.length, 2, `${src}: ${t.length} tokens`);
    assert.equal((t[1] as Cmd).op, 'Tj', src);
  }
});

test('an unterminated string runs to the end of the data', () => {
  assert.equal(str(tokens('(never closed \\) here')[0]), 'never closed ) here');
  assert.equal(str(tokens('(open (inner) \\r')[0]), 'open (inner) \r');
});

test('hex strings, names with #xx escapes, numbers, keywords', () => {
  const t = tokens('<48 65 6c6C 6f7> /A#20B /F1 -1.5 .5 +3 true false null BT');
  assert.equal(str(t[0]), 'Hello\x70');
  assert.equal(t[1], 'A B');
  assert.equal(t[2], 'F1');
  assert.deepEqual(t.slice(3, 9), [-1.5, 0.5, 3, true, false, null]);
  assert.equal((t[9] as Cmd).op, 'BT');
  // short operators and names come from a table: the same object each time
  assert.equal(tokens('re re')[0], tokens('re')[0]);
});

test('a bounded indexOf finds only what lies within its window, and costs the window, not the rest of the buffer', () => {
  const b = bytes('xx endstream yy endstream');
  assert.equal(Lexer.indexOf(b, 'endstream', 0), 3);
  assert.equal(Lexer.indexOf(b, 'endstream', 4), 16);
  assert.equal(Lexer.indexOf(b, 'endstream', 4, 24), -1, 'a match that ends past the window is not found');
  assert.equal(Lexer.indexOf(b, 'endstream', 4, 25), 16);
  assert.equal(Lexer.indexOf(b, 'endstream', 20, 10), -1);
  // 16 MiB without the needle's first byte: every one of 1,000 bounded looks searched on to the end of the buffer
  // (about 14 s) before the window bounded the native search too.
  const big = new Uint8Array(16 * 1024 * 1024);
  const t = Date.now();
  for (let i = 0; i < 1000; i++) assert.equal(Lexer.indexOf(big, 'endstream', i * 64, i * 64 + 64), -1);
  assert.ok(Date.now() - t < 2000, `took ${Date.now() - t} ms`);
});

test('indexOf gives the same answers through its byte-by-byte path (small windows) and its native path (large ones)', () => {
  // a needle near the start, one across the window's end and one far out, in windows on both sides of the cut-over
  const s = 'x'.repeat(300) + 'trailer' + 'y'.repeat(600) + 'trailer' + 'z'.repeat(100);
  const b = bytes(s);
  for (const [from, to] of [
    [0, 200],
    [0, 307],
    [0, 306],
    [290, 320],
    [0, 1000],
    [301, 1000],
    [301, 914],
    [301, 913],
    [0, b.length],
  ]) {
    const want = s.slice(0, to).indexOf('trailer', from);
    assert.equal(Lexer.indexOf(b, 'trailer', from, to), want, `window ${from}..${to}`);
  }
});

test('the lexer and the parser read their limits from AnalyzerOptions (maxTokenBytes, maxNameBytes, maxObjectNesting, maxObjectElements)', () => {
  const limits = { ...DEFAULT_OPTIONS, maxTokenBytes: 4, maxNameBytes: 1500, maxObjectNesting: 2, maxObjectElements: 3 };
  const long = 'N'.repeat(2000);
  const lx = new Lexer(bytes(`(abcdefgh) <6162636465> /${long} /L#6f${long}`), 0, undefined, limits);
  assert.equal(str(lx.next()), 'abcd');
  assert.equal(str(lx.next()), 'abcd');
  assert.equal(lx.next(), long.slice(0, 1500));
  assert.equal(lx.next(), 'Lo' + long.slice(0, 1498));
  // names up to 1024 bytes are always kept whole: a smaller maxNameBytes cuts only longer ones
  const cut = new Lexer(bytes(`/${'x'.repeat(1024)} /${long}`), 0, undefined, { ...limits, maxNameBytes: 3 });
  assert.equal(cut.next(), 'x'.repeat(1024));
  assert.equal(cut.next(), long.slice(0, 1024));
  const parse = (s: string) => new Parser(new Lexer(bytes(s), 0, undefined, limits), undefined, limits).parseValue();
  assert.deepEqual(parse('[1 2 3 4 5]'), [1, 2, 3]);
  assert.deepEqual(parse('[[1] [[2]] 3]'), [[1], [[]], 3]);
  // the defaults, when none are given
  assert.deepEqual(new Parser(new Lexer(bytes('[[[1]]]'))).parseValue(), [[[1]]]);
});

test('bytes.ts: one byte-class table (white-space, delimiters, regular, digits, hex digits) for every reader', () => {
  const white = [0, 9, 10, 12, 13, 32];
  const delims = [...'()<>[]{}/%'].map((c) => c.charCodeAt(0));
  for (let c = 0; c < 256; c++) {
    const ch = String.fromCharCode(c);
    assert.equal(isWhite(c), white.includes(c), `white ${c}`);
    assert.equal(isDelimiter(c), delims.includes(c), `delimiter ${c}`);
    assert.equal(isRegular(c), !white.includes(c) && !delims.includes(c), `regular ${c}`);
    assert.equal(isDigit(c), /[0-9]/.test(ch), `digit ${c}`);
    assert.equal(hexValue(c), /[0-9a-fA-F]/.test(ch) ? parseInt(ch, 16) : -1, `hex ${c}`);
  }
  // past a buffer's end: no class, no digit
  const past = new Uint8Array(0)[0];
  assert.equal(isWhite(past) || isRegular(past) || isDelimiter(past), false);
  assert.equal(hexValue(past), -1);
  // the lexer's re-exports are the same functions
  assert.equal(lexerIsWhite, isWhite);
  assert.equal(lexerIsRegular, isRegular);
});
