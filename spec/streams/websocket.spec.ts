import { expect } from 'chai';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { basic, call } from '../support/http.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';
import { sleep } from '../support/stream-client.js';

const require = createRequire(import.meta.url);
// appbase-js@2.2.4: the real client, which speaks the WebSocket frame protocol for http:// URLs
const Appbase = require('appbase-js') as new (args: { url: string; app: string }) => {
  getStream(args: { type: string; id: string }): NodeJS.EventEmitter & { stop(): void };
  searchStream(args: { type: string; body: unknown }): NodeJS.EventEmitter & { stop(): void };
};

function collect(emitter: NodeJS.EventEmitter) {
  const data: any[] = [];
  const errors: any[] = [];
  emitter.on('data', (d: unknown) => data.push(d));
  emitter.on('error', (e: unknown) => errors.push(e));
  return { data, errors };
}

async function until(check: () => boolean, ms = 5000) {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await sleep(10);
  }
}

describe('WebSocket streams (appbase frame protocol)', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  let baselineSubscriptions = 0;
  before(async () => {
    gw = await startTestGateway();
    await call(gw.url, 'PUT', '/_apps/wsapp');
    await call(gw.url, 'PUT', '/wsapp/tweet/1', { body: { text: 'hi' } });
    // taken once the node's search cache follows the index (its first search does that)
    await call(gw.url, 'POST', '/wsapp/_search');
    baselineSubscriptions = gw.bus.stats().subscriptions;
  });
  after(() => gw.close());

  it('appbase-js getStream and searchStream receive changes made through HTTP', async () => {
    const client = new Appbase({ url: gw.url.replace('http://', `http://${ADMIN.user}:${ADMIN.password}@`), app: 'wsapp' });
    const doc = client.getStream({ type: 'tweet', id: '1' });
    const search = client.searchStream({ type: 'tweet', body: { query: { match: { text: 'hello' } } } });
    const d = collect(doc);
    const s = collect(search);
    await sleep(300);
    await call(gw.url, 'PUT', '/wsapp/tweet/1', { body: { text: 'hello' } });
    await call(gw.url, 'PUT', '/wsapp/tweet/2', { body: { text: 'hello again' } });
    await call(gw.url, 'PUT', '/wsapp/tweet/3', { body: { text: 'unrelated' } });
    await call(gw.url, 'DELETE', '/wsapp/tweet/1');
    await until(() => d.data.length === 2 && s.data.length === 3);
    expect(d.data).to.deep.equal([
      { _type: 'tweet', _id: '1', _source: { text: 'hello' } },
      { _type: 'tweet', _id: '1', _deleted: true },
    ]);
    expect(s.data).to.deep.equal([
      { _type: 'tweet', _id: '1', _source: { text: 'hello' } },
      { _type: 'tweet', _id: '2', _source: { text: 'hello again' } },
      { _type: 'tweet', _id: '1', _deleted: true },
    ]);
    expect(d.errors).to.deep.equal([]);
    doc.stop();
    search.stop();
    for (let i = 0; i < 50 && gw.hub.openStreams > 0; i++) await sleep(20);
    expect(gw.hub.openStreams).to.equal(0);
    expect(gw.bus.stats().subscriptions).to.equal(baselineSubscriptions); // only the node's own follows (credentials, pipelines, the search cache's) remain
  });

  describe('raw frames', () => {
    let ws: WebSocket;
    const frames: any[] = [];
    before(async () => {
      ws = new WebSocket(gw.url.replace('http://', 'ws://') + '/wsapp');
      ws.on('message', (m) => frames.push(JSON.parse(m.toString())));
      await new Promise((r) => ws.once('open', r));
    });
    after(() => ws.close());

    it('subscribe without streamonly: the reply carries the read response as body, then pushes {channel, event}', async () => {
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw' } });
      ws.send(JSON.stringify({ id: 'sub-1', path: 'wsapp/tweet/r1?stream=true', method: 'GET', body: {}, authorization: basic(ADMIN.user, ADMIN.password) }));
      await until(() => frames.some((f) => f.id === 'sub-1' && f.body));
      expect(frames.find((f) => f.id === 'sub-1' && !f.body)).to.deep.equal({ id: 'sub-1', channel: 'sub-1' });
      const reply = frames.find((f) => f.id === 'sub-1' && f.body);
      expect(reply.body).to.include({ _type: 'tweet', _id: 'r1', found: true });
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw 2' } });
      await until(() => frames.some((f) => f.channel === 'sub-1' && f.event));
      expect(frames.find((f) => f.event)).to.deep.equal({ channel: 'sub-1', event: { _type: 'tweet', _id: 'r1', _source: { text: 'raw 2' } } });
    });

    it('unsubscribe stops the pushes', async () => {
      ws.send(JSON.stringify({ id: 'sub-1', unsubscribe: true }));
      await sleep(100);
      const before = frames.length;
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw 3' } });
      await sleep(200);
      expect(frames.length).to.equal(before);
    });

    it('frames are authenticated like HTTP requests', async () => {
      ws.send(JSON.stringify({ id: 'bad-auth', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET', authorization: basic(ADMIN.user, 'wrong') }));
      ws.send(JSON.stringify({ id: 'no-auth', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET' }));
      await until(() => frames.some((f) => f.id === 'bad-auth') && frames.some((f) => f.id === 'no-auth'));
      expect(frames.find((f) => f.id === 'bad-auth')).to.include({ status: 401 });
      expect(frames.find((f) => f.id === 'no-auth').message).to.match(/missing authentication credentials/);
    });

    it('bad frames get an error frame and the connection keeps serving', async () => {
      ws.send('not json');
      ws.send(JSON.stringify({ id: 'other-app', path: 'otherapp/tweet/1', method: 'GET', authorization: basic(ADMIN.user, ADMIN.password) }));
      ws.send(JSON.stringify({ id: 'bad-query', path: 'wsapp/tweet/_search?streamonly=true', method: 'POST', body: { query: { nope: {} } }, authorization: basic(ADMIN.user, ADMIN.password) }));
      await until(() => frames.some((f) => f.id === 'other-app') && frames.some((f) => f.id === 'bad-query'));
      expect(frames.find((f) => f.id === 'other-app').status).to.equal(400);
      expect(frames.find((f) => f.id === 'bad-query').status).to.equal(400);
      ws.send(JSON.stringify({ id: 'ok', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET', authorization: basic(ADMIN.user, ADMIN.password) }));
      await until(() => frames.some((f) => f.id === 'ok' && f.channel === 'ok'));
    });
  });
});
