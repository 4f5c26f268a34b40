/**
 * A by-query operation's changes are found by looking its documents up before and after (change
 * publishing, lib/interceptors): the look-ups are batches with an event-loop turn between two, so
 * the gateway answers others meanwhile — on the embedded engine a call is a promise chain, and
 * thousands of documents looked up in one chain held everyone (issue 39). On both backends.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call, ndjson } from '../support/http.js';
import { openStream } from '../support/stream-client.js';

const DOCS = 3000;

for (const backend of BACKENDS) {
  describe(`a by-query operation's changes are looked up a batch at a time (${backend.name})`, function () {
    this.timeout(180_000);
    let running: Awaited<ReturnType<typeof backend.start>>;
    let url: string;

    before(async () => {
      running = await backend.start();
      url = running.gateway.url;
      // a large source that is not indexed: the look-ups, not the rewrites, are the work
      const created = await call(url, 'PUT', '/rows', { body: { mappings: { dynamic: false, properties: { n: { type: 'long' } } } } });
      expect(created.status, created.text).to.equal(200);
      const blob = 'x'.repeat(1000);
      const lines: unknown[] = [];
      for (let i = 0; i < DOCS; i++) lines.push({ index: { _index: 'rows', _id: String(i) } }, { n: i, blob });
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
      expect(bulk.json.errors, bulk.text.slice(0, 500)).to.equal(false);
      expect((await call(url, 'PUT', '/small/_doc/1?refresh=true', { body: { a: 1 } })).status).to.equal(201);
    });
    after(() => running.stop());

    it(`a background _update_by_query of ${DOCS} documents: once its task has ended, others are answered while its documents are looked up`, async () => {
      const stream = await openStream(url, '/rows/_search?streamonly=true', { method: 'POST', body: { query: { match_all: {} } } });
      await stream.live;
      const started = await call(url, 'POST', '/rows/_update_by_query?wait_for_completion=false', { body: { script: { source: 'ctx._source.n += 1' } } });
      expect(started.status, started.text).to.equal(200);
      const done = await call(url, 'GET', `/_tasks/${started.json.task}?wait_for_completion=true`);
      expect(done.json.response?.updated, done.text.slice(0, 300)).to.equal(DOCS);
      // The gateway now looks the documents up, then publishes their changes: reads sent one after
      // another until the first change reaches the stream are answered in between.
      let reads = 0;
      while (stream.messages.length === 0) {
        const r = await call(url, 'GET', '/small/_doc/1');
        expect(r.status).to.equal(200);
        if (stream.messages.length === 0) reads++;
      }
      expect(reads, 'reads answered while the changes were looked up').to.be.at.least(3);
      stream.close();
    });
  });
}
