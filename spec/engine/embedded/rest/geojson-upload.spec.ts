import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { basic, call } from '../../../support/http.js';
import type { TestGateway } from '../../../support/servers.js';

/**
 * OpenSearch's geospatial plugin's GeoJSON upload: Features become documents (properties as
 * fields, the geometry under the field named, the Feature's id the document's); POST creates the
 * index, PUT also adds to it; `_upload/stats` counts the uploads. A cluster `manage` right.
 */
for (const backend of BACKENDS) {
  describe(`OpenSearch GeoJSON upload (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => ({ gateway: gw, stop } = await backend.start()));
    after(() => stop());

    const trail = { type: 'Feature', id: 'trail', geometry: { type: 'LineString', coordinates: [[6, 10], [6.1, 10.1]] }, properties: { name: 'Trail', kind: 'hiking' } };
    const park = { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[0, 10], [0, 11], [1, 11], [1, 10], [0, 10]]] }, properties: { name: 'Valley' } };

    it('indexes Features and FeatureCollections as documents; POST refuses an existing index, PUT adds to it', async () => {
      const before = await call(gw.url, 'GET', '/_plugins/geospatial/_upload/stats');
      const r = await call(gw.url, 'POST', '/_plugins/geospatial/geojson/_upload', { body: { index: 'parks', field: 'boundary', type: 'geo_shape', data: [trail, { type: 'FeatureCollection', features: [park] }, { nope: 1 }] } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json).to.include({ errors: false, total: 2, success: 2, failure: 0 });
      const mapping = await call(gw.url, 'GET', '/parks/_mapping');
      expect(mapping.json.parks.mappings.properties.boundary).to.deep.equal({ type: 'geo_shape' });
      const doc = await call(gw.url, 'GET', '/parks/_doc/trail');
      expect(doc.json._source).to.deep.equal({ id: 'trail', name: 'Trail', kind: 'hiking', boundary: trail.geometry });
      await call(gw.url, 'POST', '/parks/_refresh');
      const hits = await call(gw.url, 'POST', '/parks/_search', { body: { query: { geo_shape: { boundary: { shape: { type: 'envelope', coordinates: [[-1, 12], [2, 9]] }, relation: 'within' } } } } });
      expect(hits.json.hits.hits.map((h: { _source: { name: string } }) => h._source.name)).to.deep.equal(['Valley']);

      const again = await call(gw.url, 'POST', '/_plugins/geospatial/geojson/_upload', { body: { index: 'parks', field: 'boundary', type: 'geo_shape', data: [trail] } });
      expect([again.status, again.json.error?.type]).to.deep.equal([400, 'resource_already_exists_exception']);
      const put = await call(gw.url, 'PUT', '/_plugins/geospatial/geojson/_upload', { body: { index: 'parks', field: 'boundary', type: 'geo_shape', data: [{ ...trail, id: 'trail2' }] } });
      expect(put.json).to.include({ total: 1, success: 1 });
      const count = await call(gw.url, 'GET', '/parks/_count');
      expect(count.json.count).to.equal(3);
      const missing = await call(gw.url, 'POST', '/_plugins/geospatial/geojson/_upload', { body: { index: 'other', type: 'geo_shape', data: [] } });
      expect([missing.status, missing.json.error?.reason]).to.deep.equal([400, 'field [ field ] cannot be empty']);

      const after = await call(gw.url, 'GET', '/_plugins/geospatial/_upload/stats');
      expect(after.json.total.request_count - before.json.total.request_count).to.equal(4);
      expect(after.json.total.success - before.json.total.success).to.equal(3);
      expect(after.json.metrics.at(-1)).to.include({ type: 'geojson', upload: 1, success: 1, failed: 0 });
    });

    it('refuses a scoped credential: the body names any index', async () => {
      const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: ['own-*'], categories: ['cluster', 'indices', 'docs'], ops: ['read', 'write'] } });
      const tenant = { auth: basic(cred.json.credential.username, cred.json.password) };
      const r = await call(gw.url, 'PUT', '/_plugins/geospatial/geojson/_upload', { ...tenant, body: { index: 'parks-other', field: 'g', type: 'geo_shape', data: [trail] } });
      expect(r.status, r.text).to.equal(403);
      const own = await call(gw.url, 'PUT', '/_plugins/geospatial/geojson/_upload', { ...tenant, body: { index: 'own-1', field: 'g', type: 'geo_shape', data: [trail] } });
      expect(own.status, own.text).to.equal(403);
      const exists = await call(gw.url, 'HEAD', '/parks-other');
      expect(exists.status).to.equal(404);
    });
  });
}
