/** The analyzer's public result types: what the CLI prints, the extension shows and the tests assert. */

export type PageRoute = 'text' | 'ocr-layer' | 'ocr' | 'blank' | 'review' | 'unknown';

/** Machine-readable reasons attached to a route. */
export type RouteReason =
  | 'text-layer'
  | 'sparse-text'
  /** characters in the file, none of them seen (render mode 3, outside the page, transparent) and no scan under them */
  | 'invisible-text-only'
  | 'undecodable-text'
  | 'few-chars-over-image'
  | 'invisible-text-over-scan'
  | 'text-under-image'
  | 'image-only'
  | 'vector-only'
  | 'small-image-only'
  | 'little-paint'
  | 'nothing-painted'
  // can't tell
  | 'password-required'
  | 'unsupported-encryption'
  | 'damaged'
  | 'not-a-pdf'
  | 'empty-file'
  | 'budget-exceeded'
  | 'stream-too-large'
  | 'too-many-operators'
  | 'form-depth-exceeded'
  | 'page-tree-cycle'
  | 'too-many-pages'
  /** decoded data held passed maxHeldBytes */
  | 'memory-limit'
  /** a page the file declares (page tree /Count, or a kid) that could not be read */
  | 'page-unreadable';

/** Reasons that say the evidence of a page is incomplete because a limit was hit or data could not be read. */
export const LIMIT_REASONS: ReadonlySet<RouteReason> = new Set<RouteReason>([
  'budget-exceeded',
  'stream-too-large',
  'too-many-operators',
  'form-depth-exceeded',
  'memory-limit',
  'damaged',
  'page-unreadable',
]);

/** A rectangle in default user space of the page (unrotated), as [x0, y0, x1, y1] with x0 ≤ x1, y0 ≤ y1. */
export type Rect = [number, number, number, number];

export interface ImageBox {
  /** the axis-aligned bounds of the image's quad, clipped to the visible box */
  rect: Rect;
  /** the image's own area (of its quad, clipped) as a share of the visible page area */
  share: number;
  /** 'xobject' (Do), 'inline' (BI … EI), 'shading' (a smooth shading: `sh` or a shading-pattern fill, which MuPDF and renderers rasterise like an image) */
  kind: 'xobject' | 'inline' | 'shading';
  /** pixel size when known */
  width?: number;
  height?: number;
  /** the image's encoding filter, e.g. DCTDecode */
  filter?: string;
  /** painted by an annotation's appearance rather than the page content */
  fromAnnotation?: boolean;
}

export interface FontEvidence {
  /** resource name (e.g. F1) and /BaseFont */
  name: string;
  baseFont: string;
  subtype: string;
  /** how the font maps codes to Unicode: the decoding rung */
  decoding: 'tounicode' | 'encoding' | 'standard14' | 'predefined-cmap' | 'none';
  /** characters drawn with this font on the page (all render modes) */
  chars: number;
  /**
   * The font program is in the file: FontFile, FontFile2 or FontFile3 in its descriptor (a Type0 font: its descendant's),
   * or a Type3 font (its glyphs are content streams). Absent in reports made before this field existed.
   */
  embedded?: boolean;
  /**
   * The /ToUnicode entry: 'yes' (a map that maps codes, or Identity-H/V on a composite font), 'no' (none), 'broken'
   * (present but maps nothing or cannot be read, cut by a limit, or byte-swapped UTF-16).
   */
  toUnicode?: 'yes' | 'no' | 'broken';
  /** glyphs (codes) drawn with this font on the page, in all render modes, whitespace included */
  glyphs?: number;
  /**
   * Of `chars`: those drawn invisibly (render mode 3 or 7, a transparent fill, outside the crop box, or covered by a
   * later opaque image), counted as PageEvidence.invisibleChars counts them; summed over the fonts it gives that count
   * less the characters of FreeText annotations drawn without a font.
   */
  invisibleChars?: number;
  /** the glyphless font OCR engines draw their invisible text layer with (Tesseract's GlyphLessFont) */
  glyphless?: boolean;
}

/**
 * How a glyph run shows on the page: `visible` (painted), `invisible` (render mode 3 or 7, or a transparent fill: drawn
 * but never seen), `clipped` (placed outside the page's crop box), `hidden` (painted, then covered by an opaque image
 * painted later: one way OCR tools tuck their layer under the scan).
 */
export type GlyphVisibility = 'visible' | 'invisible' | 'clipped' | 'hidden';

/**
 * One run of glyphs of the text layer: a word, as the content stream draws it (the glyphs of one string operand up
 * to a space glyph or a gap of a fifth of the font size). Only reported when AnalyzerOptions.textLayer is on.
 */
export interface GlyphRun {
  /** the decoded Unicode text (U+FFFD where a glyph does not decode) */
  text: string;
  /** the bounds in default user space (unrotated), like ImageBox.rect: the advance of the glyphs, from 0.2 em below the baseline to 0.8 em above */
  rect: Rect;
  visibility: GlyphVisibility;
  /** the font's resource name (e.g. F1, f-0-0) */
  font: string;
  /** the font size in user space: Tf size times the vertical scale of the text and current matrices */
  size: number;
  /** horizontal scaling (Tz / 100) the run was drawn with; OCR renderers stretch each word to its box with it */
  hScale: number;
  /**
   * Present (true) when the run's baseline runs closer to up–down than to left–right in default user space: turned text
   * (a page scanned sideways and OCR'd as it lies, a vertical label). `rect` is then the box's bounds all the same.
   */
  turned?: true;
  /** non-whitespace characters, counted as visibleChars / invisibleChars count them */
  chars: number;
  /**
   * How likely the run is a word of the page's languages, 0..1 (½ at the cut the layer-quality score counts words as
   * word-like; 0 for a run with undecodable glyphs). Set on the scored layer's runs when AnalyzerOptions.layerQuality
   * is on; absent for runs without letters.
   */
  likelihood?: number;
}

/** The page's text layer: its glyph runs and its text in reading order. Only reported when AnalyzerOptions.textLayer is on. */
export interface TextLayer {
  /** the first maxTextRunsPerPage glyph runs, in content-stream order */
  runs: GlyphRun[];
  /** runs the page draws, kept or not */
  runCount: number;
  /**
   * The text in content-stream order, as a reader gets it (PyMuPDF get_text() style): a space where the glyph positions
   * leave a gap or a space glyph is drawn, a line break where the baseline moves; at most maxTextLayerChars characters.
   */
  text: string;
  /** set when a bound cut the layer: runs past maxTextRunsPerPage, text past maxTextLayerChars, the document's memory budget, or a ToUnicode map cut */
  cut?: 'runs' | 'text' | 'memory' | 'tounicode';
  /**
   * Where the scan has ink that reads as text but no run's box covers it (page space, the most ink first, at most
   * MAX_MISSING_REGIONS): the regions the layer-quality score counts as text missing from the layer (its
   * textInkMissed). Set with the score (AnalyzerOptions.layerQuality) when the scan could be read; absent when none.
   */
  missingText?: Rect[];
}

/**
 * How good a page's text layer is (AnalyzerOptions.layerQuality): computed for `ocr-layer` pages, for `text` pages,
 * and for `ocr` pages whose scan carries a few hidden characters (an OCR layer too small to route as one). `score` and
 * `reocr` are read by tools outside the project: keep their names and meanings.
 */
export interface LayerQuality {
  /** 0..1, 1 = a perfect layer; an estimate of 1 − character error rate, squashed */
  score: number;
  /** advice: run OCR again (the layer is estimated to be poor: more than a quarter of its characters wrong) */
  reocr: boolean;
  /** the evidence behind the score, each 0..1 or a count; names are documented in src/analyzer/layerQuality/index.ts */
  signals: Record<string, number | string | boolean>;
}

export interface PageBoxes {
  mediaBox: Rect;
  cropBox: Rect;
}

export interface PageEvidence {
  /** non-whitespace characters drawn visibly */
  visibleChars: number;
  /** non-whitespace characters drawn invisibly: render mode 3/7, outside the crop box, or covered by a later opaque image */
  invisibleChars: number;
  /** the part of invisibleChars that was hidden by an image painted over it */
  hiddenUnderImage: number;
  /** visible characters that do not decode to meaningful Unicode (no mapping, U+FFFD, private use, controls) */
  badChars: number;
  /** share of visible characters that decode: 1 − badChars / visibleChars (1 when no chars) */
  textQuality: number;
  fonts: FontEvidence[];
  /** area of the union of image boxes over the visible page area, 0..1 */
  imageCoverage: number;
  imageCount: number;
  /** the largest image boxes, at most maxImageBoxesPerPage; imageCount counts them all */
  imageBoxes: ImageBox[];
  /** path painting operators (fill, stroke, shading) */
  vectorOps: number;
  /** content operators interpreted */
  operators: number;
  boxes: PageBoxes;
  /** /Rotate normalised to 0, 90, 180, 270 */
  rotate: number;
  /** the text layer, when AnalyzerOptions.textLayer is on */
  textLayer?: TextLayer;
  /** the layer's quality, when AnalyzerOptions.layerQuality is on and the page has a layer to judge (LayerQuality) */
  layerQuality?: LayerQuality;
}

export interface PageReport {
  /** 1-based */
  page: number;
  route: PageRoute;
  reasons: RouteReason[];
  evidence: PageEvidence;
  /** human-readable notes (limits hit, damaged streams) */
  notes?: string[];
}

export interface EncryptionReport {
  encrypted: boolean;
  /** e.g. "RC4-40", "RC4-128", "AES-128", "AES-256" */
  method?: string;
  revision?: number;
  version?: number;
  needsPassword?: boolean;
  encryptMetadata?: boolean;
}

export interface ProducerHint {
  kind: 'ocr-producer' | 'scanner-producer' | 'info-xmp-mismatch';
  /** e.g. "text layer written by an OCR engine: ABBYY FineReader 14" */
  message: string;
  /** the field that triggered the hint, e.g. Producer, CreatorTool */
  field?: string;
  value?: string;
}

export interface DocumentMetadata {
  /** /Info entries decoded to text */
  info: Record<string, string>;
  /** XMP properties, keyed by their qualified name (e.g. "dc:title", "xmp:CreatorTool") */
  xmp: Record<string, string>;
  hints: ProducerHint[];
}

export interface DocumentReport {
  pageCount: number;
  pages: PageReport[];
  needsOcr: boolean;
  /** 1-based numbers of `ocr` pages */
  ocrPages: number[];
  /**
   * 1-based numbers of the pages whose text layer is advised re-OCR (evidence.layerQuality.reocr): present exactly
   * when AnalyzerOptions.layerQuality is on, so that a pipeline finds the layers to redo as it finds `ocrPages`
   */
  reocrPages?: number[];
  routeCounts: Record<PageRoute, number>;
  encryption: EncryptionReport;
  /** header version, e.g. "1.7"; /Version in the catalog wins when later */
  pdfVersion?: string;
  metadata: DocumentMetadata;
  /** set when the file as a whole could not be read; pages are then empty or `unknown` */
  error?: { reason: RouteReason; message: string };
  /** structural findings: "xref repaired", "2 objects missing" */
  notes: string[];
  /** the first limit of the document's budget that was hit (time or memory), and the stage that hit it */
  limit?: { reason: 'budget-exceeded' | 'memory-limit'; stage: string };
  /** wall time the analysis took, milliseconds */
  elapsedMs: number;
}
