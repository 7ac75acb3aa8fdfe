// Peak memory of one contender on one file, in a fresh process started with --expose-gc --trace-gc.
// Sequence: load the contender, read the file, gc() [marker A], one run, gc() [marker B], report.
// The parent reads the GC trace: the JS heap peaks just before a collection, so the heap high-water of the run is the
// largest "before" figure among the collections between markers A and B (B's own "before" is the heap at the end of
// the run). Off-heap memory (ArrayBuffer backing stores, wasm memory) is not in those figures; the process's peak RSS
// (getrusage maxrss) covers everything.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadContender, Unavailable } from './contenders.mjs';

const [name, file] = process.argv.slice(2);
const out = { contender: name, file };
try {
  const contender = await loadContender(name);
  const bytes = new Uint8Array(readFileSync(file));
  globalThis.gc();
  const before = process.memoryUsage();
  out.rssBefore = before.rss;
  out.maxRssBefore = process.resourceUsage().maxRSS * 1024;
  out.externalBefore = before.external + before.arrayBuffers;
  const t0 = performance.now();
  let summary = contender.run(bytes);
  if (summary && typeof summary.then === 'function') summary = await summary;
  out.ms = performance.now() - t0;
  const after = process.memoryUsage();
  out.maxRssAfter = process.resourceUsage().maxRSS * 1024;
  out.externalAfter = after.external + after.arrayBuffers;
  out.summary = summary;
  globalThis.gc();
  out.rssAfterGc = process.memoryUsage().rss;
} catch (e) {
  if (e instanceof Unavailable) out.unavailable = true;
  out.error = e instanceof Unavailable ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
// stderr: stdout carries V8's GC trace, which is block-buffered and interleaves unpredictably with writes from JS
process.stderr.write(`@@MEM ${JSON.stringify(out)}\n`);
