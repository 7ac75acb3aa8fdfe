/**
 * Public API of the page analyzer (`pdf-page-diagnostics/analyzer`). The benchmark's floor (floor.ts) is not part of it:
 * scripts/build.mjs bundles it on its own for bench/contenders.mjs.
 */
export { analyzePdf, analyzePdfSync } from './analyze';
export { DEFAULT_OPTIONS, resolveOptions, type AnalyzerOptions } from './options';
export { decideRoute } from './route';
export type * from './types';
export { fileRecord, pageRecord, pageRanges, type FileRecord, type PageRecord } from './serialize';
