import { expect } from 'chai';
import WebSocket from 'ws';
import { BACKENDS } from '../support/backends.js';
import { basic, call, ndjson, NDJSON } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

/**
 * Review of this session's changes (h-rev3): a hostile tenant against `_cat/cluster_manager` and
 * `cluster_manager_timeout`, the document streams' shared rendering and WebSocket frames, shared
 * aggregation feeds, by-query tasks, Painless longs and typed arrays, and t-digest percentiles, on
 * both backends.
 *
 * Findings fixed (each spec fails on the code before the fix):
 * 1. A percentiles, percentile_ranks or median_absolute_deviation aggregation over a script that
 *    yields Double.NaN answered a 500 (the digest's RangeError); Elasticsearch's digest refuses NaN
 *    with an IllegalArgumentException, a 400.
 * 2. The values a script gives an aggregation were kept for every document with no account: a
 *    tenant's `avg` (or percentiles, terms…) over a script returning a 10^6-element list ran the
 *    engine out of heap (the standalone engine died at 300 documents; the embedded one is the
 *    gateway). They are now charged to one script memory account per aggregation: a 429.
 * 3. terms (and the grouping aggregations) told a document's distinct values apart by comparing
 *    each with all before it: one document with 10^6 values (a script's list, or a long array)
 *    blocked the engine's thread for hours, past any timeout.
 * The rest of the matrix held; the other `describe`s keep it so.
 */

const OWN = 'tenant-a';
const FOREIGN = 'tenant-b';
const HIDDEN = 'hidden-value-s4';

const CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative'];

for (const backend of BACKENDS) {
  describe(`review session 4: a hostile tenant against this session's changes (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    let engineCpuMs: (() => number | undefined) | undefined;
    /** Reads and writes OWN, `secret` hidden. */
    let ruled: string;
    /** Reads and writes OWN, every field. */
    let whole: string;

    before(async () => {
      ({ gateway: gw, stop, engineCpuMs } = await backend.start());
      const lines: unknown[] = [];
      for (let i = 0; i < 20; i++) lines.push({ index: { _index: OWN, _id: `n${i}` } }, { n: i, pub: `p${i}` });
      lines.push({ index: { _index: OWN, _id: 'doc' } }, { pub: 'p', secret: HIDDEN }, { index: { _index: FOREIGN, _id: '1' } }, { tag: 'foreign' });
      const bulk = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: ndjson(lines), headers: NDJSON });
      expect(bulk.status, bulk.text).to.equal(200);
      const make = async (body: Record<string, unknown>) => {
        const made = await call(gw.url, 'POST', '/_credentials', { body });
        expect(made.status, made.text).to.equal(201);
        return basic(made.json.credential.username, made.json.password);
      };
      ruled = await make({ indices: [OWN], categories: CATEGORIES, ops: ['read', 'write', 'delete'], exclude_fields: ['secret'], allow_raw_dsl: true });
      whole = await make({ indices: [OWN], categories: CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true });
    });
    after(() => stop?.());

    describe('1. a digest refuses NaN with a 400', () => {
      const nan = { script: { source: 'Double.NaN' } };
      for (const [name, agg] of [
        ['percentiles', { percentiles: nan }],
        ['percentile_ranks', { percentile_ranks: { ...nan, values: [1] } }],
        ['median_absolute_deviation', { median_absolute_deviation: nan }],
      ] as const) {
        it(`${name} over a script's Double.NaN`, async () => {
          const res = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: whole, body: { size: 0, aggs: { p: agg } } });
          expect(res.status, res.text).to.equal(400);
          expect(res.json.error.type, res.text).to.equal('illegal_argument_exception');
          expect(res.json.error.reason).to.equal('Cannot add NaN to t-digest');
        });
      }
    });

    describe("2. what a script gives an aggregation is held to the script memory limit", () => {
      it('an aggregation over a script giving each document 10^6 values trips the breaker (a 429), not the heap', async () => {
        // 10^6 values a document kept: past the 64 MB account at the 9th of 21 documents (the engine ran out of
        // heap at 300 documents of 10^6); the search's own timeout far off, and few documents' scripts (a copy of
        // nCopies, no interpreted loop) before the breaker, so that a loaded machine meets it long before the
        // 1 s a search's scripts may hold the loop in one piece (MAX_SYNC_SCRIPT_MS: 19 documents of 450,000 did not)
        const many = 'return new ArrayList(Collections.nCopies(1000000, 1))';
        for (const agg of [{ avg: { script: { source: many } } }, { percentiles: { script: { source: many } } }]) {
          const res = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: whole, body: { size: 0, timeout: '120s', aggs: { p: agg } } });
          expect(res.status, res.text.slice(0, 300)).to.equal(429);
          expect(res.json.error.root_cause[0].type).to.equal('circuit_breaking_exception');
        }
        expect((await call(gw.url, 'GET', `/${OWN}/_count`, { auth: whole })).status).to.equal(200);
      });
    });

    describe('3. terms count the distinct values of a document in time linear in them', () => {
      it("a terms aggregation over a script giving one document 60,000 values answers at once (each value was compared with all before it)", async () => {
        const cpuBefore = engineCpuMs?.();
        const res = await call(gw.url, 'POST', `/${OWN}/_search`, {
          auth: whole,
          body: { size: 0, query: { ids: { values: ['doc'] } }, aggs: { t: { terms: { size: 1, script: { source: 'def l = new ArrayList(); for (int i = 0; i < 60000; i++) { l.add(i); } return l' } } } } },
        });
        const cpuAfter = engineCpuMs?.();
        expect(res.status, res.text.slice(0, 300)).to.equal(200);
        expect(res.json.aggregations.t.sum_other_doc_count).to.equal(59_999);
        // the CPU time of the engine's thread, which load does not stretch as it stretches wall-clock
        // time: ~1.8·10^9 comparisons took seconds of it; a set takes milliseconds
        // (where the system does not tell, or the engine is not ours to read: the search's own took)
        const cost = cpuBefore === undefined || cpuAfter === undefined ? (res.json.took as number) : cpuAfter - cpuBefore;
        expect(cost, 'ms of the engine thread\'s CPU').to.be.below(1000);
      });
    });

    describe('held: _cat/cluster_manager and cluster_manager_timeout', () => {
      it('a scoped credential is refused the table in every spelling, and cluster_manager_timeout opens no other index', async () => {
        for (const path of [
          '/_cat/cluster_manager', '/_cat/cluster_manager?format=json&h=*', `/_cat/cluster_manager?index=${FOREIGN}`, `/_cat/cluster_manager/${FOREIGN}`,
          `/_cat/cluster_manager%2F..%2F${FOREIGN}`, '/_cat/cluster_manager?cluster_manager_timeout=1s', '/_CAT/cluster_manager',
        ]) {
          const res = await call(gw.url, 'GET', path, { auth: ruled });
          expect(res.status, `${path}: ${res.text}`).to.be.oneOf([400, 403, 404]);
          expect(res.text, path).not.to.match(/127\.0\.0\.1/);
        }
        for (const path of [`/${FOREIGN}/_mapping?cluster_manager_timeout=1s`, `/_cluster/health/${FOREIGN}?cluster_manager_timeout=1s`, `/${OWN},${FOREIGN}/_settings?cluster_manager_timeout=1s`]) {
          const res = await call(gw.url, 'GET', path, { auth: ruled });
          expect(res.status, `${path}: ${res.text}`).to.equal(403);
        }
        const cat = await call(gw.url, 'GET', '/_cat/indices?cluster_manager_timeout=1s&h=index', { auth: ruled });
        expect(cat.status, cat.text).to.equal(200);
        expect(cat.text.trim().split('\n')).to.deep.equal([OWN]);
        const admin = await call(gw.url, 'GET', '/_cat/cluster_manager?format=json');
        expect(admin.status, admin.text).to.equal(200);
      });
    });

    describe("held: a document's streams share a change's rendering only where they show the same", () => {
      it('a field-ruled HTTP stream opened after an unfiltered one (and an admin one) never shows the hidden field', async () => {
        const paths: Array<[string, string | undefined, string]> = [
          ['whole', whole, `/${OWN}/_doc/doc?stream=true`],
          ['admin', undefined, `/${OWN}/_doc/doc?stream=true`],
          ['ruled', ruled, `/${OWN}/_doc/doc?stream=true`],
          ['ruled _source=true', ruled, `/${OWN}/_doc/doc?stream=true&_source=true`],
          ['ruled _source_includes=secret', ruled, `/${OWN}/_doc/doc?stream=true&_source_includes=secret`],
          ['ruled typed', ruled, `/${OWN}/kind/doc?stream=true`],
          ['whole typed', whole, `/${OWN}/kind/doc?stream=true`],
        ];
        const streams = [];
        for (const [name, auth, path] of paths) {
          const s = await openStream(gw.url, path, { auth });
          await s.live;
          streams.push({ name, s });
        }
        try {
          const typed = await call(gw.url, 'PUT', `/${OWN}/kind/doc`, { body: { pub: 'typed', secret: `${HIDDEN}-typed` } });
          expect(typed.status, typed.text).to.be.oneOf([200, 201]);
          const put = await call(gw.url, 'PUT', `/${OWN}/_doc/doc`, { body: { pub: 'last', secret: `${HIDDEN}-last` } });
          expect(put.status, put.text).to.be.oneOf([200, 201]);
          for (const { name, s } of streams) {
            // every stream reflects both writes: its first state, the typed write, the last write (a delete for the typed ones)
            await s.until((m) => m.length >= 3);
            if (name.startsWith('ruled')) expect(s.raw(), name).not.to.include(HIDDEN);
            else expect(s.raw(), name).to.include(HIDDEN);
          }
        } finally {
          for (const { s } of streams) s.close();
        }
      });

      it('search streams (with a live aggregation) of the admin, a whole and a ruled credential on one query: the ruled one never shows the hidden field', async () => {
        for (const body of [{ query: { match_all: {} } }, { query: { range: { n: { gte: 0 } } }, aggs: { s: { sum: { field: 'n' } } } }]) {
          const streams = [];
          for (const [name, auth] of [['admin', undefined], ['whole', whole], ['ruled', ruled]] as const) {
            const s = await openStream(gw.url, `/${OWN}/_search?stream=true`, { auth, method: 'POST', body, accept: 'text/event-stream' });
            await s.live;
            streams.push({ name, s });
          }
          try {
            const put = await call(gw.url, 'PUT', `/${OWN}/_doc/searched`, { body: { n: 100, pub: 'searched', secret: `${HIDDEN}-search` } });
            expect(put.status, put.text).to.be.oneOf([200, 201]);
            for (const { name, s } of streams) {
              await s.until((m) => m.some((x) => x.data?._id === 'searched'));
              if (name === 'ruled') expect(s.raw(), name).not.to.include(HIDDEN);
              else expect(s.raw(), name).to.include(`${HIDDEN}-search`);
            }
          } finally {
            for (const { s } of streams) s.close();
            await call(gw.url, 'DELETE', `/${OWN}/_doc/searched?refresh=true`);
          }
        }
      });

      it("WebSocket subscriptions of two credentials to one document: each frame carries its own channel, the ruled one's no hidden field", async () => {
        const open = (auth: string) => new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(gw.url.replace(/^http/, 'ws') + '/' + OWN, { headers: { authorization: auth } });
          ws.once('open', () => resolve(ws)).once('error', reject);
        });
        const frames: Record<string, Array<Record<string, unknown>>> = { whole: [], ruled: [] };
        const sockets = { whole: await open(whole), ruled: await open(ruled) };
        try {
          // each frame received re-checks what the test waits for
          const waiters = new Set<() => void>();
          const until = (holds: () => boolean) => new Promise<void>((resolve) => {
            const check = () => holds() && (waiters.delete(check), resolve());
            waiters.add(check);
            check();
          });
          for (const name of ['whole', 'ruled'] as const) {
            sockets[name].on('message', (d) => {
              frames[name].push(JSON.parse(String(d)) as Record<string, unknown>);
              for (const check of [...waiters]) check();
            });
          }
          const has = (name: 'whole' | 'ruled', channel: string, what: 'live' | 'event') => frames[name].some((f) => f.channel === channel && f[what] !== undefined);
          sockets.whole.send(JSON.stringify({ id: 'w1', path: `${OWN}/_doc/doc?stream=true`, method: 'GET' }));
          sockets.ruled.send(JSON.stringify({ id: 'r1', path: `${OWN}/_doc/doc?stream=true`, method: 'GET' }));
          sockets.ruled.send(JSON.stringify({ id: 'r2', path: `${OWN}/_doc/doc?stream=true&_source_excludes=pub`, method: 'GET' }));
          await until(() => has('whole', 'w1', 'live') && has('ruled', 'r1', 'live') && has('ruled', 'r2', 'live'));
          const put = await call(gw.url, 'PUT', `/${OWN}/_doc/doc`, { body: { pub: 'ws', secret: `${HIDDEN}-ws` } });
          expect(put.status, put.text).to.be.oneOf([200, 201]);
          await until(() => has('whole', 'w1', 'event') && has('ruled', 'r1', 'event') && has('ruled', 'r2', 'event'));
          expect(JSON.stringify(frames.whole)).to.include(`${HIDDEN}-ws`);
          expect(JSON.stringify(frames.ruled)).not.to.include(HIDDEN);
          expect(new Set(frames.whole.map((f) => f.channel))).to.deep.equal(new Set(['w1']));
          expect(new Set(frames.ruled.map((f) => f.channel))).to.deep.equal(new Set(['r1', 'r2']));
          const r2 = frames.ruled.find((f) => f.channel === 'r2' && f.event !== undefined)!;
          expect((r2.event as { _source: unknown })._source).to.deep.equal({});
        } finally {
          sockets.whole.close();
          sockets.ruled.close();
        }
      });
    });

    describe('held: a shared aggregation feed reaches no credential that may not see its answer', () => {
      it("the ruled credential cannot join a whole credential's live top_hits (or an aggregation of the hidden field)", async () => {
        const shown = await openStream(gw.url, `/${OWN}/_search?stream=true`, { auth: whole, method: 'POST', body: { size: 0, aggs: { h: { top_hits: { size: 50 } } } } });
        await shown.live;
        try {
          for (const aggs of [{ h: { top_hits: { size: 50 } } }, { s: { terms: { field: 'secret.keyword' } } }, { t: { terms: { field: 'pub.keyword' }, aggs: { h: { top_hits: {} } } } }]) {
            const res = await call(gw.url, 'POST', `/${OWN}/_search?stream=true`, { auth: ruled, body: { size: 0, aggs } });
            expect(res.status, res.text).to.equal(403);
            expect(res.text).not.to.include(HIDDEN);
          }
        } finally {
          shown.close();
        }
      });
    });

    describe("held: a tenant's by-query task reaches no other index, and the admin's tasks are not the tenant's", () => {
      it('task APIs and by-query/reindex reaching another index are refused', async () => {
        const task = await call(gw.url, 'POST', `/${FOREIGN}/_update_by_query?wait_for_completion=false&requests_per_second=1`, { body: { script: { source: 'ctx._source.z = 1' } } });
        expect(task.status, task.text).to.equal(200);
        const id = task.json.task as string;
        const attempts: Array<[string, string, unknown?]> = [
          ['GET', `/_tasks/${id}`], ['GET', '/_tasks?detailed=true'], ['POST', `/_tasks/${id}/_cancel`],
          ['POST', `/_update_by_query/${id}/_rethrottle?requests_per_second=-1`], ['GET', '/_cat/tasks'],
          ['POST', `/${OWN}/_update_by_query?wait_for_completion=false`, { query: { terms: { pub: { index: FOREIGN, id: '1', path: 'tag' } } } }],
          ['POST', '/_reindex?wait_for_completion=false', { source: { index: FOREIGN }, dest: { index: OWN } }],
          ['POST', '/_reindex?wait_for_completion=false', { source: { index: OWN }, dest: { index: FOREIGN } }],
          ['POST', `/${OWN},${FOREIGN}/_delete_by_query?wait_for_completion=false`, { query: { match_all: {} } }],
        ];
        for (const [method, path, body] of attempts) {
          const res = await call(gw.url, method, path, { auth: ruled, body });
          expect(res.status, `${method} ${path}: ${res.text}`).to.equal(403);
        }
        expect((await call(gw.url, 'POST', `/_tasks/${id}/_cancel`)).status).to.equal(200);
        const count = await call(gw.url, 'GET', `/${FOREIGN}/_count`);
        expect(count.json.count, count.text).to.equal(1);
      });
    });

    describe('held: Painless longs and typed arrays answer 4xx, never 5xx', () => {
      const scripts = [
        'long a = Long.MIN_VALUE; return a / -1;', 'long a = 9007199254740993L; return a << 64;', 'def a = 9007199254740993L; return a & 1.5;',
        'def a = 9007199254740993L; return a ^ true;', 'def a = 9007199254740993L; return a / 0;', 'long a = 9007199254740993L; return a % 0L;',
        'def a = 9007199254740993L; return a > "x";', 'def a = 9007199254740993L; a <<= 2.0; return a;', 'return 9223372036854775808L;',
        'long[] x = new long[2147483647]; return x.length;', 'long[] x = new long[-1]; return 1;', 'double[][] x = new double[100000][100000]; return 1;',
        'def x = new long[9007199254740993L]; return 1;', 'long[] x = new long[2]; def v = [1]; x[0] = v; return x;', 'int[] x = new int[2]; def v = null; x[0] = v; return x;',
        'char[] x = new char[2]; def v = 9007199254740993L; x[0] = v; return x;', 'def x = new long[2]; x[9007199254740993L] = 1; return x;',
        'return Long.parseLong("99999999999999999999");', 'def a = 9007199254740993L; return (String) a;', 'def a = 9007199254740993L; return a ? 1 : 2;',
        'long a = 1L; for (int i = 0; i < 100000000; i++) a = a * 3 + 9007199254740993L; return a;',
      ];
      it('each script in _execute and in script_fields', async () => {
        for (const source of scripts) {
          const run = await call(gw.url, 'POST', '/_scripts/painless/_execute', { body: { script: { source } } });
          expect(run.status, `${source}: ${run.text.slice(0, 300)}`).to.be.within(200, 499);
          const fields = await call(gw.url, 'POST', `/${OWN}/_search`, { auth: whole, body: { size: 1, script_fields: { x: { script: { source } } } } });
          expect(fields.status, `${source}: ${fields.text.slice(0, 300)}`).to.be.within(200, 499);
        }
        expect((await call(gw.url, 'GET', '/')).status).to.equal(200);
      });
    });
  });
}
