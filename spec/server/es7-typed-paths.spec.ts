import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { BACKENDS } from '../support/backends.js';
import { basic, call, NDJSON } from '../support/http.js';
import { isResolutionLookup, leaksIn, startRecordingUpstream, type RecordingUpstream } from '../support/recording-upstream.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

const nd = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const ids = (res: { json: { hits: { hits: Array<{ _id: string }> } } }) => res.json.hits.hits.map((h) => h._id).sort();

/** The headers appbase-js 5 sends with every call (`X-Enable-Telemetry` when telemetry is off). */
const APPBASE_HEADERS = { accept: 'application/json', 'x-search-client': 'Appbase%20JS', 'x-enable-telemetry': 'false' };

for (const backend of BACKENDS) {
  describe(`Elasticsearch 7 typed paths with \`_doc\` (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const created = await call(gw.url, 'PUT', '/books', { body: { mappings: { properties: { title: { type: 'text' }, year: { type: 'integer' } } } } });
      expect(created.status, created.text).to.equal(200);
      await call(gw.url, 'PUT', '/books/_doc/1', { body: { title: 'Dune', year: 1965 } });
      await call(gw.url, 'PUT', '/books/_doc/2?refresh=true', { body: { title: 'Emma', year: 1815 } });
    });
    after(() => stop());

    it('POST and GET /{index}/_doc/_search search (and index no document whose id is `_search`)', async () => {
      const post = await call(gw.url, 'POST', '/books/_doc/_search', { body: { query: { match: { title: 'dune' } } } });
      expect(post.status, post.text).to.equal(200);
      expect(ids(post)).to.deep.equal(['1']);
      expect(post.json.hits.hits[0]._type).to.equal('_doc');
      const get = await call(gw.url, 'GET', '/books/_doc/_search?q=title:emma');
      expect(get.status, get.text).to.equal(200);
      expect(ids(get)).to.deep.equal(['2']);
      const all = await call(gw.url, 'GET', '/books/_doc/_search', { body: { query: { match_all: {} } } });
      expect(ids(all)).to.deep.equal(['1', '2']);
      expect((await call(gw.url, 'GET', '/books/_source/_search')).status).to.equal(404);
      expect((await call(gw.url, 'GET', '/books/_count')).json.count).to.equal(2);
    });

    it('_count and _validate/query', async () => {
      const count = await call(gw.url, 'POST', '/books/_doc/_count', { body: { query: { range: { year: { lt: 1900 } } } } });
      expect(count.status, count.text).to.equal(200);
      expect(count.json.count).to.equal(1);
      expect((await call(gw.url, 'GET', '/books/_doc/_count')).json.count).to.equal(2);
      const valid = await call(gw.url, 'POST', '/books/_doc/_validate/query', { body: { query: { match: { title: 'dune' } } } });
      expect(valid.status, valid.text).to.equal(200);
      expect(valid.json.valid).to.equal(true);
      const invalid = await call(gw.url, 'POST', '/books/_doc/_validate/query', { body: { query: { no_such_query: {} } } });
      expect(invalid.json.valid).to.equal(false);
    });

    it('_msearch, _mget and _bulk', async () => {
      const ms = await call(gw.url, 'POST', '/books/_doc/_msearch', { body: nd({}, { query: { match: { title: 'emma' } } }, {}, { size: 0 }), headers: NDJSON });
      expect(ms.status, ms.text).to.equal(200);
      expect(ms.json.responses.map((r: { hits: { total: { value: number } } }) => r.hits.total.value)).to.deep.equal([1, 2]);
      const mget = await call(gw.url, 'POST', '/books/_doc/_mget', { body: { ids: ['1', 'nope'] } });
      expect(mget.status, mget.text).to.equal(200);
      expect(mget.json.docs.map((d: { found: boolean }) => d.found)).to.deep.equal([true, false]);
      const bulk = await call(gw.url, 'POST', '/books/_doc/_bulk?refresh=true', {
        body: nd({ index: { _id: 'b1' } }, { title: 'Ulysses', year: 1922 }, { delete: { _id: 'b1' } }), headers: NDJSON,
      });
      expect(bulk.status, bulk.text).to.equal(200);
      expect(bulk.json.errors).to.equal(false);
      expect(bulk.json.items.map((i: Record<string, { status: number }>) => Object.values(i)[0].status)).to.deep.equal([201, 200]);
    });

    it('POST /{index}/_doc/{id}/_update takes doc, doc_as_upsert and upsert, as the update API does', async () => {
      const partial = await call(gw.url, 'POST', '/books/_doc/1/_update?refresh=true', { body: { doc: { pages: 412 } } });
      expect(partial.status, partial.text).to.equal(200);
      expect(partial.json).to.include({ _id: '1', result: 'updated' });
      expect((await call(gw.url, 'GET', '/books/_doc/1')).json._source).to.deep.equal({ title: 'Dune', year: 1965, pages: 412 });
      const upserted = await call(gw.url, 'POST', '/books/_doc/3/_update', { body: { doc: { title: 'Middlemarch' }, doc_as_upsert: true } });
      expect(upserted.status, upserted.text).to.equal(201);
      expect(upserted.json.result).to.equal('created');
      const inserted = await call(gw.url, 'POST', '/books/_doc/4/_update', { body: { doc: { year: 1 }, upsert: { title: 'Beloved', year: 1987 } } });
      expect(inserted.status, inserted.text).to.equal(201);
      expect((await call(gw.url, 'GET', '/books/_doc/4')).json._source).to.deep.equal({ title: 'Beloved', year: 1987 });
      const missing = await call(gw.url, 'POST', '/books/_doc/nope/_update', { body: { doc: { a: 1 } } });
      expect(missing.status).to.equal(404);
      expect(missing.json.error.type).to.equal('document_missing_exception');
      await call(gw.url, 'DELETE', '/books/_doc/3');
      await call(gw.url, 'DELETE', '/books/_doc/4?refresh=true');
    });

    it('GET /{index}/_doc/{id}/_source answers the source itself', async () => {
      const src = await call(gw.url, 'GET', '/books/_doc/2/_source');
      expect(src.status, src.text).to.equal(200);
      expect(src.json).to.deep.equal({ title: 'Emma', year: 1815 });
      expect((await call(gw.url, 'GET', '/books/_doc/nope/_source')).status).to.equal(404);
      expect((await call(gw.url, 'HEAD', '/books/_doc/2/_source')).status).to.equal(200);
    });

    it('/{index}/_mapping/_doc: PUT adds fields, GET answers typeless, or typed with include_type_name=true', async () => {
      const put = await call(gw.url, 'PUT', '/books/_mapping/_doc', { body: { properties: { author: { type: 'keyword' } } } });
      expect(put.status, put.text).to.equal(200);
      expect(put.json.acknowledged).to.equal(true);
      const putTyped = await call(gw.url, 'PUT', '/books/_doc/_mapping?include_type_name=true', { body: { properties: { isbn: { type: 'keyword' } } } });
      expect(putTyped.status, putTyped.text).to.equal(200);
      const get = await call(gw.url, 'GET', '/books/_mapping/_doc');
      expect(get.status, get.text).to.equal(200);
      expect(get.json.books.mappings.properties).to.include.keys('title', 'author', 'isbn');
      const typed = await call(gw.url, 'GET', '/books/_mapping/_doc?include_type_name=true', { headers: { 'accept-encoding': 'gzip' } });
      expect(typed.status, typed.text).to.equal(200);
      expect(typed.json.books.mappings._doc.properties.author).to.deep.equal({ type: 'keyword' });
      const field = await call(gw.url, 'GET', '/books/_mapping/_doc/field/author');
      expect(field.json.books.mappings.author.mapping).to.deep.equal({ author: { type: 'keyword' } });
    });

    it('a live search on a typed path streams as its Elasticsearch 8 form does, and a typed update is a change', async () => {
      const s = await openStream(gw.url, '/books/_doc/_search?stream=true', { method: 'POST', body: { query: { match: { title: 'emma' } } } });
      try {
        expect(s.status).to.equal(200);
        await s.until((m) => m.length === 1);
        expect(s.messages[0].hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
        const updated = await call(gw.url, 'POST', '/books/_doc/2/_update', { body: { doc: { year: 1816 } } });
        expect(updated.status, updated.text).to.equal(200);
        await s.until((m) => m.length === 2);
        expect(s.messages[1]).to.deep.include({ _id: '2', _updated: true });
        expect(s.messages[1]._source.year).to.equal(1816);
      } finally {
        s.close();
        await call(gw.url, 'POST', '/books/_update/2?refresh=true', { body: { doc: { year: 1815 } } });
      }
    });

    it('the calls appbase-js 5 makes, with its headers', async () => {
      const h = APPBASE_HEADERS;
      const json = { ...h, 'content-type': 'application/json' };
      const indexed = await call(gw.url, 'POST', '/books/_doc/ab1?refresh=true', { body: { title: 'Persuasion', year: 1817 }, headers: json });
      expect(indexed.status, indexed.text).to.equal(201);
      expect((await call(gw.url, 'GET', '/books/_doc/ab1', { headers: h })).json._source.title).to.equal('Persuasion');
      const updated = await call(gw.url, 'POST', '/books/_doc/ab1/_update?refresh=true', { body: { doc: { year: 1818 } }, headers: json });
      expect(updated.status, updated.text).to.equal(200);
      const searched = await call(gw.url, 'POST', '/books/_doc/_search', { body: { query: { term: { year: 1818 } } }, headers: json });
      expect(ids(searched)).to.deep.equal(['ab1']);
      const ms = await call(gw.url, 'POST', '/books/_doc/_msearch', { body: nd({}, { query: { term: { year: 1818 } } }), headers: { ...h, ...NDJSON } });
      expect(ms.json.responses[0].hits.total.value).to.equal(1);
      const bulk = await call(gw.url, 'POST', '/books/_doc/_bulk?refresh=true', { body: nd({ delete: { _id: 'ab1' } }), headers: { ...h, ...NDJSON } });
      expect(bulk.json.errors).to.equal(false);
      const mappings = await call(gw.url, 'GET', '/books/_mapping', { headers: h });
      expect(mappings.json.books.mappings.properties).to.include.keys('title');
      expect((await call(gw.url, 'DELETE', '/books/_doc/ab1', { headers: h })).status).to.equal(404);
    });

    it('the official client, calling the typed paths itself', async () => {
      const client = new Client({ node: gw.url, auth: { username: ADMIN.user, password: ADMIN.password } });
      try {
        const res = await client.transport.request<{ hits: { hits: Array<{ _id: string }> } }>({
          method: 'POST', path: '/books/_doc/_search', body: { query: { match: { title: 'emma' } } },
        });
        expect(res.hits.hits.map((x) => x._id)).to.deep.equal(['2']);
        const count = await client.transport.request<{ count: number }>({ method: 'GET', path: '/books/_doc/_count' });
        expect(count.count).to.equal(2);
        const src = await client.transport.request<Record<string, unknown>>({ method: 'GET', path: '/books/_doc/1/_source' });
        expect(src.title).to.equal('Dune');
      } finally {
        await client.close();
      }
    });

    it('on a registered app, `_doc` is the typeless API: its search sees every document, whatever its app-style type', async () => {
      expect((await call(gw.url, 'PUT', '/_apps/shop')).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/shop/product/p1', { body: { name: 'shoe' } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/shop/_doc/d1?refresh=true', { body: { name: 'hat' } })).status).to.equal(201);
      const typeless = await call(gw.url, 'POST', '/shop/_doc/_search', { body: { query: { match_all: {} } } });
      expect(typeless.status, typeless.text).to.equal(200);
      expect(ids(typeless)).to.deep.equal(['d1', 'p1']);
      const typed = await call(gw.url, 'POST', '/shop/product/_search', { body: { query: { match_all: {} } } });
      expect(ids(typed)).to.deep.equal(['p1']);
      expect((await call(gw.url, 'GET', '/shop/_doc/_count')).json.count).to.equal(2);
      const updated = await call(gw.url, 'POST', '/shop/_doc/d1/_update?refresh=true', { body: { doc: { size: 'L' } } });
      expect(updated.status, updated.text).to.equal(200);
      expect((await call(gw.url, 'GET', '/shop/_doc/d1/_source')).json).to.deep.equal({ name: 'hat', size: 'L' });
    });
  });
}

describe('Elasticsearch 7 typed paths: what reaches the engine, and who may send them', function () {
  this.timeout(60_000);
  let upstream: RecordingUpstream;
  let gw: TestGateway;
  let tenantA: string;
  let readOnlyA: string;

  before(async () => {
    upstream = await startRecordingUpstream();
    // what reaches the engine here is what clients' requests make: the gateway's own request-log writes are not
    gw = await startTestGateway({ ENGINE_URL: upstream.url, LOGS_ENABLED: 'false' });
    for (const index of ['tenant-a', 'tenant-b']) {
      await call(gw.url, 'PUT', `/${index}`, { body: { mappings: { properties: { title: { type: 'text' } } } } });
      await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { title: `${index} secret` } });
    }
    const rw = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['tenant-a'], categories: ['docs', 'search', 'indices'], ops: ['read', 'write'] } });
    expect(rw.status, rw.text).to.equal(201);
    tenantA = basic(rw.json.credential.username, rw.json.password);
    const ro = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['tenant-a'], categories: ['docs', 'search', 'indices'], ops: ['read'] } });
    expect(ro.status, ro.text).to.equal(201);
    readOnlyA = basic(ro.json.credential.username, ro.json.password);
  });
  after(async () => {
    await gw.close();
    await upstream.stop();
  });

  /** The tenant requests that reached the engine (not the gateway's own lookups). */
  const forwarded = () => upstream.requests.filter((r) => !isResolutionLookup(r) && r.path.startsWith('/tenant-'));

  const CASES: Array<{ method: string; path: string; body?: unknown; ndjson?: boolean; engine: string; query?: string }> = [
    { method: 'POST', path: '/tenant-a/_doc/_search', body: { query: { match: { title: 'secret' } } }, engine: '/tenant-a/_search' },
    { method: 'GET', path: '/tenant-a/_doc/_search?q=title:secret', engine: '/tenant-a/_search', query: 'q=title:secret' },
    { method: 'POST', path: '/tenant-*/_doc/_search', body: { query: { match_all: {} } }, engine: '/tenant-a/_search' },
    { method: 'POST', path: '/tenant-a/_doc/_count', body: { query: { match_all: {} } }, engine: '/tenant-a/_count' },
    { method: 'POST', path: '/tenant-a/_doc/_validate/query', body: { query: { match_all: {} } }, engine: '/tenant-a/_validate/query' },
    { method: 'POST', path: '/tenant-a/_doc/_msearch', body: nd({}, { query: { match_all: {} } }), ndjson: true, engine: '/tenant-a/_msearch' },
    { method: 'POST', path: '/tenant-a/_doc/_mget', body: { ids: ['1'] }, engine: '/tenant-a/_mget' },
    { method: 'POST', path: '/tenant-a/_doc/1/_update', body: { doc: { seen: true } }, engine: '/tenant-a/_update/1' },
    { method: 'GET', path: '/tenant-a/_doc/1/_source', engine: '/tenant-a/_source/1' },
    { method: 'GET', path: '/tenant-a/_mapping/_doc?include_type_name=true', engine: '/tenant-a/_mapping', query: '' },
    { method: 'PUT', path: '/tenant-a/_mapping/_doc?include_type_name=true', body: { properties: { tag: { type: 'keyword' } } }, engine: '/tenant-a/_mapping', query: '' },
  ];

  for (const c of CASES) {
    it(`${c.method} ${c.path} reaches the engine as ${c.method} ${c.engine}${c.query ? '?' + c.query : ''}`, async () => {
      upstream.clear();
      const res = await call(gw.url, c.method, c.path, { auth: tenantA, body: c.body, headers: c.ndjson ? NDJSON : undefined });
      expect(res.status, res.text).to.be.within(200, 299);
      const sent = forwarded();
      expect(sent.map((r) => `${r.method} ${r.path}`)).to.deep.equal([`${c.method} ${c.engine}`]);
      // (a scoped credential's searches through an HTTP engine that has search pipelines run none)
      if (c.query !== undefined) expect(sent[0].query.split('&').filter((p) => p !== 'search_pipeline=_none').join('&')).to.equal(c.query);
      expect(sent[0].query).not.to.contain('include_type_name');
    });
  }

  it('a credential for tenant-a reaches tenant-b through no typed path', async () => {
    upstream.clear();
    const attempts: Array<[string, string, unknown?]> = [
      ['POST', '/tenant-b/_doc/_search', { query: { match_all: {} } }],
      ['GET', '/tenant-b/_doc/_search'],
      ['POST', '/tenant-a,tenant-b/_doc/_search', { query: { match_all: {} } }],
      ['POST', '/%74enant-b/_doc/_search', { query: { match_all: {} } }],
      ['POST', '/tenant-b/%5Fdoc/_search', { query: { match_all: {} } }],
      ['GET', '/tenant-b/_doc/_count'],
      ['POST', '/tenant-b/_doc/_validate/query', { query: { match_all: {} } }],
      ['POST', '/tenant-b/_doc/_msearch', nd({}, { query: { match_all: {} } })],
      ['POST', '/tenant-a/_doc/_msearch', nd({ index: 'tenant-b' }, { query: { match_all: {} } })],
      ['POST', '/tenant-b/_doc/_mget', { ids: ['1'] }],
      ['POST', '/tenant-a/_doc/_mget', { docs: [{ _index: 'tenant-b', _id: '1' }] }],
      ['POST', '/tenant-b/_doc/_bulk', nd({ index: { _id: '2' } }, { title: 'x' })],
      ['POST', '/tenant-a/_doc/_bulk', nd({ index: { _index: 'tenant-b', _id: '2' } }, { title: 'x' })],
      ['POST', '/tenant-b/_doc/1/_update', { doc: { title: 'overwritten' } }],
      ['PUT', '/tenant-b/_doc/1/_create', { title: 'x' }],
      ['GET', '/tenant-b/_doc/1/_source'],
      ['GET', '/tenant-b/_doc/1/_explain', { query: { match_all: {} } }],
      ['POST', '/tenant-b/_doc/_delete_by_query', { query: { match_all: {} } }],
      ['POST', '/tenant-b/_doc/_update_by_query', { query: { match_all: {} } }],
      ['GET', '/tenant-b/_mapping/_doc'],
      ['PUT', '/tenant-b/_mapping/_doc', { properties: { x: { type: 'keyword' } } }],
      ['GET', '/tenant-b/_mapping/_doc/field/title'],
    ];
    for (const [method, path, body] of attempts) {
      const ndjson = typeof body === 'string';
      const res = await call(gw.url, method, path, { auth: tenantA, body, headers: ndjson ? NDJSON : undefined });
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).to.equal(403);
      expect(res.text).not.to.contain('tenant-b secret');
    }
    expect(leaksIn(upstream.requests, { names: ['tenant-b'], reachable: ['tenant-b'] })).to.deep.equal([]);
    const doc = await call(upstream.engineUrl, 'GET', '/tenant-b/_doc/1', { auth: null });
    expect(doc.json._source).to.deep.equal({ title: 'tenant-b secret' });
  });

  it('a read-only credential may search through a typed path, and write through none', async () => {
    const search = await call(gw.url, 'POST', '/tenant-a/_doc/_search', { auth: readOnlyA, body: { query: { match_all: {} } } });
    expect(search.status, search.text).to.equal(200);
    expect((await call(gw.url, 'POST', '/tenant-a/_doc/1/_update', { auth: readOnlyA, body: { doc: { a: 1 } } })).status).to.equal(403);
    // not a typed search: ES routes a PUT to the document API, and `_search` is the document's id
    expect((await call(gw.url, 'PUT', '/tenant-a/_doc/_search', { auth: readOnlyA, body: { a: 1 } })).status).to.equal(403);
    expect((await call(gw.url, 'PUT', '/tenant-a/_mapping/_doc', { auth: readOnlyA, body: { properties: { y: { type: 'keyword' } } } })).status).to.equal(403);
  });
});
