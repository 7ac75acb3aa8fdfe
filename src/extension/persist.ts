/**
 * Results that last: the report store's entries written to the workspace's storage (`context.storageUri`), so a window
 * reload shows them again without analysing anything.
 *
 * Layout under the storage folder:
 *   results/index.json           which report each document shows (uri → key, size, mtime) and every report's size and
 *                                last use (for the cap)
 *   results/reports/<key>.json   one analyzer report, content-addressed
 * A report's key is the SHA-256 of (file content hash, analyzer version, options key): the same bytes analysed by the
 * same analyzer with the same options give the same key, whichever file they came from, so a copied or re-added file
 * is not analysed again either. Reports no document refers to any more are deleted; past the size cap (a setting) the
 * least recently used are deleted first.
 *
 * Pure (no `vscode`): the file access is a StorageFs, so the cap, the keys and the deletions are unit-tested.
 * Never rejects: a storage failure is logged and the extension goes on in memory.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { DocumentReport } from '../analyzer/types';
import { toHex, type ReportStore, type Stamp, type StoreEntry } from './store';

/** Files relative to the storage folder. read() gives undefined for a missing file; delete() of a missing file is fine. */
export interface StorageFs {
  read(name: string): Promise<Uint8Array | undefined>;
  write(name: string, data: Uint8Array): Promise<void>;
  delete(name: string): Promise<void>;
}

/** What the index remembers of a document. */
export interface IndexedDoc {
  key: string;
  size: number;
  mtime: number;
  sha256: string;
  /** the options key (settings.optionsKey, plus the password marker) the report was made with */
  options: string;
}

interface BlobInfo {
  bytes: number;
  /** last stored or read, ms since the epoch */
  used: number;
}

interface IndexFile {
  format: typeof FORMAT;
  analyzer: string;
  docs: Record<string, IndexedDoc>;
  blobs: Record<string, BlobInfo>;
}

const FORMAT = 1;
export const INDEX_FILE = 'results/index.json';
export const reportFile = (key: string): string => `results/reports/${key}.json`;

/**
 * A stored report's key: SHA-256 over the content hash, the analyzer version and the options key. Never derived from
 * a password (the options key carries only whether one was used). '' for an entry that must not be stored (no hash).
 */
export function resultKey(stamp: Pick<Stamp, 'sha256' | 'options'>, analyzerVersion: string): string {
  if (!/^[0-9a-f]{64}$/.test(stamp.sha256)) return '';
  return toHex(sha256(new TextEncoder().encode(`${stamp.sha256}\n${analyzerVersion}\n${stamp.options}`)));
}

export interface ResultStorageOptions {
  analyzerVersion: string;
  /** the cap in bytes (0: store nothing); read at every save, so a settings change applies at once */
  maxBytes: () => number;
  log?: (msg: string) => void;
  now?: () => number;
  /** how long index writes are gathered, ms */
  flushDelayMs?: number;
}

/** An index entry that was found at open(), for the caller to check against the file system. */
export interface StoredDoc extends IndexedDoc {
  uri: string;
}

export class ResultStorage {
  private index: IndexFile;
  private queue: Promise<unknown> = Promise.resolve();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;
  private readonly log: (msg: string) => void;
  private readonly now: () => number;
  private disposed = false;

  constructor(
    private readonly fs: StorageFs,
    private readonly opts: ResultStorageOptions,
  ) {
    this.index = { format: FORMAT, analyzer: opts.analyzerVersion, docs: {}, blobs: {} };
    this.log = opts.log ?? (() => {});
    this.now = opts.now ?? Date.now;
  }

  /** Runs mutations one after another, so a save and a forget of the same document cannot interleave. */
  private serial<T>(fn: () => Promise<T>, fallback: T): Promise<T> {
    const run = this.queue.then(fn).catch((e: unknown) => {
      this.log(`result storage: ${String(e).slice(0, 300)}`);
      return fallback;
    });
    this.queue = run;
    return run;
  }

  /**
   * Reads the index. Documents analysed by another analyzer version are dropped with their reports (their keys can
   * never match again); the rest are returned for the caller to check against the files. Reports on disk that the
   * index does not know are not listed (no directory listing is needed): a crash between writing a report and the
   * index leaves at most that report behind, and the next save of the same key reuses it.
   */
  open(): Promise<StoredDoc[]> {
    return this.serial(async () => {
      const raw = await this.fs.read(INDEX_FILE);
      const parsed = raw ? parseIndex(raw) : undefined;
      if (!parsed) return [];
      if (parsed.analyzer !== this.opts.analyzerVersion) {
        const keys = Object.keys(parsed.blobs);
        this.log(`stored results are from analyzer ${parsed.analyzer}, this is ${this.opts.analyzerVersion}: ${keys.length} dropped`);
        for (const k of keys) await this.fs.delete(reportFile(k));
        const docs = Object.entries(parsed.docs).map(([uri, d]) => ({ uri, ...d }));
        this.markDirty();
        // The documents are still returned: the caller classifies them again (their content may be unchanged, but
        // their reports are not valid any more).
        return docs.map((d) => ({ ...d, key: '' }));
      }
      this.index = parsed;
      return Object.entries(parsed.docs).map(([uri, d]) => ({ uri, ...d }));
    }, []);
  }

  /** The documents the index holds now. */
  docs(): StoredDoc[] {
    return Object.entries(this.index.docs).map(([uri, d]) => ({ uri, ...d }));
  }

  /** Total bytes of stored reports. */
  get bytes(): number {
    let n = 0;
    for (const b of Object.values(this.index.blobs)) n += b.bytes;
    return n;
  }

  has(key: string): boolean {
    return key !== '' && key in this.index.blobs;
  }

  /** The stored report made under `stamp` (from any document with the same content), or undefined. */
  lookup(stamp: Pick<Stamp, 'sha256' | 'options'>): Promise<DocumentReport | undefined> {
    const key = resultKey(stamp, this.opts.analyzerVersion);
    if (!this.has(key)) return Promise.resolve(undefined);
    return this.serial(() => this.readBlob(key), undefined);
  }

  private async readBlob(key: string): Promise<DocumentReport | undefined> {
    const raw = await this.fs.read(reportFile(key));
    const report = raw ? parseReport(raw) : undefined;
    if (!report) {
      // missing or unreadable: forget it and every document that pointed at it
      this.dropBlob(key);
      await this.fs.delete(reportFile(key));
      return undefined;
    }
    const b = this.index.blobs[key];
    if (b) b.used = this.now();
    this.markDirty();
    return report;
  }

  /** Reads the report a document's index entry names. */
  load(uri: string): Promise<DocumentReport | undefined> {
    const d = this.index.docs[uri];
    if (!d || !this.has(d.key)) return Promise.resolve(undefined);
    return this.serial(() => this.readBlob(d.key), undefined);
  }

  /** Stores an entry's report and points its document at it. Entries without a content hash are forgotten instead. */
  save(entry: Pick<StoreEntry, 'uri' | 'stamp' | 'report'>): Promise<void> {
    return this.serial(async () => {
      const key = resultKey(entry.stamp, this.opts.analyzerVersion);
      if (!key) return this.forgetNow(entry.uri);
      const cap = this.opts.maxBytes();
      const prev = this.index.docs[entry.uri];
      if (!(key in this.index.blobs)) {
        const data = new TextEncoder().encode(JSON.stringify(entry.report));
        if (data.byteLength > cap) {
          // larger than the whole store may hold: not stored (and the document's older report is stale)
          await this.forgetNow(entry.uri);
          return;
        }
        await this.fs.write(reportFile(key), data);
        this.index.blobs[key] = { bytes: data.byteLength, used: this.now() };
      } else this.index.blobs[key].used = this.now();
      const s = entry.stamp;
      this.index.docs[entry.uri] = { key, size: s.size, mtime: s.mtime, sha256: s.sha256, options: s.options };
      if (prev && prev.key !== key) await this.deleteIfUnused(prev.key);
      await this.enforceCap(key);
      this.markDirty();
    }, undefined);
  }

  /** Drops a document from the index; its report goes too unless another document shows the same one. */
  forget(uri: string): Promise<void> {
    return this.serial(() => this.forgetNow(uri), undefined);
  }

  private async forgetNow(uri: string): Promise<void> {
    const d = this.index.docs[uri];
    if (!d) return;
    delete this.index.docs[uri];
    await this.deleteIfUnused(d.key);
    this.markDirty();
  }

  /** Drops everything. */
  clear(): Promise<void> {
    return this.serial(async () => {
      const keys = Object.keys(this.index.blobs);
      this.index = { format: FORMAT, analyzer: this.opts.analyzerVersion, docs: {}, blobs: {} };
      for (const k of keys) await this.fs.delete(reportFile(k));
      this.markDirty();
    }, undefined);
  }

  /** Applies the cap now (after a settings change). */
  trim(): Promise<void> {
    return this.serial(() => this.enforceCap(undefined), undefined);
  }

  private async deleteIfUnused(key: string): Promise<void> {
    if (!key || !(key in this.index.blobs)) return;
    for (const d of Object.values(this.index.docs)) if (d.key === key) return;
    delete this.index.blobs[key];
    await this.fs.delete(reportFile(key));
  }

  private dropBlob(key: string): void {
    delete this.index.blobs[key];
    for (const [uri, d] of Object.entries(this.index.docs)) if (d.key === key) delete this.index.docs[uri];
    this.markDirty();
  }

  /** Deletes least recently used reports (never `keep`) until the total fits the cap. */
  private async enforceCap(keep: string | undefined): Promise<void> {
    const cap = this.opts.maxBytes();
    let total = this.bytes;
    if (total <= cap) return;
    const byAge = Object.entries(this.index.blobs)
      .filter(([k]) => k !== keep)
      .sort((a, b) => a[1].used - b[1].used || (a[0] < b[0] ? -1 : 1));
    let dropped = 0;
    for (const [k, b] of byAge) {
      if (total <= cap) break;
      total -= b.bytes;
      this.dropBlob(k);
      await this.fs.delete(reportFile(k));
      dropped++;
    }
    if (keep && total > cap) {
      total -= this.index.blobs[keep]?.bytes ?? 0;
      this.dropBlob(keep);
      await this.fs.delete(reportFile(keep));
      dropped++;
    }
    if (dropped) this.log(`result storage: dropped ${dropped} least recently used report(s) to stay within ${Math.round(cap / 2 ** 20)} MB`);
  }

  private markDirty(): void {
    this.dirty = true;
    if (this.disposed || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.opts.flushDelayMs ?? 250);
  }

  /** Writes the index if it changed. */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    return this.serial(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      await this.fs.write(INDEX_FILE, new TextEncoder().encode(JSON.stringify(this.index)));
    }, undefined);
  }

  /**
   * Keeps the storage in step with the report store: a removed document is forgotten, a new or replaced one stored,
   * unless it is `transient` (a pool fault, or made with a password the user did not ask to remember).
   */
  follow(store: ReportStore): { dispose(): void } {
    return store.onDidChange((uris) => {
      for (const uri of uris) {
        const e = store.get(uri);
        if (!e || e.transient || !e.stamp.sha256) {
          if (this.index.docs[uri]) void this.forget(uri);
          continue;
        }
        const d = this.index.docs[uri];
        if (d && d.key === resultKey(e.stamp, this.opts.analyzerVersion) && d.mtime === e.stamp.mtime) continue;
        void this.save(e);
      }
    });
  }

  /** Writes what is pending; later changes are no longer written. */
  async dispose(): Promise<void> {
    await this.flush();
    this.disposed = true;
  }
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function parseJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return undefined;
  }
}

/** The index as written by this version, or undefined (a damaged or foreign file is started afresh). */
export function parseIndex(raw: Uint8Array): IndexFile | undefined {
  const x = parseJson(raw);
  if (!isObj(x) || x.format !== FORMAT || typeof x.analyzer !== 'string' || !isObj(x.docs) || !isObj(x.blobs)) return undefined;
  const blobs: Record<string, BlobInfo> = {};
  for (const [k, b] of Object.entries(x.blobs)) {
    if (!/^[0-9a-f]{64}$/.test(k) || !isObj(b) || !isCount(b.bytes) || !isCount(b.used)) continue;
    blobs[k] = { bytes: b.bytes, used: b.used };
  }
  const docs: Record<string, IndexedDoc> = {};
  for (const [uri, d] of Object.entries(x.docs)) {
    if (!isObj(d) || typeof d.key !== 'string' || !(d.key in blobs)) continue;
    if (!isCount(d.size) || !isCount(d.mtime) || typeof d.sha256 !== 'string' || typeof d.options !== 'string') continue;
    docs[uri] = { key: d.key, size: d.size, mtime: d.mtime, sha256: d.sha256, options: d.options };
  }
  return { format: FORMAT, analyzer: x.analyzer, docs, blobs };
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0;
}

/** A stored report, checked for the fields every view reads; anything else is treated as missing. */
function parseReport(raw: Uint8Array): DocumentReport | undefined {
  const x = parseJson(raw);
  if (!isObj(x) || !Array.isArray(x.pages) || typeof x.pageCount !== 'number' || !isObj(x.routeCounts) || !isObj(x.encryption) || !isObj(x.metadata))
    return undefined;
  return x as unknown as DocumentReport;
}
