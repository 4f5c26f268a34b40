import { expect } from 'chai';
import { refusalOf, startEngine, type TestEngine } from './support.js';

/**
 * `_id` has no fielddata in Elasticsearch 8 (indices.id_field_data.enabled defaults to false):
 * sorting or aggregating on it is refused with IdFieldMapper's message. The engine answered
 * "No mapping found for [_id] in order to sort on", and a terms aggregation on _id gave no buckets.
 */
describe('embedded engine: sorting and aggregating on _id', () => {
  let es: TestEngine;
  const reason = 'Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled';
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/ids/_doc/1?refresh=true', { k: 'a' })).status).to.equal(201);
  });
  after(() => es.close());

  it('sort on _id is refused', async () => {
    const err = await refusalOf(es, 'ids', { size: 10, sort: ['_id'] });
    expect(err.type).to.equal('illegal_argument_exception');
    expect(JSON.stringify(err)).to.contain(reason);
  });

  it('a terms aggregation on _id is refused; _id stays usable in queries', async () => {
    const err = await refusalOf(es, 'ids', { aggs: { t: { terms: { field: '_id' } } } });
    expect(JSON.stringify(err)).to.contain(reason);
    const r = await es.call('POST', '/ids/_search', { query: { terms: { _id: ['1'] } }, sort: ['k.keyword'] });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.total.value).to.equal(1);
  });
});
