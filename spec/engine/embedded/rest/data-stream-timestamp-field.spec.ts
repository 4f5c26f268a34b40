import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// OpenSearch's data streams may take their timestamp from another field than `@timestamp`: the
// template's `data_stream.timestamp_field.name`. Every document of the stream carries exactly one
// value of that field; the stream, _resolve and the stats name it. Without it, `@timestamp` as
// Elasticsearch 8 has it (and the meta field as ES 8 shows it).
describe('embedded engine REST: a data stream\'s own timestamp field (OpenSearch timestamp_field)', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/_index_template/nginx', { index_patterns: ['logs-*'], data_stream: { timestamp_field: { name: 'request_time' } }, priority: 100 });
    await es.call('PUT', '/_index_template/plain', { index_patterns: ['metrics-*'], data_stream: {}, priority: 100 });
  });
  after(() => es.close());

  it('takes documents by the field the template names and refuses those without it', async () => {
    expect((await es.call('PUT', '/_data_stream/logs-nginx')).status).to.equal(200);
    const written = await es.call('POST', '/logs-nginx/_doc?refresh=true', { message: 'login failed', request_time: '2013-03-01T00:00:00' });
    expect(written.status, written.text).to.equal(201);
    const missing = await es.call('POST', '/logs-nginx/_doc', { message: 'no time', '@timestamp': '2013-03-01T00:00:00' });
    expect(missing.status).to.equal(400);
    expect(missing.json.error.reason).to.equal('failed to parse: data stream timestamp field [request_time] is missing');

    const stream = (await es.call('GET', '/_data_stream/logs-nginx')).json.data_streams[0];
    expect(stream.timestamp_field).to.deep.equal({ name: 'request_time' });
    const backing = stream.indices[0].index_name;
    const mappings = (await es.call('GET', `/${backing}/_mapping`)).json[backing].mappings;
    expect(mappings._data_stream_timestamp).to.deep.equal({ enabled: true, timestamp_field: { name: 'request_time' } });
    expect(mappings.properties.request_time).to.deep.equal({ type: 'date' });
    expect((await es.call('GET', '/_resolve/index/logs-nginx')).json.data_streams[0].timestamp_field).to.equal('request_time');
    const stats = (await es.call('GET', '/_data_stream/logs-nginx/_stats')).json.data_streams[0];
    expect(stats.maximum_timestamp).to.equal(Date.parse('2013-03-01T00:00:00Z'));

    // a rollover's new backing index keeps the field
    expect((await es.call('POST', '/logs-nginx/_rollover')).status).to.equal(200);
    expect((await es.call('POST', '/logs-nginx/_doc', { request_time: '2014-01-01T00:00:00' })).status).to.equal(201);
  });

  it('keeps @timestamp and Elasticsearch\'s meta field when the template names none', async () => {
    expect((await es.call('PUT', '/_data_stream/metrics-a')).status).to.equal(200);
    const stream = (await es.call('GET', '/_data_stream/metrics-a')).json.data_streams[0];
    expect(stream.timestamp_field).to.deep.equal({ name: '@timestamp' });
    const backing = stream.indices[0].index_name;
    expect((await es.call('GET', `/${backing}/_mapping`)).json[backing].mappings._data_stream_timestamp).to.deep.equal({ enabled: true });
    expect((await es.call('POST', '/metrics-a/_doc', { value: 1 })).json.error.reason).to.equal('failed to parse: data stream timestamp field [@timestamp] is missing');
  });
});
