// Hostile font loads (issue 12): hundreds of fonts with large ToUnicode maps must end at the time budget with an
// `unknown` page rather than a confident route after tens of seconds, and maps that expand to millions of codes
// must not grow the heap past the font cache's bound. The PDFs are built here, in memory, so each test says
// exactly what the file holds.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { analyzePdfSync } from '../src/analyzer/index';
import { openDocument } from '../src/analyzer/document';
import { ScanContext, scanPage } from '../src/analyzer/content';
import { resolveOptions } from '../src/analyzer/options';
import { Budget } from '../src/analyzer/budget';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CMAP_HEAD = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n';
const CMAP_TAIL = '\nendcmap CMapName currentdict /CMap defineresource pop end end\n';
const PARAGRAPH = 'The quick brown fox jumps over the lazy dog while the analyzer counts every character it can read. '.repeat(4);

/** A one-page PDF: `fontCount` fonts, each with its own ToUnicode stream, selected in turn (showing an A when `show`), then a Helvetica paragraph. */
function manyFontsPdf(fontCount: number, toUnicode: (i: number) => string, subtype: 'TrueType' | 'Type0', show: boolean): Uint8Array {
  const objs: Buffer[] = [];
  const add = (body: Buffer | string) => {
    objs.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objs.length;
  };
  const stream = (dict: string, data: Buffer) =>
    Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
  const catalog = add('');
  const pages = add('');
  const names: string[] = [];
  for (let i = 0; i < fontCount; i++) {
    const tu = add(stream('/Filter /FlateDecode', deflateSync(Buffer.from(CMAP_HEAD + toUnicode(i) + CMAP_TAIL, 'latin1'))));
    const font =
      subtype === 'Type0'
        ? add(
            `<< /Type /Font /Subtype /Type0 /BaseFont /F${i} /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /F${i} >>] /ToUnicode ${tu} 0 R >>`,
          )
        : add(`<< /Type /Font /Subtype /TrueType /BaseFont /F${i} /ToUnicode ${tu} 0 R >>`);
    names.push(`/F${i} ${font} 0 R`);
  }
  const helv = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  let content = 'BT\n';
  for (let i = 0; i < fontCount; i++) content += `/F${i} 1 Tf ${show ? `(${subtype === 'Type0' ? '\\000A' : 'A'}) Tj` : ''}\n`;
  content += `/H 10 Tf 72 720 Td (${PARAGRAPH}) Tj\nET\n`;
  const contents = add(stream('/Filter /FlateDecode', deflateSync(Buffer.from(content, 'latin1'))));
  const pageObj = add(
    `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${names.join(' ')} /H ${helv} 0 R >> >> /Contents ${contents} 0 R >>`,
  );
  objs[catalog - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pages} 0 R >>`, 'latin1');
  objs[pages - 1] = Buffer.from(`<< /Type /Pages /Kids [${pageObj} 0 R] /Count 1 >>`, 'latin1');
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')];
  let pos = parts[0].length;
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(pos);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), o, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(b);
    pos += b.length;
  });
  let xref = `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) xref += `${String(off).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objs.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${pos}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/** 262,144 codes to class through four full-plane bfranges: ~10 ms of parsing each, from ~100 bytes of file. */
const slowMap = (i: number) =>
  `1 begincodespacerange <0000> <FFFF> endcodespacerange\n4 beginbfrange <0000> <FFFF> <0041> <0000> <FFFF> <4E00> <0000> <FFFF> <0061> <0000> <FFFF> <${(0x30 + (i % 10)).toString(16).padStart(4, '0')}> endbfrange`;

test('hundreds of fonts with large ToUnicode maps stop at the time budget: unknown, budget-exceeded, never text', () => {
  // the fonts are selected, not used: only the paragraph after them would make the page text
  const pdf = manyFontsPdf(800, slowMap, 'TrueType', false);
  const start = Date.now();
  const rep = analyzePdfSync(pdf, { timeBudgetMs: 2000 });
  const elapsed = Date.now() - start;
  // 800 × ~10 ms of CMap parsing without the clock; with it, the budget plus one CMap's worth (generous slack)
  assert.ok(elapsed < 15_000, `took ${elapsed} ms`);
  const p = rep.pages[0];
  assert.equal(p.route, 'unknown', JSON.stringify({ reasons: p.reasons, notes: p.notes }));
  assert.ok(p.reasons.includes('budget-exceeded'), JSON.stringify(p.reasons));
  assert.equal(rep.limit?.reason, 'budget-exceeded');
  assert.ok(rep.limit?.stage === 'cmap' || rep.limit?.stage === 'fonts', JSON.stringify(rep.limit));
});

/** Live heap plus typed-array memory after a full collection. */
function retained(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

test('fonts held for a document stay within fontCacheBytes, whatever their ToUnicode maps define', () => {
  // half the fonts map every 2-byte code (a 128 KB table each), half a 4-byte range of 2^32 codes (which must stay a
  // range: expanded code by code it is a quarter-million Map entries per font, and the heap runs out)
  const map = (i: number) =>
    i % 2 === 0
      ? '1 begincodespacerange <0000> <FFFF> endcodespacerange\n1 beginbfrange <0000> <FFFF> <0000> endbfrange'
      : '1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n1 beginbfrange <00000000> <FFFFFFFF> <0000> endbfrange\n1 begincidrange <00000000> <FFFFFFFF> 0 endcidrange';
  const pdf = manyFontsPdf(600, map, 'Type0', true);
  const fontCacheBytes = 4 * 1024 * 1024;
  const options = resolveOptions({ fontCacheBytes });
  const budget = new Budget(Infinity, options.maxHeldBytes);
  const doc = openDocument(pdf, options, budget);
  const before = retained();
  const ctx = new ScanContext(doc.xref, options, budget);
  const scan = scanPage(doc.pages[0], ctx);
  const grown = retained() - before;
  assert.deepEqual(scan.faults, []);
  assert.ok(scan.visibleChars >= 600 + 300, `visible ${scan.visibleChars}`);
  assert.ok(ctx.fonts.heldBytes <= fontCacheBytes, `held ${ctx.fonts.heldBytes}`);
  assert.ok(ctx.fonts.size < 600, 'older fonts were evicted');
  // the 300 dense tables alone are 38 MB: what stays is the cache's share plus generous slack
  assert.ok(grown < fontCacheBytes + 16 * 1024 * 1024, `retained ${(grown / 1048576).toFixed(1)} MB with the scan context alive`);
  // and the whole analysis with default options answers
  const rep = analyzePdfSync(pdf);
  assert.equal(rep.pages[0].route, 'text', JSON.stringify(rep.pages[0].reasons));
});

test('a font that cannot be held even alone in the font cache makes its page unknown with memory-limit', () => {
  const map = () => '1 begincodespacerange <0000> <FFFF> endcodespacerange\n1 beginbfrange <0000> <FFFF> <0000> endbfrange';
  const pdf = manyFontsPdf(3, map, 'Type0', true);
  const rep = analyzePdfSync(pdf, { fontCacheBytes: 64 * 1024 });
  const p = rep.pages[0];
  assert.equal(p.route, 'unknown', JSON.stringify(p));
  assert.ok(p.reasons.includes('memory-limit'), JSON.stringify(p.reasons));
  assert.deepEqual(rep.limit, { reason: 'memory-limit', stage: 'fonts' });
  // the same file with the default cache is plain text
  assert.equal(analyzePdfSync(pdf).pages[0].route, 'text');
});

test('the CMap limits of AnalyzerOptions reach the CMap parser through the document (maxCMapCodes, maxCMapBytes)', () => {
  const map = () => '1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfrange <20> <7E> <0020> endbfrange';
  const pdf = manyFontsPdf(1, map, 'TrueType', true);
  const tu = (options?: Parameters<typeof analyzePdfSync>[1]) =>
    analyzePdfSync(pdf, options).pages[0].evidence.fonts.find((f) => f.baseFont === 'F0')?.toUnicode;
  assert.equal(tu(), 'yes');
  // 95 codes: a cap of 10 cuts the map short, and a map cut short is 'broken'
  assert.equal(tu({ maxCMapCodes: 10 }), 'broken');
  // a stream read only in part is cut short too
  assert.equal(tu({ maxCMapBytes: 40 }), 'broken');
});
