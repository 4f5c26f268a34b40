import { expect } from 'chai';
import { call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import type { TestGateway } from '../support/servers.js';

for (const backend of BACKENDS) {
  describe(`bad input gets a clear error and the server keeps serving (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/target');
    });
    afterEach(async () => {
      const alive = await call(gw.url, 'GET', '/');
      expect(alive.status, 'the server must keep serving').to.equal(200);
    });
    after(() => stop());

    it('malformed JSON document → 400', async () => {
      const res = await call(gw.url, 'PUT', '/target/_doc/1', { body: '{"title": "unterminated' });
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.be.oneOf(['mapper_parsing_exception', 'document_parsing_exception', 'parse_exception']);
      expect(res.json.status).to.equal(400);
    });

    it('a JSON body that is not an object → 400', async () => {
      for (const body of ['[1,2,3]', '"text"', '42']) {
        const res = await call(gw.url, 'PUT', '/target/_doc/1', { body });
        expect(res.status, body).to.equal(400);
        expect(res.json.error.type).to.be.oneOf(['mapper_parsing_exception', 'document_parsing_exception', 'parse_exception']);
      }
    });

    it('malformed search body → 400', async () => {
      const res = await call(gw.url, 'POST', '/target/_search', { body: '{"query": {"match_all": {}' });
      expect(res.status).to.equal(400);
      expect(res.json.error).to.have.property('type');
    });

    it('unknown parameters → 400 illegal_argument_exception', async () => {
      const res = await call(gw.url, 'GET', '/target/_doc/1?frobnicate=yes');
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.equal('illegal_argument_exception');
      expect(res.json.error.reason).to.contain('contains unrecognized parameter: [frobnicate]');
    });

    it('invalid index names → 400 invalid_index_name_exception', async () => {
      // ('..' cannot be sent: HTTP clients normalise it away before it leaves the machine)
      for (const name of ['UPPER', '_leading', '-dash', 'has%20space', 'a*b', 'a%2Cb', 'a%22q']) {
        const res = await call(gw.url, 'PUT', `/${name}`);
        expect(res.status, name).to.equal(400);
        expect(res.json.error.type, name).to.equal('invalid_index_name_exception');
      }
    });

    it('ids over 512 bytes → 400 illegal_argument_exception', async () => {
      const res = await call(gw.url, 'PUT', `/target/_doc/${'x'.repeat(513)}`, { body: { a: 1 } });
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.equal('illegal_argument_exception');
      expect(res.json.error.reason).to.contain('too long');
      const ok = await call(gw.url, 'PUT', `/target/_doc/${'x'.repeat(512)}`, { body: { a: 1 } });
      expect(ok.status).to.equal(201);
    });

    it('a field value that does not fit its mapping → 400 and nothing stored', async () => {
      await call(gw.url, 'PUT', '/target/_doc/typed', { body: { n: 5 } });
      const res = await call(gw.url, 'PUT', '/target/_doc/typed', { body: { n: 'not a number' } });
      expect(res.status).to.equal(400);
      expect(res.json.error.type).to.be.oneOf(['mapper_parsing_exception', 'document_parsing_exception']);
      expect((await call(gw.url, 'GET', '/target/_doc/typed')).json._source).to.deep.equal({ n: 5 });
    });
  });
}
