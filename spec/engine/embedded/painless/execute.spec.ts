import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('painless: POST /_scripts/painless/_execute', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/my-index-000001', { mappings: { properties: { field: { type: 'keyword' }, rank: { type: 'long' }, '@timestamp': { type: 'date' }, message: { type: 'text' } } } });
  });
  after(() => es.close());

  const execute = (body: unknown) => es.call('POST', '/_scripts/painless/_execute', body);

  it("painless_test (the default): the result as Java's toString (the reference page's example)", async () => {
    let r = await execute('{"script": {"source": "params.count / params.total", "params": {"count": 100.0, "total": 1000.0}}}');
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.deep.equal({ result: '0.1' });
    r = await execute({ script: { source: 'params.count / params.total', params: { count: 100, total: 1000 } } });
    expect(r.json).to.deep.equal({ result: '0' });
    r = await execute({ script: { source: 'def l = [1, 2]; l.add(params.x); l' , params: { x: 'three' } }, context: 'painless_test' });
    expect(r.json).to.deep.equal({ result: '[1, 2, three]' });
    r = await execute({ script: { source: 'null' } });
    expect(r.json).to.deep.equal({ result: 'null' });
  });

  it('filter: runs against a document indexed alone with the index\'s mappings', async () => {
    const r = await execute({
      script: { source: "doc['field'].value.length() <= params.max_length", params: { max_length: 4 } },
      context: 'filter',
      context_setup: { index: 'my-index-000001', document: { field: 'four' } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.deep.equal({ result: true });
  });

  it('score: a document, and the score of an optional query as _score', async () => {
    let r = await execute('{"script": {"source": "doc[\'rank\'].value / params.max_rank", "params": {"max_rank": 5.0}}, "context": "score", "context_setup": {"index": "my-index-000001", "document": {"rank": 4}}}');
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.deep.equal({ result: 0.8 });
    r = await execute({
      script: { source: '_score * 2' }, context: 'score',
      context_setup: { index: 'my-index-000001', document: { message: 'hello world' }, query: { match: { message: 'hello' } } },
    });
    expect(r.json.result).to.be.greaterThan(0);
  });

  it('runtime field contexts give the emitted values', async () => {
    let r = await execute({
      script: { source: "emit(doc['@timestamp'].value.dayOfWeekEnum.getDisplayName(TextStyle.FULL, Locale.ROOT));" },
      context: 'keyword_field',
      context_setup: { index: 'my-index-000001', document: { '@timestamp': '2020-04-30T14:31:43-05:00' } },
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.json).to.deep.equal({ result: ['Thursday'] });
    r = await execute({ script: { source: "emit(doc['rank'].value < 7.5)" }, context: 'boolean_field', context_setup: { index: 'my-index-000001', document: { rank: 7 } } });
    expect(r.json).to.deep.equal({ result: [true] });
    r = await execute({ script: { source: "emit(doc['rank'].value * 2); emit(doc['rank'].value * 3)" }, context: 'long_field', context_setup: { index: 'my-index-000001', document: { rank: 7 } } });
    expect(r.json).to.deep.equal({ result: [14, 21] });
    r = await execute({ script: { source: "emit(doc['@timestamp'].value.toInstant().toEpochMilli() + 86400000L)" }, context: 'date_field', context_setup: { index: 'my-index-000001', document: { '@timestamp': '2020-04-30T14:31:43Z' } } });
    expect(r.json).to.deep.equal({ result: ['2020-05-01T14:31:43.000Z'] });
    r = await execute({ script: { source: "emit(params._source.field.toUpperCase())" }, context: 'keyword_field', context_setup: { index: 'my-index-000001', document: { field: 'abc' } } });
    expect(r.json).to.deep.equal({ result: ['ABC'] });
    r = await execute({ script: { source: 'emit(41.12, -71.34)' }, context: 'geo_point_field', context_setup: { index: 'my-index-000001', document: {} } });
    expect(r.json).to.deep.equal({ result: [{ type: 'Point', coordinates: [-71.34, 41.12] }] });
    r = await execute({ script: { source: 'emit(5)' }, context: 'keyword_field', context_setup: { index: 'my-index-000001', document: {} } });
    expect(r.json.error).to.deep.include({ type: 'script_exception', reason: 'compile error' });
  });

  it('errors: compile errors, missing context_setup, unknown contexts and fields', async () => {
    let r = await execute({ script: { source: 'params.x +' } });
    expect(r.status).to.equal(400);
    expect(r.json.error).to.deep.include({ type: 'script_exception', reason: 'compile error' });
    r = await execute({ script: { source: 'true' }, context: 'filter' });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Validation Failed: 1: index is a required parameter for current context;2: document is a required parameter for current context;');
    r = await execute({ script: { source: 'true' }, context: 'nope' });
    expect(r.status).to.equal(400);
    expect(r.json.error.caused_by).to.deep.equal({ type: 'unsupported_operation_exception', reason: 'unsupported script context name [nope]' });
    r = await execute({ script: { source: 'true' }, junk: 1 });
    expect(r.status).to.equal(400);
    r = await execute({ script: { id: 'stored' } });
    expect(r.json.error.reason).to.equal('Validation Failed: 1: only inline scripts are supported;');
  });
});
