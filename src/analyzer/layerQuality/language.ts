/**
 * Language evidence: how much a layer's text reads like a language, by character trigram models (model.ts, built from
 * the Universal Declaration of Human Rights; see scripts/layer-quality-model.ts), and simple word-shape statistics.
 * Pure and bounded by the text length.
 *
 * The core languages (English, German, French, Russian) judge every page as they always did. The others (Spanish,
 * Italian, Portuguese, Dutch, Polish, Czech, Slovak, Slovene, Croatian, Swedish, Danish, Finnish, Estonian, Latvian,
 * Lithuanian, Hungarian, Turkish, Romanian, Icelandic) take a page only when its words show it (otherLanguage): a
 * Polish layer is then judged as Polish, with English for its English options, rather than as a page of English
 * non-words advised re-OCR; garbage, whose words no model reads, stays with the core languages (each model added
 * reads some garbage words as its own).
 */
import { ASCII_SPACE, C_SPACE, classOf, DENSE_CODE_POINTS, isLetter } from './chars';
import { TRIGRAMS } from './model';

export const LANGUAGES = [
  'en',
  'de',
  'fr',
  'ru',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'cs',
  'sv',
  'da',
  'fi',
  'hu',
  'tr',
  'ro',
  'sk',
  'sl',
  'hr',
  'et',
  'lv',
  'lt',
  'is',
] as const;
export type Language = (typeof LANGUAGES)[number];
/** LANGUAGES[0 .. CORE) are the core languages */
const CORE = 4;
/** an other language takes a page (otherLanguage) with at least this many words, */
const OTHER_MIN_WORDS = 50;
/** when the words it reads that the core languages do not are at least this share of the page's words */
export const OTHER_WORDS = 0.15;
/** and of the words the core languages do not read */
export const OTHER_READS = 0.4;

/** the one model that writes Cyrillic */
const CYRILLIC_MODEL: Language = 'ru';

/**
 * The two languages a word is judged under: the page's two likeliest, unless neither writes the word's script. A
 * Russian manual page of paths, options and e-mail addresses can read likeliest as English and French, and under them
 * every Russian word cost ten bits a letter (a non-word) whatever its spelling; such a word is judged under Russian
 * and the page's likeliest language instead.
 */
export function languagesFor(cyrillic: boolean, a: Language, b: Language): [Language, Language] {
  return cyrillic && a !== CYRILLIC_MODEL && b !== CYRILLIC_MODEL ? [CYRILLIC_MODEL, a] : [a, b];
}

/** whether a code point is a Cyrillic letter (the basic block, U+0400–U+04FF) */
export function isCyrillic(cp: number): boolean {
  return cp >= 0x400 && cp <= 0x4ff;
}

/** Lower case; letters kept; every run of anything else one space; a space before and after. */
export function normaliseForModel(s: string): string {
  return ` ${s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, ' ')
    .trim()} `;
}

/**
 * A language's model, compiled for speed: characters are numbered (0 = space, ALPHABET letters, then one id for any
 * other letter), and the cost −log2 p(c | a b) of the interpolated model is precomputed for every trigram of the
 * model's own alphabet in one dense table. A character the model never met has no statistics of its own in it (its
 * bigram and unigram counts are 0), so all such characters share one local id, the last: the table stays small
 * (≤ 34³ entries) and a lookup is three loads, not a hash probe.
 */
interface Model {
  /** global id → the model's local id (0 = space; V − 1 = a character the model does not hold) */
  loc: Uint8Array;
  /** local alphabet size */
  V: number;
  /** cost in bits of c after a b: t[(a·V + b)·V + c], local ids */
  t: Float64Array;
}

/** the models built so far, in LANGUAGES order (a core model at load, another when a page first needs it) */
let modelList: (Model | undefined)[] | undefined;
/** each language's trigrams as parsed from model.ts, kept until its model is built */
let rawTrigrams: ({ g: string; c: number }[] | undefined)[] = [];
/** the uniform share's vocabulary (see load) */
let vocabulary = 0;
/** character → id; ids run 1..size − 2, size − 1 is any other letter */
let ids: Map<string, number> | undefined;
let size = 2;
/** code point → id for the code points below its length (every model character is there); 0 for no id */
let idOf: Int16Array = new Int16Array(0);

function load(): (Model | undefined)[] {
  if (modelList) return modelList;
  const alphabet = new Set<string>();
  rawTrigrams = LANGUAGES.map((lang, li) => {
    const es: { g: string; c: number }[] = [];
    for (const e of TRIGRAMS[lang].split('|')) {
      const g = e.slice(0, 3);
      const c = parseInt(e.slice(3), 36);
      if (!(c > 0) || [...g].length !== 3) continue;
      es.push({ g, c });
      if (li < CORE) alphabet.add(g[2]);
    }
    return es;
  });
  // the uniform share is over the letters (and space) any core model ends a trigram with, plus one: the core models'
  // costs are then the same whatever other languages are added
  vocabulary = alphabet.size + 1;
  for (const es of rawTrigrams) for (const { g } of es!) for (const ch of g) alphabet.add(ch);
  alphabet.delete(' ');
  ids = new Map([[' ', 0]]);
  for (const ch of [...alphabet].sort()) ids.set(ch, ids.size);
  size = ids.size + 1;
  let top = 0;
  for (const ch of ids.keys()) top = Math.max(top, ch.codePointAt(0)!);
  idOf = new Int16Array(top + 1);
  for (const [ch, id] of ids) if (id > 0) idOf[ch.codePointAt(0)!] = id;
  // the core models now; the others (a few MB of tables together) when a page first reads like one of them
  modelList = LANGUAGES.map(() => undefined);
  for (let li = 0; li < CORE; li++) modelAt(li);
  return modelList;
}

/** the model of LANGUAGES[li], built on first use */
function modelAt(li: number): Model {
  const list = modelList!;
  const built = list[li];
  if (built) return built;
  const raw = rawTrigrams[li]!;
  // the model's own alphabet: space, then its characters in global order; the rest share the last id
  const used = new Set<number>([0]);
  for (const { g } of raw) for (const ch of g) used.add(ids!.get(ch)!);
  const globals = [...used].sort((a, b) => a - b);
  const V = globals.length + 1;
  const loc = new Uint8Array(size).fill(V - 1);
  globals.forEach((gid, i) => (loc[gid] = i));
  const ctx2 = new Float64Array(V * V);
  const bi = new Float64Array(V * V);
  const ctx1 = new Float64Array(V);
  const uni = new Float64Array(V);
  const tri = new Map<number, number>();
  let total = 0;
  for (const { g, c } of raw) {
    const [a, b, d] = [...g].map((ch) => loc[ids!.get(ch)!]);
    tri.set((a * V + b) * V + d, c);
    ctx2[a * V + b] += c;
    // bigram and unigram statistics from the last two characters of each trigram (each position counted once)
    bi[b * V + d] += c;
    ctx1[b] += c;
    uni[d] += c;
    total += c;
  }
  const restP = new Float64Array(V * V);
  for (let b = 0; b < V; b++)
    for (let d = 0; d < V; d++) {
      const bg = ctx1[b] ? bi[b * V + d] / ctx1[b] : 0;
      restP[b * V + d] = L2 * bg + L1 * (uni[d] / total) + L0 / vocabulary;
    }
  // an unseen trigram costs what its last two characters cost (the same for every first one): those V² costs are
  // worked out once and copied into each first character's block, then the seen trigrams (a few thousand) overwrite
  // theirs; the same numbers as working each of the V³ entries out alone, at a fraction of the logarithms
  const restBits = new Float64Array(V * V);
  for (let k = 0; k < V * V; k++) restBits[k] = -Math.log2(restP[k]);
  const t = new Float64Array(V * V * V);
  for (let a = 0; a < V; a++) t.set(restBits, a * V * V);
  for (const [k, c] of tri) t[k] = -Math.log2((L3 * c) / ctx2[Math.floor(k / V)] + restP[k % (V * V)]);
  const m: Model = { loc, V, t };
  list[li] = m;
  rawTrigrams[li] = undefined;
  return m;
}

/** interpolation weights: trigram, bigram, unigram, uniform */
const L3 = 0.6;
const L2 = 0.25;
const L1 = 0.1;
const L0 = 0.05;

/** bits of c after a b (global ids) */
function cost(m: Model, a: number, b: number, c: number): number {
  const loc = m.loc;
  const V = m.V;
  return m.t[(loc[a] * V + loc[b]) * V + loc[c]];
}

export interface LanguageEvidence {
  /** the language whose model gives the text the highest likelihood */
  language: Language;
  /** the second likeliest */
  second: Language;
  /** bits per character of the text under that model (lower = more like the language); NaN without letters */
  bitsPerChar: number;
  /** share of words (2+ letters) whose own bits per character stay under WORD_BITS: words that read like the language */
  wordLike: number;
  /** the same under either of the two likeliest languages */
  wordLikeEither: number;
  /** letters scored */
  letters: number;
  /** words scored (two letters or more) */
  words: number;
  /** the share of the text's letters that are in none of the models' alphabets (Polish ł, Thai, Chinese: a language the models do not know) */
  unmodeled: number;
  /** the share of the text's letters that are its most frequent modelled letter (a language's commonest is under a fifth; "aaaa…" is 1) */
  topLetter: number;
}

/** a word is word-like when its characters cost fewer bits than this under the page's language */
const WORD_BITS = 4.2;
/** a word whose letters cost more than this many bits each under both of the page's likeliest languages reads like none */
export const NONWORD_BITS = 5;
/** characters scored at most (the clock is not needed below this) */
export const MAX_CHARS = 20_000;

/** characters the core models read to choose the page's languages (the chosen one then reads all) */
const SELECT_CHARS = 2000;

/**
 * Costs of ids x[from..to) under m into out[from..to) (out[i]: bits of x[i] after x[i − 2] x[i − 1], the text starting
 * with a space before x[0]); returns `sum` plus their sum from index 2 on, added in order (the text's bits, read in parts).
 */
function costsInto(m: Model, x: Uint16Array, out: Float64Array, from: number, to: number, sum = 0): number {
  const { loc, V, t } = m;
  // the two characters before, as local ids, carried along (the space, local id 0, before the text)
  let a = from >= 2 ? loc[x[from - 2]] : 0;
  let b = from >= 1 ? loc[x[from - 1]] : 0;
  let bits = sum;
  for (let i = from; i < to; i++) {
    const c = loc[x[i]];
    const bitsC = t[(a * V + b) * V + c];
    out[i] = bitsC;
    if (i >= 2) bits += bitsC;
    a = b;
    b = c;
  }
  return bits;
}

/**
 * per-position costs of each model (LANGUAGES order), grown as needed: the core models' to the text's length (the
 * likeliest reads it all), the others' to SELECT_CHARS (they read the first characters; one that takes the page has
 * its array grown to the whole text then)
 */
let costScratch = LANGUAGES.map(() => new Float64Array(1024));

/** the ids of the text languageEvidence last read (grown as needed: one per call, never shared across calls) */
let idScratch = new Uint16Array(1024);

/**
 * The first MAX_CHARS characters of `text` as model ids in `idScratch`, as normaliseForModel would leave them (NFKC,
 * lower case, each run of non-letters one space, a space before and after), in one pass: ASCII text needs no NFKC,
 * and each code point is lower-cased alone (whole-string lower-casing differs only in the Greek final sigma, a letter
 * no model holds either way). Returns the count.
 */
function modelIds(text: string): number {
  let s = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  let ascii = true;
  for (let i = 0; i < s.length; i++)
    if (s.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  if (!ascii) s = s.normalize('NFKC');
  // lower-casing can lengthen a code point (İ → i + U+0307): three units each at most
  const cap = (ascii ? s.length : 3 * s.length) + 2;
  if (idScratch.length < cap) idScratch = new Uint16Array(cap);
  return idsInto(s, 0, s.length, idScratch);
}

/**
 * The model ids of s[start, end) into x from its start: a space first, each code point lower-cased alone, each run of
 * non-letters one space, a space last. Returns the count (1 when there is no letter). x has room for them: 3 × (end −
 * start) + 2 ids hold any text (lower-casing can lengthen a code point: İ → i + U+0307), ASCII needs one a character.
 */
function idsInto(s: string, start: number, end: number, x: Uint16Array): number {
  const other = size - 1;
  let n = 0;
  x[n++] = 0;
  for (let i = start; i < end; i++) {
    let cp = s.charCodeAt(i);
    if (cp < 0x80) {
      if (cp >= 65 && cp <= 90) cp += 32;
      const id = cp >= 97 && cp <= 122 ? (idOf[cp] > 0 ? idOf[cp] : other) : 0;
      if (id !== 0 || x[n - 1] !== 0) x[n++] = id;
      continue;
    }
    if (cp < DENSE_CODE_POINTS) {
      let id = denseIds[cp];
      if (id === DENSE_UNSEEN) id = denseIds[cp] = idsOfLower(cp, other);
      if (id >= 0) {
        if (id !== 0 || x[n - 1] !== 0) x[n++] = id;
        continue;
      }
    }
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < end) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    const lower = lowerOf(cp);
    for (let k = 0; k < lower.length; k++) {
      const id = letterId(lower[k], other);
      if (id !== 0 || x[n - 1] !== 0) x[n++] = id;
    }
  }
  if (x[n - 1] !== 0) x[n++] = 0;
  return n;
}

/**
 * Code points below DENSE_CODE_POINTS (Latin, Greek, Cyrillic) → the model id of their lower case, 0 for no letter,
 * DENSE_MANY when it is more than one code point (İ), DENSE_UNSEEN until worked out: a map lookup for the lower case
 * and the letter test per such character were a third of modelIds' time on German and Russian pages.
 */
const DENSE_UNSEEN = -2;
const DENSE_MANY = -1;
const denseIds = new Int16Array(DENSE_CODE_POINTS).fill(DENSE_UNSEEN);

/** the model id of cp's lower case when it is one code point (as modelIds' general path works it out), else DENSE_MANY */
function idsOfLower(cp: number, other: number): number {
  const lower = lowerOf(cp);
  return lower.length === 1 ? letterId(lower[0], other) : DENSE_MANY;
}

/** the model id of a (lower-cased) code point: its own when a model holds it, `other` for any other letter, 0 (a space) for no letter */
function letterId(l: number, other: number): number {
  return isLetter(l) ? (l < idOf.length && idOf[l] > 0 ? idOf[l] : other) : 0;
}

/** code point → its lower case as code points (bounded cache) */
const lowerCache = new Map<number, number[]>();
function lowerOf(cp: number): number[] {
  let v = lowerCache.get(cp);
  if (v === undefined) {
    v = [];
    for (const ch of String.fromCodePoint(cp).toLowerCase()) v.push(ch.codePointAt(0)!);
    if (lowerCache.size < 4096) lowerCache.set(cp, v);
  }
  return v;
}

export function languageEvidence(text: string): LanguageEvidence {
  load();
  const n = modelIds(text);
  const x = idScratch;
  let best: Language = 'en';
  let bestBits = Infinity;
  if (n < 4)
    return { language: best, second: best, bitsPerChar: NaN, wordLike: 0, wordLikeEither: 0, letters: 0, words: 0, unmodeled: 0, topLetter: 0 };
  let second: Language = 'en';
  let secondBits = Infinity;
  // the languages are told apart on the first SELECT_CHARS characters; the likeliest then reads the whole text
  // (ids hold no two spaces in a row, so every position from the third on is a character the mean counts)
  const ns = Math.min(n, SELECT_CHARS);
  if (costScratch[0].length < n)
    costScratch = LANGUAGES.map((_, li) =>
      li < CORE
        ? new Float64Array(n)
        : costScratch[li].length >= Math.min(n, SELECT_CHARS)
          ? costScratch[li]
          : new Float64Array(Math.min(n, SELECT_CHARS)),
    );
  let bestIx = 0;
  let secondIx = 0;
  let bestSum = 0;
  const list = modelList!;
  // the core languages first: the likeliest two of them, as always
  for (let li = 0; li < CORE; li++) {
    const lang = LANGUAGES[li];
    const sum = costsInto(list[li]!, x, costScratch[li], 0, ns);
    const bpc = sum / Math.max(1, ns - 2);
    if (bpc < bestBits) {
      second = best;
      secondIx = bestIx;
      secondBits = bestBits;
      bestBits = bpc;
      best = lang;
      bestIx = li;
      bestSum = sum;
    } else if (bpc < secondBits) {
      secondBits = bpc;
      second = lang;
      secondIx = li;
    }
  }
  // then the others: one takes the page when it reads a good part of the words the core languages do not (a Polish
  // manual page's Polish words, beside its English options), and reads them as words, not as garbage a little better
  const taker = otherLanguage(x, ns, bestIx, secondIx);
  if (taker >= 0) {
    // the page's own words under it, its other words (English options, quotations) under the likeliest core language
    secondIx = bestIx;
    second = best;
    bestIx = taker;
    best = LANGUAGES[taker];
    if (costScratch[taker].length < n) {
      const grown = new Float64Array(n);
      grown.set(costScratch[taker].subarray(0, ns));
      costScratch[taker] = grown;
    }
    bestSum = costsSum(taker, ns);
    bestBits = bestSum / Math.max(1, ns - 2);
  }
  // the likeliest reads the rest, its sum going on in the same order as if it had read all at once
  const cb = costScratch[bestIx];
  if (ns < n) {
    // the sum goes on from the first characters' (ns ≥ 4 here: every position from ns on is counted)
    const sum = costsInto(list[bestIx]!, x, cb, ns, n, bestSum);
    bestBits = sum / Math.max(1, n - 2);
  }
  // words under the chosen language, and under either of the two likeliest (a page mixing two languages, as Russian
  // manual pages with English commands do, has words of both)
  const m2 = list[secondIx]!;
  const c2 = costScratch[secondIx];
  let words = 0;
  let like = 0;
  let likeEither = 0;
  let letters = 0;
  // letters no model holds (the id past every alphabet's), counted in the same pass
  const other = size - 1;
  let allLetters = 0;
  let unmodeled = 0;
  // each letter's count (by model id), for the commonest one's share
  if (letterCounts.length < size) letterCounts = new Uint32Array(size);
  const counts = letterCounts;
  counts.fill(0);
  // a word's bits under the likeliest, added as its characters pass (in their order: the sum a loop over the word
  // after its end would give), the space that ends it included
  let start = 1;
  let bits = 0;
  for (let i = 1; i < n; i++) {
    const id = x[i];
    bits += cb[i];
    if (id !== 0) {
      allLetters++;
      counts[id]++;
      if (id === other) unmodeled++;
      continue;
    }
    const len = i - start;
    if (len >= 2) {
      words++;
      letters += len;
      if (bits / (len + 1) < WORD_BITS) {
        like++;
        likeEither++;
      } else {
        // only a word the likeliest language does not read is read under the second (its costs are at hand for the
        // characters the four models read to choose)
        let bits2 = 0;
        for (let k = start; k <= i; k++) bits2 += k < ns ? c2[k] : cost(m2, x[k - 2], x[k - 1], x[k]);
        if (bits2 / (len + 1) < WORD_BITS) likeEither++;
      }
    }
    start = i + 1;
    bits = 0;
  }
  return {
    language: best,
    second,
    bitsPerChar: bestBits,
    wordLike: words > 0 ? like / words : 0,
    wordLikeEither: words > 0 ? likeEither / words : 0,
    letters,
    words,
    unmodeled: allLetters > 0 ? unmodeled / allLetters : 0,
    topLetter: allLetters > 0 ? maxOf(counts, other) / allLetters : 0,
  };
}

/**
 * The other language (LANGUAGES[CORE..]) that takes a page, or −1: among the page's first ns ids' words of two letters
 * or more (at least OTHER_MIN_WORDS of them), the words that cost more than NONWORD_BITS a letter under both core
 * languages `a` and `b` (the words the page's non-words would count) and under WORD_BITS under the other (words of that
 * language); the language with the most takes the page when they are at least OTHER_WORDS of its words and
 * OTHER_READS of those core non-words. Real text of such a language, even a manual page half of English options,
 * reads so (Polish, Czech, Turkish manual pages: 0.2–0.5 of the words, 0.4–0.9 of the core non-words); garbage and the
 * core languages' own pages do not (at most 0.14 of the words on the dev split and the stand-ins, and a garbage
 * page's core non-words are mostly no language's). Costs of the other models are worked out only for a page with
 * enough core non-words to pass.
 */
function otherLanguage(x: Uint16Array, ns: number, a: number, b: number): number {
  const ca = costScratch[a];
  const cb = costScratch[b];
  // the core non-words, as [start, end] id ranges (the space after each included)
  const spans = spanScratch;
  let count = 0;
  let words = 0;
  let start = 1;
  let bitsA = 0;
  let bitsB = 0;
  for (let i = 1; i < ns; i++) {
    bitsA += ca[i];
    bitsB += cb[i];
    if (x[i] !== 0) continue;
    const len = i - start;
    if (len >= 2) {
      words++;
      if (Math.min(bitsA, bitsB) / (len + 1) > NONWORD_BITS && count < spans.length / 2) {
        spans[2 * count] = start;
        spans[2 * count + 1] = i;
        count++;
      }
    }
    start = i + 1;
    bitsA = 0;
    bitsB = 0;
  }
  if (words < OTHER_MIN_WORDS || count < OTHER_WORDS * words) return -1;
  let pick = -1;
  let pickHits = 0;
  for (let li = CORE; li < LANGUAGES.length; li++) {
    const c = costScratch[li];
    costsInto(modelAt(li), x, c, 0, ns);
    let hits = 0;
    for (let w = 0; w < count; w++) {
      const s0 = spans[2 * w];
      const s1 = spans[2 * w + 1];
      let bits = 0;
      for (let k = s0; k <= s1; k++) bits += c[k];
      if (bits / (s1 - s0 + 1) < WORD_BITS) hits++;
    }
    if (hits > pickHits) {
      pickHits = hits;
      pick = li;
    }
  }
  return pick >= 0 && pickHits >= OTHER_WORDS * words && pickHits >= OTHER_READS * count ? pick : -1;
}
/** scratch [start, end] pairs of a page's core non-words (otherLanguage): SELECT_CHARS ids hold at most a third as many words */
const spanScratch = new Int32Array(2 * Math.ceil(SELECT_CHARS / 3) + 2);

/** the bits of x[2, ns) under model li, from costScratch */
function costsSum(li: number, ns: number): number {
  const c = costScratch[li];
  let s = 0;
  for (let i = 2; i < ns; i++) s += c[i];
  return s;
}

/** scratch letter counts for languageEvidence */
let letterCounts = new Uint32Array(0);

/** the largest count but `skip`'s (the id of every letter no model holds: many letters, not one) */
function maxOf(a: Uint32Array, skip: number): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i] > m && i !== skip) m = a[i];
  return m;
}

/**
 * The words of two or more letters and their letters that languageEvidence counts (its `words` and `letters`), without
 * reading the text under the models: what tells a page with too little text to judge (layerQuality) before its word
 * statistics are made.
 */
export function wordCounts(text: string): { letters: number; words: number } {
  load();
  const n = modelIds(text);
  if (n < 4) return { letters: 0, words: 0 };
  const x = idScratch;
  let letters = 0;
  let words = 0;
  let start = 1;
  for (let i = 1; i < n; i++) {
    if (x[i] !== 0) continue;
    if (i - start >= 2) {
      letters += i - start;
      words++;
    }
    start = i + 1;
  }
  return { letters, words };
}

/** scratch ids for wordBitsIn */
let scratch = new Uint16Array(64);

/**
 * Bits per character of one word (a glyph run's text) under the likelier of two languages, as languageEvidence reads
 * words: letters lower-cased, anything else a space, a space before and after. NaN when it holds no letter.
 */
export function wordBits(text: string, a: Language, b: Language): number {
  return wordBitsIn(text, 0, text.length, a, b);
}

/** the last pair of languages wordBitsIn judged under, and their models */
let pairA: Language | undefined;
let pairB: Language | undefined;
let pairMa: Model | undefined;
let pairMb: Model | undefined;

/**
 * wordBits of text[start, end), read in place (a page's words are judged without a string each). Each code point is
 * lower-cased alone: whole-string lower-casing differs only in the Greek final sigma, and no model holds a Greek
 * letter, so both sigmas are "a letter the model does not hold" either way.
 */
export function wordBitsIn(text: string, start: number, end: number, a: Language, b: Language): number {
  load();
  // lower-casing can lengthen a code point (İ → i + U+0307): three ids per unit at most, and the spaces around
  const cap = 3 * (end - start) + 2;
  if (scratch.length < cap) scratch = new Uint16Array(2 * cap);
  const x = scratch;
  const n = idsInto(text, start, end, x);
  // no letter: a space alone
  if (n === 1) return NaN;
  // a page's words are all judged under the same two languages: their models are looked up once
  if (a !== pairA || b !== pairB) {
    pairA = a;
    pairB = b;
    pairMa = modelAt(LANGUAGES.indexOf(a));
    pairMb = modelAt(LANGUAGES.indexOf(b));
  }
  const ma = pairMa!;
  const mb = pairMb!;
  let ba = 0;
  let bb = 0;
  for (let k = 1; k < n; k++) {
    const p = k >= 2 ? x[k - 2] : 0;
    ba += cost(ma, p, x[k - 1], x[k]);
    bb += cost(mb, p, x[k - 1], x[k]);
  }
  return Math.min(ba, bb) / (n - 1);
}

/** how likely a word is a word of the page's languages, 0..1: ½ at the word-likeness cut, falling with each bit past it */
export function wordLikelihood(text: string, a: Language, b: Language): number | undefined {
  if (text.includes('\ufffd')) return 0;
  let cyrillic = false;
  for (let i = 0; i < text.length && !cyrillic; i++) cyrillic = isCyrillic(text.charCodeAt(i));
  const bits = wordBits(text, ...languagesFor(cyrillic, a, b));
  if (!Number.isFinite(bits)) return undefined;
  return Math.round(100 / (1 + Math.exp(2 * (bits - WORD_BITS)))) / 100;
}

/** characters a shifted alphabet is looked for in (the first ones: a sample enough for the shift and the share) */
const SHIFT_CHARS = 2000;
/**
 * A text counts as shifted when a shift back saves this many bits a character under the core models and reads at most
 * SHIFT_READS bits a character then: the dev split's Caesar-shifted layers read 6.0–7.4 as they are and 3.3–3.9
 * shifted back, a page of "aaaa…" with a few letters changed 6.4 and 5.0 (a run of one letter reads a little better
 * as another's, but as no language either way)
 */
export const SHIFT_GAIN = 1.5;
export const SHIFT_READS = 4.5;
/** bits per letter a word must save, shifted back, to count as one of the shifted words */
const SHIFT_WORD_GAIN = 1;

/** the letters `text` is written in most: the 26 of Latin's basic alphabet or the 32 of Russian's (ё apart) */
function alphabetOf(text: string): { lower: number; upper: number; size: number } {
  let latin = 0;
  let cyrillic = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) latin++;
    else if (text.charCodeAt(i) >= 0x410 && text.charCodeAt(i) <= 0x44f) cyrillic++;
  }
  return cyrillic > latin ? { lower: 0x430, upper: 0x410, size: 32 } : { lower: 0x61, upper: 0x41, size: 26 };
}

/** the first letter of the case of alphabet `a` that holds the UTF-16 unit c, or −1 when c is none of its letters */
function letterBase(c: number, a: { lower: number; upper: number; size: number }): number {
  return c >= a.lower && c < a.lower + a.size ? a.lower : c >= a.upper && c < a.upper + a.size ? a.upper : -1;
}

/** `text` with each letter of the alphabet moved `by` places along it (wrapping), case kept, other characters as they are */
function rotate(text: string, by: number, a: { lower: number; upper: number; size: number }): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const base = letterBase(c, a);
    out += base < 0 ? text[i] : String.fromCharCode(base + ((c - base + by) % a.size));
  }
  return out;
}

/** white space, as chars.ts classes it (a word of the sample ends there) */
function isSpace(c: number): boolean {
  return c < 128 ? ASCII_SPACE[c] === 1 : (classOf(c) & C_SPACE) !== 0;
}

/** the lowest bits per character of `text` under a core model, and that model's index */
function coreBits(text: string): { bits: number; li: number } {
  const n = modelIds(text);
  let bits = Infinity;
  let li = 0;
  if (n < 4) return { bits: NaN, li };
  for (let l = 0; l < CORE; l++) {
    if (costScratch[l].length < n) costScratch[l] = new Float64Array(n);
    const b = costsInto(modelList![l]!, idScratch, costScratch[l], 0, n) / Math.max(1, n - 2);
    if (b < bits) {
      bits = b;
      li = l;
    }
  }
  return { bits, li };
}

/** a text written in a shifted alphabet: the shift that reads it back and the share of its characters it moved */
export interface ShiftedAlphabet {
  /** places each letter stands past the one meant (1 … alphabet size − 1) */
  shift: number;
  /**
   * the share of the text's characters (white space runs counted once) that are letters of words that read as words
   * only shifted back: each of them a wrong character
   */
  share: number;
}

/**
 * Whether `text` reads as a language only with its letters shifted back along the alphabet (a Caesar cipher: a font
 * whose codes are offset, a layer written through the wrong code page): every shift of the first SHIFT_CHARS
 * characters is read under the core models, and the best must save SHIFT_GAIN bits a character over the text as it is
 * and read like a language (SHIFT_READS).
 * The share counts the words that, shifted back, cost SHIFT_WORD_GAIN bits a letter less (a layer shifted in part
 * leaves its other words right). Undefined when no shift reads better.
 */
export function shiftedAlphabet(text: string): ShiftedAlphabet | undefined {
  load();
  const sample = text.length > SHIFT_CHARS ? text.slice(0, SHIFT_CHARS) : text;
  const a = alphabetOf(sample);
  const plain = coreBits(sample);
  if (!(plain.bits > 0)) return undefined;
  let best = { bits: plain.bits, li: plain.li, by: 0 };
  for (let by = 1; by < a.size; by++) {
    const b = coreBits(rotate(sample, by, a));
    if (b.bits < best.bits) best = { bits: b.bits, li: b.li, by };
  }
  if (best.by === 0 || best.bits > plain.bits - SHIFT_GAIN || best.bits > SHIFT_READS) return undefined;
  // the words that read better shifted back, judged under the language that reads the shifted-back text best
  const lang = LANGUAGES[best.li];
  const back = rotate(sample, best.by, a);
  let moved = 0;
  let chars = 0;
  let i = 0;
  const n = sample.length;
  while (i < n) {
    if (isSpace(sample.charCodeAt(i))) {
      // a run of white space is one character, as the judge's normalisation leaves it
      chars++;
      while (i < n && isSpace(sample.charCodeAt(i))) i++;
      continue;
    }
    let j = i;
    while (j < n && !isSpace(sample.charCodeAt(j))) j++;
    chars += j - i;
    let letters = 0;
    for (let k = i; k < j; k++) if (letterBase(sample.charCodeAt(k), a) >= 0) letters++;
    if (letters >= 2) {
      const before = wordBitsIn(sample, i, j, lang, lang);
      const after = wordBitsIn(back, i, j, lang, lang);
      if (after + SHIFT_WORD_GAIN < before) moved += letters;
    }
    i = j;
  }
  return { shift: (a.size - best.by) % a.size, share: chars ? moved / chars : 0 };
}
