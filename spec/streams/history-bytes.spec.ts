import { expect } from 'chai';
import { call } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

describe('document streams: the change history is bounded in bytes (STREAM_HISTORY_BYTES)', function () {
  this.timeout(30_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ STREAM_HISTORY_BYTES: '2mb' });
  });
  after(() => gw.close());

  it('large overwrites push old positions out: resuming from one is the announced reset; from a recent one, the missed changes', async () => {
    await call(gw.url, 'PUT', '/hist');
    const s = await openStream(gw.url, '/hist/_doc/1?stream=true', { accept: 'text/event-stream' });
    await call(gw.url, 'PUT', '/hist/_doc/1', { body: { v: 0, text: 'x'.repeat(512 * 1024) } });
    await s.until((m) => m.length === 2);
    const old = s.messages[1].sse.id;
    for (let v = 1; v <= 8; v++) await call(gw.url, 'PUT', '/hist/_doc/1', { body: { v, text: 'x'.repeat(512 * 1024) } });
    await s.until((m) => m.length === 10);
    const recent = s.messages[8].sse.id;
    s.close();

    const reset = await openStream(gw.url, '/hist/_doc/1?stream=true', { accept: 'text/event-stream', headers: { 'last-event-id': old } });
    await reset.until((m) => m.length >= 2);
    expect(reset.status).to.equal(200);
    expect(reset.messages[0].data._reset).to.equal(true);
    expect(reset.messages[0].data.reason).to.equal(
      `position [${old}] is older than the retained history of index [hist]; read the current state again`,
    );
    expect(reset.messages[1].data._source.v).to.equal(8);
    reset.close();

    const resumed = await openStream(gw.url, '/hist/_doc/1?stream=true', { accept: 'text/event-stream', headers: { 'last-event-id': recent } });
    await resumed.until((m) => m.some((x) => x.data?._source?.v === 8));
    expect(resumed.status).to.equal(200);
    expect(resumed.messages.filter((x) => x.data?._source).map((x) => x.data._source.v)).to.deep.equal([8]);
    resumed.close();
  });
});
