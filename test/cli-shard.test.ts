/**
 * Sharded runs (issue 17): shard selection and its stability, the engines' environment variables (Slurm's non-0-based
 * and irregular arrays, AWS Batch, Kubernetes Indexed Jobs), and the list digests merge relies on. Runs through
 * main() with the environment injected, so a mismatch is shown to be a usage error that analyses nothing.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { Sink } from './text-sink';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { analyzePdfSync } from '../src/analyzer/analyze';
import { classifyUsage, parseArgs } from '../src/cli/args';
import { readInputFile } from '../src/cli/inputs';
import { main } from '../src/cli/main';
import { ListDigest, parseShardSpec, pathShard, resolveShard, shardFromEnv } from '../src/cli/shard';

const root = fileURLToPath(new URL('..', import.meta.url));
const fx = (name: string) => `${root}test/fixtures/analyzer/${name}`;

function streams(env: NodeJS.ProcessEnv) {
  const calls: string[] = [];
  const stdout = new Sink();
  const stderr = new Sink();
  return {
    calls,
    stdout,
    stderr,
    io: {
      stdout,
      stderr,
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      env,
      analyze: async (_b: Uint8Array, options: object, extra: { path?: string }) => {
        calls.push(extra.path!);
        const read = readInputFile(extra.path!, Infinity);
        if (!read.ok) throw new Error(read.message);
        return { kind: 'report' as const, report: analyzePdfSync(read.bytes, options) };
      },
    },
  };
}

const ok = <T>(r: { ok: true; value: T } | { ok: false; message: string }): T => {
  if (!r.ok) assert.fail(`expected ok, got: ${r.message}`);
  return r.value;
};
const err = (r: { ok: boolean; message?: string }, pattern: RegExp) => {
  assert.equal(r.ok, false, 'expected an error');
  assert.match(r.message!, pattern);
};

// ---------------------------------------------------------------- selection

test('shard: --shard I/N parses 0-based, and refuses an index at or above the count', () => {
  assert.deepEqual(ok(parseShardSpec('0/8')), { index: 0, count: 8 });
  assert.deepEqual(ok(parseShardSpec(' 7/8 ')), { index: 7, count: 8 });
  err(parseShardSpec('8/8'), /0-based.*0…7/);
  err(parseShardSpec('1/0'), /count must be/);
  err(parseShardSpec('3'), /INDEX\/COUNT/);
  err(parseShardSpec('-1/4'), /INDEX\/COUNT/);
  err(parseShardSpec('a/b'), /INDEX\/COUNT/);
});

test('shard: every path falls in exactly one shard, whatever the order, and shards are near even', () => {
  const paths = Array.from({ length: 20000 }, (_, i) => `/archive/${i % 97}/doc-${i}.pdf`);
  for (const n of [1, 2, 7, 64]) {
    const sizes = new Array<number>(n).fill(0);
    for (const p of paths) {
      const s = pathShard(p, n);
      assert.ok(Number.isInteger(s) && s >= 0 && s < n);
      sizes[s]++;
    }
    assert.equal(
      sizes.reduce((a, b) => a + b),
      paths.length,
    );
    const mean = paths.length / n;
    // a hash modulo n: each shard within 5 standard deviations of the mean
    for (const s of sizes) assert.ok(Math.abs(s - mean) <= 5 * Math.sqrt(mean) + 1, `n=${n}: shard of ${s}, mean ${mean}`);
  }
  const reversed = [...paths].reverse();
  assert.deepEqual(
    reversed.map((p) => pathShard(p, 8)),
    paths.map((p) => pathShard(p, 8)).reverse(),
    'a shard depends on the path only',
  );
});

test('shard: the assignment is pinned (tasks of one run may run different builds; a change would split files wrongly)', () => {
  // FNV-1a 32 over UTF-8 + MurmurHash3 fmix32, mod N. Changing these values breaks running and resumed jobs.
  assert.deepEqual(
    ['/a/b.pdf', 'report.pdf', '/archive/2019/Ünïcode name.pdf', ''].map((p) => pathShard(p, 1000)),
    [PINNED['/a/b.pdf'], PINNED['report.pdf'], PINNED['/archive/2019/Ünïcode name.pdf'], PINNED['']],
  );
});
// Cross-checked with a Python rendering of the documented algorithm (so other tools can pre-split a list the same way).
const PINNED: Record<string, number> = { '/a/b.pdf': 804, 'report.pdf': 793, '/archive/2019/Ünïcode name.pdf': 149, '': 923 };

test('list digest: order-free, sensitive to a missing, added or doubled path, and shards add up to the list', () => {
  const paths = Array.from({ length: 500 }, (_, i) => `/x/${i}.pdf`);
  const of = (ps: string[]) => {
    const d = new ListDigest();
    for (const p of ps) d.add(p);
    return `${d.entries}:${d.hash}`;
  };
  assert.equal(of(paths), of([...paths].reverse()));
  assert.notEqual(of(paths), of(paths.slice(1)));
  assert.notEqual(of(paths), of([...paths, '/x/new.pdf']));
  assert.notEqual(of(paths), of([...paths.slice(1), paths[2]]), 'one path swapped for a duplicate of another');
  const total = new ListDigest();
  for (let s = 0; s < 5; s++) {
    const d = new ListDigest();
    for (const p of paths) if (pathShard(p, 5) === s) d.add(p);
    total.addDigest(d.hash, d.entries);
  }
  assert.equal(`${total.entries}:${total.hash}`, of(paths));
});

// ---------------------------------------------------------------- the engines' environment

test('env: Slurm --array=1-4 (ids 1…4) maps to shards 0…3 of 4', () => {
  for (let id = 1; id <= 4; id++) {
    const env = {
      SLURM_ARRAY_TASK_ID: String(id),
      SLURM_ARRAY_TASK_COUNT: '4',
      SLURM_ARRAY_TASK_MIN: '1',
      SLURM_ARRAY_TASK_MAX: '4',
      SLURM_ARRAY_TASK_STEP: '1',
    };
    assert.deepEqual(ok(shardFromEnv(env, undefined))?.shard, { index: id - 1, count: 4 });
  }
});

test('env: Slurm --array=0-14:2 maps (ID − MIN) / STEP; an id off the step is refused', () => {
  const env = (id: number) => ({
    SLURM_ARRAY_TASK_ID: String(id),
    SLURM_ARRAY_TASK_COUNT: '8',
    SLURM_ARRAY_TASK_MIN: '0',
    SLURM_ARRAY_TASK_MAX: '14',
    SLURM_ARRAY_TASK_STEP: '2',
  });
  assert.deepEqual(ok(shardFromEnv(env(6), undefined))?.shard, { index: 3, count: 8 });
  assert.deepEqual(ok(shardFromEnv(env(14), undefined))?.shard, { index: 7, count: 8 });
  err(shardFromEnv(env(5), undefined), /not one of the array's ids/);
});

test('env: Slurm --array=3,5,9 (irregular: Slurm 22.05 sets COUNT 3, MIN 3, MAX 9, STEP 1) is refused for every id', () => {
  for (const id of [3, 5, 9]) {
    const env = {
      SLURM_ARRAY_TASK_ID: String(id),
      SLURM_ARRAY_TASK_COUNT: '3',
      SLURM_ARRAY_TASK_MIN: '3',
      SLURM_ARRAY_TASK_MAX: '9',
      SLURM_ARRAY_TASK_STEP: '1',
    };
    err(shardFromEnv(env, undefined), /not a regular range.*--array=0-2/);
  }
  // the same list if STEP were 3 (3,6,9 is regular; 5 is not on it)
  err(
    shardFromEnv(
      { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '3', SLURM_ARRAY_TASK_MAX: '9', SLURM_ARRAY_TASK_STEP: '3' },
      undefined,
    ),
    /not one of the array's ids/,
  );
});

test('env: Slurm with --shard-count takes the id as the index (a resubmitted --array=3,5 stays right); too high is refused', () => {
  const env = {
    SLURM_ARRAY_TASK_ID: '5',
    SLURM_ARRAY_TASK_COUNT: '2',
    SLURM_ARRAY_TASK_MIN: '3',
    SLURM_ARRAY_TASK_MAX: '5',
    SLURM_ARRAY_TASK_STEP: '2',
  };
  assert.deepEqual(ok(shardFromEnv(env, 8))?.shard, { index: 5, count: 8 });
  err(shardFromEnv({ ...env, SLURM_ARRAY_TASK_ID: '8' }, 8), /not below --shard-count 8.*--array=0-7/);
});

test('env: Slurm without COUNT/MIN/MAX/STEP and no --shard-count is refused, not run whole', () => {
  err(shardFromEnv({ SLURM_ARRAY_TASK_ID: '2' }, undefined), /SLURM_ARRAY_TASK_COUNT\/MIN\/MAX\/STEP are missing/);
  err(shardFromEnv({ SLURM_ARRAY_TASK_ID: 'x' }, undefined), /not a whole number/);
});

test('env: AWS_BATCH_JOB_ARRAY_INDEX and JOB_COMPLETION_INDEX need --shard-count and an index below it', () => {
  assert.deepEqual(ok(shardFromEnv({ AWS_BATCH_JOB_ARRAY_INDEX: '0' }, 3))?.shard, { index: 0, count: 3 });
  assert.deepEqual(ok(shardFromEnv({ JOB_COMPLETION_INDEX: '2' }, 3))?.shard, { index: 2, count: 3 });
  err(
    shardFromEnv({ AWS_BATCH_JOB_ARRAY_INDEX: '1' }, undefined),
    /AWS_BATCH_JOB_ARRAY_INDEX=1 is set but the number of shards is not: pass --shard-count/,
  );
  err(shardFromEnv({ JOB_COMPLETION_INDEX: '1' }, undefined), /--shard-count N.*completions/);
  err(shardFromEnv({ JOB_COMPLETION_INDEX: '3' }, 3), /not below --shard-count 3/);
  assert.match(ok(shardFromEnv({ JOB_COMPLETION_INDEX: '2' }, 3))!.from, /^JOB_COMPLETION_INDEX=2/);
});

test('env: two engines set, --shard-count alone, or --shard against --shard-count are usage errors; --shard wins over the environment', () => {
  err(shardFromEnv({ AWS_BATCH_JOB_ARRAY_INDEX: '0', JOB_COMPLETION_INDEX: '0' }, 2), /more than one engine/);
  err(shardFromEnv({}, 4), /--shard-count needs a task index/);
  assert.equal(ok(shardFromEnv({}, undefined)), undefined, 'no variable, no shard: a full run');
  err(resolveShard('1/4', 8, {}), /disagree/);
  const r = ok(resolveShard('0/1', undefined, { SLURM_ARRAY_TASK_ID: '3' }));
  assert.deepEqual(r?.shard, { index: 0, count: 1 });
  assert.equal(r?.from, '--shard 0/1');
});

test('env: --help names the variable this environment gives, and the mapping used', () => {
  const env = {
    SLURM_ARRAY_TASK_ID: '3',
    SLURM_ARRAY_TASK_COUNT: '4',
    SLURM_ARRAY_TASK_MIN: '1',
    SLURM_ARRAY_TASK_MAX: '4',
    SLURM_ARRAY_TASK_STEP: '1',
  };
  assert.match(classifyUsage(env), /in this environment: shard 2\/4 from SLURM_ARRAY_TASK_ID=3 \(MIN 1, MAX 4, STEP 1, COUNT 4\)/);
  assert.match(classifyUsage({}), /in this environment: none of SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX, JOB_COMPLETION_INDEX is set/);
  assert.match(
    classifyUsage({ AWS_BATCH_JOB_ARRAY_INDEX: '4' }),
    /in this environment: AWS_BATCH_JOB_ARRAY_INDEX=4 is set but the number of shards is not/,
  );
  const h = parseArgs(['classify', '--help'], env);
  assert.ok(h.kind === 'help' && /stable hash of its\s+path/.test(h.text) && /SLURM_ARRAY_TASK_ID=3/.test(h.text));
});

// ---------------------------------------------------------------- through main()

const files = ['01-text.pdf', '07-scan.pdf', '11-rotated.pdf', '13-ocr-layer.pdf', '17-mixed.pdf', '21-empty.pdf', '21-not-a-pdf.pdf'].map(fx);

test('run: each shard of a run analyses only its files, and the shards together are the whole list exactly once', async () => {
  const seen: string[] = [];
  for (let i = 0; i < 3; i++) {
    const s = streams({});
    const code = await main(['classify', '--json', '--shard', `${i}/3`, ...files], s.io);
    assert.equal(code, 0, s.stderr.text());
    assert.match(s.stderr.text(), new RegExp(`shard ${i}/3 from --shard ${i}/3`));
    const recs = s.stdout
      .text()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { file: string }).file);
    assert.deepEqual(recs, s.calls, 'a record per file analysed');
    for (const f of recs) assert.equal(pathShard(f, 3), i);
    seen.push(...recs);
  }
  assert.deepEqual(seen.sort(), [...files].sort());
});

test('run: a shard from SLURM_ARRAY_TASK_ID (non-0-based) selects the same files as --shard; a mismatch exits 2 and analyses nothing', async () => {
  const env = {
    SLURM_ARRAY_TASK_ID: '2',
    SLURM_ARRAY_TASK_COUNT: '3',
    SLURM_ARRAY_TASK_MIN: '1',
    SLURM_ARRAY_TASK_MAX: '3',
    SLURM_ARRAY_TASK_STEP: '1',
  };
  const a = streams(env);
  assert.equal(await main(['classify', '--json', ...files], a.io), 0);
  const b = streams({});
  assert.equal(await main(['classify', '--json', '--shard', '1/3', ...files], b.io), 0);
  assert.deepEqual(a.calls, b.calls);
  assert.match(a.stderr.text(), /shard 1\/3 from SLURM_ARRAY_TASK_ID=2/);
  for (const bad of [
    { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '3', SLURM_ARRAY_TASK_MAX: '9', SLURM_ARRAY_TASK_STEP: '1' },
    { AWS_BATCH_JOB_ARRAY_INDEX: '1' },
    { JOB_COMPLETION_INDEX: '0', SLURM_ARRAY_TASK_ID: '0' },
  ]) {
    const s = streams(bad);
    assert.equal(await main(['classify', '--json', ...files], s.io), 2, JSON.stringify(bad));
    assert.equal(s.calls.length, 0, 'nothing analysed');
    assert.equal(s.stdout.text(), '');
    assert.match(s.stderr.text(), /^pdf-page-diagnostics: .+\nTry 'pdf-page-diagnostics classify --help'/);
  }
  const stdin = streams({ JOB_COMPLETION_INDEX: '0' });
  assert.equal(await main(['classify', '--shard-count', '2', '-'], stdin.io), 2);
  assert.match(stdin.stderr.text(), /standard input \('-'\) cannot be sharded/);
});
