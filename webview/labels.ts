/**
 * Where the image boxes' labels go so that none covers another: pure (rectangles in, offsets out), unit-tested.
 */
export interface LabelRect {
  /** the box's top-left corner and size, in px */
  x: number;
  y: number;
  w: number;
  h: number;
  /** the label's width, in px */
  labelW: number;
}

/**
 * For each box, in order, the label's offset below the box's top (0 = the top-left corner), or null when it has no
 * free place: tried at the top, then one label height lower at a time while it stays inside its box.
 */
export function placeLabels(boxes: readonly LabelRect[], labelH = 16): (number | null)[] {
  const taken: { x: number; y: number; w: number }[] = [];
  const overlaps = (x: number, y: number, w: number) => taken.some((t) => x < t.x + t.w && t.x < x + w && y < t.y + labelH && t.y < y + labelH);
  return boxes.map((b) => {
    const w = Math.min(b.w, b.labelW);
    const room = Math.max(labelH, b.h);
    let dy = 0;
    while (dy + labelH <= room && overlaps(b.x, b.y + dy, w)) dy += labelH;
    if (dy + labelH > room) return null;
    taken.push({ x: b.x, y: b.y + dy, w });
    return dy;
  });
}
