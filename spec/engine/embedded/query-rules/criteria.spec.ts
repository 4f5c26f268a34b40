import { expect } from 'chai';
import { criterionMatches, javaDouble, levenshteinSimilarity } from '../../../../lib/engine/embedded/query-rules/criteria.js';

describe('query rules: criteria', () => {
  it('measures similarity as Lucene\'s LevenshteinDistance does: 1 − edits / longer length', () => {
    expect(levenshteinSimilarity('comic', 'comic')).to.equal(1);
    expect(levenshteinSimilarity('comics', 'comic')).to.equal(Math.fround(1 - Math.fround(1 / 6)));
    expect(levenshteinSimilarity('bar', 'baz')).to.equal(Math.fround(1 - Math.fround(1 / 3)));
    expect(levenshteinSimilarity('', '')).to.equal(1);
    expect(levenshteinSimilarity('', 'a')).to.equal(0);
    // exactly half is not similar enough: fuzzy wants more than 0.5
    expect(levenshteinSimilarity('ab', 'cb')).to.equal(0.5);
    expect(criterionMatches({ type: 'fuzzy', metadata: 'q', values: ['ab'] }, 'cb')).to.equal(false);
    expect(criterionMatches({ type: 'fuzzy', metadata: 'q', values: ['abc'] }, 'abd')).to.equal(true);
  });

  it('reads numbers as Java\'s Double.parseDouble does', () => {
    expect(javaDouble('10')).to.equal(10);
    expect(javaDouble(' 1e3 ')).to.equal(1000);
    expect(javaDouble('12d')).to.equal(12);
    expect(javaDouble('-Infinity')).to.equal(-Infinity);
    expect(javaDouble('')).to.equal(undefined);
    expect(javaDouble('0x10')).to.equal(undefined);
    expect(javaDouble('ten')).to.equal(undefined);
  });

  it('compares the text of the value given with each criteria value', () => {
    expect(criterionMatches({ type: 'exact', metadata: 'n', values: ['5'] }, 5)).to.equal(true);
    expect(criterionMatches({ type: 'exact', metadata: 'n', values: ['5.0'] }, 5)).to.equal(false);
    expect(criterionMatches({ type: 'exact', metadata: 'n', values: ['true'] }, true)).to.equal(false);
    expect(criterionMatches({ type: 'prefix', metadata: 'q', values: ['1'] }, 12)).to.equal(false);
    expect(criterionMatches({ type: 'gte', metadata: 'n', values: ['abc', '3'] }, 3)).to.equal(true);
    expect(criterionMatches({ type: 'always' }, null)).to.equal(true);
  });
});
