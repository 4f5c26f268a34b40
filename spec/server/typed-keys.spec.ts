/**
 * `typed_keys` (search and multi-search): aggregation *and suggester* names come prefixed by
 * their type, as Elasticsearch's reference says ("aggregation and suggester names are prefixed by
 * their respective types in the response") — `term#`, `phrase#`, `completion#` for suggestions —
 * and an aggregation on a field no searched index maps is typed as Elasticsearch types its
 * Unmapped* results: `sterms` for terms and rare_terms, `sigsterms` for significant_terms.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

for (const backend of BACKENDS) {
  describe(`typed_keys (${backend.name})`, function () {
    this.timeout(60_000);
    let gateway: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway, stop } = await backend.start());
      for (const index of ['typed-0', 'typed-1']) {
        const created = await call(gateway.url, 'PUT', `/${index}`, {
          body: { mappings: { properties: { name: { type: 'keyword' }, title: { type: 'completion' }, n: { type: 'integer' } } } },
        });
        expect(created.status, created.text).to.equal(200);
      }
      const lines = [
        { index: { _index: 'typed-0', _id: '1' } }, { name: 'Ruth', title: 'doctor', n: 1 },
        { index: { _index: 'typed-0', _id: '2' } }, { name: 'Jackie', n: 2 },
        { index: { _index: 'typed-1', _id: '3' } }, { name: 'Natalie', title: 'commandant', n: 3 },
      ];
      const bulk = await call(gateway.url, 'POST', '/_bulk?refresh=true', {
        body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
        headers: { 'content-type': 'application/x-ndjson' },
      });
      expect(bulk.json.errors, bulk.text).to.equal(false);
    });
    after(() => stop());

    const suggest = {
      t: { text: 'Natalie', term: { field: 'name' } },
      p: { text: 'Ruht', phrase: { field: 'name' } },
      c: { prefix: 'doc', completion: { field: 'title' } },
    };
    const unmappedAggs = {
      um: { terms: { field: 'surname' } },
      rare: { rare_terms: { field: 'surname' } },
      sig: { significant_terms: { field: 'surname' } },
      mapped: { terms: { field: 'n' } },
    };

    it('search: suggestions are keyed term#, phrase#, completion#; plain names without typed_keys', async () => {
      const typed = await call(gateway.url, 'POST', '/typed-*/_search?typed_keys=true', { body: { size: 0, suggest } });
      expect(typed.status, typed.text).to.equal(200);
      expect(Object.keys(typed.json.suggest).sort()).to.deep.equal(['completion#c', 'phrase#p', 'term#t']);
      expect(typed.json.suggest['completion#c'][0].options.map((o: { text: string }) => o.text)).to.deep.equal(['doctor']);
      const plain = await call(gateway.url, 'POST', '/typed-*/_search', { body: { size: 0, suggest } });
      expect(Object.keys(plain.json.suggest).sort()).to.deep.equal(['c', 'p', 't']);
    });

    it('search: aggregations on an unmapped field are typed sterms / sigsterms', async () => {
      const r = await call(gateway.url, 'POST', '/typed-*/_search?typed_keys=true', { body: { size: 0, aggs: unmappedAggs } });
      expect(r.status, r.text).to.equal(200);
      expect(Object.keys(r.json.aggregations).sort()).to.deep.equal(['lterms#mapped', 'sigsterms#sig', 'sterms#rare', 'sterms#um']);
      expect(r.json.aggregations['sterms#um']).to.deep.equal({ doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] });
    });

    it('multi-search: each response is typed the same way', async () => {
      const body = [
        { index: 'typed-*' }, { size: 0, suggest: { t: suggest.t } },
        { index: 'typed-*' }, { size: 0, aggs: { um: unmappedAggs.um } },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n';
      const r = await call(gateway.url, 'POST', '/_msearch?typed_keys=true', { body, headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.status, r.text).to.equal(200);
      expect(Object.keys(r.json.responses[0].suggest)).to.deep.equal(['term#t']);
      expect(r.json.responses[1].aggregations['sterms#um'].doc_count_error_upper_bound).to.equal(0);
    });
  });
}
