import { expect } from 'chai';
import { BACKENDS } from '../../../support/backends.js';
import { call, ndjson, NDJSON } from '../../../support/http.js';
import type { TestGateway } from '../../../support/servers.js';

/**
 * Dynamic templates named by a bulk item (`dynamic_templates`: a field path → a template name), and
 * templates with no match conditions (none of `match_mapping_type`, `match`, `path_match`), which
 * Elasticsearch applies only where a bulk item names them.
 */
for (const backend of BACKENDS) {
  describe(`engine: dynamic templates named by a bulk item (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      const created = await call(gw.url, 'PUT', '/places', {
        body: {
          mappings: {
            dynamic_templates: [
              { location: { mapping: { type: 'geo_point' } } },
              { string: { mapping: { type: 'text' } } },
              { longs_as_ints: { match_mapping_type: 'long', mapping: { type: 'integer' } } },
            ],
          },
        },
      });
      expect(created.status, created.text).to.equal(200);
    });
    after(() => stop());

    const bulk = (lines: unknown[]) => call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
    const properties = async () => (await call(gw.url, 'GET', '/places/_mapping')).json.places.mappings.properties;

    it('a template without match conditions maps no field by itself; one with conditions still does', async () => {
      const r = await bulk([{ index: { _index: 'places', _id: '1' } }, { note: 'hello', day: '2021-01-01', n: 3 }]);
      expect(r.json.errors, r.text).to.equal(false);
      const props = await properties();
      expect(props.day).to.deep.equal({ type: 'date' });
      expect(props.n).to.deep.equal({ type: 'integer' });
      expect(props.note.type).to.equal('text');
    });

    it('a field a bulk item names gets that template, whatever its conditions', async () => {
      const r = await bulk([
        { index: { _index: 'places', _id: '2', dynamic_templates: { where: 'location' } } }, { where: [-71.34, 41.12], day: '2021-01-02' },
        { create: { _index: 'places', _id: '3', dynamic_templates: { 'at.spot': 'location', count: 'string' } } }, { at: { spot: '41.12,-71.34' }, count: 7 },
      ]);
      expect(r.json.errors, r.text).to.equal(false);
      const props = await properties();
      expect(props.where).to.deep.equal({ type: 'geo_point' });
      expect(props.at.properties.spot).to.deep.equal({ type: 'geo_point' });
      expect(props.count).to.deep.equal({ type: 'text' });
      const box = { top_left: { lat: 42, lon: -72 }, bottom_right: { lat: 40, lon: -74 } };
      const hits = await call(gw.url, 'POST', '/places/_search', { body: { query: { geo_bounding_box: { where: box } } } });
      expect(hits.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
    });

    it('a name no template has fails that item (document_parsing_exception); a name for a field the document lacks, or one already mapped, is no error', async () => {
      const r = await bulk([
        { index: { _index: 'places', _id: '4', dynamic_templates: { elsewhere: 'nowhere' } } }, { elsewhere: [1, 2] },
        { index: { _index: 'places', _id: '5', dynamic_templates: { absent: 'nowhere', where: 'nowhere' } } }, { where: [1, 2] },
      ]);
      expect(r.json.errors).to.equal(true);
      expect(r.json.items[0].index.status).to.equal(400);
      expect(r.json.items[0].index.error).to.include({
        type: 'document_parsing_exception',
        reason: "Can't find dynamic template for dynamic template name [nowhere] of field [elsewhere]",
      });
      expect(r.json.items[1].index.status, JSON.stringify(r.json.items[1])).to.equal(201);
      expect(await properties()).to.not.have.property('elsewhere');
    });

    it('an object a bulk item gives a non-object template is refused', async () => {
      const r = await bulk([
        { index: { _index: 'places', _id: '6', dynamic_templates: { foo: 'string' } } }, { 'foo.bar': 'hello world' },
        { index: { _index: 'places', _id: '7', dynamic_templates: { 'foo.bar': 'string' } } }, { 'foo.bar': 'hello world' },
      ]);
      expect(r.json.items[0].index.error).to.include({
        type: 'document_parsing_exception',
        reason: "Field [foo] must be an object; but it's configured as [text] in dynamic template [string]",
      });
      expect(r.json.items[1].index.status, JSON.stringify(r.json.items[1])).to.equal(201);
      expect((await properties()).foo.properties.bar).to.deep.equal({ type: 'text' });
    });
  });
}
