/**
 * Legal but heavy writes are done, and done in time proportional to their size: a credential
 * naming 100,000 index patterns, and a document of 10,000 fields on an index whose field limit was
 * raised, on both backends (what they cost other requests is bench:isolation's to measure).
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';

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
  });
}
