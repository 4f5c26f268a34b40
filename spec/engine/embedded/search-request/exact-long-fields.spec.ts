import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * A long field past 2^53 in a hit's `fields`, as Elasticsearch reads a long: exact in
 * `docvalue_fields` (its doc values are longs) and in the fields API (read from `_source`), where a
 * JS number would round 2^63 - 1 to 9223372036854776000 (and the fields API dropped it).
 */
for (const backend of BACKENDS) {
  describe(`search: long values past 2^53 in fields and docvalue_fields (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await call(url, 'PUT', '/longs', { body: { mappings: { properties: { l: { type: 'long' } } } } })).status).to.equal(200);
      const one = await call(url, 'PUT', '/longs/_doc/1?refresh=true', { body: '{"l":9223372036854775807}' });
      expect(one.status, one.text).to.equal(201);
      const two = await call(url, 'PUT', '/longs/_doc/2?refresh=true', { body: '{"l":[-9223372036854775808,5,"9007199254740993"]}' });
      expect(two.status, two.text).to.equal(201);
    });
    after(() => stop());

    for (const [what, body] of [['docvalue_fields', { docvalue_fields: ['l'], sort: ['_doc'] }], ['fields', { fields: ['l'], sort: ['_doc'] }]] as const) {
      it(`${what} answers them exactly`, async () => {
        const r = await call(url, 'POST', '/longs/_search?filter_path=hits.hits.fields', { body });
        expect(r.status, r.text).to.equal(200);
        expect(r.text).to.equal('{"hits":{"hits":[{"fields":{"l":[9223372036854775807]}},{"fields":{"l":[-9223372036854775808,5,9007199254740993]}}]}}');
      });
    }
  });
}
