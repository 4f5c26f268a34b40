import { expect } from 'chai';
import { call } from '../support/http.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN, spawnEngine, spawnGateway, tempDir, type ChildServer } from '../support/servers.js';
import { eventually, openStream } from '../support/stream-client.js';

/**
 * The distributed setup for real: a redis-server, the standalone engine as the shared cluster,
 * and two gateway processes on them.
 */
describe('horizontal scale: two gateway nodes, Redis between them', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let engine: ChildServer;
  let a: ChildServer;
  let b: ChildServer;
  let data: { dir: string; remove(): Promise<void> };

  before(async function () {
    redis = await startRedis(this, { durable: true });
    data = await tempDir('gw-scale-');
    engine = await spawnEngine(data.dir);
    const env = { ENGINE_URL: engine.url, REDIS_URL: redis.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password };
    [a, b] = await Promise.all([spawnGateway(env), spawnGateway(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await engine?.stop();
    await redis?.stop();
    await data?.remove();
  });

  it('an index deleted through one node is forgotten by the other: its next app-style write maps the type field again', async () => {
    // read from the engine itself: the gateway hides its type field from every answer
    const keywordMapped = async () => {
      const mapping = await call(engine.url, 'GET', '/crossapp/_mapping', { auth: null });
      return mapping.json.crossapp.mappings.properties._gateway_type?.type;
    };
    expect((await call(a.url, 'PUT', '/crossapp/tweet/t1', { body: { text: 'one' } })).status).to.be.oneOf([200, 201]);
    expect(await keywordMapped()).to.equal('keyword');
    // node A's stream on the index ends when the delete's index event reaches A: the bus carries
    // the event to every node's caches before the index's own channel
    const s = await openStream(a.url, '/crossapp/_doc/t1?streamonly=true');
    expect((await call(b.url, 'DELETE', '/crossapp')).status).to.equal(200);
    await s.ended;
    expect((await call(a.url, 'PUT', '/crossapp/tweet/t2', { body: { text: 'two' } })).status).to.be.oneOf([200, 201]);
    expect(await keywordMapped(), 'node A prepared the new index: the type field is a keyword, not a dynamic text').to.equal('keyword');
  });

  it('a stream opened on node B receives a write made through node A', async () => {
    await call(a.url, 'PUT', '/shared/_doc/1', { body: { v: 0 } });
    const doc = await openStream(b.url, '/shared/_doc/1?stream=true');
    const search = await openStream(b.url, '/shared/_search?stream=true', { method: 'POST', body: { query: { range: { v: { gte: 1 } } } } });
    await doc.until((m) => m.length === 1);
    await search.until((m) => m.length === 1);
    await call(a.url, 'PUT', '/shared/_doc/1', { body: { v: 1 } });
    await call(a.url, 'POST', '/shared/_update/1', { body: { doc: { v: 2 } } });
    await doc.until((m) => m.length === 3);
    await search.until((m) => m.length === 3);
    expect(doc.messages.slice(1).map((m) => m._source.v)).to.deep.equal([1, 2]);
    expect(search.messages.slice(1)).to.deep.equal([
      { _type: '_doc', _id: '1', _source: { v: 1 } },
      { _type: '_doc', _id: '1', _source: { v: 2 }, _updated: true },
    ]);
    doc.close();
    search.close();
  });

  it('killing and restarting Redis crashes neither node; a stream resumed across a write whose change was lost is told _reset, then the state', async () => {
    const s = await openStream(b.url, '/shared/_doc/2?stream=true', { accept: 'text/event-stream' });
    await s.until((m) => m.length === 1);
    await call(a.url, 'PUT', '/shared/_doc/2', { body: { n: 1 } });
    await s.until((m) => m.length === 2);
    const lastId = s.messages[1].sse.id;

    await redis.kill();
    // writes keep working while the bus is down (their changes cannot be published)
    const during = await call(a.url, 'PUT', '/shared/_doc/2', { body: { n: 100 } });
    expect(during.status).to.equal(200);
    expect((await call(b.url, 'GET', '/')).status).to.equal(200);
    await redis.restart();
    // both nodes are connected again (a node's readiness includes its Redis connections)
    for (const node of [a, b]) await eventually(async () => expect((await call(node.url, 'GET', '/_gateway/ready')).status).to.equal(200), 15_000);
    // the stream that stayed connected is told, and shown the state with the lost change
    await s.until((m) => m.some((x) => x.sse.event === 'reset') && m[m.length - 1].data._source?.n === 100, 15_000);

    s.close();
    await call(a.url, 'PUT', '/shared/_doc/2', { body: { n: 2 } });
    await call(a.url, 'PUT', '/shared/_doc/2', { body: { n: 3 } });
    // a client that was away resumes from before the gap: reset, then the current state
    const resumed = await openStream(b.url, '/shared/_doc/2?stream=true', { accept: 'text/event-stream', headers: { 'last-event-id': lastId } });
    await resumed.live;
    expect(resumed.messages.map((m) => m.sse.event ?? 'message')).to.deep.equal(['reset', 'message']);
    expect(resumed.messages[1].data._source.n).to.equal(3);
    await call(a.url, 'PUT', '/shared/_doc/2', { body: { n: 4 } });
    await resumed.until((m) => m.length === 3);
    expect(resumed.messages[2].data._source.n).to.equal(4);
    resumed.close();
    expect(a.proc.exitCode).to.equal(null);
    expect(b.proc.exitCode).to.equal(null);
  });
});
