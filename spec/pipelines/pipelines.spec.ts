import { expect } from 'chai';
import { adminAuth, call, basic } from '../support/http.js';
import { BACKENDS, type BackendUnderTest } from '../support/backends.js';
import type { TestGateway } from '../support/servers.js';
import { Client } from 'undici';
import { registerPipeline } from './support.js';

/** registerPipeline with the script file `file` sent before the definition. */
async function registerDeepFirst(base: string, definition: string, file: string, source: string): Promise<{ status: number; json: any }> {
  const form = new FormData();
  form.append(file, new Blob([source], { type: 'application/javascript' }), file);
  form.append('pipeline', new Blob([definition], { type: 'application/yaml' }), 'pipeline.yaml');
  const res = await fetch(base + '/_pipeline', { method: 'POST', headers: { authorization: adminAuth() }, body: form });
  return { status: res.status, json: await res.json() };
}

/** The scenario the documentation shows, exactly. */
const SCENARIO = `
enabled: true
description: answers a helpful message to a declarative body without a query
routes:
  - path: /_declarative
    method: POST
    classify:
      category: declarative
stages:
  - id: prepare-response
    scriptRef: prepare.js
  - id: require-query
    scriptRef: require-query.js
    continueOnError: false
  - id: translate
    use: declarativeQuery
  - id: search
    use: engineQuery
`;
const PREPARE = `function handleRequest() {
  return { response: { body: JSON.stringify({ message: 'send a "query" list' }), code: 422 } };
}`;
const REQUIRE_QUERY = `async function handleRequest() {
  const body = JSON.parse(context.request.body || '{}');
  if (!body.query) throw new Error('the body has no query');
}`;

const SEARCH_PIPELINE = (id: string, script: string, extra = '') => `
id: ${id}
priority: 1
envs:
  greeting: hello
routes:
  - path: /{index}/_search
    method: POST
    classify:
      category: search
stages:
  - id: check
    use: authorization
  - id: script
    script: |
${script.split('\n').map((l) => '      ' + l).join('\n')}
  - id: search
    use: engineQuery
${extra}`;

// every backend (the pipelines' definitions and scripts are template literals: the body is not re-indented)
for (const backend of BACKENDS) describePipelines(backend);

function describePipelines(backend: BackendUnderTest): void {
describe(`pipelines (${backend.name})`, function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let stop: (() => Promise<void>) | undefined;

  before(async () => {
    ({ gateway: gw, stop } = await backend.start());
    await call(gw.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune', year: 1965 } });
    await call(gw.url, 'PUT', '/books/_doc/2?refresh=true', { body: { title: 'Emma', year: 1815 } });
    await call(gw.url, 'PUT', '/books/_doc/3?refresh=true', { body: { title: 'Dune Messiah', year: 1969 } });
  });
  after(() => stop?.());

  describe('the documented scenario on POST /_declarative', () => {
    before(async () => {
      const reg = await registerPipeline(gw.url, SCENARIO, { 'prepare.js': PREPARE, 'require-query.js': REQUIRE_QUERY });
      expect(reg.status, JSON.stringify(reg.json)).to.equal(201);
    });
    after(async () => {
      const list = await call(gw.url, 'GET', '/_pipelines');
      for (const p of list.json.pipelines) await call(gw.url, 'DELETE', `/_pipeline/${p.id}`);
    });

    it('a body without query gets the prepared response and code', async () => {
      const res = await call(gw.url, 'POST', '/_declarative', { body: { settings: {} } });
      expect(res.status).to.equal(422);
      expect(res.json).to.deep.equal({ message: 'send a "query" list' });
    });

    it('a body with query gets the search result', async () => {
      const res = await call(gw.url, 'POST', '/_declarative', {
        body: { query: [{ id: 'books', index: 'books', dataField: ['title'], value: 'dune' }] },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.books.hits.hits.map((h: any) => h._id).sort()).to.deep.equal(['1', '3']);
      expect(res.json.settings).to.have.property('took');
    });

    it('without the pipeline, the built-in route answers again', async () => {
      const list = await call(gw.url, 'GET', '/_pipelines');
      for (const p of list.json.pipelines) await call(gw.url, 'DELETE', `/_pipeline/${p.id}`);
      const res = await call(gw.url, 'POST', '/_declarative', { body: { settings: {} } });
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.not.equal('pipeline_stage_exception');
    });
  });

  describe('management', () => {
    afterEach(async () => {
      const list = await call(gw.url, 'GET', '/_pipelines');
      for (const p of list.json.pipelines) await call(gw.url, 'DELETE', `/_pipeline/${p.id}`);
    });

    it('registers, lists, reads, replaces and deletes a pipeline', async () => {
      const script = 'function handleRequest() { return { request: { body: JSON.stringify({ query: { match: { title: "emma" } } }) } }; }';
      const reg = await registerPipeline(gw.url, SEARCH_PIPELINE('emma-only', script));
      expect(reg.status).to.equal(201);
      expect(reg.json).to.include({ _id: 'emma-only', result: 'created' });
      const list = await call(gw.url, 'GET', '/_pipelines');
      expect(list.json.pipelines.map((p: any) => p.id)).to.deep.equal(['emma-only']);
      const one = await call(gw.url, 'GET', '/_pipeline/emma-only');
      expect(one.json.pipeline.stages.map((s: any) => s.id)).to.deep.equal(['check', 'script', 'search']);
      expect(one.json.pipeline.stages[0]).to.include({ use: 'authorization', continueOnError: true, enabled: true });

      const res = await call(gw.url, 'POST', '/books/_search', { body: { query: { match_all: {} } } });
      expect(res.json.hits.hits.map((h: any) => h._id)).to.deep.equal(['2']);

      const replaced = await registerPipeline(gw.url, SEARCH_PIPELINE('emma-only', 'function handleRequest() {}').replace('id: emma-only\n', ''), {}, { method: 'PUT', path: '/_pipeline/emma-only' });
      expect(replaced.status).to.equal(200);
      expect(replaced.json.result).to.equal('updated');
      const all = await call(gw.url, 'POST', '/books/_search', { body: { query: { match_all: {} } } });
      expect(all.json.hits.hits).to.have.length(3);

      const del = await call(gw.url, 'DELETE', '/_pipeline/emma-only');
      expect(del.json).to.deep.equal({ _id: 'emma-only', result: 'deleted' });
      expect((await call(gw.url, 'GET', '/_pipeline/emma-only')).status).to.equal(404);
      expect((await call(gw.url, 'DELETE', '/_pipeline/emma-only')).status).to.equal(404);
    });

    it('refuses a syntax error, a missing scriptRef file and an unknown stage with a 400 naming the stage', async () => {
      const bad = await registerPipeline(gw.url, SCENARIO, { 'prepare.js': 'function handleRequest( {', 'require-query.js': REQUIRE_QUERY });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.include('stage [prepare-response]').and.include('does not parse');
      // a million nested parentheses: the parser's own limit, a 400 naming the stage (it was a 500)
      const deep = `function handleRequest() { return ${'('.repeat(1_000_000)}1${')'.repeat(1_000_000)}; }`;
      const nested = await registerPipeline(gw.url, SCENARIO, { 'prepare.js': deep, 'require-query.js': REQUIRE_QUERY });
      expect(nested.status, JSON.stringify(nested.json).slice(0, 300)).to.equal(400);
      expect(nested.json.error.reason).to.include('stage [prepare-response]').and.include('nested too deeply').and.include('more than 1000 levels');
      // the script sent before the definition: the same answer
      const scriptFirst = await registerDeepFirst(gw.url, SCENARIO, 'prepare.js', deep);
      expect(scriptFirst.status).to.equal(400);
      expect(scriptFirst.json.error.reason).to.equal(nested.json.error.reason);
      // as a plain form field (no file name): the same answer
      const asField = await registerPipeline(gw.url, SCENARIO, { 'require-query.js': REQUIRE_QUERY }, { extra: { 'prepare.js': deep } });
      expect(asField.status).to.equal(400);
      expect(asField.json.error.reason).to.equal(nested.json.error.reason);
      const missing = await registerPipeline(gw.url, SCENARIO, { 'prepare.js': PREPARE });
      expect(missing.status).to.equal(400);
      expect(missing.json.error.reason).to.include('stage [require-query]').and.include('require-query.js');
      const unknown = await registerPipeline(gw.url, SCENARIO.replace('use: declarativeQuery', 'use: teleport'), { 'prepare.js': PREPARE, 'require-query.js': REQUIRE_QUERY });
      expect(unknown.status).to.equal(400);
      expect(unknown.json.error.reason).to.include('stage [translate]').and.include('teleport');
      expect((await call(gw.url, 'GET', '/_pipelines')).json.pipelines).to.deep.equal([]);
    });

    it('a script nested too deeply is refused without decoding it, and the connection carries the next request', async () => {
      const deep = `function handleRequest() { return ${'('.repeat(1_000_000)}1${')'.repeat(1_000_000)}; }`;
      const client = new Client(gw.url, { pipelining: 1 });
      let connections = 0;
      client.on('connect', () => connections++);
      try {
        const form = new FormData();
        form.append('pipeline', new Blob([SCENARIO], { type: 'application/yaml' }), 'pipeline.yaml');
        form.append('prepare.js', new Blob([deep]), 'prepare.js');
        form.append('require-query.js', new Blob([REQUIRE_QUERY]), 'require-query.js');
        const encoded = new Response(form);
        const res = await client.request({ method: 'POST', path: '/_pipeline', headers: { authorization: adminAuth(), 'content-type': encoded.headers.get('content-type')! }, body: Buffer.from(await encoded.arrayBuffer()) });
        const answer = (await res.body.json()) as { error: { reason: string } };
        expect(res.statusCode).to.equal(400);
        expect(answer.error.reason).to.equal('stage [prepare-response]: the script [prepare.js] does not parse: the script is nested too deeply to compile (more than 1000 levels)');
        expect(res.headers.connection ?? 'keep-alive').to.equal('keep-alive');
        const next = await client.request({ method: 'GET', path: '/_pipelines', headers: { authorization: adminAuth() } });
        expect(next.statusCode).to.equal(200);
        await next.body.dump();
        expect(connections, 'connections opened').to.equal(1);
      } finally {
        await client.close();
      }
    });

    it('accepts a JSON definition file too', async () => {
      const def = JSON.stringify({ id: 'json-def', routes: [{ path: '/books/_count', method: 'GET' }], stages: [{ id: 'search', use: 'engineQuery' }] });
      const reg = await registerPipeline(gw.url, def);
      expect(reg.status).to.equal(201);
      const count = await call(gw.url, 'GET', '/books/_count');
      expect(count.json.count).to.equal(3);
    });

    it('validate: a dry run returns each stage outcome without calling the engine', async () => {
      const def = SEARCH_PIPELINE('dry', 'function handleRequest() { return { seen: context.envs.index + ":" + context.envs.greeting }; }');
      const res = await registerPipeline(gw.url, def, {}, { path: '/_pipeline/validate', extra: { request: JSON.stringify({ method: 'POST', path: '/books/_search', body: { query: { match_all: {} } } }) } });
      expect(res.status, JSON.stringify(res.json)).to.equal(200);
      expect(res.json.stages.map((s: any) => [s.stage, s.outcome])).to.deep.equal([['check', 'ok'], ['script', 'ok'], ['search', 'skipped']]);
      expect((await call(gw.url, 'GET', '/_pipelines')).json.pipelines).to.deep.equal([]);
      const json = await call(gw.url, 'POST', '/_pipeline/validate', { body: { pipeline: { routes: [{ path: '/x' }], stages: [{ id: 'boom', script: 'function handleRequest() { throw new Error("nope") }' }] }, request: {} } });
      expect(json.json.stages[0]).to.include({ stage: 'boom', outcome: 'failed', message: 'nope', status: 400 });
    });

    it('pipelines are the admin\'s and credentials with the pipelines category', async () => {
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['search'], ops: ['read', 'write'] } });
      const auth = basic(cred.json.credential.username, cred.json.password);
      const reg = await registerPipeline(gw.url, SEARCH_PIPELINE('x', 'function handleRequest() {}'), {}, { auth });
      expect(reg.status).to.equal(403);
      expect((await call(gw.url, 'GET', '/_pipelines', { auth })).status).to.equal(403);
    });
  });

  describe('execution', () => {
    afterEach(async () => {
      const list = await call(gw.url, 'GET', '/_pipelines');
      for (const p of list.json.pipelines) await call(gw.url, 'DELETE', `/_pipeline/${p.id}`);
    });

    it('the context carries request, params, query, envs; a returned object is merged into it', async () => {
      const script = `function handleRequest() {
  return { response: { code: 200, body: { method: context.request.method, params: context.request.params, query: context.request.query,
    envs: context.envs, auth: context.request.headers.authorization === undefined, body: JSON.parse(context.request.body) } } };
}`;
      await registerPipeline(gw.url, SEARCH_PIPELINE('echo', script).replace(/  - id: search\n    use: engineQuery\n/, ''));
      const res = await call(gw.url, 'POST', '/books/_search?size=1', { body: { a: 1 } });
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.include({ method: 'POST', params: { index: 'books' }, query: { size: '1' }, auth: true, body: { a: 1 } });
      expect(res.json.envs).to.include({ greeting: 'hello', index: 'books', category: 'search', method: 'POST', path: '/books/_search' });
      expect(res.json.envs.clientIp).to.be.a('string');
    });

    it('a failing stage with continueOnError: true is recorded and execution goes on', async () => {
      const def = `
id: tolerant
routes: [{ path: /books/_search, method: POST }]
stages:
  - { id: fails, script: "function handleRequest() { throw new Error('ignored') }" }
  - { id: reads-errors, script: "function handleRequest() { return { response: { code: 200, body: { errors: context.errors } } } }" }
`;
      await registerPipeline(gw.url, def);
      const res = await call(gw.url, 'POST', '/books/_search', { body: {} });
      expect(res.json).to.deep.equal({ errors: [{ stage: 'fails', message: 'ignored' }] });
    });

    it('a script that throws with continueOnError: false and no prepared response: 400 naming the stage', async () => {
      const def = `
id: strict
routes: [{ path: /books/_search, method: POST }]
stages:
  - { id: guard, continueOnError: false, script: "function handleRequest() { throw new Error('not today') }" }
  - { id: search, use: engineQuery }
`;
      await registerPipeline(gw.url, def);
      const res = await call(gw.url, 'POST', '/books/_search', { body: {} });
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.equal('pipeline_stage_exception');
      expect(res.json.error.reason).to.equal('stage [guard] of pipeline [strict] failed: not today');
      expect(res.json.error.stage).to.equal('guard');
      expect(res.json.status).to.equal(400);
    });

    it('a gateway failure in a stage with continueOnError: false is a 500 naming the stage', async () => {
      const def = `
id: broken
routes: [{ path: /books/_search, method: POST }]
stages:
  - { id: filter, use: addFilter, continueOnError: false, inputs: { data: { term: { year: 1965 } } } }
`;
      await registerPipeline(gw.url, def);
      const res = await call(gw.url, 'POST', '/books/_search', { body: 'not json', headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(400); // the client's body: its fault
      const ended = await call(gw.url, 'POST', '/books/_search', { body: {} });
      expect(ended.status).to.equal(500);
      expect(ended.json.error.reason).to.include('pipeline [broken] ended without a response');
    });

    it('pre-built stages: addFilter, hideResults, promoteResults, replaceWords, customData', async () => {
      const def = `
id: curated
routes: [{ path: /books/_search, method: POST }]
stages:
  - { id: words, use: replaceWords, inputs: { data: { arrakis: dune } } }
  - { id: filter, use: addFilter, inputs: { data: { range: { year: { lt: 1968 } } } } }
  - { id: hide, use: hideResults, inputs: { data: ["2"] } }
  - { id: search, use: engineQuery }
  - { id: promote, use: promoteResults, inputs: { data: [{ _id: "ad", _source: { title: "Sponsored" } }] } }
  - { id: data, use: customData, inputs: { data: { banner: "summer" } } }
  - { id: cache, use: useCache }
  - { id: analytics, use: recordAnalytics }
`;
      const reg = await registerPipeline(gw.url, def);
      expect(reg.status, JSON.stringify(reg.json)).to.equal(201);
      const res = await call(gw.url, 'POST', '/books/_search', { body: { query: { match: { title: 'arrakis' } } } });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.hits.hits.map((h: any) => h._id)).to.deep.equal(['ad', '1']);
      expect(res.json.customData).to.deep.equal({ banner: 'summer' });
    });

    it('a pipeline route takes precedence over the built-in route; the higher priority wins; disabled ones are ignored', async () => {
      const answer = (id: string, priority: number, enabled = true) => `
id: ${id}
priority: ${priority}
enabled: ${enabled}
routes: [{ path: "/books/_doc/{id}", method: GET }]
stages:
  - { id: answer, script: "function handleRequest() { return { response: { code: 200, body: { by: '${id}', id: context.request.params.id } } } }" }
`;
      await registerPipeline(gw.url, answer('low', 1));
      await registerPipeline(gw.url, answer('high', 5));
      await registerPipeline(gw.url, answer('off', 9, false));
      const res = await call(gw.url, 'GET', '/books/_doc/1');
      expect(res.json).to.deep.equal({ by: 'high', id: '1' });
      await call(gw.url, 'DELETE', '/_pipeline/high');
      expect((await call(gw.url, 'GET', '/books/_doc/1')).json.by).to.equal('low');
      await call(gw.url, 'DELETE', '/_pipeline/low');
      expect((await call(gw.url, 'GET', '/books/_doc/1')).json._source.title).to.equal('Dune');
    });

    describe('access control', () => {
      let reader: string;
      let stranger: string;
      before(async () => {
        await call(gw.url, 'PUT', '/secret/_doc/1?refresh=true', { body: { title: 'classified' } });
        const r = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['books'], categories: ['search'], ops: ['read'] } });
        reader = basic(r.json.credential.username, r.json.password);
        const s = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['other'], categories: ['search'], ops: ['read'] } });
        stranger = basic(s.json.credential.username, s.json.password);
      });

      it('the authorization stage checks the caller for the route', async () => {
        await registerPipeline(gw.url, SEARCH_PIPELINE('guarded', 'function handleRequest() {}'));
        expect((await call(gw.url, 'POST', '/books/_search', { auth: reader, body: {} })).status).to.equal(200);
        const denied = await call(gw.url, 'POST', '/books/_search', { auth: stranger, body: {} });
        expect(denied.status).to.equal(403);
        expect(denied.json.error.type).to.equal('security_exception');
        expect((await call(gw.url, 'POST', '/books/_search', { auth: null, body: {} })).status).to.equal(401);
      });

      it('a script cannot take a scoped caller beyond its own access', async () => {
        const script = 'function handleRequest() { return { request: { path: "/secret/_search" } }; }';
        await registerPipeline(gw.url, SEARCH_PIPELINE('sneaky', script));
        const res = await call(gw.url, 'POST', '/books/_search', { auth: reader, body: {} });
        expect(res.status).to.equal(403);
        const cred = await call(gw.url, 'POST', '/books/_search', { auth: reader, body: {} });
        expect(cred.text).to.not.include('classified');
      });

      it('a request no pipeline claims is still authorized normally', async () => {
        await registerPipeline(gw.url, SEARCH_PIPELINE('only-books', 'function handleRequest() {}').replace('/{index}/_search', '/books/_search'));
        expect((await call(gw.url, 'POST', '/secret/_search', { auth: reader, body: {} })).status).to.equal(403);
      });
    });
  });
});
}
