import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import { startRecordedGateway, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';
import { settingsSpelling } from './classify/settings-spellings.js';

/**
 * Cluster-level resources (ingest pipelines, stored scripts, templates, synonym sets, query rules,
 * cluster settings) are shared by every tenant: a credential scoped to its own indices manages
 * none of them without a named cluster privilege, names no pipeline on a write, sets no default or
 * final pipeline, squats no alias outside its indices, sees only its own indices in cluster-wide
 * listings, and is never told another tenant's index names in a refusal.
 */

const FOREIGN = 'theirs-7f3a';
const FOREIGN_STREAM = 'logs-theirs-7f3a';

for (const backend of BACKENDS) {
  describe(`cluster-level rights (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let stop: (() => Promise<void>) | undefined;
    let tenant: string;
    let piper: string;
    let templater: string;
    let reader: string;

    const as = (auth: string) => (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(gw.url, method, path, { auth, body, headers });
    const credential = async (spec: Record<string, unknown>) => {
      const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine', 'mine-*'], ...spec } });
      expect(res.status, res.text).to.equal(201);
      return basic(res.json.credential.username, res.json.password);
    };
    /** `named`: the request itself named the foreign index (a refusal may say so), else the refusal names none. */
    const expectRefused = (res: { status: number; text: string; json: any }, action?: string, named = false) => {
      expect(res.status, res.text).to.equal(403);
      expect(res.json.error.type).to.equal('security_exception');
      if (action) expect(res.json.error.reason).to.contain(`action [${action}]`);
      if (!named) expect(res.text, 'a refusal names no foreign index').not.to.contain(FOREIGN);
      expect(res.text, 'a refusal names no backing index').not.to.contain('.ds-');
    };
    const foreignDocs = async () => {
      await call(gw.url, 'POST', `/${FOREIGN}/_refresh`);
      return (await call(gw.url, 'POST', `/${FOREIGN}/_count`, { body: {} })).json.count as number;
    };
    const pipelineSettings = async (index: string) => {
      const res = await call(gw.url, 'GET', `/${index}/_settings?flat_settings=true`);
      if (res.status === 404) return [];
      const settings = (res.json[index]?.settings ?? {}) as Record<string, unknown>;
      // `_none` names no pipeline
      return Object.keys(settings).filter((k) => /pipeline/.test(k) && settings[k] !== '_none');
    };

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      for (const index of ['mine', FOREIGN]) expect((await call(gw.url, 'PUT', `/${index}`)).status).to.equal(200);
      await call(gw.url, 'PUT', `/${FOREIGN}/_doc/seed?refresh=true`, { body: { f: 'secret' } });
      // the pipeline another tenant's writes go through, and one that sends documents to that tenant
      expect((await call(gw.url, 'PUT', '/_ingest/pipeline/shared', { body: { processors: [{ set: { field: 'tag', value: 'shared' } }] } })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/_ingest/pipeline/to-theirs', { body: { processors: [{ set: { field: '_index', value: FOREIGN } }] } })).status).to.equal(200);
      const stream = await call(gw.url, 'PUT', '/_index_template/theirs-streams', { body: { index_patterns: ['logs-theirs-*'], data_stream: {}, priority: 100 } });
      expect(stream.status, stream.text).to.equal(200);
      expect((await call(gw.url, 'PUT', `/_data_stream/${FOREIGN_STREAM}`)).status).to.equal(200);
      const all = { categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read', 'write', 'delete'] };
      tenant = await credential(all);
      piper = await credential({ ...all, cluster_privileges: ['manage_pipeline'] });
      templater = await credential({ ...all, cluster_privileges: ['manage_index_templates'] });
      reader = await credential({ categories: ['cluster', 'indices'], ops: ['read'] });
    });
    after(() => stop?.());

    describe('cluster-level resources need a named cluster privilege', () => {
      it('a scoped credential neither overwrites nor deletes the pipeline other tenants\' writes go through', async () => {
        const put = await as(tenant)('PUT', '/_ingest/pipeline/shared', { processors: [{ set: { field: '_index', value: 'mine' } }] });
        expectRefused(put, 'cluster:admin/ingest/pipeline/put');
        expect(put.json.error.reason).to.contain('manage_pipeline');
        expectRefused(await as(tenant)('DELETE', '/_ingest/pipeline/shared'), 'cluster:admin/ingest/pipeline/delete');
        expectRefused(await as(tenant)('PUT', '/_ingest/pipeline/new-one', { processors: [] }), 'cluster:admin/ingest/pipeline/put');
        const kept = await call(gw.url, 'GET', '/_ingest/pipeline/shared');
        expect(kept.json.shared.processors).to.deep.equal([{ set: { field: 'tag', value: 'shared' } }]);
      });

      it('nor synonym sets, stored scripts, index templates, query rules or cluster settings', async () => {
        const t = as(tenant);
        expectRefused(await t('PUT', '/_synonyms/shared-set', { synonyms_set: [{ synonyms: 'a, b' }] }), 'cluster:admin/synonyms/put');
        expectRefused(await t('PUT', '/_scripts/shared-script', { script: { lang: 'painless', source: 'return 1' } }), 'cluster:admin/script/put');
        expectRefused(await t('PUT', '/_index_template/mine-t', { index_patterns: ['mine-*'], template: { settings: { number_of_replicas: 0 } } }), 'indices:admin/index_template/put');
        expectRefused(await t('PUT', '/_component_template/mine-c', { template: { settings: { number_of_replicas: 0 } } }), 'cluster:admin/component_template/put');
        expectRefused(await t('PUT', '/_query_rules/shared-rules', { rules: [] }), 'cluster:admin/xpack/query_rules/put');
        expectRefused(await t('PUT', '/_cluster/settings', { persistent: { 'cluster.routing.allocation.enable': 'none' } }), 'cluster:admin/settings/update');
        expectRefused(await t('GET', '/_ingest/pipeline'), 'cluster:admin/ingest/pipeline/get');
        expectRefused(await t('GET', '/_index_template'), 'indices:admin/index_template/get');
      });

      it('simulating an index template (or the index a name would get) needs manage_index_templates, and stores nothing', async () => {
        const t = as(tenant);
        expectRefused(await t('POST', '/_index_template/_simulate', { index_patterns: ['mine-*'] }), 'indices:admin/index_template/simulate');
        expectRefused(await t('POST', '/_index_template/_simulate/theirs-streams'), 'indices:admin/index_template/simulate');
        expectRefused(await t('POST', '/_index_template/_simulate_index/mine-1'), 'indices:admin/index_template/simulate');
        const admin = await call(gw.url, 'POST', '/_index_template/_simulate/theirs-streams');
        expect(admin.status, admin.text).to.equal(200);
        expect(admin.json).to.have.property('template');
        const body = await call(gw.url, 'POST', '/_index_template/_simulate', { body: { index_patterns: ['sim-*'], priority: 7, template: { settings: { number_of_replicas: 0 } } } });
        expect(body.status, body.text).to.equal(200);
        expect(body.json.template.settings).to.deep.equal({ index: { number_of_replicas: '0' } });
        expect((await call(gw.url, 'GET', '/_index_template/_simulate')).status, 'no template stored under `_simulate`').to.equal(404);
      });

      it('nor a stored script or pipeline named after an API word (`painless`, `explain`, `_simulate`): it is read as the route table reads it', async () => {
        // the table's `/_scripts/{id}` takes `painless` as the script's id, as the engine does
        expect((await call(gw.url, 'PUT', '/_scripts/painless', { body: { script: { lang: 'painless', source: 'return 7' } } })).status).to.equal(200);
        const t = as(tenant);
        expectRefused(await t('PUT', '/_scripts/painless', { script: { lang: 'painless', source: 'return 1' } }), 'cluster:admin/script/put');
        expectRefused(await t('POST', '/_scripts/explain', { script: { lang: 'painless', source: 'return 1' } }), 'cluster:admin/script/put');
        expectRefused(await t('DELETE', '/_scripts/painless'), 'cluster:admin/script/delete');
        expectRefused(await t('GET', '/_scripts/painless'), 'cluster:admin/script/get');
        const stored = await call(gw.url, 'GET', '/_scripts/painless');
        expect(stored.json.script.source, 'the shared script is as the admin stored it').to.equal('return 7');
        expectRefused(await as(reader)('PUT', '/_ingest/pipeline/_simulate', { processors: [] }), 'cluster:admin/ingest/pipeline/put');
      });

      it('with manage_pipeline a credential manages pipelines and writes its own documents through one', async () => {
        const put = await as(piper)('PUT', '/_ingest/pipeline/mine-tags', { processors: [{ set: { field: 'tag', value: 'mine' } }] });
        expect(put.status, put.text).to.equal(200);
        const write = await as(piper)('PUT', '/mine/_doc/tagged?pipeline=mine-tags&refresh=true', { a: 1 });
        expect(write.status, write.text).to.equal(201);
        expect((await call(gw.url, 'GET', '/mine/_doc/tagged')).json._source).to.deep.equal({ a: 1, tag: 'mine' });
        // it still manages no index template
        expectRefused(await as(piper)('PUT', '/_index_template/mine-t', { index_patterns: ['mine-*'] }), 'indices:admin/index_template/put');
      });
    });

    describe('writes that would land elsewhere', () => {
      it('a write naming a pipeline is refused however the parameter is spelled, and nothing reaches the other tenant', async () => {
        const before = await foreignDocs();
        for (const qs of ['pipeline=to-theirs', '%70ipeline=to-theirs', 'pipelin%65=to-theirs', 'refresh=true&p%69peline=to-theirs']) {
          expectRefused(await as(tenant)('PUT', `/mine/_doc/p1?${qs}`, { n: 1 }), 'indices:data/write/index');
        }
        expectRefused(await as(tenant)('POST', '/_bulk', '{"index":{"_index":"mine","_id":"p2","\\u0070ipeline":"to-theirs"}}\n{"n":2}\n', NDJSON));
        expectRefused(await as(tenant)('POST', '/_bulk?%70ipeline=to-theirs', ndjson([{ index: { _index: 'mine', _id: 'p3' } }, { n: 3 }]), NDJSON));
        expectRefused(await as(tenant)('POST', '/_reindex', { source: { index: 'mine' }, dest: { index: 'mine-copy', pipeline: 'to-theirs' } }));
        expect(await foreignDocs()).to.equal(before);
      });

      it('a default or final pipeline is set in no spelling: nested, flat, \\u-escaped, wrapped, at creation', async () => {
        const bodies = [
          '{"index":{"default\\u005fpipeline":"to-theirs"}}',
          '{"index.final\\u005fpipeline":"to-theirs"}',
          '{"\\u0069ndex":{"final_pipeline":"to-theirs"}}',
          '{"settings":{"index":{"default_pipeline":"to-theirs"}}}',
          '{"default_pipeline":"to-theirs"}',
        ];
        for (const body of bodies) expectRefused(await as(tenant)('PUT', '/mine/_settings', body), 'indices:admin/settings/update');
        expect(await pipelineSettings('mine')).to.deep.equal([]);
        expectRefused(await as(tenant)('PUT', '/mine-created', '{"settings":{"index.default\\u005fpipeline":"to-theirs"}}'), 'indices:admin/create');
        expect((await call(gw.url, 'HEAD', '/mine-created')).status).to.equal(404);
        // a harmless settings change still goes through
        expect((await as(tenant)('PUT', '/mine/_settings', { index: { number_of_replicas: 0 } })).status).to.equal(200);
      });

      it('property: whatever the JSON spelling of a settings body, a scoped credential never gets a default or final pipeline set', async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(settingsSpelling, fc.boolean(), async (spelling, create) => {
            run++;
            const index = create ? `mine-p${run}` : 'mine';
            const path = create ? `/${index}` : '/mine/_settings';
            const text = create && !spelling.wrapped ? `{"settings":${spelling.text}}` : spelling.text;
            const res = await as(tenant)('PUT', path, text);
            expect([200, 400, 403], res.text).to.include(res.status);
            expect(await pipelineSettings(index), `${path} ${text} → ${res.status}`).to.deep.equal([]);
            if (res.status === 403) expect(res.text).not.to.contain(FOREIGN);
          }),
          { seed: 32, numRuns: 30 },
        );
      });
    });

    describe('aliases lie within the credential\'s indices', () => {
      it('an index creation body squats no alias outside them, and its alias filters look nothing up outside them', async () => {
        expectRefused(await as(tenant)('PUT', '/mine-a1', { aliases: { [`${FOREIGN}-alias`]: {} } }), 'indices:admin/create', true);
        expectRefused(await as(tenant)('PUT', '/mine-a2', { aliases: { [FOREIGN]: {} } }), 'indices:admin/create', true);
        const lookup = { filter: { terms: { f: { index: FOREIGN, id: 'seed', path: 'f' } } } };
        expectRefused(await as(tenant)('PUT', '/mine-a3', { aliases: { 'mine-filtered': lookup } }), 'indices:admin/create', true);
        for (const index of ['mine-a1', 'mine-a2', 'mine-a3']) expect((await call(gw.url, 'HEAD', `/${index}`)).status, index).to.equal(404);
        const own = await as(tenant)('PUT', '/mine-a4', { aliases: { 'mine-alias': { filter: { term: { f: 'x' } } } } });
        expect(own.status, own.text).to.equal(200);
      });

      it('_aliases actions: alias names and filter lookups too', async () => {
        expectRefused(await as(tenant)('POST', '/_aliases', { actions: [{ add: { index: 'mine', alias: `${FOREIGN}-alias` } }] }), 'indices:admin/aliases', true);
        const lookup = { more_like_this: { fields: ['f'], like: [{ _index: FOREIGN, _id: 'seed' }], min_term_freq: 1, min_doc_freq: 1 } };
        expectRefused(await as(tenant)('POST', '/_aliases', { actions: [{ add: { index: 'mine', alias: 'mine-mlt', filter: lookup } }] }), 'indices:admin/aliases', true);
        expectRefused(await as(tenant)('PUT', '/mine/_alias/mine-terms', { filter: { terms: { f: { index: FOREIGN, id: 'seed', path: 'f' } } } }), 'indices:admin/aliases', true);
        const aliases = await call(gw.url, 'GET', '/mine/_alias');
        expect(Object.keys(aliases.json.mine.aliases)).to.deep.equal([]);
        expect((await as(tenant)('POST', '/_aliases', { actions: [{ add: { index: 'mine', alias: 'mine-read' } }] })).status).to.equal(200);
      });

      it('index templates, even with manage_index_templates: their patterns and aliases', async () => {
        const t = as(templater);
        expectRefused(await t('PUT', '/_index_template/squat', { index_patterns: ['mine-x*'], template: { aliases: { [FOREIGN]: {} } } }), 'indices:admin/index_template/put', true);
        expectRefused(await t('PUT', '/_index_template/wide', { index_patterns: ['theirs-*'] }), 'indices:admin/index_template/put');
        expectRefused(await t('PUT', '/_template/legacy', { index_patterns: ['mine-x*'], aliases: { 'mine-x': { filter: { terms: { f: { index: FOREIGN, id: 'seed', path: 'f' } } } } } }), 'indices:admin/template/put', true);
        // a template that sets a default pipeline needs manage_pipeline too
        expectRefused(await t('PUT', '/_index_template/piped', { index_patterns: ['mine-x*'], template: { settings: { 'index.default\u005fpipeline': 'to-theirs' } } }));
        const own = await t('PUT', '/_index_template/mine-own', { index_patterns: ['mine-x*'], priority: 50, template: { aliases: { 'mine-x-alias': {} } } });
        expect(own.status, own.text).to.equal(200);
      });
    });

    describe('cluster-wide listings show a scoped credential its own indices only', () => {
      it('_cluster/state is narrowed, with or without a metric or an index expression', async () => {
        for (const path of ['/_cluster/state', '/_cluster/state/metadata', '/_cluster/state/metadata,routing_table/*', '/_cluster/state/_all/_all']) {
          const res = await as(reader)('GET', path);
          expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
          expect(res.text, path).not.to.contain(FOREIGN);
          if (res.json.metadata) expect(Object.keys(res.json.metadata.indices), path).to.include('mine');
        }
        expectRefused(await as(reader)('GET', `/_cluster/state/metadata/${FOREIGN}`), 'cluster:monitor/state', true);
        // what no index list narrows (templates, pipelines, data streams…) is not shown, whatever filter_path asks
        const asked = await as(reader)('GET', '/_cluster/state/metadata?filter_path=metadata.templates,metadata.indices.*.state');
        expect(asked.status, asked.text).to.equal(200);
        expect(Object.keys(asked.json)).to.deep.equal(['metadata']);
        expect(Object.keys(asked.json.metadata)).to.deep.equal(['indices']);
        expect(asked.json.metadata.indices.mine).to.deep.equal({ state: 'open' });
        expect(Object.keys(asked.json.metadata.indices).every((i) => i.startsWith('mine'))).to.equal(true);
        // per-index breakdowns of cluster-wide answers: narrowed, or the admin's
        const health = await as(reader)('GET', '/_cluster/health?level=indices');
        expect(health.status, health.text).to.equal(200);
        expect(Object.keys(health.json.indices)).to.include('mine');
        expect(Object.keys(health.json.indices).every((i) => i.startsWith('mine'))).to.equal(true);
        expectRefused(await as(reader)('GET', '/_nodes/stats?level=indices'), 'cluster:monitor/nodes/stats');
        expectRefused(await as(reader)('POST', '/_cluster/allocation/explain'), 'cluster:monitor/allocation/explain');
      });

      it('_cat, _resolve, _stats, _mapping and _settings are narrowed, or refused without naming what they would list', async () => {
        for (const path of ['/_cat/indices', '/_cat/shards', '/_cat/aliases', '/_resolve/index/*', '/_stats', '/_mapping', '/_settings', '/*/_settings', '/_all/_mapping', '/_mappings', '/_all/_mappings']) {
          const res = await as(reader)('GET', path);
          expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
          expect(res.text, path).not.to.contain(FOREIGN);
          if (path !== '/_cat/aliases') expect(res.text, path).to.contain('mine');
        }
        expectRefused(await as(reader)('GET', '/_cat/templates'), 'indices:admin/template/get');
      });

      it('no listing a reader may call names another tenant\'s index (answered narrowed, refused, or not supported)', async () => {
        const cats = ['allocation', 'fielddata', 'health', 'master', 'nodeattrs', 'nodes', 'plugins', 'thread_pool', 'pending_tasks', 'count', 'recovery',
          'segments', 'shards', 'indices', 'aliases', 'templates', 'snapshots', 'repositories', 'tasks'];
        const paths = [
          ...cats.map((c) => `/_cat/${c}?v=true`), '/_cat/indices?expand_wildcards=all', '/_cat/indices/*,-mine', '/_stats/docs', '/_stats?level=shards',
          '/_nodes/stats', '/_nodes/stats/indices', '/_cluster/stats', '/_cluster/health', '/_cluster/health?level=shards', '/_cluster/state?expand_wildcards=all',
          '/_resolve/cluster', '/_data_stream', '/_alias', '/_aliases', '/_segments', '/_recovery', '/_shard_stores', '/_mapping/field/f', '/_field_caps?fields=*',
          '/_settings?include_defaults=true', '/_cluster/settings?include_defaults=true', '/_cluster/pending_tasks', '/_cat/indices/theirs*',
        ];
        for (const path of paths) {
          const res = await as(reader)('GET', path);
          expect(res.status, `${path}: ${res.text.slice(0, 200)}`).to.be.below(500);
          expect(res.text, `${path} → ${res.status}`).not.to.contain(FOREIGN);
          expect(res.text, `${path} → ${res.status}`).not.to.contain(`.ds-${FOREIGN_STREAM}`);
        }
      });
    });

    describe('a refusal names only what the request wrote', () => {
      it('never the indices a wildcard or every index stood for (another tenant\'s, data stream backing indices)', async () => {
        const t = as(tenant);
        const refusals = [
          await t('PUT', '/*/_settings', { index: { number_of_replicas: 0 } }),
          await t('PUT', '/_all/_settings?expand_wildcards=all', { index: { number_of_replicas: 0 } }),
          await t('POST', '/_aliases', { actions: [{ add: { index: '*', alias: 'mine-everything' } }] }),
          await t('POST', '/_bulk', ndjson([{ index: { _index: 'logs-*', _id: 'x' } }, { n: 1 }]), NDJSON),
          await t('POST', '/_reindex', { source: { index: '*' }, dest: { index: 'mine-copy' } }),
          await t('DELETE', '/logs-*'),
        ];
        for (const res of refusals) expectRefused(res);
        expect(refusals[0].json.error.reason).to.contain('on indices [*]');
      });
    });
  });
}

describe('cluster-level rights: a refused request reaches no engine (HTTP backend, recorded)', function () {
  this.timeout(120_000);
  let upstream: RecordingUpstream;
  let gw: TestGateway;
  let stop: (() => Promise<void>) | undefined;
  let tenant: string;

  before(async () => {
    ({ upstream, gateway: gw, stop } = await startRecordedGateway());
    for (const index of ['mine', FOREIGN]) expect((await call(gw.url, 'PUT', `/${index}`)).status).to.equal(200);
    const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['mine', 'mine-*'], categories: ['docs', 'indices', 'cluster'], ops: ['read', 'write', 'delete'] } });
    expect(cred.status, cred.text).to.equal(201);
    tenant = basic(cred.json.credential.username, cred.json.password);
  });
  after(() => stop?.());

  const HOSTILE: Array<[method: string, path: string, body: unknown]> = [
    ['PUT', '/_ingest/pipeline/shared', { processors: [] }],
    ['PUT', '/_synonyms/shared-set', { synonyms_set: [] }],
    ['PUT', '/_index_template/t', { index_patterns: ['mine-*'] }],
    ['PUT', '/_cluster/settings', { persistent: {} }],
    ['PUT', '/mine/_doc/1?%70ipeline=to-theirs', { n: 1 }],
    ['POST', '/_bulk', '{"index":{"_index":"mine","\\u0070ipeline":"to-theirs"}}\n{"n":1}\n'],
    ['PUT', '/mine/_settings', '{"index":{"default\\u005fpipeline":"to-theirs"}}'],
    ['PUT', '/mine/_settings', '{"index.final_pipeline":"_none","index.final_pipeline":"to-theirs"}'],
    ['PUT', '/mine-x', { aliases: { [`${FOREIGN}-alias`]: {} } }],
    ['POST', '/_aliases', { actions: [{ add: { index: 'mine', alias: 'mine-f', filter: { terms: { f: { index: FOREIGN, id: '1', path: 'f' } } } } }] }],
  ];
  for (const [method, path, body] of HOSTILE) {
    it(`${method} ${path} ${typeof body === 'string' ? body.trim() : JSON.stringify(body)}`, async () => {
      upstream.clear();
      const res = await call(gw.url, method, path, { auth: tenant, body, headers: typeof body === 'string' && path.includes('_bulk') ? NDJSON : undefined });
      expect(res.status, res.text).to.equal(403);
      // only the gateway's own read-only lookups (index resolution) may have reached the engine
      const writes = upstream.requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
      expect(writes.map((r) => `${r.method} ${r.path}?${r.query} ${r.body}`)).to.deep.equal([]);
    });
  }
});
