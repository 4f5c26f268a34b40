import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';
import { analyze, terms, thrown } from './helpers.js';

// Expected tokens are Elasticsearch's (reference docs and the es7 YAML suites).
describe('analysis: simple_pattern, path_hierarchy, thai, classic, uax_url_email, word_delimiter', () => {
  it('simple_pattern keeps the matches; simple_pattern_split the text between them', () => {
    expect(analyze({ tokenizer: { type: 'simple_pattern', pattern: '[abcdef0123456789]{4}' }, text: 'a6bf fooo ff61' })).to.deep.equal([
      ['a6bf', 0, 4, 'word', 0],
      ['ff61', 10, 14, 'word', 1],
    ]);
    expect(terms({ tokenizer: { type: 'simple_pattern_split', pattern: '==' }, text: 'foo==bar' })).to.deep.equal(['foo', 'bar']);
  });

  it('path_hierarchy: every ancestor at one position; reverse, replacement and skip', () => {
    expect(analyze({ tokenizer: 'path_hierarchy', text: '/one/two/three' })).to.deep.equal([
      ['/one', 0, 4, 'word', 0],
      ['/one/two', 0, 8, 'word', 0],
      ['/one/two/three', 0, 14, 'word', 0],
    ]);
    expect(terms({ tokenizer: { type: 'PathHierarchy' }, text: 'a/b/c' })).to.deep.equal(['a', 'a/b', 'a/b/c']);
    expect(terms({ tokenizer: { type: 'path_hierarchy', delimiter: '-', replacement: '/', skip: 2 }, text: 'one-two-three-four-five' })).to.deep.equal(['/three', '/three/four', '/three/four/five']);
    expect(terms({ tokenizer: { type: 'path_hierarchy', reverse: true }, text: 'a/b/c' })).to.deep.equal(['a/b/c', 'b/c', 'c']);
  });

  it('thai: dictionary words', () => {
    expect(terms({ tokenizer: 'thai', text: 'ภาษาไทย' })).to.deep.equal(['ภาษา', 'ไทย']);
  });

  it('classic: apostrophes, acronyms, companies, hosts, e-mails, hyphenated words split', () => {
    expect(terms({ tokenizer: 'classic', text: "Brown-Foxes don't jump." })).to.deep.equal(['Brown', 'Foxes', "don't", 'jump']);
    expect(analyze({ tokenizer: 'classic', text: 'I.B.M. AT&T www.elastic.co john@x.com' }).map((r) => [r[0], r[3]])).to.deep.equal([
      ['I.B.M.', '<ACRONYM>'], ['AT&T', '<COMPANY>'], ['www.elastic.co', '<HOST>'], ['john@x.com', '<EMAIL>'],
    ]);
  });

  it('uax_url_email: standard tokens, with URLs and e-mail addresses whole', () => {
    expect(analyze({ tokenizer: 'uax_url_email', text: 'Email me at john.smith@global-international.com' })).to.deep.equal([
      ['Email', 0, 5, '<ALPHANUM>', 0],
      ['me', 6, 8, '<ALPHANUM>', 1],
      ['at', 9, 11, '<ALPHANUM>', 2],
      ['john.smith@global-international.com', 12, 47, '<EMAIL>', 3],
    ]);
    expect(terms({ tokenizer: 'uax_url_email', text: 'see https://elastic.co/guide?x=1, now' })).to.deep.equal(['see', 'https://elastic.co/guide?x=1', 'now']);
  });

  it('word_delimiter: case changes, digits, delimiters, possessives; catenation and preserve_original', () => {
    expect(terms({ tokenizer: 'keyword', filter: ['word_delimiter'], text: "Neil's-Super-Duper-XL500--42+AutoCoder" })).to.deep.equal(
      ['Neil', 'Super', 'Duper', 'XL', '500', '42', 'Auto', 'Coder'],
    );
    expect(analyze({ tokenizer: 'whitespace', filter: [{ type: 'word_delimiter_graph', catenate_words: true }], text: 'the wi-fi is' }).map((r) => [r[0], r[4]])).to.deep.equal([
      ['the', 0], ['wifi', 1], ['wi', 1], ['fi', 2], ['is', 3],
    ]);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'word_delimiter', preserve_original: true }], text: 'wi-fi' })).to.deep.equal(['wi-fi', 'wi', 'fi']);
    expect(thrown(() => analyze({ filter: ['word_delimiter'], text: 'ABc' })).reason).to.equal('Custom normalizer may not use filter [word_delimiter]');
  });

  describe('_analyze explain', () => {
    let es: TestEngine;
    before(async () => {
      es = await startEngine();
    });
    after(() => es.close());

    it('shows each char filter\'s filtered text', async () => {
      const r = await es.call('POST', '/_analyze', { text: 'jeff quit phish', explain: true, tokenizer: 'keyword', char_filter: [{ type: 'mapping', mappings: ['ph => f', 'qu => q'] }] });
      expect(r.json.detail.charfilters).to.deep.equal([{ name: '__anonymous__mapping', filtered_text: ['jeff qit fish'] }]);
      expect(r.json.detail.tokenizer.tokens[0]).to.include({ token: 'jeff qit fish', start_offset: 0, end_offset: 15 });
    });
  });
});
