import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

const OPENSEARCH_CLIENT = { 'user-agent': 'opensearch-js/2.13.0 (linux 6.1.0-x64; Node.js v20.18.0)' };

/** Through the gateway, on both backends: an OpenSearch client gets OpenSearch 2's answers where the engines differ. */
for (const backend of BACKENDS) {
  describe(`gateway (${backend.name}): OpenSearch 2 answers to OpenSearch clients`, () => {
    let gateway: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway, stop } = await backend.start());
    });
    after(() => stop());

    it('GET / and _cat/nodes by the client, Elasticsearch 8 to the others', async () => {
      const os = await call(gateway.url, 'GET', '/', { headers: OPENSEARCH_CLIENT });
      expect(os.json.version.distribution, os.text).to.equal('opensearch');
      expect((await call(gateway.url, 'GET', '/_cat/nodes?format=json&h=cluster_manager', { headers: OPENSEARCH_CLIENT })).json).to.deep.equal([{ cluster_manager: '*' }]);
      const es = await call(gateway.url, 'GET', '/');
      expect(es.json.version.number).to.equal('8.15.0');
      expect(es.headers['x-elastic-product']).to.equal('Elasticsearch');
      expect((await call(gateway.url, 'GET', '/_cat/nodes?format=json&h=master')).json).to.deep.equal([{ master: '*' }]);
    });
  });
}
