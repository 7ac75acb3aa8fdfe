/**
 * The preview's page geometry, without the DOM (so Node tests and benchmarks load it as is).
 *
 * Only the pages near the viewport exist in the DOM; every other page is a height in a prefix-sum table, and one
 * spacer element as tall as the whole document gives the scroll bar its range. Browsers cap an element's height
 * (Chromium about 33.5 million px, Firefox about 17.9 million), far below 1,000,000 pages of ~1,000 px, so above
 * MAX_SCROLL_PX the spacer is capped and ScrollMap maps the physical scroll position onto the taller virtual one.
 */

/**
 * The spacer's height cap: below every engine's limit (VS Code for the web runs the webview in Firefox or Safari too),
 * with room for the pages' own offsets inside it.
 */
export const MAX_SCROLL_PX = 10_000_000;

export interface Size {
  w: number;
  h: number;
}

export interface LayoutView {
  /** 0 fits each page to the width, else a fixed scale */
  zoom: number;
  /** the pane's inner width in CSS px (for fit width) */
  width: number;
  /** the pane's height in CSS px: the last page may be scrolled up to 60% of it */
  height: number;
}

/** Space above the first page (the pane's top padding) and the share of the pane kept free below the last page. */
export const PAD_TOP = 8;
const PAD_BOTTOM_SHARE = 0.4;
/** Horizontal padding of the pane; a page is never narrower than the fit computation's minimum. */
const PAD_X = 16;
/** The largest fit-width scale: a tiny page is not blown up past 400%. */
const MAX_FIT_SCALE = 4;

/**
 * Page tops as prefix sums of page heights, kept in a Fenwick tree (a binary indexed tree over a Float64Array): the
 * top of a page is a prefix sum in O(log n), the page at an offset a binary-search descent of the tree in O(log n),
 * and a single page's height changes in O(log n). The last point matters at 1,000,000 pages: pages are corrected one
 * by one as they enter the DOM (measured header and evidence, pdf.js's own page size), and a flat prefix-sum array
 * would need an O(n) pass from the changed page on for each. A page's height is its surface (its size at the page's
 * scale, in whole px as the DOM sizes it) plus its chrome: the header, the evidence line and the gap below, estimated
 * until measured. Heights are whole px, so every sum is exact in a double and the search never misses by rounding.
 * A new zoom, width or default size rebuilds everything lazily, in one O(n) pass at the next query.
 */
export class PageLayout {
  readonly count: number;
  /** width, height at scale 1 per page, interleaved; 0 (or anything not a positive finite number) = use defaultBase */
  private readonly base: Float32Array;
  private readonly chrome: Float32Array;
  /** each page's current height, to turn a change into a delta for the tree */
  private readonly heights: Float64Array;
  /** Fenwick tree, 1-based: tree[i] sums heights (i - lowbit(i), i] */
  private readonly tree: Float64Array;
  private readonly topBit: number;
  private stale = true;
  private view: LayoutView = { zoom: 1, width: 800, height: 600 };
  private widest = 0;
  defaultBase: Size;

  /**
   * @param sizes [w, h] per page at scale 1, interleaved (e.g. from the report); 0 or missing means unknown
   * @param chromeEstimate the height of a page's header, evidence and gap until measured
   */
  constructor(
    count: number,
    sizes: Float32Array | undefined,
    defaultBase: Size,
    readonly chromeEstimate: number,
  ) {
    this.count = Math.max(0, Math.floor(count));
    this.base = new Float32Array(this.count * 2);
    if (sizes) this.base.set(sizes.subarray(0, Math.min(sizes.length, this.base.length)));
    this.chrome = new Float32Array(this.count).fill(chromeEstimate);
    this.heights = new Float64Array(this.count);
    this.tree = new Float64Array(this.count + 1);
    let bit = 1;
    while (bit * 2 <= this.count) bit *= 2;
    this.topBit = bit;
    this.defaultBase = defaultBase;
  }

  setView(v: LayoutView): void {
    if (v.zoom === this.view.zoom && v.width === this.view.width && v.height === this.view.height) return;
    const scaleChanged = v.zoom !== this.view.zoom || (v.zoom === 0 && v.width !== this.view.width);
    this.view = { ...v };
    if (scaleChanged) this.stale = true;
  }

  setDefaultBase(b: Size): void {
    if (b.w === this.defaultBase.w && b.h === this.defaultBase.h) return;
    this.defaultBase = b;
    this.stale = true;
  }

  /** Page n's size at scale 1 (from pdf.js once it has the page, else the report's, else the default). */
  baseOf(n: number): Size {
    const w = this.base[(n - 1) * 2];
    const h = this.base[(n - 1) * 2 + 1];
    return known(w) && known(h) ? { w, h } : this.defaultBase;
  }

  /** Records page n's true size; returns whether its height changed. */
  setBase(n: number, b: Size): boolean {
    if (!(n >= 1 && n <= this.count && known(b.w) && known(b.h))) return false;
    const i = (n - 1) * 2;
    this.base[i] = b.w;
    this.base[i + 1] = b.h;
    const w = this.surfaceOf(n).w;
    if (w > this.widest) this.widest = w;
    return this.refresh(n);
  }

  /** Records page n's measured chrome height (its element's height minus its surface's); returns whether it changed. */
  setChrome(n: number, px: number): boolean {
    if (!(n >= 1 && n <= this.count && px >= 0 && Number.isFinite(px))) return false;
    this.chrome[n - 1] = Math.round(px);
    return this.refresh(n);
  }

  /** Brings page n's height up to date in the tree. */
  private refresh(n: number): boolean {
    this.ensure();
    const h = this.heightOf(n);
    const d = h - this.heights[n - 1];
    if (d === 0) return false;
    this.heights[n - 1] = h;
    const t = this.tree;
    for (let i = n; i <= this.count; i += i & -i) t[i] += d;
    return true;
  }

  scaleOf(n: number): number {
    if (this.view.zoom > 0) return this.view.zoom;
    const avail = Math.max(200, this.view.width - 2 * PAD_X);
    return Math.min(MAX_FIT_SCALE, avail / this.baseOf(n).w);
  }

  /** The page's canvas/surface size in CSS px. */
  surfaceOf(n: number): Size {
    const b = this.baseOf(n);
    const s = this.scaleOf(n);
    return { w: Math.floor(b.w * s), h: Math.floor(b.h * s) };
  }

  heightOf(n: number): number {
    return this.surfaceOf(n).h + this.chrome[n - 1];
  }

  private ensure(): void {
    if (!this.stale) return;
    this.stale = false;
    const { base: b, heights, tree: t, chrome, count } = this;
    const d = this.defaultBase;
    const zoom = this.view.zoom;
    const avail = Math.max(200, this.view.width - 2 * PAD_X);
    let widest = 0;
    // The inner loop of a 1,000,000-page open: plain arithmetic on typed arrays, no objects.
    for (let i = 0; i < count; i++) {
      let w = b[2 * i];
      let h = b[2 * i + 1];
      // Inline `known` (this loop runs a million times): NaN, ≤ 0 and Infinity all fail it.
      if (!(w > 0 && w < INF && h > 0 && h < INF)) {
        w = d.w;
        h = d.h;
      }
      const s = zoom > 0 ? zoom : min(MAX_FIT_SCALE, avail / w);
      const sw = floor(w * s);
      if (sw > widest) widest = sw;
      const ht = floor(h * s) + chrome[i];
      heights[i] = ht;
      t[i + 1] = ht;
    }
    // Fenwick build in O(n): each node passes its sum to its parent.
    for (let i = 1; i <= count; i++) {
      const j = i + (i & -i);
      if (j <= count) t[j] += t[i];
    }
    this.widest = widest;
  }

  /** Sum of the heights of pages 1..k. */
  private prefix(k: number): number {
    this.ensure();
    let sum = 0;
    for (let i = Math.min(k, this.count); i > 0; i -= i & -i) sum += this.tree[i];
    return sum;
  }

  /** Where page n's element starts (virtual px from the top of the document); n = count+1 is the end of the last page. */
  offsetOf(n: number): number {
    return PAD_TOP + this.prefix(Math.min(Math.max(1, n), this.count + 1) - 1);
  }

  /** The page under virtual offset y: the last page starting at or above y (1 above the first page). */
  pageAt(y: number): number {
    this.ensure();
    if (this.count === 0) return 1;
    // Descend the tree: the most pages whose heights sum to at most y - PAD_TOP (binary search on the prefix sums).
    let rem = y - PAD_TOP;
    let pos = 0;
    const t = this.tree;
    for (let step = this.topBit; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.count && t[next] <= rem) {
        pos = next;
        rem -= t[next];
      }
    }
    return Math.min(pos + 1, this.count);
  }

  /** The whole document's virtual height, with the padding above and below. */
  get total(): number {
    return this.offsetOf(this.count + 1) + Math.round(this.view.height * PAD_BOTTOM_SHARE);
  }

  /** The widest page surface plus the pane's padding: the spacer's width, so wide pages can be scrolled to. */
  get width(): number {
    this.ensure();
    return this.widest + 2 * PAD_X;
  }

  /** The pages whose elements overlap [top, bottom), at most `max` of them from the first. */
  range(top: number, bottom: number, max: number): { first: number; last: number } {
    if (this.count === 0) return { first: 1, last: 0 };
    const first = this.pageAt(top);
    let last = this.pageAt(Math.max(top, bottom - 1));
    if (last - first + 1 > max) last = first + max - 1;
    return { first, last };
  }
}

function known(v: number): boolean {
  return v > 0 && v < INF;
}

// Module-level copies for the million-iteration loop: no global lookups per page (slow in some hosts, e.g. node:vm).
const INF = Infinity;
const floor = Math.floor;
const min = Math.min;

/**
 * Maps the scroll container's physical scrollTop onto the virtual document offset.
 *
 * Under the cap, the two are equal. Above it, the spacer is capped and a proportional mapping alone would make one
 * wheel notch skip dozens of pages, so small moves (wheel, arrows, Page Down) move the document 1:1 and only large
 * ones (dragging the scroll thumb, Home/End) jump through the mapping. 1:1 moves let the two drift apart; `reanchor()`
 * (called when scrolling pauses, or at once when the physical position hits an end the virtual one has not reached)
 * moves the physical position back to the proportional one without moving the content, so the thumb tells where one is.
 * Page elements sit at offsetOf(n) - shift in the spacer, shift = virtual - physical top.
 */
export class ScrollMap {
  /** virtual top of the viewport */
  y = 0;
  /** physical scrollTop it corresponds to (as last set or seen) */
  s = 0;
  private total = 0;
  private view = 0;

  constructor(readonly limit = MAX_SCROLL_PX) {}

  /** The spacer's height. */
  get spacer(): number {
    return Math.min(this.total, this.limit);
  }

  get scaled(): boolean {
    return this.total > this.limit;
  }

  get maxY(): number {
    return Math.max(0, this.total - this.view);
  }

  get maxS(): number {
    return Math.max(0, this.spacer - this.view);
  }

  get shift(): number {
    return this.y - this.s;
  }

  /**
   * Where reanchoring puts the physical top for a virtual top: 1:1 within `edge` of either end (so the physical ends
   * are the document's ends and a small move never gets stuck at a physical end), proportional in between.
   */
  private get edge(): number {
    return Math.min(Math.max(2 * this.view, 2000), this.maxS / 4);
  }

  physical(y: number): number {
    if (!this.scaled) return y;
    const { maxY, maxS, edge: e } = this;
    if (y <= e) return Math.max(0, y);
    if (y >= maxY - e) return Math.min(maxS, maxS - (maxY - y));
    return e + ((y - e) * (maxS - 2 * e)) / (maxY - 2 * e);
  }

  virtual(s: number): number {
    if (!this.scaled) return s;
    const { maxY, maxS, edge: e } = this;
    if (s <= e) return Math.max(0, s);
    if (s >= maxS - e) return Math.min(maxY, maxY - (maxS - s));
    return e + ((s - e) * (maxY - 2 * e)) / (maxS - 2 * e);
  }

  /** New document or viewport size: keeps the virtual top (clamped); returns the physical scrollTop to set. */
  resize(total: number, view: number): number {
    this.total = Math.max(0, total);
    this.view = Math.max(0, view);
    this.y = clamp(this.y, 0, this.maxY);
    this.s = this.physical(this.y);
    return this.s;
  }

  /** A large move: the thumb was dragged or Home/End pressed. */
  private jumpThreshold(): number {
    return Math.max(2 * this.view, 200);
  }

  /**
   * The container scrolled to physical s. Returns true when the caller should reanchor() at once: the physical
   * position hit an end of the spacer but the virtual one is short of that end of the document.
   */
  onScroll(s: number): boolean {
    const d = s - this.s;
    this.s = s;
    if (!this.scaled) {
      this.y = clamp(s, 0, this.maxY);
      return false;
    }
    if (Math.abs(d) > this.jumpThreshold()) this.y = this.virtual(s);
    else this.y = clamp(this.y + d, 0, this.maxY);
    return (s <= 0 && this.y > 0) || (s >= this.maxS && this.y < this.maxY);
  }

  /** Puts the virtual top at y; returns the physical scrollTop to set. */
  goTo(y: number): number {
    this.y = clamp(y, 0, this.maxY);
    this.s = this.physical(this.y);
    return this.s;
  }

  /** Moves the physical position back to the proportional one for the current virtual top (content stays put). */
  reanchor(): number {
    this.s = this.physical(this.y);
    return this.s;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
