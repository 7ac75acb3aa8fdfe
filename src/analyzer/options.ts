/**
 * The one source of truth for every threshold and limit the analyzer uses.
 * The extension's settings and the CLI's flags map onto this object; nothing else holds a default.
 *
 * A limit is a bound on work or memory that hostile input pushes against: every such bound is a field here, read by
 * the stage it bounds from the resolved options (XRef.limits, Budget.limits, the Parser's and Lexer's limits). The
 * constants left in the modules are tuning (how often the clock is read, cost estimates, window sizes) or platform
 * facts, each with a comment saying so. README.md's "Limits" table documents every field
 * (test/options-doc.test.ts keeps the two in step).
 */
export interface AnalyzerOptions {
  /** a page with at least this many visible characters is a text page (unless the text is undecodable) */
  minTextChars: number;
  /** share of undecodable characters at or above which a text page goes to OCR */
  undecodableShare: number;
  /** upper end of the borderline band: up to this many visible chars over a large image → `review` */
  borderlineMaxChars: number;
  /** image coverage above which few characters over an image make a page borderline */
  borderlineCoverage: number;
  /** invisible chars needed to call a page an OCR layer */
  minOcrLayerChars: number;
  /** image coverage at or above which invisible text counts as an OCR layer over a scan */
  ocrLayerCoverage: number;
  /** image coverage at or above which a page without text is a scan */
  scanCoverage: number;
  /** vector painting operations at or above which a page without text or images needs review */
  minVectorOps: number;

  // Limits (hostile input). Hitting one is reported as a reason, never thrown.
  /** decoded bytes per stream */
  maxStreamBytes: number;
  /** decoded content bytes per page (all content streams, forms and appearances together) */
  maxPageBytes: number;
  /** content operators interpreted per page */
  maxOpsPerPage: number;
  /** nesting depth of Form XObjects (and annotation appearances) */
  maxFormDepth: number;
  /** length of a reference chain (1 0 R → 2 0 R → …) */
  maxRefChain: number;
  /** depth of the page tree */
  maxPageTreeDepth: number;
  /** pages analysed at most */
  maxPages: number;
  /** time budget per file in milliseconds (checked cooperatively) */
  timeBudgetMs: number;
  /** decoded bytes held in memory at once per file: streams, object-stream cache, CMaps, font programs */
  maxHeldBytes: number;
  /** decoded object streams kept for reuse (an LRU within maxHeldBytes; evicted ones are decoded again on need) */
  objectStreamCacheBytes: number;
  /** parsed fonts and their ToUnicode/CMap tables kept for reuse (an LRU within maxHeldBytes) */
  fontCacheBytes: number;
  /** decoded bytes of the XMP metadata packet read at most */
  maxMetadataBytes: number;
  /** image boxes kept per page in the report (the largest; coverage is still computed from all of them) */
  maxImageBoxesPerPage: number;
  /** report each page's text layer (glyph runs and reading-order text) in its evidence; off by default */
  textLayer?: boolean;
  /**
   * score the text layer of `ocr-layer` and `text` pages, and of `ocr` pages whose scan carries a few hidden characters
   * (an OCR layer too small to route as one); layerQuality in the evidence; off by default
   */
  layerQuality?: boolean;
  /** glyph runs kept per page when the text layer is read (the text is still read past it, up to maxTextLayerChars) */
  maxTextRunsPerPage: number;
  /** characters of reading-order text kept per page when the text layer is read */
  maxTextLayerChars: number;
  /** pixels of one scan image decoded at most to check a layer against its ink (larger images are not decoded) */
  maxScanPixels: number;

  // Limits of the file syntax (lexer, object parser, cross-reference table)
  /** bytes of one string token kept (a longer string is cut) */
  maxTokenBytes: number;
  /** characters of one name token kept (a longer name is cut; names up to 1024 bytes are always kept whole) */
  maxNameBytes: number;
  /** nesting depth of arrays and dictionaries in one object (deeper ones are skipped) */
  maxObjectNesting: number;
  /** elements of one array or entries of one dictionary kept (the rest are skipped) */
  maxObjectElements: number;
  /** xref sections followed through /Prev (incremental updates) */
  maxXrefSections: number;
  /** object numbers at or above this are ignored (an xref entry or header claiming one is junk) */
  maxObjectNumber: number;
  /** filters of one stream's /Filter chain applied (each stage may cost up to maxStreamBytes) */
  maxFiltersPerStream: number;

  // Limits of fonts and CMaps
  /** decoded bytes of one CMap or ToUnicode stream read at most */
  maxCMapBytes: number;
  /** codes one CMap may assign in total (bfchar, bfrange; a range counts each code) */
  maxCMapCodes: number;
  /** cidchar/cidrange entries kept per CMap */
  maxCidRanges: number;
  /** codespace ranges kept per CMap */
  maxCodespaceRanges: number;
  /** long bfranges above U+FFFF kept as ranges per CMap (each is looked up by a scan) */
  maxLazyRanges: number;
  /** bytes of one string token in a CMap kept (codes take 1–4, targets a few UTF-16 units) */
  maxCMapStringBytes: number;
  /** usecmap links followed from an embedded CMap */
  maxCMapChain: number;
  /** decoded bytes of an embedded Type1 program read for its cleartext encoding */
  maxType1Bytes: number;
  /** decoded bytes of an embedded CFF program read for its encoding and charset */
  maxFontProgramBytes: number;
  /** segments kept from one /W or /W2 array */
  maxWidthSegments: number;
  /** widths kept from the array forms of one /W or /W2 array */
  maxWidthValues: number;
  /** 256-code pages of 2-byte codes cached per composite font (codes past them are looked up each time) */
  maxCodePagesPerFont: number;
  /** 3- and 4-byte codes whose class is cached per composite font */
  maxLongCodesCached: number;

  // Limits of the metadata (Info dictionary and XMP packet)
  /** characters kept per metadata value (Info entry or XMP property) */
  maxMetadataValueChars: number;
  /** characters of an Info key or XMP property name kept (longer Info keys are skipped) */
  maxMetadataKeyChars: number;
  /** Info dictionary entries read */
  maxInfoEntries: number;
  /** XMP properties kept */
  maxXmpProperties: number;
  /** items collected per XMP array (rdf:Seq, rdf:Bag, rdf:Alt) */
  maxXmpItems: number;
  /** XMP element nesting tracked (deeper elements are only counted, so their end tags still balance) */
  maxXmpDepth: number;

  // Limits of the content interpreter (per page)
  /** operands kept on the stack before one operator (no operator takes more than six; the rest are dropped) */
  maxOperands: number;
  /** q nesting kept (a deeper q is ignored and its Q restores the outer state) */
  maxSaveDepth: number;
  /** visible text runs tracked for the hidden-under-an-image check (later runs are counted but cannot be hidden) */
  maxTrackedTextRuns: number;
  /** image and shading boxes tracked while interpreting (coverage is their union; later ones are not placed) */
  maxTrackedImages: number;
  /** text-run-against-paint checks (runs hidden by images, clip text revealed by paint) before those checks stop */
  maxOverlapChecks: number;
  /** clip-mode text runs kept per text object (later ones merge into the last) */
  maxClipRunsPerTextObject: number;
  /** annotations read per page */
  maxAnnotationsPerPage: number;
  /** entries read from one inline image's dictionary (BI … ID) */
  maxInlineImageKeys: number;
  /** bytes of a FreeText annotation's /Contents counted when it has no appearance stream */
  maxFreeTextBytes: number;
  /** image XObjects kept per page as witnesses for the layer-quality check */
  maxScanImagesPerPage: number;
  /** codes whose text the text layer keeps per font (ToUnicode entries, and codes found through its ranges) */
  maxTextCodesPerFont: number;
  /** long ToUnicode ranges the text layer keeps per font (each is looked up by a scan) */
  maxTextRangesPerFont: number;
  /** password to try after the empty one (UTF-8) */
  password?: string;
}

export const DEFAULT_OPTIONS: Readonly<AnalyzerOptions> = Object.freeze({
  minTextChars: 40,
  undecodableShare: 0.5,
  borderlineMaxChars: 250,
  borderlineCoverage: 0.5,
  minOcrLayerChars: 40,
  ocrLayerCoverage: 0.8,
  scanCoverage: 0.3,
  minVectorOps: 10,
  maxStreamBytes: 64 * 1024 * 1024,
  maxPageBytes: 128 * 1024 * 1024,
  maxOpsPerPage: 2_000_000,
  maxFormDepth: 12,
  maxRefChain: 32,
  maxPageTreeDepth: 64,
  maxPages: 100_000,
  timeBudgetMs: 20_000,
  maxHeldBytes: 512 * 1024 * 1024,
  objectStreamCacheBytes: 64 * 1024 * 1024,
  fontCacheBytes: 128 * 1024 * 1024,
  maxImageBoxesPerPage: 500,
  maxMetadataBytes: 1024 * 1024,
  maxTextRunsPerPage: 20_000,
  maxTextLayerChars: 200_000,
  maxScanPixels: 40_000_000,
  maxTokenBytes: 16 * 1024 * 1024,
  maxNameBytes: 4096,
  maxObjectNesting: 64,
  maxObjectElements: 1_000_000,
  maxXrefSections: 512,
  maxObjectNumber: 10_000_000,
  maxFiltersPerStream: 16,
  maxCMapBytes: 8 * 1024 * 1024,
  maxCMapCodes: 1 << 18,
  maxCidRanges: 1 << 16,
  maxCodespaceRanges: 64,
  maxLazyRanges: 1024,
  maxCMapStringBytes: 512,
  maxCMapChain: 4,
  maxType1Bytes: 512 * 1024,
  maxFontProgramBytes: 4 * 1024 * 1024,
  maxWidthSegments: 1 << 16,
  maxWidthValues: 1 << 20,
  maxCodePagesPerFont: 96,
  maxLongCodesCached: 4096,
  maxMetadataValueChars: 4096,
  maxMetadataKeyChars: 128,
  maxInfoEntries: 256,
  maxXmpProperties: 512,
  maxXmpItems: 256,
  maxXmpDepth: 64,
  maxOperands: 1024,
  maxSaveDepth: 256,
  maxTrackedTextRuns: 200_000,
  maxTrackedImages: 10_000,
  maxOverlapChecks: 20_000_000,
  maxClipRunsPerTextObject: 1024,
  maxAnnotationsPerPage: 10_000,
  maxInlineImageKeys: 1000,
  maxFreeTextBytes: 65536,
  maxScanImagesPerPage: 16,
  maxTextCodesPerFont: 65536,
  maxTextRangesPerFont: 512,
});

/** The resolved options as the stages read their bounds from them (never changed once resolved). */
export type Limits = Readonly<AnalyzerOptions>;

/**
 * The resolved options without a password, by flags (1: textLayer, 2: layerQuality), to copy from. Copying a plain
 * object takes V8's fast path (the whole object at once); spreading the frozen DEFAULT_OPTIONS took its slow path
 * (about a microsecond per analysis, 1 % of a small file's), and adding a flag to a copy of 70 fields after it was
 * slower still. Each has the fields in the order resolveOptions always gave them: the defaults, then the flags.
 */
const TEMPLATES: readonly AnalyzerOptions[] = [0, 1, 2, 3].map((flags) => {
  const t: AnalyzerOptions = { ...DEFAULT_OPTIONS };
  if (flags & 1) t.textLayer = true;
  if (flags & 2) t.layerQuality = true;
  return t;
});
const OPTION_KEYS = Object.keys(DEFAULT_OPTIONS) as (keyof AnalyzerOptions)[];

/** Whether the analysis builds the text layer: asked for itself, or for the layer-quality score, which reads it. */
export function buildsTextLayer(o: Readonly<AnalyzerOptions>): boolean {
  return o.textLayer === true || o.layerQuality === true;
}

/** Merges user options over the defaults, ignoring keys whose values are not finite numbers where numbers are expected. */
export function resolveOptions(partial?: Partial<AnalyzerOptions>): AnalyzerOptions {
  if (!partial) return { ...TEMPLATES[0] };
  const flags = (partial.textLayer === true ? 1 : 0) | (partial.layerQuality === true ? 2 : 0);
  const password = partial.password;
  // with a password the fields go on one by one, as before: the password comes before the flags
  const out: AnalyzerOptions = typeof password === 'string' ? { ...DEFAULT_OPTIONS } : { ...TEMPLATES[flags] };
  for (const key of keysToRead(partial)) {
    const v = partial[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) (out as unknown as Record<string, unknown>)[key] = v;
  }
  if (typeof password === 'string') {
    out.password = password;
    if (flags & 1) out.textLayer = true;
    if (flags & 2) out.layerQuality = true;
  }
  return out;
}

/**
 * The option keys `partial` may hold. A plain object (the usual `{ layerQuality: true }`) holds only its own
 * properties, so those are read, not all 70 option names, which missed one by one (a microsecond per analysis); any
 * other object may inherit values, so every option name is read from it.
 */
function keysToRead(partial: Partial<AnalyzerOptions>): (keyof AnalyzerOptions)[] {
  const proto: unknown = Object.getPrototypeOf(partial);
  if (proto !== Object.prototype && proto !== null) return OPTION_KEYS;
  const keys: (keyof AnalyzerOptions)[] = [];
  for (const k of Object.getOwnPropertyNames(partial)) if (Object.hasOwn(DEFAULT_OPTIONS, k)) keys.push(k as keyof AnalyzerOptions);
  return keys;
}
