/**
 * Large bodies on the whole request path (classification, change publishing, the engine, the
 * answer): other requests keep being answered while one is in flight, and what arrives is exact.
 */
import { expect } from 'chai';
import { Pool } from 'undici';
import { adminAuth } from '../support/http.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';

const JSON_HEADERS = { 'content-type': 'application/json', authorization: adminAuth() };

/** Sends `GET /` back to back until `until` settles; how many were answered meanwhile. */
async function answeredWhile(pool: Pool, until: Promise<unknown>): Promise<number> {
  let settled = false;
  void until.finally(() => (settled = true)).catch(() => {});
  let answered = 0;
  while (!settled) {
    const res = await pool.request({ method: 'GET', path: '/', headers: { authorization: adminAuth() } });
    await res.body.dump();
    if (res.statusCode === 200 && !settled) answered++;
  }
  return answered;
}

describe('gateway: large bodies do not hold other requests', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let pool: Pool;

  before(async () => {
    gw = await startTestGateway();
    pool = new Pool(gw.url, { connections: 4 });
  });
  after(async () => {
    await pool.close();
    await gw.close();
  });

  it('a 30 MB _bulk: GET / is answered many times while it runs, and its answer lists every item', async () => {
    const lines: string[] = [];
    let n = 0;
    for (let size = 0; size < 30 * 1024 * 1024; n++) {
      const action = JSON.stringify({ index: { _index: 'large-sink', _id: `b${n}` } });
      const source = JSON.stringify({ name: `package-${n}`, summary: `words about package ${n} and what it does`, n });
      lines.push(action, source);
      size += action.length + source.length + 2;
    }
    const bulk = (async () => {
      const res = await pool.request({ method: 'POST', path: '/_bulk', headers: { ...JSON_HEADERS, 'content-type': 'application/x-ndjson' }, body: lines.join('\n') + '\n', headersTimeout: 0, bodyTimeout: 0 });
      return { status: res.statusCode, json: (await res.body.json()) as { errors: boolean; items: Array<{ index: { _id: string; status: number } }> } };
    })();
    const answered = await answeredWhile(pool, bulk);
    const { status, json } = await bulk;
    expect(status).to.equal(200);
    expect(json.errors).to.equal(false);
    expect(json.items).to.have.length(n);
    expect(json.items[n - 1].index._id).to.equal(`b${n - 1}`);
    // the bulk takes seconds; held in one piece anywhere, GET / would wait for all of it
    expect(answered).to.be.greaterThan(20);
  });

  it('a 20 MB match text: GET / is answered while it is read, and the query is refused with too_many_nested_clauses', async () => {
    const words = Array.from({ length: 4_000_000 }, (_, i) => `w${i % 100_000}`).join(' ').slice(0, 20 * 1024 * 1024);
    const search = (async () => {
      const res = await pool.request({ method: 'POST', path: '/large-sink/_search', headers: JSON_HEADERS, body: JSON.stringify({ query: { match: { summary: words } } }), headersTimeout: 0, bodyTimeout: 0 });
      return { status: res.statusCode, json: (await res.body.json()) as { error?: { type: string } } };
    })();
    const answered = await answeredWhile(pool, search);
    const { status, json } = await search;
    expect(status).to.equal(400);
    expect(json.error?.type).to.equal('too_many_nested_clauses');
    expect(answered).to.be.greaterThan(2);
  });
});
