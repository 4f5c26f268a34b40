import { expect } from 'chai';
import { call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { eventually, openStream } from '../support/stream-client.js';

const json = (body: unknown) => ({ body });

for (const backend of BACKENDS) {
  describe(`document streams (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop());

    it('GET /{index}/_doc/{id}?stream=true: the read response, then every change in order', async () => {
      await call(gw.url, 'PUT', '/docs/_doc/1', json({ title: 'first', n: 1 }));
      const s = await openStream(gw.url, '/docs/_doc/1?stream=true');
      expect(s.status).to.equal(200);
      expect(s.headers['x-elastic-product']).to.equal('Elasticsearch');
      await s.until((m) => m.length === 1);
      expect(s.messages[0]).to.include({ _index: 'docs', _id: '1', found: true, _version: 1 });
      expect(s.messages[0]._source).to.deep.equal({ title: 'first', n: 1 });

      await call(gw.url, 'PUT', '/docs/_doc/1', json({ title: 'second', n: 2 }));
      await call(gw.url, 'POST', '/docs/_update/1', json({ doc: { n: 3 } }));
      await call(gw.url, 'POST', '/_bulk', {
        body: '{"index":{"_index":"docs","_id":"1"}}\n{"title":"bulk"}\n{"update":{"_index":"docs","_id":"1"}}\n{"doc":{"n":4}}\n{"index":{"_index":"docs","_id":"other"}}\n{"x":1}\n',
        headers: { 'content-type': 'application/x-ndjson' },
      });
      await call(gw.url, 'DELETE', '/docs/_doc/1');
      await s.until((m) => m.length === 6);
      expect(s.messages.slice(1)).to.deep.equal([
        { _type: '_doc', _id: '1', _source: { title: 'second', n: 2 } },
        { _type: '_doc', _id: '1', _source: { title: 'second', n: 3 } },
        { _type: '_doc', _id: '1', _source: { title: 'bulk' } },
        { _type: '_doc', _id: '1', _source: { title: 'bulk', n: 4 } },
        { _type: '_doc', _id: '1', _deleted: true },
      ]);
      s.close();
    });

    it('on an index whose _routing is required: an _update (its body choosing _source) and an _update_by_query reach the stream as updates', async () => {
      expect((await call(gw.url, 'PUT', '/routed-req', json({ mappings: { _routing: { required: true } } }))).status).to.equal(200);
      expect((await call(gw.url, 'PUT', '/routed-req/_doc/1?routing=r&refresh=true', json({ n: 1, tag: 'a' }))).status).to.equal(201);
      const s = await openStream(gw.url, '/routed-req/_doc/1?routing=r&stream=true');
      await s.until((m) => m.length === 1);
      expect(s.messages[0]).to.include({ _id: '1', found: true, _routing: 'r' });
      const upd = await call(gw.url, 'POST', '/routed-req/_update/1?routing=r&refresh=true', json({ doc: { n: 2 }, _source: ['n'] }));
      expect(upd.json.get?._source, upd.text).to.deep.equal({ n: 2 });
      const byQuery = await call(gw.url, 'POST', '/routed-req/_update_by_query?refresh=true', json({ script: { source: 'ctx._source.n += 1' } }));
      expect(byQuery.json.updated, byQuery.text).to.equal(1);
      await s.until((m) => m.length === 3);
      expect(s.messages.slice(1)).to.deep.equal([
        { _type: '_doc', _id: '1', _source: { n: 2, tag: 'a' } },
        { _type: '_doc', _id: '1', _source: { n: 3, tag: 'a' } },
      ]);
      s.close();
    });

    it('the write responses are unchanged by what the gateway asks for its events', async () => {
      await call(gw.url, 'PUT', '/docs/_doc/u', json({ a: 1 }));
      const upd = await call(gw.url, 'POST', '/docs/_update/u', json({ doc: { b: 2 } }));
      expect(upd.json).not.to.have.property('get');
      const bulk = await call(gw.url, 'POST', '/_bulk', {
        body: '{"update":{"_index":"docs","_id":"u"}}\n{"doc":{"c":3}}\n',
        headers: { 'content-type': 'application/x-ndjson' },
      });
      expect(bulk.json.items[0].update).not.to.have.property('get');
      const filtered = await call(gw.url, 'PUT', '/docs/_doc/f?filter_path=result', json({ a: 1 }));
      expect(filtered.json).to.deep.equal({ result: 'created' });
    });

    it('a _bulk whose answer is megabytes long: its changes reach the streams, first item to last', async () => {
      const count = 12_000; // an answer of about 2 MB: parsed a thousand items at a time on the HTTP backend
      await call(gw.url, 'PUT', '/big'); // a document stream opens on an index that exists (a missing one answers 404)
      const first = await openStream(gw.url, '/big/_doc/d0?stream=true');
      const last = await openStream(gw.url, `/big/_doc/d${count - 1}?stream=true`);
      await first.until((m) => m.length === 1);
      await last.until((m) => m.length === 1);
      const lines: string[] = [];
      for (let i = 0; i < count; i++) lines.push(JSON.stringify({ index: { _index: 'big', _id: `d${i}` } }), JSON.stringify({ n: i, note: 'a "quoted", [bracketed] {text}' }));
      const bulk = await call(gw.url, 'POST', '/_bulk', { body: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
      expect(bulk.status).to.equal(200);
      expect(bulk.text.length).to.be.above(1024 * 1024);
      expect(bulk.json.items).to.have.length(count);
      await first.until((m) => m.length === 2);
      await last.until((m) => m.length === 2);
      expect(first.messages[1]).to.deep.equal({ _type: '_doc', _id: 'd0', _source: { n: 0, note: 'a "quoted", [bracketed] {text}' } });
      expect(last.messages[1]).to.deep.equal({ _type: '_doc', _id: `d${count - 1}`, _source: { n: count - 1, note: 'a "quoted", [bracketed] {text}' } });
      first.close();
      last.close();
    });

    it('app-addressed: /{app}/{type}/{id}?stream=true carries the type; a change to another type reads as a delete', async () => {
      await call(gw.url, 'PUT', '/_apps/streamapp');
      await call(gw.url, 'PUT', '/streamapp/tweet/t1', json({ text: 'hi' }));
      const s = await openStream(gw.url, '/streamapp/tweet/t1?stream=true');
      await s.until((m) => m.length === 1);
      expect(s.messages[0]).to.include({ _type: 'tweet', _id: 't1', found: true });
      expect(s.messages[0]._source).to.deep.equal({ text: 'hi' });
      await call(gw.url, 'PUT', '/streamapp/tweet/t1', json({ text: 'hello' }));
      await call(gw.url, 'POST', '/streamapp/tweet/t1/_update', json({ doc: { likes: 1 } }));
      await call(gw.url, 'PUT', '/streamapp/user/t1', json({ name: 'now a user' }));
      await s.until((m) => m.length === 4);
      expect(s.messages.slice(1)).to.deep.equal([
        { _type: 'tweet', _id: 't1', _source: { text: 'hello' } },
        { _type: 'tweet', _id: 't1', _source: { text: 'hello', likes: 1 } },
        { _type: 'tweet', _id: 't1', _deleted: true },
      ]);
      s.close();
    });

    it('streamonly=true sends changes only', async () => {
      const s = await openStream(gw.url, '/docs/_doc/so?streamonly=true');
      await s.live;
      await call(gw.url, 'PUT', '/docs/_doc/so', json({ v: 1 }));
      await s.until((m) => m.length === 1);
      expect(s.messages).to.deep.equal([{ _type: '_doc', _id: 'so', _source: { v: 1 } }]);
      s.close();
    });

    it('SSE framing: an id on every change, and Last-Event-ID replays what a client missed', async () => {
      await call(gw.url, 'PUT', '/docs/_doc/sse', json({ v: 0 }));
      const s = await openStream(gw.url, '/docs/_doc/sse?stream=true', { accept: 'text/event-stream' });
      expect(String(s.headers['content-type'])).to.match(/^text\/event-stream/);
      await call(gw.url, 'PUT', '/docs/_doc/sse', json({ v: 1 }));
      await s.until((m) => m.length === 2);
      const lastId = s.messages[1].sse.id;
      expect(lastId).to.be.a('string');
      s.close();
      // missed while disconnected
      await call(gw.url, 'PUT', '/docs/_doc/sse', json({ v: 2 }));
      await call(gw.url, 'PUT', '/docs/_doc/other-doc', json({ v: 9 }));
      await call(gw.url, 'PUT', '/docs/_doc/sse', json({ v: 3 }));
      const resumed = await openStream(gw.url, '/docs/_doc/sse?stream=true', { accept: 'text/event-stream', headers: { 'last-event-id': lastId } });
      await resumed.until((m) => m.length === 2);
      expect(resumed.messages.map((m) => m.data._source.v)).to.deep.equal([2, 3]);
      expect(resumed.messages[0].sse.id > lastId).to.equal(true);
      await resumed.live; // after the replay
      await call(gw.url, 'PUT', '/docs/_doc/sse', json({ v: 4 }));
      await resumed.until((m) => m.length === 3);
      expect(resumed.messages[2].data._source.v).to.equal(4);
      resumed.close();
    });

    it('SSE: the current state, then a :live comment once every later change reaches the stream', async () => {
      await call(gw.url, 'PUT', '/docs/_doc/marked', json({ v: 0 }));
      const s = await openStream(gw.url, '/docs/_doc/marked?stream=true', { accept: 'text/event-stream' });
      await s.live;
      expect(s.raw()).to.match(/^:ok\n\nid: [^\n]+\ndata: [^\n]+\n\n:live\n\n$/);
      expect(s.messages[0].data._source).to.deep.equal({ v: 0 });
      await call(gw.url, 'PUT', '/docs/_doc/marked', json({ v: 1 }));
      await s.until((m) => m.length === 2);
      expect(s.messages[1].data._source).to.deep.equal({ v: 1 });
      // changes only: the marker is the first thing after the preamble
      const only = await openStream(gw.url, '/docs/_doc/marked?streamonly=true', { accept: 'text/event-stream' });
      await only.live;
      expect(only.raw()).to.equal(':ok\n\n:live\n\n');
      s.close();
      only.close();
    });

    it('NDJSON framing: one object per line; ?since= resumes too', async () => {
      const s = await openStream(gw.url, '/docs/_doc/nd?stream=true', { accept: 'application/x-ndjson' });
      await call(gw.url, 'PUT', '/docs/_doc/nd', json({ v: 1 }));
      await s.until((m) => m.length === 2);
      expect(s.raw().split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))).to.have.length(2);
      s.close();
    });

    it('deleting the index ends its streams with a final error object', async () => {
      await call(gw.url, 'PUT', '/doomed/_doc/1', json({ a: 1 }));
      const s = await openStream(gw.url, '/doomed/_doc/1?stream=true');
      await s.until((m) => m.length === 1);
      await call(gw.url, 'DELETE', '/doomed');
      await s.ended;
      const last = s.messages[s.messages.length - 1];
      expect(last.error.type).to.equal('index_not_found_exception');
      expect(last.status).to.equal(404);
    });

    it('closing the index ends its streams too', async () => {
      await call(gw.url, 'PUT', '/closing/_doc/1', json({ a: 1 }));
      const s = await openStream(gw.url, '/closing/_doc/1?stream=true');
      await s.until((m) => m.length === 1);
      await call(gw.url, 'POST', '/closing/_close');
      await s.ended;
      expect(s.messages[s.messages.length - 1].error.type).to.equal('index_closed_exception');
    });

    it('1,000 rapid writes: a stream opened in the middle ends with the last version and never goes backwards', async function () {
      this.timeout(60_000);
      await call(gw.url, 'PUT', '/race/_doc/hot', json({ n: 0 }));
      let opened: Awaited<ReturnType<typeof openStream>> | undefined;
      const writer = (async () => {
        for (let i = 1; i <= 1000; i++) {
          const res = await call(gw.url, 'PUT', '/race/_doc/hot', json({ n: i }));
          expect(res.status).to.equal(200);
          if (i === 300) opened = await openStream(gw.url, '/race/_doc/hot?stream=true');
        }
      })();
      const concurrent = (async () => {
        for (let i = 0; i < 200; i++) await call(gw.url, 'PUT', `/race/_doc/cold-${i}`, json({ n: i }));
      })();
      await Promise.all([writer, concurrent]);
      const s = opened!;
      await s.until((m) => {
        const last = m[m.length - 1];
        return (last?._source?.n ?? last?._source?.n) === 1000;
      }, 20_000);
      const values = s.messages.map((m) => m._source.n as number);
      for (let i = 1; i < values.length; i++) expect(values[i], `message ${i}`).to.be.greaterThan(values[i - 1]);
      expect(values[values.length - 1]).to.equal(1000);
      expect(new Set(values).size).to.equal(values.length);
      s.close();
    });

    it('closing the connection tears down every subscription it held', async () => {
      // the streams of the tests before are gone once the node has seen their clients leave
      // (waited for up to 20 s: a loaded machine's node may take seconds to see a client leave; a
      // leak never gets there)
      await eventually(() => expect(gw.hub.openStreams).to.equal(0), 20_000);
      // the node itself follows the credentials index (cache invalidation): that one stays
      const baseline = gw.bus.stats().subscriptions;
      const baseChannels = gw.bus.stats().channels;
      const streams = await Promise.all([
        openStream(gw.url, '/docs/_doc/a?stream=true'),
        openStream(gw.url, '/docs/_doc/b?stream=true'),
        openStream(gw.url, '/docs/_search?stream=true', { method: 'POST', body: { query: { match_all: {} } } }),
      ]);
      await Promise.all(streams.map((s) => s.until((m) => m.length >= 1)));
      expect(gw.bus.stats().subscriptions).to.be.greaterThan(baseline);
      expect(gw.hub.openStreams).to.be.at.least(3);
      for (const s of streams) s.close();
      await eventually(() => {
        expect(gw.hub.openStreams).to.equal(0);
        expect(gw.bus.stats().subscriptions).to.equal(baseline);
      }, 20_000);
      expect(gw.bus.stats().channels).to.equal(baseChannels);
    });

    it('an invalid stream request answers its 4xx status before any byte of stream', async () => {
      const cases: Array<[string, string, unknown, number, string]> = [
        ['GET', '/docs/_doc/1?stream=true&since=garbage', undefined, 400, 'illegal_argument_exception'],
        ['POST', '/docs/_search?stream=true', { size: 1e9 }, 400, 'illegal_argument_exception'],
        ['POST', '/docs/_search?stream=true', { query: { no_such_query: {} } }, 400, 'parsing_exception'],
        ['POST', '/no-such-index/_search?stream=true', { query: { match_all: {} } }, 404, 'index_not_found_exception'],
      ];
      for (const [method, path, body, status, type] of cases) {
        const s = await openStream(gw.url, path, { method, body });
        await s.ended;
        expect(s.status, path).to.equal(status);
        const answer = JSON.parse(s.raw());
        expect(answer.status, path).to.equal(status);
        expect(answer.error.type, path).to.equal(type);
      }
    });

    it('a stream needs the same credentials as the GET', async () => {
      const s = await openStream(gw.url, '/docs/_doc/1?stream=true', { auth: null });
      expect(s.status).to.equal(401);
      await s.ended;
      expect(JSON.parse(s.raw()).error.type).to.equal('security_exception');
    });
  });
}

describe('document streams: lifetime, heartbeats, history bounds', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ STREAM_HEARTBEAT_MS: '100', STREAM_MAX_DURATION: '1500ms', STREAM_HISTORY: '5' });
  });
  after(() => gw.close());

  it('idle streams get whitespace heartbeats; SSE gets comments', async () => {
    const s = await openStream(gw.url, '/hb/_doc/1?streamonly=true');
    const sse = await openStream(gw.url, '/hb/_doc/1?streamonly=true', { accept: 'text/event-stream' });
    await s.until(() => s.raw().length >= 2); // more than one: they go on while the stream is idle
    await sse.until(() => sse.raw().includes(':heartbeat'));
    expect(s.raw()).to.match(/^ +$/);
    expect(sse.raw()).to.match(/^:ok\n\n:live\n\n(:heartbeat\n\n)+$/);
    s.close();
    sse.close();
  });

  it('a stream ends cleanly at STREAM_MAX_DURATION', async () => {
    await call(gw.url, 'PUT', '/hb'); // a document stream opens on an index that exists (a missing one answers 404)
    const t0 = Date.now();
    const s = await openStream(gw.url, '/hb/_doc/1?stream=true');
    await s.ended;
    const elapsed = Date.now() - t0;
    expect(elapsed).to.be.within(1400, 4000);
    expect(s.messages[s.messages.length - 1]).to.include({ _stream_end: true });
  });

  it('a resume position older than the history is told _reset, then the current state — never a silent gap', async () => {
    await call(gw.url, 'PUT', '/old'); // a document stream opens on an index that exists (a missing one answers 404)
    const s = await openStream(gw.url, '/old/_doc/1?stream=true', { accept: 'text/event-stream' });
    await call(gw.url, 'PUT', '/old/_doc/1', { body: { v: 1 } });
    await s.until((m) => m.length === 2);
    const first = s.messages[1].sse.id;
    s.close();
    for (let i = 0; i < 20; i++) await call(gw.url, 'PUT', '/old/_doc/1', { body: { v: i } });
    const resumed = await openStream(gw.url, '/old/_doc/1?stream=true', { accept: 'text/event-stream', headers: { 'last-event-id': first } });
    await resumed.live;
    expect(resumed.status).to.equal(200);
    // an empty id: a client that reconnects before the new state does so afresh
    expect(resumed.messages[0].sse).to.deep.equal({ id: '', event: 'reset' });
    expect(resumed.messages[0].data._reset).to.equal(true);
    expect(resumed.messages[0].data.reason).to.match(/read the current state again/);
    // then the document as it is now, with a position to resume from, and live changes after it
    expect(resumed.messages[1].data).to.deep.include({ _id: '1', found: true, _source: { v: 19 } });
    expect(resumed.messages[1].sse.id).to.be.a('string');
    await call(gw.url, 'PUT', '/old/_doc/1', { body: { v: 20 } });
    await resumed.until((m) => m.length === 3);
    expect(resumed.messages[2].data._source).to.deep.equal({ v: 20 });
    resumed.close();
  });

  it('graceful shutdown ends open streams cleanly, with a final object', async () => {
    const other = await startTestGateway();
    await call(other.url, 'PUT', '/bye'); // a document stream opens on an index that exists (a missing one answers 404)
    const s = await openStream(other.url, '/bye/_doc/1?stream=true');
    await s.until((m) => m.length === 1);
    await other.close();
    await s.ended;
    expect(s.messages).to.have.length(2);
    expect(s.messages[1]).to.deep.include({ _stream_end: true });
  });
});
