// A shifted alphabet (language.ts shiftedAlphabet): a layer whose letters all stand a few places along the alphabet
// from the ones meant (a Caesar cipher: a font whose codes are offset) reads as a language only shifted back, and then
// each shifted letter is a wrong character. The score's text error is at least their share (index.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emWidth } from '../src/analyzer/layerQuality/widths';
import { layerQuality, SHIFT_NONWORDS } from '../src/analyzer/layerQuality/index';
import { SHIFT_GAIN, SHIFT_READS, shiftedAlphabet } from '../src/analyzer/layerQuality/language';
import type { GlyphRun, TextLayer } from '../src/analyzer/types';

const EN =
  'Everyone has the right to freedom of opinion and expression; this right includes freedom to hold opinions without ' +
  'interference and to seek, receive and impart information and ideas through any media and regardless of frontiers. ' +
  'Everyone has the right to education. Education shall be free, at least in the elementary and fundamental stages.';
const DE =
  'Jeder hat das Recht auf Meinungsfreiheit und freie Meinungsäußerung; dieses Recht schließt die Freiheit ein, ' +
  'Meinungen ungehindert anzuhängen sowie über Medien jeder Art und ohne Rücksicht auf Grenzen Informationen und ' +
  'Gedankengut zu suchen, zu empfangen und zu verbreiten.';
const RU =
  'Каждый человек имеет право на свободу убеждений и на свободное выражение их; это право включает свободу ' +
  'беспрепятственно придерживаться своих убеждений и свободу искать, получать и распространять информацию и идеи ' +
  'любыми средствами и независимо от государственных границ.';

/** `text` with every letter of Latin's basic alphabet (or Russian's 32, ё apart) `by` places on, case kept */
function caesar(text: string, by: number): string {
  return text.replace(/[a-zA-Zа-яА-Я]/g, (ch) => {
    const c = ch.charCodeAt(0);
    const [base, n] = c >= 0x430 ? [0x430, 32] : c >= 0x410 ? [0x410, 32] : c >= 0x61 ? [0x61, 26] : [0x41, 26];
    return String.fromCharCode(base + ((c - base + by) % n));
  });
}

/** the share of a text's characters (white-space runs once) that are letters of its alphabet */
function letterShare(text: string): number {
  const t = text.replace(/\s+/g, ' ');
  return (t.match(/[a-zA-Zа-яА-Я]/g) ?? []).length / t.length;
}

test('a Caesar-shifted text is found with its shift, and the share of its characters the shift moved', () => {
  for (const [text, by] of [
    [EN, 3],
    [EN, 13],
    [DE, 5],
    [RU, 7],
  ] as const) {
    const s = shiftedAlphabet(caesar(text, by));
    assert.ok(s, `${by}: ${text.slice(0, 20)}`);
    assert.equal(s.shift, by);
    // every word of two letters or more moved; one-letter words and the letters outside the basic alphabet (ä, ß) not
    assert.ok(s.share > letterShare(text) - 0.08 && s.share <= letterShare(text), `${s.share} ${letterShare(text)}`);
  }
});

test('a text shifted in part: the share counts the shifted words only; half shifted is left to the other signals', () => {
  const words = EN.split(' ');
  // two words in three shifted: found, and the share is about two thirds of the letters'
  const most = shiftedAlphabet(words.map((w, i) => (i % 3 !== 0 ? caesar(w, 4) : w)).join(' '));
  assert.ok(most && most.shift === 4, JSON.stringify(most));
  assert.ok(most.share > letterShare(EN) * 0.55 && most.share < letterShare(EN) * 0.75, String(most.share));
  // one word in two: the text reads no better shifted back as a whole (SHIFT_GAIN), so no shift is claimed; its
  // shifted words are non-words to the score all the same
  assert.equal(shiftedAlphabet(words.map((w, i) => (i % 2 === 0 ? caesar(w, 4) : w)).join(' ')), undefined);
});

test('right text, OCR garbage and a run of one letter are no shifted alphabet', () => {
  for (const t of [EN, DE, RU]) assert.equal(shiftedAlphabet(t), undefined, t.slice(0, 20));
  // OCR confusions: letters wrong in place, not shifted
  const ocr = EN.replace(/e/g, 'c').replace(/l/g, '1').replace(/m/g, 'rn').replace(/o/g, '0');
  assert.equal(shiftedAlphabet(ocr), undefined);
  // "aaaa…" with a few letters changed reads a little better as another letter's run (a test file of the dev split's
  // kind), but as no language: not shifted
  let run = '';
  for (let i = 0; i < 1500; i++) run += i % 37 === 5 ? 'Q' : i % 53 === 9 ? ' ' : i % 41 === 3 ? 'x' : 'a';
  assert.equal(shiftedAlphabet(run), undefined);
  assert.equal(shiftedAlphabet(''), undefined);
  assert.equal(shiftedAlphabet('12 34 -- ..'), undefined);
  assert.ok(SHIFT_GAIN > 0 && SHIFT_READS > 0);
});

/** a layer of the words, eight a line, each box as wide as its letters need at size 10 */
function layerOf(text: string): TextLayer {
  const words = text.split(' ');
  const runs: GlyphRun[] = words.map((w, i) => {
    const x = 72 + (i % 8) * 60;
    const y = 700 - Math.floor(i / 8) * 14;
    let ems = 0;
    for (const ch of w) ems += emWidth(ch.codePointAt(0)!);
    return { text: w, rect: [x, y - 2, x + 10 * ems, y + 8], visibility: 'invisible', font: 'F1', size: 10, hScale: 1, chars: w.length };
  });
  return { runs, runCount: runs.length, text: words.join(' ') };
}

test("the score: a shifted layer's text error is at least the share its shift moved, and the shift is shown", () => {
  const shifted = layerQuality({ layer: layerOf(caesar(EN, 3)), which: 'invisible' });
  assert.equal(shifted.signals.shift, 3);
  const share = shifted.signals.shiftedShare as number;
  assert.ok(share > 0.6, String(share));
  assert.ok((shifted.signals.textError as number) >= share - 0.001, JSON.stringify(shifted.signals));
  assert.ok(shifted.score <= 1 - share + 0.001 && shifted.reocr);
  assert.ok((shifted.signals.nonWords as number) >= SHIFT_NONWORDS);
  // the right layer: not read for a shift, nothing shown
  const right = layerQuality({ layer: layerOf(EN), which: 'invisible' });
  assert.equal(right.signals.shift, undefined);
  assert.equal(right.signals.shiftedShare, undefined);
  assert.ok(right.score > 0.75 && !right.reocr);
});
