import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * `/` is Elasticsearch's info API and nothing else: no route's parameter takes an empty path
 * segment, so `PUT /` is no `PUT /{index}` with an empty name (the route table's matcher once took
 * it for one). Any method `/` does not take is Elasticsearch's 405, naming the ones it takes.
 */
for (const backend of BACKENDS) {
  describe(`the root path is the info API only (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: (() => Promise<void>) | undefined;
    before(async () => ({ gateway: gw, stop } = await backend.start()));
    after(() => stop?.());

    for (const method of ['PUT', 'POST', 'DELETE']) {
      it(`${method} / answers 405, allowed GET and HEAD`, async () => {
        const res = await call(gw.url, method, '/');
        expect(res.status, res.text).to.equal(405);
        expect(res.json.error).to.equal(`Incorrect HTTP method for uri [/] and method [${method}], allowed: [GET, HEAD]`);
      });
    }

    it('GET / still answers like Elasticsearch', async () => {
      const res = await call(gw.url, 'GET', '/');
      expect(res.status).to.equal(200);
      expect(res.json.tagline).to.equal('You Know, for Search');
    });
  });
}
