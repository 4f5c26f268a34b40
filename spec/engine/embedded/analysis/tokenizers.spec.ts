import { expect } from 'chai';
import { analyze, terms } from './helpers.js';

const QUICK = "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.";

describe('analysis: tokenizers', () => {
  it('letter: runs of letters (ES example)', () => {
    expect(terms({ tokenizer: 'letter', text: QUICK })).to.deep.equal(['The', 'QUICK', 'Brown', 'Foxes', 'jumped', 'over', 'the', 'lazy', 'dog', 's', 'bone']);
  });

  it('lowercase: letter runs, lowercased', () => {
    expect(analyze({ tokenizer: 'lowercase', text: 'The QUICK' })).to.deep.equal([
      ['the', 0, 3, 'word', 0],
      ['quick', 4, 9, 'word', 1],
    ]);
  });

  it('whitespace: non-whitespace runs, cut at max_token_length', () => {
    expect(analyze({ tokenizer: 'whitespace', text: ' Brown-Foxes  bone. ' })).to.deep.equal([
      ['Brown-Foxes', 1, 12, 'word', 0],
      ['bone.', 14, 19, 'word', 1],
    ]);
    expect(terms({ tokenizer: { type: 'whitespace', max_token_length: 4 }, text: 'abcdefghij' })).to.deep.equal(['abcd', 'efgh', 'ij']);
  });

  it('keyword: the whole input', () => {
    expect(analyze({ tokenizer: 'keyword', text: 'New York' })).to.deep.equal([['New York', 0, 8, 'word', 0]]);
  });

  it('ngram with defaults (1..2, all characters): ES example', () => {
    expect(terms({ tokenizer: 'ngram', text: 'Quick Fox' })).to.deep.equal(['Q', 'Qu', 'u', 'ui', 'i', 'ic', 'c', 'ck', 'k', 'k ', ' ', ' F', 'F', 'Fo', 'o', 'ox', 'x']);
    expect(analyze({ tokenizer: 'ngram', text: 'ab' })).to.deep.equal([
      ['a', 0, 1, 'word', 0],
      ['ab', 0, 2, 'word', 1],
      ['b', 1, 2, 'word', 2],
    ]);
  });

  it('ngram with token_chars letter/digit, 3..3: ES example', () => {
    expect(analyze({ tokenizer: { type: 'ngram', min_gram: 3, max_gram: 3, token_chars: ['letter', 'digit'] }, text: '2 Quick Foxes.' })).to.deep.equal([
      ['Qui', 2, 5, 'word', 0],
      ['uic', 3, 6, 'word', 1],
      ['ick', 4, 7, 'word', 2],
      ['Fox', 8, 11, 'word', 3],
      ['oxe', 9, 12, 'word', 4],
      ['xes', 10, 13, 'word', 5],
    ]);
  });

  it('edge_ngram: defaults give the first two characters (ES example)', () => {
    expect(terms({ tokenizer: 'edge_ngram', text: 'Quick Fox' })).to.deep.equal(['Q', 'Qu']);
  });

  it('edge_ngram with token_chars letter/digit, 2..10: ES example', () => {
    expect(analyze({ tokenizer: { type: 'edge_ngram', min_gram: 2, max_gram: 10, token_chars: ['letter', 'digit'] }, text: '2 Quick Foxes.' })).to.deep.equal([
      ['Qu', 2, 4, 'word', 0],
      ['Qui', 2, 5, 'word', 1],
      ['Quic', 2, 6, 'word', 2],
      ['Quick', 2, 7, 'word', 3],
      ['Fo', 8, 10, 'word', 4],
      ['Fox', 8, 11, 'word', 5],
      ['Foxe', 8, 12, 'word', 6],
      ['Foxes', 8, 13, 'word', 7],
    ]);
  });

  it('ngram token_chars: punctuation, symbol, whitespace and custom classes; string numbers', () => {
    const tok = { type: 'edge_ngram', min_gram: '1', max_gram: '3', token_chars: ['letter', 'custom'], custom_token_chars: '+-' };
    expect(terms({ tokenizer: tok, text: 'c++ a-b' })).to.deep.equal(['c', 'c+', 'c++', 'a', 'a-', 'a-b']);
    expect(terms({ tokenizer: { type: 'edge_ngram', max_gram: 3, token_chars: ['punctuation', 'symbol'] }, text: 'ab$!?c' })).to.deep.equal(['$', '$!', '$!?']);
  });

  it('pattern: splits on \\W+ by default (ES example)', () => {
    expect(terms({ tokenizer: 'pattern', text: "The foo_bar_size's default is 5." })).to.deep.equal(['The', 'foo_bar_size', 's', 'default', 'is', '5']);
    expect(terms({ tokenizer: { type: 'pattern', pattern: ',' }, text: 'comma,separated,values' })).to.deep.equal(['comma', 'separated', 'values']);
  });

  it('pattern with a capture group emits the group (ES example)', () => {
    const tokenizer = { type: 'pattern', pattern: '"((?:\\\\"|[^"]|\\\\")+)"', group: 1 };
    expect(terms({ tokenizer, text: '"value", "value with embedded \\" quote"' })).to.deep.equal(['value', 'value with embedded \\" quote']);
  });
});
