import { expect } from 'chai';
import { call as gatewayCall } from '../../support/http.js';
import { BACKENDS } from '../../support/backends.js';
import { ndjson, startEngine, type TestEngine } from './support.js';

/** First pass: a document's score is its `n` (d1 … d20). */
const BY_N = { script_score: { query: { match_all: {} }, script: { source: "doc['n'].value" } } };
/** The rescore query: 100 for the even documents, no match for the odd ones. */
const EVEN_100 = { script_score: { query: { term: { even: true } }, script: { source: '100' } } };

const docs = Array.from({ length: 20 }, (_, i) => ({ id: `d${i + 1}`, n: i + 1, even: (i + 1) % 2 === 0 }));
const bulk = ndjson(docs.flatMap(({ id, ...source }) => [{ index: { _index: 'scores', _id: id } }, source]));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const hitsOf = (json: any): Array<[string, number]> => json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]);

describe('embedded engine: rescore (the query rescorer)', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/scores', { mappings: { properties: { n: { type: 'integer' }, even: { type: 'boolean' } } } })).status).to.equal(200);
    expect((await es.call('POST', '/_bulk?refresh=true', bulk, { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
  });
  after(() => es.close());

  const search = (body: Record<string, unknown>) => es.call('POST', '/scores/_search', body);

  it('rescores the window with the combined score; the documents past it keep theirs, weighted; all ordered again', async () => {
    const r = await search({ query: BY_N, rescore: { window_size: 5, query: { rescore_query: EVEN_100 } } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.total.value).to.equal(20);
    expect(r.json.hits.max_score).to.equal(120);
    expect(hitsOf(r.json)).to.deep.equal([
      ['d20', 120], ['d18', 118], ['d16', 116], ['d19', 19], ['d17', 17], ['d15', 15], ['d14', 14], ['d13', 13], ['d12', 12], ['d11', 11],
    ]);
  });

  it('query_weight, rescore_query_weight and every score_mode, as Elasticsearch combines them', async () => {
    const rescore = (score_mode: string) => ({ window_size: 4, query: { rescore_query: EVEN_100, query_weight: 0.5, rescore_query_weight: 2, score_mode } });
    const top = async (mode: string) => hitsOf((await search({ query: BY_N, size: 6, rescore: rescore(mode) })).json);
    // window d20..d17: an even one combines 0.5·n with 200, an odd one keeps 0.5·n; past it 0.5·n
    expect(await top('total')).to.deep.equal([['d20', 210], ['d18', 209], ['d19', 9.5], ['d17', 8.5], ['d16', 8], ['d15', 7.5]]);
    expect(await top('multiply')).to.deep.equal([['d20', 2000], ['d18', 1800], ['d19', 9.5], ['d17', 8.5], ['d16', 8], ['d15', 7.5]]);
    expect(await top('avg')).to.deep.equal([['d20', 105], ['d18', 104.5], ['d19', 9.5], ['d17', 8.5], ['d16', 8], ['d15', 7.5]]);
    expect(await top('max')).to.deep.equal([['d18', 200], ['d20', 200], ['d19', 9.5], ['d17', 8.5], ['d16', 8], ['d15', 7.5]]);
    expect(await top('min')).to.deep.equal([['d20', 10], ['d19', 9.5], ['d18', 9], ['d17', 8.5], ['d16', 8], ['d15', 7.5]]);
  });

  it('rescorers apply in order, each to its own window; from and size page through the result; aggregations see the first pass', async () => {
    const r = await search({
      query: BY_N, from: 1, size: 3,
      aggs: { total_n: { sum: { field: 'n' } } },
      rescore: [
        { window_size: 5, query: { rescore_query: EVEN_100 } },
        // then the best two get 1,000 more when their n is at least 19 (d20 only: d18 is second, 18 < 19)
        { window_size: 2, query: { rescore_query: { constant_score: { filter: { range: { n: { gte: 19 } } }, boost: 1000 } } } },
      ],
    });
    expect(r.status, r.text).to.equal(200);
    // after both: d20 1120, d18 118, d16 116, d19 19 …; the page starts at the second
    expect(hitsOf(r.json)).to.deep.equal([['d18', 118], ['d16', 116], ['d19', 19]]);
    expect(r.json.hits.max_score).to.equal(1120);
    expect(r.json.aggregations.total_n.value).to.equal(210);
    expect(r.json.hits.total.value).to.equal(20);
  });

  it('explain: the first pass times primaryWeight, combined in the window with the rescore query times secondaryWeight', async () => {
    const r = await search({
      explain: true, size: 3, query: { term: { even: true } },
      rescore: { window_size: 2, query: { rescore_query: { match_all: {} }, query_weight: 5, rescore_query_weight: 10 } },
    });
    expect(r.status, r.text).to.equal(200);
    const hits = r.json.hits.hits as Array<{ _score: number; _explanation: { value: number; description: string; details: Array<{ description: string; details: Array<{ description: string; value: number }> }> } }>;
    expect(hits.map((h) => [h._score, h._explanation.value])).to.deep.equal([[15, 15], [15, 15], [5, 5]]);
    const [primary, secondary] = hits[0]._explanation.details;
    expect(hits[0]._explanation.description).to.equal('total of:');
    expect([primary.description, primary.details[1]]).to.deep.equal(['product of:', { value: 5, description: 'primaryWeight', details: [] }]);
    expect([secondary.description, secondary.details[0].description, secondary.details[1]]).to.deep.equal(['product of:', '*:*', { value: 10, description: 'secondaryWeight', details: [] }]);
    // past the window: the first pass weighted, nothing combined
    expect(hits[2]._explanation.description).to.equal('product of:');
    expect(hits[2]._explanation.details[1]).to.deep.equal({ value: 5, description: 'primaryWeight', details: [] });
  });

  it('allows sorting by _score alone; refuses any other sort, collapse, a window past index.max_rescore_window, and bad rescorers', async () => {
    const rescore = { window_size: 5, query: { rescore_query: EVEN_100 } };
    const byScore = await search({ query: BY_N, size: 1, sort: ['_score'], rescore });
    expect(hitsOf(byScore.json)).to.deep.equal([['d20', 120]]);

    const sorted = await search({ query: BY_N, sort: [{ n: 'desc' }], rescore });
    expect(sorted.status).to.equal(400);
    expect(sorted.json.error.root_cause[0].reason).to.equal('Cannot use [sort] option in conjunction with [rescore].');

    const collapsed = await search({ query: BY_N, collapse: { field: 'even' }, rescore });
    expect(collapsed.status).to.equal(400);
    expect(collapsed.json.error.reason).to.equal('Validation Failed: 1: cannot use `collapse` in conjunction with `rescore`;');

    const wide = await search({ query: BY_N, rescore: { window_size: 10_001, query: { rescore_query: EVEN_100 } } });
    expect(wide.status).to.equal(400);
    expect(wide.json.error.root_cause[0].reason).to.equal(
      'Rescore window [10001] is too large. It must be less than [10000]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting.',
    );
    expect((await es.call('PUT', '/scores/_settings', { index: { max_rescore_window: 20_000 } })).status).to.equal(200);
    expect((await search({ query: BY_N, rescore: { window_size: 10_001, query: { rescore_query: EVEN_100 } } })).status).to.equal(200);

    const mode = await search({ query: BY_N, rescore: { query: { rescore_query: EVEN_100, score_mode: 'sideways' } } });
    expect(mode.status).to.equal(400);
    expect(mode.json.error.reason).to.equal('illegal score_mode [sideways]');
    expect((await search({ query: BY_N, rescore: { window_size: 5 } })).json.error.reason).to.equal('missing rescore type');
    expect((await search({ query: BY_N, rescore: { query: { query_weight: 2 } } })).status).to.equal(400);
  });
});

for (const backend of BACKENDS) {
  describe(`rescore through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await gatewayCall(url, 'PUT', '/scores', { body: { mappings: { properties: { n: { type: 'integer' }, even: { type: 'boolean' } } } } })).status).to.equal(200);
      const r = await gatewayCall(url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.json.errors).to.equal(false);
    });
    after(() => stop());

    it('answers the rescored order', async () => {
      const r = await gatewayCall(url, 'POST', '/scores/_search', { body: { query: BY_N, size: 3, rescore: { window_size: 5, query: { rescore_query: EVEN_100 } } } });
      expect(r.status, r.text).to.equal(200);
      expect(hitsOf(r.json)).to.deep.equal([['d20', 120], ['d18', 118], ['d16', 116]]);
    });
  });
}
