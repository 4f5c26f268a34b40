import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call, credentialAuth, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review by a hostile tenant (h-tenancy6): what hostile4's and hostile5's reviews left open, on both
 * backends (the embedded engine, and the gateway in front of the standalone engine).
 *
 * 1. A `_bulk` update item whose upsert creates the document runs the ingest pipelines — the
 *    index's default and final ones, and the bulk's or item's `pipeline` on `upsert` — as the single
 *    `_update` does, with the same checks where the document lands. (Was: no pipeline ran.)
 * 2. `/.*\/_mget`, `/.*\/_bulk`, `/.*\/_mtermvectors`: the path's index is each item's default, one
 *    name; it is refused naming what the caller wrote. (Was: rewritten to
 *    `.*,-.gateway-*,-.opensearch-observability`, which the items' errors echoed.)
 * 3. `GET /_plugins/_observability/_local/stats` counts every tenant's Observability object
 *    requests: the `manage` privilege, as the objects. (Was: any credential with `cluster`.)
 */

const OBS = '.opensearch-observability';

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (tenancy6): hostile4/5's leftovers (${backend.name})`, function () {
    let gw: TestGateway, stop: () => Promise<void>;
    /** A credential on tenant-p* that may set and run ingest pipelines; one on every index without admin rights; one with the cluster category but no privilege; one holding manage. */
    let piper: string, wide: string, monitor: string, manager: string;
    this.timeout(300_000);

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const cred = (body: Record<string, unknown>) => credentialAuth(gw.url, { allow_raw_dsl: true, categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], ...body });
      piper = await cred({ indices: ['tenant-p*'], cluster_privileges: ['manage_pipeline'] });
      wide = await cred({ indices: ['*'] });
      monitor = await cred({ indices: ['tenant-m*'] });
      manager = await cred({ indices: ['tenant-m*'], cluster_privileges: ['manage'] });
      for (const index of ['.tenant-a-h6', 'tenant-b']) expect((await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { f: index } })).status).to.equal(201);
    });
    // the shared standalone engine's reset keeps dot-prefixed indices: this one is removed here
    after(async () => {
      try {
        if (gw) expect((await call(gw.url, 'DELETE', '/.tenant-a-h6?ignore_unavailable=true')).status).to.equal(200);
      } finally {
        await stop?.();
      }
    });

    it("a _bulk update whose upsert creates the document runs the index's default and final pipelines, and the request's pipeline on its upsert", async () => {
      const pipelines: Array<[string, unknown[]]> = [
        ['h6-default', [{ set: { field: 'by_default', value: true } }]],
        ['h6-final', [{ set: { field: 'by_final', value: '{{{ran}}}-final' } }]],
        ['h6-asked', [{ set: { field: 'by_asked', value: true } }]],
      ];
      for (const [id, processors] of pipelines) expect((await call(gw.url, 'PUT', `/_ingest/pipeline/${id}`, { body: { processors } })).status).to.equal(200);
      const made = await call(gw.url, 'PUT', '/tenant-p-piped', { body: { settings: { 'index.default_pipeline': 'h6-default', 'index.final_pipeline': 'h6-final' } } });
      expect(made.status, made.text).to.equal(200);
      for (const [who, auth] of [['admin', undefined], ['piper', piper]] as const) {
        const id = (name: string) => `${name}-${who}`;
        const lines = ndjson([
          { update: { _index: 'tenant-p-piped', _id: id('upsert') } }, { doc: { ran: 'doc' }, upsert: { ran: 'upsert' } },
          { update: { _index: 'tenant-p-piped', _id: id('doc-as-upsert') } }, { doc: { ran: 'doc' }, doc_as_upsert: true },
          { update: { _index: 'tenant-p-piped', _id: id('script-upsert') } }, { script: { source: "ctx._source.ran = 'script'" }, upsert: { ran: 'upsert' } },
          { update: { _index: 'tenant-p-piped', _id: id('asked'), pipeline: 'h6-asked' } }, { doc: { ran: 'doc' }, upsert: { ran: 'upsert' } },
          // Elasticsearch gives a request's pipeline to the update's upsert only: doc_as_upsert's doc runs the index's own
          { update: { _index: 'tenant-p-piped', _id: id('asked-doc'), pipeline: 'h6-asked' } }, { doc: { ran: 'doc' }, doc_as_upsert: true },
        ]);
        const r = await call(gw.url, 'POST', '/_bulk?refresh=true', { auth, body: lines, headers: NDJSON });
        expect(r.status, r.text).to.equal(200);
        expect(r.json.errors, r.text).to.equal(false);
        expect(r.json.items.map((i: { update: { result: string; status: number } }) => `${i.update.result} ${i.update.status}`), who).to.deep.equal(Array(5).fill('created 201'));
        const wanted: Array<[string, Record<string, unknown>]> = [
          ['upsert', { ran: 'upsert', by_default: true, by_final: 'upsert-final' }],
          ['doc-as-upsert', { ran: 'doc', by_default: true, by_final: 'doc-final' }],
          ['script-upsert', { ran: 'upsert', by_default: true, by_final: 'upsert-final' }],
          ['asked', { ran: 'upsert', by_asked: true, by_final: 'upsert-final' }],
          ['asked-doc', { ran: 'doc', by_default: true, by_final: 'doc-final' }],
        ];
        for (const [name, source] of wanted) expect((await call(gw.url, 'GET', `/tenant-p-piped/_doc/${id(name)}`)).json._source, `${who} ${name}`).to.deep.equal(source);
      }
      // the bulk's own pipeline alike; an update of a document that exists runs none (Elasticsearch: updates do not run pipelines)
      const again = await call(gw.url, 'POST', '/_bulk?pipeline=h6-asked', { body: ndjson([
        { update: { _index: 'tenant-p-piped', _id: 'upsert-admin' } }, { doc: { ran: 'again' }, upsert: { ran: 'upsert' } },
        { update: { _index: 'tenant-p-piped', _id: 'by-bulk' } }, { doc: { ran: 'doc' }, upsert: { ran: 'upsert' } },
      ]), headers: NDJSON });
      expect(again.json.items.map((i: { update: { result: string } }) => i.update.result), again.text).to.deep.equal(['updated', 'created']);
      expect((await call(gw.url, 'GET', '/tenant-p-piped/_doc/upsert-admin')).json._source).to.deep.equal({ ran: 'again', by_default: true, by_final: 'upsert-final' });
      expect((await call(gw.url, 'GET', '/tenant-p-piped/_doc/by-bulk')).json._source).to.deep.equal({ ran: 'upsert', by_asked: true, by_final: 'upsert-final' });
    });

    it("a _bulk update's upsert that a pipeline sends into a system index (or, on the embedded engine, another tenant's index) is refused per item", async () => {
      const route = await call(gw.url, 'PUT', '/_ingest/pipeline/h6-route', { auth: piper, body: { processors: [{ set: { field: '_index', value: '{{dest}}' } }] } });
      expect(route.status, route.text).to.equal(200);
      const made = await call(gw.url, 'PUT', '/tenant-p-routed', { auth: piper, body: { settings: { 'index.default_pipeline': 'h6-route' } } });
      expect(made.status, made.text).to.equal(200);
      const dests = ['.gateway-credentials', '.gateway-h6', '<.gateway-h6-{now/d}>', OBS];
      // another tenant's index: the embedded engine's access view refuses it; the standalone engine never learns the caller (docs/access-control.md)
      if (backend.name.startsWith('embedded')) dests.push('tenant-b');
      let n = 0;
      for (const dest of dests) {
        for (const [who, auth] of [['admin', undefined], ['piper', piper]] as const) {
          if (who === 'admin' && dest === 'tenant-b') continue;
          const items = [
            { update: { _index: 'tenant-p-routed', _id: `h6-${n}-up` } }, { doc: { f: 'x' }, upsert: { dest, f: 'planted' } },
            { update: { _index: 'tenant-p-routed', _id: `h6-${n}-doc` } }, { doc: { dest, f: 'planted' }, doc_as_upsert: true },
            { update: { _index: 'tenant-p-routed', _id: `h6-${n++}-asked`, pipeline: 'h6-route' } }, { doc: { f: 'x' }, upsert: { dest, f: 'planted' } },
          ];
          const r = await call(gw.url, 'POST', '/_bulk', { auth, body: ndjson(items), headers: NDJSON });
          expect(r.status, r.text).to.equal(200);
          const outcomes = r.json.items.map((i: { update: { status: number; error?: { type: string } } }) => `${i.update.status} ${i.update.error?.type}`);
          expect(outcomes, `${who} ${dest}: ${r.text}`).to.deep.equal(Array(3).fill('403 security_exception'));
        }
      }
      // nothing landed anywhere but where the caller may write
      const tenantB = await call(gw.url, 'GET', '/tenant-b/_search?q=f:planted');
      expect(tenantB.json.hits.total.value, tenantB.text).to.equal(0);
      const objects = await call(gw.url, 'GET', '/_plugins/_observability/object?maxItems=100');
      expect(objects.text).not.to.include('planted');
      // an _index the caller may write is followed, as an index item's is
      const ok = await call(gw.url, 'POST', '/_bulk?refresh=true', { auth: piper, body: ndjson([{ update: { _index: 'tenant-p-routed', _id: 'ok' } }, { doc: { dest: 'tenant-p-other', f: 'kept' }, doc_as_upsert: true }]), headers: NDJSON });
      expect(ok.json.items[0].update, ok.text).to.include({ _index: 'tenant-p-other', result: 'created', status: 201 });
    });

    it('a dot-alone wildcard as the default index of _mget, _bulk or _mtermvectors is refused naming what the caller wrote, never the gateway\'s exclusions', async () => {
      const probes: Array<[string, string, unknown, boolean?]> = [
        ['POST', '/.*/_mget', { docs: [{ _id: '1' }] }],
        ['POST', '/.*/_mget', { ids: ['1'] }],
        ['GET', '/%2E*/_mget', { docs: [{ _id: '1' }] }],
        ['POST', '/.*/_bulk', ndjson([{ index: { _id: 'x' } }, { f: 'planted' }]), true],
        ['POST', '/.*/_bulk', ndjson([{ update: { _id: '1' } }, { doc: { f: 'planted' } }]), true],
        ['POST', '/.*/_mtermvectors', { ids: ['1'] }],
        ['POST', '/.*-h6/_mget', { docs: [{ _id: '1' }] }],
      ];
      for (const [who, auth] of [['admin', undefined], ['wide', wide]] as const) {
        for (const [method, path, body, nd] of probes) {
          const r = await call(gw.url, method, path, { auth, body, headers: nd ? NDJSON : undefined });
          expect(r.status, `${who} ${method} ${path}: ${r.text}`).to.equal(403);
          expect(r.text, `${who} ${method} ${path}`).not.to.match(/-\.gateway-|opensearch-observability/);
          expect(r.json.error.reason, `${who} ${method} ${path}`).to.include(decodeURIComponent(path.split('/')[1]));
        }
      }
      // nothing was written, and a name or a list of names is served as before
      expect((await call(gw.url, 'GET', '/.tenant-a-h6/_doc/x')).status).to.equal(404);
      const named = await call(gw.url, 'POST', '/.tenant-a-h6/_mget', { auth: wide, body: { ids: ['1'] } });
      expect(named.json.docs[0], named.text).to.include({ _index: '.tenant-a-h6', found: true });
      const searched = await call(gw.url, 'GET', '/.*/_search', { auth: wide });
      expect(searched.status, searched.text).to.equal(200);
    });

    it("the Observability plugin's stats count every tenant's object requests: the manage privilege, as the objects", async () => {
      const path = '/_plugins/_observability/_local/stats';
      for (const method of ['GET', 'HEAD']) {
        const refused = await call(gw.url, method, path, { auth: monitor });
        expect(refused.status, `${method} ${refused.text}`).to.equal(403);
        if (method === 'GET') expect(refused.json.error.reason).to.include('cluster:monitor/observability/stats');
        for (const auth of [manager, undefined]) expect((await call(gw.url, method, path, { auth })).status, method).to.equal(200);
      }
      expect(JSON.parse((await call(gw.url, 'GET', path, { auth: manager })).text)).to.have.property('request_total');
    });
  });
}
