/**
 * HTTP_LARGE_BODY_RATE: past its first megabyte, a request body the node reads into its own memory
 * (to authorize, parse or index it) is read at the node's pace, all large bodies together; its
 * client is held back by TCP, not refused, and the slow-body watch does not count the wait
 * against it. Requests without a large body go on being answered meanwhile. On the gateway (both
 * backends) and the standalone engine.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { withStandaloneEngine } from '../support/servers.js';
import { registerPipeline } from '../pipelines/support.js';

/** 5 MB of search text: 4 MB over the first megabyte, which at 2 MB a second take 2 s to read (less the 0.1 s burst). */
const BIG_SEARCH = Buffer.from(JSON.stringify({ query: { match: { text: 'word '.repeat(1_000_000) } } }));
/** The pace the specs set, and the slow-body watch they set above it: a paced body that the watch blamed on its client would be cut. */
const PACED = { HTTP_LARGE_BODY_RATE: '2mb', HTTP_BODY_MIN_RATE: '3mb', HTTP_BODY_TIMEOUT_MS: '1000' };
/** The least time the paced body can take: 3.9 MB at 2 MB/s, less a margin for the timer's rounding. */
const AT_LEAST_MS = 1_800;

/** The big search, answered as Elasticsearch refuses a text of more words than max_clause_count allows. */
async function pacedSearch(url: string, auth?: null): Promise<number> {
  const began = performance.now();
  const res = await call(url, 'POST', '/_search', { body: BIG_SEARCH, ...(auth === null ? { auth } : {}) });
  expect(res.status, res.text.slice(0, 300)).to.equal(400);
  expect(res.json.error.type).to.equal('too_many_nested_clauses');
  return performance.now() - began;
}

for (const backend of BACKENDS) {
  describe(`large bodies are read at the node's pace (${backend.name})`, function () {
    this.timeout(60_000);

    it('a 5 MB search body at HTTP_LARGE_BODY_RATE=2mb takes ≥ 1.8 s, is not cut as slow, and GET / is answered before it ends', async () => {
      const { gateway, stop } = await backend.start(PACED);
      try {
        let bigDone = false;
        const big = pacedSearch(gateway.url).finally(() => (bigDone = true));
        // once the gateway reads the body (the client has begun sending), others are still answered
        const root = await call(gateway.url, 'GET', '/');
        expect(root.status).to.equal(200);
        expect(bigDone, 'GET / answered only after the paced body').to.equal(false);
        expect(await big).to.be.at.least(AT_LEAST_MS);
      } finally {
        await stop();
      }
    });

    it('a pipeline refused part way (a 4 MB script nested too deeply): the rest of its body is dropped at the pace, its first megabyte too', async () => {
      const { gateway, stop } = await backend.start(PACED);
      try {
        const deep = `function handleRequest() { return ${'('.repeat(2_000_000)}1${')'.repeat(2_000_000)}; }`;
        const began = performance.now();
        const refused = await registerPipeline(gateway.url, 'id: deep\nroutes: [{ path: /deep, method: POST }]\nstages:\n  - { id: deep, scriptRef: deep.js }\n', { 'deep.js': deep });
        const took = performance.now() - began;
        expect(refused.status).to.equal(400);
        expect(refused.json.error.reason).to.equal('stage [deep]: the script [deep.js] does not parse: the script is nested too deeply to compile (more than 1000 levels)');
        // refused within its first 100 KB; the ~3.9 MB after it at 2 MB/s: ≥ 1.8 s (paced only past
        // its first megabyte, it took ~1.5 s)
        expect(took).to.be.at.least(AT_LEAST_MS);
      } finally {
        await stop();
      }
    });
  });
}

describe("large bodies are read at the node's pace (standalone engine)", function () {
  this.timeout(60_000);

  it('a 5 MB search body at HTTP_LARGE_BODY_RATE=2mb takes ≥ 1.8 s and is not cut as slow', async () => {
    await withStandaloneEngine(PACED, async (engine) => {
      expect(await pacedSearch(engine.url, null)).to.be.at.least(AT_LEAST_MS);
    });
  });
});
