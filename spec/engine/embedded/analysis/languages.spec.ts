import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { analyze, terms, thrown } from './helpers.js';

/**
 * Each language analyzer on a sentence of its language: the terms Lucene's analyzer of the same
 * name gives (checked against Lucene; where Snowball changed between Lucene 8 and 9, the words are
 * ones both agree on).
 */
const SENTENCES: Array<[string, string, string[]]> = [
    ['arabic', 'الكتاب والكتب في المكتبات ١٢٣', ['كتاب', 'كتب', 'مكتب', '123']],
    ['armenian', 'Հայաստանի Հանրապետության գրքերը և դպրոցները', ['հայաստ', 'հանրապետ', 'գրքերը', 'դպրոցները']],
    ['basque', 'Etxeko liburuak eta mendietako herriak', ['etxeko', 'liburu', 'mendi', 'herri']],
    ['bengali', 'আমার সোনার বাংলা, আমি তোমায় ভালোবাসি', ['আমার', 'সোনার', 'বাং', 'আম', 'তোমায়', 'ভালোবাস']],
    ['brazilian', 'As cidades brasileiras e os livros antigos', ['cidad', 'brasileir', 'livr', 'antig']],
    ['bulgarian', 'Градовете и хората на България', ['град', 'хор', 'българ']],
    ['catalan', 'L\'home de l\'hospital va llegir els llibres', ['hom', 'hosp', 'lleg', 'llibr']],
    ['cjk', '東京都は、日本の首都であり', ['東京', '京都', '都は', '日本', '本の', 'の首', '首都', '都で', 'であ', 'あり']],
    ['czech', 'Pražské hrady a zámky v Čechách', ['pražsk', 'hrad', 'zámk', 'čech']],
    ['danish', 'Husene og bøgerne i byerne', ['hus', 'bøg', 'byern']],
    ['dutch', 'De fietsen en de kinderen liepen naar huizen', ['fiets', 'kinder', 'liep', 'huiz']],
    ['english', 'The foxes\' John\'s jumping quickly over dogs', ['fox', 'john', 'jump', 'quickli', 'over', 'dog']],
    ['estonian', 'Eesti Vabariigi pealinn on Tallinn ja raamatud on kodudes', ['eesti', 'vabariigi', 'pealinn', 'on', 'tallinn', 'raama', 'on', 'kodu']],
    ['finnish', 'Suomen kielen sanakirjat ovat taloissa', ['suome', 'kiele', 'sanakirj', 'talo']],
    ['french', 'L\'avion des chevaux, jusqu\'aux châteaux européens', ['avion', 'cheval', 'chateau', 'europen']],
    ['galician', 'As cidades galegas e os libros antigos', ['cid', 'galeg', 'libro', 'antig']],
    ['german', 'Die Häuser und Gärten der Straße', ['haus', 'gart', 'strass']],
    ['greek', 'Οι άνθρωποι διαβάζουν τα βιβλία στις βιβλιοθήκες', ['ανθρωπ', 'διαβαζ', 'βιβλ', 'στισ', 'βιβλιοθηκ']],
    ['hindi', 'भारत के लोगों ने किताबें पढ़ीं', ['भारत', 'लोग', 'किताब', 'पढिं']],
    ['hungarian', 'A házakban és a kertekben laknak az emberek', ['ház', 'kert', 'lak', 'ember']],
    ['indonesian', 'Buku-buku itu dibacakan oleh para pelajar', ['buku', 'buku', 'baca', 'ajar']],
    ['irish', 'Tá an t-Uisce agus nAthair i h-Éireann', ['tá', 'uisce', 'athair', 'éireann']],
    ['italian', 'L\'uomo dell\'anno ha letto i libri nelle biblioteche', ['uomo', 'anno', 'letto', 'libri', 'bibliotec']],
    ['latvian', 'Latvijas galvaspilsēta ir Rīga ar daudzām mājām', ['latvij', 'galvaspilsēt', 'rīg', 'daudz', 'māj']],
    ['lithuanian', 'Lietuvos sostinė yra Vilnius su daugeliu namų', ['lietuv', 'sostin', 'viln', 'daugel', 'nam']],
    ['norwegian', 'Husene og bøkene i byene', ['hus', 'bøk', 'byen']],
    ['persian', 'کتاب‌ها را در کتابخانه خواندم ۱۲۳', ['كتاب', 'كتابخانه', 'خواندم', '123']],
    ['portuguese', 'As cidades portuguesas e os livros antigos', ['cidad', 'portugues', 'livr', 'antig']],
    // the cedilla forms (absenţa) normalized to comma-below, and the stop words (și) in their modern forms, as Lucene 9.7+
    ['romanian', 'Orașele românești și cărțile vechi absenţa', ['oraș', 'româneșt', 'cărț', 'vech', 'absenț']],
    ['russian', 'Города России и старые книги', ['город', 'росс', 'стар', 'книг']],
    ['sorani', 'کتێبەکان لە ماڵەکەدا', ['کتێب', 'ماڵە']],
    ['spanish', 'Las ciudades españolas y los libros antiguos', ['ciudad', 'español', 'libr', 'antigu']],
    ['swedish', 'Husen och böckerna i städerna', ['hus', 'böck', 'städ']],
    ['thai', 'การที่ได้ต้องแสดงว่างานดี ๑๒๓', ['แสดง', 'งาน', 'ดี', '123']],
    ['turkish', 'İstanbul\'a giden KIZLAR kitaplarını okudular', ['istanbul', 'gi', 'kız', 'kitap', 'okudu']],
];

/** The `stemmer` filter's languages on two words each. */
const STEMMED: Array<[string, string, string[]]> = [
    ['arabic', 'الكتاب والمكتبات', ['كتاب', 'مكتب']],
    ['armenian', 'գրքերը դպրոցները', ['գրքերը', 'դպրոցները']],
    ['basque', 'liburuak herriak', ['liburu', 'herri']],
    ['bengali', 'ভালোবাসি সোনার', ['ভালোবাস', 'সোনার']],
    ['brazilian', 'cidades brasileiras', ['cidad', 'brasileir']],
    ['bulgarian', 'градовете хората', ['град', 'хор']],
    ['catalan', 'llibres ciutats', ['llibr', 'ciut']],
    ['czech', 'hrady zámky', ['hrad', 'zámk']],
    ['danish', 'husene bøgerne', ['hus', 'bøg']],
    ['dutch', 'fietsen kinderen', ['fiets', 'kinder']],
    ['dutch_kp', 'fietsen kinderen', ['fiets', 'kinder']],
    ['english', 'foxes jumping', ['fox', 'jump']],
    ['light_english', 'foxes ponies', ['fox', 'pony']],
    ['minimal_english', 'foxes ponies', ['foxe', 'pony']],
    ['lovins', 'generalizations nationality', ['general', 'nat']],
    ['porter2', 'generously running', ['generous', 'run']],
    ['possessive_english', 'john\'s dog\'s', ['john', 'dog']],
    ['estonian', 'raamatud kodudes', ['raama', 'kodu']],
    ['finnish', 'taloissa kielen', ['talo', 'kiele']],
    ['light_finnish', 'taloissa kielen', ['talo', 'kiel']],
    ['french', 'chevaux européens', ['cheval', 'européen']],
    ['light_french', 'chevaux européens', ['cheval', 'europen']],
    ['minimal_french', 'chevaux européens', ['cheval', 'européen']],
    ['galician', 'cidades libros', ['cid', 'libro']],
    ['minimal_galician', 'cidades libros', ['cidade', 'libro']],
    ['german', 'häuser gärten', ['haus', 'gart']],
    ['german2', 'häuser gärten', ['haus', 'gart']],
    ['light_german', 'häuser gärten', ['haus', 'gart']],
    ['minimal_german', 'häuser gärten', ['haus', 'gart']],
    ['greek', 'ανθρωποι βιβλιοθηκεσ', ['ανθρωπ', 'βιβλιοθηκ']],
    ['hindi', 'लोगों किताबें', ['लोग', 'किताब']],
    ['hungarian', 'házakban kertekben', ['ház', 'kert']],
    ['light_hungarian', 'házakban kertekben', ['haz', 'ker']],
    ['indonesian', 'dibacakan pelajar', ['baca', 'ajar']],
    ['irish', 'éireann uisce', ['éireann', 'uisce']],
    ['italian', 'biblioteche libri', ['bibliotec', 'libr']],
    ['light_italian', 'biblioteche libri', ['bibliotec', 'libri']],
    ['sorani', 'کتێبەکان ماڵەکە', ['کتێب', 'ماڵە']],
    ['latvian', 'galvaspilsēta mājām', ['galvaspilsēt', 'māj']],
    ['lithuanian', 'sostinė namų', ['sostin', 'nam']],
    ['norwegian', 'husene bøkene', ['hus', 'bøk']],
    ['light_norwegian', 'husene bøkene', ['hus', 'bøk']],
    ['minimal_norwegian', 'husene bøkene', ['hus', 'bøk']],
    ['light_nynorsk', 'husa gutane', ['hus', 'gut']],
    ['minimal_nynorsk', 'husa gutane', ['hus', 'gut']],
    ['portuguese', 'cidades livros', ['cidad', 'livr']],
    ['light_portuguese', 'cidades livros', ['cidad', 'livr']],
    ['portuguese_rslp', 'cidades livros', ['cidad', 'livr']],
    ['minimal_portuguese', 'cidades livros', ['cidade', 'livro']],
    ['romanian', 'orașele cărțile', ['oraș', 'cărț']],
    ['russian', 'города книги', ['город', 'книг']],
    ['light_russian', 'города книги', ['город', 'книг']],
    ['spanish', 'ciudades libros', ['ciudad', 'libr']],
    ['light_spanish', 'ciudades libros', ['ciudad', 'libr']],
    ['swedish', 'husen böckerna', ['hus', 'böck']],
    ['light_swedish', 'husen böckerna', ['hus', 'böck']],
    ['turkish', 'kitaplarını okudular', ['kitap', 'okudu']],
];

describe('analysis: language analyzers', () => {
  for (const [analyzer, text, expected] of SENTENCES) {
    it(`${analyzer}: ${text}`, () => {
      expect(terms({ analyzer, text })).to.deep.equal(expected);
    });
  }

  it('french: elision (any case), stop words, light stemming (reference examples)', () => {
    expect(analyze({ analyzer: 'french', text: "L'avion" })).to.deep.equal([['avion', 0, 7, '<ALPHANUM>', 0]]);
    expect(terms({ analyzer: 'french', text: "chevaux Jusqu'à l'église, qu'il" })).to.deep.equal(['cheval', 'eglis']);
  });

  it('english: possessive removed before lowercase, Porter stemmer', () => {
    expect(terms({ analyzer: 'english', text: "The DOG'S foxes are running" })).to.deep.equal(['dog', 'fox', 'run']);
  });

  it('positions keep the gaps of removed stop words; offsets are the text\'s', () => {
    expect(analyze({ analyzer: 'spanish', text: 'los libros de la casa' })).to.deep.equal([
      ['libr', 4, 10, '<ALPHANUM>', 1],
      ['casa', 17, 21, '<ALPHANUM>', 4],
    ]);
  });

  it('stopwords and stem_exclusion parameters', () => {
    const r = createAnalysisRegistry({
      analyzer: {
        fr_keep: { type: 'french', stem_exclusion: ['chevaux'] },
        fr_stop: { type: 'french', stopwords: ['avion'] },
        es_none: { type: 'spanish', stopwords: '_none_' },
        hi_keep: { type: 'hindi', stem_exclusion: ['किताबें'] },
      },
    });
    expect(terms({ analyzer: 'fr_keep', text: 'les chevaux des châteaux' }, r)).to.deep.equal(['chevaux', 'chateau']);
    expect(terms({ analyzer: 'fr_stop', text: "l'avion des chevaux" }, r)).to.deep.equal(['des', 'cheval']);
    expect(terms({ analyzer: 'es_none', text: 'los libros' }, r)).to.deep.equal(['los', 'libr']);
    // Hindi and Bengali mark keywords before normalizing, so an excluded word stays as written.
    expect(terms({ analyzer: 'hi_keep', text: 'किताबें लोगों' }, r)).to.deep.equal(['किताबें', 'लोग']);
  });

  it('equal the custom analyzers the reference rebuilds them with', () => {
    const r = createAnalysisRegistry({
      filter: {
        french_elision: { type: 'elision', articles_case: true, articles: ['l', 'm', 't', 'qu', 'n', 's', 'j', 'd', 'c', 'jusqu', 'quoiqu', 'lorsqu', 'puisqu'] },
        french_stop: { type: 'stop', stopwords: '_french_' },
        french_stemmer: { type: 'stemmer', language: 'light_french' },
        dutch_stop: { type: 'stop', stopwords: '_dutch_' },
        dutch_override: { type: 'stemmer_override', rules: ['fiets=>fiets', 'bromfiets=>bromfiets', 'ei=>eier', 'kind=>kinder'] },
        dutch_stemmer: { type: 'stemmer', language: 'dutch' },
        turkish_stop: { type: 'stop', stopwords: '_turkish_' },
        turkish_lowercase: { type: 'lowercase', language: 'turkish' },
        turkish_stemmer: { type: 'stemmer', language: 'turkish' },
        persian_stop: { type: 'stop', stopwords: '_persian_' },
        irish_hyphenation: { type: 'stop', stopwords: ['h', 'n', 't'], ignore_case: true },
        irish_elision: { type: 'elision', articles: ['d', 'm', 'b'], articles_case: true },
        irish_stop: { type: 'stop', stopwords: '_irish_' },
        irish_lowercase: { type: 'lowercase', language: 'irish' },
        irish_stemmer: { type: 'stemmer', language: 'irish' },
        arabic_stop: { type: 'stop', stopwords: '_arabic_' },
        arabic_stemmer: { type: 'stemmer', language: 'arabic' },
        hindi_stop: { type: 'stop', stopwords: '_hindi_' },
        hindi_stemmer: { type: 'stemmer', language: 'hindi' },
        english_stop: { type: 'stop', stopwords: '_english_' },
      },
      char_filter: { zero_width_spaces: { type: 'mapping', mappings: ['\\u200C=>\\u0020'] } },
      analyzer: {
        rebuilt_french: { tokenizer: 'standard', filter: ['french_elision', 'lowercase', 'french_stop', 'french_stemmer'] },
        rebuilt_dutch: { tokenizer: 'standard', filter: ['lowercase', 'dutch_stop', 'dutch_override', 'dutch_stemmer'] },
        rebuilt_turkish: { tokenizer: 'standard', filter: ['apostrophe', 'turkish_lowercase', 'turkish_stop', 'turkish_stemmer'] },
        rebuilt_persian: {
          tokenizer: 'standard', char_filter: ['zero_width_spaces'],
          filter: ['lowercase', 'decimal_digit', 'arabic_normalization', 'persian_normalization', 'persian_stop', 'persian_stem'],
        },
        rebuilt_irish: { tokenizer: 'standard', filter: ['irish_hyphenation', 'irish_elision', 'irish_lowercase', 'irish_stop', 'irish_stemmer'] },
        rebuilt_arabic: { tokenizer: 'standard', filter: ['lowercase', 'decimal_digit', 'arabic_stop', 'arabic_normalization', 'arabic_stemmer'] },
        rebuilt_hindi: { tokenizer: 'standard', filter: ['lowercase', 'decimal_digit', 'indic_normalization', 'hindi_normalization', 'hindi_stop', 'hindi_stemmer'] },
        rebuilt_cjk: { tokenizer: 'standard', filter: ['cjk_width', 'lowercase', 'cjk_bigram', 'english_stop'] },
      },
    });
    const texts: Record<string, string> = {
      french: "L'avion des chevaux, jusqu'aux châteaux européens",
      dutch: 'De fietsen en de kinderen liepen naar huizen, kind en ei',
      turkish: "İstanbul'a giden KIZLAR kitaplarını okudular",
      persian: 'کتاب‌ها را در کتابخانه خواندم ۱۲۳',
      irish: 'Tá an t-Uisce agus nAthair i h-Éireann',
      arabic: 'الكتاب والكتب في المكتبات ١٢٣',
      hindi: 'भारत के लोगों ने किताबें पढ़ीं',
      cjk: '東京都は、日本の首都であり the ＨＴＴＰ',
    };
    for (const [language, text] of Object.entries(texts)) {
      expect(analyze({ analyzer: `rebuilt_${language}`, text }, r), language).to.deep.equal(analyze({ analyzer: language, text }));
    }
    // cjk's own stop words are English's plus "s", "t" and "www" (the reference's rebuild uses `_english_`).
    expect(terms({ analyzer: 'cjk', text: 'www ＷＷＷ s t 東京' })).to.deep.equal(['東京']);
  });

  it('an unknown analyzer is refused (400)', () => {
    for (const analyzer of ['klingon']) {
      const err = thrown(() => terms({ analyzer, text: 'x' }));
      expect([err.status, err.type, err.reason]).to.deep.equal([400, 'illegal_argument_exception', `failed to find analyzer [${analyzer}]`]);
    }
  });
});

describe('analysis: stemmer and snowball languages', () => {
  for (const [language, text, expected] of STEMMED) {
    it(`stemmer ${language}: ${text}`, () => {
      expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'stemmer', language }], text })).to.deep.equal(expected);
    });
  }

  it('stemmer with defaults is Porter (reference example); `name` is an alias of `language`', () => {
    expect(terms({ tokenizer: 'standard', filter: ['stemmer'], text: 'the foxes jumping quickly' })).to.deep.equal(['the', 'fox', 'jump', 'quickli']);
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'stemmer', name: 'light_spanish' }], text: 'libros' })).to.deep.equal(['libr']);
  });

  it('stemmer skips keywords; stemmer_override rewrites and protects', () => {
    const filter = [{ type: 'keyword_marker', keywords: ['chevaux'] }, { type: 'stemmer', language: 'light_french' }];
    expect(terms({ tokenizer: 'whitespace', filter, text: 'chevaux châteaux' })).to.deep.equal(['chevaux', 'chateau']);
    const override = [{ type: 'stemmer_override', rules: ['running, runs => run', 'stemmer => stemmer'] }, 'porter_stem'];
    expect(terms({ tokenizer: 'whitespace', filter: override, text: 'running runs stemmer jumping' })).to.deep.equal(['run', 'run', 'stemmer', 'jump']);
  });

  it('snowball: English (Porter2) by default; the language is a Snowball class name', () => {
    expect(terms({ tokenizer: 'whitespace', filter: ['snowball'], text: 'generously running' })).to.deep.equal(['generous', 'run']);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'snowball', language: 'French' }], text: 'chevaux continuellement' })).to.deep.equal(['cheval', 'continuel']);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'snowball', language: 'german2' }], text: 'häuser' })).to.deep.equal(['haus']);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'snowball', language: 'Porter' }], text: 'generalizations' })).to.deep.equal(['gener']);
  });

  it('an unknown language is refused as ES refuses it', () => {
    let err = thrown(() => createAnalysisRegistry({ filter: { s: { type: 'stemmer', language: 'klingon' } } }));
    expect([err.status, err.type, err.reason]).to.deep.equal([400, 'illegal_argument_exception', 'Invalid stemmer class specified: Klingon']);
    err = thrown(() => terms({ tokenizer: 'standard', filter: [{ type: 'snowball', language: 'Klingon' }], text: 'x' }));
    expect(err.reason).to.equal('Invalid stemmer class specified: Klingon');
  });

  it('named stop word lists of every language', () => {
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'stop', stopwords: '_french_' }], text: 'le chat et la souris' })).to.deep.equal(['chat', 'souris']);
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'stop', stopwords: ['_spanish_', 'gato'] }], text: 'el gato y el perro' })).to.deep.equal(['perro']);
    expect(thrown(() => terms({ tokenizer: 'standard', filter: [{ type: 'stop', stopwords: '_klingon_' }], text: 'x' })).reason).to.equal('invalid stopwords list [_klingon_]');
  });
});
