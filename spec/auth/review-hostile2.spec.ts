import { expect } from 'chai';
import fc from 'fast-check';
import { Pool } from 'undici';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { clientForwards, leaksIn, sendRaw, startRecordedGateway, systemIndexForwards, type RecordingUpstream } from '../support/recording-upstream.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';

/**
 * Review by a hostile tenant (h-hostile2) of what session 15 added: OpenSearch's Security plugin's
 * endpoints about the caller, `_routing: {required: true}` and the change publishing's reads of
 * routed documents, `synonyms_path`, the reroute / terminate / redact ingest processors and index
 * templates giving a new index its pipelines. Both backends, the HTTP one recorded at the engine.
 *
 * Each case states the property; a case that held stays as a guard.
 */

/** The tenant's index, another tenant's it may not read. */
const [OWN, FOREIGN] = ['tenant-a', 'tenant-b'];
/** What no answer to a tenant may hold: the other tenant's index name and values, the gateway's system indices. */
const LEAK = /tenant-b|foreignh2|\.gateway-/;

const BACKENDS: Array<{ name: string; start(): Promise<{ gateway: TestGateway; upstream?: RecordingUpstream; stop(): Promise<void> }> }> = [
  { name: 'embedded engine', async start() { const gateway = await startTestGateway(); return { gateway, stop: () => gateway.close() }; } },
  { name: 'HTTP backend (recorded)', start: () => startRecordedGateway() },
];

for (const backend of BACKENDS) {
  describe(`review by a hostile tenant (hostile2): session 15's surfaces (${backend.name})`, function () {
    let gw: TestGateway, upstream: RecordingUpstream | undefined, stop: () => Promise<void>;
    // a tenant with every index category; one that may also manage index templates (not pipelines)
    let tenant: string, templater: string, tenantName: string;
    let pool: Pool;
    this.timeout(300_000);

    const cred = async (body: Record<string, unknown>) => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${OWN}*`], allow_raw_dsl: true, ...body } });
      expect(made.status, made.text).to.equal(201);
      return { auth: basic(made.json.credential.username, made.json.password), username: made.json.credential.username as string };
    };
    const forwarded = () => clientForwards(upstream?.requests ?? []);
    const foreignDocs = async () => {
      const r = await call(gw.url, 'POST', `/${FOREIGN}/_search?size=100`, { body: { query: { match_all: {} } } });
      return (r.json?.hits?.hits ?? []).map((h: { _id: string }) => h._id).sort();
    };

    before(async () => {
      ({ gateway: gw, upstream, stop } = await backend.start());
      pool = new Pool(gw.url);
      for (const index of [OWN, FOREIGN]) {
        const made = await call(gw.url, 'PUT', `/${index}`, { body: { mappings: { properties: { f: { type: 'keyword' }, dest: { type: 'keyword' } } } } });
        expect(made.status, made.text).to.equal(200);
      }
      const bulked = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson([{ index: { _index: FOREIGN, _id: '1' } }, { f: 'foreignh2' }]), headers: NDJSON });
      expect(bulked.json.errors, bulked.text).to.equal(false);
      const t = await cred({ categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'] });
      tenant = t.auth;
      tenantName = t.username;
      templater = (await cred({ categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'], cluster_privileges: ['manage_index_templates'] })).auth;
    });
    after(async () => {
      await pool?.close();
      await stop?.();
    });

    it("the Security plugin: a scoped credential reaches none of the plugin's other APIs, however the path is spelled, and nothing of them reaches the engine", async () => {
      const problems: string[] = [];
      const apis = ['api/internalusers', 'api/internalusers/admin', 'api/roles', 'api/roles/all_access', 'api/rolesmapping', 'api/actiongroups', 'api/tenants', 'api/audit',
        'api/securityconfig', 'api/nodesdn', 'api/allowlist', 'api/ssl/certs', 'api/cache', 'tenantinfo', 'api/account/x', 'api/_upgrade_check', 'api/tenancy/config',
        'api/certificates', 'api/migrate', 'api/user'];
      const spellings = (api: string): string[] => [
        `/_plugins/_security/${api}`, `/_opendistro/_security/${api}`, `/_plugins/_security/${api}/`, `//_plugins/_security/${api}`, `/_plugins//_security/${api}`,
        `/_plugins/_security//${api}`, `/_PLUGINS/_security/${api}`, `/_plugins/_Security/${api}`, `/_plugins/%5Fsecurity/${api}`, `/_plugins/_security/${api.replace('api/', 'api%2F')}`,
        `/%5Fplugins/_security/${api}`, `/_plugins/_security/authinfo/../${api}`, `/_plugins/_security/authinfo/%2E%2E/${api}`, `/_plugins/_security/${api}?pretty`,
        `/_plugins/_security/${api}.`, `/_plugins/_security/./${api}`,
      ];
      for (const api of apis) {
        for (const path of spellings(api)) {
          for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'POST']) {
            upstream?.clear();
            const r = await sendRaw(pool, { method, path, body: method === 'GET' || method === 'DELETE' ? undefined : '{}', contentType: 'application/json' }, tenant, 10_000);
            if (r === 'timeout' || r.status < 400 || /"admin"|internal_users|all_access"/.test(r.text)) problems.push(`${method} ${path}: ${r === 'timeout' ? r : `${r.status} ${r.text.slice(0, 200)}`}`);
            for (const f of forwarded()) problems.push(`${method} ${path}: forwarded ${f.method} ${f.path}`);
          }
        }
      }
      expect(problems, problems.slice(0, 40).join('\n')).to.deep.equal([]);
    });

    it('the Security plugin: the endpoints about the caller answer about the caller only, and never reach the engine', async () => {
      const problems: string[] = [];
      for (const prefix of ['/_plugins/_security', '/_opendistro/_security', '//_plugins/_security', '/_plugins/_security/']) {
        for (const [method, api] of [['GET', 'authinfo?verbose=true'], ['POST', 'authinfo'], ['GET', 'whoami'], ['GET', 'whoamiprotected'], ['GET', 'health'], ['GET', 'dashboardsinfo'], ['GET', 'kibanainfo'], ['GET', 'api/account'], ['PUT', 'api/account'], ['GET', 'api/permissionsinfo'], ['GET', 'authinfo/'], ['GET', 'api/account/']]) {
          upstream?.clear();
          const path = `${prefix}/${api}`.replace(/([^/])\/\/(?=[a-z])/, '$1/');
          const r = await sendRaw(pool, { method, path, body: method === 'PUT' ? JSON.stringify({ current_password: 'x', password: 'abcdefghijkl' }) : undefined, contentType: 'application/json' }, tenant, 10_000);
          if (r === 'timeout') { problems.push(`${method} ${path}: timeout`); continue; }
          if (r.text.includes(`"${ADMIN.user}"`) || r.text.includes(`name=${ADMIN.user},`) || LEAK.test(r.text) || /password_hash|"hash"|scrypt|ssha/.test(r.text)) problems.push(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
          if (r.status === 200 && !r.text.includes(tenantName) && !/"status":"UP"|"dn":null/.test(r.text)) problems.push(`${method} ${path}: answered about someone else: ${r.text.slice(0, 300)}`);
          for (const f of forwarded()) problems.push(`${method} ${path}: forwarded ${f.method} ${f.path}`);
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it("ingest: a tenant that may not run pipelines sends no document into another index — through a template's component templates, a pipeline named anywhere, or an index's default pipeline", async () => {
      const problems: string[] = [];
      const admin = async (method: string, path: string, body?: unknown) => {
        const r = await call(gw.url, method, path, { body });
        expect(r.status, `${method} ${path}: ${r.text}`).to.be.below(300);
      };
      // the reroute processor where the engine has it, else a `set` of `_index`
      if ((await call(gw.url, 'PUT', '/_ingest/pipeline/reroute-foreign', { body: { processors: [{ reroute: { destination: FOREIGN } }] } })).status !== 200) {
        await admin('PUT', '/_ingest/pipeline/reroute-foreign', { processors: [{ set: { field: '_index', value: FOREIGN } }] });
      }
      await admin('PUT', '/_ingest/pipeline/set-foreign', { processors: [{ set: { field: '_index', value: '{{dest}}' } }] });
      await admin('PUT', '/_component_template/ct-pipeline', { template: { settings: { index: { default_pipeline: 'reroute-foreign' } } } });
      await admin('PUT', '/_component_template/ct-final', { template: { settings: { 'index.final_pipeline': 'set-foreign' } } });
      await admin('PUT', '/_component_template/ct-alias', { template: { aliases: { 'shared-h2': {} } } });
      const before = await foreignDocs();
      const attempt = async (label: string, auth: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
        upstream?.clear();
        const r = await call(gw.url, method, path, { auth, body, headers });
        if (r.status < 300) problems.push(`${label}: ${method} ${path} answered ${r.status} ${r.text.slice(0, 200)}`);
        for (const leak of leaksIn(forwarded(), { names: ['reroute-foreign', 'set-foreign', 'ct-pipeline', 'ct-final', 'ct-alias'], reachable: [FOREIGN] })) problems.push(`${label}: ${leak}`);
        return r;
      };
      // a template whose component templates set a pipeline (or an alias beyond the tenant's indices)
      for (const ct of ['ct-pipeline', 'ct-final', 'ct-alias']) {
        const made = await attempt(`composed_of ${ct}`, templater, 'PUT', `/_index_template/mine-${ct}`, { index_patterns: [`${OWN}-${ct}*`], composed_of: [ct], priority: 900 });
        if (made.status < 300) {
          await call(gw.url, 'PUT', `/${OWN}-${ct}-1`, { auth: templater });
          const w = await call(gw.url, 'PUT', `/${OWN}-${ct}-1/_doc/x-${ct}?refresh=true`, { auth: templater, body: { f: 'x', dest: FOREIGN } });
          problems.push(`  then a write to ${OWN}-${ct}-1: ${w.status} ${w.text.slice(0, 200)}`);
          const settings = await call(gw.url, 'GET', `/${OWN}-${ct}-1/_settings,_alias`);
          problems.push(`  its settings: ${settings.text.slice(0, 300)}`);
        }
      }
      // the pipeline named by the write itself (guards)
      await attempt('pipeline=', tenant, 'PUT', `/${OWN}/_doc/p1?pipeline=reroute-foreign`, { f: 'x' });
      await attempt('bulk item pipeline', tenant, 'POST', '/_bulk', ndjson([{ index: { _index: OWN, _id: 'p2', pipeline: 'reroute-foreign' } }, { f: 'x' }]), NDJSON);
      await attempt('reindex dest.pipeline', tenant, 'POST', '/_reindex', { source: { index: OWN }, dest: { index: `${OWN}-copy`, pipeline: 'reroute-foreign' } });
      await attempt('update_by_query pipeline=', tenant, 'POST', `/${OWN}/_update_by_query?pipeline=reroute-foreign`, {});
      await attempt('settings default_pipeline', tenant, 'PUT', `/${OWN}/_settings`, { 'index.default_pipeline': 'reroute-foreign' });
      await attempt('creation final_pipeline', tenant, 'PUT', `/${OWN}-new`, { settings: { index: { final_pipeline: 'set-foreign' } } });
      await attempt('template default_pipeline', templater, 'PUT', '/_index_template/mine-direct', { index_patterns: [`${OWN}-direct*`], template: { settings: { default_pipeline: 'reroute-foreign' } } });
      await attempt('simulate a stored pipeline', tenant, 'POST', '/_ingest/pipeline/set-foreign/_simulate', { docs: [{ _index: OWN, _source: { dest: FOREIGN } }] });
      const after = await foreignDocs();
      if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`${FOREIGN} now holds ${after.join(',')} (was ${before.join(',')})`);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it("ingest: an index's default pipeline (the admin's) that reroutes by a document's fields writes only where the writer may write", async function () {
      // the engine checks a write's final `_index` where it acts; in front of an HTTP engine the
      // gateway cannot see where a stored pipeline sends a document (open: docs/access-control.md)
      if (upstream) this.skip();
      const problems: string[] = [];
      for (const [pipeline, processor] of [['route-set', { set: { field: '_index', value: '{{dest}}' } }], ['route-dataset', { reroute: { dataset: '{{dest}}', namespace: 'h2' } }], ['route-dest', { reroute: { destination: FOREIGN } }]] as const) {
        const put = await call(gw.url, 'PUT', `/_ingest/pipeline/${pipeline}`, { body: { processors: [processor] } });
        if (put.status !== 200 && /No processor type exists with name \[reroute\]/.test(put.text)) continue; // before the reroute processor
        expect(put.status, put.text).to.equal(200);
        const index = `${OWN}-${pipeline}`;
        expect((await call(gw.url, 'PUT', `/${index}`, { body: { settings: { 'index.default_pipeline': pipeline } } })).status).to.equal(200);
        const before = await foreignDocs();
        for (const [how, req] of [
          ['doc', () => call(gw.url, 'PUT', `/${index}/_doc/r-${pipeline}?refresh=true`, { auth: tenant, body: { f: 'x', dest: FOREIGN } })],
          ['bulk', () => call(gw.url, 'POST', '/_bulk?refresh=true', { auth: tenant, body: ndjson([{ index: { _index: index, _id: `rb-${pipeline}` } }, { f: 'x', dest: FOREIGN }]), headers: NDJSON })],
          ['upsert', () => call(gw.url, 'POST', `/${index}/_update/ru-${pipeline}?refresh=true`, { auth: tenant, body: { doc: { f: 'x', dest: FOREIGN }, doc_as_upsert: true } })],
        ] as const) {
          const r = await req();
          const after = await foreignDocs();
          if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`${pipeline} by ${how}: ${r.status} ${r.text.slice(0, 200)}; ${FOREIGN} now holds ${after.join(',')}`);
        }
        const streams = await call(gw.url, 'GET', '/_cat/indices/logs-*?h=index');
        if (streams.text.trim()) problems.push(`${pipeline}: made ${streams.text.trim()}`);
      }
      // a new index's pipelines come from its templates (the admin's): its first write is checked where it lands too
      expect((await call(gw.url, 'PUT', '/_index_template/tp', { body: { index_patterns: [`${OWN}-tp*`], template: { settings: { 'index.default_pipeline': 'route-set' } } } })).status).to.equal(200);
      const before = await foreignDocs();
      const w = await call(gw.url, 'PUT', `/${OWN}-tp1/_doc/t1?refresh=true`, { auth: tenant, body: { f: 'x', dest: FOREIGN } });
      if (JSON.stringify(await foreignDocs()) !== JSON.stringify(before)) problems.push(`a new index's template pipeline: ${w.status} ${w.text.slice(0, 200)}`);
      // a data stream's reroute by dataset, for a tenant of one data stream
      expect((await call(gw.url, 'PUT', '/_ingest/pipeline/ds-route', { body: { processors: [{ reroute: { dataset: '{{dest}}', namespace: 'default' } }] } })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/_index_template/ds', { body: { index_patterns: ['logs-*-*'], data_stream: {}, priority: 300, template: { settings: { 'index.default_pipeline': 'ds-route' } } } })).status).to.equal(200);
      expect((await call(gw.url, 'POST', '/logs-other-default/_doc?refresh=true', { body: { '@timestamp': '2024-01-01', f: 'othersh2', dest: 'other' } })).status).to.equal(201);
      const streamer = (await cred({ indices: ['logs-mine-*'], categories: ['docs', 'search'], ops: ['read', 'write'] })).auth;
      const rerouted = await call(gw.url, 'POST', '/logs-mine-default/_doc?refresh=true', { auth: streamer, body: { '@timestamp': '2024-01-01', f: 'x', dest: 'other' } });
      const other = await call(gw.url, 'POST', '/logs-other-default/_count');
      if (other.json?.count !== 1) problems.push(`a data stream reroute: ${rerouted.status} ${rerouted.text.slice(0, 200)}; logs-other-default counts ${other.text}`);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it("routing: required routing and the change publishing's reads of an update's document reach only the tenant's own index", async () => {
      const problems: string[] = [];
      for (const index of [`${OWN}-r`, `${FOREIGN}-r`]) {
        const made = await call(gw.url, 'PUT', `/${index}`, { body: { mappings: { _routing: { required: true }, properties: { f: { type: 'keyword' } } } } });
        expect(made.status, made.text).to.equal(200);
      }
      expect((await call(gw.url, 'PUT', `/${FOREIGN}-r/_doc/1?routing=k&refresh=true`, { body: { f: 'foreignh2' } })).status).to.equal(201);
      expect((await call(gw.url, 'PUT', `/${OWN}-r/_doc/1?routing=k&refresh=true`, { body: { f: 'own' } })).status).to.equal(201);
      const probe = async (method: string, path: string, body?: unknown, mayAnswer = true, headers?: Record<string, string>) => {
        upstream?.clear();
        const r = await call(gw.url, method, path, { auth: tenant, body, headers });
        const written = decodeURIComponent(path) + JSON.stringify(body ?? '');
        if ((!mayAnswer && r.status < 400) || (LEAK.test(r.text) && (r.status < 400 || !written.includes('tenant-b')))) problems.push(`${method} ${path} ${JSON.stringify(body ?? '').slice(0, 120)}: ${r.status} ${r.text.slice(0, 300)}`);
        for (const leak of leaksIn(forwarded(), { names: written.includes('tenant-b') ? [] : ['tenant-b'], reachable: [`${FOREIGN}-r`] })) problems.push(`${method} ${path}: ${leak}`);
        for (const leak of systemIndexForwards(forwarded())) problems.push(`${method} ${path}: ${leak}`);
        return r;
      };
      const own = `/${OWN}-r/_update/1`;
      for (const [q, body] of [
        ['?routing=k', { doc: { f: 'u1' }, _source: true }],
        ['?routing=k', { doc: { f: 'u2' }, _source: ['f'] }],
        ['?routing=k&_source=true', { doc: { f: 'u3' } }],
        ['?routing=k&routing=zz', { doc: { f: 'u4' }, _source: true }],
        ['?routing=k', { doc: { f: 'u5' }, _source: true, _index: `${FOREIGN}-r` }],
        ['?routing=k', { doc: { f: 'u6' }, _source: true, routing: 'k', index: `${FOREIGN}-r` }],
        ['?routing=k', { script: { source: "ctx._index = 'tenant-b-r'" }, _source: true }],
        ['?routing=k', { doc: { f: 'u7' }, upsert: { f: 'u7' }, _source: { includes: ['*'] } }],
        ['', { doc: { f: 'u8' }, _source: true }],
      ] as const) await probe('POST', `${own}${q}`, body);
      const u = await call(gw.url, 'POST', `/${OWN}-r/_update/new?routing=k&refresh=true`, { auth: tenant, body: { doc: { f: 'n' }, doc_as_upsert: true, _source: true } });
      if (u.status !== 201 || u.json?.get?._source?.f !== 'n') problems.push(`own upsert with _source: ${u.status} ${u.text}`);
      // another tenant's routed document, however named
      for (const path of [`/${FOREIGN}-r/_doc/1?routing=k`, `/${OWN}-r,${FOREIGN}-r/_search?routing=k`, `/${OWN}-r/_doc/1?routing=k&index=${FOREIGN}-r`, `/${FOREIGN}-r/_explain/1?routing=k`,
        `/${FOREIGN}-r/_termvectors/1?routing=k`, `/${FOREIGN}-r/_source/1?routing=k`, `/%3C${FOREIGN}-r%3E/_doc/1?routing=k`, `/${FOREIGN}-r./_doc/1?routing=k`]) {
        await probe('GET', path, undefined, false);
      }
      await probe('POST', '/_mget', { docs: [{ _index: `${FOREIGN}-r`, _id: '1', routing: 'k' }] }, false);
      await probe('POST', `/${OWN}-r/_mget`, { docs: [{ _id: '1', routing: 'k', _index: `${FOREIGN}-r` }] }, false);
      await probe('POST', `/${OWN}-r/_update/1?routing=k`, { doc: { f: 'x' }, _source: true, detect_noop: false, if_seq_no: 0, if_primary_term: 1 });
      await probe('POST', '/_bulk', ndjson([{ update: { _index: `${OWN}-r`, _id: '1', routing: 'k', _source: ['f'] } }, { doc: { f: 'b1' } }]), true, NDJSON);
      await probe('POST', '/_bulk', ndjson([{ update: { _index: `${FOREIGN}-r`, _id: '1', routing: 'k', _source: true } }, { doc: { f: 'b2' } }]), false, NDJSON);
      const still = await call(gw.url, 'GET', `/${FOREIGN}-r/_doc/1?routing=k`);
      if (still.json?._source?.f !== 'foreignh2') problems.push(`${FOREIGN}-r/1 changed: ${still.text}`);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it('synonyms_path and the other *_path settings read only files of the engine\'s config directory, never their text into an answer', async () => {
      const problems: string[] = [];
      const paths = ['/etc/passwd', '../../../../../../../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', './../../../../../../etc/passwd', 'config/../../../../../../etc/passwd',
        '\\..\\..\\etc\\passwd', 'file:///etc/passwd', '/proc/self/environ', '../../../../../../proc/self/environ', '/etc/passwd\u0000.txt', '~/.bashrc', '../', '.', ''];
      const filters = (file: string) => [
        { type: 'synonym', synonyms_path: file }, { type: 'synonym_graph', synonyms_path: file }, { type: 'synonym', synonyms_path: file, updateable: true },
        { type: 'stop', stopwords_path: file }, { type: 'keep', keep_words_path: file }, { type: 'dictionary_decompounder', word_list_path: file },
        { type: 'hyphenation_decompounder', hyphenation_patterns_path: file }, { type: 'common_grams', common_words_path: file }, { type: 'stemmer_override', rules_path: file },
        { type: 'elision', articles_path: file }, { type: 'keyword_marker', keywords_path: file }, { type: 'word_delimiter_graph', protected_words_path: file, type_table_path: file },
      ];
      const secret = /root:|x:0:0|PATH=|HOME=|ENGINE_AUTH|upstream-secret|test-admin-password/;
      let n = 0;
      for (const file of paths) {
        for (const filter of filters(file)) {
          n++;
          const created = await call(gw.url, 'PUT', `/${OWN}-syn${n}`, { auth: tenant, body: { settings: { analysis: { filter: { f: filter }, analyzer: { a: { tokenizer: 'whitespace', filter: ['f'] } } } } } });
          // a setting the engine reads must refuse the file; one it does not read (word_delimiter_graph's) reads nothing
          const reads = 'synonyms_path' in filter || 'word_list_path' in filter || 'hyphenation_patterns_path' in filter;
          if ((reads && created.status < 300) || secret.test(created.text)) problems.push(`create ${JSON.stringify(filter)}: ${created.status} ${created.text.slice(0, 200)}`);
          for (const path of [`/${OWN}/_analyze`, '/_analyze']) {
            const analyzed = await call(gw.url, 'POST', path, { auth: tenant, body: { tokenizer: 'whitespace', filter: [filter], text: 'root daemon x' } });
            if ((reads && analyzed.status < 300) || secret.test(analyzed.text)) problems.push(`${path} ${JSON.stringify(filter)}: ${analyzed.status} ${analyzed.text.slice(0, 200)}`);
          }
        }
      }
      expect(problems, problems.slice(0, 30).join('\n')).to.deep.equal([]);
    });

    it("index templates: a tenant that manages templates changes or removes no template of another's indices, by name, wildcard, list or encoding", async () => {
      const problems: string[] = [];
      const admin = async (method: string, path: string, body?: unknown) => {
        const r = await call(gw.url, method, path, { body });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(200);
      };
      await admin('PUT', '/_component_template/ct-b', { template: { mappings: { properties: { f: { type: 'keyword' } } } } });
      await admin('PUT', '/_index_template/tmpl-b', { index_patterns: [`${FOREIGN}-t*`], composed_of: ['ct-b'], template: { settings: { number_of_replicas: 0 } } });
      await admin('PUT', '/_template/legacy-b', { index_patterns: [`${FOREIGN}-l*`], settings: { number_of_replicas: 0 } });
      const state = async () => JSON.stringify([(await call(gw.url, 'GET', '/_index_template/tmpl-b')).json, (await call(gw.url, 'GET', '/_component_template/ct-b')).json, (await call(gw.url, 'GET', '/_template/legacy-b')).json]);
      const before = await state();
      const mine = { index_patterns: [`${OWN}-tt*`], priority: 17, template: { settings: { number_of_replicas: 0 } } };
      for (const [method, path, body] of [
        ['PUT', '/_index_template/tmpl-b', mine], ['POST', '/_index_template/tmpl-b', mine], ['DELETE', '/_index_template/tmpl-b'], ['DELETE', '/_index_template/tmpl-*'],
        ['DELETE', '/_index_template/*'], ['DELETE', '/_index_template/mine-t,tmpl-b'], ['DELETE', '/_index_template/tmpl%2Db'], ['DELETE', '/_index_template/tmpl-b?master_timeout=1s'],
        ['PUT', '/_component_template/ct-b', { template: { mappings: { dynamic: false } } }], ['DELETE', '/_component_template/ct-*'], ['PUT', '/_component_template/ct-b?create=false', { template: {} }],
        ['PUT', '/_template/legacy-b', { index_patterns: [`${OWN}-l*`] }], ['DELETE', '/_template/legacy-b'], ['DELETE', '/_template/legacy-*'], ['DELETE', '/_template/*'],
      ] as const) {
        upstream?.clear();
        const r = await call(gw.url, method, path, { auth: templater, body });
        if (r.status < 400 || LEAK.test(r.text)) problems.push(`${method} ${path}: ${r.status} ${r.text.slice(0, 200)}`);
        if (forwarded().some((f) => f.method !== 'GET')) problems.push(`${method} ${path}: forwarded ${forwarded().map((f) => `${f.method} ${f.path}`).join(', ')}`);
      }
      const after = await state();
      if (after !== before) problems.push(`changed: ${after}`);
      // generated: whatever spelling, list or wildcard names the other's templates, and whatever the tenant's body says, they stay as they are
      const spelled = fc.oneof(
        fc.constantFrom('tmpl-b', 'ct-b', 'legacy-b', 'tmpl-*', '*-b', 't*', '*', '_all', 'mine-t,tmpl-b', 'tmpl-b,mine-t', 'ct-*,mine', 'legacy-b,'),
        fc.constantFrom('tmpl-b', 'ct-b', 'legacy-b').chain((name) => fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length })
          .map((enc) => [...name].map((c, i) => (enc[i] ? `%${c.charCodeAt(0).toString(16)}` : c)).join(''))),
      );
      await fc.assert(fc.asyncProperty(
        fc.constantFrom('_index_template', '_component_template', '_template'), fc.constantFrom('PUT', 'POST', 'DELETE'), spelled, fc.constantFrom('', '?create=false', '?master_timeout=1s', '?cause=x'),
        async (api, method, name, params) => {
          // a put names one template (Elasticsearch refuses a name holding ',' or '*'; the embedded engine does not yet)
          fc.pre(method === 'DELETE' || !/[,*]|^_all$/.test(name));
          const body = method === 'DELETE' ? undefined : api === '_component_template' ? { template: { settings: { number_of_replicas: 1 } } } : api === '_template' ? { index_patterns: [`${OWN}-l*`] } : mine;
          const r = await call(gw.url, method, `/${api}/${name}${params}`, { auth: templater, body });
          if (LEAK.test(r.text)) problems.push(`${method} /${api}/${name}${params}: ${r.status} ${r.text.slice(0, 200)}`);
          const now = await state();
          if (now !== before) problems.push(`${method} /${api}/${name}${params} (${r.status}) changed them: ${now.slice(0, 300)}`);
          expect(problems, problems.join('\n')).to.deep.equal([]);
          // what it made of its own goes again (a name of its own it may have put)
          if (r.status === 200 && method !== 'DELETE') await call(gw.url, 'DELETE', `/${api}/${name}`);
        },
      ), { numRuns: 60 });
      // its own: put, changed, removed
      for (const [method, path, body] of [['PUT', '/_index_template/mine-t', mine], ['PUT', '/_index_template/mine-t', { ...mine, priority: 18 }], ['DELETE', '/_index_template/mine-t'],
        ['PUT', '/_template/mine-l', { index_patterns: [`${OWN}-l*`] }], ['DELETE', '/_template/mine-l']] as const) {
        const r = await call(gw.url, method, path, { auth: templater, body });
        if (r.status !== 200) problems.push(`own ${method} ${path}: ${r.status} ${r.text.slice(0, 200)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it("join, percolator, rank_eval, matrix_stats, templates, knn (merged at 03:00): lookups stay in the tenant's indices, and field rules hold in the new aggregations and inner hits", async () => {
      const problems: string[] = [];
      const ruled = (await cred({ categories: ['docs', 'search'], ops: ['read'], exclude_fields: ['hid', 'hnum'] })).auth;
      const J = `${OWN}-j`;
      const made = await call(gw.url, 'PUT', `/${J}`, { body: { mappings: { properties: { rel: { type: 'join', relations: { q: 'a' } }, f: { type: 'keyword' }, hid: { type: 'keyword' }, hnum: { type: 'long' }, n: { type: 'long' },
        v: { type: 'dense_vector', dims: 2, index: true, similarity: 'l2_norm' } } } } });
      expect(made.status, made.text).to.equal(200);
      const lines = [{ index: { _index: J, _id: 'p1' } }, { rel: 'q', f: 'parent', hid: 'hiddenh2', hnum: 41, n: 1, v: [1, 1] },
        { index: { _index: J, _id: 'c1', routing: 'p1' } }, { rel: { name: 'a', parent: 'p1' }, f: 'child', hid: 'hiddenh2', hnum: 42, n: 2, v: [1, 2] }];
      expect((await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON })).json.errors).to.equal(false);
      await call(gw.url, 'PUT', '/_scripts/lookup-b', { body: { script: { lang: 'mustache', source: { query: { terms: { f: { index: FOREIGN, id: '1', path: 'f' } } } } } } });
      const probe = async (auth: string, method: string, path: string, body?: unknown, mayAnswer = false, leak = LEAK, headers?: Record<string, string>) => {
        upstream?.clear();
        const r = await call(gw.url, method, path, { auth, body, headers });
        const leaked = leak.test(r.text) && (r.status < 400 || !(JSON.stringify(body ?? '') + path).match(leak));
        if ((!mayAnswer && r.status < 400) || leaked) problems.push(`${method} ${path} ${JSON.stringify(body ?? '').slice(0, 150)}: ${r.status} ${r.text.slice(0, 300)}`);
        for (const l of leaksIn(forwarded(), { names: [], reachable: [FOREIGN] })) problems.push(`${method} ${path}: ${l}`);
        return r;
      };
      const lookupB = { terms: { f: { index: FOREIGN, id: '1', path: 'f' } } };
      // lookups into another tenant's index from the new queries and APIs
      for (const q of [{ has_child: { type: 'a', query: lookupB } }, { has_parent: { parent_type: 'q', query: lookupB } }, { has_child: { type: 'a', query: { match_all: {} }, inner_hits: {} } , bool: { filter: [lookupB] } },
        { percolate: { field: 'f', index: FOREIGN, id: '1' } }, { parent_id: { type: 'a', id: 'p1' }, bool: { must: [lookupB] } }]) {
        await probe(tenant, 'POST', `/${J}/_search`, { query: q });
      }
      await probe(tenant, 'POST', `/${J}/_search`, { knn: { field: 'v', query_vector: [1, 1], k: 1, num_candidates: 5, filter: lookupB } });
      await probe(tenant, 'POST', `/${J}/_search`, { query: { script_score: { query: lookupB, script: { source: 'knn_score', lang: 'knn', params: { field: 'v', query_value: [1, 1], space_type: 'l2' } } } } });
      await probe(tenant, 'POST', `/${J}/_search/template`, { id: 'lookup-b' });
      await probe(tenant, 'POST', `/${J}/_search/template`, { source: { query: lookupB } });
      await probe(tenant, 'POST', `/${J}/_msearch/template`, ndjson([{}, { id: 'lookup-b' }]), false, LEAK, NDJSON);
      await probe(tenant, 'POST', `/_msearch/template`, ndjson([{ index: J }, { source: '{"query":{"terms":{"f":{"index":"{{i}}","id":"1","path":"f"}}}}', params: { i: FOREIGN } }]), false, LEAK, NDJSON);
      await probe(tenant, 'POST', `/${J}/_rank_eval`, { requests: [{ id: 'r', request: { query: lookupB }, ratings: [] }], metric: { precision: { k: 1 } } });
      await probe(tenant, 'POST', `/${J}/_rank_eval`, { templates: [{ id: 't', template: { id: 'lookup-b' } }], requests: [{ id: 'r', template_id: 't', params: {}, ratings: [] }], metric: { precision: { k: 1 } } });
      await probe(tenant, 'POST', `/${J}/_rank_eval`, { requests: [{ id: 'r', request: { query: { match_all: {} } }, ratings: [{ _index: FOREIGN, _id: '1', rating: 1 }] }], metric: { precision: { k: 1 } } });
      await probe(tenant, 'POST', `/${J}/_rank_eval`, { templates: [{ id: 't', template: { source: { query: { terms: { f: { index: '{{i}}', id: '1', path: 'f' } } } } } }], requests: [{ id: 'r', template_id: 't', params: { i: FOREIGN }, ratings: [] }], metric: { precision: { k: 1 } } });
      // the tenant's own join searches answer
      await probe(tenant, 'POST', `/${J}/_search`, { query: { has_child: { type: 'a', query: { match_all: {} }, inner_hits: {} } } }, true);
      // field rules: the hidden fields in matrix_stats, the join's inner hits, children/parent aggregations, has_child queries
      const HID = /hiddenh2|"hnum"|\b4[12]\b.*hnum|hnum.*\b4[12]\b/;
      for (const body of [
        { size: 0, aggs: { m: { matrix_stats: { fields: ['hnum', 'n'] } } } },
        { size: 0, aggs: { m: { matrix_stats: { fields: ['h*', 'n'] } } } },
        { size: 0, aggs: { c: { children: { type: 'a' }, aggs: { s: { terms: { field: 'hid' } } } } } },
        { size: 0, aggs: { p: { parent: { type: 'a' }, aggs: { s: { max: { field: 'hnum' } } } } } },
        { query: { has_child: { type: 'a', query: { term: { hid: 'hiddenh2' } } } } },
        { query: { has_parent: { parent_type: 'q', query: { range: { hnum: { gte: 41 } } } } } },
        { query: { parent_id: { type: 'a', id: 'p1' } }, _source: false, fields: ['*'] },
      ]) await probe(ruled, 'POST', `/${J}/_search`, body, false, HID);
      for (const body of [
        // a `missing` value for a field matrix_stats does not read reads nothing
        { size: 0, aggs: { m: { matrix_stats: { fields: ['n'], missing: { hnum: 0 } } } } },
        { query: { has_child: { type: 'a', query: { match_all: {} }, inner_hits: {} } } },
        { query: { has_parent: { parent_type: 'q', query: { match_all: {} }, inner_hits: { _source: true } } } },
        { query: { has_child: { type: 'a', query: { match_all: {} }, inner_hits: { fields: ['*'], _source: false, docvalue_fields: ['hnum'] } } } },
        { query: { has_child: { type: 'a', query: { match_all: {} }, inner_hits: { highlight: { fields: { '*': {} } } } } } },
      ]) await probe(ruled, 'POST', `/${J}/_search`, body, true, HID);
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });

    it("an _update's answered document (get) keeps a credential's hidden fields out, whether the URL or the body's _source asks for it", async () => {
      const problems: string[] = [];
      const writer = (await cred({ categories: ['docs', 'search'], ops: ['read', 'write'], exclude_fields: ['hid'] })).auth;
      const U = `${OWN}-u`;
      expect((await call(gw.url, 'PUT', `/${U}/_doc/1?refresh=true`, { body: { f: 'x', hid: 'hiddenh2' } })).status).to.equal(201);
      let n = 0;
      for (const [q, extra] of [['?_source=true', {}], ['', { _source: true }], ['', { _source: ['*'] }], ['', { _source: { includes: ['h*'] } }], ['?_source_includes=hid', {}], ['?_source_excludes=f', {}],
        ['', { _source: 'hid' }], ['?_source=hid', {}], ['?filter_path=get', { _source: true }]] as const) {
        for (const update of [{ doc: { f: `y${n++}` } }, { doc: { f: `z${n++}` }, detect_noop: false }, { script: { source: 'ctx._source.n = params.n', params: { n: n++ } } }, { doc: { f: 'x' } }]) {
          const r = await call(gw.url, 'POST', `/${U}/_update/1${q}`, { auth: writer, body: { ...update, ...extra } });
          if (r.text.includes('hiddenh2')) problems.push(`${q} ${JSON.stringify({ ...update, ...extra })}: ${r.status} ${r.text.slice(0, 300)}`);
        }
        const b = await call(gw.url, 'POST', `/_bulk${q}`, { auth: writer, body: ndjson([{ update: { _index: U, _id: '1', ...extra } }, { doc: { f: `b${n++}` } }]), headers: NDJSON });
        if (b.text.includes('hiddenh2')) problems.push(`bulk ${q} ${JSON.stringify(extra)}: ${b.status} ${b.text.slice(0, 300)}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });
}
