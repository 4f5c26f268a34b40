import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { call } from '../../../support/http.js';
import type { TestGateway } from '../../../support/servers.js';

/**
 * Highlighting reads the query as it was rewritten against the hit's index (as Lucene extracts
 * highlight terms from the rewritten query): a multi-term query's value normalized as its keyword
 * field normalizes it, a query on the `_index` metadata field decided into all or no documents
 * rather than read as a pattern over the highlighted text.
 */
for (const backend of BACKENDS) {
  describe(`highlighting reads the rewritten query (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    const search = async (body: unknown) => {
      const r = await call(gw.url, 'POST', '/hl-rewritten/_search', { body });
      expect(r.status, r.text).to.equal(200);
      return r.json.hits.hits as Array<{ _id: string; highlight?: Record<string, string[]> }>;
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const created = await call(gw.url, 'PUT', '/hl-rewritten', {
        body: {
          settings: { analysis: { normalizer: { folded: { type: 'custom', filter: ['lowercase'] } } } },
          mappings: { properties: { tag: { type: 'keyword', normalizer: 'folded' }, title: { type: 'text' } } },
        },
      });
      expect(created.status, created.text).to.equal(200);
      const put = await call(gw.url, 'PUT', '/hl-rewritten/_doc/1?refresh=true', { body: { tag: 'Cd-Rom', title: 'hlavni fox' } });
      expect(put.status, put.text).to.equal(201);
    });
    after(() => stop?.());

    it('a prefix query on a normalized keyword field highlights the value it matched', async () => {
      const hits = await search({ query: { prefix: { tag: 'CD' } }, highlight: { fields: { tag: {} } } });
      expect(hits.map((h) => h._id)).to.deep.equal(['1']);
      expect(hits[0].highlight).to.deep.equal({ tag: ['<em>Cd-Rom</em>'] });
    });

    it('a query on _index highlights nothing, even with require_field_match off', async () => {
      const hits = await search({
        query: { bool: { must: [{ match: { title: 'fox' } }], should: [{ wildcard: { _index: 'hl*' } }] } },
        highlight: { require_field_match: false, fields: { title: {} } },
      });
      expect(hits[0].highlight).to.deep.equal({ title: ['hlavni <em>fox</em>'] });
    });
  });
}
