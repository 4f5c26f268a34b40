import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
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

    it('an API without master_timeout refuses it as an unknown parameter', async () => {
      expect((await call(url, 'PUT', '/films/_doc/1?refresh=true', { body: { t: 1 } })).status).to.equal(201);
      const r = await call(url, 'GET', '/films/_search?cluster_manager_timeout=30s');
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error.reason).to.equal('request [/films/_search] contains unrecognized parameter: [cluster_manager_timeout]');
    });
  });
}
