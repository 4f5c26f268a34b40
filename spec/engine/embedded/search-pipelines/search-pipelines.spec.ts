import { expect } from 'chai';
import { NDJSON } from '../../../support/http.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/**
 * OpenSearch's search pipelines (2.9+) on the embedded engine: the `_search/pipeline` API, durable
 * like ingest pipelines, and searches run through one (named, temporary, or an index's default).
 */
describe('search pipelines on the embedded engine', function () {
  this.timeout(60_000);
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    const docs = [
      { title: 'Moneyball', year: 2011, genre: 'drama', tags: 'b,a,c' },
      { title: 'Drive', year: 1960, genre: 'crime', tags: 'z,y' },
      { title: 'Heat', year: 1995, genre: 'crime', tags: 'q' },
    ];
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(docs.flatMap((d, i) => [{ index: { _index: 'movies', _id: String(i + 1) } }, d])), NDJSON);
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  const search = async (path: string, body?: unknown) => {
    const r = await es.call(body === undefined ? 'GET' : 'POST', path, body);
    return r;
  };
  const titles = (r: { json: any }) => (r.json.hits.hits as Array<{ _source: { title: string } }>).map((h) => h._source.title);

  it('stores a pipeline durably, answers it by id, by wildcard and all, and deletes it (404 shapes as OpenSearch)', async () => {
    const body = { description: 'old films', request_processors: [{ filter_query: { tag: 't', description: 'd', query: { range: { year: { lte: 2000 } } } } }] };
    expect((await es.call('PUT', '/_search/pipeline/old-films', body)).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('PUT', '/_search/pipeline/empty', {})).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', '/_search/pipeline/old-films')).json).to.deep.equal({ 'old-films': body });
    expect(Object.keys((await es.call('GET', '/_search/pipeline/old-*')).json)).to.deep.equal(['old-films']);
    expect(Object.keys((await es.call('GET', '/_search/pipeline')).json)).to.deep.equal(['empty', 'old-films']);
    const missing = await es.call('GET', '/_search/pipeline/nope');
    expect([missing.status, missing.json]).to.deep.equal([404, {}]);

    const dataDir = es.dataDir;
    await es.close(false);
    es = await startEngine({ dataDir });
    expect((await es.call('GET', '/_search/pipeline/old-films')).json).to.deep.equal({ 'old-films': body });
    expect(titles(await search('/movies/_search?search_pipeline=old-films')).sort()).to.deep.equal(['Drive', 'Heat']);

    expect((await es.call('DELETE', '/_search/pipeline/empty')).json).to.deep.equal({ acknowledged: true });
    const gone = await es.call('DELETE', '/_search/pipeline/empty');
    expect(gone.status).to.equal(404);
    expect(gone.json.error).to.include({ type: 'resource_not_found_exception', reason: 'pipeline [empty] is missing' });
    await es.close(false);
    es = await startEngine({ dataDir });
    expect(Object.keys((await es.call('GET', '/_search/pipeline')).json)).to.deep.equal(['old-films']);
  });

  it('refuses an unknown processor type, a processor option it does not read, and a missing required one', async () => {
    const unknown = await es.call('PUT', '/_search/pipeline/bad', { response_processors: [{ rerank: { ml_opensearch: { model_id: 'm' } } }] });
    expect(unknown.status).to.equal(400);
    expect(unknown.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Invalid processor type rerank' });
    const extra = await es.call('PUT', '/_search/pipeline/bad', { response_processors: [{ rename_field: { field: 'a', target_field: 'b', nope: 1 } }] });
    expect(extra.status).to.equal(400);
    expect(extra.json.error.reason).to.equal('processor [rename_field] doesn\'t support one or more provided configuration parameters [nope]');
    const required = await es.call('PUT', '/_search/pipeline/bad', { response_processors: [{ rename_field: { field: 'a' } }] });
    expect(required.status).to.equal(400);
    expect(required.json.error).to.include({ type: 'parse_exception', reason: '[target_field] required property is missing' });
    expect((await es.call('GET', '/_search/pipeline/bad')).status).to.equal(404);
  });

  it('runs the pipeline named by the parameter or the body, a temporary one, the index default; _none runs none', async () => {
    await es.call('PUT', '/_search/pipeline/crime', { request_processors: [{ filter_query: { query: { term: { genre: 'crime' } } } }] });
    expect(titles(await search('/movies/_search?search_pipeline=crime')).sort()).to.deep.equal(['Drive', 'Heat']);
    expect(titles(await search('/movies/_search', { search_pipeline: 'crime', query: { match: { title: 'heat' } } }))).to.deep.equal(['Heat']);
    const inline = await search('/movies/_search', { search_pipeline: { request_processors: [{ filter_query: { query: { term: { genre: 'drama' } } } }] } });
    expect(titles(inline)).to.deep.equal(['Moneyball']);
    const both = await search('/movies/_search?search_pipeline=crime', { search_pipeline: { request_processors: [] } });
    expect(both.status).to.equal(400);
    expect(both.json.error.reason).to.equal('Both named and inline search pipeline were specified. Please only specify one or the other.');
    const undefinedOne = await search('/movies/_search?search_pipeline=nope');
    expect(undefinedOne.status).to.equal(400);
    expect(undefinedOne.json.error).to.include({ type: 'illegal_argument_exception', reason: 'Pipeline nope is not defined' });

    expect((await es.call('PUT', '/movies/_settings', { index: { search: { default_pipeline: 'crime' } } })).status).to.equal(200);
    expect(titles(await search('/movies/_search')).sort()).to.deep.equal(['Drive', 'Heat']);
    expect(titles(await search('/movies/_search?search_pipeline=_none'))).to.have.length(3);
    // a default pipeline is the one index's a request names
    expect(titles(await search('/movies,nothing*/_search'))).to.have.length(3);
    expect((await es.call('PUT', '/movies/_settings', { index: { search: { default_pipeline: null } } })).status).to.equal(200);
    expect(titles(await search('/movies/_search'))).to.have.length(3);

    const msearch = await es.call('POST', '/_msearch', ndjson([{ index: 'movies' }, { search_pipeline: 'crime' }, { index: 'movies' }, {}]), NDJSON);
    expect(msearch.json.responses.map((r: any) => r.hits.total.value)).to.deep.equal([2, 3]);
  });

  it('processors: script, rename_field, split and sort, collapse, oversample then truncate_hits; ignore_failure', async () => {
    const run = (processors: unknown, extra: Record<string, unknown> = {}) => search('/movies/_search', { sort: [{ year: 'asc' }], ...extra, search_pipeline: processors });
    const renamed = await run({ response_processors: [{ rename_field: { field: 'title', target_field: 'name' } }] });
    expect(renamed.json.hits.hits[0]._source).to.deep.equal({ name: 'Drive', year: 1960, genre: 'crime', tags: 'z,y' });
    const missing = await run({ response_processors: [{ rename_field: { field: 'nope', target_field: 'x' } }] });
    expect(missing.status).to.equal(400);
    expect(missing.json.error.reason).to.equal('Document with id 2 is missing field nope');
    expect((await run({ response_processors: [{ rename_field: { field: 'nope', target_field: 'x', ignore_failure: true } }] })).status).to.equal(200);
    expect((await run({ response_processors: [{ rename_field: { field: 'nope', target_field: 'x', ignore_missing: true } }] })).status).to.equal(200);

    const sorted = await run({ response_processors: [{ split: { field: 'tags', separator: ',', target_field: 'tag_list' } }, { sort: { field: 'tag_list', order: 'desc' } }] });
    expect(sorted.json.hits.hits.map((h: any) => h._source.tag_list)).to.deep.equal([['z', 'y'], ['q'], ['c', 'b', 'a']]);

    const collapsed = await run({ response_processors: [{ collapse: { field: 'genre' } }] });
    expect(titles(collapsed)).to.deep.equal(['Drive', 'Moneyball']);

    const truncated = await run({ request_processors: [{ oversample: { sample_factor: 3 } }], response_processors: [{ collapse: { field: 'genre' } }, { truncate_hits: {} }] }, { size: 1 });
    expect(titles(truncated)).to.deep.equal(['Drive']);
    const byUrl = await es.call('POST', '/movies/_search?size=1', { sort: [{ year: 'asc' }], search_pipeline: { request_processors: [{ oversample: { sample_factor: 2 } }] } });
    expect(titles(byUrl)).to.deep.equal(['Drive', 'Heat']);
    // the script request processor changes the request fields OpenSearch lets it (here size and explain)
    const scripted = await run({ request_processors: [{ script: { lang: 'painless', source: "if (ctx._source['size'] > 1) { ctx._source['size'] = 1; ctx._source['explain'] = true }" } }] }, { size: 3 });
    expect(titles(scripted)).to.deep.equal(['Drive']);
    expect(scripted.json.hits.hits[0]._explanation).to.be.an('object');
    const unsized = await run({ request_processors: [{ script: { source: "if (ctx._source['size'] < 0) { ctx._source['size'] = 2 }" } }] });
    expect(titles(unsized)).to.deep.equal(['Drive', 'Heat']);
    const badScript = await es.call('PUT', '/_search/pipeline/bad', { request_processors: [{ script: { lang: 'painless' } }] });
    expect(badScript.status).to.equal(400);
    expect(badScript.json.error.reason).to.equal('[source] required property is missing');
    const noTarget = await run({ response_processors: [{ truncate_hits: {} }] });
    expect(noTarget.status).to.equal(400);
    expect(titles(await run({ response_processors: [{ truncate_hits: { target_size: 2 } }] }))).to.deep.equal(['Drive', 'Heat']);
  });
});
