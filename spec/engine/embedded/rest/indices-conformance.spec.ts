import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine REST: index APIs as Elasticsearch 8 answers them', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  it('refuses to delete an index through an alias, and wildcards skip aliases', async () => {
    await es.call('PUT', '/index', { aliases: { alias: {} } });
    await es.call('PUT', '/index2');
    const r = await es.call('DELETE', '/alias');
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('The provided expression [alias] matches an alias, specify the corresponding concrete indices instead.');
    expect((await es.call('DELETE', '/alias,index2?ignore_unavailable=true')).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('HEAD', '/index2')).status).to.equal(404);
    expect((await es.call('DELETE', '/alia*')).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('HEAD', '/index')).status).to.equal(200);
    expect((await es.call('DELETE', '/index,alia*?allow_no_indices=false')).status).to.equal(404);
    expect((await es.call('HEAD', '/index')).status).to.equal(200);
  });

  it('answers a name starting with _ with invalid_index_name_exception', async () => {
    const r = await es.call('GET', '/_foo');
    expect(r.status).to.equal(400);
    expect(r.json.error).to.include({ type: 'invalid_index_name_exception', reason: "Invalid index name [_foo], must not start with '_'." });
  });

  it('refuses create-index and legacy template mappings wrapped in _doc, as Elasticsearch 8 does (RestCreateIndexAction.prepareMappings)', async () => {
    const reason = 'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.';
    const created = await es.call('PUT', '/typed', { mappings: { _doc: { properties: { f: { type: 'keyword' } } } } });
    expect(created.status).to.equal(400);
    expect(created.json.error).to.include({ type: 'illegal_argument_exception', reason });
    expect((await es.call('HEAD', '/typed')).status).to.equal(404);
    const template = await es.call('PUT', '/_template/typed', { index_patterns: ['typed-*'], mappings: { _doc: { properties: { f: { type: 'keyword' } } } } });
    expect(template.status).to.equal(400);
    expect(template.json.error).to.include({ type: 'illegal_argument_exception', reason });
    // a field named _doc beside others is a mapping like any
    expect((await es.call('PUT', '/typed', { mappings: { properties: { _doc_id: { type: 'keyword' } } } })).status).to.equal(200);
  });

  it('takes the _mappings spelling of get and put mapping, as Elasticsearch\'s routes do', async () => {
    expect((await es.call('PUT', '/plural', {})).status).to.equal(200);
    const put = await es.call('PUT', '/plural/_mappings', { properties: { f: { type: 'keyword' } } });
    expect(put.status, put.text).to.equal(200);
    const expected = { plural: { mappings: { properties: { f: { type: 'keyword' } } } } };
    expect((await es.call('GET', '/plural/_mappings')).json).to.deep.equal(expected);
    expect((await es.call('GET', '/_mappings')).json).to.deep.include(expected);
  });

  it('shows human dates, defaults, named settings, and keeps existing settings with preserve_existing', async () => {
    await es.call('PUT', '/s', { settings: { number_of_shards: 3, number_of_replicas: 0 } });
    const human = await es.call('GET', '/s?human=true');
    expect(human.json.s.settings.index.creation_date_string).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(human.json.s.settings.index.version.created_string).to.equal('8.15.0');
    expect((await es.call('GET', '/s')).json.s.settings.index).to.not.have.property('creation_date_string');
    const defaults = await es.call('GET', '/s/_settings?include_defaults=true&flat_settings=true');
    expect(defaults.json.s.defaults['index.refresh_interval']).to.equal('1s');
    expect(defaults.json.s.defaults).to.not.have.property('index.number_of_shards');
    expect((await es.call('GET', '/_settings/index.number_of_shards')).json).to.deep.equal({ s: { settings: { index: { number_of_shards: '3' } } } });
    expect((await es.call('GET', '/s/_settings/_all')).json.s.settings.index.number_of_replicas).to.equal('0');
    await es.call('PUT', '/s/_settings?preserve_existing=true', { 'index.number_of_replicas': 1, 'index.translog.durability': 'async' });
    const after = (await es.call('GET', '/s/_settings')).json.s.settings.index;
    expect(after.number_of_replicas).to.equal('0');
    expect(after.translog.durability).to.equal('async');
  });

  it('refreshes all indices for an empty index list (//_refresh)', async () => {
    await es.call('PUT', '/a');
    const r = await es.call('POST', '//_refresh');
    expect(r.status).to.equal(200);
    expect(r.json._shards.failed).to.equal(0);
  });

  describe('_field_caps', () => {
    it('lists type, searchable and aggregatable per field, split by type when indices disagree', async () => {
      await es.call('PUT', '/fc1', { mappings: { properties: { text: { type: 'text', fields: { raw: { type: 'keyword' } } }, n: { type: 'long' }, obj: { properties: { k: { type: 'keyword', index: false } } } } } });
      await es.call('PUT', '/fc2', { mappings: { properties: { n: { type: 'keyword' } } } });
      const one = await es.call('GET', '/fc1/_field_caps?fields=text*,obj*');
      expect(one.json).to.deep.equal({
        indices: ['fc1'],
        fields: {
          text: { text: { type: 'text', metadata_field: false, searchable: true, aggregatable: false } },
          'text.raw': { keyword: { type: 'keyword', metadata_field: false, searchable: true, aggregatable: true } },
          obj: { object: { type: 'object', metadata_field: false, searchable: false, aggregatable: false } },
          'obj.k': { keyword: { type: 'keyword', metadata_field: false, searchable: false, aggregatable: true } },
        },
      });
      const both = await es.call('POST', '/fc*/_field_caps?fields=n');
      expect(both.json.fields.n).to.deep.equal({
        long: { type: 'long', metadata_field: false, searchable: true, aggregatable: true, indices: ['fc1'] },
        keyword: { type: 'keyword', metadata_field: false, searchable: true, aggregatable: true, indices: ['fc2'] },
      });
      expect((await es.call('GET', '/fc1/_field_caps?fields=_id')).json.fields._id._id).to.include({ metadata_field: true, searchable: true });
      expect((await es.call('GET', '/fc1/_field_caps')).status).to.equal(400);
    });

    it('leaves out the indices where index_filter rewrites to match_none, as the can-match test does', async () => {
      await es.call('PUT', '/fi1', { mappings: { properties: { ts: { type: 'date' }, only1: { type: 'keyword' } } } });
      await es.call('PUT', '/fi2', { mappings: { properties: { ts: { type: 'date' }, tag: { type: 'keyword' } } } });
      await es.call('PUT', '/fi3', { mappings: { properties: { ts: { type: 'date' } } } });
      await es.call('PUT', '/fi1/_doc/1?refresh=true', { ts: '2015-01-02' });
      await es.call('PUT', '/fi1/_doc/2?refresh=true', { ts: '2018-10-02' });
      await es.call('PUT', '/fi2/_doc/1?refresh=true', { ts: '2020-03-04', tag: 'a' });
      const caps = (filter: unknown) => es.call('POST', '/fi*/_field_caps?fields=*', { index_filter: filter });
      // beyond fi1's largest value, and fi3 has no value at all: both rewrite to match_none
      const recent = await caps({ range: { ts: { gte: '2019-01-01' } } });
      expect(recent.status).to.equal(200);
      expect(recent.json.indices).to.deep.equal(['fi2']);
      expect(recent.json.fields).to.have.property('tag');
      expect(recent.json.fields).to.not.have.property('only1');
      expect((await caps({ range: { ts: { lt: '2019-01-01' } } })).json.indices).to.deep.equal(['fi1']);
      expect((await caps({ match_none: {} })).json).to.deep.equal({ indices: [], fields: {} });
      // not a search: an index whose documents miss a term it maps stays
      expect((await caps({ term: { tag: 'nothing' } })).json.indices).to.deep.equal(['fi2']);
      expect((await caps({ bool: { filter: [{ term: { ts: '2015-01-02' } }] } })).json.indices).to.deep.equal(['fi1', 'fi2', 'fi3']);
    });
  });

  describe('_field_caps meta', () => {
    it("merges each type's mapping meta across indices: every key's distinct values, sorted", async () => {
      await es.call('PUT', '/m1', { mappings: { properties: { latency: { type: 'long', meta: { unit: 'ms', metric_type: 'gauge' } } } } });
      await es.call('PUT', '/m2', { mappings: { properties: { latency: { type: 'long', meta: { unit: 'ns' } } } } });
      await es.call('PUT', '/m3', { mappings: { properties: { latency: { type: 'keyword', meta: { unit: 's' } } } } });
      await es.call('PUT', '/m4');
      expect((await es.call('GET', '/m4/_field_caps?fields=latency')).json.fields).to.deep.equal({});
      expect((await es.call('GET', '/m1,m4/_field_caps?fields=latency')).json.fields.latency.long.meta).to.deep.equal({ metric_type: ['gauge'], unit: ['ms'] });
      const all = await es.call('GET', '/m*/_field_caps?fields=latency');
      expect(all.json.fields.latency.long).to.deep.equal({
        type: 'long', metadata_field: false, searchable: true, aggregatable: true, indices: ['m1', 'm2'], meta: { metric_type: ['gauge'], unit: ['ms', 'ns'] },
      });
      expect(all.json.fields.latency.keyword.meta).to.deep.equal({ unit: ['s'] });
    });
  });

  describe('_termvectors', () => {
    it('computes term vectors of a document\'s text fields from its source', async () => {
      await es.call('PUT', '/tv', { mappings: { properties: { text: { type: 'text' }, tag: { type: 'keyword' } } } });
      await es.call('PUT', '/tv/_doc/1', { text: 'The quick the fox', tag: 'Red' });
      const r = await es.call('GET', '/tv/_termvectors/1?fields=text');
      expect(r.json).to.include({ _index: 'tv', _id: '1', _version: 1, found: true });
      expect(r.json.term_vectors.text.terms).to.deep.equal({
        fox: { term_freq: 1, tokens: [{ position: 3, start_offset: 14, end_offset: 17 }] },
        quick: { term_freq: 1, tokens: [{ position: 1, start_offset: 4, end_offset: 9 }] },
        the: { term_freq: 2, tokens: [{ position: 0, start_offset: 0, end_offset: 3 }, { position: 2, start_offset: 10, end_offset: 13 }] },
      });
      const all = await es.call('POST', '/tv/_termvectors/1');
      expect(Object.keys(all.json.term_vectors).sort()).to.deep.equal(['tag', 'text']);
      expect(all.json.term_vectors.tag.terms).to.have.keys('Red');
      expect((await es.call('GET', '/tv/_termvectors/2')).json).to.deep.include({ found: false });
    });
  });
});
