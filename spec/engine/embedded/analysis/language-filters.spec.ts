import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { analyze, terms, thrown } from './helpers.js';

describe('analysis: language token filters', () => {
  it('elision: the pre-built one removes French articles in any case (reference example)', () => {
    expect(terms({ tokenizer: 'standard', filter: ['elision'], text: 'j’examine près du wharf' })).to.deep.equal(['examine', 'près', 'du', 'wharf']);
    expect(terms({ tokenizer: 'standard', filter: ['elision'], text: "L'avion qu'il aujourd'hui" })).to.deep.equal(['avion', 'il', "aujourd'hui"]);
  });

  it('elision: articles and articles_case; articles are required', () => {
    const filter = { type: 'elision', articles: ['l', 'dell'] };
    expect(terms({ tokenizer: 'standard', filter: [filter], text: "l'uomo L'anno dell'arte" })).to.deep.equal(['uomo', "L'anno", 'arte']);
    expect(terms({ tokenizer: 'standard', filter: [{ ...filter, articles_case: true }], text: "L'anno" })).to.deep.equal(['anno']);
    const err = thrown(() => createAnalysisRegistry({ filter: { e: { type: 'elision' } } }));
    expect([err.status, err.type]).to.deep.equal([400, 'illegal_argument_exception']);
  });

  it('apostrophe (reference example)', () => {
    expect(terms({ tokenizer: 'standard', filter: ['apostrophe'], text: "Istanbul'a veya Istanbul'dan" })).to.deep.equal(['Istanbul', 'veya', 'Istanbul']);
  });

  it('decimal_digit: every script\'s decimal digits become ASCII', () => {
    expect(terms({ tokenizer: 'whitespace', filter: ['decimal_digit'], text: '١٢٣٤٥٦٧٨٩٠ ०१२ 𝟎𝟏𝟐𝟡 x٣' })).to.deep.equal(['1234567890', '012', '0129', 'x3']);
  });

  it('cjk_width (reference example) and cjk_bigram (reference example)', () => {
    expect(terms({ tokenizer: 'keyword', filter: ['cjk_width'], text: 'ｼｰｻｲﾄﾞﾗｲﾅｰ' })).to.deep.equal(['シーサイドライナー']);
    expect(terms({ tokenizer: 'keyword', filter: ['cjk_width'], text: 'Ｈｅｌｌｏ' })).to.deep.equal(['Hello']);
    expect(terms({ tokenizer: 'standard', filter: ['cjk_bigram'], text: '東京都は、日本の首都であり' })).to.deep.equal([
      '東京', '京都', '都は', '日本', '本の', 'の首', '首都', '都で', 'であ', 'あり',
    ]);
  });

  it('cjk_bigram: offsets, types, lone characters, output_unigrams and ignored_scripts', () => {
    expect(analyze({ tokenizer: 'standard', filter: ['cjk_bigram'], text: '東京 x 日' })).to.deep.equal([
      ['東京', 0, 2, '<DOUBLE>', 0],
      ['x', 3, 4, '<ALPHANUM>', 1],
      ['日', 5, 6, '<SINGLE>', 2],
    ]);
    expect(analyze({ tokenizer: 'standard', filter: [{ type: 'cjk_bigram', output_unigrams: true }], text: '東京都' })).to.deep.equal([
      ['東', 0, 1, '<SINGLE>', 0],
      ['東京', 0, 2, '<DOUBLE>', 0, 2],
      ['京', 1, 2, '<SINGLE>', 1],
      ['京都', 1, 3, '<DOUBLE>', 1, 2],
      ['都', 2, 3, '<SINGLE>', 2],
    ]);
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'cjk_bigram', ignored_scripts: ['hiragana'] }], text: '日本のうた' })).to.deep.equal(['日本', 'の', 'う', 'た']);
  });

  it('lowercase with language: greek (final sigma, tonos), irish (n-/t- before a capital vowel), turkish (dotless i)', () => {
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'lowercase', language: 'greek' }], text: 'ΟΔΟΣ Άνθρωπος' })).to.deep.equal(['οδοσ', 'ανθρωποσ']);
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'lowercase', language: 'irish' }], text: 'nAthair tUisce Éire' })).to.deep.equal(['n-athair', 't-uisce', 'éire']);
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'lowercase', language: 'turkish' }], text: 'ISPARTA İstanbul' })).to.deep.equal(['ısparta', 'istanbul']);
  });

  it('normalization filters: arabic, persian, german, hindi, indic, bengali, sorani, serbian', () => {
    const one = (filter: string, text: string) => terms({ tokenizer: 'keyword', filter: [filter], text })[0];
    expect(one('arabic_normalization', 'أحمد إسلام آمن مدرسة')).to.equal('احمد اسلام امن مدرسه');
    expect(one('persian_normalization', 'کتاب یک')).to.equal('كتاب يك');
    expect(one('german_normalization', 'Häuser Straße')).to.equal('Hauser Strasse');
    expect(one('hindi_normalization', 'क़िताब')).to.equal('किताब');
    expect(one('indic_normalization', '\u0915\u093c')).to.equal('\u0958');
    expect(one('bengali_normalization', 'ভালোবাসী')).to.equal('ভালোবাসি');
    expect(one('sorani_normalization', 'كتيب')).to.equal('کتیب');
    expect(one('serbian_normalization', 'ђак џеп čćžšđ')).to.equal('djak dzep cczsdj');
  });

  it('scandinavian_normalization and scandinavian_folding', () => {
    expect(terms({ tokenizer: 'whitespace', filter: ['scandinavian_normalization'], text: 'räksmörgås Blaabaersyltetoej' })).to.deep.equal(['ræksmørgås', 'Blåbærsyltetøj']);
    expect(terms({ tokenizer: 'whitespace', filter: ['scandinavian_folding'], text: 'räksmörgås Blåbærsyltetøj' })).to.deep.equal(['raksmorgas', 'Blabarsyltetoj']);
  });

  it('classic tokenizer and filter (reference example): acronym dots and possessives removed', () => {
    expect(terms({ tokenizer: 'classic', filter: ['classic'], text: "The 2 Q.U.I.C.K. Brown-Foxes jumped over the lazy dog's bone." })).to.deep.equal([
      'The', '2', 'QUICK', 'Brown', 'Foxes', 'jumped', 'over', 'the', 'lazy', 'dog', 'bone',
    ]);
  });

  it('fingerprint (reference example), separator and max_output_size', () => {
    expect(analyze({ tokenizer: 'whitespace', filter: ['fingerprint'], text: 'zebra jumps over resting resting dog' })).to.deep.equal([
      ['dog jumps over resting zebra', 0, 36, 'fingerprint', 0],
    ]);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'fingerprint', separator: '+' }], text: 'b a' })).to.deep.equal(['a+b']);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'fingerprint', max_output_size: 3 }], text: 'b a c' })).to.deep.equal([]);
  });

  it('dictionary_decompounder (reference example), only_longest_match and sizes', () => {
    const words = ['Donau', 'dampf', 'meer', 'schiff'];
    expect(analyze({ tokenizer: 'standard', filter: [{ type: 'dictionary_decompounder', word_list: words }], text: 'Donaudampfschiff' })).to.deep.equal([
      ['Donaudampfschiff', 0, 16, '<ALPHANUM>', 0],
      ['Donau', 0, 16, '<ALPHANUM>', 0],
      ['dampf', 0, 16, '<ALPHANUM>', 0],
      ['schiff', 0, 16, '<ALPHANUM>', 0],
    ]);
    const longest = { type: 'dictionary_decompounder', word_list: ['fuss', 'fussball', 'ball'], only_longest_match: true };
    expect(terms({ tokenizer: 'standard', filter: [longest], text: 'fussballpumpe' })).to.deep.equal(['fussballpumpe', 'fussball', 'ball']);
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'dictionary_decompounder', word_list: words, min_word_size: 20 }], text: 'Donaudampfschiff' })).to.deep.equal(['Donaudampfschiff']);
  });

  it('kstem (reference example) and the light_english stemmer: Krovetz, dictionary-checked', () => {
    expect(terms({ tokenizer: 'standard', filter: ['kstem'], text: 'the foxes jumping quickly' })).to.deep.equal(['the', 'fox', 'jump', 'quick']);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'stemmer', language: 'light_english' }], text: 'generalizations aging nationalities' })).to.deep.equal([
      'generalization', 'age', 'nationality',
    ]);
    // Upper case is not stemmed (a lowercase filter is expected in front of it).
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'stemmer', name: 'lightEnglish' }], text: 'Foxes' })).to.deep.equal(['Foxes']);
  });

  it('min_hash: the minimum hash of each bucket, as Lucene computes it, all at one position spanning the text', () => {
    const hex = (t: string) => [...t].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
    const tokens = analyze({ tokenizer: 'whitespace', filter: [{ type: 'min_hash', bucket_count: 4, with_rotation: false }], text: 'the quick brown fox' });
    expect(tokens.map(([t, ...rest]) => [hex(t), ...rest])).to.deep.equal([
      ['57ec5b1fefb0eb289a7e285d953f4202', 0, 19, 'MIN_HASH', 0],
      ['892abc4e73d99a69757ae3f3f6a6ceed', 0, 19, 'MIN_HASH', 0],
      ['d1847fdf634ebbd100c24cf47185b086', 0, 19, 'MIN_HASH', 0],
    ]);
    // Defaults: 512 buckets, empty ones filled by rotation.
    expect(analyze({ tokenizer: 'whitespace', filter: ['min_hash'], text: 'the quick brown fox' })).to.have.length(512);
    expect(thrown(() => createAnalysisRegistry({ filter: { m: { type: 'min_hash', bucket_count: 0 } } })).reason).to.equal('bucketCount must be greater than zero');
  });

  it('hyphenation_decompounder needs a readable hyphenation grammar (none without a config directory)', () => {
    let err = thrown(() => createAnalysisRegistry({ filter: { h: { type: 'hyphenation_decompounder', word_list: ['a'] } } }));
    expect([err.status, err.reason]).to.deep.equal([400, 'hyphenation_patterns_path is a required setting.']);
    err = thrown(() => createAnalysisRegistry({ filter: { h: { type: 'hyphenation_decompounder', hyphenation_patterns_path: 'analysis/de_DR.xml', word_list: ['a'] } } }));
    expect(err.status).to.equal(400);
  });

  it('condition (reference example) and predicate_token_filter (reference example)', () => {
    const condition = { type: 'condition', filter: ['lowercase'], script: { source: 'token.getTerm().length() < 5' } };
    expect(terms({ tokenizer: 'standard', filter: [condition], text: 'THE QUICK BROWN FOX' })).to.deep.equal(['the', 'QUICK', 'BROWN', 'fox']);
    const predicate = { type: 'predicate_token_filter', script: { source: 'token.term.length() > 3' } };
    expect(analyze({ tokenizer: 'whitespace', filter: [predicate], text: 'the fox jumps the lazy dog' })).to.deep.equal([
      ['jumps', 8, 13, 'word', 2],
      ['lazy', 18, 22, 'word', 4],
    ]);
  });

  it('condition and predicate scripts: positions, types, string methods, boolean logic; named filters', () => {
    const r = createAnalysisRegistry({
      filter: {
        stem_long: { type: 'condition', filter: ['porter_stem'], script: { source: "token.position > 0 && !token.term.startsWith('run')" } },
        nums: { type: 'predicate_token_filter', script: { source: "token.type == '<NUM>' || token.term.equals('x')" } },
      },
      analyzer: { a: { tokenizer: 'standard', filter: ['lowercase', 'stem_long'] }, b: { tokenizer: 'standard', filter: ['nums'] } },
    });
    expect(terms({ analyzer: 'a', text: 'Jumping running jumping' }, r)).to.deep.equal(['jumping', 'running', 'jump']);
    expect(terms({ analyzer: 'b', text: 'a 12 x b 3' }, r)).to.deep.equal(['12', 'x', '3']);
  });

  it('scripts beyond simple token expressions, or without source, are refused', () => {
    let err = thrown(() => terms({ tokenizer: 'standard', filter: [{ type: 'predicate_token_filter', script: { source: "doc['x'].value > 1" } }], text: 'x' }));
    expect([err.status, err.type]).to.deep.equal([400, 'script_exception']);
    err = thrown(() => terms({ tokenizer: 'standard', filter: [{ type: 'condition', filter: ['lowercase'] }], text: 'x' }));
    expect([err.status, err.type]).to.deep.equal([400, 'illegal_argument_exception']);
    err = thrown(() => terms({ tokenizer: 'standard', filter: [{ type: 'condition', filter: [], script: { source: 'true' } }], text: 'x' }));
    expect(err.status).to.equal(400);
  });
});
