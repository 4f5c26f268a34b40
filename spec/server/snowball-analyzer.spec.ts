/**
 * The `snowball` analyzer (Elasticsearch's SnowballAnalyzer, of its analysis-common module): by
 * name, English — standard tokenizer, english possessive, lowercase, English stop words, the
 * English Snowball stemmer —; configured with `type: snowball`, any Snowball `language`, its
 * default stop words (English, Dutch, German) or the given `stopwords`. A query-time `analyzer`
 * naming it works in search, count, explain and validate, on both backends.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

for (const backend of BACKENDS) {
  describe(`snowball analyzer (${backend.name})`, function () {
    this.timeout(60_000);
    let gateway: TestGateway;
    let stop: () => Promise<void>;
    const tokens = async (path: string, body: Record<string, unknown>): Promise<string[]> => {
      const r = await call(gateway.url, 'POST', path, { body });
      expect(r.status, r.text).to.equal(200);
      return r.json.tokens.map((t: { token: string }) => t.token);
    };

    before(async () => {
      ({ gateway, stop } = await backend.start());
      const created = await call(gateway.url, 'PUT', '/snowball', {
        body: {
          settings: {
            analysis: {
              analyzer: {
                swedish: { type: 'snowball', language: 'Swedish', stopwords: ['och'] },
                dutch: { type: 'snowball', language: 'Dutch' },
              },
            },
          },
          mappings: { properties: { field: { type: 'text' } } },
        },
      });
      expect(created.status, created.text).to.equal(200);
      const doc = await call(gateway.url, 'PUT', '/snowball/_doc/1?refresh=true', { body: { field: 'foo bar' } });
      expect(doc.status, doc.text).to.equal(201);
    });
    after(() => stop());

    it('by name: English possessive, lowercase, English stop words, English Snowball stemmer', async () => {
      expect(await tokens('/_analyze', { analyzer: 'snowball', text: "The dog's running quickly through the fields" }))
        .to.deep.equal(['dog', 'run', 'quick', 'through', 'field']);
    });

    it('type snowball: the language, its default stop words or the given ones', async () => {
      expect(await tokens('/snowball/_analyze', { analyzer: 'swedish', text: 'hundarna och katterna' })).to.deep.equal(['hund', 'katt']);
      expect(await tokens('/snowball/_analyze', { analyzer: 'dutch', text: 'de fietsen van het huis' })).to.deep.equal(['fiets', 'huis']);
    });

    it('a language without a Snowball stemmer is refused', async () => {
      const r = await call(gateway.url, 'PUT', '/snowball-klingon', { body: { settings: { analysis: { analyzer: { x: { type: 'snowball', language: 'Klingon' } } } } } });
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.equal('Invalid stemmer class specified: Klingon');
    });

    it('analyzer=snowball in a query string: search, count, explain and validate match "bars" to "bar"', async () => {
      const q = 'q=field:bars&analyzer=snowball';
      const search = await call(gateway.url, 'GET', `/snowball/_search?${q}`);
      expect(search.status, search.text).to.equal(200);
      expect(search.json.hits.total.value).to.equal(1);
      const count = await call(gateway.url, 'GET', `/snowball/_count?${q}`);
      expect(count.json.count, count.text).to.equal(1);
      const explain = await call(gateway.url, 'GET', `/snowball/_explain/1?${q}`);
      expect(explain.json.matched, explain.text).to.equal(true);
      const valid = await call(gateway.url, 'GET', `/snowball/_validate/query?${q}`);
      expect(valid.json.valid, valid.text).to.equal(true);
    });
  });
}
