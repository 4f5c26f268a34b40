import { expect } from 'chai';
import { basic, call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * OpenSearch 2's names for Elasticsearch's "master": `GET /_cat/cluster_manager` is `_cat/master`
 * (the same table, authorized as it is), and `cluster_manager_timeout` is `master_timeout`.
 * OpenSearch 2 names `master_timeout` `cluster_manager_timeout`, and its clients and API spec send
 * that name: every API that takes `master_timeout` takes it (index creation and deletion, mappings,
 * settings, aliases, cat APIs…); an API that takes neither still refuses it as any unknown parameter.
 */
for (const backend of BACKENDS) {
  describe(`OpenSearch's cluster_manager_timeout (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
    });
    after(() => stop());

    it('is accepted wherever master_timeout is', async () => {
      const calls: Array<[string, string, unknown?]> = [
        ['PUT', '/movies?cluster_manager_timeout=30s', { mappings: { properties: { title: { type: 'text' } } } }],
        ['PUT', '/movies/_mapping?cluster_manager_timeout=30s', { properties: { year: { type: 'integer' } } }],
        ['GET', '/movies/_mapping?cluster_manager_timeout=30s'],
        ['GET', '/movies/_settings?cluster_manager_timeout=30s'],
        ['PUT', '/movies/_settings?cluster_manager_timeout=30s', { index: { number_of_replicas: 0 } }],
        ['GET', '/_cat/indices/movies?cluster_manager_timeout=30s&format=json'],
        ['DELETE', '/movies?cluster_manager_timeout=30s'],
      ];
      for (const [method, path, body] of calls) {
        const r = await call(url, method, path, body === undefined ? {} : { body });
        expect(r.status, `${method} ${path}: ${r.text}`).to.equal(200);
      }
    });

    it('_cat/cluster_manager answers _cat/master\'s table; a credential is let in or refused alike', async () => {
      const master = await call(url, 'GET', '/_cat/master?format=json');
      const manager = await call(url, 'GET', '/_cat/cluster_manager?format=json&cluster_manager_timeout=5s');
      expect(manager.status, manager.text).to.equal(200);
      expect(manager.json).to.deep.equal(master.json);
      expect(Object.keys(manager.json[0])).to.deep.equal(['id', 'host', 'ip', 'node']);
      const text = await call(url, 'GET', '/_cat/cluster_manager?v=true&h=host,node');
      expect(text.text.split('\n')[0].trim().split(/\s+/)).to.deep.equal(['host', 'node']);
      const cred = await call(url, 'POST', '/_credentials', { body: { indices: ['a'], categories: ['search'], ops: ['read'] } });
      expect(cred.status, cred.text).to.equal(201);
      const scoped = basic(cred.json.credential.username, cred.json.password);
      const asScopedMaster = await call(url, 'GET', '/_cat/master?format=json', { auth: scoped });
      const asScopedManager = await call(url, 'GET', '/_cat/cluster_manager?format=json', { auth: scoped });
      expect(asScopedManager.status, asScopedManager.text).to.equal(asScopedMaster.status);
    });

    it('an API without master_timeout refuses it as an unknown parameter', async () => {
      expect((await call(url, 'PUT', '/films/_doc/1?refresh=true', { body: { t: 1 } })).status).to.equal(201);
      const r = await call(url, 'GET', '/films/_search?cluster_manager_timeout=30s');
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error.reason).to.equal('request [/films/_search] contains unrecognized parameter: [cluster_manager_timeout]');
    });
  });
}
