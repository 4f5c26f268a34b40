import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import type { TestGateway } from '../support/servers.js';
import { eventually, openStream, type OpenStream } from '../support/stream-client.js';

const json = (body: unknown) => ({ body });

/** A small search UI: a search box, a facet and a price range, each reacting to the others. */
const UI = {
  query: [
    { id: 'search', dataField: ['name'], value: 'dune', size: 5, react: { and: ['facet', 'price'] } },
    { id: 'facet', type: 'term', dataField: 'cat', react: { and: ['search'] } },
    { id: 'price', type: 'range', dataField: 'price', value: { start: 0, end: 100 }, react: { and: ['search'] } },
  ],
};

/** The pushes of a live UI after its first answer. */
const pushes = (s: OpenStream) => s.messages.slice(1);

for (const backend of BACKENDS) {
  describe(`live declarative UIs (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let n = 0;
    const shop = async () => {
      const index = `ui-${++n}`;
      await call(gw.url, 'PUT', `/${index}`, json({ mappings: { properties: { cat: { type: 'keyword' }, price: { type: 'double' }, name: { type: 'text' } } } }));
      await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, json({ cat: 'novel', price: 10, name: 'dune' }));
      await call(gw.url, 'PUT', `/${index}/_doc/2?refresh=true`, json({ cat: 'novel', price: 20, name: 'emma' }));
      return index;
    };
    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ STREAM_AGG_INTERVAL_MS: '50' }));
    });
    after(() => stop());

    it('first the declarative answer, then per component what a change altered', async () => {
      const index = await shop();
      const plain = await call(gw.url, 'POST', `/${index}/_declarative`, json(UI));
      const s = await openStream(gw.url, `/${index}/_declarative?stream=true`, { method: 'POST', body: UI });
      expect(s.status).to.equal(200);
      await s.until((m) => m.length === 1);
      const first = s.messages[0];
      for (const id of ['search', 'facet', 'price']) expect(first[id].hits.total).to.deep.equal(plain.json[id].hits.total);
      expect(first.search.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);

      // an unrelated document (no "dune"): the search and what reacts to it are unchanged — then a related one
      await call(gw.url, 'PUT', `/${index}/_doc/3?refresh=true`, json({ cat: 'poem', price: 5, name: 'ode' }));
      await call(gw.url, 'PUT', `/${index}/_doc/4?refresh=true`, json({ cat: 'saga', price: 30, name: 'dune messiah' }));
      await s.until(() => pushes(s).some((p) => p.search?.hits.hits.some((h: { _id: string }) => h._id === '4')));
      const entered = pushes(s).find((p) => p.search?.hits.hits.some((h: { _id: string }) => h._id === '4'));
      expect(entered.search.hits.total).to.deep.equal({ value: 2, relation: 'eq' });
      expect(entered.search.hits.hits).to.have.length(1);
      expect(entered.search.hits.hits[0]._source).to.deep.equal({ cat: 'saga', price: 30, name: 'dune messiah' });
      expect(entered.facet.aggregations.cat.buckets).to.deep.equal([{ key: 'novel', doc_count: 1 }, { key: 'saga', doc_count: 1 }]);
      // nothing of the "ode" write was pushed: every push concerns "dune" documents
      for (const p of pushes(s)) expect(JSON.stringify(p)).not.to.contain('ode');

      // an update of a shown hit, and a hit that leaves
      await call(gw.url, 'POST', `/${index}/_update/4?refresh=true`, json({ doc: { price: 31 } }));
      await s.until(() => pushes(s).some((p) => p.search?.hits.hits.some((h: { _updated?: boolean }) => h._updated)));
      await call(gw.url, 'POST', `/${index}/_update/1?refresh=true`, json({ doc: { name: 'arrakis' } }));
      await s.until(() => pushes(s).some((p) => p.search?.hits.hits.some((h: { _id: string; _deleted?: boolean }) => h._id === '1' && h._deleted)));
      const left = pushes(s).at(-1);
      expect(left.search.hits.hits).to.deep.equal([{ _index: index, _id: '1', _deleted: true }]);
      expect(left.facet.aggregations.cat.buckets).to.deep.equal([{ key: 'saga', doc_count: 1 }]);
      // the last state the client holds is the plain answer's
      const now = await call(gw.url, 'POST', `/${index}/_declarative`, json(UI));
      expect(now.json.facet.aggregations).to.deep.equal(left.facet.aggregations);
      expect(now.json.search.hits.total).to.deep.equal(left.search.hits.total);
      s.close();
    });

    it('UIs asking the same share one computation; each is told what differs from what it showed', async () => {
      const index = await shop();
      const uis = await Promise.all(Array.from({ length: 10 }, () => openStream(gw.url, `/${index}/_declarative?stream=true`, { method: 'POST', body: UI })));
      await Promise.all(uis.map((s) => s.until((m) => m.length === 1)));
      expect(gw.hub.declaratives.size).to.equal(1);
      const before = gw.hub.declaratives.computations;
      await call(gw.url, 'PUT', `/${index}/_doc/5?refresh=true`, json({ cat: 'saga', price: 7, name: 'dune' }));
      await Promise.all(uis.map((s) => s.until(() => pushes(s).length === 1)));
      for (const s of uis) expect(pushes(s)[0]).to.deep.equal(pushes(uis[0])[0]);
      // one computation for the ten (twice on an engine that shows writes at its next refresh)
      expect(gw.hub.declaratives.computations - before).to.be.within(1, gw.hub.config.visibleAfterMs > 0 ? 2 : 1);
      for (const s of uis) s.close();
      await Promise.all(uis.map((s) => s.ended));
      await eventually(() => expect(gw.hub.declaratives.size, 'shared computations still running').to.equal(0));
    });

    it('SSE carries the live marker; the request is refused before any stream when it is bad or not allowed', async () => {
      const index = await shop();
      const sse = await openStream(gw.url, `/${index}/_declarative?stream=true`, { method: 'POST', body: UI, accept: 'text/event-stream' });
      await sse.until(() => sse.raw().includes(':live'));
      expect(sse.messages[0].data.search.hits.total.value).to.equal(1);
      sse.close();

      const bad = await openStream(gw.url, `/${index}/_declarative?stream=true`, { method: 'POST', body: { query: [{ id: 'x', type: 'nope' }] } });
      await bad.ended;
      expect(bad.status).to.equal(400);

      const made = await call(gw.url, 'POST', '/_credentials', json({ indices: [index], categories: ['declarative'], ops: ['read'] }));
      expect(made.status, made.text).to.equal(201);
      const scoped = basic(made.json.credential.username, made.json.password);
      const other = await shop();
      const refused = await openStream(gw.url, `/${other}/_declarative?stream=true`, { method: 'POST', body: UI, auth: scoped });
      await refused.ended;
      expect(refused.status).to.equal(403);
      const allowed = await openStream(gw.url, `/${index}/_declarative?stream=true`, { method: 'POST', body: UI, auth: scoped });
      await allowed.until((m) => m.length === 1);
      await call(gw.url, 'PUT', `/${other}/_doc/9?refresh=true`, json({ cat: 'x', price: 1, name: 'dune' })); // another tenant's index: not followed
      await call(gw.url, 'PUT', `/${index}/_doc/9?refresh=true`, json({ cat: 'y', price: 1, name: 'dune' }));
      await allowed.until(() => pushes(allowed).length >= 1);
      for (const p of pushes(allowed)) expect(p.search.hits.hits.every((h: { _index: string }) => h._index === index)).to.equal(true);
      allowed.close();
    });
  });
}
