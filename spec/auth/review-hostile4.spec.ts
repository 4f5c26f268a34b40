import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { call, credentialAuth, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Review by a hostile tenant (h-hostile4): the tenancy leftovers of the earlier hostile reviews,
 * on both backends (the embedded engine, and the gateway in front of the standalone engine).
 *
 * 1. `.opensearch-observability` (the Observability plugin's saved objects) is a system index: no
 *    REST call reaches it, however its name is spelled — only `_plugins/_observability`, for
 *    those holding its cluster privilege. (Was: read and written by any credential on `*`.)
 * 2. Index and component template names Elasticsearch refuses (`,`, `*`, a space, `#`, a leading
 *    `_`, capitals…) are refused. (Was: stored by both engines.)
 * 3. An `_update` whose upsert creates the document runs the index's default and final
 *    pipelines, as Elasticsearch's update turns it into an index request. (Was: skipped.)
 * 4. `GET /_cat/indices/.*` lists the caller's visible dot-prefixed indices, system ones left
 *    out. (Was: 403 from the system-index guard, to the admin too.)
 */

const OBS = '.opensearch-observability';
const SECRET = 'secretobsh4';
const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 120);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 4404);

/** Spellings of an index list that names or may reach the Observability index. */
const spelling = fc.oneof(
  fc.constantFrom(OBS, '%2Eopensearch-observability', '.opensearch-observability%2C', `tenant-a,${OBS}`, `${OBS},tenant-a`, '.opensearch-*', '.o*', '.*', '.op*y',
    '*observability', '*', '_all', `<${OBS}>`, '<.opensearch-{now/d}*>', '<.opensearch-observability{now/M{yyyy}}*>', `*,-.gateway-*`, `-${OBS},${OBS}`, `.*,-.gateway-*`,
    `${OBS}*`, '.opensearch-observability/../.opensearch-observability', `${OBS.toUpperCase()}`),
  fc.constantFrom('.', '.o', '.op', '.opensearch', '.opensearch-', '.opensearch-obs', OBS).map((p) => `${p}*`),
);
const expand = fc.constantFrom(undefined, 'all', 'hidden', 'open,hidden');

type Probe = { method: string; path: string; body?: unknown; ndjson?: boolean };
const surface = fc.constantFrom<(x: string, q: string) => Probe>(
  (x, q) => ({ method: 'GET', path: `/${x}/_search${q}` }),
  (x, q) => ({ method: 'POST', path: `/${x}/_count${q}`, body: { query: { match_all: {} } } }),
  (x) => ({ method: 'POST', path: `/${x}/_doc`, body: { savedQuery: { name: 'planted' } } }),
  (x) => ({ method: 'PUT', path: `/${x}/_doc/planted`, body: { savedQuery: { name: 'planted' } } }),
  (x) => ({ method: 'GET', path: `/${x}/_doc/planted` }),
  (x, q) => ({ method: 'POST', path: `/${x}/_update_by_query${q}`, body: { script: { source: "ctx._source.savedQuery = ['name': 'planted']" } } }),
  (x, q) => ({ method: 'POST', path: `/${x}/_delete_by_query${q}`, body: { query: { match_all: {} } } }),
  (x, q) => ({ method: 'GET', path: `/${x}/_mapping${q}` }),
  (x, q) => ({ method: 'GET', path: `/${x}/_field_caps?fields=*${q.replace('?', '&')}` }),
  (x) => ({ method: 'POST', path: '/_bulk', body: ndjson([{ index: { _index: decodeURIComponent(x), _id: 'planted' } }, { savedQuery: { name: 'planted' } }]), ndjson: true }),
  (x) => ({ method: 'POST', path: '/_mget', body: { docs: [{ _index: decodeURIComponent(x), _id: 'planted' }] } }),
  (x) => ({ method: 'POST', path: '/_msearch', body: ndjson([{ index: decodeURIComponent(x), expand_wildcards: 'all' }, { query: { match_all: {} } }]), ndjson: true }),
  (x) => ({ method: 'POST', path: '/_reindex', body: { source: { index: decodeURIComponent(x) }, dest: { index: 'tenant-a-copy' } } }),
  (x) => ({ method: 'POST', path: '/_reindex', body: { source: { index: 'tenant-a' }, dest: { index: decodeURIComponent(x) } } }),
  (x) => ({ method: 'POST', path: '/_aliases', body: { actions: [{ add: { index: decodeURIComponent(x), alias: 'tenant-a-obs' } }] } }),
  (x) => ({ method: 'POST', path: `/tenant-a/_search?index=${x}`, body: { query: { terms: { f: { index: decodeURIComponent(x), id: 'planted', path: 'f' } } } } }),
);

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (hostile4): tenancy leftovers (${backend.name})`, function () {
    let gw: TestGateway, stop: () => Promise<void>;
    /** A credential on every index (`*`) without admin rights; one holding the cluster's manage privilege; one scoped to tenant-a. */
    let wide: string, manager: string, scoped: string;
    this.timeout(300_000);

    const cred = (body: Record<string, unknown>) => credentialAuth(gw.url, { allow_raw_dsl: true, categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], ...body });
    /**
     * The Observability objects, as the plugin's API reads them to the admin: the list, and by id
     * (realtime) the seeded object and those a direct write would have made (`planted`, and `1`
     * from tenant-a's document reindexed into it).
     */
    const observed = async () => {
      const r = await call(gw.url, 'GET', '/_plugins/_observability/object?maxItems=1000&sortField=createdTimeMs');
      expect(r.status, r.text).to.equal(200);
      const byId = await Promise.all(['seeded', 'planted', '1'].map(async (id) => (await call(gw.url, 'GET', `/_plugins/_observability/object/${id}`)).text));
      return JSON.stringify([r.json, byId]);
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      expect((await call(gw.url, 'PUT', '/tenant-a/_doc/1?refresh=true', { body: { f: 'own' } })).status).to.equal(201);
      const obj = await call(gw.url, 'POST', '/_plugins/_observability/object', { body: { objectId: 'seeded', savedQuery: { name: SECRET, query: 'source=x' } } });
      expect(obj.status, obj.text).to.equal(200);
      expect((await call(gw.url, 'POST', `/_refresh`)).status).to.equal(200);
      wide = await cred({ indices: ['*'] });
      manager = await cred({ indices: ['tenant-a*'], cluster_privileges: ['manage'] });
      scoped = await cred({ indices: ['tenant-a*', '.tenant-a*'] });
    });
    // the shared standalone engine's reset keeps dot-prefixed indices: this spec's are removed here, so it runs again in one process
    after(async () => {
      try {
        if (gw) expect((await call(gw.url, 'DELETE', '/.tenant-a-dot,.tenant-b-dot?ignore_unavailable=true')).status).to.equal(200);
      } finally {
        await stop?.();
      }
    });

    it('the Observability index: no spelling of its name reaches it through any API, for a credential on every index or the admin', async () => {
      const before = await observed();
      expect(before).to.include(SECRET);
      const problems: string[] = [];
      await fc.assert(
        fc.asyncProperty(spelling, expand, surface, fc.boolean(), async (x, wildcards, make, asAdmin) => {
          const probe = make(x, wildcards ? `?expand_wildcards=${wildcards}` : '');
          const r = await call(gw.url, probe.method, probe.path, { auth: asAdmin ? undefined : wide, body: probe.body, headers: probe.ndjson ? NDJSON : undefined });
          const leaked = r.text.includes(SECRET) || /"_index":"\.opensearch-observability"/.test(r.text) || /"index":"\.opensearch-observability"/.test(r.text);
          if (r.status >= 500 || leaked) problems.push(`${asAdmin ? 'admin' : 'wide'} ${probe.method} ${probe.path} ${typeof probe.body === 'string' ? probe.body.slice(0, 120) : JSON.stringify(probe.body ?? '')}: ${r.status} ${r.text.slice(0, 200)}`);
          return true;
        }),
        { numRuns: RUNS, seed: SEED },
      );
      expect(problems, problems.slice(0, 20).join('\n')).to.deep.equal([]);
      // nothing was written into it, nor an alias made to it
      expect(await observed()).to.equal(before);
      const aliases = await call(gw.url, 'GET', '/_alias/tenant-a-obs');
      expect(aliases.text).not.to.include(OBS);
    });

    it('the Observability objects stay served: to the admin and to a credential holding the cluster manage privilege, not to one without', async () => {
      const made = await call(gw.url, 'POST', '/_plugins/_observability/object', { auth: manager, body: { objectId: 'by-manager', savedVisualization: { name: 'v1', query: 'source=a', type: 'bar' } } });
      expect(made.status, made.text).to.equal(200);
      const byId = await call(gw.url, 'GET', '/_plugins/_observability/object/by-manager', { auth: manager });
      expect(byId.status, byId.text).to.equal(200);
      expect(byId.json.observabilityObjectList[0].savedVisualization.name).to.equal('v1');
      const updated = await call(gw.url, 'PUT', '/_plugins/_observability/object/by-manager', { auth: manager, body: { savedVisualization: { name: 'v2', query: 'source=a', type: 'bar' } } });
      expect(updated.status, updated.text).to.equal(200);
      await call(gw.url, 'POST', '/_refresh');
      const list = await call(gw.url, 'GET', '/_plugins/_observability/object?objectType=savedVisualization', { auth: manager });
      expect(list.status, list.text).to.equal(200);
      expect(list.json.observabilityObjectList.map((o: { objectId: string }) => o.objectId)).to.deep.equal(['by-manager']);
      const adminList = await call(gw.url, 'GET', '/_plugins/_observability/object?objectType=savedQuery');
      expect(adminList.json.observabilityObjectList.map((o: { savedQuery: { name: string } }) => o.savedQuery.name)).to.include(SECRET);
      expect((await call(gw.url, 'GET', '/_plugins/_observability/object', { auth: scoped })).status).to.equal(403);
      expect((await call(gw.url, 'DELETE', '/_plugins/_observability/object/by-manager', { auth: manager })).status).to.equal(200);
      // the index is hidden, as a system index is: a plain `*` of the admin does not reach it
      const all = await call(gw.url, 'GET', '/*/_search?size=50');
      expect(all.status, all.text).to.equal(200);
      expect(all.text).not.to.include(SECRET);
    });

    it('GET /_cat/indices/.* lists the dot-prefixed indices the caller may see, never a system index', async () => {
      for (const index of ['.tenant-a-dot', '.tenant-b-dot']) expect((await call(gw.url, 'PUT', `/${index}`)).status).to.equal(200);
      const listed = async (auth: string | undefined, path: string) => {
        const r = await call(gw.url, 'GET', path, { auth });
        expect(r.status, `${path}: ${r.text}`).to.equal(200);
        return r.text.split('\n').map((l) => l.trim()).filter(Boolean).sort();
      };
      for (const path of ['/_cat/indices/.*?h=index', '/_cat/indices/.t*?h=index', '/_cat/indices/.*,tenant-a?h=index', '/_cat/indices/.*?h=index&expand_wildcards=all']) {
        const extra = path.includes('tenant-a?') ? ['tenant-a'] : [];
        expect(await listed(undefined, path), `admin ${path}`).to.deep.equal([...extra, '.tenant-a-dot', '.tenant-b-dot'].sort());
        expect(await listed(wide, path), `wide ${path}`).to.deep.equal([...extra, '.tenant-a-dot', '.tenant-b-dot'].sort());
        expect(await listed(scoped, path), `scoped ${path}`).to.deep.equal([...extra, '.tenant-a-dot'].sort());
      }
      // a search of dot-prefixed indices alike; a wildcard within a system index's name stays refused
      const searched = await call(gw.url, 'GET', '/.*/_search', { auth: scoped });
      expect(searched.status, searched.text).to.equal(200);
      for (const path of ['/_cat/indices/.gateway-*', '/_cat/indices/.g*', `/_cat/indices/${OBS}*`, '/_cat/indices/.opensearch*', '/_cat/indices/<.*>', `/_cat/indices/.*,${OBS}`]) {
        expect((await call(gw.url, 'GET', path, { auth: wide })).status, path).to.equal(403);
      }
    });

    it('an index or component template name Elasticsearch refuses is refused, as MetadataIndexTemplateService.validate does', async () => {
      const body = { index_patterns: ['tpl-h4-*'], template: { settings: { number_of_shards: 1 } } };
      const cases: Array<[string, string]> = [
        ['a,b', "name must not contain a ','"], ['a*', "name must not contain a '*'"], ['a%20b', 'name must not contain a space'], ['a%23b', "name must not contain a '#'"],
        ['_a', "name must not start with '_'"], ['Abc', 'name must be lower cased'],
      ];
      for (const [name, problem] of cases) {
        const shown = decodeURIComponent(name);
        const reason = `index_template [${shown}] invalid, cause [Validation Failed: 1: ${problem};]`;
        for (const [path, sent] of [[`/_index_template/${name}`, body], [`/_component_template/${name}`, { template: body.template }], [`/_template/${name}`, { index_patterns: ['tpl-h4-*'], settings: { number_of_shards: 1 } }]] as const) {
          const r = await call(gw.url, 'PUT', path, { body: sent });
          expect(r.status, `${path}: ${r.text}`).to.equal(400);
          expect(r.json.error.type, path).to.equal('invalid_index_template_exception');
          expect(r.json.error.reason, path).to.equal(reason);
        }
      }
      // every problem at once, patterns' included
      const both = await call(gw.url, 'PUT', '/_index_template/X*', { body: { index_patterns: ['_p', 'a:b'] } });
      expect(both.json.error.reason).to.equal("index_template [X*] invalid, cause [Validation Failed: 1: name must not contain a '*';2: name must be lower cased;3: index_pattern [_p] must not start with '_';4: index_pattern [a:b] must not contain a ':';]");
      // nothing was stored, and a valid name still is
      expect((await call(gw.url, 'GET', '/_index_template/a*')).json.index_templates).to.deep.equal([]);
      expect((await call(gw.url, 'PUT', '/_index_template/tpl-h4.ok_1', { body })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/_component_template/tpl-h4.ok_1', { body: { template: body.template } })).status).to.equal(200);
      expect((await call(gw.url, 'DELETE', '/_index_template/tpl-h4.ok_1')).status).to.equal(200);
      expect((await call(gw.url, 'DELETE', '/_component_template/tpl-h4.ok_1')).status).to.equal(200);
    });

    it("an _update whose upsert creates the document runs the index's default and final pipelines", async () => {
      for (const [id, processors] of [['h4-default', [{ set: { field: 'by_default', value: true } }]], ['h4-final', [{ set: { field: 'by_final', value: '{{{ran}}}-final' } }]]] as const) {
        expect((await call(gw.url, 'PUT', `/_ingest/pipeline/${id}`, { body: { processors } })).status).to.equal(200);
      }
      expect((await call(gw.url, 'PUT', '/tenant-a-piped', { body: { settings: { 'index.default_pipeline': 'h4-default', 'index.final_pipeline': 'h4-final' } } })).status).to.equal(200);
      const upserts: Array<[string, Record<string, unknown>]> = [
        ['upsert', { doc: { ran: 'doc' }, upsert: { ran: 'upsert' } }],
        ['doc-as-upsert', { doc: { ran: 'doc' }, doc_as_upsert: true }],
        ['script-upsert', { script: { source: "ctx._source.ran = 'script'" }, upsert: { ran: 'upsert' } }],
      ];
      for (const auth of [undefined, scoped]) {
        for (const [id, body] of upserts) {
          const r = await call(gw.url, 'POST', `/tenant-a-piped/_update/${id}-${auth ? 's' : 'a'}`, { auth, body });
          expect(r.status, r.text).to.equal(201);
          expect(r.json.result).to.equal('created');
          const ran = (body.doc_as_upsert ? 'doc' : 'upsert');
          expect((await call(gw.url, 'GET', `/tenant-a-piped/_doc/${id}-${auth ? 's' : 'a'}`)).json._source, id).to.deep.equal({ ran, by_default: true, by_final: `${ran}-final` });
        }
      }
      // an update of a document that exists runs none (Elasticsearch: updates do not run pipelines)
      const again = await call(gw.url, 'POST', '/tenant-a-piped/_update/upsert-a', { body: { doc: { ran: 'again' }, upsert: { ran: 'upsert' } } });
      expect(again.json.result).to.equal('updated');
      expect((await call(gw.url, 'GET', '/tenant-a-piped/_doc/upsert-a')).json._source).to.deep.equal({ ran: 'again', by_default: true, by_final: 'upsert-final' });
    });
  });
}
