/**
 * README.md's "### Limits" table documents every AnalyzerOptions field: this keeps it in step with DEFAULT_OPTIONS
 * (a new option without a row, a row for an option that is gone, or a default the table states wrongly all fail).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { type AnalyzerOptions, DEFAULT_OPTIONS } from '../src/analyzer/options';

/** The options without a default (off or absent unless given): the table lists them too. */
const OPTIONAL: readonly (keyof AnalyzerOptions)[] = ['textLayer', 'layerQuality', 'password'];

interface Row {
  name: string;
  defaultText: string;
  unit: string;
  what: string;
}

function limitsTable(): Row[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('\n### Limits\n');
  assert.ok(start >= 0, 'README.md has a "### Limits" section');
  const rest = readme.slice(start + 1);
  const next = rest.slice(1).search(/\n#{1,3} /);
  const section = next < 0 ? rest : rest.slice(0, next + 1);
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const m = /^\|\s*`([A-Za-z0-9]+)`\s*\|([^|]*)\|([^|]*)\|(.*)\|\s*$/.exec(line);
    if (m) rows.push({ name: m[1], defaultText: m[2].trim(), unit: m[3].trim(), what: m[4].trim() });
  }
  return rows;
}

/** "64 MiB", "512 KiB", "100000", "0.5" as a number; undefined when it is none of those. */
function parseDefault(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(?:\s*(KiB|MiB|GiB))?$/.exec(text.replace(/[,_]/g, ''));
  if (!m) return undefined;
  const scale = m[2] === 'KiB' ? 1024 : m[2] === 'MiB' ? 1024 ** 2 : m[2] === 'GiB' ? 1024 ** 3 : 1;
  return Number(m[1]) * scale;
}

test('the README limits table lists every option once, and no option that does not exist', () => {
  const rows = limitsTable();
  const names = rows.map((r) => r.name);
  const known = new Set<string>([...Object.keys(DEFAULT_OPTIONS), ...OPTIONAL]);
  assert.equal(new Set(names).size, names.length, `an option listed twice: ${names.filter((n, i) => names.indexOf(n) !== i).join(', ')}`);
  for (const key of Object.keys(DEFAULT_OPTIONS)) assert.ok(names.includes(key), `README "### Limits" table lacks ${key}`);
  for (const key of OPTIONAL) assert.ok(names.includes(key), `README "### Limits" table lacks ${key}`);
  for (const name of names) assert.ok(known.has(name), `README "### Limits" table lists ${name}, which is not an AnalyzerOptions field`);
});

test('the README limits table states each default as DEFAULT_OPTIONS has it, with a unit and what it bounds', () => {
  for (const row of limitsTable()) {
    assert.ok(row.unit.length > 0 && row.what.length > 0, `${row.name}: unit and description`);
    if (!(row.name in DEFAULT_OPTIONS)) continue;
    const value = DEFAULT_OPTIONS[row.name as keyof typeof DEFAULT_OPTIONS];
    assert.equal(parseDefault(row.defaultText), value, `${row.name}: README says ${row.defaultText}, DEFAULT_OPTIONS has ${value}`);
  }
});

test('the table parser reads what it must', () => {
  assert.equal(parseDefault('64 MiB'), 64 * 1024 * 1024);
  assert.equal(parseDefault('512 KiB'), 512 * 1024);
  assert.equal(parseDefault('100,000'), 100_000);
  assert.equal(parseDefault('0.5'), 0.5);
  assert.equal(parseDefault('off'), undefined);
});
