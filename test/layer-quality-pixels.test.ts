// Scans that are not JPEG (layerQuality/pixels.ts, ccitt.ts): FlateDecode images of 8-bit gray or RGB, or 1-bit gray,
// and CCITT fax images are read as the score's image evidence the way a JPEG scan is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { analyzePdfSync } from '../src/analyzer/index';
import { boxReduce, decodedScan, grayFromSamples, reduceScan } from '../src/analyzer/layerQuality/pixels';
import { encodeFax } from '../scripts/fax-encoder';
import { prng } from '../scripts/fuzz';
import { makePdf, pdfOf, printInk, printScanPdf } from './pdf-helpers';

test('grayFromSamples reads 8- and 16-bit gray and RGB, 1- to 4-bit gray, palette indices and an inverting /Decode, and refuses too few bytes', () => {
  const gray = grayFromSamples(new Uint8Array([0, 100, 200, 255]), { width: 2, height: 2, components: 1, bitsPerComponent: 8, inverted: false });
  assert.deepEqual([...gray!.data], [0, 100, 200, 255]);
  const rgb = grayFromSamples(new Uint8Array([255, 255, 255, 255, 0, 0]), {
    width: 2,
    height: 1,
    components: 3,
    bitsPerComponent: 8,
    inverted: false,
  });
  assert.deepEqual([...rgb!.data], [255, 76]);
  // 1 bit: rows padded to a byte; 1 is white unless /Decode [1 0]
  const bits = { width: 3, height: 2, components: 1, bitsPerComponent: 1, inverted: false } as const;
  assert.deepEqual([...grayFromSamples(new Uint8Array([0b10100000, 0b01000000]), bits)!.data], [255, 0, 255, 0, 255, 0]);
  assert.deepEqual([...grayFromSamples(new Uint8Array([0b10100000, 0b01000000]), { ...bits, inverted: true })!.data], [0, 255, 0, 255, 0, 255]);
  assert.equal(grayFromSamples(new Uint8Array([1, 2, 3]), { width: 2, height: 2, components: 1, bitsPerComponent: 8, inverted: false }), undefined);
  // 2 and 4 bits of gray, scaled to 0..255; and inverted
  const g2 = { width: 4, height: 1, components: 1, bitsPerComponent: 2, inverted: false } as const;
  assert.deepEqual([...grayFromSamples(new Uint8Array([0b00011011]), g2)!.data], [0, 85, 170, 255]);
  assert.deepEqual([...grayFromSamples(new Uint8Array([0b00011011]), { ...g2, inverted: true })!.data], [255, 170, 85, 0]);
  assert.deepEqual([...grayFromSamples(new Uint8Array([0x0f, 0x80]), { ...g2, width: 3, height: 1, bitsPerComponent: 4 })!.data], [0, 255, 136]);
  // 16 bits: the high byte (big-endian samples), gray and RGB
  const g16 = { width: 2, height: 1, components: 1, bitsPerComponent: 16, inverted: false } as const;
  assert.deepEqual([...grayFromSamples(new Uint8Array([0x12, 0xff, 0xfe, 0x00]), g16)!.data], [0x12, 0xfe]);
  assert.deepEqual([...grayFromSamples(new Uint8Array([255, 0, 255, 0, 255, 0, 255, 9, 0, 9, 0, 9]), { ...g16, components: 3 })!.data], [255, 76]);
  // palette indices (4 bits) read as their entries; an index past the palette's end as its last entry
  const pal = { width: 4, height: 1, components: 1, bitsPerComponent: 4, inverted: false, palette: new Uint8Array([10, 20, 30]) } as const;
  assert.deepEqual([...grayFromSamples(new Uint8Array([0x01, 0x2f]), pal)!.data], [10, 20, 30, 30]);
  // 1-bit indices into a two-entry palette
  assert.deepEqual(
    [...grayFromSamples(new Uint8Array([0b10100000]), { ...pal, width: 3, bitsPerComponent: 1, palette: new Uint8Array([200, 7]) })!.data],
    [7, 200, 7],
  );
});

test('a bilevel scan kept as its bits reduces to the same means as its gray image, at every scale, whatever its levels', () => {
  const rnd = prng(5);
  for (const [w, h] of [
    [1, 1],
    [13, 7],
    [64, 33],
    [333, 101],
  ]) {
    const bits = new Uint8Array(Math.ceil(w / 8) * h).map(() => Math.floor(rnd() * 256));
    const layouts = [
      { width: w, height: h, components: 1, bitsPerComponent: 1, inverted: false },
      { width: w, height: h, components: 1, bitsPerComponent: 1, inverted: true },
      { width: w, height: h, components: 1, bitsPerComponent: 1, inverted: false, palette: new Uint8Array([200, 31]) },
    ] as const;
    for (const l of layouts) {
      const kept = decodedScan(bits, l)!;
      assert.ok('bits' in kept, 'kept as bits');
      const gray = grayFromSamples(bits, l)!;
      for (const s of [1, 2, 3, 4, 8]) assert.deepEqual(reduceScan(kept, s), boxReduce(gray, s), `${w}×${h} at ${s}`);
    }
  }
  // any other scan is kept in gray
  const g = decodedScan(new Uint8Array([1, 2, 3, 4]), { width: 2, height: 2, components: 1, bitsPerComponent: 8, inverted: false })!;
  assert.ok(!('bits' in g));
  assert.equal(
    decodedScan(new Uint8Array(1), { width: 9, height: 1, components: 1, bitsPerComponent: 1, inverted: false }),
    undefined,
    'too few bytes',
  );
});

test('boxReduce averages s × s blocks, partial ones at the edges too', () => {
  const img = { width: 3, height: 2, data: new Uint8Array([0, 100, 50, 200, 100, 150]) };
  assert.deepEqual(boxReduce(img, 2), { width: 2, height: 1, data: new Uint8Array([100, 100]) });
  assert.equal(boxReduce(img, 1), img);
});

/** the print scan of test/pdf-helpers.ts stored as `layout` says, under an invisible layer over its first `covered` lines */
type Layout = 'gray' | 'rgb' | 'bits' | 'gray4' | 'gray16' | 'indexed' | 'run-length' | 'fax' | 'fax-black-1';
function flateScanPage(covered: number, layout: Layout): Uint8Array {
  const W = 612;
  const H = 792;
  const ink = printInk;
  let samples: Uint8Array;
  let dict: string;
  let filter = '/FlateDecode';
  if (layout === 'fax' || layout === 'fax-black-1') {
    // Group 4; with /BlackIs1 true the image needs /Decode [1 0] to paint black where the scanner saw black
    const rows = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => ink(x, y)));
    samples = encodeFax(rows, -1);
    const black1 = layout === 'fax-black-1';
    dict = `/ColorSpace /DeviceGray /BitsPerComponent 1 /DecodeParms << /K -1 /Columns ${W} /Rows ${H}${black1 ? ' /BlackIs1 true' : ''} >>${black1 ? ' /Decode [1 0]' : ''}`;
    filter = '/CCITTFaxDecode';
  } else if (layout === 'gray4' || layout === 'indexed') {
    // 4 bits a pixel, two to a byte: 16 gray levels (ink 2, paper 14), or indices into a 16-colour RGB palette (ink 1, a
    // dark blue; paper 14, a cream), as OCRmyPDF's optimised scans store them
    const [dark, light] = layout === 'gray4' ? [2, 14] : [1, 14];
    const rowBytes = Math.ceil(W / 2);
    samples = new Uint8Array(rowBytes * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) samples[y * rowBytes + (x >> 1)] |= (ink(x, y) ? dark : light) << (x & 1 ? 0 : 4);
    const palette = Array.from({ length: 16 }, (_, i) => (i === 1 ? '202060' : i === 14 ? 'F0E8D0' : '808080')).join('');
    dict = `/ColorSpace ${layout === 'gray4' ? '/DeviceGray' : `[/Indexed /DeviceRGB 15 <${palette}>]`} /BitsPerComponent 4`;
  } else if (layout === 'gray16') {
    samples = new Uint8Array(W * H * 2);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) samples.set(ink(x, y) ? [30, 200] : [235, 7], 2 * (y * W + x));
    dict = '/ColorSpace /DeviceGray /BitsPerComponent 16';
  } else if (layout === 'bits') {
    const rowBytes = Math.ceil(W / 8);
    samples = new Uint8Array(rowBytes * H).fill(0xff);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (ink(x, y)) samples[y * rowBytes + (x >> 3)] &= ~(0x80 >> (x & 7));
    dict = '/ColorSpace /DeviceGray /BitsPerComponent 1';
  } else {
    const n = layout === 'rgb' ? 3 : 1;
    samples = new Uint8Array(W * H * n).fill(235);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (ink(x, y)) samples.fill(30, (y * W + x) * n, (y * W + x + 1) * n);
    dict = `/ColorSpace /${layout === 'rgb' ? 'DeviceRGB' : 'DeviceGray'} /BitsPerComponent 8`;
  }
  if (layout === 'run-length') {
    // 8-bit gray under RunLengthDecode (literal runs of up to 128 bytes, then the end-of-data byte), as a TIFF scan's
    // PackBits would come
    const out: number[] = [];
    for (let i = 0; i < samples.length; i += 128) out.push(Math.min(128, samples.length - i) - 1, ...samples.subarray(i, i + 128));
    samples = new Uint8Array([...out, 128]);
    filter = '/RunLengthDecode';
  }
  const z = filter === '/FlateDecode' ? deflateSync(samples) : samples;
  return printScanPdf(`/Width ${W} /Height ${H} ${dict} /Filter ${filter}`, z, covered);
}

test('a Flate or fax scan is read like a JPEG one: the ink of the lines the layer lacks is missing text, in every layout read', () => {
  for (const layout of ['gray', 'rgb', 'bits', 'gray4', 'gray16', 'indexed', 'run-length', 'fax', 'fax-black-1'] as const) {
    const full = analyzePdfSync(flateScanPage(6, layout), { layerQuality: true }).pages[0];
    assert.equal(full.route, 'ocr-layer', layout);
    const q = full.evidence.layerQuality!;
    assert.equal(q.signals.image, undefined, `${layout}: ${JSON.stringify(q.signals)}`);
    assert.ok((q.signals.textInkMissed as number) < 0.05, `${layout}: ${JSON.stringify(q.signals)}`);
    // two lines of six: two thirds of the text's ink has no word over it
    const part = analyzePdfSync(flateScanPage(2, layout), { layerQuality: true, textLayer: true }).pages[0];
    const p = part.evidence.layerQuality!;
    assert.ok(Math.abs((p.signals.textInkMissed as number) - 2 / 3) < 0.1, `${layout}: ${JSON.stringify(p.signals)}`);
    assert.equal(p.reocr, true, layout);
    // where: the four lines under the two the layer has
    const regions = part.evidence.textLayer!.missingText!;
    assert.equal(regions.length, 4, `${layout}: ${JSON.stringify(regions)}`);
    for (const r of regions) assert.ok(r[3] <= 792 - (120 + 80) + 8 && r[0] >= 64 && r[2] <= 308, `${layout}: ${JSON.stringify(r)}`);
  }
});

test("the ink coverage's scratch memory is charged: a budget that holds the scan but not the scratch says so, and the words are still scored", () => {
  const pdf = flateScanPage(6, 'gray');
  const at = (maxHeldBytes: number) => analyzePdfSync(pdf, { layerQuality: true, maxHeldBytes }).pages[0].evidence.layerQuality!;
  // the least budget at which the scan's evidence is whole (outcomes only worsen as the budget shrinks)
  let lo = 0;
  let hi = 64 * 1024 * 1024;
  assert.equal(at(hi).signals.image, undefined, JSON.stringify(at(hi).signals));
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (at(mid).signals.image === undefined) hi = mid;
    else lo = mid;
  }
  // a byte less: the scan is decoded and mapped, but the coverage's scratch (10 bytes a sample of the map) is refused
  const short = at(hi - 1);
  assert.equal(short.signals.image, "the scan's ink does not fit the memory budget", JSON.stringify(short.signals));
  assert.equal(short.signals.textInkMissed, undefined);
  assert.equal(typeof short.signals.nonWords, 'number', 'the words are still judged');
});

test('a scan the score does not decode is named in signals.image; a 1 × 1 image over the page is no scan', () => {
  const page = (image: string) =>
    makePdf(
      `q 612 0 0 792 0 0 cm /Im1 Do Q BT 3 Tr /F1 10 Tf 72 700 Td (sample words written over the scan in a line here) Tj ET`,
      '<< /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >>',
      [image, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
    );
  const image = (filter: string, more = '') =>
    page(
      `<< /Type /XObject /Subtype /Image /Width 1700 /Height 2200 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter ${filter.startsWith('[') ? filter : `/${filter}`} ${more} /Length 4 >>\nstream\nabcd\nendstream`,
    );
  const signal = (pdf: Uint8Array) => String(analyzePdfSync(pdf, { layerQuality: true }).pages[0].evidence.layerQuality!.signals.image);
  assert.match(signal(image('XYZDecode')), /^scan image not read: XYZDecode images are not decoded/);
  // a fax image: /Columns (1728 when not given) must be its width, and its codes must decode to all its lines
  assert.equal(signal(image('CCITTFaxDecode')), 'scan image not read: its fax parameters do not match the image (/Columns is not its width)');
  assert.match(signal(image('CCITTFaxDecode', '/DecodeParms << /K -1 /Columns 1700 >>')), /^scan image not read: its data is damaged \(line 1: /);
  // a chain whose image filter is not its last: its data is neither samples nor fax codes
  assert.equal(signal(image('[/DCTDecode /FlateDecode]')), 'scan image not read: its filters stop at DCTDecode, before its data');
  // a Flate scan whose data stops short of its size is not read either, and says so
  const z = deflateSync(new Uint8Array(50).fill(128));
  const short = page(
    `<< /Type /XObject /Subtype /Image /Width 100 /Height 100 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${z.length} >>\nstream\n${Buffer.from(z).toString('latin1')}\nendstream`,
  );
  assert.equal(
    analyzePdfSync(short, { layerQuality: true }).pages[0].evidence.layerQuality!.signals.image,
    'scan image not read: its data ends early',
  );
  const dot = page(
    '<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 1 >>\nstream\nA\nendstream',
  );
  assert.equal(analyzePdfSync(dot, { layerQuality: true }).pages[0].evidence.layerQuality!.signals.image, 'no scan image');
});

/**
 * A mixed raster page, as the Internet Archive, DjVu conversions and MRC compressors store scans: a coarse background
 * image with the text removed (flat paper here), and the text as a full-resolution 1-bit mask over it, painted in
 * black: `kind` says how (the /SMask of a 1 × 1 black image; an /ImageMask stencil; the stencil /Mask of a black
 * image), and `flip` writes the mask with /Decode [1 0] and its samples inverted. An invisible layer over `covered` lines.
 */
function mixedRasterPage(covered: number, kind: 'smask' | 'imagemask' | 'mask', flip = false): Uint8Array {
  const W = 612;
  const H = 792;
  const rowBytes = Math.ceil(W / 8);
  // painted samples: 1 for a soft mask, 0 for a stencil (each the other way round when flipped)
  const paintedIs1 = (kind === 'smask') !== flip;
  const bits = new Uint8Array(rowBytes * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (printInk(x, y) === paintedIs1) bits[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
  const mask = deflateSync(bits);
  const decode = flip ? '/Decode [1 0]' : '';
  const stream = (dict: string, data: Uint8Array) =>
    `<< ${dict} /Length ${data.length} >>\nstream\n${Buffer.from(data).toString('latin1')}\nendstream`;
  const bg = deflateSync(new Uint8Array(153 * 198).fill(235));
  const objects = [
    stream('/Type /XObject /Subtype /Image /Width 153 /Height 198 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', bg),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let fg = '';
  if (kind === 'imagemask') {
    objects.push(stream(`/Type /XObject /Subtype /Image /Width ${W} /Height ${H} /ImageMask true ${decode} /Filter /FlateDecode`, mask));
    fg = '0 g /Im2 Do';
  } else {
    const maskDict =
      kind === 'smask'
        ? `/Type /XObject /Subtype /Image /Width ${W} /Height ${H} /ColorSpace /DeviceGray /BitsPerComponent 1 ${decode} /Filter /FlateDecode`
        : `/Type /XObject /Subtype /Image /Width ${W} /Height ${H} /ImageMask true ${decode} /Filter /FlateDecode`;
    objects.push(
      stream(
        `/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /${kind === 'smask' ? 'SMask' : 'Mask'} 8 0 R`,
        new Uint8Array([0]),
      ),
      stream(maskDict, mask),
    );
    fg = '/Im2 Do';
  }
  let text = '';
  for (let l = 0; l < covered; l++)
    text += `BT 3 Tr /F1 10 Tf 72 ${792 - (120 + 40 * l + 10) + 2} Td (sample words written over the scan in line ${l + 1} here) Tj ET `;
  return makePdf(`q 612 0 0 792 0 0 cm /Im1 Do ${fg} Q ${text}`, '<< /XObject << /Im1 5 0 R /Im2 7 0 R >> /Font << /F1 6 0 R >> >>', objects);
}

test('a mixed raster page: its full-resolution text mask is read as the scan, not the coarse background it covers', () => {
  for (const [kind, flip] of [
    ['smask', false],
    ['smask', true],
    ['imagemask', false],
    ['imagemask', true],
    ['mask', false],
  ] as const) {
    const name = `${kind}${flip ? ', /Decode [1 0]' : ''}`;
    const full = analyzePdfSync(mixedRasterPage(6, kind, flip), { layerQuality: true }).pages[0];
    assert.equal(full.route, 'ocr-layer', name);
    const q = full.evidence.layerQuality!;
    assert.equal(q.signals.image, undefined, `${name}: ${JSON.stringify(q.signals)}`);
    // the words sit on the mask's ink (the background is flat paper: on it they would sit on none)
    assert.ok((q.signals.boxesOnInk as number) > 0.9 && (q.signals.textInkMissed as number) < 0.05, `${name}: ${JSON.stringify(q.signals)}`);
    const part = analyzePdfSync(mixedRasterPage(2, kind, flip), { layerQuality: true }).pages[0].evidence.layerQuality!;
    assert.ok(Math.abs((part.signals.textInkMissed as number) - 2 / 3) < 0.1, `${name}: ${JSON.stringify(part.signals)}`);
    assert.equal(part.reocr, true, name);
  }
});

test('a scan stored inline (BI … ID … EI), as fax programs and old scanners store it, is read as the same image XObject is', () => {
  // the e2e fixture (a JPEG scan under Tesseract layers on four of its five pages) with the scan moved inline
  const fixture = readFileSync(join(import.meta.dirname, 'fixtures', 'e2e', 'layer-quality.pdf')).toString('latin1');
  const objs: string[] = [];
  for (const m of fixture.matchAll(/(?<=\n)(\d+) 0 obj\n([^]*?)\nendobj(?=\n)/g)) objs[Number(m[1]) - 1] = m[2];
  const jpeg = /stream\n([^]*)\nendstream$/.exec(objs[2])![1];
  const inline = `BI /W 2448 /H 3168 /BPC 8 /CS /G /F /DCT /L ${jpeg.length} ID ${jpeg} EI`;
  let moved = 0;
  const rewritten = objs.map((o) =>
    o.includes('/Im0 Do')
      ? o.replace(/<<\s*\/Length \d+ >>\nstream\n([^]*)\nendstream$/, (_, content: string) => {
          moved++;
          const c = content.replace('/Im0 Do', inline);
          return `<< /Length ${c.length} >>\nstream\n${c}\nendstream`;
        })
      : o,
  );
  assert.equal(moved, 4);
  // (the rewritten file has no /Info, so no producer: that context is left out of the comparison)
  const quality = (pdf: Uint8Array) =>
    analyzePdfSync(pdf, { layerQuality: true }).pages.map((p) => {
      const q = p.evidence.layerQuality;
      if (q) delete q.signals.producer;
      return q;
    });
  const want = quality(new Uint8Array(Buffer.from(fixture, 'latin1')));
  const got = quality(pdfOf(rewritten));
  // the four scanned pages' scan is read (no note), and every page's score, advice and signals are the XObject's
  assert.deepEqual(
    got.map((q) => q?.signals.image),
    [undefined, undefined, undefined, undefined, 'no scan image'],
  );
  assert.deepEqual(got, want);
});

/**
 * The print page stored as four horizontal strips (198 rows each, drawn edge to edge down the page), Flate-coded gray
 * or, with `bilevel`, alternately gray and 1-bit, under an invisible layer over `covered` lines.
 */
function stripsPage(covered: number, bilevel = false): Uint8Array {
  const W = 612;
  const rows = 198;
  const objects = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  let paint = '';
  const names: string[] = [];
  for (let k = 0; k < 4; k++) {
    const oneBit = bilevel && k % 2 === 1;
    const rowBytes = oneBit ? Math.ceil(W / 8) : W;
    // (a page scanned whole: its strips share paper and ink levels, white and black when some are bilevel)
    const [paper, ink] = bilevel ? [255, 0] : [235, 30];
    const samples = new Uint8Array(rowBytes * rows).fill(oneBit ? 0xff : paper);
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < W; x++)
        if (printInk(x, k * rows + y)) {
          if (oneBit) samples[y * rowBytes + (x >> 3)] &= ~(0x80 >> (x & 7));
          else samples[y * W + x] = ink;
        }
    const z = deflateSync(samples);
    objects.push(
      `<< /Type /XObject /Subtype /Image /Width ${W} /Height ${rows} /ColorSpace /DeviceGray /BitsPerComponent ${oneBit ? 1 : 8} /Filter /FlateDecode /Length ${z.length} >>\nstream\n${Buffer.from(z).toString('latin1')}\nendstream`,
    );
    names.push(`/S${k} ${6 + k} 0 R`);
    paint += `q 612 0 0 ${rows} 0 ${792 - (k + 1) * rows} cm /S${k} Do Q `;
  }
  let text = '';
  for (let l = 0; l < covered; l++)
    text += `BT 3 Tr /F1 10 Tf 72 ${792 - (120 + 40 * l + 10) + 2} Td (sample words written over the scan in line ${l + 1} here) Tj ET `;
  return makePdf(paint + text, `<< /XObject << ${names.join(' ')} >> /Font << /F1 5 0 R >> >>`, objects);
}

test('a scan stored in strips is read whole, its strips stacked: a line dropped from any strip is missing text', () => {
  for (const bilevel of [false, true]) {
    const name = bilevel ? 'gray and 1-bit strips' : 'gray strips';
    const full = analyzePdfSync(stripsPage(6, bilevel), { layerQuality: true }).pages[0].evidence.layerQuality!;
    assert.equal(full.signals.image, undefined, `${name}: ${JSON.stringify(full.signals)}`);
    assert.ok((full.signals.textInkMissed as number) < 0.05 && (full.signals.boxesOnInk as number) > 0.9, `${name}: ${JSON.stringify(full.signals)}`);
    // the four lines the layer lacks lie in the first and second strips and below: read whole, two thirds is missing
    const part = analyzePdfSync(stripsPage(2, bilevel), { layerQuality: true, textLayer: true }).pages[0];
    const q = part.evidence.layerQuality!;
    assert.ok(Math.abs((q.signals.textInkMissed as number) - 2 / 3) < 0.1, `${name}: ${JSON.stringify(q.signals)}`);
    assert.equal(q.reocr, true, name);
    assert.equal(part.evidence.textLayer!.missingText!.length, 4, name);
  }
});
