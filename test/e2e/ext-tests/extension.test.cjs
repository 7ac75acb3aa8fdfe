// Integration tests inside the extension host with the real `vscode` API, on the e2e fixture workspace
// (docs/text, scan, mixed, ocr-layer, docs/more/locked, damaged, truncated). The extension is loaded from the repo
// (extensionDevelopmentPath), so dist/ must be built.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const ID = 'pdf-page-diagnostics.pdf-page-diagnostics';
const ext = () => vscode.extensions.getExtension(ID);
const ws = () => vscode.workspace.workspaceFolders[0].uri;
const file = (rel) => vscode.Uri.joinPath(ws(), ...rel.split('/'));
const diags = (rel) => vscode.languages.getDiagnostics(file(rel));
/** A diagnostic's code: ours are { value, target } (the target opens the page preview or the password prompt). */
const codeOf = (d) => (typeof d.code === 'object' && d.code ? d.code.value : d.code);

/** Each tree row as VS Code receives it: label, description, children. */
async function treeRows(node, depth = 0) {
  const tree = ext().exports.routesTree;
  const out = [];
  for (const child of await tree.getChildren(node)) {
    const item = await tree.getTreeItem(child);
    const label = typeof item.label === 'string' ? item.label : item.label.label;
    out.push({ label, description: String(item.description ?? ''), depth, children: depth < 2 ? await treeRows(child, depth + 1) : [] });
  }
  return out;
}

suite('extension host', () => {
  test('is present and not active before it is needed', () => {
    assert.ok(ext(), `${ID} is not loaded`);
    assert.strictEqual(ext().isActive, false, 'activated at startup although nothing asked for it');
  });

  test('every contributed command is registered once it activates', async () => {
    await ext().activate();
    const manifest = JSON.parse(fs.readFileSync(path.join(ext().extensionPath, 'package.json'), 'utf8'));
    const contributed = manifest.contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepStrictEqual(
      contributed.filter((c) => !registered.has(c)),
      [],
      'contributed but not registered',
    );
  });

  test('classify with the explorer arguments (clicked, selection) classifies the whole selection', async () => {
    await vscode.commands.executeCommand('pdfPageDiagnostics.clearResults');
    const sel = ['docs/mixed.pdf', 'docs/scan.pdf', 'docs/more/locked.pdf'].map(file);
    await vscode.commands.executeCommand('pdfPageDiagnostics.classify', sel[1], sel);
    const mixed = diags('docs/mixed.pdf');
    assert.ok(
      mixed.some((d) => codeOf(d) === 'ocr' && /Page 4/.test(d.message) && d.severity === vscode.DiagnosticSeverity.Warning),
      `mixed.pdf: ${JSON.stringify(mixed.map((d) => d.message))}`,
    );
    assert.ok(
      diags('docs/scan.pdf').some((d) => codeOf(d) === 'ocr'),
      'scan.pdf has an ocr warning',
    );
    assert.ok(
      diags('docs/more/locked.pdf').some((d) => codeOf(d) === 'password-required'),
      'locked.pdf has password-required',
    );
    assert.deepStrictEqual(diags('docs/text.pdf'), [], 'text.pdf was not selected and has no entries');
    for (const d of mixed) assert.strictEqual(d.source, 'PDF Page Diagnostics');
  });

  test('the routing tree holds each document with its route groups and counts', async () => {
    const rows = await treeRows();
    assert.deepStrictEqual(rows.map((r) => r.label).sort(), ['locked.pdf', 'mixed.pdf', 'scan.pdf']);
    const mixed = rows.find((r) => r.label === 'mixed.pdf');
    assert.match(mixed.description, /needs OCR: page 4/);
    assert.deepStrictEqual(mixed.children.map((g) => g.label).sort(), ['OCR (1)', 'text (3)']);
    const ocr = mixed.children.find((g) => g.label === 'OCR (1)');
    assert.deepStrictEqual(
      ocr.children.map((p) => p.label),
      ['Page 4'],
    );
    assert.match(rows.find((r) => r.label === 'locked.pdf').description, /can't tell: password required/);
  });

  test('classify on a folder takes the PDFs below it, damaged ones included', async () => {
    await vscode.commands.executeCommand('pdfPageDiagnostics.classify', file('docs/more'), [file('docs/more')]);
    const labels = (await treeRows()).map((r) => r.label);
    for (const name of ['damaged.pdf', 'truncated.pdf', 'locked.pdf']) assert.ok(labels.includes(name), `${name} in ${labels}`);
    assert.ok(
      diags('docs/more/damaged.pdf').some((d) => codeOf(d) === 'not-a-pdf'),
      JSON.stringify(diags('docs/more/damaged.pdf').map((d) => codeOf(d))),
    );
  });

  test('Problems entries claim no text position and link to their page', async () => {
    const d = diags('docs/mixed.pdf').find((x) => codeOf(x) === 'ocr');
    assert.ok(d, 'the ocr entry of mixed.pdf');
    assert.ok(d.range.isEmpty && d.range.start.line === 0 && d.range.start.character === 0, JSON.stringify(d.range));
    assert.strictEqual(d.code.target.scheme, 'command');
    assert.strictEqual(d.code.target.path, 'pdfPageDiagnostics.showPagePreview');
    assert.deepStrictEqual(JSON.parse(decodeURIComponent(d.code.target.query)), [file('docs/mixed.pdf').toString(), 4]);
    const locked = diags('docs/more/locked.pdf').find((x) => codeOf(x) === 'password-required');
    assert.strictEqual(locked.code.target.path, 'pdfPageDiagnostics.enterPassword');
  });

  test('the stored results of this window are kept in its workspace storage', async () => {
    const restored = await ext().exports.restored;
    assert.ok(restored, 'a folder is open: results are stored');
    assert.ok(ext().exports.analysed() >= 1, 'files were analysed in this window');
  });

  test('a poor OCR layer: the re-OCR group in the tree and one warning in Problems (layer quality is on by default)', async () => {
    const doc = file('docs/zoning-minutes.pdf');
    await vscode.commands.executeCommand('pdfPageDiagnostics.classify', doc, [doc]);
    const all = diags('docs/zoning-minutes.pdf');
    const re = all.filter((d) => codeOf(d) === 'reocr');
    assert.strictEqual(re.length, 1, JSON.stringify(all.map((d) => d.message)));
    assert.strictEqual(re[0].message, 'OCR layer poor on pages 2, 4: re-OCR advised');
    assert.strictEqual(re[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.strictEqual(re[0].code.target.path, 'pdfPageDiagnostics.showPagePreview');
    assert.deepStrictEqual(JSON.parse(decodeURIComponent(re[0].code.target.query)), [doc.toString(), 2]);
    const row = (await treeRows()).find((r) => r.label === 'zoning-minutes.pdf');
    assert.ok(row, 'zoning-minutes.pdf in the tree');
    assert.match(row.description, /re-OCR pages 2, 4/);
    const group = row.children.find((g) => /^re-OCR advised/.test(g.label));
    assert.ok(group, `a re-OCR group: ${row.children.map((g) => g.label).join(', ')}`);
    assert.strictEqual(group.label, 're-OCR advised (2)');
    assert.deepStrictEqual(
      group.children.map((p) => p.label),
      ['Page 2', 'Page 4'],
    );
    for (const p of group.children) assert.match(p.description, /^layer poor \(\d\.\d\d\) · re-OCR/);
    const layers = row.children.find((g) => g.label === 'OCR layer (4)');
    assert.ok(layers, row.children.map((g) => g.label).join(', '));
    assert.match(layers.children[0].description, /^layer good \(\d\.\d\d\)/);
  });

  test('Clear Results empties the tree and the diagnostics collection', async () => {
    await vscode.commands.executeCommand('pdfPageDiagnostics.clearResults');
    assert.deepStrictEqual(await treeRows(), []);
    const left = vscode.languages.getDiagnostics().filter(([, ds]) => ds.some((d) => d.source === 'PDF Page Diagnostics' && ds.length));
    assert.deepStrictEqual(
      left.map(([u]) => u.toString()),
      [],
    );
  });
});
