import { expect } from 'chai';
import { Client as Client8 } from '@elastic/elasticsearch';
import { Client as Client7 } from '@elastic/elasticsearch7';
import { BACKENDS } from '../support/backends.js';
import { basic, call, type Reply } from '../support/http.js';
import { ADMIN, type TestGateway } from '../support/servers.js';

const V7 = 'application/vnd.elasticsearch+json;compatible-with=7';
const COMPAT = { accept: V7, 'content-type': V7 };
const COMPAT_NDJSON = { accept: V7, 'content-type': 'application/vnd.elasticsearch+x-ndjson;compatible-with=7' };
const nd = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const ids = (r: Reply) => r.json.hits.hits.map((h: { _id: string }) => h._id).sort();
const warning = (r: Reply) => String(r.headers.warning ?? '');

/** The Elasticsearch 7 client in compatibility mode, as its users switch it on (ELASTIC_CLIENT_APIVERSIONING). */
function client7(url: string): Client7 {
  const before = process.env.ELASTIC_CLIENT_APIVERSIONING;
  process.env.ELASTIC_CLIENT_APIVERSIONING = 'true';
  try {
    return new Client7({ node: url, auth: { username: ADMIN.user, password: ADMIN.password } });
  } finally {
    if (before === undefined) delete process.env.ELASTIC_CLIENT_APIVERSIONING;
    else process.env.ELASTIC_CLIENT_APIVERSIONING = before;
  }
}

for (const backend of BACKENDS) {
  describe(`REST API compatibility mode through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let onlyBooks: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      expect((await call(gw.url, 'PUT', '/books/book/1?refresh=true', { body: { title: 'Dune' }, headers: COMPAT })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', '/secret/_doc/1?refresh=true', { body: { title: 'hidden' } })).status).to.equal(201);
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['docs', 'search'], ops: ['read', 'write'] } });
      expect(cred.status, cred.text).to.equal(201);
      onlyBooks = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('a typed document request is Elasticsearch\'s: type ignored, _type "_doc", the warning, the compatible Content-Type', async () => {
      const got = await call(gw.url, 'GET', '/books/book/1', { headers: { accept: V7 } });
      expect(got.status, got.text).to.equal(200);
      expect(got.json).to.deep.include({ _index: 'books', _type: '_doc', _id: '1', found: true, _source: { title: 'Dune' } });
      expect(got.headers['content-type']).to.contain('compatible-with=7');
      expect(warning(got)).to.contain('[types removal] Specifying types in document get requests is deprecated');
      // the same document under any type name, and under the typeless path
      expect((await call(gw.url, 'GET', '/books/other/1', { headers: { accept: V7 } })).json.found).to.equal(true);
      expect((await call(gw.url, 'GET', '/books/_doc/1')).json._source).to.deep.equal({ title: 'Dune' });
      const search = await call(gw.url, 'POST', '/books/book/_search', { body: { query: { match: { title: 'dune' } } }, headers: COMPAT });
      expect(search.status, search.text).to.equal(200);
      expect(ids(search)).to.deep.equal(['1']);
      expect(search.json.hits.hits[0]._type).to.equal('_doc');
    });

    it('without the header, /{app}/{type}/{id} stays the app-addressed style (its own type kept)', async () => {
      const put = await call(gw.url, 'PUT', '/shop/shoe/1?refresh=true', { body: { name: 'boot' } });
      expect(put.status, put.text).to.be.oneOf([200, 201]);
      expect(put.json._type).to.equal('shoe');
      expect((await call(gw.url, 'GET', '/shop/shoe/1')).json._type).to.equal('shoe');
      // with the header, the same path is the index's document as Elasticsearch 8 serves it
      const compat = await call(gw.url, 'GET', '/shop/shoe/1', { headers: { accept: V7 } });
      expect(compat.json).to.include({ _type: '_doc', found: true });
    });

    it('bulk with _type in its action lines is classified by the indices it names: a scoped credential writes its own, is refused another', async () => {
      const own = await call(gw.url, 'POST', '/_bulk?refresh=true', {
        auth: onlyBooks, headers: COMPAT_NDJSON, body: nd({ index: { _index: 'books', _type: 'book', _id: '2' } }, { title: 'Emma' }),
      });
      expect(own.status, own.text).to.equal(200);
      expect(own.json.errors).to.equal(false);
      expect(own.json.items[0].index).to.include({ _index: 'books', _type: '_doc', _id: '2' });
      expect(warning(own)).to.contain('[types removal] Specifying types in bulk requests is deprecated.');
      const other = await call(gw.url, 'POST', '/_bulk', {
        auth: onlyBooks, headers: COMPAT_NDJSON, body: nd({ index: { _index: 'secret', _type: 'book', _id: '2' } }, { title: 'x' }),
      });
      expect(other.status, other.text).to.equal(403);
      // typed paths name their index like the typeless ones
      expect((await call(gw.url, 'GET', '/secret/any/1', { auth: onlyBooks, headers: { accept: V7 } })).status).to.equal(403);
      expect((await call(gw.url, 'POST', '/secret/any/_search', { auth: onlyBooks, body: {}, headers: COMPAT })).status).to.equal(403);
      const read = await call(gw.url, 'GET', '/books/book/2', { auth: onlyBooks, headers: { accept: V7 } });
      expect(read.json._source).to.deep.equal({ title: 'Emma' });
    });

    it('PUT /_mapping/{type} puts on every index: refused to a scoped credential, as PUT /_all/_mapping is; its own index\'s typed form is its own', async () => {
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['docs', 'indices'], ops: ['read', 'write'] } });
      expect(cred.status, cred.text).to.equal(201);
      const mapper = basic(cred.json.credential.username, cred.json.password);
      const body = { book: { properties: { isbn: { type: 'keyword' } } } };
      for (const path of ['/_mapping/book?include_type_name=true', '/_mappings/book?include_type_name=true', '/_all/_mapping', '/_all/_mappings', '/secret/_mappings']) {
        const r = await call(gw.url, 'PUT', path, { auth: mapper, body: path.includes('include_type_name') ? body : body.book, headers: COMPAT });
        expect(r.status, `${path}: ${r.text}`).to.equal(403);
      }
      const own = await call(gw.url, 'PUT', '/books/_mapping/book?include_type_name=true', { auth: mapper, body, headers: COMPAT });
      expect(own.status, own.text).to.equal(200);
      const all = await call(gw.url, 'PUT', '/_mapping/book?include_type_name=true', { body: { book: { properties: { year: { type: 'integer' } } } }, headers: COMPAT });
      expect(all.status, all.text).to.equal(200);
      const secret = await call(gw.url, 'GET', '/secret/_mapping', { headers: { accept: V7 } });
      expect(secret.json.secret.mappings.properties.year).to.deep.equal({ type: 'integer' });
    });

    it('local on get field mapping: answered with Elasticsearch 8\'s compatibility warning, once (typed path or not)', async () => {
      const text = 'Use [local] in get field mapping requests is deprecated. The parameter will be removed in the next major version';
      for (const path of ['/books/_mapping/field/title?local=true', '/books/_mapping/book/field/title?local=true&include_type_name=true']) {
        const r = await call(gw.url, 'GET', path, { headers: { accept: V7 } });
        expect(r.status, `${path}: ${r.text}`).to.equal(200);
        expect(warning(r).split(text).length - 1, path).to.equal(1);
      }
      const plain = await call(gw.url, 'GET', '/books/_mapping/field/title', { headers: { accept: V7 } });
      expect(warning(plain)).to.not.contain('[local]');
    });

    it('headers that disagree are refused with media_type_header_exception', async () => {
      const r = await call(gw.url, 'POST', '/books/_search', { body: {}, headers: { accept: V7, 'content-type': 'application/json' } });
      expect(r.status).to.equal(400);
      expect(r.json.error.type).to.equal('media_type_header_exception');
    });

    it('the Elasticsearch 7 client in compatibility mode: index, bulk, search, get, mappings', async () => {
      const es7 = client7(gw.url);
      try {
        const created = await es7.indices.create({ index: 'library', include_type_name: true, body: { mappings: { book: { properties: { title: { type: 'text' }, year: { type: 'integer' } } } } } });
        expect(created.body.acknowledged).to.equal(true);
        const indexed = await es7.index({ index: 'library', type: 'book', id: '1', body: { title: 'Dune', year: 1965 }, refresh: true });
        expect(indexed.body).to.include({ _type: '_doc', result: 'created' });
        expect(indexed.warnings?.join(' ')).to.contain('[types removal]');
        const bulk = await es7.bulk({ refresh: true, body: [{ index: { _index: 'library', _type: 'book', _id: '2' } }, { title: 'Emma', year: 1815 }] });
        expect(bulk.body.errors).to.equal(false);
        const search = await es7.search({ index: 'library', type: 'book', body: { query: { range: { year: { lt: 1900 } } } } });
        expect(search.body.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
        const got = await es7.get({ index: 'library', type: 'book', id: '1' });
        expect(got.body).to.include({ _type: '_doc', found: true });
        const mapping = await es7.indices.getMapping({ index: 'library', include_type_name: true });
        expect(mapping.body.library.mappings._doc.properties).to.have.keys('title', 'year');
      } finally {
        await es7.close();
      }
    });

    it('the Elasticsearch 8 client with compatible-with=7 headers', async () => {
      const es8 = new Client8({ node: gw.url, auth: { username: ADMIN.user, password: ADMIN.password }, headers: { accept: V7, 'content-type': V7 } });
      try {
        const got = await es8.get({ index: 'books', id: '1' });
        expect(got._source).to.deep.equal({ title: 'Dune' });
        expect((got as unknown as { _type: string })._type).to.equal('_doc');
        const res = await es8.search({ index: 'books', query: { match: { title: 'dune' } } });
        expect(res.hits.hits.map((h) => h._id)).to.deep.equal(['1']);
      } finally {
        await es8.close();
      }
    });
  });
}
