import { expect } from 'chai';
import WebSocket from 'ws';
import { call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import type { TestGateway } from '../support/servers.js';
import { eventually, openStream, type OpenStream } from '../support/stream-client.js';

const json = (body: unknown) => ({ body });
const DASHBOARD = {
  size: 0,
  query: { range: { price: { gte: 0 } } },
  aggs: {
    by_cat: { terms: { field: 'cat' } },
    revenue: { sum: { field: 'price' } },
    avg_price: { avg: { field: 'price' } },
    prices: { histogram: { field: 'price', interval: 10 } },
    cheapest: { min: { field: 'price' } },
  },
};

/** The aggregation pushes of a stream: every message after the first that carries aggregations. */
const pushes = (s: OpenStream) => s.messages.slice(1).filter((m) => m.aggregations !== undefined);

for (const backend of BACKENDS) {
  describe(`aggregation streams (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let n = 0;
    /** A fresh index of a few priced products. */
    const shop = async () => {
      const index = `shop-${++n}`;
      await call(gw.url, 'PUT', `/${index}`, json({ mappings: { properties: { cat: { type: 'keyword' }, price: { type: 'double' }, name: { type: 'text' } } } }));
      await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, json({ cat: 'books', price: 12, name: 'dune' }));
      await call(gw.url, 'PUT', `/${index}/_doc/2?refresh=true`, json({ cat: 'games', price: 30, name: 'chess' }));
      return index;
    };
    /** What the engine answers the same search now: the state the last push must show. */
    const engineState = async (index: string, body: unknown) => {
      const r = await call(gw.url, 'POST', `/${index}/_search`, json(body));
      expect(r.status).to.equal(200);
      return { aggregations: r.json.aggregations, hits: { total: r.json.hits.total } };
    };
    const sameAsEngine = (index: string, body: unknown) => async (m: any[]) => {
      const last = m.filter((x) => x.aggregations !== undefined).at(-1);
      return last !== undefined && JSON.stringify(last) === JSON.stringify(await engineState(index, body));
    };
    /** Waits until the stream's last push equals the engine's answer (checked on every message). */
    const converges = async (s: OpenStream, index: string, body: unknown) => {
      const check = sameAsEngine(index, body);
      const deadline = Date.now() + 5_000;
      for (;;) {
        const seen = s.messages.length;
        if (await check(s.messages)) return;
        if (Date.now() > deadline) throw new Error(`no push equal to the engine's answer; pushes: ${JSON.stringify(pushes(s)).slice(0, 1500)}`);
        await s.until((m) => m.length > seen, Math.max(1, deadline - Date.now())).catch(() => {});
      }
    };
    /** Waits until no feed computes (every stream closed, its computation stopped). */
    const noFeeds = () => eventually(() => expect(gw.hub.aggregations.size, 'feeds still computing').to.equal(0));
    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ STREAM_AGG_INTERVAL_MS: '100' }));
    });
    after(() => stop());

    it('first the search result, then {aggregations, hits.total} as writes change them — no documents for size 0', async () => {
      const index = await shop();
      const s = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body: DASHBOARD });
      await s.until((m) => m.length === 1);
      expect(s.messages[0].aggregations.revenue.value).to.equal(42);
      expect(s.messages[0].hits.total).to.deep.equal({ value: 2, relation: 'eq' });

      await call(gw.url, 'PUT', `/${index}/_doc/3?refresh=true`, json({ cat: 'books', price: 8, name: 'emma' })); // enters
      await converges(s, index, DASHBOARD);
      expect(pushes(s).at(-1).aggregations.by_cat.buckets).to.deep.equal([{ key: 'books', doc_count: 2 }, { key: 'games', doc_count: 1 }]);
      expect(pushes(s).at(-1).aggregations.cheapest.value).to.equal(8);

      await call(gw.url, 'POST', `/${index}/_update/2?refresh=true`, json({ doc: { cat: 'books' } })); // moves between buckets
      await call(gw.url, 'DELETE', `/${index}/_doc/3?refresh=true`); // leaves: min recomputed after a delete
      await converges(s, index, DASHBOARD);
      const last = pushes(s).at(-1);
      expect(last.aggregations.by_cat.buckets).to.deep.equal([{ key: 'books', doc_count: 2 }]);
      expect(last.aggregations.cheapest.value).to.equal(12);
      expect(last.hits.total).to.deep.equal({ value: 2, relation: 'eq' });
      expect(Object.keys(last).sort()).to.deep.equal(['aggregations', 'hits']);
      // size 0 asks for no hits: no document entered or left the stream
      expect(s.messages.slice(1).every((m) => m.aggregations !== undefined)).to.equal(true);
      // never a push equal to the one before it
      const shown = [s.messages[0], ...pushes(s)].map((m) => JSON.stringify([m.aggregations, m.hits.total]));
      for (let i = 1; i < shown.length; i++) expect(shown[i]).not.to.equal(shown[i - 1]);
      s.close();
    });

    it('pushes are coalesced: at most one per STREAM_AGG_INTERVAL_MS, the last one exact', async () => {
      const index = await shop();
      const s = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body: DASHBOARD });
      await s.until((m) => m.length === 1);
      const t0 = Date.now();
      for (let i = 0; i < 30; i++) await call(gw.url, 'PUT', `/${index}/_doc/b${i}?refresh=true`, json({ cat: `c${i % 3}`, price: i }));
      await converges(s, index, DASHBOARD);
      const elapsed = Date.now() - t0;
      // 30 writes, each a change the dashboard sees; one push per 100 ms at most (+1: the leading one)
      expect(pushes(s).length).to.be.at.most(Math.ceil(elapsed / 100) + 1);
      expect(pushes(s).length).to.be.below(30);
      s.close();
    });

    it('a change the query does not match computes nothing; one that leaves it does', async () => {
      const index = await shop();
      const body = { size: 0, query: { term: { cat: 'books' } }, aggs: { revenue: { sum: { field: 'price' } } } };
      const s = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body });
      await s.until((m) => m.length === 1);
      const before = gw.hub.aggregations.computations;
      await call(gw.url, 'PUT', `/${index}/_doc/x?refresh=true`, json({ cat: 'games', price: 1000 })); // never matches
      await call(gw.url, 'POST', `/${index}/_update/1?refresh=true`, json({ doc: { cat: 'games' } })); // matched before: leaves
      await s.until((m) => pushes(s).length === 1);
      expect(pushes(s)[0]).to.deep.equal({ aggregations: { revenue: { value: 0 } }, hits: { total: { value: 0, relation: 'eq' } } });
      // the computations that ran were all for the departure: the unrelated write asked for none
      // (the HTTP backend computes a change once more when the engine has refreshed)
      const ran = gw.hub.aggregations.computations - before;
      expect(ran).to.be.within(1, gw.hub.config.visibleAfterMs > 0 ? 2 : 1);
      s.close();
    });

    it('a hundred browsers on one dashboard share one computation; another query has its own', async () => {
      const index = await shop();
      await noFeeds(); // the earlier tests' streams are gone, and their computations with them
      const streams = await Promise.all(Array.from({ length: 20 }, () => openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body: DASHBOARD })));
      await Promise.all(streams.map((s) => s.until((m) => m.length === 1)));
      const other = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body: { ...DASHBOARD, query: { term: { cat: 'games' } } } });
      await other.until((m) => m.length === 1);
      expect(gw.hub.aggregations.size).to.equal(2);
      const before = gw.hub.aggregations.computations;
      await call(gw.url, 'PUT', `/${index}/_doc/9?refresh=true`, json({ cat: 'games', price: 5 }));
      await Promise.all([...streams, other].map((s) => s.until(() => pushes(s).length === 1)));
      for (const s of streams) expect(pushes(s)[0]).to.deep.equal(pushes(streams[0])[0]);
      expect(pushes(other)[0].aggregations.revenue.value).to.equal(35);
      // one computation per distinct search (twice on an engine that refreshes later), not one per stream
      expect(gw.hub.aggregations.computations - before).to.be.within(2, 4);
      for (const s of [...streams, other]) s.close();
      await Promise.all([...streams, other].map((s) => s.ended));
      await noFeeds();
    });

    it('with size > 0 documents enter and leave as before, and the aggregations follow', async () => {
      const index = await shop();
      const body = { query: { term: { cat: 'games' } }, aggs: { revenue: { sum: { field: 'price' } } } };
      const s = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body });
      await s.until((m) => m.length === 1);
      expect(s.messages[0].hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
      await call(gw.url, 'PUT', `/${index}/_doc/7?refresh=true`, json({ cat: 'games', price: 70 }));
      await s.until((m) => m.some((x) => x._id === '7') && pushes(s).some((p) => p.aggregations.revenue.value === 100));
      s.close();
    });

    it('a deleted index ends the stream with its error; a bad aggregation is the request\'s error', async () => {
      const index = await shop();
      const s = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body: DASHBOARD });
      await s.until((m) => m.length === 1);
      await call(gw.url, 'DELETE', `/${index}`);
      await s.ended;
      expect(s.messages.at(-1).error.type).to.equal('index_not_found_exception');

      const other = await shop();
      const bad = await openStream(gw.url, `/${other}/_search?stream=true`, { method: 'POST', body: { size: 0, aggs: { x: { terms: { field: 'cat', size: -1 } } } } });
      await bad.ended;
      expect(bad.status).to.equal(400);
      expect(JSON.parse(bad.raw()).error).to.be.an('object');
    });

    it('the app style and the WebSocket carry the same pushes', async () => {
      const index = await shop();
      const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/${index}`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const frames: any[] = [];
      const arrived = (predicate: () => boolean) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`frames: ${JSON.stringify(frames).slice(0, 1500)}`)), 5_000);
          const check = () => predicate() && (clearTimeout(timer), ws.off('message', check), resolve());
          ws.on('message', check);
          check();
        });
      ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
      const auth = 'Basic ' + Buffer.from('admin:test-admin-password').toString('base64');
      ws.send(JSON.stringify({ id: 'dash', path: `${index}/_search`, method: 'POST', body: DASHBOARD, authorization: auth }));
      await arrived(() => frames.some((f) => f.body?.aggregations));
      await call(gw.url, 'PUT', `/${index}/_doc/3?refresh=true`, json({ cat: 'toys', price: 3 }));
      await arrived(() => frames.some((f) => f.event?.aggregations?.revenue.value === 45));
      ws.close();
    });
  });
}
