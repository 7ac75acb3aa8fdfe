/**
 * The one report store: a report per document, keyed by URI string. The tree, the metadata panel, the Problems
 * entries, the status bar, the webview and the exports all read it, so they show one verdict.
 * It doubles as the cache: an entry is reused while the file's content (SHA-256 of its bytes, and its size) and the
 * analyzer options are unchanged. Size and mtime alone are not enough: a file rewritten within the file system's mtime
 * resolution with the same size would keep showing the old report. The hash is taken of the bytes read for analysis, so
 * it costs no extra read; a file merely touched (new mtime, same bytes) is not analysed again.
 * Pure (no `vscode`): events are plain listener lists.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { DocumentReport } from '../analyzer/types';

export interface Stamp {
  size: number;
  /** recorded for information; not part of the key */
  mtime: number;
  /** lowercase hex SHA-256 of the file's bytes; '' when they could not be read (never matches) */
  sha256: string;
  /** optionsKey() of the options the report was made with */
  options: string;
}

export interface StoreEntry {
  uri: string;
  /** workspace-relative path (or the URI's path outside a workspace), for labels and exports */
  label: string;
  stamp: Stamp;
  report: DocumentReport;
  /**
   * Kept in memory only, never written to the workspace's storage (persist.ts): a report the pool made up after a
   * fault (a worker that timed out or crashed may do better next time), or one made with a password the user did not
   * ask to remember (its metadata was decrypted with it).
   */
  transient?: boolean;
}

export type Listener<T> = (e: T) => void;

export class Emitter<T> {
  private listeners: Listener<T>[] = [];
  event = (l: Listener<T>): { dispose(): void } => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // one failing view must not stop the others from updating
      }
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** Whether a report made under stamp `a` is valid for a file now under stamp `b`: same bytes, same options. */
export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.sha256 !== '' && a.sha256 === b.sha256 && a.size === b.size && a.options === b.options;
}

/** Bytes hashed between yields when no native digest is available, so a large file does not block the host. */
const HASH_SLICE = 4 * 1024 * 1024;

/**
 * Lowercase hex SHA-256 of `bytes`. Uses Web Crypto where the host has it (Node, and browsers in a secure context);
 * otherwise hashes in slices that yield to the event loop between them (a web host served over plain http has no
 * crypto.subtle). Never rejects: a digest failure falls back to the sliced hash.
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle) {
    try {
      return toHex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
    } catch {
      // fall through to the portable hash
    }
  }
  const h = sha256.create();
  for (let at = 0; at < bytes.length; at += HASH_SLICE) {
    h.update(bytes.subarray(at, Math.min(bytes.length, at + HASH_SLICE)));
    if (at + HASH_SLICE < bytes.length) await new Promise<void>((r) => setTimeout(r, 0));
  }
  return toHex(h.digest());
}

export function toHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export class ReportStore {
  private entries = new Map<string, StoreEntry>();
  private selectedUri: string | undefined;
  private busy = new Set<string>();
  private readonly changed = new Emitter<readonly string[]>();
  private readonly selection = new Emitter<string | undefined>();
  /** fires with the URIs whose entries changed (added, replaced, removed) */
  readonly onDidChange = this.changed.event;
  readonly onDidChangeSelection = this.selection.event;

  get(uri: string): StoreEntry | undefined {
    return this.entries.get(uri);
  }

  /** the cached entry when it is still valid for this stamp */
  cached(uri: string, stamp: Stamp): StoreEntry | undefined {
    const e = this.entries.get(uri);
    return e && sameStamp(e.stamp, stamp) ? e : undefined;
  }

  set(entry: StoreEntry): void {
    this.entries.set(entry.uri, entry);
    this.changed.fire([entry.uri]);
  }

  delete(uri: string): void {
    if (this.entries.delete(uri)) {
      if (this.selectedUri === uri) this.select(undefined);
      this.changed.fire([uri]);
    }
  }

  clear(): void {
    const uris = [...this.entries.keys()];
    this.entries.clear();
    this.select(undefined);
    if (uris.length) this.changed.fire(uris);
  }

  all(): StoreEntry[] {
    return [...this.entries.values()];
  }

  get size(): number {
    return this.entries.size;
  }

  /** the document the metadata panel shows */
  get selected(): string | undefined {
    return this.selectedUri;
  }

  select(uri: string | undefined): void {
    if (uri === this.selectedUri) return;
    this.selectedUri = uri;
    this.selection.fire(uri);
  }

  /** marks URIs being analysed (the webview shows "classifying…") */
  setBusy(uri: string, busy: boolean): void {
    if (busy) this.busy.add(uri);
    else this.busy.delete(uri);
  }

  isBusy(uri: string): boolean {
    return this.busy.has(uri);
  }

  /** re-render every view without changing data (settings that only affect presentation) */
  refreshViews(): void {
    this.changed.fire([...this.entries.keys()]);
  }

  dispose(): void {
    this.changed.dispose();
    this.selection.dispose();
  }
}
