/**
 * Legal but heavy writes are done, and done in time proportional to their size: a credential
 * naming 100,000 index patterns, a document of 10,000 fields on an index whose field limit was
 * raised, a document through a 1..100000 ngram filter; the documents are prepared a time slice at
 * a time, so the engine answers others meanwhile. On both backends (what they cost other requests
 * in latency is bench:isolation's to measure).
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { expectAnsweredThroughout, readsDuring } from '../support/answered-meanwhile.js';
import { basic, call, type Reply } from '../support/http.js';

/** One value of 1,040 characters through a 1..100000 ngram filter: 541,320 grams (seconds of indexing in one piece). */
const NGRAM_TEXT = 'abcdefghijklmnopqrstuvwxyz'.repeat(40);
const NGRAM_INDEX = {
  settings: { 'index.max_ngram_diff': 100_000, analysis: { filter: { grams: { type: 'ngram', min_gram: 1, max_gram: 100_000 } }, analyzer: { grams: { tokenizer: 'keyword', filter: ['grams'] } } } },
  mappings: { properties: { text: { type: 'text', analyzer: 'grams' } } },
};

for (const backend of BACKENDS) {
  describe(`heavy but legal writes (${backend.name})`, function () {
    this.timeout(120_000);

    it('a credential naming 100,000 index patterns is created, and reads what its patterns match', async () => {
      const { gateway, stop } = await backend.start();
      try {
        expect((await call(gateway.url, 'PUT', '/tenant-99999-a/_doc/1?refresh=true', { body: { a: 1 } })).status).to.equal(201);
        expect((await call(gateway.url, 'PUT', '/other/_doc/1?refresh=true', { body: { a: 1 } })).status).to.equal(201);
        const patterns = Array.from({ length: 100_000 }, (_, i) => `tenant-${i}-*`);
        const created = await call(gateway.url, 'POST', '/_credentials', { body: { indices: [...patterns, 'tenant-0-*'], ops: ['read'], categories: ['search', 'docs'] } });
        expect(created.status, created.text.slice(0, 300)).to.equal(201);
        expect(created.json.credential.indices).to.have.length(100_000);
        const auth = basic(created.json.credential.username, created.json.password);
        const inside = await call(gateway.url, 'GET', '/tenant-99999-a/_doc/1', { auth });
        expect(inside.status, inside.text.slice(0, 300)).to.equal(200);
        const outside = await call(gateway.url, 'GET', '/other/_doc/1', { auth });
        expect(outside.status).to.equal(403);
      } finally {
        await stop();
      }
    });

    it('a credential naming 100,000 index patterns is created while the gateway answers other reads', async () => {
      const { gateway, stop } = await backend.start();
      try {
        const url = gateway.url;
        expect((await call(url, 'PUT', '/small/_doc/1', { body: { a: 1 } })).status).to.equal(201);
        const patterns = Array.from({ length: 100_000 }, (_, i) => `tenant-${i}-*`);
        // several in a row, so that the reads meet every step of a creation (classified, validated, stored, announced, answered)
        const created = await readsDuring(url, '/small/_doc/1', async () => {
          let last: Reply | undefined;
          for (let i = 0; i < 4; i++) {
            last = await call(url, 'POST', '/_credentials', { body: { indices: patterns, ops: ['read'], categories: ['docs'] } });
            if (last.status !== 201) break;
          }
          return last!;
        });
        expect(created.heavy.status, created.heavy.text.slice(0, 300)).to.equal(201);
        expect(created.heavy.json.credential.indices).to.have.length(100_000);
        expectAnsweredThroughout(created, 'four 100,000-pattern credentials');
      } finally {
        await stop();
      }
    });

    it('a 10,000-field document on an index whose field limit was raised is indexed and searchable by its last field', async () => {
      const { gateway, stop } = await backend.start();
      try {
        expect((await call(gateway.url, 'PUT', '/wide', { body: { settings: { 'index.mapping.total_fields.limit': 20_000 } } })).status).to.equal(200);
        const doc = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field_${i}`, i % 7]));
        const put = await call(gateway.url, 'PUT', '/wide/_doc/1?refresh=true', { body: doc });
        expect(put.status, put.text.slice(0, 300)).to.equal(201);
        const again = await call(gateway.url, 'PUT', '/wide/_doc/2?refresh=true', { body: { ...doc, field_9999: 100 } });
        expect(again.status).to.equal(201);
        const found = await call(gateway.url, 'POST', '/wide/_search', { body: { query: { term: { field_9999: 9999 % 7 } } } });
        expect(found.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
        const shared = await call(gateway.url, 'POST', '/wide/_search', { body: { query: { term: { field_9998: 9998 % 7 } } } });
        expect(shared.json.hits.total.value).to.equal(2);
      } finally {
        await stop();
      }
    });

    it('documents of 541,320 grams and of 10,000 fields are indexed while the engine answers other reads, with the usual semantics', async () => {
      const { gateway, stop } = await backend.start();
      try {
        const url = gateway.url;
        expect((await call(url, 'PUT', '/small/_doc/1', { body: { a: 1 } })).status).to.equal(201);
        expect((await call(url, 'PUT', '/ngrams', { body: NGRAM_INDEX })).status).to.equal(200);
        expect((await call(url, 'PUT', '/wide', { body: { settings: { 'index.mapping.total_fields.limit': 20_000 } } })).status).to.equal(200);

        // a create of the same id sent while the heavy one is prepared: one of them conflicts
        let second: Promise<Reply> | undefined;
        const ngram = await readsDuring(url, '/small/_doc/1', () => {
          const first = call(url, 'PUT', '/ngrams/_create/n1?refresh=true', { body: { text: NGRAM_TEXT } });
          second = call(url, 'PUT', '/ngrams/_create/n1', { body: { text: 'short' } });
          return first;
        });
        const other = await second!;
        expect(ngram.heavy.status, ngram.heavy.text.slice(0, 300)).to.equal(201);
        expect(other.status).to.equal(409);
        expect(other.json.error.type).to.equal('version_conflict_engine_exception');
        expectAnsweredThroughout(ngram, 'the ngram document');
        const grams = await call(url, 'POST', '/ngrams/_search', { body: { query: { term: { text: 'xyzabc' } } } });
        expect(grams.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['n1']);
        const got = await call(url, 'GET', '/ngrams/_doc/n1');
        expect(got.json._version).to.equal(1);
        expect(got.json._source.text).to.equal(NGRAM_TEXT);

        const fields = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field_${i}`, i]));
        const wide = await readsDuring(url, '/small/_doc/1', () => call(url, 'PUT', '/wide/_doc/w1?refresh=wait_for', { body: fields }));
        expect(wide.heavy.status, wide.heavy.text.slice(0, 300)).to.equal(201);
        expectAnsweredThroughout(wide, 'the 10,000-field document');
        const found = await call(url, 'POST', '/wide/_search', { body: { query: { term: { field_9999: 9999 } } } });
        expect(found.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['w1']);
        const mapping = await call(url, 'GET', '/wide/_mapping/field/field_9999');
        expect(mapping.json.wide.mappings.field_9999.mapping.field_9999.type).to.equal('long');
      } finally {
        await stop();
      }
    });
  });
}
