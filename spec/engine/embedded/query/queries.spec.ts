import { expect } from 'chai';
import { byte4ToInt, intToByte4 } from '../../../../lib/engine/embedded/index/index.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/**
 * BM25 by hand, as Elasticsearch's default LegacyBM25Similarity scores it (the (k1 + 1) factor
 * Lucene 8 took out of the numerator kept): (k1 + 1) · idf · f / (f + k1 · (1 − b + b · dl / avgdl)).
 */
function bm25(freq: number, dl: number, avgdl: number, n: number, N: number, boost = 1): number {
  const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
  return (2.2 * boost * idf * freq) / (freq + 1.2 * (1 - 0.75 + (0.75 * dl) / avgdl));
}

describe('embedded engine: queries', () => {
  let es: TestEngine;
  const ids = (r: { json: { hits: { hits: Array<{ _id: string }> } } }) => r.json.hits.hits.map((h) => h._id);
  const scores = (r: { json: { hits: { hits: Array<{ _id: string; _score: number }> } } }) =>
    Object.fromEntries(r.json.hits.hits.map((h) => [h._id, h._score]));
  const search = (body: unknown, index = 'q') => es.call('POST', `/${index}/_search`, body);

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/q', {
      mappings: {
        properties: {
          title: { type: 'text', fields: { raw: { type: 'keyword' } } },
          tag: { type: 'keyword' },
          n: { type: 'long' },
          day: { type: 'date' },
          loc: { type: 'geo_point' },
          comments: { type: 'nested', properties: { author: { type: 'keyword' }, stars: { type: 'integer' } } },
        },
      },
    });
    const docs = [
      { title: 'quick fox', tag: 'a', n: 1, day: '2024-01-01', loc: { lat: 48.85, lon: 2.35 }, comments: [{ author: 'ann', stars: 5 }, { author: 'bob', stars: 1 }] },
      { title: 'quick quick brown dog', tag: 'b', n: 5, day: '2024-02-01', loc: '51.5,-0.12', comments: [{ author: 'ann', stars: 1 }] },
      { title: 'lazy dog', tag: 'B', n: 10, day: '2024-03-01', loc: [13.4, 52.52] },
    ];
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: 'q', _id: String(i + 1) } }, d));
    const r = await es.call('POST', '/_bulk', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors).to.equal(false);
  });
  after(() => es.close());

  it('norms: field lengths go through Lucene\'s one-byte SmallFloat encoding', () => {
    for (let i = 0; i < 24; i++) expect(byte4ToInt(intToByte4(i))).to.equal(i);
    expect(intToByte4(100)).to.equal(57);
    expect(byte4ToInt(57)).to.equal(96);
    expect(byte4ToInt(intToByte4(1_000_000))).to.be.at.most(1_000_000);
  });

  it('match: BM25 scores equal Lucene\'s formula computed by hand', async () => {
    const r = await search({ query: { match: { title: 'quick' } } });
    expect(ids(r)).to.deep.equal(['2', '1']);
    const avgdl = (2 + 4 + 2) / 3;
    const s = scores(r);
    expect(s['1']).to.be.closeTo(bm25(1, 2, avgdl, 2, 3), 1e-6);
    expect(s['2']).to.be.closeTo(bm25(2, 4, avgdl, 2, 3), 1e-6);
  });

  it('match with two terms sums the clauses; boost multiplies', async () => {
    const r = await search({ query: { match: { title: { query: 'quick dog', boost: 2 } } } });
    const avgdl = 8 / 3;
    const s = scores(r);
    expect(s['2']).to.be.closeTo(bm25(2, 4, avgdl, 2, 3, 2) + bm25(1, 4, avgdl, 2, 3, 2), 1e-5);
    expect(s['3']).to.be.closeTo(bm25(1, 2, avgdl, 2, 3, 2), 1e-6);
  });

  it('keyword term scores without norms (length 1)', async () => {
    const r = await search({ query: { term: { tag: 'a' } } });
    // keyword: one term per doc, avgdl 1, norm of length 1
    expect(scores(r)['1']).to.be.closeTo(bm25(1, 1, 1, 1, 3), 1e-6);
  });

  it('match operator and, minimum_should_match, fuzziness AUTO, zero_terms_query', async () => {
    expect(ids(await search({ query: { match: { title: { query: 'quick dog', operator: 'and' } } } }))).to.deep.equal(['2']);
    expect(ids(await search({ query: { match: { title: { query: 'quick dog lazy', minimum_should_match: 2 } } } })).sort()).to.deep.equal(['2', '3']);
    expect(ids(await search({ query: { match: { title: { query: 'quikc', fuzziness: 'AUTO' } } } })).sort()).to.deep.equal(['1', '2']);
    expect(ids(await search({ query: { match: { title: { query: 'the', analyzer: 'stop', zero_terms_query: 'all' } } } })).length).to.equal(3);
  });

  it('match_phrase with slop, match_phrase_prefix, match_bool_prefix', async () => {
    expect(ids(await search({ query: { match_phrase: { title: 'brown dog' } } }))).to.deep.equal(['2']);
    expect(ids(await search({ query: { match_phrase: { title: 'quick dog' } } }))).to.deep.equal([]);
    expect(ids(await search({ query: { match_phrase: { title: { query: 'quick dog', slop: 2 } } } }))).to.deep.equal(['2']);
    expect(ids(await search({ query: { match_phrase_prefix: { title: 'brown d' } } }))).to.deep.equal(['2']);
    expect(ids(await search({ query: { match_bool_prefix: { title: 'lazy d' } } })).sort()).to.deep.equal(['2', '3']);
  });

  it('multi_match best_fields with field boosts and wildcards, cross_fields', async () => {
    const r = await search({ query: { multi_match: { query: 'a', fields: ['title', 'tag^3'] } } });
    expect(ids(r)).to.deep.equal(['1']);
    const w = await search({ query: { multi_match: { query: 'quick fox', fields: ['ti*'], type: 'phrase' } } });
    expect(ids(w)).to.deep.equal(['1']);
    const x = await search({ query: { multi_match: { query: 'lazy dog', fields: ['title', 'tag'], type: 'cross_fields', operator: 'and' } } });
    expect(ids(x)).to.deep.equal(['3']);
  });

  it('term-level: terms, case_insensitive term, prefix, wildcard, regexp, fuzzy, ids, exists', async () => {
    expect(ids(await search({ query: { terms: { tag: ['a', 'b'] } } })).sort()).to.deep.equal(['1', '2']);
    expect(ids(await search({ query: { term: { tag: { value: 'b', case_insensitive: true } } } })).sort()).to.deep.equal(['2', '3']);
    expect(ids(await search({ query: { prefix: { 'title.raw': 'quick' } } })).sort()).to.deep.equal(['1', '2']);
    expect(ids(await search({ query: { wildcard: { title: 'd?g' } } })).sort()).to.deep.equal(['2', '3']);
    expect(ids(await search({ query: { regexp: { title: 'br.*n' } } }))).to.deep.equal(['2']);
    expect(ids(await search({ query: { fuzzy: { title: { value: 'lazzy' } } } }))).to.deep.equal(['3']);
    expect(ids(await search({ query: { ids: { values: ['3', 'nope'] } } }))).to.deep.equal(['3']);
    expect(ids(await search({ query: { exists: { field: 'comments' } } })).length).to.equal(0);
    expect(ids(await search({ query: { exists: { field: 'loc' } } })).length).to.equal(3);
  });

  it('range on numbers, dates with date math and formats, keyword strings', async () => {
    expect(ids(await search({ query: { range: { n: { gt: 1, lte: 10 } } } })).sort()).to.deep.equal(['2', '3']);
    expect(ids(await search({ query: { range: { day: { gte: '2024-01-15', lt: '2024-03-01' } } } }))).to.deep.equal(['2']);
    expect(ids(await search({ query: { range: { day: { lte: '2024-01-01||+1M/M' } } } })).sort()).to.deep.equal(['1', '2']);
    expect(ids(await search({ query: { range: { day: { gte: '01/02/2024', format: 'dd/MM/yyyy' } } } })).sort()).to.deep.equal(['2', '3']);
    expect(ids(await search({ query: { range: { day: { gte: 'now-1d/d' } } } }))).to.deep.equal([]);
    expect(ids(await search({ query: { range: { tag: { gte: 'B', lt: 'a' } } } }))).to.deep.equal(['3']);
  });

  it('range on dates in a named time zone: dates without an offset, and rounding, are local to it', async () => {
    // 2024-02-01 in New York starts at 05:00 UTC, after the document of that day (midnight UTC).
    expect(ids(await search({ query: { range: { day: { gte: '2024-02-01', time_zone: 'America/New_York' } } } }))).to.deep.equal(['3']);
    expect(ids(await search({ query: { range: { day: { lt: '2024-02-01', time_zone: 'Asia/Tokyo' } } } }))).to.deep.equal(['1']);
    // A date with an offset is that instant, rounded in the zone: March 1st in New York starts at 05:00 UTC.
    expect(ids(await search({ query: { range: { day: { lt: '2024-03-01T12:00:00Z||/d', time_zone: 'America/New_York' } } } })).sort()).to.deep.equal(['1', '2', '3']);
    expect(ids(await search({ query: { range: { day: { gte: '2024-02-01T00:00:00Z', time_zone: 'Asia/Tokyo' } } } })).sort()).to.deep.equal(['2', '3']);
  });

  it('bool, constant_score, dis_max, boosting', async () => {
    const b = await search({ query: { bool: { must: [{ match: { title: 'dog' } }], must_not: [{ term: { tag: 'b' } }] } } });
    expect(ids(b)).to.deep.equal(['3']);
    const c = await search({ query: { constant_score: { filter: { term: { tag: 'a' } }, boost: 1.5 } } });
    expect(c.json.hits.hits[0]._score).to.equal(1.5);
    const d = await search({ query: { dis_max: { queries: [{ constant_score: { filter: { term: { tag: 'a' } }, boost: 2 } }, { constant_score: { filter: { match: { title: 'fox' } }, boost: 1 } }], tie_breaker: 0.5 } } });
    expect(d.json.hits.hits[0]._score).to.equal(2.5);
    const bo = await search({ query: { boosting: { positive: { match: { title: 'dog' } }, negative: { term: { tag: 'b' } }, negative_boost: 0.1 } } });
    expect(ids(bo)).to.deep.equal(['3', '2']);
  });

  it('bool with only must_not: the match_all Elasticsearch adds is a filter, so every hit scores 0; an empty bool scores its boost', async () => {
    expect(scores(await search({ query: { bool: { must_not: [{ term: { tag: 'b' } }], boost: 3 } } }))).to.deep.equal({ 1: 0, 3: 0 });
    const r = await search({ explain: true, query: { bool: { must_not: [{ term: { tag: 'b' } }] } } });
    expect(r.json.hits.max_score).to.equal(0);
    expect(r.json.hits.hits[0]._explanation).to.deep.equal({
      value: 0, description: 'sum of:',
      details: [{ value: 0, description: 'match on required clause, product of:', details: [{ value: 0, description: '# clause', details: [] }, { value: 1, description: '*:*', details: [] }] }],
    });
    expect(scores(await search({ query: { bool: { boost: 3 } } }))).to.deep.equal({ 1: 3, 2: 3, 3: 3 });
  });

  it('multi-term rewrite: constant_score, scoring_boolean, top_terms_N, top_terms_boost_N and the fuzzy default, top_terms_blended_freqs', async () => {
    await es.call('PUT', '/rewrites', { mappings: { properties: { t: { type: 'text' } } } });
    const lines = ['braveheart', 'braveheart braveheart', 'bravehearts', 'brave heart'].flatMap((t, i) => [{ index: { _index: 'rewrites', _id: String(i + 1) } }, { t }]);
    expect((await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
    // braveheart is one transposition away (term boost 1 − 1/10), bravehearts two edits (1 − 2/10)
    const fuzzy = async (rewrite?: string) => scores(await search({ query: { fuzzy: { t: { value: 'bravehaert', fuzziness: 2, boost: 2, ...(rewrite && { rewrite }) } } } }, 'rewrites'));
    expect(await fuzzy('constant_score')).to.deep.equal({ 1: 2, 2: 2, 3: 2 });
    expect(await fuzzy('constant_score_boolean')).to.deep.equal({ 1: 2, 2: 2, 3: 2 });
    expect(await fuzzy('top_terms_boost_5')).to.deep.equal({ 1: 1.8, 2: 1.8, 3: 1.6 });
    expect(Object.keys(await fuzzy('top_terms_1'))).to.deep.equal(['1', '2']);
    // blended (the default): both terms scored with the higher document frequency; scoring_boolean: each with its own
    const blended = await fuzzy();
    expect(blended).to.deep.equal(await fuzzy('top_terms_blended_freqs_50'));
    const own = await fuzzy('scoring_boolean');
    expect(own[1]).to.equal(blended[1]);
    expect(own[3]).to.be.greaterThan(blended[3]);
    expect(own[3]).to.be.greaterThan(own[2]);
    // match's fuzzy_rewrite, the same methods for its fuzzy terms
    expect(scores(await search({ query: { match: { t: { query: 'bravehaert', fuzziness: 2, fuzzy_rewrite: 'constant_score' } } } }, 'rewrites'))).to.deep.equal({ 1: 1, 2: 1, 3: 1 });
    // prefix: constant by default, BM25 per term when asked
    const prefix = async (rewrite?: string) => scores(await search({ query: { prefix: { t: { value: 'brave', ...(rewrite && { rewrite }) } } } }, 'rewrites'));
    expect(await prefix()).to.deep.equal({ 1: 1, 2: 1, 3: 1, 4: 1 });
    expect(new Set(Object.values(await prefix('scoring_boolean'))).size).to.equal(4);
    const bad = await search({ query: { prefix: { t: { value: 'brave', rewrite: 'top_terms_x' } } } }, 'rewrites');
    expect([bad.status, bad.json.error.root_cause[0].reason]).to.deep.equal([400, 'Failed to parse rewrite_method [top_terms_x]']);
  });

  it('function_score: weight, field_value_factor, decay, modes, min_score', async () => {
    const fvf = await search({ query: { function_score: { query: { match_all: {} }, field_value_factor: { field: 'n', factor: 2, modifier: 'sqrt' }, boost_mode: 'replace' } } });
    expect(scores(fvf)['3']).to.be.closeTo(Math.sqrt(20), 1e-5);
    const gauss = await search({ query: { function_score: { functions: [{ gauss: { n: { origin: 0, scale: 5 } } }], boost_mode: 'replace' } } });
    expect(scores(gauss)['2']).to.be.closeTo(0.5, 1e-6);
    const w = await search({ query: { function_score: { query: { match_all: {} }, functions: [{ filter: { term: { tag: 'a' } }, weight: 3 }, { weight: 2 }], score_mode: 'sum', min_score: 4 } } });
    expect(ids(w)).to.deep.equal(['1']);
    expect(scores(w)['1']).to.equal(5);
  });

  it('function_score: a decay over a keyword field is refused, as Elasticsearch refuses it (it scored every document NaN)', async () => {
    const r = await search({ query: { function_score: { functions: [{ gauss: { tag: { origin: 'a', scale: 5 } } }], min_score: 0.5 } } });
    expect(r.status).to.equal(400);
    expect(JSON.stringify(r.json)).to.include('field [tag] is of type [keyword], but only numeric types are supported.');
  });

  it('nested: conditions match within one nested object; score_mode', async () => {
    const q = (author: string, stars: number) => ({ query: { nested: { path: 'comments', query: { bool: { must: [{ term: { 'comments.author': author } }, { term: { 'comments.stars': stars } }] } } } } });
    expect(ids(await search(q('ann', 5)))).to.deep.equal(['1']);
    expect(ids(await search(q('bob', 5)))).to.deep.equal([]);
    const sum = await search({ query: { nested: { path: 'comments', score_mode: 'sum', query: { constant_score: { filter: { exists: { field: 'comments.author' } } } } } } });
    expect(scores(sum)).to.deep.equal({ 1: 2, 2: 1 });
  });

  it('geo_distance and geo_bounding_box over lat/lon objects, "lat,lon" strings and [lon, lat] arrays', async () => {
    const near = await search({ query: { geo_distance: { distance: '400km', loc: { lat: 50.5, lon: 1 } } } });
    expect(ids(near).sort()).to.deep.equal(['1', '2']);
    const box = await search({ query: { geo_bounding_box: { loc: { top_left: { lat: 53, lon: 10 }, bottom_right: { lat: 52, lon: 14 } } } } });
    expect(ids(box)).to.deep.equal(['3']);
  });
});
