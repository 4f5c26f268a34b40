import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';
import { NDJSON } from '../../../support/http.js';


describe('embedded engine REST: msearch, scroll, count, by-query', () => {
  let es: TestEngine;
  const ids = (body: { hits: { hits: Array<{ _id: string }> } }) => body.hits.hits.map((h) => h._id).sort();

  beforeEach(async () => {
    es = await startEngine();
    await es.call('PUT', '/books', { mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } } });
    const lines: unknown[] = [];
    const docs = [
      { title: 'Snow Crash', tag: 'scifi', n: 1 },
      { title: 'Quick brown fox', tag: 'animal', n: 2 },
      { title: 'Snow White', tag: 'tale', n: 3 },
      { title: 'Dune', tag: 'scifi', n: 4 },
    ];
    docs.forEach((d, i) => lines.push({ index: { _index: 'books', _id: String(i + 1) } }, d));
    lines.push({ index: { _index: 'other', _id: 'x' } }, { title: 'snow elsewhere', tag: 'misc' });
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), NDJSON);
  });
  afterEach(() => es.close());

  describe('URI search q=', () => {
    it('searches all fields by default, df and field:value otherwise', async () => {
      expect(ids((await es.call('GET', '/books/_search?q=snow')).json)).to.deep.equal(['1', '3']);
      expect(ids((await es.call('GET', '/books/_search?q=scifi&df=tag')).json)).to.deep.equal(['1', '4']);
      expect(ids((await es.call('GET', '/books/_search?q=tag:animal')).json)).to.deep.equal(['2']);
    });

    it('default_operator, boolean syntax, wildcards, ranges and _exists_', async () => {
      expect(ids((await es.call('GET', '/books/_search?q=snow%20crash&df=title&default_operator=AND')).json)).to.deep.equal(['1']);
      expect(ids((await es.call('GET', '/books/_search?' + new URLSearchParams({ q: 'title:snow -tag:tale' }))).json)).to.deep.equal(['1']);
      expect(ids((await es.call('GET', '/books/_search?' + new URLSearchParams({ q: 'title:SN*' }))).json)).to.deep.equal(['1', '3']);
      expect(ids((await es.call('GET', '/books/_search?' + new URLSearchParams({ q: 'n:[2 TO 3]' }))).json)).to.deep.equal(['2', '3']);
      expect(ids((await es.call('GET', '/books/_search?' + new URLSearchParams({ q: 'n:>3' }))).json)).to.deep.equal(['4']);
      expect(ids((await es.call('GET', '/books/_search?' + new URLSearchParams({ q: '_exists_:n' }))).json)).to.deep.equal(['1', '2', '3', '4']);
    });

    it('a syntax error is a 400 query_shard_exception caused by parse_exception', async () => {
      const r = await es.call('GET', '/books/_search?' + new URLSearchParams({ q: 'title:(' }));
      expect(r.status).to.equal(400);
      expect(r.json.error.type).to.equal('query_shard_exception');
      expect(r.json.error.reason).to.equal('Failed to parse query [title:(]');
      expect(r.json.error.caused_by.type).to.equal('parse_exception');
    });

    it('works on _count, with lenient for type mismatches', async () => {
      expect((await es.call('GET', '/books/_count?q=snow')).json.count).to.equal(2);
      expect((await es.call('GET', '/books/_count?q=n:foo&lenient=true')).json.count).to.equal(0);
      expect((await es.call('POST', '/books/_count', { query: { query_string: { query: 'tag:scifi' } } })).json.count).to.equal(2);
    });

    it('query_string and simple_query_string in the body, nested in bool', async () => {
      let r = await es.call('POST', '/books/_search', { query: { bool: { must: [{ query_string: { query: 'snow OR dune', fields: ['title'] } }], must_not: [{ term: { tag: 'tale' } }] } } });
      expect(ids(r.json)).to.deep.equal(['1', '4']);
      r = await es.call('POST', '/books/_search', { query: { simple_query_string: { query: 'snow -white', fields: ['title'], default_operator: 'and' } } });
      expect(ids(r.json)).to.deep.equal(['1']);
    });
  });

  describe('_msearch', () => {
    it('runs header/body pairs with per-item status and errors', async () => {
      const body = ndjson([{ index: 'books' }, { query: { term: { tag: 'scifi' } } }, { index: 'missing' }, { query: { match_all: {} } }, {}, { query: { match_all: {} } }]);
      const r = await es.call('POST', '/_msearch', body, NDJSON);
      expect(r.status).to.equal(200);
      expect(r.json.took).to.be.a('number');
      const [a, b, c] = r.json.responses;
      expect(a.status).to.equal(200);
      expect(a.hits.total).to.deep.equal({ value: 2, relation: 'eq' });
      expect(b.status).to.equal(404);
      expect(b.error.type).to.equal('index_not_found_exception');
      expect(b.error.root_cause[0].index).to.equal('missing');
      expect(c.hits.total.value).to.equal(5);
    });

    it('takes the index from the path unless the header names one', async () => {
      const r = await es.call('GET', '/books/_msearch?rest_total_hits_as_int=true', ndjson([{}, { query: { match_all: {} } }, { index: 'other' }, {}]), NDJSON);
      expect(r.json.responses.map((x: { hits: { total: number } }) => x.hits.total)).to.deep.equal([4, 1]);
    });

    it('refuses an unknown header key for the whole request', async () => {
      const r = await es.call('POST', '/_msearch', ndjson([{ nope: 1 }, {}]), NDJSON);
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.equal('key [nope] is not supported in the metadata section');
    });

    it('refuses max_concurrent_searches below 1, and takes any positive value', async () => {
      const r = await es.call('POST', '/_msearch?max_concurrent_searches=0', ndjson([{}, {}]), NDJSON);
      expect(r.status).to.equal(400);
      expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: 'maxConcurrentSearchRequests must be positive' });
      expect((await es.call('POST', '/_msearch?max_concurrent_searches=1', ndjson([{}, {}]), NDJSON)).status).to.equal(200);
    });

    it('runs searches whose queries look documents up (terms lookup, indexed shape), checking their form first', async () => {
      await es.call('PUT', '/shapes', { mappings: { properties: { shape: { type: 'geo_shape' } } } });
      await es.call('PUT', '/shapes/_doc/all?refresh=true', { shape: { type: 'point', coordinates: [1, 1] } });
      await es.call('PUT', '/books/_doc/lists?refresh=true', { wanted: ['scifi', 'tale'] });
      const body = ndjson([
        { index: 'books' }, { query: { terms: { tag: { index: 'books', id: 'lists', path: 'wanted' } } } },
        { index: 'books' }, { query: { terms: { tag: { index: 'books', id: 'nobody', path: 'wanted' } } } },
        { index: 'shapes' }, { query: { geo_shape: { shape: { indexed_shape: { index: 'shapes', id: 'all', path: 'shape' } } } } },
      ]);
      const r = await es.call('POST', '/_msearch', body, NDJSON);
      expect(r.status).to.equal(200);
      const [looked, missing, shaped] = r.json.responses;
      expect(ids(looked)).to.deep.equal(['1', '3', '4']);
      expect(missing.hits.total.value).to.equal(0);
      expect(ids(shaped)).to.deep.equal(['all']);
      // a lookup of the wrong form still fails the whole request before any search runs
      const bad = await es.call('POST', '/_msearch', ndjson([{ index: 'books' }, { query: { terms: { tag: { index: 'books', id: 'lists' } } } }]), NDJSON);
      expect(bad.status).to.equal(400);
      expect(bad.json.error.reason).to.equal('[terms] query lookup element requires specifying [index], [id] and [path]');
    });

    it('looks documents up in post_filter and in aggregations\' queries too (filter, filters, adjacency_matrix), through sub-aggregations', async () => {
      await es.call('PUT', '/books/_doc/lists?refresh=true', { wanted: ['scifi', 'tale'], one: 'animal' });
      const lookup = (path: string) => ({ terms: { tag: { index: 'books', id: 'lists', path } } });
      const r = await es.call('POST', '/books/_search', {
        size: 10,
        post_filter: lookup('one'),
        aggs: {
          f: { filter: lookup('wanted') },
          fs: { filters: { filters: { wanted: lookup('wanted'), one: lookup('one') } } },
          all: { global: {}, aggs: { m: { adjacency_matrix: { filters: { w: lookup('wanted'), o: lookup('one') } } } } },
          // a terms aggregation is not a query: its body is left as written
          t: { terms: { field: 'tag', order: { _key: 'asc' } } },
        },
      });
      expect(r.status, r.text).to.equal(200);
      expect(ids(r.json)).to.deep.equal(['2']);
      expect(r.json.aggregations.f.doc_count).to.equal(3);
      expect(r.json.aggregations.fs.buckets).to.deep.equal({ one: { doc_count: 1 }, wanted: { doc_count: 3 } });
      expect(r.json.aggregations.all.m.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])).to.deep.equal([['o', 1], ['w', 3]]);
      expect(r.json.aggregations.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['animal', 'scifi', 'tale']);
    });
  });

  describe('scroll', () => {
    it('pages through a point-in-time view, then clears', async () => {
      let r = await es.call('POST', '/books/_search?scroll=1m&size=3', { query: { match_all: {} } });
      expect(r.status).to.equal(200);
      const scrollId = r.json._scroll_id;
      expect(scrollId).to.be.a('string');
      expect(r.json.hits.hits).to.have.length(3);
      const seen = r.json.hits.hits.map((h: { _id: string }) => h._id);
      await es.call('PUT', '/books/_doc/99?refresh=true', { title: 'late' });
      r = await es.call('POST', '/_search/scroll', { scroll_id: scrollId, scroll: '1m' });
      expect(r.json._scroll_id).to.equal(scrollId);
      expect(r.json.hits.total.value).to.equal(4);
      expect(r.json.hits.hits).to.have.length(1);
      seen.push(r.json.hits.hits[0]._id);
      expect(seen.sort()).to.deep.equal(['1', '2', '3', '4']);
      r = await es.call('GET', `/_search/scroll?scroll_id=${scrollId}&scroll=1m`);
      expect(r.json.hits.hits).to.have.length(0);
      r = await es.call('DELETE', '/_search/scroll', { scroll_id: [scrollId] });
      expect(r.json).to.deep.equal({ succeeded: true, num_freed: 1 });
      r = await es.call('POST', '/_search/scroll', { scroll_id: scrollId });
      expect(r.status).to.equal(404);
      expect(r.json.error.type).to.equal('search_context_missing_exception');
    });

    it('DELETE _all frees every scroll; size 0 is refused', async () => {
      await es.call('POST', '/books/_search?scroll=1m&size=1');
      await es.call('POST', '/books/_search?scroll=1m&size=1');
      expect((await es.call('DELETE', '/_search/scroll/_all')).json).to.deep.equal({ succeeded: true, num_freed: 2 });
      const r = await es.call('POST', '/books/_search?scroll=1m', { size: 0 });
      expect(r.status).to.equal(400);
      expect(r.json.error.reason).to.match(/\[size\] cannot be \[0\] in a scroll context/);
    });
  });

  describe('_delete_by_query and _update_by_query', () => {
    it('delete_by_query deletes through the write path and reports counts', async () => {
      const r = await es.call('POST', '/books/_delete_by_query?refresh=true', { query: { term: { tag: 'scifi' } } });
      expect(r.status).to.equal(200);
      expect(r.json).to.include({ timed_out: false, total: 2, deleted: 2, batches: 1, version_conflicts: 0, noops: 0, throttled_millis: 0, requests_per_second: -1 });
      expect(r.json.failures).to.deep.equal([]);
      expect((await es.call('GET', '/books/_count')).json.count).to.equal(2);
      expect((await es.call('GET', '/books/_doc/1')).status).to.equal(404);
    });

    it('max_docs limits, q= selects', async () => {
      let r = await es.call('POST', '/books/_delete_by_query?max_docs=1', { query: { match_all: {} } });
      expect(r.json.deleted).to.equal(1);
      r = await es.call('POST', '/books/_delete_by_query?q=tag:animal');
      expect(r.json.total).to.be.at.most(1);
      expect((await es.call('GET', '/books/_count?q=tag:animal')).json.count).to.equal(0);
    });

    it('update_by_query rewrites each document: versions and seq_nos advance', async () => {
      const before = (await es.call('GET', '/books/_doc/2')).json;
      const r = await es.call('POST', '/books/_update_by_query?conflicts=proceed', { query: { term: { tag: 'animal' } } });
      expect(r.json).to.include({ total: 1, updated: 1, deleted: 0, version_conflicts: 0 });
      const after = (await es.call('GET', '/books/_doc/2')).json;
      expect(after._version).to.equal(before._version + 1);
      expect(after._seq_no).to.be.greaterThan(before._seq_no);
      expect(after._source).to.deep.equal(before._source);
    });

    it('refuses a script in _delete_by_query and bad conflicts values (scripted updates: spec/engine/embedded/painless)', async () => {
      expect((await es.call('POST', '/books/_delete_by_query', { script: { source: 'ctx._source.n++' } })).status).to.equal(400);
      const r = await es.call('POST', '/books/_delete_by_query?conflicts=maybe', { query: { match_all: {} } });
      expect(r.status).to.equal(400);
    });

    it('refuses from and stored_fields in the body, and a delete without a query, with Elasticsearch\'s validation errors; and a scroll_size that is not an int', async () => {
      for (const op of ['_delete_by_query', '_update_by_query']) {
        let r = await es.call('POST', `/books/${op}`, { stored_fields: ['_id'], query: { match_all: {} } });
        expect(r.status, r.text).to.equal(400);
        expect(r.json.error).to.include({ type: 'action_request_validation_exception', reason: 'Validation Failed: 1: stored_fields is not supported in this context;' });
        r = await es.call('POST', `/books/${op}`, { from: 1, stored_fields: ['_id'], query: { match_all: {} } });
        expect(r.json.error.reason).to.equal('Validation Failed: 1: from is not supported in this context;2: stored_fields is not supported in this context;');
        for (const v of ['asdf', '2147483648']) {
          r = await es.call('POST', `/books/${op}?scroll_size=${v}`, { query: { match_all: {} } });
          expect(r.status, r.text).to.equal(400);
          expect(r.json.error).to.include({ type: 'illegal_argument_exception', reason: `Failed to parse int parameter [scroll_size] with value [${v}]` });
        }
      }
      const r = await es.call('POST', '/books/_delete_by_query', {});
      expect(r.status, r.text).to.equal(400);
      expect(r.json.error).to.include({ type: 'action_request_validation_exception', reason: 'Validation Failed: 1: query is missing;' });
      expect((await es.call('POST', '/books/_delete_by_query', { stored_fields: ['_id'] })).json.error.reason)
        .to.equal('Validation Failed: 1: stored_fields is not supported in this context;2: query is missing;');
      expect((await es.call('GET', '/books/_count')).json.count).to.equal(4);
    });
  });
  describe('_validate/query and _explain', () => {
    it('validate says whether a query parses, with explanations per index', async () => {
      expect((await es.call('POST', '/books/_validate/query', { query: { term: { tag: 'scifi' } } })).json).to.deep.equal({ _shards: { total: 1, successful: 1, failed: 0 }, valid: true });
      const bad = await es.call('POST', '/books/_validate/query?explain=true', { query: { query_string: { query: 'title:(' } } });
      expect(bad.json.valid).to.equal(false);
      expect(bad.json.explanations[0].error).to.match(/QueryShardException/);
      expect((await es.call('GET', '/books/_validate/query?q=title:(')).json.valid).to.equal(false);
    });

    it('explain says whether one document matches, with its score', async () => {
      let r = await es.call('POST', '/books/_explain/1', { query: { term: { tag: 'scifi' } } });
      expect(r.json).to.include({ _index: 'books', _id: '1', matched: true });
      expect(r.json.explanation.value).to.be.greaterThan(0);
      r = await es.call('POST', '/books/_explain/2', { query: { term: { tag: 'scifi' } } });
      expect(r.json.matched).to.equal(false);
      r = await es.call('POST', '/books/_explain/404', { query: { match_all: {} } });
      expect(r.status).to.equal(404);
    });
  });
});
