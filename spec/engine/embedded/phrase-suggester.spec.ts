import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from './support.js';

const f = Math.fround;
/** ES keeps real_word_error_likelihood (0.95) as a float. */
const REAL_WORD = f(0.95);
/** Java prints a float's shortest decimal: what a score of the response reads as. */
const asFloat = (x: number): number => {
  for (let p = 1; p <= 9; p++) if (f(Number(f(x).toPrecision(p))) === f(x)) return Number(f(x).toPrecision(p));
  return f(x);
};

/**
 * `body` (standard analyzer): 13 tokens, 8 distinct terms — quick ×3, brown ×2, fox ×2, dog, the,
 * xorr, god, xorn. Its sub-fields add shingles (`shingles`: 2–3 words with unigrams, `under`:
 * pairs joined by "_", `pairs`: pairs without unigrams) or reverse each word (`reverse`).
 */
const docs = ['quick brown fox', 'quick brown dog', 'the quick fox', 'xorr the god', 'xorn'];
const VOCABULARY = 13 + 8;

type Options = Array<{ text: string; score: number; highlighted?: string }>;

describe('embedded engine: the phrase suggester', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const created = await es.call('PUT', '/words', {
      settings: {
        analysis: {
          analyzer: {
            shingles: { tokenizer: 'standard', filter: ['lowercase', 'shingles'] },
            under: { tokenizer: 'standard', filter: ['lowercase', 'under'] },
            pairs: { tokenizer: 'standard', filter: ['lowercase', 'pairs'] },
            reverse: { tokenizer: 'standard', filter: ['lowercase', 'reverse'] },
          },
          filter: {
            shingles: { type: 'shingle', min_shingle_size: 2, max_shingle_size: 3 },
            under: { type: 'shingle', token_separator: '_' },
            pairs: { type: 'shingle', output_unigrams: false },
          },
        },
      },
      mappings: {
        properties: {
          body: {
            type: 'text',
            fields: {
              shingles: { type: 'text', analyzer: 'shingles' },
              under: { type: 'text', analyzer: 'under' },
              pairs: { type: 'text', analyzer: 'pairs' },
              reverse: { type: 'text', analyzer: 'reverse' },
            },
          },
        },
      },
    });
    expect(created.status, created.text).to.equal(200);
    const bulk = await es.call('POST', '/_bulk?refresh=true', ndjson(docs.flatMap((body) => [{ index: { _index: 'words' } }, { body }])), { 'content-type': 'application/x-ndjson' });
    expect(bulk.json.errors).to.equal(false);
  });
  after(() => es.close());

  const suggest = (text: string, phrase: Record<string, unknown>) => es.call('POST', '/words/_search', { size: 0, suggest: { text, fix: { phrase } } });
  const optionsOf = async (text: string, phrase: Record<string, unknown>): Promise<Options> => {
    const r = await suggest(text, phrase);
    expect(r.status, r.text).to.equal(200);
    return r.json.suggest.fix[0].options;
  };
  const textsOf = async (text: string, phrase: Record<string, unknown>) => (await optionsOf(text, phrase)).map((o) => o.text);

  it('one entry for the whole text; a correction scored by the unigram model times the channel score', async () => {
    const r = await suggest('quikc brown', { field: 'body' });
    expect(r.status, r.text).to.equal(200);
    // quikc → quick: one transposition in five letters, similarity 0.8; brown is left as it is
    const expected = Math.exp(Math.log10(f(0.8) * (1 + 3) / VOCABULARY) + Math.log10(REAL_WORD * (1 + 2) / VOCABULARY));
    expect(r.json.suggest.fix).to.deep.equal([{ text: 'quikc brown', offset: 0, length: 11, options: [{ text: 'quick brown', score: asFloat(expected) }] }]);
  });

  it('confidence: 1 keeps the corrections that beat the text itself; 0 lists the text too', async () => {
    expect(await textsOf('quikc brown', { field: 'body' })).to.deep.equal(['quick brown']);
    const all = await optionsOf('quikc brown', { field: 'body', confidence: 0 });
    const input = Math.exp(Math.log10(REAL_WORD * 1 / VOCABULARY) + Math.log10(REAL_WORD * 3 / VOCABULARY));
    expect(all).to.deep.equal([
      { text: 'quick brown', score: (await optionsOf('quikc brown', { field: 'body' }))[0].score },
      { text: 'quikc brown', score: asFloat(input) },
    ]);
    // above 1, even the best correction must beat the text by that factor
    expect(await textsOf('quikc brown', { field: 'body', confidence: 2 })).to.deep.equal([]);
  });

  it('max_errors: how many words one correction may change (a count, or below 1 a fraction of the words)', async () => {
    expect(await textsOf('quikc briwn', { field: 'body' })).to.deep.equal(['quick briwn', 'quikc brown']);
    expect(await textsOf('quikc briwn', { field: 'body', max_errors: 2 })).to.deep.equal(['quick brown', 'quick briwn', 'quikc brown']);
    // 0.5 of two words: one
    expect(await textsOf('quikc briwn', { field: 'body', max_errors: 0.5 })).to.deep.equal(['quick briwn', 'quikc brown']);
    expect(await textsOf('quikc briwn', { field: 'body', max_errors: 2, size: 1 })).to.deep.equal(['quick brown']);
  });

  it('highlight wraps each run of corrected words in the tags', async () => {
    const options = await optionsOf('quikc briwn fox', { field: 'body', max_errors: 2, highlight: { pre_tag: '<em>', post_tag: '</em>' } });
    expect(options.map((o) => [o.text, o.highlighted])).to.deep.equal([
      ['quick brown fox', '<em>quick brown</em> fox'],
      ['quick briwn fox', '<em>quick</em> briwn fox'],
      ['quikc brown fox', 'quikc <em>brown</em> fox'],
    ]);
  });

  it('gram_size comes from the field\'s shingle filter: a pair the index has decides between equal corrections', async () => {
    const generator = [{ field: 'body', min_word_length: 1, suggest_mode: 'always' }];
    // without n-grams xorn and xorr tie: the earlier text first
    expect(await textsOf('xor the', { field: 'body', direct_generator: generator })).to.deep.equal(['xorn the', 'xorr the']);
    // `under` joins pairs with "_": found only with that separator
    expect(await textsOf('xor the', { field: 'body.under', direct_generator: generator })).to.deep.equal(['xorn the', 'xorr the']);
    expect(await textsOf('xor the', { field: 'body.under', separator: '_', direct_generator: generator })).to.deep.equal(['xorr the', 'xorn the']);
    // gram_size 1 asks the unigram model only
    expect(await textsOf('xor the', { field: 'body.under', separator: '_', gram_size: 1, direct_generator: generator })).to.deep.equal(['xorn the', 'xorr the']);
  });

  it('smoothing: stupid backoff (default discount 0.4), laplace (alpha 0.5) and linear interpolation score differently', async () => {
    const generator = [{ field: 'body', min_word_length: 1, suggest_mode: 'always' }];
    const scoreWith = async (smoothing?: Record<string, unknown>) =>
      (await optionsOf('xor the', { field: 'body', gram_size: 1, direct_generator: generator, ...(smoothing ? { smoothing } : {}) }))[0].score;
    // unigrams: stupid backoff is the add-one model; laplace adds alpha to each count
    const channel = f(1 - f(1 / 3));
    // xorn (once) for xor, then the (twice)
    const addOne = Math.exp(Math.log10(channel * (1 + 1) / VOCABULARY) + Math.log10(REAL_WORD * (1 + 2) / VOCABULARY));
    const laplace = (a: number) => Math.exp(Math.log10((channel * (a + 1)) / (13 + a * 8)) + Math.log10((REAL_WORD * (a + 2)) / (13 + a * 8)));
    expect(await scoreWith()).to.equal(asFloat(addOne));
    expect(await scoreWith({ stupid_backoff: { discount: 0.1 } })).to.equal(asFloat(addOne));
    expect(await scoreWith({ laplace: {} })).to.equal(asFloat(laplace(0.5)));
    expect(await scoreWith({ laplace: { alpha: 0.2 } })).to.equal(asFloat(laplace(0.2)));

    // with the pairs of `under`: "xorr_the" is there, "xorn_the" is not
    const pairs = async (smoothing: Record<string, unknown>) =>
      (await optionsOf('xor the', { field: 'body.under', separator: '_', direct_generator: generator, smoothing })).map((o) => [o.text, o.score]);
    const backoff = await pairs({ stupid_backoff: { discount: 0.4 } });
    // `under`: 21 tokens (13 words, 8 pairs), 15 distinct; the pair's count over its first word's,
    // else the discounted unigram
    const unigram = (count: number) => (1 + count) / (21 + 15);
    expect(backoff).to.deep.equal([
      ['xorr the', asFloat(Math.exp(Math.log10(channel * unigram(1)) + Math.log10(REAL_WORD * (1 / (1 + 0.00000000001)))))],
      ['xorn the', asFloat(Math.exp(Math.log10(channel * unigram(1)) + Math.log10(REAL_WORD * 0.4 * unigram(2))))],
    ]);
    expect(await pairs({ stupid_backoff: { discount: 0.1 } })).to.not.deep.equal(backoff);
    const linear = await pairs({ linear_interpolation: { trigram_lambda: 0.1, bigram_lambda: 0.6, unigram_lambda: 0.3 } });
    expect(linear.map(([t]) => t)).to.deep.equal(['xorr the', 'xorn the']);
    expect(linear).to.not.deep.equal(backoff);
    expect((await pairs({ laplace: { alpha: 0.5 } })).map(([t]) => t)).to.deep.equal(['xorr the', 'xorn the']);
  });

  it('direct generators: suggest_mode, min_word_length, prefix_length, and pre/post filters', async () => {
    // missing (the default) leaves known words alone; min_word_length 4 skips "xor"
    expect(await textsOf('xor the', { field: 'body' })).to.deep.equal([]);
    expect(await textsOf('xor the', { field: 'body', direct_generator: [{ field: 'body', min_word_length: 3 }] })).to.deep.equal(['xorn the', 'xorr the']);
    // prefix_length 1: a first letter is never corrected, unless a reverse pre/post filter turns the word around
    expect(await textsOf('bquick fox', { field: 'body' })).to.deep.equal([]);
    expect(await textsOf('guick fox', { field: 'body', direct_generator: [{ field: 'body' }] })).to.deep.equal([]);
    expect(await textsOf('guick fox', { field: 'body', direct_generator: [{ field: 'body.reverse', pre_filter: 'reverse', post_filter: 'reverse' }] })).to.deep.equal(['quick fox']);
    expect(await textsOf('guick fox', { field: 'body', direct_generator: [{ field: 'body', prefix_length: 0 }] })).to.deep.equal(['quick fox']);
    // popular: a known word may become a more frequent one only
    expect((await es.call('PUT', '/popular', { mappings: { properties: { body: { type: 'text' } } } })).status).to.equal(200);
    await es.call('POST', '/_bulk?refresh=true', ndjson(['quick', 'quick', 'quack'].flatMap((body) => [{ index: { _index: 'popular' } }, { body }])), { 'content-type': 'application/x-ndjson' });
    const popular = async (text: string, suggest_mode: string) => {
      const r = await es.call('POST', '/popular/_search', { size: 0, suggest: { text, fix: { phrase: { field: 'body', direct_generator: [{ field: 'body', suggest_mode }] } } } });
      expect(r.status, r.text).to.equal(200);
      return r.json.suggest.fix[0].options.map((o: { text: string }) => o.text);
    };
    expect(await popular('quack', 'missing')).to.deep.equal([]);
    expect(await popular('quack', 'popular')).to.deep.equal(['quick']);
    expect(await popular('quick', 'popular')).to.deep.equal([]);
    // max_edits 1: "quikk" is one substitution from quick, "qiukk" two
    expect(await textsOf('qiukk fox', { field: 'body', direct_generator: [{ field: 'body', max_edits: 1 }] })).to.deep.equal([]);
    expect(await textsOf('qiukk fox', { field: 'body', direct_generator: [{ field: 'body', max_edits: 2 }] })).to.deep.equal(['quick fox']);
  });

  it('token_limit: a text of that many words or more gets no corrections', async () => {
    expect(await textsOf('quikc brown', { field: 'body', token_limit: 3 })).to.deep.equal(['quick brown']);
    expect(await textsOf('quikc brown', { field: 'body', token_limit: 2 })).to.deep.equal([]);
  });

  it('a field without unigrams: refused with force_unigrams, suggested on its shingles without', async () => {
    const r = await suggest('quikc brown', { field: 'body.pairs' });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    expect(r.json.error.reason).to.contain("since it doesn't emit unigrams");
    expect((await suggest('quikc brown', { field: 'body.pairs', force_unigrams: false })).status).to.equal(200);
  });

  it('refuses what Elasticsearch refuses, and collate', async () => {
    const reasons: Array<[Record<string, unknown>, string]> = [
      [{ field: 'body', max_errors: 0 }, 'max_error must be > 0.0'],
      [{ field: 'body', confidence: -1 }, 'confidence must be >= 0.0'],
      [{ field: 'body', real_word_error_likelihood: 0 }, 'real_word_error_likelihood must be > 0.0'],
      [{ field: 'body', gram_size: 0 }, 'gramSize must be >= 1'],
      [{ field: 'body', token_limit: 0 }, 'token_limit must be >= 1'],
      [{ field: 'body', highlight: { pre_tag: '<em>' } }, 'Pre and post tag must both be null or both not be null.'],
      [{ field: 'body', smoothing: { linear_interpolation: { trigram_lambda: 0.5, bigram_lambda: 0.5, unigram_lambda: 0.5 } } }, 'linear smoothing lambdas must sum to 1'],
      [{ field: 'body', smoothing: { kneser_ney: {} } }, "suggester[phrase] doesn't support object field [kneser_ney]"],
      [{ field: 'body', direct_generator: [{ field: 'body', suggest_mode: 'sometimes' }] }, 'Illegal suggest mode sometimes'],
      [{ field: 'body', direct_generator: [{ field: 'body', max_edits: 3 }] }, 'Illegal max_edits value 3'],
      [{ field: 'body', direct_generator: [{ field: 'body', pre_filter: 'nope' }] }, "analyzer [nope] doesn't exists"],
      [{ field: 'body', analyzer: 'nope' }, "analyzer [nope] doesn't exists"],
      [{ field: 'nope' }, 'no mapping found for field [nope]'],
      [{ max_errors: 2 }, 'the required field option [field] is missing'],
      [{ field: 'body', collate: { query: { source: { match: { body: '{{suggestion}}' } } } } }, '[collate] of the phrase suggester is not supported by the embedded engine yet'],
    ];
    for (const [phrase, reason] of reasons) {
      const r = await suggest('quikc brown', phrase);
      expect(r.status, JSON.stringify(phrase)).to.equal(400);
      expect(r.json.error.reason, JSON.stringify(phrase)).to.equal(reason);
    }
    const unknown = await suggest('quikc brown', { field: 'body', colour: 'blue' });
    expect(unknown.status).to.equal(400);
    expect(unknown.json.error.reason).to.equal("suggester[phrase] doesn't support field [colour]");
  });

  it('several indices: one entry, options merged by text at their best score', async () => {
    expect((await es.call('PUT', '/words2', { mappings: { properties: { body: { type: 'text' } } } })).status).to.equal(200);
    await es.call('POST', '/_bulk?refresh=true', ndjson([{ index: { _index: 'words2' } }, { body: 'quick brown bear' }]), { 'content-type': 'application/x-ndjson' });
    const r = await es.call('POST', '/words,words2/_search', { size: 0, suggest: { text: 'quikc brown', fix: { phrase: { field: 'body' } } } });
    expect(r.status, r.text).to.equal(200);
    const options: Options = r.json.suggest.fix[0].options;
    expect(options.map((o) => o.text)).to.deep.equal(['quick brown']);
    // words2 alone: 3 tokens of 3 terms, quick and brown once each
    const alone = Math.exp(Math.log10(f(0.8) * 2 / 6) + Math.log10(REAL_WORD * 2 / 6));
    expect(options[0].score).to.equal(asFloat(Math.max(alone, Math.exp(Math.log10(f(0.8) * 4 / VOCABULARY) + Math.log10(REAL_WORD * 3 / VOCABULARY)))));
  });
});
