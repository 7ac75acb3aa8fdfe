/**
 * Classifying files: stat → size check → read through workspace.fs → content hash → cache → analysis pool → store.
 * The cache is keyed on the bytes' SHA-256 (and the options), not on size and mtime, so a same-size rewrite within
 * the mtime resolution is analysed again; the file is read for the hash even when the report turns out cached.
 * Also the PDF discovery for folders and the workspace (findFiles honours files.exclude).
 */
import * as vscode from 'vscode';
import type { AnalyzerOptions } from '../analyzer/options';
import type { AnalysisPool } from './analysisPool';
import type { DocumentReport } from '../analyzer/types';
import { MAX_RUNS_PER_PAGE } from '../shared/protocol';
import { failureReport } from './model';
import type { Passwords } from './passwords';
import type { ResultStorage } from './persist';
import { optionsKey, type ExtensionSettings } from './settings';
import { sha256Hex, type ReportStore, type Stamp, type StoreEntry } from './store';

/** Appended to the options key of a report made with a password: the key says that one was used, never which. */
export const PASSWORD_MARK = ';password';

export interface ClassifierExtras {
  /** stored results (persist.ts): a report of the same content, analyzer and options is read instead of analysed */
  storage?: Pick<ResultStorage, 'lookup'>;
  /** the password to try for a file (passwords.ts) */
  passwords?: Pick<Passwords, 'get'>;
  /** how long a file waits for the stored results before it is analysed instead (default STORAGE_WAIT_MS) */
  storageWaitMs?: number;
}

/**
 * The stored results answer through the workspace's file system, one operation after another. One that never
 * settled would hold every later lookup, and each file whose content was stored before would wait for ever. Past
 * this, the file is analysed. A hardening: no such hang has been seen (the e2e stall first blamed on it was the tree's
 * rows below its view).
 */
export const STORAGE_WAIT_MS = 5000;

/** What a file is analysed with: the options (a password among them), their key for the cache, and whether to keep the result in memory only. */
export interface AnalysisInputs {
  options: Partial<AnalyzerOptions>;
  key: string;
  /** made with a password the user did not ask to remember: not written to the workspace's storage */
  transient: boolean;
}

export type Outcome = 'analysed' | 'cached' | 'cancelled' | 'refused' | 'failed';

export const PDF_GLOB = '**/*.[pP][dD][fF]';
/** Glyph runs kept at most for one file's text-layer overlay (about 100 bytes each in the host). */
export const TEXT_LAYER_MAX_RUNS = 400_000;
const MAX_FILES = 100_000;

export function isPdfUri(uri: vscode.Uri): boolean {
  return /\.pdf$/i.test(uri.path);
}

export function labelOf(uri: vscode.Uri): string {
  const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return vscode.workspace.asRelativePath(uri, multi);
}

export class Classifier {
  /** files handed to the analyzer since activation (restored and cached ones are not counted) */
  analysedCount = 0;
  private refused = new Map<string, { label: string; size: number; limit: number }>();

  constructor(
    private readonly store: ReportStore,
    private readonly pool: AnalysisPool,
    private readonly settings: () => ExtensionSettings,
    private readonly log: Pick<vscode.OutputChannel, 'appendLine'>,
    private readonly extras: ClassifierExtras = {},
  ) {}

  /** The options a file is analysed with now, and their cache key. */
  async inputsFor(uri: string): Promise<AnalysisInputs> {
    const options = this.settings().options;
    const key = optionsKey(options);
    const pw = await this.extras.passwords?.get(uri);
    if (!pw) return { options, key, transient: false };
    return { options: { ...options, password: pw.password }, key: key + PASSWORD_MARK, transient: !pw.remembered };
  }

  /** A message about the files refused for size since the last call, or undefined. */
  takeRefusedMessage(): string | undefined {
    const files = [...this.refused.values()];
    this.refused.clear();
    if (files.length === 0) return undefined;
    const limit = vscode.l10n.t('the {0} limit (pdfPageDiagnostics.maxFileSizeMB)', humanSize(files[0].limit));
    if (files.length === 1) return vscode.l10n.t('Skipped {0}: {1} is above {2}.', files[0].label, humanSize(files[0].size), limit);
    const names = files.slice(0, 3).map((f) => `${f.label} (${humanSize(f.size)})`);
    return vscode.l10n.t('Skipped {0} files above {1}: {2}', files.length, limit, `${names.join(', ')}${files.length > 3 ? ', …' : ''}`);
  }

  /** The stored report for `stamp`, or undefined when there is none or the storage does not answer in time (logged). */
  private async storedReport(stamp: Stamp): Promise<DocumentReport | undefined> {
    const lookup = this.extras.storage?.lookup(stamp);
    if (!lookup) return undefined;
    const wait = this.extras.storageWaitMs ?? STORAGE_WAIT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        this.log.appendLine(`the stored results did not answer within ${wait / 1000} s: analysing instead`);
        resolve(undefined);
      }, wait);
    });
    try {
      return await Promise.race([lookup, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async classifyOne(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<Outcome> {
    const key = uri.toString();
    const s = this.settings();
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch (e) {
      this.log.appendLine(`cannot stat ${key}: ${String(e)}`);
      this.store.delete(key);
      return 'failed';
    }
    if (stat.size > s.maxFileSizeBytes) {
      this.refused.set(key, { label: labelOf(uri), size: stat.size, limit: s.maxFileSizeBytes });
      this.log.appendLine(`refused: ${labelOf(uri)} is ${humanSize(stat.size)}, above ${humanSize(s.maxFileSizeBytes)}`);
      this.store.delete(key);
      return 'refused';
    }
    const inputs = await this.inputsFor(key);
    const options = inputs.key;
    if (token?.isCancellationRequested) return 'cancelled';
    this.store.setBusy(key, true);
    try {
      let bytes: Uint8Array;
      try {
        bytes = await vscode.workspace.fs.readFile(uri);
      } catch (e) {
        const report = failureReport('damaged', `cannot read the file: ${String(e).slice(0, 200)}`);
        this.store.set({ uri: key, label: labelOf(uri), stamp: { size: stat.size, mtime: stat.mtime, sha256: '', options }, report });
        return 'failed';
      }
      if (bytes.byteLength > s.maxFileSizeBytes) {
        // grown since the stat
        this.refused.set(key, { label: labelOf(uri), size: bytes.byteLength, limit: s.maxFileSizeBytes });
        this.store.delete(key);
        return 'refused';
      }
      // Hashed before the pool takes the bytes: it may transfer (detach) them to a worker.
      const stamp: Stamp = { size: bytes.byteLength, mtime: stat.mtime, sha256: await sha256Hex(bytes), options };
      if (this.store.cached(key, stamp)) return 'cached';
      // the same content analysed before (this file before a reload, or a copy of it), with the same analyzer and options
      const stored = inputs.transient ? undefined : await this.storedReport(stamp);
      if (stored) {
        this.store.set({ uri: key, label: labelOf(uri), stamp, report: stored });
        return 'cached';
      }
      if (token?.isCancellationRequested) return 'cancelled';
      this.analysedCount++;
      const started = Date.now();
      const outcome = await this.pool.analyzeDetailed(bytes, inputs.options, token);
      if (outcome.kind === 'cancelled') return 'cancelled';
      const report = outcome.report;
      const entry: StoreEntry = { uri: key, label: labelOf(uri), stamp, report };
      // a fault (timeout, crash) may go better next time: it is not stored across reloads
      if (inputs.transient || outcome.kind === 'fault') entry.transient = true;
      this.store.set(entry);
      this.log.appendLine(`analysed ${labelOf(uri)} in ${Date.now() - started} ms`);
      if (report.error) this.log.appendLine(`${labelOf(uri)}: ${report.error.reason}: ${report.error.message}`);
      return 'analysed';
    } finally {
      this.store.setBusy(key, false);
    }
  }

  /**
   * The file analysed again with its text layer (glyph runs) for the preview's overlay: never stored, never persisted
   * (a page's runs are ~40 times its report). At most `maxRuns` runs are kept in all, spread over the pages (the
   * analyzer's per-page cap is set from the page count), so a long document cannot flood the host's memory.
   * Resolves to the report or to a typed failure; never rejects.
   */
  async readTextLayer(
    uri: vscode.Uri,
    pageCount: number,
    token?: vscode.CancellationToken,
    maxRuns = TEXT_LAYER_MAX_RUNS,
  ): Promise<{ report: DocumentReport; sha256: string } | { error: 'cancelled' | 'unreadable' | 'too-large' | 'failed'; message: string }> {
    const s = this.settings();
    let bytes: Uint8Array;
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > s.maxFileSizeBytes) return { error: 'too-large', message: `larger than the ${humanSize(s.maxFileSizeBytes)} limit` };
      bytes = await vscode.workspace.fs.readFile(uri);
    } catch (e) {
      return { error: 'unreadable', message: `cannot read the file: ${String(e).slice(0, 200)}` };
    }
    const sha256 = await sha256Hex(bytes);
    const inputs = await this.inputsFor(uri.toString());
    const perPage = Math.max(50, Math.min(MAX_RUNS_PER_PAGE, Math.floor(maxRuns / Math.max(1, pageCount))));
    // with the layer-quality setting on, the score is computed again for its per-word likelihoods (GlyphRun.likelihood),
    // by which the overlay colours the layer's words; the page's grade stays the stored report's
    const options: Partial<AnalyzerOptions> = {
      ...inputs.options,
      textLayer: true,
      layerQuality: inputs.options.layerQuality === true,
      maxTextRunsPerPage: perPage,
      maxTextLayerChars: 2000,
    };
    const outcome = await this.pool.analyzeDetailed(bytes, options, token);
    if (outcome.kind === 'cancelled') return { error: 'cancelled', message: 'cancelled' };
    if (outcome.kind === 'fault') return { error: 'failed', message: outcome.report.error?.message ?? 'the analysis failed' };
    return { report: outcome.report, sha256 };
  }

  /**
   * Classifies many files with a progress notification (count, current file, cancel). Runs as many files at once as
   * the pool has workers, so at most that many files are held in memory.
   */
  async classifyMany(uris: vscode.Uri[], title: string, location = vscode.ProgressLocation.Notification): Promise<Map<Outcome, number>> {
    const counts = new Map<Outcome, number>();
    this.refused.clear(); // refusals from single-file paths (watcher, preview) are not this run's news
    if (uris.length === 0) return counts;
    await vscode.window.withProgress({ location, title, cancellable: true }, async (progress, token) => {
      let next = 0;
      let done = 0;
      const step = 100 / uris.length;
      const runner = async () => {
        while (next < uris.length && !token.isCancellationRequested) {
          const uri = uris[next++];
          const outcome = await this.classifyOne(uri, token);
          counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
          done++;
          progress.report({ increment: step, message: `${done}/${uris.length} · ${labelOf(uri)}` });
        }
      };
      const n = Math.max(1, Math.min(this.pool.size, uris.length));
      await Promise.all(Array.from({ length: n }, runner));
      if (token.isCancellationRequested) counts.set('cancelled', (counts.get('cancelled') ?? 0) + (uris.length - done));
    });
    return counts;
  }
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [v, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : bytes < 1024 ** 3 ? [bytes / 1024 ** 2, 'MB'] : [bytes / 1024 ** 3, 'GB'];
  return `${v.toFixed(v < 10 ? 1 : 0)} ${unit}`;
}

/** PDFs in the whole workspace (files.exclude applies), sorted by path. */
export async function findWorkspacePdfs(token?: vscode.CancellationToken): Promise<vscode.Uri[]> {
  const found = await vscode.workspace.findFiles(PDF_GLOB, undefined, MAX_FILES, token);
  return sortUris(found);
}

/** PDFs below a folder (files.exclude applies); falls back to a bounded walk when the file system has no search. */
export async function findPdfsUnder(folder: vscode.Uri): Promise<vscode.Uri[]> {
  try {
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, PDF_GLOB), undefined, MAX_FILES);
    if (found.length > 0) return sortUris(found);
  } catch {
    // no search provider for this scheme: walk below
  }
  return sortUris(await walk(folder, excludedNames()));
}

/** Simple `**\/name` entries of files.exclude, for the fallback walk. */
function excludedNames(): Set<string> {
  const ex = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {};
  const out = new Set<string>();
  for (const [pat, on] of Object.entries(ex)) {
    if (on !== true) continue;
    const m = /^\*\*\/([^*?[\]{}/]+)$/.exec(pat);
    if (m) out.add(m[1]);
  }
  return out;
}

async function walk(root: vscode.Uri, excluded: Set<string>): Promise<vscode.Uri[]> {
  const out: vscode.Uri[] = [];
  const stack: { uri: vscode.Uri; depth: number }[] = [{ uri: root, depth: 0 }];
  let visited = 0;
  while (stack.length && out.length < MAX_FILES && visited < 50_000) {
    const { uri, depth } = stack.pop()!;
    visited++;
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(uri);
    } catch {
      continue;
    }
    for (const [name, type] of entries) {
      if (excluded.has(name)) continue;
      const child = vscode.Uri.joinPath(uri, name);
      // Symlinked folders are not followed: they can loop.
      if (type === vscode.FileType.Directory && depth < 32) stack.push({ uri: child, depth: depth + 1 });
      else if ((type & vscode.FileType.File) !== 0 && /\.pdf$/i.test(name)) out.push(child);
    }
  }
  return out;
}

function sortUris(uris: vscode.Uri[]): vscode.Uri[] {
  return uris.sort((a, b) => (a.toString() < b.toString() ? -1 : a.toString() > b.toString() ? 1 : 0));
}
