import { expect } from 'chai';
import type { Token } from '../../../../lib/engine/embedded/analysis/index.js';
import { isTokenGraph, TokenGraph } from '../../../../lib/engine/embedded/search/query/token-graph.js';

/** Tokens as `_analyze` gives them: [term, position, positionLength?]. */
function tokens(...rows: Array<[string, number, number?]>): Token[] {
  return rows.map(([token, position, positionLength]) => ({ token, position, start_offset: 0, end_offset: 0, type: 'word', ...(positionLength ? { positionLength } : {}) }));
}

describe('search: token graphs of analyzed query text', () => {
  // synonym_graph output for "wtf" with "wtf, what the fudge".
  const wtf = tokens(['what', 0], ['wtf', 0, 3], ['the', 1], ['fudge', 2]);
  // … and for "three what the fudge foo" with "foo, bar baz" too.
  const sentence = tokens(['three', 0], ['wtf', 1, 3], ['what', 1], ['the', 2], ['fudge', 3], ['bar', 4], ['foo', 4, 2], ['baz', 5]);

  it('is a graph only when a token spans several positions', () => {
    expect(isTokenGraph(wtf)).to.equal(true);
    expect(isTokenGraph(tokens(['quick', 0], ['fast', 0], ['fox', 1]))).to.equal(false);
    // A single token is a term query whatever it spans.
    expect(isTokenGraph(tokens(['wtf', 0, 3]))).to.equal(false);
  });

  it('paths: every way from the first state to the last, with each path\'s own positions', () => {
    const graph = new TokenGraph(wtf);
    expect(graph.articulationPoints()).to.deep.equal([]);
    expect(graph.hasSidePath(0)).to.equal(true);
    expect(graph.paths()).to.deep.equal([
      { terms: ['what', 'the', 'fudge'], offsets: [0, 1, 2] },
      { terms: ['wtf'], offsets: [0] },
    ]);
  });

  it('articulation points cut the graph into segments; a segment without side paths holds stacked terms', () => {
    const graph = new TokenGraph(sentence);
    expect(graph.articulationPoints()).to.deep.equal([1, 4]);
    expect(graph.hasSidePath(0)).to.equal(false);
    expect(graph.termsFrom(0)).to.deep.equal(['three']);
    expect(graph.paths(1, 4).map((p) => p.terms.join(' '))).to.deep.equal(['wtf', 'what the fudge']);
    expect(graph.paths(4).map((p) => p.terms.join(' '))).to.deep.equal(['bar baz', 'foo']);
    expect(graph.paths().map((p) => p.terms.join(' '))).to.deep.equal([
      'three wtf bar baz', 'three wtf foo', 'three what the fudge bar baz', 'three what the fudge foo',
    ]);
    expect(new TokenGraph(tokens(['quick', 0], ['fast', 0], ['fox', 1])).termsFrom(0)).to.deep.equal(['quick', 'fast']);
  });

  it('only complete paths count: tokens that lead to dead ends are dropped', () => {
    // Bigrams without unigrams: "a b" ends where no token starts.
    const graph = new TokenGraph(tokens(['a b', 0, 2], ['b c', 1, 2]));
    expect(graph.paths()).to.deep.equal([]);
    expect(graph.termsFrom(0)).to.deep.equal([]);
  });

  it('a hole (removed stop word) joins the next token, which keeps its gap along the path', () => {
    // "a <stop> b c" with "x" a synonym of "b c".
    const graph = new TokenGraph(tokens(['a', 0], ['x', 2, 2], ['b', 2], ['c', 3]));
    expect(graph.articulationPoints()).to.deep.equal([1]);
    expect(graph.paths()).to.deep.equal([
      { terms: ['a', 'x'], offsets: [0, 2] },
      { terms: ['a', 'b', 'c'], offsets: [0, 2, 3] },
    ]);
  });
});
