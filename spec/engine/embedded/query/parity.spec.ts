import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { loadCorpus, CORPUS } from '../../../../bench/support/corpus.js';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { documentMatches, parseQuery } from '../../../../lib/engine/embedded/search/query/index.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';
import { syntheticPackages } from './parity-corpus.js';

/**
 * The one-document matcher (live search streams) must agree with the index executor: for every
 * query kind, over a sample of the Debian corpus (or, without it, the repository's own package
 * corpus: this spec never skips), the ids each selects are the same.
 */
describe('embedded engine: executor and document matcher agree (Debian sample)', function () {
  let es: TestEngine;
  let docs: Array<Record<string, unknown>> = [];
  const ANALYSIS = {
    filter: { autosuggest_filter: { type: 'edge_ngram', min_gram: 1, max_gram: 20, token_chars: ['letter', 'digit', 'punctuation', 'symbol'] } },
    analyzer: { autosuggest_analyzer: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'autosuggest_filter'] } },
  };

  before(async function () {
    // the Debian sample where the shared data is beside the repository, else the repository's own
    const packages = existsSync(CORPUS) ? await loadCorpus(400) : syntheticPackages(400);
    docs = packages.map((d, i) => ({ ...d, loc: { lat: (i % 170) - 85, lon: (i % 350) - 175 }, deps: ((d.depends as string[] | undefined) ?? []).slice(0, 3).map((p, j) => ({ pkg: p, rank: j })) }));
    es = await startEngine();
    const r = await es.call('PUT', '/deb', {
      settings: { analysis: ANALYSIS },
      mappings: {
        properties: {
          name: { type: 'text', fields: { raw: { type: 'keyword' }, autosuggest: { type: 'text', analyzer: 'autosuggest_analyzer', search_analyzer: 'simple' } } },
          summary: { type: 'text' },
          section: { type: 'keyword' },
          installed_size_kb: { type: 'long' },
          loc: { type: 'geo_point' },
          deps: { type: 'nested', properties: { pkg: { type: 'text' }, rank: { type: 'integer' } } },
        },
      },
    });
    expect(r.status).to.equal(200);
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: 'deb', _id: String(i) } }, d));
    const b = await es.call('POST', '/_bulk', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(b.json.errors).to.equal(false);
  });
  after(() => es?.close());

  const QUERIES: Array<Record<string, unknown>> = [
    { match_all: {} },
    { match_none: {} },
    { match: { summary: 'library' } },
    { match: { summary: { query: 'shared library files', operator: 'and' } } },
    { match: { summary: { query: 'shared library files', minimum_should_match: '2' } } },
    { match: { summary: { query: 'libary', fuzziness: 'AUTO' } } },
    { match: { section: 'libs' } },
    { match: { installed_size_kb: { query: 'x', lenient: true } } },
    { match_phrase: { summary: 'shared library' } },
    { match_phrase: { summary: { query: 'library shared', slop: 2 } } },
    { match_phrase_prefix: { summary: 'development fi' } },
    { match_bool_prefix: { summary: 'python mod' } },
    { multi_match: { query: 'python', fields: ['name^3', 'summary'] } },
    { multi_match: { query: 'python', fields: ['name', 'summary'], type: 'most_fields' } },
    { multi_match: { query: 'python library', fields: ['name', 'summary'], type: 'cross_fields', operator: 'and' } },
    { multi_match: { query: 'shared lib', fields: ['summ*'], type: 'phrase_prefix' } },
    { multi_match: { query: 'lib', fields: ['name', 'summary'], type: 'bool_prefix' } },
    { match: { 'name.autosuggest': 'lib' } },
    { term: { section: 'libs' } },
    { term: { section: { value: 'LIBS', case_insensitive: true } } },
    { terms: { section: ['libs', 'devel', 'perl'] } },
    { range: { installed_size_kb: { gte: 100, lt: 1000 } } },
    { range: { section: { gte: 'd', lte: 'p' } } },
    { exists: { field: 'tags' } },
    { prefix: { 'name.raw': 'lib' } },
    { wildcard: { 'name.raw': 'lib*-dev' } },
    { regexp: { 'name.raw': 'python3?-[a-z]+' } },
    { fuzzy: { summary: { value: 'pyhton' } } },
    { ids: { values: ['1', '5', '399', 'x'] } },
    { bool: { must: [{ match: { summary: 'library' } }], filter: [{ range: { installed_size_kb: { lt: 500 } } }], must_not: [{ term: { section: 'libs' } }], should: [{ match: { name: 'lib' } }] } },
    { bool: { should: [{ match: { summary: 'perl' } }, { match: { summary: 'python' } }, { match: { summary: 'module' } }], minimum_should_match: 2 } },
    // a minimum that comes to 0 without must or filter clauses: still one should clause (found by the live-search parity property)
    { bool: { should: [{ match: { summary: 'library' } }], minimum_should_match: -1 } },
    { bool: { should: [{ match: { summary: 'library' } }, { match: { summary: 'python' } }], must_not: [{ term: { section: 'libs' } }], minimum_should_match: '-100%' } },
    { constant_score: { filter: { term: { section: 'devel' } } } },
    { dis_max: { queries: [{ match: { summary: 'library' } }, { match: { name: 'lib' } }], tie_breaker: 0.3 } },
    { boosting: { positive: { match: { summary: 'library' } }, negative: { term: { section: 'libs' } }, negative_boost: 0.2 } },
    { function_score: { query: { match: { summary: 'tool' } }, functions: [{ field_value_factor: { field: 'installed_size_kb', modifier: 'log1p', missing: 1 } }], boost_mode: 'sum' } },
    { function_score: { functions: [{ gauss: { installed_size_kb: { origin: 100, scale: 50 } } }], min_score: 0.3 } },
    { nested: { path: 'deps', query: { bool: { must: [{ match: { 'deps.pkg': 'libc6' } }, { term: { 'deps.rank': 0 } }] } } } },
    { geo_distance: { distance: '2000km', loc: { lat: 10, lon: -80 } } },
    { geo_bounding_box: { loc: { top_left: '40,-100', bottom_right: '0,-50' } } },
    { geo_shape: { loc: { shape: { type: 'polygon', coordinates: [[[-100, 0], [-50, 0], [-50, 40], [-100, 0]]] }, relation: 'within' } } },
    { geo_polygon: { loc: { points: [{ lat: 0, lon: -100 }, { lat: 0, lon: -50 }, { lat: 40, lon: -50 }] } } },
    { distance_feature: { field: 'loc', origin: [-80, 10], pivot: '1000km' } },
    { intervals: { summary: { match: { query: 'shared library', max_gaps: 1, ordered: true } } } },
    { intervals: { summary: { all_of: { intervals: [{ prefix: { prefix: 'dev' } }, { match: { query: 'files' } }], max_gaps: 3, filter: { not_containing: { match: { query: 'for' } } } } } } },
    { combined_fields: { query: 'python module', fields: ['name', 'summary'], operator: 'and' } },
    { terms_set: { section: { terms: ['libs', 'devel'], minimum_should_match: 1 } } },
    { span_near: { clauses: [{ span_term: { summary: 'shared' } }, { span_term: { summary: 'library' } }], slop: 1, in_order: true } },
    { span_near: { clauses: [{ span_term: { summary: 'library' } }, { span_term: { summary: 'shared' } }], slop: 2, in_order: false } },
    { span_not: { include: { span_term: { summary: 'library' } }, exclude: { span_term: { summary: 'shared' } }, pre: 1 } },
    { span_first: { match: { span_multi: { match: { prefix: { summary: 'pyth' } } } }, end: 2 } },
    {
      span_containing: {
        big: { span_near: { clauses: [{ span_term: { summary: 'library' } }, { span_term: { summary: 'files' } }], slop: 3 } },
        little: { span_or: { clauses: [{ span_term: { summary: 'development' } }, { span_term: { summary: 'header' } }] } },
      },
    },
  ];

  it('selects the same documents for every query kind', async () => {
    const mapping = (await es.call('GET', '/deb/_mapping')).json.deb.mappings;
    const registry = createAnalysisRegistry(ANALYSIS);
    const now = Date.now();
    let nonTrivial = 0;
    for (const dsl of QUERIES) {
      const r = await es.call('POST', '/deb/_search', { query: dsl, size: 1000, _source: false });
      expect(r.status, JSON.stringify(dsl) + ' ' + r.text.slice(0, 300)).to.equal(200);
      const engineIds = (r.json.hits.hits as Array<{ _id: string }>).map((h) => h._id).sort();
      const q = parseQuery(dsl);
      const matcherIds = docs.map((d, i) => String(i)).filter((id) => documentMatches(q, { id, source: docs[Number(id)] }, { mappings: mapping, registry, now })).sort();
      expect(matcherIds, JSON.stringify(dsl)).to.deep.equal(engineIds);
      if (engineIds.length > 0 && engineIds.length < docs.length) nonTrivial++;
      else if (process.env.PARITY_DEBUG) console.log(engineIds.length, JSON.stringify(dsl));
    }
    expect(nonTrivial).to.be.greaterThan(QUERIES.length - 6);
  });
});
