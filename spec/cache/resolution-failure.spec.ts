import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { call } from '../support/http.js';
import { spawnEngine, startTestGateway, tempDir, type ChildServer, type TestGateway } from '../support/servers.js';

/**
 * The search cache resolves what a search's index expression stands for before it keeps an
 * answer (GET /{expression}/_settings/index.uuid). A resolution the engine failed once (busy: a
 * 429 or 503) is not remembered: the next identical search resolves again and is kept. It was
 * remembered until an index operation, which kept every answer of that expression out of the cache
 * (under CI's load a whole property run met no hit). The gateway on the HTTP backend, in front of
 * an upstream that answers 503 to the first resolution and forwards everything else to a
 * standalone engine.
 */
describe('search cache: a failed index resolution is asked again', function () {
  this.timeout(60_000);
  let engine: ChildServer;
  let upstream: http.Server;
  let pool: Pool;
  let gw: TestGateway;
  let resolutionsRefused = 0;
  let data: Awaited<ReturnType<typeof tempDir>>;

  before(async () => {
    data = await tempDir('gw-resolution-');
    engine = await spawnEngine(data.dir);
    pool = new Pool(engine.url);
    let refuseNext = false;
    upstream = http.createServer((req, res) => {
      if (refuseNext && req.method === 'GET' && /\/_settings\/index\.uuid$/.test((req.url ?? '').split('?')[0])) {
        refuseNext = false;
        resolutionsRefused++;
        res.writeHead(503, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
        res.end(JSON.stringify({ error: { type: 'unavailable', reason: 'busy' }, status: 503 }));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = { ...req.headers };
        delete headers.host;
        delete headers.connection;
        const answer = await pool.request({ method: req.method as 'GET', path: req.url ?? '/', headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        const body = Buffer.from(await answer.body.arrayBuffer());
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(answer.headers)) if (typeof v === 'string' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
        res.writeHead(answer.statusCode, { ...out, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gw = await startTestGateway({ ENGINE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0' });
    expect((await call(gw.url, 'PUT', '/books')).status).to.equal(200);
    expect((await call(gw.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune' } })).status).to.equal(201);
    refuseNext = true;
  });
  after(async () => {
    await gw?.close();
    await new Promise((resolve) => upstream?.close(resolve));
    await pool?.close();
    await engine?.stop();
    await data?.remove();
  });

  it('the search whose resolution failed is answered, not kept; the same search again is kept, then served from the cache', async () => {
    const search = () => call(gw.url, 'POST', '/books/_search', { body: { query: { match: { title: 'dune' } } } });
    const first = await search();
    expect(first.status, first.text).to.equal(200);
    expect(first.json.hits.total.value).to.equal(1);
    expect(resolutionsRefused, 'the upstream refused the first resolution').to.equal(1);
    expect(first.headers['x-request-cache']).to.equal(undefined);
    const second = await search();
    expect(second.status).to.equal(200);
    expect(second.headers['x-request-cache'], 'the second was answered by the engine and kept').to.equal(undefined);
    const third = await search();
    expect(third.headers['x-request-cache'], 'the third is a hit').to.equal('true');
    expect(third.json.hits.total.value).to.equal(1);
  });
});
