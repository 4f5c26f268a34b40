import { expect } from 'chai';
import { TermDict } from '../../../../lib/engine/embedded/index/term-dict.js';

describe('engine: term dictionary', () => {
  it('gives dense ids in order of first appearance, across the split into shards', () => {
    const d = new TermDict();
    const n = TermDict.SPLIT_AT * 4;
    // a quarter of a million terms: checked with plain comparisons, the first wrong one reported
    const wrong: string[] = [];
    for (let i = 0; i < n && wrong.length === 0; i++) {
      const id = d.intern(`t${i}`);
      if (id !== i || !d.added) wrong.push(`intern(t${i}) = ${id}, added ${d.added}`);
    }
    for (let i = 0; i < n && wrong.length === 0; i += 97) {
      const got = d.get(`t${i}`);
      const again = d.intern(`t${i}`);
      if (got !== i || again !== i || d.added) wrong.push(`t${i}: get ${got}, intern ${again}, added ${d.added}`);
    }
    expect(wrong).to.deep.equal([]);
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
