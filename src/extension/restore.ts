/**
 * The `vscode` side of results that last (persist.ts): the storage folder through workspace.fs, the analyzer version,
 * and bringing stored results back into the report store when the window opens.
 */
import * as vscode from 'vscode';
import { type Classifier, labelOf } from './classifier';
import type { ResultStorage, StorageFs, StoredDoc } from './persist';
import { sha256Hex, type ReportStore } from './store';

/** A StorageFs over a folder (context.storageUri). */
export function storageFsAt(base: vscode.Uri): StorageFs {
  const at = (name: string) => vscode.Uri.joinPath(base, ...name.split('/'));
  return {
    read: async (name) => {
      try {
        return await vscode.workspace.fs.readFile(at(name));
      } catch (e) {
        if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
        // a folder that does not exist yet reads as missing too; other errors are the caller's to log
        if (/ENOENT|FileNotFound|EntryNotFound/.test(String(e))) return undefined;
        throw e;
      }
    },
    write: async (name, data) => {
      const uri = at(name);
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
      await vscode.workspace.fs.writeFile(uri, data);
    },
    delete: async (name) => {
      try {
        await vscode.workspace.fs.delete(at(name), { useTrash: false });
      } catch {
        // already gone
      }
    },
  };
}

/**
 * The analyzer's identity for stored results: the package version plus a hash of the analysis worker bundle, which
 * holds the analyzer's code. A build with a changed analyzer (even under the same version number, as in development)
 * so never reuses reports of the old one.
 */
export async function analyzerVersionOf(extensionUri: vscode.Uri, pkgVersion: string): Promise<string> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'dist', 'analysisWorker.cjs'));
    return `${pkgVersion}+${(await sha256Hex(bytes)).slice(0, 12)}`;
  } catch {
    return `${pkgVersion}+unknown`;
  }
}

export interface RestoreResult {
  /** shown again from storage, not analysed */
  restored: number;
  /** dropped: the file is gone */
  gone: number;
  /** changed on disk, or stored under other options or another analyzer: to classify again */
  recheck: vscode.Uri[];
}

/**
 * Shows the stored results of files that are unchanged (same size and mtime, and stored under the options the file
 * would be analysed with now) without reading or analysing them. Files that are gone are dropped; the others are
 * returned to be classified again, which reads and hashes them and still reuses a stored report when only the mtime
 * moved (classifier.ts looks reports up by content).
 * A file rewritten with the same size within the file system's mtime resolution while the window was closed would
 * keep its old report until its next classification: reading every file at startup to rule that out would cost what
 * the store saves. While the window is open the file watcher sees every change.
 */
export async function restoreResults(
  storage: Pick<ResultStorage, 'open' | 'load' | 'forget'>,
  store: ReportStore,
  classifier: Pick<Classifier, 'inputsFor'>,
): Promise<RestoreResult> {
  const docs = await storage.open();
  const out: RestoreResult = { restored: 0, gone: 0, recheck: [] };
  let next = 0;
  const one = async (d: StoredDoc) => {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(d.uri, true);
    } catch {
      await storage.forget(d.uri);
      return;
    }
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      await storage.forget(d.uri);
      out.gone++;
      return;
    }
    if (store.get(d.uri)) return; // classified meanwhile
    const inputs = await classifier.inputsFor(d.uri);
    const report = d.key && stat.size === d.size && stat.mtime === d.mtime && d.options === inputs.key ? await storage.load(d.uri) : undefined;
    if (!report) {
      out.recheck.push(uri);
      return;
    }
    if (store.get(d.uri)) return;
    store.set({ uri: d.uri, label: labelOf(uri), stamp: { size: d.size, mtime: d.mtime, sha256: d.sha256, options: d.options }, report });
    out.restored++;
  };
  const runner = async () => {
    while (next < docs.length) await one(docs[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(8, docs.length) }, runner));
  return out;
}
