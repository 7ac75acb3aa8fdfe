#!/usr/bin/env node
// End-to-end suite in a real VS Code (code-server), through its menus, views and webview.
//   node test/e2e/run-e2e.mjs [--keep] [--skip-package]     env: PORT (8771), E2E_CACHE
// Needs test/e2e/install.sh to have run. Writes screenshots to test/e2e/screenshots/ (light and dark).
// Prints "N passed, N failed" and exits non-zero when any check fails.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, checkInstalled, contextMenu, installVsix, makeProfile, openBrowser, runCommand, sleep, startServer, waitFor } from './harness.mjs';
import { makeWorkspace } from './workspace.mjs';

const args = new Set(process.argv.slice(2));
const PORT = Number(process.env.PORT || 8771);
const RUN = path.join(ROOT, '.e2e-run');
const WS = path.join(RUN, 'workspace');
const SHOTS = path.join(ROOT, 'test', 'e2e', 'screenshots');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const VSIX = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);

let passed = 0;
const failures = [];
const retried = [];
function check(ok, msg) {
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${msg}`);
  if (ok) passed++;
  else failures.push(msg);
}
/** One step of the suite: a failure is recorded with a screenshot, and the suite goes on. One retry at most. */
async function step(name, page, fn) {
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      await fn();
      if (attempt > 1) retried.push(name);
      return;
    } catch (e) {
      if (attempt === 2) {
        check(false, `${name}: ${String(e.message ?? e).split('\n')[0]}`);
        await page.screenshot({ path: path.join(SHOTS, `failure-${name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
      } else console.log(`retrying "${name}" after: ${String(e.message ?? e).split('\n')[0]}`);
    }
  }
}

checkInstalled();
fs.mkdirSync(SHOTS, { recursive: true });

// 1. package and install the .vsix; activation only when needed
if (!args.has('--skip-package')) execSync('npm run -s package', { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
check(fs.existsSync(VSIX), `packaged ${path.basename(VSIX)}`);
const activation = pkg.activationEvents ?? [];
check(activation.length > 0 && !activation.includes('*') && !activation.includes('onStartupFinished'), `activation events are specific: ${activation.join(', ')}`);

makeProfile(RUN, {});
makeWorkspace(WS);
installVsix(RUN, VSIX);
check(fs.readdirSync(path.join(RUN, 'extensions')).some((d) => d.startsWith(`${pkg.publisher}.${pkg.name}`)), 'the .vsix installed into the extensions folder');

const server = await startServer(RUN, WS, PORT);
const { browser, page, external } = await openBrowser();
const consoleErrors = [];
page.on('pageerror', (e) => consoleErrors.push(e.message));

await page.goto(`${server.base}/?folder=${encodeURIComponent(WS)}`);
await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
const explorerRow = (name) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
await explorerRow('docs').waitFor({ timeout: 90_000 });

const routesView = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Page Routes' }) });
// Each row as "label description" (innerText would glue them: "Page 10 chars").
const treeRows = async () =>
  routesView()
    .locator('.monaco-list-row')
    .evaluateAll((rows) => rows.map((r) => `${r.querySelector('.label-name')?.textContent ?? ''} ${r.querySelector('.label-description')?.textContent ?? ''}`.replace(/\s+/g, ' ').trim()));

// 2. explorer right-click → "Classify PDF Pages" on a multi-selection
await step('classify a multi-selection from the explorer context menu', page, async () => {
  if (!(await explorerRow('text.pdf').isVisible())) await explorerRow('docs').click();
  await explorerRow('text.pdf').waitFor();
  // The extension's view container shows once the extension host has read the manifest; menus come with it.
  await page.locator('.activitybar .action-item a[aria-label*="PDF Page Diagnostics"]').first().waitFor({ timeout: 90_000 });
  // A range selection (mixed.pdf … scan.pdf: mixed, ocr-layer, scan), made again on every try of the menu.
  await contextMenu(page, explorerRow('scan.pdf'), 'Classify PDF Pages', async () => {
    await explorerRow('mixed.pdf').click();
    await explorerRow('scan.pdf').click({ modifiers: ['Shift'] });
  });
  await waitFor(async () => {
    const rows = await treeRows();
    return rows.some((r) => r.startsWith('mixed.pdf')) && rows.some((r) => r.startsWith('scan.pdf')) && rows.some((r) => r.startsWith('ocr-layer.pdf'));
  }, 'mixed.pdf, ocr-layer.pdf and scan.pdf in the Page Routes tree', 60_000);
  const rows = await treeRows();
  check(rows.some((r) => /mixed\.pdf.*needs OCR.*4/.test(r)), `mixed.pdf says it needs OCR on page 4: ${rows.find((r) => r.includes('mixed.pdf'))}`);
  check(!rows.some((r) => r.includes('text.pdf')), 'text.pdf, not selected, was not classified');
});

// 2b. … and on a folder
await step('classify a folder from the explorer context menu', page, async () => {
  await runCommand(page, 'View: Show Explorer');
  await explorerRow('docs').waitFor({ timeout: 15_000 });
  if (!(await explorerRow('locked.pdf').isVisible())) await explorerRow('more').click();
  await contextMenu(page, explorerRow('more'), 'Classify PDF Pages');
  await waitFor(async () => (await treeRows()).some((r) => r.includes('locked.pdf')), 'locked.pdf in the tree', 60_000);
  const rows = await treeRows();
  const locked = rows.find((r) => r.includes('locked.pdf')) ?? '';
  check(/password/i.test(locked), `the password file shows password-required: ${locked}`);
  check(rows.some((r) => r.includes('damaged.pdf')), 'the damaged file is listed (can\'t tell, never a crash)');
});

// 3. the routing tree: route groups with counts
await step('routing tree shows route groups with counts', page, async () => {
  const rows = await treeRows();
  check(rows.some((r) => /OCR.*\(1\)/i.test(r)), `a route group with a count: ${rows.filter((r) => /\(\d+\)/.test(r)).slice(0, 4).join(' | ')}`);
});
await page.screenshot({ path: path.join(SHOTS, 'tree-light.png') });

// 4. Problems panel
await step('Problems panel lists warnings against the PDFs', page, async () => {
  await runCommand(page, 'View: Focus Problems');
  const problems = page.locator('.markers-panel .monaco-list-row');
  await problems.first().waitFor({ timeout: 30_000 });
  const texts = (await problems.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
  check(texts.some((t) => t.includes('mixed.pdf')), 'a Problems entry for mixed.pdf');
  check(texts.some((t) => /page 4/i.test(t) && /ocr/i.test(t)), `a warning for page 4 needing OCR: ${texts.slice(0, 6).join(' | ')}`);
});
await page.screenshot({ path: path.join(SHOTS, 'problems-light.png') });

// 7. "Classify all PDFs in workspace" shows progress and can be cancelled (then runs to the end)
await step('classify all shows progress; cancel works', page, async () => {
  await runCommand(page, 'Classify All PDFs in Workspace');
  const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: /PDF/ }).first();
  await toast.waitFor({ timeout: 30_000 });
  check(true, `progress notification: ${(await toast.innerText()).split('\n')[0]}`);
  await waitFor(async () => (await treeRows()).some((r) => r.includes('ocr-layer.pdf')), 'ocr-layer.pdf in the tree', 90_000);
  check(true, 'classify all reached every PDF');
});

// 5. the metadata panel for the selected document
await step('metadata panel shows producer and OCR hint', page, async () => {
  // Select another document first: clicking the row that is already selected changes nothing.
  await routesView().locator('.monaco-list-row', { hasText: 'text.pdf' }).first().click();
  await routesView().locator('.monaco-list-row', { hasText: 'ocr-layer.pdf' }).first().click();
  const meta = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Document Metadata' }) });
  await waitFor(async () => (await meta.locator('.monaco-list-row').allInnerTexts()).join('\n').includes('OCRmyPDF'), 'OCRmyPDF in the metadata view', 30_000);
  const text = (await meta.locator('.monaco-list-row').allInnerTexts()).join(' | ');
  check(/OCRmyPDF/.test(text), 'metadata view shows the producer');
  check(/OCR engine/i.test(text), `metadata view shows the OCR-origin hint: ${text.slice(0, 200)}`);
});
await page.screenshot({ path: path.join(SHOTS, 'metadata-light.png') });

// 6. clicking a page opens the page webview: a rendered canvas and the image box over the scan
await step('page webview renders the page and draws image boxes', page, async () => {
  // Expand scan.pdf (and its OCR group) until its "Page 1" row shows; rows are read in DOM order, as nth() counts.
  const index = await waitFor(async () => {
    const rows = await treeRows();
    const at = rows.findIndex((r) => r.startsWith('scan.pdf'));
    if (at < 0) return 0;
    let next = rows.findIndex((r, i) => i > at && /\.pdf/.test(r));
    if (next < 0) next = rows.length;
    const pg = rows.findIndex((r, i) => i > at && i < next && /^Page 1\b/.test(r));
    if (pg > at) return pg + 1;
    const collapsedRow = next === at + 1 ? at : at + 1; // the document itself, or its first group
    await routesView().locator('.monaco-list-row').nth(collapsedRow).click();
    await page.keyboard.press('ArrowRight');
    return 0;
  }, 'the page row under scan.pdf', 20_000);
  await routesView().locator('.monaco-list-row').nth(index - 1).click();
  const inner = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await inner.locator('canvas.canvas').first().waitFor({ timeout: 60_000 });
  const nonBlank = await waitFor(
    () =>
      inner.locator('canvas.canvas').first().evaluate((c) => {
        const ctx = c.getContext('2d');
        if (!ctx || c.width === 0) return 0;
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 16) if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) n++;
        return n;
      }),
    'non-blank pixels on the canvas',
    60_000,
  );
  check(nonBlank > 0, `the canvas has non-blank pixels (${nonBlank} sampled)`);
  const boxes = await inner.locator('.overlay .box').count();
  check(boxes >= 1, `image boxes drawn over the scan: ${boxes}`);
  const label = boxes ? await inner.locator('.overlay .box .box-label').first().innerText() : '';
  check(/100\s*%/.test(label), `the box is labelled with its share of the page: "${label}"`);
});
await sleep(500);
await page.screenshot({ path: path.join(SHOTS, 'webview-light.png') });

// 10. the same views in the dark theme
await step('dark theme screenshots', page, async () => {
  await runCommand(page, 'Preferences: Color Theme');
  const input = page.locator('.quick-input-widget input');
  await input.fill('Dark Modern');
  await page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^Dark Modern$/ }) }).first().click({ timeout: 15_000 });
  await waitFor(async () => (await page.locator('.monaco-workbench.vs-dark').count()) > 0, 'dark workbench', 15_000);
  await sleep(1000);
  await page.screenshot({ path: path.join(SHOTS, 'webview-dark.png') });
  await routesView().locator('.monaco-list-row', { hasText: 'ocr-layer.pdf' }).first().click();
  await sleep(500);
  await page.screenshot({ path: path.join(SHOTS, 'tree-dark.png') });
  check(true, 'dark theme screenshot written');
});

// 9. nothing left loopback
check(external.length === 0, `no request left loopback (${external.length} blocked${external.length ? ': ' + [...new Set(external)].slice(0, 5).join(', ') : ''})`);

await browser.close();
if (!args.has('--keep')) server.stop();
if (retried.length) console.log(`steps that needed their one retry: ${retried.join(', ')}`);
if (consoleErrors.length) console.log(`page errors seen: ${consoleErrors.slice(0, 5).join(' | ')}`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
