/**
 * Document metadata: the trailer /Info dictionary, the catalog's XMP packet, and hints drawn from them about how
 * the file was made (an OCR engine or scanner wrote it; Info and XMP disagree, i.e. a later tool touched one only).
 *
 * Every value here is attacker-controlled, so every loop and every string is bounded, and nothing throws out.
 */
import { type AnalyzerOptions, DEFAULT_OPTIONS } from './options';
import { PdfDict } from './objects';
import { decodePdfText, decodeUtf16, decodeUtf8 } from './text';
import type { DocumentMetadata, ProducerHint } from './types';

/**
 * The bounds of reading metadata (AnalyzerOptions): the XMP packet's bytes (maxMetadataBytes, real packets are a few
 * KB, padding included), characters per value and per key, Info entries, XMP properties, items per XMP array, and the
 * XMP element nesting tracked (deeper elements are only counted, so that their end tags still balance).
 */
export type MetadataLimits = Pick<
  AnalyzerOptions,
  'maxMetadataBytes' | 'maxMetadataValueChars' | 'maxMetadataKeyChars' | 'maxInfoEntries' | 'maxXmpProperties' | 'maxXmpItems' | 'maxXmpDepth'
>;

/** raw characters gathered for one value before entity decoding, per character kept: entities shrink, so allow slack */
const RAW_PER_VALUE_CHAR = 4;
/** characters of a value quoted inside a hint message: a presentation choice (the value itself is already capped) */
const MAX_QUOTED = 200;

// ---------------------------------------------------------------------------------------------------------------
// helpers

/** Cuts `s` to `max` characters (never splitting a surrogate pair), marking the cut with an ellipsis. */
function capText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end) + '\u2026';
}

/** Sets an own property even for the key "__proto__", which plain assignment would turn into a prototype change. */
function put(rec: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__') {
    Object.defineProperty(rec, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    rec[key] = value;
  }
}

function own(rec: Record<string, string>, key: string): string | undefined {
  if (!Object.hasOwn(rec, key)) return undefined;
  const v = rec[key];
  return typeof v === 'string' ? v : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Info

/** Decodes a string value of the Info dict, reading no more bytes than the capped text can need. */
function infoString(bytes: Uint8Array, maxChars: number): string {
  const unicode =
    bytes.length >= 2 &&
    ((bytes[0] === 0xfe && bytes[1] === 0xff) ||
      (bytes[0] === 0xff && bytes[1] === 0xfe) ||
      (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf));
  // 4 bytes cover any character in every encoding; +4 for the BOM and one character of slack for the ellipsis.
  let end = Math.min(bytes.length, maxChars * 4 + 8);
  if (!unicode) {
    // C-style producers leave a terminating NUL, which is undefined in PDFDocEncoding and means nothing.
    while (end > 0 && bytes[end - 1] === 0) end--;
  }
  let s = decodePdfText(end === bytes.length ? bytes : bytes.subarray(0, end));
  if (unicode) {
    let e = s.length;
    while (e > 0 && s.charCodeAt(e - 1) === 0) e--;
    if (e !== s.length) s = s.slice(0, e);
  }
  return capText(s, maxChars);
}

function readInfo(info: PdfDict | undefined, limits: MetadataLimits): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(info instanceof PdfDict)) return out;
  const { maxInfoEntries, maxMetadataKeyChars, maxMetadataValueChars } = limits;
  let seen = 0;
  for (const [key, v] of info.map) {
    if (++seen > maxInfoEntries) break;
    if (typeof key !== 'string' || key.length === 0 || key.length > maxMetadataKeyChars) continue;
    let text: string | undefined;
    if (v instanceof Uint8Array) text = infoString(v, maxMetadataValueChars);
    else if (typeof v === 'string') text = capText(v, maxMetadataValueChars);
    else if (typeof v === 'number') text = Number.isFinite(v) ? String(v) : undefined;
    else if (typeof v === 'boolean') text = v ? 'true' : 'false';
    // null, arrays, dicts, streams and unresolved refs carry no text worth showing.
    if (text !== undefined) put(out, key, text);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// XMP

/** Namespace URI → the customary prefix, so that `xap:CreatorTool` and `xmp:CreatorTool` land on one key. */
const KNOWN_NS: Record<string, string> = {
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://www.w3.org/XML/1998/namespace': 'xml',
  'adobe:ns:meta/': 'x',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://ns.adobe.com/xap/1.0/': 'xmp',
  'http://ns.adobe.com/xap/1.0/mm/': 'xmpMM',
  'http://ns.adobe.com/xap/1.0/rights/': 'xmpRights',
  'http://ns.adobe.com/xap/1.0/t/pg/': 'xmpTPg',
  'http://ns.adobe.com/xap/1.0/bj/': 'xmpBJ',
  'http://ns.adobe.com/xap/1.0/g/': 'xmpG',
  'http://ns.adobe.com/xap/1.0/g/img/': 'xmpGImg',
  'http://ns.adobe.com/xmp/Identifier/qual/1.0/': 'xmpidq',
  'http://ns.adobe.com/xmp/1.0/DynamicMedia/': 'xmpDM',
  'http://ns.adobe.com/xap/1.0/sType/ResourceRef#': 'stRef',
  'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#': 'stEvt',
  'http://ns.adobe.com/xap/1.0/sType/Dimensions#': 'stDim',
  'http://ns.adobe.com/pdf/1.3/': 'pdf',
  'http://ns.adobe.com/pdfx/1.3/': 'pdfx',
  'http://www.aiim.org/pdfa/ns/id/': 'pdfaid',
  'http://www.aiim.org/pdfua/ns/id/': 'pdfuaid',
  'http://www.npes.org/pdfx/ns/id/': 'pdfxid',
  'http://www.aiim.org/pdfa/ns/extension/': 'pdfaExtension',
  'http://www.aiim.org/pdfa/ns/schema#': 'pdfaSchema',
  'http://www.aiim.org/pdfa/ns/property#': 'pdfaProperty',
  'http://www.aiim.org/pdfa/ns/type#': 'pdfaType',
  'http://www.aiim.org/pdfa/ns/field#': 'pdfaField',
  'http://ns.adobe.com/photoshop/1.0/': 'photoshop',
  'http://ns.adobe.com/tiff/1.0/': 'tiff',
  'http://ns.adobe.com/exif/1.0/': 'exif',
  'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/': 'Iptc4xmpCore',
};

function knownPrefix(uri: string): string | undefined {
  const hit = Object.hasOwn(KNOWN_NS, uri) ? KNOWN_NS[uri] : undefined;
  if (hit !== undefined) return hit;
  // Hand-written packets sometimes drop the trailing slash of the URI.
  const slash = uri + '/';
  return Object.hasOwn(KNOWN_NS, slash) ? KNOWN_NS[slash] : undefined;
}

/** The packet as text: BOM first, else the NUL pattern of the leading `<` or whitespace tells UTF-16 apart. */
function xmpText(bytes: Uint8Array): string {
  const b = bytes;
  const n = b.length;
  if (n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return decodeUtf8(b, 3);
  if (n >= 2 && b[0] === 0xfe && b[1] === 0xff) return decodeUtf16(b, 2, true);
  if (n >= 2 && b[0] === 0xff && b[1] === 0xfe) return decodeUtf16(b, 2, false);
  if (n >= 2 && b[0] === 0 && b[1] !== 0) return decodeUtf16(b, 0, true);
  if (n >= 2 && b[0] !== 0 && b[1] === 0) return decodeUtf16(b, 0, false);
  return decodeUtf8(b, 0);
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML character and predefined entity references; unknown ones are left as written. */
function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,10}|[a-zA-Z]{2,4});/g, (m, body: string) => {
    if (body.charCodeAt(0) === 0x23 /* # */) {
      const hex = body.charCodeAt(1) === 0x78 || body.charCodeAt(1) === 0x58;
      const cp = parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
      if (!(cp > 0 && cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(cp);
    }
    return Object.hasOwn(NAMED_ENTITIES, body) ? NAMED_ENTITIES[body] : m;
  });
}

const enum Kind {
  /** x:xmpmeta, rdf:RDF and anything else outside a description: looked through */
  Other,
  /** rdf:Description at the top: its attributes and children are properties */
  Desc,
  /** a property element */
  Prop,
  /** rdf:Alt / rdf:Seq / rdf:Bag inside a property */
  Container,
  /** rdf:li inside a container */
  Li,
  /** inside a structure or an unexpected place: skipped with everything under it */
  Skip,
}

interface Frame {
  kind: Kind;
  /** the name as written, to match the end tag */
  raw: string;
  /** namespace declarations made on this element */
  ns: Record<string, string> | undefined;
  /** Prop: the normalised key; Li: the xml:lang */
  key: string;
  /** Prop/Li: text gathered (undefined once a child element shows the value is not plain text) */
  text: string[] | undefined;
  textLen: number;
  /** Prop/Li: rdf:resource value */
  resource: string | undefined;
  /** Prop: the value is a structure (rdf:parseType="Resource", qualifier attributes, nested elements) */
  struct: boolean;
  /** Prop: container type and its items; Container/Li: the owning property frame */
  container: 'Alt' | 'Seq' | 'Bag' | undefined;
  items: { lang: string; value: string }[] | undefined;
  owner: Frame | undefined;
}

function frame(kind: Kind, raw: string, ns: Record<string, string> | undefined): Frame {
  return {
    kind,
    raw,
    ns,
    key: '',
    text: undefined,
    textLen: 0,
    resource: undefined,
    struct: false,
    container: undefined,
    items: undefined,
    owner: undefined,
  };
}

/** XML whitespace (XML 1.0 §2.3 S), not PDF's: the packet is XML text, not PDF byte syntax. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Start-tag attributes as [name, raw value] pairs; `end` is the index after `>`, or -1 if the tag is cut off. */
interface Tag {
  name: string;
  attrs: string[];
  selfClosing: boolean;
  end: number;
}

function readStartTag(s: string, pos: number): Tag {
  const n = s.length;
  let i = pos + 1;
  const nameStart = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 0x3e /* > */ || c === 0x2f /* / */) break;
    i++;
  }
  const tag: Tag = { name: s.slice(nameStart, i), attrs: [], selfClosing: false, end: -1 };
  while (i < n) {
    let c = s.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 0x3e) {
      tag.end = i + 1;
      return tag;
    }
    if (c === 0x2f) {
      if (s.charCodeAt(i + 1) === 0x3e) {
        tag.selfClosing = true;
        tag.end = i + 2;
        return tag;
      }
      i++;
      continue;
    }
    if (c === 0x3c /* < */) {
      // A `<` inside a tag means the tag was never closed; end it here so the next tag still parses.
      tag.end = i;
      return tag;
    }
    const aStart = i;
    while (i < n) {
      c = s.charCodeAt(i);
      if (isSpace(c) || c === 0x3d /* = */ || c === 0x3e || c === 0x2f || c === 0x3c) break;
      i++;
    }
    if (i === aStart) {
      i++; // a stray character such as a lone quote: step over it
      continue;
    }
    const aName = s.slice(aStart, i);
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    if (s.charCodeAt(i) !== 0x3d) {
      tag.attrs.push(aName, '');
      continue;
    }
    i++;
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    const q = s.charCodeAt(i);
    if (q === 0x22 || q === 0x27) {
      const close = s.indexOf(q === 0x22 ? '"' : "'", i + 1);
      if (close < 0) return tag; // cut off inside a value
      tag.attrs.push(aName, s.slice(i + 1, close));
      i = close + 1;
    } else {
      const vStart = i;
      while (i < n) {
        c = s.charCodeAt(i);
        if (isSpace(c) || c === 0x3e || c === 0x3c) break;
        i++;
      }
      tag.attrs.push(aName, s.slice(vStart, i));
    }
  }
  return tag;
}

/** Reads the properties of an XMP packet, its first `limits.maxMetadataBytes` bytes at most. Tolerant of malformed
 *  and truncated packets; never throws. */
export function parseXmp(bytes: Uint8Array, limits: MetadataLimits = DEFAULT_OPTIONS): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    if (!(bytes instanceof Uint8Array) || bytes.length === 0) return out;
    const maxBytes = limits.maxMetadataBytes;
    new XmpReader(xmpText(bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes), out, limits).run();
  } catch {
    // whatever was gathered before the fault stands
  }
  return out;
}

/** An XMP reader that has read a packet through, for shapes.ts to hold: the class lives only while a packet is read. */
export function xmpReaderAnchor(bytes: Uint8Array): unknown {
  const reader = new XmpReader(xmpText(bytes), {}, DEFAULT_OPTIONS);
  reader.run();
  return reader;
}

class XmpReader {
  private readonly stack: Frame[] = [];
  /** elements opened beyond maxDepth and not yet closed */
  private overflow = 0;
  private count = 0;
  private readonly maxProps: number;
  private readonly maxItems: number;
  private readonly maxDepth: number;
  private readonly maxKey: number;
  private readonly maxValue: number;
  /** raw characters gathered for one value before entity decoding */
  private readonly maxRaw: number;

  constructor(
    private readonly s: string,
    private readonly out: Record<string, string>,
    limits: MetadataLimits,
  ) {
    this.maxProps = limits.maxXmpProperties;
    this.maxItems = limits.maxXmpItems;
    this.maxDepth = limits.maxXmpDepth;
    this.maxKey = limits.maxMetadataKeyChars;
    this.maxValue = limits.maxMetadataValueChars;
    this.maxRaw = limits.maxMetadataValueChars * RAW_PER_VALUE_CHAR;
  }

  run(): void {
    const s = this.s;
    const n = s.length;
    let pos = 0;
    // Every iteration moves `pos` forward, so the loop is bounded by the (capped) packet length.
    while (pos < n && this.count < this.maxProps) {
      const lt = s.indexOf('<', pos);
      if (lt < 0) break; // trailing text outside any tag closes nothing
      if (lt > pos) this.text(s, pos, lt, true);
      const c1 = s.charCodeAt(lt + 1);
      if (c1 === 0x21 /* ! */) {
        if (s.startsWith('<!--', lt)) {
          const e = s.indexOf('-->', lt + 4);
          if (e < 0) break;
          pos = e + 3;
        } else if (s.startsWith('<![CDATA[', lt)) {
          const e = s.indexOf(']]>', lt + 9);
          if (e < 0) break;
          this.text(s, lt + 9, e, false);
          pos = e + 3;
        } else {
          const e = s.indexOf('>', lt + 2);
          if (e < 0) break;
          pos = e + 1;
        }
      } else if (c1 === 0x3f /* ? */) {
        const e = s.indexOf('?>', lt + 2);
        if (e < 0) break;
        pos = e + 2;
      } else if (c1 === 0x2f /* / */) {
        const e = s.indexOf('>', lt + 2);
        if (e < 0) break;
        this.endTag(s.slice(lt + 2, e).trim());
        pos = e + 1;
      } else {
        const tag = readStartTag(s, lt);
        if (tag.end < 0) break; // truncated inside the tag: what was complete is kept
        if (tag.name.length > 0) {
          this.startTag(tag);
          if (tag.selfClosing) this.endTag(tag.name);
        }
        pos = tag.end;
      }
    }
  }

  /** The namespace URI bound to `prefix` ('' for the default namespace) in the current scope. */
  private lookup(prefix: string, own: Record<string, string> | undefined): string | undefined {
    if (own && Object.hasOwn(own, prefix)) return own[prefix];
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const ns = this.stack[i].ns;
      if (ns && Object.hasOwn(ns, prefix)) return ns[prefix];
    }
    if (prefix === 'xml') return 'http://www.w3.org/XML/1998/namespace';
    return undefined;
  }

  /** `prefix:local` with the prefix replaced by the customary one when its URI is known. */
  private qualify(name: string, own: Record<string, string> | undefined, isAttr: boolean): string {
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const local = colon < 0 ? name : name.slice(colon + 1);
    // Unprefixed attributes are in no namespace (XML Namespaces §6.2), whatever the default namespace.
    const uri = isAttr && colon < 0 ? undefined : this.lookup(prefix, own);
    const known = uri !== undefined ? knownPrefix(uri) : undefined;
    if (known !== undefined) return known + ':' + local;
    return name;
  }

  private startTag(tag: Tag): void {
    if (this.overflow > 0 || this.stack.length >= this.maxDepth) {
      this.overflow++;
      return;
    }
    const attrs = tag.attrs;
    let ns: Record<string, string> | undefined;
    for (let i = 0; i < attrs.length; i += 2) {
      const a = attrs[i];
      if (a === 'xmlns') (ns ??= {})[''] = decodeEntities(attrs[i + 1]).trim();
      else if (a.startsWith('xmlns:')) (ns ??= {})[a.slice(6)] = decodeEntities(attrs[i + 1]).trim();
    }
    const name = this.qualify(tag.name, ns, false);
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1] : undefined;
    const pk = parent ? parent.kind : Kind.Other;
    let f: Frame;

    if (pk === Kind.Skip) {
      f = frame(Kind.Skip, tag.name, ns);
    } else if (pk === Kind.Other) {
      if (name === 'rdf:Description') {
        f = frame(Kind.Desc, tag.name, ns);
        this.stack.push(f); // pushed first so the attributes see its namespace declarations
        this.descriptionAttributes(attrs, ns);
        return;
      }
      f = frame(Kind.Other, tag.name, ns);
    } else if (pk === Kind.Desc) {
      f = frame(Kind.Prop, tag.name, ns);
      f.key = name;
      f.text = [];
      this.valueAttributes(f, attrs, ns);
    } else if (pk === Kind.Prop) {
      const owner = parent!;
      if (
        owner.text !== undefined &&
        owner.container === undefined &&
        !owner.struct &&
        (name === 'rdf:Alt' || name === 'rdf:Seq' || name === 'rdf:Bag')
      ) {
        owner.container = name === 'rdf:Alt' ? 'Alt' : name === 'rdf:Seq' ? 'Seq' : 'Bag';
        owner.items = [];
        f = frame(Kind.Container, tag.name, ns);
        f.owner = owner;
      } else {
        owner.struct = true; // nested description or struct fields: not a plain value
        f = frame(Kind.Skip, tag.name, ns);
      }
      owner.text = undefined;
    } else if (pk === Kind.Container) {
      if (name === 'rdf:li') {
        f = frame(Kind.Li, tag.name, ns);
        f.owner = parent!.owner;
        f.text = [];
        this.valueAttributes(f, attrs, ns);
      } else {
        f = frame(Kind.Skip, tag.name, ns);
      }
    } else {
      // under rdf:li: a structure inside an array
      parent!.struct = true;
      parent!.text = undefined;
      f = frame(Kind.Skip, tag.name, ns);
    }
    this.stack.push(f);
  }

  /** rdf:Description attributes other than rdf:*, xml:* and xmlns are properties in their short form. */
  private descriptionAttributes(attrs: string[], ns: Record<string, string> | undefined): void {
    for (let i = 0; i < attrs.length && this.count < this.maxProps; i += 2) {
      const a = attrs[i];
      if (a.indexOf(':') < 0 || a.startsWith('xmlns:')) continue; // includes the pre-RDF-namespace `about`
      const key = this.qualify(a, ns, true);
      if (key.startsWith('rdf:') || key.startsWith('xml:')) continue;
      this.emit(key, decodeEntities(capText(attrs[i + 1], this.maxRaw)).trim());
    }
  }

  /** Attributes on a property or rdf:li: the xml:lang qualifier, rdf:resource, rdf:parseType, struct fields. */
  private valueAttributes(f: Frame, attrs: string[], ns: Record<string, string> | undefined): void {
    for (let i = 0; i < attrs.length; i += 2) {
      const a = attrs[i];
      if (a === 'xmlns' || a.startsWith('xmlns:')) continue;
      const key = this.qualify(a, ns, true);
      if (key === 'xml:lang') {
        if (f.kind === Kind.Li) f.key = attrs[i + 1].trim().toLowerCase();
      } else if (key === 'rdf:resource') {
        f.resource = decodeEntities(capText(attrs[i + 1], this.maxRaw));
      } else if (key === 'rdf:parseType') {
        if (attrs[i + 1] === 'Resource') f.struct = true;
      } else if (!key.startsWith('rdf:')) {
        f.struct = true; // qualifiers or fields written as attributes: a structure, not a simple value
      }
    }
  }

  private text(s: string, from: number, to: number, entities: boolean): void {
    if (this.overflow > 0 || this.stack.length === 0) return;
    const f = this.stack[this.stack.length - 1];
    if (f.text === undefined || f.textLen >= this.maxRaw) return;
    let t = s.slice(from, Math.min(to, from + (this.maxRaw - f.textLen)));
    if (entities) t = decodeEntities(t);
    f.text.push(t);
    f.textLen += t.length;
  }

  private endTag(raw: string): void {
    if (this.overflow > 0) {
      this.overflow--;
      return;
    }
    // Close up to the matching element; an end tag that matches nothing open is ignored (malformed packet).
    let i = this.stack.length - 1;
    while (i >= 0 && this.stack[i].raw !== raw) i--;
    if (i < 0) return;
    while (this.stack.length > i) this.close(this.stack.pop()!);
  }

  private close(f: Frame): void {
    if (f.kind === Kind.Li) {
      const owner = f.owner;
      if (!owner || f.struct || !owner.items || owner.items.length >= this.maxItems) return;
      const value = f.text && f.text.length > 0 ? f.text.join('').trim() : '';
      owner.items.push({ lang: f.key, value: value || (f.resource ?? '') });
    } else if (f.kind === Kind.Prop) {
      if (f.struct) return;
      let value = '';
      if (f.items) {
        if (f.container === 'Alt') {
          const def = f.items.find((it) => it.lang === 'x-default');
          value = (def ?? f.items[0])?.value ?? '';
        } else {
          value = f.items
            .map((it) => it.value)
            .filter((v) => v.length > 0)
            .join('; ');
        }
      } else if (f.text && f.text.length > 0) {
        value = f.text.join('').trim();
      }
      if (!value && f.resource) value = f.resource.trim();
      this.emit(f.key, value);
    }
  }

  private emit(key: string, value: string): void {
    // The first occurrence wins: packets that repeat a property usually do so in a later, stale description.
    if (!value || !key || this.count >= this.maxProps || Object.hasOwn(this.out, key)) return;
    put(this.out, capText(key, this.maxKey), capText(value, this.maxValue));
    this.count++;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// hints

interface Rule {
  re: RegExp;
  message?: string;
}

/**
 * Software whose name in Producer/Creator means the text layer came from OCR. Only names these products actually
 * write. pikepdf is deliberately absent: it is a general PDF library; OCRmyPDF uses it as its writer but also names
 * itself in Creator, which is what we match.
 */
const OCR_RULES: Rule[] = [
  { re: /\btesseract\b/i },
  { re: /\bocrmypdf\b/i },
  { re: /\bfinereader\b/i },
  { re: /\babbyy\s+recognition\s+server\b/i },
  { re: /\bpaper\s+capture\b/i }, // Acrobat's OCR plug-in
  { re: /\badobe\s+pdf\s+scan\s+library\b/i },
  { re: /\bomnipage\b/i },
  { re: /\breadiris\b/i },
  // These vendors' PDF tools also convert without OCR; only a value that says OCR counts.
  { re: /\b(?:nuance|kofax|tungsten)\b.*\bocr\b/i },
  { re: /\bpdf-xchange\b.*\bocr\b/i },
];

/** Scanner appliances (MFP firmware) and desktop/mobile scanning software that write PDFs of page images. */
const SCANNER_RULES: Rule[] = [
  { re: /\bimg2pdf\b/i, message: 'pages made from images by img2pdf' },
  { re: /\bir-?adv\b|\bimagerunner\b|\bcanon\b.*\b(?:ir|imageformula|scan\w*)\b/i }, // Canon MFPs, scan utilities
  { re: /\b(?:workcentre|workcenter|altalink|versalink|docucentre|apeosport)\b/i }, // Xerox, Fuji Xerox / Fujifilm
  { re: /\bhp\s+digital\s+sending\b|\bdigital\s+sender\b|\bhp\s+scan\b|\bscanjet\b|\bhp\b.*\bmfp\b/i },
  { re: /\bricoh\b|\baficio\b/i },
  { re: /\bkonica\s*minolta\b|\bbizhub\b/i },
  { re: /\bkyocera\b|\btaskalfa\b|\becosys\b/i },
  { re: /\bsharp\s+(?:mx|ar|bp)-/i },
  { re: /\bbrother\b.*\b(?:mfc|dcp|ads|iprint|scan\w*|controlcenter\w*)\b/i },
  { re: /\bepson\b.*\bscan/i }, // Epson Scan, Epson ScanSmart
  { re: /\bscansnap\b|\bpaperstream\b/i }, // Fujitsu / PFU
  { re: /\bnaps2\b/i },
  { re: /\be-studio/i }, // Toshiba MFPs ("TOSHIBA e-STUDIO2505AC")
  { re: /\blexmark\b/i },
  { re: /\bvuescan\b/i },
  { re: /\bcamscanner\b/i },
  { re: /\bgenius\s+scan\b/i },
];

/** For comparisons: case, whitespace and Unicode normalisation form do not count as a difference. */
function normForCompare(s: string): string {
  return s
    .normalize('NFC')
    .replace(/[\s\u0000]+/g, '')
    .toLowerCase();
}

function quote(s: string): string {
  return '"' + capText(s.trim(), MAX_QUOTED) + '"';
}

function firstMatch(rules: Rule[], value: string): Rule | undefined {
  for (const r of rules) if (r.re.test(value)) return r;
  return undefined;
}

export function producerHints(info: Record<string, string>, xmp: Record<string, string>): ProducerHint[] {
  const hints: ProducerHint[] = [];
  try {
    const inf = info ?? {};
    const x = xmp ?? {};
    const fields: [string, string | undefined][] = [
      ['Producer', own(inf, 'Producer')],
      ['Creator', own(inf, 'Creator')],
      ['pdf:Producer', own(x, 'pdf:Producer')],
      ['xmp:CreatorTool', own(x, 'xmp:CreatorTool')],
    ];
    // One hint per kind and value: Info and XMP usually repeat the same producer string.
    const seen = new Set<string>();
    for (const [field, raw] of fields) {
      if (raw === undefined) continue;
      const value = raw.trim();
      if (!value) continue;
      // Names sit at the start of these fields; a long tail only costs regex time.
      const probe = value.length > 512 ? value.slice(0, 512) : value;
      const norm = normForCompare(value);
      const ocr = firstMatch(OCR_RULES, probe);
      if (ocr && !seen.has('o' + norm)) {
        seen.add('o' + norm);
        hints.push({
          kind: 'ocr-producer',
          message: ocr.message ?? `text layer written by an OCR engine: ${capText(value, MAX_QUOTED)}`,
          field,
          value,
        });
      }
      const scan = firstMatch(SCANNER_RULES, probe);
      if (scan && !seen.has('s' + norm)) {
        seen.add('s' + norm);
        hints.push({
          kind: 'scanner-producer',
          message: scan.message ?? `produced by scanner software: ${capText(value, MAX_QUOTED)}`,
          field,
          value,
        });
      }
    }

    const pairs: [string, string | undefined, string | undefined][] = [
      ['Producer', own(inf, 'Producer'), own(x, 'pdf:Producer')],
      ['Creator', own(inf, 'Creator'), own(x, 'xmp:CreatorTool')],
      ['Title', own(inf, 'Title'), own(x, 'dc:title')],
    ];
    for (const [name, a, b] of pairs) {
      if (a === undefined || b === undefined) continue;
      const na = normForCompare(a);
      const nb = normForCompare(b);
      if (!na || !nb || na === nb) continue;
      hints.push({
        kind: 'info-xmp-mismatch',
        message: `Info and XMP disagree on ${name}: ${quote(a)} vs ${quote(b)}`,
        field: name,
        value: a,
      });
    }
  } catch {
    // hints are advisory; return those found
  }
  return hints;
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * `info`: the trailer /Info dict with values already resolved to direct objects (strings are Uint8Array, names
 * strings, numbers). `xmp`: the decoded /Metadata stream bytes of the catalog (or undefined). Never throws.
 */
export function readMetadata(info: PdfDict | undefined, xmp: Uint8Array | undefined, limits: MetadataLimits = DEFAULT_OPTIONS): DocumentMetadata {
  let infoRec: Record<string, string> = {};
  let xmpRec: Record<string, string> = {};
  try {
    infoRec = readInfo(info, limits);
  } catch {
    infoRec = {};
  }
  if (xmp instanceof Uint8Array) xmpRec = parseXmp(xmp, limits);
  return { info: infoRec, xmp: xmpRec, hints: producerHints(infoRec, xmpRec) };
}
