import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * A long a Painless script computes past 2^53 leaves the script with its digits, as Elasticsearch
 * writes a Java long: in `script_fields`, in the source `_update` writes, in the source an ingest
 * script processor writes (a JS number would write Long.MIN_VALUE as -9223372036854776000). A long
 * field takes the whole range of a Java long, checked on the integer written (9223372036854775807
 * fits; 9223372036854775808, which a JS number reads alike, does not).
 */
for (const backend of BACKENDS) {
  describe(`painless: longs past 2^53 out of a script (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      const create = await call(url, 'PUT', '/longs', { body: { mappings: { properties: { n: { type: 'long' } } } } });
      expect(create.status, create.text).to.equal(200);
      const put = await call(url, 'PUT', '/longs/_doc/1?refresh=true', { body: { n: 1 } });
      expect(put.status, put.text).to.equal(201);
    });
    after(() => stop());

    it('script_fields answer the exact digits, in lists and maps too', async () => {
      const r = await call(url, 'POST', '/longs/_search', {
        body: {
          _source: false,
          script_fields: {
            max: { script: 'Long.MAX_VALUE' },
            min: { script: 'Long.MIN_VALUE' },
            odd: { script: '9007199254740993L' },
            map: { script: '["x": Long.MAX_VALUE - 1]' },
            small: { script: '42L' },
          },
        },
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.text).to.include('"max":[9223372036854775807]').and.include('"min":[-9223372036854775808]')
        .and.include('"odd":[9007199254740993]').and.include('"map":[{"x":9223372036854775806}]').and.include('"small":[42]');
    });

    it('_update writes the script\'s longs into the source exactly, and a long field takes them', async () => {
      const up = await call(url, 'POST', '/longs/_update/1?refresh=true', { body: { script: 'ctx._source.n = Long.MAX_VALUE; ctx._source.m = Long.MIN_VALUE' } });
      expect(up.status, up.text).to.equal(200);
      const got = await call(url, 'GET', '/longs/_doc/1');
      expect(got.text).to.include('"n":9223372036854775807').and.include('"m":-9223372036854775808');
      const found = await call(url, 'POST', '/longs/_search', { body: { query: { range: { m: { lt: 0 } } } } });
      expect(found.json.hits.total.value, found.text).to.equal(1);
    });

    it('an ingest script processor writes them exactly (new fields mapped as long)', async () => {
      const pipe = await call(url, 'PUT', '/_ingest/pipeline/longs', { body: { processors: [{ script: { source: 'ctx.big = Long.MAX_VALUE; ctx.small = Long.MIN_VALUE' } }] } });
      expect(pipe.status, pipe.text).to.equal(200);
      const put = await call(url, 'PUT', '/longs/_doc/2?pipeline=longs&refresh=true', { body: { n: 2 } });
      expect(put.status, put.text).to.equal(201);
      const got = await call(url, 'GET', '/longs/_doc/2');
      expect(got.text).to.include('"big":9223372036854775807').and.include('"small":-9223372036854775808');
      const mapping = await call(url, 'GET', '/longs/_mapping/field/big');
      expect(mapping.json.longs.mappings.big.mapping.big.type, mapping.text).to.equal('long');
    });

    it('a long field takes Long.MAX_VALUE as written and refuses one past it', async () => {
      const max = await call(url, 'PUT', '/longs/_doc/3', { body: '{"n":9223372036854775807}' });
      expect(max.status, max.text).to.equal(201);
      const past = await call(url, 'PUT', '/longs/_doc/4', { body: '{"n":9223372036854775808}' });
      expect(past.status, past.text).to.equal(400);
      expect(past.json.error.caused_by.reason).to.equal('Value [9223372036854775808] is out of range for a long');
      const below = await call(url, 'PUT', '/longs/_doc/5', { body: '{"n":-9223372036854775809}' });
      expect(below.status, below.text).to.equal(400);
    });
  });
}
