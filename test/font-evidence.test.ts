// The fonts table's columns (FontEvidence.embedded, toUnicode, glyphs, invisibleChars, glyphless): filled where the
// content interpreter tallies fonts, and in agreement with the page's own counts and with the text layer's runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzePdfSync } from '../src/analyzer/index';
import { isGlyphlessFont } from '../src/analyzer/fonts';
import type { DocumentReport, PageReport } from '../src/analyzer/types';

const FX = join(import.meta.dirname, 'fixtures', 'analyzer');
const open = (name: string, textLayer = false): DocumentReport =>
  analyzePdfSync(new Uint8Array(readFileSync(join(FX, name))), textLayer ? { textLayer: true } : {});
const sum = (p: PageReport, k: 'chars' | 'invisibleChars') => p.evidence.fonts.reduce((a, f) => a + (f[k] ?? 0), 0);

test('a Tesseract-style layer: one GlyphLessFont, embedded, with ToUnicode, every character invisible', () => {
  const p = open('26-tesseract-ocr.pdf').pages[0];
  assert.equal(p.route, 'ocr-layer');
  assert.equal(p.evidence.fonts.length, 1);
  const f = p.evidence.fonts[0];
  assert.equal(f.baseFont, 'GlyphLessFont');
  assert.equal(f.glyphless, true);
  assert.equal(f.embedded, true);
  assert.equal(f.toUnicode, 'yes');
  assert.equal(f.chars, 347);
  assert.equal(f.glyphs, 347); // one code per character, no space glyphs: Tesseract places each word alone
  assert.equal(f.invisibleChars, 347);
  assert.equal(p.evidence.invisibleChars, 347);
});

test('per-font invisible counts add up to the page: render mode 3, hidden under an image, visible', () => {
  const p = open('26-tesseract-ocr.pdf').pages[1];
  const helv = p.evidence.fonts.find((f) => f.baseFont === 'Helvetica')!;
  const ocr = p.evidence.fonts.find((f) => f.glyphless)!;
  assert.equal(helv.glyphless, false);
  assert.equal(helv.embedded, false);
  assert.equal(helv.toUnicode, 'no');
  assert.equal(helv.invisibleChars, p.evidence.hiddenUnderImage); // the paragraph the image covers
  assert.ok(helv.invisibleChars > 0 && helv.invisibleChars < helv.chars);
  assert.ok(helv.glyphs! > helv.chars, 'spaces are glyphs drawn, not characters');
  assert.equal(ocr.invisibleChars, ocr.chars);
  assert.equal(sum(p, 'invisibleChars'), p.evidence.invisibleChars);
  assert.equal(sum(p, 'chars'), p.evidence.visibleChars + p.evidence.invisibleChars);
});

test('clip-mode text: invisible until something is painted through it, per font as per page', () => {
  const pages = open('22-clip-text.pdf').pages;
  for (const p of pages) {
    const f = p.evidence.fonts[0];
    assert.equal(f.invisibleChars, p.evidence.invisibleChars, `page ${p.page}`);
  }
  assert.equal(pages[0].evidence.fonts[0].invisibleChars, 0); // an image painted through the clip shows the glyphs
  assert.equal(pages[1].evidence.fonts[0].invisibleChars, pages[1].evidence.fonts[0].chars); // painted before: stays invisible
});

test('ToUnicode: none, byte-swapped (broken), and a good one; a Type0 font without a program is not embedded', () => {
  const none = open('16-cid-no-tounicode.pdf').pages[0].evidence.fonts[0];
  assert.deepEqual([none.subtype, none.toUnicode, none.embedded, none.glyphless], ['Type0', 'no', false, false]);
  const swapped = open('23-swapped-tounicode.pdf').pages;
  assert.equal(swapped[0].evidence.fonts[0].toUnicode, 'broken');
  assert.equal(swapped[1].evidence.fonts[0].toUnicode, 'yes');
});

test("the text layer's runs agree with the fonts' counts", () => {
  for (const p of open('26-tesseract-ocr.pdf', true).pages) {
    const runs = p.evidence.textLayer!.runs;
    for (const f of p.evidence.fonts) {
      const mine = runs.filter((r) => r.font === f.name);
      assert.equal(
        mine.reduce((a, r) => a + r.chars, 0),
        f.chars,
        `page ${p.page} ${f.name}: chars`,
      );
      assert.equal(
        mine.filter((r) => r.visibility !== 'visible').reduce((a, r) => a + r.chars, 0),
        f.invisibleChars,
        `page ${p.page} ${f.name}: invisible`,
      );
    }
  }
});

test('the text layer does not change the fonts table', () => {
  for (const name of ['26-tesseract-ocr.pdf', '22-clip-text.pdf', '14-text-under-image.pdf', '13-ocr-layer.pdf']) {
    const a = open(name).pages.map((p) => p.evidence.fonts);
    const b = open(name, true).pages.map((p) => p.evidence.fonts);
    assert.deepEqual(b, a, name);
  }
});

test('GlyphLessFont by name, with or without a subset prefix; other names are not', () => {
  assert.equal(isGlyphlessFont('GlyphLessFont'), true);
  assert.equal(isGlyphlessFont('ABCDEF+GlyphLessFont'), true);
  assert.equal(isGlyphlessFont('glyphlessfont'), true);
  assert.equal(isGlyphlessFont('Helvetica'), false);
  assert.equal(isGlyphlessFont('GlyphLessFontBold'), false);
  assert.equal(isGlyphlessFont(''), false);
});
