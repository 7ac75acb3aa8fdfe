// Hostile inputs for the xref layer and the decoders (issue 12, robustness round 2). Every file is built here.
// The runs that could hang or exhaust memory before the fixes run in a child process: a hang is killed at HARD_MS
// (and fails the test instead of freezing the suite), and the child reports its peak resident memory.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants, deflateRawSync, deflateSync } from 'node:zlib';
import { analyzePdfSync } from '../src/analyzer/analyze';
import { Budget } from '../src/analyzer/budget';
import { openDocument } from '../src/analyzer/document';
import { decodeFilters } from '../src/analyzer/filters';
import { inflateRaw } from '../src/analyzer/inflate';
import { type AnalyzerOptions, resolveOptions } from '../src/analyzer/options';
import type { DocumentReport } from '../src/analyzer/types';

/** wall time a child may take before it counts as hung: the budgets below are 2 s, this is generous slack */
const HARD_MS = 15_000;

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
function concat(parts: (Uint8Array | string)[]): Uint8Array {
  const bufs = parts.map((p) => (typeof p === 'string' ? enc(p) : p));
  const out = new Uint8Array(bufs.reduce((n, b) => n + b.length, 0));
  let o = 0;
  for (const b of bufs) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

const TEXT = 'BT /F1 12 Tf 72 720 Td (The quick brown fox jumps over the lazy dog, forty-three characters.) Tj ET\n';
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** Objects 1..n in order, a correct classic xref and a trailer whose /Root is object 1. */
function pdf(objects: (string | Uint8Array)[], trailerExtra = ''): Uint8Array {
  const parts: (Uint8Array | string)[] = ['%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'];
  let off = enc(parts[0] as string).length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(off);
    const b = concat([`${i + 1} 0 obj\n`, o, '\nendobj\n']);
    parts.push(b);
    off += b.length;
  });
  let x = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) x += `${String(o).padStart(10, '0')} 00000 n \n`;
  x += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra} >>\nstartxref\n${off}\n%%EOF\n`;
  parts.push(x);
  return concat(parts);
}

function stream(dict: string, data: Uint8Array, keywordTail = '\n'): Uint8Array {
  return concat([`<< ${dict} /Length ${data.length} >>\nstream${keywordTail}`, data, '\nendstream']);
}

/** The head of a damaged file: catalog, page tree, one page of text, no xref (objects 1-4, font 5). */
function textDocHead(): string {
  const content = TEXT;
  return (
    '%PDF-1.7\n' +
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' +
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>\nendobj\n' +
    `4 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n` +
    `5 0 obj\n${FONT}\nendobj\n`
  );
}

// ---- child-process runner ------------------------------------------------------------------------------------------

let dir = '';
let childScript = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'xref-hostile-'));
  childScript = join(dir, 'child.ts');
  const analyzer = new URL('../src/analyzer/analyze.ts', import.meta.url).href;
  writeFileSync(
    childScript,
    `import { readFileSync } from 'node:fs';
import { analyzePdfSync } from ${JSON.stringify(analyzer)};
const bytes = new Uint8Array(readFileSync(process.argv[2]));
const options = JSON.parse(process.argv[3]);
const runs = Number(process.argv[4] ?? 1);
const out = [];
for (let i = 0; i < runs; i++) {
  const t = Date.now();
  const r = analyzePdfSync(bytes, options);
  out.push({ ms: Date.now() - t, pageCount: r.pageCount, routeCounts: r.routeCounts, pages: r.pages.slice(0, 3).map((p) => ({ route: p.route, reasons: p.reasons, visible: p.evidence.visibleChars })), limit: r.limit, error: r.error, notes: r.notes.slice(0, 10) });
}
process.stdout.write(JSON.stringify({ out, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
`,
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface ChildRun {
  ms: number;
  pageCount: number;
  routeCounts: DocumentReport['routeCounts'];
  pages: { route: string; reasons: string[]; visible: number }[];
  limit?: DocumentReport['limit'];
  error?: DocumentReport['error'];
  notes: string[];
}

let fileNo = 0;
function inChild(bytes: Uint8Array, options: Partial<AnalyzerOptions>, runs = 1): { runs: ChildRun[]; maxRssMB: number; wallMs: number } {
  const file = join(dir, `f${fileNo++}.pdf`);
  writeFileSync(file, bytes);
  const t = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', childScript, file, JSON.stringify(options), String(runs)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    timeout: HARD_MS * runs,
    maxBuffer: 16 * 1024 * 1024,
    encoding: 'utf8',
  });
  const wallMs = Date.now() - t;
  assert.ok(r.signal === null, `child killed (${r.signal}) after ${wallMs} ms: no answer in time`);
  assert.equal(r.status, 0, r.stderr);
  const o = JSON.parse(r.stdout) as { out: ChildRun[]; maxRssMB: number };
  return { runs: o.out, maxRssMB: o.maxRssMB, wallMs };
}

// ---- 1. reconstruction is linear -----------------------------------------------------------------------------------

describe('xref reconstruction is one linear pass', () => {
  test('20,000 object headers with unclosed strings and no endobj: the page is found, in time', (t) => {
    // No xref, so the file is repaired; each header's string runs on to the end of the file unless the object is
    // bounded by the next header. 20,000 × ~1 MB read again and again took minutes.
    const junk: string[] = [];
    for (let i = 0; i < 20_000; i++) junk.push(`${100 + i} 0 obj\n(unclosed ${'x'.repeat(30)}\n`);
    const bytes = enc(textDocHead() + junk.join('') + 'trailer\n<< /Root 1 0 R /Size 20200 >>\n%%EOF\n');
    const child = inChild(bytes, { timeBudgetMs: 2000 });
    const { runs, wallMs, maxRssMB } = child;
    t.diagnostic(`file ${bytes.length} bytes; analysis ${runs[0].ms} ms, child wall ${wallMs} ms, peak RSS ${Math.round(maxRssMB)} MB`);
    const r = runs[0];
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    assert.equal(r.pageCount, 1);
    assert.equal(r.pages[0].route, 'text', JSON.stringify(r.pages[0]));
    assert.equal(r.limit, undefined, 'finished within its budget, not cut');
    assert.ok(r.ms < 2000 + 3000, `analysis took ${r.ms} ms (wall ${wallMs} ms)`);
  });

  test('20,000 stream headers without endstream or endobj: the page is found, in time', (t) => {
    // Each stream's end was searched from its start to the end of the file.
    const junk: string[] = [];
    for (let i = 0; i < 20_000; i++) junk.push(`${100 + i} 0 obj\n<< /Length ${1_000_000 + i} >>\nstream\n${'y'.repeat(20)}\n`);
    const bytes = enc(textDocHead() + junk.join('') + 'trailer\n<< /Root 1 0 R >>\n');
    const child = inChild(bytes, { timeBudgetMs: 2000 });
    const { runs, wallMs, maxRssMB } = child;
    t.diagnostic(`file ${bytes.length} bytes; analysis ${runs[0].ms} ms, child wall ${wallMs} ms, peak RSS ${Math.round(maxRssMB)} MB`);
    assert.equal(runs[0].pageCount, 1);
    assert.equal(runs[0].pages[0].route, 'text', JSON.stringify(runs[0]));
    assert.equal(runs[0].limit, undefined);
  });

  test('5,000 unclosed trailer dictionaries: the last usable keys win, in time', (t) => {
    // Each `trailer << /Size …` without `>>` read on through every trailer after it.
    const trailers: string[] = [];
    for (let i = 0; i < 5_000; i++) trailers.push(`trailer\n<< /Size ${i} /Info << /Title (t${i}) ${'/K 1 '.repeat(20)}\n`);
    const bytes = enc(textDocHead() + trailers.join('') + 'trailer\n<< /Root 1 0 R >>\n%%EOF\n');
    const child = inChild(bytes, { timeBudgetMs: 2000 });
    const { runs, wallMs, maxRssMB } = child;
    t.diagnostic(`file ${bytes.length} bytes; analysis ${runs[0].ms} ms, child wall ${wallMs} ms, peak RSS ${Math.round(maxRssMB)} MB`);
    assert.equal(runs[0].pageCount, 1);
    assert.equal(runs[0].pages[0].route, 'text', JSON.stringify(runs[0]));
    assert.equal(runs[0].limit, undefined);
  });

  test('a repair cut by the deadline says so and gives no confident answer', () => {
    const junk: string[] = [];
    for (let i = 0; i < 20_000; i++) junk.push(`${100 + i} 0 obj\n(unclosed\n`);
    const bytes = enc(textDocHead() + junk.join('') + 'trailer\n<< /Root 1 0 R >>\n');
    // a budget already spent when the scan starts
    const r = analyzePdfSync(bytes, { timeBudgetMs: 0 });
    assert.equal(r.limit?.reason, 'budget-exceeded');
    for (const p of r.pages) assert.equal(p.route, 'unknown', JSON.stringify(p));
  });
});

// ---- 2. object streams ---------------------------------------------------------------------------------------------

/**
 * An object stream holding `objs` (number → body), its decoded data padded with spaces to `decodedBytes`.
 * @param slow the padding as one-bit literals under a second Flate: ~0.3 s a 16 MiB stream to decode, from ~5 KB
 */
function objStm(objs: [number, string][], decodedBytes: number, slow = false): Uint8Array {
  let header = '';
  let body = '';
  for (const [num, text] of objs) {
    header += `${num} ${body.length} `;
    body += text + '\n';
  }
  const first = header.length;
  const raw = enc(header + body);
  // The objects, flushed to a byte boundary without ending the stream, then the padding compressed once for all
  // streams of that size (its back-references stay within it): zlib header, raw deflate, no checksum (not checked).
  const objects = deflateRawSync(raw, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  if (slow) {
    const inner = concat([new Uint8Array([0x78, 0x9c]), objects]);
    const outer = concat([
      new Uint8Array([0x78, 0x9c]),
      deflateRawSync(inner, { finishFlush: zlibConstants.Z_SYNC_FLUSH }),
      literalSpaces(decodedBytes),
    ]);
    return stream(`/Type /ObjStm /N ${objs.length} /First ${first} /Filter [/FlateDecode /FlateDecode]`, outer);
  }
  return stream(
    `/Type /ObjStm /N ${objs.length} /First ${first} /Filter /FlateDecode`,
    concat([new Uint8Array([0x78, 0x9c]), objects, spaces(Math.max(0, decodedBytes - raw.length))]),
  );
}

const literalMemo = new Map<number, Uint8Array>();
/** `n` spaces coded as literals only (Huffman-only: one bit each), that stream compressed again (final blocks) */
function literalSpaces(n: number): Uint8Array {
  let z = literalMemo.get(n);
  if (!z) {
    const inner = deflateRawSync(new Uint8Array(n).fill(32), { strategy: zlibConstants.Z_HUFFMAN_ONLY });
    literalMemo.set(n, (z = new Uint8Array(deflateRawSync(inner))));
  }
  return z;
}

const spacesMemo = new Map<number, Uint8Array>();
/** `n` spaces as a final raw deflate block sequence */
function spaces(n: number): Uint8Array {
  let z = spacesMemo.get(n);
  if (!z) spacesMemo.set(n, (z = new Uint8Array(deflateRawSync(new Uint8Array(n).fill(32)))));
  return z;
}

/**
 * Catalog (1), page tree (2), font (3), one content stream (4) and `streams` object streams (5…) holding
 * `perStream` pages each; the kids alternate between the streams, so an LRU smaller than them all thrashes.
 */
function objStmDoc(streams: number, perStream: number, decodedBytes: number, slow = false): Uint8Array {
  const firstPage = 100;
  const kids: number[] = [];
  for (let k = 0; k < perStream; k++) for (let s = 0; s < streams; s++) kids.push(firstPage + s * perStream + k);
  const objects: (string | Uint8Array)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    FONT,
    stream('', enc(TEXT)),
  ];
  const xrefRows: [number, number, number][] = []; // type, field 2, field 3 for objects 0..
  for (let s = 0; s < streams; s++) {
    const objs: [number, string][] = [];
    for (let k = 0; k < perStream; k++) {
      objs.push([
        firstPage + s * perStream + k,
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
      ]);
    }
    objects.push(objStm(objs, decodedBytes, slow));
  }
  // Classic offsets for objects 1..(4+streams); an xref stream would be more usual, but a classic table plus
  // repair-free type-2 entries needs an xref stream, so write one.
  const parts: (Uint8Array | string)[] = ['%PDF-1.7\n'];
  let off = 9;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(off);
    const b = concat([`${i + 1} 0 obj\n`, o, '\nendobj\n']);
    parts.push(b);
    off += b.length;
  });
  const size = firstPage + streams * perStream;
  xrefRows.push([0, 0, 65535]);
  for (let n = 1; n < size; n++) {
    if (n <= objects.length) xrefRows.push([1, offsets[n - 1], 0]);
    else if (n >= firstPage) {
      const i = n - firstPage;
      xrefRows.push([2, 5 + Math.floor(i / perStream), i % perStream]);
    } else xrefRows.push([0, 0, 0]);
  }
  const rows = new Uint8Array(xrefRows.length * 7);
  xrefRows.forEach(([t, a, b], i) => {
    rows[i * 7] = t;
    rows[i * 7 + 1] = (a >>> 24) & 255;
    rows[i * 7 + 2] = (a >>> 16) & 255;
    rows[i * 7 + 3] = (a >>> 8) & 255;
    rows[i * 7 + 4] = a & 255;
    rows[i * 7 + 5] = (b >>> 8) & 255;
    rows[i * 7 + 6] = b & 255;
  });
  const xrefNum = size;
  const xs = concat([`${xrefNum} 0 obj\n`, stream(`/Type /XRef /Size ${size + 1} /W [1 4 2] /Index [0 ${size}] /Root 1 0 R`, rows), '\nendobj\n']);
  parts.push(xs, `startxref\n${off}\n%%EOF\n`);
  return concat(parts);
}

describe('object streams: a bounded cache, the same objects on every run', () => {
  test('20 object streams of 16 MiB decoded each, pages alternating between them: bounded memory, every page', (t) => {
    // Before: every decoded object stream stayed cached for the whole document (320 MiB here).
    const bytes = objStmDoc(20, 30, 16 * 1024 * 1024);
    assert.ok(bytes.length < 1_000_000, `file is ${bytes.length} bytes`);
    const child = inChild(bytes, { timeBudgetMs: 10_000, objectStreamCacheBytes: 4 * 1024 * 1024 });
    const { runs, wallMs, maxRssMB } = child;
    t.diagnostic(`file ${bytes.length} bytes; analysis ${runs[0].ms} ms, child wall ${wallMs} ms, peak RSS ${Math.round(maxRssMB)} MB`);
    const r = runs[0];
    assert.equal(r.error, undefined, JSON.stringify(r));
    assert.equal(r.pageCount, 600);
    assert.equal(r.routeCounts.text, 600, JSON.stringify(r.routeCounts));
    assert.equal(r.limit, undefined);
    assert.ok(r.ms < 8000, `took ${r.ms} ms`);
    // node + tsx alone is ~100-150 MB; 20 streams kept would be 320 MB more
    assert.ok(maxRssMB < 300, `peak RSS ${Math.round(maxRssMB)} MB`);
  });

  test('300 slow object streams: no new one is decoded past the deadline, and nothing is answered confidently', (t) => {
    // Each decode is whole (never cut by the clock), ~0.3 s each: 300 of them took 90 s.
    const bytes = objStmDoc(300, 1, 16 * 1024 * 1024, true);
    const child = inChild(bytes, { timeBudgetMs: 1000 });
    const { runs, wallMs, maxRssMB } = child;
    t.diagnostic(
      `file ${bytes.length} bytes; analysis ${runs[0].ms} ms, child wall ${wallMs} ms, peak RSS ${Math.round(maxRssMB)} MB, pages ${runs[0].pageCount}`,
    );
    const r = runs[0];
    assert.equal(r.limit?.reason, 'budget-exceeded', JSON.stringify(r));
    assert.equal(r.routeCounts.text, 0, JSON.stringify(r.routeCounts));
    assert.ok(r.ms < 1000 + 3000, `took ${r.ms} ms`);
  });

  test('the same pages whatever the cache bound (evicted streams are decoded again, not lost)', () => {
    const bytes = objStmDoc(4, 50, 2 * 1024 * 1024);
    const a = analyzePdfSync(bytes, { timeBudgetMs: 60_000, objectStreamCacheBytes: 1024 * 1024 });
    const b = analyzePdfSync(bytes, { timeBudgetMs: 60_000, objectStreamCacheBytes: 64 * 1024 * 1024 });
    assert.equal(a.pageCount, 200);
    assert.equal(b.pageCount, 200);
    assert.deepEqual(a.routeCounts, b.routeCounts);
  });

  test('an object stream the memory account cannot hold is recorded as memory-limit, never silently dropped', () => {
    const bytes = objStmDoc(2, 20, 8 * 1024 * 1024);
    const options = resolveOptions({ maxHeldBytes: 4 * 1024 * 1024, objectStreamCacheBytes: 1024 * 1024 });
    const budget = new Budget(Infinity, options.maxHeldBytes);
    const doc = openDocument(bytes, options, budget);
    assert.deepEqual(budget.exhausted, { reason: 'memory-limit', stage: 'object-stream' });
    assert.match(doc.xref.notes.join('\n'), /object stream \d+ does not fit in the memory left/);
    // nothing was allocated past the account: the decode stopped at what it could hold
    assert.ok(budget.peakHeld <= options.maxHeldBytes);
    const r = analyzePdfSync(bytes, options);
    for (const p of r.pages) assert.equal(p.route, 'unknown', JSON.stringify(p));
  });
});

// ---- 3. decoders look at the clock per block / per input chunk ------------------------------------------------------

class BitWriter {
  private bytes: Uint8Array;
  private len = 0;
  private acc = 0;
  private n = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }
  /** `count` bits of `v`, least significant first (DEFLATE's order for everything but Huffman codes) */
  bits(v: number, count: number): void {
    for (let i = 0; i < count; i++) {
      this.acc |= ((v >>> i) & 1) << this.n;
      if (++this.n === 8) {
        this.bytes[this.len++] = this.acc;
        this.acc = 0;
        this.n = 0;
      }
    }
  }
  /** a Huffman code, most significant bit first */
  code(c: number, len: number): void {
    for (let i = len - 1; i >= 0; i--) this.bits((c >>> i) & 1, 1);
  }
  done(): Uint8Array {
    if (this.n > 0) this.bytes[this.len++] = this.acc;
    return this.bytes.subarray(0, this.len);
  }
}

/**
 * `blocks` empty dynamic-Huffman blocks, then a final empty fixed block. Each gives end-of-block a 15-bit code, so
 * every block builds a 32 K-entry table and outputs nothing: the output never grows for the clock to be read.
 */
function emptyDynamicBlocks(blocks: number): Uint8Array {
  const w = new BitWriter(blocks * 14 + 16); // 109 bits a block
  // code-length code: symbol 18 → '0' (1 bit), 0 → '10', 15 → '11' (2 bits)
  const clLen = new Map([
    [18, 1],
    [0, 2],
    [15, 2],
  ]);
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  for (let b = 0; b < blocks; b++) {
    w.bits(0, 1); // not final
    w.bits(2, 2); // dynamic
    w.bits(0, 5); // HLIT: 257 literal/length codes
    w.bits(0, 5); // HDIST: 1 distance code
    w.bits(15, 4); // HCLEN: all 19
    for (const s of order) w.bits(clLen.get(s) ?? 0, 3);
    w.code(0, 1);
    w.bits(127, 7); // 138 zeros
    w.code(0, 1);
    w.bits(107, 7); // 118 more: literals 0..255 unused
    w.code(3, 2); // end-of-block: length 15
    w.code(2, 2); // the one distance code: unused
    w.code(0, 15); // end-of-block
  }
  w.bits(1, 1);
  w.bits(1, 2); // final fixed block
  w.code(0, 7); // end-of-block
  return w.done();
}

describe('decoders read the clock on work that yields no output', () => {
  let blocks: Uint8Array;
  before(() => {
    blocks = emptyDynamicBlocks(1_000_000);
  });

  test('the block stream is valid: a short one inflates to nothing, cleanly', () => {
    const r = inflateRaw(emptyDynamicBlocks(3), 0, 1 << 20);
    assert.equal(r.error, undefined);
    assert.equal(r.ended, true);
    assert.equal(r.data.length, 0);
  });

  test('1,000,000 empty dynamic blocks stop at the deadline (40 s before)', () => {
    const t = Date.now();
    const r = inflateRaw(blocks, 0, 1 << 20, t + 300);
    const ms = Date.now() - t;
    assert.equal(r.outOfTime, true);
    assert.ok(ms < 3000, `took ${ms} ms`);
  });

  test('as a page content stream: unknown with budget-exceeded, within the budget and slack', (t) => {
    const data = concat([new Uint8Array([0x78, 0x9c]), blocks]);
    const bytes = pdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      stream('/Filter /FlateDecode', data),
      FONT,
    ]);
    const child = inChild(bytes, { timeBudgetMs: 2000 });
    const { runs, wallMs, maxRssMB } = child;
    t.diagnostic(`file ${bytes.length} bytes; analysis ${runs[0].ms} ms, child wall ${wallMs} ms, peak RSS ${Math.round(maxRssMB)} MB`);
    const r = runs[0];
    assert.equal(r.pageCount, 1);
    assert.equal(r.pages[0].route, 'unknown', JSON.stringify(r.pages[0]));
    assert.ok(r.pages[0].reasons.includes('budget-exceeded'), JSON.stringify(r.pages[0].reasons));
    assert.ok(r.ms < 2000 + 3000, `analysis took ${r.ms} ms (wall ${wallMs})`);
  });

  // Each decoder is given a deadline already past and more than one clock interval of input: it must stop early
  // and say so (before, only inflate looked at the clock).
  const big = 1 << 20;
  const cases: [string, Uint8Array, string[], Record<string, number>?][] = [
    ['ASCIIHexDecode', enc('41'.repeat(big)), ['ASCIIHexDecode']],
    ['ASCII85Decode', enc('z'.repeat(big)), ['ASCII85Decode']],
    ['RunLengthDecode', new Uint8Array(2 * big).fill(0).map((_, i) => (i % 2 === 0 ? 0 : 65)), ['RunLengthDecode']],
    ['LZWDecode', lzwOfZeros(big), ['LZWDecode']],
  ];
  for (const [name, input, filters] of cases) {
    test(`${name} stops at a passed deadline`, () => {
      const full = decodeFilters(input, filters, [], 1 << 30);
      assert.equal(full.outOfTime, undefined);
      const cut = decodeFilters(input, filters, [], 1 << 30, Date.now() - 1);
      assert.equal(cut.outOfTime, true, `${name} ignored the deadline`);
      assert.ok(cut.data.length < full.data.length, `${name}: ${cut.data.length} of ${full.data.length}`);
    });
  }

  test('the PNG predictor stops at a passed deadline, keeping whole rows', () => {
    const columns = 100;
    // under 1 MiB decoded and a handful of blocks: inflate finishes without reading the clock, the predictor must
    const rows = 9_000;
    const raw = new Uint8Array(rows * (columns + 1));
    for (let r = 0; r < rows; r++) raw[r * (columns + 1)] = 2; // Up
    const z = new Uint8Array(deflateSync(raw));
    const params = [{ predictor: 12, columns }];
    const full = decodeFilters(z, ['FlateDecode'], params, 1 << 30);
    assert.equal(full.data.length, rows * columns);
    const cut = decodeFilters(z, ['FlateDecode'], params, 1 << 30, Date.now() - 1);
    assert.equal(cut.outOfTime, true);
    assert.equal(cut.data.length % columns, 0);
    assert.ok(cut.data.length < full.data.length);
  });
});

/** LZW codes for `n` zero bytes written one 9-bit literal at a time, with a clear code before the table fills. */
function lzwOfZeros(n: number): Uint8Array {
  const w: number[] = [];
  let acc = 0;
  let bits = 0;
  const put = (code: number, width: number): void => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      w.push((acc >>> (bits - 8)) & 255);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  put(256, 9);
  let inTable = 0;
  for (let i = 0; i < n; i++) {
    // every literal after the first adds a table entry; clear well before the width would grow
    if (inTable === 200) {
      put(256, 9);
      inTable = 0;
    }
    put(0, 9);
    inTable++;
  }
  put(257, 9);
  if (bits > 0) w.push((acc << (8 - bits)) & 255);
  return new Uint8Array(w);
}

// ---- 4. whitespace after the stream keyword ------------------------------------------------------------------------

describe('the stream keyword followed by spaces or tabs before its end-of-line', () => {
  for (const [label, tail] of [
    ['two spaces, CRLF', '  \r\n'],
    ['a tab, LF', '\t\n'],
    ['a space, CR alone', ' \r'],
    ['CR alone', '\r'],
  ] as const) {
    test(`${label}: the Flate content decodes and the page is text`, () => {
      const bytes = pdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
        stream('/Filter /FlateDecode', new Uint8Array(deflateSync(enc(TEXT))), tail),
        FONT,
      ]);
      const r = analyzePdfSync(bytes);
      assert.equal(r.pages[0]?.route, 'text', JSON.stringify(r.pages[0]));
      assert.ok(!r.pages[0].reasons.some((x) => /fault|damaged|corrupt/.test(x)), JSON.stringify(r.pages[0].reasons));
    });
  }

  test('stream data that starts with a space after a proper LF keeps that space', () => {
    const bytes = pdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      stream('', enc(' ' + TEXT)),
      FONT,
    ]);
    const r = analyzePdfSync(bytes);
    assert.equal(r.pages[0]?.route, 'text');
  });
});

describe('objects are bounded by the next object the xref places, never by a wrong offset', () => {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    // a long string in the page dictionary, and the page's real keys after it
    `<< /Type /Page /Parent 2 0 R /Note (${'n'.repeat(200)}) /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`,
    stream('', enc(TEXT)),
    FONT,
    '(spare)',
  ];
  const good = pdf(objects);
  const text = Buffer.from(good).toString('latin1');
  const page = text.indexOf('3 0 obj');
  const spare = text.indexOf('6 0 obj');
  const entry = (off: number): string => `${String(off).padStart(10, '0')} 00000 n `;

  test('an offset into the middle of another object is not taken as where that object ends', () => {
    assert.ok(page > 0 && spare > page);
    // object 6's entry points into the page's string: a bound taken from it would cut the page dictionary short
    const bad = enc(text.replace(entry(spare), entry(page + 120)));
    assert.notDeepEqual(bad, good);
    for (const bytes of [good, bad]) {
      const r = analyzePdfSync(bytes);
      assert.equal(r.pageCount, 1);
      assert.equal(r.pages[0].route, 'text', JSON.stringify(r.pages[0].reasons));
      assert.ok(r.pages[0].evidence.visibleChars > 40);
    }
  });

  test('many wrong offsets cost one check each, not one per object read', (t) => {
    // 20,000 entries all pointing into the page's string, and pages read at the end of the file: linear, in time
    const n = 20000;
    const head = pdf(objects);
    const s = Buffer.from(head).toString('latin1');
    const xrefAt = s.lastIndexOf('xref\n');
    let x = `xref\n0 ${7 + n}\n0000000000 65535 f \n`;
    const offs = [...s.matchAll(/(\d+) 0 obj\n/g)].map((m) => m.index);
    for (const o of offs) x += entry(o) + '\n';
    for (let i = 0; i < n; i++) x += entry(s.indexOf('3 0 obj') + 60 + (i % 100)) + '\n';
    x += `trailer\n<< /Size ${7 + n} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    const bytes = enc(s.slice(0, xrefAt) + x);
    const t0 = Date.now();
    const r = analyzePdfSync(bytes);
    t.diagnostic(`${Date.now() - t0} ms`);
    assert.equal(r.pages[0].route, 'text', JSON.stringify(r.pages[0].reasons));
    assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
  });
});
