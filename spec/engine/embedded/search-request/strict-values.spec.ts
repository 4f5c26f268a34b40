import { expect } from 'chai';
import { call } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * Values Elasticsearch's parsers refuse where a lenient reading would quietly change the answer:
 * a boolean that is neither true nor false ("yes" read as false), and pattern queries on fields
 * whose values are not terms (a prefix on `_seq_no` or on a number matched nothing instead of failing).
 */
const MAPPINGS = { mappings: { properties: { tag: { type: 'keyword' }, body: { type: 'text' }, n: { type: 'long' }, at: { type: 'date' }, ok: { type: 'boolean' }, addr: { type: 'ip' } } } };
const DOC = { tag: 'red', body: 'quick fox', n: 12, at: '2024-01-02', ok: true, addr: '10.0.0.1' };
const NOT_BOOLEAN = 'Failed to parse value [yes] as only [true] or [false] are allowed.';

for (const backend of BACKENDS) {
  describe(`strict values in search requests (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await call(url, 'PUT', '/strict', { body: MAPPINGS })).status).to.equal(200);
      expect((await call(url, 'PUT', '/strict/_doc/1?refresh=true', { body: DOC })).status).to.equal(201);
    });
    after(() => stop());

    const search = (body: unknown, query = '') => call(url, 'POST', `/strict/_search${query}`, { body });

    it('refuses a search flag that is neither true nor false, in the body and in the URL', async () => {
      for (const flag of ['profile', 'explain', 'track_scores', 'version', 'seq_no_primary_term']) {
        const r = await search({ [flag]: 'yes' });
        expect(r.status, `${flag}: ${r.text}`).to.equal(400);
        expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: NOT_BOOLEAN });
      }
      const url = await search({}, '?explain=yes');
      expect(url.status, url.text).to.equal(400);
      expect(url.json.error).to.include({ type: 'illegal_argument_exception', reason: NOT_BOOLEAN });
    });

    it('reads "true" and "false" written as strings as the booleans they name', async () => {
      const r = await search({ explain: 'true', version: 'true', profile: 'false' });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits[0]).to.have.property('_explanation');
      expect(r.json.hits.hits[0]._version).to.equal(1);
      expect(r.json).to.not.have.property('profile');
    });

    it('refuses a boolean query option that is neither true nor false', async () => {
      const r = await search({ query: { match: { body: { query: 'fox', lenient: 'yes' } } } });
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: NOT_BOOLEAN });
    });

    it('refuses prefix, wildcard, regexp and fuzzy queries on _seq_no and on numbers, dates, booleans and ips', async () => {
      const cases: Array<[string, string, string, string]> = [
        ['prefix', '_seq_no', '_seq_no', 'keyword, text and wildcard'],
        ['prefix', 'n', 'long', 'keyword, text and wildcard'],
        ['wildcard', 'at', 'date', 'keyword, text and wildcard'],
        ['regexp', 'ok', 'boolean', 'keyword and text'],
        ['fuzzy', 'addr', 'ip', 'keyword and text'],
      ];
      for (const [type, field, fieldType, allowed] of cases) {
        const r = await search({ query: { [type]: { [field]: '1' } } });
        expect(r.status, `${type} on ${field}: ${r.text}`).to.equal(400);
        expect(r.json.error.type).to.equal('query_shard_exception');
        expect(r.json.error.reason).to.equal(`Can only use ${type} queries on ${allowed} fields - not on [${field}] which is of type [${fieldType}]`);
      }
    });

    it('still runs pattern queries on keyword, text and the keyword-like metadata fields', async () => {
      for (const query of [{ prefix: { tag: 're' } }, { wildcard: { body: 'qu*' } }, { regexp: { tag: 'r.d' } }, { prefix: { _index: 'str' } }, { fuzzy: { tag: 'rad' } }]) {
        const r = await search({ query });
        expect(r.status, `${JSON.stringify(query)}: ${r.text}`).to.equal(200);
        expect(r.json.hits.total.value, JSON.stringify(query)).to.equal(1);
      }
    });
  });
}
