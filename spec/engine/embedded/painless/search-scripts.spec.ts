import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

describe('painless: scripts in searches', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/nums', { mappings: { properties: { num1: { type: 'long' }, 'my-int': { type: 'integer' }, price: { type: 'double' }, message: { type: 'text' }, tag: { type: 'keyword' } } } });
    await es.call('POST', '/_bulk?refresh=true', ndjson([
      { index: { _index: 'nums', _id: '1' } }, { num1: 1, 'my-int': 15, price: 10.0, message: 'elasticsearch rocks', tag: 'a' },
      { index: { _index: 'nums', _id: '2' } }, { num1: 2, 'my-int': 7, price: 2.5, message: 'elasticsearch is a search engine', tag: 'b' },
      { index: { _index: 'nums', _id: '3' } }, { num1: 8, 'my-int': 30, price: 4, message: 'something else', tag: 'c' },
      { index: { _index: 'nums', _id: '4' } }, { message: 'no numbers here' },
    ]));
  });
  after(() => es.close());

  const ids = (r: { json: { hits: { hits: Array<{ _id: string }> } } }) => r.json.hits.hits.map((h) => h._id);
  const search = (body: unknown, index = 'nums') => es.call('POST', `/${index}/_search`, body);

  describe('the script query', () => {
    it("filters by a script over doc values (the reference page's examples)", async () => {
      let r = await search({ query: { bool: { filter: { script: { script: { source: "doc['num1'].size() > 0 && doc['num1'].value > 1", lang: 'painless' } } } } } });
      expect(r.status, r.text).to.equal(200);
      expect(ids(r).sort()).to.deep.equal(['2', '3']);
      r = await search({ query: { bool: { filter: { script: { script: { source: "!doc['num1'].empty && doc['num1'].value > params.param1", lang: 'painless', params: { param1: 5 } } } } } } });
      expect(ids(r)).to.deep.equal(['3']);
    });

    it("ES 8's field API: field('f').get(default), an unmapped field is empty", async () => {
      let r = await search({ query: { script: { script: "field('num1').get(0) >= 2" } } });
      expect(r.status, r.text).to.equal(200);
      expect(ids(r).sort()).to.deep.equal(['2', '3']);
      r = await search({ query: { script: { script: "field('nope').isEmpty() && field('num1').size() == 0" } } });
      expect(ids(r)).to.deep.equal(['4']);
    });

    it('scores boost as a constant, and combines with other clauses', async () => {
      const r = await search({ query: { bool: { must: [{ match: { message: 'elasticsearch' } }], filter: [{ script: { script: "doc['tag'].value != 'a'" } }] } } });
      expect(ids(r)).to.deep.equal(['2']);
      const s = await search({ query: { script: { script: "doc['num1'].size() == 0", boost: 2 } } });
      expect(s.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).to.deep.equal([['4', 2]]);
    });

    it("reading a missing value, an unmapped field or a text field fails the search as ES does", async () => {
      let r = await search({ query: { script: { script: "doc['num1'].value > 1" } } });
      expect(r.status).to.equal(400);
      expect(r.json.error).to.deep.include({ type: 'search_phase_execution_exception', reason: 'all shards failed', phase: 'query', grouped: true });
      expect(r.json.error.root_cause[0]).to.deep.include({ type: 'script_exception', reason: 'runtime error' });
      expect(r.json.error.failed_shards[0].reason.caused_by).to.deep.equal({
        type: 'illegal_state_exception', reason: "A document doesn't have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!",
      });
      r = await search({ query: { script: { script: "doc['nope'].value > 1" } } });
      expect(r.json.error.failed_shards[0].reason.caused_by.reason).to.equal('No field found for [nope] in mapping');
      r = await search({ query: { script: { script: "doc['message'].value == 'x'" } } });
      expect(r.json.error.failed_shards[0].reason.caused_by.reason).to.match(/^Fielddata is disabled on \[message\] in \[nums\]/);
      r = await search({ query: { script: { script: 'doc[' } } });
      expect(r.json.error.root_cause[0]).to.deep.include({ type: 'script_exception', reason: 'compile error' });
    });
  });

  describe('script_score', () => {
    it("scores with a script: the reference page's doc['my-int'].value / 10 (integer division)", async () => {
      const r = await search({ query: { script_score: { query: { match: { message: 'elasticsearch' } }, script: { source: "doc['my-int'].value / 10 " } } } });
      expect(r.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).to.deep.equal([['1', 1], ['2', 0]]);
    });

    it('_score is the inner query\'s score; params, boost and min_score apply', async () => {
      const plain = await search({ query: { match: { message: 'elasticsearch' } } });
      const inner = Object.fromEntries(plain.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]));
      const r = await search('{"query": {"script_score": {"query": {"match": {"message": "elasticsearch"}}, "script": {"source": "_score * params.f", "params": {"f": 2.0}}, "boost": 3}}}');
      for (const h of r.json.hits.hits) expect(h._score).to.be.closeTo(inner[h._id] * 6, 1e-5);
      const m = await search({ query: { script_score: { query: { exists: { field: 'num1' } }, script: "doc['num1'].value", min_score: 2 } } });
      expect(ids(m)).to.deep.equal(['3', '2']);
    });

    it('the predefined functions: saturation, sigmoid, randomScore, decays', async () => {
      const score = async (source: string, params?: unknown) => {
        const r = await search({ query: { script_score: { query: { ids: { values: ['3'] } }, script: { source, params } } } });
        expect(r.status, r.text).to.equal(200);
        return r.json.hits.hits[0]._score;
      };
      expect(await score("saturation(doc['my-int'].value, 1)")).to.be.closeTo(30 / 31, 1e-6);
      expect(await score("sigmoid(doc['my-int'].value, 2, 1)")).to.be.closeTo(30 / 32, 1e-6);
      const random = await score('randomScore(100)');
      expect(random).to.be.within(0, 1);
      expect(await score('randomScore(100)')).to.equal(random);
      expect(await score("randomScore(100, '_seq_no')")).to.be.within(0, 1);
      expect(await score("decayNumericLinear(params.origin, params.scale, params.offset, params.decay, doc['num1'].value)", { origin: 10, scale: 4, offset: 0, decay: 0.5 }))
        .to.be.closeTo(0.75, 1e-6);
      expect(await score("decayNumericGauss(params.origin, params.scale, params.offset, params.decay, doc['num1'].value)", { origin: 8, scale: 1, offset: 0, decay: 0.5 }))
        .to.be.closeTo(1, 1e-6);
    });

    it('explanation is null outside explain (the reference page\'s explain example runs)', async () => {
      const source = "long count = doc['my-int'].value; double normalized = count / 10; if (explanation != null) { explanation.set('x') } return normalized;";
      const r = await search({ query: { script_score: { query: { exists: { field: 'my-int' } }, script: { source } } } });
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits.map((h: { _score: number }) => h._score)).to.deep.equal([3, 1, 0]);
    });

    it('a negative score is refused', async () => {
      const r = await search({ query: { script_score: { query: { match_all: {} }, script: '-1' } } });
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.match(/^script_score script returned an invalid score \[-1.0\] for doc \[\d+\]\. Must be a non-negative score!$/);
    });

    it('function_score takes a script_score function', async () => {
      const r = await search({ query: { function_score: { query: { exists: { field: 'num1' } }, script_score: { script: "doc['num1'].value * 2" }, boost_mode: 'replace' } } });
      expect(r.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).to.deep.equal([['3', 16], ['2', 4], ['1', 2]]);
    });
  });

  describe('script_fields', () => {
    it("computes fields per hit (the reference page's examples)", async () => {
      const r = await search('{"query": {"ids": {"values": ["1", "2"]}}, "sort": ["num1"], "script_fields": {' +
        '"test1": {"script": {"lang": "painless", "source": "doc[\'price\'].value * 2"}},' +
        '"test2": {"script": {"lang": "painless", "source": "doc[\'price\'].value * params.factor", "params": {"factor": 2.0}}},' +
        '"msg": {"script": "params[\'_source\'][\'message\']"}}}');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits.map((h: { fields: unknown }) => h.fields)).to.deep.equal([
        { test1: [20], test2: [20], msg: ['elasticsearch rocks'] },
        { test1: [5], test2: [5], msg: ['elasticsearch is a search engine'] },
      ]);
      // As in ES, script_fields without an explicit _source leave _source out.
      expect(r.json.hits.hits[0]).to.not.have.property('_source');
      const withSource = await search({ query: { ids: { values: ['1'] } }, _source: ['tag'], script_fields: { one: { script: '1' } } });
      expect(withSource.json.hits.hits[0]).to.deep.include({ _source: { tag: 'a' }, fields: { one: [1] } });
    });

    it('at most index.max_script_fields (32) of them', async () => {
      const script_fields = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, { script: String(i) }]));
      const r = await search({ script_fields });
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.equal('Trying to retrieve too many script_fields. Must be less than or equal to: [32] but was [33]. This limit can be set by changing the [index.max_script_fields] index level setting.');
    });

    it('a List result gives several values; ignore_failure leaves a failing field out', async () => {
      const r = await search({
        query: { ids: { values: ['3', '4'] } }, sort: ['_doc'],
        script_fields: { pair: { script: "[doc['tag'].value, 1]", ignore_failure: true }, all: { script: "doc['tag']" } },
      });
      expect(r.json.hits.hits.map((h: { fields: unknown }) => h.fields)).to.deep.equal([{ pair: ['c', 1], all: ['c'] }, { all: [] }]);
    });
  });

  describe('_script sort', () => {
    it("sorts by a number or a string a script computes (the reference page's example)", async () => {
      let r = await search('{"query": {"exists": {"field": "num1"}}, "sort": {"_script": {"type": "number", "script": {"lang": "painless", "source": "doc[\'my-int\'].value * params.factor", "params": {"factor": 1.1}}, "order": "asc"}}}');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits.map((h: { _id: string; sort: number[] }) => [h._id, Math.round(h.sort[0] * 10) / 10])).to.deep.equal([['2', 7.7], ['1', 16.5], ['3', 33]]);
      r = await search({ query: { exists: { field: 'tag' } }, sort: { _script: { type: 'string', script: "doc['tag'].value == 'b' ? 'a' : 'z' + doc['tag'].value", order: 'asc' } } });
      expect(r.json.hits.hits.map((h: { sort: string[] }) => h.sort[0])).to.deep.equal(['a', 'za', 'zc']);
      r = await search({ sort: { _script: { type: 'numbr', script: '1' } } });
      expect(r.status).to.equal(400);
    });
  });

  describe('runtime fields', () => {
    before(async () => {
      await es.call('PUT', '/logs', { mappings: { properties: { '@timestamp': { type: 'date' }, measures: { properties: { voltage: { type: 'double' } } }, model: { type: 'keyword' } } } });
      await es.call('POST', '/_bulk?refresh=true', ndjson([
        { index: { _index: 'logs', _id: '1' } }, { '@timestamp': '2020-04-30T14:31:43Z', measures: { voltage: 5.2 }, model: 'HG537PU' },
        { index: { _index: 'logs', _id: '2' } }, { '@timestamp': '2020-05-01T09:00:00Z', measures: { voltage: 5.8 }, model: 'OTHER' },
        { index: { _index: 'logs', _id: '3' } }, { '@timestamp': '2020-05-02T09:00:00Z', measures: { voltage: 5.0 }, model: 'OTHER' },
      ]));
    });

    const dayOfWeek = { type: 'keyword', script: { source: "emit(doc['@timestamp'].value.dayOfWeekEnum.getDisplayName(TextStyle.FULL, Locale.ENGLISH))" } };

    it("runtime_mappings: a keyword field a script emits, in aggregations and fields (the reference pages' day_of_week)", async () => {
      const r = await search({ size: 3, runtime_mappings: { day_of_week: dayOfWeek }, sort: ['@timestamp'], fields: ['day_of_week'], _source: false, aggs: { day_of_week: { terms: { field: 'day_of_week' } } } }, 'logs');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits.map((h: { fields: unknown }) => h.fields)).to.deep.equal([{ day_of_week: ['Thursday'] }, { day_of_week: ['Friday'] }, { day_of_week: ['Saturday'] }]);
      expect(r.json.aggregations.day_of_week.buckets.map((b: { key: string }) => b.key).sort()).to.deep.equal(['Friday', 'Saturday', 'Thursday']);
    });

    it('queries and sorts on a runtime field, of each type', async () => {
      const runtime_mappings = {
        volts: { type: 'double', script: "emit(doc['measures.voltage'].value)" },
        day: { type: 'long', script: "emit(doc['@timestamp'].value.getDayOfMonth())" },
        high: { type: 'boolean', script: "emit(doc['measures.voltage'].value > 5.1)" },
        next_day: { type: 'date', script: "emit(doc['@timestamp'].value.toInstant().toEpochMilli() + 86400000L)" },
      };
      let r = await search({ runtime_mappings, query: { range: { volts: { gte: 5.1 } } }, sort: [{ day: 'desc' }], fields: ['day', 'high', 'next_day'] }, 'logs');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits.map((h: { _id: string; fields: unknown }) => [h._id, h.fields])).to.deep.equal([
        ['1', { day: [30], high: [true], next_day: ['2020-05-01T14:31:43.000Z'] }],
        ['2', { day: [1], high: [true], next_day: ['2020-05-02T09:00:00.000Z'] }],
      ]);
      r = await search({ runtime_mappings, query: { term: { high: false } } }, 'logs');
      expect(ids(r)).to.deep.equal(['3']);
      r = await search({ runtime_mappings, size: 0, aggs: { avg: { avg: { field: 'volts' } } } }, 'logs');
      expect(r.json.aggregations.avg.value).to.be.closeTo(16 / 3, 1e-9);
    });

    it('overrides an indexed field at query time, reading params._source (the reference page\'s measures.voltage)', async () => {
      const r = await search({
        runtime_mappings: {
          'measures.voltage': {
            type: 'double',
            script: { source: "if (doc['model'].value.equals('HG537PU')) { emit(1.7 * params._source['measures']['voltage']); } else { emit(params._source['measures']['voltage']); }" },
          },
        },
        query: { range: { 'measures.voltage': { gte: 8, lte: 10 } } },
        fields: ['measures.voltage'],
      }, 'logs');
      expect(r.status, r.text).to.equal(200);
      expect(ids(r)).to.deep.equal(['1']);
      expect(r.json.hits.hits[0].fields['measures.voltage'][0]).to.be.closeTo(8.84, 1e-9);
    });

    it("a mapping's runtime section; a runtime field without a script reads _source", async () => {
      await es.call('PUT', '/rt', { mappings: { runtime: { day_of_week: dayOfWeek, color: { type: 'keyword' } }, properties: { '@timestamp': { type: 'date' } } } });
      await es.call('PUT', '/rt/_doc/1?refresh=true', { '@timestamp': '2020-04-30T14:31:43Z', color: 'Red' });
      let r = await search({ query: { term: { day_of_week: 'Thursday' } }, fields: ['*'] }, 'rt');
      expect(r.status, r.text).to.equal(200);
      expect(r.json.hits.hits[0].fields).to.deep.equal({ '@timestamp': ['2020-04-30T14:31:43.000Z'], day_of_week: ['Thursday'], color: ['Red'] });
      r = await es.call('POST', '/rt/_count', { query: { term: { color: 'Red' } } });
      expect(r.json.count).to.equal(1);
    });

    it('a runtime field may read another; a cycle is an error', async () => {
      let r = await search({
        runtime_mappings: { a: { type: 'long', script: "emit(doc['@timestamp'].value.getYear())" }, b: { type: 'long', script: "emit(doc['a'].value + 1)" } },
        fields: ['b'], size: 1, sort: ['@timestamp'],
      }, 'logs');
      expect(r.json.hits.hits[0].fields).to.deep.equal({ b: [2021] });
      r = await search({ runtime_mappings: { a: { type: 'long', script: "emit(doc['b'].value)" }, b: { type: 'long', script: "emit(doc['a'].value)" } }, fields: ['a'] }, 'logs');
      expect(r.status).to.equal(400);
      expect(JSON.stringify(r.json.error)).to.contain('Cyclic dependency detected while resolving runtime fields');
    });

    it('refuses unknown types and parameters', async () => {
      let r = await search({ runtime_mappings: { x: { type: 'nope' } } }, 'logs');
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.equal('No handler for type [nope] declared on runtime field [x]');
      r = await search({ runtime_mappings: { x: { script: 'emit(1)' } } }, 'logs');
      expect(r.json.error.reason).to.equal('No type specified for runtime field [x]');
      r = await search({ runtime_mappings: { x: { type: 'long', script: "emit('a')" } } }, 'logs');
      expect(r.status).to.equal(400);
    });
  });

  describe('bucket_script and bucket_selector', () => {
    before(async () => {
      await es.call('PUT', '/sales', { mappings: { properties: { date: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss' }, price: { type: 'double' }, type: { type: 'keyword' } } } });
      await es.call('POST', '/_bulk?refresh=true', ndjson([
        { index: { _index: 'sales' } }, { date: '2015/01/01 00:00:00', price: 200, type: 'hat' },
        { index: { _index: 'sales' } }, { date: '2015/01/01 00:00:00', price: 200, type: 't-shirt' },
        { index: { _index: 'sales' } }, { date: '2015/01/01 00:00:00', price: 150, type: 'bag' },
        { index: { _index: 'sales' } }, { date: '2015/02/01 00:00:00', price: 50, type: 'hat' },
        { index: { _index: 'sales' } }, { date: '2015/02/01 00:00:00', price: 10, type: 't-shirt' },
        { index: { _index: 'sales' } }, { date: '2015/03/01 00:00:00', price: 200, type: 'hat' },
        { index: { _index: 'sales' } }, { date: '2015/03/01 00:00:00', price: 175, type: 't-shirt' },
      ]));
    });

    it("bucket_script computes a value per bucket (the reference page's t-shirt percentage)", async () => {
      const r = await search({
        size: 0,
        aggs: {
          sales_per_month: {
            date_histogram: { field: 'date', calendar_interval: 'month' },
            aggs: {
              total_sales: { sum: { field: 'price' } },
              't-shirts': { filter: { term: { type: 't-shirt' } }, aggs: { sales: { sum: { field: 'price' } } } },
              't-shirt-percentage': { bucket_script: { buckets_path: { tShirtSales: 't-shirts>sales', totalSales: 'total_sales' }, script: 'params.tShirtSales / params.totalSales * 100' } },
            },
          },
        },
      }, 'sales');
      expect(r.status, r.text).to.equal(200);
      const percentages = r.json.aggregations.sales_per_month.buckets.map((b: Record<string, { value: number }>) => b['t-shirt-percentage'].value);
      expect(percentages[0]).to.be.closeTo(36.36363636, 1e-6);
      expect(percentages[1]).to.be.closeTo(16.66666667, 1e-6);
      expect(percentages[2]).to.be.closeTo(46.66666667, 1e-6);
    });

    it('bucket_selector keeps the buckets its script accepts; typed_keys names bucket_script simple_value', async () => {
      const r = await es.call('POST', '/sales/_search?typed_keys=true', {
        size: 0,
        aggs: {
          sales_per_month: {
            date_histogram: { field: 'date', calendar_interval: 'month' },
            aggs: {
              total_sales: { sum: { field: 'price' } },
              sales_bucket_filter: { bucket_selector: { buckets_path: { totalSales: 'total_sales' }, script: 'params.totalSales > 200' } },
              doubled: { bucket_script: { buckets_path: { t: 'total_sales' }, script: 'params.t * 2', format: '0.0' } },
            },
          },
        },
      });
      expect(r.status, r.text).to.equal(200);
      const buckets = r.json.aggregations['date_histogram#sales_per_month'].buckets;
      expect(buckets.map((b: { key_as_string: string }) => b.key_as_string)).to.deep.equal(['2015/01/01 00:00:00', '2015/03/01 00:00:00']);
      expect(buckets[0]['simple_value#doubled']).to.deep.equal({ value: 1100, value_as_string: '1100.0' });
    });
  });
});
