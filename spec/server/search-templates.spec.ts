import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON, type Reply } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

const indicesOf = (r: Reply): string[] => [...new Set<string>(r.json.hits.hits.map((h: { _index: string }) => h._index))];
const MATCH_TEMPLATE = { query: { match: { message: '{{q}}' } } };

for (const backend of BACKENDS) {
  describe(`search templates through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let onlyA: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/a/_doc/1?refresh=true', { body: { message: 'hello from a' } });
      await call(gw.url, 'PUT', '/b/_doc/1?refresh=true', { body: { message: 'hello from b' } });
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a'], categories: ['search'], ops: ['read'] } });
      onlyA = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('the admin stores a template, reads it back, renders it and searches with it', async () => {
      const put = await call(gw.url, 'PUT', '/_scripts/hello', { body: { script: { lang: 'mustache', source: MATCH_TEMPLATE } } });
      expect(put.status, put.text).to.equal(200);
      expect(put.json).to.deep.equal({ acknowledged: true });
      const got = await call(gw.url, 'GET', '/_scripts/hello');
      expect(got.json).to.deep.equal({
        _id: 'hello', found: true,
        script: { lang: 'mustache', source: '{"query":{"match":{"message":"{{q}}"}}}', options: { content_type: 'application/json;charset=utf-8' } },
      });
      const rendered = await call(gw.url, 'POST', '/_render/template/hello', { body: { params: { q: 'hello' } } });
      expect(rendered.json).to.deep.equal({ template_output: { query: { match: { message: 'hello' } } } });
      const searched = await call(gw.url, 'POST', '/a,b/_search/template', { body: { id: 'hello', params: { q: 'hello' } } });
      expect(searched.status, searched.text).to.equal(200);
      expect(indicesOf(searched)).to.have.members(['a', 'b']);
      const multi = await call(gw.url, 'POST', '/_msearch/template', {
        body: ndjson([{ index: 'a' }, { id: 'hello', params: { q: 'hello' } }, { index: 'b' }, { id: 'missing' }]), headers: NDJSON,
      });
      expect(multi.status).to.equal(200);
      expect(multi.json.responses.map((r: { status: number }) => r.status)).to.deep.equal([200, 404]);
      expect(indicesOf({ json: multi.json.responses[0] } as Reply)).to.deep.equal(['a']);
      expect(multi.json.responses[1].error.type).to.equal('resource_not_found_exception');
    });

    it('a credential scoped to index a searches a with an inline template; a search naming b, or every index it cannot see, is refused 403', async () => {
      const own = await call(gw.url, 'POST', '/a/_search/template', { auth: onlyA, body: { source: MATCH_TEMPLATE, params: { q: 'hello' } } });
      expect(own.status, own.text).to.equal(200);
      expect(indicesOf(own)).to.deep.equal(['a']);
      // no index in the path: narrowed to the credential's indices
      const narrowed = await call(gw.url, 'POST', '/_search/template', { auth: onlyA, body: { source: MATCH_TEMPLATE, params: { q: 'hello' } } });
      expect(narrowed.status, narrowed.text).to.equal(200);
      expect(indicesOf(narrowed)).to.deep.equal(['a']);
      for (const path of ['/b/_search/template', '/a,b/_search/template', '/*/_search/template?ignore_unavailable=false&q=x']) {
        const r = await call(gw.url, 'POST', path, { auth: onlyA, body: { source: MATCH_TEMPLATE, params: { q: 'hello' } } });
        if (path.startsWith('/*')) {
          // a wildcard is narrowed, never widened
          expect(r.status, path).to.equal(200);
          expect(indicesOf(r), path).to.deep.equal(['a']);
        } else {
          expect(r.status, path).to.equal(403);
          expect(r.json.error.type).to.equal('security_exception');
        }
      }
    });

    it('a stored template is rendered by the gateway: the scoped credential searches its own indices with it, and cannot manage stored scripts', async () => {
      const byId = await call(gw.url, 'POST', '/a/_search/template', { auth: onlyA, body: { id: 'hello', params: { q: 'hello' } } });
      expect(byId.status, byId.text).to.equal(200);
      expect(indicesOf(byId)).to.deep.equal(['a']);
      // a template whose rendered search looks up another index is refused
      const indexParam = await call(gw.url, 'POST', '/a/_search/template', {
        auth: onlyA, body: { source: '{"query": {"terms": {"message": {"index": "{{i}}", "id": "1", "path": "message"}}}}', params: { i: 'b' } },
      });
      expect(indexParam.status).to.equal(403);
      for (const [method, path] of [['PUT', '/_scripts/mine'], ['GET', '/_scripts/hello'], ['DELETE', '/_scripts/hello']]) {
        const r = await call(gw.url, method, path, { auth: onlyA, body: method === 'PUT' ? { script: { lang: 'mustache', source: '{}' } } : undefined });
        expect(r.status, `${method} ${path}`).to.equal(403);
      }
      expect((await call(gw.url, 'GET', '/_scripts/hello')).json.found).to.equal(true);
    });

    it('_msearch/template naming b in any header, or every index, is refused whole; naming only a is answered', async () => {
      const search = { source: { query: { match_all: {} } } };
      for (const [path, lines] of [
        ['/_msearch/template', [{ index: 'b' }, search]],
        ['/_msearch/template', [{ index: 'a' }, search, { index: 'b' }, search]],
        ['/a/_msearch/template', [{}, search, { index: 'a,b' }, search]],
        ['/_msearch/template', [{ index: 'b' }, { id: 'hello', params: { q: 'hello' } }]],
        // a header without an index, and none in the path: every index, beside the one named
        ['/_msearch/template', [{ index: 'a' }, search, {}, search]],
      ] as Array<[string, unknown[]]>) {
        const r = await call(gw.url, 'POST', path, { auth: onlyA, body: ndjson(lines), headers: NDJSON });
        expect(r.status, `${path} ${JSON.stringify(lines)}`).to.equal(403);
        expect(r.json.error.type).to.equal('security_exception');
      }
      const stored = await call(gw.url, 'POST', '/_msearch/template', { auth: onlyA, body: ndjson([{ index: 'a' }, { id: 'hello', params: { q: 'hello' } }]), headers: NDJSON });
      expect(stored.status, stored.text).to.equal(200);
      expect(indicesOf({ json: stored.json.responses[0] } as Reply)).to.deep.equal(['a']);
      const own = await call(gw.url, 'POST', '/a/_msearch/template', { auth: onlyA, body: ndjson([{ index: 'a' }, search, {}, search]), headers: NDJSON });
      expect(own.status, own.text).to.equal(200);
      expect(own.json.responses.map((r: Record<string, unknown>) => indicesOf({ json: r } as Reply))).to.deep.equal([['a'], ['a']]);
    });
  });
}
