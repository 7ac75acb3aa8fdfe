/**
 * A stand-in for the `vscode` module, for unit tests of extension code that imports it (see
 * test/extension-cache.test.ts, which maps the bare specifier 'vscode' here with a module resolve hook).
 * Only what those tests reach is provided; tests replace the workspace.fs functions per case.
 */
export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static parse(s: string): Uri {
    const m = /^([a-z][\w+.-]*):\/\/(.*)$/i.exec(s);
    return m ? new Uri(m[1], m[2]) : new Uri('file', s);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, [base.path.replace(/\/$/, ''), ...parts].join('/'));
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

export interface FileStat {
  type: number;
  ctime: number;
  mtime: number;
  size: number;
}

export const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 } as const;
/** vscode.l10n without a bundle: the English message with {0}, {1}… filled in, as VS Code does. */
export const l10n = {
  t(message: string, ...args: unknown[]): string {
    return message.replace(/\{(\d+)\}/g, (m: string, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
  },
};
export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 } as const;

export class RelativePattern {
  constructor(
    readonly base: Uri,
    readonly pattern: string,
  ) {}
}

const notSet = async (): Promise<never> => {
  throw new Error('fake vscode: not set by this test');
};

export const workspace = {
  workspaceFolders: undefined as unknown,
  isTrusted: true,
  asRelativePath: (u: Uri | string) => (typeof u === 'string' ? u : u.path),
  fs: {
    stat: notSet as (u: Uri) => Promise<FileStat>,
    readFile: notSet as (u: Uri) => Promise<Uint8Array>,
    readDirectory: notSet as (u: Uri) => Promise<[string, number][]>,
  },
  findFiles: async (): Promise<Uri[]> => [],
  getConfiguration: () => ({ get: () => undefined, inspect: () => undefined }),
};

export const window = {
  withProgress: async <T>(
    _o: unknown,
    task: (p: { report(v: unknown): void }, t: { isCancellationRequested: boolean; onCancellationRequested(): { dispose(): void } }) => Promise<T>,
  ): Promise<T> => task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) }),
};
