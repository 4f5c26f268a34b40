import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../lib/engine/embedded/analysis/index.js';
import { createDocumentMatcher } from '../../../lib/engine/embedded/index.js';
import { ndjson, startEngine, type TestEngine } from './support.js';

describe('embedded engine: search', () => {
  let es: TestEngine;
  const hitIds = (r: { json: { hits: { hits: Array<{ _id: string }> } } }) => r.json.hits.hits.map((h) => h._id);

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/s1', { mappings: { properties: { tag: { type: 'keyword' }, title: { type: 'text' }, n: { type: 'long' } } } });
    const docs = [
      { title: 'The Quick brown fox', tag: 'animal', n: 1, color: 'brown' },
      { title: 'Lazy dog', tag: 'animal', n: 2, color: 'black' },
      { title: 'Quick start guide', tag: 'doc', n: 3 },
      { title: 'Unrelated', tag: 'misc', n: 4 },
    ];
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: 's1', _id: String(i + 1) } }, d));
    lines.push({ index: { _index: 's2', _id: 'a' } }, { tag: 'animal', title: 'other index' });
    await es.call('POST', '/_bulk', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  it('match_all: took, timed_out, _shards, hits.total, max_score, hits with _type', async () => {
    const r = await es.call('GET', '/s1/_search');
    expect(r.status).to.equal(200);
    expect(r.json.took).to.be.a('number');
    expect(r.json.timed_out).to.equal(false);
    expect(r.json._shards).to.deep.equal({ total: 1, successful: 1, skipped: 0, failed: 0 });
    expect(r.json.hits.total).to.deep.equal({ value: 4, relation: 'eq' });
    expect(r.json.hits.max_score).to.equal(1);
    expect(hitIds(r)).to.deep.equal(['1', '2', '3', '4']);
    expect(r.json.hits.hits[0]).to.deep.equal({ _index: 's1', _type: '_doc', _id: '1', _score: 1, _source: { title: 'The Quick brown fox', tag: 'animal', n: 1, color: 'brown' } });
  });

  it('term on text matches analyzed tokens, on keyword exact values', async () => {
    let r = await es.call('POST', '/s1/_search', { query: { term: { title: 'quick' } } });
    expect(hitIds(r).sort()).to.deep.equal(['1', '3']);
    r = await es.call('POST', '/s1/_search', { query: { term: { title: 'Quick' } } });
    expect(r.json.hits.total.value).to.equal(0);
    r = await es.call('POST', '/s1/_search', { query: { term: { tag: 'animal' } } });
    expect(hitIds(r)).to.deep.equal(['1', '2']);
    expect(r.json.hits.hits[0]._score).to.be.greaterThan(0);
    r = await es.call('POST', '/s1/_search', { query: { term: { tag: 'Animal' } } });
    expect(r.json.hits.total.value).to.equal(0);
    r = await es.call('POST', '/s1/_search', { query: { term: { 'color.raw': { value: 'brown' } } } });
    expect(hitIds(r)).to.deep.equal(['1']);
    r = await es.call('POST', '/s1/_search', { query: { term: { n: 3 } } });
    expect(hitIds(r)).to.deep.equal(['3']);
  });

  it('terms, ids and bool with must/filter/should/must_not and minimum_should_match', async () => {
    let r = await es.call('POST', '/s1/_search', { query: { terms: { tag: ['doc', 'misc'] } } });
    expect(hitIds(r)).to.deep.equal(['3', '4']);
    expect(r.json.hits.hits[0]._score).to.equal(1);
    r = await es.call('POST', '/s1/_search', { query: { ids: { values: ['4', '2', 'zz'] } } });
    expect(hitIds(r)).to.deep.equal(['2', '4']);
    r = await es.call('POST', '/s1/_search', { query: { bool: { filter: [{ term: { tag: 'animal' } }], must_not: { term: { n: 2 } } } } });
    expect(hitIds(r)).to.deep.equal(['1']);
    expect(r.json.hits.hits[0]._score).to.equal(0);
    r = await es.call('POST', '/s1/_search', { query: { bool: { should: [{ term: { tag: 'doc' } }, { term: { title: 'quick' } }, { term: { n: 4 } }], minimum_should_match: 2 } } });
    expect(hitIds(r)).to.deep.equal(['3']);
    r = await es.call('POST', '/s1/_search', { query: { bool: { must: { term: { title: 'quick' } }, should: { term: { tag: 'doc' } } } } });
    expect(hitIds(r)).to.deep.equal(['3', '1']);
  });

  it('from/size, _source filtering, track_total_hits, rest_total_hits_as_int', async () => {
    let r = await es.call('POST', '/s1/_search?size=2&from=1', {});
    expect(hitIds(r)).to.deep.equal(['2', '3']);
    r = await es.call('POST', '/s1/_search', { from: 3, size: 5, _source: ['tag'] });
    expect(r.json.hits.hits).to.have.length(1);
    expect(r.json.hits.hits[0]._source).to.deep.equal({ tag: 'misc' });
    r = await es.call('POST', '/s1/_search', { size: 1, _source: false });
    expect(r.json.hits.hits[0]).to.not.have.property('_source');
    r = await es.call('POST', '/s1/_search', { size: 1, _source: { excludes: ['title', 'n'] } });
    expect(r.json.hits.hits[0]._source).to.deep.equal({ tag: 'animal', color: 'brown' });
    r = await es.call('GET', '/s1/_search?size=1&_source_includes=n');
    expect(r.json.hits.hits[0]._source).to.deep.equal({ n: 1 });
    r = await es.call('POST', '/s1/_search', { track_total_hits: 2, size: 0 });
    expect(r.json.hits.total).to.deep.equal({ value: 2, relation: 'gte' });
    expect(r.json.hits.hits).to.deep.equal([]);
    r = await es.call('POST', '/s1/_search', { track_total_hits: false });
    expect(r.json.hits).to.not.have.property('total');
    r = await es.call('GET', '/s1/_search?rest_total_hits_as_int=true');
    expect(r.json.hits.total).to.equal(4);
    r = await es.call('POST', '/s1/_search', { query: { term: { tag: 'none' } } });
    expect(r.json.hits.max_score).to.equal(null);
  });

  it('hits.max_score: a number only when ordered by relevance alone or with track_scores; hits sorted by _score still show it', async () => {
    const maxScore = async (body: Record<string, unknown>) => (await es.call('POST', '/s1/_search', { size: 1, ...body })).json.hits;
    expect((await maxScore({})).max_score).to.equal(1);
    expect((await maxScore({ sort: ['_score'] })).max_score).to.equal(1);
    expect((await maxScore({ size: 0 })).max_score).to.equal(null);
    expect((await maxScore({ sort: [{ n: 'asc' }] })).max_score).to.equal(null);
    expect((await maxScore({ sort: [{ n: 'asc' }], track_scores: true })).max_score).to.equal(1);
    // any sort other than _score descending alone is a field sort to Elasticsearch: no maximum tracked
    const ascending = await maxScore({ sort: [{ _score: 'asc' }] });
    expect([ascending.max_score, ascending.hits[0]._score]).to.deep.equal([null, 1]);
    const tieBroken = await maxScore({ sort: ['_score', { n: 'asc' }] });
    expect([tieBroken.max_score, tieBroken.hits[0]._score]).to.deep.equal([null, 1]);
    expect((await maxScore({ sort: ['_score', { n: 'asc' }], track_scores: true })).max_score).to.equal(1);
  });

  it('searches across comma lists, wildcards and _all; _count', async () => {
    let r = await es.call('POST', '/s1,s2/_search', { query: { term: { tag: 'animal' } } });
    expect(r.json.hits.total.value).to.equal(3);
    expect(r.json._shards.total).to.equal(2);
    r = await es.call('POST', '/s*/_search', { query: { term: { tag: 'animal' } } });
    expect(r.json.hits.total.value).to.equal(3);
    r = await es.call('POST', '/_all/_search', { size: 0 });
    expect(r.json.hits.total.value).to.equal(5);
    r = await es.call('POST', '/_search', { size: 0 });
    expect(r.json.hits.total.value).to.equal(5);
    r = await es.call('POST', '/nomatch*/_search', {});
    expect(r.json.hits.total.value).to.equal(0);
    r = await es.call('POST', '/missing/_search', {});
    expect(r.status).to.equal(404);
    r = await es.call('GET', '/s1/_count');
    expect(r.json).to.deep.equal({ count: 4, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
    r = await es.call('POST', '/s*/_count', { query: { term: { tag: 'animal' } } });
    expect(r.json.count).to.equal(3);
  });

  it('writes are searchable as soon as they are acknowledged', async () => {
    await es.call('PUT', '/s3/_doc/1', { tag: 'fresh' });
    let r = await es.call('POST', '/s3/_search', { query: { term: { tag: 'fresh' } } });
    expect(r.json.hits.total.value).to.equal(1);
    await es.call('PUT', '/s3/_doc/1', { tag: 'stale' });
    r = await es.call('POST', '/s3/_search', { query: { term: { tag: 'fresh' } } });
    expect(r.json.hits.total.value).to.equal(0);
    await es.call('DELETE', '/s3/_doc/1');
    r = await es.call('POST', '/s3/_count', {});
    expect(r.json.count).to.equal(0);
  });

  it('bad search input → ES errors, server keeps serving', async () => {
    let r = await es.call('POST', '/s1/_search', '{"query":');
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('x_content_parse_exception');
    r = await es.call('POST', '/s1/_search', '[1]');
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('parsing_exception');
    r = await es.call('POST', '/s1/_search', { query: { bogus: {} } });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.include({ type: 'parsing_exception', reason: 'unknown query [bogus]' });
    r = await es.call('POST', '/s1/_search', { query: { term: { a: 1, b: 2 } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal("[term] query doesn't support multiple fields, found [a] and [b]");
    r = await es.call('POST', '/s1/_search', { nonsense: 1 });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('parsing_exception');
    r = await es.call('POST', '/s1/_search', { from: 9999, size: 10 });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.contain('Result window is too large');
    r = await es.call('POST', '/s1/_search', { query: { term: { n: 'abc' } } });
    expect(r.status).to.equal(400);
    expect((await es.call('GET', '/s1/_count')).json.count).to.equal(4);
  });
});

describe('embedded engine: matching one document without the index', () => {
  const mappings = { properties: { tag: { type: 'keyword' }, title: { type: 'text' }, n: { type: 'long' } } };
  const ctx = { mappings, registry: createAnalysisRegistry(undefined) };

  it('applies the same term, terms, ids and bool semantics as the index', () => {
    const doc = { id: '7', source: { tag: 'animal', title: 'The Quick fox', n: 3, extra: 'Dyn Value' } };
    const matches = (q: unknown) => createDocumentMatcher(q, ctx)(doc);
    expect(matches({ match_all: {} })).to.equal(true);
    expect(matches({ term: { title: 'quick' } })).to.equal(true);
    expect(matches({ term: { title: 'Quick' } })).to.equal(false);
    expect(matches({ term: { tag: 'animal' } })).to.equal(true);
    expect(matches({ term: { n: '3' } })).to.equal(true);
    expect(matches({ term: { 'extra.raw': 'Dyn Value' } })).to.equal(true);
    expect(matches({ terms: { tag: ['x', 'animal'] } })).to.equal(true);
    expect(matches({ ids: { values: ['7'] } })).to.equal(true);
    expect(matches({ bool: { must: [{ term: { tag: 'animal' } }], must_not: [{ term: { n: 3 } }] } })).to.equal(false);
    expect(matches({ bool: { should: [{ term: { tag: 'x' } }, { term: { n: 3 } }], minimum_should_match: 1 } })).to.equal(true);
    expect(matches({ bool: { should: [{ term: { tag: 'x' } }, { term: { n: 3 } }], minimum_should_match: 2 } })).to.equal(false);
  });
});
