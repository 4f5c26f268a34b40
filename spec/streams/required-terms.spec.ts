import { expect } from 'chai';
import { createAnalysisRegistry, parseQuery, rewriteQuery, type MatchContext } from '../../lib/engine/embedded/matching.js';
import { requiredTerms, termKey, idKey } from '../../lib/streams/required-terms.js';

const ctx: MatchContext = {
  mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } },
  registry: createAnalysisRegistry(undefined),
};
const extract = (dsl: unknown) => requiredTerms(rewriteQuery(parseQuery(dsl), ctx), ctx);
const keys = (...pairs: Array<[string, string]>) => new Set(pairs.map(([f, t]) => termKey(f, t)));

describe('required terms of a live search (the percolator index)', () => {
  it('match: any analyzed term of the query', () => {
    expect(extract({ match: { title: 'Red Apples' } })).to.deep.equal(keys(['title', 'red'], ['title', 'apples']));
  });
  it('term on a keyword and ids', () => {
    expect(extract({ term: { tag: 'Blue' } })).to.deep.equal(keys(['tag', 'Blue']));
    expect(extract({ ids: { values: ['a'] } })).to.deep.equal(new Set([idKey('a')]));
  });
  it('ranges, numbers and match_all cannot be indexed by term', () => {
    expect(extract({ range: { n: { gte: 1 } } })).to.equal('any');
    expect(extract({ term: { n: 5 } })).to.equal('any');
    expect(extract({ match_all: {} })).to.equal('any');
  });
  it('bool: the most selective required clause; should only when required', () => {
    expect(extract({ bool: { must: [{ match: { title: 'a b c' } }], filter: [{ term: { tag: 'x' } }] } })).to.deep.equal(keys(['tag', 'x']));
    expect(extract({ bool: { should: [{ term: { tag: 'x' } }, { term: { tag: 'y' } }] } })).to.deep.equal(keys(['tag', 'x'], ['tag', 'y']));
    expect(extract({ bool: { filter: [{ range: { n: { lt: 3 } } }], should: [{ term: { tag: 'x' } }] } })).to.equal('any');
    expect(extract({ bool: { filter: [{ range: { n: { lt: 3 } } }], should: [{ term: { tag: 'x' } }, { term: { tag: 'y' } }], minimum_should_match: 1 } }))
      .to.deep.equal(keys(['tag', 'x'], ['tag', 'y']));
    expect(extract({ bool: { should: [{ term: { tag: 'x' } }], minimum_should_match: 0, must_not: [{ term: { tag: 'z' } }] } })).to.equal('any');
  });
  it('phrase over a synonym graph: the first term of any of its paths', () => {
    const graph: MatchContext = {
      mappings: ctx.mappings,
      registry: createAnalysisRegistry({
        filter: { syn: { type: 'synonym_graph', synonyms: ['dns, domain name system'] } },
        analyzer: { syn: { tokenizer: 'standard', filter: ['lowercase', 'syn'] } },
      }),
    };
    const fromGraph = (dsl: unknown) => requiredTerms(rewriteQuery(parseQuery(dsl), graph), graph);
    expect(fromGraph({ match_phrase: { title: { query: 'DNS is fragile', analyzer: 'syn' } } })).to.deep.equal(keys(['title', 'domain'], ['title', 'dns']));
    // The one-word path is a prefix: any term may start it.
    expect(fromGraph({ match_phrase_prefix: { title: { query: 'dns', analyzer: 'syn' } } })).to.equal('any');
  });
  it('a query that matches nothing needs nothing: it is never a candidate', () => {
    expect(extract({ match_none: {} })).to.equal('none');
    expect(extract({ term: { unmapped_field: 'x' } })).to.equal('none');
  });
});
