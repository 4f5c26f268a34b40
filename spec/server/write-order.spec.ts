/**
 * Writes of one id answer in an order that the engine keeps: whatever order their store commits
 * land in, a read, a search and a restart show the version with the highest acknowledged
 * `_version` (a `_bulk` commits its items by chunks, so a single write of an id it holds can be
 * committed between that item's preparation and its commit). On both backends.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { NDJSON, call, ndjson } from '../support/http.js';

const ROUNDS = 4;
/** Items after the contested one: enough that the bulk pauses (and commits by chunks) before its end. */
const FILLER = 3000;

for (const backend of BACKENDS) {
  describe(`write order: the later version of an id stays (${backend.name})`, function () {
    this.timeout(120_000);

    it('a single write sent while a _bulk holding the same id is prepared: GET and search show the higher _version', async () => {
      const { gateway, stop } = await backend.start();
      try {
        const url = gateway.url;
        expect((await call(url, 'PUT', '/race', { body: { mappings: { properties: { who: { type: 'keyword' } } } } })).status).to.equal(200);
        for (let round = 0; round < ROUNDS; round++) {
          const lines: unknown[] = [{ index: { _id: 'x' } }, { who: `bulk-${round}` }];
          for (let i = 0; i < FILLER; i++) lines.push({ index: { _id: `r${round}-${i}` } }, { t: 'filler text '.repeat(20), i });
          const bulk = call(url, 'POST', '/race/_bulk', { body: ndjson(lines), headers: NDJSON });
          const single = call(url, 'PUT', '/race/_doc/x', { body: { who: `put-${round}` } });
          const [b, s] = await Promise.all([bulk, single]);
          expect(b.status).to.equal(200);
          expect(b.json.errors).to.equal(false);
          expect(s.status).to.be.oneOf([200, 201]);
          const fromBulk = b.json.items[0].index;
          const latest = fromBulk._version > s.json._version ? { version: fromBulk._version, who: `bulk-${round}` } : { version: s.json._version, who: `put-${round}` };
          const got = await call(url, 'GET', '/race/_doc/x');
          expect({ version: got.json._version, who: got.json._source.who }, `round ${round}`).to.deep.equal(latest);
          await call(url, 'POST', '/race/_refresh');
          const searched = await call(url, 'POST', '/race/_search', { body: { query: { ids: { values: ['x'] } }, version: true } });
          expect(searched.json.hits.hits.map((h: { _version: number; _source: { who: string } }) => ({ version: h._version, who: h._source.who })), `round ${round}`).to.deep.equal([latest]);
        }
      } finally {
        await stop();
      }
    });
  });
}
