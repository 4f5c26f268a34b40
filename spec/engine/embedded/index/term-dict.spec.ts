import { expect } from 'chai';
import { TermDict } from '../../../../lib/engine/embedded/index/term-dict.js';

describe('engine: term dictionary', () => {
  it('gives dense ids in order of first appearance, across the split into shards', () => {
    const d = new TermDict();
    const n = TermDict.SPLIT_AT * 4;
    for (let i = 0; i < n; i++) {
      expect(d.intern(`t${i}`)).to.equal(i);
      expect(d.added).to.equal(true);
    }
    for (let i = 0; i < n; i += 97) {
      expect(d.get(`t${i}`)).to.equal(i);
      expect(d.intern(`t${i}`)).to.equal(i);
      expect(d.added).to.equal(false);
    }
    expect(d.get('absent')).to.equal(-1);
    expect(d.size).to.equal(n);
  });

  it('is rebuilt from a term list, small or split, and grows on from there', () => {
    for (const n of [3, TermDict.SPLIT_AT + 5]) {
      const terms = Array.from({ length: n }, (_, i) => `w${i}`);
      const d = TermDict.ofDistinct(terms.slice());
      for (let i = 0; i < n; i += 31) expect(d.get(`w${i}`)).to.equal(i);
      expect(d.intern('fresh')).to.equal(n);
      expect(d.get('fresh')).to.equal(n);
    }
  });
});
