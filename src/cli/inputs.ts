/**
 * What the CLI analyses, in input order: command-line paths (directories expanded), then the entries of --files-from.
 * Reading is bounded everywhere: a file by --max-bytes, standard input by --max-bytes, a path-list entry by a line cap.
 * Only regular files are opened: a FIFO or a device (/dev/zero) would block or never end, so it is refused up front.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** Why an input has no report. These extend the analyzer's reasons in a record's `error.reason`. */
export type InputErrorReason = 'not-found' | 'unreadable' | 'not-regular-file' | 'too-large';

export type InputItem =
  | { kind: 'file'; path: string }
  | { kind: 'stdin' }
  | { kind: 'error'; path: string; reason: InputErrorReason; message: string }
  | { kind: 'notice'; message: string };

export type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: InputErrorReason; message: string };

/** Path-list entries longer than this end the list (a list fed from /dev/zero must not fill the memory). */
const MAX_LIST_ENTRY = 64 * 1024;

/**
 * `listAsGiven`: take --files-from entries as file paths without a stat (sharded runs and --out: each of N tasks reads the whole
 * list, and a stat per entry would be N × the list in metadata calls on shared storage; the worker's read still
 * reports a missing path or a directory as that entry's error record).
 */
export async function* inputItems(
  paths: readonly string[],
  filesFrom: string | undefined,
  nul: boolean,
  stdin: Readable,
  listAsGiven = false,
): AsyncGenerator<InputItem> {
  const entryItems = (p: string): AsyncGenerator<InputItem> | InputItem[] => (listAsGiven && p !== '-' ? [{ kind: 'file', path: p }] : expand(p));
  for (const p of paths) yield* expand(p);
  if (filesFrom === undefined) return;
  let source: AsyncIterable<Buffer | string>;
  if (filesFrom === '-') source = stdin;
  else {
    // A list may be a FIFO (`--files-from <(find …)`): open it without blocking the event loop on open(2) is not
    // possible portably, but a list being a pipe is normal, so only directories are refused.
    const st = await stat(filesFrom).catch((e: NodeJS.ErrnoException) => e);
    if (st instanceof Error) {
      yield {
        kind: 'error',
        path: filesFrom,
        reason: st.code === 'ENOENT' ? 'not-found' : 'unreadable',
        message: `cannot read the path list: ${errText(st)}`,
      };
      return;
    }
    if (st.isDirectory()) {
      yield { kind: 'error', path: filesFrom, reason: 'unreadable', message: 'cannot read the path list: it is a directory' };
      return;
    }
    const { createReadStream } = await import('node:fs');
    source = createReadStream(filesFrom);
  }
  const sep = nul ? 0 : 0x0a;
  let pending: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of source) {
      pending = pending.length ? Buffer.concat([pending, Buffer.from(chunk)]) : Buffer.from(chunk);
      let start = 0;
      for (let i = pending.indexOf(sep); i >= 0; i = pending.indexOf(sep, start)) {
        const item = decodeEntry(pending.subarray(start, i), nul);
        start = i + 1;
        if (item) yield* entryItems(item);
      }
      pending = pending.subarray(start);
      if (pending.length > MAX_LIST_ENTRY) {
        yield {
          kind: 'error',
          path: filesFrom,
          reason: 'unreadable',
          message: `path list entry longer than ${MAX_LIST_ENTRY} bytes; rest of the list ignored`,
        };
        return;
      }
    }
  } catch (e) {
    yield { kind: 'error', path: filesFrom, reason: 'unreadable', message: `cannot read the path list: ${errText(e)}` };
    return;
  }
  const last = decodeEntry(pending, nul);
  if (last) yield* entryItems(last);
}

function decodeEntry(b: Buffer, nul: boolean): string {
  let s = b.toString('utf8');
  // Lines from Windows tools end in CR; a NUL-separated list is taken byte for byte.
  if (!nul && s.endsWith('\r')) s = s.slice(0, -1);
  return s;
}

/** One command-line path: a file as itself, a directory as the PDFs below it (sorted), '-' as standard input. */
async function* expand(p: string): AsyncGenerator<InputItem> {
  if (p === '-') {
    yield { kind: 'stdin' };
    return;
  }
  let st;
  try {
    st = await stat(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    yield { kind: 'error', path: p, reason: code === 'ENOENT' || code === 'ENOTDIR' ? 'not-found' : 'unreadable', message: errText(e) };
    return;
  }
  if (!st.isDirectory()) {
    yield { kind: 'file', path: p };
    return;
  }
  let found = 0;
  for await (const item of walk(p, 0)) {
    if (item.kind === 'file') found++;
    yield item;
  }
  if (found === 0) yield { kind: 'notice', message: `${p}: no PDF files in this directory` };
}

async function* walk(dir: string, depth: number): AsyncGenerator<InputItem> {
  if (depth > 64) {
    yield { kind: 'error', path: dir, reason: 'unreadable', message: 'directories nested more than 64 deep; not searched' };
    return;
  }
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    yield { kind: 'error', path: dir, reason: 'unreadable', message: errText(e) };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = join(dir, e.name);
    // Links are not followed: no loops, and a tree is analysed once however it is linked.
    if (e.isDirectory()) yield* walk(p, depth + 1);
    else if (e.isFile() && /\.pdf$/i.test(e.name)) yield { kind: 'file', path: p };
  }
}

/**
 * Reads a regular file whole, refusing anything else and anything above maxBytes. Never throws. Synchronous: it runs in
 * the analysis worker, next to the analysis, so reads happen in parallel across workers and the main thread stays free
 * (an asynchronous read costs the main thread half a dozen wake-ups per file, each a scheduling delay on a busy machine).
 */
export function readInputFile(path: string, maxBytes: number): ReadResult {
  let fd: number | undefined;
  try {
    const st = statSync(path);
    if (!st.isFile())
      return { ok: false, reason: 'not-regular-file', message: `not a regular file (${kindOf(st)}); only regular files and '-' are read` };
    if (st.size > maxBytes) return tooLarge(st.size, maxBytes);
    // O_NONBLOCK: if the path was swapped for a FIFO after stat(), open() must not wait for a writer.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const fst = fstatSync(fd);
    if (!fst.isFile()) return { ok: false, reason: 'not-regular-file', message: `not a regular file (${kindOf(fst)})` };
    if (fst.size > maxBytes) return tooLarge(fst.size, maxBytes);
    // The file may change while it is read: read what stat() promised, then keep going (bounded) until EOF.
    // Unzeroed and not from Node's shared pool: nothing is copied on the way to the analyzer.
    let buf: Uint8Array = Buffer.allocUnsafeSlow(fst.size);
    let len = 0;
    for (;;) {
      if (len === buf.length) {
        if (len > maxBytes) return tooLarge(len, maxBytes);
        const probe = new Uint8Array(Math.min(1 << 20, maxBytes + 1 - len));
        const n = readSync(fd, probe, 0, probe.length, len);
        if (n === 0) break;
        const grown = new Uint8Array(Math.max(buf.length * 2, len + n));
        grown.set(buf.subarray(0, len));
        grown.set(probe.subarray(0, n), len);
        buf = grown;
        len += n;
        continue;
      }
      const n = readSync(fd, buf, len, buf.length - len, len);
      if (n === 0) break;
      len += n;
    }
    if (len > maxBytes) return tooLarge(len, maxBytes);
    return { ok: true, bytes: len === buf.length ? buf : buf.slice(0, len) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' || code === 'ENOTDIR' ? 'not-found' : 'unreadable', message: errText(e) };
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // nothing to do: the bytes are read
      }
    }
  }
}

/** Reads standard input to its end, at most maxBytes; past that it stops reading and refuses. Never throws. */
export async function readStdin(stdin: Readable, maxBytes: number): Promise<ReadResult> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stdin) {
      const c = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
      total += c.length;
      if (total > maxBytes) {
        // Stop reading: an endless source (/dev/zero, a producer that never ends) must not hold the run.
        stdin.destroy();
        return { ok: false, reason: 'too-large', message: `too large (more than ${humanSize(maxBytes)} > --max-bytes)` };
      }
      chunks.push(c);
    }
  } catch (e) {
    return { ok: false, reason: 'unreadable', message: `cannot read standard input: ${errText(e)}` };
  }
  const bytes = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.length;
  }
  return { ok: true, bytes };
}

function tooLarge(size: number, maxBytes: number): ReadResult {
  return { ok: false, reason: 'too-large', message: `too large (${humanSize(size)} > --max-bytes ${humanSize(maxBytes)})` };
}

export function humanSize(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

function kindOf(st: import('node:fs').Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === 'object' && err.code) {
    const plain: Record<string, string> = {
      ENOENT: 'no such file or directory',
      ENOTDIR: 'no such file or directory (a parent is not a directory)',
      EACCES: 'permission denied',
      EPERM: 'operation not permitted',
      EISDIR: 'is a directory',
      ELOOP: 'too many levels of symbolic links',
      EMFILE: 'too many open files',
      EIO: 'input/output error',
    };
    return plain[err.code] ?? `${err.code}: ${err.message}`;
  }
  return String(e);
}
