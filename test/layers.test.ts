// The layering of the sources (issue 15), read with the TypeScript parser from every import, export … from, dynamic
// import(), import type node and require() of src/ and webview/:
//   src/analyzer   imports nothing outside src/analyzer: no Node builtin, no vscode, no other layer (packages: @noble only)
//   src/shared     no src/extension, src/cli, webview, no vscode; Node builtins only in its Node adapter
//   webview        only webview/ and src/shared/ (the protocol); no Node builtin, no vscode (packages: pdf.js only); and
//                  what it bundles (imports that are not type-only, followed through src/shared) reaches no analyzer code
//   src/cli        no src/extension, no webview, no vscode
//   src/extension  no src/cli, no webview
// The per-layer tsconfig.json files (see the root tsconfig.json) prove the same for the globals each layer uses (DOM,
// Node types). A self-test feeds the checker forbidden imports, so the check cannot pass by reading nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Layer = 'analyzer' | 'shared' | 'extension' | 'cli' | 'webview';

/** Known violations, each to be removed when its import moves (the test fails when one no longer occurs). */
const KNOWN: { file: string; spec: string; why: string }[] = [];

/** npm packages a layer may import (bundled); anything else is a decision to make here, not by accident. */
const PACKAGES: Partial<Record<Layer, string[]>> = {
  analyzer: ['@noble/ciphers', '@noble/hashes'],
  webview: ['pdfjs-dist'],
};

/** Files of src/shared that are Node-only adapters (never imported by the webview or the web extension host). */
const SHARED_NODE_ONLY = ['src/shared/nodeThreadWorker.ts'];

const FORBIDDEN: Record<Layer, Layer[]> = {
  analyzer: ['shared', 'extension', 'cli', 'webview'],
  shared: ['extension', 'cli', 'webview'],
  webview: ['analyzer', 'extension', 'cli'],
  cli: ['extension', 'webview'],
  extension: ['cli', 'webview'],
};

function layerOf(rel: string): Layer | undefined {
  const m = /^(?:src\/(analyzer|shared|extension|cli)|(webview))\//.exec(rel);
  return (m?.[1] ?? m?.[2]) as Layer | undefined;
}

interface Import {
  spec: string;
  line: number;
  /** erased by the compiler: `import type`, `export type`, every named binding `type`, or an `import('x').T` type */
  typeOnly: boolean;
}

/** Every module specifier of a source text, found by the TypeScript parser (not by a pattern over the text). */
export function importsOf(fileName: string, text: string): Import[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Import[] = [];
  const add = (node: ts.Node, spec: ts.Expression | undefined, typeOnly: boolean) => {
    if (spec && ts.isStringLiteralLike(spec))
      out.push({ spec: spec.text, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node, node.moduleSpecifier, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal, true);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isImport || isRequire) add(node, node.arguments[0], false);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      add(node, node.name, true); // declare module 'x' { … } augments x
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  for (const r of sf.typeReferenceDirectives) out.push({ spec: r.fileName, line: 1, typeOnly: true });
  for (const r of sf.referencedFiles) out.push({ spec: r.fileName.replace(/\.d\.ts$|\.ts$/, ''), line: 1, typeOnly: true });
  return out;
}

const NODE_BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The repo-relative path a relative specifier names (with its .ts / /index.ts), as far as the file exists or not. */
function resolveRelative(fromRel: string, spec: string, exists: (rel: string) => boolean): string {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec.replace(/\.js$/, '')));
  for (const c of [`${base}.ts`, `${base}/index.ts`, `${base}.d.ts`, base]) if (exists(c)) return c;
  return `${base}.ts`;
}

/**
 * The layering problems of one file (repo-relative path, its text). `exists` answers whether a repo-relative path is
 * a file (the self-test fakes it).
 */
export function layerProblems(rel: string, text: string, exists: (rel: string) => boolean = existsRel): string[] {
  const layer = layerOf(rel);
  if (!layer) return [];
  const problems: string[] = [];
  const bad = (im: Import, what: string) => problems.push(`${rel}:${im.line} imports '${im.spec}': ${what}`);
  for (const im of importsOf(rel, text)) {
    const { spec } = im;
    if (spec.startsWith('.')) {
      const target = resolveRelative(rel, spec, exists);
      const to = layerOf(target);
      if (layer === 'analyzer' && to !== 'analyzer') bad(im, `src/analyzer imports nothing outside src/analyzer (this is ${target})`);
      else if (to && FORBIDDEN[layer].includes(to)) bad(im, `${layer} must not import from ${to}`);
      else if (!to && layer !== 'analyzer') bad(im, `${layer} imports ${target}, which is in no layer`);
    } else if (spec.startsWith('node:') || NODE_BUILTINS.has(packageName(spec))) {
      if (layer === 'analyzer' || layer === 'webview' || (layer === 'shared' && !SHARED_NODE_ONLY.includes(rel)))
        bad(im, `${layer} must not use Node builtins`);
    } else if (spec === 'vscode') {
      if (layer !== 'extension') bad(im, `only src/extension may import vscode`);
    } else if (PACKAGES[layer] && !PACKAGES[layer].includes(packageName(spec))) {
      bad(im, `${layer} may import only the packages ${PACKAGES[layer].join(', ')} (see PACKAGES in test/layers.test.ts)`);
    }
  }
  return problems;
}

function existsRel(rel: string): boolean {
  return existsSync(path.join(ROOT, rel));
}

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    .filter((f) => f.endsWith('.ts'))
    .sort();
}

const FILES = ['src/analyzer', 'src/shared', 'src/extension', 'src/cli', 'webview'].flatMap(sources);

function isKnown(problem: string): boolean {
  return KNOWN.some((k) => problem.startsWith(`${k.file}:`) && problem.includes(` imports '${k.spec}':`));
}

test('self-test: the checker catches forbidden imports in every form, and passes allowed ones', () => {
  const files = new Set(['src/analyzer/lexer.ts', 'src/shared/protocol.ts', 'src/extension/model.ts', 'src/analyzer/index.ts', 'webview/dom.ts']);
  const check = (rel: string, text: string) => layerProblems(rel, text, (f) => files.has(f));
  const caught = (rel: string, text: string, pattern: RegExp) => {
    const p = check(rel, text);
    assert.equal(p.length, 1, `${rel}: ${text} gave ${JSON.stringify(p)}`);
    assert.match(p[0], pattern);
  };
  // analyzer: Node builtins in any spelling and form, vscode, other layers, packages not on the list
  caught('src/analyzer/x.ts', "import { readFileSync } from 'node:fs';", /Node builtins/);
  caught('src/analyzer/x.ts', "import * as zlib from 'zlib';", /Node builtins/);
  caught('src/analyzer/x.ts', "const w = await import('worker_threads');", /Node builtins/);
  caught('src/analyzer/x.ts', "const c = require('crypto');", /Node builtins/);
  caught('src/analyzer/x.ts', "import type { Uri } from 'vscode';", /vscode/);
  caught('src/analyzer/x.ts', "export { h } from '../shared/protocol';", /outside src\/analyzer/);
  caught('src/analyzer/x.ts', "let m: import('../extension/model').Thing;", /outside src\/analyzer/);
  caught('src/analyzer/x.ts', "import { x } from '../../test/fixtures';", /outside src\/analyzer/);
  caught('src/analyzer/x.ts', "import pako from 'pako';", /only the packages/);
  // webview: only webview/ and src/shared/; not the analyzer (even its types), not the extension
  caught('webview/x.ts', "import { analyzePdf } from '../src/analyzer/index';", /webview must not import from analyzer/);
  caught('webview/x.ts', "import type { PageRoute } from '../src/analyzer/types';", /webview must not import from analyzer/);
  caught('webview/x.ts', "const m = await import('../src/extension/model');", /webview must not import from extension/);
  caught('webview/x.ts', "import { join } from 'node:path';", /Node builtins/);
  // shared: not the extension or the CLI, not vscode
  caught('src/shared/x.ts', "export * from '../extension/model';", /shared must not import from extension/);
  caught('src/shared/x.ts', "import { main } from '../cli/main';", /shared must not import from cli/);
  caught('src/shared/x.ts', "import * as vscode from 'vscode';", /vscode/);
  caught('src/shared/x.ts', "import { Worker } from 'node:worker_threads';", /Node builtins/);
  caught('src/cli/x.ts', "import { failureReport } from '../extension/model';", /cli must not import from extension/);
  // a comment or a string that merely looks like an import is not one
  assert.deepEqual(check('src/analyzer/x.ts', "// import fs from 'node:fs'\nconst s = \"import('vscode')\";"), []);
  // allowed: inside the layer, the shared protocol, the listed packages, Node in the shared Node adapter
  assert.deepEqual(check('src/analyzer/x.ts', "import { Lexer } from './lexer';\nimport { cbc } from '@noble/ciphers/aes.js';"), []);
  assert.deepEqual(
    check('webview/x.ts', "import { h } from './dom';\nimport type { X } from '../src/shared/protocol';\nimport * as pdfjs from 'pdfjs-dist';"),
    [],
  );
  assert.deepEqual(check('src/shared/nodeThreadWorker.ts', "import { Worker } from 'node:worker_threads';"), []);
  assert.deepEqual(check('src/extension/x.ts', "import * as vscode from 'vscode';\nimport { h } from '../shared/protocol';"), []);
});

test('layers: no file of src/ or webview/ imports across the layering (besides the known exceptions)', () => {
  assert.ok(FILES.length > 50 && FILES.includes('src/analyzer/index.ts') && FILES.includes('webview/main.ts'), `read ${FILES.length} files`);
  const problems = FILES.flatMap((f) => layerProblems(f, readFileSync(path.join(ROOT, f), 'utf8')));
  assert.deepEqual(
    problems.filter((p) => !isKnown(p)),
    [],
  );
  // a known exception that no longer occurs is removed from KNOWN, so the list only shrinks
  const stale = KNOWN.filter((k) => !problems.some((p) => p.startsWith(`${k.file}:`) && p.includes(` imports '${k.spec}':`)));
  assert.deepEqual(stale, [], 'known exceptions that no longer occur: remove them from KNOWN in test/layers.test.ts');
});

test('webview bundle: what the webview imports for code (not type-only), followed through src/shared, holds no analyzer or extension module', () => {
  const seen = new Set<string>();
  const queue = sources('webview');
  const reached: string[] = [];
  while (queue.length) {
    const rel = queue.pop()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const layer = layerOf(rel);
    if (layer !== 'webview' && layer !== 'shared') reached.push(rel);
    if (layer === 'analyzer' || layer === 'extension' || !existsRel(rel)) continue;
    for (const im of importsOf(rel, readFileSync(path.join(ROOT, rel), 'utf8')))
      if (im.spec.startsWith('.') && !im.typeOnly) queue.push(resolveRelative(rel, im.spec, existsRel));
  }
  assert.ok(seen.has('src/shared/protocol.ts'), 'the webview reaches the shared protocol');
  assert.deepEqual(reached, [], 'the webview bundle would carry these modules');
});
