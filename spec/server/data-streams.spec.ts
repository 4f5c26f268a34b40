import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

const BACKING = /^\.ds-logs-app-\d{4}\.\d{2}\.\d{2}-\d{6}$/;

for (const backend of BACKENDS) {
  describe(`data streams through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let logsTenant: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      for (const [name, patterns] of [['logs', ['logs-*']], ['metrics', ['metrics-*']]] as const) {
        const put = await call(gw.url, 'PUT', `/_index_template/${name}`, { body: { index_patterns: patterns, data_stream: {}, priority: 100, template: { settings: { number_of_replicas: 0 } } } });
        expect(put.status, put.text).to.equal(200);
      }
      const other = await call(gw.url, 'POST', '/metrics-db/_doc?refresh=true', { body: { '@timestamp': '2099-03-07T11:04:05.000Z', cpu: 0.5 } });
      expect(other.status, other.text).to.equal(201);
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['logs-*'], categories: ['docs', 'search', 'indices', 'streams'], ops: ['read', 'write', 'delete'] } });
      expect(cred.status, cred.text).to.equal(201);
      logsTenant = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('a credential scoped to logs-* creates, writes, reads and rolls over its data stream, whose backing indices it reaches', async () => {
      const first = await call(gw.url, 'POST', '/logs-app/_doc?refresh=true', { auth: logsTenant, body: { '@timestamp': '2099-03-07T11:04:05.000Z', message: 'one' } });
      expect(first.status, first.text).to.equal(201);
      expect(first.json._index).to.match(BACKING);
      const refused = await call(gw.url, 'PUT', '/logs-app/_doc/1', { auth: logsTenant, body: { '@timestamp': '2099-03-07T11:04:05.000Z' } });
      expect(refused.status).to.equal(400);
      expect(refused.json.error.reason).to.equal('only write ops with an op_type of create are allowed in data streams');
      const searched = await call(gw.url, 'POST', '/logs-app/_search', { auth: logsTenant, body: { query: { match_all: {} } } });
      expect(searched.status, searched.text).to.equal(200);
      expect(searched.json.hits.hits.map((h: { _index: string }) => h._index)).to.deep.equal([first.json._index]);
      const listed = await call(gw.url, 'GET', '/_data_stream/logs-app', { auth: logsTenant });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.json.data_streams[0].name).to.equal('logs-app');
      const rolled = await call(gw.url, 'POST', '/logs-app/_rollover', { auth: logsTenant });
      expect(rolled.status, rolled.text).to.equal(200);
      expect(rolled.json.new_index).to.match(BACKING);
      // the backing index itself, named directly: an update by id
      const updated = await call(gw.url, 'POST', `/${first.json._index}/_update/${first.json._id}`, { auth: logsTenant, body: { doc: { message: 'uno' } } });
      expect(updated.status, updated.text).to.equal(200);
    });

    it('the same credential cannot reach another tenant\'s data stream or its backing indices', async () => {
      const streams = await call(gw.url, 'GET', '/_data_stream/metrics-db');
      const backing = streams.json.data_streams[0].indices[0].index_name;
      for (const [method, path, body] of [
        ['POST', '/metrics-db/_search', { query: { match_all: {} } }],
        ['POST', '/metrics-db/_doc', { '@timestamp': '2099-03-07T11:04:05.000Z' }],
        ['POST', `/${backing}/_search`, { query: { match_all: {} } }],
        ['GET', '/_data_stream/metrics-db', undefined],
        ['DELETE', '/_data_stream/metrics-db', undefined],
        ['POST', '/metrics-db/_rollover', undefined],
      ] as const) {
        const r = await call(gw.url, method, path, { auth: logsTenant, ...(body ? { body } : {}) });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(403);
      }
      // listing every data stream addresses every index: refused to a scoped credential (fail closed)
      expect((await call(gw.url, 'GET', '/_data_stream', { auth: logsTenant })).status).to.equal(403);
      // a wildcard is narrowed to what the credential may see
      const all = await call(gw.url, 'POST', '/*/_search', { auth: logsTenant, body: { query: { match_all: {} } } });
      expect(all.status, all.text).to.equal(200);
      for (const hit of all.json.hits.hits) expect(hit._index).to.match(BACKING);
    });

    it('a live search stream on the data stream name sees documents appended to its backing index', async () => {
      await call(gw.url, 'PUT', '/_data_stream/logs-live');
      const s = await openStream(gw.url, '/logs-live/_search?streamonly=true', { method: 'POST', body: { query: { match: { message: 'hello' } } } });
      try {
        await s.live;
        const written = await call(gw.url, 'POST', '/logs-live/_doc', { body: { '@timestamp': '2099-03-07T11:04:05.000Z', message: 'hello world' } });
        expect(written.json._index).to.match(/^\.ds-logs-live-/);
        await s.until((m) => m.length === 1);
        expect(s.messages[0]).to.deep.include({ _id: written.json._id, _source: { '@timestamp': '2099-03-07T11:04:05.000Z', message: 'hello world' } });
      } finally {
        s.close();
      }
    });
  });
}
