import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * Fetching fields by a field alias: the fields option and docvalue_fields accept an alias, named or
 * matched by a pattern, and show its target's values under the alias's name (Elasticsearch's "alias
 * field type": a wildcard pattern matches field aliases in addition to concrete fields). And
 * `index.max_docvalue_fields_search` bounds the fields docvalue_fields names once its patterns are
 * expanded, as Elasticsearch's FetchDocValuesContext counts them.
 */
for (const backend of BACKENDS) {
  describe(`fetching field aliases; the docvalue_fields limit over patterns (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      const made = await call(url, 'PUT', '/trips', {
        body: {
          settings: { 'index.max_docvalue_fields_search': 2 },
          mappings: { properties: { distance: { type: 'long' }, route_length_miles: { type: 'alias', path: 'distance' }, mode: { type: 'keyword' }, day: { type: 'date', format: 'yyyy/MM/dd' }, when: { type: 'alias', path: 'day' } } },
        },
      });
      expect(made.status, made.text).to.equal(200);
      const put = await call(url, 'PUT', '/trips/_doc/1?refresh=true', { body: { distance: 42, mode: 'bus', day: '2024/05/06' } });
      expect(put.status, put.text).to.equal(201);
    });
    after(() => stop());

    const fieldsOf = async (body: Record<string, unknown>) => {
      const r = await call(url, 'POST', '/trips/_search', { body: { _source: false, ...body } });
      expect(r.status, r.text).to.equal(200);
      return r.json.hits.hits[0].fields;
    };

    it('the fields option shows an alias named by name, with its target\'s values and format', async () => {
      expect(await fieldsOf({ fields: ['route_length_miles', { field: 'when', format: 'yyyy-MM-dd' }] })).to.deep.equal({ route_length_miles: [42], when: ['2024-05-06'] });
    });

    it('a pattern of the fields option matches aliases beside concrete fields', async () => {
      expect(await fieldsOf({ fields: ['route_*', 'distance'] })).to.deep.equal({ route_length_miles: [42], distance: [42] });
    });

    it('docvalue_fields reads an alias\'s target doc values, under the alias', async () => {
      expect(await fieldsOf({ docvalue_fields: ['route_length_miles', { field: 'when', format: 'epoch_millis' }] })).to.deep.equal({ route_length_miles: [42], when: ['1714953600000'] });
    });

    it('index.max_docvalue_fields_search counts the fields a pattern expands to', async () => {
      const r = await call(url, 'POST', '/trips/_search', { body: { docvalue_fields: ['*'] } });
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error.root_cause[0].type).to.equal('illegal_argument_exception');
      expect(r.json.error.root_cause[0].reason).to.equal('Trying to retrieve too many docvalue_fields. Must be less than or equal to: [2] but was [5]. ' +
        'This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.');
      const two = await call(url, 'POST', '/trips/_search', { body: { _source: false, docvalue_fields: ['mo*', 'distance'] } });
      expect(two.status, two.text).to.equal(200);
      expect(two.json.hits.hits[0].fields).to.deep.equal({ mode: ['bus'], distance: [42] });
    });
  });
}
