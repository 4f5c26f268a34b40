import { expect } from 'chai';
import { basic, call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * How fetched fields are shown: a geo_point through the fields option is GeoJSON (or WKT when
 * asked), whichever of its forms the source holds (a [lon, lat] array is one point, not two
 * numbers); `docvalue_fields` with Elasticsearch 7's `use_field_mapping` format shows the field's
 * own format (it was read as a date pattern).
 */
for (const backend of BACKENDS) {
  describe(`fields and docvalue_fields formats (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      const made = await call(url, 'PUT', '/ff', { body: { mappings: { properties: { g: { type: 'geo_point' }, d: { type: 'date', format: 'yyyy/MM/dd' }, n: { type: 'long' } } } } });
      expect(made.status, made.text).to.equal(200);
      const docs: Array<[string, unknown]> = [['1', { g: '41.12,-71.34', d: '2020/01/02', n: 7 }], ['2', { g: { lat: 1.5, lon: 2.5 } }], ['3', { g: [2.5, 1.5] }], ['4', { g: [[2.5, 1.5], 'POINT (3 4)'] }]];
      for (const [id, doc] of docs) expect((await call(url, 'PUT', `/ff/_doc/${id}?refresh=true`, { body: doc })).status).to.equal(201);
    });
    after(() => stop());

    const fieldsOf = async (body: Record<string, unknown>) => {
      const r = await call(url, 'POST', '/ff/_search', { body: { _source: false, sort: ['_doc'], ...body } });
      expect(r.status, r.text).to.equal(200);
      return Object.fromEntries(r.json.hits.hits.map((h: { _id: string; fields?: Record<string, unknown[]> }) => [h._id, h.fields]));
    };

    it('the fields option shows a geo_point as GeoJSON, from any of its source forms', async () => {
      const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });
      const got = await fieldsOf({ fields: ['g'] });
      expect(got).to.deep.equal({
        1: { g: [point(-71.34, 41.12)] }, 2: { g: [point(2.5, 1.5)] }, 3: { g: [point(2.5, 1.5)] }, 4: { g: [point(2.5, 1.5), point(3, 4)] },
      });
    });

    it('and as WKT when asked', async () => {
      const got = await fieldsOf({ fields: [{ field: 'g', format: 'wkt' }], query: { ids: { values: ['1', '4'] } } });
      expect(got).to.deep.equal({ 1: { g: ['POINT (-71.34 41.12)'] }, 4: { g: ['POINT (2.5 1.5)', 'POINT (3.0 4.0)'] } });
    });

    it('docvalue_fields with use_field_mapping shows the field\'s own format', async () => {
      const got = await fieldsOf({ docvalue_fields: [{ field: 'd', format: 'use_field_mapping' }, { field: 'n', format: 'use_field_mapping' }], query: { ids: { values: ['1'] } } });
      expect(got).to.deep.equal({ 1: { d: ['2020/01/02'], n: [7] } });
    });

    it('values indexing ignored (ignore_above, ignore_malformed) come back in ignored_field_values, beside fields', async () => {
      const made = await call(url, 'PUT', '/ig', {
        body: { mappings: { properties: { small: { type: 'keyword', ignore_above: 2 }, large: { type: 'keyword' }, n: { type: 'integer', ignore_malformed: true }, secret: { type: 'keyword', ignore_above: 1 } } } },
      });
      expect(made.status, made.text).to.equal(200);
      const doc = { small: ['ok', 'bad'], large: 'ok content', n: ['x', 3], secret: 'hidden' };
      expect((await call(url, 'PUT', '/ig/_doc/1?refresh=true', { body: doc })).status).to.equal(201);
      const r = await call(url, 'POST', '/ig/_search', { body: { fields: ['small', 'large', 'n', 'secret'], _source: false } });
      expect(r.status, r.text).to.equal(200);
      const hit = r.json.hits.hits[0];
      expect(hit._ignored).to.deep.equal(['n', 'secret', 'small']);
      expect(hit.fields).to.deep.equal({ small: ['ok'], large: ['ok content'], n: [3] });
      expect(hit.ignored_field_values).to.deep.equal({ small: ['bad'], n: ['x'], secret: ['hidden'] });
      // only for the fields asked for
      const one = await call(url, 'POST', '/ig/_search', { body: { fields: ['large', 'small'], _source: false } });
      expect(one.json.hits.hits[0].ignored_field_values).to.deep.equal({ small: ['bad'] });
      expect((await call(url, 'POST', '/ig/_search', { body: {} })).json.hits.hits[0]).not.to.have.property('ignored_field_values');
      // a credential's field rules hide the field's ignored values as they hide its values
      const cred = await call(url, 'POST', '/_credentials', { body: { indices: ['ig'], categories: ['search'], ops: ['read'], exclude_fields: ['secret'] } });
      expect(cred.status, cred.text).to.equal(201);
      const scoped = await call(url, 'POST', '/ig/_search', { auth: basic(cred.json.credential.username, cred.json.password), body: { fields: ['small', 'n', 'large'] } });
      expect(scoped.status, scoped.text).to.equal(200);
      expect(scoped.json.hits.hits[0].ignored_field_values).to.deep.equal({ small: ['bad'], n: ['x'] });
      expect(scoped.text).not.to.contain('hidden');
    });
  });
}
