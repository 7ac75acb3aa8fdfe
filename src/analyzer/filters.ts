/**
 * Stream filter chain: FlateDecode, LZWDecode (both with PNG/TIFF predictors), ASCIIHexDecode, ASCII85Decode,
 * RunLengthDecode. Image filters and Crypt are never decoded here; the chain stops in front of them.
 *
 * Every stage's output is capped at `maxBytes`: hostile streams (decompression bombs, absurd predictor columns)
 * cost at most about the cap in memory and time. Corrupt data yields what decoded before the fault plus `error`.
 */
import { pastDeadline } from './budget';
import { hexValue, isWhite } from './bytes';
import { enlarge, inflateRaw, trimmed } from './inflate';
import type { DecodedStream } from './objects';

export interface FilterParams {
  predictor?: number;
  colors?: number;
  bitsPerComponent?: number;
  columns?: number;
  earlyChange?: number;
}

interface StageResult {
  data: Uint8Array;
  /** output reached the cap and there was more */
  truncated: boolean;
  error?: string;
  /** the deadline passed before the stage finished: `data` is what decoded by then */
  outOfTime?: boolean;
}

const EMPTY = new Uint8Array(0);

/** Filters that carry image codecs (or encryption): the analyzer never needs their decoded bytes. */
const STOP_FILTERS: ReadonlyMap<string, string> = new Map([
  ['DCTDecode', 'DCTDecode'],
  ['DCT', 'DCTDecode'],
  ['JPXDecode', 'JPXDecode'],
  ['JBIG2Decode', 'JBIG2Decode'],
  ['CCITTFaxDecode', 'CCITTFaxDecode'],
  ['CCF', 'CCITTFaxDecode'],
  ['Crypt', 'Crypt'],
]);

type Decoder = 'flate' | 'lzw' | 'hex' | 'a85' | 'rl';
const DECODERS: ReadonlyMap<string, Decoder> = new Map([
  ['FlateDecode', 'flate'],
  ['Fl', 'flate'],
  ['LZWDecode', 'lzw'],
  ['LZW', 'lzw'],
  ['ASCIIHexDecode', 'hex'],
  ['AHx', 'hex'],
  ['ASCII85Decode', 'a85'],
  ['A85', 'a85'],
  ['RunLengthDecode', 'rl'],
  ['RL', 'rl'],
]);

/** Whether decodeFilters undoes this filter (a general one, named in full or abbreviated), rather than stopping at it. */
export function decodesFilter(name: string): boolean {
  return DECODERS.has(name);
}

/** The full name of an image codec or Crypt filter, abbreviations spelled out (CCF → CCITTFaxDecode); undefined for any other. */
export function stopFilterName(name: string): string | undefined {
  return STOP_FILTERS.get(name);
}

/**
 * Typed arrays beyond this are not allocatable everywhere; a larger cap means "no cap" in practice. A fact of the
 * platform, not a limit: the limit is the caller's `maxBytes` (AnalyzerOptions.maxStreamBytes and the like).
 */
const HARD_CAP = 0x7fffffff;

/**
 * Bytes consumed (input of a decoder, output of a predictor) between two looks at the clock. Each byte costs at
 * most a few dozen operations here, so 64 KiB is well under a millisecond, and Date.now() stays off the per-byte path.
 */
const CLOCK_EVERY = 64 * 1024;

/**
 * Decodes `raw` through `filters` in order (names without slash; abbreviations Fl, AHx, A85, LZW, RL, DCT, CCF
 * accepted), with per-filter params (same index; missing → defaults).
 *
 * - Each stage's output is capped at `maxBytes`; `truncated` is set when any stage had more.
 * - A corrupt stage keeps what it decoded and the chain continues on that; the first fault is in `error`.
 * - An image filter, Crypt or an unknown filter ends the chain: `stoppedAt` is its canonical full name
 *   (e.g. 'DCTDecode' for 'DCT') or, when unknown, the name as given; `data` is the earlier filters' output.
 * - Past `deadline` (a `Date.now()` value) decoding stops: inflate checks as its output grows and every few blocks,
 *   the other decoders and the predictors every CLOCK_EVERY bytes of input (or of rows), the chain between stages.
 *   `outOfTime` is set and `data` is what decoded (whole rows, for predictors).
 * Never throws. The returned data may share memory with `raw` (e.g. with no filters); treat it as read-only.
 */
export function decodeFilters(
  raw: Uint8Array,
  filters: string[],
  params: (FilterParams | undefined)[],
  maxBytes: number,
  deadline = Infinity,
): DecodedStream {
  const cap = sanitizeCap(maxBytes);
  let data = raw instanceof Uint8Array ? raw : EMPTY;
  let truncated = false;
  let error: string | undefined;
  try {
    const list = Array.isArray(filters) ? filters : [];
    for (let i = 0; i < list.length; i++) {
      const given = list[i];
      let name = typeof given === 'string' ? given : String(given);
      if (name.charCodeAt(0) === 0x2f) name = name.slice(1);
      const kind = DECODERS.get(name);
      if (kind === undefined) {
        return finish(data, cap, truncated, error, STOP_FILTERS.get(name) ?? name);
      }
      const p = Array.isArray(params) ? params[i] : undefined;
      const stage = runStage(kind, data, p !== null && typeof p === 'object' ? p : undefined, cap, truncated, deadline);
      data = stage.data;
      if (stage.truncated) truncated = true;
      if (stage.error !== undefined && error === undefined) error = `${name}: ${stage.error}`;
      if (stage.outOfTime || (i + 1 < list.length && pastDeadline(deadline))) {
        const out = finish(data, cap, truncated, error, undefined);
        out.outOfTime = true;
        return out;
      }
    }
    return finish(data, cap, truncated, error, undefined);
  } catch (e) {
    // Last resort (e.g. an allocation failure): report, keeping what the stages before produced.
    return finish(data, cap, truncated, error ?? `decoding failed: ${e instanceof Error ? e.message : String(e)}`, undefined);
  }
}

function sanitizeCap(maxBytes: number): number {
  if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes <= 0) return 0;
  return maxBytes >= HARD_CAP ? HARD_CAP : Math.floor(maxBytes);
}

function finish(data: Uint8Array, cap: number, truncated: boolean, error: string | undefined, stoppedAt: string | undefined): DecodedStream {
  // The raw input itself may exceed the cap when there are no filters (or the first one stops the chain).
  if (data.length > cap) {
    data = data.subarray(0, cap);
    truncated = true;
  }
  const out: DecodedStream = { data, truncated };
  if (error !== undefined) out.error = error;
  if (stoppedAt !== undefined) out.stoppedAt = stoppedAt;
  return out;
}

/** @param inputTruncated the input is a prefix of the real data (an earlier stage hit the cap): running out early is no fault */
function runStage(
  kind: Decoder,
  input: Uint8Array,
  p: FilterParams | undefined,
  cap: number,
  inputTruncated: boolean,
  deadline: number,
): StageResult {
  switch (kind) {
    case 'flate':
      return applyPredictor(inflate(input, cap, inputTruncated, deadline), p, cap, deadline);
    case 'lzw':
      return applyPredictor(lzwDecode(input, cap, earlyChangeOf(p), deadline), p, cap, deadline);
    case 'hex':
      return asciiHexDecode(input, cap, deadline);
    case 'a85':
      return ascii85Decode(input, cap, inputTruncated, deadline);
    case 'rl':
      return runLengthDecode(input, cap, inputTruncated, deadline);
  }
}

function earlyChangeOf(p: FilterParams | undefined): number {
  return p !== undefined && p.earlyChange === 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------------------------
// FlateDecode

function inflate(input: Uint8Array, cap: number, inputTruncated: boolean, deadline: number): StageResult {
  if (input.length === 0) return { data: EMPTY, truncated: false };
  const hdr = zlibHeaderLength(input);
  if (hdr > 0) return inflateFrom(input, hdr, cap, inputTruncated, deadline);
  // No valid zlib header: raw deflate (some writers emit it), or a zlib header with a wrong check byte. A first
  // byte with method 8 in its low nibble reads as a stored block with a set padding bit, which deflate writers
  // never produce: that is a damaged zlib header. The other reading is tried only when the likely one fails, and
  // wins only if it decodes cleanly (a wrong reading can turn out garbage before it fails).
  const looksZlib = input.length > 2 && (input[0] & 0x0f) === 8 && input[0] >> 4 <= 7;
  const first = inflateFrom(input, looksZlib ? 2 : 0, cap, inputTruncated, deadline);
  if (first.error === undefined || first.outOfTime || input.length <= 2) return first;
  const second = inflateFrom(input, looksZlib ? 0 : 2, cap, inputTruncated, deadline);
  if (second.error === undefined || first.data.length === 0) return second;
  return first;
}

/** Length of a valid zlib header (2, or 6 with a preset dictionary id), or 0 if the data does not start with one. */
function zlibHeaderLength(d: Uint8Array): number {
  if (d.length < 2) return 0;
  const cmf = d[0];
  const flg = d[1];
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0) return 0;
  // A preset dictionary can't be supplied; skipping its id lets whatever does not depend on it decode.
  return flg & 0x20 ? 6 : 2;
}

/** The adler-32 trailer is not checked: a bad or missing one is common and costs nothing we need. */
function inflateFrom(input: Uint8Array, start: number, cap: number, inputTruncated: boolean, deadline: number): StageResult {
  const r = inflateRaw(input, start, cap, deadline);
  const out: StageResult = { data: r.data, truncated: r.truncated };
  // Running out of input is no fault of this stage when an earlier one was cut at the cap.
  if (r.error !== undefined && !(inputTruncated && r.error === 'unexpected end of data')) out.error = r.error;
  if (r.outOfTime) out.outOfTime = true;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Predictors (after FlateDecode and LZWDecode)

function applyPredictor(r: StageResult, p: FilterParams | undefined, cap: number, deadline: number): StageResult {
  if (p === undefined) return r;
  const predictor = intParam(p.predictor, 1);
  if (predictor === 1) return r;
  const colors = intParam(p.colors, 1);
  const bpc = intParam(p.bitsPerComponent, 8);
  const columns = intParam(p.columns, 1);
  let fault: string | undefined;
  if (predictor !== 2 && (predictor < 10 || predictor > 15)) fault = `unsupported predictor ${predictor}`;
  else if (colors < 1 || colors > 256) fault = `invalid Colors ${colors}`;
  else if (bpc !== 1 && bpc !== 2 && bpc !== 4 && bpc !== 8 && bpc !== 16) fault = `invalid BitsPerComponent ${bpc}`;
  else if (columns < 1 || columns > 0x7fffffff) fault = `invalid Columns ${columns}`;
  if (fault !== undefined) return { data: r.data, truncated: r.truncated, error: r.error ?? fault };
  // Computed in floating point: columns may be huge, rows are then simply one partial row.
  const rowBytes = Math.ceil((colors * bpc * columns) / 8);
  const out =
    predictor === 2 ? tiffPredictor(r.data, colors, bpc, columns, rowBytes, deadline) : pngPredictor(r.data, colors, bpc, rowBytes, cap, deadline);
  const res: StageResult = { data: out.data, truncated: r.truncated || out.truncated, error: r.error ?? out.error };
  // Rows of a stage cut by the clock are still predicted: raw rows are no data; the predictor stops soon after.
  if (r.outOfTime || out.outOfTime) res.outOfTime = true;
  return res;
}

function intParam(v: unknown, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : dflt;
}

/** PNG filtering: every row starts with a tag byte (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth). */
function pngPredictor(src: Uint8Array, colors: number, bpc: number, rowBytes: number, cap: number, deadline: number): StageResult {
  const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
  const stride = rowBytes + 1;
  const fullRows = Math.floor(src.length / stride);
  const rest = src.length - fullRows * stride;
  // A partial last row (truncated data) is decoded as far as it goes.
  const outLen = fullRows * rowBytes + (rest > 1 ? rest - 1 : 0);
  const n = Math.min(outLen, cap);
  const out = new Uint8Array(n);
  let error: string | undefined;
  let o = 0;
  let s = 0;
  let clockAt = CLOCK_EVERY;
  while (o < n) {
    if (o >= clockAt) {
      clockAt = o + CLOCK_EVERY;
      if (pastDeadline(deadline)) return { data: out.subarray(0, o), truncated: false, outOfTime: true };
    }
    const tag = src[s++];
    const rowStart = o;
    const rowEnd = Math.min(n, o + rowBytes);
    const prev = rowStart - rowBytes; // start of the row above (negative on the first row: zeros)
    switch (tag) {
      case 0:
        out.set(src.subarray(s, s + (rowEnd - rowStart)), o);
        o = rowEnd;
        break;
      case 1: {
        const head = Math.min(rowEnd, rowStart + bpp);
        for (; o < head; o++) out[o] = src[s + o - rowStart];
        for (; o < rowEnd; o++) out[o] = (src[s + o - rowStart] + out[o - bpp]) & 0xff;
        break;
      }
      case 2:
        if (prev < 0) {
          out.set(src.subarray(s, s + (rowEnd - rowStart)), o);
          o = rowEnd;
        } else {
          for (; o < rowEnd; o++) out[o] = (src[s + o - rowStart] + out[o - rowBytes]) & 0xff;
        }
        break;
      case 3: {
        const head = Math.min(rowEnd, rowStart + bpp);
        if (prev < 0) {
          for (; o < head; o++) out[o] = src[s + o - rowStart];
          for (; o < rowEnd; o++) out[o] = (src[s + o - rowStart] + (out[o - bpp] >> 1)) & 0xff;
        } else {
          for (; o < head; o++) out[o] = (src[s + o - rowStart] + (out[o - rowBytes] >> 1)) & 0xff;
          for (; o < rowEnd; o++) out[o] = (src[s + o - rowStart] + ((out[o - bpp] + out[o - rowBytes]) >> 1)) & 0xff;
        }
        break;
      }
      case 4: {
        const head = Math.min(rowEnd, rowStart + bpp);
        if (prev < 0) {
          // With an all-zero row above, Paeth always picks the left neighbour.
          for (; o < head; o++) out[o] = src[s + o - rowStart];
          for (; o < rowEnd; o++) out[o] = (src[s + o - rowStart] + out[o - bpp]) & 0xff;
        } else {
          for (; o < head; o++) out[o] = (src[s + o - rowStart] + out[o - rowBytes]) & 0xff;
          for (; o < rowEnd; o++) {
            const a = out[o - bpp];
            const b = out[o - rowBytes];
            const c = out[o - rowBytes - bpp];
            const pa = Math.abs(b - c);
            const pb = Math.abs(a - c);
            const pc = Math.abs(a + b - 2 * c);
            const pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            out[o] = (src[s + o - rowStart] + pred) & 0xff;
          }
        }
        break;
      }
      default:
        error = `invalid PNG predictor tag ${tag} in row ${Math.floor(rowStart / rowBytes)}`;
        return { data: out.subarray(0, rowStart), truncated: false, error };
    }
    s += rowBytes;
  }
  return { data: out, truncated: outLen > cap };
}

/** TIFF predictor 2: each sample is stored as the difference to the same component of the pixel on its left. */
function tiffPredictor(src: Uint8Array, colors: number, bpc: number, columns: number, rowBytes: number, deadline: number): StageResult {
  // Output has the input's length, so the cap (already applied to the input) holds.
  const out = new Uint8Array(src);
  const len = out.length;
  const acc = bpc < 8 ? new Uint16Array(colors) : undefined;
  let clockAt = CLOCK_EVERY;
  for (let rowStart = 0; rowStart < len; rowStart += rowBytes) {
    if (rowStart >= clockAt) {
      clockAt = rowStart + CLOCK_EVERY;
      // Rows from here on are still differences: only the rows done are data.
      if (pastDeadline(deadline)) return { data: out.subarray(0, rowStart), truncated: false, outOfTime: true };
    }
    const rowEnd = Math.min(len, rowStart + rowBytes);
    if (bpc === 8) {
      for (let i = rowStart + colors; i < rowEnd; i++) out[i] = (out[i] + out[i - colors]) & 0xff;
    } else if (bpc === 16) {
      const step = 2 * colors;
      for (let i = rowStart + step; i + 1 < rowEnd; i += 2) {
        const v = ((out[i] << 8) | out[i + 1]) + ((out[i - step] << 8) | out[i - step + 1]);
        out[i] = (v >> 8) & 0xff;
        out[i + 1] = v & 0xff;
      }
    } else {
      acc!.fill(0);
      tiffSubByteRow(out, rowStart, rowEnd, colors, columns, bpc, acc!);
    }
  }
  return { data: out, truncated: false };
}

/** Sub-byte samples (1, 2, 4 bits), MSB first, summed per component modulo 2^bpc across the row. */
function tiffSubByteRow(row: Uint8Array, from: number, to: number, colors: number, columns: number, bpc: number, acc: Uint16Array): void {
  const mask = (1 << bpc) - 1;
  // The row's pad bits are not samples.
  const samples = Math.min(colors * columns, Math.floor(((to - from) * 8) / bpc));
  for (let k = 0; k < samples; k++) {
    const bit = k * bpc;
    const byte = from + (bit >> 3);
    const shift = 8 - bpc - (bit & 7);
    const c = k % colors;
    const v = (((row[byte] >> shift) & mask) + acc[c]) & mask;
    acc[c] = v;
    row[byte] = (row[byte] & ~(mask << shift)) | (v << shift);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// LZWDecode

function lzwDecode(src: Uint8Array, cap: number, earlyChange: number, deadline: number): StageResult {
  const prefix = new Uint16Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  let out: Uint8Array = new Uint8Array(Math.min(cap, Math.max(1024, src.length * 3)));
  let o = 0;
  let next = 258;
  let width = 9;
  let prev = -1;
  let bitBuf = 0;
  let bitCount = 0;
  let s = 0;
  const n = src.length;
  let error: string | undefined;
  let truncated = false;
  let outOfTime = false;
  let clockAt = CLOCK_EVERY;
  for (;;) {
    if (s >= clockAt) {
      clockAt = s + CLOCK_EVERY;
      if (pastDeadline(deadline)) {
        outOfTime = true;
        break;
      }
    }
    while (bitCount < width && s < n) {
      bitBuf = ((bitBuf << 8) | src[s++]) & 0xffffff;
      bitCount += 8;
    }
    if (bitCount < width) break; // out of data without EOD: common, not a fault
    const code = (bitBuf >>> (bitCount - width)) & ((1 << width) - 1);
    bitCount -= width;
    if (code === 256) {
      next = 258;
      width = 9;
      prev = -1;
      continue;
    }
    if (code === 257) break;
    let entry: number; // the code whose string is output
    if (prev < 0) {
      if (code > 255) {
        error = `invalid code ${code} after clear`;
        break;
      }
      entry = code;
    } else if (code < next) {
      entry = code;
      if (next < 4096) {
        prefix[next] = prev;
        suffix[next] = first[code];
        first[next] = first[prev];
        length[next] = length[prev] + 1;
        next++;
      }
    } else if (code === next && next < 4096) {
      // The encoder used the entry it was just creating: prev's string plus its own first byte.
      prefix[next] = prev;
      suffix[next] = first[prev];
      first[next] = first[prev];
      length[next] = length[prev] + 1;
      entry = next++;
    } else {
      error = `invalid code ${code}`;
      break;
    }
    if (next + earlyChange >= 1 << width && width < 12) width++;
    prev = entry;
    const len = length[entry];
    if (o + len > out.length) {
      out = enlarge(out, o, o + len, cap);
      if (o + len > out.length) {
        // Past the cap: keep the string's head that fits.
        const tmp = new Uint8Array(len);
        writeString(tmp, len, entry, prefix, suffix);
        out.set(tmp.subarray(0, out.length - o), o);
        o = out.length;
        truncated = true;
        break;
      }
    }
    writeString(out, o + len, entry, prefix, suffix);
    o += len;
  }
  const res: StageResult = { data: trimmed(out, o), truncated };
  if (error !== undefined) res.error = error;
  if (outOfTime) res.outOfTime = true;
  return res;
}

/** Writes the string of `code` so that it ends at `end`, walking the prefix chain backwards. */
function writeString(out: Uint8Array, end: number, code: number, prefix: Uint16Array, suffix: Uint8Array): void {
  let c = code;
  let i = end - 1;
  // Chain length is the string's length (≤ 4096), fixed when the entry was made.
  while (c > 255) {
    out[i--] = suffix[c];
    c = prefix[c];
  }
  out[i] = c;
}

// ---------------------------------------------------------------------------------------------------------------
// ASCIIHexDecode, ASCII85Decode, RunLengthDecode

function asciiHexDecode(src: Uint8Array, cap: number, deadline: number): StageResult {
  const n = src.length;
  const outLen = Math.min(cap, (n + 1) >> 1);
  const out = new Uint8Array(outLen);
  let o = 0;
  let hi = -1;
  let error: string | undefined;
  let truncated = false;
  let outOfTime = false;
  let clockAt = CLOCK_EVERY;
  let s = 0;
  for (; s < n; s++) {
    if (s >= clockAt) {
      clockAt = s + CLOCK_EVERY;
      if (pastDeadline(deadline)) {
        outOfTime = true;
        break;
      }
    }
    const c = src[s];
    if (c === 0x3e) break; // '>' EOD
    const v = hexValue(c);
    if (v < 0) {
      if (isWhite(c)) continue;
      error = `invalid character 0x${c.toString(16).padStart(2, '0')} at offset ${s}`;
      break;
    }
    if (hi < 0) {
      hi = v;
    } else {
      if (o >= outLen) {
        truncated = true;
        hi = -1;
        break;
      }
      out[o++] = (hi << 4) | v;
      hi = -1;
    }
  }
  // An odd final digit counts as if followed by 0 (not when the clock stopped us mid-way: the next digit exists).
  if (hi >= 0 && !outOfTime) {
    if (o < outLen) out[o++] = hi << 4;
    else truncated = true;
  }
  const res: StageResult = { data: trimmed(out, o), truncated };
  if (error !== undefined) res.error = error;
  if (outOfTime) res.outOfTime = true;
  return res;
}

function ascii85Decode(src: Uint8Array, cap: number, inputTruncated: boolean, deadline: number): StageResult {
  const n = src.length;
  let s = 0;
  // Tolerate the Adobe "<~" prefix some writers leave in.
  while (s < n && isWhite(src[s])) s++;
  if (s + 1 < n && src[s] === 0x3c && src[s + 1] === 0x7e) s += 2;
  // 'z' turns 1 byte into 4; otherwise 5 → 4.
  let out: Uint8Array = new Uint8Array(Math.min(cap, Math.max(256, Math.ceil(((n - s) * 4) / 5) + 4)));
  let o = 0;
  let group = 0;
  let count = 0;
  let error: string | undefined;
  let truncated = false;
  let outOfTime = false;
  let clockAt = s + CLOCK_EVERY;
  outer: for (; s < n; s++) {
    if (s >= clockAt) {
      clockAt = s + CLOCK_EVERY;
      if (pastDeadline(deadline)) {
        outOfTime = true;
        break;
      }
    }
    const c = src[s];
    if (c >= 0x21 && c <= 0x75) {
      group = group * 85 + (c - 0x21);
      if (++count === 5) {
        if (group > 0xffffffff) {
          error = `group out of range at offset ${s}`;
          break;
        }
        if (o + 4 > out.length) {
          out = enlarge(out, o, o + 4, cap);
          if (o + 4 > out.length) {
            for (let k = 0; o < out.length; k++) out[o++] = (group >>> (24 - 8 * k)) & 0xff;
            truncated = true;
            count = 0;
            break;
          }
        }
        out[o] = group >>> 24;
        out[o + 1] = (group >>> 16) & 0xff;
        out[o + 2] = (group >>> 8) & 0xff;
        out[o + 3] = group & 0xff;
        o += 4;
        group = 0;
        count = 0;
      }
    } else if (c === 0x7a && count === 0) {
      // 'z': four zero bytes
      if (o + 4 > out.length) {
        out = enlarge(out, o, o + 4, cap);
        if (o + 4 > out.length) {
          o = out.length;
          truncated = true;
          break;
        }
      }
      out[o] = out[o + 1] = out[o + 2] = out[o + 3] = 0;
      o += 4;
    } else if (c === 0x7e) {
      break outer; // '~>' EOD (a lone '~' ends the data too)
    } else if (!isWhite(c)) {
      error = c === 0x7a ? `'z' inside a group at offset ${s}` : `invalid character 0x${c.toString(16).padStart(2, '0')} at offset ${s}`;
      break;
    }
  }
  if (error !== undefined || truncated || outOfTime) {
    // A group cut short by a fault or the clock is not a final group: its padded value need not match the real bytes.
  } else if (count === 1) {
    if (!inputTruncated) error = 'stray final character';
  } else if (count > 1) {
    // Short final group: pad with 'u' and keep count − 1 bytes.
    for (let k = count; k < 5; k++) group = group * 85 + 84;
    if (group > 0xffffffff) {
      error = 'final group out of range';
    } else {
      const bytes = count - 1;
      if (o + bytes > out.length) out = enlarge(out, o, o + bytes, cap);
      for (let k = 0; k < bytes; k++) {
        if (o >= out.length) {
          truncated = true;
          break;
        }
        out[o++] = (group >>> (24 - 8 * k)) & 0xff;
      }
    }
  }
  const res: StageResult = { data: trimmed(out, o), truncated };
  if (error !== undefined) res.error = error;
  if (outOfTime) res.outOfTime = true;
  return res;
}

function runLengthDecode(src: Uint8Array, cap: number, inputTruncated: boolean, deadline: number): StageResult {
  const n = src.length;
  let out: Uint8Array = new Uint8Array(Math.min(cap, Math.max(1024, n * 2)));
  let o = 0;
  let s = 0;
  let error: string | undefined;
  let truncated = false;
  let outOfTime = false;
  let clockAt = CLOCK_EVERY;
  while (s < n) {
    if (s >= clockAt) {
      clockAt = s + CLOCK_EVERY;
      if (pastDeadline(deadline)) {
        outOfTime = true;
        break;
      }
    }
    const len = src[s++];
    if (len === 128) break; // EOD
    let count: number;
    let literal: boolean;
    if (len < 128) {
      count = len + 1;
      literal = true;
      if (s + count > n) {
        if (!inputTruncated) error = 'unexpected end of data in a literal run';
        count = n - s;
      }
    } else {
      count = 257 - len;
      literal = false;
      if (s >= n) {
        if (!inputTruncated) error = 'unexpected end of data in a repeat run';
        break;
      }
    }
    if (o + count > out.length) {
      out = enlarge(out, o, o + count, cap);
      if (o + count > out.length) {
        count = out.length - o;
        truncated = true;
      }
    }
    if (literal) {
      out.set(src.subarray(s, s + count), o);
      s += count;
    } else {
      out.fill(src[s++], o, o + count);
    }
    o += count;
    if (truncated || error !== undefined) break;
  }
  const res: StageResult = { data: trimmed(out, o), truncated };
  if (error !== undefined) res.error = error;
  if (outOfTime) res.outOfTime = true;
  return res;
}
