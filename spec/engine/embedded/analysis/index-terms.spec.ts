import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';

/**
 * Indexing takes each value's terms and positions from `indexTerms`, which skips token objects
 * where the pipeline allows it: it must give exactly what `analyze` gives, for every analyzer.
 */
describe('embedded engine: analysis for indexing (indexTerms)', () => {
  const registry = createAnalysisRegistry(
    {
      filter: {
        autosuggest_filter: { type: 'edge_ngram', min_gram: 1, max_gram: 20, token_chars: ['letter', 'digit', 'punctuation', 'symbol'] },
        ngram_filter: { type: 'ngram', min_gram: 2, max_gram: 9 },
        grams_keep: { type: 'ngram', min_gram: 3, max_gram: 4, preserve_original: true },
        edge_keep: { type: 'edge_ngram', min_gram: 2, max_gram: 3, preserve_original: true },
        fold_keep: { type: 'asciifolding', preserve_original: true },
        stop_the: { type: 'stop', stopwords: ['the', 'a'] },
      },
      tokenizer: { short_standard: { type: 'standard', max_token_length: 3 } },
      char_filter: { dashes: { type: 'mapping', mappings: ['- => _'] } },
      analyzer: {
        autosuggest_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'autosuggest_filter'] },
        ngram_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'ngram_filter'] },
        grams_keep: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'grams_keep'] },
        edge_keep: { type: 'custom', tokenizer: 'standard', filter: ['uppercase', 'edge_keep'] },
        fold_keep: { type: 'custom', tokenizer: 'standard', filter: ['fold_keep', 'lowercase'] },
        stopped: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'stop_the', 'edge_keep'] },
        short_tokens: { type: 'custom', tokenizer: 'short_standard', filter: ['lowercase', 'autosuggest_filter'] },
        mapped: { type: 'custom', tokenizer: 'standard', char_filter: ['dashes'], filter: ['lowercase'] },
        plain: { type: 'custom', tokenizer: 'standard' },
      },
    },
    { maxNgramDiff: 20 },
  );
  const names = ['standard', 'simple', 'whitespace', 'keyword', 'stop', 'english', 'autosuggest_analyzer', 'ngram_analyzer', 'grams_keep', 'edge_keep', 'fold_keep', 'stopped', 'short_tokens', 'mapped', 'plain'];
  const texts = [
    '',
    '   ',
    'The Quick Brown-Fox jumped over the lazy dog\'s back: 3.14 times, 1,000 ways!',
    'libssl-dev (>= 1.1) — Secure Sockets Layer toolkit; GNU/Linux x86_64',
    'Crème brûlée à la carte, Ærøskøbing, straße, İstanbul, ΣΊΣΥΦΟΣ',
    'a b c de fgh ijkl mnopqrstuvwxyzabcdefghijklmnop 12345678901234567890123',
    '日本語のテキスト とカタカナ 한국어 텍스트 ภาษาไทย สวัสดี',
    'emoji 👍🏽 family 👨‍👩‍👧 flags 🇫🇷🇩🇪 keycap 1️⃣ 𝒳𝒴𝒵 astral 𠀀𠀁',
    'e-mail john.doe@example.com http://example.com/a?b=c U.S.A. can\'t won\'t',
    'the a the a word the',
    'x'.repeat(300),
  ];

  for (const name of names) {
    it(`${name}: the terms and positions of analyze()`, () => {
      const analyzer = registry.analyzer(name);
      for (const text of texts) {
        const tokens = analyzer.analyze(text);
        const got = analyzer.indexTerms!(text);
        expect(got, `${name} on ${JSON.stringify(text)}`).to.deep.equal({ terms: tokens.map((t) => t.token), positions: tokens.map((t) => t.position) });
      }
    });
  }
});
