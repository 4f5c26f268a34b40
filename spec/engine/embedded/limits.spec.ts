import { expect } from 'chai';
import { ndjson, startEngine, type Reply, type TestEngine } from './support.js';

/** A 400 with Elasticsearch's error type and reason. */
function expectRefused(r: Reply, type: string, reason: string): void {
  expect(r.status, r.text.slice(0, 300)).to.equal(400);
  expect(r.json.error.type).to.equal(type);
  expect(r.json.error.reason).to.equal(reason);
}

const fieldsDoc = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i]));
const keywordProps = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'keyword' }]));
const TOTAL_FIELDS = (n: number) => `Limit of total fields [1000] has been exceeded while adding new fields [${n}]`;

describe('embedded engine: Elasticsearch limits', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/lim', { mappings: { properties: { k: { type: 'keyword' }, t: { type: 'text' } } } });
    await es.call('PUT', '/lim/_doc/1?refresh', { k: 'a', t: 'hello world' });
  });
  after(() => es.close());

  it('index.mapping.total_fields.limit: a 10,000-field document is refused at field 1001, fast; 1000 fields index; the setting raises it', async () => {
    // (how fast it is refused is bench material, not a spec's: no wall-clock bound here)
    const r = await es.call('PUT', '/tf1/_doc/1', fieldsDoc(10_000));
    expectRefused(r, 'document_parsing_exception', `failed to parse: ${TOTAL_FIELDS(1001)}`);
    expect(r.json.error.caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: TOTAL_FIELDS(1001) });
    expect((await es.call('PUT', '/tf2/_doc/1', fieldsDoc(1000))).status).to.equal(201);
    expectRefused(await es.call('PUT', '/tf3', { mappings: { properties: keywordProps(1001) } }), 'illegal_argument_exception', 'Limit of total fields [1000] has been exceeded');
    expect((await es.call('PUT', '/tf4', { settings: { 'index.mapping.total_fields.limit': 2000 }, mappings: { properties: keywordProps(1001) } })).status).to.equal(200);
    expect((await es.call('PUT', '/tf4/_doc/1', fieldsDoc(900))).status).to.equal(201);
    expectRefused(await es.call('PUT', '/tf2/_mapping', { properties: { extra: { type: 'keyword' } } }), 'illegal_argument_exception', 'Limit of total fields [1000] has been exceeded');
    expect((await es.call('PUT', '/tf2/_settings', { 'index.mapping.total_fields.limit': 1001 })).status).to.equal(200);
    expect((await es.call('PUT', '/tf2/_mapping', { properties: { extra: { type: 'keyword' } } })).status).to.equal(200);
  });

  it('index.mapping.depth.limit: 20 levels of objects are refused, 19 accepted, the setting raises it', async () => {
    const nest = (levels: number) => {
      let doc: Record<string, unknown> = { x: 1 };
      for (let i = 0; i < levels; i++) doc = { a: doc };
      return doc;
    };
    expectRefused(await es.call('PUT', '/d1/_doc/1', nest(20)), 'illegal_argument_exception',
      `Limit of mapping depth [20] has been exceeded due to object field [${Array(20).fill('a').join('.')}]`);
    expect((await es.call('PUT', '/d2/_doc/1', nest(19))).status).to.equal(201);
    await es.call('PUT', '/d3', { settings: { 'index.mapping.depth.limit': 30 } });
    expect((await es.call('PUT', '/d3/_doc/1', nest(25))).status).to.equal(201);
  });

  it('index.mapping.nested_fields.limit and field_name_length.limit', async () => {
    const nested = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`n${i}`, { type: 'nested' }]));
    expectRefused(await es.call('PUT', '/n1', { mappings: { properties: nested(51) } }), 'illegal_argument_exception', 'Limit of nested fields [50] has been exceeded');
    expect((await es.call('PUT', '/n2', { mappings: { properties: nested(50) } })).status).to.equal(200);
    expect((await es.call('PUT', '/n3', { settings: { 'index.mapping.nested_fields.limit': 60 }, mappings: { properties: nested(51) } })).status).to.equal(200);
    await es.call('PUT', '/fl', { settings: { 'index.mapping.field_name_length.limit': 5 } });
    expectRefused(await es.call('PUT', '/fl/_doc/1', { abcdef: 1 }), 'illegal_argument_exception', 'Field name [abcdef] is longer than the limit of [5] characters');
    expect((await es.call('PUT', '/fl/_doc/1', { abcde: 1 })).status).to.equal(201);
  });

  it('index.mapping.nested_objects.limit', async () => {
    await es.call('PUT', '/no', { settings: { 'index.mapping.nested_objects.limit': 3 }, mappings: { properties: { n: { type: 'nested' } } } });
    expectRefused(await es.call('PUT', '/no/_doc/1', { n: [{ x: 1 }, { x: 2 }, { x: 3 }, { x: 4 }] }), 'document_parsing_exception',
      'The number of nested documents has exceeded the allowed limit of [3]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.');
    expect((await es.call('PUT', '/no/_doc/1', { n: [{ x: 1 }, { x: 2 }, { x: 3 }] })).status).to.equal(201);
  });

  it('indices.query.bool.max_clause_count: 4097 clauses refused, 4096 run', async () => {
    const should = (n: number) => Array.from({ length: n }, (_, i) => ({ term: { k: `v${i}` } }));
    expectRefused(await es.call('POST', '/lim/_search', { query: { bool: { should: should(4097) } } }), 'too_many_nested_clauses',
      'Query contains too many nested clauses; maxClauseCount is set to 4096');
    expectRefused(await es.call('POST', '/lim/_search', { query: { match: { t: Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ') } } }), 'too_many_nested_clauses',
      'Query contains too many nested clauses; maxClauseCount is set to 4096');
    expect((await es.call('POST', '/lim/_search', { query: { bool: { should: should(4096) } } })).status).to.equal(200);
  });

  it('indices.query.bool.max_nested_depth: 31 nested queries refused, 30 run; a bool nested 1,000 deep is a 400', async () => {
    const nest = (levels: number) => {
      let q: unknown = { match_all: {} };
      for (let i = 1; i < levels; i++) q = { bool: { must: [q] } };
      return q;
    };
    expectRefused(await es.call('POST', '/lim/_search', { query: nest(31) }), 'illegal_argument_exception',
      'The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]');
    expect((await es.call('POST', '/lim/_search', { query: nest(30) })).status).to.equal(200);
    const r = await es.call('POST', '/lim/_search', { query: nest(1000) });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('x_content_parse_exception');
  });

  it('JSON nested 10,000 deep: 400 for searches, aggregations, mappings, settings and documents, never a 500', async () => {
    const tooDeep = /^\[1:\d+\] Document nesting depth \(1001\) exceeds the maximum allowed \(1000, from `StreamReadConstraints.getMaxNestingDepth\(\)`\)$/;
    const deep = (open: string, inner: string, close: string) => open.repeat(10_000) + inner + close.repeat(10_000);
    for (const [p, body] of [
      ['/lim/_search', `{"query":${deep('{"bool":{"must":', '{"match_all":{}}', '}}')}}`],
      ['/lim/_search', `{"aggs":${deep('{"a":{"terms":{"field":"k"},"aggs":', '{}', '}}')}}`],
      ['/deepmap', `{"mappings":{"properties":${deep('{"a":{"properties":', '{}', '}}')}}}`],
      ['/deepset', `{"settings":${deep('{"a":', '1', '}')}}`],
    ]) {
      const r = await es.call(p === '/lim/_search' ? 'POST' : 'PUT', p, body);
      expect(r.status, p).to.equal(400);
      expect(r.json.error.type).to.equal('x_content_parse_exception');
      expect(r.json.error.reason).to.match(tooDeep);
    }
    const doc = await es.call('PUT', '/lim/_doc/deep', `{"a":${deep('[', '', ']')}}`);
    expect(doc.status).to.equal(400);
    expect(doc.json.error.type).to.equal('document_parsing_exception');
    const bulk = await es.call('POST', '/_bulk', `{"index":{"_index":"lim"}}\n{"a":${deep('{"a":', '1', '}')}}\n`, { 'content-type': 'application/x-ndjson' });
    expect(bulk.status).to.equal(200);
    expect(bulk.json.items[0].index.error.type).to.equal('document_parsing_exception');
    const msearch = await es.call('POST', '/_msearch', `{}\n{"query":${deep('{"bool":{"must":', '{"match_all":{}}', '}}')}}\n`, { 'content-type': 'application/x-ndjson' });
    expect(msearch.status).to.equal(400);
    const atLimit = await es.call('PUT', '/lim/_doc/arrays', `{"a":${'['.repeat(999)}1${']'.repeat(999)}}`);
    expect(atLimit.status).to.equal(201);
  });

  it('index.max_terms_count and index.max_regex_length, each raised per index', async () => {
    const terms = (n: number) => ({ query: { terms: { k: Array.from({ length: n }, (_, i) => `v${i}`) } } });
    expectRefused(await es.call('POST', '/lim/_search', terms(65_537)), 'illegal_argument_exception',
      'The number of terms [65537] used in the Terms Query request has exceeded the allowed maximum of [65536]. This maximum can be set by changing the [index.max_terms_count] index level setting.');
    expect((await es.call('POST', '/lim/_search', terms(65_536))).status).to.equal(200);
    const regexp = (n: number) => ({ query: { regexp: { k: 'a'.repeat(n) } } });
    expectRefused(await es.call('POST', '/lim/_search', regexp(1001)), 'illegal_argument_exception',
      'The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.');
    expect((await es.call('POST', '/lim/_search', regexp(1000))).status).to.equal(200);
    await es.call('PUT', '/lim/_settings', { 'index.max_regex_length': 2000, 'index.max_terms_count': 70_000 });
    expect((await es.call('POST', '/lim/_search', regexp(1001))).status).to.equal(200);
    expect((await es.call('POST', '/lim/_search', terms(65_537))).status).to.equal(200);
  });

  it('index.max_regex_length also bounds a query_string regex, measured before any field is looked at', async () => {
    // search/30_limits: a 1110-character /regex/ in a query_string is refused even where no field could run it
    expect((await es.call('PUT', '/qsre', { mappings: { properties: { n: { type: 'long' } } } })).status).to.equal(200);
    const qs = (n: number) => ({ query: { query_string: { query: `/${'a'.repeat(n)}/` } } });
    expectRefused(await es.call('POST', '/qsre/_search', qs(1001)), 'illegal_argument_exception',
      'The length of regex [1001] used in the [query_string] has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.');
    expect((await es.call('POST', '/qsre/_search', qs(1000))).status).to.equal(200);
    await es.call('PUT', '/qsre/_settings', { 'index.max_regex_length': 2000 });
    expect((await es.call('POST', '/qsre/_search', qs(1001))).status).to.equal(200);
  });

  it('index.max_result_window and index.max_inner_result_window (top_hits)', async () => {
    expectRefused(await es.call('POST', '/lim/_search', { from: 9990, size: 11 }), 'illegal_argument_exception',
      'Result window is too large, from + size must be less than or equal to: [10000] but was [10001]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.');
    expect((await es.call('POST', '/lim/_search', { from: 9990, size: 10 })).status).to.equal(200);
    expectRefused(await es.call('POST', '/lim/_search', { aggs: { top: { top_hits: { size: 101 } } } }), 'illegal_argument_exception',
      "Top hits result window is too large, the top hits aggregator [top]'s from + size must be less than or equal to: [100] but was [101]. This limit can be set by changing the [index.max_inner_result_window] index level setting.");
    expect((await es.call('POST', '/lim/_search', { aggs: { top: { top_hits: { size: 100 } } } })).status).to.equal(200);
  });

  it('index.max_ngram_diff and index.max_shingle_diff: at index creation and in _analyze; the setting raises them', async () => {
    const ngram = { type: 'ngram', min_gram: 1, max_gram: 3 };
    const ngramReason = 'The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [1] but was [2]. This limit can be set by changing the [index.max_ngram_diff] index level setting.';
    expectRefused(await es.call('PUT', '/ng1', { settings: { analysis: { tokenizer: { g: ngram } } } }), 'illegal_argument_exception', ngramReason);
    expectRefused(await es.call('PUT', '/ng1', { settings: { analysis: { filter: { g: ngram } } } }), 'illegal_argument_exception', ngramReason);
    expectRefused(await es.call('POST', '/_analyze', { tokenizer: ngram, text: 'abc' }), 'illegal_argument_exception', ngramReason);
    expect((await es.call('PUT', '/ng2', { settings: { analysis: { tokenizer: { g: { ...ngram, max_gram: 2 } } } } })).status).to.equal(200);
    expect((await es.call('PUT', '/ng3', { settings: { index: { max_ngram_diff: 100_000 }, analysis: { tokenizer: { g: ngram } } } })).status).to.equal(200);
    expect((await es.call('POST', '/ng3/_analyze', { tokenizer: 'g', text: 'abc' })).status).to.equal(200);
    const shingle = { type: 'shingle', min_shingle_size: 2, max_shingle_size: 6 };
    expectRefused(await es.call('POST', '/_analyze', { tokenizer: 'standard', filter: [shingle], text: 'a b c' }), 'illegal_argument_exception',
      'In Shingle TokenFilter the difference between max_shingle_size and min_shingle_size (and +1 if outputting unigrams) must be less than or equal to: [3] but was [5]. This limit can be set by changing the [index.max_shingle_diff] index level setting.');
    expect((await es.call('PUT', '/sh', { settings: { index: { max_shingle_diff: 5 }, analysis: { filter: { s: shingle } } } })).status).to.equal(200);
  });

  it('index.highlight.max_analyzed_offset', async () => {
    await es.call('PUT', '/hl/_doc/1?refresh', { t: 'word '.repeat(300_000) });
    expectRefused(await es.call('POST', '/hl/_search', { query: { match: { t: 'word' } }, highlight: { fields: { t: {} } } }), 'illegal_argument_exception',
      'The length of [t] field of [1] doc of [hl] index has exceeded [1000000] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!');
    await es.call('PUT', '/hl/_settings', { 'index.highlight.max_analyzed_offset': 2_000_000 });
    expect((await es.call('POST', '/hl/_search', { query: { match: { t: 'word' } }, highlight: { fields: { t: {} } } })).status).to.equal(200);
  });

  it('search.max_buckets: a terms aggregation asking for more buckets than the limit over enough distinct values', async function () {
    // 65,537 documents and two searches of 65,536 buckets: ~5 s alone, past 20 s on a loaded runner
    this.timeout(120_000);
    const lines: unknown[] = [];
    for (let i = 0; i < 65_537; i++) lines.push({ index: { _index: 'bk' } }, { k: `v${i}` });
    expect((await es.call('POST', '/_bulk?refresh', ndjson(lines), { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
    const r = await es.call('POST', '/bk/_search', { size: 0, aggs: { a: { terms: { field: 'k.keyword', size: 70_000 } } } });
    expectRefused(r, 'too_many_buckets_exception',
      'Trying to create too many buckets. Must be less than or equal to: [65536] but was [65537]. This limit can be set by changing the [search.max_buckets] cluster level setting.');
    const ok = await es.call('POST', '/bk/_search', { size: 0, aggs: { a: { terms: { field: 'k.keyword', size: 65_536 } } } });
    expect(ok.status).to.equal(200);
    expect(ok.json.aggregations.a.buckets).to.have.length(65_536);
  });
});
