/**
 * pdf-page-diagnostics classify FILE|DIR… [--json] [--pages] [--jobs N]
 * Prints a table per file (or one JSON object per file per line). Exits non-zero only on usage errors.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { analyzePdfSync } from '../analyzer/analyze';
import { type FileRecord, fileRecord, pageRanges } from '../analyzer/serialize';
import { formatTable } from './table';

const USAGE = `usage: pdf-page-diagnostics classify FILE|DIR... [--json] [--pages] [--jobs N] [--password P]

  --json        one JSON object per file per line (the pipeline format)
  --pages       with the table: one line per page
  --jobs N      analyse N files at once in worker threads (default 1)
  --password P  try this password after the empty one
  --max-bytes N refuse files larger than N bytes (default 512 MiB)`;

interface CliArgs {
  paths: string[];
  json: boolean;
  pages: boolean;
  jobs: number;
  password?: string;
  maxBytes: number;
}

export function parseArgs(argv: string[]): CliArgs | string {
  if (argv[0] !== 'classify') return argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' ? USAGE : `unknown command: ${argv[0]}\n${USAGE}`;
  const out: CliArgs = { paths: [], json: false, pages: false, jobs: 1, maxBytes: 512 * 1024 * 1024 };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') out.json = true;
    else if (a === '--pages') out.pages = true;
    else if (a === '--jobs' || a === '--max-bytes') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) return `${a} needs a positive whole number\n${USAGE}`;
      if (a === '--jobs') out.jobs = Math.min(n, 64);
      else out.maxBytes = n;
    } else if (a === '--password') {
      if (i + 1 >= argv.length) return `--password needs a value\n${USAGE}`;
      out.password = argv[++i];
    } else if (a.startsWith('--')) return `unknown option: ${a}\n${USAGE}`;
    else out.paths.push(a);
  }
  if (out.paths.length === 0) return `no files given\n${USAGE}`;
  return out;
}

/** Expands directories into the PDFs below them (sorted, symlink loops avoided by not following links). */
function collectFiles(paths: string[]): { files: string[]; fromDir: boolean; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  let fromDir = false;
  const walk = (dir: string, depth: number) => {
    if (depth > 64) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      missing.push(dir);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && /\.pdf$/i.test(e.name)) files.push(p);
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) {
      fromDir = true;
      walk(p, 0);
    } else files.push(p);
  }
  return { files, fromDir, missing };
}

function analyzeFile(file: string, password: string | undefined, maxBytes: number): FileRecord {
  let bytes: Uint8Array;
  try {
    const size = statSync(file).size;
    if (size > maxBytes) return errorRecord(file, `file is ${size} bytes, above the limit of ${maxBytes}`);
    bytes = new Uint8Array(readFileSync(file));
  } catch (e) {
    return errorRecord(file, `cannot read file: ${(e as Error).message}`);
  }
  return fileRecord(file, analyzePdfSync(bytes, password !== undefined ? { password } : undefined));
}

function errorRecord(file: string, message: string): FileRecord {
  return {
    file,
    pageCount: 0,
    needsOcr: false,
    ocrPages: [],
    routeCounts: { text: 0, 'ocr-layer': 0, ocr: 0, blank: 0, review: 0, unknown: 0 },
    encryption: { encrypted: false },
    metadata: { info: {}, xmp: {}, hints: [] },
    error: { reason: 'damaged', message },
    notes: [],
    elapsedMs: 0,
    pages: [],
  };
}

async function runPool(files: string[], args: CliArgs, emit: (i: number, r: FileRecord) => void): Promise<void> {
  if (args.jobs <= 1 || files.length <= 1) {
    files.forEach((f, i) => emit(i, analyzeFile(f, args.password, args.maxBytes)));
    return;
  }
  const self = fileURLToPath(import.meta.url);
  let next = 0;
  const workers = Array.from({ length: Math.min(args.jobs, files.length) }, () => new Worker(self, { workerData: null }));
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((done) => {
          let current = -1;
          const feed = () => {
            if (next >= files.length) {
              void w.terminate();
              done();
              return;
            }
            current = next++;
            w.postMessage({ file: files[current], password: args.password, maxBytes: args.maxBytes });
          };
          w.on('message', (r: FileRecord) => {
            emit(current, r);
            feed();
          });
          w.on('error', (e) => {
            if (current >= 0) emit(current, errorRecord(files[current], `worker failed: ${e.message}`));
            done();
          });
          feed();
        }),
    ),
  );
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    const isHelp = args === USAGE;
    (isHelp ? process.stdout : process.stderr).write(args + '\n');
    return isHelp ? 0 : 2;
  }
  const { files, fromDir, missing } = collectFiles(args.paths);
  for (const m of missing) {
    const r = errorRecord(resolve(m), 'no such file or directory');
    if (args.json) process.stdout.write(JSON.stringify(r) + '\n');
    else process.stdout.write(`${m}: can't tell: no such file or directory\n`);
  }
  let done = 0;
  // A live progress line on a terminal; in a pipeline's log, a line every 100 files.
  const tty = process.stderr.isTTY === true;
  const progress = fromDir;
  // Results are printed in input order even when workers finish out of order.
  const pending = new Map<number, FileRecord>();
  let printed = 0;
  const emit = (i: number, r: FileRecord) => {
    pending.set(i, r);
    done++;
    if (progress && tty) process.stderr.write(`\r${done}/${files.length} files`);
    else if (progress && (done % 100 === 0 || done === files.length)) process.stderr.write(`${done}/${files.length} files\n`);
    while (pending.has(printed)) {
      const rec = pending.get(printed)!;
      pending.delete(printed);
      printed++;
      process.stdout.write(args.json ? JSON.stringify(rec) + '\n' : formatTable(rec, args.pages) + '\n');
    }
  };
  await runPool(files, args, emit);
  if (progress && tty) process.stderr.write('\n');
  if (!args.json && files.length > 1) {
    process.stdout.write(`${files.length} files analysed\n`);
  }
  return 0;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (m: { file: string; password?: string; maxBytes: number }) => {
    port.postMessage(analyzeFile(m.file, m.password, m.maxBytes));
  });
} else if (process.argv[1] && (process.argv[1].endsWith('cli.js') || process.argv[1].endsWith('main.ts') || process.argv[1].endsWith('pdf-page-diagnostics'))) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`internal error: ${String(e)}\n`);
      process.exitCode = 0;
    },
  );
}

export { pageRanges };
