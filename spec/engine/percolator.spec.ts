import { expect } from 'chai';
import { basic, call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { openStream } from '../support/stream-client.js';
import type { TestGateway } from '../support/servers.js';
import { matchScope, parseQuery } from '../../lib/engine/embedded/search/query/index.js';

/**
 * The percolator module (Elasticsearch 8.15 reference, "Percolator field type" and "Percolate
 * query"): a `percolator` field stores a query checked against the index's mappings when indexed;
 * the `percolate` query finds the stored queries that match given documents, or a document fetched
 * by `index`/`id` — a read of that index, which a scoped credential must be allowed.
 */
for (const backend of BACKENDS) {
  describe(`percolator (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: (() => Promise<void>) | undefined;
    const admin = (method: string, path: string, body?: unknown) => call(gw.url, method, path, { body });
    const search = async (body: unknown, index = 'alerts') => {
      const res = await admin('POST', `/${index}/_search`, body);
      expect(res.status, res.text).to.equal(200);
      return res.json.hits as { total: { value: number }; hits: Array<{ _id: string; _score: number | null; _source: unknown; fields?: Record<string, unknown[]> }> };
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const created = await admin('PUT', '/alerts', { mappings: { properties: { query: { type: 'percolator' }, message: { type: 'text' }, level: { type: 'keyword' }, size: { type: 'integer' } } } });
      expect(created.status, created.text).to.equal(200);
      expect((await admin('PUT', '/logs', { mappings: { properties: { message: { type: 'text' }, level: { type: 'keyword' } } } })).status).to.equal(200);
      const stored: Record<string, unknown> = {
        errors: { term: { level: 'error' } },
        disk: { match: { message: 'disk full' } },
        big: { bool: { filter: [{ range: { size: { gte: 100, _name: 'big' } } }, { term: { level: { value: 'error', _name: 'is_error' } } }] } },
      };
      for (const [id, query] of Object.entries(stored)) {
        const res = await admin('PUT', `/alerts/_doc/${id}`, { query });
        expect(res.status, res.text).to.equal(201);
      }
      await admin('PUT', '/logs/_doc/l1', { message: 'the disk is full', level: 'warn' });
      await admin('POST', '/alerts,logs/_refresh');
    });
    after(() => stop?.());

    it('keeps the stored query in _source as written', async () => {
      const res = await admin('GET', '/alerts/_doc/big');
      expect(res.json._source).to.deep.equal({ query: { bool: { filter: [{ range: { size: { gte: 100, _name: 'big' } } }, { term: { level: { value: 'error', _name: 'is_error' } } }] } } });
    });

    it('refuses a stored query naming an unmapped field, or one that does not parse', async () => {
      const unmapped = await admin('PUT', '/alerts/_doc/bad', { query: { term: { nowhere: 'x' } } });
      expect(unmapped.status).to.equal(400);
      expect(unmapped.json.error.type).to.equal('document_parsing_exception');
      expect(unmapped.json.error.caused_by).to.include({ type: 'query_shard_exception', reason: 'No field mapping can be found for the field with name [nowhere]' });
      const unknown = await admin('PUT', '/alerts/_doc/bad', { query: { no_such_query: {} } });
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error.caused_by.type).to.equal('parsing_exception');
      expect((await admin('PUT', '/alerts/_doc/bad', { query: 'level:error' })).status).to.equal(400);
      expect((await admin('GET', '/alerts/_doc/bad')).status).to.equal(404);
    });

    it('finds the stored queries a document matches, with the slot it matched', async () => {
      const hits = await search({ query: { percolate: { field: 'query', document: { level: 'error', message: 'disk full', size: 5 } } } });
      expect(hits.hits.map((h) => h._id).sort()).to.deep.equal(['disk', 'errors']);
      for (const h of hits.hits) expect(h.fields?._percolator_document_slot).to.deep.equal([0]);
      expect((await search({ query: { percolate: { field: 'query', document: { level: 'info' } } } })).total.value).to.equal(0);
    });

    it('numbers the slots of several documents, and lists the named queries each one matched', async () => {
      const hits = await search({ query: { percolate: { field: 'query', documents: [{ level: 'warn' }, { level: 'error', size: 500 }, { level: 'error', size: 1 }] } } });
      const byId = Object.fromEntries(hits.hits.map((h) => [h._id, h.fields]));
      expect(Object.keys(byId).sort()).to.deep.equal(['big', 'errors']);
      expect(byId.errors!._percolator_document_slot).to.deep.equal([1, 2]);
      expect(byId.big).to.deep.equal({ _percolator_document_slot: [1], _percolator_document_slot_1_matched_queries: ['big', 'is_error'] });
    });

    it('highlights the percolated documents by the stored query, a field prefixed by its slot when several are percolated', async () => {
      const one = await search({ query: { percolate: { field: 'query', document: { message: 'my disk is full' } } }, highlight: { fields: { message: {} } } });
      expect(one.hits.map((h) => [h._id, (h as { highlight?: unknown }).highlight])).to.deep.equal([['disk', { message: ['my <em>disk</em> is <em>full</em>'] }]]);
      const two = await search({ query: { percolate: { field: 'query', documents: [{ message: 'ok' }, { message: 'full disk' }] } }, highlight: { fields: { message: {} } } });
      expect((two.hits[0] as { highlight?: unknown }).highlight).to.deep.equal({ '1_message': ['<em>full</em> <em>disk</em>'] });
    });

    it('scores as the stored query scores the document; constant in a filter context', async () => {
      const scored = await search({ query: { percolate: { field: 'query', document: { level: 'error', message: 'disk full', size: 500 } } } });
      expect(scored.hits[0]._id).to.equal('disk');
      expect(scored.hits[0]._score).to.be.greaterThan(scored.hits[2]._score!);
      expect(scored.hits.find((h) => h._id === 'big')!._score).to.equal(0);
      const filtered = await search({ query: { constant_score: { filter: { percolate: { field: 'query', document: { level: 'error' } } } } } });
      expect(filtered.hits.map((h) => [h._id, h._score])).to.deep.equal([['errors', 1]]);
      const inBool = await search({ query: { bool: { filter: [{ percolate: { field: 'query', document: { level: 'error', size: 200 } } }], must_not: [{ ids: { values: ['errors'] } }] } } });
      expect(inBool.hits.map((h) => h._id)).to.deep.equal(['big']);
    });

    it('percolates a document fetched by index and id (and version); a missing one is resource_not_found_exception', async () => {
      const hits = await search({ query: { percolate: { field: 'query', index: 'logs', id: 'l1' } } });
      expect(hits.hits.map((h) => h._id)).to.deep.equal(['disk']);
      const missing = await admin('POST', '/alerts/_search', { query: { percolate: { field: 'query', index: 'logs', id: 'nope' } } });
      expect(missing.status).to.equal(404);
      expect(missing.json.error).to.include({ type: 'resource_not_found_exception', reason: 'indexed document [logs/nope] couldn\'t be found' });
      // `version`: the document's must be that one
      expect((await search({ query: { percolate: { field: 'query', index: 'logs', id: 'l1', version: 1 } } })).total.value).to.equal(1);
      const stale = await admin('POST', '/alerts/_search', { query: { percolate: { field: 'query', index: 'logs', id: 'l1', version: 2 } } });
      expect(stale.status).to.equal(409);
      expect(stale.json.error.type).to.equal('version_conflict_engine_exception');
    });

    it('refuses a field that is not a percolator, and a query without a document', async () => {
      const wrong = await admin('POST', '/alerts/_search', { query: { percolate: { field: 'level', document: { level: 'x' } } } });
      expect(wrong.status).to.equal(400);
      expect(JSON.stringify(wrong.json.error)).to.contain('expected field [level] to be of type [percolator], but is of type [keyword]');
      expect((await admin('POST', '/alerts/_search', { query: { percolate: { field: 'query' } } })).status).to.equal(400);
      // an index without the field answers nothing beside one that has it; alone, it fails the search
      expect((await search({ query: { percolate: { field: 'query', document: { level: 'error' } } } }, 'alerts,logs')).total.value).to.equal(1);
      const none = await admin('POST', '/logs/_search', { query: { percolate: { field: 'query', document: { level: 'error' } } } });
      expect(none.status).to.equal(400);
      expect(JSON.stringify(none.json.error)).to.contain('field [query] does not exist');
      expect((await admin('POST', '/alerts/_search', { query: { percolate: { document: {} } } })).status).to.equal(400);
    });

    it('a search stream tells a stored query that comes to match, and one that goes', async () => {
      const body = { query: { percolate: { field: 'query', document: { level: 'critical' } } } };
      const stream = await openStream(gw.url, '/alerts/_search?stream=true', { method: 'POST', body });
      try {
        await stream.live;
        expect((await admin('PUT', '/alerts/_doc/critical?refresh=true', { query: { term: { level: 'critical' } } })).status).to.equal(201);
        await stream.until((m) => m.some((x) => x._id === 'critical' && x._deleted !== true), 20_000);
        expect((await admin('DELETE', '/alerts/_doc/critical?refresh=true')).status).to.equal(200);
        await stream.until((m) => m.some((x) => x._id === 'critical' && x._deleted === true), 20_000);
      } finally {
        stream.close();
      }
    });

    it('a scoped credential cannot percolate a document of an index it cannot read', async () => {
      const cred = await admin('POST', '/_credentials', { indices: ['alerts'], categories: ['docs', 'search'], ops: ['read'] });
      expect(cred.status, cred.text).to.equal(201);
      const auth = basic(cred.json.credential.username, cred.json.password);
      const foreign = await call(gw.url, 'POST', '/alerts/_search', { auth, body: { query: { percolate: { field: 'query', index: 'logs', id: 'l1' } } } });
      expect(foreign.status, foreign.text).to.equal(403);
      expect(foreign.json.error.type).to.equal('security_exception');
      expect(foreign.text).not.to.contain('disk');
      const inBool = await call(gw.url, 'POST', '/alerts/_search', { auth, body: { query: { bool: { filter: { percolate: { field: 'query', index: 'logs', id: 'l1' } } } } } });
      expect(inBool.status, inBool.text).to.equal(403);
      // every other way to name the index, and every other place a query may sit
      const perc = (index: string) => ({ percolate: { field: 'query', index, id: 'l1' } });
      const probes: Array<[string, string, unknown]> = [];
      for (const index of ['logs', 'l*', '*', '_all', 'alerts,logs', '<logs>']) probes.push(['POST', '/alerts/_search', { query: perc(index) }]);
      probes.push(
        ['POST', '/alerts/_search', '{"query":{"percolate":{"field":"query","index":"alerts","index":"logs","id":"l1"}}}'],
        ['POST', '/alerts/_search', { post_filter: perc('logs') }],
        ['POST', '/alerts/_search', { aggs: { f: { filter: perc('logs') } } }],
        ['POST', '/alerts/_count', { query: perc('logs') }],
        ['POST', '/alerts/_msearch', '{}\n' + JSON.stringify({ query: perc('logs') }) + '\n'],
      );
      for (const [method, path, body] of probes) {
        const headers = path.includes('_msearch') || typeof body === 'string' ? { 'content-type': path.includes('_msearch') ? 'application/x-ndjson' : 'application/json' } : undefined;
        const res = await call(gw.url, method, path, { auth, body, headers });
        const where = `${path} ${JSON.stringify(body)}: ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, where).to.be.oneOf([400, 403]);
        expect(res.json?.error?.type, where).to.be.a('string');
      }
      // its own index, and a document given in the request, are answered
      const own = await call(gw.url, 'POST', '/alerts/_search', { auth, body: { query: { percolate: { field: 'query', index: 'alerts', id: 'errors' } } } });
      expect(own.status, own.text).to.equal(200);
      const given = await call(gw.url, 'POST', '/alerts/_search', { auth, body: { query: { percolate: { field: 'query', document: { level: 'error' } } } } });
      expect(given.status, given.text).to.equal(200);
      expect(given.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['errors']);
    });
  });
}

describe('percolate query in live searches', () => {
  it('is decided by the index (its stored queries), not by the one-document matcher', () => {
    expect(matchScope(parseQuery({ percolate: { field: 'query', document: { a: 1 } } }))).to.equal('index');
    expect(matchScope(parseQuery({ bool: { filter: [{ percolate: { field: 'query', document: { a: 1 } } }] } }))).to.equal('index');
  });
});
