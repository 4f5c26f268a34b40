import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { call, credentialAuth, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { ES_API } from '../../lib/request/es-api.js';

/**
 * Review by a hostile tenant (h-hostile6a) of what tenancy6 merged, on both backends (the embedded
 * engine, and the gateway in front of the standalone engine).
 *
 * 1. Running an ingest pipeline needs `manage_pipeline` (docs/access-control.md). tenancy6 made a
 *    `_bulk` update item's `pipeline` run, on the upsert that creates the document, but the
 *    classifier still read an update item's `pipeline` as naming none: a credential without
 *    `manage_pipeline` ran any stored pipeline (one that sends the document elsewhere included) by
 *    an update item. (Was: the item ran the pipeline.)
 * 2. A path whose index list the gateway narrows (`.*`, `*?expand_wildcards=all`, `_all` with hidden
 *    indices) is answered as the request the caller wrote: the engine's error for it (an unknown
 *    parameter or metric, no handler, a rollover target or an analyzed index that does not exist)
 *    quoted the narrowed list, naming the system indices the gateway excluded. tenancy6 fixed this for
 *    the items of `_mget`, `_bulk`, `_mtermvectors` only. (Was: `GET /.*\/_stats/x1` answered
 *    `request [/.*,-.gateway-*,-.opensearch-observability/_stats/x1] contains unrecognized metric`.)
 */

type Action = 'index' | 'create' | 'update' | 'delete';
interface Item { action: Action; pipeline?: string; upsert: 'upsert' | 'doc_as_upsert' | 'doc' }

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (hostile6a): what tenancy6 merged (${backend.name})`, function () {
    let gw: TestGateway, stop: () => Promise<void>;
    /** A credential on tenant-q* without manage_pipeline; one on tenant-q* with it. */
    let plain: string, piper: string;
    this.timeout(300_000);

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const cred = (body: Record<string, unknown>) => credentialAuth(gw.url, { categories: ['docs', 'search', 'indices'], ops: ['read', 'write', 'delete'], ...body });
      plain = await cred({ indices: ['tenant-q*'] });
      piper = await cred({ indices: ['tenant-q*'], cluster_privileges: ['manage_pipeline'] });
      const put = await call(gw.url, 'PUT', '/_ingest/pipeline/h6a-route', { body: { processors: [{ set: { field: '_index', value: '{{dest}}' } }, { set: { field: 'piped', value: true } }] } });
      expect(put.status, put.text).to.equal(200);
      expect((await call(gw.url, 'PUT', '/tenant-q-home')).status).to.equal(200);
    });
    after(async () => {
      await call(gw.url, 'DELETE', '/_ingest/pipeline/h6a-route');
      await stop?.();
    });

    it("a _bulk update item's pipeline (run on its upsert) needs manage_pipeline, as an index item's does", async () => {
      const bodies: Array<[string, unknown[]]> = [
        ['upsert', [{ update: { _index: 'tenant-q-home', _id: 'u1', pipeline: 'h6a-route' } }, { doc: { f: 'x' }, upsert: { dest: 'tenant-q-elsewhere', f: 'planted' } }]],
        ['doc_as_upsert', [{ update: { _index: 'tenant-q-home', _id: 'u2', pipeline: 'h6a-route' } }, { doc: { dest: 'tenant-q-elsewhere', f: 'planted' }, doc_as_upsert: true }]],
        ['beside an index item', [{ index: { _index: 'tenant-q-home', _id: 'i1' } }, { f: 'ok' }, { update: { _index: 'tenant-q-home', _id: 'u3', pipeline: 'h6a-route' } }, { doc: { f: 'x' }, upsert: { dest: 'tenant-q-elsewhere', f: 'planted' } }]],
      ];
      for (const path of ['/_bulk', '/tenant-q-home/_bulk', '/_bulk/stream']) {
        for (const [what, lines] of bodies) {
          const r = await call(gw.url, 'POST', `${path}?refresh=true`, { auth: plain, body: ndjson(lines), headers: NDJSON });
          expect(r.status, `${path} ${what}: ${r.text}`).to.equal(403);
          expect(r.json.error.reason, `${path} ${what}`).to.include('manage_pipeline');
        }
      }
      // nothing ran: no document was created anywhere
      for (const index of ['tenant-q-home', 'tenant-q-elsewhere']) {
        const found = await call(gw.url, 'GET', `/${index}/_search?q=f:planted&ignore_unavailable=true`);
        expect(found.json.hits?.total?.value ?? 0, `${index}: ${found.text}`).to.equal(0);
      }
      // `_none` names no pipeline, and an update item without one runs none of the caller's choosing
      const none = await call(gw.url, 'POST', '/_bulk?refresh=true', { auth: plain, headers: NDJSON, body: ndjson([
        { update: { _index: 'tenant-q-home', _id: 'n1', pipeline: '_none' } }, { doc: { f: 'x' }, upsert: { dest: 'tenant-q-elsewhere', f: 'none' } },
        { update: { _index: 'tenant-q-home', _id: 'n2' } }, { doc: { f: 'x' }, upsert: { dest: 'tenant-q-elsewhere', f: 'none' } },
      ]) });
      expect(none.status, none.text).to.equal(200);
      expect(none.json.items.map((i: { update: { _index: string; status: number } }) => `${i.update._index} ${i.update.status}`), none.text).to.deep.equal(['tenant-q-home 201', 'tenant-q-home 201']);
      // with manage_pipeline the item's pipeline runs on the upsert, as tenancy6 made it
      const ran = await call(gw.url, 'POST', '/_bulk?refresh=true', { auth: piper, headers: NDJSON, body: ndjson(bodies[0][1]) });
      expect(ran.json.items[0].update, ran.text).to.include({ _index: 'tenant-q-elsewhere', status: 201 });
    });

    it('property: a _bulk from a credential without manage_pipeline is refused exactly when an item other than a delete names a pipeline', async () => {
      const item: fc.Arbitrary<Item> = fc.record({
        action: fc.constantFrom<Action>('index', 'create', 'update', 'delete'),
        pipeline: fc.option(fc.constantFrom('h6a-route', '_none', 'h6a-missing'), { nil: undefined }),
        upsert: fc.constantFrom<Item['upsert']>('upsert', 'doc_as_upsert', 'doc'),
      });
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 4 }), async (items) => {
          const lines: unknown[] = [];
          for (const it of items) {
            const meta: Record<string, unknown> = { _index: 'tenant-q-home', _id: `p${n++}` };
            if (it.pipeline !== undefined) meta.pipeline = it.pipeline;
            lines.push({ [it.action]: meta });
            if (it.action === 'update') lines.push(it.upsert === 'upsert' ? { doc: { f: 'x' }, upsert: { dest: 'tenant-q-elsewhere', f: 'prop' } } : it.upsert === 'doc_as_upsert' ? { doc: { dest: 'tenant-q-elsewhere', f: 'prop' }, doc_as_upsert: true } : { doc: { f: 'x' } });
            else if (it.action !== 'delete') lines.push({ f: 'prop' });
          }
          const runs = items.some((it) => it.action !== 'delete' && it.pipeline !== undefined && it.pipeline !== '_none');
          const r = await call(gw.url, 'POST', '/_bulk', { auth: plain, body: ndjson(lines), headers: NDJSON });
          expect(r.status, `${JSON.stringify(items)}: ${r.text}`).to.equal(runs ? 403 : 200);
          if (r.status === 200) for (const i of r.json.items) expect(Object.values(i as Record<string, { _index: string }>)[0]._index).to.equal('tenant-q-home');
        }),
        { numRuns: 25 },
      );
      const elsewhere = await call(gw.url, 'GET', '/tenant-q-elsewhere/_search?q=f:prop&ignore_unavailable=true');
      expect(elsewhere.json.hits?.total?.value ?? 0, elsewhere.text).to.equal(0);
    });

    it("no answer to a path the gateway narrows names the exclusions it added (every route of the table holding an index list, each spelling)", async () => {
      const wide = await credentialAuth(gw.url, { categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write'], indices: ['*'] });
      expect((await call(gw.url, 'PUT', '/.tenant-q-dot/_doc/1?refresh=true', { body: { f: 'dot' } })).status).to.equal(201);
      try {
        const spellings: Array<[string, string]> = [['.*', ''], ['.*-dot', ''], ['.*%22q', ''], ['.*,tenant-q-home', ''], ['*', '?expand_wildcards=all'], ['_all', '?expand_wildcards=hidden'], ['tenant-q*', '?expand_wildcards=hidden']];
        const echoed: string[] = [];
        let sent = 0;
        for (const api of ES_API as unknown as Array<{ id: string; paths: Array<{ methods: string[]; pattern: string }> }>) {
          for (const { methods, pattern } of api.paths) {
            if (!pattern.includes('{index}')) continue;
            for (const method of methods.filter((m) => m !== 'DELETE')) {
              for (const [index, query] of spellings) {
                const path = pattern.replace('{index}', index).replace(/\{[a-z_]+\}/g, 'x1') + query;
                const nd = /bulk|msearch/.test(path);
                const body = method === 'GET' || method === 'HEAD' ? undefined : nd ? ndjson([{}, { query: { match_all: {} } }]) : {};
                for (const [who, auth] of [['admin', undefined], ['wide', wide]] as const) {
                  const r = await call(gw.url, method, path, { auth, body, headers: nd ? NDJSON : undefined });
                  sent++;
                  if (/-\.gateway-|opensearch-observability/.test(r.text)) echoed.push(`${api.id} ${who} ${method} ${path} -> ${r.status} ${r.text.slice(0, 200)}`);
                }
              }
            }
          }
        }
        expect(sent).to.be.greaterThan(1000);
        expect(echoed, echoed.join('\n')).to.deep.equal([]);
        // the error names what was written, as the engine names it for any other list
        const metric = await call(gw.url, 'GET', '/.*/_stats/x1');
        expect(metric.status, metric.text).to.equal(400);
        expect(metric.json.error.reason).to.equal('request [/.*/_stats/x1] contains unrecognized metric: [x1]');
        // a list the path sent encoded is put back as the caller's path spelled it
        const quoted = await call(gw.url, 'GET', '/.*%22q/_stats/x1');
        expect(quoted.json?.error?.reason, quoted.text).to.equal('request [/.*%22q/_stats/x1] contains unrecognized metric: [x1]');
        const rollover = await call(gw.url, 'POST', '/_all/_rollover?expand_wildcards=hidden', { auth: wide });
        expect(rollover.json.error.reason, rollover.text).to.equal('request [/_all/_rollover] contains unrecognized parameter: [expand_wildcards]');
      } finally {
        expect((await call(gw.url, 'DELETE', '/.tenant-q-dot')).status).to.equal(200);
      }
    });
  });
}
