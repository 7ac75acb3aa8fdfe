#!/usr/bin/env node
// Time to first page layout of the page preview for a synthetic 1,000,000-page report, under Node (no browser):
//
//   node --import tsx bench/webview-layout.mjs [--pages N] [--reps N]
//
// Measures, each the median of --reps runs:
//   head      host side: overlayHeadOf() packs the report's per-page boxes into the 9-byte-a-page head
//   parse     webview side: parseHostMessage() validates the 'report' message carrying that head
//   layout    webview side: unpackSizes + PageLayout + prefix sums + ScrollMap + the pages in the first screen,
//             i.e. what stands between receiving the head and placing page 1 (DOM and pdf.js work excluded)
//   goto      webview side: going to the middle page (binary search + scroll mapping) once laid out
// Page sizes mix letter, landscape and A4 so the prefix sums are not a constant stride.
import { performance } from 'node:perf_hooks';
import { overlayHeadOf, parseHostMessage, unpackSizes } from '../src/shared/protocol.ts';
import { PageLayout, ScrollMap, PAD_TOP } from '../webview/layout.ts';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const PAGES = opt('--pages', 1_000_000);
const REPS = opt('--reps', 5);

const boxes = [
  { cropBox: [0, 0, 612, 792], mediaBox: [0, 0, 612, 792], rotate: 0 },
  { cropBox: [0, 0, 612, 792], mediaBox: [0, 0, 612, 792], rotate: 90 },
  { cropBox: [0, 0, 595.28, 841.89], mediaBox: [0, 0, 595.28, 841.89], rotate: 0 },
];
const routes = ['text', 'ocr', 'blank', 'review'];
const pages = new Array(PAGES);
for (let i = 0; i < PAGES; i++) {
  const b = boxes[i % 3];
  pages[i] = {
    page: i + 1,
    route: routes[i % 4],
    reasons: [],
    visibleChars: 0,
    invisibleChars: 0,
    imageCoverage: 0,
    imageCount: 0,
    vectorOps: 0,
    fonts: 0,
    imageBoxes: [],
    ...b,
  };
}
const report = { pageCount: PAGES, verdict: 'synthetic', findings: [], pages };

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const time = (fn) => {
  const t0 = performance.now();
  const r = fn();
  return [performance.now() - t0, r];
};

const res = { head: [], parse: [], layout: [], goto: [] };
for (let rep = 0; rep < REPS; rep++) {
  const [tHead, head] = time(() => overlayHeadOf(report, rep + 1));
  const [tParse, msg] = time(() => parseHostMessage({ type: 'report', report: head }));
  if (!msg?.report) throw new Error('head refused');
  const [tLayout, state] = time(() => {
    const l = new PageLayout(msg.report.pageCount, unpackSizes(msg.report.sizes), { w: 612, h: 792 }, 62);
    l.setView({ zoom: 0, width: 1000, height: 900 });
    const m = new ScrollMap();
    m.resize(l.total, 900);
    m.goTo(l.offsetOf(1) - PAD_TOP);
    const r = l.range(m.y - 900, m.y + 1800, 60);
    return { l, m, r };
  });
  if (state.r.first !== 1) throw new Error('first page not laid out');
  const [tGoto] = time(() => {
    const n = PAGES >> 1;
    state.m.goTo(state.l.offsetOf(n) - PAD_TOP);
    const r = state.l.range(state.m.y - 900, state.m.y + 1800, 60);
    if (state.l.pageAt(state.m.y + PAD_TOP) !== n || r.first > n) throw new Error('go to page missed');
  });
  res.head.push(tHead);
  res.parse.push(tParse);
  res.layout.push(tLayout);
  res.goto.push(tGoto);
}

const fmt = (x) => (x < 1 ? x.toFixed(3) : x.toFixed(1));
console.log(`page preview layout, ${PAGES.toLocaleString('en-US')} pages, median of ${REPS} (node ${process.version})`);
for (const k of Object.keys(res))
  console.log(`  ${k.padEnd(7)} ${fmt(median(res[k])).padStart(9)} ms   (min ${fmt(Math.min(...res[k]))}, max ${fmt(Math.max(...res[k]))})`);
