/**
 * A file's record and its text (a JSON line or the table), built where the report is: in the analysis worker. Sending
 * text back instead of the report object spares a structured clone of every box on every page in the worker and its
 * rebuild on the main thread, which cost more than the analysis itself on small files and kept --jobs from scaling.
 */
import type { FileRecord } from '../analyzer/serialize';
import { fileRecord } from '../analyzer/serialize';
import type { DocumentReport } from '../analyzer/types';
import { jsonChunks } from './output';
import { formatTable } from './table';

/** A record as the CLI prints it: the shared FileRecord plus what a pipeline needs to trust and deduplicate it. */
export interface CliRecord extends Omit<FileRecord, 'error'> {
  /** hex SHA-256 of the bytes analysed (absent when the file could not be read) */
  sha256?: string;
  /** bytes analysed */
  size?: number;
  analyzerVersion: string;
  /** short hash of the analyzer options in effect (defaults merged with --limit; the password is left out) */
  optionsHash: string;
  /** the analyzer's reason ("can't tell"), or why there is no report: an input error or 'internal-error' */
  error?: { reason: string; message: string };
}

export interface Stamp {
  file: string;
  sha256?: string;
  size?: number;
  analyzerVersion: string;
  optionsHash: string;
}

export type RenderMode = 'json' | 'table' | 'table-pages';

export function buildRecord(stamp: Stamp, report: DocumentReport): CliRecord {
  const { file, ...rest } = fileRecord(stamp.file, report);
  // Identity first (which bytes, which analyzer, which options), then the report.
  const head: Stamp = { file, sha256: stamp.sha256, size: stamp.size, analyzerVersion: stamp.analyzerVersion, optionsHash: stamp.optionsHash };
  if (head.sha256 === undefined) delete head.sha256;
  if (head.size === undefined) delete head.size;
  return { ...head, ...rest };
}

/** What the main thread needs of a record for the summary, without its pages. */
export interface RecordHead {
  pageCount: number;
  needsOcr: boolean;
  unknownPages: number;
  /** pages whose layer quality advises re-OCR (present only when layer quality was on: the record's reocrPages) */
  reocrPages?: number;
  error?: { reason: string; message: string };
}

export function headOf(r: CliRecord): RecordHead {
  const head: RecordHead = {
    pageCount: r.pageCount,
    needsOcr: r.needsOcr,
    unknownPages: r.routeCounts.unknown,
    ...(r.error ? { error: r.error } : {}),
  };
  if (r.reocrPages) head.reocrPages = r.reocrPages.length;
  return head;
}

export function* renderRecord(r: CliRecord, mode: RenderMode): Generator<string> {
  if (mode === 'json') yield* recordJson(r);
  else yield* tableChunks(r, mode === 'table-pages');
}

/**
 * One JSON line, field by field and page by page: JSON.stringify for each piece (fast), the walking serializer only for
 * a piece too large for one string. Output is byte-identical to JSON.stringify(r) + '\n'.
 */
export function* recordJson(r: CliRecord): Generator<string> {
  let first = true;
  for (const [key, value] of Object.entries(r)) {
    if (value === undefined) continue;
    yield (first ? '{' : ',') + JSON.stringify(key) + ':';
    first = false;
    if (Array.isArray(value)) {
      yield '[';
      for (let i = 0; i < value.length; i++) {
        if (i > 0) yield ',';
        yield* piece(value[i]);
      }
      yield ']';
    } else yield* piece(value);
  }
  yield first ? '{}\n' : '}\n';
}

function* piece(v: unknown): Generator<string> {
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    yield* jsonChunks(v);
    return;
  }
  yield s === undefined ? 'null' : s;
}

/** The table for one file, a thousand page lines at a time. */
function* tableChunks(r: CliRecord, pages: boolean): Generator<string> {
  const rec = r as unknown as FileRecord;
  if (!pages || r.pages.length <= 1000) {
    yield formatTable(rec, pages) + '\n';
    return;
  }
  yield formatTable({ ...rec, pages: [] }, true) + '\n';
  for (let i = 0; i < r.pages.length; i += 1000) {
    const part = formatTable({ ...rec, pages: r.pages.slice(i, i + 1000) }, true).split('\n');
    // the file's heading and the column header are already out
    const cut = part.findIndex((l) => l.startsWith('  page  route'));
    yield part.slice(cut + 1).join('\n') + '\n';
  }
}

/** Joins small pieces into strings of about `size` characters (fewer writes and messages, none of them huge). */
export function* coalesce(pieces: Iterable<string>, size = 1 << 20): Generator<string> {
  let buf = '';
  for (const p of pieces) {
    if (buf.length + p.length > size && buf !== '') {
      yield buf;
      buf = '';
    }
    if (p.length >= size) yield p;
    else buf += p;
  }
  if (buf !== '') yield buf;
}
