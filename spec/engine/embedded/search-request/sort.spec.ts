import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

describe('embedded engine: sort, search_after, result window', () => {
  let es: TestEngine;
  const ids = (r: { json: { hits: { hits: Array<{ _id: string }> } } }) => r.json.hits.hits.map((h) => h._id);

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/s', {
      mappings: {
        properties: {
          name: { type: 'keyword' }, n: { type: 'long' }, f: { type: 'float' }, d: { type: 'date', format: 'yyyy-MM-dd HH:mm:ss||epoch_millis' },
          ok: { type: 'boolean' }, title: { type: 'text' }, tags: { type: 'keyword' },
        },
      },
    });
    const docs = [
      { name: 'charlie', n: 3, f: 1.1, d: '2020-01-03 10:00:00', ok: true, title: 'c', tags: ['x', 'b'] },
      { name: 'alpha', n: 1, f: 2.5, d: '2020-01-01 10:00:00', ok: false, title: 'a', tags: ['m'] },
      { name: 'bravo', n: 2, d: '2020-01-02 10:00:00', ok: true, title: 'b', tags: ['a', 'z'] },
      { name: 'delta', title: 'd' },
    ];
    const lines: unknown[] = [];
    docs.forEach((d, i) => lines.push({ index: { _index: 's', _id: String(i + 1) } }, d));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
  });
  after(() => es.close());

  it('sorts by keyword ascending and descending, with sort values and null scores', async () => {
    let r = await es.call('POST', '/s/_search', { sort: ['name'] });
    expect(ids(r)).to.deep.equal(['2', '3', '1', '4']);
    expect(r.json.hits.hits[0].sort).to.deep.equal(['alpha']);
    expect(r.json.hits.hits[0]._score).to.equal(null);
    expect(r.json.hits.max_score).to.equal(null);
    r = await es.call('POST', '/s/_search', { sort: [{ name: 'desc' }] });
    expect(ids(r)).to.deep.equal(['4', '1', '3', '2']);
  });

  it('puts missing values last by default, first with missing: _first, or uses a given value', async () => {
    let r = await es.call('POST', '/s/_search', { sort: [{ n: { order: 'desc' } }] });
    expect(ids(r)).to.deep.equal(['1', '3', '2', '4']);
    r = await es.call('POST', '/s/_search', { sort: [{ n: { order: 'asc', missing: '_first' } }] });
    expect(ids(r)).to.deep.equal(['4', '2', '3', '1']);
    r = await es.call('POST', '/s/_search', { sort: [{ n: { order: 'asc', missing: 2.5 } }] });
    expect(ids(r)).to.deep.equal(['2', '3', '4', '1']);
  });

  it('multi-valued fields sort by min ascending, max descending, or the given mode', async () => {
    let r = await es.call('POST', '/s/_search', { sort: [{ tags: 'asc' }], size: 3 });
    expect(ids(r)).to.deep.equal(['3', '1', '2']);
    expect(r.json.hits.hits.map((h: { sort: unknown[] }) => h.sort[0])).to.deep.equal(['a', 'b', 'm']);
    r = await es.call('POST', '/s/_search', { sort: [{ tags: 'desc' }], size: 3 });
    expect(ids(r)).to.deep.equal(['3', '1', '2']);
    r = await es.call('POST', '/s/_search', { sort: [{ tags: { order: 'asc', mode: 'max' } }], size: 3 });
    expect(ids(r)).to.deep.equal(['2', '1', '3']);
  });

  it('dates sort as epoch millis, floats as floats, booleans as 1/0; _score and _doc', async () => {
    let r = await es.call('POST', '/s/_search', { sort: [{ d: 'desc' }], size: 1 });
    expect(r.json.hits.hits[0].sort).to.deep.equal([Date.UTC(2020, 0, 3, 10)]);
    r = await es.call('POST', '/s/_search', { sort: [{ d: { order: 'desc', format: 'yyyy-MM-dd' } }], size: 1 });
    expect(r.json.hits.hits[0].sort).to.deep.equal(['2020-01-03']);
    r = await es.call('POST', '/s/_search', { sort: [{ f: 'asc' }], size: 1 });
    expect(r.json.hits.hits[0].sort).to.deep.equal([1.1]);
    r = await es.call('POST', '/s/_search', { sort: [{ ok: 'desc' }, { name: 'asc' }], size: 2 });
    expect(r.json.hits.hits.map((h: { sort: unknown[] }) => h.sort)).to.deep.equal([[1, 'bravo'], [1, 'charlie']]);
    r = await es.call('POST', '/s/_search', { sort: ['_score', { name: 'desc' }], size: 1 });
    expect(r.json.hits.hits[0].sort).to.deep.equal([1, 'delta']);
    expect(r.json.hits.hits[0]._score).to.equal(1);
    r = await es.call('POST', '/s/_search', { sort: ['_doc'] });
    expect(ids(r)).to.deep.equal(['1', '2', '3', '4']);
  });

  it('track_scores keeps scores and max_score when sorting by a field', async () => {
    const r = await es.call('POST', '/s/_search', { sort: ['name'], track_scores: true, size: 1 });
    expect(r.json.hits.hits[0]._score).to.equal(1);
    expect(r.json.hits.max_score).to.equal(1);
  });

  it('search_after pages through a sort, including by a formatted date', async () => {
    let r = await es.call('POST', '/s/_search', { size: 2, sort: [{ n: 'desc' }, { name: 'asc' }] });
    expect(ids(r)).to.deep.equal(['1', '3']);
    expect(r.json.hits.hits[1].sort).to.deep.equal([2, 'bravo']);
    r = await es.call('POST', '/s/_search', { size: 2, sort: [{ n: 'desc' }, { name: 'asc' }], search_after: [2, 'bravo'] });
    expect(ids(r)).to.deep.equal(['2', '4']);
    expect(r.json.hits.total.value).to.equal(4);
    r = await es.call('POST', '/s/_search', { size: 1, sort: [{ d: 'desc' }], search_after: ['2020-01-03 10:00:00'] });
    expect(ids(r)).to.deep.equal(['3']);
    r = await es.call('POST', '/s/_search', { size: 1, sort: [{ d: 'desc' }], search_after: [1, 2] });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('search_after has 2 value(s) but sort has 1.');
  });

  it('refuses text fields without fielddata, unmapped fields unless unmapped_type', async () => {
    let r = await es.call('POST', '/s/_search', { sort: ['title'] });
    expect(r.status).to.equal(400);
    expect(r.json.error.type).to.equal('illegal_argument_exception');
    expect(r.json.error.reason).to.match(/^Text fields are not optimised for operations that require per-document field data/);
    r = await es.call('POST', '/s/_search', { sort: ['nope'] });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('No mapping found for [nope] in order to sort on');
    r = await es.call('POST', '/s/_search', { sort: [{ nope: { unmapped_type: 'long' } }, '_doc'], size: 1 });
    expect(r.status).to.equal(200);
    expect(ids(r)).to.deep.equal(['1']);
  });

  it('the sort URL parameter', async () => {
    const r = await es.call('GET', '/s/_search?sort=name:desc&size=1');
    expect(ids(r)).to.deep.equal(['4']);
  });

  it('from + size beyond index.max_result_window is ES\'s error', async () => {
    let r = await es.call('POST', '/s/_search', { from: 9995, size: 10 });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal(
      'Result window is too large, from + size must be less than or equal to: [10000] but was [10005]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.',
    );
    await es.call('PUT', '/s/_settings', { index: { max_result_window: 3 } });
    r = await es.call('POST', '/s/_search', { from: 2, size: 2 });
    expect(r.json.error.reason).to.match(/^Result window is too large, from \+ size must be less than or equal to: \[3\] but was \[4\]/);
    r = await es.call('POST', '/s/_search', { from: 1, size: 2, sort: ['name'] });
    expect(ids(r)).to.deep.equal(['3', '1']);
    await es.call('PUT', '/s/_settings', { index: { max_result_window: 10000 } });
  });

  it('post_filter narrows hits, not the total before it; min_score, terminate_after', async () => {
    let r = await es.call('POST', '/s/_search', { post_filter: { term: { ok: true } }, sort: ['name'] });
    expect(ids(r)).to.deep.equal(['3', '1']);
    expect(r.json.hits.total.value).to.equal(2);
    r = await es.call('POST', '/s/_search', { min_score: 2 });
    expect(r.json.hits.total.value).to.equal(0);
    r = await es.call('POST', '/s/_search', { terminate_after: 2 });
    expect(r.json.terminated_early).to.equal(true);
    expect(r.json.hits.total.value).to.equal(2);
  });

  it('orders ip fields by their 16-byte form (IPv4 as ::ffff:a.b.c.d), in sort, search_after and terms keys', async () => {
    const addresses = ['10.0.0.1', '::1', '9.255.255.255', '2001:db8::1', '192.168.1.1', '::ffff:1.2.3.4', '0.0.0.1', 'fe80::1', '::'];
    const order = ['::', '::1', '0.0.0.1', '1.2.3.4', '9.255.255.255', '10.0.0.1', '192.168.1.1', '2001:db8::1', 'fe80::1'];
    await es.call('PUT', '/ips', { mappings: { properties: { ip: { type: 'ip' } } } });
    const lines: unknown[] = addresses.flatMap((ip, i) => [{ index: { _index: 'ips', _id: String(i) } }, { ip }]);
    lines.push({ index: { _index: 'ips', _id: 'both' } }, { ip: ['192.168.0.9', '::2'] });
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    const sorted = async (body: Record<string, unknown>) => (await es.call('POST', '/ips/_search', { size: 20, ...body })).json.hits.hits.map((h: { sort: unknown[] }) => h.sort[0]);
    // a document with several values sorts by its least (asc) or greatest (desc) in that order too
    expect(await sorted({ sort: [{ ip: 'asc' }] })).to.deep.equal(['::', '::1', '::2', ...order.slice(2)]);
    expect(await sorted({ sort: [{ ip: 'desc' }] })).to.deep.equal(['fe80::1', '2001:db8::1', '192.168.1.1', '192.168.0.9', '10.0.0.1', '9.255.255.255', '1.2.3.4', '0.0.0.1', '::1', '::']);
    expect(await sorted({ sort: [{ ip: 'asc' }], search_after: ['9.255.255.255'] })).to.deep.equal(order.slice(5));
    const terms = await es.call('POST', '/ips/_search', { size: 0, aggs: { t: { terms: { field: 'ip', size: 20, order: { _key: 'asc' } } }, byCount: { terms: { field: 'ip', size: 3 } } } });
    expect(terms.json.aggregations.t.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['::', '::1', '::2', '0.0.0.1', '1.2.3.4', '9.255.255.255', '10.0.0.1', '192.168.0.9', '192.168.1.1', '2001:db8::1', 'fe80::1']);
    // equal counts: the key order breaks the tie
    expect(terms.json.aggregations.byCount.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['::', '::1', '::2']);
    // composite pages and multi_terms keys go in the same order
    const page = async (after?: unknown) => (await es.call('POST', '/ips/_search', { size: 0, aggs: { c: { composite: { size: 4, sources: [{ ip: { terms: { field: 'ip' } } }], ...(after ? { after } : {}) } } } })).json.aggregations.c;
    const first = await page();
    expect(first.buckets.map((b: { key: { ip: string } }) => b.key.ip)).to.deep.equal(['::', '::1', '::2', '0.0.0.1']);
    expect((await page(first.after_key)).buckets.map((b: { key: { ip: string } }) => b.key.ip)).to.deep.equal(['1.2.3.4', '9.255.255.255', '10.0.0.1', '192.168.0.9']);
    const multi = await es.call('POST', '/ips/_search', { size: 0, query: { term: { _id: 'both' } }, aggs: { m: { multi_terms: { terms: [{ field: 'ip' }, { field: 'ip' }] } } } });
    expect(multi.json.aggregations.m.buckets.map((b: { key: string[] }) => b.key.join(' '))).to.deep.equal(['::2 ::2', '::2 192.168.0.9', '192.168.0.9 ::2', '192.168.0.9 192.168.0.9']);
  });

  it('numeric_type long casts a floating-point field\'s values toward zero (sort values and order)', async () => {
    await es.call('PUT', '/scaled', { mappings: { properties: { number: { type: 'scaled_float', scaling_factor: 100 }, f: { type: 'double' } } } });
    const lines: unknown[] = [];
    [{ number: 1, f: 1.9 }, { number: 1.53, f: 1.2 }, { number: -2.1, f: -2.7 }].forEach((d, i) => lines.push({ index: { _index: 'scaled', _id: String(i + 1) } }, d));
    await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    let r = await es.call('POST', '/scaled/_search', { size: 1, sort: { number: { order: 'asc', numeric_type: 'long' } } });
    expect(r.json.hits.hits[0]._id).to.equal('3');
    expect(r.json.hits.hits[0].sort).to.deep.equal([-2]);
    r = await es.call('POST', '/scaled/_search', { sort: [{ f: { order: 'desc', numeric_type: 'long' } }, { number: 'asc' }] });
    expect(r.json.hits.hits.map((h: { sort: unknown[] }) => h.sort)).to.deep.equal([[1, 1], [1, 1.53], [-2, -2.1]]);
    r = await es.call('POST', '/scaled/_search', { size: 1, sort: { number: { order: 'asc' } } });
    expect(r.json.hits.hits[0].sort).to.deep.equal([-2.1]);
  });
  it('sorts by a field of nested objects with nested.path: each document by its objects\' values and the mode, also in top_hits', async () => {
    await es.call('PUT', '/ns', { mappings: { properties: { group: { type: 'keyword' }, users: { type: 'nested', properties: { last: { type: 'keyword' }, age: { type: 'long' } } } } } });
    await es.call('PUT', '/ns/_doc/1', { group: 'fans', users: [{ last: 'Smith', age: 30 }, { last: 'White', age: 50 }] });
    await es.call('PUT', '/ns/_doc/2', { group: 'fans', users: [{ last: 'Doe', age: 40 }] });
    await es.call('PUT', '/ns/_doc/3?refresh=true', { group: 'fans' });
    let r = await es.call('POST', '/ns/_search', { sort: { 'users.last': { nested: { path: 'users' } } } });
    expect(r.status, r.text).to.equal(200);
    expect(r.json.hits.hits.map((h: { _id: string; sort: unknown[] }) => [h._id, h.sort])).to.deep.equal([['2', ['Doe']], ['1', ['Smith']], ['3', [null]]]);
    r = await es.call('POST', '/ns/_search', { sort: { 'users.age': { order: 'desc', nested_path: 'users' } } });
    expect(r.json.hits.hits.map((h: { _id: string; sort: unknown[] }) => [h._id, h.sort])).to.deep.equal([['1', [50]], ['2', [40]], ['3', [-9223372036854775808]]]);
    r = await es.call('POST', '/ns/_search', { sort: { 'users.age': { mode: 'avg', nested: { path: 'users' } } } });
    expect(ids(r)).to.deep.equal(['1', '2', '3']);
    r = await es.call('POST', '/ns/_search', { size: 0, aggs: { g: { terms: { field: 'group' }, aggs: { u: { top_hits: { sort: { 'users.last': { nested: { path: 'users' } } } } } } } } });
    expect(r.json.aggregations.g.buckets[0].u.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['2', '1', '3']);
    r = await es.call('POST', '/ns/_search', { sort: { 'users.last': { nested: { path: 'users', filter: { term: { 'users.last': 'Doe' } } } } } });
    expect(r.status, r.text).to.equal(400);
    expect(r.json.error.reason).to.equal('[nested.filter] of the sort on [users.last] is not supported by the embedded engine');
  });
});
