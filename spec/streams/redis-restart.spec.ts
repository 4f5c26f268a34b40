import { expect } from 'chai';
import { call } from '../support/http.js';
import { eventually, openStream, type OpenStream } from '../support/stream-client.js';
import { startTwoNodes, type TwoNodes } from '../support/two-nodes.js';
import { hitsSnapshot, StreamView } from '../support/stream-views.js';

/**
 * The way production fails (issue 36): two nodes on one engine and one Redis, streams connected
 * to node B, writes through node A, and Redis restarted empty in the middle of them (one write
 * lands while it is down: its change can never be published). A stream that stays connected
 * through it must never go silent: it either gets every change, or is told `_reset` and shown
 * the state again — its client's view ends equal to a fresh read.
 */
describe('a stream connected through a Redis restart', function () {
  this.timeout(60_000);
  let nodes: TwoNodes;

  before(async function () {
    nodes = await startTwoNodes(this, 'gw-redis-restart-');
  });
  after(async () => nodes?.stop());

  const follow = (stream: OpenStream, view: StreamView) => {
    let seen = 0;
    return () => {
      for (; seen < stream.messages.length; seen++) view.apply(stream.messages[seen].data);
      return view;
    };
  };

  it('is told _reset and shown the state again, and its view ends equal to a fresh read (search, aggregation and document streams)', async () => {
    const { a, b, redis } = nodes;
    await call(a.url, 'PUT', '/restart/_doc/seed?refresh=true', { body: { n: 0, group: 'x' } });
    const sse = { accept: 'text/event-stream' };
    const search = await openStream(b.url, '/restart/_search?stream=true', { ...sse, method: 'POST', body: { size: 100, query: { match: { group: 'x' } } } });
    const aggs = await openStream(b.url, '/restart/_search?stream=true', { ...sse, method: 'POST', body: { size: 0, aggs: { total: { sum: { field: 'n' } } } } });
    const doc = await openStream(b.url, '/restart/_doc/w?stream=true', sse);
    await Promise.all([search.live, aggs.live, doc.live]);
    const searchView = follow(search, new StreamView('search'));
    const docView = follow(doc, new StreamView('document'));
    const aggView = follow(aggs, new StreamView('search'));

    for (let i = 1; i <= 20; i++) {
      await call(a.url, 'PUT', `/restart/_doc/d${i}`, { body: { n: i, group: 'x' } });
      await call(a.url, 'PUT', '/restart/_doc/w', { body: { n: i } });
    }
    await search.until(() => searchView().docs.size === 21, 15_000);
    await doc.until(() => (docView().docs.get('_doc') as { n?: number } | undefined)?.n === 20, 15_000);

    await redis.kill();
    // acknowledged while Redis is down: its change cannot be published to anyone
    expect((await call(a.url, 'PUT', '/restart/_doc/during', { body: { n: 100, group: 'x' } })).status).to.equal(201);
    expect((await call(a.url, 'PUT', '/restart/_doc/w', { body: { n: 100 } })).status).to.equal(200);
    await redis.restart(); // empty: the change history is gone
    for (const node of [a, b]) await eventually(async () => expect((await call(node.url, 'GET', '/_gateway/ready')).status).to.equal(200), 15_000);

    for (let i = 21; i <= 30; i++) {
      await call(a.url, 'PUT', `/restart/_doc/d${i}`, { body: { n: i, group: 'x' } });
      await call(a.url, 'PUT', '/restart/_doc/w', { body: { n: i } });
    }
    await call(a.url, 'POST', '/restart/_refresh');
    const fresh = hitsSnapshot((await call(a.url, 'POST', '/restart/_search', { body: { size: 100, query: { match: { group: 'x' } } } })).json);
    const freshSum = (await call(a.url, 'POST', '/restart/_search', { body: { size: 0, aggs: { total: { sum: { field: 'n' } } } } })).json.aggregations;
    expect(Object.keys(fresh)).to.have.length(32);

    await search.until(() => JSON.stringify(searchView().snapshot()) === JSON.stringify(fresh), 20_000).catch((err: Error) => {
      throw new Error(`${err.message.slice(0, 200)}…\nlast messages: ${JSON.stringify(search.messages.slice(-3))}`);
    });
    await doc.until(() => (docView().docs.get('_doc') as { n?: number } | undefined)?.n === 30, 20_000);
    await aggs.until(() => JSON.stringify(aggView().aggregations) === JSON.stringify(freshSum), 20_000);
    // the discontinuity was announced to each of them, not papered over
    expect(searchView().resets, 'search stream told of the gap').to.be.at.least(1);
    expect(docView().resets, 'document stream told of the gap').to.be.at.least(1);
    expect(aggView().resets, 'aggregation stream told of the gap').to.be.at.least(1);
    for (const s of [search, aggs, doc]) s.close();
  });
});
