/**
 * A stand-in for the `vscode` module, for unit tests of extension code that imports it (see
 * test/extension-cache.test.ts, which maps the bare specifier 'vscode' here with a module resolve hook).
 * Only what those tests reach is provided; tests replace the workspace.fs functions per case.
 */
export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    /** the part after '?' of an opaque URI (command:name?args), as vscode.Uri keeps it: still percent-encoded */
    readonly query = '',
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static parse(s: string): Uri {
    const m = /^([a-z][\w+.-]*):\/\/(.*)$/i.exec(s);
    if (m) return new Uri(m[1], m[2]);
    // an opaque URI such as command:pdfPageDiagnostics.showPagePreview?%5B…%5D
    const o = /^([a-z][\w+.-]{1,}):([^?]*)(?:\?(.*))?$/i.exec(s);
    return o ? new Uri(o[1], o[2], o[3] ?? '') : new Uri('file', s);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, [base.path.replace(/\/$/, ''), ...parts].join('/'));
  }
  toString(): string {
    return this.query ? `${this.scheme}:${this.path}?${this.query}` : `${this.scheme}://${this.path}`;
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

// ---- for the views: the tree (tree.ts) and the Problems entries (diagnostics.ts) ----------------------------------

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (l: (e: T) => void): { dispose(): void } => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 } as const;

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string;
  contextValue?: string;
  iconPath?: ThemeIcon;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    readonly label: string,
    readonly collapsibleState: number = TreeItemCollapsibleState.None,
  ) {}
}

/** commands.executeCommand records its calls (setContext from the tree) and answers undefined. */
export const commands = {
  calls: [] as unknown[][],
  executeCommand: async (...args: unknown[]): Promise<unknown> => {
    commands.calls.push(args);
    return undefined;
  },
};

export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 } as const;

export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

export class Diagnostic {
  source?: string;
  code?: string | number | { value: string | number; target: Uri };
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number = DiagnosticSeverity.Error,
  ) {}
}

/** A diagnostic collection that keeps what is set, by URI string, for the test to read. */
export class FakeDiagnosticCollection {
  readonly entries = new Map<string, Diagnostic[]>();
  constructor(readonly name: string) {}
  set(uri: Uri, diags: Diagnostic[]): void {
    this.entries.set(uri.toString(), diags);
  }
  delete(uri: Uri): void {
    this.entries.delete(uri.toString());
  }
  clear(): void {
    this.entries.clear();
  }
  dispose(): void {
    this.entries.clear();
  }
}

export const languages = {
  collections: [] as FakeDiagnosticCollection[],
  createDiagnosticCollection(name: string): FakeDiagnosticCollection {
    const c = new FakeDiagnosticCollection(name);
    languages.collections.push(c);
    return c;
  },
};

export class CodeActionKind {
  static readonly QuickFix = new CodeActionKind('quickfix');
  constructor(readonly value: string) {}
}

export class CodeAction {
  command?: { command: string; title: string; arguments?: unknown[] };
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  constructor(
    readonly title: string,
    readonly kind?: CodeActionKind,
  ) {}
}
