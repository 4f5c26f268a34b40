import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/**
 * Scripts in aggregations: script values sources (`terms`/`sum`/`histogram`… with `script`, value
 * scripts with `_value`), `scripted_metric` and `moving_fn` scripts — with the reference pages' own
 * examples where they have one (the ledger of "Scripted metric aggregation").
 */
describe('embedded engine: scripts in aggregations', () => {
  let es: TestEngine;
  const aggs = (index: string, body: Record<string, unknown>, params = '') => aggregationsOf(es, index, body, params);
  const error = (index: string, body: Record<string, unknown>) => refusalOf(es, index, body);

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/ledger', { mappings: { properties: { type: { type: 'keyword' }, amount: { type: 'double' }, date: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss' } } } });
    const ledger = [[200, 'sale'], [10, 'expense'], [150, 'sale'], [50, 'expense'], [50, 'expense']];
    await es.call('POST', '/_bulk?refresh=true', ndjson(ledger.flatMap(([amount, type], i) => [
      { index: { _index: 'ledger', _id: String(i + 1) } }, { date: '2015/01/01 00:00:00', amount, type, description: `entry ${i}` },
    ])), { 'content-type': 'application/x-ndjson' });
    await es.call('PUT', '/sales', { mappings: { properties: { genre: { type: 'keyword' }, price: { type: 'long' }, qty: { type: 'integer' }, tags: { type: 'keyword' }, day: { type: 'date' } } } });
    const sales = [
      { genre: 'rock', price: 10, qty: 2, tags: ['a', 'b'], day: '2020-01-01' },
      { genre: 'jazz', price: 5, qty: 4, tags: ['b'], day: '2020-01-02' },
      { genre: 'rock', price: 20, qty: 1, day: '2020-01-03' },
      { genre: 'pop', price: 8, qty: 3, day: '2020-01-05' },
    ];
    await es.call('POST', '/_bulk?refresh=true', ndjson(sales.flatMap((doc, i) => [{ index: { _index: 'sales', _id: String(i + 1) } }, doc])), { 'content-type': 'application/x-ndjson' });
    await es.call('PUT', '/_scripts/revenue', { script: { lang: 'painless', source: "doc['price'].value * doc['qty'].value" } });
  });
  after(() => es.close());

  describe('script values sources', () => {
    it('terms on a script: keys are the strings the script returns (keywords by default)', async () => {
      const r = await aggs('sales', { size: 0, aggs: { g: { terms: { script: { source: "doc['genre'].value.toUpperCase()" } } }, q: { terms: { script: "doc['qty'].value" } } } });
      expect(r.g.buckets).to.deep.equal([{ key: 'ROCK', doc_count: 2 }, { key: 'JAZZ', doc_count: 1 }, { key: 'POP', doc_count: 1 }]);
      expect(r.q.buckets.map((b: { key: unknown }) => b.key)).to.deep.equal(['1', '2', '3', '4']);
    });

    it('a script returning a field\'s doc values gives every value of the document', async () => {
      const r = await aggs('sales', { size: 0, aggs: { t: { terms: { script: "doc['tags']" } } } });
      expect(r.t.buckets).to.deep.equal([{ key: 'b', doc_count: 2 }, { key: 'a', doc_count: 1 }]);
    });

    it('metrics on a script, inline or stored, with params', async () => {
      const r = await aggs('sales', {
        size: 0,
        aggs: {
          total: { sum: { script: { id: 'revenue' } } },
          avg_scaled: { avg: { script: { source: "doc['price'].value * params.rate", params: { rate: 0.5 } } } },
          most: { max: { script: "doc['price'].value * doc['qty'].value" } },
          n: { value_count: { script: "doc['genre'].value" } },
          distinct: { cardinality: { script: "doc['genre'].value" } },
        },
      });
      expect(r.total.value).to.equal(20 + 20 + 20 + 24);
      expect(r.avg_scaled.value).to.equal((10 + 5 + 20 + 8) / 2 / 4);
      expect(r.most.value).to.equal(24);
      expect(r.n.value).to.equal(4);
      expect(r.distinct.value).to.equal(3);
    });

    it('a value script reads each value of the field as _value', async () => {
      const r = await aggs('sales', { size: 0, aggs: { doubled: { sum: { field: 'price', script: { source: '_value * params.f', params: { f: 2 } } } } } });
      expect(r.doubled.value).to.equal(2 * (10 + 5 + 20 + 8));
    });

    it('histogram and range over a script', async () => {
      const r = await aggs('sales', {
        size: 0,
        aggs: {
          h: { histogram: { script: "doc['price'].value * doc['qty'].value", interval: 10 } },
          r: { range: { script: "doc['price'].value", ranges: [{ to: 10 }, { from: 10 }] } },
        },
      });
      expect(r.h.buckets).to.deep.equal([{ key: 20, doc_count: 4 }]);
      expect(r.r.buckets.map((b: { doc_count: number }) => b.doc_count)).to.deep.equal([2, 2]);
    });

    it('a script that fails at run time fails the search with a script_exception', async () => {
      const e = await error('sales', { size: 0, aggs: { t: { terms: { script: "doc['nope'].value" } } } }) as unknown as { type: string; root_cause: Array<{ type: string }> };
      expect(e.type).to.equal('search_phase_execution_exception');
      expect(e.root_cause[0].type).to.equal('script_exception');
    });

    it('a stored script that does not exist is a 404 resource_not_found_exception', async () => {
      const r = await es.call('POST', '/sales/_search', { size: 0, aggs: { t: { sum: { script: { id: 'missing-script' } } } } });
      expect(r.status).to.equal(404);
      expect(r.json.error.reason).to.equal('unable to find script [missing-script] in cluster state');
    });
  });

  describe('scripted_metric', () => {
    const PROFIT = {
      init_script: 'state.transactions = []',
      map_script: "state.transactions.add(doc.type.value == 'sale' ? doc.amount.value : -1 * doc.amount.value)",
      combine_script: 'double profit = 0; for (t in state.transactions) { profit += t } return profit',
      reduce_script: 'double profit = 0; for (a in states) { profit += a } return profit',
    };

    it('computes the reference page\'s profit (240.0)', async () => {
      const r = await aggs('ledger', { query: { match_all: {} }, size: 0, aggs: { profit: { scripted_metric: PROFIT } } }, '?typed_keys');
      expect(r).to.deep.equal({ 'scripted_metric#profit': { value: 240 } });
    });

    it('runs per bucket, with the aggregation\'s params, and returns lists and maps as JSON', async () => {
      const r = await aggs('ledger', {
        size: 0,
        aggs: {
          by_type: {
            terms: { field: 'type' },
            aggs: {
              amounts: {
                scripted_metric: {
                  params: { factor: 2 },
                  init_script: 'state.seen = []',
                  map_script: 'state.seen.add(doc.amount.value * params.factor)',
                  combine_script: 'return state.seen',
                  reduce_script: "def all = []; for (s in states) { all.addAll(s) } Collections.sort(all); return ['values': all, 'shards': states.size()]",
                },
              },
            },
          },
        },
      });
      expect(r.by_type.buckets).to.deep.equal([
        { key: 'expense', doc_count: 3, amounts: { value: { values: [20, 100, 100], shards: 1 } } },
        { key: 'sale', doc_count: 2, amounts: { value: { values: [300, 400], shards: 1 } } },
      ]);
    });

    it('an empty bucket still runs init, combine and reduce', async () => {
      const r = await aggs('ledger', { query: { term: { type: 'none' } }, size: 0, aggs: { profit: { scripted_metric: PROFIT } } });
      expect(r.profit.value).to.equal(0);
    });

    it('refuses a missing map, combine or reduce script, and a param given twice', async () => {
      const { combine_script: _c, ...noCombine } = PROFIT;
      expect(await error('ledger', { aggs: { profit: { scripted_metric: noCombine } } })).to.include({
        type: 'illegal_argument_exception', reason: '[combineScript] must not be null: [profit]',
      });
      const { reduce_script: _r, ...noReduce } = PROFIT;
      expect((await error('ledger', { aggs: { profit: { scripted_metric: noReduce } } })).reason).to.equal('[reduceScript] must not be null: [profit]');
      const twice = { ...PROFIT, params: { x: 1 }, map_script: { source: PROFIT.map_script, params: { x: 2 } } };
      expect((await error('ledger', { aggs: { profit: { scripted_metric: twice } } })).reason).to.equal('Parameter name "x" used in both aggregation and script parameters');
    });
  });

  describe('moving_fn scripts', () => {
    const histogram = (movingFn: Record<string, unknown>) => aggs('sales', {
      size: 0,
      aggs: {
        days: {
          date_histogram: { field: 'day', calendar_interval: '1d' },
          aggs: { revenue: { sum: { script: { id: 'revenue' } } }, moving: { moving_fn: { buckets_path: 'revenue', ...movingFn } } },
        },
      },
    });
    const movingValues = (r: { days: { buckets: Array<{ moving?: { value: unknown } }> } }) => r.days.buckets.map((b) => b.moving?.value);

    it('runs the script over the window before each bucket; an empty window is null; gaps get nothing', async () => {
      // Revenue per day: 20, 20, 20, (2020-01-04: no documents, a gap), 24.
      const r = await histogram({ window: 2, script: 'MovingFunctions.unweightedAvg(values)' });
      expect(movingValues(r)).to.deep.equal([null, 20, 20, undefined, 20]);
    });

    it('shift moves the window to include the current bucket', async () => {
      const r = await histogram({ window: 2, shift: 1, script: 'MovingFunctions.max(values)' });
      expect(movingValues(r)).to.deep.equal([20, 20, 20, undefined, 24]);
    });

    it('runs any Painless over `values` (a double[]) with the script\'s params', async () => {
      const r = await histogram({ window: 3, shift: 1, script: { source: 'values.length * params.k + MovingFunctions.sum(values)', params: { k: 1000 } } });
      expect(movingValues(r)).to.deep.equal([1020, 2040, 3060, undefined, 3064]);
    });

    it('has the reference\'s pre-built functions', async () => {
      const run = async (script: string) => movingValues(await histogram({ window: 4, shift: 1, script }));
      // Weights 1..n over 1 + n(n+1)/2, as Elasticsearch's MovingFunctions divides.
      expect(await run('MovingFunctions.linearWeightedAvg(values)')).to.deep.equal([20 / 2, 60 / 4, 120 / 7, undefined, (20 + 2 * 20 + 3 * 20 + 4 * 24) / 11]);
      expect(await run('MovingFunctions.stdDev(values, MovingFunctions.unweightedAvg(values))')).to.deep.equal([0, 0, 0, undefined, Math.sqrt((3 * 1 + 9) / 4)]);
      expect(await run('MovingFunctions.ewma(values, 0.5)')).to.deep.equal([20, 20, 20, undefined, 22]);
      expect(await run('MovingFunctions.holt(values, 0.5, 0.5)')).to.deep.equal([20, 20, 20, undefined, 22]);
      expect(await run('MovingFunctions.min(values)')).to.deep.equal([20, 20, 20, undefined, 20]);
    });

    it('Holt-Winters needs two periods of values, as Elasticsearch says', async () => {
      const r = await histogram({ window: 4, shift: 1, script: 'values.length < 4 ? 0 : MovingFunctions.holtWinters(values, 0.5, 0.5, 0.5, 2, false)' });
      expect(movingValues(r).slice(0, 3)).to.deep.equal([0, 0, 0]);
      expect(movingValues(r)[4]).to.be.a('number');
      const e = await error('sales', { size: 0, aggs: { d: { date_histogram: { field: 'day', calendar_interval: '1d' }, aggs: { s: { sum: { field: 'price' } }, m: { moving_fn: { buckets_path: 's', window: 4, shift: 1, script: 'MovingFunctions.holtWinters(values, 0.5, 0.5, 0.5, 2, false)' } } } } } });
      expect(JSON.stringify(e)).to.contain('Holt-Winters aggregation requires at least (2 * period == 2 * 2 == 4) data-points to function.  Only [1] were provided.');
    });

    it('refuses a window that is not a positive integer, and a missing script', async () => {
      const bad = await error('sales', { aggs: { d: { date_histogram: { field: 'day', calendar_interval: '1d' }, aggs: { s: { sum: { field: 'price' } }, m: { moving_fn: { buckets_path: 's', window: -1, script: 'MovingFunctions.max(values)' } } } } } });
      expect(bad.reason).to.equal('[window] must be a positive, non-zero integer.');
      const none = await error('sales', { aggs: { d: { date_histogram: { field: 'day', calendar_interval: '1d' }, aggs: { s: { sum: { field: 'price' } }, m: { moving_fn: { buckets_path: 's', window: 2 } } } } } });
      expect(none.reason).to.contain('[script]');
    });
  });
});
