import { expect } from 'chai';
import { ChunkedTextDecoder, DECODE_BATCH_BYTES } from '../../lib/cooperative/index.js';

/** ChunkedTextDecoder: UTF-8 chunks in, the text out, decoded a megabyte at a time. */
describe('ChunkedTextDecoder', () => {
  const decode = (bytes: Buffer, chunk: number) => {
    const decoder = new ChunkedTextDecoder();
    for (let at = 0; at < bytes.length; at += chunk) decoder.write(bytes.subarray(at, at + chunk));
    return decoder;
  };

  it('reads as Buffer#toString, whatever the chunks (characters split between chunks and batches kept whole)', () => {
    const small = 'aé😀€\u0000z'.repeat(10_000);
    for (const chunk of [1, 2, 3, 5]) expect(decode(Buffer.from(small), chunk).text() === small, `chunks of ${chunk}`).to.equal(true);
    // 3.9 MB: several megabyte batches, cut inside characters
    const text = 'aé😀€\u0000z'.repeat(300_000);
    const bytes = Buffer.from(text);
    for (const chunk of [64 * 1024 + 3, 1024 * 1024 - 1, bytes.length]) expect(decode(bytes, chunk).text() === text, `chunks of ${chunk}`).to.equal(true);
  });

  it('decodes up to DECODE_BATCH_BYTES at a time (under the ~1 MB past which a Latin-1 string is external): a 3 MB text in 64 KB chunks is 4 pieces, none empty', () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024, 'x');
    const pieces = decode(bytes, 64 * 1024).pieces();
    expect(pieces.map((p) => p.length)).to.deep.equal([15, 15, 15, 3].map((chunks) => chunks * 64 * 1024));
    // a chunk larger than a batch is cut
    expect(decode(bytes, bytes.length).pieces().map((p) => p.length)).to.deep.equal([DECODE_BATCH_BYTES, DECODE_BATCH_BYTES, DECODE_BATCH_BYTES, bytes.length - 3 * DECODE_BATCH_BYTES]);
  });

  it('joins the chunks of each batch in one buffer it reuses: a 20 MB body makes ~1 MB of buffers, not 20 MB more', () => {
    // the chunks are views of one buffer made before: what the decoding makes is all that is counted
    const bytes = Buffer.alloc(20 * 1024 * 1024, 'x');
    const before = process.memoryUsage().arrayBuffers;
    const text = decode(bytes, 64 * 1024).text();
    const made = process.memoryUsage().arrayBuffers - before;
    expect(text.length).to.equal(bytes.length);
    expect(made).to.be.below(4 * 1024 * 1024);
  });

  it('reads as Buffer#toString across ASCII and non-ASCII batches, a character cut at a batch end included', () => {
    const MB = 1024 * 1024;
    const ascii = (n: number) => Buffer.alloc(n, 'a');
    const cases = [
      // a 3-byte character cut by the first batch's end, an ASCII batch after
      Buffer.concat([ascii(MB - 1), Buffer.from('€'), ascii(2 * MB)]),
      // a lone lead byte at a batch's end, then ASCII: U+FFFD, as Buffer#toString
      Buffer.concat([ascii(MB - 1), Buffer.from([0xe2]), ascii(MB)]),
      // a lone continuation byte opening an otherwise ASCII batch
      Buffer.concat([ascii(MB), Buffer.from([0x80]), ascii(MB)]),
      Buffer.concat([ascii(MB), Buffer.from('aé'), ascii(MB)]),
    ];
    for (const [k, bytes] of cases.entries()) {
      for (const chunk of [64 * 1024, 1000, MB + 1]) expect(decode(bytes, chunk).text() === bytes.toString('utf8'), `case ${k}, chunks of ${chunk}`).to.equal(true);
    }
  });

  it('an empty input is the empty text', () => {
    expect(new ChunkedTextDecoder().text()).to.equal('');
    expect(new ChunkedTextDecoder().pieces()).to.deep.equal([]);
  });

  it('an incomplete character at the end is decoded as U+FFFD, as Buffer#toString does', () => {
    const bytes = Buffer.from('ok😀').subarray(0, 4);
    expect(decode(bytes, 1).text()).to.equal(bytes.toString('utf8'));
  });
});
