import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// _explain/{id} beside its explanation: the document's head as a GET gives it (_type included), the
// source under `get` when _source parameters ask for it, and a body of `query` alone.
describe('embedded engine REST: _explain request and response', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/e/_doc/1?refresh=true', { include: { field1: 'v1', field2: 'v2' }, count: 1 });
  });
  after(() => es.close());

  const explain = (params: string, body: unknown = { query: { match_all: {} } }) => es.call('POST', `/e/_explain/1${params}`, body);

  it('answers _index, _type and _id as a GET does, and no get without _source parameters', async () => {
    const r = await explain('');
    expect(r.status).to.equal(200);
    expect(r.json).to.include({ _index: 'e', _type: '_doc', _id: '1', matched: true });
    expect(r.json).not.to.have.property('get');
    const missing = await es.call('POST', '/e/_explain/nope', { query: { match_all: {} } });
    expect(missing.status).to.equal(404);
    expect(missing.json).to.deep.equal({ _index: 'e', _type: '_doc', _id: 'nope', matched: false });
  });

  it('adds the document under get, filtered by _source, _source_includes and _source_excludes', async () => {
    expect((await explain('?_source=true')).json.get).to.deep.include({ found: true, _source: { include: { field1: 'v1', field2: 'v2' }, count: 1 } });
    expect((await explain('?_source=include.field1')).json.get._source).to.deep.equal({ include: { field1: 'v1' } });
    expect((await explain('?_source_includes=include&_source_excludes=*.field2')).json.get._source).to.deep.equal({ include: { field1: 'v1' } });
    expect((await explain('?_source=false')).json).not.to.have.property('get');
  });

  it('refuses a body member other than query, as Elasticsearch does', async () => {
    const r = await explain('', { match_all: {} });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('parsing_exception');
    expect(r.json.error.reason).to.equal('request does not support [match_all]');
  });
});
