import { expect } from 'chai';
import { analyzeRequest, createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { analyze, terms, thrown } from './helpers.js';

const TOKEN_CHARS = ['letter', 'digit', 'punctuation', 'symbol'];

/** The analysis settings users are told to set up. */
const USER_ANALYSIS = {
  filter: {
    autosuggest_filter: { type: 'edge_ngram', min_gram: 1, max_gram: 20, token_chars: TOKEN_CHARS },
    ngram_filter: { type: 'ngram', min_gram: 2, max_gram: 9, token_chars: TOKEN_CHARS },
  },
  analyzer: {
    autosuggest_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'autosuggest_filter'] },
    ngram_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'ngram_filter'] },
  },
};

describe('analysis: registry, custom analyzers and the _analyze body', () => {
  const registry = createAnalysisRegistry(USER_ANALYSIS, { maxNgramDiff: 7 });

  it('autosuggest_analyzer: edge grams of each folded, lowercased word', () => {
    expect(analyze({ analyzer: 'autosuggest_analyzer', text: 'Quick Fóx-2' }, registry)).to.deep.equal([
      ['q', 0, 5, '<ALPHANUM>', 0],
      ['qu', 0, 5, '<ALPHANUM>', 0],
      ['qui', 0, 5, '<ALPHANUM>', 0],
      ['quic', 0, 5, '<ALPHANUM>', 0],
      ['quick', 0, 5, '<ALPHANUM>', 0],
      ['f', 6, 9, '<ALPHANUM>', 1],
      ['fo', 6, 9, '<ALPHANUM>', 1],
      ['fox', 6, 9, '<ALPHANUM>', 1],
      ['2', 10, 11, '<NUM>', 2],
    ]);
  });

  it('ngram_analyzer: 2..9 grams of each word; a one-char word gives none', () => {
    expect(analyze({ analyzer: 'ngram_analyzer', text: 'Quick Fóx-2' }, registry)).to.deep.equal([
      ['qu', 0, 5, '<ALPHANUM>', 0],
      ['qui', 0, 5, '<ALPHANUM>', 0],
      ['quic', 0, 5, '<ALPHANUM>', 0],
      ['quick', 0, 5, '<ALPHANUM>', 0],
      ['ui', 0, 5, '<ALPHANUM>', 0],
      ['uic', 0, 5, '<ALPHANUM>', 0],
      ['uick', 0, 5, '<ALPHANUM>', 0],
      ['ic', 0, 5, '<ALPHANUM>', 0],
      ['ick', 0, 5, '<ALPHANUM>', 0],
      ['ck', 0, 5, '<ALPHANUM>', 0],
      ['fo', 6, 9, '<ALPHANUM>', 1],
      ['fox', 6, 9, '<ALPHANUM>', 1],
      ['ox', 6, 9, '<ALPHANUM>', 1],
    ]);
  });

  it('ngram_filter needs index.max_ngram_diff ≥ 7, with ES reason text', () => {
    const err = thrown(() => createAnalysisRegistry(USER_ANALYSIS));
    expect(err.status).to.equal(400);
    expect(err.type).to.equal('illegal_argument_exception');
    expect(err.reason).to.equal(
      'The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [1] but was [7]. This limit can be set by changing the [index.max_ngram_diff] index level setting.',
    );
  });

  it('accepts numbers and booleans given as strings', () => {
    const r = createAnalysisRegistry({
      tokenizer: { t: { type: 'ngram', min_gram: '2', max_gram: '3' } },
      filter: { f: { type: 'edge_ngram', min_gram: '1', max_gram: '2', preserve_original: 'true' } },
      analyzer: { a: { tokenizer: 'whitespace', filter: ['f'] }, b: { tokenizer: 't' } },
    });
    expect(terms({ analyzer: 'a', text: 'abc' }, r)).to.deep.equal(['a', 'ab', 'abc']);
    expect(terms({ analyzer: 'b', text: 'abc' }, r)).to.deep.equal(['ab', 'abc', 'bc']);
  });

  it('custom analyzers with char filters, index-level components and position_increment_gap', () => {
    const r = createAnalysisRegistry({
      char_filter: { emoticons: { type: 'mapping', mappings: [':) => _happy_'] } },
      tokenizer: { punct: { type: 'pattern', pattern: '[ .,!?]' } },
      filter: { en_stop: { type: 'stop', stopwords: '_english_' } },
      analyzer: { my: { type: 'custom', char_filter: ['emoticons'], tokenizer: 'punct', filter: ['lowercase', 'en_stop'], position_increment_gap: 10 } },
    });
    // ES's custom analyzer reference example.
    expect(terms({ analyzer: 'my', text: "I'm a :) person, and you?" }, r)).to.deep.equal(["i'm", '_happy_', 'person', 'you']);
    expect(analyze({ analyzer: 'my', text: ['a b', 'c'] }, r).map((t) => t[4])).to.deep.equal([1, 12]);
  });

  it('synonyms: equivalences, expand false and explicit mappings, analyzed by the preceding chain', () => {
    const r = createAnalysisRegistry({
      filter: {
        syn: { type: 'synonym', synonyms: ['Quick, Fast', 'ny => new york'] },
        contract: { type: 'synonym', expand: 'false', synonyms: ['quick, fast, speedy'] },
      },
      analyzer: {
        a: { tokenizer: 'standard', filter: ['lowercase', 'syn'] },
        b: { tokenizer: 'standard', filter: ['lowercase', 'contract'] },
      },
    });
    // Equivalences keep the input (Lucene's includeOrig) with the others stacked on it; explicit
    // mappings replace it.
    expect(analyze({ analyzer: 'a', text: 'the fast ny fox' }, r)).to.deep.equal([
      ['the', 0, 3, '<ALPHANUM>', 0],
      ['fast', 4, 8, '<ALPHANUM>', 1],
      ['quick', 4, 8, 'SYNONYM', 1],
      ['new', 9, 11, 'SYNONYM', 2],
      ['fox', 12, 15, '<ALPHANUM>', 3],
      ['york', 12, 15, 'SYNONYM', 3],
    ]);
    expect(analyze({ analyzer: 'b', text: 'speedy car' }, r)).to.deep.equal([
      ['quick', 0, 6, 'SYNONYM', 0],
      ['car', 7, 10, '<ALPHANUM>', 1],
    ]);
  });

  it('multi-word synonym inputs replace the matched words', () => {
    const r = createAnalysisRegistry({
      filter: { syn: { type: 'synonym', synonyms: ['new york => nyc'] } },
      analyzer: { a: { tokenizer: 'whitespace', filter: ['syn'] } },
    });
    expect(analyze({ analyzer: 'a', text: 'new york city' }, r)).to.deep.equal([
      ['nyc', 0, 8, 'SYNONYM', 0],
      ['city', 9, 13, 'word', 1],
    ]);
  });

  it('normalizers: keyword tokenizer with per-character filters only', () => {
    const r = createAnalysisRegistry({
      char_filter: { quote: { type: 'mapping', mappings: ['« => "', '» => "'] } },
      normalizer: { my_normalizer: { type: 'custom', char_filter: ['quote'], filter: ['lowercase', 'asciifolding'] } },
    });
    expect(analyzeRequest(r, { normalizer: 'my_normalizer', text: '«Crème Brûlée»' }).tokens).to.deep.equal([
      { token: '"creme brulee"', start_offset: 0, end_offset: 14, type: 'word', position: 0 },
    ]);
    expect(r.normalizer('my_normalizer').analyze('ÀB')).to.have.length(1);
    expect(terms({ normalizer: 'lowercase', text: 'BaR' }, r)).to.deep.equal(['bar']);
    expect(terms({ filter: ['lowercase'], text: 'BaR' })).to.deep.equal(['bar']);
  });

  it('caches built analyzers', () => {
    expect(registry.analyzer('autosuggest_analyzer')).to.equal(registry.analyzer('autosuggest_analyzer'));
    expect(registry.analyzer('standard')).to.equal(registry.analyzer('standard'));
    expect(registry.hasAnalyzer('ngram_analyzer')).to.equal(true);
    expect(registry.hasAnalyzer('nope')).to.equal(false);
  });

  describe('errors, with Elasticsearch reasons', () => {
    const reason = (fn: () => unknown) => {
      const e = thrown(fn);
      expect(e.status).to.equal(400);
      return e.reason;
    };

    it('unknown names', () => {
      expect(reason(() => registry.analyzer('nope'))).to.equal('failed to find analyzer [nope]');
      expect(reason(() => analyzeRequest(registry, { analyzer: 'nope', text: 'x' }))).to.equal('failed to find analyzer [nope]');
      expect(reason(() => analyzeRequest(registry, { tokenizer: 'nope', text: 'x' }))).to.equal('failed to find tokenizer under [nope]');
      expect(reason(() => analyzeRequest(registry, { tokenizer: 'standard', filter: ['nope'], text: 'x' }))).to.equal('failed to find filter under [nope]');
      expect(reason(() => analyzeRequest(registry, { tokenizer: 'standard', char_filter: ['nope'], text: 'x' }))).to.equal('failed to find char_filter under [nope]');
      expect(reason(() => registry.normalizer('nope'))).to.equal('failed to find normalizer under [nope]');
    });

    it('custom analyzers referring to missing components', () => {
      expect(reason(() => createAnalysisRegistry({ analyzer: { a: { type: 'custom', tokenizer: 't' } } }))).to.equal(
        'Custom Analyzer [a] failed to find tokenizer under name [t]',
      );
      expect(reason(() => createAnalysisRegistry({ analyzer: { a: { type: 'custom', tokenizer: 'standard', filter: ['f'] } } }))).to.equal(
        'Custom Analyzer [a] failed to find filter under name [f]',
      );
      expect(reason(() => createAnalysisRegistry({ analyzer: { a: { type: 'custom', tokenizer: 'standard', char_filter: ['c'] } } }))).to.equal(
        'Custom Analyzer [a] failed to find char_filter under name [c]',
      );
      expect(reason(() => createAnalysisRegistry({ analyzer: { a: { type: 'custom', filter: ['lowercase'] } } }))).to.equal(
        'Custom Analyzer [a] must be configured with a tokenizer',
      );
      expect(reason(() => createAnalysisRegistry({ analyzer: { a: { filter: ['lowercase'] } } }))).to.equal(
        'analyzer [a] must specify either an analyzer type, or a tokenizer',
      );
    });

    it('invalid definitions', () => {
      expect(reason(() => createAnalysisRegistry({ analyzer: { a: { type: 'klingon' } } }))).to.equal('Unknown analyzer type [klingon] for [a]');
      expect(reason(() => createAnalysisRegistry({ filter: { f: { type: 'klingon' } } }))).to.equal('Unknown filter type [klingon] for [f]');
      expect(reason(() => createAnalysisRegistry({ tokenizer: { t: { type: 'klingon' } } }))).to.equal('Unknown tokenizer type [klingon] for [t]');
      expect(reason(() => createAnalysisRegistry({ char_filter: { c: { type: 'klingon' } } }))).to.equal('Unknown char_filter type [klingon] for [c]');
      expect(reason(() => createAnalysisRegistry({ tokenizer: { t: { type: 'ngram', min_gram: 1, max_gram: 3 } } }))).to.match(/^The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: \[1\] but was \[2\]/);
      expect(reason(() => createAnalysisRegistry({ filter: { f: { type: 'edge_ngram', min_gram: 'x' } } }))).to.equal('Failed to parse value [x] for setting [min_gram]');
      expect(reason(() => createAnalysisRegistry({ filter: { f: { type: 'shingle', max_shingle_size: 6 } } }))).to.match(/must be less than or equal to: \[3\] but was \[5\]/);
      expect(reason(() => createAnalysisRegistry({ char_filter: { c: { type: 'mapping', mappings: ['no arrow'] } } }))).to.equal('Invalid Mapping Rule : [no arrow]');
      expect(reason(() => createAnalysisRegistry({ tokenizer: { t: { type: 'ngram', token_chars: ['vowels'] } } }))).to.match(/^Unknown token type: 'vowels'/);
    });

    it('normalizers may only use per-character components', () => {
      expect(reason(() => createAnalysisRegistry({ normalizer: { n: { type: 'custom', filter: ['stop'] } } }))).to.equal('Custom normalizer [n] may not use filter [stop]');
      expect(reason(() => createAnalysisRegistry({ normalizer: { n: { type: 'custom', filter: ['x'] } } }))).to.equal('Custom normalizer [n] failed to find filter under name [x]');
      expect(reason(() => createAnalysisRegistry({ normalizer: { n: { type: 'custom', char_filter: ['html_strip'] } } }))).to.equal(
        'Custom normalizer [n] may not use char filter [html_strip]',
      );
    });

    it('_analyze body validation', () => {
      const e = thrown(() => analyzeRequest(registry, { analyzer: 'standard' }));
      expect([e.status, e.type, e.reason]).to.deep.equal([400, 'action_request_validation_exception', 'Validation Failed: 1: text is missing;']);
      expect(reason(() => analyzeRequest(registry, { analyzer: 'standard', filter: ['lowercase'], text: 'x' }))).to.equal(
        'Validation Failed: 1: cannot define extra components on a named analyzer;',
      );
    });
  });
});
