// README "How the analyzer is built" names every module of src/analyzer/ in its table, and nothing that is not there:
// a new module gets its line (what it holds), a removed or renamed one loses it. A folder's row names the folder
// (`layerQuality/`) and, in its description, every .ts file inside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ANALYZER = path.join(ROOT, 'src/analyzer');

interface Row {
  /** the backticked names of the first cell */
  names: string[];
  /** the backticked names of the second cell */
  mentioned: string[];
}

/** The rows of the module table in README's section `heading`. */
export function moduleTable(readme: string, heading = '## How the analyzer is built'): Row[] {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has no section "${heading}"`);
  const end = readme.indexOf('\n## ', start + heading.length + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const cells = line.trim().split('|').slice(1, -1);
    if (cells.length < 2 || /^\s*:?-+:?\s*$/.test(cells[0]) || cells[0].trim() === 'module') continue;
    rows.push({ names: ticked(cells[0]), mentioned: ticked(cells.slice(1).join('|')) });
  }
  return rows;
}

/** What the table gets wrong against a listing of the folder (`entries`: file names, folders with a trailing /). */
export function tableProblems(rows: Row[], entries: string[], filesOf: (folder: string) => string[]): string[] {
  const problems: string[] = [];
  const named = new Map<string, Row>();
  for (const r of rows) for (const n of r.names) named.set(n, r);
  for (const e of entries) if (!named.has(e)) problems.push(`${e} is not in the module table`);
  for (const n of named.keys()) if (!entries.includes(n)) problems.push(`the module table names ${n}, which src/analyzer/ does not hold`);
  for (const e of entries.filter((e) => e.endsWith('/') && named.has(e))) {
    const row = named.get(e)!;
    for (const f of filesOf(e)) if (!row.mentioned.includes(f)) problems.push(`the row of ${e} does not name ${f}`);
  }
  return problems;
}

function listing(): { entries: string[]; filesOf: (folder: string) => string[] } {
  const entries = readdirSync(ANALYZER)
    .filter((n) => n.endsWith('.ts') || statSync(path.join(ANALYZER, n)).isDirectory())
    .map((n) => (n.endsWith('.ts') ? n : `${n}/`))
    .sort();
  const filesOf = (folder: string) =>
    readdirSync(path.join(ANALYZER, folder), { recursive: true, encoding: 'utf8' })
      .filter((n) => n.endsWith('.ts'))
      .map((n) => n.split(path.sep).join('/'));
  return { entries, filesOf };
}

test('README module table: every .ts file and folder of src/analyzer/ has a row, and every row names one that exists', () => {
  const rows = moduleTable(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const { entries, filesOf } = listing();
  assert.ok(entries.includes('index.ts') && entries.includes('analyze.ts'), `listed ${entries.join(', ')}`);
  assert.ok(rows.length >= 10, `the table has ${rows.length} rows`);
  assert.deepEqual(tableProblems(rows, entries, filesOf), []);
});

test('self-test: a module missing from the table, a row for a module that is gone, a folder file unnamed', () => {
  const readme = [
    '# x',
    '## How the analyzer is built',
    '',
    '| module | holds |',
    '|---|---|',
    '| `a.ts`, `b.ts` | the a and the b |',
    '| `gone.ts` | removed long ago |',
    '| `sub/` | `one.ts` (the first) |',
    '',
    '## Next',
    '| `c.ts` | another section: not the module table |',
  ].join('\n');
  const rows = moduleTable(readme);
  assert.deepEqual(
    rows.map((r) => r.names),
    [['a.ts', 'b.ts'], ['gone.ts'], ['sub/']],
  );
  const problems = tableProblems(rows, ['a.ts', 'b.ts', 'c.ts', 'sub/'], () => ['one.ts', 'two.ts']);
  assert.deepEqual(problems, [
    'c.ts is not in the module table',
    'the module table names gone.ts, which src/analyzer/ does not hold',
    'the row of sub/ does not name two.ts',
  ]);
});
