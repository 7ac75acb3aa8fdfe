/**
 * Settings → analyzer options and extension behaviour. Pure (no `vscode` import): the caller passes a getter over
 * the `pdfPageDiagnostics` configuration section, so the mapping is unit-tested without VS Code.
 * The analyzer's thresholds and limits have their defaults only in DEFAULT_OPTIONS; package.json repeats them (and
 * the bounds below) for the Settings UI, and tests assert the two agree.
 *
 * Every numeric setting has a minimum and a maximum, here and in the schema, and values are clamped to them: the
 * Settings UI only warns about an out-of-range value, `settings.json` is not validated at all, and an unbounded
 * time budget overflows the overrun timer (setTimeout takes at most 2^31−1 ms).
 *
 * Workspace Trust: the limits are listed in package.json's `capabilities.untrustedWorkspaces.restrictedConfigurations`
 * (RESTRICTED_SETTINGS, tested), with `supported: "limited"`: VS Code honours that list only for "limited". VS Code
 * itself then drops workspace and folder values of those settings while the workspace is untrusted, so
 * `getConfiguration().get()` already returns the user's or the default value there. trustAwareReader() does the same
 * through inspect() for hosts that do not implement restricted settings, and costs nothing where they do.
 */
import { type AnalyzerOptions, DEFAULT_OPTIONS } from '../analyzer/options';
import type { PageRoute } from '../analyzer/types';
import { PAGE_ROUTES } from '../shared/protocol';
import type { AnalysisWorker, WorkerFactory } from './analysisPool';

export const SECTION = 'pdfPageDiagnostics';

const MB = 1024 * 1024;

/** A numeric setting's schema bounds, in the setting's own unit. */
export interface NumericBounds {
  min: number;
  max: number;
  /** the schema type is "integer": fractional values are rounded down */
  integer: boolean;
}

/** One row of the mapping table: a setting below SECTION, the analyzer option it sets, and how. */
export interface OptionSetting extends NumericBounds {
  setting: string;
  option: keyof AnalyzerOptions;
  /** option value = setting value × scale (1, or bytes per MB for settings in MB) */
  scale: number;
  /** a limit: bounds the work or memory a file may take, so an untrusted workspace must not set it */
  restricted: boolean;
  /** 0 is taken as "unset" (the default) rather than clamped up: a 0 page cap or time budget would make every file unknown */
  zeroIsUnset?: boolean;
}

/** The one table of analyzer options the user may set. */
export const OPTION_SETTINGS: readonly OptionSetting[] = [
  { setting: 'thresholds.minTextChars', option: 'minTextChars', scale: 1, min: 0, max: 1_000_000, integer: true, restricted: false },
  { setting: 'thresholds.undecodableShare', option: 'undecodableShare', scale: 1, min: 0, max: 1, integer: false, restricted: false },
  { setting: 'thresholds.borderlineMaxChars', option: 'borderlineMaxChars', scale: 1, min: 0, max: 1_000_000, integer: true, restricted: false },
  { setting: 'thresholds.borderlineCoverage', option: 'borderlineCoverage', scale: 1, min: 0, max: 1, integer: false, restricted: false },
  { setting: 'thresholds.minOcrLayerChars', option: 'minOcrLayerChars', scale: 1, min: 0, max: 1_000_000, integer: true, restricted: false },
  { setting: 'thresholds.ocrLayerCoverage', option: 'ocrLayerCoverage', scale: 1, min: 0, max: 1, integer: false, restricted: false },
  { setting: 'thresholds.scanCoverage', option: 'scanCoverage', scale: 1, min: 0, max: 1, integer: false, restricted: false },
  { setting: 'thresholds.minVectorOps', option: 'minVectorOps', scale: 1, min: 0, max: 10_000_000, integer: true, restricted: false },
  // The pool stops a worker at 1.5 × budget + grace; one hour keeps that far below setTimeout's 2^31−1 ms.
  { setting: 'limits.timeBudgetMs', option: 'timeBudgetMs', scale: 1, min: 100, max: 3_600_000, integer: true, restricted: true, zeroIsUnset: true },
  { setting: 'limits.maxPages', option: 'maxPages', scale: 1, min: 1, max: 1_000_000, integer: true, restricted: true, zeroIsUnset: true },
  { setting: 'limits.maxHeldMB', option: 'maxHeldBytes', scale: MB, min: 16, max: 2048, integer: true, restricted: true },
  { setting: 'limits.maxStreamMB', option: 'maxStreamBytes', scale: MB, min: 1, max: 1024, integer: true, restricted: true },
  { setting: 'limits.maxPageContentMB', option: 'maxPageBytes', scale: MB, min: 1, max: 2048, integer: true, restricted: true },
  { setting: 'limits.maxOpsPerPage', option: 'maxOpsPerPage', scale: 1, min: 1000, max: 100_000_000, integer: true, restricted: true },
  { setting: 'limits.maxImageBoxesPerPage', option: 'maxImageBoxesPerPage', scale: 1, min: 0, max: 10_000, integer: true, restricted: true },
];

/** Extension-only numeric settings (not analyzer options), with their bounds. */
export const EXTENSION_NUMBER_SETTINGS: Readonly<Record<'maxFileSizeMB' | 'workerCount' | 'storage.maxMB', NumericBounds & { restricted: boolean }>> =
  Object.freeze({
    maxFileSizeMB: { min: 1, max: 2048, integer: false, restricted: true },
    workerCount: { min: 0, max: 16, integer: true, restricted: true },
    // disk the workspace's stored results may take: a workspace must not raise it for itself
    'storage.maxMB': { min: 0, max: 10240, integer: true, restricted: true },
  });

/** Settings (full keys) whose workspace values an untrusted workspace may not set: every limit. */
export const RESTRICTED_SETTINGS: readonly string[] = [
  ...OPTION_SETTINGS.filter((s) => s.restricted).map((s) => `${SECTION}.${s.setting}`),
  ...Object.entries(EXTENSION_NUMBER_SETTINGS)
    .filter(([, b]) => b.restricted)
    .map(([k]) => `${SECTION}.${k}`),
];

/** Extension-only settings (not analyzer options). package.json's defaults must equal these (tested). */
export const EXTENSION_DEFAULTS = Object.freeze({
  problemRoutes: ['ocr', 'review', 'unknown', 'ocr-layer', 'blank'] as readonly PageRoute[],
  trustOcrLayer: true,
  maxFileSizeMB: 256,
  /** 0 = automatic (cores − 1, at most 4) */
  workerCount: 0,
  /** stored results per workspace, MB; 0 = store nothing */
  storageMaxMB: 200,
  /**
   * Score each OCR layer (AnalyzerOptions.layerQuality). On here although the analyzer and the CLI default to off:
   * the extension looks at files one at a time, caches the result by content, and the score is what tells a user
   * whether an `ocr-layer` page can be kept; it costs 1.3–1.6× the analysis time of a document with layers.
   */
  layerQuality: true,
});

/** Extension settings that are analysis inputs (not in OPTION_SETTINGS): a change re-analyses the stored reports. */
export const ANALYSIS_SETTINGS: readonly string[] = ['layerQuality'];

export interface ExtensionSettings {
  /** only the options the configuration holds valid values for; the analyzer fills the rest from DEFAULT_OPTIONS */
  options: Partial<AnalyzerOptions>;
  problemRoutes: ReadonlySet<PageRoute>;
  /** false: pages with an OCR text layer are reported for (re-)OCR like `ocr` pages */
  trustOcrLayer: boolean;
  maxFileSizeBytes: number;
  workerCount: number;
  /** cap of the stored results in the workspace's storage, bytes; 0 = results are not stored */
  storageMaxBytes: number;
}

const MAX_WORKERS = EXTENSION_NUMBER_SETTINGS.workerCount.max;

/**
 * A setting's value clamped to its bounds, or undefined when it is not a usable number (not a finite number, or
 * negative: no setting here takes one, so it is a typo rather than "as small as possible").
 */
export function clampSetting(v: unknown, b: NumericBounds): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return undefined;
  const n = b.integer ? Math.floor(v) : v;
  return Math.min(b.max, Math.max(b.min, n));
}

export function readSettings(get: (key: string) => unknown): ExtensionSettings {
  const options: Partial<AnalyzerOptions> = {};
  for (const row of OPTION_SETTINGS) {
    const raw = get(row.setting);
    if (row.zeroIsUnset && raw === 0) continue;
    const v = clampSetting(raw, row);
    if (v !== undefined) (options as Record<string, number>)[row.option] = v * row.scale;
  }

  const lq = get('layerQuality');
  if (typeof lq === 'boolean' ? lq : EXTENSION_DEFAULTS.layerQuality) options.layerQuality = true;

  const rawRoutes = get('problemRoutes');
  const problemRoutes = new Set<PageRoute>(
    Array.isArray(rawRoutes) ? rawRoutes.filter((r): r is PageRoute => PAGE_ROUTES.includes(r as PageRoute)) : EXTENSION_DEFAULTS.problemRoutes,
  );
  const trust = get('trustOcrLayer');
  const mb = get('maxFileSizeMB');
  const sizeMB = mb === 0 ? undefined : clampSetting(mb, EXTENSION_NUMBER_SETTINGS.maxFileSizeMB);
  const workers = clampSetting(get('workerCount'), EXTENSION_NUMBER_SETTINGS.workerCount);
  const storageMB = clampSetting(get('storage.maxMB'), EXTENSION_NUMBER_SETTINGS['storage.maxMB']);
  return {
    options,
    problemRoutes,
    trustOcrLayer: typeof trust === 'boolean' ? trust : EXTENSION_DEFAULTS.trustOcrLayer,
    maxFileSizeBytes: Math.floor((sizeMB ?? EXTENSION_DEFAULTS.maxFileSizeMB) * MB),
    workerCount: workers ?? EXTENSION_DEFAULTS.workerCount,
    storageMaxBytes: (storageMB ?? EXTENSION_DEFAULTS.storageMaxMB) * MB,
  };
}

/** What `WorkspaceConfiguration.inspect()` returns, as far as it matters here. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The part of `vscode.WorkspaceConfiguration` (for SECTION) the reader uses. */
export interface ConfigurationLike {
  get(key: string): unknown;
  inspect(key: string): InspectedSetting | undefined;
}

/**
 * A getter for readSettings(): in a trusted workspace, the configuration's own value; in an untrusted one, a
 * restricted setting's user (global) value, else its default, never a workspace or folder value.
 * VS Code already strips those values itself (see the header); this repeats it for hosts that do not.
 */
export function trustAwareReader(config: ConfigurationLike, trusted: boolean): (key: string) => unknown {
  const restricted = new Set(RESTRICTED_SETTINGS);
  return (key) => {
    if (trusted || !restricted.has(`${SECTION}.${key}`)) return config.get(key);
    const i = config.inspect(key);
    return i?.globalValue !== undefined ? i.globalValue : i?.defaultValue;
  };
}

/**
 * The effective analyzer option values, as a stable string: part of the cache key, so a threshold change re-analyses.
 * The layer-quality switch is appended only when on, so the keys of reports made without it are those of before it
 * existed (their stored results stay valid), and a report without scores is never taken for one with them.
 */
export function optionsKey(options: Partial<AnalyzerOptions>): string {
  const parts: string[] = [];
  for (const key of Object.keys(DEFAULT_OPTIONS).sort() as (keyof AnalyzerOptions)[]) {
    const v = options[key];
    parts.push(`${key}=${v === undefined ? DEFAULT_OPTIONS[key] : v}`);
  }
  if (options.layerQuality === true) parts.push('layerQuality=true');
  return parts.join(';');
}

/** Which settings changes mean stored reports are stale (analysis inputs) rather than just needing a redraw. */
export function affectsAnalysis(changed: (key: string) => boolean): boolean {
  return OPTION_SETTINGS.some(({ setting }) => changed(`${SECTION}.${setting}`)) || ANALYSIS_SETTINGS.some((k) => changed(`${SECTION}.${k}`));
}

/**
 * Time budget per file at most when a file is analysed on the extension host's own thread (no worker could be
 * started). The analyzer is synchronous and checks its budget cooperatively, so this is how long the host can be
 * frozen by one file; a worker, by contrast, is simply terminated when it overruns.
 */
export const IN_PROCESS_MAX_BUDGET_MS = 10_000;

/** The options for an in-process analysis: an explicit time budget, the configured one capped at IN_PROCESS_MAX_BUDGET_MS. */
export function inProcessOptions(options: Partial<AnalyzerOptions>): Partial<AnalyzerOptions> {
  const budget = options.timeBudgetMs ?? DEFAULT_OPTIONS.timeBudgetMs;
  return { ...options, timeBudgetMs: Math.min(budget, IN_PROCESS_MAX_BUDGET_MS) };
}

/** Wraps an in-process fallback so every file it analyses carries inProcessOptions(). */
export function withInProcessBudget(inner: WorkerFactory): WorkerFactory {
  return (): AnalysisWorker => {
    const w = inner();
    return {
      postMessage: (msg, transfer) => w.postMessage({ ...msg, options: inProcessOptions(msg.options) }, transfer),
      onMessage: (cb) => w.onMessage(cb),
      onError: (cb) => w.onError(cb),
      terminate: () => w.terminate(),
    };
  };
}

/** Worker count in effect: the setting, or automatic from the machine's parallelism. */
export function effectiveWorkerCount(setting: number, hardwareConcurrency: number | undefined): number {
  if (setting >= 1) return Math.min(MAX_WORKERS, setting);
  const cores = hardwareConcurrency && hardwareConcurrency > 0 ? hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores - 1));
}
