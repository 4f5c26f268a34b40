import { expect } from 'chai';
import { ndjson, startEngine, type Reply, type TestEngine } from './support.js';

/** A backtracking engine would not answer these within the case's 5 s timeout (nor ever). */
const HOSTILE = '(a+)+b';
const A200 = 'a'.repeat(200);

function expectRefused(r: Reply, type: string, reasonPart: string): void {
  expect(r.status, r.text.slice(0, 300)).to.equal(400);
  expect(r.json.error.type).to.equal(type);
  expect(r.json.error.reason).to.contain(reasonPart);
}

const ids = (r: Reply): string[] => r.json.hits.hits.map((h: { _id: string }) => h._id).sort();
const tokens = (r: Reply): string[] => r.json.tokens.map((t: { token: string }) => t.token);

describe('embedded engine: user-supplied patterns run in linear time', function () {
  this.timeout(5000);
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/p', { mappings: { properties: { f: { type: 'text', fields: { keyword: { type: 'keyword' } } }, tag: { type: 'keyword' } } } });
    const docs = Array.from({ length: 50 }, (_, i) => [{ index: { _id: `a${i}` } }, { f: A200, tag: A200 }]).flat();
    docs.push({ index: { _id: 'kimchy' } }, { f: 'kimchy', tag: 'kimchy' });
    docs.push({ index: { _id: 'ab' } }, { f: 'aab', tag: 'aab' });
    docs.push({ index: { _id: 'n42' } }, { f: 'item 42', tag: 'item-042' });
    expect((await es.call('POST', '/p/_bulk?refresh', ndjson(docs), { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
  });
  after(() => es.close());

  describe('regexp query', () => {
    it(`${HOSTILE} over 50 keyword values of 200 a's answers, matching only what ends in b`, async () => {
      const r = await es.call('POST', '/p/_search', { query: { regexp: { 'f.keyword': HOSTILE } } });
      expect(r.status, r.text).to.equal(200);
      expect(ids(r)).to.deep.equal(['ab']);
    });

    it('keeps Lucene syntax: .* and @, quoted strings, intervals, stacked operators, case_insensitive', async () => {
      const search = async (regexp: unknown) => ids(await es.call('POST', '/p/_search', { query: { regexp: { tag: regexp } } }));
      expect(await search('k.*y')).to.deep.equal(['kimchy']);
      expect(await search('kim@')).to.deep.equal(['kimchy']);
      expect(await search('"item-"<0-100>')).to.deep.equal(['n42']);
      expect(await search('"item-"<1-41>')).to.deep.equal([]);
      expect(await search('a**b')).to.deep.equal(['ab']);
      expect(await search({ value: 'KIM[a-z]+', case_insensitive: true })).to.deep.equal(['kimchy']);
      expect(await search('kimchy#')).to.deep.equal([]);
    });

    it('highlights regexp matches', async () => {
      const r = await es.call('POST', '/p/_search', { query: { regexp: { f: 'k[aeiou]m.*' } }, highlight: { fields: { f: {} } } });
      expect(r.json.hits.hits[0].highlight.f).to.deep.equal(['<em>kimchy</em>']);
    });

    it('a pattern too large to run answers too_complex_to_determinize_exception', async () => {
      const r = await es.call('POST', '/p/_search', { query: { regexp: { tag: '(a{1000}){1000}' } } });
      expectRefused(r, 'too_complex_to_determinize_exception', 'Determinizing (a{1000}){1000} would require more than 10000 effort.');
    });

    it('an invalid pattern answers query_shard_exception', async () => {
      expectRefused(await es.call('POST', '/p/_search', { query: { regexp: { tag: 'a(b' } } }), 'query_shard_exception', 'failed to create query');
    });
  });

  it(`query_string /${HOSTILE}/ answers`, async () => {
    const r = await es.call('POST', '/p/_search', { query: { query_string: { query: `f.keyword:/${HOSTILE}/` } } });
    expect(r.status, r.text).to.equal(200);
    expect(ids(r)).to.deep.equal(['ab']);
    const ok = await es.call('POST', '/p/_search', { query: { query_string: { query: 'tag:/kim.h[a-z]/' } } });
    expect(ids(ok)).to.deep.equal(['kimchy']);
  });

  it('wildcard *a*a*a*a*a*a*a*a*a*a*b answers', async () => {
    const r = await es.call('POST', '/p/_search', { query: { wildcard: { tag: '*a*a*a*a*a*a*a*a*a*a*b' } } });
    expect(r.status, r.text).to.equal(200);
    expect(ids(r)).to.deep.equal([]);
    expect(ids(await es.call('POST', '/p/_search', { query: { wildcard: { tag: '*a*b' } } }))).to.deep.equal(['ab']);
  });

  it(`terms aggregation include ${HOSTILE} answers; include/exclude still filter`, async () => {
    const agg = async (terms: unknown) => {
      const r = await es.call('POST', '/p/_search', { size: 0, aggs: { t: { terms: { field: 'tag', ...(terms as object) } } } });
      expect(r.status, r.text).to.equal(200);
      return r.json.aggregations.t.buckets.map((b: { key: string }) => b.key).sort();
    };
    expect(await agg({ include: HOSTILE })).to.deep.equal(['aab']);
    expect(await agg({ include: 'k.*|item.*' })).to.deep.equal(['item-042', 'kimchy']);
    expect(await agg({ include: '.*', exclude: 'a+b?' })).to.deep.equal(['item-042', 'kimchy']);
  });

  describe('_analyze', () => {
    it(`pattern tokenizer ${HOSTILE} over 5000 a's answers`, async () => {
      const r = await es.call('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: HOSTILE }, text: 'a'.repeat(5000) });
      expect(r.status, r.text).to.equal(200);
      expect(tokens(r)).to.deep.equal(['a'.repeat(5000)]);
    });

    it('pattern tokenizer splits, and emits a capture group, with Java syntax and flags', async () => {
      const split = await es.call('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: '\\s*,\\s*' }, text: 'one , two,three' });
      expect(tokens(split)).to.deep.equal(['one', 'two', 'three']);
      const group = await es.call('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: '"((?:\\\\"|[^"])+)"', group: 1 }, text: 'x "value", "value with embedded \\" quote"' });
      expect(tokens(group)).to.deep.equal(['value', 'value with embedded \\" quote']);
      const ci = await es.call('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: 'X', flags: 'CASE_INSENSITIVE' }, text: 'axbXc' });
      expect(tokens(ci)).to.deep.equal(['a', 'b', 'c']);
      const prop = await es.call('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: '\\P{Alpha}+' }, text: 'ab12cd' });
      expect(tokens(prop)).to.deep.equal(['ab', 'cd']);
    });

    it('lookahead and backreferences are refused with a 400, not run on a backtracking engine', async () => {
      const look = await es.call('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: '(?=a)b' }, text: 'ab' });
      expectRefused(look, 'illegal_argument_exception', 'Invalid pattern [(?=a)b] for tokenizer');
      const backref = await es.call('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: '(a)\\1' }, text: 'aa' });
      expectRefused(backref, 'illegal_argument_exception', 'is not supported');
    });

    it('simple_pattern and simple_pattern_split take Lucene syntax, longest match first', async () => {
      const hostile = await es.call('POST', '/_analyze', { tokenizer: { type: 'simple_pattern', pattern: HOSTILE }, text: `${'a'.repeat(5000)}b` });
      expect(tokens(hostile)).to.deep.equal([`${'a'.repeat(5000)}b`]);
      const simple = await es.call('POST', '/_analyze', { tokenizer: { type: 'simple_pattern', pattern: '[0123456789]{3}' }, text: 'fd-786-335-514-x' });
      expect(tokens(simple)).to.deep.equal(['786', '335', '514']);
      const split = await es.call('POST', '/_analyze', { tokenizer: { type: 'simple_pattern_split', pattern: '_' }, text: 'an_underscored_phrase' });
      expect(tokens(split)).to.deep.equal(['an', 'underscored', 'phrase']);
    });

    it('pattern_replace char filter with a catastrophic pattern answers; replacements use Java syntax', async () => {
      const hostile = await es.call('POST', '/_analyze', {
        tokenizer: 'keyword',
        char_filter: [{ type: 'pattern_replace', pattern: '(\\w+\\s?)+$x', replacement: '' }],
        text: `${'word '.repeat(2000)}!`,
      });
      expect(hostile.status, hostile.text).to.equal(200);
      expect(tokens(hostile)).to.deep.equal([`${'word '.repeat(2000)}!`]);
      const r = await es.call('POST', '/_analyze', {
        tokenizer: 'standard',
        char_filter: [{ type: 'pattern_replace', pattern: '(\\d+)-(?<rest>\\d+)', replacement: '$1_${rest}' }],
        text: 'My credit card is 123-456-789',
      });
      expect(tokens(r)).to.deep.equal(['My', 'credit', 'card', 'is', '123_456', '789']);
      const missing = await es.call('POST', '/_analyze', { tokenizer: 'keyword', char_filter: [{ type: 'pattern_replace', pattern: '(a)', replacement: '$2' }], text: 'a' });
      expectRefused(missing, 'illegal_argument_exception', 'No group 2');
    });
  });

  it('dynamic templates with match_pattern regex match in linear time', async () => {
    await es.call('PUT', '/dt', {
      mappings: { dynamic_templates: [{ hostile: { match_pattern: 'regex', match: HOSTILE, mapping: { type: 'keyword' } } }, { longs: { match_pattern: 'regex', match: '^n_\\d+$', mapping: { type: 'long' } } }] },
    });
    const put = await es.call('PUT', '/dt/_doc/1?refresh', { [A200]: 'x', n_1: '5', aab: 'y' });
    expect(put.status, put.text).to.equal(201);
    const props = (await es.call('GET', '/dt/_mapping')).json.dt.mappings.properties;
    expect(props.n_1.type).to.equal('long');
    expect(props.aab.type).to.equal('keyword');
    expect(props[A200].type).to.equal('text');
  });
});
