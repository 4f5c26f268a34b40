import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
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

    it("requests Node's HTTP parser refuses get an Elasticsearch-shaped 4xx body", async () => {
      const { port } = new URL(gw.url);
      const raw = (request: string) => new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (c) => (answer += c));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
      const cases: Array<[string, string, number]> = [
        ['a URL over 16 KB', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
        ['a header over 16 KB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431],
        ['a CR inside a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-Bad: a\rb\r\n\r\n', 400],
        ['a NUL in a header', 'GET / HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n', 400],
        ['a bad chunk size', 'POST /x/_search HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', 400],
        ['an unknown method', 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ];
      for (const [what, request, status] of cases) {
        const answer = await raw(request);
        const [head, body] = answer.split('\r\n\r\n');
        expect(head.split('\r\n')[0], what).to.equal(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`);
        expect(head.toLowerCase(), what).to.include('x-elastic-product: elasticsearch');
        const json = JSON.parse(body);
        expect(json.status, what).to.equal(status);
        expect(json.error.type, what).to.be.a('string');
        expect(json.error.reason, what).to.be.a('string');
      }
    });

    it('gateway APIs refuse JSON nested deeper than 1,000 levels with a 400, and app names with a leading dot', async () => {
      const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      for (const path of ['/_declarative', '/_credentials', '/target/_credentials']) {
        const res = await call(gw.url, 'POST', path, { body: deep(10_000), headers: { 'content-type': 'application/json' } });
        expect(res.status, `${path}: ${res.text.slice(0, 200)}`).to.equal(400);
        expect(res.json.error.type).to.equal('x_content_parse_exception');
        expect(res.json.error.reason).to.match(/nesting depth \(1001\) exceeds the maximum allowed \(1000/);
      }
      const dotted = await call(gw.url, 'PUT', '/_apps/.hidden-app');
      expect(dotted.status).to.equal(400);
      expect(dotted.json.error.type).to.equal('invalid_index_name_exception');
    });

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
