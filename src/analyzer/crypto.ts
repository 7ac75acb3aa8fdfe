/**
 * The PDF Standard security handler, decryption only: ISO 32000-1 §7.6 (V1/V2/V4, R2–R4, RC4 and AES-128),
 * Adobe extension level 3 (R5) and ISO 32000-2 (R6, AES-256).
 *
 * Everything here is synchronous because the analyzer's API is; that is why AES and SHA-2 come from @noble (Web
 * Crypto is async-only). MD5 (md5.ts) and RC4 (below) are small enough to be our own, and faster for the short
 * inputs the key derivation hashes over and over.
 */
import { cbc } from '@noble/ciphers/aes.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import { md5 } from './md5';
import { PdfDict, type PdfValue } from './objects';
import type { EncryptionReport } from './types';

export interface SecurityHandler {
  /** decrypts a string found inside object num/gen */
  decryptString(data: Uint8Array, num: number, gen: number): Uint8Array;
  /** decrypts a stream's raw bytes; `streamDict` lets you honour a per-stream /Crypt filter (e.g. /Identity) and leave /Type /XRef streams and (when EncryptMetadata is false) /Type /Metadata streams alone */
  decryptStream(data: Uint8Array, num: number, gen: number, streamDict?: PdfDict): Uint8Array;
}

export type OpenSecurityResult =
  | { ok: true; handler: SecurityHandler; report: EncryptionReport }
  | { ok: false; reason: 'password-required' | 'unsupported-encryption'; report: EncryptionReport; message: string };

type Cipher = 'identity' | 'rc4' | 'aes';

/** A crypt filter as the handler uses it: the cipher and, for RC4, the key length in bytes (for the method name). */
interface CryptFilter {
  cipher: Cipher;
  bits: number;
}

const IDENTITY: CryptFilter = { cipher: 'identity', bits: 0 };

/** The 32-byte padding string of Algorithm 2 step (a). */
const PAD = new Uint8Array([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80,
  0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);
const SALT = new Uint8Array([0x73, 0x41, 0x6c, 0x54]); // "sAlT", Algorithm 1 step for AES
const EMPTY = new Uint8Array(0);
const ZERO_IV = new Uint8Array(16);

// ---------------------------------------------------------------------------------------------------------------
// primitives

/** RC4 is symmetric: this both encrypts and decrypts. */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  const kl = key.length;
  if (kl === 0) {
    out.set(data);
    return out;
  }
  // Int32Array: avoids the Uint8Array clamping/conversion on every store in the hot loop
  const s = new Int32Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0, k = 0; i < 256; i++) {
    const t = s[i];
    j = (j + t + key[k]) & 255;
    s[i] = s[j];
    s[j] = t;
    if (++k === kl) k = 0;
  }
  let i = 0;
  let j = 0;
  const n = data.length;
  for (let p = 0; p < n; p++) {
    i = (i + 1) & 255;
    const a = s[i];
    j = (j + a) & 255;
    const b = s[j];
    s[i] = b;
    s[j] = a;
    out[p] = data[p] ^ s[(a + b) & 255];
  }
  return out;
}

/**
 * AES-CBC with the IV in the first 16 bytes and PKCS#7 padding (§7.6.2). Damaged input is decrypted as far as it
 * goes: a partial last block is dropped, and padding that is not valid PKCS#7 is left in place.
 */
export function aesDecryptCbc(key: Uint8Array, data: Uint8Array): Uint8Array {
  const body = data.length - 16;
  if (body < 16) return EMPTY;
  const whole = body - (body & 15);
  try {
    // One aligned copy that noble decrypts in place: passing the subarray would make noble copy it again.
    const buf = data.slice(16, 16 + whole);
    cbc(key, data.slice(0, 16), { disablePadding: true }).decrypt(buf, buf);
    const pad = buf[whole - 1];
    if (pad >= 1 && pad <= 16) {
      let good = true;
      for (let k = whole - pad; k < whole - 1; k++) {
        if (buf[k] !== pad) {
          good = false;
          break;
        }
      }
      if (good) return buf.subarray(0, whole - pad);
    }
    return buf;
  } catch (e) {
    throw new Error(`AES decryption failed: ${String(e).slice(0, 120)}`);
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function equalBytes(a: Uint8Array, b: Uint8Array, n: number): boolean {
  if (a.length < n || b.length < n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// R2–R4 (ISO 32000-1 algorithms 2–7)

interface LegacyParams {
  r: number;
  /** file key length in bytes, 5..16 */
  n: number;
  o: Uint8Array; // 32 bytes
  u: Uint8Array; // ≥ 16 bytes (R3+) / 32 bytes (R2)
  p: number;
  id: Uint8Array;
  encryptMetadata: boolean;
}

function padPassword(pw: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  const n = Math.min(32, pw.length);
  out.set(pw.subarray(0, n));
  out.set(PAD.subarray(0, 32 - n), n);
  return out;
}

/** Algorithm 2: the file key from a (user) password. */
function legacyFileKey(pw: Uint8Array, q: LegacyParams): Uint8Array {
  const p = q.p;
  const perms = new Uint8Array([p & 255, (p >>> 8) & 255, (p >>> 16) & 255, (p >>> 24) & 255]);
  const noMeta = q.r >= 4 && !q.encryptMetadata ? new Uint8Array([255, 255, 255, 255]) : new Uint8Array(0);
  let key = md5(padPassword(pw), q.o.subarray(0, 32), perms, q.id, noMeta);
  if (q.r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, q.n));
  return key.slice(0, q.n);
}

/** RC4 with the key XORed by 1..19 (or 19..1), the iteration of algorithms 5 and 7. */
function rc4Rounds(key: Uint8Array, data: Uint8Array, down: boolean): Uint8Array {
  const k = new Uint8Array(key.length);
  let out = data;
  for (let step = 1; step <= 19; step++) {
    const x = down ? 20 - step : step;
    for (let i = 0; i < key.length; i++) k[i] = key[i] ^ x;
    out = rc4(k, out);
  }
  return out;
}

/** Algorithms 6 (and 4/5 inside it): the file key if `pw` is the user password. */
function legacyUser(pw: Uint8Array, q: LegacyParams): Uint8Array | undefined {
  const key = legacyFileKey(pw, q);
  if (q.r === 2) {
    return equalBytes(rc4(key, PAD), q.u, 32) ? key : undefined;
  }
  const u = rc4Rounds(key, rc4(key, md5(PAD, q.id)), false);
  return equalBytes(u, q.u, 16) ? key : undefined;
}

/** Algorithm 7: recovers the user password from /O with the owner password, then authenticates as user. */
function legacyOwner(pw: Uint8Array, q: LegacyParams): Uint8Array | undefined {
  let h = md5(padPassword(pw));
  if (q.r >= 3) for (let i = 0; i < 50; i++) h = md5(h);
  const key = h.subarray(0, q.r === 2 ? 5 : q.n);
  const o = q.o.subarray(0, 32);
  const userPw = q.r === 2 ? rc4(key, o) : rc4(key, rc4Rounds(key, o, true));
  return legacyUser(userPw, q);
}

// ---------------------------------------------------------------------------------------------------------------
// R5/R6 (ISO 32000-2 algorithms 2.A, 2.B, 11, 12)

/** Algorithm 2.B (R6); R5 uses a single SHA-256. */
function hash2B(r: number, pw: Uint8Array, salt: Uint8Array, udata: Uint8Array): Uint8Array {
  let k = sha256(concat(pw, salt, udata));
  if (r < 6) return k;
  // Bounded: E's last byte is ≤ 255, so the loop ends by round 288 at the latest.
  for (let round = 0; round < 300; round++) {
    const unit = pw.length + k.length + udata.length;
    const k1 = new Uint8Array(unit * 64);
    k1.set(pw, 0);
    k1.set(k, pw.length);
    k1.set(udata, pw.length + k.length);
    for (let i = 1; i < 64; i++) k1.copyWithin(i * unit, 0, unit);
    const e = cbc(k.subarray(0, 16), k.subarray(16, 32), { disablePadding: true }).encrypt(k1);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i];
    const m = sum % 3;
    k = m === 0 ? sha256(e) : m === 1 ? sha384(e) : sha512(e);
    if (round >= 63 && e[e.length - 1] <= round - 31) break;
  }
  return k.subarray(0, 32);
}

interface ModernParams {
  r: number;
  o: Uint8Array; // 48
  u: Uint8Array; // 48
  oe: Uint8Array; // 32
  ue: Uint8Array; // 32
}

function unwrapKey(kek: Uint8Array, wrapped: Uint8Array): Uint8Array | undefined {
  try {
    return cbc(kek, ZERO_IV, { disablePadding: true }).decrypt(wrapped.subarray(0, 32));
  } catch {
    return undefined;
  }
}

/** Algorithms 2.A/11/12: the file key if `pw` is the user (or, with `owner`, the owner) password. */
function modernKey(pw: Uint8Array, q: ModernParams, owner: boolean): Uint8Array | undefined {
  const pw127 = pw.subarray(0, 127);
  if (owner) {
    const u48 = q.u.subarray(0, 48);
    const h = hash2B(q.r, pw127, q.o.subarray(32, 40), u48);
    if (!equalBytes(h, q.o, 32)) return undefined;
    return unwrapKey(hash2B(q.r, pw127, q.o.subarray(40, 48), u48), q.oe);
  }
  const h = hash2B(q.r, pw127, q.u.subarray(32, 40), EMPTY);
  if (!equalBytes(h, q.u, 32)) return undefined;
  return unwrapKey(hash2B(q.r, pw127, q.u.subarray(40, 48), EMPTY), q.ue);
}

// ---------------------------------------------------------------------------------------------------------------
// the handler

class StandardHandler implements SecurityHandler {
  // Strings of one object are usually decrypted together, so remembering the last object key saves most MD5s.
  private lastId = -1;
  private lastKey: Uint8Array = EMPTY;
  private lastAesId = -1;
  private lastAesKey: Uint8Array = EMPTY;
  private readonly keyInput: Uint8Array;

  constructor(
    private readonly fileKey: Uint8Array,
    /** R5/R6: every object uses the file key itself (no Algorithm 1) */
    private readonly directKey: boolean,
    private readonly strF: CryptFilter,
    private readonly stmF: CryptFilter,
    private readonly filters: Map<string, CryptFilter>,
    private readonly encryptMetadata: boolean,
  ) {
    this.keyInput = new Uint8Array(fileKey.length + 9);
    this.keyInput.set(fileKey);
  }

  /** Algorithm 1: the per-object key. */
  private objectKey(num: number, gen: number, aes: boolean): Uint8Array {
    if (this.directKey) return this.fileKey;
    // only the low 3 bytes of num and 2 of gen enter the key, so this id is exact
    const id = (num & 0xffffff) * 65536 + (gen & 0xffff);
    if (aes ? id === this.lastAesId : id === this.lastId) return aes ? this.lastAesKey : this.lastKey;
    const b = this.keyInput;
    const n = this.fileKey.length;
    b[n] = num & 255;
    b[n + 1] = (num >>> 8) & 255;
    b[n + 2] = (num >>> 16) & 255;
    b[n + 3] = gen & 255;
    b[n + 4] = (gen >>> 8) & 255;
    let len = n + 5;
    if (aes) {
      b.set(SALT, len);
      len += 4;
    }
    const key = md5(b.subarray(0, len)).subarray(0, Math.min(n + 5, 16));
    if (aes) {
      this.lastAesId = id;
      this.lastAesKey = key;
    } else {
      this.lastId = id;
      this.lastKey = key;
    }
    return key;
  }

  // A cipher error propagates: the stream's decode reports it (and the page that needed it can't tell), instead of
  // the ciphertext or nothing standing in for the data. Key lengths are checked when the handler opens.
  private apply(f: CryptFilter, data: Uint8Array, num: number, gen: number): Uint8Array {
    if (f.cipher === 'identity') return data;
    if (f.cipher === 'rc4') return rc4(this.objectKey(num, gen, false), data);
    return aesDecryptCbc(this.objectKey(num, gen, true), data);
  }

  decryptString(data: Uint8Array, num: number, gen: number): Uint8Array {
    return this.apply(this.strF, data, num, gen);
  }

  decryptStream(data: Uint8Array, num: number, gen: number, streamDict?: PdfDict): Uint8Array {
    let f = this.stmF;
    if (streamDict) {
      const type = streamDict.get('Type');
      if (type === 'XRef') return data;
      if (type === 'Metadata' && !this.encryptMetadata) return data;
      const own = this.streamCryptFilter(streamDict);
      if (own) f = own;
    }
    return this.apply(f, data, num, gen);
  }

  /** A /Crypt entry in the stream's /Filter chain names the crypt filter for this stream (§7.4.10). */
  private streamCryptFilter(d: PdfDict): CryptFilter | undefined {
    const filter = d.get('Filter');
    let index = -1;
    if (filter === 'Crypt') index = 0;
    else if (Array.isArray(filter)) index = filter.indexOf('Crypt');
    if (index < 0) return undefined;
    let parms: PdfValue | undefined = d.get('DecodeParms');
    if (Array.isArray(filter) && Array.isArray(parms)) parms = parms[index];
    else if (Array.isArray(filter) && index > 0) parms = undefined;
    const name = parms instanceof PdfDict ? parms.get('Name') : undefined;
    if (typeof name !== 'string' || name === 'Identity') return IDENTITY;
    // an unknown name is a damaged file; the document default is the likeliest intent
    return this.filters.get(name);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// opening

function num(d: PdfDict, key: string): number | undefined {
  const v = d.get(key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function bytes(d: PdfDict, key: string): Uint8Array | undefined {
  const v = d.get(key);
  return v instanceof Uint8Array ? v : undefined;
}

class KeyLengthMismatch extends Error {
  constructor(readonly bytes: number) {
    super(`key length ${bytes}`);
  }
}

/** Key length in bits from a /Length that some writers give in bytes; undefined when absent or absurd. */
function keyBits(v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (v >= 5 && v <= 16) v *= 8; // bytes, e.g. the /Length 16 of a crypt filter
  if (v < 40 || v > 256) return undefined;
  return Math.floor(v / 8) * 8;
}

function methodName(f: CryptFilter): string {
  if (f.cipher === 'identity') return 'Identity';
  if (f.cipher === 'rc4') return `RC4-${f.bits}`;
  return `AES-${f.bits}`;
}

/** The password bytes to try: PDFDocEncoding (≈ Latin-1) is what R2–R4 expect, UTF-8 is what R5/R6 expect. */
function passwordCandidates(password: string, modern: boolean): Uint8Array[] {
  const utf8 = new TextEncoder().encode(modern ? password.normalize('NFKC') : password);
  if (modern) return [utf8];
  let latin1: Uint8Array | undefined = new Uint8Array(password.length);
  for (let i = 0; i < password.length; i++) {
    const c = password.charCodeAt(i);
    if (c > 255) {
      latin1 = undefined;
      break;
    }
    latin1[i] = c;
  }
  if (!latin1) return [utf8];
  return equalBytes(latin1, utf8, Math.max(latin1.length, utf8.length)) && latin1.length === utf8.length ? [latin1] : [latin1, utf8];
}

/** `encrypt`: the /Encrypt dictionary with its values already resolved (direct objects; nested /CF dicts resolved too).
 *  `fileId`: first element of the trailer /ID (may be missing → treat as empty). Tries the empty user password, then (if given)
 *  `password` as user and as owner password. Never throws. */
export function openSecurityHandler(encrypt: PdfDict, fileId: Uint8Array | undefined, password?: string): OpenSecurityResult {
  const report: EncryptionReport = { encrypted: true };
  try {
    return open(encrypt, fileId ?? EMPTY, password, report);
  } catch (e) {
    return { ok: false, reason: 'unsupported-encryption', report, message: `cannot read the /Encrypt dictionary: ${String(e)}` };
  }
}

function open(encrypt: PdfDict, id: Uint8Array, password: string | undefined, report: EncryptionReport): OpenSecurityResult {
  const unsupported = (message: string): OpenSecurityResult => ({ ok: false, reason: 'unsupported-encryption', report, message });

  const filter = encrypt.get('Filter');
  if (filter !== 'Standard') {
    return unsupported(`security handler /${typeof filter === 'string' ? filter : '?'} is not supported (only /Standard)`);
  }
  const r = num(encrypt, 'R');
  let v = num(encrypt, 'V') ?? 0;
  if (r !== undefined) report.revision = r;
  if (v === 0 && (r === 2 || r === 3)) v = r === 2 ? 1 : 2; // /V missing: infer what the revision implies
  report.version = v;
  if (r === undefined || !Number.isInteger(r) || r < 2 || r > 6)
    return unsupported(`Standard security handler revision ${r ?? '(missing)'} is not supported`);
  if (v !== 1 && v !== 2 && v !== 4 && v !== 5) return unsupported(`encryption algorithm /V ${v} is not supported`);
  if (r >= 5 !== (v === 5)) return unsupported(`/V ${v} does not go with /R ${r}`);

  const encryptMetadata = r >= 4 ? encrypt.get('EncryptMetadata') !== false : true;
  report.encryptMetadata = encryptMetadata;

  // file key length in bytes
  let n: number;
  if (v === 5) n = 32;
  else if (v === 1 || r === 2) n = 5;
  else {
    let bits = keyBits(num(encrypt, 'Length'));
    if (bits === undefined && v === 4) {
      const cf = encrypt.get('CF');
      const stmFName = encrypt.get('StmF');
      const std = cf instanceof PdfDict && typeof stmFName === 'string' ? cf.get(stmFName) : undefined;
      bits = std instanceof PdfDict ? keyBits(num(std, 'Length')) : undefined;
    }
    n = Math.min(16, (bits ?? (v === 4 ? 128 : 40)) / 8);
  }

  // crypt filters
  const filters = new Map<string, CryptFilter>();
  let strF: CryptFilter;
  let stmF: CryptFilter;
  if (v < 4) {
    strF = stmF = { cipher: 'rc4', bits: n * 8 };
  } else {
    const cf = encrypt.get('CF');
    if (cf instanceof PdfDict) {
      for (const name of cf.keys()) {
        const d = cf.get(name);
        if (!(d instanceof PdfDict)) continue;
        const cfm = d.get('CFM') ?? 'None';
        if (cfm === 'None') filters.set(name, IDENTITY);
        else if (cfm === 'V2') filters.set(name, { cipher: 'rc4', bits: n * 8 });
        // the AES key is the 16-byte object key (V4) or the 32-byte file key (V5), whatever /Length says
        else if (cfm === 'AESV2' || cfm === 'AESV3') filters.set(name, { cipher: 'aes', bits: v === 5 ? 256 : 128 });
        else return unsupported(`crypt filter method ${typeof cfm === 'string' ? `/${cfm}` : '(not a name)'} is not supported`);
      }
    }
    filters.set('Identity', IDENTITY);
    const pick = (key: string): CryptFilter | string => {
      const name = encrypt.get(key) ?? 'Identity';
      if (typeof name !== 'string') return `/${key} is not a name`;
      return filters.get(name) ?? `/${key} names crypt filter /${name}, which /CF does not define`;
    };
    const s = pick('StrF');
    const t = pick('StmF');
    if (typeof s === 'string') return unsupported(s);
    if (typeof t === 'string') return unsupported(t);
    strF = s;
    stmF = t;
  }
  report.method = methodName(stmF.cipher !== 'identity' || strF.cipher === 'identity' ? stmF : strF);

  // authenticate
  const o = bytes(encrypt, 'O');
  const u = bytes(encrypt, 'U');
  let tryPw: (pw: Uint8Array, owner: boolean) => Uint8Array | undefined;
  if (r >= 5) {
    const oe = bytes(encrypt, 'OE');
    const ue = bytes(encrypt, 'UE');
    if (!o || !u || !oe || !ue || o.length < 48 || u.length < 48 || oe.length < 32 || ue.length < 32) {
      return unsupported('the /Encrypt dictionary lacks a well-formed /O, /U, /OE or /UE');
    }
    const q: ModernParams = { r, o, u, oe, ue };
    tryPw = (pw, owner) => modernKey(pw, q, owner);
  } else {
    if (!o || !u || o.length < 32 || u.length < (r === 2 ? 32 : 16)) {
      return unsupported('the /Encrypt dictionary lacks a well-formed /O or /U');
    }
    const q: LegacyParams = { r, n, o, u, p: (num(encrypt, 'P') ?? 0) | 0, id, encryptMetadata };
    tryPw = (pw, owner) => (owner ? legacyOwner(pw, q) : legacyUser(pw, q));
    // AESV2 needs a 16-byte object key, and Algorithm 1 gives min(n + 5, 16) bytes: a file key under 11 bytes
    // cannot make one. ISO 32000-1 Table 25 fixes the AESV2 key at 128 bits whatever /Length says, so a file whose
    // /Length (or its crypt filter's) disagrees is read with n = 16 first. If only the shorter key authenticates,
    // the writer really used it and AES cannot run with it: pdf.js (core/crypto.js) would hand the short key to its
    // AES-128 cipher and produce garbage; we refuse the file as unsupported-encryption rather than read noise.
    const aesV2 = (strF.cipher === 'aes' || stmF.cipher === 'aes' || [...filters.values()].some((f) => f.cipher === 'aes')) && v === 4;
    if (aesV2 && n < 16) {
      const declared = n;
      const base = tryPw;
      tryPw = (pw, owner) => {
        q.n = 16;
        const k = base(pw, owner);
        if (k) return k;
        q.n = declared;
        const short = base(pw, owner);
        if (short) throw new KeyLengthMismatch(declared);
        return undefined;
      };
    }
  }

  let key: Uint8Array | undefined;
  try {
    key = tryPw(EMPTY, false);
    report.needsPassword = !key;
    if (!key && password !== undefined) {
      const candidates = passwordCandidates(password, r >= 5);
      for (const owner of [false, true]) {
        for (const pw of candidates) {
          key = tryPw(pw, owner);
          if (key) break;
        }
        if (key) break;
      }
    }
  } catch (e) {
    if (e instanceof KeyLengthMismatch) {
      return unsupported(`AESV2 needs a 128-bit file key, but the file's key is ${e.bytes * 8} bits (its /Length): AES cannot run with it`);
    }
    throw e;
  }
  if (!key) {
    return {
      ok: false,
      reason: 'password-required',
      report,
      message: password === undefined ? 'the document needs a password to open' : 'the password given does not open the document',
    };
  }
  const handler = new StandardHandler(key, r >= 5, strF, stmF, filters, encryptMetadata);
  return { ok: true, handler, report };
}
