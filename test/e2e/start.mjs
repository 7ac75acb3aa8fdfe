#!/usr/bin/env node
// `npm start`: packages the extension, installs it into a local code-server (a real VS Code, loopback only, no
// password, no network) and opens it on a sample workspace of the fixture PDFs — or on a folder given as argument.
//   npm start [-- /path/to/folder]        env: PORT (8780)
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, checkInstalled, installVsix, makeProfile, startServer } from './harness.mjs';
import { makeWorkspace } from './workspace.mjs';

const PORT = Number(process.env.PORT || 8780);
const RUN = path.join(ROOT, '.e2e-run', 'start');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
checkInstalled({ browser: false });
execSync('npm run -s package', { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
makeProfile(RUN);
const ws = process.argv[2] ? path.resolve(process.argv[2]) : makeWorkspace(path.join(RUN, 'sample-workspace'));
installVsix(RUN, path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`));
const server = await startServer(RUN, ws, PORT);
console.log(
  `\nPDF Page Diagnostics is running in VS Code (code-server) at:\n\n  ${server.base}/?folder=${encodeURIComponent(ws)}\n\nOpen it in a browser on this machine. Ctrl+C stops it. Server log: ${server.log}`,
);
// Ctrl+C, a kill or a closed terminal stop the server too: it runs in its own process group.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, async () => {
    await server.stop();
    process.exit(0);
  });
setInterval(() => {}, 1 << 30);
