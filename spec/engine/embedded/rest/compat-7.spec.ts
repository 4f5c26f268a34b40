import { expect } from 'chai';
import { ndjson, startEngine, type Reply, type TestEngine } from '../support.js';

const V7 = 'application/vnd.elasticsearch+json;compatible-with=7';
const V7_NDJSON = 'application/vnd.elasticsearch+x-ndjson;compatible-with=7';
/** What the Elasticsearch 7 client sends in compatibility mode (note the space). */
const COMPAT = { accept: 'application/vnd.elasticsearch+json; compatible-with=7', 'content-type': 'application/vnd.elasticsearch+json; compatible-with=7' };
const READ = { accept: V7 };

const warning = (r: Reply) => String(r.headers.warning ?? '');
const ids = (r: Reply) => r.json.hits.hits.map((h: { _id: string }) => h._id).sort();

describe('embedded engine: REST API compatibility mode (compatible-with=7)', function () {
  this.timeout(30_000);
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  describe('the headers', () => {
    it('answers a compatible-with=7 request with the compatible Content-Type, and a plain one as before', async () => {
      const v7 = await es.call('GET', '/', undefined, READ);
      expect(v7.status).to.equal(200);
      expect(v7.headers['content-type']).to.equal(V7);
      const plain = await es.call('GET', '/');
      expect(plain.headers['content-type']).to.equal('application/json');
      const v8 = await es.call('GET', '/', undefined, { accept: 'application/vnd.elasticsearch+json;compatible-with=8' });
      expect(v8.headers['content-type']).to.equal('application/vnd.elasticsearch+json;compatible-with=8');
    });

    it('refuses a version other than 7 or 8 with media_type_header_exception', async () => {
      const r = await es.call('GET', '/', undefined, { accept: 'application/vnd.elasticsearch+json; compatible-with=9' });
      expect(r.status).to.equal(400);
      expect(r.json.error.type).to.equal('media_type_header_exception');
      expect(r.json.error.reason).to.equal('Invalid media-type value on headers [Accept, Content-Type]');
      expect(r.json.error.caused_by).to.deep.equal({
        type: 'status_exception',
        reason: 'Accept version must be either version 8 or 7, but found 9. Accept=application/vnd.elasticsearch+json; compatible-with=9',
      });
    });

    it('refuses a body whose Content-Type version differs from the Accept version, or names none', async () => {
      const mismatch = await es.call('POST', '/_search', {}, { accept: V7, 'content-type': 'application/vnd.elasticsearch+json;compatible-with=8' });
      expect(mismatch.status).to.equal(400);
      expect(mismatch.json.error.type).to.equal('media_type_header_exception');
      expect(mismatch.json.error.caused_by.reason).to.equal(
        'A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version and the compatible versions must match. ' +
          `Accept=${V7}, Content-Type=application/vnd.elasticsearch+json;compatible-with=8`,
      );
      const plainBody = await es.call('POST', '/_search', {}, { accept: V7 });
      expect(plainBody.status).to.equal(400);
      expect(plainBody.json.error.caused_by.reason).to.contain('the compatible versions must match');
      const unversionedAccept = await es.call('POST', '/_search', {}, { accept: 'application/vnd.elasticsearch+json;compatible-with=8', 'content-type': 'application/json' });
      expect(unversionedAccept.status).to.equal(400);
      expect(unversionedAccept.json.error.caused_by.reason).to.equal(
        'A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version. ' +
          'Accept=application/vnd.elasticsearch+json;compatible-with=8, Content-Type=application/json',
      );
    });
  });

  describe('typed requests', () => {
    before(async () => {
      const put = await es.call('PUT', '/twitter/tweet/1?refresh=true', { user: 'kimchy', message: 'trying out Elasticsearch' }, COMPAT);
      expect(put.status, put.text).to.equal(201);
    });

    it('PUT /{index}/{type}/{id} indexes the document, answers _type "_doc" and the types-removal warning', async () => {
      const put = await es.call('PUT', '/twitter/tweet/2?refresh=true', { user: 'other', message: 'second' }, COMPAT);
      expect(put.status, put.text).to.equal(201);
      expect(put.json).to.include({ _index: 'twitter', _type: '_doc', _id: '2', result: 'created' });
      expect(warning(put)).to.match(/^299 Elasticsearch-8\.15\.0-[0-9a-f]+ "\[types removal\] Specifying types in document index requests is deprecated, use the typeless endpoints instead \(\/\{index\}\/_doc\/\{id\}, \/\{index\}\/_doc, or \/\{index\}\/_create\/\{id\}\)\."$/);
      expect(put.headers['content-type']).to.equal(V7);
    });

    it('GET, HEAD and DELETE /{index}/{type}/{id}, whatever the type', async () => {
      const got = await es.call('GET', '/twitter/tweet/1', undefined, READ);
      expect(got.json).to.deep.include({ _index: 'twitter', _type: '_doc', _id: '1', found: true, _source: { user: 'kimchy', message: 'trying out Elasticsearch' } });
      expect(warning(got)).to.contain('[types removal] Specifying types in document get requests is deprecated, use the /{index}/_doc/{id} endpoint instead.');
      const other = await es.call('GET', '/twitter/anything/1', undefined, READ);
      expect(other.json.found).to.equal(true);
      expect((await es.call('HEAD', '/twitter/tweet/1', undefined, READ)).status).to.equal(200);
      await es.call('PUT', '/twitter/tweet/gone', { user: 'x' }, COMPAT);
      const deleted = await es.call('DELETE', '/twitter/tweet/gone', undefined, READ);
      expect(deleted.json).to.include({ _type: '_doc', result: 'deleted' });
      expect(warning(deleted)).to.contain('[types removal] Specifying types in document index requests is deprecated, use the /{index}/_doc/{id} endpoint instead.');
    });

    it('POST /{index}/{type} indexes with a generated id; /{index}/{type}/{id}/_update and _create', async () => {
      const auto = await es.call('POST', '/twitter/tweet', { user: 'auto' }, COMPAT);
      expect(auto.status, auto.text).to.equal(201);
      expect(auto.json._id).to.be.a('string');
      const update = await es.call('POST', '/twitter/tweet/1/_update', { doc: { likes: 3 } }, COMPAT);
      expect(update.json).to.include({ _type: '_doc', result: 'updated' });
      expect(warning(update)).to.contain('[types removal] Specifying types in document update requests is deprecated, use the endpoint /{index}/_update/{id} instead.');
      const create = await es.call('PUT', '/twitter/tweet/3/_create', { user: 'third' }, COMPAT);
      expect(create.status, create.text).to.equal(201);
      const again = await es.call('PUT', '/twitter/tweet/3/_create', { user: 'third' }, COMPAT);
      expect(again.status).to.equal(409);
      expect(again.json.error.type).to.equal('version_conflict_engine_exception');
    });

    it('/{index}/{type}/_search and _count search the index (the type is ignored); hits carry _type', async () => {
      await es.call('POST', '/twitter/_refresh');
      const search = await es.call('POST', '/twitter/tweet/_search', { query: { match: { user: 'kimchy' } } }, COMPAT);
      expect(search.status, search.text).to.equal(200);
      expect(ids(search)).to.deep.equal(['1']);
      expect(search.json.hits.hits[0]._type).to.equal('_doc');
      expect(warning(search)).to.contain('[types removal] Specifying types in search requests is deprecated.');
      // `_doc` is a type like any other here: a search, not the document `_search`
      const doc = await es.call('GET', '/twitter/_doc/_search?q=user:kimchy', undefined, READ);
      expect(ids(doc)).to.deep.equal(['1']);
      const count = await es.call('GET', '/twitter/tweet/_count?q=user:kimchy', undefined, READ);
      expect(count.json.count).to.equal(1);
      expect(warning(count)).to.contain('[types removal] Specifying types in count requests is deprecated.');
    });

    it('accepts _type in bulk action lines and mget docs, and type in msearch headers', async () => {
      const bulk = await es.call('POST', '/_bulk?refresh=true', ndjson([
        { index: { _index: 'twitter', _type: 'tweet', _id: '10' } }, { user: 'bulk' },
        { delete: { _index: 'twitter', _type: 'tweet', _id: '3' } },
      ]), { accept: V7, 'content-type': V7_NDJSON });
      expect(bulk.status, bulk.text).to.equal(200);
      expect(bulk.json.errors).to.equal(false);
      expect(bulk.json.items[0].index).to.include({ _index: 'twitter', _type: '_doc', _id: '10', status: 201 });
      expect(bulk.json.items[1].delete).to.include({ _type: '_doc', result: 'deleted' });
      expect(warning(bulk)).to.contain('[types removal] Specifying types in bulk requests is deprecated.');
      const typedPath = await es.call('POST', '/twitter/tweet/_bulk?refresh=true', ndjson([{ index: { _id: '11' } }, { user: 'path' }]), { accept: V7, 'content-type': V7_NDJSON });
      expect(typedPath.json.items[0].index).to.include({ _index: 'twitter', _id: '11', status: 201 });
      const mget = await es.call('POST', '/_mget', { docs: [{ _index: 'twitter', _type: 'tweet', _id: '10' }] }, COMPAT);
      expect(mget.status, mget.text).to.equal(200);
      expect(mget.json.docs[0]).to.include({ _type: '_doc', _id: '10', found: true });
      expect(warning(mget)).to.contain('[types removal] Specifying types in multi get requests is deprecated.');
      const msearch = await es.call('POST', '/_msearch', ndjson([{ index: 'twitter', type: 'tweet' }, { query: { match: { user: 'bulk' } } }]), { accept: V7, 'content-type': V7_NDJSON });
      expect(msearch.status, msearch.text).to.equal(200);
      expect(msearch.json.responses[0].hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['10']);
    });

    it('without the header, typed paths and _type stay errors as in Elasticsearch 8', async () => {
      const put = await es.call('PUT', '/twitter/tweet/99', { user: 'x' });
      expect(put.status).to.equal(400);
      expect(put.json.error.reason).to.equal('no handler found for uri [/twitter/tweet/99] and method [PUT]');
      const bulk = await es.call('POST', '/_bulk', ndjson([{ index: { _index: 'twitter', _type: 'tweet', _id: '1' } }, { a: 1 }]), { 'content-type': 'application/x-ndjson' });
      expect(bulk.status).to.equal(400);
      expect(bulk.json.error.reason).to.equal('Action/metadata line [1] contains an unknown parameter [_type]');
    });
  });

  describe('include_type_name and typed mappings', () => {
    it('creates an index with mappings under a type when include_type_name=true', async () => {
      const created = await es.call('PUT', '/typed?include_type_name=true', { mappings: { my_type: { properties: { title: { type: 'text' } } } } }, COMPAT);
      expect(created.status, created.text).to.equal(200);
      expect(warning(created)).to.contain('[types removal] Using include_type_name in create index requests is deprecated. The parameter will be removed in the next major version.');
      const plain = await es.call('GET', '/typed/_mapping', undefined, READ);
      expect(plain.json).to.deep.equal({ typed: { mappings: { properties: { title: { type: 'text' } } } } });
      // a type must have a name (Strings.hasText), in create index and put mapping alike
      for (const [path, body] of [['/untyped?include_type_name=true', { mappings: { '': {} } }], ['/typed/_mapping/t?include_type_name=true', { ' ': { properties: {} } }]] as const) {
        const r = await es.call('PUT', path, body, COMPAT);
        expect(r.status, path).to.equal(400);
        expect(r.json.error, path).to.include({ type: 'illegal_argument_exception', reason: 'name cannot be empty string' });
      }
    });

    it('answers get mapping under _doc with include_type_name=true, and refuses a type without it', async () => {
      const typed = await es.call('GET', '/typed/_mapping?include_type_name=true', undefined, READ);
      expect(typed.json).to.deep.equal({ typed: { mappings: { _doc: { properties: { title: { type: 'text' } } } } } });
      expect(warning(typed)).to.contain('[types removal] Using include_type_name in get mapping requests is deprecated.');
      const byType = await es.call('GET', '/typed/_mapping/my_type?include_type_name=true', undefined, READ);
      expect(byType.json).to.deep.equal(typed.json);
      // the `_mappings` spelling, as Elasticsearch's routes take it
      for (const path of ['/typed/_mappings/my_type?include_type_name=true', '/typed/my_type/_mappings?include_type_name=true', '/_mappings/my_type?include_type_name=true']) {
        const r = await es.call('GET', path, undefined, READ);
        expect(r.status, `${path}: ${r.text}`).to.equal(200);
        expect(r.json.typed, path).to.deep.equal(typed.json.typed);
      }
      const refused = await es.call('GET', '/typed/_mapping/my_type', undefined, READ);
      expect(refused.status).to.equal(400);
      expect(refused.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Types cannot be provided in get mapping requests, unless include_type_name is set to true.' });
      // get field mapping has its own words for it (RestGetFieldMappingAction), and ignores the type when allowed
      const field = await es.call('GET', '/typed/_mapping/my_type/field/title', undefined, READ);
      expect(field.status).to.equal(400);
      expect(field.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Types cannot be specified unless include_type_name is set to true.' });
      const fieldTyped = await es.call('GET', '/typed/_mapping/other_type/field/title?include_type_name=true', undefined, READ);
      expect(fieldTyped.status, fieldTyped.text).to.equal(200);
      expect(fieldTyped.json.typed.mappings._doc.title.mapping).to.deep.equal({ title: { type: 'text' } });
    });

    it('puts a mapping through /{index}/_mapping/{type} and /{index}/{type}/_mapping with include_type_name=true', async () => {
      const put = await es.call('PUT', '/typed/_mapping/my_type?include_type_name=true', { my_type: { properties: { year: { type: 'integer' } } } }, COMPAT);
      expect(put.status, put.text).to.equal(200);
      const put2 = await es.call('PUT', '/typed/my_type/_mapping?include_type_name=true', { properties: { tag: { type: 'keyword' } } }, COMPAT);
      expect(put2.status, put2.text).to.equal(200);
      const got = await es.call('GET', '/typed/_mapping', undefined, READ);
      expect(got.json.typed.mappings.properties).to.have.keys('title', 'year', 'tag');
      const refused = await es.call('PUT', '/typed/_mapping/my_type', { properties: { x: { type: 'keyword' } } }, COMPAT);
      expect(refused.status).to.equal(400);
      expect(refused.json.error.reason).to.equal('Types cannot be provided in put mapping requests, unless the include_type_name parameter is set to true.');
    });

    it('puts a mapping on every index through /_mapping/{type} and /_mappings/{type} (Elasticsearch 8\'s V7 routes)', async () => {
      expect((await es.call('PUT', '/every-1', {}, COMPAT)).status).to.equal(200);
      const put = await es.call('PUT', '/_mapping/my_type?include_type_name=true', { my_type: { properties: { every: { type: 'keyword' } } } }, COMPAT);
      expect(put.status, put.text).to.equal(200);
      expect(warning(put)).to.contain('[types removal] Specifying types in put mapping request is deprecated. Use typeless api instead');
      const put2 = await es.call('POST', '/_mappings/my_type?include_type_name=true', { properties: { every2: { type: 'keyword' } } }, COMPAT);
      expect(put2.status, put2.text).to.equal(200);
      for (const index of ['typed', 'every-1']) {
        const got = await es.call('GET', `/${index}/_mapping`, undefined, READ);
        expect(got.json[index].mappings.properties, index).to.include.keys('every', 'every2');
      }
    });

    it('puts a legacy template with mappings under a type when include_type_name=true, and refuses _doc without it', async () => {
      const put = await es.call('PUT', '/_template/typed_tpl?include_type_name=true', { index_patterns: ['tpl-*'], mappings: { my_type: { properties: { foo: { type: 'keyword' } } } } }, COMPAT);
      expect(put.status, put.text).to.equal(200);
      expect(warning(put)).to.contain('[types removal] Specifying include_type_name in put index template requests is deprecated. The parameter will be removed in the next major version.');
      const tpl = await es.call('GET', '/_template/typed_tpl', undefined, READ);
      expect(tpl.json.typed_tpl.mappings).to.deep.equal({ properties: { foo: { type: 'keyword' } } });
      expect((await es.call('PUT', '/tpl-1', {}, COMPAT)).status).to.equal(200);
      expect((await es.call('GET', '/tpl-1/_mapping', undefined, READ)).json['tpl-1'].mappings.properties.foo).to.deep.equal({ type: 'keyword' });
      const refused = await es.call('PUT', '/_template/typed_tpl2', { index_patterns: ['tpl2-*'], mappings: { _doc: { properties: { foo: { type: 'keyword' } } } } }, COMPAT);
      expect(refused.status).to.equal(400);
      expect(refused.json.error.reason).to.equal('The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.');
    });

    it('rolls over with mappings under a type when include_type_name=true, and refuses _doc without it as RolloverRequest\'s V7 parser does (Elasticsearch 8\'s own text otherwise)', async () => {
      expect((await es.call('PUT', '/roll-000001', { aliases: { roll: { is_write_index: true } } }, COMPAT)).status).to.equal(200);
      const typed = { mappings: { _doc: { properties: { foo: { type: 'keyword' } } } } };
      const refused = await es.call('POST', '/roll/_rollover', typed, COMPAT);
      expect(refused.status, refused.text).to.equal(400);
      expect(refused.json.error).to.deep.include({ type: 'x_content_parse_exception', reason: '[rollover] failed to parse field [mappings]' });
      expect(refused.json.error.caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: 'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.' });
      const plain = await es.call('POST', '/roll/_rollover', typed);
      expect(plain.status, plain.text).to.equal(400);
      expect(plain.json.error.caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: 'The mapping definition cannot be nested under a type' });
      expect((await es.call('GET', '/roll-000002', undefined, READ)).status).to.equal(404);
      const rolled = await es.call('POST', '/roll/_rollover?include_type_name=true', { mappings: { my_type: { properties: { foo: { type: 'keyword' } } } } }, COMPAT);
      expect(rolled.status, rolled.text).to.equal(200);
      expect(rolled.json).to.include({ rolled_over: true, new_index: 'roll-000002' });
      expect(warning(rolled)).to.contain('[types removal] Using include_type_name in rollover index requests is deprecated. The parameter will be removed in the next major version.');
      expect((await es.call('GET', '/roll-000002/_mapping', undefined, READ)).json['roll-000002'].mappings.properties.foo).to.deep.equal({ type: 'keyword' });
    });
  });

  describe('typed document paths', () => {
    it('reads a document under the type _all, as any type (GET /{index}/_all/{id})', async () => {
      expect((await es.call('PUT', '/all-typed/_doc/1?refresh=true', { foo: 'bar' }, COMPAT)).status).to.equal(201);
      const got = await es.call('GET', '/all-typed/_all/1', undefined, READ);
      expect(got.status, got.text).to.equal(200);
      expect(got.json).to.deep.include({ _index: 'all-typed', _type: '_doc', _id: '1', found: true, _source: { foo: 'bar' } });
      expect(warning(got)).to.contain('[types removal] Specifying types in document get requests is deprecated');
    });

    it('refuses _version and _routing in bulk action lines (unknown parameters in Elasticsearch 8, compatibility mode too)', async () => {
      for (const meta of [{ _version: 1 }, { _routing: 'r1' }]) {
        const r = await es.call('POST', '/_bulk', ndjson([{ update: { _index: 'all-typed', _type: 't', _id: '1', ...meta } }, { doc: { f: 1 } }]), {
          accept: V7, 'content-type': V7_NDJSON,
        });
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error.reason).to.equal(`Action/metadata line [1] contains an unknown parameter [${Object.keys(meta)[0]}]`);
      }
    });
  });
});
