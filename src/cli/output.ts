/**
 * Writing records to standard output one piece at a time. A report with thousands of boxes on thousands of pages is
 * larger than the longest string V8 can build, so records are serialised as a stream of chunks, never as one string,
 * and written with backpressure so a slow reader holds the batch instead of the heap growing.
 */
import type { Writable } from 'node:stream';

/**
 * JSON.stringify's output for `value`, in pieces. Subtrees made only of primitives are stringified whole (fast); larger
 * structures are walked so no piece grows with the size of the record. Same rules as JSON.stringify for undefined,
 * functions, non-finite numbers and toJSON().
 */
export function* jsonChunks(value: unknown): Generator<string> {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (value === null || typeof value !== 'object' || isFlat(value)) {
    const s = JSON.stringify(value);
    yield s === undefined ? 'null' : s;
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      const v: unknown = value[i];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') yield 'null';
      else yield* jsonChunks(v);
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    yield (first ? '' : ',') + JSON.stringify(key) + ':';
    first = false;
    yield* jsonChunks(v);
  }
  yield '}';
}

/** An array or object whose members are all primitives and few enough to stringify in one go. */
function isFlat(v: object): boolean {
  if (Array.isArray(v)) {
    if (v.length > 1024) return false;
    for (const x of v) if (x !== null && typeof x === 'object') return false;
    return true;
  }
  let n = 0;
  for (const k in v) {
    if (++n > 256) return false;
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === 'object') return false;
  }
  return true;
}

/**
 * Standard output with backpressure and a quiet end on a closed pipe: `closed` turns true on EPIPE (the reader went
 * away, e.g. `| head`) and every later write is dropped, so the caller can stop the batch and exit without a trace.
 */
export class Output {
  closed = false;
  private failure: Error | undefined;
  private buf = '';

  constructor(private readonly stream: Writable) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      this.closed = true;
      if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') this.failure = e;
    });
  }

  /** an error other than a closed pipe (disk full, …), to report once the run ends */
  get error(): Error | undefined {
    return this.failure;
  }

  /** Writes chunks, flushing every ~64 KiB and waiting for the stream to drain when it asks to. */
  async writeChunks(chunks: Iterable<string>): Promise<void> {
    for (const c of chunks) {
      if (this.closed) return;
      this.buf += c;
      if (this.buf.length >= 65536) await this.flush();
    }
  }

  async write(s: string): Promise<void> {
    await this.writeChunks([s]);
  }

  async flush(): Promise<void> {
    if (this.closed || this.buf === '') return;
    const s = this.buf;
    this.buf = '';
    let ok: boolean;
    try {
      ok = this.stream.write(s);
    } catch {
      this.closed = true;
      return;
    }
    if (!ok && !this.closed) await this.drained();
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
      this.stream.on('close', done);
    });
  }

  /** Resolves once everything written has been handed to the OS (or the stream failed). */
  async end(): Promise<void> {
    await this.flush();
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      // stdout is never really ended (process.stdout.end() throws on some platforms); an empty write calls back once
      // the queue before it is flushed.
      try {
        this.stream.write('', () => resolve());
      } catch {
        resolve();
      }
    });
  }
}

/** A record as JSON chunks followed by a newline: one line per file. */
export function* jsonLine(record: unknown): Generator<string> {
  yield* jsonChunks(record);
  yield '\n';
}
