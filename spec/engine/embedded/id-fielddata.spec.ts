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

  it('_source and _routing have no field data either (MappedFieldType\'s refusal); _routing stays usable in queries', async () => {
    expect((await es.call('PUT', '/ids/_doc/2?routing=r1&refresh=true', { k: 'b' })).status).to.equal(201);
    for (const field of ['_source', '_routing']) {
      const reason = `Fielddata is not supported on field [${field}] of type [${field}]`;
      for (const body of [{ sort: [field] }, { aggs: { t: { terms: { field } } } }, { aggs: { c: { cardinality: { field } } } }]) {
        const err = await refusalOf(es, 'ids', body);
        expect(err.type, JSON.stringify(body)).to.equal('illegal_argument_exception');
        expect(JSON.stringify(err), JSON.stringify(body)).to.contain(reason);
      }
    }
    const r = await es.call('POST', '/ids/_search', { query: { term: { _routing: 'r1' } } });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
  });
});
