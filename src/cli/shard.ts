/**
 * Shards: which inputs this run takes when a batch engine runs many copies of the CLI over one work list (issue 17).
 *
 * A file belongs to shard `pathShard(path, n)`: a stable hash of its path (FNV-1a 32 over the path's UTF-8 bytes,
 * finished with the MurmurHash3 mixer) modulo n. Not its position in the list: a position is only the same in every
 * task when every task enumerates the very same list in the very same order, and a list regenerated per task (`find`
 * on another node, a directory read in another order, a list with a line added) would then put some files in two
 * shards and others in none without anyone noticing. A path's hash does not depend on the order or on the rest of the
 * list, a path listed twice lands twice in the same shard (so a shard alone can tell duplicates apart), and merge can
 * check a record's shard from its `file` field alone. The price is balance: shards differ by about √(N/n) files
 * (±1 % of a shard at 10 million files over 100 shards; for a few dozen files, visibly uneven).
 *
 * When `--shard` is absent the shard comes from the engine's environment (shardFromEnv); every mismatch there is a
 * usage error, never a silent full run.
 */

/** A shard of n: index 0…n−1. */
export interface Shard {
  index: number;
  count: number;
}

/** Where the shard came from, for --help and the run's notice on stderr. */
export interface ShardSource {
  shard: Shard;
  /** e.g. "--shard 2/8" or "SLURM_ARRAY_TASK_ID=3 (MIN 1, STEP 1, COUNT 4)" */
  from: string;
}

export type ShardResult = { ok: true; value: ShardSource | undefined } | { ok: false; message: string };

/** The variables read, most specific engine first. */
export const SHARD_ENV_VARS = ['SLURM_ARRAY_TASK_ID', 'AWS_BATCH_JOB_ARRAY_INDEX', 'JOB_COMPLETION_INDEX'] as const;

export const MAX_SHARDS = 1_000_000;

/** "i/n" with 0 ≤ i < n ≤ 1,000,000. */
export function parseShardSpec(spec: string): { ok: true; value: Shard } | { ok: false; message: string } {
  const m = /^(\d{1,7})\/(\d{1,7})$/.exec(spec.trim());
  if (!m) return { ok: false, message: `--shard needs INDEX/COUNT with a 0-based index, e.g. 0/8, not '${spec}'` };
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) return { ok: false, message: `--shard: the count must be 1…${MAX_SHARDS}, not ${count}` };
  if (index >= count) return { ok: false, message: `--shard ${spec}: the index is 0-based and must be below the count (0…${count - 1})` };
  return { ok: true, value: { index, count } };
}

function intVar(env: NodeJS.ProcessEnv, name: string): number | undefined | 'bad' {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  return /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : 'bad';
}

/**
 * The shard to run: --shard wins, then the engine's environment. `shardCount` is --shard-count: required with
 * AWS_BATCH_JOB_ARRAY_INDEX and JOB_COMPLETION_INDEX (neither engine exports the array size), optional with Slurm
 * (then the task id itself is the 0-based index, which keeps a resubmission of a few failed ids right).
 */
export function resolveShard(spec: string | undefined, shardCount: number | undefined, env: NodeJS.ProcessEnv): ShardResult {
  if (spec !== undefined) {
    const p = parseShardSpec(spec);
    if (!p.ok) return p;
    if (shardCount !== undefined && shardCount !== p.value.count)
      return { ok: false, message: `--shard ${spec} and --shard-count ${shardCount} disagree on the number of shards` };
    return { ok: true, value: { shard: p.value, from: `--shard ${p.value.index}/${p.value.count}` } };
  }
  return shardFromEnv(env, shardCount);
}

export function shardFromEnv(env: NodeJS.ProcessEnv, shardCount: number | undefined): ShardResult {
  const set = SHARD_ENV_VARS.filter((v) => env[v] !== undefined && env[v] !== '');
  if (shardCount !== undefined && (shardCount < 1 || shardCount > MAX_SHARDS))
    return { ok: false, message: `--shard-count must be 1…${MAX_SHARDS}, not ${shardCount}` };
  if (set.length === 0) {
    if (shardCount !== undefined)
      return { ok: false, message: `--shard-count needs a task index: --shard, or one of ${SHARD_ENV_VARS.join(', ')} in the environment` };
    return { ok: true, value: undefined };
  }
  if (set.length > 1) return { ok: false, message: `more than one engine's task index is set (${set.join(', ')}): say which shard with --shard I/N` };
  const name = set[0];
  const id = intVar(env, name);
  if (id === 'bad' || id === undefined) return { ok: false, message: `${name}='${env[name]}' is not a whole number` };
  if (name === 'SLURM_ARRAY_TASK_ID') return slurmShard(env, id, shardCount);
  if (shardCount === undefined)
    return {
      ok: false,
      message: `${name}=${id} is set but the number of shards is not: pass --shard-count N (the array size${name === 'JOB_COMPLETION_INDEX' ? ', .spec.completions' : ''})`,
    };
  if (id >= shardCount) return { ok: false, message: `${name}=${id} is not below --shard-count ${shardCount}` };
  return { ok: true, value: { shard: { index: id, count: shardCount }, from: `${name}=${id} with --shard-count ${shardCount}` } };
}

/**
 * Slurm's array ids are whatever `--array` said: `--array=1-4` gives ids 1…4 (COUNT 4, MIN 1, MAX 4, STEP 1),
 * `--array=0-14:2` ids 0, 2, …, 14. A regular range maps to (ID − MIN) / STEP of COUNT; an irregular list
 * (`--array=3,5,9`) has no such mapping and is refused. With --shard-count N the id is the index itself (0 ≤ ID < N),
 * which stays right when only some ids are resubmitted (`sbatch --array=3,5` to redo two failed tasks).
 */
function slurmShard(env: NodeJS.ProcessEnv, id: number, shardCount: number | undefined): ShardResult {
  if (shardCount !== undefined) {
    if (id >= shardCount)
      return {
        ok: false,
        message: `SLURM_ARRAY_TASK_ID=${id} is not below --shard-count ${shardCount}: with --shard-count the array ids are the 0-based shard indexes (--array=0-${shardCount - 1})`,
      };
    return { ok: true, value: { shard: { index: id, count: shardCount }, from: `SLURM_ARRAY_TASK_ID=${id} with --shard-count ${shardCount}` } };
  }
  const vals: Record<string, number | undefined | 'bad'> = {};
  for (const k of ['COUNT', 'MIN', 'MAX', 'STEP']) vals[k] = intVar(env, `SLURM_ARRAY_TASK_${k}`);
  const missing = Object.keys(vals).filter((k) => vals[k] === undefined || vals[k] === 'bad');
  if (missing.length > 0)
    return {
      ok: false,
      message: `SLURM_ARRAY_TASK_ID=${id} is set but SLURM_ARRAY_TASK_${missing.join('/')} ${missing.length > 1 ? 'are' : 'is'} missing or not a number: pass --shard-count N (array ids 0…N−1) or --shard I/N`,
    };
  const { COUNT: count, MIN: min, MAX: max, STEP: step } = vals as Record<string, number>;
  const desc = `SLURM_ARRAY_TASK_ID=${id} (MIN ${min}, MAX ${max}, STEP ${step}, COUNT ${count})`;
  if (count < 1 || step < 1 || count > MAX_SHARDS) return { ok: false, message: `${desc}: not a usable array` };
  if (min + (count - 1) * step !== max)
    return {
      ok: false,
      message: `${desc}: the array ids are not a regular range (e.g. --array=3,5,9), so they do not map onto shards 0…${count - 1}; submit --array=0-${count - 1} or pass --shard-count N`,
    };
  if (id < min || id > max || (id - min) % step !== 0) return { ok: false, message: `${desc}: the id is not one of the array's ids` };
  return { ok: true, value: { shard: { index: (id - min) / step, count }, from: `${desc} → (ID − MIN) / STEP` } };
}

/** One line for --help: what this environment gives. */
export function shardEnvLine(env: NodeJS.ProcessEnv): string {
  const r = shardFromEnv(env, undefined);
  if (!r.ok) return `in this environment: ${r.message}`;
  if (!r.value) return `in this environment: none of ${SHARD_ENV_VARS.join(', ')} is set, so no shard unless --shard is given`;
  return `in this environment: shard ${r.value.shard.index}/${r.value.shard.count} from ${r.value.from}`;
}

// ---------------------------------------------------------------- hashing

const enc = new TextEncoder();

/** FNV-1a 32 over bytes from `basis`, then MurmurHash3's fmix32 so every bit of the result depends on every input bit. */
function fnvMix(bytes: Uint8Array, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The two 32-bit hashes of a path: the first picks its shard, both go into list digests. */
export function pathHashes(path: string): [number, number] {
  const b = enc.encode(path);
  return [fnvMix(b, 0x811c9dc5), fnvMix(b, 0x9e3779b9)];
}

export function pathShard(path: string, count: number): number {
  return count <= 1 ? 0 : pathHashes(path)[0] % count;
}

/**
 * An order-independent digest of a multiset of paths: the count and two 32-bit sums of the paths' hashes. Two lists
 * with the same paths (in any order) have the same digest; a path missing, added or doubled changes it (save for a
 * 1-in-2⁶⁴ accident). Digests of shards add up to the digest of the whole list, which lets merge check the parts
 * against the list without the list.
 */
export class ListDigest {
  entries = 0;
  private a = 0;
  private b = 0;

  add(path: string): void {
    const [x, y] = pathHashes(path);
    this.addHashes(x, y);
  }

  addHashes(x: number, y: number): void {
    this.entries++;
    this.a = (this.a + x) >>> 0;
    this.b = (this.b + y) >>> 0;
  }

  addDigest(hex: string, entries: number): void {
    const m = /^([0-9a-f]{8})([0-9a-f]{8})$/.exec(hex);
    if (!m) return;
    this.entries += entries;
    this.a = (this.a + parseInt(m[1], 16)) >>> 0;
    this.b = (this.b + parseInt(m[2], 16)) >>> 0;
  }

  get hash(): string {
    return this.a.toString(16).padStart(8, '0') + this.b.toString(16).padStart(8, '0');
  }
}
