import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { createFieldResolver, queryStringToDsl, uriSearchQuery } from '../../../../lib/engine/embedded/search/query-string/index.js';

const qs = (body: Record<string, unknown>) => queryStringToDsl('query_string', body);
const sqs = (body: Record<string, unknown>) => queryStringToDsl('simple_query_string', body);
const m = (field: string, query: string, extra: Record<string, unknown> = {}) => ({ match: { [field]: { query, ...extra } } });

describe('query_string → DSL (Lucene classic syntax)', () => {
  it('a single term on the default field is a match query', () => {
    expect(qs({ query: 'quick', default_field: 'title' })).to.deep.equal(m('title', 'quick'));
  });

  it('whitespace combines with the default operator (OR → should, AND → must)', () => {
    expect(qs({ query: 'a b', default_field: 'f' })).to.deep.equal({ bool: { should: [m('f', 'a'), m('f', 'b')] } });
    expect(qs({ query: 'a b', default_field: 'f', default_operator: 'AND' })).to.deep.equal({
      bool: { must: [m('f', 'a', { operator: 'and' }), m('f', 'b', { operator: 'and' })] },
    });
  });

  it('AND / OR / NOT and && || ! follow Lucene addClause rules', () => {
    expect(qs({ query: 'a AND b OR c', default_field: 'f' })).to.deep.equal({ bool: { must: [m('f', 'a'), m('f', 'b')], should: [m('f', 'c')] } });
    expect(qs({ query: 'a && b', default_field: 'f' })).to.deep.equal({ bool: { must: [m('f', 'a'), m('f', 'b')] } });
    expect(qs({ query: 'a || !b', default_field: 'f' })).to.deep.equal({ bool: { should: [m('f', 'a')], must_not: [m('f', 'b')] } });
    expect(qs({ query: 'a NOT b', default_field: 'f' })).to.deep.equal({ bool: { should: [m('f', 'a')], must_not: [m('f', 'b')] } });
    // with AND as default, "a OR b" keeps both optional
    expect(qs({ query: 'a OR b', default_field: 'f', default_operator: 'and' })).to.deep.equal({
      bool: { should: [m('f', 'a', { operator: 'and' }), m('f', 'b', { operator: 'and' })] },
    });
  });

  it('+ and - modifiers, groups, field:value and field:(group)', () => {
    expect(qs({ query: '+status:active -title:draft (x y)', default_field: 'body' })).to.deep.equal({
      bool: {
        must: [m('status', 'active')],
        should: [{ bool: { should: [m('body', 'x'), m('body', 'y')] } }],
        must_not: [m('title', 'draft')],
      },
    });
    expect(qs({ query: 'title:(quick brown)', default_field: 'body' })).to.deep.equal({ bool: { should: [m('title', 'quick'), m('title', 'brown')] } });
  });

  it('phrases with slop, boosts, fuzzy, regexp, wildcards and prefixes', () => {
    expect(qs({ query: '"quick fox"~2^3', default_field: 'f' })).to.deep.equal({ match_phrase: { f: { query: 'quick fox', slop: 2, boost: 3 } } });
    expect(qs({ query: 'foo~1', default_field: 'f' })).to.deep.equal({ fuzzy: { f: { value: 'foo', fuzziness: '1' } } });
    expect(qs({ query: 'foo~', default_field: 'f' })).to.deep.equal({ fuzzy: { f: { value: 'foo', fuzziness: 'AUTO' } } });
    expect(qs({ query: '/jo.*n/', default_field: 'f' })).to.deep.equal({ regexp: { f: { value: 'jo.*n' } } });
    expect(qs({ query: 'Qu?ck', default_field: 'f' })).to.deep.equal({ wildcard: { f: { value: 'qu?ck' } } });
    expect(qs({ query: 'BA*', default_field: 'f' })).to.deep.equal({ prefix: { f: { value: 'ba' } } });
    expect(qs({ query: 'title:quick^2', default_field: 'f' })).to.deep.equal(m('title', 'quick', { boost: 2 }));
  });

  it('ranges: [a TO b], {a TO b}, open ends, and >=, <', () => {
    expect(qs({ query: 'n:[1 TO 5}' })).to.deep.equal({ range: { n: { gte: '1', lt: '5' } } });
    expect(qs({ query: 'd:{2020-01-01 TO *]' })).to.deep.equal({ range: { d: { gt: '2020-01-01' } } });
    expect(qs({ query: 'age:>=10' })).to.deep.equal({ range: { age: { gte: '10' } } });
    expect(qs({ query: 'd:<now' })).to.deep.equal({ range: { d: { lt: 'now' } } });
  });

  it('_exists_, field:* and *:*', () => {
    expect(qs({ query: '_exists_:title' })).to.deep.equal({ exists: { field: 'title' } });
    expect(qs({ query: 'title:*' })).to.deep.equal({ exists: { field: 'title' } });
    expect(qs({ query: '*:*' })).to.deep.equal({ match_all: {} });
  });

  it('escaped characters are literal', () => {
    expect(qs({ query: 'a\\:b\\(c\\)', default_field: 'f' })).to.deep.equal(m('f', 'a:b(c)'));
  });

  it('fields with boosts and the query type', () => {
    expect(qs({ query: 'x', fields: ['title^3', 'body'] })).to.deep.equal({
      dis_max: { queries: [m('title', 'x', { boost: 3 }), m('body', 'x')], tie_breaker: 0 },
    });
    expect(qs({ query: 'x', fields: ['a', 'b'], type: 'most_fields' })).to.deep.equal({ bool: { should: [m('a', 'x'), m('b', 'x')] } });
    expect(qs({ query: 'x y', default_field: 'f', type: 'phrase' })).to.deep.equal({
      bool: { should: [{ match_phrase: { f: { query: 'x' } } }, { match_phrase: { f: { query: 'y' } } }] },
    });
  });

  it('analyzer, quote_analyzer, lenient, phrase_slop and minimum_should_match', () => {
    expect(qs({ query: 'a "b c"', default_field: 'f', analyzer: 'simple', quote_analyzer: 'whitespace', lenient: true, phrase_slop: 1, minimum_should_match: 2 })).to.deep.equal({
      bool: {
        should: [m('f', 'a', { analyzer: 'simple', lenient: true }), { match_phrase: { f: { query: 'b c', analyzer: 'whitespace', slop: 1, lenient: true } } }],
        minimum_should_match: 2,
      },
    });
  });

  it('an empty query matches nothing', () => {
    expect(qs({ query: '  ', default_field: 'f' })).to.deep.equal({ match_none: {} });
  });

  it('syntax errors are query_shard_exception caused by parse_exception', () => {
    for (const query of ['foo:(', '"unclosed', 'a AND', '/unclosed', 'n:[1 TO']) {
      expect(() => qs({ query, default_field: 'f' }), query).to.throw().that.satisfies((e: { status: number; type: string; reason: string; extra: { caused_by: { type: string; reason: string } } }) =>
        e.status === 400 && e.type === 'query_shard_exception' && e.reason === `Failed to parse query [${query}]` && e.extra.caused_by.type === 'parse_exception' && e.extra.caused_by.reason.startsWith(`Cannot parse '${query}'`));
    }
  });

  it('leading wildcards can be refused', () => {
    expect(() => qs({ query: '*foo', default_field: 'f', allow_leading_wildcard: false })).to.throw(/Failed to parse query/);
    expect(qs({ query: '*foo', default_field: 'f' })).to.deep.equal({ wildcard: { f: { value: '*foo' } } });
  });

  it('refuses unknown parameters and fields together with default_field', () => {
    expect(() => qs({ query: 'a', nope: 1 })).to.throw(/\[query_string\] query does not support \[nope\]/);
    expect(() => qs({ query: 'a', fields: ['a'], default_field: 'b' })).to.throw(/cannot use \[fields\] parameter in conjunction with \[default_field\]/);
  });

  it('without mappings, a field pattern is left to multi_match', () => {
    expect(qs({ query: 'snow' })).to.deep.equal({ multi_match: { query: 'snow', fields: ['*'], type: 'best_fields', lenient: true } });
  });

  it('with mappings, * expands to searchable fields, leniently, and wildcards are normalized per field', () => {
    const resolver = createFieldResolver([{
      registry: createAnalysisRegistry(),
      settings: {},
      mappings: { properties: { title: { type: 'text', fields: { raw: { type: 'keyword' } } }, n: { type: 'long' }, loc: { type: 'geo_point' }, tag: { type: 'keyword' } } },
    }]);
    expect(queryStringToDsl('query_string', { query: 'snow' }, resolver)).to.deep.equal({
      dis_max: { queries: ['title', 'title.raw', 'n', 'tag'].map((f) => m(f, 'snow', { lenient: true })), tie_breaker: 0 },
    });
    expect(queryStringToDsl('query_string', { query: 'title:BA* tag:BA*' }, resolver)).to.deep.equal({
      bool: { should: [{ prefix: { title: { value: 'ba' } } }, { prefix: { tag: { value: 'BA' } } }] },
    });
    expect(queryStringToDsl('query_string', { query: 'title.*:x' }, resolver)).to.deep.equal(m('title.raw', 'x', { lenient: true }));
  });

  it('index.query.default_field is the default field', () => {
    const resolver = createFieldResolver([{ registry: createAnalysisRegistry(), settings: { 'index.query.default_field': ['title', 'tag'] }, mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } } }]);
    expect(queryStringToDsl('query_string', { query: 'x' }, resolver)).to.deep.equal({ dis_max: { queries: [m('title', 'x'), m('tag', 'x')], tie_breaker: 0 } });
  });

  it('q= with df, default_operator, analyzer, lenient, analyze_wildcard is a query_string query', () => {
    const params = new URLSearchParams('q=a b&df=f&default_operator=AND&analyzer=simple&lenient=true&analyze_wildcard=true');
    expect(uriSearchQuery(params)).to.deep.equal({ query_string: { query: 'a b', default_field: 'f', default_operator: 'AND', analyzer: 'simple', lenient: true, analyze_wildcard: true } });
    expect(uriSearchQuery(new URLSearchParams('size=1'))).to.equal(undefined);
  });
});

describe('simple_query_string → DSL', () => {
  it('whitespace is the default operator; + | - as Lucene SimpleQueryParser builds them', () => {
    expect(sqs({ query: 'a b', fields: ['f'] })).to.deep.equal({ bool: { should: [m('f', 'a'), m('f', 'b')] } });
    expect(sqs({ query: 'a + b | c', fields: ['f'] })).to.deep.equal({
      bool: { should: [{ bool: { must: [m('f', 'a'), m('f', 'b')] } }, m('f', 'c')] },
    });
    expect(sqs({ query: '-a', fields: ['f'] })).to.deep.equal({ bool: { should: [{ match_all: {} }], must_not: [m('f', 'a')] } });
  });

  it('phrases with ~slop, prefix*, fuzzy~N and precedence', () => {
    expect(sqs({ query: '"a b"~2', fields: ['f'] })).to.deep.equal({ match_phrase: { f: { query: 'a b', slop: 2 } } });
    expect(sqs({ query: 'Pre*', fields: ['f'] })).to.deep.equal({ prefix: { f: { value: 'pre' } } });
    expect(sqs({ query: 'fuz~1', fields: ['f'] })).to.deep.equal({ fuzzy: { f: { value: 'fuz', fuzziness: '1' } } });
    expect(sqs({ query: '(a | b) + c', fields: ['f'] })).to.deep.equal({
      bool: { must: [{ bool: { should: [m('f', 'a'), m('f', 'b')] } }, m('f', 'c')] },
    });
  });

  it('a backslash escapes the next character in terms, phrases and sub-queries', () => {
    expect(sqs({ query: 'a\\+b', fields: ['f'] })).to.deep.equal(m('f', 'a+b'));
    expect(sqs({ query: '"a\\"b"', fields: ['f'] })).to.deep.equal({ match_phrase: { f: { query: 'a"b' } } });
    expect(sqs({ query: '(a\\) b) | c', fields: ['f'] })).to.deep.equal({ bool: { should: [{ bool: { should: [m('f', 'a)'), m('f', 'b')] } }, m('f', 'c')] } });
    expect(sqs({ query: 'x\\* f\\~1', fields: ['f'] })).to.deep.equal({ bool: { should: [m('f', 'x*'), m('f', 'f~1')] } });
  });

  it('flags turn operators off: their characters become text', () => {
    expect(sqs({ query: 'a+b', fields: ['f'], flags: 'NONE' })).to.deep.equal(m('f', 'a+b'));
    expect(sqs({ query: 'a*', fields: ['f'], flags: 'AND|OR' })).to.deep.equal(m('f', 'a*'));
  });

  it('never fails on bad syntax', () => {
    expect(sqs({ query: '"unclosed (paren', fields: ['f'] })).to.have.property('bool');
    expect(sqs({ query: ')))', fields: ['f'] })).to.deep.equal({ match_none: {} });
  });

  it('several fields: terms as most_fields, with boosts', () => {
    expect(sqs({ query: 'x', fields: ['a^2', 'b'] })).to.deep.equal({ bool: { should: [m('a', 'x', { boost: 2 }), m('b', 'x')] } });
  });
});
