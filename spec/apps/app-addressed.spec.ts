import { expect } from 'chai';
import { call } from '../support/http.js';
import { callJson } from '../../lib/engine/index.js';
import { BACKENDS } from '../support/backends.js';
import type { TestGateway } from '../support/servers.js';

for (const backend of BACKENDS) {
  describe(`apps and app-addressed documents (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop());

    it('PUT /_apps/{app} creates an app, GET /_apps lists it, a second PUT is refused', async () => {
      const created = await call(gw.url, 'PUT', '/_apps/shop');
      expect(created.status).to.equal(200);
      expect(created.json).to.include({ acknowledged: true, app: 'shop', index_created: true });
      const list = await call(gw.url, 'GET', '/_apps');
      expect(list.json.apps.map((a: { app: string }) => a.app)).to.deep.equal(['shop']);
      const again = await call(gw.url, 'PUT', '/_apps/shop');
      expect(again.status).to.equal(400);
      expect(again.json.error.type).to.equal('resource_already_exists_exception');
    });

    it('PUT /_apps with an invalid name → invalid_index_name_exception', async () => {
      const res = await call(gw.url, 'PUT', '/_apps/BadName');
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.equal('invalid_index_name_exception');
    });

    it('GET /{app} answers the root message for an app, index metadata for a plain index', async () => {
      const app = await call(gw.url, 'GET', '/shop');
      expect(app.status).to.equal(200);
      expect(app.json.status).to.equal(200);
      expect(app.json.message).to.match(/\/shop\/.*make API requests/);
      await call(gw.url, 'PUT', '/plain-index');
      const plain = await call(gw.url, 'GET', '/plain-index');
      expect(plain.status).to.equal(200);
      expect(plain.json['plain-index']).to.have.keys('aliases', 'mappings', 'settings');
    });

    it('PUT /{app}/{type}/{id} creates then replaces; GET returns the typed read response with _source as sent', async () => {
      const source = { title: 'Blue shoes', price: 42.5, tags: ['a', 'b'], nested: { deep: [1, 2], x: null, empty: {} }, unicode: 'é🎉' };
      const created = await call(gw.url, 'PUT', '/shop/product/p1', { body: source });
      expect(created.status).to.equal(201);
      expect(created.json).to.include({ _index: 'shop', _type: 'product', _id: 'p1', _version: 1, result: 'created' });
      expect(Object.keys(created.json).slice(0, 3)).to.deep.equal(['_index', '_type', '_id']);

      const read = await call(gw.url, 'GET', '/shop/product/p1');
      expect(read.status).to.equal(200);
      expect(read.json).to.include({ _index: 'shop', _type: 'product', _id: 'p1', _version: 1, found: true });
      expect(read.json._source).to.deep.equal(source);

      const replaced = await call(gw.url, 'PUT', '/shop/product/p1', { body: { title: 'Red shoes' } });
      expect(replaced.status).to.equal(200);
      expect(replaced.json).to.include({ result: 'updated', _version: 2, _type: 'product' });
      expect((await call(gw.url, 'GET', '/shop/product/p1')).json._source).to.deep.equal({ title: 'Red shoes' });
    });

    it('GET of a document through another type is not found; HEAD tells existence', async () => {
      const other = await call(gw.url, 'GET', '/shop/review/p1');
      expect(other.status).to.equal(404);
      expect(other.json).to.deep.equal({ _index: 'shop', _type: 'review', _id: 'p1', found: false });
      expect((await call(gw.url, 'HEAD', '/shop/product/p1')).status).to.equal(200);
      expect((await call(gw.url, 'HEAD', '/shop/review/p1')).status).to.equal(404);
      const missing = await call(gw.url, 'GET', '/shop/product/nope');
      expect(missing.status).to.equal(404);
      expect(missing.json).to.include({ found: false, _type: 'product' });
    });

    it('_source filtering keeps the type check and hides the type field', async () => {
      await call(gw.url, 'PUT', '/shop/product/p2', { body: { title: 'Hat', price: 10 } });
      const inc = await call(gw.url, 'GET', '/shop/product/p2?_source_includes=price');
      expect(inc.json._source).to.deep.equal({ price: 10 });
      const none = await call(gw.url, 'GET', '/shop/product/p2?_source=false');
      expect(none.json.found).to.equal(true);
      expect(none.json).not.to.have.property('_source');
      expect((await call(gw.url, 'GET', '/shop/review/p2?_source=false')).status).to.equal(404);
    });

    it('POST /{app}/{type} generates an id', async () => {
      const res = await call(gw.url, 'POST', '/shop/review', { body: { stars: 5, text: 'great hat' } });
      expect(res.status).to.equal(201);
      expect(res.json._id).to.be.a('string').with.length.greaterThan(10);
      expect(res.json._type).to.equal('review');
      const read = await call(gw.url, 'GET', `/shop/review/${res.json._id}`);
      expect(read.json._source).to.deep.equal({ stars: 5, text: 'great hat' });
    });

    it('POST /{app}/{type}/_search sees only that type, with an integer hits.total', async () => {
      await call(gw.url, 'PUT', '/shop/review/r2', { body: { stars: 3, text: 'ok' } });
      const products = await call(gw.url, 'POST', '/shop/product/_search', { body: { query: { match_all: {} } } });
      expect(products.status).to.equal(200);
      expect(products.json.hits.total).to.equal(2);
      for (const hit of products.json.hits.hits) {
        expect(hit._type).to.equal('product');
        expect(hit._source).not.to.have.property('_gateway_type');
      }
      const reviews = await call(gw.url, 'GET', '/shop/review/_search');
      expect(reviews.json.hits.total).to.equal(2);
      expect(reviews.json.hits.hits.map((h: { _type: string }) => h._type)).to.deep.equal(['review', 'review']);
      const term = await call(gw.url, 'POST', '/shop/review/_search', { body: { query: { term: { stars: 3 } } } });
      expect(term.json.hits.total).to.equal(1);
      expect(term.json.hits.hits[0]._id).to.equal('r2');
      const count = await call(gw.url, 'POST', '/shop/product/_count', { body: { query: { match_all: {} } } });
      expect(count.json.count).to.equal(2);
    });

    it('the index-addressed style keeps Elasticsearch 8 shapes: hits.total {value, relation}', async () => {
      const res = await call(gw.url, 'POST', '/shop/_search', { body: { query: { match_all: {} } } });
      expect(res.json.hits.total).to.deep.equal({ value: 4, relation: 'eq' });
      const asInt = await call(gw.url, 'POST', '/shop/_search?rest_total_hits_as_int=true', { body: {} });
      expect(asInt.json.hits.total).to.equal(4);
    });

    it('DELETE /{app}/{type}/{id} removes only a document of that type', async () => {
      const wrongType = await call(gw.url, 'DELETE', '/shop/review/p2');
      expect(wrongType.status).to.equal(404);
      expect((await call(gw.url, 'GET', '/shop/product/p2')).status).to.equal(200);
      const del = await call(gw.url, 'DELETE', '/shop/product/p2');
      expect(del.status).to.equal(200);
      expect(del.json).to.include({ result: 'deleted', _type: 'product', _id: 'p2' });
      expect((await call(gw.url, 'GET', '/shop/product/p2')).status).to.equal(404);
      const again = await call(gw.url, 'DELETE', '/shop/product/p2');
      expect(again.status).to.equal(404);
      expect(again.json.result).to.equal('not_found');
    });

    it('partial update through /{app}/{type}/{id}/_update keeps the type', async () => {
      const res = await call(gw.url, 'POST', '/shop/product/p1/_update', { body: { doc: { price: 7 } } });
      expect(res.status).to.equal(200);
      expect(res.json).to.include({ _type: 'product', result: 'updated' });
      expect((await call(gw.url, 'GET', '/shop/product/p1')).json._source).to.deep.equal({ title: 'Red shoes', price: 7 });
      const upsert = await call(gw.url, 'POST', '/shop/product/p9/_update', { body: { doc: { title: 'new' }, doc_as_upsert: true } });
      expect(upsert.status).to.equal(201);
      expect((await call(gw.url, 'GET', '/shop/product/p9')).json._source).to.deep.equal({ title: 'new' });
    });

    it('typed writes to an index that does not exist yet create it', async () => {
      const res = await call(gw.url, 'PUT', '/fresh/note/1', { body: { text: 'hello' } });
      expect(res.status).to.equal(201);
      expect((await call(gw.url, 'GET', '/fresh/note/_search')).json.hits.total).to.equal(1);
      // the type field is the gateway's: clients never see it (first-hour.spec.ts), the engine maps it as a keyword
      const mapping = await callJson<any>(gw.backend, 'GET', '/fresh/_mapping');
      expect(mapping.body.fresh.mappings.properties._gateway_type.type).to.equal('keyword');
    });

    it('refuses a document that is not an object, or that uses the reserved type field', async () => {
      const arr = await call(gw.url, 'PUT', '/shop/product/bad', { body: [1, 2] });
      expect(arr.status).to.equal(400);
      expect(arr.json.error.type).to.equal('mapper_parsing_exception');
      const reserved = await call(gw.url, 'PUT', '/shop/product/bad', { body: { _gateway_type: 'x' } });
      expect(reserved.status).to.equal(400);
      const malformed = await call(gw.url, 'PUT', '/shop/product/bad', { body: '{"a": ' });
      expect(malformed.status).to.equal(400);
      expect(malformed.json.error.type).to.equal('parse_exception');
    });

    it('a string field written through the gateway sorts and aggregates by {field}.raw', async () => {
      await call(gw.url, 'PUT', '/rawconv/_doc/1?refresh=true', { body: { title: 'Banana split' } });
      await call(gw.url, 'PUT', '/rawconv/_doc/2?refresh=true', { body: { title: 'Apple pie' } });
      const mapping = await call(gw.url, 'GET', '/rawconv/_mapping');
      expect(mapping.json.rawconv.mappings.properties.title.fields.raw.type).to.equal('keyword');
      const sorted = await call(gw.url, 'POST', '/rawconv/_search', { body: { sort: [{ 'title.raw': 'asc' }] } });
      expect(sorted.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2', '1']);
      const agg = await call(gw.url, 'POST', '/rawconv/_search', { body: { size: 0, aggs: { t: { terms: { field: 'title.raw' } } } } });
      expect(agg.json.aggregations.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['Apple pie', 'Banana split']);
    });

    it('on Elasticsearch the convention is a legacy index template the gateway installs, which a user template at the default priority does not clash with', async function () {
      if (gw.backend.kind !== 'http') this.skip();
      const template = await call(gw.url, 'GET', '/_template/gateway-raw-subfields');
      expect(template.status).to.equal(200);
      const dyn = template.json['gateway-raw-subfields'].mappings.dynamic_templates[0];
      expect(dyn.gateway_strings.mapping.fields.raw).to.deep.equal({ type: 'keyword' });
      expect((await call(gw.url, 'GET', '/_index_template/gateway-raw-subfields')).status).to.equal(404);
      const user = await call(gw.url, 'PUT', '/_index_template/users-own', { body: { index_patterns: ['users-own-*'], template: { settings: { number_of_shards: 1 } } } });
      expect(user.status, user.text).to.equal(200);
    });
  });
}
