import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/** significant_terms and significant_text, with the reference page's crime reports. */
describe('embedded engine: significant_terms and significant_text', () => {
  let es: TestEngine;
  const aggs = (index: string, body: Record<string, unknown>, params = '') => aggregationsOf(es, index, body, params);
  const error = (index: string, body: Record<string, unknown>) => refusalOf(es, index, body);
  const btp = { terms: { force: ['British Transport Police'] } };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/reports', { mappings: { properties: { force: { type: 'keyword' }, crime_type: { type: 'keyword' }, code: { type: 'long' }, rate: { type: 'double' } } } });
    const docs = [
      ['British Transport Police', 'Bicycle theft', 1], ['British Transport Police', 'Bicycle theft', 1], ['British Transport Police', 'Bicycle theft', 1],
      ['British Transport Police', 'Robbery', 2], ['Metropolitan Police Service', 'Robbery', 2], ['Metropolitan Police Service', 'Bicycle theft', 1],
      ['Metropolitan Police Service', 'Robbery', 2], ['Metropolitan Police Service', 'Robbery', 2],
    ];
    const lines: unknown[] = [];
    docs.forEach(([force, crime, code], i) => lines.push({ index: { _index: 'reports', _id: String(i) } }, { force, crime_type: crime, code, rate: 0.5 }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    await es.call('PUT', '/news', { mappings: { properties: { content: { type: 'text' } } } });
    const news = [
      'elasticsearch is a search engine built on lucene', 'lucene is a search library', 'the elasticsearch search engine scales',
      'cats and dogs are pets', 'elasticsearch clusters with search engine nodes',
    ];
    const newsLines: unknown[] = [];
    news.forEach((content, i) => newsLines.push({ index: { _index: 'news', _id: String(i + 1) } }, { content }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(newsLines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  it('single-set analysis: the foreground (query hits) against the index (JLH)', async () => {
    const r = await aggs('reports', { query: btp, aggregations: { significant_crime_types: { significant_terms: { field: 'crime_type' } } } });
    // Bicycle theft: 3/4 in the foreground, 4/8 in the background → (0.75 − 0.5) · (0.75 / 0.5)
    expect(r).to.deep.equal({
      significant_crime_types: { doc_count: 4, bg_count: 8, buckets: [{ key: 'Bicycle theft', doc_count: 3, score: 0.375, bg_count: 4 }] },
    });
  });

  it('multi-set analysis under a terms aggregation, with typed keys', async () => {
    const r = await aggs('reports', { aggregations: { forces: { terms: { field: 'force' }, aggregations: { significantCrimeTypes: { significant_terms: { field: 'crime_type' } } } } } }, '?typed_keys');
    const buckets = r['sterms#forces'].buckets;
    expect(buckets.map((b: Record<string, unknown>) => [b.key, b['sigsterms#significantCrimeTypes']])).to.deep.equal([
      ['British Transport Police', { doc_count: 4, bg_count: 8, buckets: [{ key: 'Bicycle theft', doc_count: 3, score: 0.375, bg_count: 4 }] }],
      ['Metropolitan Police Service', { doc_count: 4, bg_count: 8, buckets: [{ key: 'Robbery', doc_count: 3, score: 0.375, bg_count: 4 }] }],
    ]);
  });

  it('min_doc_count (default 3), size and a background_filter', async () => {
    let r = await aggs('reports', { query: { term: { crime_type: 'Robbery' } }, aggregations: { s: { significant_terms: { field: 'force', min_doc_count: 1 } } } });
    expect(r.s.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['Metropolitan Police Service']);
    r = await aggs('reports', { query: btp, aggregations: { s: { significant_terms: { field: 'crime_type', background_filter: { term: { force: 'Metropolitan Police Service' } } } } } });
    expect(r.s).to.deep.equal({ doc_count: 4, bg_count: 4, buckets: [{ key: 'Bicycle theft', doc_count: 3, score: 1.5, bg_count: 1 }] });
  });

  it('heuristics: percentage, chi_square, gnd, mutual_information', async () => {
    const r = await aggs('reports', {
      query: btp,
      aggregations: {
        p: { significant_terms: { field: 'crime_type', min_doc_count: 1, percentage: {} } },
        chi: { significant_terms: { field: 'crime_type', min_doc_count: 1, chi_square: {} } },
        gnd: { significant_terms: { field: 'crime_type', min_doc_count: 1, gnd: {} } },
        mi: { significant_terms: { field: 'crime_type', min_doc_count: 1, mutual_information: { include_negatives: false } } },
      },
    });
    expect(r.p.buckets.map((b: { key: string; score: number }) => [b.key, b.score])).to.deep.equal([['Bicycle theft', 0.75], ['Robbery', 0.25]]);
    // chi² of the 2×2 table [[3, 1], [1, 3]] over 8 documents
    expect(r.chi.buckets).to.deep.equal([{ key: 'Bicycle theft', doc_count: 3, score: 2, bg_count: 4 }]);
    expect(r.gnd.buckets[0].key).to.equal('Bicycle theft');
    expect(r.mi.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['Bicycle theft']);
  });

  it('numeric fields key by number; unmapped fields answer no buckets', async () => {
    const r = await aggs('reports', { query: btp, aggregations: { s: { significant_terms: { field: 'code' } }, u: { significant_terms: { field: 'nope' } } } }, '?typed_keys');
    expect(r['siglterms#s'].buckets).to.deep.equal([{ key: 1, doc_count: 3, score: 0.375, bg_count: 4 }]);
    expect(r['sigsterms#u']).to.deep.equal({ buckets: [] });
  });

  it('ip fields: keys as addresses; include and exclude name addresses in any spelling; no regular expressions', async () => {
    await es.call('PUT', '/ips', { mappings: { properties: { ip: { type: 'ip' } } } });
    await es.call('PUT', '/ips/_doc/1', { ip: '::1' });
    await es.call('PUT', '/ips/_doc/2?refresh=true', {});
    const sig = (extra: Record<string, unknown>) => ({ query: { exists: { field: 'ip' } }, aggs: { ip_terms: { significant_terms: { field: 'ip', min_doc_count: 1, ...extra } } } });
    const bucket = { key: '::1', doc_count: 1, score: 1, bg_count: 1 };
    expect((await aggs('ips', sig({}))).ip_terms.buckets).to.deep.equal([bucket]);
    expect((await aggs('ips', sig({ include: ['::1'] }))).ip_terms.buckets).to.deep.equal([bucket]);
    expect((await aggs('ips', sig({ include: ['0:0:0:0:0:0:0:1'] }))).ip_terms.buckets).to.deep.equal([bucket]);
    expect((await aggs('ips', sig({ exclude: ['::1'] }))).ip_terms.buckets).to.deep.equal([]);
    expect((await error('ips', sig({ exclude: '127.*' }))).reason).to.equal(
      'Aggregation [ip_terms] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses');
  });

  it('refuses floating point fields, two heuristics and scripted heuristics', async () => {
    let e = await error('reports', { aggregations: { s: { significant_terms: { field: 'rate' } } } });
    expect([e.type, e.reason]).to.deep.equal(['illegal_argument_exception', 'No support for examining floating point numerics']);
    e = await error('reports', { aggregations: { s: { significant_terms: { field: 'force', jlh: {}, gnd: {} } } } });
    expect(e.type).to.equal('parsing_exception');
    e = await error('reports', { aggregations: { s: { significant_terms: { field: 'force', script_heuristic: { script: 'params._subset_freq' } } } } });
    expect(e.type).to.equal('illegal_argument_exception');
    e = await error('reports', { aggregations: { s: { significant_terms: {} } } });
    expect(e.reason).to.equal('Required one of fields [field, script], but none were specified. ');
  });

  it('significant_text: the analyzed terms of a text field, without fielddata', async () => {
    const r = await aggs('news', { query: { match: { content: 'elasticsearch' } }, aggregations: { keywords: { significant_text: { field: 'content', min_doc_count: 2 } } } }, '?typed_keys');
    const result = r['sigsterms#keywords'];
    expect(result.doc_count).to.equal(3);
    expect(result.bg_count).to.equal(5);
    expect(result.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['elasticsearch', 'engine', 'search']);
    expect(result.buckets[0]).to.deep.equal({ key: 'elasticsearch', doc_count: 3, score: (1 - 3 / 5) * (1 / (3 / 5)), bg_count: 3 });
  });
  it('significant_text filter_duplicate_text: tokens of a run of 6 already seen in the bucket count once; a repeated run of 5 counts each time', async () => {
    await es.call('PUT', '/pasted', { mappings: { properties: { content: { type: 'text' } } } });
    const texts = [
      'alpha x1 one two three four five six', 'alpha x2 one two three four five six', 'alpha x3 one two three four five six',
      'alpha x4 red green blue cyan magenta', 'alpha x5 red green blue cyan magenta', 'omega other words here', 'zeta filler words',
    ];
    const lines: unknown[] = [];
    texts.forEach((content, i) => lines.push({ index: { _index: 'pasted', _id: String(i) } }, { content }));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    const counts = async (filterDuplicateText: boolean) => {
      const r = await aggs('pasted', { query: { match: { content: 'alpha' } }, aggregations: { t: { significant_text: { field: 'content', min_doc_count: 2, size: 20, filter_duplicate_text: filterDuplicateText } } } });
      return Object.fromEntries(r.t.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count]));
    };
    const run5 = { red: 2, green: 2, blue: 2, cyan: 2, magenta: 2 };
    expect(await counts(false)).to.deep.equal({ alpha: 5, one: 3, two: 3, three: 3, four: 3, five: 3, six: 3, ...run5 });
    expect(await counts(true)).to.deep.equal({ alpha: 5, ...run5 });
  });
});
