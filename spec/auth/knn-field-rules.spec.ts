import { expect } from 'chai';
import { authorizationDisagreementCount } from '../../lib/metrics/index.js';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';

/**
 * kNN search under field rules (issue 37): a credential whose rules hide a vector field can neither
 * search nor score on it — the `knn` option, Elasticsearch's `knn` query and OpenSearch's form of
 * it (keyed by the field) are refused when they name it, or filter on a hidden field; a knn search
 * on a visible vector field is answered. A `knn` option's k is bounded by max_size as `size` is.
 */
for (const backend of BACKENDS) {
  describe(`kNN search under field rules and max_size (${backend.name})`, function () {
    this.timeout(120_000);
    let url: string;
    let stop: () => Promise<void>;
    let hiding: string;
    let bounded: string;

    before(async () => {
      const started = await backend.start();
      url = started.gateway.url;
      stop = started.stop;
      const made = await call(url, 'PUT', '/vec-1', {
        body: { mappings: { properties: { open_vec: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' }, secret_vec: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' }, secret: { type: 'keyword' } } } },
      });
      expect(made.status, made.text).to.equal(200);
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', {
        body: ndjson([
          { index: { _index: 'vec-1', _id: '1' } }, { open_vec: [0, 0], secret_vec: [9, 9], secret: 'a' },
          { index: { _index: 'vec-1', _id: '2' } }, { open_vec: [1, 1], secret_vec: [0, 0], secret: 'b' },
        ]),
        headers: NDJSON,
      });
      expect(bulk.json.errors, bulk.text).to.equal(false);
      const make = async (body: Record<string, unknown>) => {
        const res = await call(url, 'POST', '/_credentials', { body: { indices: ['vec*'], categories: ['docs', 'search'], ops: ['read'], ...body } });
        expect(res.status, res.text).to.equal(201);
        return basic(res.json.credential.username, res.json.password);
      };
      hiding = await make({ exclude_fields: ['secret*'] });
      bounded = await make({ max_size: 5 });
    });
    after(() => stop());

    it('refuses a knn option or query that names a hidden vector field or filters on a hidden field', async () => {
      const before = await authorizationDisagreementCount();
      const bodies = [
        { knn: { field: 'secret_vec', query_vector: [0, 0], k: 1, num_candidates: 2 } },
        { knn: [{ field: 'open_vec', query_vector: [0, 0], k: 1, num_candidates: 2 }, { field: 'secret_vec', query_vector: [0, 0], k: 1, num_candidates: 2 }] },
        { knn: { field: 'open_vec', query_vector: [0, 0], k: 1, num_candidates: 2, filter: { term: { secret: 'a' } } } },
        { query: { knn: { field: 'secret_vec', query_vector: [0, 0], k: 1 } } },
        { query: { bool: { should: [{ knn: { secret_vec: { vector: [0, 0], k: 1 } } }] } } },
        { query: { knn: { open_vec: { vector: [0, 0], k: 1, filter: { term: { secret: 'a' } } } } } },
      ];
      for (const body of bodies) {
        const res = await call(url, 'POST', '/vec-1/_search', { auth: hiding, body });
        expect(res.status, `${JSON.stringify(body)}: ${res.text}`).to.equal(403);
        expect(res.json.error.type).to.equal('security_exception');
        expect(res.text).not.to.contain('"secret_vec":[');
      }
      expect(await authorizationDisagreementCount()).to.equal(before);
    });

    it('answers a knn search on a visible vector field, without the hidden fields', async () => {
      const res = await call(url, 'POST', '/vec-1/_search', { auth: hiding, body: { knn: { field: 'open_vec', query_vector: [0, 0], k: 1, num_candidates: 2 } } });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).to.deep.equal([['1', 1]]);
      expect(res.json.hits.hits[0]._source).to.deep.equal({ open_vec: [0, 0] });
    });

    it('bounds a knn option\'s k by max_size as it bounds size', async () => {
      const over = await call(url, 'POST', '/vec-1/_search', { auth: bounded, body: { knn: { field: 'open_vec', query_vector: [0, 0], k: 6, num_candidates: 10 } } });
      expect(over.status, over.text).to.equal(400);
      expect(over.json.error.reason).to.equal("[knn.k] 6 is above this credential's max_size of 5");
      const within = await call(url, 'POST', '/vec-1/_search', { auth: bounded, body: { knn: [{ field: 'open_vec', query_vector: [0, 0], k: 5, num_candidates: 10 }] } });
      expect(within.status, within.text).to.equal(200);
      expect(within.json.hits.total.value).to.equal(2);
    });

    it('serves _knn_search to a scoped credential on its indices only; refuses it under field rules (its body is not checked)', async () => {
      const before = await authorizationDisagreementCount();
      const other = await call(url, 'PUT', '/other-vec', { body: { mappings: { properties: { open_vec: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' } } } } });
      expect(other.status, other.text).to.equal(200);
      const knn = (field: string, k = 1) => ({ knn: { field, query_vector: [0, 0], k, num_candidates: 10 } });
      const own = await call(url, 'POST', '/vec-1/_knn_search', { auth: bounded, body: knn('open_vec') });
      expect(own.status, own.text).to.equal(200);
      expect(own.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
      for (const path of ['/other-vec/_knn_search', '/vec-1,other-vec/_knn_search']) {
        const foreign = await call(url, 'POST', path, { auth: bounded, body: knn('open_vec') });
        expect(foreign.status, `${path}: ${foreign.text}`).to.equal(403);
      }
      expect((await call(url, 'POST', '/vec-1/_knn_search', { auth: bounded, body: knn('open_vec', 6) })).status).to.equal(400);
      // a lookup in its filter reads the looked-up index as the caller
      const lookup = { ...knn('open_vec'), filter: { terms: { secret: { index: 'other-vec', id: '1', path: 'secret' } } } };
      const foreignLookup = await call(url, 'POST', '/vec-1/_knn_search', { auth: bounded, body: lookup });
      expect(foreignLookup.status, foreignLookup.text).to.equal(403);
      const hidden = await call(url, 'POST', '/vec-1/_knn_search', { auth: hiding, body: knn('secret_vec') });
      expect(hidden.status, hidden.text).to.equal(403);
      expect(hidden.text).not.to.contain('"secret_vec":[');
      expect(await authorizationDisagreementCount()).to.equal(before);
    });

    it('reads a hybrid query (OpenSearch) under field rules as its sub-queries: a hidden field refused, visible ones answered', async () => {
      const refused = await call(url, 'POST', '/vec-1/_search', { auth: hiding, body: { query: { hybrid: { queries: [{ match_all: {} }, { term: { secret: 'a' } }] } } } });
      expect(refused.status, refused.text).to.equal(403);
      const filtered = await call(url, 'POST', '/vec-1/_search', { auth: hiding, body: { query: { hybrid: { queries: [{ match_all: {} }], filter: { term: { secret: 'a' } } } } } });
      expect(filtered.status, filtered.text).to.equal(403);
      const open = await call(url, 'POST', '/vec-1/_search', { auth: hiding, body: { query: { hybrid: { queries: [{ match_all: {} }, { exists: { field: 'open_vec' } }], pagination_depth: 10 } } } });
      expect(open.status, open.text).to.equal(200);
      expect(open.json.hits.total.value).to.equal(2);
      expect(open.text).not.to.contain('secret');
    });
  });
}
