import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** GET mapping and get field mapping as Elasticsearch answers them; expensive-query and docvalue limits. */
describe('embedded engine: mapping APIs and search limits', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    const created = await es.call('PUT', '/maps-1', {
      mappings: {
        _routing: { required: false },
        properties: {
          text: { type: 'text', fields: { raw: { type: 'keyword' } } },
          obj: { properties: { inner: { type: 'long' }, deep: { properties: { leaf: { type: 'keyword' } } } } },
          nest: { type: 'nested' },
        },
      },
    });
    expect(created.status, created.text).to.equal(200);
    expect((await es.call('PUT', '/maps-2', { mappings: { properties: { other: { type: 'keyword' } } } })).status).to.equal(200);
    expect((await es.call('PUT', '/maps-3')).status).to.equal(200);
    expect((await es.call('POST', '/maps-3/_close')).status).to.equal(200);
    const doc = await es.call('PUT', '/maps-1/_doc/1?refresh=true', { text: 'outside it is cold', obj: { inner: 1 }, nest: [{ foo: 'bar' }] });
    expect(doc.status, doc.text).to.equal(201);
  });
  after(() => es.close());

  it('get field mapping: the exact shape, multi-fields, object paths, wildcards', async () => {
    const r = await es.call('GET', '/maps-1/_mapping/field/text.raw,obj.inner,obj.deep.*');
    expect(r.status).to.equal(200);
    expect(r.json).to.deep.equal({
      'maps-1': {
        mappings: {
          'text.raw': { full_name: 'text.raw', mapping: { raw: { type: 'keyword' } } },
          'obj.inner': { full_name: 'obj.inner', mapping: { inner: { type: 'long' } } },
          'obj.deep.leaf': { full_name: 'obj.deep.leaf', mapping: { leaf: { type: 'keyword' } } },
        },
      },
    });
    const all = await es.call('GET', '/_mapping/field/other,text');
    expect(Object.keys(all.json).sort()).to.deep.equal(['maps-1', 'maps-2']);
    expect(all.json['maps-2'].mappings.other.full_name).to.equal('other');
  });

  it('get field mapping: include_defaults, metadata fields by name, a missing field is left out', async () => {
    const r = await es.call('GET', '/maps-1/_mapping/field/text,_id,_routing,missing?include_defaults=true');
    const m = r.json['maps-1'].mappings;
    expect(m.text.mapping.text).to.include({ type: 'text', index: true, store: false });
    expect(m._id).to.deep.equal({ full_name: '_id', mapping: {} });
    expect(m._routing).to.deep.equal({ full_name: '_routing', mapping: { _routing: { required: false } } });
    expect(m).to.not.have.property('missing');
  });

  it('get field mapping: an object or nested field is no field mapper, neither by name nor by pattern (its leaves are)', async () => {
    const r = await es.call('GET', '/maps-1/_mapping/field/obj,obj.deep,nest,ob*');
    expect(r.status).to.equal(200);
    expect(Object.keys(r.json['maps-1'].mappings).sort()).to.deep.equal(['obj.deep.leaf', 'obj.inner']);
    expect((await es.call('GET', '/maps-1/_mapping/field/obj')).json).to.deep.equal({ 'maps-1': { mappings: {} } });
  });

  it('get mapping: all indices, comma lists, wildcards with expand_wildcards', async () => {
    expect(Object.keys((await es.call('GET', '/_mapping')).json).sort()).to.include.members(['maps-1', 'maps-2']);
    expect(Object.keys((await es.call('GET', '/maps-1,maps-2/_mapping')).json).sort()).to.deep.equal(['maps-1', 'maps-2']);
    expect(Object.keys((await es.call('GET', '/maps-*/_mapping?expand_wildcards=closed')).json)).to.deep.equal(['maps-3']);
    expect((await es.call('GET', '/maps-*/_mapping?expand_wildcards=none')).json).to.deep.equal({});
    expect((await es.call('GET', '/maps-2/_mapping')).json).to.deep.equal({ 'maps-2': { mappings: { properties: { other: { type: 'keyword' } } } } });
  });

  it('get mapping: wildcards and all indices expand to open indices by default (expand_wildcards=open); a closed index named is answered', async () => {
    expect(Object.keys((await es.call('GET', '/maps-*/_mapping')).json).sort()).to.deep.equal(['maps-1', 'maps-2']);
    expect(Object.keys((await es.call('GET', '/_mapping')).json)).to.not.include('maps-3');
    expect(Object.keys((await es.call('GET', '/_all/_mapping')).json)).to.not.include('maps-3');
    expect(Object.keys((await es.call('GET', '/maps-*/_mapping?expand_wildcards=all')).json).sort()).to.deep.equal(['maps-1', 'maps-2', 'maps-3']);
    expect((await es.call('GET', '/maps-3/_mapping')).json).to.deep.equal({ 'maps-3': { mappings: {} } });
  });

  it('get mapping on a missing index: 404 index_not_found_exception unless ignore_unavailable (and allow_no_indices)', async () => {
    const missing = await es.call('GET', '/nope/_mapping');
    expect(missing.status).to.equal(404);
    expect(missing.json.error.type).to.equal('index_not_found_exception');
    expect((await es.call('GET', '/nope/_mapping/field/f')).status).to.equal(404);
    const ignored = await es.call('GET', '/nope/_mapping?ignore_unavailable=true');
    expect([ignored.status, ignored.json]).to.deep.equal([200, {}]);
    expect((await es.call('GET', '/nope/_mapping?ignore_unavailable=true&allow_no_indices=false')).status).to.equal(404);
  });

  it('search.allow_expensive_queries: false refuses expensive queries with Elasticsearch\'s reasons, and null restores them', async () => {
    const setting = (value: string | null) => es.call('PUT', '/_cluster/settings', { transient: { 'search.allow_expensive_queries': value } });
    expect((await setting('false')).status).to.equal(200);
    try {
      const refusal = async (query: unknown) => {
        const r = await es.call('POST', '/maps-1/_search', { query });
        expect(r.status, r.text).to.equal(400);
        return r.json.error.reason as string;
      };
      expect(await refusal({ prefix: { text: 'out' } })).to.equal(
        "[prefix] queries cannot be executed when 'search.allow_expensive_queries' is set to false. For optimised prefix queries on text fields please enable [index_prefixes].");
      expect(await refusal({ wildcard: { text: 'out?ide' } })).to.equal("[wildcard] queries cannot be executed when 'search.allow_expensive_queries' is set to false.");
      expect(await refusal({ bool: { filter: [{ regexp: { text: '.*ou.*' } }] } })).to.equal("[regexp] queries cannot be executed when 'search.allow_expensive_queries' is set to false.");
      expect(await refusal({ span_multi: { match: { fuzzy: { text: 'outsid' } } } })).to.equal("[fuzzy] queries cannot be executed when 'search.allow_expensive_queries' is set to false.");
      expect(await refusal({ range: { 'text.raw': { gte: 'a' } } })).to.equal("[range] queries on [text] or [keyword] fields cannot be executed when 'search.allow_expensive_queries' is set to false.");
      expect(await refusal({ nested: { path: 'nest', query: { match_all: {} } } })).to.equal("[joining] queries cannot be executed when 'search.allow_expensive_queries' is set to false.");
      const numeric = await es.call('POST', '/maps-1/_search', { query: { range: { 'obj.inner': { gte: 1 } } } });
      expect(numeric.json.hits.total.value).to.equal(1);
    } finally {
      expect((await setting(null)).status).to.equal(200);
    }
    expect((await es.call('POST', '/maps-1/_search', { query: { prefix: { text: 'out' } } })).json.hits.total.value).to.equal(1);
  });

  it('index.max_docvalue_fields_search limits docvalue_fields (the mapped fields asked for, each once, as Elasticsearch 8 counts them)', async () => {
    expect((await es.call('PUT', '/maps-1/_settings', { 'index.max_docvalue_fields_search': 1 })).status).to.equal(200);
    const r = await es.call('POST', '/maps-1/_search', { docvalue_fields: ['obj.inner', 'obj.deep.leaf'] });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Trying to retrieve too many docvalue_fields. Must be less than or equal to: [1] but was [2]. ' +
      'This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.');
    // one field asked for 101 times is one field
    expect((await es.call('POST', '/maps-1/_search', { docvalue_fields: new Array(101).fill('obj.inner') })).status).to.equal(200);
    expect((await es.call('PUT', '/maps-1/_settings', { 'index.max_docvalue_fields_search': 200 })).status).to.equal(200);
    expect((await es.call('POST', '/maps-1/_search', { docvalue_fields: ['obj.inner', 'obj.deep.leaf'] })).status).to.equal(200);
  });
});
