import { expect } from 'chai';
import { call as gatewayCall } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';
import { ndjson } from '../support.js';

/**
 * percentiles and percentile_ranks with `hdr`: Elasticsearch's HDR collectors refuse a value below
 * zero ("Negative values are not supported by HDR aggregation", an illegal_argument_exception, 400);
 * the t-digest takes it.
 */
const MAPPING = { mappings: { properties: { n: { type: 'integer' } } } };
const BULK = ndjson([1, 51, -10].flatMap((n, i) => [{ index: { _index: 'hdrneg', _id: String(i + 1) } }, { n }]));
const NEGATIVE = 'Negative values are not supported by HDR aggregation';

for (const backend of BACKENDS) {
  describe(`hdr percentiles of negative values (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const search = (body: Record<string, unknown>): Promise<any> => gatewayCall(url, 'POST', '/hdrneg/_search', { body: { size: 0, ...body } });
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await gatewayCall(url, 'PUT', '/hdrneg', { body: MAPPING })).status).to.equal(200);
      const r = await gatewayCall(url, 'POST', '/_bulk?refresh=true', { body: BULK, headers: { 'content-type': 'application/x-ndjson' } });
      expect(r.json.errors).to.equal(false);
    });
    after(() => stop());

    for (const type of ['percentiles', 'percentile_ranks']) {
      it(`${type} with hdr refuses a negative value with a 400`, async () => {
        const spec = type === 'percentiles' ? { field: 'n', hdr: {} } : { field: 'n', values: [50], hdr: {} };
        const r = await search({ aggs: { p: { [type]: spec } } });
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error.root_cause[0]).to.include({ type: 'illegal_argument_exception', reason: NEGATIVE });
      });
    }

    it('a negative missing value is refused too; non-negative values are answered', async () => {
      const missing = await search({ aggs: { p: { percentiles: { field: 'absent', missing: -1, hdr: {} } } } });
      expect(missing.status, missing.text).to.equal(400);
      const positive = await search({ query: { range: { n: { gte: 0 } } }, aggs: { p: { percentiles: { field: 'n', percents: [50], hdr: {} } } } });
      expect(positive.status, positive.text).to.equal(200);
      expect(positive.json.aggregations.p.values['50.0']).to.equal(1);
    });

    it('the t-digest takes a negative value', async () => {
      const r = await search({ aggs: { p: { percentiles: { field: 'n', percents: [1] } } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.aggregations.p.values['1.0']).to.be.closeTo(-10, 1e-9);
    });
  });
}
