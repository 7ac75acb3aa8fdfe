/**
 * How wide a character is expected to be, in ems, whatever font the layer's text was set in: Helvetica's advance
 * (std14Widths.ts; for Cyrillic, which Helvetica lacks, its URW clone's), else an average letter's. OCR layers draw each word scaled to
 * the box the engine found on the scan, so a box measures the scan's word; its letters' expected widths say how wide
 * the layer's own word would be. A layer whose words fit their boxes against this (an "ill" box narrow, an "mm" box
 * wide) reads the scan's words; dropped, added or wrong letters do not fit.
 */
import { std14Width } from '../std14Widths';

/** an average letter's width (Helvetica's digits and most of its small letters) */
const OTHER_EM = 0.556;

/** the expected width of code point cp, in ems */
export function emWidth(cp: number): number {
  const w = std14Width('Helvetica', cp);
  return w === undefined ? OTHER_EM : w / 1000;
}
