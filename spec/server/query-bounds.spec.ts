/**
 * Every query type that expands its input into terms or positions is bounded by
 * indices.query.bool.max_clause_count (4096), before analysis: a phrase of 3.5 million words is
 * refused with Elasticsearch's 400, on both backends, and one under the bound is answered.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const TOO_MANY = 'Query contains too many nested clauses; maxClauseCount is set to 4096';

const expanding: Array<[string, (text: string) => unknown]> = [
  ['match_phrase', (t) => ({ match_phrase: { title: t } })],
  ['match_phrase with slop', (t) => ({ match_phrase: { title: { query: t, slop: 3 } } })],
  ['match_phrase_prefix', (t) => ({ match_phrase_prefix: { title: t } })],
  ['multi_match phrase', (t) => ({ multi_match: { query: t, fields: ['title'], type: 'phrase' } })],
  ['combined_fields', (t) => ({ combined_fields: { query: t, fields: ['title'] } })],
  ['intervals match', (t) => ({ intervals: { title: { match: { query: t } } } })],
  ['intervals all_of', (t) => ({ intervals: { title: { all_of: { intervals: [{ match: { query: t } }] } } } })],
  ['query_string phrase', (t) => ({ query_string: { query: `"${t}"`, default_field: 'title' } })],
  ['a phrase inside a bool', (t) => ({ bool: { should: [{ match_phrase: { title: t } }] } })],
];

for (const backend of BACKENDS) {
  describe(`query expansion bounds (${backend.name})`, function () {
    this.timeout(120_000);
    let gateway: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway, stop } = await backend.start());
      const created = await call(gateway.url, 'PUT', '/phrases', { body: { mappings: { properties: { title: { type: 'text' } } } } });
      expect(created.status).to.equal(200);
      const doc = await call(gateway.url, 'PUT', '/phrases/_doc/1?refresh=true', { body: { title: 'lorem lorem lorem w0 w1 w2' } });
      expect(doc.status).to.equal(201);
    });
    after(() => stop());

    for (const [name, query] of expanding) {
      it(`${name} of 5,000 words: 400 too_many_nested_clauses; of 4,000: answered`, async () => {
        const refused = await call(gateway.url, 'POST', '/phrases/_search', { body: { query: query(words(5000)) } });
        expect(refused.status, refused.text.slice(0, 300)).to.equal(400);
        const root = refused.json.error.root_cause[0];
        expect(root.type).to.equal('too_many_nested_clauses');
        expect(root.reason).to.equal(TOO_MANY);
        const answered = await call(gateway.url, 'POST', '/phrases/_search', { body: { query: query(words(4000)) } });
        expect(answered.status, answered.text.slice(0, 300)).to.equal(200);
      });
    }

    it('a 20 MB match_phrase (one word 3.5 million times, a word the documents hold) is refused with 400', async () => {
      const text = 'lorem '.repeat(3_500_000);
      const refused = await call(gateway.url, 'POST', '/phrases/_search', { body: { query: { match_phrase: { title: text } } } });
      expect(refused.status, refused.text.slice(0, 300)).to.equal(400);
      expect(refused.json.error.root_cause[0].type).to.equal('too_many_nested_clauses');
      const hit = await call(gateway.url, 'POST', '/phrases/_search', { body: { query: { match_phrase: { title: 'lorem lorem lorem' } } } });
      expect(hit.json.hits.total.value).to.equal(1);
    });
  });
}
