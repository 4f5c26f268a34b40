import { expect } from 'chai';
import { call } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';
import { registerPipeline } from './support.js';

const ATTEMPTS: Array<[string, string, RegExp]> = [
  ['infinite loop', 'function handleRequest() { for (;;) {} }', /time limit of 100 ms/],
  ['async infinite loop', 'async function handleRequest() { await null; while (true) {} }', /time limit of 100 ms/],
  // QuickJS takes seconds to fail this one on its own: the pool ends it at its time limit (plus a grace period)
  ['memory bomb', 'function handleRequest() { const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); }', /memory limit of 32 MB|time limit of 100 ms/],
  ['buffer bomb', 'function handleRequest() { return { n: new ArrayBuffer(512 * 1024 * 1024).byteLength }; }', /memory limit of 32 MB/],
  ['constructor escape', "function handleRequest() { return this.constructor.constructor('return process')().env; }", /process/],
  ['Function escape', "function handleRequest() { return Function('return this.process')().mainModule; }", /mainModule|undefined/],
  ['require', "function handleRequest() { return require('fs').readFileSync('/etc/passwd', 'utf8'); }", /require/],
  ['globalThis.process', 'function handleRequest() { globalThis.process.exit(1); }', /exit|undefined/],
  ['fetch', "async function handleRequest() { return await fetch('http://127.0.0.1:1/'); }", /fetch/],
  ['host timers', 'function handleRequest() { return new Promise((resolve) => setTimeout(resolve, 1)); }', /setTimeout/],
  ['a promise that never settles', 'function handleRequest() { return new Promise(() => {}); }', /never settled/],
  ['import', "async function handleRequest() { return await import('node:fs'); }", /.+/],
];

describe('pipelines: the script sandbox', function () {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway();
    await call(gw.url, 'PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune' } });
  });
  after(() => gw?.close());

  for (const [name, script, message] of ATTEMPTS) {
    it(`${name}: a stage error (400 naming the stage), and the gateway keeps serving`, async () => {
      const def = `
id: attempt
routes: [{ path: /attempt, method: POST }]
stages:
  - { id: evil, continueOnError: false, scriptRef: evil.js }
  - { id: search, use: engineQuery }
`;
      const reg = await registerPipeline(gw.url, def, { 'evil.js': script }, { method: 'PUT', path: '/_pipeline/attempt' });
      expect(reg.status, JSON.stringify(reg.json)).to.be.oneOf([200, 201]);
      const [attempt, meanwhile] = await Promise.all([
        call(gw.url, 'POST', '/attempt', { body: {} }),
        call(gw.url, 'GET', '/books/_doc/1'),
      ]);
      expect(attempt.status, attempt.text).to.equal(400);
      expect(attempt.json.error.type).to.equal('pipeline_stage_exception');
      expect(attempt.json.error.reason).to.match(/^stage \[evil\] of pipeline \[attempt\] failed: /).and.match(message);
      expect(meanwhile.status).to.equal(200);
      expect(meanwhile.json._source.title).to.equal('Dune');
      const after = await call(gw.url, 'GET', '/books/_doc/1');
      expect(after.status).to.equal(200);
    });
  }

  it('nothing leaks from one run to the next (a fresh context each time)', async () => {
    const def = `
id: counter
routes: [{ path: /count, method: GET }]
stages:
  - { id: count, script: "globalThis.n = (globalThis.n || 0) + 1; function handleRequest() { return { response: { code: 200, body: { n: globalThis.n } } }; }" }
`;
    await registerPipeline(gw.url, def);
    for (let i = 0; i < 3; i++) expect((await call(gw.url, 'GET', '/count')).json).to.deep.equal({ n: 1 });
  });

  it('async handleRequest: promises settle inside the sandbox', async () => {
    const def = `
id: later
routes: [{ path: /later, method: GET }]
stages:
  - id: wait
    script: |
      async function handleRequest() {
        const value = await Promise.resolve(20).then((x) => x + 1);
        return { response: { code: 201, body: { value: value * 2 } } };
      }
`;
    await registerPipeline(gw.url, def);
    const res = await call(gw.url, 'GET', '/later');
    expect(res.status).to.equal(201);
    expect(res.json).to.deep.equal({ value: 42 });
  });
});

describe('pipelines: the script limits are configurable', function () {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ PIPELINE_SCRIPT_TIMEOUT_MS: '20', PIPELINE_SCRIPT_MEMORY_MB: '8' });
  });
  after(() => gw?.close());

  it('PIPELINE_SCRIPT_TIMEOUT_MS and PIPELINE_SCRIPT_MEMORY_MB', async () => {
    const def = `
id: limits
routes: [{ path: "/limits/{what}", method: GET }]
stages:
  - id: run
    continueOnError: false
    script: |
      function handleRequest() {
        if (context.request.params.what === 'time') for (;;) {}
        return { n: new ArrayBuffer(16 * 1024 * 1024).byteLength };
      }
`;
    expect((await registerPipeline(gw.url, def)).status).to.equal(201);
    const time = await call(gw.url, 'GET', '/limits/time');
    expect(time.json.error.reason).to.include('time limit of 20 ms');
    const memory = await call(gw.url, 'GET', '/limits/memory');
    expect(memory.json.error.reason).to.include('memory limit of 8 MB');
  });
});

describe('pipelines: scripts run off the event loop', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ PIPELINE_SCRIPT_TIMEOUT_MS: '300' });
    const def = `
id: spinner
routes: [{ path: "/spin/{what}", method: GET }]
stages:
  - id: run
    continueOnError: false
    script: |
      function handleRequest() {
        if (context.request.params.what === 'forever') for (;;) {}
        if (context.request.params.what === 'bomb') { const a = []; for (;;) a.push('x'.repeat(1024)); }
        return { response: { body: JSON.stringify({ ok: true }), code: 200 } };
      }
`;
    expect((await registerPipeline(gw.url, def)).status).to.equal(201);
  });
  after(() => gw?.close());

  it("other requests are answered while tenants' scripts spin: a script costs its own request only", async () => {
    for (const what of ['forever', 'bomb']) {
      const settled: boolean[] = [];
      const spinning = [0, 1].map((i) => call(gw.url, 'GET', `/spin/${what}`).then((res) => {
        settled[i] = true;
        return res;
      }));
      // both scripts are running on the pool's workers: GET / must not wait for them
      await within(15_000, () => gw.scripts.stats().running >= 2, () => `both scripts running (${gw.scripts.stats().running})`);
      const alive = await call(gw.url, 'GET', '/');
      expect(alive.status).to.equal(200);
      expect(settled, `${what}: GET / was answered only after the scripts ended`).to.deep.equal([]);
      for (const res of await Promise.all(spinning)) {
        expect(res.status, what).to.equal(400);
        expect(res.json.error.reason, what).to.match(/time limit of 300 ms|memory limit/);
      }
    }
    // the pool replaced what it ended: scripts still run
    expect((await call(gw.url, 'GET', '/spin/fine')).json).to.deep.equal({ ok: true });
  });

  it('scripts filling arrays of a million elements fail, and the heap they grow stays bounded: RSS up by less than 1 GB', async () => {
    const def = `
id: arrays
routes: [{ path: /arrays, method: POST }]
stages:
  - { id: fill, continueOnError: false, script: "function handleRequest() { const keep = []; for (;;) keep.push(new Array(1e6).fill(1)); }" }
`;
    expect((await registerPipeline(gw.url, def)).status).to.equal(201);
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    try {
      // one on each worker, twice: QuickJS's own accounting misses these arrays, and a worker's
      // WebAssembly heap grew to 2 GB before the script's limit stopped it
      for (let round = 0; round < 2; round++) {
        for (const res of await Promise.all([0, 1].map(() => call(gw.url, 'POST', '/arrays', { body: {} })))) {
          expect(res.status, res.text).to.equal(400);
          expect(res.json.error.reason).to.match(/memory limit of 32 MB|time limit of 300 ms/);
        }
      }
    } finally {
      clearInterval(sampler);
    }
    expect((peak - before) / 1024 ** 2, 'RSS growth (MB)').to.be.below(1024);
  });
});
