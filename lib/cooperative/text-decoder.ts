import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';

/**
 * Bytes gathered before they are decoded: a string this large is allocated outside V8's young
 * generation, and stays on the V8 heap. A Latin-1 string past ~1 MB (Node's EXTERN_APEX, 1,031,913
 * bytes) would be an external string, whose memory V8 counts apart: a 20 MB body of them started a
 * full collection for each request (twice the CPU per 20 MB search, measured), where heap strings
 * wait for the old generation's own limit.
 */
export const DECODE_BATCH_BYTES = 1000 * 1024;

/**
 * UTF-8 bytes that arrive in chunks (a request body, a form's file part), decoded a megabyte at a
 * time (a character split between chunks is kept whole). Decoded chunk by chunk, tens of 64 KB
 * strings land in the young generation, where every scavenge copies them again until the end;
 * joined at the end, the whole text is copied once more in one piece (a 2 MB script: the largest
 * self time of the deep-script load's main thread). `pieces()` hands out the decoded pieces; their
 * concatenation (`+`, which V8 keeps as a rope) is the text.
 *
 * A batch of ASCII bytes (the usual JSON body) is copied as Latin-1, which reads the same: no UTF-8
 * decoding (37 → 16 ms of CPU for 20 MB here). A batch never passes DECODE_BATCH_BYTES.
 */
export class ChunkedTextDecoder {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];
  private batch: Buffer[] = [];
  private batched = 0;
  /** Where a batch of several chunks is joined, made once: a `Buffer.concat` per batch made another 20 MB of buffers for a 20 MB body. */
  private joined: Buffer | undefined;
  /** The decoder may hold the first bytes of a character split at the end of the previous batch. */
  private decoderHolds = false;

  write(chunk: Buffer): void {
    for (let at = 0; at < chunk.length; ) {
      if (this.batched > 0 && this.batched + chunk.length - at > DECODE_BATCH_BYTES) this.decodeBatch();
      const part = at === 0 && chunk.length <= DECODE_BATCH_BYTES ? chunk : chunk.subarray(at, at + DECODE_BATCH_BYTES - this.batched);
      this.batch.push(part);
      this.batched += part.length;
      at += part.length;
      if (this.batched >= DECODE_BATCH_BYTES) this.decodeBatch();
    }
  }

  /** The text's pieces (none empty), once every chunk has been written. */
  pieces(): string[] {
    if (this.batched) this.decodeBatch();
    this.joined = undefined;
    const last = this.decoder.end();
    if (last !== '') this.parts.push(last);
    return this.parts;
  }

  /** The text: the pieces concatenated (a rope; nothing is copied until something reads it whole). */
  text(): string {
    let text = '';
    for (const piece of this.pieces()) text += piece;
    return text;
  }

  private decodeBatch(): void {
    // the decoder keeps a character split at the end in a buffer of its own: `joined` is reused
    const bytes = this.batch.length === 1 ? this.batch[0] : this.join();
    let decoded: string;
    if (!this.decoderHolds && isAscii(bytes)) decoded = bytes.toString('latin1');
    else {
      decoded = this.decoder.write(bytes);
      // only a batch ending in a non-ASCII byte can leave part of a character behind
      this.decoderHolds = bytes.length > 0 && bytes[bytes.length - 1] >= 0x80;
    }
    if (decoded !== '') this.parts.push(decoded);
    this.batch = [];
    this.batched = 0;
  }

  private join(): Buffer {
    if (this.joined === undefined || this.joined.length < this.batched) this.joined = Buffer.allocUnsafeSlow(this.batched);
    let at = 0;
    for (const chunk of this.batch) at += chunk.copy(this.joined, at);
    return this.joined.subarray(0, at);
  }
}
