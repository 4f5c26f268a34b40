import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';
import { startEngine } from '../support.js';

/**
 * A stored ingest pipeline keeps the integers past 2^53 its definition was written with, as
 * Elasticsearch keeps the definition's bytes: GET answers them as written, and the documents the
 * pipeline writes them into hold them exactly (a JS number would round 2^53 + 1 to 2^53).
 */
const DEFINITION = '{"description":"big","processors":[{"set":{"field":"n","value":9007199254740993}},' +
  '{"set":{"field":"ns","value":[1234567890123456789,1.5]}}],"_meta":{"serial":12345678901234567890}}';

for (const backend of BACKENDS) {
  describe(`ingest pipelines: integers past 2^53 in a definition (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      const put = await call(url, 'PUT', '/_ingest/pipeline/big', { body: DEFINITION });
      expect(put.status, put.text).to.equal(200);
    });
    after(() => stop());

    it('GET answers the definition as written', async () => {
      const r = await call(url, 'GET', '/_ingest/pipeline/big');
      expect(r.status, r.text).to.equal(200);
      expect(r.text).to.include('"value":9007199254740993').and.include('[1234567890123456789,1.5]').and.include('"serial":12345678901234567890');
    });

    it('a document written through it (index, bulk) holds the exact values', async () => {
      const one = await call(url, 'PUT', '/big/_doc/1?pipeline=big&refresh=true', { body: { a: 1 } });
      expect(one.status, one.text).to.equal(201);
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', {
        body: '{"index":{"_index":"big","_id":"2","pipeline":"big"}}\n{"a":2}\n', headers: { 'content-type': 'application/x-ndjson' },
      });
      expect(bulk.status, bulk.text).to.equal(200);
      expect(bulk.json.errors, bulk.text).to.equal(false);
      for (const id of ['1', '2']) {
        const got = await call(url, 'GET', `/big/_doc/${id}`);
        expect(got.status, got.text).to.equal(200);
        expect(got.text).to.include('"n":9007199254740993').and.include('"ns":[1234567890123456789,1.5]');
      }
    });
  });
}

describe('ingest pipelines: the exact definition survives a restart', function () {
  this.timeout(60_000);
  it('is answered exactly after the engine opens its data again, and forgotten when replaced', async () => {
    let es = await startEngine();
    const dataDir = es.dataDir;
    expect((await es.call('PUT', '/_ingest/pipeline/big', DEFINITION)).status).to.equal(200);
    await es.close(false);
    es = await startEngine({ dataDir });
    try {
      let r = await es.call('GET', '/_ingest/pipeline/big');
      expect(r.text).to.include('"value":9007199254740993').and.include('"serial":12345678901234567890');
      expect((await es.call('PUT', '/_ingest/pipeline/big', { processors: [{ set: { field: 'n', value: 1 } }] })).status).to.equal(200);
      r = await es.call('GET', '/_ingest/pipeline/big');
      expect(r.json).to.deep.equal({ big: { processors: [{ set: { field: 'n', value: 1 } }] } });
    } finally {
      await es.close(true);
    }
  });
});
