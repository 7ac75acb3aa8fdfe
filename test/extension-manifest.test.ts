import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RESTRICTED_SETTINGS } from '../src/extension/settings';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

test('activation only on commands, views, the custom editor and the preview panel', () => {
  assert.ok(!pkg.activationEvents.includes('*'));
  assert.ok(!pkg.activationEvents.includes('onStartupFinished'));
  for (const e of pkg.activationEvents) assert.match(e, /^on(Command|View|CustomEditor|WebviewPanel):pdfPageDiagnostics\./);
});

test('every command used in a menu is declared', () => {
  const declared = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
  for (const [menu, items] of Object.entries<{ command: string }[]>(pkg.contributes.menus)) {
    for (const it of items) assert.ok(declared.has(it.command), `${menu}: ${it.command}`);
  }
});

test('explorer menu matches .pdf case-insensitively and folders', () => {
  const when: string = pkg.contributes.menus['explorer/context'][0].when;
  assert.match(when, /resourceExtname =~ \/\^\\\.pdf\$\/i/);
  assert.match(when, /explorerResourceIsFolder/);
});

test('toolbar icons are codicons that exist; Classify All has its own, not the search glass', () => {
  const csv = readFileSync(new URL('node_modules/@vscode/codicons/dist/codicon.csv', root), 'utf8');
  const known = new Set(csv.split('\n').map((l) => l.split(',')[0].trim()));
  for (const c of pkg.contributes.commands as { command: string; icon?: string }[]) {
    if (!c.icon) continue;
    const m = /^\$\(([a-z0-9-]+)\)$/.exec(c.icon);
    assert.ok(m && known.has(m[1]), `${c.command}: ${c.icon} is a codicon`);
  }
  const icon = (id: string) => pkg.contributes.commands.find((c: { command: string }) => c.command === id).icon;
  assert.equal(icon('pdfPageDiagnostics.classifyWorkspace'), '$(run-all)');
});

test('Page Routes title bar: filter, clear filter, grouping, refresh, export and clear show only with results', () => {
  const items: { command: string; when: string }[] = pkg.contributes.menus['view/title'];
  const needResults = [
    'pdfPageDiagnostics.filterRoutes',
    'pdfPageDiagnostics.clearFilter',
    'pdfPageDiagnostics.groupByPage',
    'pdfPageDiagnostics.groupByRoute',
    'pdfPageDiagnostics.refresh',
    'pdfPageDiagnostics.exportReport',
    'pdfPageDiagnostics.clearResults',
  ];
  for (const id of needResults) {
    const it = items.find((i) => i.command === id);
    assert.ok(it, `${id} in the title bar`);
    assert.match(it.when, /&& pdfPageDiagnostics\.hasResults\b/, `${id}: ${it.when}`);
  }
  // Classify All is how you get results: always there.
  const all = items.find((i) => i.command === 'pdfPageDiagnostics.classifyWorkspace');
  assert.ok(all && !/hasResults/.test(all.when));
});

test('desktop and web entry points, untrusted and virtual workspaces, engine kept', () => {
  assert.equal(pkg.main, './dist/extension.cjs');
  assert.equal(pkg.browser, './dist/web/extension.cjs');
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
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

test('untrusted workspaces: "limited" with every limit setting restricted (VS Code reads the list only for "limited")', () => {
  const u = pkg.capabilities.untrustedWorkspaces;
  assert.equal(u.supported, 'limited');
  assert.equal(typeof u.description, 'string');
  assert.ok(u.description.length > 0);
  const restricted: string[] = u.restrictedConfigurations;
  const props: Record<string, unknown> = pkg.contributes.configuration.properties;
  // every limit by name: the limits.* settings, the file size cap and the worker count
  const limits = Object.keys(props).filter((k) => /^pdfPageDiagnostics\.limits\./.test(k));
  assert.ok(limits.length >= 7, 'time, pages, memory, stream, page content, operators, image boxes');
  for (const k of [...limits, 'pdfPageDiagnostics.maxFileSizeMB', 'pdfPageDiagnostics.workerCount']) {
    assert.ok(restricted.includes(k), `${k} is restricted`);
  }
  // only contributed settings, and the list the code uses
  for (const k of restricted) assert.ok(k in props, `${k} is contributed`);
  assert.deepEqual([...restricted].sort(), [...RESTRICTED_SETTINGS].sort());
});

test('every numeric setting has a minimum and a maximum, and its default lies between them', () => {
  const props: Record<string, { type: string; default: number; minimum?: number; maximum?: number }> = pkg.contributes.configuration.properties;
  let numeric = 0;
  for (const [key, p] of Object.entries(props)) {
    if (p.type !== 'number' && p.type !== 'integer') continue;
    numeric++;
    assert.equal(typeof p.minimum, 'number', `${key} minimum`);
    assert.equal(typeof p.maximum, 'number', `${key} maximum`);
    assert.ok(p.minimum! <= p.default && p.default <= p.maximum!, `${key} default within bounds`);
  }
  assert.ok(numeric >= 17);
});

test('the time budget maximum keeps the overrun timer within setTimeout (2^31 - 1 ms)', () => {
  const max: number = pkg.contributes.configuration.properties['pdfPageDiagnostics.limits.timeBudgetMs'].maximum;
  // the pool stops a worker at 1.5 x budget + a grace period of seconds
  assert.ok(Math.ceil(max * 1.5) + 60_000 <= 2 ** 31 - 1);
});

test('F5: .vscode/launch.json starts an Extension Development Host after the build task', () => {
  const launch = JSON.parse(readFileSync(new URL('.vscode/launch.json', root), 'utf8'));
  const tasks = JSON.parse(readFileSync(new URL('.vscode/tasks.json', root), 'utf8'));
  const run = launch.configurations.find((c: { name: string }) => c.name === 'Run Extension');
  assert.ok(run, 'a "Run Extension" configuration');
  assert.equal(run.type, 'extensionHost');
  assert.equal(run.request, 'launch');
  assert.ok(run.args.includes('--extensionDevelopmentPath=${workspaceFolder}'));
  assert.deepEqual(run.outFiles, ['${workspaceFolder}/dist/**/*.cjs']);
  for (const c of launch.configurations) {
    const task = tasks.tasks.find((t: { label: string }) => t.label === c.preLaunchTask);
    assert.ok(task, `${c.name}: preLaunchTask "${c.preLaunchTask}" is a task`);
    assert.equal(task.type, 'npm');
    assert.equal(task.script, 'build');
    assert.ok(pkg.scripts[task.script]);
  }
});
