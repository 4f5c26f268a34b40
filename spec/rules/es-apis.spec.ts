import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/** Elasticsearch's synonyms and query rules APIs through the gateway: the admin reaches them on both backends; they are cluster-wide, so a tenant without `cluster` does not. */
for (const backend of BACKENDS) {
  describe(`Elasticsearch synonyms and query rules through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['search', 'indices', 'docs'], ops: ['read', 'write', 'delete'] } });
      tenant = basic(res.json.credential.username, res.json.password);
    });
    after(() => stop());

    it('a synonyms set applies to the next search of an updateable search analyzer', async () => {
      expect((await call(gw.url, 'PUT', '/_synonyms/products', { body: { synonyms_set: [{ id: 'tv', synonyms: 'tv, television' }] } })).status).to.equal(201);
      const created = await call(gw.url, 'PUT', '/shop', {
        body: {
          settings: { analysis: { filter: { syn: { type: 'synonym_graph', synonyms_set: 'products', updateable: true } }, analyzer: { search_syn: { tokenizer: 'standard', filter: ['lowercase', 'syn'] } } } },
          mappings: { properties: { name: { type: 'text', search_analyzer: 'search_syn' } } },
        },
      });
      expect(created.status, created.text).to.equal(200);
      await call(gw.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { name: 'Sony television' } });
      await call(gw.url, 'PUT', '/shop/_doc/2?refresh=true', { body: { name: 'Phone charger' } });
      const found = async (q: string) => (await call(gw.url, 'POST', '/shop/_search', { body: { query: { match: { name: q } } } })).json.hits.hits.map((h: { _id: string }) => h._id);
      expect(await found('tv')).to.deep.equal(['1']);
      expect(await found('mobile')).to.deep.equal([]);
      expect((await call(gw.url, 'PUT', '/_synonyms/products/mobile', { body: { synonyms: 'mobile => phone' } })).status).to.equal(201);
      expect(await found('mobile')).to.deep.equal(['2']);
      expect((await call(gw.url, 'GET', '/_synonyms/products')).json.count).to.equal(2);
      expect((await call(gw.url, 'GET', '/_synonyms', { auth: tenant })).status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/_synonyms/mine', { auth: tenant, body: { synonyms_set: [{ synonyms: 'a, b' }] } })).status).to.equal(403);
    });

    it('a query ruleset pins and excludes through the rule query', async () => {
      await call(gw.url, 'PUT', '/shop/_doc/3?refresh=true', { body: { name: 'Phone case' } });
      const put = await call(gw.url, 'PUT', '/_query_rules/promos', {
        body: { rules: [
          { rule_id: 'pin', type: 'pinned', criteria: [{ type: 'exact', metadata: 'q', values: ['phone'] }], actions: { ids: ['3'] } },
          { rule_id: 'drop', type: 'exclude', criteria: [{ type: 'exact', metadata: 'q', values: ['phone'] }], actions: { ids: ['2'] } },
        ] },
      });
      expect(put.status, put.text).to.equal(201);
      const res = await call(gw.url, 'POST', '/shop/_search', {
        body: { query: { rule: { ruleset_ids: ['promos'], match_criteria: { q: 'phone' }, organic: { match: { name: 'phone' } } } } },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['3']);
      expect((await call(gw.url, 'GET', '/_query_rules/promos', { auth: tenant })).status).to.equal(403);
    });
  });
}
