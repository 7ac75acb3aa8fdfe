/** Command-line parsing for the CLI (node:util parseArgs), its help texts and the `--limit` mapping. */
import { parseArgs as nodeParseArgs } from 'node:util';
import { DEFAULT_OPTIONS, type AnalyzerOptions } from '../analyzer/options';
import { shardEnvLine } from './shard';

export const PROGRAM = 'pdf-page-diagnostics';

export const MAIN_USAGE = `usage: ${PROGRAM} classify [OPTIONS] [PATH...]
       ${PROGRAM} merge DIR [-o FILE] [--csv]
       ${PROGRAM} --version | --help

Tells for every page of a PDF whether its text can be read from the file or the page must go to OCR.

commands:
  classify    analyse PDFs and print a report per file ('${PROGRAM} classify --help')
  merge       check the parts of a sharded run (classify --out DIR) and join them ('${PROGRAM} merge --help')`;

export const MERGE_USAGE = `usage: ${PROGRAM} merge DIR [OPTIONS]

Checks the parts that sharded runs wrote with 'classify --out DIR' and joins them into one output: the records on
standard output (or -o FILE), a summary on standard error. Records come shard by shard, each part in the order its
task wrote them: input order, except that files a resumed task had to redo come after the records it kept.

The check: every shard 0…N−1 has its part and done marker; each part has the records, bytes, analyzer and options
its marker names; every record sits in the shard its path hashes to; and the shards' list digests (count and hash
of the paths, which each task computed over the whole list) add up to the list's: every input exactly once, none
missing, none twice. With --files-from the parts are also checked against that list, and missing or extra paths are
named. Nothing is written when the check fails (-o FILE is written to FILE.tmp-<pid> and renamed once complete;
a device or FIFO given as FILE is written in place).

options:
  -o, --output FILE       write the records to FILE instead of standard output
      --csv               CSV, one row per page (a row for a file without pages), instead of JSON lines
  -T, --files-from FILE   the work list the tasks were given ('-' for standard input): name what is missing or extra
  -0, --null              paths in --files-from are NUL-separated
  -q, --quiet             no summary
  -h, --help              this help

exit status:
  0  the check passed and the output is written
  1  the check failed (what is wrong goes to standard error) or a part could not be read
  2  usage error`;

const CLASSIFY_TEMPLATE = `usage: ${PROGRAM} classify [OPTIONS] PATH...
       ${PROGRAM} classify [OPTIONS] --files-from FILE|-

PATH is a PDF, a directory (searched for *.pdf, links not followed) or '-' for one PDF on standard input.
Reports come out in input order, one per file.

options:
      --json              one JSON object per file per line (the pipeline format)
  -p, --pages             with the table: one line per page
  -j, --jobs N            files analysed at once, each in a worker (default 1, at most 64)
  -T, --files-from FILE   read paths from FILE ('-' for standard input), one per line
  -0, --null              paths in --files-from are NUL-separated (find -print0)
      --max-bytes N       refuse inputs larger than N bytes; suffixes K, M, G (default 512M); stdin included
  -P, --password P        try this password after the empty one
  -L, --limit NAME=VALUE  set an analyzer limit or threshold, e.g. --limit timeBudgetMs=5000 (repeatable)
      --layer-quality     score the text layer of ocr-layer and text pages, and of ocr pages with a few hidden
                          characters over the scan (layerQuality in --json, a 'layer'
                          column with -p, the pages to re-OCR per file and in the summary); it decodes each scan
                          image, so it costs time: off by default
      --text-layer        with --json: each page's text layer (glyph runs with boxes, reading-order text)
  -q, --quiet             no progress and no summary on standard error
  -h, --help              this help
  -V, --version           the program's and the analyzer's versions
  --                      everything after is a path

sharded runs (one task of a batch engine's array; see 'merge'):
      --shard I/N         take only the inputs of shard I of N (0-based). A file's shard is a stable hash of its
                          path (FNV-1a of the UTF-8 bytes, MurmurHash3 finish, mod N), not its position: every task
                          may enumerate the list in its own order (find on another node, a regenerated list) and each
                          file still falls in exactly one shard; a path listed twice lands twice in the same one.
                          Shard sizes vary by about the square root of the files per shard.
      --shard-count N     the number of shards when the index comes from the environment (below)
      --out DIR           write this shard's records to DIR/part-<I>-of-<N>.jsonl instead of standard output:
                          appended and flushed as each file is done to part-….jsonl.partial, renamed once the shard is
                          complete (after fsync), then a done marker part-….done.json (records, bytes, analyzer and
                          options hash, list digest). Every input gets a record, unreadable ones with 'error'.
                          With --shard or --out, --files-from entries are files taken as given (no stat per entry,
                          no directory expansion: a directory there gets an error record), as each task reads the
                          whole list
      --resume            with --out: keep the records an interrupted run of this shard left (its torn last line is
                          dropped) for the files whose size and sha256 are unchanged and whose analyzer and options
                          hash are this run's; analyse only the rest. Each kept file is read once more to hash it.
      --fast-resume       --resume comparing size and modification time instead of content (kept if modified at
                          least 2 s before the shard first started): a stat per file instead of a read, but it trusts
                          mtimes, so a same-size replacement with an old mtime (cp -p, rsync -t, clock skew between
                          nodes) keeps a stale record

  Without --shard the shard comes from the first of these that is set (two set is a usage error):
    SLURM_ARRAY_TASK_ID   with --shard-count N: the id is the 0-based index (submit --array=0-(N−1)); resubmitting
                          a few failed ids (sbatch --array=3,5) then keeps them right. Without it: (ID − MIN) / STEP of
                          SLURM_ARRAY_TASK_COUNT, from SLURM_ARRAY_TASK_MIN, _MAX, _STEP; an irregular --array list
                          (3,5,9) is refused
    AWS_BATCH_JOB_ARRAY_INDEX   0-based; needs --shard-count (the array size)
    JOB_COMPLETION_INDEX        Kubernetes Indexed Job, 0-based; needs --shard-count (.spec.completions)
  An index at or above the count, a missing count or an unusable value is a usage error, never a full run.
  --shard 0/1 runs everything whatever the environment says. The shard used is named on standard error.
  \${SHARD_ENV}

Progress goes to standard error, only when it is a terminal. In table mode a summary closes the run on standard error.

exit status:
  0  every file got a report (a report may say "can't tell": encrypted, damaged, not a PDF)
  1  some file could not be read (missing, unreadable, not a regular file, larger than --max-bytes)
     or hit an internal error; it still has its own record and the other files were analysed
  2  usage error (unknown option, bad value, no input, a --files-from list that cannot be opened, a shard that
     does not fit its environment, --out holding another shard count or, without --resume, this shard already)
With --out, status 0/1 is as above once the shard is complete; a shard found complete by --resume exits 0.
A closed standard output (e.g. '| head') ends the run quietly with status 0.

limits and thresholds (--limit NAME=VALUE, VALUE a non-negative number; every name and what it bounds is in
README.md, "Limits"):
${Object.entries(DEFAULT_OPTIONS)
  .map(([k, v]) => `  ${k} (default ${v})`)
  .join('\n')}`;

/** classify --help, with what this environment's shard variables give. */
export function classifyUsage(env: NodeJS.ProcessEnv = process.env): string {
  return CLASSIFY_TEMPLATE.replace('${SHARD_ENV}', shardEnvLine(env));
}

export const CLASSIFY_USAGE = classifyUsage({});

export interface CliArgs {
  paths: string[];
  json: boolean;
  pages: boolean;
  jobs: number;
  password?: string;
  maxBytes: number;
  filesFrom?: string;
  nul: boolean;
  quiet: boolean;
  limits: Partial<AnalyzerOptions>;
  /** --layer-quality */
  layerQuality: boolean;
  /** --text-layer */
  textLayer: boolean;
  /** --shard I/N as given (resolved against the environment by the run) */
  shard?: string;
  /** --shard-count N */
  shardCount?: number;
  /** --out DIR */
  out?: string;
  /** --resume (also set by --fast-resume) */
  resume: boolean;
  /** --fast-resume */
  fastResume: boolean;
}

export interface MergeArgs {
  dir: string;
  output?: string;
  csv: boolean;
  filesFrom?: string;
  nul: boolean;
  quiet: boolean;
}

/** What the command line asks for: a run, a text to print (help, version), or a usage error. */
export type Parsed =
  | { kind: 'run'; args: CliArgs }
  | { kind: 'merge'; args: MergeArgs }
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string; command?: 'classify' | 'merge' };

export const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

const OPTIONS = {
  json: { type: 'boolean' },
  pages: { type: 'boolean', short: 'p' },
  jobs: { type: 'string', short: 'j' },
  'files-from': { type: 'string', short: 'T' },
  null: { type: 'boolean', short: '0' },
  'max-bytes': { type: 'string' },
  password: { type: 'string', short: 'P' },
  limit: { type: 'string', short: 'L', multiple: true },
  quiet: { type: 'boolean', short: 'q' },
  'layer-quality': { type: 'boolean' },
  'text-layer': { type: 'boolean' },
  shard: { type: 'string' },
  'shard-count': { type: 'string' },
  out: { type: 'string' },
  resume: { type: 'boolean' },
  'fast-resume': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

const MERGE_OPTIONS = {
  output: { type: 'string', short: 'o' },
  csv: { type: 'boolean' },
  'files-from': { type: 'string', short: 'T' },
  null: { type: 'boolean', short: '0' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Parsed {
  const first = argv[0];
  if (first === undefined) return usageError('no command given');
  if (first === '-h' || first === '--help') return { kind: 'help', text: MAIN_USAGE };
  if (first === '-V' || first === '--version') return { kind: 'version' };
  if (first === 'merge') return parseMerge(argv.slice(1));
  if (first !== 'classify') return usageError(`unknown command: ${first}${hint(first, ['classify', 'merge'])}`);
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    const r = nodeParseArgs({ args: argv.slice(1), options: OPTIONS, allowPositionals: true, strict: true });
    values = r.values;
    positionals = r.positionals;
  } catch (e) {
    return usageError(explainParseError(e, OPTIONS));
  }
  if (values.help) return { kind: 'help', text: classifyUsage(env) };
  if (values.version) return { kind: 'version' };
  const out: CliArgs = {
    paths: positionals,
    json: !!values.json,
    pages: !!values.pages,
    jobs: 1,
    maxBytes: DEFAULT_MAX_BYTES,
    nul: !!values.null,
    quiet: !!values.quiet,
    limits: {},
    layerQuality: !!values['layer-quality'],
    textLayer: !!values['text-layer'],
    resume: !!values.resume || !!values['fast-resume'],
    fastResume: !!values['fast-resume'],
  };
  if (typeof values.jobs === 'string') {
    const n = wholeNumber(values.jobs);
    if (n === undefined || n < 1) return usageError(`--jobs needs a positive whole number, not '${values.jobs}'`);
    out.jobs = Math.min(n, 64);
  }
  if (typeof values['max-bytes'] === 'string') {
    const n = byteSize(values['max-bytes']);
    if (n === undefined || n < 1)
      return usageError(`--max-bytes needs a positive size in bytes (suffix K, M or G allowed), not '${values['max-bytes']}'`);
    out.maxBytes = n;
  }
  if (typeof values.password === 'string') out.password = values.password;
  if (typeof values['files-from'] === 'string') out.filesFrom = values['files-from'];
  if (out.nul && out.filesFrom === undefined) return usageError('-0/--null only applies to --files-from');
  for (const spec of (values.limit as string[] | undefined) ?? []) {
    const r = parseLimit(spec);
    if (typeof r === 'string') return usageError(r);
    (out.limits as Record<string, number>)[r.name] = r.value;
  }
  if (out.paths.length === 0 && out.filesFrom === undefined) return usageError('no files given');
  if (typeof values.shard === 'string') out.shard = values.shard;
  if (typeof values['shard-count'] === 'string') {
    const n = wholeNumber(values['shard-count']);
    if (n === undefined || n < 1) return usageError(`--shard-count needs a positive whole number, not '${values['shard-count']}'`);
    out.shardCount = n;
  }
  if (typeof values.out === 'string') {
    if (values.out === '') return usageError('--out needs a directory');
    out.out = values.out;
  }
  if (out.resume && out.out === undefined)
    return usageError(`--${out.fastResume ? 'fast-resume' : 'resume'} needs --out DIR (it resumes the parts there)`);
  if (out.out !== undefined && out.pages) return usageError('--pages does not apply with --out: parts hold JSON records');
  if ((out.out !== undefined || out.shard !== undefined) && out.paths.includes('-'))
    return usageError("standard input ('-') cannot be sharded or written to --out: pass files, or a path list with --files-from");
  const stdinUses = out.paths.filter((p) => p === '-').length + (out.filesFrom === '-' ? 1 : 0);
  if (stdinUses > 1) return usageError("standard input ('-') can be read only once");
  return { kind: 'run', args: out };
}

function parseMerge(argv: readonly string[]): Parsed {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    const r = nodeParseArgs({ args: argv, options: MERGE_OPTIONS, allowPositionals: true, strict: true });
    values = r.values;
    positionals = r.positionals;
  } catch (e) {
    return usageError(explainParseError(e, MERGE_OPTIONS), 'merge');
  }
  if (values.help) return { kind: 'help', text: MERGE_USAGE };
  if (positionals.length !== 1) return usageError(positionals.length === 0 ? 'merge needs the DIR of the parts' : 'merge takes one DIR', 'merge');
  const args: MergeArgs = { dir: positionals[0], csv: !!values.csv, nul: !!values.null, quiet: !!values.quiet };
  if (typeof values.output === 'string') args.output = values.output;
  if (typeof values['files-from'] === 'string') args.filesFrom = values['files-from'];
  if (args.nul && args.filesFrom === undefined) return usageError('-0/--null only applies to --files-from', 'merge');
  return { kind: 'merge', args };
}

/** `name=value` onto a numeric AnalyzerOptions key; a message on error. */
export function parseLimit(spec: string): { name: keyof AnalyzerOptions; value: number } | string {
  const eq = spec.indexOf('=');
  if (eq <= 0) return `--limit needs NAME=VALUE, not '${spec}'`;
  const name = spec.slice(0, eq).trim();
  const raw = spec.slice(eq + 1).trim();
  const known = Object.keys(DEFAULT_OPTIONS);
  if (!known.includes(name)) return `--limit: unknown name '${name}'${hint(name, known)}; known: ${known.join(', ')}`;
  const value = raw === '' ? NaN : Number(raw);
  if (!Number.isFinite(value) || value < 0) return `--limit ${name} needs a non-negative number, not '${raw}'`;
  return { name: name as keyof AnalyzerOptions, value };
}

function usageError(message: string, command: 'classify' | 'merge' = 'classify'): Parsed {
  return { kind: 'usage-error', message, command };
}

function wholeNumber(s: string): number | undefined {
  return /^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : undefined;
}

/** "1048576", "64K", "512M", "2G" (binary multiples). */
export function byteSize(s: string): number | undefined {
  const m = /^(\d{1,15})([KMG]i?B?)?$/i.exec(s.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? '').charAt(0).toUpperCase();
  const mult = unit === 'K' ? 2 ** 10 : unit === 'M' ? 2 ** 20 : unit === 'G' ? 2 ** 30 : 1;
  const n = Number(m[1]) * mult;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Turns parseArgs' errors into one line naming the option, with a "did you mean" when one is close. */
function explainParseError(e: unknown, options: Record<string, { type: string; short?: string }>): string {
  const err = e as { code?: string; message?: string };
  const msg = String(err.message ?? e);
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const opt = /'([^']+)'/.exec(msg)?.[1] ?? '';
    const names = Object.entries(options).flatMap(([long, o]) => ['--' + long, ...('short' in o ? ['-' + o.short] : [])]);
    return `unknown option ${opt}${hint(opt, names)}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const opt = /(--[\w-]+)/.exec(msg)?.[1] ?? /'(-\w)/.exec(msg)?.[1];
    return opt ? `option ${opt} needs a value` : msg.split('\n')[0];
  }
  return msg.split('\n')[0];
}

function hint(word: string, candidates: readonly string[]): string {
  let best = '';
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return bestD <= Math.max(2, Math.floor(word.length / 3)) ? ` (did you mean ${best}?)` : '';
}

function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
