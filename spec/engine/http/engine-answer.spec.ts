import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { HttpBackend } from '../../../lib/engine/http/index.js';
import { readBody } from '../../../lib/engine/index.js';
import { EsError } from '../../../lib/errors/index.js';

/** A scripted engine: each test says how it answers. */
async function engine(handler: http.RequestListener): Promise<{ url: URL; close(): Promise<void> }> {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const SMALL = JSON.stringify({ _index: 'books', _id: '1', found: true, _source: { title: 'ü'.repeat(100) } });

describe('HTTP backend answers (EngineAnswer)', function () {
  this.timeout(20_000);
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((close) => close()));
  });
  const backendFor = async (handler: http.RequestListener) => {
    const upstream = await engine(handler);
    const backend = new HttpBackend(upstream.url, { timeoutMs: 5_000 });
    closing.push(() => backend.close(), upstream.close);
    return backend;
  };

  it('hands an answer of a declared small length on whole, as one Buffer with its headers', async () => {
    const backend = await backendFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(SMALL), 'x-elastic-product': 'Elasticsearch' });
      // in pieces: the answer is collected from every chunk, a character split between two kept whole
      const bytes = Buffer.from(SMALL);
      res.write(bytes.subarray(0, 51));
      setImmediate(() => res.end(bytes.subarray(51)));
    });
    const res = await backend.request({ method: 'GET', path: '/books/_doc/1', querystring: '', headers: {} });
    expect(res.status).to.equal(200);
    expect(Buffer.isBuffer(res.body), 'a Buffer, not a stream').to.equal(true);
    expect((res.body as Buffer).toString('utf8')).to.equal(SMALL);
    expect(res.headers['content-type']).to.equal('application/json');
    expect(res.headers['x-elastic-product']).to.equal('Elasticsearch');
  });

  it('hands a HEAD answer on as an empty Buffer with the length the GET would have', async () => {
    const backend = await backendFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 10_000_000 });
      res.end();
    });
    const res = await backend.request({ method: 'HEAD', path: '/books', querystring: '', headers: {} });
    expect(res.status).to.equal(200);
    expect(Buffer.isBuffer(res.body) && res.body.length).to.equal(0);
    expect(res.headers['content-length']).to.equal('10000000');
  });

  it('streams a chunked answer: its first bytes are readable before the engine has finished', async () => {
    let finish: () => void = () => {};
    const backend = await backendFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"hits":[');
      finish = () => res.end(']}');
    });
    const res = await backend.request({ method: 'GET', path: '/_search', querystring: '', headers: {} });
    expect(res.body).to.be.instanceOf(Readable);
    const body = res.body as Readable;
    const [first] = (await once(body, 'data')) as [Buffer];
    expect(first.toString()).to.equal('{"hits":[');
    finish();
    const rest = (await readBody(body)).toString();
    expect(rest).to.equal(']}');
  });

  it('streams an answer longer than 256 KB, and a stream destroyed before its end aborts the call', async () => {
    let upstreamClosed!: Promise<unknown>;
    const backend = await backendFor((_req, res) => {
      upstreamClosed = once(res, 'close');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1024 * 1024 });
      res.write(Buffer.alloc(64 * 1024, 0x20)); // the rest never comes
    });
    const res = await backend.request({ method: 'GET', path: '/_search', querystring: '', headers: {} });
    expect(res.body).to.be.instanceOf(Readable);
    const body = res.body as Readable;
    body.on('error', () => {});
    await once(body, 'data');
    body.destroy();
    await upstreamClosed; // the engine's connection is cut: the call does not go on in the background
  });

  it('a connection cut in the middle of a small answer fails the call (502), never a short body', async () => {
    const backend = await backendFor((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(SMALL) });
      res.write(SMALL.slice(0, 20));
      setImmediate(() => req.socket.destroy());
    });
    const err = await backend.request({ method: 'GET', path: '/books/_doc/1', querystring: '', headers: {} }).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(EsError);
    expect((err as EsError).status).to.equal(502);
  });

  it('a call whose signal aborts fails without an answer', async () => {
    const backend = await backendFor(() => {
      // never answers
    });
    const abort = new AbortController();
    const call = backend.request({ method: 'GET', path: '/books/_doc/1', querystring: '', headers: {}, signal: abort.signal });
    setImmediate(() => abort.abort());
    const err = await call.then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(EsError);
    expect((err as EsError).status).to.equal(502);
  });
});
