import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call, type Reply } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';

/**
 * The thin path writes a whole 200 answer to the client itself (lib/server/proxy.ts `writeWhole`)
 * unless a step before it reads the answer afterwards (`GatewayState.answerRead`): a gateway with
 * LOGS_BODIES=true records every answer's body, so every answer of it goes koa's way. The same
 * requests to both must be answered with the same status, headers (in the same order) and bytes,
 * and the written answers still leave their request log record.
 */

/** What differs by nature between two answers to the same request: the time, the request's own id. */
const OWN = new Set(['date', 'x-request-id']);
const headersOf = (r: Reply) => Object.entries(r.headers).filter(([name]) => !OWN.has(name));

interface Log {
  method: string;
  path: string;
  status: number;
  user: string;
}

/** The requests compared, each answered by the gateway at `url`. */
async function answersOf(url: string): Promise<Record<string, Reply>> {
  await call(url, 'PUT', '/shelf/_doc/1?refresh=true', { body: { title: 'Dune', year: 1965 } });
  await call(url, 'PUT', '/shelf/_doc/2?refresh=true', { body: { title: 'Emma', year: 1815 } });
  const search = { body: { query: { match: { title: 'dune' } }, size: 10 }, headers: { 'x-opaque-id': 'search-1' } };
  const miss = await call(url, 'POST', '/shelf/_search', search); // kept
  return {
    read: await call(url, 'GET', '/shelf/_doc/1', { headers: { 'x-opaque-id': 'read-1' } }),
    miss,
    hit: await call(url, 'POST', '/shelf/_search', search),
    head: await call(url, 'HEAD', '/shelf/_doc/1'),
    missing: await call(url, 'GET', '/shelf/_doc/404'),
    logged: await call(url, 'GET', '/shelf/_doc/2'),
  };
}

for (const backend of BACKENDS) {
  describe(`whole answers written by the thin path (${backend.name})`, function () {
    this.timeout(60_000);
    const env = { CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0', LOGS_FLUSH_MS: '50' };
    let fast: Record<string, Reply>;
    let koa: Record<string, Reply>;
    let logs: Log[] = [];

    before(async () => {
      // one gateway after the other (the HTTP backend's engine is emptied for each): koa's way first
      const slow = await backend.start({ ...env, LOGS_BODIES: 'true' });
      try {
        koa = await answersOf(slow.gateway.url);
      } finally {
        await slow.stop();
      }
      const written = await backend.start(env);
      try {
        fast = await answersOf(written.gateway.url);
        await within(15_000, async () => {
          const res = await call(written.gateway.url, 'GET', '/shelf/_logs?size=100');
          logs = res.json?.logs ?? [];
          return logs.some((l) => l.method === 'GET' && l.path === '/shelf/_doc/2') && logs.filter((l) => l.path === '/shelf/_search').length >= 2;
        });
      } finally {
        await written.stop();
      }
    });

    it('a document read: the same status, headers and bytes as koa writes them', () => {
      const { read } = fast;
      expect(read.status).to.equal(200);
      expect(read.headers['x-opaque-id']).to.equal('read-1');
      expect(read.headers['x-elastic-product']).to.equal('Elasticsearch');
      expect(read.headers['x-request-id']).to.be.a('string').and.not.equal('');
      expect(headersOf(read)).to.deep.equal(headersOf(koa.read));
      expect(read.text).to.equal(koa.read.text);
    });

    it('a search served from the cache: the same headers (X-Request-Cache) and bytes', () => {
      const { hit } = fast;
      expect(hit.headers['x-request-cache']).to.equal('true');
      expect(koa.hit.headers['x-request-cache']).to.equal('true');
      expect(hit.headers['x-opaque-id']).to.equal('search-1');
      expect(headersOf(hit)).to.deep.equal(headersOf(koa.hit));
      expect(hit.text).to.equal(koa.hit.text);
      expect(hit.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
      expect(headersOf(fast.miss).map(([name]) => name)).to.deep.equal(headersOf(koa.miss).map(([name]) => name));
    });

    it('a HEAD and a 404 (koa’s way): no body for the HEAD, the 404 as the engine says it', () => {
      expect(fast.head.status).to.equal(200);
      expect(fast.head.text).to.equal('');
      expect(headersOf(fast.head)).to.deep.equal(headersOf(koa.head));
      expect(fast.missing.status).to.equal(404);
      expect(fast.missing.text).to.equal(koa.missing.text);
    });

    it('a written answer leaves its request log record, with its status and user; a hit too', () => {
      const record = logs.find((l) => l.method === 'GET' && l.path === '/shelf/_doc/2')!;
      expect(record.status).to.equal(200);
      expect(record.user).to.be.a('string').and.not.equal('');
      expect(logs.filter((l) => l.method === 'POST' && l.path === '/shelf/_search' && l.status === 200)).to.have.length(2);
    });
  });
}
