import type { StoredDocument } from './types.js';

/**
 * The binary record of one stored document version (document format 2), written to LMDB as it is:
 *
 *   byte 0      flags: 1 = has a source (else a tombstone), 2 = has a routing
 *   bytes 1–8   _version      (float64 LE)
 *   bytes 9–16  _seq_no       (float64 LE)
 *   bytes 17–20 _primary_term (uint32 LE)
 *   [routing]   uint32 LE byte length, then UTF-8 bytes (flag 2)
 *   [source]    UTF-8 bytes, to the end (flag 1)
 *
 * Against the first format (a msgpack object per document) it saves the encoder's work on every
 * write and the decoder's on every read and start-up rebuild.
 */
const HAS_SOURCE = 1;
const HAS_ROUTING = 2;
const HEADER = 21;

/** An upper bound of a document's record size (UTF-16 code units take at most 3 UTF-8 bytes each). */
export function docRecordMaxBytes(doc: StoredDocument): number {
  return HEADER + (doc.r === undefined ? 0 : 4 + 3 * doc.r.length) + (doc.s === undefined ? 0 : 3 * doc.s.length);
}

/** Writes the record into `buf` at `off` (room for `docRecordMaxBytes`); returns where it ends. */
export function writeDocRecord(buf: Buffer, off: number, doc: StoredDocument): number {
  buf[off] = (doc.s !== undefined ? HAS_SOURCE : 0) | (doc.r !== undefined ? HAS_ROUTING : 0);
  buf.writeDoubleLE(doc.v, off + 1);
  buf.writeDoubleLE(doc.q, off + 9);
  buf.writeUInt32LE(doc.t, off + 17);
  let end = off + HEADER;
  if (doc.r !== undefined) {
    const n = buf.write(doc.r, end + 4, 'utf8');
    buf.writeUInt32LE(n, end);
    end += 4 + n;
  }
  if (doc.s !== undefined) end += buf.write(doc.s, end, 'utf8');
  return end;
}

/** The `_seq_no` of a record, read without decoding the rest. */
export function docRecordSeqNo(buf: Uint8Array): number {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).readDoubleLE(9);
}

export function decodeDocRecord(buf: Uint8Array): StoredDocument {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < HEADER) throw new Error(`document record too short (${b.length} bytes)`);
  const flags = b[0];
  const doc: StoredDocument = { v: b.readDoubleLE(1), q: b.readDoubleLE(9), t: b.readUInt32LE(17) };
  let off = HEADER;
  if (flags & HAS_ROUTING) {
    const n = b.readUInt32LE(off);
    off += 4;
    doc.r = b.toString('utf8', off, off + n);
    off += n;
  }
  if (flags & HAS_SOURCE) doc.s = b.toString('utf8', off);
  return doc;
}
