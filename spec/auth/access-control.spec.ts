import { expect } from 'chai';
import WebSocket from 'ws';
import { basic, call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { ADMIN, type TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';
import { within } from '../support/within.js';

type Who = 'none' | 'wrong password' | 'expired' | 'admin' | 'app pair' | 'read-only pair' | 'other index';

for (const backend of BACKENDS) {
  describe(`access control (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: (() => Promise<void>) | undefined;
    const auth = {} as Record<Who, string | null>;
    const secrets: string[] = [];

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const shop = await call(gw.url, 'PUT', '/_apps/shop');
      const blog = await call(gw.url, 'PUT', '/_apps/blog');
      expect(shop.json.credentials.read_write.password).to.be.a('string');
      const rw = shop.json.credentials.read_write;
      const other = blog.json.credentials.read_write;
      const ro = await call(gw.url, 'POST', '/shop/_credentials', { body: { read_only: true } });
      expect(ro.status).to.equal(201);
      const exp = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['docs', 'search'], ops: ['read'] } });
      expect(exp.status).to.equal(201);
      const patched = await call(gw.url, 'PATCH', `/_credentials/${exp.json.credential.username}`, { body: { expires_at: new Date(Date.now() - 1000).toISOString() } });
      expect(patched.status).to.equal(200);
      auth.none = null;
      auth['wrong password'] = basic(rw.username, 'not-the-password');
      auth.expired = basic(exp.json.credential.username, exp.json.password);
      auth.admin = basic(ADMIN.user, ADMIN.password);
      auth['app pair'] = basic(rw.username, rw.password);
      auth['read-only pair'] = basic(ro.json.credential.username, ro.json.password);
      auth['other index'] = basic(other.username, other.password);
      secrets.push(rw.password, other.password, ro.json.password, exp.json.password);
      await call(gw.url, 'PUT', '/shop/_doc/1?refresh=true', { body: { name: 'hat', secret: 's3cr3t' } });
      await call(gw.url, 'PUT', '/shop/product/p1', { body: { name: 'shoe' } });
      await call(gw.url, 'PUT', '/blog/_doc/1?refresh=true', { body: { title: 'hello' } });
    });
    after(() => stop?.());

    // route family → request, and the expected status per principal
    const OK = [200, 201];
    const families: Array<{ name: string; method: string; path: string; body?: unknown; expect: Partial<Record<Who, number[]>> }> = [
      { name: 'docs read', method: 'GET', path: '/shop/_doc/1', expect: { admin: OK, 'app pair': OK, 'read-only pair': OK, 'other index': [403] } },
      { name: 'docs write', method: 'PUT', path: '/shop/_doc/w', body: { a: 1 }, expect: { admin: OK, 'app pair': OK, 'read-only pair': [403], 'other index': [403] } },
      { name: 'docs delete', method: 'DELETE', path: '/shop/_doc/w', expect: { admin: [200, 404], 'app pair': [200, 404], 'read-only pair': [403], 'other index': [403] } },
      { name: 'app-style read', method: 'GET', path: '/shop/product/p1', expect: { admin: OK, 'app pair': OK, 'read-only pair': OK, 'other index': [403] } },
      { name: 'search', method: 'POST', path: '/shop/_search', body: { query: { match_all: {} } }, expect: { admin: OK, 'app pair': OK, 'read-only pair': OK, 'other index': [403] } },
      { name: 'bulk', method: 'POST', path: '/_bulk', body: '{"index":{"_index":"shop","_id":"b"}}\n{"a":1}\n', expect: { admin: OK, 'app pair': OK, 'read-only pair': [403], 'other index': [403] } },
      { name: 'index admin', method: 'PUT', path: '/shop/_mapping', body: { properties: { extra: { type: 'keyword' } } }, expect: { admin: OK, 'app pair': [403], 'read-only pair': [403], 'other index': [403] } },
      { name: 'cluster', method: 'GET', path: '/_cluster/health', expect: { admin: OK, 'app pair': [403], 'read-only pair': [403], 'other index': [403] } },
      { name: 'credentials', method: 'GET', path: '/_credentials', expect: { admin: OK, 'app pair': [403], 'read-only pair': [403], 'other index': [403] } },
      { name: 'apps', method: 'PUT', path: '/_apps/newapp', expect: { admin: OK, 'app pair': [403], 'read-only pair': [403], 'other index': [403] } },
    ];
    const WHO: Who[] = ['none', 'wrong password', 'expired', 'admin', 'app pair', 'read-only pair', 'other index'];

    for (const family of families) {
      for (const who of WHO) {
        const expected = who === 'none' || who === 'wrong password' || who === 'expired' ? [401] : family.expect[who]!;
        it(`${family.name} × ${who} → ${expected.join('|')}`, async () => {
          const headers = typeof family.body === 'string' ? { 'content-type': 'application/x-ndjson' } : undefined;
          const res = await call(gw.url, family.method, family.path, { auth: auth[who], body: family.body, headers });
          expect(expected, `${res.status} ${res.text.slice(0, 300)}`).to.include(res.status);
          if (res.status === 401) expect(String(res.headers['www-authenticate'])).to.match(/^Basic /);
          if (res.status === 403) {
            expect(res.json.error.type).to.equal('security_exception');
            expect(res.json.error.reason).to.match(/action \[.+\] is unauthorized for user \[.+\]/);
          }
          for (const secret of secrets) expect(res.text).not.to.contain(secret);
        });
      }
    }

    it('streams are authorized like the equivalent GET and search', async () => {
      for (const [who, status] of [['app pair', 200], ['read-only pair', 200], ['other index', 403], ['none', 401]] as const) {
        const s = await openStream(gw.url, '/shop/_doc/1?stream=true', { auth: auth[who] });
        expect(s.status, who).to.equal(status);
        s.close();
        const q = await openStream(gw.url, '/shop/_search?stream=true', { method: 'POST', body: { query: { match_all: {} } }, auth: auth[who] });
        expect(q.status, who).to.equal(status);
        q.close();
      }
    });

    describe('tenant isolation: another app is out of reach', () => {
      const blogCall = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
        call(gw.url, method, path, { auth: auth['other index'], body, headers });

      it('through _bulk, _msearch and _mget', async () => {
        const ndjson = { 'content-type': 'application/x-ndjson' };
        expect((await blogCall('POST', '/blog/_bulk', '{"index":{"_index":"shop","_id":"x"}}\n{"a":1}\n', ndjson)).status).to.equal(403);
        expect((await blogCall('POST', '/_bulk', '{"index":{"_index":"blog","_id":"x"}}\n{"a":1}\n{"delete":{"_index":"shop","_id":"1"}}\n', ndjson)).status).to.equal(403);
        expect((await blogCall('POST', '/_msearch', '{"index":"blog"}\n{}\n{"index":"shop"}\n{}\n', ndjson)).status).to.equal(403);
        expect((await blogCall('POST', '/_mget', { docs: [{ _index: 'shop', _id: '1' }] })).status).to.equal(403);
        expect((await call(gw.url, 'GET', '/shop/_doc/1')).json._source.name).to.equal('hat'); // nothing changed
      });

      it('through a request that reaches every index beside its own: a header without an index, a bare _search looking up its own index', async () => {
        const ndjson = { 'content-type': 'application/x-ndjson' };
        // the header naming blog must not stand in for the one naming nothing (every index)
        expect((await blogCall('POST', '/_msearch', '{"index":"blog"}\n{}\n{}\n{}\n', ndjson)).status).to.equal(403);
        expect((await blogCall('POST', '/_msearch/template', '{"index":"blog"}\n{"source":{}}\n{}\n{"source":{}}\n', ndjson)).status).to.equal(403);
        const lookup = { query: { terms: { _id: { index: 'blog', id: '1', path: 'title' } } } };
        expect((await blogCall('POST', '/_search', lookup)).status).to.equal(403);
        // the path names the credential's own index: answered
        expect((await blogCall('POST', '/blog/_msearch', '{"index":"blog"}\n{}\n{}\n{}\n', ndjson)).status).to.equal(200);
        expect((await blogCall('POST', '/blog/_search', lookup)).status).to.equal(200);
      });

      it('through a wildcard and _all: they expand to the credential\'s own indices only', async () => {
        for (const path of ['/*/_search', '/_all/_search', '/_search', '/s*,b*/_search']) {
          const res = await blogCall('POST', path, { query: { match_all: {} } });
          expect(res.status, path).to.equal(200);
          expect(res.json.hits.hits.map((h: { _index: string }) => h._index), path).to.satisfy((xs: string[]) => xs.length > 0 && xs.every((x) => x === 'blog'));
        }
      });

      it('listing APIs answer for the credential\'s own indices: _cat/indices, _cat/aliases, _cat/count, _resolve/index', async () => {
        const lister = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['blog'], categories: ['indices', 'search'], ops: ['read'] } });
        expect(lister.status).to.equal(201);
        const as = basic(lister.json.credential.username, lister.json.password);
        await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'blog', alias: 'blog-read' } }, { add: { index: 'shop', alias: 'shop-read' } }] } });
        const indices = await call(gw.url, 'GET', '/_cat/indices?format=json&h=index', { auth: as });
        expect(indices.status, indices.text).to.equal(200);
        expect(indices.json.map((r: { index: string }) => r.index)).to.deep.equal(['blog']);
        const aliases = await call(gw.url, 'GET', '/_cat/aliases?format=json&h=alias,index', { auth: as });
        expect(aliases.status, aliases.text).to.equal(200);
        expect(aliases.json).to.deep.equal([{ alias: 'blog-read', index: 'blog' }]);
        const count = await call(gw.url, 'GET', '/_cat/count?format=json', { auth: as });
        expect(count.status, count.text).to.equal(200);
        const resolved = await call(gw.url, 'GET', '/_resolve/index/*', { auth: as });
        expect(resolved.status, resolved.text).to.equal(200);
        expect(resolved.json.indices.map((i: { name: string }) => i.name)).to.deep.equal(['blog']);
        expect((await call(gw.url, 'GET', '/_cat/indices/shop', { auth: as })).status).to.equal(403);
        expect((await call(gw.url, 'GET', '/_cat/aliases/shop-read', { auth: as })).status).to.equal(403);
      });

      it('through an alias pointing at it', async () => {
        await call(gw.url, 'POST', '/_aliases', { body: { actions: [{ add: { index: 'shop', alias: 'innocent' } }] } });
        expect((await blogCall('POST', '/innocent/_search', {})).status).to.equal(403);
        expect((await blogCall('GET', '/innocent/_doc/1')).status).to.equal(403);
      });

      it('through _reindex', async () => {
        expect((await blogCall('POST', '/_reindex', { source: { index: 'shop' }, dest: { index: 'blog' } })).status).to.equal(403);
      });

      it('through the declarative API\'s per-query index', async () => {
        const res = await blogCall('POST', '/blog/_declarative', { query: [{ id: 'q', index: 'shop', dataField: ['name'], value: 'hat' }] });
        expect(res.status).to.equal(403);
      });

      it('through a search stream and a WebSocket subscribe', async () => {
        const s = await openStream(gw.url, '/shop/_search?stream=true', { method: 'POST', body: {}, auth: auth['other index'] });
        expect(s.status).to.equal(403);
        s.close();
        const ws = new WebSocket(gw.url.replace('http://', 'ws://') + '/shop');
        const first = new Promise<any>((resolve) => ws.once('message', (m) => resolve(JSON.parse(m.toString()))));
        await new Promise((r) => ws.once('open', r));
        ws.send(JSON.stringify({ id: 'x', path: 'shop/product/p1?streamonly=true', method: 'GET', authorization: auth['other index'] }));
        expect(await first).to.include({ id: 'x', status: 403 });
        ws.close();
      });

      it('through another credential\'s scroll id', async () => {
        const opened = await call(gw.url, 'POST', '/shop/_search?scroll=1m', { auth: auth['app pair'], body: { size: 1 } });
        expect(opened.status).to.equal(200);
        const id = opened.json._scroll_id;
        expect(id).to.be.a('string');
        expect((await blogCall('POST', '/_search/scroll', { scroll: '1m', scroll_id: id })).status).to.equal(403);
        expect((await blogCall('DELETE', '/_search/scroll', { scroll_id: id })).status).to.equal(403);
        const next = await call(gw.url, 'POST', '/_search/scroll', { auth: auth['app pair'], body: { scroll: '1m', scroll_id: id } });
        expect(next.status).to.equal(200);
      });

      it('system indices are reachable through the gateway\'s APIs only, by nobody\'s REST call', async () => {
        for (const path of ['/.gateway-apps/_search', '/.gateway-credentials/_search', '/%2Egateway-credentials/_search', '//.gateway-pipelines/_search', '/.gateway-*/_search', '/.g*/_search', '/shop%2C.gateway-credentials/_search']) {
          for (const who of ['app pair', 'admin'] as const) {
            const res = await call(gw.url, 'POST', path, { auth: auth[who], body: {} });
            expect(res.status, `${who} ${path}`).to.equal(403);
            expect(res.json.error.type).to.equal('security_exception');
          }
        }
        // every index, hidden ones included, however the parameter is written: the system indices
        // are left out, as Elasticsearch 8 leaves its own out of wildcards (the path gets `-.gateway-*`)
        for (const qs of ['expand_wildcards=all', 'expand_wildcards=%61ll', 'expand%5Fwildcards=open,hidden', 'expand_wildcards=open&expand_wildcards=hidden']) {
          for (const path of ['/*/_search', '/_search', '/_all/_search', '/s*,*/_search']) {
            const all = await call(gw.url, 'POST', `${path}?${qs}&size=1000`, { body: { query: { match_all: {} } } });
            expect(all.status, `${path}?${qs}: ${all.text.slice(0, 300)}`).to.equal(200);
            const indices = new Set((all.json.hits.hits as Array<{ _index: string }>).map((h) => h._index));
            // (a repeated parameter is read as its last value, `hidden`: open indices are not expanded)
            if (!qs.includes('&expand_wildcards=')) expect(indices.has('shop'), `${path}?${qs}`).to.equal(true);
            expect([...indices].filter((i) => i.startsWith('.gateway-')), `${path}?${qs}`).to.deep.equal([]);
            expect(all.text).to.not.include('gateway-credentials');
          }
        }
        // ...and in a field list: no field of the system indices' mappings
        const caps = await call(gw.url, 'GET', '/_field_caps?fields=*&expand_wildcards=all');
        expect(caps.status, caps.text.slice(0, 300)).to.equal(200);
        expect(caps.json.indices).to.include('shop');
        expect((caps.json.indices as string[]).filter((i) => i.startsWith('.gateway-'))).to.deep.equal([]);
        // a system index named beside the wildcard, or a dot-prefixed wildcard, is still refused
        for (const path of ['/*,.gateway-credentials/_search?expand_wildcards=all', '/.g*/_search?expand_wildcards=all', '/*/_search?expand_wildcards=all&index=.gateway-credentials']) {
          expect((await call(gw.url, 'POST', path, { body: {} })).status, path).to.equal(403);
        }
        const msearch = await call(gw.url, 'POST', '/_msearch', { body: '{"index":"*","expand_wildcards":"all"}\n{}\n', headers: { 'content-type': 'application/x-ndjson' } });
        expect(msearch.status, msearch.text).to.equal(403);
        expect(msearch.text).to.not.include('hash');
      });

      it('a credential cannot grant more than it has', async () => {
        const pair = auth['app pair'];
        const admin = await call(gw.url, 'POST', '/_credentials', { auth: pair, body: { indices: ['shop'], role: 'admin' } });
        expect(admin.status).to.equal(403); // (the pair has no `credentials` category at all)
      });
    });

    describe('per-credential rules', () => {
      const make = async (spec: Record<string, unknown>) => {
        const res = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['docs', 'search', 'streams'], ops: ['read'], ...spec } });
        expect(res.status, res.text).to.equal(201);
        secrets.push(res.json.password);
        return basic(res.json.credential.username, res.json.password);
      };

      it('exclude_fields and include_fields apply to _source in gets, searches and streams', async () => {
        const ex = await make({ exclude_fields: ['secret'] });
        expect((await call(gw.url, 'GET', '/shop/_doc/1', { auth: ex })).json._source).to.deep.equal({ name: 'hat' });
        const hits = (await call(gw.url, 'POST', '/shop/_search', { auth: ex, body: { query: { ids: { values: ['1'] } } } })).json.hits.hits;
        expect(hits[0]._source).to.deep.equal({ name: 'hat' });
        const sneaky = await call(gw.url, 'GET', '/shop/_doc/1?_source_includes=secret', { auth: ex });
        expect(sneaky.json._source ?? {}).not.to.have.property('secret');
        const subscribed = gw.bus.stats().subscriptions;
        const s = await openStream(gw.url, '/shop/_search?streamonly=true', { method: 'POST', body: { query: { match_all: {} } }, auth: ex });
        // the stream is live once its bus subscription is: a write made now reaches it
        await within(5_000, async () => gw.bus.stats().subscriptions > subscribed);
        await call(gw.url, 'PUT', '/shop/_doc/2', { body: { name: 'cap', secret: 'x' } });
        await s.until((m) => m.length === 1);
        expect(s.messages[0]._source).to.deep.equal({ name: 'cap' });
        s.close();
        const inc = await make({ include_fields: ['name'] });
        expect((await call(gw.url, 'GET', '/shop/_doc/1', { auth: inc })).json._source).to.deep.equal({ name: 'hat' });
      });

      it('max_size caps searches', async () => {
        const small = await make({ max_size: 5 });
        expect((await call(gw.url, 'POST', '/shop/_search', { auth: small, body: { size: 5 } })).status).to.equal(200);
        const big = await call(gw.url, 'POST', '/shop/_search', { auth: small, body: { size: 50 } });
        expect(big.status).to.equal(400);
        expect((await call(gw.url, 'GET', '/shop/_search?size=6', { auth: small })).status).to.equal(400);
      });

      it('rate limits answer 429 with Retry-After', async () => {
        const limited = await make({ rate_limit: { per_second: 2 } });
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await call(gw.url, 'GET', '/shop/_doc/1', { auth: limited })).status);
        expect(statuses).to.include(429);
        expect(statuses.slice(0, 2)).to.deep.equal([200, 200]);
      });

      it('sources and referers restrict where requests come from', async () => {
        const far = await make({ sources: ['10.0.0.0/8'] });
        expect((await call(gw.url, 'GET', '/shop/_doc/1', { auth: far })).status).to.equal(403);
        const local = await make({ sources: ['127.0.0.0/8', '::1/128'] });
        expect((await call(gw.url, 'GET', '/shop/_doc/1', { auth: local })).status).to.equal(200);
        const site = await make({ referers: ['https://shop.example/*'] });
        expect((await call(gw.url, 'GET', '/shop/_doc/1', { auth: site })).status).to.equal(403);
        expect((await call(gw.url, 'GET', '/shop/_doc/1', { auth: site, headers: { referer: 'https://shop.example/page' } })).status).to.equal(200);
      });

      it('credentials created for an app can be listed per index, without hashes or passwords', async () => {
        const res = await call(gw.url, 'GET', '/shop/_credentials');
        expect(res.status).to.equal(200);
        expect(res.json.credentials.length).to.be.greaterThan(1);
        expect(res.text).not.to.contain('scrypt$');
        for (const secret of secrets) expect(res.text).not.to.contain(secret);
      });
    });
  });
}
