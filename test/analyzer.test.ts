// End-to-end tests of analyzePdfSync over the synthetic fixtures in test/fixtures/analyzer/
// (built by scripts/make-fixtures.mjs; see the README there for what each file holds).
//
// Tolerances: character counts are exact, because every fixture draws a known string with a known
// font (a simple-font byte or an Identity-H code pair is one character); image coverage is ±0.01
// of the geometric value the script was built for (cross-checked by rasterising with mupdf).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePdfSync } from '../src/analyzer/index';
import type { AnalyzerOptions } from '../src/analyzer/options';
import type { DocumentReport, PageReport, PageRoute, RouteReason } from '../src/analyzer/types';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'analyzer');

/** Non-whitespace characters of the paragraph every text fixture draws (printed by make-fixtures.mjs). */
const PARAGRAPH_CHARS = 347;
/** Non-whitespace characters of the caption in 18-caption-over-scan.pdf. */
const CAPTION_CHARS = 100;
const LETTER: [number, number, number, number] = [0, 0, 612, 792];
const ROUTES: PageRoute[] = ['text', 'ocr-layer', 'ocr', 'blank', 'review', 'unknown'];

function load(name: string): Uint8Array {
  // a plain Uint8Array (not a pooled Buffer view), as a browser caller would pass
  return new Uint8Array(readFileSync(join(DIR, name)));
}

function analyze(name: string, options?: Partial<AnalyzerOptions>): DocumentReport {
  const report = analyzePdfSync(load(name), options);
  checkInvariants(report, name);
  return report;
}

/** Consistency every report must have, whatever the file. */
function checkInvariants(report: DocumentReport, name: string): void {
  assert.ok(report && Array.isArray(report.pages), `${name}: report with pages`);
  assert.ok(Array.isArray(report.notes), `${name}: notes array`);
  assert.ok(Number.isFinite(report.elapsedMs) && report.elapsedMs >= 0, `${name}: elapsedMs`);
  assert.ok(report.pages.length <= report.pageCount || report.pageCount === 0, `${name}: pages ≤ pageCount`);
  const counts = Object.fromEntries(ROUTES.map((r) => [r, 0])) as Record<PageRoute, number>;
  report.pages.forEach((p, i) => {
    assert.equal(p.page, i + 1, `${name}: page numbers are 1-based and in order`);
    counts[p.route]++;
    const e = p.evidence;
    assert.ok(e.visibleChars >= 0 && e.invisibleChars >= 0, `${name} p${p.page}: char counts`);
    assert.ok(e.hiddenUnderImage <= e.invisibleChars, `${name} p${p.page}: hidden ⊆ invisible`);
    assert.ok(e.badChars <= e.visibleChars, `${name} p${p.page}: bad ⊆ visible`);
    assert.ok(e.imageCoverage >= 0 && e.imageCoverage <= 1 + 1e-9, `${name} p${p.page}: coverage in 0..1`);
    assert.ok(e.textQuality >= 0 && e.textQuality <= 1, `${name} p${p.page}: textQuality in 0..1`);
    const quality = e.visibleChars ? 1 - e.badChars / e.visibleChars : 1;
    // the report may round it to 3 decimals
    assert.ok(Math.abs(e.textQuality - quality) <= 5e-4 + 1e-9, `${name} p${p.page}: textQuality = 1 − bad/visible`);
    assert.ok([0, 90, 180, 270].includes(e.rotate), `${name} p${p.page}: rotate normalised`);
    assert.ok(p.reasons.length > 0, `${name} p${p.page}: a route always has a reason`);
  });
  for (const r of ROUTES) assert.equal(report.routeCounts[r] ?? 0, counts[r], `${name}: routeCounts.${r}`);
  const ocr = report.pages.filter((p) => p.route === 'ocr').map((p) => p.page);
  assert.deepEqual(report.ocrPages, ocr, `${name}: ocrPages lists the ocr pages`);
  assert.equal(report.needsOcr, ocr.length > 0, `${name}: needsOcr iff some page is ocr`);
}

function pageOf(report: DocumentReport, n: number): PageReport {
  const p = report.pages[n - 1];
  assert.ok(p, `page ${n} reported (pageCount ${report.pageCount}, error ${JSON.stringify(report.error)})`);
  return p;
}

/** Shows the evidence when a route assertion fails: the number that misled the router is usually there. */
function describePage(p: PageReport): string {
  const { fonts: _f, imageBoxes, ...e } = p.evidence;
  return JSON.stringify({ route: p.route, reasons: p.reasons, notes: p.notes, ...e, imageBoxes });
}

function expectRoute(p: PageReport, route: PageRoute, reason?: RouteReason): void {
  assert.equal(p.route, route, `page ${p.page}: ${describePage(p)}`);
  if (reason) assert.ok(p.reasons.includes(reason), `page ${p.page}: reasons ${JSON.stringify(p.reasons)} include ${reason}`);
}

function near(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);
}

function nearRect(actual: number[], expected: number[], tol: number, what: string): void {
  assert.equal(actual.length, 4, what);
  actual.forEach((v, i) => near(v, expected[i], tol, `${what}[${i}]`));
}

/** The paragraph page every text fixture draws: all of it visible, nothing else on the page. */
function expectParagraphPage(p: PageReport): void {
  expectRoute(p, 'text', 'text-layer');
  const e = p.evidence;
  assert.equal(e.visibleChars, PARAGRAPH_CHARS, describePage(p));
  assert.equal(e.invisibleChars, 0);
  assert.equal(e.badChars, 0);
  assert.equal(e.textQuality, 1);
  assert.equal(e.imageCount, 0);
  assert.equal(e.imageCoverage, 0);
}

function expectFullScan(p: PageReport, imageCount = 1): void {
  expectRoute(p, 'ocr', 'image-only');
  near(p.evidence.imageCoverage, 1, 0.01, 'imageCoverage');
  assert.equal(p.evidence.imageCount, imageCount);
  assert.equal(p.evidence.visibleChars, 0);
}

describe('text layer', () => {
  test('01 plain Helvetica page → text', () => {
    const rep = analyze('01-text.pdf');
    assert.equal(rep.error, undefined);
    assert.equal(rep.pageCount, 1);
    assert.equal(rep.pdfVersion, '1.7');
    assert.equal(rep.encryption.encrypted, false);
    assert.equal(rep.needsOcr, false);
    const p = pageOf(rep, 1);
    expectParagraphPage(p);
    assert.equal(p.evidence.vectorOps, 0);
    assert.equal(p.evidence.rotate, 0);
    nearRect(p.evidence.boxes.mediaBox, LETTER, 0, 'mediaBox');
    nearRect(p.evidence.boxes.cropBox, LETTER, 0, 'cropBox defaults to mediaBox');
    assert.equal(p.evidence.fonts.length, 1);
    const f = p.evidence.fonts[0];
    assert.equal(f.name, 'F1');
    assert.equal(f.baseFont, 'Helvetica');
    assert.equal(f.subtype, 'Type1');
    assert.ok(f.decoding === 'encoding' || f.decoding === 'standard14', `decoding ${f.decoding}`);
    // "all render modes", and may or may not count spaces: at least the visible non-whitespace ones
    assert.ok(f.chars >= PARAGRAPH_CHARS, `font chars ${f.chars}`);
    assert.equal(rep.metadata.info.Producer, 'make-fixtures.mjs');
  });

  test('01 options are honoured: minTextChars above the page’s count makes it sparse text', () => {
    const p = pageOf(analyze('01-text.pdf', { minTextChars: 400 }), 1);
    expectRoute(p, 'text', 'sparse-text');
  });

  test('02 xref stream + object stream (page dicts packed) → text', () => {
    const rep = analyze('02-text-objstm.pdf');
    assert.equal(rep.error, undefined);
    assert.equal(rep.pageCount, 1);
    assert.equal(rep.pdfVersion, '1.5');
    expectParagraphPage(pageOf(rep, 1));
  });

  test('03 garbage xref offsets and startxref → repaired, text', () => {
    const rep = analyze('03-broken-xref.pdf');
    assert.equal(rep.pageCount, 1);
    expectParagraphPage(pageOf(rep, 1));
    assert.ok(rep.notes.length > 0, 'the repair is reported in notes');
  });

  test('04 truncated at 70 % → a report, never a throw; page 1 if recovered is text', () => {
    const rep = analyze('04-truncated.pdf');
    // The xref and trailer are gone but the catalog, page tree, page, font and content precede the
    // cut, so a repairing reader finds page 1 whole. A reader that gives up must say so via error.
    if (rep.pages.length === 0 || rep.pages[0].route === 'unknown') {
      assert.ok(rep.error || rep.pages[0]?.reasons.includes('damaged'), 'giving up is reported');
      assert.equal(rep.needsOcr, false);
    } else {
      expectParagraphPage(pageOf(rep, 1));
    }
  });

  test('05 content stream filters: ASCIIHex, ASCII85, LZW, RunLength, Flate+PNG Up, [A85 Flate] → text', () => {
    const rep = analyze('05-filters.pdf');
    assert.equal(rep.pageCount, 6);
    for (const p of rep.pages) expectParagraphPage(p);
  });
});

describe('encryption', () => {
  const cases: [string, string, number, number][] = [
    ['06-enc-r2-rc4-40.pdf', 'RC4-40', 2, 1],
    ['06-enc-r3-rc4-128.pdf', 'RC4-128', 3, 2],
    ['06-enc-r4-aes-128.pdf', 'AES-128', 4, 4],
    ['06-enc-r5-aes-256.pdf', 'AES-256', 5, 5],
    ['06-enc-r6-aes-256.pdf', 'AES-256', 6, 5],
  ];
  for (const [file, method, revision, version] of cases) {
    test(`${file}: empty user password → text, ${method}`, () => {
      const rep = analyze(file);
      assert.equal(rep.error, undefined, JSON.stringify(rep.error));
      assert.equal(rep.encryption.encrypted, true);
      assert.equal(rep.encryption.method, method);
      assert.equal(rep.encryption.revision, revision);
      assert.equal(rep.encryption.version, version);
      assert.equal(rep.encryption.needsPassword, false);
      assert.equal(rep.pageCount, 1);
      expectParagraphPage(pageOf(rep, 1));
    });
  }

  test('user password "secret" not given → unknown, password-required, no OCR', () => {
    for (const options of [undefined, { password: 'wrong' }]) {
      const rep = analyze('06-enc-user-password.pdf', options);
      assert.equal(rep.encryption.encrypted, true);
      assert.equal(rep.encryption.method, 'AES-256');
      assert.equal(rep.encryption.needsPassword, true);
      assert.equal(rep.needsOcr, false);
      assert.deepEqual(rep.ocrPages, []);
      if (rep.pages.length === 0) assert.equal(rep.error?.reason, 'password-required');
      for (const p of rep.pages) {
        assert.equal(p.route, 'unknown');
        assert.deepEqual(p.reasons, ['password-required']);
      }
    }
  });

  test('user password "secret" given → text', () => {
    const rep = analyze('06-enc-user-password.pdf', { password: 'secret' });
    assert.equal(rep.error, undefined, JSON.stringify(rep.error));
    assert.equal(rep.encryption.method, 'AES-256');
    expectParagraphPage(pageOf(rep, 1));
  });
});

describe('images', () => {
  test('07 full-page DCT scan → ocr, coverage 1', () => {
    const rep = analyze('07-scan.pdf');
    const p = pageOf(rep, 1);
    expectFullScan(p);
    assert.deepEqual(rep.ocrPages, [1]);
    const box = p.evidence.imageBoxes[0];
    assert.equal(box.kind, 'xobject');
    assert.equal(box.filter, 'DCTDecode');
    assert.equal(box.width, 16);
    assert.equal(box.height, 16);
    nearRect(box.rect, LETTER, 0.5, 'image rect');
    near(box.share, 1, 0.01, 'share');
  });

  test('08 strips: coverage is the union of the image boxes, not their sum', () => {
    const rep = analyze('08-strips.pdf');
    assert.equal(rep.pageCount, 3);
    // 10 strips of 612×79.2 tiling the page
    expectFullScan(pageOf(rep, 1), 10);
    // 10 strips of 612×86.4 stepping 43.2: union 475.2/792 = 0.6 (sum would be 1.09)
    const p2 = pageOf(rep, 2);
    expectRoute(p2, 'ocr', 'image-only');
    assert.equal(p2.evidence.imageCount, 10);
    near(p2.evidence.imageCoverage, 0.6, 0.01, 'overlapping strips');
    // [0 0 400 400] ∪ [200 200 612 792] ∪ [300 0 612 300]: 406304 / 484704 (sum would be 1.026)
    const p3 = pageOf(rep, 3);
    expectRoute(p3, 'ocr', 'image-only');
    assert.equal(p3.evidence.imageCount, 3);
    near(p3.evidence.imageCoverage, 406304 / 484704, 0.01, '2-D overlap');
  });

  test('09 inline image with "EI" inside its data is skipped whole', () => {
    const rep = analyze('09-inline-image.pdf');
    assert.equal(rep.pageCount, 3);
    for (const n of [1, 2]) {
      const p = pageOf(rep, n);
      expectFullScan(p);
      const box = p.evidence.imageBoxes[0];
      assert.equal(box.kind, 'inline');
      assert.equal(box.width, 40);
      assert.equal(box.height, 40);
    }
    // the paragraph after the image is only found if the parser resumed at the real EI
    const p3 = pageOf(rep, 3);
    expectRoute(p3, 'text', 'text-layer');
    assert.equal(p3.evidence.visibleChars, PARAGRAPH_CHARS);
    assert.equal(p3.evidence.imageCount, 1);
    near(p3.evidence.imageCoverage, 1, 0.01, 'imageCoverage');
  });

  test('10 form → form → image with /Matrix scaling → ocr, coverage 1', () => {
    const p = pageOf(analyze('10-nested-forms.pdf'), 1);
    expectFullScan(p);
    nearRect(p.evidence.imageBoxes[0].rect, LETTER, 0.5, 'image rect through two form matrices');
  });

  test('11 rotation: routes unaffected, rotate normalised (incl. inherited -90 → 270)', () => {
    const rep = analyze('11-rotated.pdf');
    assert.equal(rep.pageCount, 3);
    const p1 = pageOf(rep, 1);
    expectParagraphPage(p1);
    assert.equal(p1.evidence.rotate, 90);
    const p2 = pageOf(rep, 2);
    expectFullScan(p2);
    assert.equal(p2.evidence.rotate, 90);
    const p3 = pageOf(rep, 3);
    expectParagraphPage(p3);
    assert.equal(p3.evidence.rotate, 270);
  });

  test('12 CropBox: images outside it do not count; an image filling it covers 1', () => {
    const rep = analyze('12-cropbox.pdf');
    const p1 = pageOf(rep, 1);
    assert.notEqual(p1.route, 'ocr', describePage(p1));
    assert.ok(p1.route === 'blank' || p1.route === 'review', describePage(p1));
    near(p1.evidence.imageCoverage, 0, 0.01, 'frame outside the crop box');
    nearRect(p1.evidence.boxes.mediaBox, LETTER, 0, 'mediaBox');
    nearRect(p1.evidence.boxes.cropBox, [100, 100, 512, 692], 0, 'cropBox');
    const p2 = pageOf(rep, 2);
    expectRoute(p2, 'ocr', 'image-only');
    near(p2.evidence.imageCoverage, 1, 0.01, 'image = crop box');
    nearRect(p2.evidence.imageBoxes[0].rect, [100, 100, 512, 692], 0.5, 'image rect');
    near(p2.evidence.imageBoxes[0].share, 1, 0.01, 'share of the visible box');
  });

  test('17 mixed: three text pages and a scan → needsOcr, ocrPages [4]', () => {
    const rep = analyze('17-mixed.pdf');
    assert.equal(rep.pageCount, 4);
    assert.deepEqual(
      rep.pages.map((p) => p.route),
      ['text', 'text', 'text', 'ocr'],
    );
    for (const n of [1, 2, 3]) expectParagraphPage(pageOf(rep, n));
    expectFullScan(pageOf(rep, 4));
    // MediaBox inherited from the root /Pages
    for (const p of rep.pages) nearRect(p.evidence.boxes.mediaBox, LETTER, 0, `p${p.page} inherited mediaBox`);
    assert.equal(rep.needsOcr, true);
    assert.deepEqual(rep.ocrPages, [4]);
    assert.equal(rep.routeCounts.text, 3);
    assert.equal(rep.routeCounts.ocr, 1);
  });

  test('19 stamp annotation appearance: a full-page image counts; hidden (/F 2) does not', () => {
    const rep = analyze('19-annotation.pdf');
    const p1 = pageOf(rep, 1);
    // /AP /N has BBox 100×100 mapped onto the Rect 612×792
    expectFullScan(p1);
    assert.ok(
      p1.evidence.imageBoxes.some((b) => b.fromAnnotation === true),
      'image attributed to the annotation',
    );
    const p2 = pageOf(rep, 2);
    expectRoute(p2, 'blank');
    assert.equal(p2.evidence.imageCount, 0);
    assert.equal(p2.evidence.imageCoverage, 0);
  });
});

describe('invisible and hidden text', () => {
  test('13 scan + 3 Tr text → ocr-layer', () => {
    const rep = analyze('13-ocr-layer.pdf');
    const p = pageOf(rep, 1);
    expectRoute(p, 'ocr-layer', 'invisible-text-over-scan');
    assert.equal(p.evidence.visibleChars, 0);
    assert.equal(p.evidence.invisibleChars, PARAGRAPH_CHARS);
    assert.equal(p.evidence.hiddenUnderImage, 0);
    near(p.evidence.imageCoverage, 1, 0.01, 'imageCoverage');
    assert.equal(rep.needsOcr, false);
  });

  test('14 visible text painted over by a later opaque image → ocr-layer, hidden under image', () => {
    const p = pageOf(analyze('14-text-under-image.pdf'), 1);
    expectRoute(p, 'ocr-layer', 'text-under-image');
    assert.equal(p.evidence.visibleChars, 0);
    assert.equal(p.evidence.invisibleChars, PARAGRAPH_CHARS);
    assert.equal(p.evidence.hiddenUnderImage, PARAGRAPH_CHARS);
    near(p.evidence.imageCoverage, 1, 0.01, 'imageCoverage');
  });

  // The text is in the file (a text extractor returns it) but nothing of it is seen: route `text` with the reason
  // `invisible-text-only` (the corpus rule 6: "some characters"), never a text layer, an OCR layer or OCR.
  test('20 text outside the visible box is invisible: invisible-text-only, never a text layer', () => {
    const rep = analyze('20-text-outside-crop.pdf');
    for (const p of rep.pages) {
      expectRoute(p, 'text', 'invisible-text-only');
      assert.ok(!p.reasons.includes('text-layer'), describePage(p));
      assert.equal(p.evidence.visibleChars, 0, describePage(p));
      assert.equal(p.evidence.invisibleChars, PARAGRAPH_CHARS, describePage(p));
    }
    nearRect(pageOf(rep, 2).evidence.boxes.cropBox, [0, 300, 612, 792], 0, 'cropBox');
  });
});

describe('clip-mode text and byte-swapped ToUnicode', () => {
  test('22 7 Tr text: an image, a fill or a form painted through the clip shows it (text); painted before or after Q it stays an OCR layer', () => {
    const rep = analyze('22-clip-text.pdf');
    for (const n of [1, 4, 5]) {
      const p = pageOf(rep, n);
      expectRoute(p, 'text', 'text-layer');
      assert.equal(p.evidence.visibleChars, PARAGRAPH_CHARS, describePage(p));
      assert.equal(p.evidence.invisibleChars, 0, describePage(p));
    }
    for (const n of [2, 3]) {
      const p = pageOf(rep, n);
      expectRoute(p, 'ocr-layer', 'invisible-text-over-scan');
      assert.equal(p.evidence.visibleChars, 0, describePage(p));
      assert.equal(p.evidence.invisibleChars, PARAGRAPH_CHARS, describePage(p));
    }
  });

  test('23 byte-swapped ToUnicode (U+4100 for A) is undecodable; a correct one and genuine CJK with U+XX00 ideographs are text', () => {
    const rep = analyze('23-swapped-tounicode.pdf');
    const p1 = pageOf(rep, 1);
    expectRoute(p1, 'ocr', 'undecodable-text');
    // '0' swapped is U+3000, the ideographic space: one character fewer; 'é' is not in the map and decodes by WinAnsi
    assert.equal(p1.evidence.visibleChars, PARAGRAPH_CHARS - 1);
    assert.equal(p1.evidence.badChars, PARAGRAPH_CHARS - 2);
    assert.ok(
      p1.notes?.some((n) => n.includes('byte-swapped')),
      JSON.stringify(p1.notes),
    );
    const p2 = pageOf(rep, 2);
    expectRoute(p2, 'text', 'text-layer');
    assert.equal(p2.evidence.badChars, 0);
    const p3 = pageOf(rep, 3);
    expectRoute(p3, 'text', 'text-layer');
    assert.equal(p3.evidence.visibleChars, 80);
    assert.equal(p3.evidence.badChars, 0);
  });

  test('24 clip-mode text with a byte-swapped ToUnicode, an image painted through it → ocr', () => {
    const rep = analyze('24-clip-swapped.pdf');
    const p = pageOf(rep, 1);
    expectRoute(p, 'ocr', 'undecodable-text');
    assert.equal(p.evidence.visibleChars, PARAGRAPH_CHARS - 1);
    assert.deepEqual(rep.ocrPages, [1]);
  });
});

describe('damaged content', () => {
  test('25 a content stream that decodes to nothing → unknown damaged; one that breaks after the text keeps it', () => {
    const rep = analyze('25-damaged-content.pdf');
    const p1 = pageOf(rep, 1);
    expectRoute(p1, 'unknown', 'damaged');
    assert.ok(
      p1.notes?.some((n) => n.includes('could not be decoded')),
      JSON.stringify(p1.notes),
    );
    const p2 = pageOf(rep, 2);
    expectRoute(p2, 'text', 'text-layer');
    assert.equal(p2.evidence.visibleChars, PARAGRAPH_CHARS);
    assert.ok(!p2.reasons.includes('damaged'), JSON.stringify(p2.reasons));
    assert.ok(
      p2.notes?.some((n) => n.includes('damaged')),
      JSON.stringify(p2.notes),
    );
  });
});

describe('no text, no scan', () => {
  test('15 vector-only → review; empty → blank; 3 strokes → blank; small logo → review', () => {
    const rep = analyze('15-vector.pdf');
    assert.equal(rep.pageCount, 4);
    const p1 = pageOf(rep, 1);
    expectRoute(p1, 'review', 'vector-only');
    assert.equal(p1.evidence.vectorOps, 50);
    const p2 = pageOf(rep, 2);
    expectRoute(p2, 'blank', 'nothing-painted');
    assert.equal(p2.evidence.vectorOps, 0);
    assert.equal(p2.evidence.operators, 0);
    const p3 = pageOf(rep, 3);
    expectRoute(p3, 'blank', 'little-paint');
    assert.equal(p3.evidence.vectorOps, 3);
    const p4 = pageOf(rep, 4);
    expectRoute(p4, 'review', 'small-image-only');
    assert.equal(p4.evidence.imageCount, 1);
    near(p4.evidence.imageCoverage, (100 * 50) / (612 * 792), 0.001, '100×50 pt logo');
    assert.equal(rep.needsOcr, false);
  });
});

describe('poor text', () => {
  test('16 Identity-H font without ToUnicode → ocr, undecodable-text', () => {
    const rep = analyze('16-cid-no-tounicode.pdf');
    const p = pageOf(rep, 1);
    expectRoute(p, 'ocr', 'undecodable-text');
    assert.equal(p.evidence.visibleChars, 300);
    assert.equal(p.evidence.badChars, 300);
    assert.equal(p.evidence.textQuality, 0);
    const f = p.evidence.fonts[0];
    assert.equal(f.subtype, 'Type0');
    assert.equal(f.decoding, 'none');
    assert.deepEqual(rep.ocrPages, [1]);
  });

  test('18 100-char caption over a scan → review, few-chars-over-image', () => {
    const p = pageOf(analyze('18-caption-over-scan.pdf'), 1);
    expectRoute(p, 'review', 'few-chars-over-image');
    assert.equal(p.evidence.visibleChars, CAPTION_CHARS);
    near(p.evidence.imageCoverage, 1, 0.01, 'imageCoverage');
    // with the band lowered below the caption's length the page is plain text
    expectRoute(pageOf(analyze('18-caption-over-scan.pdf', { borderlineMaxChars: 50 }), 1), 'text');
  });
});

describe('not a PDF', () => {
  test('21 random bytes → error not-a-pdf', () => {
    const rep = analyze('21-not-a-pdf.pdf');
    assert.equal(rep.error?.reason, 'not-a-pdf');
    assert.equal(rep.needsOcr, false);
    for (const p of rep.pages) assert.equal(p.route, 'unknown');
  });

  test('21 empty file → error empty-file', () => {
    const rep = analyze('21-empty.pdf');
    assert.equal(rep.error?.reason, 'empty-file');
    assert.equal(rep.pageCount, 0);
    assert.equal(rep.needsOcr, false);
  });
});

describe('robustness', () => {
  // Damage every fixture a few ways (prefixes, a zeroed block, flipped bytes): the analyzer must
  // answer with a consistent report each time. Deterministic, and cheap: the fixtures are a few KB.
  const files = readdirSync(DIR).filter((f) => f.endsWith('.pdf'));
  test(`${files.length} fixtures × 12 damaged variants never throw`, () => {
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % Math.max(1, n);
    };
    for (const f of files) {
      const bytes = load(f);
      const variants: Uint8Array[] = [];
      for (const share of [0.1, 0.25, 0.5, 0.75, 0.9, 0.99]) variants.push(bytes.slice(0, Math.floor(bytes.length * share)));
      for (let k = 0; k < 3; k++) {
        const v = bytes.slice();
        const at = rand(v.length);
        v.fill(0, at, at + 64);
        variants.push(v);
      }
      for (let k = 0; k < 3; k++) {
        const v = bytes.slice();
        for (let j = 0; j < 16; j++) v[rand(v.length)] ^= 1 << rand(8);
        variants.push(v);
      }
      variants.forEach((v, i) => {
        let rep: DocumentReport;
        try {
          rep = analyzePdfSync(v, { timeBudgetMs: 2000 });
        } catch (e) {
          assert.fail(`${f} variant ${i} threw: ${e instanceof Error ? e.stack : String(e)}`);
        }
        checkInvariants(rep, `${f} variant ${i}`);
      });
    }
  });
});
