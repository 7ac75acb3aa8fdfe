/**
 * `pdf-page-diagnostics merge DIR`: checks the parts that `classify --out DIR` tasks wrote and joins them (issue 17).
 *
 * The check needs no list: each task digested the whole work list (count and hash sums of the paths, see ListDigest)
 * and its own shard's entries, and wrote both into its done marker. Merge recomputes each shard's digest from the
 * `file` fields of its records, so a record missing, doubled, foreign (a path of another shard) or from another
 * analyzer shows, and the shards' digests must add up to the list's: every entry exactly once. With --files-from the
 * records are also compared path by path with the list, which names what is missing or extra.
 * Pass 1 reads every part and checks; pass 2, only when the check passed, writes the output.
 */
import { once } from 'node:events';
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { type CsvRecord, csvRows, EXPORT_CSV_COLUMNS } from '../shared/export';
import type { MergeArgs } from './args';
import { inputItems } from './inputs';
import { PART_NAME, readMarker, type DoneMarker } from './parts';
import { ListDigest, pathShard } from './shard';

export interface MergeIO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
}

/** What the merged records add up to. */
export interface MergeSummary {
  shards: number;
  files: number;
  pages: number;
  routes: Record<string, number>;
  needsOcrFiles: number;
  ocrPages: number;
  /** pages whose layer is advised re-OCR, summed over the records that carry reocrPages (run with --layer-quality); absent when none does */
  reocrPages?: number;
  cantTell: number;
  failed: number;
  /** sum of the records' elapsedMs */
  analysisMs: number;
  /** first task start to last task finish, from the markers */
  wallMs: number;
}

export interface MergeCheck {
  ok: boolean;
  problems: string[];
  summary: MergeSummary;
  /** shards to run again (missing, unfinished or broken) */
  redo: number[];
  parts: string[];
}

interface Line {
  text: Buffer;
  /** false for bytes after the last newline */
  complete: boolean;
}

export async function* readLines(path: string): AsyncGenerator<Line> {
  let pending: Buffer[] = [];
  for await (const chunk of fs.createReadStream(path) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, i);
      yield { text: pending.length ? Buffer.concat([...pending, piece]) : piece, complete: true };
      pending = [];
      from = i + 1;
    }
    if (from < chunk.length) pending.push(Buffer.from(chunk.subarray(from)));
  }
  if (pending.length) yield { text: Buffer.concat(pending), complete: false };
}

const INPUT_ERRORS = new Set(['not-found', 'unreadable', 'not-regular-file', 'too-large', 'internal-error']);

interface Rec {
  file?: unknown;
  analyzerVersion?: unknown;
  optionsHash?: unknown;
  pageCount?: unknown;
  needsOcr?: unknown;
  ocrPages?: unknown;
  reocrPages?: unknown;
  routeCounts?: Record<string, unknown>;
  error?: { reason?: unknown };
  elapsedMs?: unknown;
}

/** Pass 1: the check and the summary. Never throws for a broken DIR: every fault is a problem in the result. */
export async function checkParts(dir: string, list?: Map<string, number>): Promise<MergeCheck> {
  const problems: string[] = [];
  const summary: MergeSummary = {
    shards: 0,
    files: 0,
    pages: 0,
    routes: {},
    needsOcrFiles: 0,
    ocrPages: 0,
    cantTell: 0,
    failed: 0,
    analysisMs: 0,
    wallMs: 0,
  };
  const redo = new Set<number>();
  const result = (): MergeCheck => ({ ok: problems.length === 0, problems, summary, redo: [...redo].sort((a, b) => a - b), parts });
  const parts: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    problems.push(`cannot read ${dir}: ${(e as Error).message}`);
    return result();
  }
  const byCount = new Map<number, Map<number, Set<string>>>();
  for (const n of names) {
    const m = PART_NAME.exec(n);
    if (!m) continue;
    const count = Number(m[2]);
    let shards = byCount.get(count);
    if (!shards) byCount.set(count, (shards = new Map<number, Set<string>>()));
    let kinds = shards.get(Number(m[1]));
    if (!kinds) shards.set(Number(m[1]), (kinds = new Set()));
    kinds.add(m[3]);
  }
  if (byCount.size === 0) {
    problems.push(`no parts in ${dir} (part-<i>-of-<n>.jsonl from 'classify --out ${dir}')`);
    return result();
  }
  if (byCount.size > 1) {
    problems.push(`${dir} mixes runs of ${[...byCount.keys()].sort((a, b) => a - b).join(' and ')} shards; keep one run per directory`);
    return result();
  }
  const [count, shards] = [...byCount][0];
  summary.shards = count;
  const w = String(count - 1).length;
  const markers: DoneMarker[] = [];
  for (let i = 0; i < count; i++) {
    const base = `part-${String(i).padStart(w, '0')}-of-${count}`;
    const kinds = shards.get(i) ?? new Set<string>();
    if (!kinds.has('done.json') || !kinds.has('jsonl')) {
      redo.add(i);
      const partial = kinds.has('jsonl.partial') ? `unfinished (${base}.jsonl.partial)` : kinds.has('jsonl') ? 'without its done marker' : 'missing';
      problems.push(`shard ${i}/${count}: ${partial}`);
      continue;
    }
    const marker = readMarker(join(dir, `${base}.done.json`));
    if (!marker || marker.shard !== i || marker.shards !== count) {
      redo.add(i);
      problems.push(`shard ${i}/${count}: ${base}.done.json is not a done marker of this shard`);
      continue;
    }
    markers.push(marker);
    parts.push(join(dir, `${base}.jsonl`));
  }
  // The markers must agree on what was run and over which list.
  const first = markers[0];
  for (const m of markers) {
    if (!first) break;
    const what: string[] = [];
    if (m.analyzerVersion !== first.analyzerVersion) what.push(`analyzer ${m.analyzerVersion} ≠ ${first.analyzerVersion}`);
    if (m.optionsHash !== first.optionsHash) what.push(`options ${m.optionsHash} ≠ ${first.optionsHash}`);
    if (m.list?.hash !== first.list?.hash || m.list?.entries !== first.list?.entries)
      what.push(`work list ${m.list?.entries} entries/${m.list?.hash} ≠ ${first.list?.entries}/${first.list?.hash}`);
    if (what.length) {
      redo.add(m.shard);
      problems.push(`shard ${m.shard}/${count} was run differently from shard ${first.shard}: ${what.join('; ')}`);
    }
  }
  const total = new ListDigest();
  const seen = list ? new Map<string, number>() : undefined;
  let starts = Infinity;
  let ends = -Infinity;
  for (const m of markers) {
    const path = join(dir, `${partNameOf(m, w)}.jsonl`);
    const digest = new ListDigest();
    let records = 0;
    let bad = 0;
    let foreign = 0;
    let stamps = 0;
    let torn = false;
    try {
      for await (const line of readLines(path)) {
        if (!line.complete) {
          torn = true;
          break;
        }
        records++;
        let r: Rec;
        try {
          r = JSON.parse(line.text.toString('utf8')) as Rec;
        } catch {
          bad++;
          continue;
        }
        if (typeof r.file !== 'string') {
          bad++;
          continue;
        }
        digest.add(r.file);
        if (pathShard(r.file, count) !== m.shard) foreign++;
        if (r.analyzerVersion !== m.analyzerVersion || r.optionsHash !== m.optionsHash) stamps++;
        if (seen) seen.set(r.file, (seen.get(r.file) ?? 0) + 1);
        tally(summary, r);
      }
    } catch (e) {
      redo.add(m.shard);
      problems.push(`shard ${m.shard}/${count}: cannot read ${path}: ${(e as Error).message}`);
      continue;
    }
    const size = fs.statSync(path).size;
    const what: string[] = [];
    if (torn) what.push('its last line is cut short');
    if (size !== m.bytes) what.push(`${size} bytes where its marker says ${m.bytes}`);
    if (records !== m.records) what.push(`${records} records where its marker says ${m.records}`);
    if (bad) what.push(`${bad} lines that are not records`);
    if (foreign) what.push(`${foreign} records whose path belongs to another shard`);
    if (stamps) what.push(`${stamps} records of another analyzer or options than its marker's`);
    if (digest.entries !== m.shardList?.entries || digest.hash !== m.shardList?.hash) {
      const dups = await duplicatesIn(path);
      what.push(
        `its records' paths (${digest.entries}, ${digest.hash}) are not its list entries (${m.shardList?.entries}, ${m.shardList?.hash})` +
          (dups.length ? `; more than once: ${dups.slice(0, 5).join(', ')}${dups.length > 5 ? ` and ${dups.length - 5} more` : ''}` : ''),
      );
    }
    if (what.length) {
      redo.add(m.shard);
      problems.push(`shard ${m.shard}/${count}: ${what.join('; ')}`);
    }
    if (m.shardList) total.addDigest(m.shardList.hash, m.shardList.entries);
    const s = Date.parse(m.startedAt);
    const f = Date.parse(m.finishedAt);
    if (Number.isFinite(s)) starts = Math.min(starts, s);
    if (Number.isFinite(f)) ends = Math.max(ends, f);
  }
  if (Number.isFinite(starts) && Number.isFinite(ends)) summary.wallMs = ends - starts;
  if (first && markers.length === count && (total.entries !== first.list?.entries || total.hash !== first.list?.hash))
    problems.push(
      `the shards' lists (${total.entries} entries, ${total.hash}) do not add up to the work list the tasks saw (${first.list?.entries}, ${first.list?.hash})`,
    );
  if (list && seen) {
    const missing: string[] = [];
    const extra: string[] = [];
    const twice: string[] = [];
    for (const [p, n] of list) {
      const got = seen.get(p) ?? 0;
      if (got < n) missing.push(p);
      else if (got > n) twice.push(p);
    }
    for (const p of seen.keys()) if (!list.has(p)) extra.push(p);
    const some = (xs: string[]) => `${xs.slice(0, 5).join(', ')}${xs.length > 5 ? ` and ${xs.length - 5} more` : ''}`;
    if (missing.length) problems.push(`${missing.length} listed input${missing.length === 1 ? ' has' : 's have'} no record: ${some(missing)}`);
    if (twice.length) problems.push(`${twice.length} input${twice.length === 1 ? ' has' : 's have'} more records than list entries: ${some(twice)}`);
    if (extra.length) problems.push(`${extra.length} record${extra.length === 1 ? ' is' : 's are'} for paths not in the list: ${some(extra)}`);
    for (const p of [...missing, ...twice]) redo.add(pathShard(p, count));
  }
  return result();
}

function partNameOf(m: DoneMarker, w: number): string {
  return `part-${String(m.shard).padStart(w, '0')}-of-${m.shards}`;
}

async function duplicatesIn(path: string): Promise<string[]> {
  const n = new Map<string, number>();
  for await (const line of readLines(path)) {
    try {
      const f = (JSON.parse(line.text.toString('utf8')) as Rec).file;
      if (typeof f === 'string') n.set(f, (n.get(f) ?? 0) + 1);
    } catch {
      // counted as a bad line already
    }
  }
  return [...n].filter(([, c]) => c > 1).map(([p]) => p);
}

function tally(s: MergeSummary, r: Rec): void {
  s.files++;
  const failed = r.error && INPUT_ERRORS.has(String(r.error.reason));
  if (failed) s.failed++;
  if (typeof r.pageCount === 'number') s.pages += r.pageCount;
  if (r.needsOcr === true) s.needsOcrFiles++;
  if (Array.isArray(r.ocrPages)) s.ocrPages += r.ocrPages.length;
  if (Array.isArray(r.reocrPages)) s.reocrPages = (s.reocrPages ?? 0) + r.reocrPages.length;
  let unknown = 0;
  for (const [k, v] of Object.entries(r.routeCounts ?? {})) {
    if (typeof v !== 'number') continue;
    s.routes[k] = (s.routes[k] ?? 0) + v;
    if (k === 'unknown') unknown = v;
  }
  if (!failed && (r.error || unknown > 0)) s.cantTell++;
  if (typeof r.elapsedMs === 'number') s.analysisMs += r.elapsedMs;
}

const nf = new Intl.NumberFormat('en-US');

export function mergeSummaryText(s: MergeSummary, mergeMs: number): string {
  const routes = Object.entries(s.routes)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${nf.format(n)}`)
    .join(', ');
  return [
    `${nf.format(s.shards)} shards · ${nf.format(s.files)} files · ${nf.format(s.pages)} pages (${routes || 'none'})`,
    `${nf.format(s.ocrPages)} pages need OCR in ${nf.format(s.needsOcrFiles)} files · ${nf.format(s.cantTell)} can't tell` +
      (s.reocrPages !== undefined ? ` · ${nf.format(s.reocrPages)} to re-OCR` : '') +
      (s.failed ? ` · ${nf.format(s.failed)} unreadable or failed` : ''),
    `time: tasks ${(s.wallMs / 1000).toFixed(1)} s from first start to last finish, ${(s.analysisMs / 1000).toFixed(1)} s of analysis; merge ${(mergeMs / 1000).toFixed(1)} s`,
  ].join('\n');
}

/** Runs `merge`; resolves to the exit status (0 passed, 1 failed, 2 usage). */
export async function merge(args: MergeArgs, io: MergeIO, program: string): Promise<number> {
  const started = Date.now();
  const say = (m: string) => io.stderr.write(`${program} merge: ${m}\n`);
  let st: fs.Stats;
  try {
    st = fs.statSync(args.dir);
  } catch {
    say(`${args.dir}: no such directory`);
    return 2;
  }
  if (!st.isDirectory()) {
    say(`${args.dir}: not a directory`);
    return 2;
  }
  let list: Map<string, number> | undefined;
  if (args.filesFrom !== undefined) {
    if (args.filesFrom !== '-' && !fs.existsSync(args.filesFrom)) {
      say(`cannot read the path list ${args.filesFrom}: no such file or directory`);
      return 2;
    }
    list = new Map();
    for await (const item of inputItems([], args.filesFrom, args.nul, io.stdin, true)) {
      if (item.kind === 'file' || item.kind === 'error') {
        if (item.kind === 'error' && item.path === args.filesFrom) {
          say(item.message);
          return 2;
        }
        list.set(item.path, (list.get(item.path) ?? 0) + 1);
      }
    }
  }
  const check = await checkParts(args.dir, list);
  if (!check.ok) {
    for (const p of check.problems) say(p);
    if (check.redo.length)
      say(
        `run again: shard${check.redo.length === 1 ? '' : 's'} ${check.redo.join(',')} of ${check.summary.shards} with --out ${args.dir} --resume` +
          ` (Slurm with --shard-count: sbatch --array=${check.redo.join(',')} …)`,
      );
    say('check failed: nothing written');
    return 1;
  }
  try {
    const target = args.output !== undefined ? fs.statSync(args.output, { throwIfNoEntry: false }) : undefined;
    if (args.output !== undefined && target && !target.isFile()) {
      // a device or a FIFO (-o /dev/null, -o >(gzip …)): written in place, never renamed over
      const stream = fs.createWriteStream(args.output, { flags: 'a' });
      await writeMerged(check.parts, stream, args.csv);
      await new Promise<void>((res, rej) => stream.end((e?: Error | null) => (e ? rej(e) : res())));
    } else if (args.output !== undefined) {
      const tmp = `${args.output}.tmp-${process.pid}`;
      const fd = fs.openSync(tmp, 'w', 0o644);
      const stream = fs.createWriteStream('', { fd, autoClose: false });
      try {
        await writeMerged(check.parts, stream, args.csv);
        await new Promise<void>((res, rej) => stream.end((e?: Error | null) => (e ? rej(e) : res())));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, args.output);
    } else {
      await writeMerged(check.parts, io.stdout, args.csv);
    }
  } catch (e) {
    say(`cannot write the output: ${(e as Error).message}`);
    return 1;
  }
  if (!args.quiet) io.stderr.write(`${mergeSummaryText(check.summary, Date.now() - started)}\ncheck passed: every input exactly once\n`);
  return 0;
}

async function put(out: Writable, chunk: string | Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

async function writeMerged(parts: string[], out: Writable, csv: boolean): Promise<void> {
  if (!csv) {
    for (const p of parts) for await (const chunk of fs.createReadStream(p) as AsyncIterable<Buffer>) await put(out, chunk);
    return;
  }
  await put(out, EXPORT_CSV_COLUMNS.join(',') + '\r\n');
  for (const p of parts)
    for await (const line of readLines(p))
      for (const row of csvRows(JSON.parse(line.text.toString('utf8')) as CsvRecord)) await put(out, row + '\r\n');
}
