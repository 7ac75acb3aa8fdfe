/**
 * Keeps one tiny document's objects alive for as long as the analyzer is loaded, so that the hidden classes V8 made
 * for the analyzer's own objects (XRef, PdfDict, Ref, fonts, the font cache, the budget, the page scanner, the
 * readers of CMaps and XMP, a report) outlive every document.
 *
 * Why: V8's optimised code holds the hidden classes ("maps") of the objects it was optimised for weakly. Between two
 * documents nothing of the analyzer is alive, so a full garbage collection there collects those maps and throws away
 * every function optimised for them ("deoptimizing … reason: weak objects"); the next document runs in the
 * interpreter until they are optimised again. With a full collection before each of 295 small corpus files (as the
 * benchmark does between files) that was 1,391 such deoptimisations (`node --trace-deopt`), and a per-document time
 * several times the steady one. A long-lived worker meets the same after every full collection between documents.
 * Holding one instance of each class keeps its maps; the cost is this document's few kilobytes.
 */
import { Budget } from './budget';
import { layerQuality } from './layerQuality/index';
import { TextLayerBuilder } from './textLayer';
import { ToUnicodeTextReader } from './textLayerFonts';
import { CMapLexer, parseCMap } from './cmap';
import { type PageScan, PageScanner, ScanContext } from './content';
import { openDocument } from './document';
import { Lexer } from './lexer';
import { xmpReaderAnchor } from './metadata';
import { resolveOptions } from './options';
import type { DocumentReport } from './types';
import { Parser } from './parser';

/** an XMP packet with a property, a list and an attribute */
const XMP_PACKET =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:dc="http://purl.org/dc/elements/1.1/" pdf:Producer="shape"><dc:creator><rdf:Seq><rdf:li>a</rdf:li></rdf:Seq></dc:creator><pdf:Keywords>b</pdf:Keywords></rdf:Description></rdf:RDF></x:xmpmeta>';

/**
 * A simple font's ToUnicode map with an entry of every kind the text layer reads: a range of one-unit targets (noted
 * lazily), a range with an array of targets, a ligature (a string of two units) and a single code.
 */
const SIMPLE_TO_UNICODE =
  '/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfrange <41> <5A> <0041> <61> <63> [<0061> <0062> <0063>] endbfrange 2 beginbfchar <66> <00660069> <78> <0078> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end\n';

/**
 * One page: a simple font with widths, a composite font with /W and a ToUnicode CMap, a simple TrueType font with a
 * ToUnicode CMap (shown by the text layer's anchor), an inline image, and a producer in /Info (the score shows it).
 * The composite font's /DW and the image's share of the page are fractions on purpose: a field that held a small
 * integer in the anchor and then a fraction in some document moves the class to a new map and leaves the
 * anchor's deprecated, so only the document held the map that counts, and a full GC threw the code away with it
 * (the anchored CompositeFont had `dw` 1, most embedded CID fonts 0.5-ish; pages with images a fractional coverage).
 */
function tinyPdf(
  content = 'BT /F1 12 Tf 72 720 Td (shape) Tj /F2 10 Tf <00410042> Tj ET\nq 20 0 0 10 72 600 cm BI /W 1 /H 1 /CS /G /BPC 8 ID x EI Q\n',
): Uint8Array {
  const cmap =
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0041> <0042> <0061> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end\n';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 9 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [278 278] >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /Shape /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>',
    '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Shape /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 /W [65 [500 600]] >>',
    `<< /Length ${cmap.length} >>\nstream\n${cmap}endstream`,
    '<< /Type /Font /Subtype /TrueType /BaseFont /ShapeTT /FirstChar 32 /LastChar 122 /Widths [250 0 300] /Encoding /WinAnsiEncoding /ToUnicode 10 0 R >>',
    `<< /Length ${SIMPLE_TO_UNICODE.length} >>\nstream\n${SIMPLE_TO_UNICODE}endstream`,
  ];
  let s = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(s.length);
    s += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  let x = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) x += `${String(o).padStart(10, '0')} 00000 n \n`;
  s += `${x}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info << /Producer (shape) >> >>\nstartxref\n${s.length}\n%%EOF\n`;
  return ascii(s);
}

function ascii(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

let anchors: unknown[] | undefined;
let layerAnchors: unknown[] | undefined;
let layerScans: PageScan[] | undefined;
let scoreAnchors: unknown[] | undefined;
/** turned runs in the anchored layer, for the tests */
let turnedRuns = 0;
/** what the anchoring read, for the tests: a broken tiny document would anchor nothing of the font code */
let summary: { pages: number; visibleChars: number; fonts: string[]; faults: string[] } | undefined;

/** Makes the anchors once (on the first analysis, not on import). Best effort: a failure here changes no result. */
export function anchorShapes(): void {
  if (anchors) return;
  anchors = [];
  try {
    const bytes = tinyPdf();
    const options = resolveOptions();
    const budget = Budget.unbounded();
    const doc = openDocument(bytes, options, budget);
    const ctx = new ScanContext(doc.xref, options, budget);
    // the scanners too, not only their scans: a page scanner's class gets its fields one by one as it is built, and
    // without one alive every full GC took those maps and the interpreter's code optimised for them
    const scanners = doc.pages.map((p) => new PageScanner(p, ctx));
    const scans = scanners.map((sc) => sc.run());
    summary = {
      pages: doc.pages.length,
      visibleChars: scans.reduce((n, sc) => n + sc.visibleChars, 0),
      fonts: scans.flatMap((sc) => sc.fonts.map((f) => `${f.baseFont}:${f.decoding}`)),
      faults: scans.flatMap((sc) => sc.faults),
    };
    const lexer = new Lexer(bytes);
    // the CMap tokenizer lives only while a CMap is read: one of its own, over the CMap above
    // resolved options are one object per analysis, and each optional flag set adds a property, so a map: the
    // options with the text layer or the score on have maps of their own, which every text-layer and score function
    // reading them was optimised for
    const flagged = [
      resolveOptions({ layerQuality: true }),
      resolveOptions({ textLayer: true }),
      resolveOptions({ textLayer: true, layerQuality: true }),
    ];
    // the XMP reader too (it lives only while a packet is read)
    const xmp = xmpReaderAnchor(ascii(XMP_PACKET));
    anchors.push(doc, ctx, scans, scanners, lexer, new Parser(lexer), new CMapLexer(bytes, budget), flagged, xmp);
  } catch {
    // the anchors only keep maps alive; without them the analysis is the same, only slower after a full GC
  }
}

/**
 * The same for the text layer (its builder and glyph runs, the fonts' text lookups), on the first analysis that asks
 * for it, and for the layer-quality score (its signals, the runs' likelihoods) on the first that asks for the score:
 * an analysis without them loads nothing more for this.
 */
export function anchorLayerShapes(score: boolean): void {
  if (!layerAnchors) {
    layerAnchors = [];
    try {
      // the text state in fractions, as pages set it: its fields' representations are then the final ones (as below).
      // Read with the score's option too: scanning collects the scan images then, and loads no language model
      const bytes = tinyPdf(
        'BT /F1 11.5 Tf 0.25 Tc 0.5 Tw 95 Tz 0.5 Ts 72.5 720.25 Td (sh ape) Tj /F2 10.5 Tf <00410042> Tj 0 -14.5 Td [(a) -120.5 (b)] TJ /F3 9.5 Tf (fA xb) Tj ET\nq 20 0 0 10 72 600 cm BI /W 1 /H 1 /CS /G /BPC 8 ID x EI Q\n',
      );
      const options = resolveOptions({ textLayer: true, layerQuality: true });
      const budget = Budget.unbounded();
      const doc = openDocument(bytes, options, budget);
      const ctx = new ScanContext(doc.xref, options, budget);
      const scanners = doc.pages.map((p) => new PageScanner(p, ctx));
      layerScans = scanners.map((sc) => sc.run());
      // values of every kind a page gives (fractional sizes and positions, a space, a line break, an unknown glyph),
      // so that the fields' representations are the final ones: a field that first held a small integer and then a
      // fraction moves the builder to a new map, and only the new one would matter
      const builder = new TextLayerBuilder(options, budget);
      const at = (...v: number[]) => Float64Array.from(v);
      builder.beginShow();
      builder.style(10.5, 'F', 0.9);
      builder.glyph('a', 1, at(0.5, 0.25, 5.5, 10.25, 0.5, 0.25, 5.5, 0.25));
      builder.glyph('', 0, at(5.5, 0.25, 8.5, 10.25, 5.5, 0.25, 8.5, 0.25));
      builder.glyph('', 1, at(8.5, 0.25, 13.5, 10.25, 8.5, 0.25, 13.5, 0.25));
      builder.style(12, 'G', 1);
      builder.glyph('b', 1, at(0.5, -19.75, 5.5, -9.75, 0.5, -19.75, 5.5, -19.75));
      builder.endShow('invisible');
      builder.beginShow();
      builder.glyph('c', 1, at(6.5, -19.75, 11.5, -9.75, 6.5, -19.75, 11.5, -19.75));
      builder.endShow('visible');
      // a run turned up the page: only such runs get `turned`, a map of its own that only a document with turned
      // text held (every full GC after one threw away the builder's and the score's code that had met it)
      builder.beginShow();
      builder.glyph('d', 1, at(30.5, 0.25, 40.5, 5.25, 40.5, 0.25, 40.5, 5.25));
      builder.endShow('visible');
      // the ToUnicode reader lives only while a font's map is read, and the CMap lexer's token loop calls it: one of
      // its own, read to the end, keeps its class (without it that loop and the reader's steps were thrown away at
      // every full GC)
      const reader = new ToUnicodeTextReader(budget);
      parseCMap(ascii(SIMPLE_TO_UNICODE), budget, undefined, reader);
      const layer = builder.finish();
      turnedRuns = layer.runs.filter((r) => r.turned).length;
      layerAnchors.push(doc, ctx, layerScans, scanners, builder, layer, [reader, reader.result()]);
    } catch {
      // as above: only the speed after a full GC depends on it
    }
  }
  if (score && !scoreAnchors) {
    scoreAnchors = [];
    try {
      // the score of the page read above (this loads the language models, which the analysis is about to need)
      // (with and without a font and a producer: the signals get those fields when known, and each set is a map)
      for (const sc of layerScans ?? [])
        if (sc.textLayer)
          for (const context of [{}, { font: 'F' }, { producer: 'P' }, { font: 'F', producer: 'P' }])
            scoreAnchors.push(layerQuality({ layer: sc.textLayer, which: 'visible', ...context }));
      layerAnchors.push(scoreAnchors);
    } catch {
      // as above
    }
  }
}

/** the tiny document's report per kind of options (1: the text layer, 2: the score, each on or off) */
const reportAnchors = new Map<number, unknown>();

/**
 * The same for the report: the tiny document's report, once per kind of options (with or without the text layer and
 * the score: their evidence has fields of its own). A report is built one field at a time (a page's route, then its
 * reasons, then its evidence), and each step is a map of its own that lived only as long as the caller's report.
 * `analyze` is the analysis, given the caller's options (it calls back here, and finds the kind made).
 */
export function anchorReport<O>(kind: number, options: O, analyze: (bytes: Uint8Array, options: O) => unknown): void {
  if (reportAnchors.has(kind)) return;
  reportAnchors.set(kind, undefined);
  try {
    reportAnchors.set(kind, analyze(tinyPdf(), options));
  } catch {
    // as above: only the speed after a full GC depends on it
  }
}

/** For the tests: how many objects are held, and what the tiny document gave. */
export function anchored(): { held: number; layerHeld: number; turnedRuns: number; reports: number; summary: typeof summary } {
  return {
    held: anchors?.length ?? 0,
    layerHeld: layerAnchors?.length ?? 0,
    turnedRuns,
    reports: [...reportAnchors.values()].filter((r) => (r as DocumentReport | undefined)?.pageCount === 1 && !(r as DocumentReport).error).length,
    summary,
  };
}
