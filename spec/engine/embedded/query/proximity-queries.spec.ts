import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/** intervals, combined_fields and more_like_this, with the reference pages' examples. */
describe('embedded engine: intervals, combined_fields, more_like_this', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const search = async (index: string, query: unknown): Promise<any> => {
    const r = await es.call('POST', `/${index}/_search`, { query });
    expect(r.status, r.text).to.equal(200);
    return r.json.hits;
  };
  const ids = async (index: string, query: unknown) => (await search(index, query)).hits.map((h: { _id: string }) => h._id);
  const error = async (index: string, query: unknown) => {
    const r = await es.call('POST', `/${index}/_search`, { query });
    expect(r.status, r.text).to.equal(400);
    return r.json.error as { type: string; reason: string; caused_by?: { type: string; reason: string } };
  };
  const bulk = async (index: string, docs: Array<Record<string, unknown>>) => {
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: index, _id: String(i + 1) } }, d));
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/texts', { mappings: { properties: { my_text: { type: 'text' }, alt: { type: 'text' }, kw: { type: 'keyword' } } } });
    await bulk('texts', [
      { my_text: 'my favorite food is cold porridge', kw: 'a', alt: 'porridge is cold' },
      { my_text: "when it's cold my favorite food is porridge", kw: 'b' },
      { my_text: 'my favorite food is hot water', kw: 'c' },
      { my_text: 'hot porridge is salty porridge', kw: 'd' },
      { my_text: 'the big bad wolf', kw: 'e' },
      { my_text: 'hot salty porridge', kw: 'f' },
    ]);
    await es.call('PUT', '/articles', { mappings: { properties: { title: { type: 'text' }, abstract: { type: 'text' }, body: { type: 'text' }, kw: { type: 'keyword' } } } });
    await bulk('articles', [
      { title: 'database systems', abstract: 'how data is stored', body: 'a database stores data in tables' },
      { title: 'distributed systems', abstract: 'replicated database', body: 'nodes replicate data' },
      { title: 'cooking', abstract: 'recipes', body: 'systems of cooking' },
    ]);
  });
  after(() => es.close());

  describe('intervals', () => {
    it('all_of ordered: the phrase "my favorite food" before "hot water" or "cold porridge"', async () => {
      const query = {
        intervals: {
          my_text: {
            all_of: {
              ordered: true,
              intervals: [
                { match: { query: 'my favorite food', max_gaps: 0, ordered: true } },
                { any_of: { intervals: [{ match: { query: 'hot water' } }, { match: { query: 'cold porridge' } }] } },
              ],
            },
            _name: 'favorite_food',
          },
        },
      };
      // "when it's cold my favorite food is porridge": cold porridge starts before my favorite food.
      expect(await ids('texts', query)).to.have.members(['1', '3']);
    });

    it('scores the sloppy frequency: an exact-length interval scores boost · 1 / (1 + 1)', async () => {
      const hits = await search('texts', { intervals: { my_text: { match: { query: 'big bad', max_gaps: 0, ordered: true }, boost: 2 } } });
      expect(hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).to.deep.equal([['5', 1]]);
      // one gap: the interval is one position longer than the source's extent, so it weighs 1/2
      const gapped = await search('texts', { intervals: { my_text: { match: { query: 'big wolf', ordered: true } } } });
      expect(gapped.hits[0]._score).to.be.closeTo(0.5 / 1.5, 1e-6);
    });

    it('max_gaps and ordered on match', async () => {
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'porridge hot', ordered: true } } } })).to.deep.equal([]);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'porridge hot' } } } })).to.have.members(['4', '6']);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'favorite porridge', max_gaps: 2 } } } })).to.deep.equal(['2']);
    });

    it('filters: not_containing, contained_by (minimization), containing, before, after, overlapping', async () => {
      // hot … porridge within 10 positions, without salty in between
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'hot porridge', max_gaps: 10, filter: { not_containing: { match: { query: 'salty' } } } } } } })).to.deep.equal(['4']);
      // "hot porridge is salty porridge": the minimal interval for hot porridge covers the first two terms only
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'salty', filter: { contained_by: { match: { query: 'hot porridge' } } } } } } })).to.deep.equal(['6']);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'hot porridge', filter: { containing: { match: { query: 'salty' } } } } } } })).to.deep.equal(['6']);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'cold', filter: { before: { match: { query: 'favorite' } } } } } } })).to.deep.equal(['2']);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'cold', filter: { after: { match: { query: 'favorite' } } } } } } })).to.deep.equal(['1']);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'salty', filter: { not_overlapping: { match: { query: 'hot salty', max_gaps: 0, ordered: true } } } } } } })).to.deep.equal(['4']);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'salty', filter: { overlapping: { match: { query: 'hot salty', max_gaps: 0, ordered: true } } } } } } })).to.deep.equal(['6']);
    });

    it('script filters: the reference example, and params', async () => {
      // Positions: "when(0) it's(1) cold(2) my(3) favorite(4) food(5) is(6) porridge(7)".
      const script = (source: string, params?: Record<string, unknown>) => ({ intervals: { my_text: { match: { query: 'favorite food', filter: { script: { source, ...(params ? { params } : {}) } } } } } });
      expect(await ids('texts', script('interval.start > 10 && interval.end < 20 && interval.gaps == 0'))).to.deep.equal([]);
      expect(await ids('texts', script('interval.start >= params.min && interval.gaps == 0', { min: 2 }))).to.deep.equal(['2']);
      expect(await ids('texts', script('interval.end - interval.start == 1'))).to.have.members(['1', '2', '3']);
      const e = await error('texts', script('interval.nope.length()'));
      expect(e.type).to.equal('search_phase_execution_exception');
    });

    it('any_of minimizes: "big" hides "big bad" inside an ordered all_of, as the reference warns', async () => {
      const query = {
        intervals: {
          my_text: {
            all_of: {
              intervals: [{ match: { query: 'the' } }, { any_of: { intervals: [{ match: { query: 'big' } }, { match: { query: 'big bad' } }] } }, { match: { query: 'wolf' } }],
              max_gaps: 0, ordered: true,
            },
          },
        },
      };
      expect(await ids('texts', query)).to.deep.equal([]);
      const rewritten = {
        intervals: {
          my_text: {
            any_of: {
              intervals: [{ match: { query: 'the big bad wolf', ordered: true, max_gaps: 0 } }, { match: { query: 'the big wolf', ordered: true, max_gaps: 0 } }],
            },
          },
        },
      };
      expect(await ids('texts', rewritten)).to.deep.equal(['5']);
    });

    it('prefix, wildcard and fuzzy rules (normalized by the analyzer)', async () => {
      expect(await ids('texts', { intervals: { my_text: { prefix: { prefix: 'PORR' } } } })).to.have.members(['1', '2', '4', '6']);
      expect(await ids('texts', { intervals: { my_text: { wildcard: { pattern: 'w?lf' } } } })).to.deep.equal(['5']);
      expect(await ids('texts', { intervals: { my_text: { fuzzy: { term: 'wolff' } } } })).to.deep.equal(['5']);
      expect(await ids('texts', { intervals: { my_text: { fuzzy: { term: 'woof', fuzziness: 2 } } } })).to.have.members(['1', '2', '3', '5']);
      expect(await ids('texts', { intervals: { my_text: { all_of: { ordered: true, max_gaps: 0, intervals: [{ match: { query: 'hot' } }, { prefix: { prefix: 'wat' } }] } } } })).to.deep.equal(['3']);
    });

    it('use_field reads another field\'s positions', async () => {
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'porridge cold', ordered: true, use_field: 'alt' } } } })).to.deep.equal(['1']);
      expect(await ids('texts', { intervals: { my_text: { match: { query: 'porridge', use_field: 'nope' } } } })).to.deep.equal([]);
    });

    it('an unmapped field matches nothing; a keyword field is refused', async () => {
      expect(await ids('texts', { intervals: { nope: { match: { query: 'x' } } } })).to.deep.equal([]);
      const e = await error('texts', { intervals: { kw: { match: { query: 'a' } } } });
      expect(e.type).to.equal('illegal_argument_exception');
      expect(e.reason).to.equal('Can only use interval queries on text fields - not on [kw] which is of type [keyword]');
    });

    it('refuses malformed rules with parsing errors', async () => {
      let e = await error('texts', { intervals: { my_text: { match: { max_gaps: 1 } } } });
      expect([e.type, e.reason]).to.deep.equal(['parsing_exception', 'Required [query]']);
      e = await error('texts', { intervals: { my_text: { foo: {} } } });
      expect(e.reason).to.match(/^Unknown interval type \[foo\]/);
      e = await error('texts', { intervals: { my_text: {} } });
      expect(e.reason).to.equal('Missing intervals from interval query definition');
      e = await error('texts', { intervals: { my_text: { match: { query: 'a' }, prefix: { prefix: 'b' } } } });
      expect(e.reason).to.equal('Only one interval rule can be specified, found [match] and [prefix]');
      e = await error('texts', { intervals: { my_text: { match: { query: 'a', filter: { nearby: { match: { query: 'b' } } } } } } });
      expect([e.type, e.reason]).to.deep.equal(['illegal_argument_exception', 'Unknown filter type [nearby]']);
    });
  });

  describe('combined_fields', () => {
    it('matches the terms across the fields as one (operator and)', async () => {
      const query = { combined_fields: { query: 'database systems', fields: ['title', 'abstract', 'body'], operator: 'and' } };
      expect(await ids('articles', query)).to.deep.equal(['1', '2']);
      expect(await ids('articles', { combined_fields: { query: 'database systems', fields: ['title', 'abstract', 'body'] } })).to.have.members(['1', '2', '3']);
      // article 2 has only "systems" in these two fields
      expect(await ids('articles', { combined_fields: { query: 'database systems cooking', fields: ['title', 'body'], minimum_should_match: 2 } })).to.have.members(['1', '3']);
      expect(await ids('articles', { combined_fields: { query: 'database systems cooking', fields: ['title', 'body'], minimum_should_match: 3 } })).to.deep.equal([]);
    });

    it('scores with BM25F: one field gives the plain BM25 score of its term', async () => {
      const combined = await search('articles', { combined_fields: { query: 'cooking', fields: ['title'] } });
      const plain = await search('articles', { match: { title: 'cooking' } });
      expect(combined.hits[0]._score).to.equal(plain.hits[0]._score);
      // a field weight counts its term frequency and length that many times, so it changes the score
      const weighted = await search('articles', { combined_fields: { query: 'database', fields: ['title^2', 'abstract'] } });
      const unweighted = await search('articles', { combined_fields: { query: 'database', fields: ['title', 'abstract'] } });
      expect(weighted.hits[0]._score).to.not.equal(unweighted.hits[0]._score);
    });

    it('zero_terms_query and the parameters it refuses', async () => {
      expect(await ids('articles', { combined_fields: { query: 'the', fields: ['title'], zero_terms_query: 'all' } })).to.have.length(0);
      let e = await error('articles', { combined_fields: { query: 'x', fields: ['title^0.5'] } });
      expect(e.caused_by).to.deep.include({ type: 'illegal_argument_exception', reason: '[combined_fields] requires field boosts to be >= 1.0' });
      e = await error('articles', { combined_fields: { query: 'x', fields: ['title', 'kw'] } });
      expect(e.reason).to.equal('Field [kw] of type [keyword] does not support [combined_fields] queries');
      e = await error('articles', { combined_fields: { fields: ['title'] } });
      expect([e.type, e.reason]).to.deep.equal(['parsing_exception', 'Required [query]']);
      e = await error('articles', { combined_fields: { query: 'x' } });
      expect(e.reason).to.equal('In [combined_fields] query, at least one field must be provided');
    });
  });

  describe('more_like_this', () => {
    before(async () => {
      await es.call('PUT', '/imdb', { mappings: { properties: { title: { type: 'text' }, description: { type: 'text' }, tags: { type: 'keyword' } } } });
      await bulk('imdb', [
        { title: 'Once upon a time in the west', description: 'a western about revenge in the west', tags: ['western'] },
        { title: 'The good the bad and the ugly', description: 'a western about gold and revenge', tags: ['western'] },
        { title: 'Once upon a time in America', description: 'a gangster story in new york', tags: ['crime'] },
        { title: 'Space odyssey', description: 'a journey to jupiter', tags: ['sci-fi'] },
      ]);
    });

    it('like text: the documents sharing its rarer terms (min_term_freq, max_query_terms)', async () => {
      const query = { more_like_this: { fields: ['title', 'description'], like: 'Once upon a time', min_term_freq: 1, max_query_terms: 12, min_doc_freq: 1 } };
      // "a" is in every description: 30% of the four terms is one of them
      expect(await ids('imdb', query)).to.have.members(['1', '2', '3', '4']);
      expect(await ids('imdb', { more_like_this: { ...query.more_like_this, stop_words: ['a'] } })).to.have.members(['1', '3']);
      expect(await ids('imdb', { more_like_this: { ...query.more_like_this, max_query_terms: 1, stop_words: ['a'] } })).to.have.members(['1', '3']);
    });

    it('like documents by _index/_id are excluded unless include; artificial docs and unlike', async () => {
      const like = [{ _index: 'imdb', _id: '1' }];
      const common = { min_term_freq: 1, min_doc_freq: 1, stop_words: ['a', 'in', 'the', 'about'] };
      expect(await ids('imdb', { more_like_this: { fields: ['description'], like, ...common } })).to.deep.equal(['2']);
      expect(await ids('imdb', { more_like_this: { fields: ['description'], like, ...common, include: true } })).to.deep.equal(['1', '2']);
      // an item without _index reads the index searched
      expect(await ids('imdb', { more_like_this: { fields: ['description'], like: [{ _id: '1' }], ...common } })).to.deep.equal(['2']);
      const artificial = [{ doc: { description: 'revenge in new york' } }];
      expect(await ids('imdb', { more_like_this: { fields: ['description'], like: artificial, min_term_freq: 1, min_doc_freq: 1, minimum_should_match: 1 } })).to.have.members(['1', '2', '3']);
      const unlike = { more_like_this: { fields: ['description'], like: artificial, unlike: 'revenge', min_term_freq: 1, min_doc_freq: 1, minimum_should_match: 1, stop_words: ['in'] } };
      expect(await ids('imdb', unlike)).to.deep.equal(['3']);
    });

    it('defaults: min_term_freq 2 and min_doc_freq 5 select nothing from a short text', async () => {
      expect(await ids('imdb', { more_like_this: { fields: ['title'], like: 'once upon a time' } })).to.deep.equal([]);
    });

    it('refuses a query without like, free text without fields, unsupported fields', async () => {
      let e = await error('imdb', { more_like_this: { fields: ['title'] } });
      expect([e.type, e.reason]).to.deep.equal(['parsing_exception', "more_like_this requires 'like' to be specified"]);
      e = await error('imdb', { more_like_this: { like: 'once' } });
      expect(e.type).to.equal('illegal_argument_exception');
      expect(e.reason).to.match(/^\[more_like_this\] query cannot infer the field to analyze the free text/);
      await es.call('PUT', '/imdb/_mapping', { properties: { year: { type: 'long' } } });
      e = await error('imdb', { more_like_this: { fields: ['year'], like: '1966' } });
      expect(e.reason).to.equal('more_like_this only supports text/keyword fields: [year]');
      expect(await ids('imdb', { more_like_this: { fields: ['year', 'title'], like: 'once upon', min_term_freq: 1, min_doc_freq: 1, fail_on_unsupported_field: false } })).to.have.members(['1', '3']);
    });
  });
});
