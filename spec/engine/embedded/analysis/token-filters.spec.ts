import { expect } from 'chai';
import { createAnalysisRegistry, foldToAscii } from '../../../../lib/engine/embedded/analysis/index.js';
import { analyze, terms } from './helpers.js';

describe('analysis: token filters', () => {
  it('lowercase and uppercase (ES examples), per code point as Java does', () => {
    expect(terms({ tokenizer: 'standard', filter: ['lowercase'], text: 'The Lazy DoG' })).to.deep.equal(['the', 'lazy', 'dog']);
    expect(terms({ tokenizer: 'standard', filter: ['uppercase'], text: 'the Quick FoX JUMPs' })).to.deep.equal(['THE', 'QUICK', 'FOX', 'JUMPS']);
    // Java's Character.toLowerCase has no final-sigma rule; ß has no single-char uppercase.
    expect(terms({ tokenizer: 'keyword', filter: ['lowercase'], text: 'ΟΔΟΣ' })).to.deep.equal(['οδοσ']);
    expect(terms({ tokenizer: 'keyword', filter: ['uppercase'], text: 'straße' })).to.deep.equal(['STRAßE']);
  });

  it('asciifolding (ES example) and preserve_original', () => {
    expect(terms({ tokenizer: 'standard', filter: ['asciifolding'], text: 'açaí à la carte' })).to.deep.equal(['acai', 'a', 'la', 'carte']);
    expect(analyze({ tokenizer: 'standard', filter: [{ type: 'asciifolding', preserve_original: 'true' }], text: 'açaí à la carte' })).to.deep.equal([
      ['acai', 0, 4, '<ALPHANUM>', 0],
      ['açaí', 0, 4, '<ALPHANUM>', 0],
      ['a', 5, 6, '<ALPHANUM>', 1],
      ['à', 5, 6, '<ALPHANUM>', 1],
      ['la', 7, 9, '<ALPHANUM>', 2],
      ['carte', 10, 15, '<ALPHANUM>', 3],
    ]);
  });

  it('asciifolding covers Latin-1, Latin Extended-A/B, ligatures, fullwidth forms and punctuation', () => {
    expect(foldToAscii('ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ')).to.equal(
      'AAAAAAAECEEEEIIIIDNOOOOOOUUUUYTHssaaaaaaaeceeeeiiiidnoooooouuuuythy',
    );
    expect(foldToAscii('ĀăĆčĐđĒęĞħİıĲĳĸĿŀŁłŉŊŋŒœŘšŦŧŽžſƀƑǄǆǍǰ')).to.equal('AaCcDdEeGhIiIJijqLlLl\'nNnOEoeRsTtZzsbFDZdzAj');
    expect(foldToAscii('ﬁ ﬂ Ａｂ１ ² ½ ① ⒜ “x” ‘y’ – — « »')).to.equal('fi fl Ab1 2 1/2 1 (a) "x" \'y\' - - " "');
    expect(foldToAscii('plain ascii')).to.equal('plain ascii');
  });

  it('ngram filter with defaults (ES example): grams keep the token offsets and position', () => {
    expect(terms({ tokenizer: 'whitespace', filter: ['ngram'], text: 'Quick fox' })).to.deep.equal(['Q', 'Qu', 'u', 'ui', 'i', 'ic', 'c', 'ck', 'k', 'f', 'fo', 'o', 'ox', 'x']);
    expect(analyze({ tokenizer: 'whitespace', filter: ['ngram'], text: 'ab c' })).to.deep.equal([
      ['a', 0, 2, 'word', 0],
      ['ab', 0, 2, 'word', 0],
      ['b', 0, 2, 'word', 0],
      ['c', 3, 4, 'word', 1],
    ]);
  });

  it('ngram filter preserve_original emits short and long tokens too', () => {
    const filter = [{ type: 'ngram', min_gram: 2, max_gram: 3, preserve_original: true }];
    expect(analyze({ tokenizer: 'whitespace', filter, text: 'a abcd' })).to.deep.equal([
      ['a', 0, 1, 'word', 0],
      ['ab', 2, 6, 'word', 1],
      ['abc', 2, 6, 'word', 1],
      ['bc', 2, 6, 'word', 1],
      ['bcd', 2, 6, 'word', 1],
      ['cd', 2, 6, 'word', 1],
      ['abcd', 2, 6, 'word', 1],
    ]);
  });

  it('edge_ngram filter 1..3 (ES example); a token too short for a gram leaves a position gap', () => {
    expect(terms({ tokenizer: 'standard', filter: [{ type: 'edge_ngram', min_gram: 1, max_gram: 3 }], text: 'the quick brown fox jumps' })).to.deep.equal([
      't', 'th', 'the', 'q', 'qu', 'qui', 'b', 'br', 'bro', 'f', 'fo', 'fox', 'j', 'ju', 'jum',
    ]);
    expect(analyze({ tokenizer: 'whitespace', filter: [{ type: 'edge_ngram', min_gram: 2, max_gram: 3 }], text: 'a bc' })).to.deep.equal([['bc', 2, 4, 'word', 1]]);
  });

  it('stop: _english_ by default, removed words leave position gaps (ES example)', () => {
    expect(analyze({ tokenizer: 'standard', filter: ['stop'], text: 'a quick fox jumps over the lazy dog' })).to.deep.equal([
      ['quick', 2, 7, '<ALPHANUM>', 1],
      ['fox', 8, 11, '<ALPHANUM>', 2],
      ['jumps', 12, 17, '<ALPHANUM>', 3],
      ['over', 18, 22, '<ALPHANUM>', 4],
      ['lazy', 27, 31, '<ALPHANUM>', 6],
      ['dog', 32, 35, '<ALPHANUM>', 7],
    ]);
  });

  it('stop: custom list, ignore_case, remove_trailing false', () => {
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'stop', stopwords: ['and', 'is', 'the'], ignore_case: true }], text: 'The fox AND the dog' })).to.deep.equal([
      'fox', 'dog',
    ]);
    const filter = [{ type: 'stop', remove_trailing: false }];
    expect(terms({ tokenizer: 'whitespace', filter, text: 'find the' })).to.deep.equal(['find', 'the']);
    expect(terms({ tokenizer: 'whitespace', filter, text: 'find the ' })).to.deep.equal(['find']);
  });

  it('trim, unique, length (ES examples)', () => {
    expect(analyze({ tokenizer: 'keyword', filter: ['trim'], text: ' fox ' })).to.deep.equal([['fox', 0, 5, 'word', 0]]);
    expect(analyze({ tokenizer: 'whitespace', filter: ['unique'], text: 'the quick fox jumps the lazy fox' })).to.deep.equal([
      ['the', 0, 3, 'word', 0],
      ['quick', 4, 9, 'word', 1],
      ['fox', 10, 13, 'word', 2],
      ['jumps', 14, 19, 'word', 3],
      ['lazy', 24, 28, 'word', 4],
    ]);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'length', min: 0, max: 4 }], text: 'the quick brown fox jumps over the lazy dog' })).to.deep.equal([
      'the', 'fox', 'over', 'the', 'lazy', 'dog',
    ]);
  });

  it('shingle with defaults (ES example)', () => {
    expect(analyze({ tokenizer: 'whitespace', filter: ['shingle'], text: 'quick brown fox jumps' })).to.deep.equal([
      ['quick', 0, 5, 'word', 0],
      ['quick brown', 0, 11, 'shingle', 0, 2],
      ['brown', 6, 11, 'word', 1],
      ['brown fox', 6, 15, 'shingle', 1, 2],
      ['fox', 12, 15, 'word', 2],
      ['fox jumps', 12, 21, 'shingle', 2, 2],
      ['jumps', 16, 21, 'word', 3],
    ]);
  });

  it('shingle 2..3 without unigrams, custom separator; filler for removed words', () => {
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'shingle', min_shingle_size: 2, max_shingle_size: 3, output_unigrams: false }], text: 'quick brown fox jumps' })).to.deep.equal([
      'quick brown', 'quick brown fox', 'brown fox', 'brown fox jumps', 'fox jumps',
    ]);
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'shingle', token_separator: '+', output_unigrams: false }], text: 'a b' })).to.deep.equal(['a+b']);
    expect(terms({ tokenizer: 'whitespace', filter: ['stop', { type: 'shingle', output_unigrams: false }], text: 'quick the fox' })).to.deep.equal(['quick _', '_ fox']);
  });

  it('shingles of several sizes or with unigrams are no token graph for queries (ES DisableGraphAttribute)', () => {
    const r = createAnalysisRegistry({
      filter: { bigrams_only: { type: 'shingle', output_unigrams: false }, two_to_three: { type: 'shingle', max_shingle_size: 3, output_unigrams: false } },
      analyzer: {
        defaults: { tokenizer: 'standard', filter: ['shingle'] },
        bigrams_only: { tokenizer: 'standard', filter: ['bigrams_only'] },
        two_to_three: { tokenizer: 'standard', filter: ['two_to_three'] },
      },
    });
    expect(['defaults', 'bigrams_only', 'two_to_three', 'standard'].map((a) => r.analyzer(a).graphQueries)).to.deep.equal([false, true, false, true]);
  });

  it('porter_stem and stemmer (english) follow Lucene PorterStemmer', () => {
    expect(terms({ tokenizer: 'standard', filter: ['porter_stem'], text: 'the foxes jumping quickly' })).to.deep.equal(['the', 'fox', 'jump', 'quickli']);
    const words = 'caresses ponies ties caress cats feed agreed plastered motoring sing conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize probate rate cease controll roll generalizations oscillators';
    expect(terms({ tokenizer: 'whitespace', filter: [{ type: 'stemmer', language: 'english' }], text: words }).join(' ')).to.equal(
      'caress poni ti caress cat feed agre plaster motor sing conflat troubl size hop tan fall hiss fizz fail file happi sky relat condit ration valenc hesit digit conform radic differ vile analog vietnam predic oper feudal decis hope callous formal sensit sensibl triplic form formal electr electr hope good reviv allow infer airlin gyroscop adjust defens irrit replac adjust depend adopt homolog commun activ angular homolog effect bowdler probat rate ceas control roll gener oscil',
    );
  });

  it('keyword_marker protects tokens from stemming', () => {
    const filter = [{ type: 'keyword_marker', keywords: ['jumping'] }, 'porter_stem'];
    expect(terms({ tokenizer: 'whitespace', filter, text: 'jumping running' })).to.deep.equal(['jumping', 'run']);
  });

  it('keyword_repeat stacks a keyword copy that stemmers skip; unique only_on_same_position drops unchanged copies (ES example)', () => {
    expect(analyze({ tokenizer: 'whitespace', filter: ['keyword_repeat', 'porter_stem'], text: 'fox running' })).to.deep.equal([
      ['fox', 0, 3, 'word', 0],
      ['fox', 0, 3, 'word', 0],
      ['running', 4, 11, 'word', 1],
      ['run', 4, 11, 'word', 1],
    ]);
    const filter = ['keyword_repeat', 'porter_stem', { type: 'unique', only_on_same_position: true }];
    expect(analyze({ tokenizer: 'whitespace', filter, text: 'fox running and jumping' })).to.deep.equal([
      ['fox', 0, 3, 'word', 0],
      ['running', 4, 11, 'word', 1],
      ['run', 4, 11, 'word', 1],
      ['and', 12, 15, 'word', 2],
      ['jumping', 16, 23, 'word', 3],
      ['jump', 16, 23, 'word', 3],
    ]);
  });
});
