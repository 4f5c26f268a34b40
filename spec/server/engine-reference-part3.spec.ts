import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { openStream } from '../support/stream-client.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Through the gateway, on both backends: range fields and span queries (searched, and matched by
 * live search streams), and OpenSearch's point in time API.
 */
for (const backend of BACKENDS) {
  describe(`gateway (${backend.name}): range fields, span queries, OpenSearch points in time`, () => {
    let gateway: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway, stop } = await backend.start());
      const r = await call(gateway.url, 'PUT', '/events', {
        body: { mappings: { properties: { span: { type: 'integer_range' }, when: { type: 'date_range' }, text: { type: 'text' } } } },
      });
      expect(r.status, r.text).to.equal(200);
      for (const [id, doc] of Object.entries({
        1: { span: { gte: 1, lte: 5 }, when: { gte: '2017-09-01', lte: '2017-09-05' }, text: 'the quick brown fox' },
        2: { span: { gte: 4, lte: 9 }, when: { gte: '2017-09-04', lte: '2017-09-09' }, text: 'quick fox' },
      })) {
        const w = await call(gateway.url, 'PUT', `/events/_doc/${id}?refresh=true`, { body: doc });
        expect(w.status, w.text).to.equal(201);
      }
    });
    after(() => stop());

    const ids = async (query: unknown) => {
      const r = await call(gateway.url, 'POST', '/events/_search', { body: { query } });
      expect(r.status, r.text).to.equal(200);
      return (r.json.hits.hits as Array<{ _id: string }>).map((h) => h._id).sort();
    };

    it('searches range fields by relation and span queries', async () => {
      expect(await ids({ range: { span: { gte: 5, lte: 5 } } })).to.deep.equal(['1', '2']);
      expect(await ids({ range: { span: { gte: 2, lte: 3, relation: 'within' } } })).to.deep.equal([]);
      expect(await ids({ range: { span: { gte: 2, lte: 3, relation: 'contains' } } })).to.deep.equal(['1']);
      expect(await ids({ term: { when: '2017-09-08' } })).to.deep.equal(['2']);
      expect(await ids({ span_near: { clauses: [{ span_term: { text: 'quick' } }, { span_term: { text: 'fox' } }], slop: 0, in_order: true } })).to.deep.equal(['2']);
      expect(await ids({ span_first: { match: { span_term: { text: 'quick' } }, end: 1 } })).to.deep.equal(['2']);
    });

    it('a live search stream over a span query and a range relation pushes the matching change only', async () => {
      const query = {
        bool: {
          must: [{ span_near: { clauses: [{ span_term: { text: 'lazy' } }, { span_term: { text: 'dog' } }], slop: 1, in_order: true } }],
          filter: [{ range: { span: { gte: 20, lte: 30, relation: 'intersects' } } }],
        },
      };
      const stream = await openStream(gateway.url, '/events/_search?stream=true', { method: 'POST', body: { query } });
      try {
        await stream.live;
        await call(gateway.url, 'PUT', '/events/_doc/3', { body: { span: { gte: 25, lte: 40 }, text: 'the lazy brown dog' } });
        await call(gateway.url, 'PUT', '/events/_doc/4', { body: { span: { gte: 31, lte: 40 }, text: 'the lazy dog' } });
        await call(gateway.url, 'PUT', '/events/_doc/5', { body: { span: { gte: 25, lte: 40 }, text: 'dog lazy' } });
        await call(gateway.url, 'PUT', '/events/_doc/6', { body: { span: { gte: 10, lte: 20 }, text: 'lazy dog' } });
        const messages = await stream.until((m) => m.some((x) => x._id === '6'));
        expect(messages.filter((m) => m._id !== undefined).map((m) => m._id)).to.deep.equal(['3', '6']);
      } finally {
        stream.close();
      }
    });

    it('a live search on _routing (not in the changed source) is decided by the engine', async () => {
      const stream = await openStream(gateway.url, '/events/_search?stream=true', { method: 'POST', body: { query: { term: { _routing: 'r1' } } } });
      try {
        await stream.live;
        await call(gateway.url, 'PUT', '/events/_doc/7?routing=r2', { body: { text: 'other route' } });
        await call(gateway.url, 'PUT', '/events/_doc/8?routing=r1', { body: { text: 'routed' } });
        const messages = await stream.until((m) => m.some((x) => x._id === '8'));
        expect(messages.filter((m) => m._id !== undefined).map((m) => m._id)).to.deep.equal(['8']);
      } finally {
        stream.close();
      }
    });

    it('OpenSearch points in time: create, search with, list, delete', async () => {
      const created = await call(gateway.url, 'POST', '/events/_search/point_in_time?keep_alive=1m');
      expect(created.status, created.text).to.equal(200);
      expect(created.json).to.have.keys(['pit_id', '_shards', 'creation_time']);
      const pitId = created.json.pit_id as string;
      const searched = await call(gateway.url, 'POST', '/_search', { body: { pit: { id: pitId, keep_alive: '1m' }, size: 0 } });
      expect(searched.status, searched.text).to.equal(200);
      const listed = await call(gateway.url, 'GET', '/_search/point_in_time/_all');
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.json.pits.map((p: { pit_id: string }) => p.pit_id)).to.include(pitId);
      const deleted = await call(gateway.url, 'DELETE', '/_search/point_in_time', { body: { pit_id: [pitId] } });
      expect(deleted.json).to.deep.equal({ pits: [{ successful: true, pit_id: pitId }] });
      expect((await call(gateway.url, 'GET', '/_search/point_in_time/_all')).json.pits).to.deep.equal([]);
    });
  });
}
