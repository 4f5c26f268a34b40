import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';

/**
 * What an index expression stands for is read fresh by authorization once it changes through the
 * gateway: an alias the admin points elsewhere is not authorized on what it stood for a moment
 * ago (the authorizer's remembered resolutions are dropped on the same signal that drops the
 * search cache's), on both backends — the HTTP one has no second check at the engine.
 */
for (const backend of BACKENDS) {
  describe(`authorization reads an alias as it is now (${backend.name})`, function () {
    this.timeout(120_000);
    let url: string;
    let stop: () => Promise<void>;
    let tenant: string;

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      for (const [index, value] of [['fresh-a-1', 'own'], ['other-1', 'foreign-secret']]) {
        const r = await call(url, 'PUT', `/${index}/_doc/1?refresh=true`, { body: { f: value } });
        expect(r.status, r.text).to.equal(201);
      }
      const made = await call(url, 'POST', '/_credentials', { body: { indices: ['fresh-a*'], categories: ['docs', 'search'], ops: ['read'] } });
      expect(made.status, made.text).to.equal(201);
      tenant = basic(made.json.credential.username, made.json.password);
    });
    after(() => stop?.());

    it('an alias moved to another tenant\'s index is refused at once, not answered from it', async () => {
      for (let round = 0; round < 5; round++) {
        const point = await call(url, 'POST', '/_aliases', { body: { actions: [{ remove: { index: '*', alias: 'fresh-a-view', must_exist: false } }, { add: { index: 'fresh-a-1', alias: 'fresh-a-view' } }] } });
        expect(point.status, point.text).to.equal(200);
        const own = await call(url, 'POST', '/fresh-a-view/_search', { auth: tenant, body: { query: { match_all: {} } } });
        expect(own.status, own.text).to.equal(200);
        expect(own.text).to.contain('own');
        const moved = await call(url, 'POST', '/_aliases', { body: { actions: [{ remove: { index: 'fresh-a-1', alias: 'fresh-a-view' } }, { add: { index: 'other-1', alias: 'fresh-a-view' } }] } });
        expect(moved.status, moved.text).to.equal(200);
        const after = await call(url, 'POST', '/fresh-a-view/_search', { auth: tenant, body: { query: { match_all: {} } } });
        expect(after.text, `round ${round}`).to.not.contain('foreign-secret');
        expect(after.status, after.text).to.equal(403);
      }
    });
  });
}
