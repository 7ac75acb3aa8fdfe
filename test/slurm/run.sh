#!/usr/bin/env bash
# Integration test on a real Slurm (issue 17): installs slurm-wlm + munge from Debian if missing, starts a one-node
# cluster in this container without systemd (munged as user munge, slurmctld and slurmd in the background with a
# generated slurm.conf), then:
#   1. submits scripts/slurm/classify-array.sh as a 4-task array over the corpus (../shared/corpus, or the project's
#      fixtures when absent), two symlink views of each file, plus hostile entries (a missing path, non-PDFs);
#   2. kills task 2 mid-way (scancel once its partial has records), adds a torn line to its partial;
#   3. checks merge refuses the unfinished run; resubmits only id 2 (sbatch --array=2), which resumes;
#   4. merges (JSON lines and CSV) against the list and compares with a single-process run record for record,
#      apart from elapsedMs;
#   5. submits --array=1-3 (non-0-based ids, no --shard-count: (ID − MIN) / STEP) and checks its merge, and
#      --array=3,5,9 (irregular) and checks every task refused it with a usage error.
# Asserts on outputs (parts, markers, logs, merge results), never on exit codes alone: a broken node can run jobs
# that "succeed". Stops the daemons it started, by PID. Skips (exit 0) only when apt is unavailable.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
t0=$(date +%s)
say() { echo "slurm-test [$(($(date +%s) - t0)) s]: $*"; }
fail() {
  echo "slurm-test FAILED: $*" >&2
  exit 1
}

# ---------------------------------------------------------------- install
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  if ! command -v apt-get >/dev/null; then
    echo "slurm-test SKIPPED: Slurm is not installed and apt-get is unavailable to install slurm-wlm and munge"
    exit 0
  fi
  say "installing slurm-wlm and munge"
  SUDO=
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null || say "apt-get update failed; trying the install anyway"
  $SUDO apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
  say "installed: $(slurmctld -V)"
fi
[ "$(id -u)" = 0 ] || fail "the one-node cluster runs its daemons as root; run as root (CI containers do)"

# ---------------------------------------------------------------- cluster
W=$(mktemp -d /tmp/ppd-slurm.XXXXXX)
chmod 755 "$W"
mkdir -p "$W/state" "$W/spool" "$W/logs" "$W/munge" "$W/munge-run"
chown munge:munge "$W/munge" "$W/munge-run"
chmod 700 "$W/munge"
chmod 755 "$W/munge-run" # munged wants its socket's directory searchable by all
PIDS=()
cleanup() {
  local code=$?
  if [ ${#PIDS[@]} -gt 0 ]; then
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for _ in $(seq 50); do
      local alive=0
      for p in "${PIDS[@]}"; do
        # a zombie still answers kill -0; /proc/PID/stat's state field tells it apart
        if [ -e "/proc/$p" ] && [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" != Z ]; then alive=1; fi
      done
      [ $alive = 0 ] && break
      sleep 0.1
    done
    for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true # reap them: a container's PID 1 may not, and they would stay as zombies
  fi
  if [ $code != 0 ]; then
    echo "--- logs in $W (kept)" >&2
    tail -n 20 "$W"/slurmctld.log "$W"/slurmd.log 2>/dev/null >&2 || true
  else
    rm -rf "$W"
  fi
}
trap cleanup EXIT
# A snapshot of the CLI: others may rebuild dist/ while this runs, and a new analyzerVersion rightly makes --resume
# redo everything (the CLI bundle and the library bundle it loads from beside it, analyzer/index.js; its workers start
# from the same file).
[ -f "$ROOT/dist/cli.js" ] && [ -f "$ROOT/dist/analyzer/index.js" ] || (cd "$ROOT" && node scripts/build.mjs)
cp "$ROOT/dist/cli.js" "$W/cli.js"
mkdir -p "$W/analyzer"
cp "$ROOT/dist/analyzer/index.js" "$W/analyzer/index.js"
PPD="$(command -v node) $W/cli.js"
export PPD

# munged as user munge, on its own socket and key (nothing of the host's /etc/munge is touched). setpriv execs, so
# $! is munged's own PID (runuser would stay in between, and munged would outlive a kill of runuser's PID).
if command -v setpriv >/dev/null; then
  sudo_munge() { setpriv --reuid=munge --regid=munge --init-groups "$@"; }
else
  sudo_munge() { runuser -u munge -- "$@"; }
fi
if command -v mungekey >/dev/null; then sudo_munge mungekey --create --keyfile="$W/munge/munge.key" --bits=1024; else
  dd if=/dev/urandom of="$W/munge/munge.key" bs=1 count=1024 status=none
  chown munge:munge "$W/munge/munge.key"
fi
chmod 400 "$W/munge/munge.key"
SOCK=$W/munge-run/munge.socket
sudo_munge munged --foreground --socket="$SOCK" --key-file="$W/munge/munge.key" --pid-file="$W/munge/munged.pid" \
  --log-file="$W/munge/munged.log" --seed-file="$W/munge/munged.seed" --num-threads=2 >"$W/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$SOCK" ] && [ -s "$W/munge/munged.pid" ] && break; sleep 0.1; done
[ -S "$SOCK" ] || fail "munged did not open its socket: $(cat "$W/munge/munged.log" 2>/dev/null)"
# the PID munged wrote itself too (the same as $! with setpriv; the daemon behind runuser otherwise)
PIDS+=("$(cat "$W/munge/munged.pid")")

HOST=$(hostname -s)
NODE_LINE=$(slurmd -C | head -n 1)
# ports of our own, so another cluster on this host (or a leftover) does not answer
PORT=$((20000 + RANDOM % 20000))
CONF=$W/slurm.conf
cat >"$CONF" <<EOF
ClusterName=ppdtest
SlurmctldHost=$HOST
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MinJobAge=5
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
MpiDefault=none
$NODE_LINE State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$CONF
# a shell inside a Slurm allocation would hand its own ids to the CLI below
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX SLURM_ARRAY_TASK_STEP SLURM_JOB_ID
slurmctld -D -i -f "$CONF" >"$W/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$CONF" >"$W/slurmd.out" 2>&1 &
PIDS+=($!)
up=
for _ in $(seq 120); do
  if timeout 5 scontrol ping 2>/dev/null | grep -q 'UP'; then
    state=$(timeout 5 sinfo -h -n "$HOST" -o %T 2>/dev/null || true)
    if [ "$state" = idle ]; then
      up=1
      break
    fi
  fi
  sleep 0.5
done
[ -n "$up" ] || fail "the node did not come up idle: $(timeout 5 sinfo 2>&1 | tail -n 3)"
say "cluster up: $(timeout 5 sinfo -h -o '%P %D %T %C' | head -n 1) ($(slurmctld -V))"

# ---------------------------------------------------------------- inputs
if [ -d "$ROOT/../shared/corpus" ]; then SRC=$ROOT/../shared/corpus; else SRC=$ROOT/test/fixtures; fi
mkdir -p "$W/in/hostile"
printf 'not a pdf at all\n' >"$W/in/hostile/notes.pdf"
head -c 3000 /dev/urandom >"$W/in/hostile/random.pdf"
LIST=$W/list.txt
# two symlink views of each file: distinct paths, so each is its own entry and a shard runs long enough to be killed
node -e '
const fs = require("fs"), path = require("path"), crypto = require("crypto");
const [src, w] = process.argv.slice(1);
const files = [];
const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
  const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (e.isFile() && /\.pdf$/i.test(e.name)) files.push(p); } };
walk(src);
const out = [];
for (const v of ["a", "b"]) {
  fs.mkdirSync(path.join(w, "in", v), { recursive: true });
  for (const f of files) {
    const l = path.join(w, "in", v, crypto.createHash("md5").update(f).digest("hex").slice(0, 8) + "-" + path.basename(f));
    fs.symlinkSync(f, l); out.push(l);
  }
}
for (const h of ["notes.pdf", "random.pdf", "missing.pdf"]) out.push(path.join(w, "in", "hostile", h));
fs.writeFileSync(path.join(w, "list.txt"), out.join("\n") + "\n");
' "$SRC" "$W"
ENTRIES=$(wc -l <"$LIST")
say "work list: $ENTRIES entries from $SRC (2 symlink views each, 3 hostile)"

# ---------------------------------------------------------------- 1. the array, 2. a task killed mid-way
OUT=$W/out
ARRAY_SCRIPT=$ROOT/scripts/slurm/classify-array.sh
ta=$(date +%s.%N)
sbatch --parsable --wait --array=0-3 --output="$W/logs/%A_%a.log" "$ARRAY_SCRIPT" "$LIST" "$OUT" 4 >"$W/jobid" 2>"$W/sbatch.err" &
WAITER=$!
for _ in $(seq 100); do [ -s "$W/jobid" ] && break; sleep 0.1; done
JOB=$(cut -d';' -f1 <"$W/jobid")
[ -n "$JOB" ] || fail "sbatch gave no job id: $(cat "$W/sbatch.err")"
PARTIAL=$OUT/part-2-of-4.jsonl.partial
killed=
for _ in $(seq 1200); do
  if [ -f "$PARTIAL" ] && [ "$(wc -l <"$PARTIAL")" -ge 20 ]; then
    scancel --signal=KILL "${JOB}_2"
    killed=$(wc -l <"$PARTIAL")
    break
  fi
  [ -f "$OUT/part-2-of-4.done.json" ] && break
  sleep 0.05
done
[ -n "$killed" ] || fail "task 2 finished before it could be killed (or never wrote its part)"
wait "$WAITER" || true # sbatch --wait reports the cancelled task; the outputs below are what count
tb=$(date +%s.%N)
say "array job $JOB done in $(printf '%.1f' "$(echo "$tb - $ta" | bc)") s; task 2 killed after about $killed records"
sleep 0.5
[ -f "$OUT/part-2-of-4.done.json" ] && fail "task 2 has a done marker although it was killed"
[ -f "$PARTIAL" ] || fail "task 2's partial is gone"
for i in 0 1 3; do
  [ -f "$OUT/part-$i-of-4.done.json" ] || fail "task $i has no done marker: $(tail -n 5 "$W/logs/${JOB}_$i.log" 2>/dev/null)"
  grep -q "shard $i/4 from SLURM_ARRAY_TASK_ID=$i with --shard-count 4" "$W/logs/${JOB}_$i.log" || fail "task $i's log does not name its shard"
done
# a task that died inside a record leaves a torn line: make sure there is one
printf '{"file":"%s/in/a/torn' "$W" >>"$PARTIAL"
lines_before=$(grep -c '' "$PARTIAL")

# ---------------------------------------------------------------- 3. merge refuses, resubmit the failed id
if $PPD merge "$OUT" -o "$W/early.jsonl" 2>"$W/early.err"; then fail "merge accepted a run with an unfinished shard"; fi
grep -q 'shard 2/4: unfinished' "$W/early.err" || fail "merge did not name the unfinished shard: $(cat "$W/early.err")"
grep -q 'sbatch --array=2' "$W/early.err" || fail "merge did not say what to resubmit: $(cat "$W/early.err")"
[ -e "$W/early.jsonl" ] && fail "merge wrote output although its check failed"
say "merge refused the unfinished run: $(grep -c '' "$W/early.err") lines, naming shard 2"
tr0=$(date +%s.%N)
JOB2=$(sbatch --parsable --wait --array=2 --output="$W/logs/%A_%a.log" "$ARRAY_SCRIPT" "$LIST" "$OUT" 4) || true
tr1=$(date +%s.%N)
RLOG=$W/logs/${JOB2}_2.log
grep -q 'shard 2/4 from SLURM_ARRAY_TASK_ID=2 with --shard-count 4; resuming' "$RLOG" || fail "the resubmitted task did not resume: $(cat "$RLOG")"
grep -q 'torn last line' "$RLOG" || fail "the resumed task did not drop the torn line: $(cat "$RLOG")"
kept=$(sed -n 's/.* \([0-9]*\) kept from the earlier run.*/\1/p' "$RLOG")
[ -n "$kept" ] && [ "$kept" -ge 20 ] || fail "the resumed task kept ${kept:-no} records (expected the ~$killed done before the kill)"
[ -f "$OUT/part-2-of-4.done.json" ] || fail "the resumed task has no done marker"
say "resubmitted id 2 (job $JOB2): kept $kept of $((lines_before - 1)) whole records, torn line dropped, done in $(printf '%.1f' "$(echo "$tr1 - $tr0" | bc)") s"

# ---------------------------------------------------------------- 4. merge and compare with one process
$PPD merge "$OUT" -o "$W/merged.jsonl" -T "$LIST" 2>"$W/merge.err" || true
grep -q 'check passed: every input exactly once' "$W/merge.err" || fail "merge check failed: $(cat "$W/merge.err")"
[ "$(wc -l <"$W/merged.jsonl")" = "$ENTRIES" ] || fail "merged $(wc -l <"$W/merged.jsonl") records for $ENTRIES entries"
$PPD merge "$OUT" --csv -q >"$W/merged.csv" 2>"$W/merge-csv.err" || true
head -n 1 "$W/merged.csv" | grep -q '^file,page,route' || fail "merge --csv wrote no header: $(cat "$W/merge-csv.err")"
for h in notes.pdf random.pdf missing.pdf; do
  grep -q "\"file\":\"$W/in/hostile/$h\".*\"error\":{\"reason\"" "$W/merged.jsonl" || fail "hostile input $h has no error record"
done
ts0=$(date +%s.%N)
$PPD classify --json -q --files-from "$LIST" >"$W/single.jsonl" 2>"$W/single.err" || true
ts1=$(date +%s.%N)
node "$ROOT/test/slurm/compare.mjs" "$W/merged.jsonl" "$W/single.jsonl" | tee "$W/compare.out"
grep -q '^EQUAL' "$W/compare.out" || fail "the merge is not the single-process run"
say "merge == single-process run ($(printf '%.1f' "$(echo "$ts1 - $ts0" | bc)") s); merge summary:"
sed 's/^/    /' "$W/merge.err"

# ---------------------------------------------------------------- 5. the environment as Slurm sets it
SMALL=$W/small.txt
find "$ROOT/test/fixtures/analyzer" -type f -name '*.pdf' | sort >"$SMALL"
cat >"$W/env-task.sh" <<EOF
#!/usr/bin/env bash
echo "env: ID=\$SLURM_ARRAY_TASK_ID COUNT=\$SLURM_ARRAY_TASK_COUNT MIN=\$SLURM_ARRAY_TASK_MIN MAX=\$SLURM_ARRAY_TASK_MAX STEP=\${SLURM_ARRAY_TASK_STEP-unset}"
$PPD classify --files-from "$SMALL" --out "\$1" --resume
echo "status \$?"
EOF
chmod +x "$W/env-task.sh"
JOB3=$(sbatch --parsable --wait --array=1-3 --output="$W/logs/%A_%a.log" "$W/env-task.sh" "$W/out-1-3") || true
for id in 1 2 3; do
  grep -q "shard $((id - 1))/3 from SLURM_ARRAY_TASK_ID=$id (MIN 1, MAX 3, STEP 1, COUNT 3)" "$W/logs/${JOB3}_$id.log" ||
    fail "--array=1-3 task $id did not map to shard $((id - 1))/3: $(cat "$W/logs/${JOB3}_$id.log")"
done
$PPD merge "$W/out-1-3" -T "$SMALL" -q >/dev/null 2>"$W/merge13.err" || fail "merge of the --array=1-3 run failed: $(cat "$W/merge13.err")"
say "--array=1-3 mapped to shards 0-2 of 3 from SLURM_ARRAY_TASK_* and merged: $(wc -l <"$SMALL") files"
JOB4=$(sbatch --parsable --wait --array=3,5,9 --output="$W/logs/%A_%a.log" "$W/env-task.sh" "$W/out-359") || true
for id in 3 5 9; do
  L=$W/logs/${JOB4}_$id.log
  grep -q 'not a regular range' "$L" && grep -q '^status 2$' "$L" || fail "--array=3,5,9 task $id was not refused: $(cat "$L")"
done
[ -e "$W/out-359" ] && [ -n "$(ls -A "$W/out-359")" ] && fail "--array=3,5,9 tasks wrote parts"
say "--array=3,5,9 refused by every task (exit 2): $(grep -h '^env:' "$W/logs/${JOB4}_3.log")"
say "PASSED in $(($(date +%s) - t0)) s"
