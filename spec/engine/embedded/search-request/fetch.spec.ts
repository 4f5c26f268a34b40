import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine: fields, docvalue_fields, _source, stored_fields, highlight', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/f', {
      mappings: {
        properties: {
          title: { type: 'text', fields: { raw: { type: 'keyword' } } },
          code: { type: 'keyword', normalizer: 'lowercase' },
          n: { type: 'integer' },
          price: { type: 'float' },
          d: { type: 'date', format: 'yyyy-MM-dd' },
          ok: { type: 'boolean' },
          user: { properties: { name: { type: 'keyword' }, age: { type: 'long' } } },
          body: { type: 'text' },
        },
      },
    });
    await es.call('PUT', '/f/_doc/1?refresh=true', {
      title: 'The quick brown fox is brown.', code: 'ABC', n: ['7', 3], price: 1.1, d: '2021-03-04', ok: 'true',
      user: { name: 'kim', age: 30 },
      body: 'First sentence is here. The second sentence talks about a fox. A third sentence without it.',
    });
  });
  after(() => es.close());

  it('fields: values from _source, typed and formatted per mapping, with wildcards and multi-fields', async () => {
    const r = await es.call('POST', '/f/_search', { _source: false, fields: ['title*', 'code', 'n', 'price', { field: 'd', format: 'dd/MM/yyyy' }, 'ok', 'user.*'] });
    expect(r.json.hits.hits[0]._source).to.equal(undefined);
    expect(r.json.hits.hits[0].fields).to.deep.equal({
      title: ['The quick brown fox is brown.'], 'title.raw': ['The quick brown fox is brown.'], code: ['abc'], n: [7, 3], price: [1.1],
      d: ['04/03/2021'], ok: [true], 'user.name': ['kim'], 'user.age': [30],
    });
  });

  it('docvalue_fields: sorted doc values, dates with the field format or a given one', async () => {
    const r = await es.call('POST', '/f/_search', { _source: false, docvalue_fields: ['n', 'code', 'd', { field: 'd', format: 'epoch_millis' }, 'ok'] });
    expect(r.json.hits.hits[0].fields).to.deep.equal({ n: [3, 7], code: ['abc'], d: [String(Date.UTC(2021, 2, 4))], ok: [true] });
    const r2 = await es.call('POST', '/f/_search', { _source: false, docvalue_fields: ['d'] });
    expect(r2.json.hits.hits[0].fields).to.deep.equal({ d: ['2021-03-04'] });
    const r3 = await es.call('POST', '/f/_search', { docvalue_fields: ['title'] });
    expect(r3.status).to.equal(400);
  });

  it('_source includes/excludes with wildcards; stored_fields [] and _none_', async () => {
    let r = await es.call('POST', '/f/_search', { _source: { includes: ['user.*', 'n'], excludes: ['user.age'] } });
    expect(r.json.hits.hits[0]._source).to.deep.equal({ n: ['7', 3], user: { name: 'kim' } });
    r = await es.call('GET', '/f/_search?_source_includes=code');
    expect(r.json.hits.hits[0]._source).to.deep.equal({ code: 'ABC' });
    r = await es.call('POST', '/f/_search', { stored_fields: [] });
    expect(r.json.hits.hits[0]).to.deep.equal({ _index: 'f', _type: '_doc', _id: '1', _score: 1 });
    r = await es.call('POST', '/f/_search', { stored_fields: '_none_' });
    expect(r.json.hits.hits[0]).to.deep.equal({ _index: 'f', _type: '_doc', _score: 1 });
  });

  it('stored_fields naming _source fetches the source (filtered by _source), a list without it does not', async () => {
    let r = await es.call('POST', '/f/_search', { stored_fields: ['code', '_source'], _source: ['code'] });
    expect(r.json.hits.hits[0]._source).to.deep.equal({ code: 'ABC' });
    r = await es.call('GET', '/f/_search?stored_fields=_source');
    expect(r.json.hits.hits[0]._source).to.have.property('code', 'ABC');
    r = await es.call('POST', '/f/_search', { stored_fields: ['code'] });
    expect(r.json.hits.hits[0]).to.not.have.property('_source');
  });

  it('highlight: whole short values, sentence fragments of long ones, custom tags, number_of_fragments 0', async () => {
    let r = await es.call('POST', '/f/_search', { query: { term: { title: 'brown' } }, highlight: { fields: { title: {} } } });
    expect(r.json.hits.hits[0].highlight).to.deep.equal({ title: ['The quick <em>brown</em> fox is <em>brown</em>.'] });
    r = await es.call('POST', '/f/_search', {
      query: { bool: { should: [{ term: { body: 'fox' } }, { term: { title: 'quick' } }] } },
      highlight: { pre_tags: ['['], post_tags: [']'], fields: [{ body: { fragment_size: 50 } }, { 'title*': {} }] },
    });
    expect(r.json.hits.hits[0].highlight).to.deep.equal({ body: ['The second sentence talks about a [fox].'], title: ['The [quick] brown fox is brown.'] });
    r = await es.call('POST', '/f/_search', { query: { term: { body: 'fox' } }, highlight: { fields: { body: { fragment_size: 20 } } } });
    expect(r.json.hits.hits[0].highlight.body).to.deep.equal(['about a <em>fox</em>.']);
    r = await es.call('POST', '/f/_search', { query: { term: { body: 'fox' } }, highlight: { fields: { body: { number_of_fragments: 0 } } } });
    expect(r.json.hits.hits[0].highlight.body).to.deep.equal(['First sentence is here. The second sentence talks about a <em>fox</em>. A third sentence without it.']);
    r = await es.call('POST', '/f/_search', {
      query: { term: { body: 'fox' } }, highlight: { require_field_match: false, fields: { title: {} } },
    });
    expect(r.json.hits.hits[0].highlight).to.deep.equal({ title: ['The quick brown <em>fox</em> is brown.'] });
    r = await es.call('POST', '/f/_search', { query: { match_all: {} }, highlight: { fields: { code: { highlight_query: { term: { code: 'abc' } } } } } });
    expect(r.json.hits.hits[0].highlight).to.deep.equal({ code: ['<em>ABC</em>'] });
  });

  it('version, seq_no_primary_term, explain and indices_boost', async () => {
    await es.call('PUT', '/g/_doc/1?refresh=true', { title: 'x' });
    let r = await es.call('POST', '/f,g/_search', { version: true, seq_no_primary_term: true, indices_boost: [{ g: 3 }] });
    expect(r.json.hits.hits.map((h: { _index: string; _score: number }) => [h._index, h._score])).to.deep.equal([['g', 3], ['f', 1]]);
    expect(r.json.hits.hits[0]).to.include({ _version: 1, _seq_no: 0, _primary_term: 1 });
    r = await es.call('POST', '/f/_search', { explain: true });
    expect(r.json.hits.hits[0]._explanation.value).to.equal(1);
  });
});
