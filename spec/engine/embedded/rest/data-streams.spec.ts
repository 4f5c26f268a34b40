import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

const BACKING_1 = /^\.ds-my-data-stream-\d{4}\.\d{2}\.\d{2}-000001$/;
const BACKING_2 = /^\.ds-my-data-stream-\d{4}\.\d{2}\.\d{2}-000002$/;

describe('embedded engine REST: data streams', () => {
  let es: TestEngine;

  beforeEach(async () => {
    es = await startEngine();
    // "Set up a data stream": an index template with a `data_stream` section.
    const put = await es.call('PUT', '/_index_template/my-index-template', {
      index_patterns: ['my-data-stream*'], data_stream: {}, priority: 500,
      template: { settings: { number_of_replicas: 0 }, mappings: { properties: { message: { type: 'keyword' } } } },
      _meta: { description: 'Template for my time series data' },
    });
    expect(put.json).to.deep.equal({ acknowledged: true });
  });
  afterEach(() => es.close());

  it('creates the stream and its first backing index on the first write, from the template', async () => {
    const first = await es.call('POST', '/my-data-stream/_doc?refresh=true', { '@timestamp': '2099-05-06T16:21:15.000Z', message: '192.0.2.42 - - [06/May/2099:16:21:15 +0000]' });
    expect(first.status).to.equal(201);
    expect(first.json._index).to.match(BACKING_1);
    const { data_streams: [ds] } = (await es.call('GET', '/_data_stream/my-data-stream')).json;
    expect(ds).to.deep.include({
      name: 'my-data-stream', timestamp_field: { name: '@timestamp' }, generation: 1, status: 'GREEN', template: 'my-index-template',
      hidden: false, system: false, allow_custom_routing: false, replicated: false, _meta: { description: 'Template for my time series data' },
    });
    expect(ds.indices).to.have.length(1);
    expect(ds.indices[0].index_name).to.equal(first.json._index);
    const backing = first.json._index as string;
    const mapping = (await es.call('GET', `/${backing}/_mapping`)).json[backing].mappings;
    expect(mapping._data_stream_timestamp).to.deep.equal({ enabled: true });
    expect(mapping.properties['@timestamp']).to.deep.equal({ type: 'date' });
    expect(mapping.properties.message).to.deep.equal({ type: 'keyword' });
    const settings = (await es.call('GET', `/my-data-stream/_settings`)).json[backing].settings.index;
    expect(settings.hidden).to.equal('true');
    expect(settings.number_of_replicas).to.equal('0');
    // Reads on the stream name reach the backing indices; hits name the backing index.
    const hits = (await es.call('GET', '/my-data-stream/_search')).json.hits.hits;
    expect(hits.map((h: { _index: string }) => h._index)).to.deep.equal([backing]);
    expect((await es.call('GET', '/my-data-stream/_count')).json.count).to.equal(1);
  });

  it('takes create writes only, each with exactly one @timestamp', async () => {
    await es.call('PUT', '/_data_stream/my-data-stream');
    const created = await es.call('PUT', '/my-data-stream/_create/bfspvnIBr7VVZlfp2lqX', { '@timestamp': '2099-03-08T11:06:07.000Z', user: { id: '8a4f500d' } });
    expect(created.status).to.equal(201);
    for (const [method, path] of [['PUT', '/my-data-stream/_doc/1'], ['POST', '/my-data-stream/_doc/1?op_type=index']] as const) {
      const refused = await es.call(method, path, { '@timestamp': '2099-03-08T11:06:07.000Z' });
      expect(refused.status).to.equal(400);
      expect(refused.json.error.reason).to.equal('only write ops with an op_type of create are allowed in data streams');
    }
    const missing = await es.call('POST', '/my-data-stream/_doc', { message: 'no time' });
    expect(missing.status).to.equal(400);
    expect(missing.json.error.type).to.equal('document_parsing_exception');
    expect(missing.json.error.caused_by).to.deep.equal({ type: 'illegal_argument_exception', reason: 'data stream timestamp field [@timestamp] is missing' });
    const backing = created.json._index as string;
    const bulk = await es.call('POST', '/_bulk?refresh=true', [
      JSON.stringify({ create: { _index: 'my-data-stream' } }), JSON.stringify({ '@timestamp': '2099-03-07T11:04:05.000Z', message: 'a' }),
      JSON.stringify({ create: { _index: 'my-data-stream' } }), JSON.stringify({ '@timestamp': ['2020-12-12', '2022-12-12'] }),
      JSON.stringify({ index: { _index: 'my-data-stream', _id: 'x' } }), JSON.stringify({ '@timestamp': '2099-03-07T11:04:05.000Z' }),
      JSON.stringify({ create: { _index: backing } }), JSON.stringify({ '@timestamp': '2099-03-07T11:04:05.000Z' }),
      JSON.stringify({ index: { _index: backing } }), JSON.stringify({ '@timestamp': '2099-03-07T11:04:05.000Z' }),
      '',
    ].join('\n'), { 'content-type': 'application/x-ndjson' });
    const items = bulk.json.items;
    expect(items[0].create.result).to.equal('created');
    expect(items[0].create._index).to.equal(backing);
    expect(items[1].create.error.caused_by.reason).to.equal('data stream timestamp field [@timestamp] encountered multiple values');
    expect(items[2].index.error.reason).to.equal('only write ops with an op_type of create are allowed in data streams');
    expect(items[3].create.error.reason).to.equal('index request with op_type=create targeting backing indices is disallowed, target corresponding data stream [my-data-stream] instead');
    expect(items[4].index.error.reason).to.equal('index request with op_type=index and no if_primary_term and if_seq_no set targeting backing indices is disallowed, target corresponding data stream [my-data-stream] instead');
    // "Use a data stream": updates and deletes by id go to the backing index; by-query works on the stream.
    expect((await es.call('DELETE', '/my-data-stream/_doc/bfspvnIBr7VVZlfp2lqX')).status).to.equal(400);
    const doc = (await es.call('GET', `/${backing}/_doc/bfspvnIBr7VVZlfp2lqX`)).json;
    const overwrite = await es.call('PUT', `/${backing}/_doc/bfspvnIBr7VVZlfp2lqX?if_seq_no=${doc._seq_no}&if_primary_term=${doc._primary_term}`, { '@timestamp': '2099-03-08T11:06:07.000Z', user: { id: 'l7gk7f82' } });
    expect(overwrite.json.result).to.equal('updated');
    const ubq = await es.call('POST', '/my-data-stream/_update_by_query?refresh=true', { query: { match: { 'user.id': 'l7gk7f82' } }, script: { source: "ctx._source.user.id = params.new_id", params: { new_id: 'XgdX0NoX' } } });
    expect(ubq.json.updated).to.equal(1);
    const dbq = await es.call('POST', '/my-data-stream/_delete_by_query?refresh=true', { query: { match: { 'user.id': 'XgdX0NoX' } } });
    expect(dbq.json.deleted).to.equal(1);
    expect((await es.call('DELETE', `/${backing}/_doc/${items[0].create._id}?refresh=true`)).json.result).to.equal('deleted');
    expect((await es.call('GET', '/my-data-stream/_count')).json.count).to.equal(0);
  });

  it('answers the data stream APIs as Elasticsearch does: create, get with wildcards, errors, delete', async () => {
    const bad = await es.call('PUT', '/_data_stream/invalid-data-stream%23-name');
    expect(bad.status).to.equal(400);
    expect(bad.json.error).to.deep.include({ type: 'illegal_argument_exception', reason: "data_stream [invalid-data-stream#-name] must not contain '#'" });
    const noTemplate = await es.call('PUT', '/_data_stream/other-stream');
    expect(noTemplate.json.error.reason).to.equal('no matching index template found for data stream [other-stream]');
    expect((await es.call('PUT', '/_data_stream/my-data-stream')).json).to.deep.equal({ acknowledged: true });
    const again = await es.call('PUT', '/_data_stream/my-data-stream');
    expect(again.json.error).to.deep.include({ type: 'resource_already_exists_exception', reason: 'data_stream [my-data-stream] already exists' });
    await es.call('PUT', '/_data_stream/my-data-stream-two');
    expect((await es.call('GET', '/_data_stream')).json.data_streams.map((d: { name: string }) => d.name)).to.deep.equal(['my-data-stream', 'my-data-stream-two']);
    expect((await es.call('GET', '/_data_stream/my-data-stream-t*')).json.data_streams).to.have.length(1);
    expect((await es.call('GET', '/_data_stream/nonexistent*')).json).to.deep.equal({ data_streams: [] });
    expect((await es.call('GET', '/_data_stream/nonexistent')).json.error.type).to.equal('index_not_found_exception');
    const governed = await es.call('PUT', '/my-data-stream-index');
    expect(governed.json.error.reason).to.equal('cannot create index with name [my-data-stream-index], because it matches with template [my-index-template] that creates data streams only, use create data stream api instead');
    const backing = (await es.call('GET', '/_data_stream/my-data-stream')).json.data_streams[0].indices[0].index_name;
    const refused = await es.call('DELETE', `/${backing}`);
    expect(refused.json.error.reason).to.equal(`index [${backing}] is the write index for data stream [my-data-stream] and cannot be deleted`);
    expect((await es.call('DELETE', '/_data_stream/my-data-stream*')).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', `/${backing}`)).status).to.equal(404);
    expect((await es.call('DELETE', '/_data_stream/my-data-stream')).status).to.equal(404);
  });

  it('keeps hidden streams out of wildcards unless expand_wildcards asks for them', async () => {
    await es.call('PUT', '/_index_template/hidden', { index_patterns: ['hidden-data-stream'], data_stream: { hidden: true } });
    await es.call('POST', '/hidden-data-stream/_doc?refresh=true', { '@timestamp': '2020-12-12', foo: 'bar' });
    expect((await es.call('GET', '/_data_stream/*')).json.data_streams).to.deep.equal([]);
    expect((await es.call('GET', '/_data_stream/*?expand_wildcards=hidden')).json.data_streams[0]).to.deep.include({ name: 'hidden-data-stream', hidden: true });
    expect((await es.call('GET', '/hidden-data-*/_search')).json.hits.hits).to.have.length(0);
    expect((await es.call('GET', '/hidden-data-*/_search?expand_wildcards=open,hidden')).json.hits.hits[0]._source).to.deep.equal({ '@timestamp': '2020-12-12', foo: 'bar' });
  });

  it('rolls a stream over to a new write index, under conditions or not, and reports stats', async () => {
    await es.call('PUT', '/_data_stream/my-data-stream');
    await es.call('POST', '/my-data-stream/_doc?refresh=true', { '@timestamp': '2099-03-07T11:04:05.000Z' });
    const notYet = (await es.call('POST', '/my-data-stream/_rollover', { conditions: { max_docs: 2 } })).json;
    expect(notYet).to.deep.include({ rolled_over: false, dry_run: false, conditions: { '[max_docs: 2]': false } });
    expect(notYet.new_index).to.match(BACKING_2);
    const rolled = (await es.call('POST', '/my-data-stream/_rollover', { conditions: { max_docs: 1, max_age: '7d' } })).json;
    expect(rolled).to.deep.include({ acknowledged: true, shards_acknowledged: true, rolled_over: true, dry_run: false, conditions: { '[max_docs: 1]': true, '[max_age: 7d]': false } });
    expect(rolled.old_index).to.match(BACKING_1);
    expect(rolled.new_index).to.match(BACKING_2);
    const written = (await es.call('POST', '/my-data-stream/_doc?refresh=true', { '@timestamp': '2099-03-08T11:04:05.000Z' })).json;
    expect(written._index).to.equal(rolled.new_index);
    const ds = (await es.call('GET', '/_data_stream/my-data-stream')).json.data_streams[0];
    expect(ds.generation).to.equal(2);
    expect(ds.indices.map((i: { index_name: string }) => i.index_name)).to.deep.equal([rolled.old_index, rolled.new_index]);
    expect((await es.call('GET', '/my-data-stream/_count')).json.count).to.equal(2);
    const stats = (await es.call('GET', '/_data_stream/my-data-stream/_stats')).json;
    expect(stats).to.deep.include({ data_stream_count: 1, backing_indices: 2 });
    expect(stats.data_streams[0]).to.deep.include({ data_stream: 'my-data-stream', backing_indices: 2, maximum_timestamp: Date.parse('2099-03-08T11:04:05.000Z') });
    expect(stats.total_store_size_bytes).to.be.greaterThan(0);
    // The old backing index may now go; the stream forgets it.
    expect((await es.call('DELETE', `/${rolled.old_index}`)).json).to.deep.equal({ acknowledged: true });
    expect((await es.call('GET', '/_data_stream/my-data-stream')).json.data_streams[0].indices).to.have.length(1);
  });

  it('rolls an alias over to the next numbered index and moves its write index', async () => {
    await es.call('PUT', '/my-index-000001', { aliases: { 'my-alias': { is_write_index: true } } });
    await es.call('PUT', '/my-alias/_doc/1?refresh=true', { a: 1 });
    const rolled = (await es.call('POST', '/my-alias/_rollover', { conditions: { max_docs: 1 } })).json;
    expect(rolled).to.deep.include({ old_index: 'my-index-000001', new_index: 'my-index-000002', rolled_over: true });
    expect((await es.call('PUT', '/my-alias/_doc/2', { a: 2 })).json._index).to.equal('my-index-000002');
    const aliases = (await es.call('GET', '/_alias/my-alias')).json;
    expect(aliases).to.deep.equal({ 'my-index-000001': { aliases: { 'my-alias': { is_write_index: false } } }, 'my-index-000002': { aliases: { 'my-alias': { is_write_index: true } } } });
    const concrete = await es.call('POST', '/my-index-000001/_rollover');
    expect(concrete.status).to.equal(400);
  });

  it('refuses a rollover whose new index is taken or invalid before reading its conditions, dry run or not', async () => {
    await es.call('PUT', '/logs-1', { aliases: { logs: {} } });
    await es.call('PUT', '/logs-000002');
    for (const dry of ['true', 'false']) {
      const r = await es.call('POST', `/logs/_rollover?dry_run=${dry}`, { conditions: { max_docs: 1 } });
      expect([r.status, r.json.error.type, r.json.error.reason]).to.deep.equal([400, 'resource_already_exists_exception', `index [logs-000002/${r.json.error.index_uuid}] already exists`]);
    }
    const invalid = await es.call('POST', '/logs/_rollover/invalid%7Cname?dry_run=true', { conditions: { max_docs: 1 } });
    expect([invalid.status, invalid.json.error.type]).to.deep.equal([400, 'invalid_index_name_exception']);
    const free = await es.call('POST', '/logs/_rollover/logs-3?dry_run=true', { conditions: { max_docs: 1 } });
    expect(free.json).to.include({ new_index: 'logs-3', rolled_over: false, dry_run: true });
  });

  it('lists data streams in _resolve/index, modifies backing indices, and keeps everything across a restart', async () => {
    await es.call('PUT', '/_data_stream/my-data-stream');
    const resolved = (await es.call('GET', '/_resolve/index/my-data*')).json;
    const backing = resolved.data_streams[0].backing_indices[0];
    expect(resolved.data_streams).to.deep.equal([{ name: 'my-data-stream', backing_indices: [backing], timestamp_field: '@timestamp' }]);
    expect(resolved.indices).to.deep.equal([{ name: backing, attributes: ['hidden', 'open'], data_stream: 'my-data-stream' }]);
    await es.call('PUT', '/old-logs', { mappings: { properties: { '@timestamp': { type: 'date' } } } });
    const modified = await es.call('POST', '/_data_stream/_modify', { actions: [{ add_backing_index: { data_stream: 'my-data-stream', index: 'old-logs' } }] });
    expect(modified.json).to.deep.equal({ acknowledged: true });
    const removeWrite = await es.call('POST', '/_data_stream/_modify', { actions: [{ remove_backing_index: { data_stream: 'my-data-stream', index: backing } }] });
    expect(removeWrite.status).to.equal(400);
    const dataDir = es.dataDir;
    await es.close(false);
    es = await startEngine({ dataDir });
    const ds = (await es.call('GET', '/_data_stream/my-data-stream')).json.data_streams[0];
    expect(ds.indices.map((i: { index_name: string }) => i.index_name)).to.deep.equal(['old-logs', backing]);
    expect((await es.call('POST', '/my-data-stream/_doc', { '@timestamp': '2099-03-08T11:04:05.000Z' })).json._index).to.equal(backing);
  });
});
