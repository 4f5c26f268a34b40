import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * Named queries (Elasticsearch's `_name`, search/run-a-search "Named queries"): each hit lists the
 * named queries of the query and the post filter it matches, `matched_queries`; with
 * `include_named_queries_score=true`, each name with its query's score on the hit.
 */
describe('embedded engine: named queries (matched_queries)', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/named', { mappings: { properties: { title: { type: 'text' }, n: { type: 'integer' }, tag: { type: 'keyword' } } } });
    const lines = [
      { index: { _id: '1' } }, { title: 'hello world', n: 5, tag: 'a' },
      { index: { _id: '2' } }, { title: 'goodbye world', n: 50, tag: 'b' },
      { index: { _id: '3' } }, { title: 'nothing here', n: 500 },
    ];
    await es.call('POST', '/named/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  const matchedBy = (hits: Array<{ _id: string; matched_queries?: unknown }>) => Object.fromEntries(hits.map((h) => [h._id, h.matched_queries]));

  it('lists the named queries each hit matches, field-level and body-level names alike; a hit matching none has no member', async () => {
    const r = await es.call('POST', '/named/_search', {
      query: {
        bool: {
          should: [
            { match: { title: { query: 'hello', _name: 'greets' } } },
            { range: { n: { gte: 10, lte: 100, _name: 'middle' } } },
            { terms: { tag: ['a', 'b'], _name: 'tagged' } },
            { match_all: {} },
          ],
        },
      },
    });
    expect(r.status, r.text).to.equal(200);
    expect(matchedBy(r.json.hits.hits)).to.deep.equal({ 1: ['greets', 'tagged'], 2: ['middle', 'tagged'], 3: undefined });
  });

  it('reads the post filter\'s names and the compound queries\' own; include_named_queries_score maps each to its score', async () => {
    const r = await es.call('POST', '/named/_search?include_named_queries_score=true', {
      query: { bool: { should: [{ term: { tag: { value: 'a', _name: 'is_a' } } }, { query_string: { query: 'world', default_field: 'title', _name: 'qs' } }], _name: 'outer' } },
      post_filter: { exists: { field: 'tag', _name: 'has_tag' } },
    });
    expect(r.status, r.text).to.equal(200);
    const byId = matchedBy(r.json.hits.hits) as Record<string, Record<string, number>>;
    expect(Object.keys(byId).sort()).to.deep.equal(['1', '2']);
    expect(Object.keys(byId[1]).sort()).to.deep.equal(['has_tag', 'is_a', 'outer', 'qs']);
    expect(Object.keys(byId[2]).sort()).to.deep.equal(['has_tag', 'outer', 'qs']);
    // a filter's score is 1; a term query on a keyword scores as it would alone; the bool its hit's score
    expect(byId[1].has_tag).to.equal(1);
    expect(byId[1].is_a).to.be.greaterThan(0);
    const hit1 = r.json.hits.hits.find((h: { _id: string }) => h._id === '1');
    expect(byId[1].outer).to.be.closeTo(hit1._score, 1e-6);
  });
});
