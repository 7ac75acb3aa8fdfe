/**
 * The content-stream operators the interpreter acts on, in one table: each has a small integer code (the lexer
 * stamps it on the interned keyword, so the interpreter switches on an integer) and the number of operands it needs.
 * An operator that arrives with fewer operands is skipped as a whole, as viewers do (ISO 32000-1, 7.8.2); its operand
 * types are still checked where it runs. Operators not in the table (colours other than the fill's kind, marked
 * content, dash patterns, Type 3 glyph metrics…) change nothing the analyzer measures and have code 0.
 */

/** Operator codes. 0 is every operator the interpreter ignores. */
export const enum Op {
  None = 0,
  // graphics state
  Save, // q
  Restore, // Q
  Concat, // cm
  ExtGState, // gs
  // text objects, state and positioning
  BeginText, // BT
  EndText, // ET
  SetFont, // Tf
  CharSpace, // Tc
  WordSpace, // Tw
  HScale, // Tz
  Leading, // TL
  Rise, // Ts
  RenderMode, // Tr
  MoveText, // Td
  MoveTextLeading, // TD
  TextMatrix, // Tm
  NextLine, // T*
  // text showing
  ShowText, // Tj
  ShowTextArray, // TJ
  NextLineShow, // '
  NextLineSpacingShow, // "
  // path construction
  MoveTo, // m
  LineTo, // l
  CurveTo, // c
  CurveToV, // v
  CurveToY, // y
  Rectangle, // re
  // clipping and painting
  Clip, // W, W*
  EndPath, // n
  Stroke, // S, s
  Fill, // f, F, f*, B, B*, b, b*
  Shade, // sh
  // fill colour (only whether it is a shading pattern matters)
  FillSpace, // cs
  FillPattern, // scn
  FillColour, // g, rg, k, sc
  // images and forms
  PaintXObject, // Do
  InlineImage, // BI
}

/** operator → [code, operands needed] */
const TABLE: Readonly<Record<string, readonly [Op, number]>> = {
  q: [Op.Save, 0],
  Q: [Op.Restore, 0],
  cm: [Op.Concat, 6],
  gs: [Op.ExtGState, 1],
  BT: [Op.BeginText, 0],
  ET: [Op.EndText, 0],
  Tf: [Op.SetFont, 2],
  Tc: [Op.CharSpace, 1],
  Tw: [Op.WordSpace, 1],
  Tz: [Op.HScale, 1],
  TL: [Op.Leading, 1],
  Ts: [Op.Rise, 1],
  Tr: [Op.RenderMode, 1],
  Td: [Op.MoveText, 2],
  TD: [Op.MoveTextLeading, 2],
  Tm: [Op.TextMatrix, 6],
  'T*': [Op.NextLine, 0],
  Tj: [Op.ShowText, 1],
  TJ: [Op.ShowTextArray, 1],
  "'": [Op.NextLineShow, 0],
  '"': [Op.NextLineSpacingShow, 3],
  m: [Op.MoveTo, 2],
  l: [Op.LineTo, 2],
  c: [Op.CurveTo, 6],
  v: [Op.CurveToV, 4],
  y: [Op.CurveToY, 4],
  re: [Op.Rectangle, 4],
  W: [Op.Clip, 0],
  'W*': [Op.Clip, 0],
  n: [Op.EndPath, 0],
  S: [Op.Stroke, 0],
  s: [Op.Stroke, 0],
  f: [Op.Fill, 0],
  F: [Op.Fill, 0],
  'f*': [Op.Fill, 0],
  B: [Op.Fill, 0],
  'B*': [Op.Fill, 0],
  b: [Op.Fill, 0],
  'b*': [Op.Fill, 0],
  // counted as painting even when its name is missing: something was painted
  sh: [Op.Shade, 0],
  cs: [Op.FillSpace, 0],
  scn: [Op.FillPattern, 0],
  g: [Op.FillColour, 0],
  rg: [Op.FillColour, 0],
  k: [Op.FillColour, 0],
  sc: [Op.FillColour, 0],
  Do: [Op.PaintXObject, 1],
  BI: [Op.InlineImage, 0],
};

/** The code of a keyword (Op.None for everything the interpreter does not act on). */
export function opCode(keyword: string): Op {
  return Object.hasOwn(TABLE, keyword) ? TABLE[keyword][0] : Op.None;
}

/** Operands needed per code, indexed by Op. */
export const OPERANDS: Uint8Array = (() => {
  const out = new Uint8Array(Op.InlineImage + 1);
  for (const [code, operands] of Object.values(TABLE)) out[code] = operands;
  return out;
})();
