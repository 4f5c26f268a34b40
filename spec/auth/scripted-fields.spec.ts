import { expect } from 'chai';
import { ScriptedFields } from '../../lib/auth/scripted-fields.js';
import { MemoryChangeBus } from '../../lib/changes/index.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../lib/engine/embedded/index.js';
import type { Backend, EngineRequest } from '../../lib/engine/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { spawnEngine, startTestGateway, tempDir, type ChildServer, type TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';

const MAPPING = { mappings: { properties: { title: { type: 'keyword' }, secret: { type: 'keyword' } } } };
const LEAK = { runtime: { leak: { type: 'keyword', script: { source: 'emit(params._source.secret)' } } } };
/** A read of the field `leak`: refused once `leak` is computed by a script (it could read `secret`). */
const READ_LEAK = { size: 0, aggs: { c: { terms: { field: 'leak' } } } };

/** A reader of `index` whose field rules hide `secret`. */
async function hidingReader(url: string, index: string): Promise<string> {
  const made = await call(url, 'POST', '/_credentials', { body: { indices: [index], categories: ['search'], ops: ['read'], exclude_fields: ['secret'] } });
  expect(made.status, made.text).to.equal(201);
  return basic(made.json.credential.username, made.json.password);
}

async function createIndex(url: string, index: string): Promise<void> {
  const created = await call(url, 'PUT', `/${index}`, { body: MAPPING });
  expect(created.status, created.text).to.equal(200);
  expect((await call(url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { title: 'one', secret: 'sesame' } })).status).to.equal(201);
}

describe('scripted fields of the field rules: kept per index until a mapping changes', function () {
  this.timeout(60_000);
  let engine: EmbeddedEngine;
  let data: { dir: string; remove(): Promise<void> };
  let bus: MemoryChangeBus;
  const reads: string[] = [];
  /** The engine, counting the mapping reads it is asked for. */
  let backend: Backend;

  before(async () => {
    data = await tempDir('gw-scripted-');
    engine = await openEmbeddedEngine({ dataDir: data.dir });
    bus = new MemoryChangeBus();
    backend = {
      kind: 'embedded',
      request: (req: EngineRequest) => {
        if (req.path.endsWith('/_mapping')) reads.push(req.path);
        return engine.request(req);
      },
      close: () => Promise.resolve(),
    };
    const admin = (method: string, path: string, body?: unknown) => engine.request({ method, path, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    await admin('PUT', '/kept', MAPPING);
    await admin('PUT', '/growing', { mappings: { dynamic: 'runtime' } });
    await admin('PUT', '/templated', { mappings: { dynamic_templates: [{ r: { match: '*', runtime: { type: 'keyword' } } }] } });
  });
  after(async () => {
    await bus.close();
    await engine.close();
    await data.remove();
  });

  it('reads an index once, and again after a mapping change or an index event', async () => {
    const fields = new ScriptedFields(backend, bus);
    reads.length = 0;
    expect([...(await fields.of(['kept'])).scripted]).to.deep.equal([]);
    expect([...(await fields.of(['kept'])).scripted]).to.deep.equal([]);
    expect(reads).to.have.length(1);
    await engine.request({ method: 'PUT', path: '/kept/_mapping', body: JSON.stringify(LEAK), headers: { 'content-type': 'application/json' } });
    await bus.announceMapping('kept');
    expect([...(await fields.of(['kept'])).scripted]).to.deep.equal(['leak']);
    expect(reads).to.have.length(2);
    await bus.publish({ kind: 'index', index: 'other', op: 'close' });
    await fields.of(['kept']);
    expect(reads).to.have.length(3);
    fields.close();
  });

  it('keeps nothing for a pattern, a missing name, a mapping that makes runtime fields by itself, or without a bus', async () => {
    const fields = new ScriptedFields(backend, bus);
    for (const indices of [['kep*'], ['kept', 'missing'], ['growing'], ['templated']]) {
      reads.length = 0;
      await fields.of(indices);
      await fields.of(indices);
      expect(reads, indices.join(',')).to.have.length(2);
    }
    fields.close();
    const unkept = new ScriptedFields(backend);
    reads.length = 0;
    await unkept.of(['kept']);
    await unkept.of(['kept']);
    expect(reads).to.have.length(2);
  });
});

for (const backend of BACKENDS) {
  describe(`a field made runtime is refused on the next request (${backend.name})`, function () {
    this.timeout(120_000);
    let url: string;
    let stop: (() => Promise<void>) | undefined;

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
    });
    after(() => stop?.());

    it('read, then a mapping makes the field runtime: the same read is refused at once', async () => {
      await createIndex(url, 'sf');
      const reader = await hidingReader(url, 'sf');
      for (let i = 0; i < 2; i++) expect((await call(url, 'POST', '/sf/_search', { auth: reader, body: READ_LEAK })).status).to.equal(200);
      expect((await call(url, 'PUT', '/sf/_mapping', { body: LEAK })).status).to.equal(200);
      const refused = await call(url, 'POST', '/sf/_search', { auth: reader, body: READ_LEAK });
      expect(refused.status, refused.text).to.equal(403);
      expect(refused.text).not.to.contain('sesame');
    });

    it('an index deleted and made again with the field runtime: refused at once', async () => {
      await createIndex(url, 'sf2');
      const reader = await hidingReader(url, 'sf2');
      expect((await call(url, 'POST', '/sf2/_search', { auth: reader, body: READ_LEAK })).status).to.equal(200);
      expect((await call(url, 'DELETE', '/sf2')).status).to.equal(200);
      expect((await call(url, 'PUT', '/sf2', { body: { mappings: { ...MAPPING.mappings, ...LEAK } } })).status).to.equal(200);
      const refused = await call(url, 'POST', '/sf2/_search', { auth: reader, body: READ_LEAK });
      expect(refused.status, refused.text).to.equal(403);
    });
  });
}

describe('a field made runtime through one gateway node is refused on the other', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let engine: ChildServer;
  let data: { dir: string; remove(): Promise<void> };
  let a: TestGateway;
  let b: TestGateway;

  before(async function () {
    // two gateway nodes in this process (each with its own Redis bus), one standalone engine, one Redis
    redis = await startRedis(this);
    data = await tempDir('gw-scripted-nodes-');
    engine = await spawnEngine(data.dir);
    [a, b] = await Promise.all([0, 1].map(() => startTestGateway({ ENGINE_URL: engine.url, REDIS_URL: redis.url })));
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await engine?.stop();
    await redis?.stop();
    await data?.remove();
  });

  it('node B, which read the index before, refuses the read once the change reaches it; node A at once', async () => {
    await createIndex(a.url, 'sfn');
    const reader = await hidingReader(a.url, 'sfn');
    expect((await call(a.url, 'POST', '/sfn/_search', { auth: reader, body: READ_LEAK })).status).to.equal(200);
    // node B knows the credential once the bus brought it
    await within(5000, async () => (await call(b.url, 'POST', '/sfn/_search', { auth: reader, body: READ_LEAK })).status === 200, () => 'node B answers the reader');
    expect((await call(b.url, 'POST', '/sfn/_search', { auth: reader, body: READ_LEAK })).status).to.equal(200);
    expect((await call(a.url, 'PUT', '/sfn/_mapping', { body: LEAK })).status).to.equal(200);
    expect((await call(a.url, 'POST', '/sfn/_search', { auth: reader, body: READ_LEAK })).status).to.equal(403);
    await within(5000, async () => (await call(b.url, 'POST', '/sfn/_search', { auth: reader, body: READ_LEAK })).status === 403, () => 'node B refuses the runtime field');
  });
});
