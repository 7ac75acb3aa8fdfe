/**
 * `classify --out DIR`: a shard's records in DIR/part-<i>-of-<n>.jsonl, written so that a killed task loses nothing it
 * finished and a part is never taken for complete when it is not (issue 17).
 *
 * - Records are appended to `part-…jsonl.partial` with one write(2) per piece as each file is done: a task killed by
 *   the engine (SIGKILL, preemption, time limit) leaves every finished record in the file. Only a node that loses power
 *   can lose the page cache's tail; resume treats that like a torn line.
 * - A torn last line (the task died inside a record) is cut off on resume.
 * - When the shard is complete the partial is fsynced and renamed to `part-…jsonl`, the directory is fsynced, then the
 *   done marker `part-…done.json` (records, bytes, analyzer and options hash, list digest) is written the same way.
 *   Merge trusts a part only with its marker.
 * - `part-…state.json` holds when the shard was first started (for --fast-resume).
 */
import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Shard } from './shard';

export interface PartNames {
  base: string;
  part: string;
  partial: string;
  marker: string;
  state: string;
  compact: string;
}

export function partNames(dir: string, shard: Shard): PartNames {
  const w = String(shard.count - 1).length;
  const base = `part-${String(shard.index).padStart(w, '0')}-of-${shard.count}`;
  return {
    base,
    part: join(dir, `${base}.jsonl`),
    partial: join(dir, `${base}.jsonl.partial`),
    marker: join(dir, `${base}.done.json`),
    state: join(dir, `${base}.state.json`),
    compact: join(dir, `${base}.jsonl.compact`),
  };
}

/** `part-<i>-of-<n>.<rest>`: the shard a name in DIR belongs to. */
export const PART_NAME = /^part-(\d+)-of-(\d+)\.(jsonl|jsonl\.partial|done\.json|state\.json|jsonl\.compact)$/;

/** What a done marker says. */
export interface DoneMarker {
  format: 1;
  shard: number;
  shards: number;
  /** records in the part: one per list entry of this shard */
  records: number;
  /** bytes of the part file */
  bytes: number;
  analyzerVersion: string;
  optionsHash: string;
  /** digest of the whole work list (every shard's entries) as this task enumerated it */
  list: { entries: number; hash: string };
  /** digest of this shard's entries */
  shardList: { entries: number; hash: string };
  /** records with an input or internal error (unreadable, missing, …) */
  failed: number;
  /** records taken over from an earlier, interrupted run of this shard */
  resumed: number;
  startedAt: string;
  finishedAt: string;
  host: string;
  pid: number;
}

/** An earlier run's record that may stand for a list entry if its file is unchanged. */
export interface Candidate {
  line: number;
  size: number;
  sha256: string;
}

export type OpenResult = { ok: true; writer: PartWriter; alreadyDone?: DoneMarker } | { ok: false; usage: boolean; message: string };

const INPUT_ERRORS = new Set(['not-found', 'unreadable', 'not-regular-file', 'too-large', 'internal-error']);

/**
 * Opens the shard's part for writing. Without `resume`, any file of this shard already in DIR is a usage error (never
 * overwritten). With it, a complete part of the same analyzer and options is reported done (`alreadyDone`); otherwise
 * the earlier records become candidates and the partial is reopened for appending after its last whole line.
 */
export async function openPart(
  dir: string,
  shard: Shard,
  stamp: { analyzerVersion: string; optionsHash: string },
  resume: boolean,
  now = Date.now(),
): Promise<OpenResult> {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    return { ok: false, usage: true, message: `--out ${dir}: cannot create the directory: ${(e as Error).message}` };
  }
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (e) {
    return { ok: false, usage: true, message: `--out ${dir}: cannot read the directory: ${(e as Error).message}` };
  }
  const others = new Set<number>();
  for (const n of entries) {
    const m = PART_NAME.exec(n);
    if (m && Number(m[2]) !== shard.count) others.add(Number(m[2]));
  }
  if (others.size > 0)
    return {
      ok: false,
      usage: true,
      message: `--out ${dir} holds parts of ${[...others].join(', ')} shard${others.size === 1 && [...others][0] === 1 ? '' : 's'} and this run is shard ${shard.index}/${shard.count}: use another directory, or the same shard count`,
    };
  try {
    return await openShard(dir, shard, stamp, resume, now);
  } catch (e) {
    return { ok: false, usage: false, message: `cannot open shard ${shard.index}/${shard.count} in ${dir}: ${(e as Error).message}` };
  }
}

async function openShard(
  dir: string,
  shard: Shard,
  stamp: { analyzerVersion: string; optionsHash: string },
  resume: boolean,
  now: number,
): Promise<OpenResult> {
  const names = partNames(dir, shard);
  const mine = [names.part, names.partial, names.marker, names.state, names.compact].filter((p) => fs.existsSync(p));
  if (mine.length > 0 && !resume)
    return {
      ok: false,
      usage: true,
      message: `--out ${dir} already has shard ${shard.index}/${shard.count} (${mine.map((p) => p.slice(dir.length + 1)).join(', ')}): add --resume to finish it, or remove it`,
    };
  const marker = readMarker(names.marker);
  if (marker && marker.analyzerVersion === stamp.analyzerVersion && marker.optionsHash === stamp.optionsHash && fs.existsSync(names.part))
    return { ok: true, writer: new PartWriter(names, shard, undefined, now), alreadyDone: marker };
  // A stale marker (other analyzer or options) or one without its part no longer vouches for anything.
  if (fs.existsSync(names.marker)) fs.rmSync(names.marker);
  // Killed between the part's rename and its marker: the part is whole, only unconfirmed; take it back as the partial.
  if (fs.existsSync(names.part)) fs.renameSync(names.part, names.partial);
  if (fs.existsSync(names.compact)) fs.rmSync(names.compact);
  let startedAt = now;
  let knownStart = false;
  const state = readJson(names.state) as { startedAt?: unknown } | undefined;
  if (state && typeof state.startedAt === 'number') {
    startedAt = state.startedAt;
    knownStart = true;
  }
  if (!knownStart) writeAtomic(names.state, JSON.stringify({ shard: shard.index, shards: shard.count, startedAt }) + '\n');
  const st = fs.lstatSync(names.partial, { throwIfNoEntry: false });
  if (st && !st.isFile()) return { ok: false, usage: false, message: `${names.partial} is not a regular file; remove it to run this shard again` };
  const prior = st ? await scanPartial(names.partial, stamp) : undefined;
  // Without a state file an earlier run's start is unknown (fast-resume then checks contents instead).
  return { ok: true, writer: new PartWriter(names, shard, prior, knownStart || !prior ? startedAt : undefined) };
}

interface Prior {
  /** byte ranges of the partial's whole lines */
  lines: { offset: number; length: number }[];
  candidates: Map<string, Candidate[]>;
  /** bytes cut off the end (a torn line) */
  torn: number;
  end: number;
}

/**
 * Reads an interrupted partial: each whole line that is a record of the same analyzer and options with a sha256 (a
 * file that was read and analysed) becomes a candidate for its path; the rest (input errors, internal errors, another
 * analyzer) will be done again. Bytes after the last newline are a torn record and are cut off.
 */
export async function scanPartial(path: string, stamp: { analyzerVersion: string; optionsHash: string }): Promise<Prior> {
  const lines: Prior['lines'] = [];
  const candidates = new Map<string, Candidate[]>();
  let pending: Buffer[] = [];
  let pendingLen = 0;
  let offset = 0;
  let lineStart = 0;
  const take = (line: Buffer) => {
    const idx = lines.length;
    lines.push({ offset: lineStart, length: line.length + 1 });
    let r: { file?: unknown; size?: unknown; sha256?: unknown; analyzerVersion?: unknown; optionsHash?: unknown; error?: { reason?: unknown } };
    try {
      r = JSON.parse(line.toString('utf8')) as typeof r;
    } catch {
      return;
    }
    if (typeof r.file !== 'string' || typeof r.size !== 'number' || typeof r.sha256 !== 'string') return;
    if (r.analyzerVersion !== stamp.analyzerVersion || r.optionsHash !== stamp.optionsHash) return;
    if (r.error && INPUT_ERRORS.has(String(r.error.reason))) return;
    let list = candidates.get(r.file);
    if (!list) candidates.set(r.file, (list = []));
    list.push({ line: idx, size: r.size, sha256: r.sha256 });
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, i);
      const line = pendingLen ? Buffer.concat([...pending, piece]) : piece;
      take(line);
      lineStart = offset + i + 1;
      pending = [];
      pendingLen = 0;
      from = i + 1;
    }
    if (from < chunk.length) {
      pending.push(chunk.subarray(from));
      pendingLen += chunk.length - from;
    }
    offset += chunk.length;
  }
  return { lines, candidates, torn: offset - lineStart, end: lineStart };
}

/** Appends records to the shard's partial and finishes it. Writes are synchronous: each record is in the file when
 * append() returns. */
export class PartWriter {
  readonly names: PartNames;
  readonly shard: Shard;
  /** whole lines from an earlier run, by path; resume takes one per list entry whose file is unchanged */
  readonly candidates: Map<string, Candidate[]>;
  /** when the shard was first started, if known from its state file (for --fast-resume) */
  readonly firstStartedAt: number | undefined;
  readonly tornBytes: number;
  readonly priorLines: number;
  private fd: number | undefined;
  private readonly prior: Prior | undefined;
  private readonly kept = new Set<number>();
  private bytes: number;
  private newRecords = 0;
  private readonly started = Date.now();

  constructor(names: PartNames, shard: Shard, prior: Prior | undefined, firstStartedAt: number | undefined) {
    this.names = names;
    this.shard = shard;
    this.prior = prior;
    this.candidates = prior?.candidates ?? new Map<string, Candidate[]>();
    this.firstStartedAt = firstStartedAt;
    this.tornBytes = prior?.torn ?? 0;
    this.priorLines = prior?.lines.length ?? 0;
    this.bytes = prior?.end ?? 0;
  }

  /** Opens (or creates) the partial, cutting off a torn last line. */
  start(): void {
    this.fd = fs.openSync(this.names.partial, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND, 0o644);
    if (this.prior && this.prior.torn > 0) fs.ftruncateSync(this.fd, this.prior.end);
    else if (!this.prior) fs.ftruncateSync(this.fd, 0);
  }

  /** Takes a candidate line into the finished part (its file was found unchanged). */
  keep(c: Candidate): void {
    this.kept.add(c.line);
  }

  /** Appends one record (its JSON line, in pieces). */
  append(pieces: Iterable<string>): void {
    if (this.fd === undefined) throw new Error('part not started');
    for (const p of pieces) {
      const b = Buffer.from(p, 'utf8');
      let o = 0;
      while (o < b.length) o += fs.writeSync(this.fd, b, o, b.length - o);
      this.bytes += b.length;
    }
    this.newRecords++;
  }

  get resumedRecords(): number {
    return this.kept.size;
  }

  /**
   * The shard is complete: drops the earlier lines that were not kept (if any), fsyncs, renames the partial to the
   * part, fsyncs the directory, writes the marker. Returns the marker.
   */
  finish(meta: Pick<DoneMarker, 'analyzerVersion' | 'optionsHash' | 'list' | 'shardList' | 'failed'>): DoneMarker {
    if (this.fd === undefined) throw new Error('part not started');
    const stale = this.priorLines - this.kept.size;
    if (stale > 0 && this.prior) {
      // Some earlier records no longer stand (file changed, error retried): write the part again without them.
      const out = fs.openSync(this.names.compact, 'w', 0o644);
      const src = fs.openSync(this.names.partial, 'r');
      let bytes = 0;
      try {
        const copy = (offset: number, length: number) => {
          const buf = Buffer.allocUnsafe(Math.min(length, 1 << 20));
          for (let done = 0; done < length;) {
            const n = fs.readSync(src, buf, 0, Math.min(buf.length, length - done), offset + done);
            if (n === 0) throw new Error(`${this.names.partial} shrank while it was compacted`);
            fs.writeSync(out, buf, 0, n);
            done += n;
          }
          bytes += length;
        };
        this.prior.lines.forEach((l, i) => this.kept.has(i) && copy(l.offset, l.length));
        const size = fs.fstatSync(src).size;
        if (size > this.prior.end) copy(this.prior.end, size - this.prior.end);
        fs.fsyncSync(out);
      } finally {
        fs.closeSync(out);
        fs.closeSync(src);
      }
      fs.closeSync(this.fd);
      this.fd = undefined;
      fs.renameSync(this.names.compact, this.names.partial);
      this.bytes = bytes;
    } else {
      fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.fd = undefined;
    }
    const dir = this.names.part.slice(0, this.names.part.length - this.names.base.length - '.jsonl'.length - 1);
    fs.renameSync(this.names.partial, this.names.part);
    fsyncDir(dir);
    const marker: DoneMarker = {
      format: 1,
      shard: this.shard.index,
      shards: this.shard.count,
      records: this.kept.size + this.newRecords,
      bytes: fs.statSync(this.names.part).size,
      ...meta,
      resumed: this.kept.size,
      startedAt: new Date(this.firstStartedAt ?? this.started).toISOString(),
      finishedAt: new Date().toISOString(),
      host: hostname(),
      pid: process.pid,
    };
    writeAtomic(this.names.marker, JSON.stringify(marker, null, 1) + '\n');
    fsyncDir(dir);
    return marker;
  }

  /** Closes without finishing (the run was stopped): the partial stays for --resume. */
  close(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // nothing to keep: every record is already written
    }
    this.fd = undefined;
  }
}

export type Verdict = 'same' | 'changed';

/** --resume: the file is the one the candidate was made from if its size and sha256 are the same. Reads it whole. */
export async function sameContent(path: string, c: Candidate): Promise<Verdict> {
  let st: Stats;
  try {
    st = await fs.promises.stat(path);
  } catch {
    return 'changed';
  }
  if (!st.isFile() || st.size !== c.size) return 'changed';
  const h = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) h.update(chunk);
  } catch {
    return 'changed';
  }
  return h.digest('hex') === c.sha256 ? 'same' : 'changed';
}

/**
 * --fast-resume: same size, and last modified at least 2 s before the shard was first started (so before any of its
 * records was made; 2 s covers file systems that keep whole or even seconds). A stat, no read.
 */
export async function sameMetadata(path: string, c: Candidate, firstStartedAt: number): Promise<Verdict> {
  try {
    const st = await fs.promises.stat(path);
    return st.isFile() && st.size === c.size && st.mtimeMs < firstStartedAt - 2000 ? 'same' : 'changed';
  } catch {
    return 'changed';
  }
}

export function readMarker(path: string): DoneMarker | undefined {
  const m = readJson(path) as Partial<DoneMarker> | undefined;
  if (!m || m.format !== 1 || typeof m.shard !== 'number' || typeof m.shards !== 'number' || typeof m.records !== 'number') return undefined;
  return m as DoneMarker;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes a small file whole or not at all: a temporary name, fsync, rename. */
export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w', 0o644);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, path);
}

function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // some file systems refuse fsync on a directory; the rename is still atomic there
  }
}
