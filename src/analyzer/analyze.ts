/**
 * The analyzer's entry points: bytes in, a DocumentReport out. Never throws; a file that can't be read becomes a
 * report with `error` and `unknown` pages.
 */
import { anchorLayerShapes, anchorReport, anchorShapes } from './shapes';
import { Budget } from './budget';
import { scanPage, ScanContext, type PageScan, type ScanImage } from './content';
import { decodeJpegGray, layerQuality, type ScanInput } from './layerQuality/index';
import type { Matrix } from './geometry';
import { decodeFax, type FaxParams } from './layerQuality/ccitt';
import { decodeJpx, jpxWorkBytes, readJpxHeader } from './layerQuality/jpx';
import { decodeJbig2, decodeJbig2Globals, type Jbig2Globals, jbig2HeldPixels, jbig2WorkBytes } from './layerQuality/jbig2';
import { type DecodedScan, decodedScan, isBilevel, luma, reduceScan, type SampleLayout } from './layerQuality/pixels';
import { type OpenedDocument, openDocument } from './document';
import { readMetadata } from './metadata';
import { decodesFilter, stopFilterName } from './filters';
import { getArray, getNumber, PdfDict, PdfStream, type PdfValue } from './objects';
import { type AnalyzerOptions, buildsTextLayer, resolveOptions } from './options';
import { decideRoute } from './route';
import {
  type DocumentMetadata,
  type DocumentReport,
  type ImageBox,
  LIMIT_REASONS,
  type PageEvidence,
  type PageReport,
  type PageRoute,
  type RouteReason,
} from './types';

export function emptyRouteCounts(): Record<PageRoute, number> {
  return { text: 0, 'ocr-layer': 0, ocr: 0, blank: 0, review: 0, unknown: 0 };
}

export function analyzePdfSync(bytes: Uint8Array, options?: Partial<AnalyzerOptions>): DocumentReport {
  anchorShapes();
  // (before the clock starts: the anchor is an analysis of its own, and not this document's time)
  anchorReport((options?.textLayer === true ? 1 : 0) | (options?.layerQuality === true ? 2 : 0), options, analyzePdfSync);
  const start = Date.now();
  const opts = resolveOptions(options);
  if (buildsTextLayer(opts)) anchorLayerShapes(opts.layerQuality === true);
  const budget = new Budget(start + opts.timeBudgetMs, opts.maxHeldBytes);
  let doc: OpenedDocument | undefined;
  const report: DocumentReport = {
    pageCount: 0,
    pages: [],
    needsOcr: false,
    ocrPages: [],
    routeCounts: emptyRouteCounts(),
    encryption: { encrypted: false },
    metadata: { info: {}, xmp: {}, hints: [] },
    notes: [],
    elapsedMs: 0,
  };
  try {
    if (!(bytes instanceof Uint8Array)) {
      report.error = { reason: 'not-a-pdf', message: 'input is not a byte array' };
      return finish(report, start, opts.layerQuality === true);
    }
    doc = openDocument(bytes, opts, budget);
    report.pdfVersion = doc.version;
    report.encryption = doc.encryption;
    report.notes.push(...doc.notes);
    if (doc.fatal) {
      report.error = doc.fatal;
      // Pages we know of (those of a password-protected file, usually none otherwise) are unknown with the same reason.
      doc.pages.forEach((node, i) =>
        report.pages.push(unknownPage(i + 1, doc!.fatal!.reason, { boxes: { mediaBox: node.mediaBox, cropBox: node.cropBox }, rotate: node.rotate })),
      );
      return finish(report, start, opts.layerQuality === true, budget, doc);
    }
    report.metadata = metadataOf(doc, opts, report.notes);
    const ctx = new ScanContext(doc.xref, opts, budget);
    report.pageCount = doc.pages.length;
    let outOfTime = false;
    for (let i = 0; i < doc.pages.length; i++) {
      const node = doc.pages[i];
      const evidenceBase = {
        boxes: { mediaBox: node.mediaBox, cropBox: node.cropBox },
        rotate: node.rotate,
      };
      if (node.unreadable) {
        const page = unknownPage(i + 1, 'page-unreadable', evidenceBase);
        page.notes = [node.unreadable];
        report.pages.push(page);
        continue;
      }
      if (outOfTime || budget.outOfTime('content')) {
        outOfTime = true;
        report.pages.push(unknownPage(i + 1, 'budget-exceeded', evidenceBase));
        continue;
      }
      const scan = scanPage(node, ctx);
      const pr = pageReport(i + 1, scan, evidenceBase, opts);
      const which = opts.layerQuality && scan.textLayer ? scoredLayer(pr, scan, opts) : undefined;
      if (which) pr.evidence.layerQuality = scoreLayer(pr, which, scan, doc, budget, opts, report.metadata);
      report.pages.push(pr);
      if (scan.faults.includes('budget-exceeded')) outOfTime = true;
    }
  } catch (e) {
    report.error = { reason: 'damaged', message: `analysis failed: ${String(e).slice(0, 300)}` };
  }
  return finish(report, start, opts.layerQuality === true, budget, doc);
}

export async function analyzePdf(bytes: Uint8Array, options?: Partial<AnalyzerOptions>): Promise<DocumentReport> {
  return analyzePdfSync(bytes, options);
}

/**
 * A page's report from its scan. The rule that matters: evidence cut short by a limit or a fault is never read as
 * absence. The route is then `unknown`, its reasons naming the limit, with one exception: `text`, when the text
 * already decoded passes the text threshold; a limit cannot undraw it (the limit stays in the reasons).
 */
function pageReport(page: number, s: PageScan, base: Pick<PageEvidence, 'boxes' | 'rotate'>, opts: AnalyzerOptions): PageReport {
  const visible = s.visibleChars;
  const evidence: PageEvidence = {
    visibleChars: visible,
    invisibleChars: s.invisibleChars,
    hiddenUnderImage: s.hiddenUnderImage,
    badChars: s.badChars,
    textQuality: visible > 0 ? round3(1 - s.badChars / visible) : 1,
    fonts: s.fonts,
    imageCoverage: round4(s.imageCoverage),
    imageCount: s.imageBoxes.length,
    imageBoxes: largest(s.imageBoxes, opts.maxImageBoxesPerPage),
    vectorOps: s.vectorOps,
    operators: s.operators,
    ...base,
  };
  if (opts.textLayer && s.textLayer) evidence.textLayer = s.textLayer;
  const limits = s.faults.filter((f) => LIMIT_REASONS.has(f));
  const decided = decideRoute({ ...evidence, imageCount: s.imageBoxes.length }, opts);
  const pr: PageReport =
    limits.length > 0 && !(decided.route === 'text' && visible >= opts.minTextChars)
      ? { page, route: 'unknown', reasons: [...new Set(s.faults)], evidence }
      : { page, ...decided, evidence };
  if (pr.route !== 'unknown' && s.faults.length > 0) pr.reasons = [...pr.reasons, ...s.faults];
  if (s.notes.length > 0) pr.notes = s.notes.slice(0, 20);
  return pr;
}

/**
 * Which text of a page the layer-quality score judges (AnalyzerOptions.layerQuality), or undefined: the hidden layer
 * of an `ocr-layer` page; the visible text of a `text` page; and the hidden layer of an `ocr` page whose scan carries
 * fewer hidden characters than an OCR layer needs to route as one (minOcrLayerChars). That is still an OCR layer, and
 * a tool reading the advice must not find none: most often the engine read almost nothing of a scan full of text,
 * which the scan's ink shows.
 */
function scoredLayer(pr: PageReport, s: PageScan, opts: AnalyzerOptions): 'visible' | 'invisible' | undefined {
  if (pr.route === 'ocr-layer') return 'invisible';
  if (pr.route === 'text') return 'visible';
  if (pr.route === 'ocr' && pr.evidence.invisibleChars > 0 && s.imageCoverage >= opts.ocrLayerCoverage) return 'invisible';
  return undefined;
}

/** The layer-quality score of a page (AnalyzerOptions.layerQuality), with the largest scan image under the layer as witness. */
function scoreLayer(
  pr: PageReport,
  which: 'visible' | 'invisible',
  s: PageScan,
  doc: OpenedDocument,
  budget: Budget,
  opts: AnalyzerOptions,
  meta: DocumentMetadata,
): PageReport['evidence']['layerQuality'] {
  const { scan, held, unread } = scanOf(s, which, doc, budget, opts);
  let font = '';
  let most = -1;
  for (const f of pr.evidence.fonts)
    if (f.chars > most) {
      font = f.baseFont || f.name;
      most = f.chars;
    }
  const producer = meta.info.Producer ?? meta.xmp['pdf:Producer'];
  try {
    return layerQuality({
      layer: s.textLayer!,
      which,
      scan,
      budget,
      maxScanPixels: opts.maxScanPixels,
      font,
      producer,
      // the runs, and so their likelihoods and the regions of text they miss, reach the report only with the text layer on
      likelihoods: opts.textLayer === true,
      missingText: opts.textLayer === true,
      ...(scan === undefined && unread !== undefined ? { unreadScan: unread } : {}),
      ...(pr.route === 'ocr' ? { routedOcr: true } : {}),
    });
  } finally {
    // a decoded scan is charged while the layer is scored
    budget.release(held);
  }
}

/**
 * The page's scan for the layer-quality score: its strips stacked when it is stored in strips, else the first image in
 * witnessOrder (the largest; among those covering the page alike the finest, a text mask on a tie) that can be read (a
 * JPEG, still encoded; or decoded (pixels.ts): a Flate, LZW or unfiltered image, a CCITT fax, JPEG 2000 or JBIG2 image
 * or a 1-bit mask, whose bytes stay charged as `held` until released), or, when none can, why the largest that could
 * not be read was not (`unread`, for signals.image).
 */
function scanOf(
  s: PageScan,
  which: 'visible' | 'invisible',
  doc: OpenedDocument,
  budget: Budget,
  opts: AnalyzerOptions,
): { scan?: ScanInput; held: number; unread?: string } {
  let unread: { area: number; why: string } | undefined;
  // why an image was not read, said when no image of the page could be (the largest such image's reason)
  const notRead = (area: number, why: string) => {
    if (area > (unread?.area ?? 0)) unread = { area, why: `scan image not read: ${why}` };
  };
  // the ink witness must be a scan of the page, as under an OCR layer (whose page the images cover by definition): a
  // photo or a figure beside a text page's born-digital text holds no ink of that text, and decoding it cost a third of
  // the score's time on the corpus's median documents
  const pageScan = which === 'invisible' || s.imageCoverage >= opts.ocrLayerCoverage;
  const images = pageScan ? (s.scanImages ?? []) : [];
  if (images.length === 0) return { held: 0 };
  const ordered = images.length > 1 ? witnessOrder(images) : images;
  // a scan stored in strips is read whole, the strips stacked (one of them would be a sample of the page)
  const strips = ordered.length > 1 ? stripsOf(ordered) : undefined;
  if (strips) {
    const whole = composeStrips(strips, doc, budget, opts);
    if (typeof whole !== 'string') return { scan: whole.scan, held: whole.bytes };
    notRead(areaOf(strips[0]) * strips.length, whole);
  }
  for (const im of ordered) {
    // a tiny image stretched over the page (a background colour) is no scan
    if (!isJpeg(im) && (im.width < MIN_SCAN_SIDE || im.height < MIN_SCAN_SIDE)) continue;
    const read = readImage(im, doc, budget, opts);
    if (typeof read === 'string') {
      notRead(areaOf(im), read);
      continue;
    }
    const scan: ScanInput =
      'jpeg' in read
        ? { jpeg: read.jpeg, ctm: im.ctm, width: im.width, height: im.height, key: im.stream }
        : { jpeg: new Uint8Array(0), pixels: read.pixels, reduced: read.reduced, ctm: im.ctm, width: im.width, height: im.height, key: im.stream };
    return { scan, held: 'jpeg' in read ? 0 : read.bytes };
  }
  return { held: 0, unread: unread?.why };
}

const areaOf = (im: ScanImage) => (im.rect[2] - im.rect[0]) * (im.rect[3] - im.rect[1]);
const isJpeg = (im: ScanImage) => im.filter !== undefined && stopFilterName(im.filter) === 'DCTDecode' && !im.mask;

/**
 * One image read for the score: a JPEG's file (the stream up to its DCTDecode filter, decrypted, earlier filters
 * undone; decoded by the score itself), or its pixels decoded, charged until released, or why it could not be read.
 */
function readImage(im: ScanImage, doc: OpenedDocument, budget: Budget, opts: AnalyzerOptions): DecodedRead | { jpeg: Uint8Array } | string {
  if (isJpeg(im)) {
    const dec = doc.xref.decodeStream(im.stream, opts.maxStreamBytes);
    return dec.data.length > 0 ? { jpeg: dec.data } : `its data is ${dec.error ? `damaged (${dec.error.slice(0, 80)})` : 'empty'}`;
  }
  // the image filter its chain stops at, if any
  const stop = im.filter === undefined ? undefined : stopFilterName(im.filter);
  const fax = stop === 'CCITTFaxDecode';
  // a last filter filters.ts undoes leaves the samples (Flate as PNG scans keep them, LZW as TIFF scans do)
  const samples = im.filter === undefined || decodesFilter(im.filter) || fax;
  const jbig2 = stop === 'JBIG2Decode';
  const jpx = stop === 'JPXDecode';
  const layout = samples || jbig2 ? (im.mask ? maskLayout(im, doc) : sampleLayout(im.stream.dict, doc)) : undefined;
  if (jpx) return im.mask ? 'a JPEG 2000 mask' : readJpx(im, doc, budget, opts);
  if (jbig2)
    return layout && layout.bitsPerComponent === 1 && !layout.palette
      ? readJbig2(im, layout, doc, budget, opts)
      : 'a JBIG2 image that is not 1-bit gray';
  if (!layout || (fax && layout.bitsPerComponent !== 1))
    return fax
      ? 'a CCITT fax image that is not 1-bit gray'
      : samples
        ? `${im.filter ?? 'unfiltered'}, of a colour space or depth the score does not decode (it reads 8- and 16-bit gray or RGB, 1- to 4-bit gray and palettes over gray or RGB)`
        : `${im.filter} images are not decoded (the score reads baseline JPEG, JPEG 2000, JBIG2, Flate, LZW and CCITT fax images)`;
  if (layout.width !== im.width || layout.height !== im.height || im.width * im.height > opts.maxScanPixels)
    return 'larger than maxScanPixels, or its size unclear';
  const params = fax ? faxParams(im.stream.dict, doc, layout) : undefined;
  if (fax && !params) return 'its fax parameters do not match the image (/Columns is not its width)';
  return readSamples(im, layout, params, doc, budget, opts);
}

/**
 * A scan stored in strips (a scanner's or a converter's bands, one image each): the page's upright, unrotated images
 * (at least MIN_SCAN_SIDE pixels wide) that share their left edge, width and pixel width and scale, and stack down the
 * page edge to edge (within a pixel and a half), top strip first; the largest such set of two or more, when it covers more of the page than the largest
 * single image does. undefined when there is none.
 */
function stripsOf(images: ScanImage[]): ScanImage[] | undefined {
  const groups = new Map<string, ScanImage[]>();
  let largest = 0;
  for (const im of images) {
    largest = Math.max(largest, areaOf(im));
    const [a, b, c, d, e] = im.ctm;
    if (im.mask || im.width < MIN_SCAN_SIDE || !(a > 0 && d > 0) || Math.abs(b) > 1e-6 * a || Math.abs(c) > 1e-6 * d) continue;
    const key = `${Math.round(e * 2)} ${Math.round(a * 2)} ${im.width}`;
    const g = groups.get(key);
    if (g) g.push(im);
    else groups.set(key, [im]);
  }
  let best: ScanImage[] | undefined;
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const top = (im: ScanImage) => im.ctm[5] + im.ctm[3];
    const strips = [...g].sort((p, q) => top(q) - top(p));
    const pitch = strips[0].ctm[3] / strips[0].height;
    const tiled = strips.every(
      (im, i) => Math.abs(im.ctm[3] / im.height - pitch) <= 0.02 * pitch && (i === 0 || Math.abs(top(im) - strips[i - 1].ctm[5]) <= 1.5 * pitch),
    );
    const area = strips.reduce((sum, im) => sum + areaOf(im), 0);
    if (tiled && area > 1.5 * largest && area > (best ? best.reduce((sum, im) => sum + areaOf(im), 0) : 0)) best = strips;
  }
  return best;
}

/**
 * The strips read and stacked into one gray image (a bilevel strip's bits as its two grays, a JPEG strip decoded
 * whole), painted by one CTM from the top strip's top to the bottom one's bottom, with the bytes that stay charged for
 * it; or why not (a strip that cannot be read, or one read at a lower resolution).
 */
function composeStrips(strips: ScanImage[], doc: OpenedDocument, budget: Budget, opts: AnalyzerOptions): { scan: ScanInput; bytes: number } | string {
  const w = strips[0].width;
  const h = strips.reduce((sum, im) => sum + im.height, 0);
  if (w * h > opts.maxScanPixels) return 'a scan in strips larger than maxScanPixels';
  if (!budget.tryCharge(w * h, 'decode')) return 'a scan in strips that does not fit the memory budget';
  const out = new Uint8Array(w * h).fill(255);
  let row = 0;
  for (const im of strips) {
    const read = readImage(im, doc, budget, opts);
    let why: string | undefined;
    if (typeof read === 'string') why = read;
    else if ('jpeg' in read) {
      const need = w * im.height;
      if (!budget.tryCharge(need, 'decode')) why = 'it does not fit the memory budget';
      else {
        const dec = decodeJpegGray(read.jpeg, opts.maxScanPixels, () => budget.outOfTime('decode'));
        if (dec.ok && dec.image.width === w && dec.image.height === im.height) out.set(dec.image.data, row * w);
        else why = dec.ok ? 'its size is not the one its dictionary gives' : `${dec.error} (${dec.message})`;
        budget.release(need);
      }
    } else {
      const p = read.pixels;
      if ((read.reduced ?? 1) !== 1 || p.width !== w || p.height !== im.height) why = 'read at another resolution than the other strips';
      else if (!isBilevel(p)) out.set(p.data, row * w);
      else if (!budget.tryCharge(w * im.height, 'decode')) why = 'it does not fit the memory budget';
      else {
        // its bits as their two grays, as the score reads any bilevel scan at full size (pixels.ts)
        out.set(reduceScan(p, 1).data, row * w);
        budget.release(w * im.height);
      }
      budget.release(read.bytes);
    }
    if (why !== undefined) {
      budget.release(w * h);
      return `a strip of the scan: ${why}`;
    }
    row += im.height;
  }
  const first = strips[0];
  const last = strips[strips.length - 1];
  const bottom = last.ctm[5];
  const ctm: Matrix = [first.ctm[0], 0, 0, first.ctm[5] + first.ctm[3] - bottom, first.ctm[4], bottom];
  return { scan: { jpeg: new Uint8Array(0), pixels: { width: w, height: h, data: out }, ctm, width: w, height: h }, bytes: w * h };
}

/** an image covers the page about as much as the largest when its area is this share of the largest's, or more */
const COVERING = 0.9;

/**
 * The order in which a page's images are tried as its scan: those that cover about as much of the page as the largest
 * first, the finest of them (the most pixels) before the others, and on a tie a 1-bit mask before the image it masks;
 * then the rest, the largest first. A plain scan is its page's largest image either way. A mixed raster page (Internet
 * Archive books, DjVu conversions, MRC compressors) covers the page several times: a coarse background, from which the
 * text is often removed, and the text as a full-resolution 1-bit mask over it: the mask is the scan's text.
 */
function witnessOrder(images: ScanImage[]): ScanImage[] {
  let most = 0;
  for (const im of images) most = Math.max(most, areaOf(im));
  const ranked = images.map((im, i) => ({ im, i, a: areaOf(im), px: im.width * im.height, covers: areaOf(im) >= COVERING * most }));
  ranked.sort((p, q) => {
    if (p.covers !== q.covers) return p.covers ? -1 : 1;
    if (!p.covers) return q.a - p.a || p.i - q.i;
    if (p.px !== q.px) return q.px - p.px;
    if (!p.im.mask !== !q.im.mask) return p.im.mask ? -1 : 1;
    return p.i - q.i;
  });
  return ranked.map((r) => r.im);
}

/**
 * A 1-bit mask's samples read as a scan of what it paints: painted is ink (black). A soft mask paints where it is 1, a
 * stencil where it is 0, each unless its /Decode is [1 0].
 */
function maskLayout(im: ScanImage, doc: OpenedDocument): SampleLayout | undefined {
  const r = doc.xref;
  const d = im.stream.dict;
  const width = getNumber(r, d, 'Width') ?? getNumber(r, d, 'W');
  const height = getNumber(r, d, 'Height') ?? getNumber(r, d, 'H');
  if (!width || !height || !Number.isInteger(width) || !Number.isInteger(height)) return undefined;
  const decode = getArray(r, d, 'Decode') ?? getArray(r, d, 'D');
  const flipped = decode !== undefined && r.resolve(decode[0]) === 1 && r.resolve(decode[1]) === 0;
  return { width, height, components: 1, bitsPerComponent: 1, inverted: im.mask === 'soft' ? !flipped : flipped };
}

/** a scan decoded whole: its pixels (at 1 / reduced of its size), and the bytes that stay charged for them */
interface DecodedRead {
  pixels: DecodedScan;
  bytes: number;
  reduced?: 1 | 2 | 4;
}

/**
 * A Flate, LZW or unfiltered image, or a CCITT fax image, decoded whole (to gray, or a bilevel one to its bits), with
 * the bytes charged for it (the samples, the gray image, and a fax image's codes when filters before CCITTFaxDecode
 * decoded them), or why it could not be read.
 */
function readSamples(
  im: ScanImage,
  layout: SampleLayout,
  fax: FaxParams | undefined,
  doc: OpenedDocument,
  budget: Budget,
  opts: AnalyzerOptions,
): DecodedRead | string {
  const rowBytes = Math.ceil((layout.width * layout.components * layout.bitsPerComponent) / 8);
  // the samples, and the gray image unless the scan is bilevel (kept as its bits: pixels.ts decodedScan)
  let bytes = rowBytes * layout.height + (layout.bitsPerComponent === 1 ? 0 : layout.width * layout.height);
  if (!budget.tryCharge(bytes, 'decode')) return 'it does not fit the memory budget';
  // fax codes take well under 16 bits a pixel; samples are exactly their rows
  const dec = doc.xref.decodeStream(im.stream, Math.min(opts.maxStreamBytes, fax ? 2 * layout.width * layout.height : rowBytes * layout.height));
  // the chain must end where the image's data is: after its last filter (samples), or at its CCITTFaxDecode (fax codes);
  // an image filter earlier in the chain stops it on data that is neither
  if (dec.stoppedAt !== (fax ? 'CCITTFaxDecode' : undefined)) {
    budget.release(bytes);
    return `its filters stop at ${String(dec.stoppedAt ?? 'their end').slice(0, 40)}, before its data`;
  }
  const coded = fax && dec.data.buffer !== im.stream.raw.buffer ? dec.data.length : 0;
  if (coded > 0 && !budget.tryCharge(coded, 'decode')) {
    budget.release(bytes);
    return 'it does not fit the memory budget';
  }
  bytes += coded;
  const faxed = fax && !dec.error && !dec.outOfTime ? decodeFax(dec.data, fax, budget.deadline) : undefined;
  const samples = fax ? (faxed?.rows === layout.height ? faxed.data : undefined) : dec.data;
  const pixels = dec.error || dec.outOfTime || !samples ? undefined : decodedScan(samples, layout);
  if (pixels) return { pixels, bytes };
  budget.release(bytes);
  const why = faxed?.error ?? dec.error;
  return dec.outOfTime || faxed?.outOfTime ? 'out of time' : why ? `its data is damaged (${why.slice(0, 80)})` : 'its data ends early';
}

/** an image's coded data: its stream decoded up to its image filter `stop` (earlier filters undone), or why not */
function codedData(im: ScanImage, stop: string, doc: OpenedDocument, opts: AnalyzerOptions): Uint8Array | string {
  const dec = doc.xref.decodeStream(im.stream, opts.maxStreamBytes);
  if (dec.outOfTime) return 'out of time';
  if (dec.error) return `its data is damaged (${dec.error.slice(0, 80)})`;
  if (dec.stoppedAt !== stop) return `its filters stop at ${String(dec.stoppedAt ?? 'their end').slice(0, 40)}, before its data`;
  return dec.data;
}

/**
 * A JPEG 2000 image decoded to gray (layerQuality/jpx.ts), at the resolution the score needs: halved (a wavelet level
 * not synthesised, its code-blocks not decoded) while that keeps JPX_MIN_DPI or more, since the letter shapes read a
 * 300 dpi scan at half its size anyway; with the bytes that stay charged for it, or why it could not be read.
 */
function readJpx(im: ScanImage, doc: OpenedDocument, budget: Budget, opts: AnalyzerOptions): DecodedRead | string {
  const data = codedData(im, 'JPXDecode', doc, opts);
  if (typeof data === 'string') return data;
  // the codestream is charged while it is read when earlier filters made it (else it is the file's own bytes)
  const coded = data.buffer !== im.stream.raw.buffer ? data.length : 0;
  const header = readJpxHeader(data);
  if ('error' in header) return `its data is damaged (${header.error.slice(0, 80)})`;
  if (header.width !== im.width || header.height !== im.height || im.width * im.height > opts.maxScanPixels)
    return 'larger than maxScanPixels, or its size unclear';
  const dpi = 72 * Math.min(im.width / Math.hypot(im.ctm[0], im.ctm[1]), im.height / Math.hypot(im.ctm[2], im.ctm[3])) || 0;
  const reduce = Math.min(header.levels, dpi >= 4 * JPX_MIN_DPI ? 2 : dpi >= 2 * JPX_MIN_DPI ? 1 : 0);
  const work = jpxWorkBytes(header, reduce, data.length) + coded;
  if (!budget.tryCharge(work, 'decode')) return 'it does not fit the memory budget';
  const out = decodeJpx(data, reduce, opts.maxScanPixels, () => budget.outOfTime('decode'));
  if (!out.ok) {
    budget.release(work);
    return out.outOfTime ? 'out of time' : `its data is damaged (${out.error.slice(0, 80)})`;
  }
  // what stays charged is the gray image; the wavelet's arrays and the codestream are garbage now
  const bytes = out.image.data.length;
  budget.release(work - bytes);
  // the reduction the decoder could make (components with fewer levels than the first allow less): from its size
  const ratio = im.width / out.image.width;
  return { pixels: out.image, bytes, reduced: ratio > 3 ? 4 : ratio > 1.5 ? 2 : 1 };
}

/**
 * A JBIG2 image decoded (layerQuality/jbig2.ts, with its /JBIG2Globals) and kept as its bits, with the bytes that stay
 * charged for it (the packed bits), or why it could not be read. While it decodes, what jbig2WorkBytes says (the page
 * a byte a pixel, the symbols and regions its segments keep, a region and its reference) is charged.
 */
function readJbig2(im: ScanImage, layout: SampleLayout, doc: OpenedDocument, budget: Budget, opts: AnalyzerOptions): DecodedRead | string {
  const { width: w, height: h } = layout;
  if (w !== im.width || h !== im.height || w * h > opts.maxScanPixels) return 'larger than maxScanPixels, or its size unclear';
  const data = codedData(im, 'JBIG2Decode', doc, opts);
  if (typeof data === 'string') return data;
  const r = doc.xref;
  const d = im.stream.dict;
  const filters = r.resolve(d.get('Filter') ?? d.get('F'));
  const all = r.resolve(d.get('DecodeParms') ?? d.get('DP'));
  const parms = r.resolve(Array.isArray(all) ? all[Array.isArray(filters) ? filters.length - 1 : 0] : all);
  const g = parms instanceof PdfDict ? r.resolve(parms.get('JBIG2Globals')) : undefined;
  const globals = g instanceof PdfStream ? jbig2GlobalsOf(g, w, h, doc, budget, opts) : undefined;
  if (typeof globals === 'string') return globals;
  const rowBytes = (w + 7) >> 3;
  const work = jbig2WorkBytes(w, h) + rowBytes * h + data.length;
  if (!budget.tryCharge(work, 'decode')) return 'it does not fit the memory budget';
  const out = decodeJbig2(data, globals, w, h, jbig2HeldPixels(w, h), () => budget.outOfTime('decode'), budget.deadline);
  if (!out.ok) {
    budget.release(work);
    return out.outOfTime ? 'out of time' : `its data is damaged (${out.error.slice(0, 80)})`;
  }
  // JBIG2's 1 is black; the image's samples are 0 for black (PDF's gray), unless its /Decode inverts them
  const bits = new Uint8Array(rowBytes * h);
  const px = out.page.data;
  for (let y = 0; y < h; y++) for (let x = 0, i = y * w; x < w; x++, i++) if (px[i]) bits[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
  const bytes = rowBytes * h;
  budget.release(work - bytes);
  const [zero, one] = layout.inverted ? [0, 255] : [255, 0];
  return { pixels: { width: w, height: h, bits, zero, one }, bytes };
}

/** decoded /JBIG2Globals kept per document (its budget) for its other pages, charged while kept; a few at most */
interface KeptGlobals {
  globals: Jbig2Globals;
  width: number;
  height: number;
}
const jbig2GlobalsCache = new WeakMap<Budget, Map<PdfStream, KeptGlobals>>();
const JBIG2_GLOBALS_KEPT = 4;

/**
 * A /JBIG2Globals stream's symbol dictionaries, decoded once for the pages of one size that share them (a book's pages
 * share one dictionary of its glyphs: decoding it again took a third to half of each page's time), or why not.
 */
function jbig2GlobalsOf(g: PdfStream, w: number, h: number, doc: OpenedDocument, budget: Budget, opts: AnalyzerOptions): Jbig2Globals | string {
  let cache = jbig2GlobalsCache.get(budget);
  const hit = cache?.get(g);
  if (hit && hit.width === w && hit.height === h) return hit.globals;
  if (hit) {
    // decoded for pages of another size (whose caps they had): decoded again for these
    budget.release(hit.globals.pixels);
    cache!.delete(g);
  }
  const dec = doc.xref.decodeStream(g, opts.maxStreamBytes);
  if (dec.outOfTime) return 'out of time';
  if (dec.error) return `its globals are damaged (${dec.error.slice(0, 80)})`;
  // while they decode: their symbols (at most what a page may keep) and a segment's work, as for a page
  const work = jbig2WorkBytes(w, h) + dec.data.length;
  if (!budget.tryCharge(work, 'decode')) return 'it does not fit the memory budget';
  const out = decodeJbig2Globals(dec.data, w, h, jbig2HeldPixels(w, h), () => budget.outOfTime('decode'), budget.deadline);
  budget.release(work);
  if (!out.ok) return out.outOfTime ? 'out of time' : `its globals are damaged (${out.error.slice(0, 80)})`;
  // kept while the document is read when the budget holds their symbols (a byte a pixel); else decoded again next time
  if (budget.tryCharge(out.globals.pixels, 'decode')) {
    if (!cache) jbig2GlobalsCache.set(budget, (cache = new Map<PdfStream, KeptGlobals>()));
    if (cache.size >= JBIG2_GLOBALS_KEPT) {
      const [oldest, kept] = cache.entries().next().value!;
      budget.release(kept.globals.pixels);
      cache.delete(oldest);
    }
    cache.set(g, { globals: out.globals, width: w, height: h });
  }
  return out.globals;
}

/** a JPEG 2000 scan is read at half its resolution (or a quarter) while that keeps at least this many dots an inch */
const JPX_MIN_DPI = 140;

/** an image fewer pixels than this on a side is not read as a scan (a 1 × 1 image painted over the page is a colour) */
const MIN_SCAN_SIDE = 32;

/**
 * How an image's samples are laid out, when the layer-quality score can read them decoded: 8 or 16 bits a component of
 * gray or RGB (DeviceGray, DeviceRGB, CalGray, CalRGB, ICCBased with 1 or 3 components), 1, 2 or 4 bits of gray, or the
 * indices of an /Indexed palette over gray or RGB (1 to 8 bits: the palettes of OCRmyPDF's optimised scans); not an
 * image mask, CMYK or Lab.
 */
function sampleLayout(d: PdfDict, doc: OpenedDocument): SampleLayout | undefined {
  const r = doc.xref;
  const width = getNumber(r, d, 'Width') ?? getNumber(r, d, 'W');
  const height = getNumber(r, d, 'Height') ?? getNumber(r, d, 'H');
  const bpc = getNumber(r, d, 'BitsPerComponent') ?? getNumber(r, d, 'BPC');
  if (!width || !height || !Number.isInteger(width) || !Number.isInteger(height)) return undefined;
  if (bpc !== 1 && bpc !== 2 && bpc !== 4 && bpc !== 8 && bpc !== 16) return undefined;
  if (r.resolve(d.get('ImageMask') ?? d.get('IM')) === true) return undefined;
  const cs = r.resolve(d.get('ColorSpace') ?? d.get('CS'));
  const decode = getArray(r, d, 'Decode') ?? getArray(r, d, 'D');
  const inverted = decode !== undefined && r.resolve(decode[0]) === 1 && r.resolve(decode[1]) === 0;
  if (Array.isArray(cs) && (r.resolve(cs[0]) === 'Indexed' || r.resolve(cs[0]) === 'I')) {
    // a /Decode on indices is too rare to read
    const palette = decode === undefined && bpc <= 8 ? paletteOf(cs, doc, bpc) : undefined;
    return palette ? { width, height, components: 1, bitsPerComponent: bpc, inverted: false, palette } : undefined;
  }
  const components = componentsOf(cs, doc);
  if (components !== 1 && components !== 3) return undefined;
  if (bpc < 8 && components !== 1) return undefined;
  return { width, height, components, bitsPerComponent: bpc, inverted };
}

/** Components of a gray or RGB colour space (1 or 3), or undefined for any other. */
function componentsOf(cs: PdfValue | undefined, doc: OpenedDocument): number | undefined {
  const r = doc.xref;
  if (cs === 'DeviceGray' || cs === 'G' || cs === 'CalGray') return 1;
  if (cs === 'DeviceRGB' || cs === 'RGB' || cs === 'CalRGB') return 3;
  if (!Array.isArray(cs)) return undefined;
  const family = r.resolve(cs[0]);
  // a device space alone in an array ([/DeviceGray]), as some writers put it: readers take it as the name
  if (cs.length === 1 && typeof family === 'string' && family.startsWith('Device')) return componentsOf(family, doc);
  if (family === 'CalGray') return 1;
  if (family === 'CalRGB') return 3;
  if (family !== 'ICCBased') return undefined;
  const icc = r.resolve(cs[1]);
  return icc instanceof PdfStream ? getNumber(r, icc.dict, 'N') : undefined;
}

/** An /Indexed colour space's palette as gray (its base gray or RGB), or undefined when it cannot be read whole. */
function paletteOf(cs: PdfValue[], doc: OpenedDocument, bpc: number): Uint8Array | undefined {
  const r = doc.xref;
  const n = componentsOf(r.resolve(cs[1]), doc);
  const hival = r.resolve(cs[2]);
  if ((n !== 1 && n !== 3) || typeof hival !== 'number' || !Number.isInteger(hival) || hival < 0 || hival > 255) return undefined;
  const lookup = r.resolve(cs[3]);
  // the table is a string or a stream of (hival + 1) × n bytes
  const bytes = lookup instanceof Uint8Array ? lookup : lookup instanceof PdfStream ? doc.xref.decodeStream(lookup, 768).data : undefined;
  if (!bytes || bytes.length < (hival + 1) * n) return undefined;
  const entries = Math.min(hival + 1, 1 << bpc);
  const palette = new Uint8Array(entries);
  for (let i = 0; i < entries; i++) palette[i] = n === 1 ? bytes[i] : luma(bytes[3 * i], bytes[3 * i + 1], bytes[3 * i + 2]);
  return palette;
}

/**
 * A CCITTFaxDecode image's /DecodeParms (the entry of its fax filter when /Filter is an array) as the decoder reads
 * them, or undefined when /Columns is not the image's width.
 */
function faxParams(d: PdfDict, doc: OpenedDocument, layout: SampleLayout): FaxParams | undefined {
  const r = doc.xref;
  const filters = r.resolve(d.get('Filter') ?? d.get('F'));
  const all = r.resolve(d.get('DecodeParms') ?? d.get('DP'));
  const at = Array.isArray(filters) ? filters.length - 1 : 0;
  const pv = r.resolve(Array.isArray(all) ? all[at] : all);
  const p = pv instanceof PdfDict ? pv : new PdfDict();
  const columns = getNumber(r, p, 'Columns') ?? 1728;
  if (columns !== layout.width) return undefined;
  return {
    k: getNumber(r, p, 'K') ?? 0,
    columns,
    rows: layout.height,
    byteAlign: r.resolve(p.get('EncodedByteAlign')) === true,
    blackIs1: r.resolve(p.get('BlackIs1')) === true,
  };
}

function unknownPage(page: number, reason: RouteReason, base: Pick<PageEvidence, 'boxes' | 'rotate'>): PageReport {
  return {
    page,
    route: 'unknown',
    reasons: [reason],
    evidence: {
      visibleChars: 0,
      invisibleChars: 0,
      hiddenUnderImage: 0,
      badChars: 0,
      textQuality: 1,
      fonts: [],
      imageCoverage: 0,
      imageCount: 0,
      imageBoxes: [],
      vectorOps: 0,
      operators: 0,
      ...base,
    },
  };
}

/** The document's /Info and XMP. A failure leaves the metadata empty and says so in `notes`, never silently. */
function metadataOf(doc: OpenedDocument, opts: AnalyzerOptions, notes: string[]): DocumentMetadata {
  try {
    const xref = doc.xref;
    const infoV = xref.resolve(xref.trailer.get('Info'));
    let info: PdfDict | undefined;
    if (infoV instanceof PdfDict) {
      info = new PdfDict();
      let n = 0;
      for (const [k, v] of infoV.map) {
        if (n++ > 256) break;
        info.set(k, xref.resolve(v) ?? null);
      }
    }
    const mv = xref.resolve(doc.catalog?.get('Metadata'));
    let xmp: Uint8Array | undefined;
    if (mv instanceof PdfStream) {
      const dec = xref.decodeStream(mv, opts.maxMetadataBytes);
      if (dec.truncated) notes.push(`the XMP metadata was read up to ${opts.maxMetadataBytes} bytes (maxMetadataBytes)`);
      if (dec.error) notes.push(`the XMP metadata stream is damaged: ${dec.error.slice(0, 120)}`);
      xmp = dec.data;
    }
    return readMetadata(info, xmp, opts);
  } catch (e) {
    notes.push(`the metadata could not be read: ${String(e).slice(0, 160)}`);
    return { info: {}, xmp: {}, hints: [] };
  }
}

function finish(report: DocumentReport, start: number, layerQuality: boolean, budget?: Budget, doc?: OpenedDocument): DocumentReport {
  if (budget?.exhausted) report.limit = { ...budget.exhausted };
  if (doc) report.notes.push(...doc.xref.notes);
  const counts = emptyRouteCounts();
  const ocr: number[] = [];
  for (const p of report.pages) {
    counts[p.route]++;
    if (p.route === 'ocr') ocr.push(p.page);
  }
  report.routeCounts = counts;
  report.ocrPages = ocr;
  report.needsOcr = ocr.length > 0;
  if (layerQuality) report.reocrPages = report.pages.filter((p) => p.evidence.layerQuality?.reocr).map((p) => p.page);
  report.pageCount = Math.max(report.pageCount, report.pages.length);
  report.elapsedMs = Date.now() - start;
  return report;
}

/** The `n` largest boxes by share, in paint order (a report with 10,000 boxes a page is no use to anyone). */
function largest(boxes: ImageBox[], n: number): ImageBox[] {
  if (boxes.length <= n) return boxes;
  const keep = new Set(
    boxes
      .map((b, i) => [b.share, i] as const)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, n)
      .map(([, i]) => i),
  );
  return boxes.filter((_, i) => keep.has(i));
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
