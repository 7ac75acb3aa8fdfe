/**
 * The one report store: a report per document, keyed by URI string. The tree, the metadata panel, the Problems
 * entries, the status bar, the webview and the exports all read it, so they show one verdict.
 * It doubles as the cache: an entry is reused while the file's size, mtime and the analyzer options are unchanged.
 * Pure (no `vscode`): events are plain listener lists.
 */
import type { DocumentReport } from '../analyzer/types';

export interface Stamp {
  size: number;
  mtime: number;
  /** optionsKey() of the options the report was made with */
  options: string;
}

export interface StoreEntry {
  uri: string;
  /** workspace-relative path (or the URI's path outside a workspace), for labels and exports */
  label: string;
  stamp: Stamp;
  report: DocumentReport;
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

export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.size === b.size && a.mtime === b.mtime && a.options === b.options;
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
