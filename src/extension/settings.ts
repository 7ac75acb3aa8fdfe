/**
 * Settings → analyzer options and extension behaviour. Pure (no `vscode` import): the caller passes a getter over
 * the `pdfPageDiagnostics` configuration section, so the mapping is unit-tested without VS Code.
 * The analyzer's thresholds have their defaults only in DEFAULT_OPTIONS; package.json repeats them for the Settings
 * UI and a test asserts the two agree.
 */
import { type AnalyzerOptions, DEFAULT_OPTIONS } from '../analyzer/options';
import type { PageRoute } from '../analyzer/types';
import { PAGE_ROUTES } from '../shared/protocol';

export const SECTION = 'pdfPageDiagnostics';

/** Each analyzer option the user may set, with its setting key below SECTION. */
export const OPTION_SETTINGS: ReadonlyArray<{ setting: string; option: keyof AnalyzerOptions }> = [
  { setting: 'thresholds.minTextChars', option: 'minTextChars' },
  { setting: 'thresholds.undecodableShare', option: 'undecodableShare' },
  { setting: 'thresholds.borderlineMaxChars', option: 'borderlineMaxChars' },
  { setting: 'thresholds.borderlineCoverage', option: 'borderlineCoverage' },
  { setting: 'thresholds.minOcrLayerChars', option: 'minOcrLayerChars' },
  { setting: 'thresholds.ocrLayerCoverage', option: 'ocrLayerCoverage' },
  { setting: 'thresholds.scanCoverage', option: 'scanCoverage' },
  { setting: 'thresholds.minVectorOps', option: 'minVectorOps' },
  { setting: 'limits.timeBudgetMs', option: 'timeBudgetMs' },
  { setting: 'limits.maxPages', option: 'maxPages' },
];

/** Extension-only settings (not analyzer options). package.json's defaults must equal these (tested). */
export const EXTENSION_DEFAULTS = Object.freeze({
  problemRoutes: ['ocr', 'review', 'unknown', 'ocr-layer', 'blank'] as readonly PageRoute[],
  trustOcrLayer: true,
  maxFileSizeMB: 256,
  /** 0 = automatic (cores − 1, at most 4) */
  workerCount: 0,
});

export interface ExtensionSettings {
  /** only the options the configuration holds valid values for; the analyzer fills the rest from DEFAULT_OPTIONS */
  options: Partial<AnalyzerOptions>;
  problemRoutes: ReadonlySet<PageRoute>;
  /** false: pages with an OCR text layer are reported for (re-)OCR like `ocr` pages */
  trustOcrLayer: boolean;
  maxFileSizeBytes: number;
  workerCount: number;
}

const MAX_WORKERS = 16;

function validNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

export function readSettings(get: (key: string) => unknown): ExtensionSettings {
  const options: Partial<AnalyzerOptions> = {};
  for (const { setting, option } of OPTION_SETTINGS) {
    const v = get(setting);
    if (validNumber(v)) (options as Record<string, number>)[option] = v;
  }
  // A zero page cap or time budget would make every file unknown; treat it as unset.
  if (options.timeBudgetMs === 0) delete options.timeBudgetMs;
  if (options.maxPages === 0) delete options.maxPages;

  const rawRoutes = get('problemRoutes');
  const problemRoutes = new Set<PageRoute>(
    Array.isArray(rawRoutes) ? rawRoutes.filter((r): r is PageRoute => PAGE_ROUTES.includes(r as PageRoute)) : EXTENSION_DEFAULTS.problemRoutes,
  );
  const trust = get('trustOcrLayer');
  const mb = get('maxFileSizeMB');
  const workers = get('workerCount');
  return {
    options,
    problemRoutes,
    trustOcrLayer: typeof trust === 'boolean' ? trust : EXTENSION_DEFAULTS.trustOcrLayer,
    maxFileSizeBytes: Math.floor((validNumber(mb) && mb > 0 ? mb : EXTENSION_DEFAULTS.maxFileSizeMB) * 1024 * 1024),
    workerCount: validNumber(workers) ? Math.min(MAX_WORKERS, Math.floor(workers)) : EXTENSION_DEFAULTS.workerCount,
  };
}

/** The effective analyzer option values, as a stable string: part of the cache key, so a threshold change re-analyses. */
export function optionsKey(options: Partial<AnalyzerOptions>): string {
  const parts: string[] = [];
  for (const key of Object.keys(DEFAULT_OPTIONS).sort() as (keyof AnalyzerOptions)[]) {
    const v = options[key];
    parts.push(`${key}=${v === undefined ? DEFAULT_OPTIONS[key] : v}`);
  }
  return parts.join(';');
}

/** Which settings changes mean stored reports are stale (analysis inputs) rather than just needing a redraw. */
export function affectsAnalysis(changed: (key: string) => boolean): boolean {
  return OPTION_SETTINGS.some(({ setting }) => changed(`${SECTION}.${setting}`));
}

/** Worker count in effect: the setting, or automatic from the machine's parallelism. */
export function effectiveWorkerCount(setting: number, hardwareConcurrency: number | undefined): number {
  if (setting >= 1) return Math.min(MAX_WORKERS, setting);
  const cores = hardwareConcurrency && hardwareConcurrency > 0 ? hardwareConcurrency : 2;
  return Math.max(1, Math.min(4, cores - 1));
}
