/** Public API of the page analyzer. */
export { analyzePdf, analyzePdfSync } from './analyze';
export { floorScan } from './floor';
export { DEFAULT_OPTIONS, resolveOptions, type AnalyzerOptions } from './options';
export { decideRoute } from './route';
export type * from './types';
export { fileRecord, pageRecord, pageRanges, type FileRecord, type PageRecord } from './serialize';
