// Small PDFs written in tests: one page, its content stream and resources given, the xref computed.

/** A one-page PDF with the given content stream and resources (xref offsets computed). */
export function makePdf(content: string, resources: string, extraObjects: string[] = []): Uint8Array {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources ${resources} /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...extraObjects,
  ];
  return pdfOf(objs);
}

/** A PDF of these objects (object i + 1 is objs[i]; object 1 the catalog), the xref offsets computed. */
export function pdfOf(objs: string[]): Uint8Array {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/**
 * The scan the layer-quality tests read in every encoding: a 612 × 792 page (one pixel a point) of six "lines of print"
 * (letters 3-7 px wide on an 8 px pitch, 10 px tall and every third 14, words of five letters, columns 72-299, lines at
 * a 40 px pitch from row 116). Whether pixel (x, y) is ink.
 */
export function printInk(x: number, y: number): boolean {
  const line = Math.floor((y - 116) / 40);
  const r = (y - 116) % 40;
  if (y < 116 || line >= 6 || r >= 14 || x < 72 || x >= 300) return false;
  // one letter an 8 px cell, 3-7 px wide; every third an ascender (rows 0-3 above the 10 px body); every sixth cell a space
  const c = (x - 72) >> 3;
  if (c % 6 === 5 || (x - 72) % 8 >= 3 + ((c * 7) % 5)) return false;
  return r >= 4 || c % 3 === 0;
}

/**
 * A page painted whole by the print scan stored as `dict` says (its /Width, /Height, colour space, filter: everything
 * but /Type, /Subtype and /Length) with `data`, and an invisible layer of Helvetica over its first `covered` lines (each
 * line's baseline 8 pt above its bottom row, text about as wide as its ink: Helvetica's widths make the sentence 217 pt
 * at 10 pt, 104 Tz 225 of the ink's 228).
 */
export function printScanPdf(dict: string, data: Uint8Array, covered: number): Uint8Array {
  const image = `<< /Type /XObject /Subtype /Image ${dict} /Length ${data.length} >>\nstream\n${Buffer.from(data).toString('latin1')}\nendstream`;
  let text = '';
  for (let l = 0; l < covered; l++)
    text += `BT 3 Tr /F1 10 Tf 104 Tz 72 ${792 - (120 + 40 * l + 10) + 2} Td (sample words written over the scan in line ${l + 1} here) Tj ET `;
  return makePdf(`q 612 0 0 792 0 0 cm /Im1 Do Q ${text}`, '<< /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >>', [
    image,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}
