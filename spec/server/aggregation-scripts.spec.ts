import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';


/** Scripts in aggregations (script values sources, scripted_metric, moving_fn) as a gateway client sends them. */
for (const backend of BACKENDS) {
  describe(`aggregation scripts through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let salesOnly: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/sales', { body: { mappings: { properties: { genre: { type: 'keyword' }, price: { type: 'long' }, qty: { type: 'integer' }, day: { type: 'date' } } } } });
      const docs = [
        { genre: 'rock', price: 10, qty: 2, day: '2020-01-01' }, { genre: 'jazz', price: 5, qty: 4, day: '2020-01-02' }, { genre: 'rock', price: 20, qty: 1, day: '2020-01-03' },
      ];
      const r = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(docs.flatMap((d, i) => [{ index: { _index: 'sales', _id: String(i + 1) } }, d])), headers: NDJSON });
      expect(r.json.errors, r.text).to.equal(false);
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['sales'], categories: ['search'], ops: ['read'] } });
      salesOnly = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('a scoped credential runs a terms script, a value script, scripted_metric and moving_fn', async () => {
      const body = {
        size: 0,
        aggs: {
          genres: { terms: { script: { source: "doc['genre'].value.toUpperCase()" } } },
          doubled: { sum: { field: 'price', script: '_value * 2' } },
          revenue: {
            scripted_metric: {
              init_script: 'state.t = 0', map_script: "state.t += doc['price'].value * doc['qty'].value",
              combine_script: 'return state.t', reduce_script: 'long t = 0; for (s in states) { t += s } return t',
            },
          },
          days: {
            date_histogram: { field: 'day', calendar_interval: '1d' },
            aggs: { p: { sum: { field: 'price' } }, avg2: { moving_fn: { buckets_path: 'p', window: 2, script: 'MovingFunctions.unweightedAvg(values)' } } },
          },
        },
      };
      const r = await call(gw.url, 'POST', '/sales/_search', { body, headers: { authorization: salesOnly } });
      expect(r.status, r.text).to.equal(200);
      const a = r.json.aggregations;
      expect(a.genres.buckets).to.deep.equal([{ key: 'ROCK', doc_count: 2 }, { key: 'JAZZ', doc_count: 1 }]);
      expect(a.doubled.value).to.equal(70);
      expect(a.revenue.value).to.equal(60);
      expect(a.days.buckets.map((b: { avg2?: { value: unknown } }) => b.avg2?.value)).to.deep.equal([null, 10, 7.5]);
    });
  });
}
