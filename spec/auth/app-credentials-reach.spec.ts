import { expect } from 'chai';
import { createRequire } from 'node:module';
import { request } from 'undici';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

const require = createRequire(import.meta.url);
/** appbase-js 5, as a ReactiveSearch app in a browser uses it (installed as `appbase-js5`). */
const Appbase = require('appbase-js5') as (config: { url: string; app: string; credentials?: string; enableTelemetry?: boolean }) => {
  getMappings(): Promise<any>;
};

const SHOP = 'https://shop.example';
const NOBODY = 'https://nobody.example';

type Pair = { username: string; password: string };

/**
 * The credentials the gateway issues for an app (`PUT /_apps/{app}`: a read-write pair;
 * `POST /{app}/_credentials {"read_only":true}`: a read-only one) work where they are meant to be
 * used: they read their app's mappings, field capabilities, listing and counts — and only their
 * app's, never another app's — appbase-js's `getMappings()` works with the read-only pair, and a
 * browser app on an origin a credential's `referers` allow gets the CORS headers, with no
 * `CORS_ORIGINS` set.
 */
for (const backend of BACKENDS) {
  describe(`app credentials reach what they are for (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: (() => Promise<void>) | undefined;
    const pairs = {} as Record<'read-write' | 'read-only', Pair>;
    let browser: Pair;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const shop = await call(gw.url, 'PUT', '/_apps/shop');
      expect(shop.status, shop.text).to.be.oneOf([200, 201]);
      expect((await call(gw.url, 'PUT', '/_apps/blog')).status).to.be.oneOf([200, 201]);
      pairs['read-write'] = shop.json.credentials.read_write;
      const ro = await call(gw.url, 'POST', '/shop/_credentials', { body: { read_only: true } });
      expect(ro.status, ro.text).to.equal(201);
      pairs['read-only'] = { username: ro.json.credential.username, password: ro.json.password };
      // the read-only pair a page of https://shop.example uses
      const forPage = await call(gw.url, 'POST', '/shop/_credentials', { body: { read_only: true } });
      const patched = await call(gw.url, 'PATCH', `/_credentials/${forPage.json.credential.username}`, { body: { referers: [`${SHOP}/*`] } });
      expect(patched.status, patched.text).to.equal(200);
      browser = { username: forPage.json.credential.username, password: forPage.json.password };
      await call(gw.url, 'PUT', '/shop/_doc/1', { body: { name: 'hat', price: 12 } });
      await call(gw.url, 'PUT', '/shop/_doc/2?refresh=true', { body: { name: 'shoe', price: 40 } });
      await call(gw.url, 'PUT', '/blog/_doc/1?refresh=true', { body: { title: 'hello', secret_blog_field: true } });
    });
    after(() => stop?.());

    for (const which of ['read-only', 'read-write'] as const) {
      describe(`the ${which} pair`, () => {
        const as = (method: string, path: string, body?: unknown) => call(gw.url, method, path, { auth: basic(pairs[which].username, pairs[which].password), body });

        it('reads its app\'s mappings, by name and narrowed from every index', async () => {
          for (const path of ['/shop/_mapping', '/_mapping', '/_all/_mapping', '/*/_mapping', '/shop/_mapping/field/name']) {
            const res = await as('GET', path);
            expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
            expect(Object.keys(res.json), path).to.deep.equal(['shop']);
            expect(res.text, path).not.to.contain('secret_blog_field');
          }
          const mapping = await as('GET', '/shop/_mapping');
          expect(mapping.json.shop.mappings.properties.price.type).to.equal('long');
        });

        it('reads its app\'s field capabilities', async () => {
          for (const path of ['/shop/_field_caps?fields=*', '/_field_caps?fields=*']) {
            const res = await as('GET', path);
            expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
            expect(res.json.indices, path).to.deep.equal(['shop']);
            expect(Object.keys(res.json.fields), path).to.include('price').and.not.include('secret_blog_field');
          }
        });

        it('lists its app, and counts it: _cat/indices, _cat/count, _count, _stats', async () => {
          const listed = await as('GET', '/_cat/indices?format=json&h=index,docs.count');
          expect(listed.status, listed.text).to.equal(200);
          expect(listed.json).to.deep.equal([{ index: 'shop', 'docs.count': '2' }]);
          const named = await as('GET', '/_cat/indices/shop?format=json&h=index');
          expect(named.json).to.deep.equal([{ index: 'shop' }]);
          const catCount = await as('GET', '/_cat/count?format=json&h=count');
          expect(catCount.status, catCount.text).to.equal(200);
          expect(catCount.json).to.deep.equal([{ count: '2' }]);
          const count = await as('GET', '/shop/_count');
          expect(count.status, count.text).to.equal(200);
          expect(count.json.count).to.equal(2);
          for (const path of ['/shop/_stats', '/_stats', '/shop/_stats/docs']) {
            const stats = await as('GET', path);
            expect(stats.status, `${path}: ${stats.text.slice(0, 300)}`).to.equal(200);
            expect(Object.keys(stats.json.indices), path).to.deep.equal(['shop']);
            expect(stats.json.indices.shop.primaries.docs.count, path).to.equal(2);
          }
        });

        it('reaches nothing of another app: 403', async () => {
          for (const path of [
            '/blog/_mapping', '/blog/_mapping/field/title', '/shop,blog/_mapping', '/blog/_field_caps?fields=*', '/_cat/indices/blog', '/_cat/count/blog',
            '/blog/_count', '/blog/_stats', '/shop,blog/_stats',
          ]) {
            const res = await as('GET', path);
            expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(403);
            expect(res.json.error.type, path).to.equal('security_exception');
            expect(res.text, path).not.to.contain('secret_blog_field');
          }
        });

        it('is no index administrator of its own app: settings, mapping changes and the index itself stay refused', async () => {
          expect((await as('GET', '/shop/_settings')).status).to.equal(403);
          expect((await as('PUT', '/shop/_mapping', { properties: { extra: { type: 'keyword' } } })).status).to.equal(403);
          expect((await as('POST', '/shop/_close')).status).to.equal(403);
          expect((await as('DELETE', '/shop')).status).to.equal(403);
          expect((await call(gw.url, 'GET', '/shop/_count')).json.count).to.equal(2);
        });
      });
    }

    it('appbase-js 5: getMappings() with the read-only pair', async () => {
      const { username, password } = pairs['read-only'];
      const shop = Appbase({ url: gw.url, app: 'shop', credentials: `${username}:${password}`, enableTelemetry: false });
      const mappings = await shop.getMappings();
      expect(Object.keys(mappings).filter((k) => !k.startsWith('_'))).to.deep.equal(['shop']);
      expect(mappings.shop.mappings.properties.name.type).to.equal('text');
      const blog = Appbase({ url: gw.url, app: 'blog', credentials: `${username}:${password}`, enableTelemetry: false });
      const refused = await blog.getMappings().then(() => undefined, (err: unknown) => err);
      expect(refused, 'another app\'s mappings').not.to.equal(undefined);
    });

    describe('CORS from a credential\'s referers (no CORS_ORIGINS)', () => {
      const preflight = (origin: string, path = '/shop/_search') =>
        request(`${gw.url}${path}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
        }).then(async (res) => {
          await res.body.dump();
          return res;
        });
      const search = (origin: string, auth: Pair) =>
        call(gw.url, 'POST', '/shop/_search', { auth: basic(auth.username, auth.password), headers: { origin, referer: `${origin}/catalog` }, body: { query: { match_all: {} } } });
      const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => h.startsWith('access-control-'));

      it('a preflight from an origin a credential allows is answered; from an origin nobody allows it is not', async () => {
        const allowed = await preflight(SHOP);
        expect(allowed.statusCode).to.equal(204);
        expect(allowed.headers['access-control-allow-origin']).to.equal(SHOP);
        expect(allowed.headers['access-control-allow-credentials']).to.equal('true');
        expect(String(allowed.headers['access-control-allow-methods'])).to.contain('POST');
        expect(String(allowed.headers['access-control-allow-headers']).toLowerCase()).to.contain('authorization');
        expect(String(allowed.headers.vary).toLowerCase()).to.contain('origin');
        const refused = await preflight(NOBODY);
        expect(refused.statusCode).to.equal(401);
        expect(corsHeaders(refused.headers)).to.deep.equal([]);
      });

      it('the request itself is readable by the page when its own credential allows the origin', async () => {
        const res = await search(SHOP, browser);
        expect(res.status, res.text).to.equal(200);
        expect(res.json.hits.total.value).to.equal(2);
        expect(res.headers['access-control-allow-origin']).to.equal(SHOP);
        expect(res.headers['access-control-allow-credentials']).to.equal('true');
        expect(String(res.headers['access-control-expose-headers'])).to.contain('X-Search-Id');
        // the same origin with a credential that does not list it: answered, but not for that page to read
        const other = await search(SHOP, pairs['read-only']);
        expect(other.status).to.equal(200);
        expect(corsHeaders(other.headers)).to.deep.equal([]);
        // an origin nobody allows: no CORS header (and the credential's referers refuse it)
        const nobody = await search(NOBODY, browser);
        expect(nobody.status).to.equal(403);
        expect(corsHeaders(nobody.headers)).to.deep.equal([]);
      });

      it('follows the stored credentials: a new credential\'s origin is allowed at once, a deleted one\'s no more', async () => {
        const origin = 'https://new-shop.example';
        expect((await preflight(origin)).statusCode).to.equal(401);
        const made = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['search'], referers: [`${origin}/*`] } });
        expect(made.status, made.text).to.equal(201);
        const answered = await preflight(origin);
        expect(answered.statusCode).to.equal(204);
        expect(answered.headers['access-control-allow-origin']).to.equal(origin);
        expect((await call(gw.url, 'DELETE', `/_credentials/${made.json.credential.username}`)).status).to.equal(200);
        const gone = await preflight(origin);
        expect(gone.statusCode).to.equal(401);
        expect(corsHeaders(gone.headers)).to.deep.equal([]);
      });
    });
  });
}
