/** Command-line parsing for the CLI (node:util parseArgs), its help texts and the `--limit` mapping. */
import { parseArgs as nodeParseArgs } from 'node:util';
import { DEFAULT_OPTIONS, type AnalyzerOptions } from '../analyzer/options';

export const PROGRAM = 'pdf-page-diagnostics';

export const MAIN_USAGE = `usage: ${PROGRAM} classify [OPTIONS] [PATH...]
       ${PROGRAM} --version | --help

Tells for every page of a PDF whether its text can be read from the file or the page must go to OCR.

commands:
  classify    analyse PDFs and print a report per file ('${PROGRAM} classify --help')`;

export const CLASSIFY_USAGE = `usage: ${PROGRAM} classify [OPTIONS] PATH...
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
      --layer-quality     score the text layer of ocr-layer and text pages (layerQuality in --json, a 'layer'
                          column with -p, the pages to re-OCR per file and in the summary); it decodes each scan
                          image, so it costs time: off by default
      --text-layer        with --json: each page's text layer (glyph runs with boxes, reading-order text)
  -q, --quiet             no progress and no summary on standard error
  -h, --help              this help
  -V, --version           the program's and the analyzer's versions
  --                      everything after is a path

Progress goes to standard error, only when it is a terminal. In table mode a summary closes the run on standard error.

exit status:
  0  every file got a report (a report may say "can't tell": encrypted, damaged, not a PDF)
  1  some file could not be read (missing, unreadable, not a regular file, larger than --max-bytes)
     or hit an internal error; it still has its own record and the other files were analysed
  2  usage error (unknown option, bad value, no input, a --files-from list that cannot be opened)
A closed standard output (e.g. '| head') ends the run quietly with status 0.

limits (--limit NAME=VALUE, VALUE a non-negative number):
${Object.entries(DEFAULT_OPTIONS)
  .map(([k, v]) => `  ${k} (default ${v})`)
  .join('\n')}`;

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
}

/** What the command line asks for: a run, a text to print (help, version), or a usage error. */
export type Parsed = { kind: 'run'; args: CliArgs } | { kind: 'help'; text: string } | { kind: 'version' } | { kind: 'usage-error'; message: string };

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
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

export function parseArgs(argv: readonly string[]): Parsed {
  const first = argv[0];
  if (first === undefined) return usageError('no command given');
  if (first === '-h' || first === '--help') return { kind: 'help', text: MAIN_USAGE };
  if (first === '-V' || first === '--version') return { kind: 'version' };
  if (first !== 'classify') return usageError(`unknown command: ${first}${hint(first, ['classify'])}`);
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    const r = nodeParseArgs({ args: argv.slice(1), options: OPTIONS, allowPositionals: true, strict: true });
    values = r.values;
    positionals = r.positionals;
  } catch (e) {
    return usageError(explainParseError(e));
  }
  if (values.help) return { kind: 'help', text: CLASSIFY_USAGE };
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
  const stdinUses = out.paths.filter((p) => p === '-').length + (out.filesFrom === '-' ? 1 : 0);
  if (stdinUses > 1) return usageError("standard input ('-') can be read only once");
  return { kind: 'run', args: out };
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

function usageError(message: string): Parsed {
  return { kind: 'usage-error', message };
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
function explainParseError(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const msg = String(err.message ?? e);
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const opt = /'([^']+)'/.exec(msg)?.[1] ?? '';
    const names = Object.entries(OPTIONS).flatMap(([long, o]) => ['--' + long, ...('short' in o ? ['-' + o.short] : [])]);
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
