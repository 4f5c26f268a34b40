import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';
import { readBody } from '../../../lib/engine/index.js';

const DOCS = 10_000;
/** Each document repeats the phrase: a phrase query reads 100 positions a term in every document (tens of ms in all). */
const TEXT = 'alpha beta '.repeat(100);
const SLOW_QUERY = { match_phrase: { t: { query: 'alpha beta alpha beta', slop: 3 } } };

function bulkBody(from: number, n: number, text: string): string {
  const lines: string[] = [];
  for (let i = from; i < from + n; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ t: text }));
  return lines.join('\n') + '\n';
}

describe('embedded engine: cooperative work (timeouts, event-loop turns)', () => {
  let es: TestEngine;

  /** A request through the engine in this process (no HTTP): what it answers, and when. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function direct(method: string, path: string, body?: unknown): Promise<{ status: number; json: any; at: number }> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await es.engine.request({ method, path, body: payload, headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json' } });
    const at = performance.now();
    // a large answer (the bulk's) is a stream written as it is read
    return { status: res.status, json: JSON.parse((await readBody(res.body)).toString('utf8')), at };
  }

  before(async function () {
    this.timeout(120_000);
    es = await startEngine();
    expect((await es.call('PUT', '/coop', { mappings: { properties: { t: { type: 'text' } } } })).status).to.equal(200);
    for (let from = 0; from < DOCS; from += 2000) {
      const r = await es.call('POST', '/coop/_bulk', bulkBody(from, 2000, TEXT), { 'content-type': 'application/x-ndjson' });
      expect(r.json.errors).to.equal(false);
    }
    await es.call('POST', '/coop/_refresh');
  });
  after(() => es.close());

  it('a search past its timeout answers 200, timed_out: true, with the hits collected so far', async () => {
    const r = await es.call('POST', '/coop/_search', { timeout: '1ms', query: SLOW_QUERY, size: 3, track_total_hits: true });
    expect(r.status, r.text.slice(0, 300)).to.equal(200);
    expect(r.json.timed_out).to.equal(true);
    expect(r.json.hits.total.value).to.be.above(0).and.below(DOCS);
    expect(r.json.hits.hits).to.have.length(3);
    // The URL's timeout too, and the whole answer without one.
    const url = await es.call('POST', '/coop/_search?timeout=1ms', { query: SLOW_QUERY, size: 0 });
    expect(url.json.timed_out).to.equal(true);
    const full = await es.call('POST', '/coop/_search', { query: SLOW_QUERY, size: 0, track_total_hits: true });
    expect(full.json.timed_out).to.equal(false);
    expect(full.json.hits.total.value).to.equal(DOCS);
  });

  it('a fast search answers timed_out: false; a timeout that is not a time value is refused', async () => {
    const r = await es.call('POST', '/coop/_search', { timeout: '10s', query: { ids: { values: ['1'] } } });
    expect(r.json.timed_out).to.equal(false);
    expect(r.json.hits.total.value).to.equal(1);
    const bad = await es.call('POST', '/coop/_search', { timeout: '10', query: { match_all: {} } });
    expect(bad.status).to.equal(400);
    expect(bad.json.error.reason).to.contain('failed to parse setting [timeout] with value [10] as a time value');
  });

  it('search.default_search_timeout, set as a dynamic cluster setting, is the budget of searches that name none', async () => {
    try {
      const set = await es.call('PUT', '/_cluster/settings', { transient: { search: { default_search_timeout: '1ms' } } });
      expect(set.status, set.text).to.equal(200);
      const r = await es.call('POST', '/coop/_search', { query: SLOW_QUERY, size: 0, track_total_hits: true });
      expect(r.json.timed_out).to.equal(true);
      expect(r.json.hits.total.value).to.be.below(DOCS);
      // a search's own timeout wins; -1 is no budget at all
      const own = await es.call('POST', '/coop/_search', { timeout: '10s', query: SLOW_QUERY, size: 0, track_total_hits: true });
      expect(own.json.timed_out).to.equal(false);
      await es.call('PUT', '/_cluster/settings', { transient: { 'search.default_search_timeout': '-1' } });
      const none = await es.call('POST', '/coop/_search', { query: SLOW_QUERY, size: 0, track_total_hits: true });
      expect(none.json.timed_out).to.equal(false);
      expect(none.json.hits.total.value).to.equal(DOCS);
      const bad = await es.call('PUT', '/_cluster/settings', { persistent: { 'search.default_search_timeout': 'soon' } });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.equal('failed to parse setting [search.default_search_timeout] with value [soon] as a time value: unit is missing or unrecognized');
    } finally {
      await es.call('PUT', '/_cluster/settings', { transient: { 'search.default_search_timeout': null } });
    }
  });

  it("OpenSearch's cancel_after_time_interval: a search that runs longer fails as its cancelled task (500, task_cancelled_exception); a faster one answers", async () => {
    const cancelled = (r: { status: number; json: any }, interval: string) => {
      expect(r.status, JSON.stringify(r.json).slice(0, 300)).to.equal(500);
      expect(r.json.error.type).to.equal('search_phase_execution_exception');
      expect(r.json.error.phase).to.equal('query');
      const reason = `cancelled task with reason: Cancellation timeout of ${interval} is expired`;
      expect(r.json.error.root_cause).to.deep.equal([{ type: 'task_cancelled_exception', reason }]);
      expect(r.json.error.failed_shards[0].reason).to.deep.equal({ type: 'task_cancelled_exception', reason });
    };
    cancelled(await es.call('POST', '/coop/_search?cancel_after_time_interval=1ms', { query: SLOW_QUERY, size: 3, track_total_hits: true }), '1ms');
    const fast = await es.call('POST', '/coop/_search?cancel_after_time_interval=10s', { query: { ids: { values: ['1'] } } });
    expect(fast.status).to.equal(200);
    expect(fast.json.hits.total.value).to.equal(1);
    // a multi search's: each search its own, from the URL or its header; the others answer
    const ms = await es.call('POST', '/_msearch?cancel_after_time_interval=1ms', [
      JSON.stringify({ index: 'coop' }), JSON.stringify({ query: SLOW_QUERY, size: 0 }),
      JSON.stringify({ index: 'coop', cancel_after_time_interval: '1m' }), JSON.stringify({ query: { ids: { values: ['2'] } } }),
    ].join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
    expect(ms.status).to.equal(200);
    cancelled({ status: ms.json.responses[0].status, json: ms.json.responses[0] }, '1ms');
    expect(ms.json.responses[1].status).to.equal(200);
    expect(ms.json.responses[1].hits.total.value).to.equal(1);
    // the dynamic cluster setting, for searches that name none; the search's own wins
    try {
      expect((await es.call('PUT', '/_cluster/settings', { transient: { 'search.cancel_after_time_interval': '1500ms' } })).status).to.equal(200);
      const own = await es.call('POST', '/coop/_search?cancel_after_time_interval=1ms', { query: SLOW_QUERY, size: 0 });
      cancelled(own, '1ms');
      const unset = await es.call('POST', '/coop/_search', { query: { ids: { values: ['1'] } } });
      expect(unset.status).to.equal(200);
      const bad = await es.call('PUT', '/_cluster/settings', { transient: { 'search.cancel_after_time_interval': 'soon' } });
      expect(bad.status).to.equal(400);
    } finally {
      await es.call('PUT', '/_cluster/settings', { transient: { 'search.cancel_after_time_interval': null } });
    }
  });

  it('while a slow search runs, a document GET on the same engine is answered first', async () => {
    const order: string[] = [];
    const search = direct('POST', '/coop/_search', { query: { bool: { should: [SLOW_QUERY, { match_phrase: { t: 'beta alpha beta' } }] } }, size: 0 })
      .then((r) => (order.push('search'), r));
    const get = direct('GET', '/coop/_doc/1').then((r) => (order.push('get'), r));
    const [s, g] = await Promise.all([search, get]);
    expect(g.status).to.equal(200);
    expect(s.json.timed_out).to.equal(false);
    expect(s.json.hits.total.value).to.equal(DOCS);
    expect(order).to.deep.equal(['get', 'search']);
  });

  it('while a 20 MB _bulk is prepared, a document GET on the same engine is answered long before it', async function () {
    this.timeout(120_000);
    const body = bulkBody(DOCS, 20_000, 'gamma delta '.repeat(90));
    expect(body.length).to.be.above(20 * 1024 * 1024);
    const order: string[] = [];
    const started = performance.now();
    const bulk = direct('POST', '/coop/_bulk', body).then((r) => (order.push('bulk'), r));
    const get = direct('GET', '/coop/_doc/1').then((r) => (order.push('get'), r));
    const [b, g] = await Promise.all([bulk, get]);
    expect(b.json.errors).to.equal(false);
    expect(g.status).to.equal(200);
    expect(order).to.deep.equal(['get', 'bulk']);
    // Not merely first because the bulk waits for its last commit: answered in the first slices of the preparation.
    expect(g.at - started).to.be.below((b.at - started) / 4);
  });

  it('a match query of 20 MB of text is refused with too_many_nested_clauses', async () => {
    const text = 'word '.repeat(4 * 1024 * 1024);
    const r = await es.call('POST', '/coop/_search', { query: { match: { t: text } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('too_many_nested_clauses');
  });
});
