import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * ml-commons' ml_inference search processors on the embedded engine, which hosts no ML model: a
 * pipeline holding one is stored with its options checked, a search it would predict for fails as a
 * missing model does (or goes on unchanged under ignore_failure), and one with nothing to read goes
 * on unchanged under ignore_missing.
 */
describe('ml_inference search processors on the embedded engine', function () {
  this.timeout(60_000);
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/movies/_doc/1?refresh=true', { title: 'Drive' })).status).to.equal(201);
  });
  after(() => es.close());

  const request = (extra: Record<string, unknown>) => ({
    request_processors: [{ ml_inference: { model_id: 'm', function_name: 'remote', max_prediction_tasks: 10, model_config: { return_number: true },
      input_map: [{ inputs: 'query.term.title.value' }], output_map: [{ 'query.term.title.value': 'label' }], ...extra } }],
  });
  const response = (extra: Record<string, unknown>) => ({
    response_processors: [{ ml_inference: { model_id: 'm', override: false, one_to_one: false, input_map: [{ input: 'title' }], output_map: [{ title_embedding: 'data' }], ...extra } }],
  });
  const termQuery = { query: { term: { title: { value: 'drive' } } } };

  it('stores request and response processors as sent', async () => {
    const body = { description: 'd', ...request({ tag: 't', ignore_missing: true, full_response_path: false }), ...response({ ignore_failure: true }) };
    expect((await es.call('PUT', '/_search/pipeline/ml', body)).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', '/_search/pipeline/ml')).json).to.deep.equal({ ml: body });
  });

  it('fails a search it would predict for as a missing model, unless ignore_failure; passes one with no input under ignore_missing', async () => {
    await es.call('PUT', '/_search/pipeline/req', request({}));
    const failed = await es.call('POST', '/movies/_search?search_pipeline=req', termQuery);
    expect(failed.status).to.equal(404);
    expect(failed.json.error).to.include({ type: 'status_exception', reason: 'Failed to find model m' });
    await es.call('PUT', '/_search/pipeline/req', request({ ignore_missing: true }));
    const unread = await es.call('POST', '/movies/_search?search_pipeline=req', { query: { match_all: {} } });
    expect(unread.json.hits.total.value, unread.text).to.equal(1);
    await es.call('PUT', '/_search/pipeline/res', response({ ignore_failure: true }));
    const ignored = await es.call('POST', '/movies/_search?search_pipeline=res', {});
    expect(ignored.json.hits.hits[0]._source).to.deep.equal({ title: 'Drive' });
    await es.call('PUT', '/_search/pipeline/res', response({}));
    expect((await es.call('POST', '/movies/_search?search_pipeline=res', {})).status).to.equal(404);
  });

  it('refuses maps of different lengths and an unknown option', async () => {
    const sizes = await es.call('PUT', '/_search/pipeline/bad', request({ output_map: [{ a: 'b' }, { c: 'd' }] }));
    expect(sizes.status).to.equal(400);
    expect(sizes.json.error.reason).to.include('when output_maps and input_maps are provided, their size need to match');
    const unknown = await es.call('PUT', '/_search/pipeline/bad', request({ nope: 1 }));
    expect(unknown.status).to.equal(400);
  });
});
