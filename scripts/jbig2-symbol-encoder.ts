/**
 * A test-only JBIG2 (ITU-T T.88) encoder for symbol dictionary segments (7.4.2, 6.5) and text region segments (7.4.3,
 * 6.4), arithmetic-coded, written from the recommendation to round-trip src/analyzer/layerQuality/jbig2Symbols.ts. It
 * writes segment data fields only (no segment headers; a text region's data from its flags on, without the region
 * segment information field), on the region and integer encoders of scripts/jbig2-encoder.ts.
 *
 * Deliberately plain and described by geometry rather than by the decoder's steps: a text region's instances are
 * given as the top-left pixel where each lands in the region, and walkTextInstances derives the coded values from the
 * picture the recommendation describes (an instance's S coordinate runs from its first to its last column, or row
 * when transposed; the gap to the next instance's first is what IADS codes, less SBDSOFFSET; T is the reference
 * corner's row, or column when transposed). The decoder follows 6.4.5's step sequence instead, so the two check each
 * other. The walk hands the values to a sink, which here writes IAx codes; scripts/jbig2-huffman-encoder.ts writes the
 * same values by its tables.
 */
import type { Bitmap } from '../src/analyzer/layerQuality/jbig2Regions';
import { encodeGeneric, encodeId, encodeInt, encodeRefinement, GENERIC_DEFAULT_AT, MqEncoder, REFINEMENT_DEFAULT_AT } from './jbig2-encoder';
import { runsOf } from './fax-encoder';

/** adaptive template pixels */
export type At = { x: number; y: number }[];

/** a 32-bit field, big-endian */
export const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
/** AT pixels as a segment states them: x, y a byte each */
export const atBytes = (at: At) => at.flatMap((a) => [a.x & 255, a.y & 255]);

/** ceil(log2(n)), 0 for n ≤ 1 */
export function symCodeLength(n: number): number {
  let len = 0;
  while (2 ** len < n) len++;
  return len;
}

/** one symbol instance: symbol `id` with its top-left pixel at (x, y) in the region; refined, the refined bitmap is what lands there */
export interface TextInstance {
  id: number;
  x: number;
  y: number;
  /** refine symbol `id` into `bitmap`, with the refinement offsets RDX, RDY (RDW, RDH follow from the sizes) */
  refine?: { bitmap: Bitmap; rdx: number; rdy: number };
}

/** a strip: its STRIPT (a multiple of SBSTRIPS) and its instances in coding order; each instance's T must be in [STRIPT, STRIPT + SBSTRIPS) */
export interface TextStrip {
  t: number;
  instances: TextInstance[];
}

export interface TextRegionSpec {
  symbols: Bitmap[];
  strips: TextStrip[];
  /** SBSTRIPS: 1, 2, 4 or 8 */
  stripSize?: number;
  /** REFCORNER: 0 bottom left, 1 top left, 2 bottom right, 3 top right */
  refCorner?: number;
  transposed?: boolean;
  /** SBCOMBOP: 0 OR, 1 AND, 2 XOR, 3 XNOR */
  combOp?: number;
  defPixel?: number;
  /** SBDSOFFSET, −16..15 */
  dsOffset?: number;
  refine?: boolean;
  rTemplate?: 0 | 1;
  rAt?: At;
  /** SBNUMINSTANCES as written, when a test wants it wrong */
  numInstances?: number;
}

/** the contexts of the text region procedure's IAx, IAID and refinement coding, kept for a whole segment */
interface TextContexts {
  iadt: Uint8Array;
  iafs: Uint8Array;
  iads: Uint8Array;
  iait: Uint8Array;
  iari: Uint8Array;
  iardw: Uint8Array;
  iardh: Uint8Array;
  iardx: Uint8Array;
  iardy: Uint8Array;
  iaid: Uint8Array;
  codeLength: number;
  gr: Uint8Array;
}

function textContexts(codeLength: number): TextContexts {
  const ia = () => new Uint8Array(512);
  return {
    iadt: ia(),
    iafs: ia(),
    iads: ia(),
    iait: ia(),
    iari: ia(),
    iardw: ia(),
    iardh: ia(),
    iardx: ia(),
    iardy: ia(),
    iaid: new Uint8Array(2 ** (codeLength + 1)),
    codeLength,
    gr: new Uint8Array(8192),
  };
}

/** the bitmap an instance puts down */
export const placed = (inst: TextInstance, symbols: Bitmap[]): Bitmap => inst.refine?.bitmap ?? symbols[inst.id];

/** a refined instance's coded values (6.4.11) */
export interface InstanceRefinement {
  /** RDW, RDH: the refined bitmap's size less the symbol's */
  rdw: number;
  rdh: number;
  rdx: number;
  rdy: number;
  /** the refined bitmap, the symbol it refines, and where that reference sits: (⌊RDW/2⌋ + RDX, ⌊RDH/2⌋ + RDY) */
  bitmap: Bitmap;
  reference: Bitmap;
  dx: number;
  dy: number;
}

/**
 * Where walkTextInstances hands a text region's coded values, in coding order; each encoder writes them its way (IAx
 * codes here, table codes in scripts/jbig2-huffman-encoder.ts).
 */
export interface TextValueSink {
  /** DT in strip heights: first the initial STRIPT negated, then each strip's step from the one before */
  dt(v: number): void;
  /** FS: a strip's first instance's S less the previous strip's first */
  fs(v: number): void;
  /** DS: the gap from the previous instance's last column (row) to this one's first, less SBDSOFFSET; null (OOB) ends the strip */
  ds(v: number | null): void;
  /** CURT: the instance's T less STRIPT; only with SBSTRIPS > 1 */
  it(v: number): void;
  /** the instance's symbol ID */
  id(v: number): void;
  /** R_I: 1 for a refined instance; only with refinement on */
  ri(v: 0 | 1): void;
  /** a refined instance's values, after its R_I */
  refinement(r: InstanceRefinement): void;
}

/**
 * A text region's instances as the values that code them (6.4.5 read backwards), derived from the geometry: S runs
 * from an instance's first column (row when transposed) to its last, the next instance's gap from there is IDS +
 * SBDSOFFSET, T is the reference corner's row (column). `initialT` is STRIPT before the first strip's delta: −(the
 * first DT) × SBSTRIPS.
 */
export function walkTextInstances(spec: TextRegionSpec, initialT: number, sink: TextValueSink): void {
  const stripSize = spec.stripSize ?? 1;
  const corner = spec.refCorner ?? 1;
  const right = corner === 2 || corner === 3;
  const bottom = corner === 0 || corner === 2;
  const transposed = spec.transposed ?? false;
  const dsOffset = spec.dsOffset ?? 0;
  sink.dt(-initialT / stripSize);
  let stripT = initialT;
  let firstS = 0;
  for (const strip of spec.strips) {
    sink.dt((strip.t - stripT) / stripSize);
    stripT = strip.t;
    let lastEnd = 0;
    strip.instances.forEach((inst, k) => {
      const b = placed(inst, spec.symbols);
      // along S: from the first column (row) to the last; T: the reference corner's row (column)
      const sStart = transposed ? inst.y : inst.x;
      const sEnd = transposed ? inst.y + b.height - 1 : inst.x + b.width - 1;
      const t = transposed ? (right ? inst.x + b.width - 1 : inst.x) : bottom ? inst.y + b.height - 1 : inst.y;
      // 6.4.7, 6.4.8: the strip's first S from the previous strip's first; then gaps from the last column (row)
      if (k === 0) {
        sink.fs(sStart - firstS);
        firstS = sStart;
      } else sink.ds(sStart - lastEnd - dsOffset);
      lastEnd = sEnd;
      if (t - stripT < 0 || t - stripT >= stripSize) throw new Error(`instance T ${t} outside strip ${stripT}`);
      if (stripSize > 1) sink.it(t - stripT);
      sink.id(inst.id);
      if (spec.refine) {
        sink.ri(inst.refine ? 1 : 0);
        if (inst.refine) {
          const reference = spec.symbols[inst.id];
          const rdw = b.width - reference.width;
          const rdh = b.height - reference.height;
          const { rdx, rdy } = inst.refine;
          // 6.4.11: the reference sits at (RDW/2 + RDX, RDH/2 + RDY), halves rounded down
          sink.refinement({ rdw, rdh, rdx, rdy, bitmap: b, reference, dx: Math.floor(rdw / 2) + rdx, dy: Math.floor(rdh / 2) + rdy });
        }
      }
    });
    sink.ds(null);
  }
}

/** Codes the instances by the IAx, IAID and refinement contexts `c`. `initialT` as walkTextInstances takes it. */
function encodeInstances(mq: MqEncoder, c: TextContexts, spec: TextRegionSpec, initialT: number): void {
  const rTemplate = spec.rTemplate ?? 0;
  const rAt = spec.rAt ?? REFINEMENT_DEFAULT_AT;
  walkTextInstances(spec, initialT, {
    dt: (v) => encodeInt(mq, c.iadt, v),
    fs: (v) => encodeInt(mq, c.iafs, v),
    ds: (v) => encodeInt(mq, c.iads, v),
    it: (v) => encodeInt(mq, c.iait, v),
    id: (v) => encodeId(mq, c.iaid, c.codeLength, v),
    ri: (v) => encodeInt(mq, c.iari, v),
    refinement: (r) => {
      encodeInt(mq, c.iardw, r.rdw);
      encodeInt(mq, c.iardh, r.rdh);
      encodeInt(mq, c.iardx, r.rdx);
      encodeInt(mq, c.iardy, r.rdy);
      encodeRefinement(mq, c.gr, r.bitmap, { template: rTemplate, reference: r.reference, dx: r.dx, dy: r.dy, tpgron: false, at: rAt });
    },
  });
}

/**
 * A text region segment's data fields before the symbol ID table or the coded instances (7.4.3.1): the flags, the
 * Huffman flags when `huffmanFlags` is given (then SBHUFF is set), SBRAT with refinement template 0, SBNUMINSTANCES.
 */
export function textRegionHeader(spec: TextRegionSpec, huffmanFlags?: number): number[] {
  const rTemplate = spec.rTemplate ?? 0;
  const refine = spec.refine ?? false;
  const flags =
    (huffmanFlags !== undefined ? 1 : 0) |
    (refine ? 2 : 0) |
    (Math.log2(spec.stripSize ?? 1) << 2) |
    ((spec.refCorner ?? 1) << 4) |
    (spec.transposed ? 0x40 : 0) |
    ((spec.combOp ?? 0) << 7) |
    ((spec.defPixel ?? 0) << 9) |
    (((spec.dsOffset ?? 0) & 31) << 10) |
    (rTemplate << 15);
  const count = spec.numInstances ?? spec.strips.reduce((n, s) => n + s.instances.length, 0);
  return [
    flags >> 8,
    flags & 255,
    ...(huffmanFlags !== undefined ? [huffmanFlags >> 8, huffmanFlags & 255] : []),
    ...(refine && rTemplate === 0 ? atBytes(spec.rAt ?? REFINEMENT_DEFAULT_AT) : []),
    ...be32(count),
  ];
}

/** A text region segment's data from the text region segment flags on (7.4.3.1), then the coded instances. */
export function encodeTextRegion(spec: TextRegionSpec): Uint8Array {
  const mq = new MqEncoder();
  // an initial STRIPT other than 0, so the negation of 6.4.5 step 2 matters
  encodeInstances(mq, textContexts(symCodeLength(spec.symbols.length)), spec, -2 * (spec.stripSize ?? 1));
  return Uint8Array.from([...textRegionHeader(spec), ...mq.flush()]);
}

/** a new symbol: coded directly (generic region), refined from one known symbol, or aggregated from several */
export type SymbolSpec =
  | { bitmap: Bitmap }
  | { bitmap: Bitmap; refine: { id: number; rdx: number; rdy: number } }
  /** strips of instances (SBSTRIPS 1, top-left corners) of known symbols, possibly refined, making a symbol `width` wide */
  | { width: number; aggregate: TextStrip[] };

/** a symbol dictionary, however coded: its symbols, export flags, refinement/aggregation, and fields a test may set wrong */
export interface DictionaryBase {
  input: Bitmap[];
  /** height classes in coding order; the symbols of a class have its height */
  classes: { height: number; symbols: SymbolSpec[] }[];
  /** one flag a symbol, input then new */
  exported: boolean[];
  refAgg?: boolean;
  rTemplate?: 0 | 1;
  rAt?: At;
  /** SDNUMEXSYMS and SDNUMNEWSYMS as written, when a test wants them wrong */
  numEx?: number;
  numNew?: number;
  /** the flags word's bits to set besides the ones the spec implies (e.g. SDHUFF on an arithmetic-coded one, the context flags) */
  extraFlags?: number;
}

export interface DictionarySpec extends DictionaryBase {
  template?: 0 | 1 | 2 | 3;
  at?: At;
}

/** An aggregate's bitmap as the encoders see it: its instances ORed at their top-left pixels into a blank `width` × `height` symbol. */
export function aggregateBitmap(width: number, height: number, strips: TextStrip[], symbols: Bitmap[]): Bitmap {
  const out: Bitmap = { width, height, data: new Uint8Array(width * height) };
  for (const inst of strips.flatMap((s) => s.instances)) {
    const b = placed(inst, symbols);
    for (let y = 0; y < b.height; y++)
      for (let x = 0; x < b.width; x++) {
        const X = inst.x + x;
        const Y = inst.y + y;
        if (X >= 0 && Y >= 0 && X < width && Y < height) out.data[Y * width + X] |= b.data[y * b.width + x];
      }
  }
  return out;
}

/** 6.5.10: the export flags as runs of equal flags, the first run (possibly empty) of symbols not exported */
export const exportRuns = (exported: boolean[]): number[] => runsOf(exported);

/** A symbol dictionary segment's whole data field (7.4.2.1), then the coded dictionary (6.5); also the new symbols as coded. */
export function encodeSymbolDictionary(spec: DictionarySpec): { data: Uint8Array; newSymbols: Bitmap[] } {
  const template = spec.template ?? 0;
  const at = spec.at ?? GENERIC_DEFAULT_AT[template];
  const refAgg = spec.refAgg ?? false;
  const rTemplate = spec.rTemplate ?? 0;
  const rAt = spec.rAt ?? REFINEMENT_DEFAULT_AT;
  const numNew = spec.classes.reduce((n, c) => n + c.symbols.length, 0);
  const numEx = spec.exported.filter(Boolean).length;
  const flags = (refAgg ? 2 : 0) | (template << 10) | (rTemplate << 12) | (spec.extraFlags ?? 0);
  const header = [
    flags >> 8,
    flags & 255,
    ...atBytes(at),
    ...(refAgg && rTemplate === 0 ? atBytes(rAt) : []),
    ...be32(spec.numEx ?? numEx),
    ...be32(spec.numNew ?? numNew),
  ];

  const mq = new MqEncoder();
  const iadh = new Uint8Array(512);
  const iadw = new Uint8Array(512);
  const iaex = new Uint8Array(512);
  const iaai = new Uint8Array(512);
  const gb = new Uint8Array(65536);
  const text = textContexts(symCodeLength(spec.input.length + numNew));
  const symbols = spec.input.slice();
  const newSymbols: Bitmap[] = [];
  let height = 0;
  for (const cls of spec.classes) {
    encodeInt(mq, iadh, cls.height - height);
    height = cls.height;
    let width = 0;
    for (const sym of cls.symbols) {
      const w = 'bitmap' in sym ? sym.bitmap.width : sym.width;
      if ('bitmap' in sym && sym.bitmap.height !== cls.height) throw new Error('a symbol of another height than its class');
      encodeInt(mq, iadw, w - width);
      width = w;
      let bitmap: Bitmap;
      if (!refAgg) {
        if (!('bitmap' in sym) || 'refine' in sym) throw new Error('refined and aggregate symbols need REFAGG');
        encodeGeneric(mq, gb, sym.bitmap, { template, tpgdon: false, at });
        bitmap = sym.bitmap;
      } else if ('refine' in sym) {
        // 6.5.8.2.2: one instance, refined from the known symbol at RDX, RDY
        encodeInt(mq, iaai, 1);
        encodeId(mq, text.iaid, text.codeLength, sym.refine.id);
        encodeInt(mq, text.iardx, sym.refine.rdx);
        encodeInt(mq, text.iardy, sym.refine.rdy);
        const reference = symbols[sym.refine.id];
        encodeRefinement(mq, text.gr, sym.bitmap, { template: rTemplate, reference, dx: sym.refine.rdx, dy: sym.refine.rdy, tpgron: false, at: rAt });
        bitmap = sym.bitmap;
      } else if ('aggregate' in sym) {
        // 6.5.8.2.1: a text region of the symbol's size, SBSTRIPS 1, STRIPT from 0, top-left corners, refinement on
        encodeInt(
          mq,
          iaai,
          sym.aggregate.reduce((n, s) => n + s.instances.length, 0),
        );
        const region: TextRegionSpec = { symbols, strips: sym.aggregate, refine: true, rTemplate, rAt };
        encodeInstances(mq, text, region, 0);
        bitmap = aggregateBitmap(sym.width, cls.height, sym.aggregate, symbols);
      } else throw new Error('with REFAGG every symbol is refined or aggregated');
      symbols.push(bitmap);
      newSymbols.push(bitmap);
    }
    encodeInt(mq, iadw, null);
  }
  for (const run of exportRuns(spec.exported)) encodeInt(mq, iaex, run);
  return { data: Uint8Array.from([...header, ...mq.flush()]), newSymbols };
}
