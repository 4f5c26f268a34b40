import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import { openStream } from '../support/stream-client.js';
import type { TestGateway } from '../support/servers.js';

/**
 * A scoped credential's live streams last only as long as the credential they were authorized
 * with: changed (its rights, its field rules) or deleted, the streams it opened end with a final
 * message, and a reconnection is authorized again. The admin's streams are not bound.
 */
for (const backend of BACKENDS) {
  describe(`streams end when their credential changes (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      expect((await call(gw.url, 'PUT', '/bound/_doc/1?refresh=true', { body: { title: 'one', pin: 'before' } })).status).to.equal(201);
    });
    after(() => stop());

    const credential = async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['bound'], categories: ['docs', 'search', 'streams'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      return { username: made.json.credential.username as string, auth: basic(made.json.credential.username, made.json.password) };
    };
    const ended = (messages: Array<Record<string, unknown>>) => messages.some((m) => m._stream_end === true && /credential/.test(String(m.reason)));

    for (const change of ['changed', 'deleted'] as const) {
      it(`a document and a search stream end when the credential is ${change}; the admin's go on`, async () => {
        const { username, auth } = await credential();
        const doc = await openStream(gw.url, '/bound/_doc/1?stream=true', { auth });
        const search = await openStream(gw.url, '/bound/_search?stream=true', { auth, method: 'POST', body: { query: { match_all: {} } } });
        const admins = await openStream(gw.url, '/bound/_doc/1?stream=true');
        await Promise.all([doc.live, search.live, admins.live]);
        const res = change === 'changed'
          ? await call(gw.url, 'PATCH', `/_credentials/${username}`, { body: { exclude_fields: ['pin'] } })
          : await call(gw.url, 'DELETE', `/_credentials/${username}`);
        expect(res.status, res.text).to.equal(200);
        await doc.ended;
        await search.ended;
        expect(ended(doc.messages), JSON.stringify(doc.messages)).to.equal(true);
        expect(ended(search.messages), JSON.stringify(search.messages)).to.equal(true);
        // nothing written after the change reaches them; the admin's stream sees it
        await call(gw.url, 'PUT', '/bound/_doc/1', { body: { title: 'one', pin: `after-${change}` } });
        await admins.until((m) => m.some((x) => x._source?.pin === `after-${change}`));
        admins.close();
        expect(JSON.stringify(doc.messages) + JSON.stringify(search.messages)).not.to.contain(`after-${change}`);
      });
    }

    it('a live declarative UI and a live aggregation end when their credential is changed', async () => {
      const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['bound'], categories: ['search', 'streams', 'declarative'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      const username = made.json.credential.username as string;
      const auth = basic(username, made.json.password);
      const ui = { query: [{ id: 'pins', type: 'term', dataField: 'pin.keyword', aggregationSize: 5 }] };
      const live = await openStream(gw.url, '/bound/_declarative?stream=true', { auth, method: 'POST', body: ui });
      const aggs = await openStream(gw.url, '/bound/_search?stream=true', { auth, method: 'POST', body: { size: 0, aggs: { pins: { terms: { field: 'pin.keyword' } } } } });
      await live.until((m) => m.length >= 1);
      expect(live.status, JSON.stringify(live.messages)).to.equal(200);
      await aggs.live;
      const res = await call(gw.url, 'PATCH', `/_credentials/${username}`, { body: { exclude_fields: ['pin'] } });
      expect(res.status, res.text).to.equal(200);
      await live.ended;
      await aggs.ended;
      expect(ended(live.messages), JSON.stringify(live.messages)).to.equal(true);
      expect(ended(aggs.messages), JSON.stringify(aggs.messages)).to.equal(true);
    });
  });
}
