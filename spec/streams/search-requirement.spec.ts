import { expect } from 'chai';
import { createAnalysisRegistry, parseQuery, rewriteQuery, type MatchContext } from '../../lib/engine/embedded/matching.js';
import { requirementOf, type Atom, type Requirement } from '../../lib/streams/search-index/index.js';

const ctx: MatchContext = {
  mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' }, when: { type: 'date' } } },
  registry: createAnalysisRegistry(undefined),
};
const extract = (dsl: unknown, c = ctx) => requirementOf(rewriteQuery(parseQuery(dsl), c), c);
const term = (field: string, t: string): Atom => ({ kind: 'term', field, term: t });
const range = (field: string, lo: number | undefined, hi: number | undefined, loInc = true, hiInc = true): Atom =>
  ({ kind: 'range', field, bounds: { numeric: true, lo, hi, loInc, hiInc }, booleanField: false });
const exact = (...alternatives: Atom[][]): Requirement => ({ alternatives, exact: true });
const inexact = (...alternatives: Atom[][]): Requirement => ({ alternatives, exact: false });
const ANYTHING = inexact([]);

describe('what a document must satisfy to match a live search (the percolator index)', () => {
  it('match: any analyzed term of the query; with operator and, all of them', () => {
    expect(extract({ match: { title: 'Red Apples' } })).to.deep.equal(exact([term('title', 'red')], [term('title', 'apples')]));
    expect(extract({ match: { title: { query: 'Red Apples', operator: 'and' } } })).to.deep.equal(exact([term('title', 'red'), term('title', 'apples')]));
  });
  it('term on a keyword, ids, exists', () => {
    expect(extract({ term: { tag: 'Blue' } })).to.deep.equal(exact([term('tag', 'Blue')]));
    expect(extract({ ids: { values: ['a'] } })).to.deep.equal(exact([{ kind: 'id', id: 'a' }]));
    expect(extract({ exists: { field: 'tag' } })).to.deep.equal(exact([{ kind: 'exists', field: 'tag' }]));
  });
  it('ranges with fixed bounds, on numbers and dates; from `now` or on unmapped fields they cannot be indexed', () => {
    expect(extract({ range: { n: { gte: 1, lt: 5 } } })).to.deep.equal(exact([range('n', 1, 5, true, false)]));
    expect(extract({ range: { when: { gt: '2020-01-02' } } })).to.deep.equal(exact([range('when', Date.UTC(2020, 0, 2, 23, 59, 59, 999), undefined, false)]));
    expect(extract({ range: { when: { gte: 'now-1d/d' } } })).to.deep.equal(ANYTHING);
    expect(extract({ range: { unmapped: { gte: 1 } } })).to.deep.equal(ANYTHING);
    expect(extract({ term: { n: 5 } })).to.deep.equal(ANYTHING);
    expect(extract({ match_all: {} })).to.deep.equal(exact([]));
  });
  it('prefix, wildcard: the literal prefix, to be confirmed by the matcher', () => {
    expect(extract({ prefix: { tag: 'ab' } })).to.deep.equal(inexact([{ kind: 'prefix', field: 'tag', prefix: 'ab' }]));
    expect(extract({ wildcard: { tag: 'a*c' } })).to.deep.equal(inexact([{ kind: 'prefix', field: 'tag', prefix: 'a' }]));
    expect(extract({ wildcard: { tag: '*c' } })).to.deep.equal(ANYTHING);
  });
  it('bool: every required clause; should clauses when minimum_should_match requires one; must_not clauses of single atoms as exclusions', () => {
    expect(extract({ bool: { must: [{ match: { title: 'a b' } }], filter: [{ term: { tag: 'x' } }] } }))
      .to.deep.equal(exact([term('tag', 'x'), term('title', 'a')], [term('tag', 'x'), term('title', 'b')]));
    expect(extract({ bool: { should: [{ term: { tag: 'x' } }, { term: { tag: 'y' } }] } })).to.deep.equal(exact([term('tag', 'x')], [term('tag', 'y')]));
    // with a filter, should clauses are optional: they do not change which documents match
    expect(extract({ bool: { filter: [{ range: { n: { lt: 3 } } }], should: [{ term: { tag: 'x' } }] } })).to.deep.equal(exact([range('n', undefined, 3, true, false)]));
    expect(extract({ bool: { filter: [{ range: { n: { lt: 3 } } }], should: [{ term: { tag: 'x' } }, { term: { tag: 'y' } }], minimum_should_match: 1 } }))
      .to.deep.equal(exact([range('n', undefined, 3, true, false), term('tag', 'x')], [range('n', undefined, 3, true, false), term('tag', 'y')]));
    expect(extract({ bool: { should: [{ term: { tag: 'x' } }, { term: { tag: 'y' } }], minimum_should_match: 2 } }))
      .to.deep.equal(inexact([term('tag', 'x')], [term('tag', 'y')]));
    expect(extract({ bool: { must: [{ term: { tag: 'x' } }], must_not: [{ terms: { tag: ['y', 'z'] } }] } }))
      .to.deep.equal(exact([term('tag', 'x'), { kind: 'not', atom: term('tag', 'y') }, { kind: 'not', atom: term('tag', 'z') }]));
    expect(extract({ bool: { must: [{ term: { tag: 'x' } }], must_not: [{ match_phrase: { title: 'a b' } }] } })).to.deep.equal(inexact([term('tag', 'x')]));
    expect(extract({ bool: { must: [{ term: { tag: 'x' } }], must_not: [{ match_all: {} }] } })).to.deep.equal(exact());
    // without must or filter, one should clause is required whatever minimum_should_match says (Lucene's BooleanQuery)
    expect(extract({ bool: { should: [{ term: { tag: 'x' } }], minimum_should_match: 0, must_not: [{ term: { tag: 'z' } }] } }))
      .to.deep.equal(exact([term('tag', 'x'), { kind: 'not', atom: term('tag', 'z') }]));
  });
  it('an AND of ORs becomes an OR of ANDs only while that stays small', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const spread = extract({ bool: { must: [{ match: { title: words(3) } }, { match: { title: words(4) } }] } });
    expect(spread.alternatives).to.have.length(12);
    expect(spread.exact).to.equal(true);
    const kept = extract({ bool: { must: [{ match: { title: words(5) } }, { match: { title: words(5) } }] } });
    expect(kept.alternatives).to.have.length(5);
    expect(kept.exact).to.equal(false);
  });
  it('phrase over a synonym graph: every position of one of its paths, the matcher deciding where they stand', () => {
    const graph: MatchContext = {
      mappings: ctx.mappings,
      registry: createAnalysisRegistry({
        filter: { syn: { type: 'synonym_graph', synonyms: ['dns, domain name system'] } },
        analyzer: { syn: { tokenizer: 'standard', filter: ['lowercase', 'syn'] } },
      }),
    };
    const fromGraph = (dsl: unknown) => extract(dsl, graph);
    const phrase = fromGraph({ match_phrase: { title: { query: 'DNS is fragile', analyzer: 'syn' } } });
    expect(phrase.exact).to.equal(false);
    expect(phrase.alternatives).to.deep.include.members([[term('title', 'dns'), term('title', 'is'), term('title', 'fragile')]]);
    expect(phrase.alternatives.some((c) => c.some((a) => a.kind === 'term' && a.term === 'domain'))).to.equal(true);
    // a phrase prefix's last position is a prefix
    expect(fromGraph({ match_phrase_prefix: { title: 'fragile sys' } })).to.deep.equal(inexact([term('title', 'fragile'), { kind: 'prefix', field: 'title', prefix: 'sys' }]));
  });
  it('a query that matches nothing needs what no document has: it is never a candidate', () => {
    expect(extract({ match_none: {} })).to.deep.equal(exact());
    expect(extract({ term: { unmapped_field: 'x' } }).alternatives).to.deep.equal([]);
  });
});
