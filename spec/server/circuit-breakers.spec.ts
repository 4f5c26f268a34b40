/**
 * Request bodies are counted against the in-flight requests breaker and the parent breaker (real
 * memory), as Elasticsearch's are: a body they cannot hold is answered 429
 * `circuit_breaking_exception` naming the breaker, on the gateway (both backends) and the
 * standalone engine, while requests without a body go on being answered.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call, ndjson, NDJSON } from '../support/http.js';
import { withStandaloneEngine } from '../support/servers.js';

/** About `bytes` of `_bulk` body, in documents of 4 KB (few of them: indexing is not what is tested). */
const bulkOf = (bytes: number) => ndjson(Array.from({ length: 2 * Math.ceil(bytes / 4100) }, (_, i) => (i % 2 ? { text: 'x'.repeat(4000) } : { index: { _index: 'breaker-sink', _id: String(i) } })));

for (const backend of BACKENDS) {
  describe(`circuit breakers (${backend.name})`, function () {
    this.timeout(60_000);

    it('a body over network.breaker.inflight_requests.limit: 429 [in_flight_requests] Data too large; a small one is indexed', async () => {
      const { gateway, stop } = await backend.start({ NETWORK_BREAKER_INFLIGHT_REQUESTS_LIMIT: '1mb' });
      try {
        const big = await call(gateway.url, 'POST', '/_bulk', { body: bulkOf(3 * 1024 * 1024), headers: NDJSON });
        expect(big.status, big.text.slice(0, 300)).to.equal(429);
        expect(big.json.error.type).to.equal('circuit_breaking_exception');
        expect(big.json.error.reason).to.match(/^\[in_flight_requests\] Data too large, data for \[<http_request>\] would be \[\d+\/[\d.]+(kb|mb)\], which is larger than the limit of \[1048576\/1mb\]$/);
        expect(big.json.error.durability).to.equal('TRANSIENT');
        const small = await call(gateway.url, 'POST', '/_bulk?refresh=true', { body: bulkOf(10_000), headers: NDJSON });
        expect(small.status, small.text.slice(0, 300)).to.equal(200);
        expect(small.json.errors).to.equal(false);
        // each answered request gives its bytes back: ten bodies of 600 KB, one after another, under a 1 MB limit
        for (let i = 0; i < 10; i++) {
          const next = await call(gateway.url, 'POST', '/_bulk', { body: bulkOf(600 * 1024), headers: NDJSON });
          expect(next.status, `request ${i}: ${next.text.slice(0, 200)}`).to.equal(200);
        }
      } finally {
        await stop();
      }
    });

    it('the parent breaker (indices.breaker.total.limit, on real memory) refuses a body when memory in use is over it', async () => {
      const { gateway, stop } = await backend.start({ INDICES_BREAKER_TOTAL_LIMIT: '1mb' });
      try {
        const refused = await call(gateway.url, 'POST', '/_search', { body: { query: { match_all: {} } } });
        expect(refused.status, refused.text.slice(0, 300)).to.equal(429);
        expect(refused.json.error.type).to.equal('circuit_breaking_exception');
        expect(refused.json.error.reason).to.match(/^\[parent\] Data too large, data for \[<http_request>\] would be \[.*\], which is larger than the limit of \[1048576\/1mb\], real usage: \[.*\], new bytes reserved: \[.*\], usages \[request=.*in_flight_requests=/);
        const root = await call(gateway.url, 'GET', '/');
        expect(root.status).to.equal(200);
      } finally {
        await stop();
      }
    });
  });
}

describe('circuit breakers (standalone engine)', function () {
  this.timeout(60_000);

  it('a body over its in-flight limit is answered 429 circuit_breaking_exception', async () => {
    await withStandaloneEngine({ NETWORK_BREAKER_INFLIGHT_REQUESTS_LIMIT: '1mb' }, async (engine) => {
      const big = await call(engine.url, 'POST', '/_bulk', { auth: null, body: bulkOf(3 * 1024 * 1024), headers: NDJSON });
      expect(big.status, big.text.slice(0, 300)).to.equal(429);
      expect(big.json.error.type).to.equal('circuit_breaking_exception');
      expect(big.json.error.reason).to.match(/^\[in_flight_requests\] Data too large/);
      const small = await call(engine.url, 'POST', '/_bulk', { auth: null, body: bulkOf(10_000), headers: NDJSON });
      expect(small.status).to.equal(200);
    });
  });
});
