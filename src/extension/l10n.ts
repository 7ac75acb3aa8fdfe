/**
 * User-facing strings of the pure modules (model.ts and what it feeds: tree labels, tooltips, Problems entries, the
 * status bar, the metadata rows) go through t(), which is vscode.l10n.t once the extension is active (extension.ts
 * calls setTranslator) and a plain formatter in unit tests. Modules that import `vscode` call vscode.l10n.t directly.
 * English only for now: as VS Code's l10n wants it, the English text is the key, with {0}, {1}… for arguments, so a
 * bundle (l10n/bundle.l10n.<locale>.json and "l10n": "./l10n" in package.json) translates without a code change.
 * Every call passes a literal, so `npx @vscode/l10n-dev export src` finds them all.
 */
export type L10nArg = string | number | boolean;

/** Replaces {0}, {1}… with the arguments; a placeholder without an argument stays as it is. */
export function formatMessage(message: string, args: readonly L10nArg[]): string {
  return message.replace(/\{(\d+)\}/g, (m: string, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
}

let translate: (message: string, args: L10nArg[]) => string = formatMessage;

/** Installs the host's translator (vscode.l10n.t); returns the one it replaced, for tests. */
export function setTranslator(fn: (message: string, args: L10nArg[]) => string): (message: string, args: L10nArg[]) => string {
  const old = translate;
  translate = fn;
  return old;
}

/** The message in the user's language, arguments in place. */
export function t(message: string, ...args: L10nArg[]): string {
  return translate(message, args);
}
