/**
 * Language evidence: how much a layer's text reads like English, German, French or Russian, by character trigram
 * models (model.ts, built from the Universal Declaration of Human Rights; see scripts/layer-quality-model.ts), and
 * simple word-shape statistics. Pure and bounded by the text length.
 */
import { TRIGRAMS } from './model';

export const LANGUAGES = ['en', 'de', 'fr', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Lower case; letters kept; every run of anything else one space; a space before and after. */
export function normaliseForModel(s: string): string {
  return ` ${s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, ' ')
    .trim()} `;
}

interface Model {
  tri: Map<string, number>;
  /** counts of the two-character contexts (first two of a trigram) */
  ctx2: Map<string, number>;
  bi: Map<string, number>;
  ctx1: Map<string, number>;
  uni: Map<string, number>;
  total: number;
}

let models: Map<Language, Model> | undefined;
let vocabulary = 1;

function load(): Map<Language, Model> {
  if (models) return models;
  models = new Map();
  const alphabet = new Set<string>();
  for (const lang of LANGUAGES) {
    const m: Model = { tri: new Map(), ctx2: new Map(), bi: new Map(), ctx1: new Map(), uni: new Map(), total: 0 };
    for (const e of TRIGRAMS[lang].split('|')) {
      const g = e.slice(0, 3);
      const c = parseInt(e.slice(3), 36);
      if (!(c > 0)) continue;
      m.tri.set(g, c);
      add(m.ctx2, g.slice(0, 2), c);
      // bigram and unigram statistics from the last two characters of each trigram (each position counted once)
      add(m.bi, g.slice(1), c);
      add(m.ctx1, g[1], c);
      add(m.uni, g[2], c);
      m.total += c;
      alphabet.add(g[2]);
    }
    models.set(lang, m);
  }
  vocabulary = alphabet.size + 1;
  return models;
}

function add(map: Map<string, number>, k: string, c: number): void {
  map.set(k, (map.get(k) ?? 0) + c);
}

/** interpolation weights: trigram, bigram, unigram, uniform */
const L3 = 0.6;
const L2 = 0.25;
const L1 = 0.1;
const L0 = 0.05;

function prob(m: Model, a: string, b: string, c: string): number {
  const c2 = m.ctx2.get(a + b);
  const t = c2 ? (m.tri.get(a + b + c) ?? 0) / c2 : 0;
  const c1 = m.ctx1.get(b);
  const bg = c1 ? (m.bi.get(b + c) ?? 0) / c1 : 0;
  const u = (m.uni.get(c) ?? 0) / m.total;
  return L3 * t + L2 * bg + L1 * u + L0 / vocabulary;
}

export interface LanguageEvidence {
  /** the language whose model gives the text the highest likelihood */
  language: Language;
  /** bits per character of the text under that model (lower = more like the language); NaN without letters */
  bitsPerChar: number;
  /** share of words (2+ letters) whose own bits per character stay under WORD_BITS: words that read like the language */
  wordLike: number;
  /** letters scored */
  letters: number;
}

/** a word is word-like when its characters cost fewer bits than this under the page's language */
const WORD_BITS = 4.2;
/** characters scored at most (the clock is not needed below this) */
const MAX_CHARS = 60_000;

export function languageEvidence(text: string): LanguageEvidence {
  const ms = load();
  const s = normaliseForModel(text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text);
  let best: Language = 'en';
  let bestBits = Infinity;
  const n = s.length;
  if (n < 4) return { language: best, bitsPerChar: NaN, wordLike: 0, letters: 0 };
  for (const lang of LANGUAGES) {
    const m = ms.get(lang)!;
    let bits = 0;
    let count = 0;
    for (let i = 2; i < n; i++) {
      if (s[i] === ' ' && s[i - 1] === ' ') continue;
      bits -= Math.log2(prob(m, s[i - 2], s[i - 1], s[i]));
      count++;
    }
    const bpc = bits / Math.max(1, count);
    if (bpc < bestBits) {
      bestBits = bpc;
      best = lang;
    }
  }
  // words under the chosen language
  const m = ms.get(best)!;
  let words = 0;
  let like = 0;
  let letters = 0;
  let start = 1;
  for (let i = 1; i < n; i++) {
    if (s[i] !== ' ') continue;
    const len = i - start;
    if (len >= 2) {
      let bits = 0;
      for (let k = start; k <= i; k++) bits -= Math.log2(prob(m, s[k - 2] ?? ' ', s[k - 1], s[k]));
      words++;
      letters += len;
      if (bits / (len + 1) < WORD_BITS) like++;
    }
    start = i + 1;
  }
  return { language: best, bitsPerChar: bestBits, wordLike: words > 0 ? like / words : 0, letters };
}
