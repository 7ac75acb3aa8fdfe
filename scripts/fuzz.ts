/**
 * Mutation fuzzer for the page analyzer (issue 6).
 *
 *   node --import tsx scripts/fuzz.ts [--seed N] [--count N] [--corpus] [--budget MS] [--margin MS] [--index I]
 *                                     [--stream-mb N] [--page-mb N] [--layer-quality] [--no-save] [--verbose]
 *
 * Seeds are the project's fixtures (test/fixtures/analyzer, test/fixtures/crypto; with --corpus also ../shared/corpus
 * files up to 2 MB when present). Mutant i of seed S is generated from its own PRNG stream (S, i), so `--index I`
 * regenerates exactly one mutant of a run. Each mutant is analysed in a child process (so a hang can be killed and an
 * out-of-memory abort reported instead of ending the run) with a small time budget; a throw, a broken report
 * invariant or a dead child is a crash, a run longer than budget + margin (or killed) is a timeout. Crashing and timing-out inputs are
 * saved under test/fixtures/fuzz/ (named seed-index.pdf) with a line in the README there; they are replayed by
 * test/fuzz.test.ts. Exit status is 1 when there was any crash or timeout.
 *
 * The module also exports the pieces the robustness tests reuse: the PDF builder, the hostile generators, the
 * invariant checker and the isolated (child process) analyzer.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildProcess, fork } from 'node:child_process';
import { deflateSync } from 'node:zlib';
import { Deflate } from 'fflate';
import { type AnalyzerOptions, DEFAULT_OPTIONS } from '../src/analyzer/options';
import { type DocumentReport, type LayerQuality, LIMIT_REASONS, type PageRoute, type RouteReason, type TextLayer } from '../src/analyzer/types';
import { MAX_MISSING_REGIONS } from '../src/analyzer/layerQuality/missing';
import { decodeJpegGray } from '../src/analyzer/layerQuality/jpeg';
import { boxReduce } from '../src/analyzer/layerQuality/pixels';
import { encodeFax } from './fax-encoder';
import { encodeJpx } from './jpx-encoder';
import { jbig2HuffmanPageStream, jbig2PageStream } from './jbig2-segments';
import { type Bitmap, newBitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import { palette16Of } from './ocr-split-recode';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, '..');
export const FUZZ_DIR = join(ROOT, 'test', 'fixtures', 'fuzz');

// ---- deterministic PRNG ---------------------------------------------------------------------------------------------

/** mulberry32: small, fast, and good enough to pick mutations. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The PRNG of mutant `index` of run `seed`: independent streams, so one mutant can be regenerated alone. */
function mutantRng(seed: number, index: number): Rng {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 13;
  return new Rng(prng(h));
}

class Rng {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

// ---- bytes helpers ---------------------------------------------------------------------------------------------------

function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}
function fromLatin1(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'latin1'));
}
function concat(parts: (Uint8Array | string)[]): Uint8Array {
  const bs = parts.map((p) => (typeof p === 'string' ? fromLatin1(p) : p));
  const out = new Uint8Array(bs.reduce((n, b) => n + b.length, 0));
  let o = 0;
  for (const b of bs) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}
function splice(b: Uint8Array, at: number, del: number, ins: Uint8Array | string): Uint8Array {
  return concat([b.subarray(0, at), typeof ins === 'string' ? fromLatin1(ins) : ins, b.subarray(Math.min(b.length, at + del))]);
}
/** All match offsets of a regex over the file read as latin1 (harness side: regexes are fine here). */
function matches(s: string, re: RegExp, max = 5000): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  let m: RegExpExecArray | null;
  while ((m = g.exec(s)) && out.length < max) {
    out.push(m);
    if (m[0].length === 0) g.lastIndex++;
  }
  return out;
}

// ---- a minimal PDF writer ----------------------------------------------------------------------------------------------

export type ObjBody = string | { dict: string; data: Uint8Array | string };

/** Writes a classic PDF: objects numbered from 1, a correct xref table and trailer. */
export class PdfBuilder {
  private readonly objs: (ObjBody | undefined)[] = [];
  add(body: ObjBody): number {
    this.objs.push(body);
    return this.objs.length;
  }
  /** reserves a number for an object whose body refers to numbers allocated later */
  reserve(): number {
    this.objs.push(undefined);
    return this.objs.length;
  }
  set(num: number, body: ObjBody): void {
    this.objs[num - 1] = body;
  }
  stream(dict: string, data: Uint8Array | string): number {
    return this.add({ dict, data });
  }
  /** a Flate stream */
  flate(dict: string, data: Uint8Array | string): number {
    const raw = typeof data === 'string' ? fromLatin1(data) : data;
    return this.add({ dict: `/Filter /FlateDecode ${dict}`, data: new Uint8Array(deflateSync(raw)) });
  }
  build(root: number, trailerExtra = ''): Uint8Array {
    const parts: Uint8Array[] = [fromLatin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
    let off = parts[0].length;
    const offsets: number[] = [];
    this.objs.forEach((o, i) => {
      offsets.push(off);
      let b: Uint8Array;
      if (o === undefined) b = fromLatin1(`${i + 1} 0 obj\nnull\nendobj\n`);
      else if (typeof o === 'string') b = fromLatin1(`${i + 1} 0 obj\n${o}\nendobj\n`);
      else {
        const data = typeof o.data === 'string' ? fromLatin1(o.data) : o.data;
        b = concat([`${i + 1} 0 obj\n<< ${o.dict} /Length ${data.length} >>\nstream\n`, data, '\nendstream\nendobj\n']);
      }
      parts.push(b);
      off += b.length;
    });
    let x = `xref\n0 ${this.objs.length + 1}\n0000000000 65535 f \n`;
    for (const o of offsets) x += `${String(o).padStart(10, '0')} 00000 n \n`;
    x += `trailer\n<< /Size ${this.objs.length + 1} /Root ${root} 0 R ${trailerExtra} >>\nstartxref\n${off}\n%%EOF\n`;
    parts.push(fromLatin1(x));
    return concat(parts);
  }
}

const HELV = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
const TEXT = 'BT /F1 12 Tf 72 720 Td (The quick brown fox jumps over the lazy dog, forty-three characters.) Tj ET\n';

/** A document of pages given by their content bytes and extra resources; returns the builder for more objects. */
export function docWith(
  pages: { content: number | Uint8Array | string; res?: string; extra?: string }[],
  b = new PdfBuilder(),
): { b: PdfBuilder; bytes: () => Uint8Array } {
  const font = b.add(HELV);
  const cat = b.reserve();
  const root = b.reserve();
  const kids: number[] = [];
  for (const p of pages) {
    const c = typeof p.content === 'number' ? p.content : b.stream('', p.content);
    kids.push(
      b.add(
        `<< /Type /Page /Parent ${root} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> ${p.res ?? ''} >> /Contents ${c} 0 R ${p.extra ?? ''} >>`,
      ),
    );
  }
  b.set(root, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  b.set(cat, `<< /Type /Catalog /Pages ${root} 0 R >>`);
  return { b, bytes: () => b.build(cat) };
}

// ---- hostile generators (shared with test/robustness.test.ts) -------------------------------------------------------

const bombCache = new Map<string, Uint8Array>();
/**
 * Flate applied `layers` times to `mb` MiB of a repeated pattern: 128 MiB of zeros is ~250 KB after one layer and
 * under 1 KB after two. Cached: building the big one costs ~1 s.
 */
export function flateBombData(mb: number, layers: number, pattern = '\0'): Uint8Array {
  const key = `${mb}/${layers}/${pattern}`;
  let d = bombCache.get(key);
  if (!d) {
    // the first layer streams 1 MiB at a time so the harness never holds the decoded size itself (it would
    // inflate the memory figures it reports)
    const unit = Buffer.alloc(1 << 20, pattern, 'latin1');
    const chunks: Uint8Array[] = [];
    const z = new Deflate({ level: 9 }, (c) => chunks.push(c));
    for (let i = 0; i < mb; i++) z.push(unit, i === mb - 1);
    let buf = concat(chunks);
    for (let i = 1; i < layers; i++) buf = new Uint8Array(deflateSync(buf, { level: 9 }));
    d = buf;
    bombCache.set(key, d);
  }
  return d;
}

export const hostile = {
  /** a page whose content is a Flate bomb (layers of FlateDecode) */
  flateBomb(mb = 128, layers = 2, pattern = '\0', copies = 1): Uint8Array {
    const { b, bytes } = docWith([]);
    const data = flateBombData(mb, layers, pattern);
    const filters = Array(layers).fill('/FlateDecode').join(' ');
    const s = b.stream(`/Filter [${filters}]`, data);
    return withPages(b, bytes, [{ content: copies === 1 ? `${s} 0 R` : `[${Array(copies).fill(`${s} 0 R`).join(' ')}]` }]);
  },
  /** form X whose content draws X (n = 1), or a cycle of n forms */
  selfDrawingForm(n = 1): Uint8Array {
    const b = new PdfBuilder();
    const forms = Array.from({ length: n }, () => b.reserve());
    forms.forEach((f, i) => {
      const next = forms[(i + 1) % n];
      b.set(f, {
        dict: `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X ${next} 0 R >> >>`,
        data: 'q /X Do Q 0 0 10 10 re f',
      });
    });
    return pageDoc(b, '/X Do', `/XObject << /X ${forms[0]} 0 R >>`);
  },
  /** a chain of `depth` forms, each drawing the next `fanout` times (fanout > 1: exponential work without a cycle) */
  formChain(depth: number, fanout = 1): Uint8Array {
    const b = new PdfBuilder();
    const img = b.stream('/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8', '\x80');
    let next = img;
    for (let i = 0; i < depth; i++) {
      const draw = Array(fanout).fill('q /X Do Q').join(' ');
      next = b.stream(
        `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X ${next} 0 R >> >>`,
        i === 0 ? 'q 612 0 0 792 0 0 cm /X Do Q' : draw,
      );
    }
    return pageDoc(b, '/X Do', `/XObject << /X ${next} 0 R >>`);
  },
  /** `n` opening brackets in the page content and in the page dictionary */
  deepNesting(n = 100_000, open = '['): Uint8Array {
    const b = new PdfBuilder();
    const c = b.flate('', `${open.repeat(n)}\n${TEXT}`);
    return pageDoc(b, c, '', `/Junk ${open.repeat(Math.min(n, 20000))}`);
  },
  /** a page tree whose /Count lies */
  countLie(count: string | number = 2147483647): Uint8Array {
    return fromLatin1(latin1(docWith([{ content: TEXT }, { content: TEXT }]).bytes()).replace('/Count 2', `/Count ${count}`));
  },
  /** a page tree with a cycle: the root lists itself, or an intermediate node lists the root */
  pageTreeCycle(kind: 'self' | 'grandchild' | 'parent-loop'): Uint8Array {
    const b = new PdfBuilder();
    const font = b.add(HELV);
    const cat = b.reserve();
    const root = b.reserve();
    const mid = b.reserve();
    const c = b.stream('', TEXT);
    const page = b.add(`<< /Type /Page /Parent ${mid} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${c} 0 R >>`);
    if (kind === 'self') {
      b.set(root, `<< /Type /Pages /Kids [${root} 0 R ${mid} 0 R] /Count 2 >>`);
      b.set(mid, `<< /Type /Pages /Parent ${root} 0 R /Kids [${page} 0 R] /Count 1 >>`);
    } else if (kind === 'grandchild') {
      b.set(root, `<< /Type /Pages /Kids [${mid} 0 R] /Count 2 >>`);
      b.set(mid, `<< /Type /Pages /Parent ${root} 0 R /Kids [${page} 0 R ${root} 0 R] /Count 1 >>`);
    } else {
      // no usable tree from the root; the page's /Parent chain loops (pagesByScan follows it)
      b.set(root, `<< /Type /Pages /Kids 7 /Count 1 >>`);
      b.set(mid, `<< /Type /Pages /Parent ${mid} 0 R /MediaBox [0 0 300 300] >>`);
    }
    b.set(cat, `<< /Type /Catalog /Pages ${root} 0 R >>`);
    return b.build(cat);
  },
  /** `n` refs to the same page in /Kids (a leaf listed twice is shown twice, so this is n pages) */
  manyPages(n: number, textRuns = 1): Uint8Array {
    const b = new PdfBuilder();
    const font = b.add(HELV);
    const cat = b.reserve();
    const root = b.reserve();
    const c = b.stream('', TEXT.repeat(textRuns));
    const page = b.add(`<< /Type /Page /Parent ${root} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${c} 0 R >>`);
    b.set(root, `<< /Type /Pages /Kids [${Array(n).fill(`${page} 0 R`).join(' ')}] /Count ${n} >>`);
    b.set(cat, `<< /Type /Catalog /Pages ${root} 0 R >>`);
    return b.build(cat);
  },
  /** numbers at the edge of what doubles hold, in boxes, matrices, text state and operands */
  hugeNumbers(v = '1e308'): Uint8Array {
    const n = v;
    const content = `${n} 0 0 ${n} 0 0 cm q ${n} ${n} ${n} ${n} re f Q BT /F1 ${n} Tf ${n} Tz ${n} Tc ${n} TL ${n} ${n} Td [(A) ${n} (B)] TJ T* (C) Tj ET ${n} 0 0 ${n} ${n} ${n} cm /Im Do 99999999999999999999999 0 0 1 0 0 cm /Im Do`;
    const b = new PdfBuilder();
    const img = b.stream(`/Type /XObject /Subtype /Image /Width ${n} /Height ${n} /ColorSpace /DeviceGray /BitsPerComponent 8`, '\x80');
    return pageDoc(
      b,
      content,
      `/XObject << /Im ${img} 0 R >>`,
      `/MediaBox [0 0 ${n} ${n}] /CropBox [-${n} -${n} ${n} ${n}] /Rotate ${n} /UserUnit ${n}`,
    );
  },
  /** `ops` operators of one kind (compressed, so the file stays small) */
  operatorFlood(ops: number, op = 'q Q'): Uint8Array {
    const b = new PdfBuilder();
    const unit = op + '\n';
    const c = b.add({
      dict: '/Filter /FlateDecode',
      data: new Uint8Array(deflateSync(Buffer.alloc(unit.length * ops, unit, 'latin1'), { level: 9 })),
    });
    const img = b.stream('/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8', '\x80');
    return pageDoc(b, c, `/XObject << /Im ${img} 0 R >>`);
  },
  /** a valid one-page file plus an update whose xref stream (two Flate layers, ~1 KB) claims `rows` objects */
  xrefStreamBomb(rows = 10_000_000): Uint8Array {
    const d = docWith([{ content: TEXT }]).bytes();
    const s = latin1(d);
    const root = /\/Root (\d+ \d+ R)/.exec(s)![1];
    const prev = Number(/startxref\s+(\d+)/.exec(s)![1]);
    const z = deflateSync(deflateSync(Buffer.alloc(rows * 4, Buffer.from([1, 0, 9, 0]))));
    return concat([
      d,
      `\n99 0 obj\n<< /Type /XRef /W [1 2 1] /Index [0 ${rows}] /Size ${rows} /Root ${root} /Prev ${prev} /Filter [/FlateDecode /FlateDecode] /Length ${z.length} >>\nstream\n`,
      new Uint8Array(z),
      `\nendstream\nendobj\nstartxref\n${d.length + 1}\n%%EOF\n`,
    ]);
  },
  /** a reference chain of `n` objects (1 → 2 → … → content), or a cycle of `n` when cyclic */
  refChain(n: number, cyclic = false): Uint8Array {
    const b = new PdfBuilder();
    const c = b.stream('', TEXT);
    const chain = Array.from({ length: n }, () => b.reserve());
    chain.forEach((o, i) => b.set(o, i + 1 < n ? `${chain[i + 1]} 0 R` : cyclic ? `${chain[0]} 0 R` : `${c} 0 R`));
    return pageDoc(b, chain[0], '', `/Annots ${chain[0]} 0 R`);
  },
  /** one page drawing a full-page image through a form whose content has `padBytes` of comment before the `Do` */
  imageBehindLargeForm(padBytes: number): Uint8Array {
    const b = new PdfBuilder();
    const img = b.stream(IMAGE_10, '\x80'.repeat(100));
    const pad = '%' + 'x'.repeat(120) + '\n';
    const body = pad.repeat(Math.ceil(padBytes / pad.length)) + 'q 612 0 0 792 0 0 cm /Im Do Q';
    const form = b.flate(`/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Im ${img} 0 R >> >>`, body);
    return docWith([{ content: '/Fm Do', res: `/XObject << /Fm ${form} 0 R >>` }], b).bytes();
  },
  /** an n-page text file cut right after page 1's object (no xref, no trailer) */
  truncatedAfterPage1(n = 3): Uint8Array {
    const s = latin1(docWith(Array.from({ length: n }, () => ({ content: TEXT }))).bytes());
    const p1 = /(\d+) 0 obj\n<< \/Type \/Page /.exec(s)!;
    return fromLatin1(s.slice(0, s.indexOf('endobj', p1.index) + 'endobj\n'.length));
  },
  /** one readable page and a kid `99 0 R` that is not in the file, under a root whose /Count is `count` */
  lostPagesNode(count = 5): Uint8Array {
    const b = new PdfBuilder();
    const font = b.add(HELV);
    const cat = b.reserve();
    const root = b.reserve();
    const c = b.stream('', TEXT);
    const page = b.add(
      `<< /Type /Page /Parent ${root} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${c} 0 R >>`,
    );
    b.set(root, `<< /Type /Pages /Kids [${page} 0 R 99 0 R] /Count ${count} >>`);
    b.set(cat, `<< /Type /Catalog /Pages ${root} 0 R >>`);
    return b.build(cat);
  },
};

const IMAGE_10 = '/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 8';

/** Small hostile files of issue 12's classes, mutated like the fixtures (the big ones would only slow the run). */
export function hostileSeeds(): Seed[] {
  return [
    { name: 'hostile/truncated-after-page-1', bytes: hostile.truncatedAfterPage1() },
    { name: 'hostile/lost-pages-node', bytes: hostile.lostPagesNode() },
    { name: 'hostile/form-chain-14', bytes: hostile.formChain(14) },
    { name: 'hostile/image-behind-form', bytes: hostile.imageBehindLargeForm(64 * 1024) },
    { name: 'hostile/count-lie', bytes: hostile.countLie() },
  ];
}

function pageDoc(b: PdfBuilder, content: number | string, res: string, extra = ''): Uint8Array {
  const font = b.add(HELV);
  const c = typeof content === 'number' ? content : b.stream('', content);
  const cat = b.reserve();
  const root = b.reserve();
  const page = b.add(
    `<< /Type /Page /Parent ${root} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> ${res} >> /Contents ${c} 0 R ${extra} >>`,
  );
  b.set(root, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  b.set(cat, `<< /Type /Catalog /Pages ${root} 0 R >>`);
  return b.build(cat);
}

function withPages(b: PdfBuilder, _bytes: () => Uint8Array, pages: { content: string }[]): Uint8Array {
  // docWith([]) above made font, catalog and an empty root; rebuild the root with the given pages
  const kids = pages.map((p) =>
    b.add(`<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 1 0 R >> >> /Contents ${p.content} >>`),
  );
  b.set(3, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  b.set(2, `<< /Type /Catalog /Pages 3 0 R >>`);
  return b.build(2);
}

// ---- mutations ---------------------------------------------------------------------------------------------------------

type Mutator = (b: Uint8Array, r: Rng) => Uint8Array;

const HUGE = [
  '99999999999999999999',
  '-99999999999999999999',
  '2147483648',
  '-2147483649',
  '4294967296',
  '1e308',
  '-1e308',
  '1.7976931348623157e309',
  '-0',
  '0',
  '-1',
  '3.4e38',
  '.',
  '-.',
  '1..2',
  '9007199254740993',
  '0.000000000000000000001',
  '65536',
  '-2147483648',
  '1E400',
];

/** The last trailer's /Root, /Encrypt, /ID and startxref, to append incremental updates a reader will follow. */
function trailerInfo(s: string): { root?: string; extra: string; prev?: number; size: number } {
  const roots = matches(s, /\/Root\s+(\d+\s+\d+\s+R)/);
  const encs = matches(s, /\/Encrypt\s+(\d+\s+\d+\s+R)/);
  const ids = matches(s, /\/ID\s*(\[[^\]]{0,200}\])/);
  const sx = matches(s, /startxref\s+(\d+)/);
  let size = 1;
  for (const m of matches(s, /(\d+)\s+\d+\s+obj\b/)) size = Math.max(size, Number(m[1]) + 1);
  for (const m of matches(s, /\/Size\s+(\d+)/)) size = Math.max(size, Math.min(Number(m[1]), 1e6));
  let extra = '';
  if (encs.length) extra += ` /Encrypt ${encs[encs.length - 1][1]}`;
  if (ids.length) extra += ` /ID ${ids[ids.length - 1][1]}`;
  return { root: roots.length ? roots[roots.length - 1][1] : undefined, extra, prev: sx.length ? Number(sx[sx.length - 1][1]) : undefined, size };
}

/** Appends an incremental update (objects + classic xref section + trailer with /Prev). */
function appendUpdate(bytes: Uint8Array, objs: Map<number, ObjBody>, rootOverride?: string): Uint8Array {
  const s = latin1(bytes);
  const t = trailerInfo(s);
  const parts: Uint8Array[] = [bytes, fromLatin1('\n')];
  let off = bytes.length + 1;
  const rows: [number, number][] = [];
  let size = t.size;
  for (const [num, o] of objs) {
    rows.push([num, off]);
    size = Math.max(size, num + 1);
    let b: Uint8Array;
    if (typeof o === 'string') b = fromLatin1(`${num} 0 obj\n${o}\nendobj\n`);
    else {
      const data = typeof o.data === 'string' ? fromLatin1(o.data) : o.data;
      b = concat([`${num} 0 obj\n<< ${o.dict} /Length ${data.length} >>\nstream\n`, data, '\nendstream\nendobj\n']);
    }
    parts.push(b);
    off += b.length;
  }
  let x = 'xref\n';
  for (const [num, o] of rows) x += `${num} 1\n${String(o).padStart(10, '0')} 00000 n \n`;
  const root = rootOverride ?? t.root ?? '1 0 R';
  x += `trailer\n<< /Size ${size} /Root ${root}${t.extra}${t.prev !== undefined ? ` /Prev ${t.prev}` : ''} >>\nstartxref\n${off}\n%%EOF\n`;
  parts.push(fromLatin1(x));
  return concat(parts);
}

/** Replaces the document's page tree by a new one holding the old tree (when found) plus a hostile page. */
function addHostilePage(bytes: Uint8Array, r: Rng, make: (first: number) => { objs: Map<number, ObjBody>; page: string }): Uint8Array {
  const s = latin1(bytes);
  const t = trailerInfo(s);
  const first = t.size + 10;
  const { objs, page } = make(first + 3);
  const pagesRefs = matches(s, /\/Pages\s+(\d+\s+\d+\s+R)/);
  const old = pagesRefs.length && r.chance(0.8) ? pagesRefs[r.int(pagesRefs.length)][1] : '';
  const kids = r.chance(0.5) ? `${old} ${first + 2} 0 R` : `${first + 2} 0 R ${old}`;
  objs.set(first, `<< /Type /Catalog /Pages ${first + 1} 0 R >>`);
  objs.set(first + 1, `<< /Type /Pages /Kids [${kids}] /Count ${r.pick(['2', '1', '0', '-1', '2147483647', '1e300'])} >>`);
  objs.set(first + 2, `<< /Type /Page /Parent ${first + 1} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${first + 3} 0 R >> >> ${page} >>`);
  objs.set(first + 3, HELV);
  return appendUpdate(bytes, objs, `${first} 0 R`);
}

const MUTATORS: Record<string, Mutator> = {
  truncate(b, r) {
    return b.subarray(0, r.int(b.length + 1));
  },
  bitflips(b, r) {
    const out = b.slice();
    const n = r.range(1, 16);
    for (let i = 0; i < n && out.length; i++) out[r.int(out.length)] ^= 1 << r.int(8);
    return out;
  },
  byteRun(b, r) {
    const at = r.int(b.length + 1);
    const len = r.pick([1, 2, 4, 16, 64, 512, 4096]);
    const run = new Uint8Array(len);
    const mode = r.int(3);
    const v = r.pick([0, 0x20, 0x0a, 0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x2f, 0x25, 0x5c, 0xff, 0x80, 0x30]);
    for (let i = 0; i < len; i++) run[i] = mode === 0 ? v : mode === 1 ? r.int(256) : fromLatin1('0123456789 .-+eE')[r.int(16)];
    return r.chance(0.5) ? splice(b, at, len, run) : splice(b, at, 0, run);
  },
  insertToken(b, r) {
    const toks = [
      '<<',
      '>>',
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      'endobj',
      'stream',
      'endstream',
      'obj',
      'R',
      ' 0 R',
      'xref',
      'trailer',
      'startxref',
      '%%EOF',
      '/',
      '\\',
      'BI',
      'ID',
      'EI',
      'BT',
      'q',
      'Q',
      'Do',
      '1 0 obj',
      '%',
      '\r',
      '{',
      '}',
    ];
    return splice(b, r.int(b.length + 1), 0, ` ${r.pick(toks)} `);
  },
  deleteRange(b, r) {
    const at = r.int(b.length + 1);
    return splice(b, at, r.pick([1, 3, 10, 100, 1000]), '');
  },
  duplicateRange(b, r) {
    const at = r.int(b.length + 1);
    const len = r.pick([10, 100, 1000, 10000]);
    const chunk = b.slice(at, at + len);
    const to = r.int(b.length + 1);
    let out = b;
    for (let i = 0, n = r.pick([1, 2, 50]); i < n; i++) out = splice(out, to, 0, chunk);
    return out;
  },
  shiftXref(b, r) {
    const s = latin1(b);
    const rows = matches(s, /(\d{10}) (\d{5}) ([nf])/);
    const sx = matches(s, /startxref\s+(\d+)/);
    if (rows.length === 0 || r.chance(0.3)) {
      if (sx.length === 0) return MUTATORS.bitflips(b, r);
      const m = sx[r.int(sx.length)];
      const v = Math.max(0, Number(m[1]) + r.pick([-1000, -20, -1, 1, 7, 100, 1e6, -Number(m[1])]));
      const at = m.index + m[0].length - m[1].length;
      return splice(b, at, m[1].length, String(v));
    }
    let out = s;
    const n = r.range(1, Math.min(rows.length, 8));
    for (let i = 0; i < n; i++) {
      const m = rows[r.int(rows.length)];
      const v = Math.max(0, Number(m[1]) + r.pick([-100, -10, -1, 1, 3, 50, 100000, 9999999999]));
      const txt = String(Math.min(v, 9999999999)).padStart(10, '0');
      out = out.slice(0, m.index) + txt + out.slice(m.index + 10);
    }
    return fromLatin1(out);
  },
  wrongLength(b, r) {
    const ms = matches(latin1(b), /\/Length\s+(\d+)(\s+\d+\s+R)?/);
    if (ms.length === 0) return MUTATORS.byteRun(b, r);
    const m = r.pick(ms);
    const len = Number(m[1]);
    const v = r.pick([
      '0',
      '1',
      String(len + 1),
      String(Math.max(0, len - 1)),
      String(len * 2),
      String(len >> 1),
      '-5',
      '99999999999',
      '1e308',
      '4 0 R',
      '1 0 R',
      String(len + 9),
    ]);
    return splice(b, m.index, m[0].length, `/Length ${v}`);
  },
  cutStream(b, r) {
    const s = latin1(b);
    const ms = matches(s, /stream\r?\n/);
    if (ms.length === 0) return MUTATORS.truncate(b, r);
    const m = r.pick(ms);
    const start = m.index + m[0].length;
    const end = s.indexOf('endstream', start);
    const stop = end < 0 ? b.length : end;
    const mode = r.int(4);
    if (mode === 0) return splice(b, start + r.int(stop - start + 1), stop - start, ''); // tail of the data gone
    if (mode === 1 && end >= 0) return splice(b, end, 9, ''); // no endstream
    if (mode === 2) return b.subarray(0, start + r.int(stop - start + 1)); // file ends inside the stream
    return splice(b, start + r.int(stop - start + 1), r.range(1, 64), ''); // a hole inside the data
  },
  unbalance(b, r) {
    const s = latin1(b);
    const ms = matches(s, r.chance(0.5) ? />>/ : /<<|\[|\]|\(/);
    if (ms.length === 0) return MUTATORS.insertToken(b, r);
    const m = r.pick(ms);
    if (r.chance(0.5)) return splice(b, m.index, m[0].length, '');
    return splice(b, m.index, 0, m[0].repeat(r.pick([1, 2, 100, 5000])));
  },
  hugeNumber(b, r) {
    const ms = matches(latin1(b), /(?<![\d./A-Za-z])-?\d+(\.\d+)?(?![\d.])/);
    if (ms.length === 0) return MUTATORS.byteRun(b, r);
    let out = b;
    const n = r.range(1, 4);
    // replace back to front so earlier offsets stay valid
    const picks = Array.from({ length: n }, () => r.pick(ms)).sort((a, c) => c.index - a.index);
    let last = -1;
    for (const m of picks) {
      if (m.index === last) continue;
      last = m.index;
      out = splice(out, m.index, m[0].length, r.pick(HUGE));
    }
    return out;
  },
  cyclicRef(b, r) {
    const s = latin1(b);
    const objs = matches(s, /(\d+)\s+(\d+)\s+obj\b/);
    const refs = matches(s, /(\d+)\s+(\d+)\s+R\b/);
    if (objs.length === 0) return MUTATORS.bitflips(b, r);
    const mode = r.int(3);
    if (mode === 0 && refs.length > 0) {
      // a reference inside some object now points at that object (self-reference), or at another random object
      const m = r.pick(refs);
      let owner = objs[0];
      for (const o of objs) if (o.index < m.index) owner = o;
      const target = r.chance(0.6) ? owner[1] : r.pick(objs)[1];
      return splice(b, m.index, m[0].length, `${target} 0 R`);
    }
    // an update that makes two existing objects refer to each other, or one to itself
    const a = Number(r.pick(objs)[1]);
    const c = Number(r.pick(objs)[1]);
    const m = new Map<number, ObjBody>();
    if (mode === 1) {
      m.set(a, `${c} 0 R`);
      m.set(c, `${a} 0 R`);
    } else {
      m.set(
        a,
        `<< /Type /Pages /Kids [${a} 0 R ${c} 0 R] /Parent ${a} 0 R /Count 3 /Length ${a} 0 R /Resources ${a} 0 R /Contents ${a} 0 R /XObject << /X ${a} 0 R >> >>`,
      );
    }
    return appendUpdate(b, m);
  },
  pageTreeCycle(b, r) {
    return addHostilePage(b, r, (n) => {
      const m = new Map<number, ObjBody>();
      m.set(n + 1, `<< /Type /Pages /Kids [${n - 2} 0 R ${n + 1} 0 R] /Parent ${n - 2} 0 R >>`);
      return { objs: m, page: `/Kids [${n + 1} 0 R] /Contents ${n + 1} 0 R` };
    });
  },
  selfDrawingForm(b, r) {
    return addHostilePage(b, r, (n) => {
      const m = new Map<number, ObjBody>();
      const k = r.range(1, 3);
      for (let i = 0; i < k; i++) {
        m.set(n + 1 + i, {
          dict: `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X ${n + 1 + ((i + 1) % k)} 0 R >> >>`,
          data: r.pick(['/X Do', 'q /X Do Q /X Do', '/X Do 0 0 5 5 re f']),
        });
      }
      const annot = r.chance(0.3) ? ` /Annots [<< /Type /Annot /Subtype /Stamp /Rect [0 0 612 792] /F 4 /AP << /N ${n + 1} 0 R >> >>]` : '';
      m.set(n + 10, { dict: '', data: '/X Do' });
      return { objs: m, page: `/Contents ${n + 10} 0 R /Resources << /XObject << /X ${n + 1} 0 R >> >>${annot}` };
    });
  },
  deepForms(b, r) {
    const depth = r.pick([5, 12, 13, 40, 200]);
    const fanout = r.pick([1, 1, 2, 3, 8]);
    return addHostilePage(b, r, (n) => {
      const m = new Map<number, ObjBody>();
      m.set(n + 1, { dict: '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8', data: '\x80' });
      for (let i = 0; i < depth; i++) {
        const draw = i === 0 ? 'q 612 0 0 792 0 0 cm /X Do Q' : Array(fanout).fill('q 0.9 0 0 0.9 5 5 cm /X Do Q').join(' ');
        m.set(n + 2 + i, {
          dict: `/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X ${n + 1 + i} 0 R >> >>`,
          data: draw,
        });
      }
      m.set(n + 2 + depth, { dict: '', data: '/X Do' });
      return { objs: m, page: `/Contents ${n + 2 + depth} 0 R /Resources << /XObject << /X ${n + 1 + depth} 0 R >> >>` };
    });
  },
  flateBomb(b, r) {
    const layers = r.pick([1, 2, 2]);
    const mb = layers === 1 ? r.pick([8, 16]) : r.pick([16, 128]);
    const pattern = r.pick(['\0', '\0', ' ', 'q ', '0 ', '(']);
    const data = flateBombData(mb, layers, pattern);
    return addHostilePage(b, r, (n) => {
      const m = new Map<number, ObjBody>();
      m.set(n + 1, { dict: `/Filter [${Array(layers).fill('/FlateDecode').join(' ')}]`, data });
      const copies = r.pick([1, 1, 3]);
      const content =
        copies === 1
          ? `${n + 1} 0 R`
          : `[${Array(copies)
              .fill(`${n + 1} 0 R`)
              .join(' ')}]`;
      return { objs: m, page: `/Contents ${content}` };
    });
  },
  operatorFlood(b, r) {
    const op = r.pick(['q Q', 'q', '0 0 m', '1 0 0 1 0 0 cm', 'BT (a) Tj ET', '0 0 1 1 re f', 'BT /F1 1 Tf (x) Tj ET /Im Do']);
    const ops = r.pick([10_000, 300_000, 2_500_000]);
    const unit = op + '\n';
    const data = new Uint8Array(deflateSync(Buffer.alloc(unit.length * ops, unit, 'latin1')));
    return addHostilePage(b, r, (n) => {
      const m = new Map<number, ObjBody>();
      m.set(n + 1, { dict: '/Filter /FlateDecode', data });
      m.set(n + 2, { dict: '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8', data: '\x80' });
      return { objs: m, page: `/Contents ${n + 1} 0 R /Resources << /Font << /F1 ${n} 0 R >> /XObject << /Im ${n + 2} 0 R >> >>` };
    });
  },
  deepNesting(b, r) {
    const open = r.pick(['[', '<<', '[<<', '<< /A [']);
    const n = r.pick([100, 10_000, 200_000]);
    if (r.chance(0.5)) {
      // inside an existing object
      const ms = matches(latin1(b), /\d+\s+\d+\s+obj\b/);
      if (ms.length) {
        const m = r.pick(ms);
        return splice(b, m.index + m[0].length, 0, ` ${open.repeat(n)} `);
      }
    }
    return addHostilePage(b, r, (k) => {
      const m = new Map<number, ObjBody>();
      m.set(k + 1, { dict: '/Filter /FlateDecode', data: new Uint8Array(deflateSync(Buffer.from(`${open.repeat(n)} ${TEXT}`, 'latin1'))) });
      return { objs: m, page: `/Contents ${k + 1} 0 R /Junk ${open.repeat(Math.min(n, 10_000))}` };
    });
  },
  hostileFont(b, r) {
    // ToUnicode CMaps with absurd ranges, widths arrays and CID widths that hostile writers could produce
    const cmap = r.pick([
      '1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange 1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange',
      '1 begincodespacerange <0000> <FFFF> endcodespacerange 3 beginbfrange <0000> <FFFF> <0041> <0000> <FFFF> [<41> <42>] <FFFF> <0000> <0041> endbfrange',
      '1 beginbfchar <01> <' + '0041'.repeat(5000) + '> endbfchar',
      '/X usecmap /Y usecmap 99999999 beginbfchar <01> <0041> endbfchar',
      '1 begincodespacerange <00> <FF> endcodespacerange 1 begincidrange <00> <FF> 4294967295 endcidrange',
    ]);
    const w = r.pick(['[0 4294967295 1000]', '[0 [1 2 3] 99999999 [4] 1e308 1e308 5]', '[' + '0 [1] '.repeat(20000) + ']', '[-5 -1 500]']);
    const type0 = r.chance(0.5);
    const codes = type0 ? '<0001000200030004>' : '(ABCD)';
    return addHostilePage(b, r, (n) => {
      const m = new Map<number, ObjBody>();
      m.set(n + 1, {
        dict: '',
        data: `/CIDInit /ProcSet findresource begin 12 dict begin begincmap ${cmap} endcmap CMapName currentdict /CMap defineresource pop end end`,
      });
      if (type0) {
        m.set(
          n + 2,
          `<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding ${r.pick(['/Identity-H', `${n + 1} 0 R`, '/UniJIS-UCS2-H'])} /ToUnicode ${n + 1} 0 R /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /W ${w} /DW ${r.pick(['1000', '1e308', '-1'])} /CIDToGIDMap ${n + 1} 0 R >>] >>`,
        );
      } else {
        m.set(
          n + 2,
          `<< /Type /Font /Subtype ${r.pick(['/Type1', '/TrueType', '/Type3'])} /BaseFont /Foo /FirstChar ${r.pick(['0', '-99999', '2147483647', '255'])} /LastChar ${r.pick(['255', '99999999', '-1'])} /Widths ${w} /ToUnicode ${n + 1} 0 R /Encoding << /Differences [0 /a /b 4294967295 /c -5 /d] >> /FontMatrix [1e308 0 0 1e-308 0 0] /CharProcs << >> >>`,
        );
      }
      m.set(n + 3, { dict: '', data: `BT /F2 12 Tf 72 700 Td ${codes} Tj [${codes} -1e308 ${codes}] TJ ET` });
      return { objs: m, page: `/Contents ${n + 3} 0 R /Resources << /Font << /F2 ${n + 2} 0 R >> >>` };
    });
  },
  hostileFilters(b, r) {
    // predictor and filter parameters at their edges
    const parms = r.pick([
      '/DecodeParms << /Predictor 15 /Columns 99999999 /Colors 99999 /BitsPerComponent 16 >>',
      '/DecodeParms << /Predictor 12 /Columns 0 >>',
      '/DecodeParms << /Predictor 2 /Columns -5 /Colors 0 /BitsPerComponent 3 >>',
      '/DecodeParms << /Predictor 15 /Columns 1e308 >>',
      '/DecodeParms [null << /Predictor 10 >> 5]',
      '/DecodeParms << /EarlyChange 7 >>',
    ]);
    const filter = r.pick([
      '/FlateDecode',
      '/LZWDecode',
      '[/ASCIIHexDecode /FlateDecode]',
      '/RunLengthDecode',
      '/ASCII85Decode',
      '[/FlateDecode /FlateDecode /FlateDecode]',
      '/Crypt',
      '/JBIG2Decode',
      '[/LZWDecode /RunLengthDecode]',
    ]);
    const payload = r.pick([
      new Uint8Array(deflateSync(Buffer.from(TEXT.repeat(10)))),
      fromLatin1('\x80'.repeat(2000)), // RunLength: repeat next byte 129 times, data missing
      fromLatin1('\xff\x00'.repeat(4000)), // RunLength: 2 bytes -> 128 bytes
      fromLatin1('<~' + 'z'.repeat(5000) + '~>'),
      fromLatin1('4' + 'f'.repeat(9999)),
      new Uint8Array(Array.from({ length: 3000 }, (_, i) => (i * 7919) & 255)),
    ]);
    return addHostilePage(b, r, (n) => {
      const m = new Map<number, ObjBody>();
      m.set(n + 1, { dict: `/Filter ${filter} ${parms}`, data: payload });
      return { objs: m, page: `/Contents [${n + 1} 0 R ${n + 1} 0 R]` };
    });
  },
  hostileXrefStream(b, r) {
    // an update whose xref section is a stream with absurd /W, /Index or /Size
    const s = latin1(b);
    const t = trailerInfo(s);
    const w = r.pick(['[1 2 1]', '[0 0 0]', '[99 99 99]', '[1 4294967295 1]', '[-1 2 1]', '[1 8 2]', '[1 2]', '7']);
    const index = r.pick(['', '/Index [0 4294967295]', '/Index [2147483647 2]', '/Index [0 1 5]', '/Index [-5 3]', '/Index [0 99999999 0 99999999]']);
    const data = new Uint8Array(r.pick([0, 4, 64, 4096])).map(() => r.int(256));
    const off = b.length + 1;
    const body = concat([
      `${t.size} 0 obj\n<< /Type /XRef /W ${w} ${index} /Size ${r.pick([String(t.size + 1), '2147483647', '0', '-3'])} /Root ${t.root ?? '1 0 R'}${t.extra}${t.prev !== undefined ? ` /Prev ${t.prev}` : ''} /Length ${data.length} >>\nstream\n`,
      data,
      '\nendstream\nendobj\n',
    ]);
    return concat([b, '\n', body, `startxref\n${off}\n%%EOF\n`]);
  },
  hostileObjStm(b, r) {
    const t = trailerInfo(latin1(b));
    const n0 = t.size + 5;
    const header = r.pick([`${n0 + 1} 0 ${n0 + 2} 5`, `${n0 + 1} 99999999`, '', `${n0 + 1} 0 ${n0 + 1} 0 ${n0 + 1} 0`, '-1 -1 -1 -1']);
    const body = r.pick(['<< /Type /Page >> << /Kids [1 0 R] >>', '[[[[[[', '(unterminated', '<< /A ' + '[ '.repeat(5000)]);
    const data = `${header} ${body}`;
    const objs = new Map<number, ObjBody>();
    objs.set(n0, {
      dict: `/Type /ObjStm /N ${r.pick(['2', '1000000000', '-1', '1e308', '3'])} /First ${r.pick([String(header.length + 1), '0', '99999999', '-4'])} /Extends ${n0} 0 R`,
      data,
    });
    // an xref stream pointing objects into it
    const rows = new Uint8Array([2, (n0 >> 8) & 255, n0 & 255, 0, 2, (n0 >> 8) & 255, n0 & 255, 1]);
    const xs = concat([
      `${n0 + 3} 0 obj\n<< /Type /XRef /W [1 2 1] /Index [${n0 + 1} 2] /Size ${n0 + 4} /Root ${t.root ?? '1 0 R'}${t.extra}${t.prev !== undefined ? ` /Prev ${t.prev}` : ''} /Length ${rows.length} >>\nstream\n`,
      rows,
      '\nendstream\nendobj\n',
    ]);
    const withStm = appendUpdate(b, objs);
    return concat([withStm, '\n', xs, `startxref\n${withStm.length + 1}\n%%EOF\n`]);
  },
  hostileEncrypt(b, r) {
    const t = trailerInfo(latin1(b));
    const n = t.size + 3;
    const m = new Map<number, ObjBody>();
    const v = r.pick([
      `<< /Filter /Standard /V 5 /R 6 /Length 256 /O <00> /U <00> /OE <> /UE <> /P -4 /CF << /StdCF << /CFM /AESV3 /Length 32 >> >> /StmF /StdCF /StrF /StdCF >>`,
      `<< /Filter /Standard /V 2 /R 3 /Length 99999999 /O (x) /U (y) /P 1e308 >>`,
      `<< /Filter /Standard /V 4 /R 4 /CF << /StdCF << /CFM /AESV2 >> >> /StmF /Missing /StrF /StdCF /O <${'00'.repeat(32)}> /U <${'00'.repeat(32)}> /P -1 >>`,
      `${n} 0 R`,
      `<< /Filter /Unknown /V 99 >>`,
    ]);
    m.set(n, v);
    const s = latin1(b);
    const t2 = trailerInfo(s);
    // the update's trailer names the new /Encrypt instead of the old one
    const out = appendUpdate(b, m);
    const tail = latin1(out.subarray(b.length));
    const fixed = tail
      .replace(/\/Encrypt\s+\d+\s+\d+\s+R/, '')
      .replace('trailer\n<<', `trailer\n<< /Encrypt ${n} 0 R${t2.extra.includes('/ID') ? '' : ' /ID [<0123> <4567>]'}`);
    return concat([b, fromLatin1(fixed)]);
  },
};

const STRUCTURAL = [
  'shiftXref',
  'wrongLength',
  'cutStream',
  'unbalance',
  'hugeNumber',
  'cyclicRef',
  'pageTreeCycle',
  'selfDrawingForm',
  'deepForms',
  'flateBomb',
  'operatorFlood',
  'deepNesting',
  'hostileFont',
  'hostileFilters',
  'hostileXrefStream',
  'hostileObjStm',
  'hostileEncrypt',
];
const BYTES = ['truncate', 'bitflips', 'byteRun', 'insertToken', 'deleteRange', 'duplicateRange'];
/** relative weights: the expensive generators (bombs, floods) are rarer so a bounded run covers more inputs */
const WEIGHT: Record<string, number> = { flateBomb: 0.25, operatorFlood: 0.25, deepNesting: 0.5, hostileEncrypt: 0.5 };

export interface Seed {
  name: string;
  bytes: Uint8Array;
}

/**
 * The seed files: the project's fixtures and the hostile generators' files, with `corpus` the shared corpus too, and
 * with `scans` (the layer-quality runs) the extension's OCR-layer fixture as a third of the picks, its scan a baseline
 * JPEG, a Group 4, a palette, a JPEG 2000 or a JBIG2 image (arithmetic or Huffman-coded) in turn (recodedScanSeeds): the scans the score's image evidence reads
 * (the other fixtures' scans are none of these under a layer).
 */
export function loadSeeds(corpus = false, scans = false): Seed[] {
  const dirs = [join(ROOT, 'test/fixtures/analyzer'), join(ROOT, 'test/fixtures/crypto')];
  const seeds: Seed[] = [];
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).sort())
      if (f.endsWith('.pdf')) seeds.push({ name: relative(ROOT, join(d, f)), bytes: new Uint8Array(readFileSync(join(d, f))) });
  }
  seeds.push(...hostileSeeds());
  const cdir = join(ROOT, '..', 'shared', 'corpus');
  if (corpus && existsSync(cdir)) {
    const walk = (d: string, depth: number): void => {
      if (depth > 4) return;
      for (const f of readdirSync(d).sort()) {
        const p = join(d, f);
        const st = statSync(p);
        if (st.isDirectory()) walk(p, depth + 1);
        else if (/\.pdf$/i.test(f) && st.size <= 2 << 20) seeds.push({ name: relative(ROOT, p), bytes: new Uint8Array(readFileSync(p)) });
      }
    };
    walk(cdir, 0);
  }
  const scan = join(ROOT, 'test/fixtures/e2e/layer-quality.pdf');
  if (scans && existsSync(scan)) {
    const s: Seed = { name: relative(ROOT, scan), bytes: new Uint8Array(readFileSync(scan)) };
    // the fixture as it is, and with its scan stored as Group 4, as a palette, as JPEG 2000 and as JBIG2: every decoder the score has
    const kinds = [s, ...recodedScanSeeds(s)];
    for (let i = 0, n = Math.ceil(seeds.length / 2); i < n; i++) seeds.push(kinds[i % kinds.length]);
  }
  return seeds;
}

/**
 * The OCR-layer fixture with its JPEG scan (object 3) stored as the other scans the score decodes, at half its
 * resolution: Group 4 (CCITTFaxDecode), 4-bit indices under a 16-gray palette (FlateDecode, /Indexed), a lossless
 * JP2 file (JPXDecode, by the test-only scripts/jpx-encoder.ts), a JBIG2 generic region and the same page as
 * Huffman-coded JBIG2 text (JBIG2Decode, by the test-only scripts/jbig2-segments.ts). The file is rewritten around the new object, its xref
 * offsets moved by the change in length. None when the fixture is not laid out as expected.
 */
export function recodedScanSeeds(fixture: Seed): Seed[] {
  const text = Buffer.from(fixture.bytes).toString('latin1');
  const m = /\n3 0 obj\n<<([^]*?)>>\nstream\n/.exec(text);
  const length = Number(/\/Length (\d+)/.exec(m?.[1] ?? '')?.[1]);
  if (!m || !(length > 0)) return [];
  const start = m.index + 1;
  const dataAt = m.index + m[0].length;
  const end = text.indexOf('endobj\n', dataAt + length) + 'endobj\n'.length;
  const jpeg = decodeJpegGray(fixture.bytes.subarray(dataAt, dataAt + length), 1 << 24);
  if (!jpeg.ok || end < 'endobj\n'.length) return [];
  const img = boxReduce(jpeg.image, 2);
  const { width: w, height: h, data } = img;
  const ink = (x: number, y: number) => data[y * w + x] < 128;
  const g4 = encodeFax(
    Array.from({ length: h }, (_, y) => Array.from({ length: w }, (_, x) => ink(x, y))),
    -1,
  );
  const { indices, colorSpace } = palette16Of(data, w, h);
  const head = `/Type /XObject /Subtype /Image /Width ${w} /Height ${h}`;
  const recoded: [string, string, Uint8Array][] = [
    ['g4', `${head} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /CCITTFaxDecode /DecodeParms << /K -1 /Columns ${w} /Rows ${h} >>`, g4],
    ['palette16', `${head} /ColorSpace ${colorSpace} /BitsPerComponent 4 /Filter /FlateDecode`, deflateSync(indices)],
    ['jpx', `${head} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /JPXDecode`, encodeJpx(data, w, h, { jp2: true })],
    ['jbig2', `${head} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode`, jbig2PageStream(bilevel(w, h, ink))],
    ['jbig2huffman', `${head} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /JBIG2Decode`, jbig2HuffmanPageStream(bilevel(w, h, ink))],
  ];
  return recoded.map(([kind, dict, bytes]) => {
    const obj = `3 0 obj\n<< ${dict} /Length ${bytes.length} >>\nstream\n${Buffer.from(bytes).toString('latin1')}\nendstream\nendobj\n`;
    const delta = obj.length - (end - start);
    // the xref's offsets past the object, and startxref, move by its change in length
    let out = text.slice(0, start) + obj + text.slice(end);
    out = out.replace(/^(\d{10}) (\d{5}) n $/gm, (line, off: string, gen: string) =>
      Number(off) > start ? `${String(Number(off) + delta).padStart(10, '0')} ${gen} n ` : line,
    );
    out = out.replace(/startxref\n(\d+)/, (_, x: string) => `startxref\n${Number(x) + delta}`);
    return { name: `${fixture.name} (scan as ${kind})`, bytes: new Uint8Array(Buffer.from(out, 'latin1')) };
  });
}

/** the page's ink as a bilevel bitmap (1 = black) */
function bilevel(w: number, h: number, ink: (x: number, y: number) => boolean): Bitmap {
  const b = newBitmap(w, h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) b.data[y * w + x] = ink(x, y) ? 1 : 0;
  return b;
}

function pickWeighted(r: Rng, names: string[]): string {
  let total = 0;
  for (const n of names) total += WEIGHT[n] ?? 1;
  let x = r.next() * total;
  for (const n of names) {
    x -= WEIGHT[n] ?? 1;
    if (x < 0) return n;
  }
  return names[names.length - 1];
}

/** Mutant `index` of run `seed`: a seed file and 1–3 mutations, the list of which is its description. */
export function makeMutant(seeds: Seed[], seed: number, index: number): { bytes: Uint8Array; from: string; ops: string[] } {
  const r = mutantRng(seed, index);
  const s = seeds[r.int(seeds.length)];
  let bytes = s.bytes;
  const ops: string[] = [];
  const n = r.pick([1, 1, 1, 2, 2, 3]);
  for (let i = 0; i < n; i++) {
    const name = r.chance(0.45) ? pickWeighted(r, STRUCTURAL) : r.pick(BYTES);
    // a mutation that throws is a harness bug on an odd input: keep the bytes, note it
    try {
      bytes = MUTATORS[name](bytes, r);
      ops.push(name);
    } catch (e) {
      ops.push(`${name}!${String(e).slice(0, 40)}`);
    }
  }
  return { bytes, from: s.name, ops };
}

// ---- invariants ---------------------------------------------------------------------------------------------------------

const ROUTES: readonly PageRoute[] = ['text', 'ocr-layer', 'ocr', 'blank', 'review', 'unknown'];
const REASONS: ReadonlySet<string> = new Set<RouteReason>([
  'text-layer',
  'sparse-text',
  'invisible-text-only',
  'undecodable-text',
  'few-chars-over-image',
  'invisible-text-over-scan',
  'text-under-image',
  'image-only',
  'vector-only',
  'small-image-only',
  'little-paint',
  'nothing-painted',
  'password-required',
  'unsupported-encryption',
  'damaged',
  'not-a-pdf',
  'empty-file',
  'budget-exceeded',
  'stream-too-large',
  'too-many-operators',
  'form-depth-exceeded',
  'page-tree-cycle',
  'too-many-pages',
  'memory-limit',
  'page-unreadable',
]);
const EPS = 1e-9;

function isRect(r: unknown): r is [number, number, number, number] {
  return Array.isArray(r) && r.length === 4 && r.every((x) => typeof x === 'number' && Number.isFinite(x)) && r[0] <= r[2] && r[1] <= r[3];
}
function count(x: unknown): boolean {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

/** Every property a DocumentReport must hold whatever the input; returns the violations (empty when sound). */
export function checkInvariants(rep: DocumentReport, maxPages = 100_000): string[] {
  const v: string[] = [];
  const bad = (s: string) => {
    if (v.length < 20) v.push(s);
  };
  if (!rep || typeof rep !== 'object') return ['report is not an object'];
  if (!Array.isArray(rep.pages)) return ['pages is not an array'];
  const pages = rep.pages;
  if (rep.pageCount !== pages.length) bad(`pageCount ${rep.pageCount} != pages.length ${pages.length}`);
  if (pages.length > maxPages) bad(`more pages (${pages.length}) than maxPages`);
  let sum = 0;
  for (const k of ROUTES) {
    if (!count(rep.routeCounts?.[k])) bad(`routeCounts.${k} not a count`);
    sum += rep.routeCounts?.[k] ?? 0;
  }
  if (Object.keys(rep.routeCounts ?? {}).length !== ROUTES.length) bad('routeCounts has unknown keys');
  if (sum !== pages.length) bad(`routeCounts sum ${sum} != pages ${pages.length}`);
  const ocr = pages.filter((p) => p.route === 'ocr').map((p) => p.page);
  if (JSON.stringify(ocr) !== JSON.stringify(rep.ocrPages)) bad('ocrPages differ from the ocr pages');
  if (rep.needsOcr !== ocr.length > 0) bad('needsOcr ⇔ some ocr page broken');
  if (rep.error && (!REASONS.has(rep.error.reason) || typeof rep.error.message !== 'string')) bad('bad error');
  if (!Array.isArray(rep.notes) || rep.notes.some((n) => typeof n !== 'string')) bad('notes not strings');
  if (!(typeof rep.elapsedMs === 'number' && rep.elapsedMs >= 0)) bad('elapsedMs');
  if (typeof rep.encryption?.encrypted !== 'boolean') bad('encryption.encrypted');
  const md = rep.metadata;
  if (!md || typeof md.info !== 'object' || typeof md.xmp !== 'object' || !Array.isArray(md.hints)) bad('metadata shape');
  else for (const x of [...Object.values(md.info), ...Object.values(md.xmp)]) if (typeof x !== 'string') bad('metadata value not a string');
  const byRoute: Record<string, number> = {};
  pages.forEach((p, i) => {
    const at = `page ${i + 1}`;
    if (p.page !== i + 1) bad(`${at}: numbered ${p.page}`);
    if (!ROUTES.includes(p.route)) bad(`${at}: route ${p.route}`);
    byRoute[p.route] = (byRoute[p.route] ?? 0) + 1;
    if (!Array.isArray(p.reasons) || p.reasons.length === 0 || p.reasons.some((r) => !REASONS.has(r)))
      bad(`${at}: reasons ${JSON.stringify(p.reasons)}`);
    // nothing seen is not nothing there: behind a limit, only `text` (decoded text past the threshold) may stand
    else if (p.reasons.some((r) => LIMIT_REASONS.has(r)) && p.route !== 'unknown' && p.route !== 'text')
      bad(`${at}: ${p.route} behind a limit (${p.reasons.join(', ')})`);
    const e = p.evidence;
    if (!e) return bad(`${at}: no evidence`);
    for (const k of ['visibleChars', 'invisibleChars', 'hiddenUnderImage', 'badChars', 'vectorOps', 'operators', 'imageCount'] as const)
      if (!count(e[k])) bad(`${at}: ${k} = ${e[k]}`);
    if (e.badChars > e.visibleChars) bad(`${at}: badChars ${e.badChars} > visibleChars ${e.visibleChars}`);
    if (e.hiddenUnderImage > e.invisibleChars) bad(`${at}: hiddenUnderImage > invisibleChars`);
    if (!(e.imageCoverage >= 0 && e.imageCoverage <= 1)) bad(`${at}: imageCoverage ${e.imageCoverage}`);
    if (!(e.textQuality >= 0 && e.textQuality <= 1)) bad(`${at}: textQuality ${e.textQuality}`);
    // the report keeps the largest boxes only (maxImageBoxesPerPage), never more than it counted
    if (!Array.isArray(e.imageBoxes) || e.imageBoxes.length !== Math.min(e.imageCount, DEFAULT_OPTIONS.maxImageBoxesPerPage))
      bad(`${at}: imageBoxes.length ${e.imageBoxes?.length} for imageCount ${e.imageCount}`);
    else
      for (const ib of e.imageBoxes) {
        if (!isRect(ib.rect)) bad(`${at}: image rect ${JSON.stringify(ib.rect)}`);
        if (!(ib.share >= 0 && ib.share <= 1 + EPS)) bad(`${at}: image share ${ib.share}`);
        if (!['xobject', 'inline', 'shading'].includes(ib.kind)) bad(`${at}: image kind`);
      }
    if (!Array.isArray(e.fonts) || e.fonts.some((f) => !count(f.chars) || typeof f.name !== 'string')) bad(`${at}: fonts`);
    const b = e.boxes;
    if (!b || !isRect(b.mediaBox) || !isRect(b.cropBox)) bad(`${at}: boxes ${JSON.stringify(b)}`);
    else {
      const [m, c] = [b.mediaBox, b.cropBox];
      if (!(m[2] > m[0] && m[3] > m[1])) bad(`${at}: empty mediaBox`);
      if (c[0] < m[0] - EPS || c[1] < m[1] - EPS || c[2] > m[2] + EPS || c[3] > m[3] + EPS) bad(`${at}: cropBox outside mediaBox`);
    }
    if (![0, 90, 180, 270].includes(e.rotate)) bad(`${at}: rotate ${e.rotate}`);
    if (p.notes !== undefined && (!Array.isArray(p.notes) || p.notes.some((n) => typeof n !== 'string'))) bad(`${at}: notes`);
    if (e.layerQuality !== undefined) layerQualityInvariants(e.layerQuality, at, bad);
    if (e.textLayer !== undefined) textLayerInvariants(e.textLayer, at, bad);
  });
  for (const k of ROUTES) if ((byRoute[k] ?? 0) !== (rep.routeCounts?.[k] ?? 0)) bad(`routeCounts.${k} != pages with that route`);
  try {
    const j = JSON.stringify(rep);
    if (j.length > 256 << 20) bad(`report JSON is ${j.length} bytes`);
  } catch (e) {
    bad(`report does not serialise: ${String(e)}`);
  }
  return v;
}

/** A page's layerQuality: exactly { score, reocr, signals } (tools outside read them), a score in 0..1, finite signals. */
function layerQualityInvariants(q: LayerQuality, at: string, bad: (s: string) => void): void {
  if (!q || typeof q !== 'object') return bad(`${at}: layerQuality not an object`);
  if (Object.keys(q).sort().join() !== 'reocr,score,signals') bad(`${at}: layerQuality keys ${Object.keys(q).join()}`);
  if (!(q.score >= 0 && q.score <= 1)) bad(`${at}: layer score ${q.score}`);
  if (typeof q.reocr !== 'boolean') bad(`${at}: layer reocr ${String(q.reocr)}`);
  for (const [k, v] of Object.entries(q.signals ?? {}))
    if (!(typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) bad(`${at}: signal ${k} = ${v}`);
}

/** A page's text layer: runs with boxes, likelihoods in 0..1, its text a string, its regions of missing text boxes, 32 at most. */
function textLayerInvariants(l: TextLayer, at: string, bad: (s: string) => void): void {
  if (!l || !Array.isArray(l.runs) || typeof l.text !== 'string' || !count(l.runCount)) return bad(`${at}: textLayer shape`);
  if (l.runs.length > l.runCount) bad(`${at}: ${l.runs.length} runs kept of ${l.runCount}`);
  for (const r of l.runs) {
    if (!isRect(r.rect) || typeof r.text !== 'string') return bad(`${at}: run ${JSON.stringify(r).slice(0, 200)}`);
    if (r.likelihood !== undefined && !(r.likelihood >= 0 && r.likelihood <= 1)) return bad(`${at}: run likelihood ${r.likelihood}`);
  }
  if (l.missingText !== undefined && (!Array.isArray(l.missingText) || l.missingText.length === 0 || l.missingText.length > MAX_MISSING_REGIONS))
    bad(`${at}: missingText ${JSON.stringify(l.missingText).slice(0, 200)}`);
  else for (const r of l.missingText ?? []) if (!isRect(r)) bad(`${at}: missing-text box ${JSON.stringify(r)}`);
}

// ---- isolated analysis (child process) -------------------------------------------------------------------------------

export interface Outcome {
  /** analyzePdfSync's own time, ms (undefined when the child was killed or died) */
  ms?: number;
  report?: DocumentReport;
  /** thrown out of analyzePdfSync, or the child died (out of memory, native crash) */
  crash?: string;
  /** killed after hardMs */
  killed?: boolean;
  violations: string[];
  /** the child's heapUsed + arrayBuffers when the analysis returned (no GC in between) */
  heapAfterMB?: number;
}

interface Job {
  id: number;
  bytes: Uint8Array;
  options: Partial<AnalyzerOptions>;
  wantReport: boolean;
  /** collect garbage before the run, so `heap` is what this input holds, not what earlier ones left */
  gcFirst?: boolean;
}
interface Answer {
  id: number;
  ms: number;
  report?: DocumentReport;
  crash?: string;
  violations: string[];
  heap: number;
}

const CHILD_HEAP_MB = 1024;

/** Peak resident set of a process (Linux /proc VmHWM), in bytes; 0 where unavailable. */
function peakRss(pid: number | undefined): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
function currentRss(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * A child process running analyzePdfSync on request. A process rather than a worker thread: V8 aborts the whole
 * process on some out-of-memory paths (a Map grown past the heap limit) even inside a worker with resourceLimits,
 * which would take the harness (or the test runner) down with it. A run that overruns `hardMs` is killed, a child
 * that dies is replaced, and either is reported as the outcome of that input.
 */
export class IsolatedAnalyzer {
  private child: ChildProcess | undefined;
  private seq = 0;
  private stderr = '';
  /** largest growth of the child's peak RSS (VmHWM) over its idle size after start-up, bytes */
  peakGrowth = 0;
  private base = 0;

  /**
   * @param heapMB the child's V8 old-space limit: a smaller one makes a runaway input die sooner
   * @param gcFirst collect garbage before each run (costs milliseconds a run): for tests that bound `heapAfterMB`
   */
  constructor(
    private readonly heapMB = CHILD_HEAP_MB,
    private readonly gcFirst = false,
  ) {}

  private spawn(): ChildProcess {
    const tsx = import.meta.resolve('tsx');
    const c = fork(fileURLToPath(import.meta.url), ['--fuzz-child'], {
      execArgv: ['--import', tsx, `--max-old-space-size=${this.heapMB}`, ...(this.gcFirst ? ['--expose-gc'] : [])],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.stderr = '';
    c.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-4000);
    });
    c.unref();
    (c as unknown as { channel?: { unref(): void } }).channel?.unref();
    return c;
  }

  async analyze(bytes: Uint8Array, options: Partial<AnalyzerOptions>, hardMs: number, wantReport = false): Promise<Outcome> {
    if (!this.child) {
      this.child = this.spawn();
      // the first job after a spawn pays module loading: a warm-up of its own
      const warm = await this.call(this.child, { id: ++this.seq, bytes: new Uint8Array(0), options: {}, wantReport: false }, 60_000);
      if (warm.crash || warm.killed) throw new Error(`the analysis child did not start: ${warm.crash ?? 'timeout'}`);
      this.base = currentRss(this.child.pid);
    }
    const c = this.child;
    const res = await this.call(c, { id: ++this.seq, bytes, options, wantReport, gcFirst: this.gcFirst }, hardMs);
    const grown = peakRss(c.pid) - this.base;
    if (grown > this.peakGrowth) this.peakGrowth = grown;
    if (res.killed || res.crash?.startsWith('child ')) {
      this.child = undefined;
      c.kill('SIGKILL');
    }
    return res;
  }

  private call(c: ChildProcess, job: Job, hardMs: number): Promise<Outcome> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (o: Outcome) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        c.off('message', onMsg);
        c.off('exit', onExit);
        c.off('error', onErr);
        resolve(o);
      };
      const onMsg = (m: Answer) => {
        if (m.id === job.id) finish({ ms: m.ms, report: m.report, crash: m.crash, violations: m.violations, heapAfterMB: m.heap });
      };
      const onExit = (code: number | null, signal: string | null) => {
        // let the last of stderr (V8's out-of-memory report) arrive
        setTimeout(() => {
          const tail = this.stderr.replace(/\s+/g, ' ').trim().slice(-300);
          finish({
            crash:
              `child died (${signal ?? `exit ${code}`})${/heap out of memory|Allocation failed/i.test(this.stderr) ? ': out of memory' : ''} ${tail}`.trim(),
            violations: [],
          });
        }, 50);
      };
      const onErr = (e: Error) => finish({ crash: `child error: ${String(e).slice(0, 300)}`, violations: [] });
      const timer = setTimeout(() => finish({ killed: true, violations: [] }), hardMs);
      c.on('message', onMsg);
      c.on('exit', onExit);
      c.on('error', onErr);
      c.send(job);
    });
  }

  /** Stops the child. Not awaiting its exit: the child is unref'd, so a wait could let the event loop run dry. */
  async close(): Promise<void> {
    const c = this.child;
    this.child = undefined;
    if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}

async function childMain(): Promise<void> {
  const { analyzePdfSync } = await import('../src/analyzer/index');
  const { resolveOptions } = await import('../src/analyzer/options');
  process.on('message', (job: Job) => {
    let report: DocumentReport | undefined;
    let crash: string | undefined;
    if (job.gcFirst) (globalThis as { gc?: () => void }).gc?.();
    const t = performance.now();
    try {
      report = analyzePdfSync(job.bytes, job.options);
    } catch (e) {
      crash = `threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`.slice(0, 800);
    }
    const ms = performance.now() - t;
    const mu = process.memoryUsage();
    const heap = (mu.heapUsed + mu.arrayBuffers) / (1 << 20);
    let violations: string[] = [];
    if (report) {
      try {
        violations = checkInvariants(report, resolveOptions(job.options).maxPages);
      } catch (e) {
        violations = [`invariant check threw: ${String(e)}`];
      }
    }
    const answer: Answer = { id: job.id, ms, crash, violations, heap, report: job.wantReport ? report : undefined };
    process.send!(answer);
  });
  process.on('disconnect', () => process.exit(0));
}

// ---- the run -----------------------------------------------------------------------------------------------------------

/** the options under which the fuzzer also runs the layer-quality score (--layer-quality; test/fuzz.test.ts) */
export const LAYER_QUALITY_OPTIONS: Partial<AnalyzerOptions> = { layerQuality: true, textLayer: true };

export interface FuzzOptions {
  seed: number;
  count: number;
  corpus?: boolean;
  /** analyzer time budget per mutant */
  budgetMs?: number;
  /** slack over the budget before a run counts as a timeout (the budget is checked cooperatively) */
  marginMs?: number;
  /** other analyzer options for every mutant (e.g. smaller stream caps) */
  limits?: Partial<AnalyzerOptions>;
  /** only this mutant index */
  index?: number;
  /** save crashing inputs under test/fixtures/fuzz */
  save?: boolean;
  log?: (line: string) => void;
}

export interface Failure {
  index: number;
  kind: 'crash' | 'timeout';
  from: string;
  ops: string[];
  detail: string;
  ms?: number;
  file?: string;
}

export interface FuzzSummary {
  mutants: number;
  crashes: number;
  timeouts: number;
  maxMs: number;
  maxHeapMB: number;
  failures: Failure[];
  line: string;
  /** the slowest mutants, for tuning */
  slowest: { index: number; ms: number; from: string; ops: string[] }[];
  /** analysis time summed per mutation kind (a mutant's time counts for each of its kinds), for tuning */
  msByOp: Record<string, number>;
}

export async function runFuzz(o: FuzzOptions): Promise<FuzzSummary> {
  const seeds = loadSeeds(o.corpus, o.limits?.layerQuality === true);
  const budget = o.budgetMs ?? 2000;
  const margin = o.marginMs ?? 1500;
  const log = o.log ?? (() => {});
  const iso = new IsolatedAnalyzer();
  const failures: Failure[] = [];
  const slowest: FuzzSummary['slowest'] = [];
  const msByOp: Record<string, number> = {};
  let maxMs = 0;
  let maxHeap = 0;
  let n = 0;
  const first = o.index ?? 0;
  const last = o.index !== undefined ? o.index + 1 : o.count;
  const t0 = Date.now();
  try {
    for (let i = first; i < last; i++) {
      const m = makeMutant(seeds, o.seed, i);
      const res = await iso.analyze(m.bytes, { ...o.limits, timeBudgetMs: budget }, budget + margin + 20_000);
      n++;
      if (res.ms !== undefined) {
        maxMs = Math.max(maxMs, res.ms);
        for (const op of new Set(m.ops)) msByOp[op] = (msByOp[op] ?? 0) + res.ms;
        slowest.push({ index: i, ms: Math.round(res.ms), from: m.from, ops: m.ops });
        slowest.sort((a, b) => b.ms - a.ms);
        if (slowest.length > 5) slowest.pop();
      }
      if (res.heapAfterMB !== undefined) maxHeap = Math.max(maxHeap, res.heapAfterMB);
      let f: Failure | undefined;
      if (res.crash || res.violations.length > 0)
        f = { index: i, kind: 'crash', from: m.from, ops: m.ops, detail: res.crash ?? res.violations.join('; '), ms: res.ms };
      else if (res.killed || (res.ms ?? 0) > budget + margin)
        f = {
          index: i,
          kind: 'timeout',
          from: m.from,
          ops: m.ops,
          detail: res.killed ? 'killed: no answer' : `${Math.round(res.ms!)} ms`,
          ms: res.ms,
        };
      if (f) {
        if (o.save) f.file = saveReproducer(o.seed, f, m.bytes);
        failures.push(f);
        log(`${f.kind} #${i} (${m.from}; ${m.ops.join(', ')}): ${f.detail.slice(0, 300)}`);
      }
      if ((i + 1) % 500 === 0) log(`… ${i + 1 - first} mutants, ${failures.length} failures, ${Math.round((Date.now() - t0) / 1000)} s`);
    }
  } finally {
    await iso.close();
  }
  // memory figure: the larger of the child's heapUsed + ArrayBuffers when a run returned and the growth of its peak
  // resident set (VmHWM, a true high-water mark, which also sees memory freed before the run returned)
  const rssGrowth = iso.peakGrowth / (1 << 20);
  const maxHeapMB = Math.round(Math.max(maxHeap, rssGrowth));
  const crashes = failures.filter((f) => f.kind === 'crash').length;
  const timeouts = failures.length - crashes;
  const line = `${n} mutants, ${crashes} crashes, ${timeouts} timeouts, max ${Math.round(maxMs)} ms, max heap ${maxHeapMB} MB`;
  return { mutants: n, crashes, timeouts, maxMs, maxHeapMB, failures, line, slowest, msByOp };
}

function saveReproducer(seed: number, f: Failure, bytes: Uint8Array): string {
  mkdirSync(FUZZ_DIR, { recursive: true });
  const name = `${seed}-${f.index}.pdf`;
  writeFileSync(join(FUZZ_DIR, name), bytes);
  const readme = join(FUZZ_DIR, 'README.md');
  if (!existsSync(readme)) writeFileSync(readme, README_HEAD);
  const line = `- \`${name}\`: ${f.kind} — ${f.detail.split('\n')[0].slice(0, 200)} (from ${f.from}; ${f.ops.join(', ')})\n`;
  if (!readFileSync(readme, 'utf8').includes(`\`${name}\``)) appendFileSync(readme, line);
  return name;
}

const README_HEAD = `# Fuzz reproducers

Inputs that crashed the analyzer (a throw, a broken report invariant, a dead child process) or overran its time budget in
\`scripts/fuzz.ts\`, saved as \`<seed>-<index>.pdf\` (regenerate one with \`--seed <seed> --index <index>\`).
test/fuzz.test.ts replays every file here; an entry marked \`[todo: …]\` is a known open bug (the test is a todo).

`;

// ---- CLI ---------------------------------------------------------------------------------------------------------------

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function cli(argv: string[]): Promise<number> {
  const num = (name: string, d: number) => {
    const v = arg(argv, name);
    const x = v === undefined ? d : Number(v);
    if (!Number.isFinite(x)) throw new Error(`${name} needs a number`);
    return x;
  };
  const idx = arg(argv, '--index');
  const s = await runFuzz({
    seed: num('--seed', 1),
    count: num('--count', 2000),
    corpus: argv.includes('--corpus'),
    budgetMs: num('--budget', 2000),
    marginMs: num('--margin', 1500),
    index: idx === undefined ? undefined : Number(idx),
    limits: {
      ...(arg(argv, '--stream-mb') ? { maxStreamBytes: num('--stream-mb', 64) * (1 << 20) } : {}),
      ...(arg(argv, '--page-mb') ? { maxPageBytes: num('--page-mb', 128) * (1 << 20) } : {}),
      // the layer-quality score and the text layer it annotates (likelihoods, regions of missing text)
      ...(argv.includes('--layer-quality') ? LAYER_QUALITY_OPTIONS : {}),
    },
    save: !argv.includes('--no-save'),
    log: (l) => console.error(l),
  });
  if (argv.includes('--verbose')) {
    for (const x of s.slowest) console.error(`slow #${x.index} ${x.ms} ms (${x.from}; ${x.ops.join(', ')})`);
    console.error(
      Object.entries(s.msByOp)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${Math.round(v)}`)
        .join(', '),
    );
  }
  console.log(s.line);
  return s.crashes + s.timeouts > 0 ? 1 : 0;
}

if (process.argv.includes('--fuzz-child')) {
  void childMain();
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void cli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
