#!/usr/bin/env bash
# Proves the README's quick start on a fresh machine: a clone of this repository in a folder whose path has spaces,
# with an empty home and npm cache, runs `npm ci && npm start` three times: the first run is interrupted during the
# install, the second must serve VS Code (its URL answers over loopback), and so must the third (a warm rerun).
# Leaves the home it made at $QS_HOME (for the e2e suite to reuse its code-server) when QS_HOME is set.
#   bash test/e2e/quickstart-check.sh          env: QS_HOME (default: a temp folder), PORT (8790), QS_INTERRUPT_AFTER (20 s into the code-server install)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d)
QS_HOME=${QS_HOME:-$TMP/home}
PORT=${PORT:-8790}
DIR="$TMP/quick start/pdf page diagnostics"
mkdir -p "$QS_HOME" "$(dirname "$DIR")"
git clone -q "$REPO" "$DIR"
# a fresh shell's environment: empty home and cache, nothing of the calling npm's (the machine's own settings, such
# as its CA certificates and global npm config, stay)
run_env=(env -u E2E_CACHE -u INIT_CWD)
for v in $(compgen -e); do case "$v" in npm_*|NPM_*) run_env+=(-u "$v") ;; esac; done
run_env+=(HOME="$QS_HOME" PORT="$PORT")

pid=
stop() { [ -n "$pid" ] && kill -TERM -- "-$pid" 2>/dev/null || true; [ -n "$pid" ] && wait "$pid" 2>/dev/null || true; pid=; }
trap stop EXIT
start() { # LOG: starts the quick-start line in its own process group
  (cd "$DIR" && exec setsid "${run_env[@]}" bash -c 'npm ci --no-audit --no-fund && npm start' > "$1" 2>&1) &
  pid=$!
}
await_url() { # LOG SECONDS: waits for the printed URL, then checks that it answers
  local end=$(( $(date +%s) + $2 ))
  while ! grep -q "http://127.0.0.1:$PORT/?folder=" "$1"; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$(date +%s)" -gt "$end" ]; then tail -40 "$1"; echo "quick start: no URL (log: $1)"; return 1; fi
    sleep 2
  done
  local url; url=$(grep -o "http://127.0.0.1:$PORT/?folder=[^ ]*" "$1" | head -1)
  curl -fsS -o /dev/null "$url" && curl -fsS "http://127.0.0.1:$PORT/healthz" | grep -q status
  echo "quick start: $url answers"
}
t0=$(date +%s)
# run 1 is interrupted in the middle of the code-server install (the step that leaves the most behind)
start "$TMP/run1.log"
for i in $(seq 300); do grep -q "installing code-server" "$TMP/run1.log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 1; done
sleep "${QS_INTERRUPT_AFTER:-20}"
stop
echo "quick start: first run interrupted: $(tail -1 "$TMP/run1.log")"
for n in 2 3; do
  start "$TMP/run$n.log"
  await_url "$TMP/run$n.log" 900
  stop
  # the server is gone with its process group
  for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" || break; sleep 0.2; done
  ! curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" || { echo "quick start: server still up after stop"; exit 1; }
  echo "quick start: run $n ok after $(( $(date +%s) - t0 )) s"
done
rm -rf "$TMP/quick start"
echo "quick start check passed in $(( $(date +%s) - t0 )) s"
