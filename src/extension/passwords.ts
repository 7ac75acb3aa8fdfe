/**
 * Passwords for encrypted PDFs, per file URI. A password the user asked to remember lives in VS Code's SecretStorage
 * (the OS keychain on desktop), one secret per file; the others live in memory for this window only. The list of files
 * that have a remembered password (URIs, never the passwords) is kept in globalState, because SecretStorage cannot list
 * its keys in every VS Code this extension supports: "Forget Stored Passwords" needs it.
 *
 * A password goes to exactly one place: the analysis options of its file (classifier.ts → pool → worker → analyzer).
 * It is never logged, never part of a cache key (the key says only that *a* password was used), never sent to the
 * webview and never written into a report, an export or the result storage.
 * Pure (no `vscode` import): the secret store and the memento are passed in.
 */

/** The parts of vscode.SecretStorage used here. */
export interface SecretStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

/** The parts of vscode.Memento used here. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export interface PasswordFor {
  password: string;
  /** in SecretStorage (survives a reload), not only in this window's memory */
  remembered: boolean;
}

const SECRET_PREFIX = 'pdfPageDiagnostics.password:';
const LIST_KEY = 'pdfPageDiagnostics.rememberedPasswordUris';

export class Passwords {
  private readonly session = new Map<string, string>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly memento: MementoLike,
  ) {}

  /** The password to try for `uri`: this window's first, then a remembered one. Never rejects. */
  async get(uri: string): Promise<PasswordFor | undefined> {
    const s = this.session.get(uri);
    if (s !== undefined) return { password: s, remembered: this.rememberedUris().includes(uri) };
    if (!this.rememberedUris().includes(uri)) return undefined;
    try {
      const p = await this.secrets.get(SECRET_PREFIX + uri);
      return p === undefined ? undefined : { password: p, remembered: true };
    } catch {
      return undefined;
    }
  }

  /** Whether a password is known for `uri` (without reading the secret). */
  has(uri: string): boolean {
    return this.session.has(uri) || this.rememberedUris().includes(uri);
  }

  /** Uses `password` for `uri` from now on; with `remember`, also after a reload (SecretStorage). */
  async set(uri: string, password: string, remember: boolean): Promise<void> {
    this.session.set(uri, password);
    if (remember) {
      await this.secrets.store(SECRET_PREFIX + uri, password);
      const list = this.rememberedUris();
      if (!list.includes(uri)) await this.memento.update(LIST_KEY, [...list, uri]);
    } else if (this.rememberedUris().includes(uri)) {
      // a new password not to remember replaces a remembered one
      await this.forget(uri);
      this.session.set(uri, password);
    }
  }

  /** Forgets the password of one file (a wrong one, or the file is gone). */
  async forget(uri: string): Promise<void> {
    this.session.delete(uri);
    const list = this.rememberedUris();
    if (!list.includes(uri)) return;
    await this.memento.update(
      LIST_KEY,
      list.filter((u) => u !== uri),
    );
    await Promise.resolve(this.secrets.delete(SECRET_PREFIX + uri)).catch(() => {});
  }

  /** Forgets every password, remembered or not. Returns the files that had one. */
  async forgetAll(): Promise<string[]> {
    const uris = [...new Set([...this.session.keys(), ...this.rememberedUris()])];
    this.session.clear();
    const list = this.rememberedUris();
    await this.memento.update(LIST_KEY, []);
    for (const u of list) await Promise.resolve(this.secrets.delete(SECRET_PREFIX + u)).catch(() => {});
    return uris;
  }

  rememberedUris(): string[] {
    const v = this.memento.get<unknown>(LIST_KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }
}
