import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeLabels } from '../webview/labels';

test('box labels: the first at its corner, one on top of it moves down inside its box, none that cannot fit is shown', () => {
  const full = { x: 0, y: 0, w: 600, h: 800, labelW: 120 };
  const same = { x: 0, y: 0, w: 600, h: 800, labelW: 120 };
  const small = { x: 10, y: 0, w: 100, h: 20, labelW: 80 }; // one label high, its corner taken
  const apart = { x: 300, y: 400, w: 100, h: 100, labelW: 80 };
  assert.deepEqual(placeLabels([full, same, small, apart]), [0, 16, null, 0]);
});

test('box labels never overlap, whatever the boxes', () => {
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) / 1;
  const boxes = Array.from({ length: 200 }, () => ({ x: rnd(500), y: rnd(700), w: 20 + rnd(300), h: 5 + rnd(300), labelW: 40 + rnd(100) }));
  const offsets = placeLabels(boxes);
  const shown = boxes.flatMap((b, i) => (offsets[i] === null ? [] : [{ x: b.x, y: b.y + offsets[i], w: Math.min(b.w, b.labelW) }]));
  for (let i = 0; i < shown.length; i++)
    for (let j = i + 1; j < shown.length; j++) {
      const a = shown[i];
      const b = shown[j];
      assert.ok(!(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + 16 && b.y < a.y + 16), `labels ${i} and ${j} overlap`);
    }
  boxes.forEach((b, i) => {
    const dy = offsets[i];
    if (dy !== null) assert.ok(dy + 16 <= Math.max(16, b.h), 'a label stays inside its box');
  });
  assert.ok(shown.length > 10);
});
