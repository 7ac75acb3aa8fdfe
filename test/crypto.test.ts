import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { cbc } from '@noble/ciphers/aes.js';
import { aesDecryptCbc, openSecurityHandler, rc4, type SecurityHandler } from '../src/analyzer/crypto';
import { analyzePdfSync } from '../src/analyzer/analyze';
import { floorScan } from '../src/analyzer/floor';
import { md5 } from '../src/analyzer/md5';
import { PdfDict, Ref, type PdfValue } from '../src/analyzer/objects';

// Fixtures: scripts/make-crypto-fixtures.sh (qpdf-encrypted copies of one tiny hand-written PDF).
const FIXTURES = new URL('./fixtures/crypto/', import.meta.url);
const CONTENT = 'BT /F1 12 Tf 72 712 Td (Hello) Tj ET';
const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/">Crypto Fixture</x:xmpmeta>';
const latin1 = (b: Uint8Array) => new TextDecoder('latin1').decode(b);

// ---------------------------------------------------------------------------------------------------------------
// A deliberately small reader, good for qpdf's uncompressed output only (the real parser lives elsewhere).

class MiniParser {
  pos = 0;
  constructor(readonly s: string) {}
  private ws() {
    while (this.pos < this.s.length) {
      const c = this.s[this.pos];
      if (c === '%') while (this.pos < this.s.length && this.s[this.pos] !== '\n') this.pos++;
      else if (/\s/.test(c)) this.pos++;
      else break;
    }
  }
  value(): PdfValue {
    this.ws();
    const s = this.s;
    if (s.startsWith('<<', this.pos)) {
      this.pos += 2;
      const d = new PdfDict();
      for (;;) {
        this.ws();
        if (s.startsWith('>>', this.pos)) {
          this.pos += 2;
          return d;
        }
        const k = this.value();
        d.set(k as string, this.value());
      }
    }
    const c = s[this.pos];
    if (c === '[') {
      this.pos++;
      const a: PdfValue[] = [];
      for (;;) {
        this.ws();
        if (s[this.pos] === ']') {
          this.pos++;
          return a;
        }
        a.push(this.value());
      }
    }
    if (c === '<') {
      const end = s.indexOf('>', this.pos);
      const hex = s.slice(this.pos + 1, end).replace(/\s/g, '');
      this.pos = end + 1;
      return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
    }
    if (c === '(') {
      const out: number[] = [];
      let depth = 0;
      this.pos++;
      for (;;) {
        const ch = s[this.pos++];
        if (ch === '\\') {
          const e = s[this.pos++];
          const esc: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
          if (e in esc) out.push(esc[e]);
          else if (/[0-7]/.test(e)) {
            let oct = e;
            while (oct.length < 3 && /[0-7]/.test(s[this.pos])) oct += s[this.pos++];
            out.push(parseInt(oct, 8) & 255);
          } else if (e === '\r' || e === '\n') {
            if (e === '\r' && s[this.pos] === '\n') this.pos++;
          } else out.push(e.charCodeAt(0));
        } else if (ch === '(') {
          depth++;
          out.push(40);
        } else if (ch === ')') {
          if (depth-- === 0) return Uint8Array.from(out);
          out.push(41);
        } else out.push(ch.charCodeAt(0));
      }
    }
    if (c === '/') {
      const m = /^\/([^\s/<>[\]()%]*)/.exec(s.slice(this.pos, this.pos + 200))!;
      this.pos += m[0].length;
      return m[1];
    }
    const ref = /^(\d+)\s+(\d+)\s+R\b/.exec(s.slice(this.pos, this.pos + 40));
    if (ref) {
      this.pos += ref[0].length;
      return new Ref(+ref[1], +ref[2]);
    }
    const tok = /^[^\s/<>[\]()%]+/.exec(s.slice(this.pos, this.pos + 40))![0];
    this.pos += tok.length;
    if (tok === 'true' || tok === 'false') return tok === 'true';
    if (tok === 'null') return null;
    return +tok;
  }
}

interface Fixture {
  bytes: Uint8Array;
  text: string;
  trailer: PdfDict;
}

function load(name: string): Fixture {
  const bytes = new Uint8Array(readFileSync(new URL(name, FIXTURES)));
  const text = latin1(bytes);
  const t = text.lastIndexOf('trailer');
  const p = new MiniParser(text);
  p.pos = t + 'trailer'.length;
  return { bytes, text, trailer: p.value() as PdfDict };
}

/** The object `ref` of the fixture: its dictionary and, for a stream, its raw bytes. */
function object(f: Fixture, ref: PdfValue | undefined): { dict: PdfDict; raw?: Uint8Array; num: number; gen: number } {
  assert.ok(ref instanceof Ref, 'expected a reference');
  const m = new RegExp(`(?:^|\\s)${ref.num} ${ref.gen} obj`).exec(f.text);
  assert.ok(m, `object ${String(ref)} not found`);
  const p = new MiniParser(f.text);
  p.pos = m.index + m[0].length;
  const dict = p.value() as PdfDict;
  const sm = /^\s*stream\r?\n/.exec(f.text.slice(p.pos, p.pos + 20));
  let raw: Uint8Array | undefined;
  if (sm) {
    const start = p.pos + sm[0].length;
    raw = f.bytes.subarray(start, start + (dict.get('Length') as number));
  }
  return { dict, raw, num: ref.num, gen: ref.gen };
}

function open(name: string, password?: string) {
  const f = load(name);
  const encrypt = object(f, f.trailer.get('Encrypt')).dict;
  const id = (f.trailer.get('ID') as Uint8Array[])[0];
  return { f, encrypt, result: openSecurityHandler(encrypt, id, password) };
}

/** Decrypts the page's content stream, the /Info title and the XMP stream; returns them as text. */
function readBack(f: Fixture, h: SecurityHandler) {
  const catalog = object(f, f.trailer.get('Root')).dict;
  const pages = object(f, catalog.get('Pages')).dict;
  const page = object(f, (pages.get('Kids') as PdfValue[])[0]).dict;
  const content = object(f, page.get('Contents'));
  const info = object(f, f.trailer.get('Info'));
  const meta = object(f, catalog.get('Metadata'));
  return {
    content: latin1(h.decryptStream(content.raw!, content.num, content.gen, content.dict)),
    title: latin1(h.decryptString(info.dict.get('Title') as Uint8Array, info.num, info.gen)),
    producer: latin1(h.decryptString(info.dict.get('Producer') as Uint8Array, info.num, info.gen)),
    xmp: latin1(h.decryptStream(meta.raw!, meta.num, meta.gen, meta.dict)),
    xmpRaw: latin1(meta.raw!),
  };
}

// ---------------------------------------------------------------------------------------------------------------

const NO_PASSWORD: [string, string, number, number][] = [
  ['r2-rc4-40.pdf', 'RC4-40', 1, 2],
  ['r3-rc4-128.pdf', 'RC4-128', 2, 3],
  ['r4-rc4-128.pdf', 'RC4-128', 4, 4],
  ['r4-aes-128.pdf', 'AES-128', 4, 4],
  ['r5-aes-256.pdf', 'AES-256', 5, 5],
  ['r6-aes-256.pdf', 'AES-256', 5, 6],
];

for (const [file, method, version, revision] of NO_PASSWORD) {
  test(`${file}: opens with the empty password and decrypts strings and streams`, () => {
    const { f, result } = open(file);
    assert.ok(result.ok, !result.ok ? result.message : '');
    assert.deepEqual(result.report, { encrypted: true, method, version, revision, needsPassword: false, encryptMetadata: true });
    const back = readBack(f, result.handler);
    assert.equal(back.content, CONTENT);
    assert.equal(back.title, 'Crypto Test');
    assert.equal(back.producer, 'make-crypto-fixtures');
    assert.equal(back.xmp, XMP);
    assert.notEqual(back.xmpRaw, XMP); // the metadata really was encrypted
  });
}

for (const file of ['r4-aes-128-cleartext-metadata.pdf', 'r6-aes-256-cleartext-metadata.pdf']) {
  test(`${file}: EncryptMetadata false leaves the XMP stream alone and enters the key`, () => {
    const { f, result } = open(file);
    assert.ok(result.ok, !result.ok ? result.message : '');
    assert.equal(result.report.encryptMetadata, false);
    const back = readBack(f, result.handler);
    assert.equal(back.xmpRaw, XMP);
    assert.equal(back.xmp, XMP);
    assert.equal(back.content, CONTENT);
    assert.equal(back.title, 'Crypto Test');
  });
}

const USER_PASSWORD: [string, string][] = [
  ['r2-rc4-40-user.pdf', 'RC4-40'],
  ['r3-rc4-128-user.pdf', 'RC4-128'],
  ['r4-aes-128-user.pdf', 'AES-128'],
  ['r5-aes-256-user.pdf', 'AES-256'],
  ['r6-aes-256-user.pdf', 'AES-256'],
];

for (const [file, method] of USER_PASSWORD) {
  test(`${file}: needs a password; opens with the user and with the owner password`, () => {
    const none = open(file).result;
    assert.equal(none.ok, false);
    assert.ok(!none.ok && none.reason === 'password-required');
    assert.equal(none.report.needsPassword, true);
    assert.equal(none.report.method, method);

    const wrong = open(file, 'wrong').result;
    assert.ok(!wrong.ok && wrong.reason === 'password-required');

    for (const pw of ['secret', 'owner']) {
      const { f, result } = open(file, pw);
      assert.ok(result.ok, `${pw}: ${!result.ok ? result.message : ''}`);
      assert.equal(result.report.needsPassword, true);
      assert.equal(result.report.method, method);
      const back = readBack(f, result.handler);
      assert.equal(back.content, CONTENT);
      assert.equal(back.title, 'Crypto Test');
    }
  });
}

test('missing /ID is treated as empty (and then simply fails to authenticate an R3 file made with an ID)', () => {
  const { encrypt } = open('r3-rc4-128.pdf');
  const r = openSecurityHandler(encrypt, undefined);
  assert.ok(!r.ok && r.reason === 'password-required');
  // R6 does not use the ID at all
  const r6 = open('r6-aes-256.pdf');
  assert.ok(openSecurityHandler(r6.encrypt, undefined).ok);
});

function dict(entries: Record<string, PdfValue>): PdfDict {
  const d = new PdfDict();
  for (const [k, v] of Object.entries(entries)) d.set(k, v);
  return d;
}

test('unsupported handlers and damaged dictionaries are reported, never thrown', () => {
  const pubsec = openSecurityHandler(dict({ Filter: 'Adobe.PubSec', V: 4, R: 4 }), undefined);
  assert.ok(!pubsec.ok && pubsec.reason === 'unsupported-encryption');
  assert.equal(pubsec.report.encrypted, true);
  assert.match(pubsec.ok ? '' : pubsec.message, /Adobe\.PubSec/);

  const v3 = openSecurityHandler(dict({ Filter: 'Standard', V: 3, R: 3 }), undefined);
  assert.ok(!v3.ok && v3.reason === 'unsupported-encryption');

  const noO = openSecurityHandler(dict({ Filter: 'Standard', V: 2, R: 3, Length: 128 }), undefined);
  assert.ok(!noO.ok && noO.reason === 'unsupported-encryption');

  const { encrypt } = open('r4-aes-128.pdf');
  const odd = dict({});
  for (const k of encrypt.keys()) odd.set(k, encrypt.get(k)!);
  odd.set('CF', dict({ StdCF: dict({ CFM: 'FancyCipher' }) }));
  const r = openSecurityHandler(odd, undefined);
  assert.ok(!r.ok && r.reason === 'unsupported-encryption');

  // garbage of every type in every slot
  const junk: PdfValue[] = [null, true, -1, 1e300, 'X', new Uint8Array(3), [], new PdfDict(), new Ref(1, 0)];
  for (const key of ['V', 'R', 'O', 'U', 'OE', 'UE', 'P', 'Length', 'CF', 'StmF', 'StrF', 'EncryptMetadata']) {
    for (const bad of junk) {
      for (const base of ['r2-rc4-40.pdf', 'r4-aes-128.pdf', 'r6-aes-256.pdf']) {
        const e = open(base).encrypt;
        e.set(key, bad);
        // no extra password for R6: each try costs two runs of the deliberately slow algorithm 2.B
        const pw = base.startsWith('r6') ? undefined : 'pw';
        assert.doesNotThrow(() => openSecurityHandler(e, new Uint8Array(16), pw));
      }
    }
  }
});

test('per-stream /Crypt filter and /Type /XRef streams', () => {
  const { f, result } = open('r4-aes-128.pdf');
  assert.ok(result.ok);
  const h = result.handler;
  const data = new TextEncoder().encode('plain bytes');
  assert.equal(h.decryptStream(data, 9, 0, dict({ Type: 'XRef' })), data);
  assert.equal(h.decryptStream(data, 9, 0, dict({ Filter: ['Crypt'], DecodeParms: [dict({ Name: 'Identity' })] })), data);
  assert.equal(h.decryptStream(data, 9, 0, dict({ Filter: 'Crypt' })), data); // /Name defaults to Identity
  // a /Crypt filter naming the document's StdCF decrypts as usual
  const catalog = object(f, f.trailer.get('Root')).dict;
  const page = object(f, (object(f, catalog.get('Pages')).dict.get('Kids') as PdfValue[])[0]).dict;
  const c = object(f, page.get('Contents'));
  const withCrypt = dict({ Filter: ['Crypt'], DecodeParms: [dict({ Type: 'CryptFilterDecodeParms', Name: 'StdCF' })] });
  assert.equal(latin1(h.decryptStream(c.raw!, c.num, c.gen, withCrypt)), CONTENT);
});

test('AES: IV-only, short, unaligned and badly padded input decrypts what it can', () => {
  const key = new Uint8Array(16).fill(7);
  const iv = new Uint8Array(16).fill(9);
  const plain = new TextEncoder().encode('0123456789abcdef0123456789'); // 26 bytes → 2 blocks with padding
  const ct = cbc(key, iv).encrypt(plain);
  const full = new Uint8Array([...iv, ...ct]);
  assert.equal(latin1(aesDecryptCbc(key, full)), latin1(plain));
  assert.equal(aesDecryptCbc(key, iv).length, 0);
  assert.equal(aesDecryptCbc(key, full.subarray(0, 10)).length, 0);
  // trailing junk (e.g. an EOL counted into /Length): the whole blocks still decrypt and unpad
  assert.equal(latin1(aesDecryptCbc(key, new Uint8Array([...full, 13, 10]))), latin1(plain));
  // unaligned source buffer
  const shifted = new Uint8Array(full.length + 3);
  shifted.set(full, 3);
  assert.equal(latin1(aesDecryptCbc(key, shifted.subarray(3))), latin1(plain));
  // no valid padding: keep the bytes
  const raw = cbc(key, iv, { disablePadding: true }).encrypt(new TextEncoder().encode('0123456789abcdef'));
  assert.equal(latin1(aesDecryptCbc(key, new Uint8Array([...iv, ...raw]))), '0123456789abcdef');
  // a bad key length is an error the caller sees (the stream's decode reports it), never an empty result
  assert.throws(() => aesDecryptCbc(new Uint8Array(5), full), /AES decryption failed/);
});

test('RC4 known answer (RFC 6229 key 0x0102030405, first bytes)', () => {
  const out = rc4(new Uint8Array([1, 2, 3, 4, 5]), new Uint8Array(16));
  assert.equal(Buffer.from(out).toString('hex'), 'b2396305f03dc027ccc3524a0a1118a8');
});

test('throughput: 4 MB RC4 and AES-128 stream decryption', () => {
  const { result } = open('r3-rc4-128.pdf');
  const aes = open('r4-aes-128.pdf').result;
  assert.ok(result.ok && aes.ok);
  const data = new Uint8Array(4 << 20);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 255;
  for (const [name, h] of [
    ['RC4-128', result.handler],
    ['AES-128', aes.handler],
  ] as const) {
    h.decryptStream(data.subarray(0, 1 << 16), 1, 0); // warm up
    const t = performance.now();
    const out = h.decryptStream(data.subarray(1), 1, 0); // odd offset: the unaligned case
    const ms = performance.now() - t;
    console.log(`# ${name}: 4 MB in ${ms.toFixed(1)} ms (${(4 / (ms / 1000)).toFixed(0)} MB/s)`);
    assert.ok(out.length > 4_000_000);
  }
});

test('MD5 matches node:crypto for every length across the padding boundaries, in one part or several', () => {
  for (let n = 0; n < 300; n++) {
    const b = new Uint8Array(n).map((_, i) => (i * 31 + n) & 255);
    const want = createHash('md5').update(b).digest('hex');
    assert.equal(Buffer.from(md5(b)).toString('hex'), want, `length ${n}`);
    assert.equal(
      Buffer.from(md5(b.subarray(0, n >> 2), b.subarray(n >> 2, n >> 1), new Uint8Array(0), b.subarray(n >> 1))).toString('hex'),
      want,
      `length ${n} in parts`,
    );
  }
  assert.equal(Buffer.from(md5(new TextEncoder().encode('abc'))).toString('hex'), '900150983cd24fb0d6963f7d28e17f72');
});

// ---------------------------------------------------------------------------------------------------------------
// AESV2 against a /Length that does not fit (issue 12: the cipher threw and every stream silently decrypted to nothing)

const PAD_BYTES = new Uint8Array([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80,
  0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

/** An R4 AESV2 /Encrypt dictionary written (empty user password) with a file key of `nBytes`, declaring `lengthBits`. */
function aesV2Dict(nBytes: number, lengthBits: number, id: Uint8Array): { encrypt: PdfDict; fileKey: Uint8Array } {
  const o = new Uint8Array(32).fill(7);
  const p = -4;
  const perms = new Uint8Array([p & 255, (p >>> 8) & 255, (p >>> 16) & 255, (p >>> 24) & 255]);
  let key = md5(PAD_BYTES, o, perms, id);
  for (let i = 0; i < 50; i++) key = md5(key.subarray(0, nBytes));
  key = key.slice(0, nBytes);
  let u = rc4(key, md5(PAD_BYTES, id));
  for (let i = 1; i <= 19; i++)
    u = rc4(
      key.map((b) => b ^ i),
      u,
    );
  const uFull = new Uint8Array(32);
  uFull.set(u);
  const cf = dict({ StdCF: dict({ CFM: 'AESV2', Length: 16, AuthEvent: 'DocOpen' }) });
  return {
    encrypt: dict({ Filter: 'Standard', V: 4, R: 4, Length: lengthBits, O: o, U: uFull, P: p, CF: cf, StmF: 'StdCF', StrF: 'StdCF' }),
    fileKey: key,
  };
}

test('AESV2 with a /Length of 40 but a 128-bit key (as ISO 32000-1 Table 25 fixes it) opens and decrypts', () => {
  const id = new Uint8Array(16).fill(3);
  const { encrypt, fileKey } = aesV2Dict(16, 40, id);
  const r = openSecurityHandler(encrypt, id);
  assert.ok(r.ok, r.ok ? '' : r.message);
  // it really decrypts: Algorithm 1's object key for object 5 0, AES-128-CBC with a 16-byte IV
  const objKey = md5(fileKey, new Uint8Array([5, 0, 0, 0, 0]), new TextEncoder().encode('sAlT')).subarray(0, 16);
  const iv = new Uint8Array(16).fill(1);
  const plain = 'BT /F1 12 Tf (Hello) Tj ET';
  const ct = cbc(objKey, iv).encrypt(new TextEncoder().encode(plain));
  assert.equal(latin1(r.handler.decryptStream(new Uint8Array([...iv, ...ct]), 5, 0)), plain);
});

test('AESV2 whose writer used a 40-bit key fails as unsupported-encryption, never as silently empty streams', () => {
  const id = new Uint8Array(16).fill(3);
  const r = openSecurityHandler(aesV2Dict(5, 40, id).encrypt, id);
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.reason, 'unsupported-encryption');
    assert.match(r.message, /128-bit/);
  }
});

test("a Node Buffer at an odd offset in Node's pool: the same report as a plain copy, and the caller's bytes untouched", () => {
  for (const file of ['r4-aes-128.pdf', 'r6-aes-256-user.pdf', 'r3-rc4-128.pdf']) {
    const plain = new Uint8Array(readFileSync(new URL(file, FIXTURES)));
    // a Buffer whose bytes start 3 bytes into a larger ArrayBuffer, as small Buffers do in Node's pool
    const backing = Buffer.alloc(plain.length + 8);
    const buf = backing.subarray(3, 3 + plain.length);
    buf.set(plain);
    assert.ok(Buffer.isBuffer(buf) && buf.byteOffset % 4 !== 0);
    const options = file.includes('user') ? { password: 'secret' } : {};
    const want = analyzePdfSync(plain, options);
    const got = analyzePdfSync(buf, options);
    assert.equal(got.error, undefined, `${file}: ${JSON.stringify(got.error)}`);
    assert.deepEqual(
      got.pages.map((p) => [p.route, p.reasons]),
      want.pages.map((p) => [p.route, p.reasons]),
      file,
    );
    assert.equal(want.pages[0].route, 'text', file);
    assert.ok(Buffer.compare(buf, Buffer.from(plain)) === 0, `${file}: the input bytes were changed`);
    // the floor reads through the same document opener
    if (!file.includes('user')) assert.deepEqual(floorScan(buf), floorScan(plain), file);
    assert.ok(Buffer.compare(buf, Buffer.from(plain)) === 0, `${file}: the floor changed the input bytes`);
  }
});
