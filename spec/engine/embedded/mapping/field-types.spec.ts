import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** Range field types, token_count and metadata fields in queries, as the reference describes them. */
describe('embedded engine: range fields, token_count, metadata fields in queries', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const search = async (index: string, body: unknown): Promise<any> => {
    const r = await es.call('POST', `/${index}/_search`, body);
    expect(r.status, r.text).to.equal(200);
    return r.json;
  };
  const ids = async (index: string, query: unknown) =>
    ((await search(index, { query, size: 20 })).hits.hits as Array<{ _id: string }>).map((h) => h._id).sort();

  before(async () => {
    es = await startEngine();
    const r = await es.call('PUT', '/ranges', {
      mappings: {
        properties: {
          integer_range: { type: 'integer_range' }, long_range: { type: 'long_range' }, float_range: { type: 'float_range' },
          double_range: { type: 'double_range' }, date_range: { type: 'date_range' }, ip_range: { type: 'ip_range' },
          words: { type: 'text', fields: { count: { type: 'token_count', analyzer: 'standard' } } },
        },
      },
    });
    expect(r.status, r.text).to.equal(200);
    const docs = [
      { integer_range: { gte: 1, lte: 5 }, long_range: { gte: 1, lte: 5 }, float_range: { gte: 1, lte: 5 }, double_range: { gte: 1, lte: 5 },
        date_range: { gte: '2017-09-01', lte: '2017-09-05' }, ip_range: { gte: '192.168.0.1', lte: '192.168.0.5' }, words: 'one two three' },
      { integer_range: { gte: 1, lte: 3 }, long_range: { gte: 1, lte: 3 }, float_range: { gte: 1, lte: 3 }, double_range: { gte: 1, lte: 3 },
        date_range: { gte: '2017-09-01', lte: '2017-09-03' }, ip_range: { gte: '192.168.0.1', lte: '192.168.0.3' }, words: 'one' },
      { integer_range: { gte: 4, lte: 5 }, long_range: { gte: 4, lte: 5 }, float_range: { gte: 4, lte: 5 }, double_range: { gte: 4, lte: 5 },
        date_range: { gte: '2017-09-04', lte: '2017-09-05' }, ip_range: '192.168.0.4/31' },
      { integer_range: null },
    ];
    for (const [i, doc] of docs.entries()) {
      const w = await es.call('PUT', `/ranges/_doc/${i + 1}${i === 0 ? '?routing=r1' : ''}`, doc);
      expect(w.status, w.text).to.equal(201);
    }
  });
  after(() => es.close());

  const QUERY_BOUNDS: Record<string, [unknown, unknown]> = {
    integer_range: [3, 4], long_range: [3, 4], float_range: [3, 4], double_range: [3, 4],
    date_range: ['2017-09-03', '2017-09-04'], ip_range: ['192.168.0.3', '192.168.0.4'],
  };

  for (const [field, [gte, lte]] of Object.entries(QUERY_BOUNDS)) {
    it(`${field}: range queries with relation intersects (default), contains, within`, async () => {
      expect(await ids('ranges', { range: { [field]: { gte, lte } } })).to.deep.equal(['1', '2', '3']);
      expect(await ids('ranges', { range: { [field]: { gte, lte, relation: 'intersects' } } })).to.deep.equal(['1', '2', '3']);
      expect(await ids('ranges', { range: { [field]: { gte, lte, relation: 'contains' } } })).to.deep.equal(['1']);
      expect(await ids('ranges', { range: { [field]: { gte, lte, relation: 'within' } } })).to.deep.equal([]);
      expect(await ids('ranges', { range: { [field]: { gte: QUERY_BOUNDS[field][0], relation: 'WITHIN' } } })).to.deep.equal(['3']);
    });
  }

  it('term and terms queries find the ranges holding the value; query_string ranges intersect', async () => {
    expect(await ids('ranges', { term: { integer_range: 2 } })).to.deep.equal(['1', '2']);
    expect(await ids('ranges', { terms: { integer_range: [2, 5] } })).to.deep.equal(['1', '2', '3']);
    expect(await ids('ranges', { term: { ip_range: '192.168.0.5' } })).to.deep.equal(['1', '3']);
    expect(await ids('ranges', { term: { date_range: '2017-09-05' } })).to.deep.equal(['1', '3']);
    expect(await ids('ranges', { query_string: { query: 'integer_range:[3 TO 4]' } })).to.deep.equal(['1', '2', '3']);
  });

  it('exclusive bounds step to the next value of the element type', async () => {
    expect(await ids('ranges', { range: { integer_range: { gt: 3, lt: 4 } } })).to.deep.equal([]);
    expect(await ids('ranges', { range: { double_range: { gt: 3, lt: 4 } } })).to.deep.equal(['1']);
  });

  it('refuses a range whose lower end is above its upper end, and a scalar', async () => {
    const r = await es.call('PUT', '/ranges/_doc/bad', { integer_range: { gte: 7, lte: 5 } });
    expect(r.status).to.equal(400);
    expect(r.json.error.caused_by.reason).to.equal('min value (7) is greater than max value (5)');
    const s = await es.call('PUT', '/ranges/_doc/bad', { integer_range: 5 });
    expect(s.status).to.equal(400);
    expect(s.json.error.type).to.equal('document_parsing_exception');
  });

  it('histogram and date_histogram count a document in every bucket its range overlaps', async () => {
    const body = await search('ranges', {
      size: 0,
      aggs: { h: { histogram: { field: 'integer_range', interval: 2 } }, d: { date_histogram: { field: 'date_range', calendar_interval: 'day', format: 'yyyy-MM-dd' } } },
    });
    expect(body.aggregations.h.buckets.map((b: { key: number; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([[0, 2], [2, 2], [4, 2]]);
    expect(body.aggregations.d.buckets.map((b: { key_as_string: string; doc_count: number }) => [b.key_as_string, b.doc_count])).to.deep.equal([
      ['2017-09-01', 2], ['2017-09-02', 2], ['2017-09-03', 2], ['2017-09-04', 2], ['2017-09-05', 2],
    ]);
  });

  it('the fields API shows range values with their own bounds (dates in the requested format)', async () => {
    const body = await search('ranges', { query: { ids: { values: ['1'] } }, fields: ['integer_range', { field: 'date_range', format: 'epoch_millis' }, 'ip_range'] });
    expect(body.hits.hits[0].fields).to.deep.equal({
      integer_range: [{ gte: 1, lte: 5 }], date_range: [{ gte: '1504224000000', lte: '1504569600000' }], ip_range: [{ gte: '192.168.0.1', lte: '192.168.0.5' }],
    });
  });

  it('token_count: indexed, searched, sorted and fetched as the number of tokens', async () => {
    expect(await ids('ranges', { term: { 'words.count': 3 } })).to.deep.equal(['1']);
    expect(await ids('ranges', { range: { 'words.count': { lt: 2 } } })).to.deep.equal(['2']);
    const body = await search('ranges', { query: { exists: { field: 'words.count' } }, sort: [{ 'words.count': 'desc' }], fields: ['words.count'], docvalue_fields: ['words.count'] });
    expect(body.hits.hits.map((h: { _id: string; fields: unknown }) => [h._id, h.fields])).to.deep.equal([
      ['1', { 'words.count': [3] }], ['2', { 'words.count': [1] }],
    ]);
  });

  it('token_count: a stored one (a multi-field too) is its number of tokens in stored_fields, of a search and a GET', async () => {
    const created = await es.call('PUT', '/counted', {
      mappings: { properties: { name: { type: 'text', fields: { length: { type: 'token_count', analyzer: 'standard', store: true } } }, words: { type: 'token_count', analyzer: 'whitespace', store: true } } },
    });
    expect(created.status, created.text).to.equal(200);
    expect((await es.call('PUT', '/counted/_doc/1?refresh=true', { name: 'John Smith Jr', words: ['a b', 'c d e'] })).status).to.equal(201);
    const body = await search('counted', { stored_fields: ['name.length', 'words'] });
    expect(body.hits.hits[0].fields).to.deep.equal({ 'name.length': [3], words: [2, 3] });
    expect((await search('counted', { stored_fields: ['name.*'] })).hits.hits[0].fields).to.deep.equal({ 'name.length': [3] });
    const got = await es.call('GET', '/counted/_doc/1?stored_fields=name.length');
    expect(got.json.fields).to.deep.equal({ 'name.length': [3] });
  });

  it('token_count: the analyzer is required; include_defaults shows the type\'s defaults', async () => {
    for (const mappings of [{ properties: { c: { type: 'token_count' } } }, { properties: { t: { type: 'text', fields: { c: { type: 'token_count' } } } } }]) {
      const r = await es.call('PUT', '/uncounted', { mappings });
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error.type).to.equal('mapper_parsing_exception');
      expect(r.json.error.reason).to.equal('Failed to parse mapping: Analyzer must be set for field [c] but wasn\'t.');
    }
    const r = await es.call('GET', '/ranges/_mapping/field/words.count?include_defaults=true');
    expect(r.json.ranges.mappings['words.count'].mapping.count).to.deep.equal({
      type: 'token_count', analyzer: 'standard', index: true, doc_values: true, store: false, null_value: null, enable_position_increments: true,
    });
  });

  it('metadata fields in queries: _id, _routing, _index, _seq_no, _version; _source refused', async () => {
    for (const field of ['_id', '_index', '_seq_no', '_version']) expect(await ids('ranges', { exists: { field } }), field).to.deep.equal(['1', '2', '3', '4']);
    expect(await ids('ranges', { exists: { field: '_routing' } })).to.deep.equal(['1']);
    expect(await ids('ranges', { term: { _routing: 'r1' } })).to.deep.equal(['1']);
    expect(await ids('ranges', { terms: { _id: ['2', '3', 'x'] } })).to.deep.equal(['2', '3']);
    const v = await es.call('POST', '/ranges/_search', { query: { term: { _version: 1 } } });
    expect([v.status, v.json.error.reason]).to.deep.equal([400, 'The _version field is not searchable']);
    const r = await es.call('POST', '/ranges/_search', { query: { exists: { field: '_source' } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('query_shard_exception');
    expect(r.json.error.reason).to.equal('The _source field is not searchable');
  });

  it('_index in term, terms and match queries is an index pattern (* wildcards, case_insensitive lower-cases it); exists on _primary_term finds nothing', async () => {
    const all = ['1', '2', '3', '4'];
    expect(await ids('ranges', { term: { _index: 'ran*' } })).to.deep.equal(all);
    expect(await ids('ranges', { terms: { _index: ['other', '*ges'] } })).to.deep.equal(all);
    expect(await ids('ranges', { term: { _index: { value: 'RAN*', case_insensitive: true } } })).to.deep.equal(all);
    expect(await ids('ranges', { match: { _index: 'r*s' } })).to.deep.equal(all);
    expect(await ids('ranges', { term: { _index: 'range' } })).to.deep.equal([]);
    expect(await ids('ranges', { term: { _index: 'RAN*' } })).to.deep.equal([]);
    // _primary_term has doc values but no field type in Elasticsearch: an unmapped field to exists
    expect(await ids('ranges', { exists: { field: '_primary_term' } })).to.deep.equal([]);
  });

  it('_id in full-text queries: match, match_phrase, multi_match, query_string and simple_query_string find the id whole, as term does', async () => {
    expect(await ids('ranges', { match: { _id: '2' } })).to.deep.equal(['2']);
    expect(await ids('ranges', { match: { _id: '2 3' } })).to.deep.equal([]);
    expect(await ids('ranges', { match_phrase: { _id: '3' } })).to.deep.equal(['3']);
    expect(await ids('ranges', { multi_match: { query: '4', fields: ['_id', 'words'] } })).to.deep.equal(['4']);
    expect(await ids('ranges', { query_string: { query: '_id:(1 OR 3)' } })).to.deep.equal(['1', '3']);
    expect(await ids('ranges', { simple_query_string: { query: '2', fields: ['_id'] } })).to.deep.equal(['2']);
    const scored = await search('ranges', { query: { match: { _id: { query: '1', boost: 3 } } } });
    expect(scored.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).to.deep.equal([['1', 3]]);
  });

  it('the fields API: numbers as numbers, dates in the mapping\'s or the requested format (the last request naming a field wins), refused without _source', async () => {
    const created = await es.call('PUT', '/fetched', {
      mappings: { properties: { d: { type: 'date', format: 'yyyy/MM/dd' }, n: { type: 'long' }, k: { type: 'keyword' } } },
    });
    expect(created.status, created.text).to.equal(200);
    expect((await es.call('PUT', '/fetched/_doc/1?refresh=true', { d: '2020/01/02', n: '12', k: 5 })).status).to.equal(201);
    const body = await search('fetched', { fields: ['*', { field: 'd', format: 'epoch_millis' }] });
    expect(body.hits.hits[0].fields).to.deep.equal({ d: ['1577923200000'], n: [12], k: ['5'] });
    expect((await search('fetched', { fields: ['d'] })).hits.hits[0].fields).to.deep.equal({ d: ['2020/01/02'] });

    await es.call('PUT', '/sourceless', { mappings: { _source: { enabled: false }, properties: { n: { type: 'long' } } } });
    expect((await es.call('PUT', '/sourceless/_doc/1?refresh=true', { n: 1 })).status).to.equal(201);
    const refused = await es.call('POST', '/sourceless/_search', { fields: ['n'] });
    expect(refused.status).to.equal(400);
    expect(refused.json.error.root_cause[0]).to.include({
      type: 'illegal_argument_exception', reason: 'Unable to retrieve the requested [fields] since _source is disabled in the mappings for index [sourceless]',
    });
    const hits = (await search('sourceless', { docvalue_fields: ['n'] })).hits.hits;
    expect(hits[0]).to.not.have.property('_source');
    expect(hits[0].fields).to.deep.equal({ n: [1] });
  });

  it('the fields API: formats only where the type prints them, token_count from doc values, stored_fields, include_unmapped', async () => {
    await es.call('PUT', '/fetch2', {
      mappings: {
        dynamic: false,
        properties: {
          keyword: { type: 'keyword' }, count: { type: 'token_count', analyzer: 'standard' },
          count_without_dv: { type: 'token_count', analyzer: 'standard', doc_values: false }, integer: { type: 'integer', store: true },
          off: { type: 'object', enabled: false },
        },
      },
    });
    const w = await es.call('PUT', '/fetch2/_doc/1?refresh=true', { keyword: 'a', count: 'some text', count_without_dv: 'some text', integer: 42, off: { a: 'foo' }, extra: 'x' });
    expect(w.status, w.text).to.equal(201);
    const refused = await es.call('POST', '/fetch2/_search', { fields: [{ field: 'keyword', format: 'yyyy/MM/dd' }] });
    expect(refused.status).to.equal(400);
    expect(refused.json.error.root_cause[0].reason).to.equal("Field [keyword] of type [keyword] doesn't support formats.");
    expect((await search('fetch2', { fields: ['count', 'count_without_dv'] })).hits.hits[0].fields).to.deep.equal({ count: [2] });
    expect((await search('fetch2', { fields: ['keyword'], stored_fields: ['integer'], _source: false })).hits.hits[0].fields).to.deep.equal({ keyword: ['a'], integer: [42] });
    expect((await search('fetch2', { fields: ['keyword', { field: 'extra', include_unmapped: true }, { field: 'off.*', include_unmapped: true }] })).hits.hits[0].fields)
      .to.deep.equal({ keyword: ['a'], extra: ['x'], 'off.a': ['foo'] });
  });

  it('the fields API groups a nested field\'s values by its objects (names relative to them)', async () => {
    await es.call('PUT', '/nested-fetch', {
      mappings: { properties: { obj: { properties: { products: { type: 'nested', properties: { m: { type: 'keyword' }, p: { type: 'double' } } }, other: { type: 'keyword' } } } } },
    });
    expect((await es.call('PUT', '/nested-fetch/_doc/1?refresh=true', { obj: { products: [{ m: 'A', p: 1.55 }, { m: 'B', p: 20.2 }], other: 'o' } })).status).to.equal(201);
    expect((await search('nested-fetch', { fields: ['*'], _source: false })).hits.hits[0].fields).to.deep.equal({
      'obj.other': ['o'], 'obj.products': [{ m: ['A'], p: [1.55] }, { m: ['B'], p: [20.2] }],
    });
    expect((await search('nested-fetch', { fields: ['obj.pro*ts.m'], _source: false })).hits.hits[0].fields).to.deep.equal({ 'obj.products': [{ m: ['A'] }, { m: ['B'] }] });
    expect((await search('nested-fetch', { fields: ['obj.products'], _source: false })).hits.hits[0]).to.not.have.property('fields');
  });

  it('hits.max_score is null when no hit is scored: size 0, or a sort without track_scores', async () => {
    expect((await search('ranges', { size: 0 })).hits.max_score).to.equal(null);
    expect((await search('ranges', { sort: ['_doc'] })).hits.max_score).to.equal(null);
    expect((await search('ranges', { sort: ['_doc'], track_scores: true })).hits.max_score).to.equal(1);
    // filter context scores 0
    const filtered = await search('ranges', { query: { bool: { filter: [{ term: { integer_range: 2 } }] } } });
    expect(filtered.hits.max_score).to.equal(0);
    expect(filtered.hits.hits.map((h: { _score: number }) => h._score)).to.deep.equal([0, 0]);
  });
});
