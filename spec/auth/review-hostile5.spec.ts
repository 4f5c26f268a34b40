import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { call, credentialAuth, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review by a hostile tenant (h-hostile5) of hostile4's changes, on both backends (the embedded
 * engine, and the gateway in front of the standalone engine).
 *
 * 1. An ingest pipeline whose `_index` names a system index (`.gateway-credentials`,
 *    `.opensearch-observability`, date math resolving to a `.gateway-` name) sends no document
 *    there: not an index request's, not an `_update` upsert's (hostile4 ran the pipelines there),
 *    not a `_bulk` item's — for the admin nor a credential holding `manage_pipeline`. (Was: the
 *    admin's writes landed in the gateway's credentials index and the Observability index.)
 * 2. A dot-alone wildcard where the path holds one name, not a list (`GET /.*\/_doc/1`,
 *    `_explain`, `_termvectors`, `_update`, `_source`), is refused as before hostile4, not
 *    rewritten to `.*,-.gateway-*,-.opensearch-observability`. (Was: that list, read as one
 *    invalid name, echoed in a 400 or a 404.)
 */

const OBS = '.opensearch-observability';
/** This spec's indices (other specs' dot-prefixed ones outlive the shared standalone engine's reset). */
const ours = (index: string) => !index.startsWith('.') || index.endsWith('-h5');
const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 80);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 5505);

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (hostile5): hostile4's leftovers (${backend.name})`, function () {
    let gw: TestGateway, stop: () => Promise<void>;
    /** A credential on tenant-p* that may set and run ingest pipelines; one on every index without admin rights; one on tenant-a*. */
    let piper: string, wide: string, scoped: string;
    this.timeout(300_000);

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const cred = (body: Record<string, unknown>) => credentialAuth(gw.url, { allow_raw_dsl: true, categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], ...body });
      piper = await cred({ indices: ['tenant-p*'], cluster_privileges: ['manage_pipeline'] });
      wide = await cred({ indices: ['*'] });
      scoped = await cred({ indices: ['tenant-a*', '.tenant-a*'] });
      for (const index of ['.tenant-a-h5', 'tenant-b']) expect((await call(gw.url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { f: index } })).status).to.equal(201);
      const obj = await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { objectId: 'seeded-h5', savedQuery: { name: 'kept', query: 'source=x' } } });
      expect(obj.status, obj.text).to.equal(200);
    });
    // the shared standalone engine's reset keeps dot-prefixed indices: this one is removed here
    after(async () => {
      if (gw) await call(gw.url, 'DELETE', '/.tenant-a-h5?ignore_unavailable=true');
      await stop?.();
    });

    it("an ingest pipeline's _index never sends a document into a system index, by any write, for the admin or a pipeline manager", async () => {
      const route = await call(gw.url, 'PUT', '/_ingest/pipeline/h5-route', { auth: piper, body: { processors: [{ set: { field: '_index', value: '{{dest}}' } }] } });
      expect(route.status, route.text).to.equal(200);
      const script = await call(gw.url, 'PUT', '/_ingest/pipeline/h5-script', { auth: piper, body: { processors: [{ script: { source: 'ctx._index = ctx.dest' } }] } });
      expect(script.status, script.text).to.equal(200);
      for (const [index, pipeline] of [['tenant-p-set', 'h5-route'], ['tenant-p-script', 'h5-script']]) {
        const made = await call(gw.url, 'PUT', `/${index}`, { auth: piper, body: { settings: { 'index.default_pipeline': pipeline } } });
        expect(made.status, made.text).to.equal(200);
      }
      const problems: string[] = [];
      let n = 0;
      for (const dest of ['.gateway-credentials', '.gateway-h5', '<.gateway-h5-{now/d}>', OBS]) {
        for (const index of ['tenant-p-set', 'tenant-p-script']) {
          for (const [who, auth] of [['admin', undefined], ['piper', piper]] as const) {
            const id = `h5-${n++}`;
            const writes: Array<[string, string, unknown, boolean?]> = [
              ['PUT', `/${index}/_doc/${id}-i`, { dest, f: 'planted' }],
              ['POST', `/${index}/_update/${id}-u`, { doc: { dest, f: 'planted' }, doc_as_upsert: true }],
              ['POST', `/${index}/_update/${id}-up`, { doc: { f: 'x' }, upsert: { dest, f: 'planted' } }],
              ['POST', '/_bulk', ndjson([{ index: { _index: index, _id: `${id}-b` } }, { dest, f: 'planted' }]), true],
              ['POST', '/_bulk', ndjson([{ update: { _index: index, _id: `${id}-bu` } }, { doc: { dest, f: 'planted' }, doc_as_upsert: true }]), true],
            ];
            for (const [method, path, body, nd] of writes) {
              const r = await call(gw.url, method, path, { auth, body, headers: nd ? NDJSON : undefined });
              // written elsewhere than the index the request named
              const landed = /"_index":"\.(gateway-|opensearch-observability)/.test(r.text) || (r.status < 300 && !r.text.includes('"errors":true') && !r.text.includes(`"_index":"${index}"`));
              if (landed || r.status >= 500) problems.push(`${who} ${method} ${path} (${dest}): ${r.status} ${r.text.slice(0, 200)}`);
              else if (!nd) expect(r.json.error.type, r.text).to.equal('security_exception');
            }
          }
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
      // the Observability plugin's objects are its own still
      const objects = await call(gw.url, 'GET', '/_plugins/_observability/object?maxItems=100');
      expect(objects.status, objects.text).to.equal(200);
      // (the shared standalone engine keeps other specs' objects: its reset leaves the engine's own indices)
      const ids: string[] = objects.json.observabilityObjectList.map((o: { objectId: string }) => o.objectId);
      expect(ids).to.include('seeded-h5');
      expect(ids.filter((id) => id.startsWith('h5-'))).to.deep.equal([]);
      // another tenant's index is the caller's rights' to refuse, as where the request names it:
      // the embedded engine's access view does; the standalone engine never learns the caller (below)
      if (backend.name.startsWith('embedded')) for (const path of ['/tenant-p-set/_doc/foreign', '/tenant-p-set/_update/foreign']) {
        const body = path.includes('_update') ? { doc: { dest: 'tenant-b', f: 'planted' }, doc_as_upsert: true } : { dest: 'tenant-b', f: 'planted' };
        const r = await call(gw.url, path.includes('_update') ? 'POST' : 'PUT', path, { auth: piper, body });
        expect(r.status, `${path}: ${r.text}`).to.equal(403);
      }
      // an _index the caller may write is followed as before
      const ok = await call(gw.url, 'PUT', '/tenant-p-set/_doc/ok?refresh=true', { auth: piper, body: { dest: 'tenant-p-other', f: 'kept' } });
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.json._index).to.equal('tenant-p-other');
    });

    // KNOWN HOLE (docs/access-control.md says so), not fixed by hostile5: on the HTTP backend the standalone engine is called as its
    // superuser without the caller's rights (EngineRequest.access is not forwarded), so a tenant
    // writing to its own index whose default pipeline (set by the admin) takes `_index` from the
    // document writes into another tenant's index: PUT /tenant-a-routed/_doc/x {"dest":"tenant-b"},
    // POST /tenant-a-routed/_update/x {"doc":{"dest":"tenant-b"},"doc_as_upsert":true}, _bulk, _reindex.
    if (!backend.name.startsWith('embedded')) it("a default pipeline's _index does not carry a tenant's write into another tenant's index (HTTP backend: the engine is not given the caller's rights)");

    it('a dot-alone wildcard where the path holds one name (a document\'s index) is refused, not rewritten into a list', async () => {
      const probes: Array<[string, string, unknown?]> = [
        ['GET', '/.*/_doc/1'], ['GET', '/%2E*/_doc/1'], ['HEAD', '/.*/_doc/1'], ['GET', '/.*/_source/1'], ['GET', '/.*/_explain/1', { query: { match_all: {} } }],
        ['GET', '/.*/_termvectors/1'], ['PUT', '/.*/_doc/1', { f: 'x' }], ['PUT', '/.*/_create/2', { f: 'x' }], ['POST', '/.*/_update/1', { doc: { f: 'x' }, doc_as_upsert: true }],
        ['DELETE', '/.*/_doc/1'],
      ];
      for (const [who, auth] of [['admin', undefined], ['wide', wide], ['scoped', scoped]] as const) {
        for (const [method, path, body] of probes) {
          const r = await call(gw.url, method, path, { auth, body });
          expect(r.status, `${who} ${method} ${path}: ${r.text}`).to.equal(403);
          expect(r.text, `${who} ${method} ${path}`).not.to.include('-.gateway-*');
        }
      }
      // the lists beside them are narrowed as before
      const searched = await call(gw.url, 'GET', '/.*/_search', { auth: scoped });
      expect(searched.status, searched.text).to.equal(200);
      expect(searched.json.hits.hits.map((h: { _index: string }) => h._index).filter(ours)).to.deep.equal(['.tenant-a-h5']);
    });

    it("a narrowed dot-alone wildcard answers as the caller's own list would, allow_no_indices=false included", async () => {
      for (const [who, auth, seen] of [['wide', wide, ['.tenant-a-h5', 'tenant-b']], ['scoped', scoped, ['.tenant-a-h5']]] as const) {
        for (const path of ['/.*/_search?allow_no_indices=false', '/.*,tenant-b*/_search?allow_no_indices=false&ignore_unavailable=true']) {
          const r = await call(gw.url, 'GET', path, { auth });
          expect(r.status, `${who} ${path}: ${r.text}`).to.equal(200);
          const indices = [...new Set(r.json.hits.hits.map((h: { _index: string }) => h._index).filter(ours))].sort();
          const wanted = path.startsWith('/.*/') ? seen.filter((i) => i.startsWith('.')) : seen;
          expect(indices, `${who} ${path}`).to.deep.equal(wanted);
        }
      }
      // a list narrowed to nothing is refused naming what the caller wrote, not the gateway's exclusions
      const none = await call(gw.url, 'GET', '/.*-h5,-.tenant-a-h5/_search', { auth: scoped });
      expect(none.status, none.text).to.equal(403);
      expect(none.json.error.reason).to.match(/on indices \[\.\*-h5,-\.tenant-a-h5\]$/);
      // any list around a dot-alone wildcard: never a system index or another's, never the
      // gateway's exclusions read as names of their own, never a 5xx
      const member = fc.constantFrom('.*', '.t*', '.*-dot', 'tenant-*', 'tenant-b', '-.tenant-a-h5', '-tenant-b', '-x*', '_all', '*');
      const problems: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.array(member, { minLength: 1, maxLength: 4 }), fc.constantFrom('', 'allow_no_indices=false', 'ignore_unavailable=true', 'expand_wildcards=all', 'expand_wildcards=hidden&allow_no_indices=false'), fc.boolean(), async (list, params, asWide) => {
          const path = `/${['.*', ...list].join(',')}/_search?size=50${params ? `&${params}` : ''}`;
          const r = await call(gw.url, 'GET', path, { auth: asWide ? wide : scoped });
          const hits: string[] = r.status === 200 ? r.json.hits.hits.map((h: { _index: string }) => h._index) : [];
          const foreign = hits.filter((i) => i.startsWith('.gateway-') || i === OBS || (!asWide && !i.startsWith('tenant-a') && !i.startsWith('.tenant-a')));
          // (a list narrowed to nothing is refused, 403, as a scoped credential's wildcards are)
          const excludedAsName = r.status === 404 && r.json?.error?.type === 'index_not_found_exception' && String(r.json.error.index).startsWith('-');
          if (r.status >= 500 || foreign.length || excludedAsName) problems.push(`${asWide ? 'wide' : 'scoped'} ${path}: ${r.status} ${r.text.slice(0, 200)}`);
          return true;
        }),
        { numRuns: RUNS, seed: SEED },
      );
      expect(problems, problems.slice(0, 10).join('\n')).to.deep.equal([]);
    });
  });
}
