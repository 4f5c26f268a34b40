import { expect } from 'chai';
import http from 'node:http';
import { adminAuth, call } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { ConcatenatedJsonParser, eventually } from '../support/stream-client.js';

describe('a slow consumer cannot grow memory without bound', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let baselineSubscriptions = 0;
  before(async () => {
    gw = await startTestGateway({ STREAM_BUFFER_BYTES: '256kb' });
    baselineSubscriptions = gw.bus.stats().subscriptions;
  });
  after(() => gw.close());

  it('past the buffer cap the stream ends with an error object', async () => {
    await call(gw.url, 'PUT', '/slow/_doc/1', { body: { v: 0 } });
    const url = new URL(gw.url + '/slow/_doc/1?streamonly=true');
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(url, { headers: { authorization: adminAuth() } }, resolve).on('error', reject),
    );
    res.pause(); // the client stops reading
    const big = 'x'.repeat(200_000);
    for (let i = 0; i < 150 && gw.hub.openStreams > 0; i++) {
      await call(gw.url, 'PUT', '/slow/_doc/1', { body: { v: i, big } });
    }
    await eventually(() => expect(gw.hub.openStreams, 'the stream should have been ended').to.equal(0));
    expect(gw.bus.stats().subscriptions).to.equal(baselineSubscriptions); // only the node's own follows (credentials, pipelines) remain
    // the client reads what it was sent: changes, then the error object
    const parser = new ConcatenatedJsonParser();
    const messages: any[] = [];
    res.on('data', (c: Buffer) => messages.push(...parser.push(c.toString())));
    res.resume();
    await new Promise((r) => res.once('end', r));
    const last = messages[messages.length - 1];
    expect(last.error.type).to.equal('stream_buffer_overflow_exception');
    expect(messages.length).to.be.lessThan(150);
    expect((await call(gw.url, 'GET', '/')).status).to.equal(200);
  });
});
