import { expect } from 'chai';
import type { EngineAccess, EngineRequest } from '../../../../lib/engine/backend.js';
import { openEmbeddedEngine, type EmbeddedEngine } from '../../../../lib/engine/embedded/index.js';
import { startEngine, tempDir, type TestEngine } from '../support.js';

/** OpenSearch 2's point in time API (`/_search/point_in_time`, `_cat/pit_segments`), beside Elasticsearch's `_pit`. */
describe("embedded engine: OpenSearch's points in time", () => {
  let es: TestEngine;
  beforeEach(async () => {
    es = await startEngine();
    for (const index of ['a', 'b']) {
      for (const id of [1, 2]) expect((await es.call('PUT', `/${index}/_doc/${id}?refresh=true`, { n: id })).status).to.equal(201);
    }
  });
  afterEach(() => es.close());

  const create = async (index: string) => {
    const r = await es.call('POST', `/${index}/_search/point_in_time?keep_alive=1m`);
    expect(r.status, r.text).to.equal(200);
    return r.json.pit_id as string;
  };

  it('_cat/pit_segments: the segments of the points in time named, or of all of them', async () => {
    const a = await create('a');
    const b = await create('b');
    const one = await es.call('GET', '/_cat/pit_segments?format=json&h=index,shard,prirep,docs.count', { pit_id: [a] });
    expect(one.status, one.text).to.equal(200);
    expect(one.json).to.deep.equal([{ index: 'a', shard: '0', prirep: 'p', 'docs.count': '2' }]);
    // the view is frozen: a later write is not in its segments
    await es.call('PUT', '/a/_doc/3?refresh=true', { n: 3 });
    expect((await es.call('GET', '/_cat/pit_segments?format=json&h=docs.count', { pit_id: a })).json).to.deep.equal([{ 'docs.count': '2' }]);
    const all = await es.call('GET', '/_cat/pit_segments/_all?format=json&h=index');
    expect(all.json.map((r: { index: string }) => r.index).sort()).to.deep.equal(['a', 'b']);
    const text = await es.call('GET', '/_cat/pit_segments/_all?v=true&h=index,segment');
    expect(text.text.split('\n')[0].trim().split(/\s+/)).to.deep.equal(['index', 'segment']);
    expect((await es.call('GET', '/_cat/pit_segments', {})).json.error.type).to.equal('action_request_validation_exception');
    await es.call('DELETE', '/_search/point_in_time', { pit_id: [b] });
    expect((await es.call('GET', '/_cat/pit_segments', { pit_id: [b] })).status).to.equal(404);
  });

  it('lists and deletes: by ids, and all', async () => {
    const a = await create('a');
    const b = await create('b');
    const listed = await es.call('GET', '/_search/point_in_time/_all');
    expect(listed.json.pits.map((p: { pit_id: string }) => p.pit_id).sort()).to.deep.equal([a, b].sort());
    expect(listed.json.pits[0]).to.have.keys(['pit_id', 'creation_time', 'keep_alive']);
    expect((await es.call('DELETE', '/_search/point_in_time', { pit_id: [a] })).json).to.deep.equal({ pits: [{ successful: true, pit_id: a }] });
    expect((await es.call('DELETE', '/_search/point_in_time/_all')).json).to.deep.equal({ pits: [{ successful: true, pit_id: b }] });
    expect((await es.call('GET', '/_search/point_in_time/_all')).json).to.deep.equal({ pits: [] });
  });
});

describe("embedded engine: OpenSearch's points in time, called with rights", function () {
  this.timeout(60_000);
  let engine: EmbeddedEngine;
  let remove: () => Promise<void>;
  const onlyA: EngineAccess = { user: 'only-a', indices: [{ names: ['a'], ops: ['read'] }] };

  async function send(method: string, path: string, body?: unknown, access?: EngineAccess) {
    const req: EngineRequest = { method, path, headers: {} };
    if (body !== undefined) {
      req.body = JSON.stringify(body);
      req.headers = { 'content-type': 'application/json' };
    }
    if (access) req.access = access;
    const res = await engine.request(req);
    const text = (res.body as Buffer).toString('utf8');
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  }

  before(async () => {
    const dir = await tempDir();
    remove = dir.remove;
    engine = await openEmbeddedEngine({ dataDir: dir.dir });
    for (const index of ['a', 'b']) await send('PUT', `/${index}/_doc/1?refresh=true`, { n: 1 });
  });
  after(async () => {
    await engine.close();
    await remove();
  });

  it("a caller who reads a only sees, deletes and inspects a's points in time, never b's", async () => {
    const a = (await send('POST', '/a/_search/point_in_time?keep_alive=1m', undefined, onlyA)).json.pit_id as string;
    const b = (await send('POST', '/b/_search/point_in_time?keep_alive=1m')).json.pit_id as string;
    expect((await send('GET', '/_search/point_in_time/_all', undefined, onlyA)).json.pits.map((p: { pit_id: string }) => p.pit_id)).to.deep.equal([a]);
    expect((await send('DELETE', '/_search/point_in_time', { pit_id: [b] }, onlyA)).status).to.equal(403);
    expect((await send('DELETE', '/_pit', { id: b }, onlyA)).status).to.equal(403);
    expect((await send('GET', '/_cat/pit_segments', { pit_id: [b] }, onlyA)).status).to.equal(403);
    expect((await send('GET', '/_cat/pit_segments/_all?format=json&h=index', undefined, onlyA)).json).to.deep.equal([{ index: 'a' }]);
    expect((await send('DELETE', '/_search/point_in_time/_all', undefined, onlyA)).json).to.deep.equal({ pits: [{ successful: true, pit_id: a }] });
    // b's is still there for the admin
    expect((await send('GET', '/_search/point_in_time/_all')).json.pits.map((p: { pit_id: string }) => p.pit_id)).to.deep.equal([b]);
  });
});
