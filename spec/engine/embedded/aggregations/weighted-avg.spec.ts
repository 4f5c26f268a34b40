import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/** The weighted_avg aggregation, with the reference page's example (grades weighted). */
describe('embedded engine: weighted_avg aggregation', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const agg = async (body: Record<string, unknown>, index = 'exams'): Promise<any> => {
    const r = await es.call('POST', `/${index}/_search`, { size: 0, aggs: { w: { weighted_avg: body } } });
    expect(r.status, r.text).to.equal(200);
    return r.json.aggregations.w;
  };
  const failure = async (body: Record<string, unknown>) => {
    const r = await es.call('POST', '/exams/_search', { size: 0, aggs: { w: { weighted_avg: body } } });
    return [r.status, r.json.error.type, r.json.error.reason];
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/exams', { mappings: { properties: { grade: { type: 'integer' }, weight: { type: 'double' }, name: { type: 'keyword' } } } });
    const docs = [{ grade: [1, 2, 3], weight: 2 }, { grade: 100 }, { grade: 50, weight: 3 }, { weight: 1 }];
    const lines = docs.flatMap((d, i) => [{ index: { _index: 'exams', _id: String(i + 1) } }, d]);
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  it('∑(value·weight) / ∑weight; each value of a multi-valued field counts with the weight', async () => {
    // (1·2 + 2·2 + 3·2 + 50·3) / (2+2+2+3)
    expect(await agg({ value: { field: 'grade' }, weight: { field: 'weight' } })).to.deep.equal({ value: 162 / 9 });
  });

  it('missing values and weights stand in for documents without them; format gives value_as_string', async () => {
    const out = await agg({ value: { field: 'grade', missing: 10 }, weight: { field: 'weight', missing: 1 }, format: '0.00' });
    const value = (1 * 2 + 2 * 2 + 3 * 2 + 100 * 1 + 50 * 3 + 10 * 1) / (2 + 2 + 2 + 1 + 3 + 1);
    expect(out).to.deep.equal({ value, value_as_string: value.toFixed(2) });
  });

  it('no weighted document: value null', async () => {
    const r = await es.call('POST', '/exams/_search', { size: 0, query: { term: { name: 'nobody' } }, aggs: { w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'weight' } } } } });
    expect(r.json.aggregations.w).to.deep.equal({ value: null });
  });

  it('refusals: several weights in one document, a missing member, unknown fields, non-numeric fields', async () => {
    await es.call('PUT', '/multi-weight/_doc/1?refresh=true', { grade: 1, weight: [1, 2] });
    const r = await es.call('POST', '/multi-weight/_search', { size: 0, aggs: { w: { weighted_avg: { value: { field: 'grade' }, weight: { field: 'weight' } } } } });
    expect(r.text).to.contain('Encountered more than one weight for a single document. Use a script to combine multiple weights-per-doc into a single value.');
    expect(await failure({ value: { field: 'grade' } })).to.deep.equal([400, 'illegal_argument_exception', 'Could not find field name [weight] in multiValuesSource']);
    expect(await failure({ value: { field: 'grade' }, weight: { field: 'weight' }, size: 1 })).to.deep.equal([400, 'parsing_exception', '[weighted_avg] unknown field [size]']);
    const [status, , reason] = await failure({ value: { field: 'name' }, weight: { field: 'weight' } });
    expect([status, reason]).to.deep.equal([400, 'Field [name] of type [keyword] is not supported for aggregation [weighted_avg]']);
  });
});
