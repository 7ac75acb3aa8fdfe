// The inverse wavelet transform of JPEG 2000 (layerQuality/wavelet.ts, Annex F 2D_SR): round trips through the test-only
// forward transform (scripts/wavelet-forward.ts), and, because one hand wrote both, checks that do not go through it:
// the filters' impulse responses as the literature tabulates them, a constant's reconstruction, and examples worked by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { synthesize } from '../src/analyzer/layerQuality/wavelet';
import { analyze2d, type Subbands } from '../scripts/wavelet-forward';
import { prng } from '../scripts/fuzz';

const SIZES = [1, 2, 3, 7, 64, 65];

function randomRegion(rnd: () => number, w: number, h: number, reversible: boolean): Float32Array {
  const a = new Float32Array(w * h);
  for (let i = 0; i < a.length; i++) a[i] = reversible ? Math.floor(rnd() * 1024) - 512 : rnd() * 510 - 255;
  return a;
}

function synth(b: Subbands, x0: number, y0: number, x1: number, y1: number, reversible: boolean): Float32Array {
  return synthesize(b.ll, b.hl, b.lh, b.hh, x0, y0, x1, y1, reversible).subarray(0, Math.max(0, (x1 - x0) * (y1 - y0)));
}

function assertClose(got: Float32Array, want: ArrayLike<number>, reversible: boolean, what: string): void {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    const ok = reversible ? got[i] === want[i] : Math.abs(got[i] - want[i]) <= 1e-3 * Math.max(1, Math.abs(want[i]));
    if (!ok) assert.fail(`${what}: sample ${i} is ${got[i]}, want ${want[i]}`);
  }
}

/** A region's band sizes as the interface defines them (the ceil/floor of half the ends). */
function bandsOf(x0: number, y0: number, x1: number, y1: number) {
  const wl = Math.ceil(x1 / 2) - Math.ceil(x0 / 2);
  const wh = Math.floor(x1 / 2) - Math.floor(x0 / 2);
  const hl = Math.ceil(y1 / 2) - Math.ceil(y0 / 2);
  const hh = Math.floor(y1 / 2) - Math.floor(y0 / 2);
  return {
    ll: new Float32Array(wl * hl),
    hl: new Float32Array(wh * hl),
    lh: new Float32Array(wl * hh),
    hh: new Float32Array(wh * hh),
    wl,
    wh,
  };
}

for (const reversible of [true, false]) {
  const name = reversible ? '5/3' : '9/7';

  test(`${name}: one level round-trips every size and start parity`, () => {
    const rnd = prng(reversible ? 53 : 97);
    for (const w of SIZES) {
      for (const h of SIZES) {
        for (const xOdd of [0, 1]) {
          for (const yOdd of [0, 1]) {
            const x0 = 2 * Math.floor(rnd() * 50) + xOdd;
            const y0 = 2 * Math.floor(rnd() * 50) + yOdd;
            const a = randomRegion(rnd, w, h, reversible);
            const bands = analyze2d(a, x0, y0, x0 + w, y0 + h, reversible);
            assertClose(synth(bands, x0, y0, x0 + w, y0 + h, reversible), a, reversible, `${w}×${h} at (${x0}, ${y0})`);
          }
        }
      }
    }
  });

  test(`${name}: several levels round-trip as a decoder applies them`, () => {
    const rnd = prng(reversible ? 5353 : 9797);
    for (let trial = 0; trial < 40; trial++) {
      const levels = 1 + Math.floor(rnd() * 5);
      const x0 = Math.floor(rnd() * 300);
      const y0 = Math.floor(rnd() * 300);
      // small regions too, so that some levels shrink to one sample or to nothing
      const big = trial % 3 !== 0;
      const x1 = x0 + (big ? 1 + Math.floor(rnd() * 150) : Math.floor(rnd() * 6));
      const y1 = y0 + (big ? 1 + Math.floor(rnd() * 150) : Math.floor(rnd() * 6));
      const image = randomRegion(rnd, x1 - x0, y1 - y0, reversible);
      // forward, finest level first; level r−1's region is [⌈x0/2⌉, ⌈x1/2⌉) × [⌈y0/2⌉, ⌈y1/2⌉)
      const regions: [number, number, number, number][] = [];
      const details: Subbands[] = [];
      let cur = image;
      let r: [number, number, number, number] = [x0, y0, x1, y1];
      for (let l = 0; l < levels; l++) {
        regions.push(r);
        const b = analyze2d(cur, ...r, reversible);
        details.push(b);
        cur = b.ll;
        r = [Math.ceil(r[0] / 2), Math.ceil(r[1] / 2), Math.ceil(r[2] / 2), Math.ceil(r[3] / 2)];
      }
      let ll: Float32Array = cur;
      for (let l = levels - 1; l >= 0; l--) ll = synth({ ...details[l], ll }, ...regions[l], reversible);
      assertClose(ll, image, reversible, `trial ${trial}: ${levels} levels of [${x0}, ${x1}) × [${y0}, ${y1})`);
    }
  });

  test(`${name}: a constant LL with zero high bands reconstructs the constant`, () => {
    // Annex F normalises the 9-7 filter so that the LL band of a constant image holds that constant (low-pass DC gain 1)
    for (const [x0, y0, x1, y1] of [
      [0, 0, 2, 2],
      [1, 1, 3, 3],
      [3, 4, 10, 11],
      [5, 7, 70, 40],
      [0, 1, 65, 66],
    ]) {
      const b = bandsOf(x0, y0, x1, y1);
      b.ll.fill(100);
      const got = synth(b, x0, y0, x1, y1, reversible);
      assertClose(got, new Float32Array((x1 - x0) * (y1 - y0)).fill(100), reversible, `[${x0}, ${x1}) × [${y0}, ${y1})`);
      if (!reversible) for (const v of got) assert.ok(Math.abs(v - 100) < 1e-3, `9/7 constant: ${v}`);
    }
  });
}

test('5/3: an impulse in HL gives the synthesis high-pass taps across and the low-pass taps down', () => {
  // The 5-3 synthesis high-pass filter is (−1, −2, 6, −2, −1)/8 and the low-pass (1, 2, 1)/2, each with the lifting's floors:
  // 8 at HL (3, 3), which is x = 7, y = 6, becomes row 6 = 8·taps, and rows 5 and 7 = ⌊row 6 / 2⌋.
  const b = bandsOf(0, 0, 16, 16);
  b.hl[3 * b.wh + 3] = 8;
  const got = synth(b, 0, 0, 16, 16, true);
  const want = new Float32Array(256);
  want.set([-1, -1, 3, -1, -1], 5 * 16 + 5);
  want.set([-1, -2, 6, -2, -1], 6 * 16 + 5);
  want.set([-1, -1, 3, -1, -1], 7 * 16 + 5);
  assert.deepEqual(Array.from(got), Array.from(want));
});

// The 9-7 synthesis filters with Annex F's normalisation (low-pass DC gain 2, each phase summing to 1; high-pass
// Nyquist gain 2), as tabulated in the literature (e.g. Taubman & Marcellin, JPEG2000, Table 10.3): taps 0, ±1, ±2, …
const G0 = [1.115087052456994, 0.591271763114247, -0.05754352622849957, -0.09127176311424948];
const G1 = [0.6029490182363579, -0.2668641184428723, -0.07822326652898785, 0.01686411844287495, 0.02674875741080976];

test('9/7: unit impulses in the low and the high band give the tabulated synthesis filters', () => {
  // rows: one row at even y is the horizontal filter alone (the vertical pass of a one-sample signal at an even index is the identity)
  for (const [band, x, taps] of [
    ['ll', 16, G0],
    ['hl', 17, G1],
  ] as const) {
    const b = bandsOf(0, 0, 32, 1);
    b[band][x >> 1] = 1;
    const got = synth(b, 0, 0, 32, 1, false);
    for (let i = 0; i < 32; i++) {
      const d = Math.abs(i - x);
      const want = d < taps.length ? taps[d] : 0;
      assert.ok(Math.abs(got[i] - want) < 1e-6, `${band} impulse, x = ${i}: ${got[i]}, want ${want}`);
    }
  }
  // a column at even x: the vertical filter alone
  for (const [band, y, taps] of [
    ['ll', 12, G0],
    ['lh', 13, G1],
  ] as const) {
    const b = bandsOf(0, 0, 1, 26);
    b[band][y >> 1] = 1;
    const got = synth(b, 0, 0, 1, 26, false);
    for (let i = 0; i < 26; i++) {
      const d = Math.abs(i - y);
      const want = d < taps.length ? taps[d] : 0;
      assert.ok(Math.abs(got[i] - want) < 1e-6, `${band} impulse, y = ${i}: ${got[i]}, want ${want}`);
    }
  }
});

test('5/3: small examples worked by hand from Annex F', () => {
  // [0, 4): Y = (L0, H0, L1, H1) = (10, 4, 30, −3); extension Y(−1) = Y(1), Y(4) = Y(2), Y(5) = Y(1).
  // X(0) = 10 − ⌊(4 + 4 + 2)/4⌋ = 8, X(2) = 30 − ⌊(4 − 3 + 2)/4⌋ = 30, X(4) = X(2);
  // X(1) = 4 + ⌊(8 + 30)/2⌋ = 23, X(3) = −3 + ⌊(30 + 30)/2⌋ = 27.
  const row = (x0: number, x1: number, y0: number, low: number[], high: number[]) => {
    const b = bandsOf(x0, y0, x1, y0 + 1);
    (y0 % 2 === 0 ? b.ll : b.lh).set(low);
    (y0 % 2 === 0 ? b.hl : b.hh).set(high);
    return Array.from(synth(b, x0, y0, x1, y0 + 1, true));
  };
  assert.deepEqual(row(0, 4, 0, [10, 30], [4, -3]), [8, 23, 30, 27]);
  // [1, 4): samples 1 and 3 high, 2 low; Y(0) = Y(2), Y(−1) = Y(3), Y(4) = Y(2), Y(5) = Y(1).
  // X(2) = 20 − ⌊(5 − 6 + 2)/4⌋ = 20 (and X(0) = X(4) = 20); X(1) = 5 + 20 = 25, X(3) = −6 + 20 = 14.
  assert.deepEqual(row(1, 4, 0, [20], [5, -6]), [25, 20, 14]);
  // a row at odd y is a one-sample column at an odd index: halved (1D_SR, i0 = i1 − 1 odd), in the 5-3 filter's integers
  // toward zero as OpenJPEG does it (its decode of a 5-wide tile at an odd column differed by one otherwise)
  assert.deepEqual(row(0, 4, 3, [10, 30], [4, -3]), [4, 11, 15, 13]);
  assert.deepEqual(row(0, 4, 3, [-10, -30], [-4, 3]), [-4, -11, -15, -13]);
  // one sample: even index kept, odd index halved (by the 9-7 filter exactly, by the 5-3 toward zero)
  for (const reversible of [true, false]) {
    assert.deepEqual(
      Array.from(synthesize(Float32Array.of(7), new Float32Array(0), new Float32Array(0), new Float32Array(0), 2, 4, 3, 5, reversible)),
      [7],
    );
    assert.deepEqual(
      Array.from(synthesize(new Float32Array(0), Float32Array.of(7), new Float32Array(0), new Float32Array(0), 3, 4, 4, 5, reversible)),
      [reversible ? 3 : 3.5],
    );
    assert.deepEqual(
      Array.from(synthesize(new Float32Array(0), new Float32Array(0), new Float32Array(0), Float32Array.of(8), 3, 5, 4, 6, reversible)),
      [2],
    );
  }
  // two samples [1, 3): x = 1 high (H), x = 2 low (L); X(2) = L − ⌊(2H + 2)/4⌋, X(1) = H + X(2)
  assert.deepEqual(row(1, 3, 0, [9], [6]), [6 + 9 - 3, 9 - 3]);
});

test('synthesize: empty and degenerate regions never throw', () => {
  const e = new Float32Array(0);
  const some = Float32Array.of(1, 2, 3);
  for (const reversible of [true, false]) {
    for (const [x0, y0, x1, y1] of [
      [0, 0, 0, 0],
      [5, 5, 5, 9],
      [5, 5, 9, 5],
      [9, 9, 5, 5],
      [-3, -2, 4, 3],
      [NaN, 0, 4, 4],
      [0, 0, Infinity, 4],
      [0, 0, 1e12, 1e12],
      [0, 0, 2 ** 29, 2 ** 29],
      [0.5, 1.5, 7.25, 3.75],
    ]) {
      assert.doesNotThrow(() => synthesize(e, e, e, e, x0, y0, x1, y1, reversible), `[${x0}, ${x1}) × [${y0}, ${y1})`);
      assert.doesNotThrow(() => synthesize(some, some, some, some, x0, y0, x1, y1, reversible));
    }
    // bands shorter than the region says: no exception (the missing samples read as NaN)
    assert.equal(synthesize(some, e, e, e, 0, 0, 20, 20, reversible).length, 400);
  }
  // a given `out` large enough is used; a small one is replaced
  const out = new Float32Array(100);
  assert.equal(synthesize(Float32Array.of(1), e, e, e, 0, 0, 1, 1, true, out), out);
  assert.equal(synthesize(some, some, some, some, 0, 0, 3, 3, true, new Float32Array(2)).length, 9);
});
