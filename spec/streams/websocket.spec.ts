import { expect } from 'chai';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { adminAuth, basic, call } from '../support/http.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';
import { eventually } from '../support/stream-client.js';

const require = createRequire(import.meta.url);
// appbase-js@2.2.4: the real client, which speaks the WebSocket frame protocol for http:// URLs
const Appbase = require('appbase-js') as new (args: { url: string; app: string }) => {
  /** The client's connection, emitting every frame it receives (parsed) as 'message'. */
  ws: NodeJS.EventEmitter;
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

/** A client's frames as they arrive, and the first one (received or to come) matching a test. */
function frameLog(ws: WebSocket) {
  const frames: any[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (m) => {
    frames.push(JSON.parse(m.toString()));
    for (const w of [...waiters]) w();
  });
  const frame = (match: (f: any) => boolean, timeoutMs = 5000) =>
    new Promise<any>((resolve, reject) => {
      const check = () => {
        const found = frames.find(match);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no such frame in ${timeoutMs} ms; frames: ${JSON.stringify(frames).slice(0, 2000)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { frames, frame };
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
    const live: any[] = [];
    client.ws.on('message', (f: { live?: boolean }) => f.live && live.push(f));
    await eventually(() => expect(live, 'both subscriptions live').to.have.length(2));
    await call(gw.url, 'PUT', '/wsapp/tweet/1', { body: { text: 'hello' } });
    await call(gw.url, 'PUT', '/wsapp/tweet/2', { body: { text: 'hello again' } });
    await call(gw.url, 'PUT', '/wsapp/tweet/3', { body: { text: 'unrelated' } });
    await call(gw.url, 'DELETE', '/wsapp/tweet/1');
    await eventually(() => {
      expect(d.data).to.have.length(2);
      expect(s.data).to.have.length(3);
    });
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
    await eventually(() => {
      expect(gw.hub.openStreams).to.equal(0);
      expect(gw.bus.stats().subscriptions).to.equal(baselineSubscriptions); // only the node's own follows (credentials, pipelines, the search cache's) remain
    });
  });

  describe('raw frames', () => {
    let ws: WebSocket;
    let log: ReturnType<typeof frameLog>;
    before(async () => {
      ws = new WebSocket(gw.url.replace('http://', 'ws://') + '/wsapp');
      log = frameLog(ws);
      await once(ws, 'open');
    });
    after(() => ws.close());

    it('subscribe without streamonly: {id, channel}, the read response as body, the live marker, then pushes {channel, event}', async () => {
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw' } });
      ws.send(JSON.stringify({ id: 'sub-1', path: 'wsapp/tweet/r1?stream=true', method: 'GET', body: {}, authorization: basic(ADMIN.user, ADMIN.password) }));
      await log.frame((f) => f.id === 'sub-1' && f.live);
      const replies = log.frames.filter((f) => f.id === 'sub-1');
      expect(replies).to.have.length(3);
      expect(replies[0]).to.deep.equal({ id: 'sub-1', channel: 'sub-1' });
      expect(replies[1]).to.have.keys('id', 'channel', 'body', 'position');
      expect(replies[1].body).to.include({ _type: 'tweet', _id: 'r1', found: true });
      expect(replies[2]).to.deep.equal({ id: 'sub-1', channel: 'sub-1', live: true });
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw 2' } });
      const pushed = await log.frame((f) => f.channel === 'sub-1' && f.event);
      expect(pushed).to.deep.include({ channel: 'sub-1', event: { _type: 'tweet', _id: 'r1', _source: { text: 'raw 2' } } });
      // the change's position, later than the body's: a reconnecting client subscribes with `since=` it
      expect(pushed.position > replies[1].position).to.equal(true);
      ws.send(JSON.stringify({ id: 'sub-1', unsubscribe: true }));
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw 3' } });
      ws.send(JSON.stringify({ id: 'resumed', path: `wsapp/tweet/r1?stream=true&since=${pushed.position}`, method: 'GET', authorization: adminAuth() }));
      const replayed = await log.frame((f) => f.channel === 'resumed' && f.event);
      expect(replayed.event).to.deep.equal({ _type: 'tweet', _id: 'r1', _source: { text: 'raw 3' } });
      expect(replayed.position > pushed.position).to.equal(true);
      ws.send(JSON.stringify({ id: 'resumed', unsubscribe: true }));
    });

    it('streamonly: {id, channel}, then the live marker, no body', async () => {
      ws.send(JSON.stringify({ id: 'only', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET', authorization: adminAuth() }));
      await log.frame((f) => f.id === 'only' && f.live);
      expect(log.frames.filter((f) => f.id === 'only')).to.deep.equal([
        { id: 'only', channel: 'only' },
        { id: 'only', channel: 'only', live: true },
      ]);
      ws.send(JSON.stringify({ id: 'only', unsubscribe: true }));
    });

    it('unsubscribe stops the pushes', async () => {
      const seen = log.frames.filter((f) => f.channel === 'sub-1' && f.event).length;
      ws.send(JSON.stringify({ id: 'sub-1', unsubscribe: true }));
      // frames are handled in order: once the witness is live, sub-1 is gone
      ws.send(JSON.stringify({ id: 'witness', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET', authorization: adminAuth() }));
      await log.frame((f) => f.id === 'witness' && f.live);
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw 3' } });
      await call(gw.url, 'PUT', '/wsapp/tweet/r1', { body: { text: 'raw 4' } });
      // a push of the first write to sub-1 would be on the wire before the witness's of the second
      await log.frame((f) => f.channel === 'witness' && f.event?._source?.text === 'raw 4');
      expect(log.frames.filter((f) => f.channel === 'sub-1' && f.event)).to.have.length(seen);
      expect(log.frames.filter((f) => f.channel === 'witness' && f.event).map((f) => f.event._source.text)).to.deep.equal(['raw 3', 'raw 4']);
      ws.send(JSON.stringify({ id: 'witness', unsubscribe: true }));
    });

    it('frames are authenticated like HTTP requests', async () => {
      ws.send(JSON.stringify({ id: 'bad-auth', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET', authorization: basic(ADMIN.user, 'wrong') }));
      ws.send(JSON.stringify({ id: 'no-auth', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET' }));
      expect(await log.frame((f) => f.id === 'bad-auth')).to.include({ status: 401 });
      expect((await log.frame((f) => f.id === 'no-auth')).message).to.match(/missing authentication credentials/);
    });

    it('bad frames get an error frame and the connection keeps serving', async () => {
      ws.send('not json');
      ws.send(JSON.stringify({ id: 'other-app', path: 'otherapp/tweet/1', method: 'GET', authorization: basic(ADMIN.user, ADMIN.password) }));
      ws.send(JSON.stringify({ id: 'bad-query', path: 'wsapp/tweet/_search?streamonly=true', method: 'POST', body: { query: { nope: {} } }, authorization: basic(ADMIN.user, ADMIN.password) }));
      expect((await log.frame((f) => f.id === 'other-app')).status).to.equal(400);
      expect((await log.frame((f) => f.id === 'bad-query')).status).to.equal(400);
      ws.send(JSON.stringify({ id: 'ok', path: 'wsapp/tweet/r1?streamonly=true', method: 'GET', authorization: basic(ADMIN.user, ADMIN.password) }));
      await log.frame((f) => f.id === 'ok' && f.channel === 'ok');
    });
  });
});

describe('WebSocket heartbeats (STREAM_HEARTBEAT_MS)', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ STREAM_HEARTBEAT_MS: '200' });
  });
  after(() => gw.close());

  const connect = async (options: WebSocket.ClientOptions = {}) => {
    const ws = new WebSocket(gw.url.replace('http://', 'ws://') + '/wsapp', options);
    await once(ws, 'open');
    return ws;
  };

  it('the gateway pings every connection; a client that answers stays connected', async () => {
    const ws = await connect();
    let pings = 0;
    ws.on('ping', () => pings++);
    // the third ping comes after two ticks that each found the previous ping answered
    await eventually(() => expect(pings).to.be.at.least(3));
    expect(ws.readyState).to.equal(WebSocket.OPEN);
    ws.close();
  });

  it('a client that does not answer a ping by the next one is terminated', async () => {
    const ws = await connect({ autoPong: false });
    let pings = 0;
    ws.on('ping', () => pings++);
    const [code] = (await once(ws, 'close', { signal: AbortSignal.timeout(5_000) }).catch(() => {
      throw new Error(`not terminated within 5 s (${pings} pings seen)`);
    })) as [number];
    expect(pings).to.equal(1);
    expect(code, 'dropped, not closed with a handshake').to.equal(1006);
  });
});
