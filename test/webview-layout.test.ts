import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SCROLL_PX, PAD_TOP, PageLayout, ScrollMap } from '../webview/layout';

const LETTER = { w: 612, h: 792 };

function near(a: number, b: number, msg?: string): void {
  assert.ok(Math.abs(a - b) < 1e-4, `${msg ?? ''} ${a} ≉ ${b}`);
}
const CHROME = 62;

/** Page sizes [w, h, …]: letter, with every 7th page landscape and every 11th unknown (0). */
function mixedSizes(count: number): Float32Array {
  const s = new Float32Array(count * 2);
  for (let i = 0; i < count; i++) {
    if (i % 11 === 10) continue;
    s[2 * i] = i % 7 === 6 ? 792 : 612;
    s[2 * i + 1] = i % 7 === 6 ? 612 : 792;
  }
  return s;
}

/** The page tops computed the slow, obvious way, to check the prefix sums against. */
function bruteTops(l: PageLayout): number[] {
  const tops: number[] = [];
  let y = PAD_TOP;
  for (let n = 1; n <= l.count; n++) {
    tops.push(y);
    y += l.heightOf(n);
  }
  tops.push(y);
  return tops;
}

test('offsets are prefix sums of page heights; pageAt is their inverse', () => {
  for (const view of [
    { zoom: 1, width: 900, height: 700 },
    { zoom: 0, width: 900, height: 700 },
    { zoom: 0.5, width: 300, height: 700 },
  ]) {
    const l = new PageLayout(200, mixedSizes(200), LETTER, CHROME);
    l.setView(view);
    const tops = bruteTops(l);
    for (let n = 1; n <= 200; n++) {
      assert.equal(l.offsetOf(n), tops[n - 1], `offset of page ${n}`);
      assert.equal(l.pageAt(tops[n - 1]), n, `page at the top of page ${n}`);
      assert.equal(l.pageAt(tops[n] - 0.5), n, `page at the bottom of page ${n}`);
    }
    assert.equal(l.pageAt(-100), 1);
    assert.equal(l.pageAt(1e12), 200);
    assert.equal(l.total, tops[200] + Math.round(view.height * 0.4));
  }
});

test('fit width scales each page to the pane; landscape pages are shorter; unknown sizes use the default', () => {
  const l = new PageLayout(11, mixedSizes(11), { w: 500, h: 500 }, CHROME);
  l.setView({ zoom: 0, width: 644, height: 600 });
  assert.deepEqual(l.surfaceOf(1), { w: 612, h: 792 });
  assert.deepEqual(l.surfaceOf(7), { w: 612, h: Math.floor(612 * (612 / 792)) });
  assert.deepEqual(l.surfaceOf(11), { w: 612, h: 612 });
  l.setView({ zoom: 2, width: 644, height: 600 });
  assert.deepEqual(l.surfaceOf(1), { w: 1224, h: 1584 });
  assert.equal(l.width, 1584 + 32); // the widest page (landscape 792 at 2×) plus the padding
});

test('sizes that are not positive finite numbers count as unknown', () => {
  const l = new PageLayout(4, new Float32Array([Number.NaN, 792, -612, 792, Infinity, 792, 300, 400]), LETTER, CHROME);
  l.setView({ zoom: 1, width: 800, height: 600 });
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => l.surfaceOf(n)),
    [LETTER, LETTER, LETTER, { w: 300, h: 400 }],
  );
  assert.equal(l.offsetOf(5), PAD_TOP + 3 * (792 + CHROME) + 400 + CHROME);
});

test('a measured page or a size from pdf.js moves the pages after it, not before', () => {
  const l = new PageLayout(1000, undefined, LETTER, CHROME);
  l.setView({ zoom: 1, width: 800, height: 600 });
  const before = bruteTops(l);
  assert.equal(l.setChrome(500, CHROME), false, 'same height: nothing to do');
  assert.equal(l.setChrome(500, CHROME + 40), true);
  assert.equal(l.setBase(700, { w: 612, h: 1008 }), true);
  for (const n of [1, 250, 500]) assert.equal(l.offsetOf(n), before[n - 1]);
  assert.equal(l.offsetOf(501), before[500] + 40);
  assert.equal(l.offsetOf(701), before[700] + 40 + 216);
  assert.deepEqual(
    bruteTops(l).slice(0, 1001),
    Array.from({ length: 1001 }, (_, i) => l.offsetOf(i + 1)),
  );
  assert.equal(l.setBase(0, LETTER), false);
  assert.equal(l.setBase(1001, LETTER), false);
});

test('range: the pages overlapping a band, capped', () => {
  const l = new PageLayout(100, undefined, LETTER, CHROME);
  l.setView({ zoom: 1, width: 800, height: 600 });
  const h = 792 + CHROME;
  assert.deepEqual(l.range(0, 1, 60), { first: 1, last: 1 });
  assert.deepEqual(l.range(PAD_TOP + h * 10 + 1, PAD_TOP + h * 12, 60), { first: 11, last: 12 });
  assert.deepEqual(l.range(0, 1e9, 60), { first: 1, last: 60 });
  assert.deepEqual(new PageLayout(0, undefined, LETTER, CHROME).range(0, 100, 60), { first: 1, last: 0 });
});

test('ScrollMap under the cap: physical and virtual positions are the same', () => {
  const m = new ScrollMap();
  m.resize(50_000, 800);
  assert.equal(m.scaled, false);
  assert.equal(m.spacer, 50_000);
  assert.equal(m.onScroll(1234), false);
  assert.equal(m.y, 1234);
  assert.equal(m.shift, 0);
  assert.equal(m.goTo(999_999), 50_000 - 800);
});

test('ScrollMap above the cap: spacer capped, ends map to ends, mapping monotone and invertible', () => {
  const total = 1_000_000 * 854;
  const m = new ScrollMap();
  m.resize(total, 800);
  assert.equal(m.scaled, true);
  assert.equal(m.spacer, MAX_SCROLL_PX);
  assert.equal(m.physical(0), 0);
  assert.equal(m.physical(m.maxY), m.maxS);
  assert.equal(m.virtual(m.maxS), m.maxY);
  let prev = -1;
  for (let i = 0; i <= 1000; i++) {
    const y = (m.maxY * i) / 1000;
    const s = m.physical(y);
    assert.ok(s > prev, `monotone at ${y}`);
    assert.ok(s >= 0 && s <= m.maxS);
    assert.ok(Math.abs(m.virtual(s) - y) < 1e-3 * Math.max(1, y), `inverse at ${y}`);
    prev = s;
  }
  // Near the ends small positions are 1:1, so the first pages scroll as in a short document.
  assert.equal(m.physical(500), 500);
  assert.equal(m.physical(m.maxY - 500), m.maxS - 500);
});

test('ScrollMap above the cap: a wheel notch moves 1:1, a thumb drag jumps, reanchoring keeps the content still', () => {
  const m = new ScrollMap();
  m.resize(854e6, 800);
  m.goTo(400e6);
  const s0 = m.s;
  const y0 = m.y;
  const top = 400e6 + 2000; // some page's virtual top, drawn at top - shift
  const drawnBefore = top - m.shift - m.s; // where it is on screen
  m.onScroll(s0 + 120);
  assert.equal(m.y, y0 + 120, 'small move: the document moves as far as the scroll bar');
  near(top - m.shift - m.s, drawnBefore - 120);
  const screen = top - m.shift - m.s;
  m.reanchor();
  near(top - m.shift - m.s, screen, 'reanchoring moves the thumb, not the content');
  assert.ok(Math.abs(m.s - m.physical(m.y)) < 1e-6);
  m.onScroll(m.maxS / 4);
  assert.ok(Math.abs(m.y - m.virtual(m.maxS / 4)) < 1, 'large move: proportional jump');
  m.onScroll(0);
  assert.equal(m.y, 0, 'Home reaches the first page');
  m.onScroll(m.maxS);
  assert.equal(m.y, m.maxY, 'End reaches the last page');
});

test('ScrollMap: scrolling up into the physical top with the document not at its top asks to reanchor, and can go on', () => {
  const m = new ScrollMap();
  m.resize(854e6, 800);
  m.goTo(5_000_000);
  // Wheel up by small steps without pausing: the physical position reaches 0 before the virtual one.
  let needs = false;
  while (!needs) needs = m.onScroll(Math.max(0, m.s - 100));
  assert.ok(m.y > 0);
  const s = m.reanchor();
  assert.ok(s > 0, 'after reanchoring there is room to scroll up again');
  // From anywhere, repeated small steps up reach page 1.
  for (let i = 0; i < 100_000 && m.y > 0; i++) if (m.onScroll(Math.max(0, m.s - 800))) m.reanchor();
  assert.equal(m.y, 0);
});

test('go to page in a 1,000,000-page document: the page lands at the top of the viewport, inside the spacer', () => {
  const l = new PageLayout(1_000_000, mixedSizes(1_000_000), LETTER, CHROME);
  l.setView({ zoom: 0, width: 900, height: 800 });
  const m = new ScrollMap();
  m.resize(l.total, 800);
  assert.ok(m.scaled);
  for (const n of [1, 2, 777, 123_456, 500_000, 999_999, 1_000_000]) {
    m.goTo(l.offsetOf(n) - PAD_TOP);
    assert.ok(m.s >= 0 && m.s <= m.maxS, `physical position of page ${n} inside the spacer`);
    const placed = l.offsetOf(n) - m.shift; // the page element's top inside the spacer
    assert.ok(placed >= 0 && placed + l.heightOf(n) <= m.spacer + 1, `page ${n} placed inside the spacer (${placed})`);
    const atTop = l.pageAt(m.y + PAD_TOP);
    // The last pages cannot reach the top (the document ends); they are in view instead.
    if (n < 999_999) assert.equal(atTop, n, `page at the top after going to ${n}`);
    else assert.ok(l.offsetOf(n) < m.y + 800 && l.offsetOf(n) + l.heightOf(n) > m.y, `page ${n} in view`);
  }
});

test('time to first layout of a 1,000,000-page report stays small', () => {
  const sizes = mixedSizes(1_000_000);
  const t0 = performance.now();
  const l = new PageLayout(1_000_000, sizes, LETTER, CHROME);
  l.setView({ zoom: 0, width: 900, height: 800 });
  const m = new ScrollMap();
  m.resize(l.total, 800);
  const r = l.range(0, 2400, 60);
  const ms = performance.now() - t0;
  assert.deepEqual(r, { first: 1, last: 3 });
  // ~20 ms on a quiet machine; generous so a busy shared machine does not fail it, yet far below the 35 s it replaces.
  assert.ok(ms < 2000, `first layout took ${ms.toFixed(1)} ms`);
});
