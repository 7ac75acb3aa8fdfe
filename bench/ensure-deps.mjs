#!/usr/bin/env node
// Installs the benchmark's own dependencies (bench/package.json: MuPDF.js, a baseline only) into bench/node_modules
// when they are missing or differ from bench/package-lock.json. `npm run bench` runs this first; the extension's
// `npm ci` never fetches them. `npm run bench:install` forces a clean install.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const lock = JSON.parse(readFileSync(path.join(BENCH, 'package-lock.json'), 'utf8'));

function stale() {
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/')) continue;
    const manifest = path.join(BENCH, key, 'package.json');
    if (!existsSync(manifest)) return `${key.slice('node_modules/'.length)} missing`;
    const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (version !== entry.version) return `${key.slice('node_modules/'.length)} ${version}, lock says ${entry.version}`;
  }
  return null;
}

const why = stale();
if (why) {
  process.stderr.write(`bench: installing the benchmark's dependencies (${why})\n`);
  // Under `npm run`, npm exports npm_config_* variables (local_prefix among them) that an inner npm would take as
  // its own configuration and install into the repository root; drop them and name the prefix.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_(local_prefix|prefix|global)$/i.test(k)));
  const npmCli = process.env.npm_execpath;
  const [cmd, pre] = npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
  const r = spawnSync(cmd, [...pre, 'ci', '--prefix', BENCH, '--no-audit', '--no-fund'], {
    cwd: BENCH,
    env,
    stdio: 'inherit',
    shell: cmd === 'npm' && process.platform === 'win32',
  });
  if (r.status !== 0) {
    process.stderr.write(`bench: npm ci in bench/ failed (${r.error?.message ?? `exit ${r.status}`})\n`);
    process.exit(r.status || 1);
  }
  const still = stale();
  if (still) {
    process.stderr.write(`bench: still not installed after npm ci: ${still}\n`);
    process.exit(1);
  }
}
