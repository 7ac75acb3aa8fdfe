#!/usr/bin/env bash
# One task of a Slurm job array running `pdf-page-diagnostics classify` over its shard of a work list (issue 17).
#
#   sbatch --array=0-$((N-1)) scripts/slurm/classify-array.sh LIST OUTDIR N [classify options...]
#
# LIST     the work list, one path per line (make it once: find /archive -name '*.pdf' > LIST); every task reads all
#          of it and keeps the paths that hash to its shard
# OUTDIR   shared directory for the parts (part-<i>-of-<N>.jsonl and their done markers)
# N        the number of shards: the array must be 0-(N-1). The task id is the 0-based shard index, so resubmitting
#          only failed ids (sbatch --array=3,5 …) keeps every shard where it belongs
#
# Always --resume: a requeued, preempted or resubmitted task keeps the records already in its part and does only
# what is missing; a shard already complete exits at once. Set PPD to the command if it is not on PATH, e.g.
# PPD="node /opt/ppd/dist/cli.js". Extra arguments go to classify (e.g. -L timeBudgetMs=5000 --fast-resume).
#SBATCH --job-name=ppd-classify
#SBATCH --cpus-per-task=1
#SBATCH --output=ppd-classify-%A_%a.log
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: sbatch --array=0-\$((N-1)) $0 LIST OUTDIR N [classify options...]" >&2
  exit 2
fi
list=$1 out=$2 shards=$3
shift 3
# shellcheck disable=SC2086 # PPD may be a command with arguments
exec ${PPD:-pdf-page-diagnostics} classify --files-from "$list" --shard-count "$shards" --out "$out" --resume \
  --jobs "${SLURM_CPUS_PER_TASK:-1}" "$@"
