/**
 * The CLI as pipelines use it: the built `dist/cli.js` run as a process (npm test builds first), its JSON lines and
 * table, its exit codes, and worker threads (--jobs).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parseArgs } from '../src/cli/main';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = `${root}dist/cli.js`;
const fx = (name: string) => `${root}test/fixtures/analyzer/${name}`;

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('parseArgs: flags, numbers and usage errors', () => {
  const a = parseArgs(['classify', 'a.pdf', '--json', '--jobs', '3', 'dir']);
  assert.ok(typeof a !== 'string');
  assert.deepEqual(a.paths, ['a.pdf', 'dir']);
  assert.equal(a.json, true);
  assert.equal(a.jobs, 3);
  assert.match(parseArgs(['classify']) as string, /no files given/);
  assert.match(parseArgs(['classify', 'x', '--jobs', '0']) as string, /positive whole number/);
  assert.match(parseArgs(['classify', 'x', '--bogus']) as string, /unknown option/);
  assert.match(parseArgs(['frobnicate']) as string, /unknown command/);
});

test('cli: --json prints one object per file per line with the contract fields', { skip: !existsSync(cli) && 'dist/cli.js not built' }, () => {
  const r = run(['classify', fx('17-mixed.pdf'), fx('06-enc-user-password.pdf'), fx('21-not-a-pdf.pdf'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 3);
  const [mixed, locked, junk] = lines;
  for (const k of ['file', 'pageCount', 'needsOcr', 'ocrPages', 'routeCounts', 'encryption', 'metadata', 'pages']) assert.ok(k in mixed, k);
  assert.equal(mixed.needsOcr, true);
  assert.deepEqual(mixed.ocrPages, [4]);
  for (const k of ['page', 'route', 'reasons', 'visibleChars', 'invisibleChars', 'imageCoverage', 'imageBoxes', 'fonts', 'vectorOps', 'boxes', 'rotate']) {
    assert.ok(k in mixed.pages[0], k);
  }
  assert.equal(locked.error.reason, 'password-required');
  assert.ok(locked.pages.every((p: { route: string }) => p.route === 'unknown'));
  assert.equal(junk.needsOcr, false);
  assert.ok(junk.error, 'not-a-pdf has an error');
});

test('cli: the table, directories, --jobs keeps input order, usage errors exit 2', { skip: !existsSync(cli) && 'dist/cli.js not built' }, () => {
  const one = run(['classify', fx('17-mixed.pdf'), '--pages']);
  assert.equal(one.code, 0);
  assert.match(one.stdout, /needs OCR: pages 4/);
  assert.match(one.stdout, /\n\s+4\s+ocr\s/);
  const serial = run(['classify', `${root}test/fixtures/analyzer`, '--json']);
  const parallel = run(['classify', `${root}test/fixtures/analyzer`, '--json', '--jobs', '2']);
  assert.equal(serial.code, 0);
  const files = (s: string) => s.trim().split('\n').map((l) => JSON.parse(l).file as string);
  assert.ok(files(serial.stdout).length >= 20);
  assert.deepEqual(files(parallel.stdout), files(serial.stdout));
  const strip = (s: string) => s.trim().split('\n').map((l) => ({ ...JSON.parse(l), elapsedMs: 0 }));
  assert.deepEqual(strip(parallel.stdout), strip(serial.stdout));
  assert.equal(run(['classify']).code, 2);
  assert.equal(run(['classify', 'x.pdf', '--jobs', 'many']).code, 2);
  const missing = run(['classify', `${root}no-such-file.pdf`]);
  assert.equal(missing.code, 0);
  assert.match(missing.stdout, /can't tell/);
});

test('the analyzer bundle is platform-neutral: no Node built-ins, no require', { skip: !existsSync(`${root}dist/analyzer/index.js`) && 'not built' }, () => {
  const src = readFileSync(`${root}dist/analyzer/index.js`, 'utf8');
  assert.doesNotMatch(src, /from ["']node:|\brequire\(["']|\bprocess\.|(?<![A-Za-z])Buffer\./);
});
