import { expect } from 'chai';
import { parse } from 'lossless-json';
import { call, NDJSON } from '../../../support/http.js';
import { BACKENDS } from '../../../support/backends.js';

/**
 * unsigned_long keeps integers up to 2^64 - 1 exactly, past what a JS number holds (2^53): in
 * `_source`, term and range queries, sort values and search_after, terms buckets, docvalue_fields
 * and the fields option. Bodies are written as text and answers read exactly (BigInts), so that a
 * value rounded anywhere on the way shows. Both backends: the gateway forwards such integers as written.
 */
const MAX = 18446744073709551615n;
const BULK = [
  ['1', '0'], ['2', '9223372036854775807'], ['3', '9223372036854775808'], ['4', '18446744073709551614'], ['5', '18446744073709551615'],
  ['6', '[13835058055282163712, 1]'],
].map(([id, n]) => `{"index":{"_index":"ul","_id":"${id}"}}\n{"n":${n}}\n`).join('');

/** An answer read with its integers past 2^53 as BigInts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const exact = (text: string): any => parse(text, null, (digits: string) => (/^-?\d+$/.test(digits) && !Number.isSafeInteger(Number(digits)) ? BigInt(digits) : Number(digits)));

for (const backend of BACKENDS) {
  describe(`unsigned_long past 2^53 (${backend.name})`, function () {
    this.timeout(60_000);
    let stop: () => Promise<void>;
    let url: string;
    before(async () => {
      const started = await backend.start();
      stop = started.stop;
      url = started.gateway.url;
      expect((await call(url, 'PUT', '/ul', { body: { mappings: { properties: { n: { type: 'unsigned_long' } } } } })).status).to.equal(200);
      const bulk = await call(url, 'POST', '/_bulk?refresh=true', { body: BULK, headers: NDJSON });
      expect(bulk.json.errors, bulk.text).to.equal(false);
    });
    after(() => stop());

    const search = async (body: string) => {
      const r = await call(url, 'POST', '/ul/_search', { body });
      expect(r.status, r.text).to.equal(200);
      return exact(r.text);
    };
    const ids = (answer: { hits: { hits: Array<{ _id: string }> } }) => answer.hits.hits.map((h) => h._id);

    it('keeps the value as written in _source (get, _source, search hits)', async () => {
      const got = await call(url, 'GET', '/ul/_doc/5');
      expect(exact(got.text)._source.n).to.equal(MAX);
      expect(exact((await call(url, 'GET', '/ul/_source/4')).text).n).to.equal(MAX - 1n);
      const hits = await search('{"query":{"ids":{"values":["3"]}}}');
      expect(hits.hits.hits[0]._source.n).to.equal(9223372036854775808n);
    });

    it('a term query finds the one value, not its neighbours that round alike', async () => {
      expect(ids(await search('{"query":{"term":{"n":18446744073709551614}}}'))).to.deep.equal(['4']);
      expect(ids(await search('{"query":{"term":{"n":"18446744073709551615"}}}'))).to.deep.equal(['5']);
      expect(ids(await search('{"query":{"terms":{"n":[9223372036854775807, 18446744073709551615]}}}')).sort()).to.deep.equal(['2', '5']);
    });

    it('range bounds compare exactly', async () => {
      const r = await search('{"query":{"range":{"n":{"gt":9223372036854775807,"lt":18446744073709551615}}}}');
      expect(ids(r).sort()).to.deep.equal(['3', '4', '6']);
      expect(ids(await search('{"query":{"range":{"n":{"gte":18446744073709551615}}}}'))).to.deep.equal(['5']);
    });

    it('sorts by the exact values, answers them as sort values and pages after them', async () => {
      const desc = await search('{"sort":[{"n":"desc"}]}');
      expect(ids(desc)).to.deep.equal(['5', '4', '6', '3', '2', '1']);
      expect(desc.hits.hits.slice(0, 2).map((h: { sort: unknown[] }) => h.sort[0])).to.deep.equal([MAX, MAX - 1n]);
      const after = await search('{"sort":[{"n":"desc"}],"search_after":[18446744073709551614]}');
      expect(ids(after)).to.deep.equal(['6', '3', '2', '1']);
      // a document's smallest value sorts it ascending
      expect(ids(await search('{"sort":[{"n":"asc"}]}'))).to.deep.equal(['1', '6', '2', '3', '4', '5']);
    });

    it('a terms aggregation keeps each value its own bucket, keyed exactly', async () => {
      const r = await search('{"size":0,"aggs":{"t":{"terms":{"field":"n","order":{"_key":"asc"}}}}}');
      const keys = r.aggregations.t.buckets.map((b: { key: unknown }) => BigInt(b.key as number | bigint));
      expect(keys).to.deep.equal([0n, 1n, 9223372036854775807n, 9223372036854775808n, 13835058055282163712n, MAX - 1n, MAX]);
      expect(r.aggregations.t.buckets.every((b: { doc_count: number }) => b.doc_count === 1)).to.equal(true);
    });

    it('docvalue_fields and the fields option answer the exact values', async () => {
      const r = await search('{"query":{"ids":{"values":["5"]}},"docvalue_fields":["n"],"_source":false}');
      expect(r.hits.hits[0].fields.n).to.deep.equal([MAX]);
      const f = await search('{"query":{"ids":{"values":["4"]}},"fields":["n"],"_source":false}');
      expect(f.hits.hits[0].fields.n).to.deep.equal([MAX - 1n]);
    });

    it('a partial update keeps the other values exact; a value past 2^64 - 1 is refused', async () => {
      const updated = await call(url, 'POST', '/ul/_update/4?refresh=true', { body: { doc: { tag: 'x' } } });
      expect(updated.status, updated.text).to.equal(200);
      expect(exact((await call(url, 'GET', '/ul/_doc/4')).text)._source).to.deep.equal({ n: MAX - 1n, tag: 'x' });
      expect(ids(await search('{"query":{"term":{"n":18446744073709551614}}}'))).to.deep.equal(['4']);
      const over = await call(url, 'PUT', '/ul/_doc/9', { body: '{"n":18446744073709551617}' });
      expect(over.status, over.text).to.equal(400);
      expect(over.json.error.caused_by.reason).to.equal('Value [18446744073709551617] is out of range for an unsigned long');
    });

    it('values a script or a pipeline leaves, or copies, stay exact (update, update_by_query, reindex, ingest script and set)', async () => {
      const scripted = await call(url, 'POST', '/ul/_update/5?refresh=true', { body: { script: { source: "ctx._source.tag = 'scripted'" } } });
      expect(scripted.status, scripted.text).to.equal(200);
      expect(exact((await call(url, 'GET', '/ul/_doc/5')).text)._source).to.deep.equal({ n: MAX, tag: 'scripted' });
      expect(ids(await search('{"query":{"term":{"n":18446744073709551615}}}'))).to.deep.equal(['5']);
      const byQuery = await call(url, 'POST', '/ul/_update_by_query?refresh=true', { body: { query: { ids: { values: ['3'] } }, script: { source: 'ctx._source.seen = true' } } });
      expect(byQuery.json.updated, byQuery.text).to.equal(1);
      expect(exact((await call(url, 'GET', '/ul/_doc/3')).text)._source).to.deep.equal({ n: 9223372036854775808n, seen: true });
      const pipeline = { processors: [{ script: { source: 'ctx.copy = ctx.n' } }, { set: { field: 'other', copy_from: 'n' } }, { set: { field: 'rendered', value: '{{{n}}}' } }] };
      expect((await call(url, 'PUT', '/_ingest/pipeline/ul-copy', { body: pipeline })).status).to.equal(200);
      expect((await call(url, 'PUT', '/ul2', { body: { mappings: { properties: { n: { type: 'unsigned_long' }, copy: { type: 'unsigned_long' }, other: { type: 'unsigned_long' }, rendered: { type: 'unsigned_long' } } } } })).status).to.equal(200);
      const ingested = await call(url, 'PUT', '/ul2/_doc/1?refresh=true&pipeline=ul-copy', { body: '{"n":18446744073709551614}' });
      expect(ingested.status, ingested.text).to.equal(201);
      expect(exact((await call(url, 'GET', '/ul2/_doc/1')).text)._source).to.deep.equal({ n: MAX - 1n, copy: MAX - 1n, other: MAX - 1n, rendered: '18446744073709551614' });
      const bulk = await call(url, 'POST', '/_bulk?refresh=true&pipeline=ul-copy', { body: '{"index":{"_index":"ul2","_id":"2"}}\n{"n":18446744073709551613}\n', headers: NDJSON });
      expect(bulk.json.errors, bulk.text).to.equal(false);
      expect(exact((await call(url, 'GET', '/ul2/_doc/2')).text)._source).to.deep.include({ copy: MAX - 2n, rendered: '18446744073709551613' });
      expect((await call(url, 'POST', '/ul2/_search', { body: '{"query":{"term":{"rendered":18446744073709551613}}}' })).json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
      const copied = await call(url, 'POST', '/ul2/_search', { body: '{"query":{"term":{"copy":18446744073709551613}}}' });
      expect(copied.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2']);
      // written by a script from its params, or by an upsert, as the request wrote them
      const fromParams = await call(url, 'POST', '/ul/_update/7?refresh=true', { body: '{"scripted_upsert":true,"upsert":{},"script":{"source":"ctx._source.n = params.v","params":{"v":18446744073709551613}}}' });
      expect(fromParams.status, fromParams.text).to.equal(201);
      expect(exact((await call(url, 'GET', '/ul/_doc/7')).text)._source.n).to.equal(MAX - 2n);
      const upsert = await call(url, 'POST', '/ul/_update/8?refresh=true', { body: '{"doc":{"n":18446744073709551612},"doc_as_upsert":true}' });
      expect(upsert.status, upsert.text).to.equal(201);
      expect(exact((await call(url, 'GET', '/ul/_doc/8')).text)._source.n).to.equal(MAX - 3n);
      const byParams = await call(url, 'POST', '/ul/_update_by_query?refresh=true', { body: '{"query":{"ids":{"values":["8"]}},"script":{"source":"ctx._source.n = params.v","params":{"v":18446744073709551611}}}' });
      expect(byParams.json.updated, byParams.text).to.equal(1);
      expect(exact((await call(url, 'GET', '/ul/_doc/8')).text)._source.n).to.equal(MAX - 4n);
      expect(ids(await search('{"query":{"term":{"n":18446744073709551611}}}'))).to.deep.equal(['8']);
      expect((await call(url, 'PUT', '/ul3', { body: { mappings: { properties: { n: { type: 'unsigned_long' } } } } })).status).to.equal(200);
      const reindexed = await call(url, 'POST', '/_reindex?refresh=true', { body: { source: { index: 'ul', query: { ids: { values: ['4'] } } }, dest: { index: 'ul3' }, script: { source: "ctx._source.moved = 'yes'" } } });
      expect(reindexed.status, reindexed.text).to.equal(200);
      expect(exact((await call(url, 'GET', '/ul3/_doc/4')).text)._source.n).to.equal(MAX - 1n);
    });
  });
}
