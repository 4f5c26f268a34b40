import { expect } from 'chai';
import { call, ndjson, NDJSON } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * `search.max_buckets` is a dynamic cluster setting: a search whose aggregations would answer
 * more buckets than it allows is refused with Elasticsearch's too_many_buckets_exception, whatever
 * aggregation builds them; back to the default once the setting is removed.
 */
const tooMany = (max: number, was: number) =>
  `Trying to create too many buckets. Must be less than or equal to: [${max}] but was [${was}]. This limit can be set by changing the [search.max_buckets] cluster level setting.`;

for (const backend of BACKENDS) {
  describe(`search.max_buckets as a cluster setting (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    const setMax = async (value: number | null) => {
      const r = await call(url, 'PUT', '/_cluster/settings', { body: { transient: { 'search.max_buckets': value } } });
      expect(r.status, r.text).to.equal(200);
    };
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      const lines = ['a', 'b', 'b', 'c'].flatMap((k, i) => [{ index: { _index: 'mb', _id: String(i) } }, { k, day: `2024-01-0${i + 1}` }]);
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulk.json.errors, bulk.text).to.equal(false);
    });
    after(async () => {
      await setMax(null);
      await stop();
    });

    const aggs = (body: unknown) => call(url, 'POST', '/mb/_search', { body: { size: 0, aggs: body } });

    it('refuses terms, date_histogram and composite answers past the setting', async () => {
      await setMax(2);
      for (const [agg, was] of [
        [{ t: { terms: { field: 'k.keyword' } } }, 3],
        [{ h: { date_histogram: { field: 'day', calendar_interval: 'day' } } }, 3],
      ] as const) {
        const r = await aggs(agg);
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error).to.include({ type: 'too_many_buckets_exception', reason: tooMany(2, was) });
      }
      const composite = await aggs({ c: { composite: { size: 5, sources: [{ k: { terms: { field: 'k.keyword' } } }] } } });
      expect(composite.status, composite.text).to.equal(400);
      expect(composite.json.error.reason).to.equal(tooMany(2, 6));
      // within the setting: answered
      const two = await aggs({ t: { terms: { field: 'k.keyword', size: 2 } } });
      expect(two.status, two.text).to.equal(200);
      expect(two.json.aggregations.t.buckets).to.have.length(2);
    });

    it('answers again once the setting is removed', async () => {
      await setMax(null);
      const r = await aggs({ t: { terms: { field: 'k.keyword' } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.aggregations.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['b', 'a', 'c']);
    });
  });
}
