import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { Client as Client9 } from '@elastic/elasticsearch9';
import { BACKENDS } from '../support/backends.js';
import { ADMIN, type TestGateway } from '../support/servers.js';

/** v8, and v9 — what `npm i @elastic/elasticsearch` installs today (it asks for `compatible-with=9`). */
const CLIENTS = [
  { label: 'v8', make: (node: string) => new Client({ node, auth: { username: ADMIN.user, password: ADMIN.password } }) },
  { label: 'v9', make: (node: string) => new Client9({ node, auth: { username: ADMIN.user, password: ADMIN.password } }) as unknown as Client },
];

for (const backend of BACKENDS) for (const flavour of CLIENTS) {
  describe(`official @elastic/elasticsearch ${flavour.label} client, unchanged (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let client: Client;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      client = flavour.make(gw.url);
    });
    after(async () => {
      await client.close();
      await stop();
    });

    it('info() sees an Elasticsearch 8 node', async () => {
      const info = await client.info();
      expect(info.version.number).to.match(/^8\./);
      expect(info.tagline).to.equal('You Know, for Search');
      expect(info.version.build_flavor).to.equal('default');
    });

    it('creates an index, writes, reads, searches, bulk-loads and deletes', async () => {
      await client.indices.create({ index: 'books', mappings: { properties: { title: { type: 'text' }, year: { type: 'integer' } } } });
      expect(await client.indices.exists({ index: 'books' })).to.equal(true);
      const put = await client.index({ index: 'books', id: '1', document: { title: 'Dune', year: 1965 }, refresh: true });
      expect(put.result).to.equal('created');
      const got = await client.get<{ title: string }>({ index: 'books', id: '1' });
      expect(got._source?.title).to.equal('Dune');

      const bulk = await client.helpers.bulk({
        datasource: Array.from({ length: 50 }, (_, i) => ({ title: `book ${i}`, year: 2000 + i })),
        onDocument: () => ({ index: { _index: 'books' } }),
        refreshOnCompletion: true,
      });
      expect(bulk.successful).to.equal(50);
      expect(bulk.failed).to.equal(0);

      const res = await client.search({ index: 'books', query: { term: { year: 1965 } } });
      expect(res.hits.hits.map((h) => h._id)).to.deep.equal(['1']);
      const count = await client.count({ index: 'books' });
      expect(count.count).to.equal(51);

      const mget = await client.mget({ index: 'books', ids: ['1', 'missing'] });
      expect(mget.docs.map((d) => ('found' in d ? d.found : undefined))).to.deep.equal([true, false]);

      await client.delete({ index: 'books', id: '1' });
      expect(await client.exists({ index: 'books', id: '1' })).to.equal(false);
      await client.indices.delete({ index: 'books' });
      expect(await client.indices.exists({ index: 'books' })).to.equal(false);
    });

    it('msearch with the search cache on: asked, then answered from the cache, then partly', async () => {
      await client.indices.create({ index: 'shelf' });
      await client.index({ index: 'shelf', id: '1', document: { title: 'Dune' }, refresh: true });
      const searches = (q: string) => [{ index: 'shelf' }, { query: { match: { title: q } } }, { index: 'shelf' }, { query: { match_all: {} } }];
      for (const q of ['dune', 'dune', 'other']) {
        const res = await client.msearch({ searches: searches(q) });
        expect(res.responses).to.have.length(2);
        for (const item of res.responses) expect('hits' in item, JSON.stringify(item)).to.equal(true);
      }
      await client.indices.delete({ index: 'shelf' });
    });

    it('surfaces ES errors as ResponseError with the ES type', async () => {
      try {
        await client.get({ index: 'no-such-index', id: '1' });
        expect.fail('should have thrown');
      } catch (err) {
        const e = err as { meta: { statusCode: number; body: { error: { type: string } } } };
        expect(e.meta.statusCode).to.equal(404);
        expect(e.meta.body.error.type).to.equal('index_not_found_exception');
      }
    });
  });
}
