/**
 * The layer writer of both stand-in splits for the OCR-layer quality score (issue 16): lines of words written the way
 * OCRmyPDF's legacy (reportlab) hOCR renderer writes them — invisible Helvetica (render mode 3), one BT…ET a line, each
 * word horizontally scaled to its box plus a space, in a form drawn over a full-page grey JPEG — and the text such a
 * layer gives a reader (layerText). scripts/ocr-synth-build.ts writes its corrupted true words with it, and
 * scripts/ocr-layers-build.ts its Tesseract hOCR lines (`hocr` renderer).
 */
import { PdfBuilder } from './fuzz';
import { normalise } from './ocr-split-sources';

// ---- the layer's model: lines of words with their horizontal extents ------------------------------------------------

export interface Word {
  text: string;
  x1: number;
  x2: number;
}
/**
 * a line: top-left coordinates in points, `base` the baseline, `size` the font size the renderer will use (before the
 * tilt); `lineHeight` the height each word's trailing space is widened at (size × 1.25 when not given) and `slope` the
 * baseline's tilt (none when not given), as an hOCR line has them (ocr-layers-build.ts writes real OCR's lines)
 */
export interface Line {
  words: Word[];
  top: number;
  bottom: number;
  base: number;
  size: number;
  lineHeight?: number;
  slope?: number;
}

const PT_PX = 72 / 300; // the hOCR the dev split's layers come from is at 300 dpi: every coordinate is on this grid

/** Helvetica's widths (the standard AFM, per 1000) for WinAnsi codes 32–255 */
const WIN_WIDTHS = (
  '278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,' +
  '667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,' +
  '556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584,0,556,0,222,556,' +
  '333,1000,556,556,333,1000,667,333,1000,0,611,0,0,222,222,333,333,350,556,1000,333,1000,500,333,944,0,500,667,278,333,556,556,556,' +
  '556,260,556,333,737,370,556,584,333,737,333,400,584,333,333,333,556,537,278,333,333,365,556,834,834,834,611,667,667,667,667,667,667,' +
  '1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,' +
  '500,556,556,556,556,278,278,278,278,556,556,556,556,556,556,556,584,611,556,556,556,556,500,556,500'
)
  .split(',')
  .map(Number);
/**
 * Helvetica has no Cyrillic: the widths of Nimbus Sans (Helvetica's metric clone, URW's AFM) for afii10017–afii10049
 * (А…Я with Ё seventh) and afii10065–afii10097 (а…я with ё seventh)
 */
const CYR_UPPER =
  '667,656,667,542,677,667,667,923,604,719,719,583,656,833,722,778,719,667,722,611,635,760,667,740,667,917,938,792,885,656,719,1010,722';
const CYR_LOWER =
  '556,573,531,365,583,556,556,669,458,559,559,438,583,688,552,556,542,556,500,458,500,823,500,573,521,802,823,625,719,521,510,750,542';

interface Encoding {
  /** Unicode character → byte */
  code: Map<string, number>;
  width: number[];
  /** the /Encoding entry */
  pdf: string;
}

function winAnsi(): Encoding {
  const code = new Map<string, number>();
  const dec = new TextDecoder('windows-1252');
  for (let b = 32; b < 256; b++) if (WIN_WIDTHS[b - 32] > 0) code.set(dec.decode(new Uint8Array([b])), b);
  return { code, width: WIN_WIDTHS.slice(), pdf: '/WinAnsiEncoding' };
}

/** WinAnsi with the Cyrillic letters where windows-1251 has them (А–я at 0xC0–0xFF, Ё 0xA8, ё 0xB8), by AGL names */
function cyrillic(): Encoding {
  const e = winAnsi();
  const diffs: string[] = [];
  const put = (byte: number, ch: string, name: string, w: number) => {
    for (const [k, v] of e.code) if (v === byte) e.code.delete(k);
    e.code.set(ch, byte);
    e.width[byte - 32] = w;
    diffs.push(`${byte} /${name}`);
  };
  const up = CYR_UPPER.split(',').map(Number);
  const lo = CYR_LOWER.split(',').map(Number);
  for (let i = 0; i < 33; i++) {
    const uc = i < 6 ? 0x410 + i : i === 6 ? 0x401 : 0x410 + i - 1;
    const byte = i < 6 ? 0xc0 + i : i === 6 ? 0xa8 : 0xc0 + i - 1;
    put(byte, String.fromCharCode(uc), `afii${10017 + i}`, up[i]);
    put(i === 6 ? 0xb8 : byte + 0x20, String.fromCharCode(i === 6 ? 0x451 : uc + 0x20), `afii${10065 + i}`, lo[i]);
  }
  return { ...e, pdf: `<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[${diffs.join(' ')}]>>` };
}

/** a number as reportlab writes it (seven significant digits, no trailing zeros) */
const num = (x: number): string => {
  const s = Number(x.toPrecision(7)).toString();
  return s.includes('e') ? x.toFixed(4) : s;
};

/**
 * The text form's content, as OCRmyPDF's legacy (reportlab) hOCR renderer writes it: the canvas preamble, then per
 * line `BT 1 0 0 1 0 0 Tm /F1 size Tf leading TL 3 Tr 1 0 0 1 x y Tm`, and per word a move from the last word's
 * start, `Tz` so that the word plus its trailing space fills the word's box plus a space at the line's height, `Tj`.
 * Coordinates are on the grid of the hOCR's pixels (`grid` points a pixel; 300 dpi unless given); a line with a
 * `slope` is turned by it and its font size divided by the angle's cosine, as the renderer does.
 */
export function layerContent(lines: Line[], pageHeight: number, enc: Encoding, grid = PT_PX): string {
  const qg = (x: number) => Math.round(x / grid) * grid;
  let s = '1 0 0 1 0 0 cm  BT /F1 12 Tf 14.4 TL ET\n0 1 1 RG\n0 1 1 rg\n0 w\n';
  for (const l of lines) {
    const words = l.words.filter((w) => w.text.trim());
    if (!words.length) continue;
    const angle = Math.atan(l.slope ?? 0);
    const size = Math.max(grid, qg(l.size)) / Math.cos(angle);
    const base = qg(l.base);
    const lineHeight = l.lineHeight ?? size * 1.25;
    const y = pageHeight - base;
    const x0 = qg(words[0].x1);
    const tm = l.slope ? `${num(Math.cos(angle))} ${num(-Math.sin(angle))} ${num(Math.sin(angle))} ${num(Math.cos(angle))}` : '1 0 0 1';
    s += `0 0 0 rg\nBT 1 0 0 1 0 0 Tm /F1 ${num(size)} Tf ${num(size * 1.2)} TL 3 Tr ${tm} ${num(x0)} ${num(y)} Tm`;
    let cursor = x0;
    for (const w of words) {
      const text = `${w.text} `;
      let bytes = '';
      let width = 0;
      for (const ch of text) {
        const b = enc.code.get(ch) ?? 0x3f;
        width += enc.width[b - 32];
        bytes += b === 0x28 || b === 0x29 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b < 0x80 ? String.fromCharCode(b) : `\\${b.toString(8)}`;
      }
      const x1 = qg(w.x1);
      const boxWidth = Math.max(grid, qg(w.x2) - x1) + (enc.width[0] * lineHeight) / 1000;
      const fontWidth = (width * size) / 1000;
      s += ` ${num(x1 - cursor)} 0 Td ${num((100 * boxWidth) / fontWidth)} Tz (${bytes}) Tj`;
      cursor = x1;
    }
    s += ' ET\n';
  }
  return s;
}

/**
 * The layer's text as a reader gets it: its words in content order, each string's trailing space a word break, the
 * characters Helvetica's encoding cannot carry as '?' (what PyMuPDF reads from such a layer). `pdftotext -raw` would
 * glue words whose trailing space, widened to the line's height as the renderer widens it, reaches past the next
 * word's start (dense justified text); it does so on the dev split's own layers too (a clean page labelled 0 reads at
 * 0.055 there), so the label does not use it.
 */
export function layerText(lines: Line[], cyr: boolean): string {
  const enc = cyr ? cyrillic() : winAnsi();
  return normalise(lines.map((l) => l.words.map((w) => [...w.text].map((c) => (enc.code.has(c) ? c : '?')).join('')).join(' ')).join(' '));
}

export interface OutPage {
  jpeg: Uint8Array;
  imgWidth: number;
  imgHeight: number;
  width: number;
  height: number;
  lines: Line[];
  cyrillic: boolean;
  /** points a pixel of the hOCR the layer comes from (72 / its dpi); 300 dpi's when not given */
  grid?: number;
}

/**
 * One PDF of these pages, laid out as the dev split's synthetic files are (PyMuPDF's insert_image + show_pdf_page):
 * the page's contents draw the JPEG (`fzImg0`) over the whole page, then a form (`fzFrm0`) whose matrix maps the
 * 300-dpi grid onto the page and which draws the layer's form (`fullpage`), whose font is Helvetica.
 */
export function writePdf(pages: OutPage[]): Uint8Array {
  const b = new PdfBuilder();
  const catalog = b.reserve();
  const pagesObj = b.reserve();
  const kids: number[] = [];
  const fonts = new Map<boolean, { obj: number; enc: Encoding }>();
  for (const p of pages) {
    let f = fonts.get(p.cyrillic);
    if (!f) {
      const enc = p.cyrillic ? cyrillic() : winAnsi();
      f = { obj: b.add(`<</BaseFont/Helvetica/Encoding ${enc.pdf}/Name/F1/Subtype/Type1/Type/Font>>`), enc };
      fonts.set(p.cyrillic, f);
    }
    const grid = p.grid ?? PT_PX;
    const gw = Math.round(p.width / grid) * grid;
    const gh = Math.round(p.height / grid) * grid;
    const img = b.stream(
      `/Filter/DCTDecode/Type/XObject/Subtype/Image/BitsPerComponent 8/Width ${p.imgWidth}/Height ${p.imgHeight}/ColorSpace/DeviceGray`,
      p.jpeg,
    );
    const draw = b.flate('', `\nq\n${num(p.width)} 0 0 ${num(p.height)} 0 0 cm\n/fzImg0 Do\nQ\n`);
    const fontRes = b.add(`<</F1 ${f.obj} 0 R>>`);
    const full = b.flate(
      `/Type/XObject/Subtype/Form/BBox[0 0 ${num(gw)} ${num(gh)}]/Matrix[1 0 0 1 0 0]/Resources<</Font ${fontRes} 0 R/ProcSet[/PDF/Text/ImageB/ImageC/ImageI]>>`,
      layerContent(p.lines, gh, f.enc, grid),
    );
    const frm = b.flate(
      `/Type/XObject/Subtype/Form/BBox[0 0 ${num(gw)} ${num(gh)}]/Matrix[${(p.width / gw).toFixed(5)} 0 0 ${(p.height / gh).toFixed(5)} 0 0]/Resources<</XObject<</fullpage ${full} 0 R>>>>`,
      '/fullpage Do',
    );
    const over = b.flate('', ' q /fzFrm0 Do Q ');
    const res = b.add(`<</XObject<</fzImg0 ${img} 0 R/fzFrm0 ${frm} 0 R>>>>`);
    kids.push(
      b.add(
        `<</Type/Page/MediaBox[0 0 ${num(p.width)} ${num(p.height)}]/Rotate 0/Resources ${res} 0 R/Parent ${pagesObj} 0 R/Contents[${draw} 0 R ${over} 0 R]>>`,
      ),
    );
  }
  b.set(catalog, `<</Type/Catalog/Pages ${pagesObj} 0 R>>`);
  b.set(pagesObj, `<</Type/Pages/Count ${kids.length}/Kids[${kids.map((k) => `${k} 0 R`).join(' ')}]>>`);
  return b.build(catalog);
}
