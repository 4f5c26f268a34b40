import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { analyze, terms } from './helpers.js';

const QUICK = "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.";

describe('analysis: built-in analyzers', () => {
  it('standard configured with max_token_length 5 and _english_ stop words (ES example)', () => {
    const registry = createAnalysisRegistry({ analyzer: { my_english_analyzer: { type: 'standard', max_token_length: 5, stopwords: '_english_' } } });
    expect(terms({ analyzer: 'my_english_analyzer', text: QUICK }, registry)).to.deep.equal([
      '2', 'quick', 'brown', 'foxes', 'jumpe', 'd', 'over', 'lazy', "dog's", 'bone',
    ]);
  });

  it('simple: letters only, lowercased', () => {
    expect(analyze({ analyzer: 'simple', text: QUICK }).slice(0, 3)).to.deep.equal([
      ['the', 0, 3, 'word', 0],
      ['quick', 6, 11, 'word', 1],
      ['brown', 12, 17, 'word', 2],
    ]);
    expect(terms({ analyzer: 'simple', text: QUICK })).to.deep.equal(['the', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', 'dog', 's', 'bone']);
  });

  it('whitespace: splits on whitespace only', () => {
    expect(terms({ analyzer: 'whitespace', text: QUICK })).to.deep.equal(['The', '2', 'QUICK', 'Brown-Foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone.']);
  });

  it('keyword: the whole text as one token', () => {
    expect(analyze({ analyzer: 'keyword', text: QUICK })).to.deep.equal([[QUICK, 0, 56, 'word', 0]]);
  });

  it('stop: simple plus English stop words, which leave position gaps', () => {
    expect(analyze({ analyzer: 'stop', text: QUICK })).to.deep.equal([
      ['quick', 6, 11, 'word', 1],
      ['brown', 12, 17, 'word', 2],
      ['foxes', 18, 23, 'word', 3],
      ['jumped', 24, 30, 'word', 4],
      ['over', 31, 35, 'word', 5],
      ['lazy', 40, 44, 'word', 7],
      ['dog', 45, 48, 'word', 8],
      ['s', 49, 50, 'word', 9],
      ['bone', 51, 55, 'word', 10],
    ]);
  });

  it('english: possessive, lowercase, stop words and the Porter stemmer', () => {
    expect(analyze({ analyzer: 'english', text: QUICK })).to.deep.equal([
      ['2', 4, 5, '<NUM>', 1],
      ['quick', 6, 11, '<ALPHANUM>', 2],
      ['brown', 12, 17, '<ALPHANUM>', 3],
      ['fox', 18, 23, '<ALPHANUM>', 4],
      ['jump', 24, 30, '<ALPHANUM>', 5],
      ['over', 31, 35, '<ALPHANUM>', 6],
      ['lazi', 40, 44, '<ALPHANUM>', 8],
      ['dog', 45, 50, '<ALPHANUM>', 9],
      ['bone', 51, 55, '<ALPHANUM>', 10],
    ]);
  });

  it('english with stem_exclusion leaves the listed words unstemmed', () => {
    const registry = createAnalysisRegistry({ analyzer: { en: { type: 'english', stem_exclusion: ['jumped'] } } });
    expect(terms({ analyzer: 'en', text: 'jumped jumping' }, registry)).to.deep.equal(['jumped', 'jump']);
  });

  it('pattern: \\W+ split, lowercased (ES example)', () => {
    expect(terms({ analyzer: 'pattern', text: QUICK })).to.deep.equal(['the', '2', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', 'dog', 's', 'bone']);
  });

  it('fingerprint: one token of the distinct terms, lowercased, folded to ASCII and sorted (ES example); separator, max_output_size and stopwords', () => {
    expect(analyze({ analyzer: 'fingerprint', text: 'Yes yes, Gödel said this sentence is consistent and.' })).to.deep.equal([
      ['and consistent godel is said sentence this yes', 0, 52, 'fingerprint', 0],
    ]);
    const registry = createAnalysisRegistry({ analyzer: {
      dashed: { type: 'fingerprint', separator: '-', stopwords: '_english_' },
      short: { type: 'fingerprint', max_output_size: 5 },
    } });
    expect(terms({ analyzer: 'dashed', text: 'B2 the A1 B2' }, registry)).to.deep.equal(['a1-b2']);
    expect(terms({ analyzer: 'short', text: 'A1 B2 C3' }, registry)).to.deep.equal([]);
  });

  it('chinese: kept for old indices, the standard analyzer with English stop words, by name or as a type', () => {
    expect(terms({ analyzer: 'chinese', text: 'only for old indices' })).to.deep.equal(['only', 'old', 'indices']);
    const registry = createAnalysisRegistry({ analyzer: { my_analyzer: { type: 'chinese' } } });
    expect(terms({ analyzer: 'my_analyzer', text: 'The Old Indices' }, registry)).to.deep.equal(['old', 'indices']);
  });

  it('continues positions across array values with position_increment_gap 100 and offsets with gap 1', () => {
    expect(analyze({ analyzer: 'standard', text: ['a b', 'c'] })).to.deep.equal([
      ['a', 0, 1, '<ALPHANUM>', 0],
      ['b', 2, 3, '<ALPHANUM>', 1],
      ['c', 4, 5, '<ALPHANUM>', 102],
    ]);
    // A one-off tokenizer/filter chain has no gap, as in ES.
    expect(analyze({ tokenizer: 'whitespace', text: ['a b', 'c'] }).map((r) => r[4])).to.deep.equal([0, 1, 2]);
    // A trailing removed stop word still counts.
    expect(analyze({ analyzer: 'stop', text: ['fox the', 'dog'] }).map((r) => r[4])).to.deep.equal([0, 102]);
  });
});
