/**
 * pdf-page-diagnostics classify [OPTIONS] PATH... — a report per file, as a table or one JSON object per line.
 * Files are analysed in the same worker pool as the extension's (src/shared/pool.ts): a file that hangs or crashes its
 * worker is stopped by the pool's watchdog and reported, and the batch goes on. See `classify --help` for exit codes.
 */
import { createHash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { resolveOptions, type AnalyzerOptions } from '../analyzer/options';
import { type FileRecord, fileRecord, pageRanges } from '../analyzer/serialize';
import { AnalysisPool, type AnalysisWorker, type PoolOutcome } from '../shared/pool';
import { PROGRAM, parseArgs, type CliArgs } from './args';
import { inputItems, readInputFile, readStdin, type InputErrorReason, type ReadResult } from './inputs';
import { Output, jsonLine } from './output';
import { Progress, summaryLine, type Tally } from './progress';
import { escapeName, formatTable } from './table';
import { versions } from './version';
import { workerLoop } from './worker';
import { runRequest } from '../extension/worker/run';

/** A record as the CLI prints it: the shared FileRecord plus what a pipeline needs to trust and deduplicate it. */
export interface CliRecord extends Omit<FileRecord, 'error'> {
  /** hex SHA-256 of the bytes analysed (absent when the file could not be read) */
  sha256?: string;
  /** bytes analysed */
  size?: number;
  analyzerVersion: string;
  /** short hash of the analyzer options in effect (defaults merged with --limit; the password is left out) */
  optionsHash: string;
  /** the analyzer's reason ("can't tell"), or why there is no report: InputErrorReason or 'internal-error' */
  error?: { reason: string; message: string };
}

export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** replaces the worker pool (tests) */
  analyze?: (bytes: Uint8Array, options: Partial<AnalyzerOptions>) => Promise<PoolOutcome>;
}

/** Runs the CLI; resolves to the exit status (0 all reported, 1 some file failed, 2 usage). Never rejects. */
export async function main(argv: string[], io: Partial<CliIO> = {}): Promise<number> {
  const full: CliIO = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    stdin: io.stdin ?? process.stdin,
    stdoutIsTTY: io.stdoutIsTTY ?? process.stdout.isTTY === true,
    stderrIsTTY: io.stderrIsTTY ?? process.stderr.isTTY === true,
    analyze: io.analyze,
  };
  // A closed stderr (2>&- or a dead log reader) must not crash the run either.
  full.stderr.on('error', () => {});
  const parsed = parseArgs(argv);
  switch (parsed.kind) {
    case 'help':
      full.stdout.write(parsed.text + '\n');
      return 0;
    case 'version': {
      const v = versions();
      full.stdout.write(`${PROGRAM} ${v.pkg} (analyzer ${v.analyzer})\n`);
      return 0;
    }
    case 'usage-error':
      full.stderr.write(`${PROGRAM}: ${parsed.message}\nTry '${PROGRAM} classify --help' for more information.\n`);
      return 2;
  }
  try {
    return await classify(parsed.args, full);
  } catch (e) {
    full.stderr.write(`${PROGRAM}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}

async function classify(args: CliArgs, io: CliIO): Promise<number> {
  const started = Date.now();
  const options: Partial<AnalyzerOptions> = { ...args.limits };
  if (args.password !== undefined) options.password = args.password;
  const stamp = { analyzerVersion: versions().analyzer, optionsHash: optionsHash(options) };
  const out = new Output(io.stdout);
  const progress = Progress.for(io.stderr, args.quiet, io.stderrIsTTY);
  const tally: Tally = { files: 0, pages: 0, needOcr: 0, cantTell: 0, failed: 0 };
  const say = (msg: string) => {
    progress.clear();
    io.stderr.write(`${PROGRAM}: ${msg}\n`);
  };

  let pool: AnalysisPool | undefined;
  const analyze =
    io.analyze ??
    ((bytes: Uint8Array, opts: Partial<AnalyzerOptions>) => {
      pool ??= new AnalysisPool(nodeWorkerFactory(), args.jobs, inThreadFallback, {
        log: (m) => say(m),
        // The analyzer may hold maxHeldBytes of decoded data plus the file itself; a worker still holding well past
        // that after a file has leaked or fragmented, and is replaced.
        maxWorkerBytes: 2 * (resolveOptions(opts).maxHeldBytes + args.maxBytes),
      });
      return pool.analyzeDetailed(bytes, opts);
    });

  // Reads are bounded to one per worker plus one ahead: --max-bytes × (jobs + 1) is the most file data held at once.
  const readSlots = new Semaphore(args.jobs + 1);
  // Reports finished out of order wait here for their turn; the window bounds how many wait.
  const window = Math.max(4, args.jobs * 4);
  const inflight: Promise<CliRecord | undefined>[] = [];
  let status = 0;

  const emit = async (rec: CliRecord | undefined) => {
    if (!rec || out.closed) return;
    const failed = rec.error && isFailure(rec.error.reason);
    tally.files++;
    if (failed) {
      status = 1;
      tally.failed++;
      say(`${escapeName(rec.file)}: ${rec.error!.message}`);
    } else {
      tally.pages += rec.pageCount;
      if (rec.needsOcr) tally.needOcr++;
      if (rec.error || rec.routeCounts.unknown > 0) tally.cantTell++;
    }
    if (args.json) {
      if (io.stdoutIsTTY) progress.clear();
      await out.writeChunks(jsonLine(rec));
    } else if (!failed) {
      if (io.stdoutIsTTY) progress.clear();
      await out.writeChunks(tableChunks(rec, args.pages));
    }
    // Flush per record so a reader (and `head`) sees each file as soon as it is done.
    await out.flush();
    progress.update(tally);
  };

  try {
    for await (const item of inputItems(args.paths, args.filesFrom, args.nul, io.stdin)) {
      if (out.closed) break;
      if (item.kind === 'notice') {
        say(item.message);
        continue;
      }
      let p: Promise<CliRecord | undefined>;
      if (item.kind === 'error') p = Promise.resolve(failureRecord(item.path, item.reason, item.message, stamp));
      else {
        const file = item.kind === 'stdin' ? '-' : item.path;
        await readSlots.acquire();
        p = analyzeOne(file, item.kind === 'stdin' ? readStdin(io.stdin, args.maxBytes) : readInputFile(item.path, args.maxBytes), options, stamp, analyze).finally(
          () => readSlots.release(),
        );
      }
      inflight.push(p);
      while (inflight.length >= window || (inflight.length > 0 && (await isSettled(inflight[0])))) await emit(await inflight.shift()!);
    }
    while (inflight.length > 0 && !out.closed) await emit(await inflight.shift()!);
  } finally {
    pool?.dispose();
  }
  await out.end();
  progress.clear();
  if (out.closed) {
    // The reader went away (`| head`): that is how pipelines stop early, not a failure.
    if (out.error) {
      io.stderr.write(`${PROGRAM}: cannot write the output: ${out.error.message}\n`);
      return 1;
    }
    return 0;
  }
  if (!args.json && !args.quiet) io.stderr.write(summaryLine(tally, Date.now() - started) + '\n');
  return status;
}

/** Reads, hashes and analyses one input; every failure becomes the file's record. Never rejects. */
async function analyzeOne(
  file: string,
  reading: Promise<ReadResult>,
  options: Partial<AnalyzerOptions>,
  stamp: { analyzerVersion: string; optionsHash: string },
  analyze: (bytes: Uint8Array, options: Partial<AnalyzerOptions>) => Promise<PoolOutcome>,
): Promise<CliRecord> {
  try {
    const read = await reading;
    if (!read.ok) return failureRecord(file, read.reason, read.message, stamp);
    const size = read.bytes.byteLength;
    const sha256 = createHash('sha256').update(read.bytes).digest('hex');
    // The pool transfers the bytes to the worker, which detaches them here: hash first.
    const outcome = await analyze(read.bytes, options);
    if (outcome.kind === 'cancelled') return failureRecord(file, 'internal-error', 'internal error: the analysis was cancelled', stamp, { sha256, size });
    if (outcome.kind === 'fault') {
      const why = outcome.report.error?.message ?? outcome.fault;
      return failureRecord(file, 'internal-error', `internal error: ${why}`, stamp, { sha256, size });
    }
    const base = fileRecord(file, outcome.report);
    return { file, sha256, size, ...stamp, ...withoutFile(base) };
  } catch (e) {
    return failureRecord(file, 'internal-error', `internal error: ${e instanceof Error ? e.message : String(e)}`, stamp);
  }
}

function withoutFile(r: FileRecord): Omit<FileRecord, 'file'> {
  const { file: _file, ...rest } = r;
  return rest;
}

type FailureReason = InputErrorReason | 'internal-error';

function isFailure(reason: string): reason is FailureReason {
  return reason === 'not-found' || reason === 'unreadable' || reason === 'not-regular-file' || reason === 'too-large' || reason === 'internal-error';
}

export function failureRecord(
  file: string,
  reason: FailureReason,
  message: string,
  stamp: { analyzerVersion: string; optionsHash: string },
  read: { sha256?: string; size?: number } = {},
): CliRecord {
  return {
    file,
    ...read,
    ...stamp,
    pageCount: 0,
    needsOcr: false,
    ocrPages: [],
    routeCounts: { text: 0, 'ocr-layer': 0, ocr: 0, blank: 0, review: 0, unknown: 0 },
    encryption: { encrypted: false },
    metadata: { info: {}, xmp: {}, hints: [] },
    error: { reason, message },
    notes: [],
    elapsedMs: 0,
    pages: [],
  };
}

/** The table for one file, a line at a time (a --pages table of a 100,000-page file is not one string either). */
function* tableChunks(rec: CliRecord, pages: boolean): Generator<string> {
  if (!pages || rec.pages.length <= 1000) {
    yield formatTable(rec as FileRecord, pages) + '\n';
    return;
  }
  const head = formatTable({ ...(rec as FileRecord), pages: [] }, true);
  yield head + '\n';
  for (let i = 0; i < rec.pages.length; i += 1000) {
    const part = formatTable({ ...(rec as FileRecord), pages: rec.pages.slice(i, i + 1000) }, true).split('\n');
    // drop the per-file heading and the column header, both already written
    const cut = part.findIndex((l) => l.startsWith('  page  route'));
    yield part.slice(cut + 1).join('\n') + '\n';
  }
}

/** Short hash of the options that decide a report: defaults merged with the user's, password excluded. */
export function optionsHash(options: Partial<AnalyzerOptions>): string {
  const { password: _password, ...resolved } = resolveOptions(options);
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(resolved).sort(([a], [b]) => (a < b ? -1 : 1))));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}

function isSettled(p: Promise<unknown>): Promise<boolean> {
  const marker = {};
  return Promise.race([p.then(() => true, () => true), Promise.resolve(marker).then(() => false)]);
}

class Semaphore {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((r) => this.waiting.push(r));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** Workers run this same module (the bundle spawns itself), marked by workerData. */
const WORKER_MARK = 'pdf-page-diagnostics:analysis-worker';

function nodeWorkerFactory(): () => AnalysisWorker {
  const script = new URL(import.meta.url);
  return () => {
    // The heap cap turns a runaway parse into a worker error (reported for that file); ArrayBuffers are bounded by
    // the pool's maxWorkerBytes instead. A larger young generation than V8's default for workers keeps the
    // allocation-heavy parser from spending its time in scavenges.
    const w = new Worker(script, { workerData: WORKER_MARK, resourceLimits: { maxOldGenerationSizeMb: 2048, maxYoungGenerationSizeMb: 48 } });
    return {
      postMessage: (msg, transfer) => w.postMessage(msg, transfer),
      onMessage: (cb) => void w.on('message', cb),
      onError: (cb) => {
        w.on('error', cb);
        w.on('exit', (code) => cb(new Error(`worker exited with code ${code}`)));
      },
      terminate: () => void w.terminate(),
    };
  };
}

/** Used only if no worker can start: analyses on the main thread (no watchdog then). */
function inThreadFallback(): AnalysisWorker {
  let cb: ((m: unknown) => void) | undefined;
  let dead = false;
  return {
    postMessage: (msg) =>
      setImmediate(() => {
        if (dead) return;
        const res = runRequest(msg);
        if (res && !dead) cb?.(res);
      }),
    onMessage: (c) => {
      cb = c;
      setImmediate(() => !dead && c({ type: 'ready' }));
    },
    onError: () => {},
    terminate: () => {
      dead = true;
    },
  };
}

if (!isMainThread && parentPort && workerData === WORKER_MARK) {
  workerLoop(parentPort);
} else if (isMainThread && process.argv[1] && /(?:cli\.js|main\.ts|pdf-page-diagnostics)$/.test(process.argv[1])) {
  // EPIPE on stdout is handled by Output; anything escaping main() is an internal error, never status 0.
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`${PROGRAM}: internal error: ${String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

export { pageRanges };
