/**
 * A search's per-document script work is done a time slice at a time and within the search's
 * bounds (issues 38 and 39): the engine answers others meanwhile, a search without a `timeout`
 * runs every document, and what the scripts keep is held to a breaker. On both backends.
 */
import { expect } from 'chai';
import { expectAnsweredThroughout, readsDuring } from '../../../support/answered-meanwhile.js';
import { BACKENDS } from '../../../support/backends.js';
import { call, ndjson } from '../../../support/http.js';

/**
 * ~300,000 steps of Painless: a millisecond or so a document, longer than a slice of the event loop
 * only on a loaded machine. (900,000, near a run's budget, made this file 26 s of CPU, most of it
 * these loops: the work is no more sliced for being longer.)
 */
const LOOP = 'long s = 0; for (int i = 0; i < 300000; i++) { s += i % 3 }';
/** Documents enough for a second or more of such scripts. */
const DOCS = 300;

for (const backend of BACKENDS) {
  describe(`per-document search work yields and keeps its bounds (${backend.name})`, function () {
    this.timeout(180_000);
    let running: Awaited<ReturnType<typeof backend.start>>;
    let url: string;

    before(async () => {
      running = await backend.start();
      url = running.gateway.url;
      const created = await call(url, 'PUT', '/scripted', {
        body: {
          mappings: {
            runtime: { heavy: { type: 'long', script: { source: `${LOOP} emit(doc['n'].value % 3 + s - s);` } } },
            properties: { n: { type: 'long' } },
          },
        },
      });
      expect(created.status, created.text).to.equal(200);
      const lines: unknown[] = [];
      for (let i = 0; i < DOCS; i++) lines.push({ index: { _index: 'scripted', _id: String(i) } }, { n: i });
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: { 'content-type': 'application/x-ndjson' } });
      expect(bulk.json.errors, bulk.text.slice(0, 500)).to.equal(false);
      expect((await call(url, 'PUT', '/small/_doc/1?refresh=true', { body: { a: 1 } })).status).to.equal(201);
    });
    after(() => running.stop());

    it("a mapping's runtime field sorted on is computed a slice at a time, for every document", async () => {
      const during = await readsDuring(url, '/small/_doc/1', () => call(url, 'POST', '/scripted/_search', { body: { size: 4, sort: [{ heavy: 'desc' }, { n: 'asc' }] } }));
      expect(during.heavy.status, during.heavy.text.slice(0, 500)).to.equal(200);
      expect(during.heavy.json.timed_out).to.equal(false);
      expect(during.heavy.json.hits.hits.map((h: { _id: string; sort: number[] }) => [h._id, h.sort[0]])).to.deep.equal([['2', 2], ['5', 2], ['8', 2], ['11', 2]]);
      expectAnsweredThroughout(during, 'a sort on a runtime field of the mappings');
    });

    it("a mapping's runtime field in an aggregation, without a timeout, counts every document", async () => {
      const during = await readsDuring(url, '/small/_doc/1', () => call(url, 'POST', '/scripted/_search', { body: { size: 0, aggs: { t: { terms: { field: 'heavy' } } } } }));
      expect(during.heavy.status, during.heavy.text.slice(0, 500)).to.equal(200);
      expect(during.heavy.json.timed_out).to.equal(false);
      expect(during.heavy.json.aggregations.t.buckets).to.deep.equal([{ key: 0, doc_count: 100 }, { key: 1, doc_count: 100 }, { key: 2, doc_count: 100 }]);
      expectAnsweredThroughout(during, 'an aggregation on a runtime field of the mappings');
    });

    it("a mapping's runtime field stops at the search's timeout: timed_out, with what it reached", async () => {
      const r = await call(url, 'POST', '/scripted/_count', { body: { query: { range: { heavy: { gte: 1 } } } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.count).to.equal(200);
      const cut = await call(url, 'POST', '/scripted/_search', { body: { timeout: '1ms', size: 0, query: { range: { heavy: { gte: 1 } } } } });
      expect(cut.status, cut.text).to.equal(200);
      expect(cut.json.timed_out).to.equal(true);
      expect(cut.json.hits.total.value).to.be.below(200);
    });

    it('bucket_script and bucket_selector over many buckets run a slice at a time and, without a timeout, reach every bucket', async () => {
      const body = {
        size: 0,
        aggs: {
          h: {
            histogram: { field: 'n', interval: 1 },
            aggs: {
              top: { max: { field: 'n' } },
              twice: { bucket_script: { buckets_path: { x: 'top' }, script: `${LOOP} return params.x * 2 + s - s;` } },
              even: { bucket_selector: { buckets_path: { x: 'top' }, script: `${LOOP} return params.x % 2 == 0 && s >= 0;` } },
            },
          },
        },
      };
      // without a timeout, as Elasticsearch's default (-1) has it: the engine's own default (30 s of
      // wall-clock time) is one a loaded machine reaches before these scripts' CPU time is spent
      const settings = (value: string | null) => call(url, 'PUT', '/_cluster/settings', { body: { transient: { 'search.default_search_timeout': value } } });
      expect((await settings('-1')).status).to.equal(200);
      try {
        const during = await readsDuring(url, '/small/_doc/1', () => call(url, 'POST', '/scripted/_search', { body }));
        expect(during.heavy.status, during.heavy.text.slice(0, 500)).to.equal(200);
        expect(during.heavy.json.timed_out).to.equal(false);
        const buckets = during.heavy.json.aggregations.h.buckets as Array<{ key: number; twice: { value: number } }>;
        expect(buckets).to.have.length(DOCS / 2);
        expect(buckets.every((b) => b.key % 2 === 0 && b.twice.value === b.key * 2)).to.equal(true);
        expectAnsweredThroughout(during, 'bucket_script and bucket_selector over many buckets');
      } finally {
        await settings(null);
      }
    });

    it('aggregations run in passes answer what they answer in one piece (as a profiled search runs them)', async () => {
      // 300 terms × 200 histogram buckets, each with a metric and a parent pipeline: many passes (no
      // script: in one piece, scripts would be cut at MAX_SYNC_SCRIPT_MS on a busy machine)
      const aggs = {
        t: {
          terms: { field: 'n', size: DOCS },
          aggs: {
            h: {
              histogram: { field: 'n', interval: 1, min_doc_count: 0, extended_bounds: { min: 0, max: 199 } },
              aggs: { top: { max: { field: 'n' } }, running: { cumulative_sum: { buckets_path: 'top' } } },
            },
            total: { sum: { field: 'n' } },
          },
        },
        spread: { range: { field: 'n', ranges: [{ to: 100 }, { from: 100, to: 250 }, { from: 250 }] }, aggs: { top: { max: { field: 'n' } } } },
      };
      const passes = await call(url, 'POST', '/scripted/_search', { body: { size: 0, aggs } });
      const onePiece = await call(url, 'POST', '/scripted/_search', { body: { size: 0, profile: true, aggs } });
      expect(passes.status, passes.text.slice(0, 500)).to.equal(200);
      expect(onePiece.status, onePiece.text.slice(0, 500)).to.equal(200);
      expect([passes.json.timed_out, onePiece.json.timed_out]).to.deep.equal([false, false]);
      expect(passes.json.aggregations.t.buckets).to.have.length(DOCS);
      expect(passes.json.aggregations).to.deep.equal(onePiece.json.aggregations);
    });

    it('a scripted_metric keeping a new long[1e6] per document is refused by the breaker: 429 circuit_breaking_exception', async () => {
      const keep = (mapScript: string) => ({
        size: 0,
        aggs: { m: { scripted_metric: { init_script: 'state.kept = new ArrayList()', map_script: mapScript, combine_script: 'return state.kept.size()', reduce_script: 'long n = 0; for (s in states) { n += s } return n' } } },
      });
      const r = await call(url, 'POST', '/scripted/_search', { body: keep('state.kept.add(new long[1000000])') });
      expect(r.status, r.text.slice(0, 1000)).to.equal(429);
      expect(r.json.error.type).to.equal('search_phase_execution_exception');
      const [root] = r.json.error.root_cause;
      expect(root.type).to.equal('circuit_breaking_exception');
      expect(root.reason).to.match(/^\[script\] Data too large, data for \[painless allocations\] would be \[\d+\/[\d.]+mb\], which is larger than the limit of \[67108864\/64\.0mb\]$/);
      expect(root).to.include({ bytes_limit: 67108864, durability: 'TRANSIENT' });
      expect(r.json.error.failed_shards[0].reason.caused_by.type).to.equal('circuit_breaking_exception');
      // the same aggregation keeping little is answered
      const small = await call(url, 'POST', '/scripted/_search', { body: keep('state.kept.add(1)') });
      expect(small.status, small.text.slice(0, 500)).to.equal(200);
      expect(small.json.aggregations.m.value).to.equal(DOCS);
    });
  });
}
