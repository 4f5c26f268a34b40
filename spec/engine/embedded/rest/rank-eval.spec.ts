import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/** `_rank_eval`: rated searches scored by the reference's metrics, by GET and POST. */
describe('embedded engine: _rank_eval', () => {
  let es: TestEngine;
  const ratings = [
    { _index: 'foo', _id: 'doc1', rating: 0 },
    { _index: 'foo', _id: 'doc2', rating: 1 },
    { _index: 'foo', _id: 'doc3', rating: 1 },
  ];
  const requests = [
    { id: 'amsterdam_query', request: { query: { match: { text: 'amsterdam' } } }, ratings },
    { id: 'berlin_query', request: { query: { match: { text: 'berlin' } } }, ratings: [{ _index: 'foo', _id: 'doc1', rating: 1 }] },
  ];

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/foo', { mappings: { properties: { text: { type: 'text' }, title: { type: 'keyword' } } } });
    const docs: Array<[string, Record<string, unknown>]> = [
      ['doc1', { text: 'berlin', title: 'Berlin, Germany' }],
      ['doc2', { text: 'amsterdam', title: 'Amsterdam' }],
      ['doc3', { text: 'amsterdam', title: 'Amsterdam' }],
      ['doc4', { text: 'amsterdam', title: 'Amsterdam' }],
      ['doc5', { text: 'amsterdam', title: 'Amsterdam' }],
      ['doc6', { text: 'amsterdam', title: 'Amsterdam' }],
    ];
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(docs.flatMap(([id, d]) => [{ index: { _index: 'foo', _id: id } }, d])), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  it('precision@k: relevant hits over hits, per request and as the mean; unrated hits listed', async () => {
    for (const method of ['GET', 'POST']) {
      const r = await es.call(method, '/foo/_rank_eval', { requests, metric: { precision: { ignore_unlabeled: true } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.metric_score).to.equal(1);
      const amsterdam = r.json.details.amsterdam_query;
      expect(amsterdam.metric_score).to.equal(1);
      expect(amsterdam.metric_details).to.deep.equal({ precision: { relevant_docs_retrieved: 2, docs_retrieved: 2 } });
      expect(amsterdam.unrated_docs.map((d: { _id: string }) => d._id).sort()).to.deep.equal(['doc4', 'doc5', 'doc6']);
      expect(amsterdam.hits).to.have.length(5);
      expect(Object.keys(amsterdam.hits[0].hit).sort()).to.deep.equal(['_id', '_index', '_score']);
      expect(r.json.failures).to.deep.equal({});
    }
    const r = await es.call('POST', '/foo/_rank_eval', { requests, metric: { precision: { k: 10 } } });
    expect(r.json.details.amsterdam_query.metric_score).to.equal(2 / 5);
    expect(r.json.metric_score).to.equal((2 / 5 + 1) / 2);
  });

  it('recall, mean reciprocal rank, dcg and expected reciprocal rank', async () => {
    const one = [{ id: 'berlin_query', request: { query: { match: { text: 'berlin' } } }, ratings: [{ _index: 'foo', _id: 'doc1', rating: 3 }, { _index: 'foo', _id: 'doc2', rating: 1 }] }];
    let r = await es.call('POST', '/foo/_rank_eval', { requests: one, metric: { recall: { k: 10 } } });
    expect(r.json.details.berlin_query.metric_details).to.deep.equal({ recall: { relevant_docs_retrieved: 1, relevant_docs: 2 } });
    expect(r.json.metric_score).to.equal(0.5);
    r = await es.call('POST', '/foo/_rank_eval', { requests: one, metric: { mean_reciprocal_rank: {} } });
    expect([r.json.metric_score, r.json.details.berlin_query.metric_details]).to.deep.equal([1, { mean_reciprocal_rank: { first_relevant: 1 } }]);
    r = await es.call('POST', '/foo/_rank_eval', { requests: one, metric: { dcg: { k: 10 } } });
    const ideal = 7 + 1 / Math.log2(3);
    expect(r.json.details.berlin_query.metric_details).to.deep.equal({ dcg: { dcg: 7, ideal_dcg: ideal, normalized_dcg: 7 / ideal, unrated_docs: 0 } });
    r = await es.call('POST', '/foo/_rank_eval', { requests: one, metric: { dcg: { normalize: true } } });
    expect(r.json.metric_score).to.equal(7 / ideal);
    r = await es.call('POST', '/foo/_rank_eval', { requests: one, metric: { expected_reciprocal_rank: { maximum_relevance: 3 } } });
    expect(r.json.metric_score).to.equal(7 / 8);
  });

  it('templated requests; a failing request is listed under failures', async () => {
    const r = await es.call('POST', '/foo/_rank_eval', {
      templates: [{ id: 'match_one_field', template: { inline: { query: { match: { '{{field}}': { query: '{{q}}' } } } } } }],
      requests: [
        { id: 'templated', template_id: 'match_one_field', params: { field: 'text', q: 'berlin' }, ratings: [{ _index: 'foo', _id: 'doc1', rating: 1 }] },
        { id: 'broken', request: { query: { nope: {} } }, ratings: [] },
      ],
      metric: { precision: {} },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.details.templated.metric_score).to.equal(1);
    expect(r.json.failures.broken.error.type).to.equal('parsing_exception');
    expect(r.json.metric_score).to.equal(1);
  });
});

describe('embedded engine: _rank_eval refuses searches that are not plain rankings', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/foo/_doc/1?refresh=true', { text: 'berlin' });
  });
  after(() => es.close());

  const cases: Array<[Record<string, unknown>, string]> = [
    [{ aggs: { a: { avg: { field: 'grade' } } } }, 'Query in rated requests should not contain aggregations.'],
    [{ suggest: { s: { text: 'x', term: { field: 'text' } } } }, 'Query in rated requests should not contain a suggest section.'],
    [{ highlight: { fields: { text: {} } } }, 'Query in rated requests should not contain a highlighter section.'],
    [{ profile: true }, 'Query in rated requests should not use profile.'],
    [{ explain: 'true' }, 'Query in rated requests should not use explain.'],
  ];
  for (const [part, reason] of cases) {
    it(`${Object.keys(part)[0]}, given or rendered from a template`, async () => {
      for (const body of [
        { requests: [{ id: 'q', request: part, ratings: [] }], metric: { precision: {} } },
        { templates: [{ id: 't', template: { source: JSON.stringify(part) } }], requests: [{ id: 'q', template_id: 't', params: {}, ratings: [] }], metric: { precision: {} } },
      ]) {
        const r = await es.call('POST', '/foo/_rank_eval', body);
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason });
      }
    });
  }

  it('explain: false is a plain search', async () => {
    const r = await es.call('POST', '/foo/_rank_eval', { requests: [{ id: 'q', request: { explain: false, query: { match_all: {} } }, ratings: [] }], metric: { precision: {} } });
    expect(r.status, r.text).to.equal(200);
  });
});
