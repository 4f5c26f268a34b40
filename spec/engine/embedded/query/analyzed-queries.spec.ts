import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { documentMatches, parseQuery } from '../../../../lib/engine/embedded/search/query/index.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

type Hits = { json: { hits: { hits: Array<{ _id: string; _score: number }> } } };
const ids = (r: Hits) => r.json.hits.hits.map((h) => h._id);
const scores = (r: Hits) => Object.fromEntries(r.json.hits.hits.map((h) => [h._id, h._score]));

/** Elasticsearch's BM25 (LegacyBM25Similarity: the (k1 + 1) factor kept) for a query whose idfs sum to `idfSum`. */
function bm25(idfSum: number, freq: number, dl: number, avgdl: number): number {
  return (2.2 * idfSum * freq) / (freq + 1.2 * (1 - 0.75 + (0.75 * dl) / avgdl));
}
const idf = (n: number, N: number) => Math.log(1 + (N - n + 0.5) / (n + 0.5));

describe('embedded engine: queries over a synonym token graph (match, match_phrase, match_phrase_prefix)', () => {
  let es: TestEngine;
  const ANALYSIS = {
    filter: {
      syns: { type: 'synonym', synonyms: ['wtf, what the fudge', 'foo, bar baz'] },
      graph_syns: { type: 'synonym_graph', synonyms: ['wtf, what the fudge', 'foo, bar baz'] },
    },
    analyzer: {
      lower_syns: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'syns'] },
      lower_graph_syns: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'graph_syns'] },
    },
  };
  const TEXTS = [
    'say wtf happened foo', 'bar baz what the fudge man', 'wtf', 'what is the name for fudge',
    'bar two three', 'bar baz two three', 'WTFD!', "Weird Al's WHAT THE FUDGESICLE",
  ];
  const search = async (query: Record<string, unknown>) => {
    const r = await es.call('POST', '/syn/_search', { query, size: 20 });
    expect(r.status, r.text).to.equal(200);
    return r as Hits;
  };
  /** The search's ids, checked against the one-document matcher (live streams) on every document. */
  const searchIds = async (query: Record<string, unknown>) => {
    const hits = ids(await search(query));
    const mappings = (await es.call('GET', '/syn/_mapping')).json.syn.mappings;
    const context = { mappings, registry: createAnalysisRegistry(ANALYSIS), now: Date.now() };
    const matched = TEXTS.map((text, i) => String(i + 1)).filter((id) => documentMatches(parseQuery(query), { id, source: { text: TEXTS[Number(id) - 1] } }, context));
    expect(matched, JSON.stringify(query)).to.deep.equal([...hits].sort());
    return hits;
  };
  const match = (query: string, options: Record<string, unknown> = {}) => ({ match: { text: { query, analyzer: 'lower_graph_syns', ...options } } });

  before(async () => {
    es = await startEngine();
    const created = await es.call('PUT', '/syn', { settings: { number_of_shards: 1, analysis: ANALYSIS }, mappings: { properties: { text: { type: 'text' } } } });
    expect(created.status, created.text).to.equal(200);
    const lines: unknown[] = [];
    TEXTS.forEach((text, i) => lines.push({ index: { _index: 'syn', _id: String(i + 1) } }, { text }));
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors).to.equal(false);
  });
  after(() => es.close());

  it('match, operator and: each segment of the graph is required; a multi-word synonym must match as a phrase', async () => {
    expect(await searchIds(match('say what the fudge', { operator: 'and' }))).to.deep.equal(['1']);
    // "wtf" or the phrase "what the fudge": not doc 4, whose words are scattered.
    expect(await searchIds(match('wtf', { operator: 'and' }))).to.deep.equal(['2', '3', '1']);
  });

  it('auto_generate_synonyms_phrase_query false: a multi-word synonym is a conjunction of its words', async () => {
    expect((await searchIds(match('wtf', { auto_generate_synonyms_phrase_query: false }))).sort()).to.deep.equal(['1', '2', '3', '4']);
    expect((await searchIds(match('three what the fudge foo', { auto_generate_synonyms_phrase_query: false }))).sort()).to.deep.equal(['1', '2', '3', '4', '5', '6']);
  });

  it('minimum_should_match counts the graph segments, not the tokens', async () => {
    // Segments: three | (wtf | "what the fudge") | (foo | "bar baz"): 80% of 3 → 2.
    expect(await searchIds(match('three what the fudge foo', { minimum_should_match: '80%' }))).to.deep.equal(['2', '6', '1']);
  });

  it('match_phrase follows the graph\'s paths; the flat synonym filter finds the wrong document', async () => {
    expect(await searchIds({ match_phrase: { text: { query: 'foo two three', analyzer: 'lower_graph_syns' } } })).to.deep.equal(['6']);
    expect(await searchIds({ match_phrase: { text: { query: 'foo two three', analyzer: 'lower_syns' } } })).to.deep.equal(['5']);
    // With slop, one sloppy phrase per path: "bar baz three" is one position off in doc 6.
    expect(await searchIds({ match_phrase: { text: { query: 'foo three', analyzer: 'lower_graph_syns', slop: 1 } } })).to.deep.equal(['6']);
  });

  it('match_phrase_prefix: the prefix is on the last term of every path, all paths scored as one query', async () => {
    const r = await search({ match_phrase_prefix: { text: { query: 'wtf', analyzer: 'lower_graph_syns' } } });
    expect(ids(r)).to.deep.equal(['3', '7', '1', '8', '2']);
    // One weight for the whole query: the idf sum of the distinct terms of all paths (what, the,
    // fudge, fudgesicle; wtf, wtfd), as Lucene's span query over the graph has it.
    const N = 8;
    const avgdl = 30 / 8;
    const idfSum = idf(3, N) + idf(3, N) + idf(2, N) + idf(1, N) + idf(2, N) + idf(1, N);
    const s = scores(r);
    expect(s['3']).to.be.closeTo(bm25(idfSum, 1, 1, avgdl), 1e-5);
    expect(s['7']).to.equal(s['3']);
    expect(s['2']).to.be.closeTo(bm25(idfSum, 1, 6, avgdl), 1e-5);
  });

  it('match_bool_prefix: the last segment\'s term is a prefix', async () => {
    expect(await searchIds({ match_bool_prefix: { text: { query: 'foo tw', analyzer: 'lower_graph_syns', operator: 'and' } } })).to.deep.equal(['6']);
  });
});

describe('embedded engine: search analyzers of full-text queries', () => {
  let es: TestEngine;
  after(() => es?.close());
  before(async () => {
    es = await startEngine();
  });

  it('a search analyzer with keyword_repeat, porter_stem and unique finds the word and its stem', async () => {
    await es.call('PUT', '/stems', {
      settings: {
        analysis: {
          analyzer: { index: { tokenizer: 'standard', filter: ['lowercase'] }, search: { tokenizer: 'standard', filter: ['lowercase', 'keyword_repeat', 'porter_stem', 'unique_stem'] } },
          filter: { unique_stem: { type: 'unique', only_on_same_position: true } },
        },
      },
      mappings: { properties: { text: { type: 'text', analyzer: 'index', search_analyzer: 'search' } } },
    });
    await es.call('PUT', '/stems/_doc/1?refresh=true', { text: 'the fox runs across the street' });
    await es.call('PUT', '/stems/_doc/2?refresh=true', { text: 'run fox run' });
    const r = await es.call('POST', '/stems/_search', { query: { match: { text: { query: 'fox runs', operator: 'and' } } } });
    expect(ids(r).sort()).to.deep.equal(['1', '2']);
  });

  it('index.analysis.analyzer.default_search analyzes query_string and q= text unless the request names an analyzer', async () => {
    await es.call('PUT', '/de', {
      settings: { 'index.analysis.analyzer.default.type': 'simple', 'index.analysis.analyzer.default_search.type': 'german' },
      mappings: { properties: { body: { type: 'text' } } },
    });
    await es.call('PUT', '/de/_doc/1?refresh=true', { body: 'Ich lese die Bücher' });
    const total = async (p: string, body?: unknown) => (await es.call(body ? 'POST' : 'GET', p, body)).json.hits.total.value;
    // Indexed with simple: "bücher"; searched with german: "buch".
    expect(await total('/de/_search?q=body:B%C3%BCcher')).to.equal(0);
    expect(await total('/de/_search?q=body:B%C3%BCcher&analyzer=simple')).to.equal(1);
    expect(await total('/de/_search', { query: { query_string: { query: 'body:Bücher' } } })).to.equal(0);
    expect(await total('/de/_search', { query: { query_string: { query: 'body:Bücher', analyzer: 'simple' } } })).to.equal(1);
    // The german analyzer still finds what it stems alike: "Buch" → "buch".
    await es.call('PUT', '/de/_doc/2?refresh=true', { body: 'buch' });
    expect(await total('/de/_search?q=body:B%C3%BCcher')).to.equal(1);
  });
});
