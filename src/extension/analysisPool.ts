/**
 * The analysis pool lives in src/shared/pool.ts so the CLI runs files through the same workers, watchdog and memory
 * bound as the extension; this module keeps the extension's imports stable.
 */
export * from '../shared/pool';
