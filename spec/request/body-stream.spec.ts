/**
 * A body the classifier read as text is forwarded (bodyStream) a decoded piece at a time: made one
 * Buffer, a 20 MB search body was first copied into one flat string, then encoded whole, both in one
 * piece of the event loop.
 */
import { PassThrough, type Readable } from 'node:stream';
import { expect } from 'chai';
import type { Context } from 'koa';
import { bodyStream, bufferTextPieces } from '../../lib/request/index.js';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';

function arrived(body: Buffer): Context {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
  const req = Object.assign(new PassThrough({ highWaterMark: 64 * 1024 }), { headers });
  void (async () => {
    for (let at = 0; at < body.length; at += 64 * 1024) if (!req.write(body.subarray(at, at + 64 * 1024))) await new Promise((r) => req.once('drain', r));
    req.end();
  })();
  return { req, state: {}, get: (name: string) => headers[name.toLowerCase()] ?? '' } as unknown as Context;
}

async function chunksOf(stream: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return chunks;
}

describe('request body: forwarding what the classifier read as text', function () {
  this.timeout(60_000);

  it('a 20 MB body goes on in pieces of about a megabyte, the same bytes (characters across pieces kept whole)', async () => {
    const body = Buffer.from(JSON.stringify({ query: { match: { summary: 'wörd 😀 '.repeat(2_000_000) } } }));
    const ctx = arrived(body);
    const read = await bufferTextPieces(ctx, body.length);
    expect(read!.text.length).to.be.greaterThan(10_000_000);
    const chunks = await chunksOf(bodyStream(ctx, body.length)!);
    expect(Math.max(...chunks.map((c) => c.length)), 'largest piece forwarded').to.be.at.most(2 * 1024 * 1024);
    expect(Buffer.concat(chunks).equals(body)).to.equal(true);
  });

  it('a body replaced after it was read (a rebuilt text) is forwarded as it now is', async () => {
    const body = Buffer.from(JSON.stringify({ text: 'x'.repeat(3_000_000) }));
    const ctx = arrived(body);
    await bufferTextPieces(ctx, body.length);
    ctx.state.body = '{"size":0}';
    expect(Buffer.concat(await chunksOf(bodyStream(ctx, body.length)!)).toString()).to.equal('{"size":0}');
  });

  it('a body that has all arrived is read with turns of the event loop in between, not in one piece', async () => {
    const body = Buffer.from(JSON.stringify({ text: 'wörd 😀 '.repeat(3_000_000) }));
    // every byte at hand before the read begins
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
    const req = Object.assign(new PassThrough({ highWaterMark: body.length + 1 }), { headers });
    for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
    req.end();
    const ctx = { req, state: {}, get: (name: string) => headers[name.toLowerCase()] ?? '' } as unknown as Context;
    let reading = true;
    let turns = 0;
    const turn = () => {
      if (!reading) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const read = await bufferTextPieces(ctx, body.length);
    reading = false;
    expect(read!.text.length).to.be.greaterThan(20_000_000);
    expect(turns, 'turns of the event loop while the body was read').to.be.greaterThan(1);
  });

  it('a small body is one piece', async () => {
    const ctx = arrived(Buffer.from('{"size":1}'));
    await bufferTextPieces(ctx, 100);
    expect((await chunksOf(bodyStream(ctx, 100)!)).map(String)).to.deep.equal(['{"size":1}']);
  });
});

for (const backend of BACKENDS) {
  describe(`request body: a large search body read as text, then forwarded (${backend.name})`, function () {
    this.timeout(120_000);

    it('a 4.5 MB query, multi-byte text across its pieces, reaches the engine as sent', async () => {
      const { gateway, stop } = await backend.start();
      try {
        // 60,000 multi-byte keywords (~4.5 MB), the document's the last: read whole and exactly, or no hit
        const tags = Array.from({ length: 60_000 }, (_, i) => `${'wörd😀'.repeat(8)}-${i}`);
        expect((await call(gateway.url, 'PUT', '/forwarded-texts', { body: { mappings: { properties: { tag: { type: 'keyword' } } } } })).status).to.equal(200);
        expect((await call(gateway.url, 'PUT', '/forwarded-texts/_doc/1?refresh=true', { body: { tag: tags[tags.length - 1] } })).status).to.equal(201);
        const found = await call(gateway.url, 'POST', '/forwarded-texts/_search', { body: { query: { terms: { tag: tags } } } });
        expect(found.status, found.text.slice(0, 300)).to.equal(200);
        expect(found.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
      } finally {
        await stop();
      }
    });
  });
}
