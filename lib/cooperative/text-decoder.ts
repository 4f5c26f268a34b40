import { StringDecoder } from 'node:string_decoder';

/** Bytes gathered before they are decoded: a string this large is allocated outside V8's young generation. */
export const DECODE_BATCH_BYTES = 1024 * 1024;

/**
 * UTF-8 bytes that arrive in chunks (a request body, a form's file part), decoded a megabyte at a
 * time (a character split between chunks is kept whole). Decoded chunk by chunk, tens of 64 KB
 * strings land in the young generation, where every scavenge copies them again until the end;
 * joined at the end, the whole text is copied once more in one piece (a 2 MB script: the largest
 * self time of the deep-script load's main thread). `pieces()` hands out the decoded pieces; their
 * concatenation (`+`, which V8 keeps as a rope) is the text.
 */
export class ChunkedTextDecoder {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];
  private batch: Buffer[] = [];
  private batched = 0;
  /** Where a batch of several chunks is joined, made once: a `Buffer.concat` per batch made another 20 MB of buffers for a 20 MB body. */
  private joined: Buffer | undefined;

  write(chunk: Buffer): void {
    this.batch.push(chunk);
    this.batched += chunk.length;
    if (this.batched >= DECODE_BATCH_BYTES) this.decodeBatch();
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
    const decoded = this.decoder.write(this.batch.length === 1 ? this.batch[0] : this.join());
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
