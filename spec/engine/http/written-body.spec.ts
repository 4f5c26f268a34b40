/**
 * A body the classifier wrote anew (a large JSON body re-serialized for the HTTP engine) goes to the
 * engine as the pieces it was written in, encoded one at a time and sent chunked: given as one
 * string, undici first copied the whole text flat and encoded all of it, both in one piece of the
 * event loop (a 20 MB search, issue 38). A body a later step replaced goes as it now is.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { HttpBackend } from '../../../lib/engine/http/index.js';
import { readBody } from '../../../lib/engine/index.js';
import type { GatewayRequest } from '../../../lib/request/index.js';

interface Received { headers: http.IncomingHttpHeaders; body: Buffer }

/** An engine that keeps what each request sent and answers `{}`. */
async function recordingEngine(): Promise<{ url: URL; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}`), received, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

describe('HTTP backend: a body written anew is sent as its pieces', function () {
  this.timeout(30_000);
  // a search written anew: pieces of multi-byte text, as jsonTextPieces writes them (pairs never cut)
  const pieces = Array.from({ length: 40 }, (_, i) => `${i === 0 ? '{"query":{"match":{"t":"' : ''}${'wörd 😀 '.repeat(10_000)}${i === 39 ? '"}}}' : ''}`);
  const text = pieces.join('');
  const request = { info: { forwardPieces: { text, pieces } } } as unknown as GatewayRequest;

  it('sends the pieces chunked, the same bytes as the text', async () => {
    const engine = await recordingEngine();
    const backend = new HttpBackend(engine.url, { timeoutMs: 5_000 });
    try {
      const res = await backend.request({ method: 'POST', path: '/books/_search', querystring: '', headers: { 'content-type': 'application/json' }, body: text, request });
      await readBody(res.body);
      const [sent] = engine.received;
      expect(sent.headers['transfer-encoding'], 'sent a piece at a time, not as one encoded text').to.equal('chunked');
      expect(sent.body.equals(Buffer.from(text))).to.equal(true);
    } finally {
      await backend.close();
      await engine.close();
    }
  });

  it('a body replaced since it was written goes as it now is', async () => {
    const engine = await recordingEngine();
    const backend = new HttpBackend(engine.url, { timeoutMs: 5_000 });
    try {
      const replaced = '{"query":{"match_all":{}}}';
      const res = await backend.request({ method: 'POST', path: '/books/_search', querystring: '', headers: { 'content-type': 'application/json' }, body: replaced, request });
      await readBody(res.body);
      expect(engine.received[0].body.toString()).to.equal(replaced);
      expect(engine.received[0].headers['content-length']).to.equal(String(replaced.length));
    } finally {
      await backend.close();
      await engine.close();
    }
  });
});
