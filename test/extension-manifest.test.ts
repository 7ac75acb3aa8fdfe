import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

test('activation only on commands, views, the custom editor and the preview panel', () => {
  assert.ok(!pkg.activationEvents.includes('*'));
  assert.ok(!pkg.activationEvents.includes('onStartupFinished'));
  for (const e of pkg.activationEvents) assert.match(e, /^on(Command|View|CustomEditor|WebviewPanel):pdfPageDiagnostics\./);
});

test('every command used in a menu is declared', () => {
  const declared = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
  for (const [menu, items] of Object.entries(pkg.contributes.menus) as [string, { command: string }[]][]) {
    for (const it of items) assert.ok(declared.has(it.command), `${menu}: ${it.command}`);
  }
});

test('explorer menu matches .pdf case-insensitively and folders', () => {
  const when: string = pkg.contributes.menus['explorer/context'][0].when;
  assert.match(when, /resourceExtname =~ \/\^\\\.pdf\$\/i/);
  assert.match(when, /explorerResourceIsFolder/);
});

test('desktop and web entry points, untrusted and virtual workspaces, engine kept', () => {
  assert.equal(pkg.main, './dist/extension.cjs');
  assert.equal(pkg.browser, './dist/web/extension.cjs');
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, true);
  assert.equal(pkg.capabilities.virtualWorkspaces, true);
  assert.equal(pkg.engines.vscode, '^1.95.0');
});

test('custom editor is opt-in for *.pdf', () => {
  const [ed] = pkg.contributes.customEditors;
  assert.equal(ed.priority, 'option');
  assert.ok(ed.selector.some((s: { filenamePattern: string }) => s.filenamePattern === '*.pdf'));
});

test('icons referenced by the manifest exist', () => {
  assert.ok(existsSync(new URL(pkg.icon, root)));
  for (const c of pkg.contributes.viewsContainers.activitybar) assert.ok(existsSync(new URL(c.icon, root)));
});
