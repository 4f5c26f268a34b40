import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { basic, call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

/**
 * The expression script language and the user_agent / registered_domain processors through the
 * gateway, on both engines: an expression reads only the documents of the indices searched, so a
 * scoped credential reaches nothing more with one than without.
 */
for (const backend of BACKENDS) {
  describe(`expression scripts and enrichment processors through the gateway (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let onlyA: string;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/a', { body: { mappings: { properties: { n: { type: 'long' } } } } });
      await call(gw.url, 'PUT', '/b', { body: { mappings: { properties: { secret: { type: 'long' } } } } });
      await call(gw.url, 'PUT', '/a/_doc/1?refresh=true', { body: { n: 2 } });
      await call(gw.url, 'PUT', '/b/_doc/1?refresh=true', { body: { secret: 42 } });
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['a'], categories: ['docs', 'indices', 'search'], ops: ['read', 'write'] } });
      expect(cred.status, cred.text).to.equal(201);
      onlyA = basic(cred.json.credential.username, cred.json.password);
    });
    after(() => stop());

    it('a scoped credential computes expressions over its index, and reaches no other', async () => {
      const own = await call(gw.url, 'POST', '/a/_search', { auth: onlyA, body: { script_fields: { x: { script: { lang: 'expression', source: "doc['n'].value * k", params: { k: 21 } } } } } });
      expect(own.status, own.text).to.equal(200);
      expect(own.json.hits.hits[0].fields.x).to.deep.equal([42]);
      const other = await call(gw.url, 'POST', '/b/_search', { auth: onlyA, body: { script_fields: { x: { script: { lang: 'expression', source: "doc['secret'].value" } } } } });
      expect(other.status, other.text).to.equal(403);
      const named = await call(gw.url, 'POST', '/a/_search', { auth: onlyA, body: { script_fields: { x: { script: { lang: 'expression', source: "doc['secret'].value" } } } } });
      expect(named.text).to.include('Field [secret] does not exist in mappings');
      expect(named.text).not.to.include('42');
    });

    it('runs user_agent and registered_domain in a simulated pipeline', async () => {
      const r = await call(gw.url, 'POST', '/_ingest/pipeline/_simulate', { body: {
        pipeline: { processors: [{ user_agent: { field: 'ua', properties: ['name', 'version'] } }, { registered_domain: { field: 'host', target_field: 'd' } }] },
        docs: [{ _source: { ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0', host: 'www.example.co.uk' } }],
      } });
      expect(r.status, r.text).to.equal(200);
      const source = r.json.docs[0].doc._source;
      expect(source.user_agent).to.deep.equal({ name: 'Firefox', version: '115.0' });
      expect(source.d).to.deep.equal({ domain: 'www.example.co.uk', registered_domain: 'example.co.uk', top_level_domain: 'co.uk', subdomain: 'www' });
    });
  });
}
