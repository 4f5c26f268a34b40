import { expect } from 'chai';
import { LOOP_LIMIT_MESSAGE } from '../../../../lib/engine/embedded/painless/index.js';
import { BACKENDS } from '../../../support/backends.js';
import { call } from '../../../support/http.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/** Every run of a script is bounded: one step budget for the whole run, its time and its memory (issue 39). */
describe('painless: the bounds of a run', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const lines: unknown[] = [];
    for (let i = 0; i < 40; i++) lines.push({ index: { _index: 'docs', _id: String(i) } }, { n: i, tag: `t${i % 4}` });
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  const execute = (source: string) => es.call('POST', '/_scripts/painless/_execute', { script: { source } });

  async function runtimeCause(source: string): Promise<{ type: string; reason: string }> {
    const r = await execute(source);
    expect(r.status, r.text).to.equal(400);
    expect(r.json.error.type).to.equal('script_exception');
    expect(r.json.error.reason).to.equal('runtime error');
    return r.json.error.caused_by;
  }

  describe('one step budget for the whole run', () => {
    it('a loop calling a function that loops stops at the budget (10^6 steps, not 10^12)', async () => {
      const cause = await runtimeCause('long f(){long s=0;for(int i=0;i<999999;i++){s++}return s;} long t=0; for(int k=0;k<999999;k++){t+=f();} return t;');
      expect(cause).to.deep.equal({ type: 'painless_error', reason: LOOP_LIMIT_MESSAGE });
    });

    it('lambdas and the elements library methods walk count: nCopies with nested forEach, distinct on 10^5 items', async () => {
      const nested = await runtimeCause('long[] t = new long[1]; Collections.nCopies(1000, 1).forEach(x -> { Collections.nCopies(1000, 1).forEach(y -> { t[0]++ }) }); return t[0];');
      expect(nested.type).to.equal('painless_error');
      const distinct = await runtimeCause('List l = new ArrayList(); for (int i = 0; i < 100000; i++) { l.add(i) } return l.stream().distinct().count();');
      expect(distinct).to.deep.equal({ type: 'painless_error', reason: LOOP_LIMIT_MESSAGE });
    });

    it('a script below the budget still finishes, its calls and lambdas included', async () => {
      const r = await execute('long f(int n){long s=0;for(int i=0;i<n;i++){s++}return s;} long t=0; for(int k=0;k<300;k++){t+=f(1000);} List l = [1, 2, 3]; l.forEach(x -> { t += x }); return t;');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.result).to.equal('300006');
    });

    it('a script cannot catch the budget running out', async () => {
      const cause = await runtimeCause('int n = 0; try { while (true) { n++ } } catch (Exception e) { return -1 } return n;');
      expect(cause.type).to.equal('painless_error');
    });
  });

  describe('a script run on its own', () => {
    it('runs off the event loop: the engine answers other requests while it spends its whole budget', async () => {
      const order: string[] = [];
      const spin = execute('long t = 0; while (true) { t++ }').then((r) => {
        order.push('script');
        return r;
      });
      const root = await es.call('GET', '/');
      order.push('root');
      expect(root.status).to.equal(200);
      const r = await spin;
      expect(r.json.error.caused_by).to.deep.equal({ type: 'painless_error', reason: LOOP_LIMIT_MESSAGE });
      expect(order).to.deep.equal(['root', 'script']);
    });

    it('keeps its params and its result shape: Java toString of what it returns', async () => {
      const r = await es.call('POST', '/_scripts/painless/_execute', { script: { source: 'params.a * params.b + params.list.size()', params: { a: 6, b: 7, list: [1, 2] } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json).to.deep.equal({ result: '44' });
    });
  });

  describe('memory', () => {
    it('what a run builds is charged: a hundred 60 MB strings fail with circuit_breaking_exception', async () => {
      const cause = await runtimeCause('List l = new ArrayList(); for (int i = 0; i < 100; i++) { l.add("x".repeat(60000000)) } return l.size();');
      expect(cause.type).to.equal('circuit_breaking_exception');
      expect(cause.reason).to.match(/^\[script\] Data too large, data for \[painless allocations\] would be \[\d+\/[\d.]+mb\], which is larger than the limit of \[67108864\/64\.0mb\]$/);
    });

    it('a scripted_metric that keeps a new long[1e6] per document fails once its state outgrows the account', async () => {
      const r = await es.call('POST', '/docs/_search', {
        size: 0,
        aggs: {
          m: {
            scripted_metric: {
              init_script: 'state.kept = new ArrayList()',
              map_script: 'state.kept.add(new long[1000000])',
              combine_script: 'return state.kept.size()',
              reduce_script: 'int n = 0; for (s in states) { n += s } return n',
            },
          },
        },
      });
      expect(r.status, r.text).to.equal(429);
      expect(r.json.error.root_cause[0].type).to.equal('circuit_breaking_exception');
    });

    it("an array of a primitive type is charged its elements' width: 10^7 ints (40 MB) fit the 64 MB account, 10^7 longs (80 MB) do not", async () => {
      const ints = await execute('int[] a = new int[10000000]; a[9999999] = 7; return a.length + a[9999999];');
      expect(ints.status, ints.text).to.equal(200);
      expect(ints.json.result).to.equal('10000007');
      const longs = await runtimeCause('long[] a = new long[10000000]; return a.length;');
      expect(longs.type).to.equal('circuit_breaking_exception');
    });

    it('script_fields share one account across the hits: 40 MB per hit fails at the second', async () => {
      const r = await es.call('POST', '/docs/_search', { size: 3, script_fields: { big: { script: '"x".repeat(40000000)' } } });
      expect(r.status, r.text.slice(0, 2000)).to.equal(429);
      expect(r.json.error.root_cause[0].type).to.equal('circuit_breaking_exception');
      const small = await es.call('POST', '/docs/_search', { size: 3, sort: ['n'], script_fields: { s: { script: '"x".repeat(3)' } } });
      expect(small.status, small.text).to.equal(200);
      expect(small.json.hits.hits.map((h: { fields: { s: string[] } }) => h.fields.s[0])).to.deep.equal(['xxx', 'xxx', 'xxx']);
    });
  });

  describe('arrays of primitives, as Painless has them', () => {
    it('start zero-filled and hold values of their element type', async () => {
      const r = await execute("double[] d = new double[2]; char[] c = new char[1]; boolean[] b = new boolean[1]; byte[] y = new byte[1]; y[0] = (byte)127; y[0]++; "
        + "long[] l = new long[]{3L, 1L, 2L}; Arrays.sort(l); int[][] m = new int[2][3]; m[1][2] = 5; "
        + "return d[0] + ' ' + (int)c[0] + ' ' + b[0] + ' ' + y[0] + ' ' + Arrays.toString(l) + ' ' + m[1][2] + m[0].length + ' ' + d[-1] + ' ' + new long[1].toString().substring(0, 3);");
      expect(r.status, r.text).to.equal(200);
      expect(r.json.result).to.equal('0.0 0 false -128 [1, 2, 3] 53 0.0 [J@');
    });

    it("an index out of bounds is Java's ArrayIndexOutOfBoundsException (a negative one counted from the end first)", async () => {
      expect(await runtimeCause('long[] a = new long[2]; return a[5];')).to.deep.equal({ type: 'array_index_out_of_bounds_exception', reason: 'Index 5 out of bounds for length 2' });
      expect(await runtimeCause('def a = new int[2]; a[-3] = 1; return a;')).to.deep.equal({ type: 'array_index_out_of_bounds_exception', reason: 'Index -1 out of bounds for length 2' });
    });

    it('a script returns one as a list of its values', async () => {
      const r = await es.call('POST', '/docs/_search', { size: 1, sort: ['n'], script_fields: { a: { script: 'new long[]{1L, 2L}' }, d: { script: 'double[] d = new double[1]; d[0] = 1.5; return d' } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits[0].fields).to.deep.equal({ a: [1, 2], d: [1.5] });
    });
  });

  describe("per-document scripts and the search's timeout", () => {
    // Each run: ~900,000 steps, near the budget; 40 documents take far longer than the timeouts below.
    const loop = 'long s = 0; for (int i = 0; i < 900000; i++) { s += i % 3 }';
    const heavy = `${loop} return 1 + s % 2;`;

    it('script_score stops at the timeout and answers what it scored, timed_out: true', async () => {
      const r = await es.call('POST', '/docs/_search', { timeout: '1ms', query: { script_score: { query: { match_all: {} }, script: { source: heavy } } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.timed_out).to.equal(true);
      expect(r.json.hits.total.value).to.be.below(40);
    });

    it('a script query, a _script sort, a terms script, a runtime field and a scripted_metric do too', async () => {
      const bodies = [
        { query: { bool: { filter: { script: { script: `${loop} return s >= 0;` } } } } },
        { sort: { _script: { type: 'number', script: heavy, order: 'asc' } } },
        { size: 0, aggs: { t: { terms: { script: heavy } } } },
        { runtime_mappings: { r: { type: 'long', script: `${loop} emit(s % 2);` } }, query: { range: { r: { gte: 0 } } } },
        { size: 0, aggs: { m: { scripted_metric: { init_script: 'state.n = 0', map_script: `${loop} state.n += s % 2;`, combine_script: 'state.n', reduce_script: 'states.size()' } } } },
      ];
      for (const body of bodies) {
        const r = await es.call('POST', '/docs/_search', { timeout: '1ms', ...body });
        expect(r.status, `${JSON.stringify(body)}: ${r.text}`).to.equal(200);
        expect(r.json.timed_out, JSON.stringify(body)).to.equal(true);
      }
    });

    it('without a timeout the same search runs every document', async () => {
      const r = await es.call('POST', '/docs/_search', { size: 0, query: { script_score: { query: { range: { n: { lt: 3 } } }, script: { source: heavy } } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.timed_out).to.equal(false);
      expect(r.json.hits.total.value).to.equal(3);
    });
  });

  for (const backend of BACKENDS) {
    describe(`a script run on its own, through the gateway: ${backend.name}`, () => {
      let running: Awaited<ReturnType<typeof backend.start>>;
      before(async () => {
        running = await backend.start();
      });
      after(() => running.stop());

      it('answers its result, or the bound it reached, from the script thread', async () => {
        const ok = await call(running.gateway.url, 'POST', '/_scripts/painless/_execute', { body: { script: { source: 'params.n * 2.0', params: { n: 21 } } } });
        expect(ok.status, ok.text).to.equal(200);
        expect(ok.json).to.deep.equal({ result: '42.0' });
        const spin = await call(running.gateway.url, 'POST', '/_scripts/painless/_execute', { body: { script: { source: 'long t = 0; while (true) { t++ }' } } });
        expect(spin.status, spin.text).to.equal(400);
        expect(spin.json.error.caused_by).to.deep.equal({ type: 'painless_error', reason: LOOP_LIMIT_MESSAGE });
      });
    });
  }
});
