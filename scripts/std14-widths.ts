/**
 * Writes src/analyzer/std14Widths.ts: the advance widths of the standard 14 fonts' Helvetica and Times faces, for a
 * simple font that names one of them and gives no /Widths (OCRmyPDF's hOCR renderer writes its invisible Helvetica so,
 * and so do many old producers). Without them every small letter was 500 thousandths wide and a word's box was off
 * by a tenth to a quarter for most words ("Falls" 26 % too wide, "immer" 10 % too narrow), more for words of narrow
 * or wide letters ("ill" more than twice as wide, "mm" 40 % too narrow).
 *
 *   node --import tsx scripts/std14-widths.ts [--afm DIR]
 *
 * The widths are the fonts' published metrics (Adobe's Core 14 AFM files); they are read here from the
 * metric-compatible URW base35 fonts' AFM files (Debian's fonts-urw-base35, default DIR
 * /usr/share/fonts/type1/urw-base35), whose advance widths are those metrics: Nimbus Sans for Helvetica, Nimbus Roman
 * for Times. Only numbers are taken; glyph names become code points through the analyzer's own glyph list. Run by hand
 * when the table should change; CI never runs it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glyphNameToUnicode } from '../src/analyzer/encodings';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'src', 'analyzer', 'std14Widths.ts');
const i = process.argv.indexOf('--afm');
const AFM = i > 0 ? process.argv[i + 1] : '/usr/share/fonts/type1/urw-base35';

/** the standard-14 face → its metric-compatible URW file (Oblique faces share their upright face's widths) */
const FACES: [string, string][] = [
  ['Helvetica', 'NimbusSans-Regular'],
  ['Helvetica-Bold', 'NimbusSans-Bold'],
  ['Times-Roman', 'NimbusRoman-Regular'],
  ['Times-Bold', 'NimbusRoman-Bold'],
  ['Times-Italic', 'NimbusRoman-Italic'],
  ['Times-BoldItalic', 'NimbusRoman-BoldItalic'],
];

/**
 * code points beyond Latin-1 kept: WinAnsi's and MacRoman's other characters, the Latin Extended-A letters, ligatures,
 * and the basic Cyrillic letters. The standard fonts have no Cyrillic; the URW fonts' Cyrillic is drawn to the same
 * metrics' proportions, and an OCR layer's expected word widths (layerQuality/widths.ts) read it for Russian text.
 */
function kept(cp: number): boolean {
  return (
    (cp >= 0x100 && cp <= 0x17f) ||
    (cp >= 0x401 && cp <= 0x45f) ||
    (cp >= 0x2000 && cp <= 0x2044) ||
    [0x192, 0x2c6, 0x2c7, 0x2d8, 0x2d9, 0x2da, 0x2db, 0x2dc, 0x2dd, 0x20ac, 0x2122, 0x2212, 0xfb01, 0xfb02].includes(cp)
  );
}

function read(file: string): Map<number, number> {
  const widths = new Map<number, number>();
  for (const line of readFileSync(file, 'latin1').split('\n')) {
    const wx = /\bWX\s+(\d+)/.exec(line);
    const n = /\bN\s+([A-Za-z0-9_.]+)/.exec(line);
    if (!wx || !n) continue;
    const cp = glyphNameToUnicode(n[1]);
    if (cp < 0x20 || n[1].includes('.')) continue;
    if (!widths.has(cp)) widths.set(cp, Number(wx[1]));
  }
  return widths;
}

function main(): number {
  const missing = FACES.filter(([, f]) => !existsSync(join(AFM, `${f}.afm`)));
  if (missing.length) {
    console.error(`std14-widths: no AFM files in ${AFM} (${missing.map(([, f]) => f).join(', ')}); install fonts-urw-base35 or pass --afm DIR`);
    return 1;
  }
  let out = `/**
 * Advance widths (thousandths of an em) of the standard 14 fonts' Helvetica and Times faces: their published metrics
 * (Adobe's Core 14 AFM files), as the metric-compatible URW base35 fonts give them. Written by
 * scripts/std14-widths.ts; do not edit. Courier is 600 throughout; Symbol and ZapfDingbats are not here.
 */
export type Std14Face = ${FACES.map(([f]) => `'${f}'`).join(' | ')};

/** U+0020..U+00FF, 0 where the face has no glyph */
// prettier-ignore
const LATIN: Record<Std14Face, readonly number[]> = {
`;
  let other = '';
  for (const [face, file] of FACES) {
    const w = read(join(AFM, `${file}.afm`));
    const latin: number[] = [];
    for (let cp = 0x20; cp <= 0xff; cp++) latin.push(w.get(cp) ?? 0);
    out += `  '${face}': [${latin.join(', ')}],\n`;
    const rest = [...w].filter(([cp]) => kept(cp)).sort((a, b) => a[0] - b[0]);
    other += `  '${face}': new Map([${rest.map(([cp, v]) => `[0x${cp.toString(16)}, ${v}]`).join(', ')}]),\n`;
  }
  out += `};

/** the other code points each face holds (Latin Extended-A, Cyrillic, typographic punctuation, ligatures, €, ™, −) */
// prettier-ignore
const OTHER: Record<Std14Face, ReadonlyMap<number, number>> = {
${other}};

/** The width of a code point in a face, or undefined when the face has no glyph for it. */
export function std14Width(face: Std14Face, cp: number): number | undefined {
  const w = cp >= 0x20 && cp <= 0xff ? LATIN[face][cp - 0x20] : OTHER[face].get(cp);
  return w ? w : undefined;
}
`;
  writeFileSync(OUT, out);
  console.log(`std14-widths: ${OUT} (${FACES.length} faces from ${AFM})`);
  return 0;
}

process.exitCode = main();
