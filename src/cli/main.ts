/**
 * pdf-page-diagnostics classify [OPTIONS] PATH... — a report per file, as a table or one JSON object per line.
 * Files are analysed in the same worker pool as the extension's (src/shared/pool.ts): a file that hangs or crashes its
 * worker is stopped by the pool's watchdog and reported, and the batch goes on. See `classify --help` for exit codes.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { resolveOptions, type AnalyzerOptions } from '../analyzer/options';
import { pageRanges } from '../analyzer/serialize';
import { nodeThreadWorker } from '../shared/nodeThreadWorker';
import { AnalysisPool, type AnalysisWorker, type PoolOutcome } from '../shared/pool';
import { noPages } from '../shared/report';
import { PROGRAM, parseArgs, type CliArgs } from './args';
import { inputItems, readStdin, type InputErrorReason } from './inputs';
import { merge } from './merge';
import { Output } from './output';
import { openPart, sameContent, sameMetadata, type Candidate, type PartWriter } from './parts';
import { Progress, summaryLine, type Tally } from './progress';
import { buildRecord, headOf, recordJson, renderRecord, type CliRecord, type RecordHead, type RenderMode } from './render';
import { ListDigest, pathHashes, resolveShard, type ShardSource } from './shard';
import { escapeName } from './table';
import { versions } from './version';
import { handle, workerLoop, type ReadErrorReply, type RenderRequest } from './worker';

export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** replaces the worker pool (tests) */
  analyze?: Analyze;
  /** the environment the shard variables are read from (default process.env) */
  env?: NodeJS.ProcessEnv;
}

type Analyze = (bytes: Uint8Array, options: Partial<AnalyzerOptions>, extra: RenderRequest) => Promise<PoolOutcome>;

/** A file done: what the summary needs, the text for standard output, and whether it failed (status 1). */
interface Done {
  file: string;
  head: RecordHead;
  text: Iterable<string>;
  failed: boolean;
  /** --resume: an earlier run's record stands for this entry; nothing to write */
  kept?: Candidate;
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
    env: io.env ?? process.env,
  };
  // A closed stderr (2>&- or a dead log reader) must not crash the run, nor `--help | head` on stdout; classify's
  // Output keeps its own account of stdout's errors.
  full.stderr.on('error', () => {});
  full.stdout.on('error', () => {});
  const parsed = parseArgs(argv, full.env);
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
      full.stderr.write(`${PROGRAM}: ${parsed.message}\nTry '${PROGRAM} ${parsed.command ?? 'classify'} --help' for more information.\n`);
      return 2;
    case 'merge':
      try {
        return await merge(parsed.args, full, PROGRAM);
      } catch (e) {
        full.stderr.write(`${PROGRAM} merge: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
        return 1;
      }
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
  if (args.filesFrom !== undefined && args.filesFrom !== '-') {
    // Like tar -T: a list that is not there is a mistake in the command, not a file to report on.
    const problem = await stat(args.filesFrom).then(
      (st) => (st.isDirectory() ? 'it is a directory' : undefined),
      (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? 'no such file or directory' : e.message),
    );
    if (problem) {
      io.stderr.write(`${PROGRAM}: cannot read the path list ${escapeName(args.filesFrom)}: ${problem}\n`);
      return 2;
    }
  }
  const options: Partial<AnalyzerOptions> = { ...args.limits };
  if (args.password !== undefined) options.password = args.password;
  if (args.layerQuality) options.layerQuality = true;
  if (args.textLayer) options.textLayer = true;
  const stamp = { analyzerVersion: versions().analyzer, optionsHash: optionsHash(options) };
  const usage = (message: string) => {
    io.stderr.write(`${PROGRAM}: ${message}\nTry '${PROGRAM} classify --help' for more information.\n`);
    return 2;
  };
  const sharding = resolveShard(args.shard, args.shardCount, io.env ?? process.env);
  if (!sharding.ok) return usage(sharding.message);
  const source: ShardSource | undefined = sharding.value;
  if (source && args.paths.includes('-')) return usage(`standard input ('-') cannot be sharded (shard from ${source.from})`);
  const shard = source?.shard ?? (args.out !== undefined ? { index: 0, count: 1 } : undefined);
  let part: PartWriter | undefined;
  if (args.out !== undefined && shard) {
    const opened = await openPart(args.out, shard, stamp, args.resume);
    if (!opened.ok) return opened.usage ? usage(opened.message) : (io.stderr.write(`${PROGRAM}: ${opened.message}\n`), 1);
    if (opened.alreadyDone) {
      if (!args.quiet)
        io.stderr.write(
          `${PROGRAM}: shard ${shard.index}/${shard.count} is already complete in ${opened.writer.names.part} (${opened.alreadyDone.records} records); nothing to do\n`,
        );
      return 0;
    }
    part = opened.writer;
    try {
      part.start();
    } catch (e) {
      io.stderr.write(`${PROGRAM}: cannot write ${part.names.partial}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
  }
  if (shard && (source || part) && !args.quiet) {
    const resumed =
      part && part.priorLines > 0
        ? `; resuming ${part.priorLines} records${part.tornBytes ? ` (a torn last line of ${part.tornBytes} bytes dropped)` : ''}`
        : '';
    const from = source ? `from ${source.from}` : '(no shard given: the whole list)';
    io.stderr.write(`${PROGRAM}: shard ${shard.index}/${shard.count} ${from}${resumed}\n`);
  }
  const listDigest = new ListDigest();
  const shardDigest = new ListDigest();
  const mode: RenderMode = args.json || part ? 'json' : args.pages ? 'table-pages' : 'table';
  const out = new Output(io.stdout);
  const progress = Progress.for(io.stderr, args.quiet, io.stderrIsTTY);
  const tally: Tally = { files: 0, pages: 0, needOcr: 0, cantTell: 0, failed: 0 };
  const say = (msg: string) => {
    progress.clear();
    io.stderr.write(`${PROGRAM}: ${msg}\n`);
  };

  let pool: AnalysisPool | undefined;
  const analyze: Analyze =
    io.analyze ??
    ((bytes, opts, extra) => {
      pool ??= new AnalysisPool(nodeWorkerFactory(), args.jobs, inThreadFallback, {
        log: (m) => say(m),
        // The analyzer may hold maxHeldBytes of decoded data plus the file itself; a worker still holding well past
        // that after a file has leaked or fragmented, and is replaced.
        maxWorkerBytes: 2 * (resolveOptions(opts).maxHeldBytes + args.maxBytes),
      });
      return pool.analyzeDetailed(bytes, opts, undefined, extra as unknown as Record<string, unknown>);
    });

  // Files finished out of order wait here for their turn; the window bounds how many wait. Reading the inputs and
  // writing the results run side by side, so a slow producer (`find … -print0 |`) does not hold finished records back.
  const window = Math.max(4, args.jobs * 4);
  const queue: Promise<Done>[] = [];
  let status = 0;
  let reading = true;
  let wakeWriter: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const nudge = (w: (() => void) | undefined) => w?.();

  let resumed = 0;
  let failedRecords = 0;
  let partError: string | undefined;
  const emit = async (d: Done) => {
    if (d.kept) {
      part?.keep(d.kept);
      resumed++;
      return;
    }
    tally.files++;
    if (d.failed) {
      status = 1;
      tally.failed++;
      say(`${escapeName(d.file)}: ${d.head.error?.message ?? 'failed'}`);
    } else {
      tally.pages += d.head.pageCount;
      if (d.head.needsOcr) tally.needOcr++;
      if (d.head.error || d.head.unknownPages > 0) tally.cantTell++;
      if (d.head.reocrPages !== undefined) tally.reocr = (tally.reocr ?? 0) + d.head.reocrPages;
    }
    if (part) {
      if (d.failed) failedRecords++;
      try {
        part.append(d.text);
      } catch (e) {
        // disk full, quota, a lost mount: stop reading inputs, keep what is written for --resume
        partError ??= e instanceof Error ? e.message : String(e);
        out.closed = true;
        return;
      }
      progress.update(tally);
      return;
    }
    if (io.stdoutIsTTY) progress.clear();
    await out.writeChunks(d.text);
    // Flush per file so a reader (and `head`) sees each file as soon as it is done.
    await out.flush();
    progress.update(tally);
  };

  const reader = (async () => {
    try {
      for await (const item of inputItems(args.paths, args.filesFrom, args.nul, io.stdin, part !== undefined || source !== undefined)) {
        if (out.closed) break;
        if (item.kind === 'notice') {
          say(item.message);
          continue;
        }
        if (shard && item.kind !== 'stdin') {
          // Every task digests the whole list, so merge can check that the shards add up to it.
          const [h1, h2] = pathHashes(item.path);
          listDigest.addHashes(h1, h2);
          if (h1 % shard.count !== shard.index) continue;
          shardDigest.addHashes(h1, h2);
        }
        while (queue.length >= window && !out.closed) await new Promise<void>((r) => (wakeReader = r));
        if (out.closed) break;
        const run = () =>
          item.kind === 'error'
            ? Promise.resolve(failed(failureRecord(item.path, item.reason, item.message, stamp), mode))
            : analyzeOne(item.kind === 'stdin' ? undefined : item.path, io.stdin, args.maxBytes, options, stamp, mode, analyze);
        const candidate = part && item.kind === 'file' ? part.candidates.get(item.path)?.shift() : undefined;
        if (candidate && part && item.kind === 'file') {
          const path = item.path;
          const since = part.firstStartedAt;
          const verdict = args.fastResume && since !== undefined ? sameMetadata(path, candidate, since) : sameContent(path, candidate);
          queue.push(
            verdict.then((v): Promise<Done> =>
              v === 'same' ? Promise.resolve({ file: path, head: EMPTY_HEAD, text: [], failed: false, kept: candidate }) : run(),
            ),
          );
        } else queue.push(run());
        nudge(wakeWriter);
      }
    } finally {
      reading = false;
      nudge(wakeWriter);
    }
  })();

  try {
    for (;;) {
      if (out.closed) break;
      if (queue.length === 0) {
        if (!reading) break;
        await new Promise<void>((r) => (wakeWriter = r));
        continue;
      }
      const done = await queue[0];
      void queue.shift(); // the head, settled: awaited just above
      nudge(wakeReader);
      await emit(done);
    }
    if (out.closed) {
      // Nobody reads the results any more: stop reading inputs too (a path list on stdin may never end).
      nudge(wakeReader);
      if (reading && (args.filesFrom === '-' || args.paths.includes('-'))) io.stdin.destroy();
    }
    await reader;
  } finally {
    pool?.dispose();
    if (out.closed) part?.close();
  }
  if (part && partError !== undefined) {
    part.close();
    progress.clear();
    io.stderr.write(`${PROGRAM}: cannot write ${part.names.partial}: ${partError}; what is written stays for --resume\n`);
    return 1;
  }
  if (part && shard) {
    let marker;
    try {
      marker = part.finish({
        ...stamp,
        list: { entries: listDigest.entries, hash: listDigest.hash },
        shardList: { entries: shardDigest.entries, hash: shardDigest.hash },
        failed: failedRecords,
      });
    } catch (e) {
      part.close();
      io.stderr.write(`${PROGRAM}: cannot finish ${part.names.part}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
    progress.clear();
    if (!args.quiet)
      io.stderr.write(
        `${summaryLine(tally, Date.now() - started)}${resumed ? ` · ${resumed} kept from the earlier run` : ''}\n` +
          `${PROGRAM}: shard ${shard.index}/${shard.count} complete: ${part.names.part} (${marker.records} records of ${listDigest.entries} in the list, ${marker.bytes} bytes)\n`,
      );
    return status;
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

const EMPTY_HEAD: RecordHead = { pageCount: 0, needsOcr: false, unknownPages: 0 };

/** A failed file: its JSON line in JSON mode; in table mode only the message on standard error. */
function failed(rec: CliRecord, mode: RenderMode): Done {
  return { file: rec.file, head: headOf(rec), text: mode === 'json' ? recordJson(rec) : [], failed: true };
}

/**
 * Analyses one input: a path, read by the worker, or standard input (path undefined), read here within maxBytes.
 * Every failure becomes the file's record. Never rejects.
 */
async function analyzeOne(
  path: string | undefined,
  stdin: Readable,
  maxBytes: number,
  options: Partial<AnalyzerOptions>,
  stamp: { analyzerVersion: string; optionsHash: string },
  mode: RenderMode,
  analyze: Analyze,
): Promise<Done> {
  const file = path ?? '-';
  let digest: { sha256?: string; size?: number } = {};
  try {
    // A fresh empty array per request: the pool transfers (detaches) what it is given.
    let bytes: Uint8Array = new Uint8Array(0);
    if (path === undefined) {
      const read = await readStdin(stdin, maxBytes);
      if (!read.ok) return failed(failureRecord(file, read.reason, read.message, stamp), mode);
      bytes = read.bytes;
      digest = { size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
    const outcome = await analyze(bytes, options, { render: { mode, stamp: { file, ...stamp } }, ...(path !== undefined ? { path, maxBytes } : {}) });
    const reply = (outcome.kind === 'report' ? outcome.reply : undefined) as
      (Partial<ReadErrorReply> & { text?: unknown; head?: RecordHead; digest?: { sha256: string; size: number } }) | undefined;
    if (reply?.readError) return failed(failureRecord(file, reply.readError.reason, reply.readError.message, stamp), mode);
    digest = reply?.digest ?? digest;
    if (outcome.kind === 'cancelled')
      return failed(failureRecord(file, 'internal-error', 'internal error: the analysis was cancelled', stamp, digest), mode);
    if (outcome.kind === 'fault') {
      return failed(failureRecord(file, 'internal-error', `internal error: ${outcome.report.error?.message ?? outcome.fault}`, stamp, digest), mode);
    }
    if (reply && Array.isArray(reply.text) && reply.head) return { file, head: reply.head, text: reply.text as string[], failed: false };
    // An analysis that is not our worker's (tests) returns the bare report: render it here.
    const rec = buildRecord({ file, ...digest, ...stamp }, outcome.report);
    return { file, head: headOf(rec), text: renderRecord(rec, mode), failed: false };
  } catch (e) {
    return failed(failureRecord(file, 'internal-error', `internal error: ${e instanceof Error ? e.message : String(e)}`, stamp, digest), mode);
  }
}

type FailureReason = InputErrorReason | 'internal-error';

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
    analyzerVersion: stamp.analyzerVersion,
    optionsHash: stamp.optionsHash,
    ...noPages(),
    error: { reason, message },
    notes: [],
    elapsedMs: 0,
    pages: [],
  };
}

/** Short hash of the options that decide a report: defaults merged with the user's, password excluded. */
export function optionsHash(options: Partial<AnalyzerOptions>): string {
  const { password: _password, ...resolved } = resolveOptions(options);
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(resolved).sort(([a], [b]) => (a < b ? -1 : 1))));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 12);
}

/** Workers run this same module (the bundle spawns itself), marked by workerData. */
const WORKER_MARK = 'pdf-page-diagnostics:analysis-worker';

function nodeWorkerFactory(): () => AnalysisWorker {
  const script = new URL(import.meta.url);
  return () => nodeThreadWorker(script, { workerData: WORKER_MARK });
}

/** Used only if no worker can start: analyses on the main thread (no watchdog then). */
function inThreadFallback(): AnalysisWorker {
  let cb: ((m: unknown) => void) | undefined;
  let dead = false;
  return {
    postMessage: (msg) =>
      setImmediate(() => {
        if (dead) return;
        const res = handle(msg);
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

export { pageRanges, type CliRecord };
