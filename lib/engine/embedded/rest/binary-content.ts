/**
 * The binary content types Elasticsearch and OpenSearch answer with `format=cbor` and
 * `format=smile` (XContentType CBOR and SMILE, which `_cat` tables take beside json and yaml):
 * a JSON value encoded as CBOR (RFC 8949) or as Jackson's Smile. Definite-length CBOR containers;
 * Smile with the header ES's factory writes (shared names allowed, raw binary) and no back
 * references, which every decoder reads.
 */

export type BinaryFormat = 'cbor' | 'smile';

export const BINARY_CONTENT_TYPES: Record<BinaryFormat, string> = { cbor: 'application/cbor', smile: 'application/smile' };

export function encodeBinary(format: BinaryFormat, value: unknown): Buffer {
  const out = new ByteWriter();
  if (format === 'cbor') cbor(out, value);
  else {
    out.bytes(0x3a, 0x29, 0x0a, 0x05); // ":)\n", version 0, shared names allowed, raw binary
    smile(out, value, false);
  }
  return out.buffer();
}

class ByteWriter {
  private chunks: Buffer[] = [];
  bytes(...values: number[]): void {
    this.chunks.push(Buffer.from(values));
  }
  raw(buf: Buffer): void {
    this.chunks.push(buf);
  }
  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function cborHead(out: ByteWriter, major: number, n: number): void {
  const m = major << 5;
  if (n < 24) out.bytes(m | n);
  else if (n < 0x100) out.bytes(m | 24, n);
  else if (n < 0x10000) out.bytes(m | 25, n >> 8, n & 0xff);
  else if (n < 0x100000000) out.bytes(m | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  else {
    const b = Buffer.alloc(9);
    b[0] = m | 27;
    b.writeBigUInt64BE(BigInt(n), 1);
    out.raw(b);
  }
}

function cbor(out: ByteWriter, value: unknown): void {
  if (value === null || value === undefined) return out.bytes(0xf6);
  if (value === false) return out.bytes(0xf4);
  if (value === true) return out.bytes(0xf5);
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value >= 0 ? cborHead(out, 0, value) : cborHead(out, 1, -1 - value);
    const b = Buffer.alloc(9);
    b[0] = 0xfb;
    b.writeDoubleBE(value, 1);
    return out.raw(b);
  }
  if (typeof value === 'string') {
    const utf8 = Buffer.from(value, 'utf8');
    cborHead(out, 3, utf8.length);
    return out.raw(utf8);
  }
  if (Array.isArray(value)) {
    cborHead(out, 4, value.length);
    for (const item of value) cbor(out, item);
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  cborHead(out, 5, entries.length);
  for (const [k, v] of entries) {
    cbor(out, k);
    cbor(out, v);
  }
}

/** Smile's VInt: 7 bits a byte, big-endian, the last byte 6 bits with its high bit set. */
function vint(n: bigint): number[] {
  const last = Number(n & 0x3fn) | 0x80;
  const head: number[] = [];
  for (let rest = n >> 6n; rest > 0n; rest >>= 7n) head.unshift(Number(rest & 0x7fn));
  return [...head, last];
}

function smile(out: ByteWriter, value: unknown, isKey: boolean): void {
  if (isKey) return smileKey(out, String(value));
  if (value === null || value === undefined) return out.bytes(0x21);
  if (value === false) return out.bytes(0x22);
  if (value === true) return out.bytes(0x23);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -16 && value <= 15) return out.bytes(0xc0 + ((value << 1) ^ (value >> 31)) );
    if (Number.isSafeInteger(value)) {
      const n = BigInt(value);
      const zigzag = n >= 0n ? n << 1n : ((-n) << 1n) - 1n;
      const int32 = value >= -0x80000000 && value <= 0x7fffffff;
      return out.bytes(int32 ? 0x24 : 0x25, ...vint(zigzag));
    }
    const b = Buffer.alloc(8);
    b.writeDoubleBE(value);
    const bits = b.readBigUInt64BE();
    const seven: number[] = [Number(bits >> 63n)];
    for (let shift = 56n; shift >= 0n; shift -= 7n) seven.push(Number((bits >> shift) & 0x7fn));
    return out.bytes(0x29, ...seven);
  }
  if (typeof value === 'string') {
    if (value === '') return out.bytes(0x20);
    const utf8 = Buffer.from(value, 'utf8');
    const ascii = utf8.length === value.length;
    const n = utf8.length;
    if (ascii && n <= 32) out.bytes(0x40 + n - 1);
    else if (ascii && n <= 64) out.bytes(0x60 + n - 33);
    else if (!ascii && n <= 33) out.bytes(0x80 + n - 2);
    else if (!ascii && n <= 65) out.bytes(0xa0 + n - 34);
    else {
      out.bytes(ascii ? 0xe0 : 0xe4);
      out.raw(utf8);
      return out.bytes(0xfc);
    }
    return out.raw(utf8);
  }
  if (Array.isArray(value)) {
    out.bytes(0xf8);
    for (const item of value) smile(out, item, false);
    return out.bytes(0xf9);
  }
  out.bytes(0xfa);
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    smile(out, k, true);
    smile(out, v, false);
  }
  out.bytes(0xfb);
}

function smileKey(out: ByteWriter, key: string): void {
  if (key === '') return out.bytes(0x20);
  const utf8 = Buffer.from(key, 'utf8');
  const ascii = utf8.length === key.length;
  if (ascii && utf8.length <= 64) out.bytes(0x80 + utf8.length - 1);
  else if (!ascii && utf8.length >= 2 && utf8.length <= 57) out.bytes(0xc0 + utf8.length - 2);
  else {
    out.bytes(0x34);
    out.raw(utf8);
    return out.bytes(0xfc);
  }
  out.raw(utf8);
}
