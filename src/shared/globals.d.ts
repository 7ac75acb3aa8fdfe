/**
 * The host timers the worker pool (pool.ts) uses, declared here so that src/shared compiles on the ES library alone:
 * every host it runs in (Node, the browser, a web worker) has them.
 */
declare function setTimeout(handler: () => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
declare function queueMicrotask(callback: () => void): void;
