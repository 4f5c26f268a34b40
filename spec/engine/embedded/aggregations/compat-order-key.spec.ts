import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { call, type Reply } from '../../../support/http.js';
import { ndjson } from '../support.js';

/**
 * `_term` and `_time`, 7.x's deprecated names of the bucket order key `_key`: in the REST API
 * compatibility mode (`compatible-with=7`) Elasticsearch 8 takes them with the deprecation warning
 * Elasticsearch 7 gave ("Deprecated aggregation order key [_term] used, replaced by [_key]").
 */
const V7 = 'application/vnd.elasticsearch+json;compatible-with=7';
const COMPAT = { accept: V7, 'content-type': V7 };
const warning = (r: Reply) => String(r.headers.warning ?? '');
const BULK = ndjson(['abc', 'abc', 'bcd'].flatMap((str, i) => [{ index: { _index: 'orderkey', _id: String(i + 1) } }, { str, date: `2020-0${i + 1}-01` }]));

for (const backend of BACKENDS) {
  describe(`deprecated bucket order keys in compatibility mode (${backend.name})`, function () {
    this.timeout(60_000);
    let url: string;
    let stop: () => Promise<void>;
    before(async () => {
      const started = await backend.start();
      ({ stop } = started);
      url = started.gateway.url;
      expect((await call(url, 'PUT', '/orderkey', { body: { mappings: { properties: { str: { type: 'keyword' }, date: { type: 'date' } } } } })).status).to.equal(200);
      const r = await call(url, 'POST', '/_bulk?refresh=true', { body: BULK, headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.json.errors).to.equal(false);
    });
    after(() => stop());

    it('`_term` orders by key, with Elasticsearch 7\'s deprecation warning', async () => {
      const r = await call(url, 'POST', '/orderkey/_search', { body: { size: 0, aggs: { t: { terms: { field: 'str', order: { _term: 'desc' } } } } }, headers: COMPAT });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.aggregations.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['bcd', 'abc']);
      expect(warning(r)).to.contain('Deprecated aggregation order key [_term] used, replaced by [_key]');
    });

    it('`_time` of a sub-aggregation (an order given as a list) warns too; a typed search path adds its own warning', async () => {
      const body = { size: 0, aggs: { t: { terms: { field: 'str' }, aggs: { h: { date_histogram: { field: 'date', calendar_interval: 'month', order: [{ _time: 'desc' }] } } } } } };
      const r = await call(url, 'POST', '/orderkey/_doc/_search', { body, headers: COMPAT });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.aggregations.t.buckets[0].h.buckets[0].key_as_string).to.equal('2020-02-01T00:00:00.000Z');
      expect(warning(r)).to.contain('Deprecated aggregation order key [_time] used, replaced by [_key]');
      expect(warning(r)).to.contain('[types removal]');
    });

    it('`_key` and a search without the compatibility headers carry no such warning', async () => {
      const key = await call(url, 'POST', '/orderkey/_search', { body: { size: 0, aggs: { t: { terms: { field: 'str', order: { _key: 'desc' } } } } }, headers: COMPAT });
      expect(key.status, key.text).to.equal(200);
      expect(warning(key)).not.to.contain('Deprecated aggregation order key');
      // a field named _term in a query is no order key
      const query = await call(url, 'POST', '/orderkey/_search', { body: { query: { term: { _term: 'x' } } }, headers: COMPAT });
      expect(warning(query)).not.to.contain('Deprecated aggregation order key');
    });
  });
}
