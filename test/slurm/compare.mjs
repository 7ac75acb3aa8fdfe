// Compares two JSONL record sets record for record, apart from timing fields: the same files, each as many times, and
// each record equal once `elapsedMs` is removed. Order is not compared (a merge comes shard by shard). Prints one line;
// exits 1 on any difference, naming the first few.
import { readFileSync } from 'node:fs';

const TIMING = new Set(['elapsedMs']);
const strip = (v) => {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !TIMING.has(k))
        .map(([k, x]) => [k, strip(x)]),
    );
  return v;
};
const load = (path) => {
  const m = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    const key = r.file;
    const list = m.get(key) ?? [];
    list.push(JSON.stringify(strip(r)));
    m.set(key, list);
  }
  for (const l of m.values()) l.sort();
  return m;
};
const [a, b] = process.argv.slice(2);
const A = load(a);
const B = load(b);
const diffs = [];
let records = 0;
for (const [k, la] of A) {
  const lb = B.get(k);
  if (!lb) diffs.push(`only in ${a}: ${k}`);
  else if (la.length !== lb.length) diffs.push(`${k}: ${la.length} records in ${a}, ${lb.length} in ${b}`);
  else la.forEach((x, i) => (x === lb[i] ? records++ : diffs.push(`${k}: records differ`)));
}
for (const k of B.keys()) if (!A.has(k)) diffs.push(`only in ${b}: ${k}`);
if (diffs.length) {
  console.log(`DIFFER: ${diffs.length} differences; ${diffs.slice(0, 5).join(' | ')}`);
  process.exit(1);
}
console.log(`EQUAL: ${records} records, ${A.size} files, equal apart from ${[...TIMING].join(', ')}`);
