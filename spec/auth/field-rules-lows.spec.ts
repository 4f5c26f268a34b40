import { expect } from 'chai';
import fc from 'fast-check';
import type { EngineAccess } from '../../lib/engine/backend.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../lib/engine/embedded/index.js';
import { authorizationDisagreementCount } from '../../lib/metrics/index.js';
import { tempDir } from '../engine/embedded/support.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON, type Reply } from '../support/http.js';

/**
 * The low findings of the hostile review of field rules (issue 32), against what Elasticsearch's
 * field-level security does: a credential with field rules is answered, with the hidden fields
 * absent, where Elasticsearch answers (`_mapping/field`, search templates, `_reindex`, the
 * cluster state), its `_source` filter is the intersection of its own and the request's, a
 * filtered alias's filter on a hidden field is not shown by `profile` or `_explain`, and a 403
 * names no index a pattern expanded to. Both backends; the cluster state on the engine alone too.
 */

const SECRET = 'sesame-7f3';
const FOREIGN = 'other-1';

const MAPPINGS = {
  properties: {
    f: { type: 'keyword' },
    public: { properties: { title: { type: 'text' }, tag: { type: 'keyword' } } },
    secret: { type: 'keyword', fields: { raw: { type: 'keyword' } } },
    secret_n: { type: 'long' },
    nick: { type: 'alias', path: 'secret' },
  },
};

for (const backend of BACKENDS) {
  describe(`field rules answered where Elasticsearch answers them, hidden fields absent (${backend.name})`, function () {
    this.timeout(120_000);
    let url: string;
    let stop: () => Promise<void>;
    const tenants: Record<string, string> = {};
    const as = (who: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(url, method, path, { auth: tenants[who], body, headers });
    const noSecret = (res: Reply, what: string) => {
      expect(res.text, `${what}: ${res.text}`).not.to.contain('sesame');
      expect(res.text, `${what}: ${res.text}`).not.to.match(/"secret/);
      expect(res.text, `${what}: ${res.text}`).not.to.contain('nick');
    };

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      for (const ix of ['mine-1', FOREIGN]) {
        const made = await call(url, 'PUT', `/${ix}`, { body: { mappings: MAPPINGS } });
        expect(made.status, made.text).to.equal(200);
      }
      const lines = [
        { index: { _index: 'mine-1', _id: '1' } }, { f: 'a', public: { title: 'alpha one', tag: 'x' }, secret: SECRET, secret_n: 7 },
        { index: { _index: 'mine-1', _id: '2' } }, { f: 'b', public: { title: 'beta two', tag: 'y' }, secret: 'other' },
        { index: { _index: FOREIGN, _id: '1' } }, { f: 'x', secret: SECRET },
      ];
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulk.json.errors, bulk.text).to.equal(false);
      // the admin's filtered alias, whose filter reads the hidden field
      const alias = await call(url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'mine-1', alias: 'mine-filtered', filter: { term: { secret: SECRET } } } }, { add: { index: 'mine-1', alias: 'mine-visible', filter: { term: { f: 'a' } } } }] } });
      expect(alias.status, alias.text).to.equal(200);
      const make = async (body: Record<string, unknown>) => {
        const res = await call(url, 'POST', '/_credentials', { body: { indices: ['mine*'], categories: ['docs', 'search', 'indices', 'cluster'], ops: ['read'], ...body } });
        expect(res.status, res.text).to.equal(201);
        return basic(res.json.credential.username, res.json.password);
      };
      tenants.excluding = await make({ exclude_fields: ['secret*'] });
      tenants.including = await make({ include_fields: ['public.*', 'f'] });
      tenants.writer = await make({ ops: ['read', 'write'], exclude_fields: ['secret*'] });
      tenants.piper = await make({ ops: ['read', 'write'], exclude_fields: ['secret*'], categories: ['docs', 'search', 'pipelines'] });
    });
    after(() => stop());

    it('1. GET /{index}/_mapping/field/* and /_mapping/field/{f} answer without the hidden fields (Elasticsearch answers them under field-level security)', async () => {
      for (const who of ['excluding', 'including']) {
        const all = await as(who, 'GET', '/mine-1/_mapping/field/*');
        expect(all.status, `${who}: ${all.text}`).to.equal(200);
        expect(Object.keys(all.json['mine-1'].mappings), who).to.include.members(['f', 'public.title']);
        noSecret(all, `${who} _mapping/field/*`);
        const one = await as(who, 'GET', '/_mapping/field/f');
        expect(one.status, `${who}: ${one.text}`).to.equal(200);
        expect(one.json['mine-1'].mappings.f.full_name, one.text).to.equal('f');
        expect(one.text).not.to.contain(FOREIGN);
        const hidden = await as(who, 'GET', '/mine-1/_mapping/field/secret,nick,secret.raw');
        expect(hidden.status, `${who}: ${hidden.text}`).to.equal(200);
        expect(hidden.json, hidden.text).to.deep.equal({ 'mine-1': { mappings: {} } });
        const pattern = await as(who, 'GET', '/mine*/_mapping/field/s*,n*');
        expect(pattern.status, `${who}: ${pattern.text}`).to.equal(200);
        noSecret(pattern, `${who} _mapping/field/s*`);
      }
    });

    it('2. a search template under field rules runs as the search it renders to, the hidden fields absent; one naming a hidden field is refused', async () => {
      const template = { source: '{"query":{"term":{"f":"{{v}}"}}}', params: { v: 'a' } };
      for (const who of ['excluding', 'including']) {
        for (const [method, path] of [['POST', '/mine-1/_search/template'], ['GET', '/mine-1/_search/template'], ['POST', '/_search/template']]) {
          const res = await as(who, method, path, template);
          expect(res.status, `${who} ${method} ${path}: ${res.text}`).to.equal(200);
          expect(res.json.hits.hits.map((h: { _id: string }) => h._id), res.text).to.deep.equal(['1']);
          expect(res.json.hits.hits[0]._source.f).to.equal('a');
          noSecret(res, `${who} ${path}`);
        }
        const naming = await as(who, 'POST', '/mine-1/_search/template', { source: '{"query":{"term":{"{{k}}":"{{v}}"}}}', params: { k: 'secret', v: SECRET } });
        expect(naming.status, naming.text).to.equal(403);
        expect(naming.json.error.type).to.equal('security_exception');
      }
    });

    /** The hits' sources, by their `f`. */
    const sources = (res: Reply) => res.json.hits.hits.map((h: { _source: { f: string } }) => h._source).sort((a: { f: string }, b: { f: string }) => a.f.localeCompare(b.f));

    it('2. an _msearch and an _msearch/template under field rules are answered with the hidden fields absent, each search\'s own _source narrowed', async () => {
      for (const who of ['excluding', 'including']) {
        const searches = [{}, { query: { term: { f: 'a' } } }, {}, { query: { term: { f: 'a' } } , _source: ['public.title', 'secret'] }, {}, { query: { term: { f: 'a' } }, _source: false }];
        const res = await as(who, 'POST', '/mine-1/_msearch', ndjson(searches), NDJSON);
        expect(res.status, `${who}: ${res.text}`).to.equal(200);
        noSecret(res, `${who} _msearch`);
        const [all, listed, none] = res.json.responses.map((r: { hits: { hits: Array<{ _source?: unknown }> } }) => r.hits.hits[0]?._source);
        expect(all, res.text).to.deep.equal(who === 'excluding' ? { f: 'a', public: { title: 'alpha one', tag: 'x' } } : { f: 'a', public: { title: 'alpha one', tag: 'x' } });
        expect(listed, res.text).to.deep.equal({ public: { title: 'alpha one' } });
        expect(none, res.text).to.equal(undefined);
        const templated = await as(who, 'POST', '/mine-1/_msearch/template', ndjson([{}, { source: '{"query":{"term":{"f":"{{v}}"}}}', params: { v: 'a' } }]), NDJSON);
        expect(templated.status, `${who}: ${templated.text}`).to.equal(200);
        expect(templated.json.responses[0].hits.hits.map((h: { _id: string }) => h._id), templated.text).to.deep.equal(['1']);
        noSecret(templated, `${who} _msearch/template`);
        const naming = await as(who, 'POST', '/mine-1/_msearch', ndjson([{}, { query: { term: { secret: SECRET } } }]), NDJSON);
        expect(naming.status, naming.text).to.equal(403);
      }
    });

    it('2. a pipeline stage\'s search template under field rules runs as the search it renders to (as on the HTTP path)', async () => {
      const toTemplate = 'function handleRequest() { return { request: { method: "POST", path: "/mine-1/_search/template", query: {}, body: context.request.body } }; }';
      const definition = {
        id: 'tpl', enabled: true, priority: 10, routes: [{ path: '/mine-1/_tpl', method: 'POST', classify: { category: 'search' } }],
        stages: [{ id: 'rewrite', script: toTemplate }, { id: 'search', use: 'engineQuery' }],
      };
      const reg = await as('piper', 'POST', '/_pipeline', definition);
      expect(reg.status, reg.text).to.be.below(300);
      try {
        const res = await as('piper', 'POST', '/mine-1/_tpl', { source: '{"query":{"term":{"f":"{{v}}"}}}', params: { v: 'a' } });
        expect(res.status, res.text).to.equal(200);
        expect(res.json.hits.hits.map((h: { _id: string }) => h._id), res.text).to.deep.equal(['1']);
        noSecret(res, 'pipeline template');
        const naming = await as('piper', 'POST', '/mine-1/_tpl', { source: '{"query":{"term":{"{{k}}":"{{v}}"}}}', params: { k: 'secret', v: SECRET } });
        expect(naming.status, naming.text).to.equal(403);
        const foreign = await as('piper', 'POST', '/mine-1/_tpl', { source: '{"query":{"terms":{"f":{"index":"{{i}}","id":"1","path":"f"}}}}', params: { i: FOREIGN } });
        expect(foreign.status, foreign.text).to.equal(403);
        expect(foreign.text).not.to.contain('sesame');
      } finally {
        await as('piper', 'DELETE', '/_pipeline/tpl');
      }
    });

    it('3. a reindex under field rules runs as the caller: it copies the visible fields only, and the two checks agree', async () => {
      const before = await authorizationDisagreementCount();
      const res = await as('writer', 'POST', '/_reindex?refresh=true', { source: { index: 'mine-1' }, dest: { index: 'mine-copy' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.created, res.text).to.equal(2);
      const copied = await call(url, 'POST', '/mine-copy/_search', { body: { query: { match_all: {} } } });
      expect(copied.status, copied.text).to.equal(200);
      expect(sources(copied), copied.text).to.deep.equal([
        { f: 'a', public: { title: 'alpha one', tag: 'x' } }, { f: 'b', public: { title: 'beta two', tag: 'y' } },
      ]);
      // its own _source filter narrows further, never wider
      const narrower = await as('writer', 'POST', '/_reindex?refresh=true', { source: { index: 'mine-1', _source: ['f', 'secret'] }, dest: { index: 'mine-copy2' } });
      expect(narrower.status, narrower.text).to.equal(403);
      const own = await as('writer', 'POST', '/_reindex?refresh=true', { source: { index: 'mine-1', _source: ['f'] }, dest: { index: 'mine-copy3' } });
      expect(own.status, own.text).to.equal(200);
      const copied3 = await call(url, 'POST', '/mine-copy3/_search', { body: { query: { match_all: {} } } });
      expect(sources(copied3), copied3.text).to.deep.equal([{ f: 'a' }, { f: 'b' }]);
      expect(await authorizationDisagreementCount(), 'the gateway\'s check and the engine\'s disagreed').to.equal(before);
    });

    it('4. `_source_includes` and a body `_source` list under an include list answer the intersection of the two', async () => {
      const hitsOf = (res: Reply) => res.json.hits.hits.map((h: { _source: unknown }) => h._source);
      const url1 = await as('including', 'GET', '/mine-1/_search?_source_includes=public.title&sort=f');
      expect(url1.status, url1.text).to.equal(200);
      expect(hitsOf(url1), url1.text).to.deep.equal([{ public: { title: 'alpha one' } }, { public: { title: 'beta two' } }]);
      const body = await as('including', 'POST', '/mine-1/_search', { _source: ['public.title', 'secret'], sort: ['f'] });
      expect(body.status, body.text).to.equal(200);
      expect(hitsOf(body), body.text).to.deep.equal([{ public: { title: 'alpha one' } }, { public: { title: 'beta two' } }]);
      const wider = await as('including', 'GET', '/mine-1/_search?_source_includes=public&sort=f');
      expect(hitsOf(wider), wider.text).to.deep.equal([{ public: { title: 'alpha one', tag: 'x' } }, { public: { title: 'beta two', tag: 'y' } }]);
      const disjoint = await as('including', 'GET', '/mine-1/_search?_source_includes=secret&sort=f');
      expect(disjoint.status, disjoint.text).to.equal(200);
      expect(hitsOf(disjoint), disjoint.text).to.deep.equal([{}, {}]);
      const none = await as('including', 'POST', '/mine-1/_search', { _source: false, sort: ['f'] });
      expect(none.status, none.text).to.equal(200);
      expect(none.json.hits.hits.every((h: Record<string, unknown>) => !('_source' in h) || JSON.stringify(h._source) === '{}'), none.text).to.equal(true);
      const doc = await as('including', 'GET', '/mine-1/_doc/1?_source_includes=f');
      expect(doc.json._source, doc.text).to.deep.equal({ f: 'a' });
      // an exclusion of the caller's own still applies
      const excl = await as('excluding', 'GET', '/mine-1/_doc/1?_source_includes=f,public.title');
      expect(excl.json._source, excl.text).to.deep.equal({ f: 'a', public: { title: 'alpha one' } });
    });

    it('5. a search through a filtered alias whose filter reads a hidden field (its profile and explanation included) is refused, naming neither; one on visible fields is answered', async () => {
      for (const who of ['excluding', 'including']) {
        const before = await authorizationDisagreementCount();
        const answers = [
          await as(who, 'POST', '/mine-filtered/_search', { profile: true, query: { match_all: {} }, _source: ['f'] }),
          await as(who, 'POST', '/mine-filtered/_explain/1', { query: { match_all: {} } }),
          await as(who, 'POST', '/mine-filtered/_search', { explain: true, query: { match_all: {} }, _source: ['f'] }),
          await as(who, 'GET', '/mine-filtered/_search?explain=true&_source=f'),
          await as(who, 'POST', '/mine-filtered/_search', { query: { match_all: {} }, _source: ['f'] }),
          await as(who, 'POST', '/mine-filtered/_count', { query: { match_all: {} } }),
          await as(who, 'POST', '/mine-filtered/_validate/query?explain=true', { query: { match_all: {} } }),
          await as(who, 'POST', '/_msearch', ndjson([{ index: 'mine-filtered' }, { query: { match_all: {} }, _source: ['f'] }]), NDJSON),
          await as(who, 'POST', '/mine-filtered/_search/template', { source: '{"profile":true,"query":{"match_all":{}}}' }),
        ];
        for (const res of answers) {
          expect(res.status, res.text).to.equal(403);
          expect(res.json.error.type).to.equal('security_exception');
          expect(res.text).not.to.contain('mine-1');
          noSecret(res, who);
        }
        // the two checks agree: the engine never saw the hidden field named
        expect(await authorizationDisagreementCount(), 'the gateway\'s check and the engine\'s disagreed').to.equal(before);
        // nor is the alias's definition shown: its filter names the hidden field and the value
        for (const path of ['/mine-1/_alias', '/_alias/mine-filtered', '/mine-1', '/_alias', '/mine*/_alias/*']) {
          const shown = await as(who, 'GET', path);
          expect(shown.status, `${path}: ${shown.text}`).to.equal(200);
          noSecret(shown, `${who} GET ${path}`);
          expect(shown.text, path).not.to.contain('mine-filtered');
          if (path !== '/_alias/mine-filtered') expect(shown.text, path).to.contain('mine-visible');
        }
        // an alias whose filter reads only visible fields is answered, its profile included
        const visible = await as(who, 'POST', '/mine-visible/_search', { profile: true, query: { match_all: {} }, _source: ['f'] });
        expect(visible.status, visible.text).to.equal(200);
        expect(visible.json.profile, visible.text).to.be.an('object');
        expect(visible.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
        // a document read through it does not run the filter (as in Elasticsearch)
        const doc = await as(who, 'GET', '/mine-filtered/_doc/1');
        expect(doc.status, doc.text).to.equal(200);
        noSecret(doc, who);
      }
    });

    it('6. the cluster state shows the caller its own indices, their mappings without the hidden fields', async () => {
      for (const who of ['excluding', 'including']) {
        const res = await as(who, 'GET', '/_cluster/state/metadata');
        expect(res.status, res.text).to.equal(200);
        expect(Object.keys(res.json.metadata.indices).sort(), res.text).to.include('mine-1');
        expect(res.text).not.to.contain(FOREIGN);
        noSecret(res, who);
        const mapping = res.json.metadata.indices['mine-1'].mappings;
        expect(JSON.stringify(mapping), res.text).to.contain('"f"');
      }
    });
  });

  describe(`a 403 names no index a pattern expanded to (${backend.name}, generated)`, function () {
    this.timeout(300_000);
    let url: string;
    let stop: () => Promise<void>;
    let tenant: string;
    let reader: string;

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      expect((await call(url, 'PUT', '/_index_template/theirs-logs', { body: { index_patterns: ['logs-theirs*'], data_stream: {}, priority: 500 } })).status).to.equal(200);
      expect((await call(url, 'POST', '/logs-theirs/_doc?refresh=true', { body: { '@timestamp': '2024-01-01T00:00:00Z', n: 1 } })).status).to.equal(201);
      for (const ix of ['mine-1', 'theirs-1']) expect((await call(url, 'PUT', `/${ix}`)).status).to.equal(200);
      expect((await call(url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'theirs-1', alias: 'theirs-alias' } }] } })).status).to.equal(200);
      const make = async (ops: string[]) => {
        const res = await call(url, 'POST', '/_credentials', { body: { indices: ['mine*'], categories: ['docs', 'search', 'indices'], ops, exclude_fields: ['secret'] } });
        expect(res.status, res.text).to.equal(201);
        return basic(res.json.credential.username, res.json.password);
      };
      tenant = await make(['read', 'write', 'delete']);
      reader = await make(['read']);
    });
    after(() => stop());

    it('whatever the API and the pattern, a refusal names only expressions the request wrote', async () => {
      const patterns = fc.constantFrom('*', '_all', 't*', '*-1', 'logs-*', '*,-mine-1', 'theirs-*', '.ds-*', '*s*', 'mine-1,t*', 'l*', '*alias');
      const apis = fc.constantFrom<(p: string) => [string, string, unknown?, Record<string, string>?]>(
        (p) => ['PUT', `/${p}/_settings`, { index: { number_of_replicas: 0 } }],
        (p) => ['DELETE', `/${p}`],
        (p) => ['POST', `/${p}/_close`],
        (p) => ['PUT', `/${p}/_mapping`, { properties: { z: { type: 'keyword' } } }],
        (p) => ['POST', `/${p}/_delete_by_query`, { query: { match_all: {} } }],
        (p) => ['POST', `/${p}/_update_by_query`, { query: { match_all: {} } }],
        (p) => ['POST', '/_reindex', { source: { index: p }, dest: { index: 'mine-copy' } }],
        (p) => ['POST', '/_bulk', ndjson([{ index: { _index: p, _id: 'x' } }, { n: 1 }]), NDJSON],
        (p) => ['POST', '/_aliases', { actions: [{ add: { index: p, alias: 'mine-everything' } }] }],
        (p) => ['POST', `/${p}/_doc`, { n: 1 }],
        (p) => ['POST', `/${p}/_search`, { query: { match_all: {} } }],
        (p) => ['POST', '/_mget', { docs: [{ _index: p, _id: '1' }] }],
        (p) => ['POST', `/${p}/_refresh`],
      );
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(patterns, apis, fc.constantFrom('tenant', 'reader'), async (p, api, who) => {
          const [method, path, body, headers] = api(p);
          const res = await call(url, method, path, { auth: who === 'tenant' ? tenant : reader, body, headers });
          if (res.status === 403) refused++;
          expect(res.status, `${method} ${path}: ${res.text}`).to.be.below(500);
          // the request wrote `p`: a refusal may name it, never what it stood for
          const reason = res.text.split(p).join('');
          for (const name of ['theirs-1', 'theirs-alias', '.ds-logs-theirs', 'logs-theirs']) {
            if (p.includes(name)) continue;
            expect(reason, `${who} ${method} ${path} → ${res.status}`).not.to.contain(name);
          }
        }),
        { seed: 3233, numRuns: Number(process.env.FAST_CHECK_RUNS ?? 60) },
      );
      // the property was tried on refusals, not only on answers
      expect(refused).to.be.above(5);
    });
  });
}

describe('a refusal of the embedded engine alone names what the request wrote, never what an alias or data stream stood for (generated)', function () {
  this.timeout(120_000);
  let engine: EmbeddedEngine;
  let remove: () => Promise<void>;
  const scoped: EngineAccess = { user: 'scoped', indices: [{ names: ['mine*'], ops: ['read', 'write', 'delete'] }], fields: { exclude: ['secret'] } };
  const send = async (method: string, path: string, body?: unknown, access?: EngineAccess) => {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await engine.request({ method, path, headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json' }, body: text, access });
    return { status: res.status, text: (res.body as Buffer).toString('utf8') };
  };

  before(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    engine = await openEmbeddedEngine({ dataDir: dir.dir });
    expect((await send('PUT', '/_index_template/theirs-logs', { index_patterns: ['logs-theirs*'], data_stream: {}, priority: 500 })).status).to.equal(200);
    expect((await send('POST', '/logs-theirs/_doc?refresh=true', { '@timestamp': '2024-01-01T00:00:00Z' })).status).to.equal(201);
    for (const ix of ['mine-1', 'theirs-1']) expect((await send('PUT', `/${ix}`)).status).to.equal(200);
    expect((await send('POST', '/_aliases', { actions: [{ add: { index: 'theirs-1', alias: 'theirs-alias' } }, { add: { index: 'theirs-1', alias: 'mine-looks-like' } }] })).status).to.equal(200);
  });
  after(async () => {
    await engine.close();
    await remove();
  });

  it('whatever the API, a name standing for another tenant\'s indices is refused by that name', async () => {
    const names = fc.constantFrom('theirs-alias', 'logs-theirs', 'mine-looks-like', 'mine-1,theirs-alias', 'mine-looks-like,mine-1');
    const apis = fc.constantFrom<(n: string) => [string, string, unknown?]>(
      (n) => ['POST', `/${n}/_search`, {}],
      (n) => ['POST', `/${n}/_count`, {}],
      (n) => ['GET', `/${n.split(',')[0]}/_doc/1`],
      (n) => ['POST', `/${n.split(',')[0]}/_doc`, { '@timestamp': '2024-01-01T00:00:00Z' }],
      (n) => ['POST', `/${n}/_delete_by_query`, { query: { match_all: {} } }],
      (n) => ['POST', `/${n}/_refresh`],
      (n) => ['PUT', `/${n}/_settings`, { index: { number_of_replicas: 0 } }],
      (n) => ['POST', '/_reindex', { source: { index: n }, dest: { index: 'mine-copy' } }],
      (n) => ['POST', '/_bulk', `${JSON.stringify({ create: { _index: n.split(',')[0] } })}\n${JSON.stringify({ '@timestamp': '2024-01-01T00:00:00Z' })}\n`],
      (n) => ['POST', '/_aliases', { actions: [{ add: { index: n, alias: 'mine-everything' } }] }],
    );
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(names, apis, async (n, api) => {
        const [method, path, body] = api(n);
        const res = await send(method, path, body, scoped);
        expect(res.status, `${method} ${path}: ${res.text}`).to.be.below(500);
        if (res.text.includes('security_exception')) refused++;
        expect(res.text, `${method} ${path} → ${res.status}`).not.to.contain('.ds-');
        if (!n.includes('theirs-1')) expect(res.text, `${method} ${path} → ${res.status}`).not.to.contain('theirs-1');
      }),
      { seed: 3234, numRuns: Number(process.env.FAST_CHECK_RUNS ?? 60) },
    );
    expect(refused).to.be.above(5);
  });
});

describe('the embedded engine alone, for a scoped caller with field rules: the cluster state, profiles through a filtered alias', function () {
  this.timeout(60_000);
  let engine: EmbeddedEngine;
  let remove: () => Promise<void>;
  const ruled: EngineAccess = { user: 'ruled', indices: [{ names: ['mine*'], ops: ['read'] }], fields: { exclude: ['secret*'] } };
  const send = async (method: string, path: string, body?: unknown, access?: EngineAccess) => {
    const res = await engine.request({ method, path, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), access });
    return { status: res.status, text: (res.body as Buffer).toString('utf8') };
  };

  before(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    engine = await openEmbeddedEngine({ dataDir: dir.dir });
    for (const ix of ['mine-1', FOREIGN]) expect((await send('PUT', `/${ix}`, { mappings: MAPPINGS })).status).to.equal(200);
  });
  after(async () => {
    await engine.close();
    await remove();
  });

  it('5. a profile or explanation that would print an alias filter on a hidden field is refused, and counted (the gateway refuses it first; a hit list through the filter is empty, nothing to explain)', async () => {
    expect((await send('POST', '/_aliases', { actions: [{ add: { index: 'mine-1', alias: 'mine-filtered', filter: { term: { secret: 'sesame' } } } }] })).status).to.equal(200);
    expect((await send('PUT', '/mine-1/_doc/1?refresh=true', { f: 'a', secret: 'sesame' })).status).to.equal(201);
    for (const [method, path, body] of [
      ['POST', '/mine-filtered/_search', { profile: true, query: { match_all: {} } }],
      ['POST', '/mine-filtered/_explain/1', { query: { match_all: {} } }],
      ['POST', '/mine-filtered/_validate/query?explain=true', { query: { match_all: {} } }],
    ] as const) {
      const before = await authorizationDisagreementCount();
      const res = await send(method, path, body, ruled);
      expect(res.status, `${path}: ${res.text}`).to.equal(403);
      expect(res.text, path).not.to.contain('sesame');
      expect(res.text, path).not.to.match(/"secret|secret:/);
      expect((await authorizationDisagreementCount()) - before, path).to.equal(1);
    }
    // the admin's profile shows it
    expect((await send('POST', '/mine-filtered/_search', { profile: true, query: { match_all: {} } })).text).to.contain('sesame');
    // a profile of a query on visible fields is answered
    const visible = await send('POST', '/mine-1/_search', { profile: true, query: { term: { f: 'a' } } }, ruled);
    expect(visible.status, visible.text).to.equal(200);
  });

  it('shows only the caller\'s indices, their mappings without the hidden fields; the admin sees everything', async () => {
    for (const path of ['/_cluster/state', '/_cluster/state/metadata', '/_cluster/state/metadata/*', '/_cluster/state/_all/mine-1']) {
      const res = await send('GET', path, undefined, ruled);
      expect(res.status, `${path}: ${res.text}`).to.equal(200);
      const value = JSON.parse(res.text);
      expect(Object.keys(value.metadata.indices), path).to.deep.equal(['mine-1']);
      expect(res.text, path).not.to.contain(FOREIGN);
      expect(res.text, path).not.to.match(/"secret/);
      expect(res.text, path).not.to.contain('nick');
      expect(JSON.stringify(value.metadata.indices['mine-1'].mappings), path).to.contain('"f"');
    }
    const admin = await send('GET', '/_cluster/state/metadata');
    expect(admin.text).to.contain(FOREIGN);
    expect(admin.text).to.contain('"secret"');
  });
});
