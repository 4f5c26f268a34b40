import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * Index stats' `fielddata` and `completion` sections as Elasticsearch reports them: the memory of
 * the field data a sort or an aggregation loaded (a text field's with fielddata, a keyword's global
 * ordinals unless `execution_hint: map`), held until `_cache/clear` drops it, and the size of the
 * completion fields; each with the figures of the fields named by `fields`, `fielddata_fields` or
 * `completion_fields` (names or patterns).
 */
describe('embedded engine: fielddata and completion stats', () => {
  let es: TestEngine;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const totals = async (query: string): Promise<any> => {
    const r = await es.call('GET', `/_stats${query}`);
    expect(r.status, r.text).to.equal(200);
    return r.json._all.total;
  };

  before(async () => {
    es = await startEngine();
    const text = { type: 'text', fielddata: true, fields: { completion: { type: 'completion' } } };
    const create = await es.call('PUT', '/fd', { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { bar: text, baz: text, tag: { type: 'keyword' } } } });
    expect(create.status, create.text).to.equal(200);
    await es.call('PUT', '/fd/_doc/1', { bar: 'bar', baz: 'baz', tag: 'a' });
    await es.call('PUT', '/fd/_doc/2?refresh=true', { bar: 'foo', baz: 'foo', tag: 'b' });
  });
  after(() => es.close());

  it('completion fields have a size from their first document; no field data before a sort loads it', async () => {
    const t = await totals('');
    expect(t.completion.size_in_bytes).to.be.greaterThan(0);
    expect(t.completion).to.not.have.property('fields');
    expect(t.fielddata).to.deep.equal({ memory_size_in_bytes: 0, evictions: 0, global_ordinals: { build_time_in_millis: 0 } });
  });

  it('a sort loads the text fields\' field data; fields, fielddata_fields and completion_fields name their figures', async () => {
    const sorted = await es.call('POST', '/_search', { sort: ['bar', 'baz'] });
    expect(sorted.status, sorted.text).to.equal(200);
    const all = await totals('?fields=*');
    expect(all.fielddata.memory_size_in_bytes).to.be.greaterThan(0);
    expect(Object.keys(all.fielddata.fields)).to.deep.equal(['bar', 'baz']);
    expect(Object.keys(all.completion.fields)).to.deep.equal(['bar.completion', 'baz.completion']);
    const one = await totals('?fields=bar');
    expect(one.fielddata.fields.bar.memory_size_in_bytes).to.be.greaterThan(0);
    expect(one.fielddata.fields).to.not.have.property('baz');
    expect(one.completion.fields).to.deep.equal({});
    const fielddataOnly = await totals('?fielddata_fields=*r');
    expect(Object.keys(fielddataOnly.fielddata.fields)).to.deep.equal(['bar']);
    expect(fielddataOnly.completion).to.not.have.property('fields');
    const completionOnly = await totals('?completion_fields=*r*');
    expect(Object.keys(completionOnly.completion.fields)).to.deep.equal(['bar.completion']);
    expect(completionOnly.fielddata).to.not.have.property('fields');
    const nodes = await es.call('GET', '/_nodes/stats/indices/fielddata,completion');
    const node = Object.values(nodes.json.nodes)[0] as { indices: { fielddata: { memory_size_in_bytes: number }; completion: { size_in_bytes: number } } };
    expect(node.indices.fielddata.memory_size_in_bytes).to.equal(all.fielddata.memory_size_in_bytes);
    expect(node.indices.completion.size_in_bytes).to.equal(all.completion.size_in_bytes);
    const metric = await es.call('GET', '/_stats/completion?fields=bar*');
    expect(metric.json._all.total).to.not.have.property('fielddata');
    expect(metric.json._all.total.completion.fields['bar.completion'].size_in_bytes).to.be.greaterThan(0);
  });

  it('a keyword\'s global ordinals count unless the terms aggregation maps its values', async () => {
    await es.call('POST', '/_cache/clear');
    await es.call('POST', '/fd/_search', { size: 0, aggs: { t: { terms: { field: 'tag', execution_hint: 'map' } } } });
    expect((await totals('?fielddata_fields=tag')).fielddata.memory_size_in_bytes).to.equal(0);
    await es.call('POST', '/fd/_search', { size: 0, aggs: { t: { terms: { field: 'tag', execution_hint: 'global_ordinals' } } } });
    expect((await totals('?fielddata_fields=tag')).fielddata.fields.tag.memory_size_in_bytes).to.be.greaterThan(0);
  });

  it('a terms aggregation builds global ordinals: their value count per field named, the largest of the indices', async () => {
    await es.call('POST', '/_cache/clear');
    const other = await es.call('PUT', '/fd2', { mappings: { properties: { tag: { type: 'keyword' } } } });
    expect(other.status, other.text).to.equal(200);
    await es.call('PUT', '/fd2/_doc/1?refresh=true', { tag: 'only' });
    expect((await totals('?fields=*')).fielddata.global_ordinals).to.deep.equal({ build_time_in_millis: 0 });
    for (const field of ['tag', 'bar']) {
      const r = await es.call('POST', '/fd,fd2/_search', { size: 0, aggs: { t: { terms: { field } } } });
      expect(r.status, r.text).to.equal(200);
    }
    expect((await totals('')).fielddata.global_ordinals).to.deep.equal({ build_time_in_millis: 0 });
    expect((await totals('?fields=tag,bar')).fielddata.global_ordinals).to.deep.equal({
      build_time_in_millis: 0,
      fields: { bar: { build_time_in_millis: 0, shard_max_value_count: 2 }, tag: { build_time_in_millis: 0, shard_max_value_count: 2 } },
    });
    expect((await totals('?fielddata_fields=b*')).fielddata.global_ordinals.fields).to.have.keys('bar');
    await es.call('DELETE', '/fd2');
  });

  it('_cache/clear drops the field data of the fields named, or all', async () => {
    await es.call('POST', '/_search', { sort: ['bar', 'baz'] });
    const cleared = await es.call('POST', '/_cache/clear?fielddata=true&fields=baz');
    expect(cleared.status, cleared.text).to.equal(200);
    expect(Object.keys((await totals('?fields=bar,baz')).fielddata.fields)).to.deep.equal(['bar']);
    await es.call('POST', '/fd/_cache/clear?query=true');
    expect(Object.keys((await totals('?fields=bar,baz')).fielddata.fields)).to.deep.equal(['bar']);
    await es.call('POST', '/_cache/clear');
    expect((await totals('')).fielddata.memory_size_in_bytes).to.equal(0);
  });
});
