/**
 * The document layer: header, xref, security handler, catalog and the page tree with inherited attributes.
 */
import { Budget } from './budget';
import { openSecurityHandler } from './crypto';
import { Lexer } from './lexer';
import { PdfDict, PdfStream, type PdfValue, Ref, isNumber, numberArray } from './objects';
import type { AnalyzerOptions } from './options';
import type { EncryptionReport, Rect, RouteReason } from './types';
import { XRef } from './xref';

export interface PageNode {
  dict: PdfDict;
  ref: Ref | undefined;
  resources: PdfDict | undefined;
  mediaBox: Rect;
  cropBox: Rect;
  rotate: number;
  /** set for a page the file declares but that could not be read (a kid that does not resolve, pages missing from
   *  the /Count): it is reported as `unknown` (page-unreadable), with this note */
  unreadable?: string;
}

export interface OpenedDocument {
  xref: XRef;
  version: string | undefined;
  catalog: PdfDict | undefined;
  pages: PageNode[];
  encryption: EncryptionReport;
  /** set when the document can't be analysed at all */
  fatal?: { reason: RouteReason; message: string };
  notes: string[];
}

const LETTER: Rect = [0, 0, 612, 792];
/** stands for a page-tree entry that does not resolve to a dictionary */
const UNREADABLE = new PdfDict();

/**
 * The same bytes as a plain Uint8Array view. A subclass (Node's Buffer) changes what `slice` means: Buffer#slice is a
 * view, not a copy, so a decryption done in place on a "copy" wrote into the caller's file bytes, at an offset inside
 * Node's shared pool that the AES code could not use (it needs a 4-byte-aligned buffer of its own).
 */
function plainBytes(bytes: Uint8Array): Uint8Array {
  return Object.getPrototypeOf(bytes) === Uint8Array.prototype ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** @param budget the analysis's deadline and memory account */
export function openDocument(input: Uint8Array, options: AnalyzerOptions, budget: Budget = Budget.unbounded()): OpenedDocument {
  const bytes = plainBytes(input);
  const notes: string[] = [];
  // the stages the budget reaches (fonts, CMaps) read their bounds from it: they are this document's options
  budget.limits = options;
  const xref = new XRef(bytes, options, budget);
  const result: OpenedDocument = { xref, version: undefined, catalog: undefined, pages: [], encryption: { encrypted: false }, notes };
  if (bytes.length === 0) {
    result.fatal = { reason: 'empty-file', message: 'the file is empty' };
    return result;
  }
  const head = Lexer.indexOf(bytes, '%PDF-', 0, Math.min(bytes.length, 1024));
  if (head >= 0) {
    let v = '';
    for (let i = head + 5; i < bytes.length && i < head + 9; i++) {
      const c = bytes[i];
      if ((c >= 48 && c <= 57) || c === 46) v += String.fromCharCode(c);
      else break;
    }
    if (v) result.version = v;
  }
  // xref notes (repairs, objects that did not fit) are added by the analysis at its end: they keep coming as objects
  // are read, long after the document is opened
  const loaded = xref.load();
  if (!loaded) {
    result.fatal =
      head < 0
        ? { reason: 'not-a-pdf', message: 'no PDF header and no PDF objects found' }
        : { reason: 'damaged', message: 'no document catalog could be found, even by scanning the file' };
    return result;
  }

  // Security handler before anything that holds strings or streams is read.
  const encRef = xref.trailer.get('Encrypt');
  if (encRef !== undefined && encRef !== null) {
    if (encRef instanceof Ref) xref.plainObjects.add(encRef.num);
    const enc = deepResolve(xref, encRef, 0);
    if (enc instanceof PdfDict) {
      const idArr = xref.resolve(xref.trailer.get('ID'));
      const id0 = Array.isArray(idArr) ? xref.resolve(idArr[0]) : undefined;
      const opened = openSecurityHandler(enc, id0 instanceof Uint8Array ? id0 : undefined, options.password);
      result.encryption = opened.report;
      if (!opened.ok) {
        result.fatal = { reason: opened.reason, message: opened.message };
        // The page tree holds no strings or streams we need, so pages can often still be counted (not when the
        // tree sits in encrypted object streams): each is then reported as `unknown` with the same reason.
        const cat = xref.resolve(xref.trailer.get('Root'));
        if (cat instanceof PdfDict) result.pages = walkPageTree(xref, cat, options).pages;
        return result;
      }
      xref.security = opened.handler;
      xref.clearCache();
    } else {
      notes.push('the /Encrypt entry does not resolve to a dictionary; reading the file as unencrypted');
    }
  }

  const catalog = xref.resolve(xref.trailer.get('Root'));
  if (!(catalog instanceof PdfDict)) {
    result.fatal = { reason: 'damaged', message: 'the document catalog is missing' };
    return result;
  }
  result.catalog = catalog;
  const cv = xref.resolve(catalog.get('Version'));
  if (typeof cv === 'string' && /^\d\.\d$/.test(cv) && (!result.version || cv > result.version)) result.version = cv;

  const walk = walkPageTree(xref, catalog, options);
  result.pages = walk.pages;
  notes.push(...walk.notes);
  if (walk.pages.length === 0) {
    const scanned = pagesByScan(xref, options);
    if (scanned.length > 0) {
      notes.push('the page tree is unusable: pages found by scanning for /Type /Page objects');
      result.pages = scanned;
    } else if (walk.fatal) {
      result.fatal = walk.fatal;
    }
  }
  return result;
}

/**
 * Resolves a dictionary's values (and nested dictionaries/arrays) to direct objects, to a small depth. The depth
 * and the 64 array elements are the shape of what is read this way (the /Encrypt dictionary and its /CF crypt
 * filters), not limits of hostile input: nothing deeper or longer is ever looked at.
 */
export function deepResolve(xref: XRef, v: PdfValue | undefined, depth: number): PdfValue | undefined {
  const r = xref.resolve(v);
  if (depth > 4) return r;
  if (r instanceof PdfDict) {
    const out = new PdfDict();
    for (const [k, x] of r.map) out.set(k, deepResolve(xref, x, depth + 1) ?? null);
    return out;
  }
  if (Array.isArray(r)) return r.slice(0, 64).map((x) => deepResolve(xref, x, depth + 1) ?? null);
  return r;
}

interface Inherited {
  resources: PdfValue | undefined;
  mediaBox: PdfValue | undefined;
  cropBox: PdfValue | undefined;
  rotate: PdfValue | undefined;
}

/** Walks /Pages depth-first without recursion; detects cycles and ignores /Count (which lies in hostile files). */
function walkPageTree(
  xref: XRef,
  catalog: PdfDict,
  options: AnalyzerOptions,
): { pages: PageNode[]; notes: string[]; fatal?: { reason: RouteReason; message: string } } {
  const pages: PageNode[] = [];
  const notes: string[] = [];
  const rootRef = catalog.get('Pages');
  const root = xref.resolve(rootRef);
  if (!(root instanceof PdfDict)) return { pages, notes, fatal: { reason: 'damaged', message: 'the page tree root is missing' } };
  const visited = new Set<PdfDict>();
  type Frame = { node: PdfDict; ref: Ref | undefined; inh: Inherited; depth: number };
  const stack: Frame[] = [
    {
      node: root,
      ref: rootRef instanceof Ref ? rootRef : undefined,
      inh: { resources: undefined, mediaBox: undefined, cropBox: undefined, rotate: undefined },
      depth: 0,
    },
  ];
  let cycle = false;
  let tooDeep = false;
  let steps = 0;
  let unreadable = 0;
  while (stack.length > 0) {
    if (++steps > options.maxPages * 4 + 1000) {
      notes.push('page tree walk stopped: too many nodes');
      break;
    }
    const { node, ref, inh, depth } = stack.pop()!;
    const kidsV = xref.resolve(node.get('Kids'));
    const type = xref.resolve(node.get('Type'));
    const isLeaf = !(Array.isArray(kidsV) && type !== 'Page');
    // An intermediate node met twice is a cycle (or a shared subtree, which we also refuse: it can multiply work
    // exponentially). A leaf listed twice is a page shown twice, as viewers show it.
    if (!isLeaf) {
      if (visited.has(node)) {
        cycle = true;
        continue;
      }
      visited.add(node);
    }
    const here: Inherited = {
      resources: node.get('Resources') ?? inh.resources,
      mediaBox: node.get('MediaBox') ?? inh.mediaBox,
      cropBox: node.get('CropBox') ?? inh.cropBox,
      rotate: node.get('Rotate') ?? inh.rotate,
    };
    if (!isLeaf && Array.isArray(kidsV)) {
      if (depth >= options.maxPageTreeDepth) {
        tooDeep = true;
        continue;
      }
      // Push in reverse so pages come out in order. A kid that does not resolve to a dictionary is a page we can't
      // read (a truncated file, a dangling reference): it keeps its place as an unreadable page.
      for (let i = kidsV.length - 1; i >= 0; i--) {
        const kref = kidsV[i];
        const kid = xref.resolve(kref);
        if (kid instanceof PdfDict) stack.push({ node: kid, ref: kref instanceof Ref ? kref : undefined, inh: here, depth: depth + 1 });
        else if (kref instanceof Ref) stack.push({ node: UNREADABLE, ref: kref, inh: here, depth: depth + 1 });
      }
      continue;
    }
    if (node === UNREADABLE) {
      if (pages.length >= options.maxPages) break;
      unreadable++;
      pages.push({ ...makePage(xref, node, ref, here), unreadable: `page tree entry ${ref ? `${ref.num} ${ref.gen} R` : ''} could not be read` });
      continue;
    }
    if (type === 'Pages' && !Array.isArray(kidsV)) continue; // an empty intermediate node
    if (pages.length >= options.maxPages) {
      notes.push(`more than ${options.maxPages} pages: the rest were not analysed`);
      break;
    }
    pages.push(makePage(xref, node, ref, here));
  }
  // The root's /Count can lie (hostile or sloppy writers), so the tree decides the page count, as pdf.js does when
  // its last page won't load (it walks the tree again). But when entries of the tree were lost (a truncated file), the
  // pages they held are gone with them: then /Count says how many, and the missing ones are reported as unreadable
  // pages at the end (at most up to maxPages), never dropped silently. Otherwise a disagreement is a note.
  const declared = xref.resolve(root.get('Count'));
  if (isNumber(declared) && Number.isInteger(declared) && declared > 0) {
    const found = pages.length;
    if (declared > found && unreadable > 0 && found < options.maxPages) {
      const add = Math.min(declared, options.maxPages) - found;
      const last = pages[pages.length - 1];
      const inh: Inherited = last
        ? { resources: undefined, mediaBox: last.mediaBox, cropBox: last.cropBox, rotate: last.rotate }
        : { resources: undefined, mediaBox: root.get('MediaBox'), cropBox: root.get('CropBox'), rotate: root.get('Rotate') };
      for (let i = 0; i < add; i++)
        pages.push({ ...makePage(xref, UNREADABLE, undefined, inh), unreadable: 'a page the page tree counts but does not hold' });
      notes.push(
        `the page tree declares ${declared} pages but ${found - unreadable} could be read: ${add + unreadable} reported as unknown (page-unreadable)`,
      );
    } else if (unreadable > 0) {
      notes.push(`${unreadable} page tree ${unreadable === 1 ? 'entry' : 'entries'} could not be read: reported as unknown (page-unreadable)`);
    } else if (declared !== found) {
      notes.push(`the page tree declares ${declared} pages but holds ${found}: the ${found} it holds are analysed`);
    }
  } else if (unreadable > 0) {
    notes.push(`${unreadable} page tree ${unreadable === 1 ? 'entry' : 'entries'} could not be read: reported as unknown (page-unreadable)`);
  }
  if (cycle) notes.push('the page tree refers to itself (cycle ignored)');
  if (tooDeep) notes.push(`the page tree is deeper than ${options.maxPageTreeDepth} levels: deeper pages ignored`);
  return {
    pages,
    notes,
    fatal:
      pages.length === 0
        ? { reason: cycle ? 'page-tree-cycle' : 'damaged', message: cycle ? 'the page tree is a cycle with no pages' : 'the page tree has no pages' }
        : undefined,
  };
}

function makePage(xref: XRef, dict: PdfDict, ref: Ref | undefined, inh: Inherited): PageNode {
  const res = xref.resolve(inh.resources);
  const media = normRect(numberArray(xref, inh.mediaBox)) ?? LETTER;
  let crop = normRect(numberArray(xref, inh.cropBox)) ?? media;
  crop = intersect(crop, media) ?? media;
  const rotV = xref.resolve(inh.rotate);
  // Reduce quarter turns, not degrees: for huge /Rotate values (1e20) `x * 90 % 360` is not a multiple of 90 any more.
  const quarters = isNumber(rotV) ? Math.round(rotV / 90) : 0;
  const rotate = (((quarters % 4) + 4) % 4) * 90;
  return { dict, ref, resources: res instanceof PdfDict ? res : undefined, mediaBox: media, cropBox: crop, rotate };
}

function pagesByScan(xref: XRef, options: AnalyzerOptions): PageNode[] {
  const out: PageNode[] = [];
  const nums = [...xref.entries.keys()].sort((a, b) => a - b);
  for (const num of nums) {
    if (out.length >= options.maxPages) break;
    const v = xref.fetch(new Ref(num, 0));
    const d = v instanceof PdfStream ? undefined : v;
    if (d instanceof PdfDict && xref.resolve(d.get('Type')) === 'Page') {
      // Inherited attributes still come from the /Parent chain, even when the tree can't be walked from the root.
      const inh: Inherited = { resources: d.get('Resources'), mediaBox: d.get('MediaBox'), cropBox: d.get('CropBox'), rotate: d.get('Rotate') };
      let parent = xref.resolve(d.get('Parent'));
      for (let depth = 0; parent instanceof PdfDict && depth < options.maxPageTreeDepth; depth++) {
        inh.resources ??= parent.get('Resources');
        inh.mediaBox ??= parent.get('MediaBox');
        inh.cropBox ??= parent.get('CropBox');
        inh.rotate ??= parent.get('Rotate');
        parent = xref.resolve(parent.get('Parent'));
      }
      out.push(makePage(xref, d, new Ref(num, 0), inh));
    }
  }
  return out;
}

export function normRect(a: number[] | undefined): Rect | undefined {
  if (!a || a.length < 4) return undefined;
  const r: Rect = [Math.min(a[0], a[2]), Math.min(a[1], a[3]), Math.max(a[0], a[2]), Math.max(a[1], a[3])];
  if (!(r[2] - r[0] > 0 && r[3] - r[1] > 0) || !r.every(Number.isFinite)) return undefined;
  return r;
}

export function intersect(a: Rect, b: Rect): Rect | undefined {
  const r: Rect = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[2] > r[0] && r[3] > r[1] ? r : undefined;
}
