import { expect } from 'chai';
import fc from 'fast-check';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON, type Reply } from '../support/http.js';
import { leaksIn, startRecordedGateway, type RecordingUpstream } from '../support/recording-upstream.js';
import type { TestGateway } from '../support/servers.js';

/**
 * Security issue 32: three doors where the gateway checked text, or nothing. A search template is
 * rendered by the gateway and its rendered search authorized; a declarative request's raw DSL is
 * read for the indices it looks up; a tenant's pipeline claims only its own indices' routes, and
 * its stages' engine calls are read and authorized as the engine will read them.
 */

const OWN = 'tenant-a';
const FOREIGN = 'tenant-b';
const SECRET = 'only-in-b';

/** A terms lookup of `tags` from document 1 of `index`, keyed `key` (as written in the template's text). */
const lookupTemplate = (key: string, index: string) => `{"query":{"terms":{"tag":{"${key}":"${index}","id":"1","path":"tags"}}}}`;
/**
 * Document 1 of `index` as a `more_like_this` document, keyed `_${key}`. (The embedded engine's
 * `_msearch` reads each query before it resolves terms lookups, and refuses one: the answered
 * cases of `_msearch` and of the declarative API, which sends `_msearch`, use this lookup instead.)
 */
const likeTemplate = (key: string, index: string) => `{"query":{"more_like_this":{"fields":["tag"],"like":[{"_${key}":"${index}","_id":"1"}],"min_term_freq":1,"min_doc_freq":1}}}`;
const likeQuery = (index: string) => ({ more_like_this: { fields: ['tag'], like: [{ _index: index, _id: '1' }], min_term_freq: 1, min_doc_freq: 1 } });

async function seed(url: string): Promise<string> {
  for (const [index, tags] of [[OWN, ['x']], [FOREIGN, [SECRET]]] as const) {
    const put = await call(url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { tag: tags[0], tags } });
    expect(put.status, put.text).to.be.oneOf([200, 201]);
  }
  const cred = await call(url, 'POST', '/_credentials', {
    body: { indices: [OWN], categories: ['docs', 'search', 'declarative', 'pipelines'], ops: ['read', 'write', 'delete'], allow_raw_dsl: true },
  });
  expect(cred.status, cred.text).to.equal(201);
  return basic(cred.json.credential.username, cred.json.password);
}

const refused = (r: Reply, what: string) => {
  expect(r.status, `${what}: ${r.text.slice(0, 300)}`).to.equal(403);
  expect(r.json.error.type, what).to.equal('security_exception');
  expect(r.text, what).not.to.include(SECRET);
};
const hitIndices = (r: Reply): string[] => [...new Set<string>(r.json.hits.hits.map((h: { _index: string }) => h._index))];

for (const backend of BACKENDS) {
  describe(`issue 32: templates, declarative raw DSL and pipelines (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let tenant: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      tenant = await seed(gw.url);
    });
    after(() => stop?.());

    describe('search templates are rendered, then authorized', () => {
      const spellings: Array<[string, string, Record<string, unknown>]> = [
        ['a key spliced from a parameter ("in{{x}}")', 'in{{x}}', { x: 'dex' }],
        ['a key written with a JSON escape (\\u0069ndex)', '\\u0069ndex', {}],
      ];
      for (const [name, key, params] of spellings) {
        it(`${name}: refused into a foreign index, answered for the tenant's own`, async () => {
          for (const path of ['/_search/template', `/${OWN}/_search/template`]) {
            const foreign = await call(gw.url, 'POST', path, { auth: tenant, body: { source: lookupTemplate(key, FOREIGN), params } });
            refused(foreign, `${path} → ${FOREIGN}`);
          }
          // (a bare `/_search` that looks an index up reaches every index beside it: refused, as a plain search is)
          const own = await call(gw.url, 'POST', `/${OWN}/_search/template`, { auth: tenant, body: { source: lookupTemplate(key, OWN), params } });
          expect(own.status, own.text).to.equal(200);
          expect(hitIndices(own)).to.deep.equal([OWN]);
          const multi = (template: (key: string, index: string) => string, index: string) => ndjson([{ index: OWN }, { source: template(key, index), params }]);
          refused(await call(gw.url, 'POST', '/_msearch/template', { auth: tenant, body: multi(lookupTemplate, FOREIGN), headers: NDJSON }), `_msearch/template → ${FOREIGN}`);
          const ownMulti = await call(gw.url, 'POST', '/_msearch/template', { auth: tenant, body: multi(likeTemplate, OWN), headers: NDJSON });
          expect(ownMulti.status, ownMulti.text).to.equal(200);
          expect(ownMulti.json.responses[0].status, ownMulti.text).to.equal(200);
          refused(await call(gw.url, 'POST', '/_render/template', { auth: tenant, body: { source: lookupTemplate(key, FOREIGN), params } }), `_render/template → ${FOREIGN}`);
          const rendered = await call(gw.url, 'POST', '/_render/template', { auth: tenant, body: { source: lookupTemplate(key, OWN), params } });
          expect(rendered.status, rendered.text).to.equal(200);
          expect(rendered.json).to.deep.equal({ template_output: { query: { terms: { tag: { index: OWN, id: '1', path: 'tags' } } } } });
        });
      }

      it('a more_like_this document and a parameter holding the index name are read the same way', async () => {
        const mlt = '{"query":{"more_like_this":{"fields":["tag"],"like":[{"_in{{k}}":"{{i}}","_id":"1"}],"min_term_freq":1,"min_doc_freq":1}}}';
        refused(await call(gw.url, 'POST', `/${OWN}/_search/template`, { auth: tenant, body: { source: mlt, params: { k: 'dex', i: FOREIGN } } }), 'mlt');
        const own = await call(gw.url, 'POST', `/${OWN}/_search/template`, { auth: tenant, body: { source: mlt, params: { k: 'dex', i: OWN } } });
        expect(own.status, own.text).to.equal(200);
      });

      it('a stored template is read from the engine and rendered by the gateway: its search is what is authorized', async () => {
        const put = await call(gw.url, 'PUT', '/_scripts/lookup', { body: { script: { lang: 'mustache', source: { query: { terms: { tag: { index: '{{i}}', id: '1', path: 'tags' } } } } } } });
        expect(put.status, put.text).to.equal(200);
        refused(await call(gw.url, 'POST', `/${OWN}/_search/template`, { auth: tenant, body: { id: 'lookup', params: { i: FOREIGN } } }), 'stored → foreign');
        const own = await call(gw.url, 'POST', `/${OWN}/_search/template`, { auth: tenant, body: { id: 'lookup', params: { i: OWN } } });
        expect(own.status, own.text).to.equal(200);
        expect(hitIndices(own)).to.deep.equal([OWN]);
        refused(await call(gw.url, 'POST', '/_render/template/lookup', { auth: tenant, body: { params: { i: FOREIGN } } }), 'stored render → foreign');
        const missing = await call(gw.url, 'POST', `/${OWN}/_search/template`, { auth: tenant, body: { id: 'no-such-template' } });
        expect(missing.status, missing.text).to.equal(404);
        // the admin's template requests go to the engine as they are
        const admin = await call(gw.url, 'POST', `/${OWN},${FOREIGN}/_search/template`, { body: { id: 'lookup', params: { i: OWN } } });
        expect(admin.status, admin.text).to.equal(200);
      });
    });

    describe('declarative raw DSL is read for the indices it looks up', () => {
      const request = (query: Record<string, unknown>, member: 'customQuery' | 'defaultQuery') => ({
        query: member === 'customQuery'
          ? [
              { id: 'filter', dataField: 'tag', customQuery: { query }, execute: false },
              { id: 'results', dataField: 'tag', react: { and: ['filter'] } },
            ]
          : [{ id: 'results', dataField: 'tag', defaultQuery: { query } }],
      });
      const termsLookup = (index: string) => ({ terms: { tag: { index, id: '1', path: 'tags' } } });
      for (const member of ['customQuery', 'defaultQuery'] as const) {
        it(`a terms lookup in ${member} into a foreign index is refused; into the tenant's own, answered`, async () => {
          for (const path of [`/${OWN}/_reactivesearch.v3`, `/${OWN}/_reactivesearch`, '/_declarative']) {
            for (const query of [termsLookup(FOREIGN), likeQuery(FOREIGN)]) {
              const asked = request(query, member);
              const body = path === '/_declarative' ? { query: asked.query.map((c) => ({ ...c, index: OWN })) } : asked;
              refused(await call(gw.url, 'POST', path, { auth: tenant, body }), `${path} ${member} ${JSON.stringify(query)}`);
            }
          }
          const own = await call(gw.url, 'POST', `/${OWN}/_reactivesearch.v3`, { auth: tenant, body: request(likeQuery(OWN), member) });
          expect(own.status, own.text).to.equal(200);
          expect(own.json.results.error, own.text).to.equal(undefined);
          for (const hit of own.json.results.hits.hits) expect(hit._index).to.equal(OWN);
        });
      }

      it('pinned documents and percolated documents of another index are refused too', async () => {
        for (const raw of [
          { query: { pinned: { docs: [{ _index: FOREIGN, _id: '1' }], organic: { match_all: {} } } } },
          { query: { percolate: { field: 'q', index: FOREIGN, id: '1' } } },
          { query: { nested: { path: 'n', query: { more_like_this: { like: [{ _index: FOREIGN, _id: '1' }] } } } } },
        ]) {
          refused(await call(gw.url, 'POST', `/${OWN}/_reactivesearch.v3`, { auth: tenant, body: { query: [{ id: 'results', dataField: 'tag', defaultQuery: raw }] } }), JSON.stringify(raw));
        }
      });
    });

    describe("a tenant's pipelines", () => {
      const answering = { id: 'answer', script: 'function handleRequest() { return { response: { body: JSON.stringify({ copied: context.request.body }), code: 200 } }; }' };

      it('claim no route outside its indices: registration refused (403)', async () => {
        for (const path of ['/_security/user/{index}', '/{name}/user/{index}', '/_bulk', `/${FOREIGN}/_search`, '/tenant-*/_search', '/*/_search']) {
          const reg = await call(gw.url, 'POST', '/_pipeline', { auth: tenant, body: { id: `p${Math.abs(hash(path))}`, routes: [{ path, method: 'PUT' }], stages: [answering] } });
          expect(reg.status, `${path}: ${reg.text}`).to.equal(403);
          expect(reg.json.error.type).to.equal('security_exception');
        }
        const own = await call(gw.url, 'POST', '/_pipeline', { auth: tenant, body: { id: 'own-route', routes: [{ path: `/${OWN}/_doc/{id}`, method: 'PUT' }], stages: [answering] } });
        expect(own.status, own.text).to.equal(201);
        // the admin's own request to another route is not the tenant's to see
        const user = await call(gw.url, 'PUT', '/_security/user/tenant-a', { body: { password: 'admin-secret-password' } });
        expect(user.text).not.to.include('copied');
        expect((await call(gw.url, 'DELETE', '/_pipeline/own-route', { auth: tenant })).status).to.equal(200);
      });

      it("its stages have the owner's categories and operations at most, even when the admin calls it", async () => {
        const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: [OWN], categories: ['search', 'pipelines'], ops: ['read', 'write', 'delete'] } });
        const searcher = basic(made.json.credential.username, made.json.password);
        const writer = { id: 'searcher-writes', routes: [{ path: '/{index}/_doc/{id}', method: 'PUT' }], stages: [{ id: 'write', use: 'engineQuery' }] };
        expect((await call(gw.url, 'POST', '/_pipeline', { auth: searcher, body: writer })).status).to.equal(201);
        refused(await call(gw.url, 'PUT', `/${OWN}/_doc/by-admin`, { body: { tag: 'x' } }), 'a docs write by a pipeline of a credential without docs');
        expect((await call(gw.url, 'DELETE', '/_pipeline/searcher-writes')).status).to.equal(200);
      });

      it("a stage's path carrying ?pipeline= or an encoded path is read as the engine reads it, and refused", async () => {
        const ingest = await call(gw.url, 'PUT', '/_ingest/pipeline/to-foreign', { body: { processors: [{ set: { field: '_index', value: FOREIGN } }] } });
        expect(ingest.status, ingest.text).to.equal(200);
        const smuggle = (path: string) => ({
          id: 'smuggle',
          routes: [{ path: '/{index}/_doc/{id}', method: 'PUT' }],
          stages: [
            { id: 'retarget', script: `function handleRequest() { return { request: { path: ${JSON.stringify(path)} } }; }` },
            { id: 'send', use: 'engineQuery' },
          ],
        });
        for (const [path, statuses] of [
          [`/${OWN}/_doc/smuggled?pipeline=to-foreign`, [403]],
          [`/${OWN}/_doc/smuggled?refresh=true&pipeline=to-foreign`, [403]],
          ['/%74enant-b/_doc/smuggled', [403]],
          // refused as unreadable (400, the stage's failure answered even where the pipeline goes on after it)
          [`/${OWN}/../${FOREIGN}/_doc/smuggled`, [400, 403]],
          [`/${OWN}/%2e%2e/${FOREIGN}/_doc/smuggled`, [400, 403]],
        ] as Array<[string, number[]]>) {
          const reg = await call(gw.url, 'PUT', '/_pipeline/smuggle', { auth: tenant, body: smuggle(path) });
          expect(reg.status, reg.text).to.be.oneOf([200, 201]);
          const res = await call(gw.url, 'PUT', `/${OWN}/_doc/1`, { auth: tenant, body: { tag: 'smuggled' } });
          expect(statuses, `${path}: ${res.status} ${res.text.slice(0, 300)}`).to.include(res.status);
        }
        await call(gw.url, 'POST', `/${FOREIGN}/_refresh`);
        const foreign = await call(gw.url, 'GET', `/${FOREIGN}/_doc/smuggled`);
        expect(foreign.status, foreign.text).to.equal(404);
        // the same stage without a smuggled target writes where it says
        await call(gw.url, 'PUT', '/_pipeline/smuggle', { auth: tenant, body: smuggle(`/${OWN}/_doc/smuggled`) });
        const plain = await call(gw.url, 'PUT', `/${OWN}/_doc/1`, { auth: tenant, body: { tag: 'x' } });
        expect(plain.status, plain.text).to.be.oneOf([200, 201]);
        expect((await call(gw.url, 'DELETE', '/_pipeline/smuggle', { auth: tenant })).status).to.equal(200);
      });
    });

    it('property: a template spelled any way that looks up the foreign index is refused; the same for the own index is answered', async () => {
      await fc.assert(
        fc.asyncProperty(templateCase, async (c) => {
          // (the bare `/_search/template` that looks an index up reaches every index beside it: refused for both)
          refused(await sendTemplate(gw.url, tenant, c, FOREIGN), describeCase(c, FOREIGN));
          const own = await sendTemplate(gw.url, tenant, c, OWN);
          const what = `${describeCase(c, OWN)}: ${own.text.slice(0, 300)}`;
          if (c.endpoint === '_search/template') expect(own.status, what).to.equal(403);
          // (the embedded engine's `_msearch` refuses a terms lookup: 400, after the gateway let it through)
          else if (c.endpoint === '_msearch/template' && c.kind === 'terms') expect(own.status, what).to.be.oneOf([200, 400]);
          else expect(own.status, what).to.equal(200);
        }),
        { seed: 32, numRuns: 25 },
      );
    });
  });
}

describe('issue 32: no template request reaching the engine names a foreign index (HTTP backend, recorded)', function () {
  this.timeout(120_000);
  let upstream: RecordingUpstream;
  let gw: TestGateway;
  let stop: (() => Promise<void>) | undefined;
  let tenant: string;

  before(async () => {
    // request logs on: the gateway's own `.gateway-logs` writes are told apart below
    ({ upstream, gateway: gw, stop } = await startRecordedGateway({ LOGS_ENABLED: 'true' }));
    tenant = await seed(gw.url);
    await call(gw.url, 'PUT', '/_scripts/lookup-any', { body: { script: { lang: 'mustache', source: '{"query":{"terms":{"tag":{"in{{k}}":"{{i}}","id":"1","path":"tags"}}}}' } } });
  });
  after(() => stop?.());

  it('property: whatever the spelling, what the engine gets for the foreign index names it nowhere', async () => {
    await fc.assert(
      fc.asyncProperty(templateCase, fc.boolean(), async (c, stored) => {
        upstream.clear();
        const res = stored
          ? await call(gw.url, 'POST', `/${OWN}/_search/template`, { auth: tenant, body: { id: 'lookup-any', params: { k: 'dex', i: FOREIGN } } })
          : await sendTemplate(gw.url, tenant, c, FOREIGN);
        expect(res.status, `${describeCase(c, FOREIGN)}: ${res.text.slice(0, 300)}`).to.equal(403);
        // the gateway's own request log (`.gateway-logs`) records what the client sent: not a read of any index
        const reads = upstream.requests.filter((r) => !r.path.startsWith('/.gateway-'));
        const leaks = leaksIn(reads, { names: [FOREIGN], reachable: [FOREIGN] });
        expect(leaks, `${describeCase(c, FOREIGN)}\n${leaks.join('\n')}`).to.deep.equal([]);
      }),
      { seed: 3232, numRuns: 30 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Generated template spellings: the key that names the index (`index`, or a document's `_index`)
// and the index name itself, each written plainly, with JSON escapes, or spliced from parameters.

interface TemplateCase {
  kind: 'terms' | 'mlt';
  /** How the key is written: each letter plain or escaped, a part spliced from a parameter. */
  key: { escaped: boolean[]; splitAt: number | undefined; triple: boolean };
  /** How the index name is written. */
  value: 'plain' | 'escaped' | 'param' | 'spliced' | 'join' | 'toJson';
  endpoint: '_search/template' | 'own/_search/template' | '_msearch/template' | '_render/template';
}

const templateCase: fc.Arbitrary<TemplateCase> = fc.record({
  kind: fc.constantFrom('terms', 'mlt'),
  key: fc.record({
    escaped: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    splitAt: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    triple: fc.boolean(),
  }),
  value: fc.constantFrom('plain', 'escaped', 'param', 'spliced', 'join', 'toJson'),
  endpoint: fc.constantFrom('_search/template', 'own/_search/template', '_msearch/template', '_render/template'),
}) as fc.Arbitrary<TemplateCase>;

const escape = (ch: string, upper: boolean) => {
  const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};

/** The template's source and params for `c`, looking up document 1 of `index`. */
function templateOf(c: TemplateCase, index: string): { source: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const word = c.kind === 'terms' ? 'index' : '_index';
  const letters = [...word].slice(-5);
  const lead = word.length > 5 ? word.slice(0, word.length - 5) : '';
  let key = lead;
  const split = c.key.splitAt;
  letters.forEach((ch, i) => {
    if (split !== undefined && i === split) {
      params.rest = letters.slice(i).join('');
      key += c.key.triple ? '{{{rest}}}' : '{{rest}}';
    }
    if (split !== undefined && i >= split) return;
    key += c.key.escaped[i] ? escape(ch, c.key.escaped[5]) : ch;
  });
  let value: string;
  switch (c.value) {
    case 'plain': value = `"${index}"`; break;
    case 'escaped': value = `"${[...index].map((ch, i) => (i % 2 ? escape(ch, false) : ch)).join('')}"`; break;
    case 'param': params.i = index; value = '"{{i}}"'; break;
    case 'spliced': params.suffix = index.slice(-1); value = `"${index.slice(0, -1)}{{suffix}}"`; break;
    case 'join': params.parts = [index]; value = '"{{#join}}parts{{/join}}"'; break;
    case 'toJson': params.name = index; value = '{{#toJson}}name{{/toJson}}'; break;
  }
  // a toJson of a string writes it unquoted (Elasticsearch's too): quote it in the template
  if (c.value === 'toJson') value = `"${value}"`;
  const source = c.kind === 'terms'
    ? `{"query":{"terms":{"tag":{"${key}":${value},"id":"1","path":"tags"}}}}`
    : `{"query":{"more_like_this":{"fields":["tag"],"like":[{"${key}":${value},"_id":"1"}],"min_term_freq":1,"min_doc_freq":1}}}`;
  return { source, params };
}

function sendTemplate(url: string, auth: string, c: TemplateCase, index: string): Promise<Reply> {
  const body = templateOf(c, index);
  switch (c.endpoint) {
    case '_search/template': return call(url, 'POST', '/_search/template', { auth, body });
    case 'own/_search/template': return call(url, 'POST', `/${OWN}/_search/template`, { auth, body });
    case '_msearch/template': return call(url, 'POST', '/_msearch/template', { auth, body: ndjson([{ index: OWN }, body]), headers: NDJSON });
    case '_render/template': return call(url, 'POST', '/_render/template', { auth, body });
  }
}

const describeCase = (c: TemplateCase, index: string) => `${c.endpoint} ${JSON.stringify(templateOf(c, index))}`;

function hash(s: string): number {
  let h = 0;
  for (const ch of s) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return h;
}
