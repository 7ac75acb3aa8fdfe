/**
 * The PDF object model shared by every analyzer module.
 *
 * Representation (chosen so the hot paths can test types cheaply):
 * - name      → JS `string` (without the slash, `#xx` escapes decoded)
 * - string    → `Uint8Array` (raw bytes, already decrypted)
 * - number    → `number`, boolean → `boolean`, null → `null`
 * - array     → `PdfValue[]`
 * - dictionary→ `PdfDict`
 * - reference → `Ref`
 * - stream    → `PdfStream` (dictionary + raw, still-encoded bytes)
 */
export type PdfValue = null | boolean | number | string | Uint8Array | PdfValue[] | PdfDict | Ref | PdfStream;

export class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
  toString(): string {
    return `${this.num} ${this.gen} R`;
  }
}

export class PdfDict {
  readonly map = new Map<string, PdfValue>();
  get(key: string): PdfValue | undefined {
    return this.map.get(key);
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  set(key: string, value: PdfValue): void {
    this.map.set(key, value);
  }
  keys(): IterableIterator<string> {
    return this.map.keys();
  }
  get size(): number {
    return this.map.size;
  }
}

export class PdfStream {
  /**
   * @param dict  the stream dictionary
   * @param raw   the bytes between `stream` and `endstream`, still encoded (and still encrypted:
   *              decryption happens when the stream is decoded, because it needs the object number)
   * @param ref   the object that holds the stream (needed for decryption); undefined inside object streams
   */
  constructor(
    readonly dict: PdfDict,
    readonly raw: Uint8Array,
    readonly ref: Ref | undefined,
  ) {}
}

export function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Result of decoding a stream through its filter chain. Never throws; failures are described. */
export interface DecodedStream {
  data: Uint8Array;
  /** decoding stopped at the byte cap (a decompression bomb or an absurdly large stream) */
  truncated: boolean;
  /** the data was corrupt part-way; `data` holds what decoded before the fault */
  error?: string;
  /** an image filter (DCTDecode, JPXDecode, JBIG2Decode, CCITTFaxDecode) or an unknown one stopped decoding */
  stoppedAt?: string;
  /** the document's time budget ran out while decoding; `data` is what decoded by then */
  outOfTime?: boolean;
}

/** How the analyzer modules reach objects of the document. Implemented by the xref/document layer. */
export interface Resolver {
  /** Follows references (bounded chain); missing objects resolve to `null`. Never throws. */
  resolve(v: PdfValue | undefined): PdfValue | undefined;
  /** Decrypts and decodes a stream through its /Filter chain, stopping at `maxBytes`. Never throws. */
  decodeStream(s: PdfStream, maxBytes?: number): DecodedStream;
}

// Typed getters that resolve references. They return undefined when the value is absent or of another type.
export function getDict(r: Resolver, d: PdfDict | undefined, key: string): PdfDict | undefined {
  const v = r.resolve(d?.get(key));
  if (v instanceof PdfDict) return v;
  if (v instanceof PdfStream) return v.dict;
  return undefined;
}
export function getArray(r: Resolver, d: PdfDict | undefined, key: string): PdfValue[] | undefined {
  const v = r.resolve(d?.get(key));
  return Array.isArray(v) ? v : undefined;
}
export function getNumber(r: Resolver, d: PdfDict | undefined, key: string): number | undefined {
  const v = r.resolve(d?.get(key));
  return isNumber(v) ? v : undefined;
}
export function getName(r: Resolver, d: PdfDict | undefined, key: string): string | undefined {
  const v = r.resolve(d?.get(key));
  return typeof v === 'string' ? v : undefined;
}
/** Resolves an array's elements to numbers; undefined if any is not a number. */
export function numberArray(r: Resolver, v: PdfValue | undefined): number[] | undefined {
  const a = r.resolve(v);
  if (!Array.isArray(a)) return undefined;
  const out: number[] = [];
  for (const e of a) {
    const n = r.resolve(e);
    if (!isNumber(n)) return undefined;
    out.push(n);
  }
  return out;
}
