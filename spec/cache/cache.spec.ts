import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { startTwoNodes, type TwoNodes } from '../support/two-nodes.js';
import { within } from '../support/within.js';

const search = (gw: TestGateway | { url: string }, q: Record<string, unknown> = { match_all: {} }, headers: Record<string, string> = {}, auth?: string) =>
  call(gw.url, 'POST', '/books/_search', { body: { query: q, size: 10 }, headers, auth });
const ids = (r: { json: { hits: { hits: Array<{ _id: string }> } } }) => r.json.hits.hits.map((h) => h._id).sort();
const cached = (r: { headers: Record<string, unknown> }) => r.headers['x-request-cache'] === 'true';

for (const backend of BACKENDS) {
  describe(`search cache (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      // the standalone engine shows an acknowledged write at once, as the embedded one does: no refresh to wait out
      ({ gateway: gw, stop } = await backend.start({ CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0' }));
      await call(gw.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune', genre: 'sf' } });
      await call(gw.url, 'PUT', '/books/_doc/2?refresh=true', { body: { title: 'Emma', genre: 'novel' } });
    });
    after(() => stop());

    it('serves a repeated search from the cache, with X-Request-Cache, whatever the key order', async () => {
      const first = await search(gw);
      expect(cached(first)).to.equal(false);
      const again = await call(gw.url, 'POST', '/books/_search', { body: { size: 10, query: { match_all: {} } } });
      expect(cached(again), JSON.stringify(again.headers)).to.equal(true);
      expect(ids(again)).to.deep.equal(ids(first));
      const stats = (await call(gw.url, 'GET', '/_cache/stats')).json;
      expect(stats.hits).to.be.greaterThan(0);
      expect(stats.entries).to.be.greaterThan(0);
    });

    it('drops an answer when its index changes: document write, _bulk, delete by query', async () => {
      const writes: Array<() => Promise<unknown>> = [
        () => call(gw.url, 'PUT', '/books/_doc/3?refresh=true', { body: { title: 'Ubik', genre: 'sf' } }),
        () => call(gw.url, 'POST', '/_bulk?refresh=true', { body: '{"index":{"_index":"books","_id":"4"}}\n{"title":"Solaris","genre":"sf"}\n', headers: { 'content-type': 'application/x-ndjson' } }),
        () => call(gw.url, 'POST', '/books/_delete_by_query?refresh=true', { body: { query: { term: { _id: '4' } } } }),
      ];
      for (const write of writes) {
          const before = await search(gw, { match: { genre: 'sf' } });
        await search(gw, { match: { genre: 'sf' } }); // cached now
        await write();
          const after = await search(gw, { match: { genre: 'sf' } });
        expect(cached(after)).to.equal(false);
        expect(ids(after)).not.to.deep.equal(ids(before));
      }
    });

    it('useCache: false, scroll and request_cache=false are never served from the cache', async () => {
      const body = { query: [{ id: 's', dataField: 'title', value: 'dune', index: 'books' }], settings: { useCache: false } };
      const lookups = async () => {
        const stats = (await call(gw.url, 'GET', '/_cache/stats')).json;
        return stats.hits + stats.misses;
      };
      const before = await lookups();
      await call(gw.url, 'POST', '/_declarative', { body });
      expect((await call(gw.url, 'POST', '/_declarative', { body })).status).to.equal(200);
      expect(await lookups()).to.equal(before); // neither looked up nor kept
      // the same declarative request without the setting is kept
      const cachedBody = { ...body, settings: {} };
      await call(gw.url, 'POST', '/_declarative', { body: cachedBody });
      expect(await lookups()).to.equal(before + 1);
      await search(gw, { term: { genre: 'novel' } });
      expect(cached(await search(gw, { term: { genre: 'novel' } }))).to.equal(true);
      const noCache = await call(gw.url, 'POST', '/books/_search?request_cache=false', { body: { query: { term: { genre: 'novel' } }, size: 10 } });
      expect(cached(noCache)).to.equal(false);
    });

    it('credentials whose field rules differ never share an answer', async () => {
      const make = async (body: Record<string, unknown>) => {
        const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['search'], ops: ['read'], ...body } });
        return basic(res.json.credential.username, res.json.password);
      };
      const all = await make({});
      const noGenre = await make({ exclude_fields: ['genre'] });
      const a = await search(gw, { match_all: {} }, {}, all);
      await search(gw, { match_all: {} }, {}, all);
      const b = await search(gw, { match_all: {} }, {}, noGenre);
      expect(cached(b)).to.equal(false);
      expect(a.json.hits.hits[0]._source.genre).to.be.a('string');
      expect(b.json.hits.hits[0]._source.genre).to.equal(undefined);
    });

    it("a search of an app's index served from the cache never shows the gateway's type field, hit after hit", async () => {
      // app-addressed documents keep their type in the gateway's own field, which no answer shows
      await call(gw.url, 'PUT', '/shelf/novel/n1?refresh=true', { body: { title: 'Emma' } });
      await call(gw.url, 'PUT', '/shelf/poem/p1?refresh=true', { body: { title: 'Ode' } });
      const shelf = () => call(gw.url, 'POST', '/shelf/_search', { body: { query: { match_all: {} } } });
      const ids = (r: { json: { hits: { hits: Array<{ _id: string }> } } }) => r.json.hits.hits.map((h) => h._id).sort();
      const answers = [await shelf(), await shelf(), await shelf()];
      expect(answers.map(cached)).to.deep.equal([false, true, true]);
      for (const a of answers) {
        expect(a.text).not.to.include('_gateway_type');
        expect(ids(a)).to.deep.equal(['n1', 'p1']);
      }
      // a change drops the kept answer: the next one is the engine's, then kept and served again
      await call(gw.url, 'PUT', '/shelf/novel/n2?refresh=true', { body: { title: 'Persuasion' } });
      const changed = [await shelf(), await shelf()];
      expect(changed.map(cached)).to.deep.equal([false, true]);
      for (const a of changed) {
        expect(a.text).not.to.include('_gateway_type');
        expect(ids(a)).to.deep.equal(['n1', 'n2', 'p1']);
      }
    });

    it('POST /_cache/evict and DELETE /_cache/{index} drop answers', async () => {
      await search(gw);
      expect(cached(await search(gw))).to.equal(true);
      expect((await call(gw.url, 'DELETE', '/_cache/books')).status).to.equal(200);
      expect(cached(await search(gw))).to.equal(false);
      expect(cached(await search(gw))).to.equal(true);
      expect((await call(gw.url, 'POST', '/_cache/evict')).status).to.equal(200);
      expect(cached(await search(gw))).to.equal(false);
    });
  });
}

describe('search cache across gateway nodes (Redis)', function () {
  this.timeout(60_000);
  let nodes: TwoNodes;

  before(async function () {
    nodes = await startTwoNodes(this, 'gw-cache-engine-', { CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0' });
    await call(nodes.a.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(() => nodes?.stop());

  it("a write on node A drops node B's cached answer once B has the change", async () => {
    await search(nodes.b);
    await within(5_000, async () => cached(await search(nodes.b)));
    await call(nodes.a.url, 'PUT', '/books/_doc/2?refresh=true', { body: { title: 'Emma' } });
    await within(3_000, async () => ids(await search(nodes.b)).includes('2'));
  });
});
