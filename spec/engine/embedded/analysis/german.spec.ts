import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { analyze, terms } from './helpers.js';

describe('analysis: german', () => {
  it('german analyzer: lowercase, German stop words (gaps kept), normalization, light stemming', () => {
    expect(analyze({ analyzer: 'german', text: 'Ich lese die Bücher' })).to.deep.equal([
      ['les', 4, 8, '<ALPHANUM>', 1],
      ['buch', 13, 19, '<ALPHANUM>', 3],
    ]);
    expect(terms({ analyzer: 'german', text: 'Die Häuser und Gärten der Straße' })).to.deep.equal(['haus', 'gart', 'strass']);
  });

  it('equals the custom analyzer ES documents as its rebuild (keyword_marker, german_normalization, light_german)', () => {
    const r = createAnalysisRegistry({
      filter: {
        german_stop: { type: 'stop', stopwords: '_german_' },
        german_keywords: { type: 'keyword_marker', keywords: ['beispiel'] },
        german_stemmer: { type: 'stemmer', language: 'light_german' },
      },
      analyzer: {
        rebuilt_german: { tokenizer: 'standard', filter: ['lowercase', 'german_stop', 'german_keywords', 'german_normalization', 'german_stemmer'] },
        german_with_exclusion: { type: 'german', stem_exclusion: ['beispiel'] },
      },
    });
    const text = 'Ein Beispiel: die schnellsten Läufer über Häuser und Gärten, Müller und Goethe';
    const rebuilt = analyze({ analyzer: 'rebuilt_german', text }, r);
    expect(rebuilt.map((t) => t[0])).to.deep.equal(['beispiel', 'schnell', 'lauf', 'haus', 'gart', 'mull', 'goth']);
    expect(analyze({ analyzer: 'german_with_exclusion', text }, r)).to.deep.equal(rebuilt);
  });

  it('german_normalization: ß → ss, umlauts and their ae/oe/ue spellings folded, ue kept after a vowel or q; keywords too', () => {
    const normalize = (text: string) => terms({ tokenizer: 'keyword', filter: ['lowercase', 'german_normalization'], text });
    expect(['Weißbier', 'Schaltflächen', 'Schaltflaechen', 'Mueller', 'Goethe', 'Quelle', 'Frauen', 'Auerbach'].map(normalize).flat()).to.deep.equal([
      'weissbier', 'schaltflachen', 'schaltflachen', 'muller', 'gothe', 'quelle', 'frauen', 'auerbach',
    ]);
    // A normalizing filter, allowed in normalizers.
    const r = createAnalysisRegistry({ normalizer: { de: { type: 'custom', filter: ['lowercase', 'german_normalization'] } } });
    expect(r.normalizer('de').analyze('Straße')[0].token).to.equal('strasse');
  });

  it('light_german stemmer: plural, case and comparative endings; keywords untouched', () => {
    const stem = (text: string) => terms({ tokenizer: 'whitespace', filter: [{ type: 'stemmer', language: 'light_german' }], text });
    expect(stem('häuser bücher kindern tages schnellsten kleiner lese haus')).to.deep.equal(['haus', 'buch', 'kind', 'tag', 'schnell', 'klein', 'les', 'haus']);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'keyword_marker', keywords: ['bücher'] }, { type: 'stemmer', language: 'light_german' }], text: 'bücher häuser' }))
      .to.deep.equal(['bücher', 'haus']);
  });
});
