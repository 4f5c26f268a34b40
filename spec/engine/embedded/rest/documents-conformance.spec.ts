import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';
import { NDJSON, ndjson } from '../../../support/http.js';


describe('embedded engine REST: documents as Elasticsearch 8 answers them', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  describe('_bulk', () => {
    it('reports an empty _id as the item\'s illegal argument and names an op_type create item "create"', async () => {
      const r = await es.call('POST', '/_bulk', ndjson([
        { index: { _index: 'test', _id: '' } }, { f: 1 },
        { index: { _index: 'test', op_type: 'create' } }, { f: 2 },
      ]), NDJSON);
      expect(r.json.errors).to.equal(true);
      expect(r.json.items[0].index.status).to.equal(400);
      expect(r.json.items[0].index.error).to.include({ type: 'illegal_argument_exception', reason: 'if _id is specified it must not be empty' });
      expect(r.json.items[1].create.result).to.equal('created');
    });

    it('refuses require_alias writes to a name that is not an alias, per item and per request', async () => {
      await es.call('PUT', '/backing', { aliases: { writes: {} } });
      const r = await es.call('POST', '/_bulk', ndjson([
        { index: { _index: 'not_an_alias', require_alias: true } }, { f: 1 },
        { index: { _index: 'writes', require_alias: true } }, { f: 2 },
      ]), NDJSON);
      expect(r.json.items[0].index.status).to.equal(404);
      expect(r.json.items[0].index.error).to.include({
        type: 'index_not_found_exception',
        reason: 'no such index [not_an_alias] and [require_alias] request flag is [true] and [not_an_alias] is not an alias',
      });
      expect(r.json.items[1].index).to.include({ _index: 'backing', result: 'created' });
      const all = await es.call('POST', '/_bulk?require_alias=true', ndjson([{ index: { _index: 'other' } }, { f: 1 }]), NDJSON);
      expect(all.json.items[0].index.status).to.equal(404);
      expect((await es.call('HEAD', '/not_an_alias')).status).to.equal(404);
      expect((await es.call('HEAD', '/other')).status).to.equal(404);
    });

    it('fails the items that name an ingest pipeline (none exists) and indexes the others', async () => {
      const r = await es.call('POST', '/_bulk', ndjson([
        { index: { _index: 'p', _id: '1' } }, { f: 1 },
        { index: { _index: 'p', _id: '2', pipeline: 'mypipeline' } }, { f: 2 },
      ]), NDJSON);
      expect(r.json.items[0].index.result).to.equal('created');
      expect(r.json.items[1].index.status).to.equal(400);
      expect(r.json.items[1].index.error).to.include({ type: 'illegal_argument_exception', reason: 'pipeline with id [mypipeline] does not exist' });
      expect((await es.call('GET', '/p/_count')).json.count).to.equal(1);
    });

    it('returns the updated source under get when the action, the body or the URL asks for _source', async () => {
      await es.call('PUT', '/t/_doc/1', { foo: 'bar', bar: 'foo' });
      await es.call('PUT', '/t/_doc/2', { foo: 'qux', bar: 'pux' });
      const r = await es.call('POST', '/_bulk?refresh=true', ndjson([
        { update: { _index: 't', _id: '1', _source: { includes: 'bar' } } }, { doc: { foo: 'baz' } },
        { update: { _index: 't', _id: '2' } }, { _source: true, doc: { foo: 'quux' } },
      ]), NDJSON);
      expect(r.json.items[0].update.get).to.deep.equal({ _seq_no: 2, _primary_term: 1, found: true, _source: { bar: 'foo' } });
      expect(r.json.items[1].update.get._source).to.deep.equal({ foo: 'quux', bar: 'pux' });
      expect(r.json.items[0].update.forced_refresh).to.equal(true);
      const q = await es.call('POST', '/t/_bulk?_source_includes=foo', ndjson([{ update: { _id: '2' } }, { doc: { foo: 'garply' } }]), NDJSON);
      expect(q.json.items[0].update.get._source).to.deep.equal({ foo: 'garply' });
    });
  });

  describe('single-document APIs', () => {
    it('says forced_refresh on writes with refresh=true or an empty refresh', async () => {
      expect((await es.call('PUT', '/r/_doc/1?refresh=true', { a: 1 })).json.forced_refresh).to.equal(true);
      expect((await es.call('POST', '/r/_update/1?refresh', { doc: { a: 2 } })).json.forced_refresh).to.equal(true);
      expect((await es.call('PUT', '/r/_doc/2?refresh=wait_for', { a: 1 })).json).to.not.have.property('forced_refresh');
      expect((await es.call('DELETE', '/r/_doc/1?refresh=')).json.forced_refresh).to.equal(true);
    });

    it('misses a routed document when the routing selects another shard, as a multi-shard index does', async () => {
      await es.call('PUT', '/routed', { settings: { number_of_shards: 5 } });
      await es.call('PUT', '/routed/_doc/1?routing=5', { foo: 'bar' });
      const hit = await es.call('GET', '/routed/_doc/1?routing=5');
      expect(hit.json).to.include({ found: true, _routing: '5' });
      // With 5 shards (640 routing shards), routing "4" and the id "1" land elsewhere than routing "5".
      expect((await es.call('GET', '/routed/_doc/1')).status).to.equal(404);
      expect((await es.call('HEAD', '/routed/_doc/1')).status).to.equal(404);
      expect((await es.call('GET', '/routed/_source/1')).status).to.equal(404);
      expect((await es.call('POST', '/routed/_update/1', { doc: { foo: 'baz' } })).json.error.type).to.equal('document_missing_exception');
      const del = await es.call('DELETE', '/routed/_doc/1?routing=4');
      expect(del.status).to.equal(404);
      expect(del.json.result).to.equal('not_found');
      expect((await es.call('POST', '/_mget', { docs: [{ _index: 'routed', _id: '1' }, { _index: 'routed', _id: '1', routing: '5' }] })).json.docs.map((d: { found: boolean }) => d.found))
        .to.deep.equal([false, true]);
      expect((await es.call('DELETE', '/routed/_doc/1?routing=5')).json.result).to.equal('deleted');
    });

    it('refuses every operation by id without a routing on an index whose _routing is required (routing_missing_exception)', async () => {
      await es.call('PUT', '/req', { mappings: { _routing: { required: true } } });
      const missing = { type: 'routing_missing_exception', reason: 'routing is required for [req]/[1]', index_uuid: '_na_', index: 'req' };
      for (const [method, path, body] of [
        ['PUT', '/req/_doc/1', { a: 1 }], ['PUT', '/req/_create/1', { a: 1 }], ['GET', '/req/_doc/1', undefined], ['GET', '/req/_source/1', undefined],
        ['POST', '/req/_update/1', { doc: { a: 2 } }], ['DELETE', '/req/_doc/1', undefined],
        ['POST', '/req/_explain/1', { query: { match_all: {} } }], ['GET', '/req/_termvectors/1', undefined],
      ] as const) {
        const r = await es.call(method, path, body);
        expect(r.status, `${method} ${path}`).to.equal(400);
        expect(r.json.error, `${method} ${path}`).to.include(missing);
      }
      const auto = await es.call('POST', '/req/_doc', { a: 1 });
      expect(auto.json.error.type).to.equal('routing_missing_exception');
      expect((await es.call('HEAD', '/req/_doc/1')).status).to.equal(400);
      // with a routing, all goes as usual
      expect((await es.call('PUT', '/req/_doc/1?routing=r', { a: 1 })).status).to.equal(201);
      expect((await es.call('GET', '/req/_doc/1?routing=r')).json).to.include({ found: true, _routing: 'r' });
      expect((await es.call('POST', '/req/_update/1?routing=r', { doc: { a: 2 } })).json.result).to.equal('updated');
      const mget = await es.call('POST', '/req/_mget', { docs: [{ _id: '1' }, { _id: '1', routing: 'r' }] });
      expect(mget.json.docs[0].error).to.include({ type: 'routing_missing_exception', reason: 'routing is required for [req]/[1]' });
      expect(mget.json.docs[1]).to.include({ found: true });
      const bulk = await es.call('POST', '/_bulk', ndjson([
        { index: { _index: 'req', _id: '2' } }, { a: 1 },
        { update: { _index: 'req', _id: '1' } }, { doc: { a: 3 } },
        { delete: { _index: 'req', _id: '1' } },
        { index: { _index: 'req', _id: '3', routing: 'x' } }, { a: 1 },
      ]), NDJSON);
      expect(bulk.json.items.slice(0, 3).map((i: Record<string, { status: number; error: { type: string } }>) => [Object.values(i)[0].status, Object.values(i)[0].error.type]))
        .to.deep.equal([[400, 'routing_missing_exception'], [400, 'routing_missing_exception'], [400, 'routing_missing_exception']]);
      expect(bulk.json.items[3].index.result).to.equal('created');
      expect((await es.call('DELETE', '/req/_doc/1?routing=r')).json.result).to.equal('deleted');
    });

    it('finds a routed document without routing in a one-shard index', async () => {
      await es.call('PUT', '/one/_doc/1?routing=5', { foo: 'bar' });
      expect((await es.call('GET', '/one/_doc/1')).json).to.include({ found: true, _routing: '5' });
    });

    it('reads a document at the version asked (version, any version_type), and answers 409 for another', async () => {
      await es.call('PUT', '/v/_doc/1', { foo: 'bar' });
      await es.call('PUT', '/v/_doc/1', { foo: 'bar' });
      expect((await es.call('GET', '/v/_doc/1?version=2')).json).to.include({ _id: '1', _version: 2, found: true });
      expect((await es.call('GET', '/v/_doc/1?version=2&version_type=external_gte')).status).to.equal(200);
      for (const path of ['/v/_doc/1?version=1', '/v/_doc/1?version=10&version_type=external', '/v/_source/1?version=1']) {
        const r = await es.call('GET', path);
        expect(r.status, path).to.equal(409);
        expect(r.json.error, path).to.include({ type: 'version_conflict_engine_exception', reason: '[1]: version conflict, current version [2] is different than the one provided [' + (path.includes('10') ? 10 : 1) + ']', index: 'v' });
      }
      expect((await es.call('HEAD', '/v/_doc/1?version=1')).status).to.equal(409);
      // a missing document is missing, whatever the version
      expect((await es.call('GET', '/v/_doc/2?version=1')).status).to.equal(404);
      const mget = await es.call('POST', '/_mget', { docs: [{ _index: 'v', _id: '1', version: 1 }, { _index: 'v', _id: '1', version: 2 }] });
      expect(mget.json.docs[0].error).to.include({ type: 'version_conflict_engine_exception' });
      expect(mget.json.docs[1]).to.include({ _id: '1', found: true, _version: 2 });
    });

    it('returns stored fields under fields and leaves _source out unless asked', async () => {
      await es.call('PUT', '/sf', { mappings: { properties: { foo: { type: 'keyword', store: true }, bar: { type: 'keyword' } } } });
      await es.call('PUT', '/sf/_doc/1', { foo: 'x', bar: 'y' });
      const one = await es.call('GET', '/sf/_doc/1?stored_fields=foo,bar');
      expect(one.json.fields).to.deep.equal({ foo: ['x'] });
      expect(one.json).to.not.have.property('_source');
      const r = await es.call('POST', '/sf/_mget', { docs: [{ _id: '1' }, { _id: '1', stored_fields: ['foo', '_source'] }] });
      expect(r.json.docs[0]).to.not.have.property('fields');
      expect(r.json.docs[0]._source).to.deep.equal({ foo: 'x', bar: 'y' });
      expect(r.json.docs[1].fields).to.deep.equal({ foo: ['x'] });
      expect(r.json.docs[1]._source).to.deep.equal({ foo: 'x', bar: 'y' });
    });

    it('answers 404 for _source of an index whose _source is disabled, and leaves it out of GET', async () => {
      await es.call('PUT', '/nosrc', { mappings: { _source: { enabled: false } } });
      await es.call('PUT', '/nosrc/_doc/1', { foo: 'bar' });
      const r = await es.call('GET', '/nosrc/_source/1');
      expect(r.status).to.equal(404);
      expect(r.json.error.reason).to.equal('Source not found [nosrc]/[1]');
      expect((await es.call('GET', '/nosrc/_doc/1')).json).to.not.have.property('_source');
    });

    it('refuses index and update with require_alias on a name that is not an alias', async () => {
      const r = await es.call('POST', '/plain/_doc?require_alias=true', { a: 1 });
      expect(r.status).to.equal(404);
      expect(r.json.error.type).to.equal('index_not_found_exception');
      expect((await es.call('POST', '/plain/_update/1?require_alias=true', { doc: { a: 1 }, doc_as_upsert: true })).status).to.equal(404);
      expect((await es.call('HEAD', '/plain')).status).to.equal(404);
    });

    it('suggests the field an unknown update key was meant to be', async () => {
      await es.call('PUT', '/u/_doc/1', { a: 1 });
      const r = await es.call('POST', '/u/_update/1', { dac: { a: 2 } });
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.equal('[1:2] [UpdateRequest] unknown field [dac] did you mean [doc]?');
    });

    it('refuses a document with more nested objects than index.mapping.nested_objects.limit', async () => {
      await es.call('PUT', '/n', { settings: { 'index.mapping.nested_objects.limit': 2 }, mappings: { properties: { items: { type: 'nested' } } } });
      expect((await es.call('PUT', '/n/_doc/1', { items: [{ a: 1 }, { a: 2 }] })).status).to.equal(201);
      const r = await es.call('PUT', '/n/_doc/2', { items: [{ a: 1 }, { a: 2 }, { a: 3 }] });
      expect(r.status).to.equal(400);
      expect(r.json.error.type).to.equal('document_parsing_exception');
      expect(r.json.error.reason).to.equal('The number of nested documents has exceeded the allowed limit of [2]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.');
      expect((await es.call('HEAD', '/n/_doc/2')).status).to.equal(404);
    });
  });

  describe('_mget', () => {
    it('refuses unknown per-document keys such as the 7.x _routing and _version', async () => {
      await es.call('PUT', '/m/_doc/1', { a: 1 });
      for (const key of ['_routing', '_version']) {
        const r = await es.call('POST', '/_mget', { docs: [{ _index: 'm', _id: '1', [key]: 'x' }] });
        expect(r.status).to.equal(400);
        expect(r.json.error).to.include({ type: 'parse_exception', reason: `failed to parse multi get request. unknown field [${key}]` });
      }
    });

    it('reports a missing index as an error item without _type', async () => {
      const r = await es.call('POST', '/_mget', { docs: [{ _index: 'nope', _id: '1' }] });
      expect(r.json.docs[0]).to.have.keys('_index', '_id', 'error');
      expect(r.json.docs[0].error.type).to.equal('index_not_found_exception');
    });
  });
});
