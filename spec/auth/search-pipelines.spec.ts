import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * OpenSearch's search pipelines through the gateway: managing them is cluster-level (the
 * `manage_pipeline` privilege, as ingest pipelines), and running one never widens what a scoped
 * credential reads — no processor changes the indices searched; credentials bounded by field
 * rules or `max_size` run none they name (a pipeline's query may read any field, its oversample
 * raises the size); a default pipeline the admin set runs on what the field rules left, so a
 * hidden field stays hidden after `rename_field`, `split` or `sort`.
 */
const SECRET = 'top-secret-7c1';

for (const backend of BACKENDS) {
  describe(`search pipelines and scoped credentials (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let othersPipelines: string[] = [];
    let stop: (() => Promise<void>) | undefined;
    let tenant: string;
    let piper: string;
    let hidden: string;
    let bounded: string;

    const as = (auth: string) => (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(gw.url, method, path, { auth, body, headers });
    const credential = async (spec: Record<string, unknown>) => {
      const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine'], categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], ...spec } });
      expect(res.status, res.text).to.equal(201);
      return basic(res.json.credential.username, res.json.password);
    };
    const expectRefused = (res: { status: number; text: string; json: any }, action: string) => {
      expect(res.status, res.text).to.equal(403);
      expect(res.json.error.type).to.equal('security_exception');
      expect(res.json.error.reason).to.contain(`action [${action}]`);
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const docs = [{ title: 'one', secret: SECRET, genre: 'a' }, { title: 'two', secret: SECRET, genre: 'b' }];
      const bulk = await call(gw.url, 'POST', '/_bulk?refresh=true', {
        body: ndjson([...docs.flatMap((d, i) => [{ index: { _index: 'mine', _id: String(i + 1) } }, d]), { index: { _index: 'theirs', _id: '1' } }, { title: 'foreign' }]), headers: NDJSON,
      });
      expect(bulk.json.errors, bulk.text).to.equal(false);
      // the HTTP backend's standalone engine is shared with other spec files: their pipelines are not this spec's
      othersPipelines = Object.keys((await call(gw.url, 'GET', '/_search/pipeline')).json ?? {});
      expect((await call(gw.url, 'PUT', '/_search/pipeline/shared', { body: { request_processors: [{ filter_query: { query: { term: { genre: 'a' } } } }] } })).status).to.equal(200);
      tenant = await credential({});
      piper = await credential({ cluster_privileges: ['manage_pipeline'] });
      hidden = await credential({ exclude_fields: ['secret'] });
      bounded = await credential({ max_size: 5 });
    });
    after(() => stop?.());

    it('managing or reading search pipelines needs manage_pipeline; with it, the CRUD round-trips', async () => {
      const put = await as(tenant)('PUT', '/_search/pipeline/shared', { request_processors: [] });
      expectRefused(put, 'cluster:admin/search/pipeline/put');
      expect(put.json.error.reason).to.contain('manage_pipeline');
      expectRefused(await as(tenant)('GET', '/_search/pipeline'), 'cluster:admin/search/pipeline/get');
      expectRefused(await as(tenant)('GET', '/_search/pipeline/shared'), 'cluster:admin/search/pipeline/get');
      expectRefused(await as(tenant)('DELETE', '/_search/pipeline/shared'), 'cluster:admin/search/pipeline/delete');
      // an index's default search pipeline is set with the same right
      expect((await as(tenant)('PUT', '/mine/_settings', { index: { search: { default_pipeline: 'shared' } } })).status).to.equal(403);

      expect((await as(piper)('PUT', '/_search/pipeline/piper-own', { response_processors: [{ truncate_hits: { target_size: 1 } }] })).json).to.deep.equal({ acknowledged: true });
      expect(Object.keys((await as(piper)('GET', '/_search/pipeline/piper-*')).json)).to.deep.equal(['piper-own']);
      expect((await as(piper)('DELETE', '/_search/pipeline/piper-own')).json).to.deep.equal({ acknowledged: true });
      expect((await as(piper)('GET', '/_search/pipeline/piper-own')).status).to.equal(404);
      expect(Object.keys((await call(gw.url, 'GET', '/_search/pipeline')).json).filter((id) => !othersPipelines.includes(id))).to.deep.equal(['shared']);
    });

    // through an HTTP engine, which checks no rights where a stored pipeline looks another index
    // up, a scoped credential names no pipeline at all (review of session 9, finding 6)
    const engineChecks = !backend.name.startsWith('HTTP');

    it('a pipeline runs within the indices a credential may search: it changes no index searched', async () => {
      const own = await as(tenant)('GET', '/mine/_search?search_pipeline=shared');
      expect(own.status, own.text).to.equal(engineChecks ? 200 : 403);
      if (engineChecks) expect(own.json.hits.hits.map((h: any) => h._source.title)).to.deep.equal(['one']);
      expect((await as(tenant)('GET', '/theirs/_search?search_pipeline=shared')).status).to.equal(403);
      const inline = await as(tenant)('POST', '/mine/_search', { search_pipeline: { response_processors: [{ rename_field: { field: 'title', target_field: 'name' } }] } });
      expect(inline.status, inline.text).to.equal(engineChecks ? 200 : 403);
      if (engineChecks) expect(inline.json.hits.hits.map((h: any) => h._index)).to.deep.equal(['mine', 'mine']);
      // a temporary pipeline's query looks up no document of an index the credential may not read
      const lookup = { terms: { title: { index: 'theirs', id: '1', path: 'title' } } };
      for (const processor of [{ filter_query: { query: lookup } }, { filter_query: { query: { bool: { filter: [{ more_like_this: { fields: ['title'], like: [{ _index: 'theirs', _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } }] } } } }]) {
        const r = await as(tenant)('POST', '/mine/_search', { search_pipeline: { request_processors: [processor] } });
        expect(r.status, r.text).to.equal(403);
      }
    });

    it('a credential with field rules or max_size runs no pipeline it names (parameter, body, inline, _msearch item); _none is fine', async () => {
      for (const auth of [hidden, bounded]) {
        expectRefused(await as(auth)('GET', '/mine/_search?search_pipeline=shared'), 'indices:data/read/search');
        expectRefused(await as(auth)('POST', '/mine/_search', { search_pipeline: 'shared' }), 'indices:data/read/search');
        const inline = await as(auth)('POST', '/mine/_search', { search_pipeline: { request_processors: [{ oversample: { sample_factor: 100 } }], response_processors: [{ rename_field: { field: 'secret', target_field: 'title' } }] } });
        expectRefused(inline, 'indices:data/read/search');
        expectRefused(await as(auth)('POST', '/_msearch', ndjson([{ index: 'mine' }, { search_pipeline: 'shared' }]), NDJSON), 'indices:data/read/msearch');
        const none = await as(auth)('GET', '/mine/_search?search_pipeline=_none');
        expect(none.status, none.text).to.equal(200);
        if (auth === hidden) expect(none.text).not.to.contain(SECRET);
      }
    });

    it('a live search stream runs no search pipeline (its changes are matched against the query as written)', async () => {
      for (const [path, body] of [['/mine/_search?stream=true&search_pipeline=shared', {}], ['/mine/_search?stream=true', { search_pipeline: 'shared' }]] as const) {
        const r = await call(gw.url, 'POST', path, { body });
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error.reason).to.equal('a search stream runs no search pipeline: its changes are matched against the query as written');
      }
    });

    it('a hidden field stays hidden after rename_field, split or sort of an index default pipeline', async () => {
      const renames = {
        response_processors: [
          { split: { field: 'secret', separator: '-', target_field: 'parts', ignore_missing: true } },
          { sort: { field: 'parts', target_field: 'sorted', ignore_missing: true } },
          { rename_field: { field: 'secret', target_field: 'title', ignore_missing: true } },
        ],
      };
      expect((await call(gw.url, 'PUT', '/_search/pipeline/reveal', { body: renames })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/mine/_settings', { body: { index: { search: { default_pipeline: 'reveal' } } } })).status).to.equal(200);
      // the admin sees what the pipeline does
      const admin = await call(gw.url, 'GET', '/mine/_search');
      expect(admin.json.hits.hits[0]._source).to.include({ title: SECRET });
      expect(admin.json.hits.hits[0]._source.sorted).to.deep.equal(['7c1', 'secret', 'top']);
      const seen = await as(hidden)('GET', '/mine/_search');
      expect(seen.status, seen.text).to.equal(200);
      expect(seen.json.hits.hits.map((h: any) => h._source.title).sort()).to.deep.equal(['one', 'two']);
      expect(seen.text).not.to.contain(SECRET);
      expect(seen.text).not.to.contain('7c1');
      expect((await call(gw.url, 'PUT', '/mine/_settings', { body: { index: { search: { default_pipeline: null } } } })).status).to.equal(200);
    });
  });
}
