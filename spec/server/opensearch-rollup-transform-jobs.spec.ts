import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * OpenSearch's index-management rollup (`_plugins/_rollup/jobs`) and transform
 * (`_plugins/_transform`) jobs as the embedded engine keeps them: put once or at the revision named,
 * read, listed, started and stopped (their `enabled` flag: no job runs), explained as before a first
 * run, deleted; a transform previewed from its source. A job would read its source and write its
 * target, whichever tenant's: a scoped credential is refused them, reading too.
 */
const ROLLUP = {
  rollup: {
    enabled: true, description: 'by hour', schedule: { interval: { period: 1, unit: 'Minutes' } }, source_index: 'jobs-src', target_index: 'jobs-rollup', page_size: 10,
    dimensions: [{ date_histogram: { source_field: 'at', fixed_interval: '1h' } }], metrics: [{ source_field: 'pages', metrics: [{ sum: {} }] }],
  },
};
const TRANSFORM = {
  transform: {
    enabled: false, description: 'by year', source_index: 'jobs-src', target_index: 'jobs-films', data_selection_query: { match_all: {} }, page_size: 10,
    groups: [{ terms: { source_field: 'year', target_field: 'produced' } }], aggregations: { pages: { sum: { field: 'pages' } } },
    schedule: { interval: { period: 1, unit: 'Minutes', start_time: 1602100553 } },
  },
};

for (const backend of BACKENDS) {
  describe(`OpenSearch rollup and transform jobs through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: { auth: string };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const bulk = [
        { index: { _index: 'jobs-src' } }, { year: 1991, pages: 10, at: '2024-01-01T00:00:00Z' },
        { index: { _index: 'jobs-src' } }, { year: 1991, pages: 5, at: '2024-01-01T01:00:00Z' },
        { index: { _index: 'jobs-src' } }, { year: 1960, pages: 7, at: '2024-01-01T02:00:00Z' },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n';
      expect((await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: { 'content-type': 'application/x-ndjson' } })).status).to.equal(200);
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['jobs-src', 'jobs-films'], categories: ['cluster', 'indices', 'search'], ops: ['read', 'write', 'delete'] } });
      tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
    });
    after(() => stop());

    it('puts a rollup job once, reads, starts, stops, explains and deletes it', async () => {
      const created = await call(gw.url, 'PUT', '/_plugins/_rollup/jobs/hourly', { body: ROLLUP });
      expect([created.status, created.json._id, created.json.rollup.rollup_id, created.json.rollup.enabled], created.text).to.deep.equal([201, 'hourly', 'hourly', true]);
      expect((await call(gw.url, 'PUT', '/_plugins/_rollup/jobs/hourly', { body: ROLLUP })).status).to.equal(409);
      expect((await call(gw.url, 'POST', '/_plugins/_rollup/jobs/hourly/_stop')).json).to.deep.equal({ acknowledged: true });
      expect((await call(gw.url, 'GET', '/_plugins/_rollup/jobs/hourly')).json.rollup.enabled).to.equal(false);
      expect((await call(gw.url, 'POST', '/_plugins/_rollup/jobs/hourly/_start')).status).to.equal(200);
      expect((await call(gw.url, 'GET', '/_plugins/_rollup/jobs/hourly/_explain')).json).to.deep.equal({ hourly: { metadata_id: null, rollup_metadata: null } });
      expect((await call(gw.url, 'DELETE', '/_plugins/_rollup/jobs/hourly')).json.result).to.equal('deleted');
      const gone = await call(gw.url, 'GET', '/_plugins/_rollup/jobs/hourly');
      expect([gone.status, gone.json.error?.reason]).to.deep.equal([404, 'Rollup not found']);
      const noDimension = await call(gw.url, 'PUT', '/_plugins/_rollup/jobs/bad', { body: { rollup: { ...ROLLUP.rollup, dimensions: [] } } });
      expect(noDimension.status).to.equal(400);
    });

    it('puts a transform once and updates it at its revision, lists, previews and deletes it', async () => {
      const created = await call(gw.url, 'PUT', '/_plugins/_transform/by-year', { body: TRANSFORM });
      expect([created.status, created.json.transform.transform_id], created.text).to.deep.equal([201, 'by-year']);
      const { _seq_no: seq, _primary_term: term } = created.json;
      expect((await call(gw.url, 'PUT', `/_plugins/_transform/by-year?if_seq_no=${seq + 5}&if_primary_term=${term}`, { body: TRANSFORM })).status).to.equal(409);
      const updated = await call(gw.url, 'PUT', `/_plugins/_transform/by-year?if_seq_no=${seq}&if_primary_term=${term}`, { body: TRANSFORM });
      expect([updated.status, updated.json._version]).to.deep.equal([200, 2]);
      const listed = await call(gw.url, 'GET', '/_plugins/_transform');
      expect([listed.json.total_transforms, listed.json.transforms[0]._id]).to.deep.equal([1, 'by-year']);
      const preview = await call(gw.url, 'POST', '/_plugins/_transform/_preview', { body: TRANSFORM });
      expect(preview.json.documents.map((d: Record<string, unknown>) => [d.produced, d.pages, d['transform._doc_count']]), preview.text).to.deep.equal([[1960, 7, 1], [1991, 15, 2]]);
      // the plugin previews on POST to its base path too; GET …/_preview reads a transform named _preview, which takes no body
      const posted = await call(gw.url, 'POST', '/_plugins/_transform', { body: TRANSFORM });
      expect(posted.json.documents, posted.text).to.deep.equal(preview.json.documents);
      const got = await call(gw.url, 'GET', '/_plugins/_transform/_preview');
      expect([got.status, got.json.error.reason]).to.deep.equal([404, 'Transform not found']);
      const withBody = await call(gw.url, 'GET', '/_plugins/_transform/_preview', { body: TRANSFORM });
      expect([withBody.status, withBody.json.error.reason]).to.deep.equal([400, 'request [GET /_plugins/_transform/_preview] does not support having a body']);
      const deleted = await call(gw.url, 'DELETE', '/_plugins/_transform/by-year?force=true');
      expect([deleted.status, deleted.json.items[0].delete.result]).to.deep.equal([200, 'deleted']);
      expect((await call(gw.url, 'GET', '/_plugins/_transform/by-year')).status).to.equal(404);
    });

    it('refuses the jobs to a scoped credential, reading and previewing too', async () => {
      expect((await call(gw.url, 'PUT', '/_plugins/_transform/mine', { ...tenant, body: TRANSFORM })).status).to.equal(403);
      expect((await call(gw.url, 'POST', '/_plugins/_transform/_preview', { ...tenant, body: TRANSFORM })).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_plugins/_transform', tenant)).status).to.equal(403);
      expect((await call(gw.url, 'PUT', '/_plugins/_rollup/jobs/mine', { ...tenant, body: ROLLUP })).status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_plugins/_rollup/jobs/mine/_explain', tenant)).status).to.equal(403);
    });
  });
}
