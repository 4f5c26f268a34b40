import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Hit = any;

const ids = (hits: Hit[]) => hits.map((h) => h._id);

describe('embedded engine: collapse.inner_hits', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/c', {
      mappings: { properties: { g: { type: 'keyword' }, tag: { type: 'keyword' }, n: { type: 'integer' }, title: { type: 'text' } } },
    });
    const docs: Array<Record<string, unknown>> = [
      { g: 'a', tag: 'x', n: 1, title: 'fox' },
      { g: 'a', tag: 'y', n: 2, title: 'fox fox' },
      { g: 'a', tag: 'x', n: 3, title: 'fox' },
      { g: 'b', tag: 'x', n: 4, title: 'fox fox fox' },
      { g: 'b', tag: 'y', n: 5, title: 'dog' },
      { tag: 'x', n: 6, title: 'fox' },
      { tag: 'y', n: 7, title: 'cat' },
      { g: 'c', tag: 'x', n: 8, title: 'dog' },
    ];
    for (const [i, doc] of docs.entries()) await es.call('PUT', `/c/_doc/${i + 1}`, doc);
    await es.call('POST', '/c/_refresh');
  });
  after(() => es.close());

  it('expands each collapsed hit with its own group, in the inner sort, paginated by from and size', async () => {
    const r = await es.call('POST', '/c/_search', {
      collapse: { field: 'g', inner_hits: { name: 'by_n', from: 1, size: 2, sort: [{ n: 'asc' }] } },
      sort: [{ n: 'desc' }],
    });
    expect(r.status).to.equal(200);
    const hits: Hit[] = r.json.hits.hits;
    expect(ids(hits)).to.deep.equal(['8', '7', '5', '3']);
    expect(hits.map((h) => h.fields.g)).to.deep.equal([['c'], [null], ['b'], ['a']]);
    const inner = hits.map((h) => h.inner_hits.by_n.hits);
    expect(inner.map((x) => x.total)).to.deep.equal([
      { value: 1, relation: 'eq' }, { value: 2, relation: 'eq' }, { value: 2, relation: 'eq' }, { value: 3, relation: 'eq' },
    ]);
    // The documents without a value form a group of their own.
    expect(inner.map((x) => ids(x.hits))).to.deep.equal([[], ['7'], ['5'], ['2', '3']]);
    expect(inner[3].hits.map((h: Hit) => h.sort)).to.deep.equal([[2], [3]]);
    expect(inner[3].hits[0]._score).to.equal(null);
    expect(inner[3].max_score).to.equal(null);
    // Inner hits are not collapsed themselves, so they carry no collapse value.
    expect(inner[3].hits[0].fields).to.equal(undefined);
  });

  it('defaults to three hits by score; groups hold only documents matching the query; several definitions by name', async () => {
    const r = await es.call('POST', '/c/_search?rest_total_hits_as_int=true', {
      query: { match: { title: 'fox' } },
      collapse: { field: 'g', max_concurrent_group_searches: 4, inner_hits: [{ name: 'best' }, { name: 'last', size: 1, sort: [{ n: 'desc' }] }] },
    });
    expect(r.status).to.equal(200);
    const hits: Hit[] = r.json.hits.hits;
    expect(r.json.hits.total).to.equal(5);
    const byGroup = new Map(hits.map((h) => [h.fields.g[0], h]));
    expect([...byGroup.keys()].sort()).to.deep.equal(['a', 'b', null].sort());
    const a = byGroup.get('a').inner_hits;
    expect(a.best.hits.total).to.equal(3);
    // doc 2 has the term twice; 1 and 3 tie and keep index order.
    expect(ids(a.best.hits.hits)).to.deep.equal(['2', '1', '3']);
    expect(a.best.hits.max_score).to.equal(a.best.hits.hits[0]._score);
    expect(a.best.hits.hits[0]._score).to.be.greaterThan(a.best.hits.hits[1]._score);
    expect(byGroup.get('a')._id).to.equal('2');
    expect(ids(a.last.hits.hits)).to.deep.equal(['3']);
    expect(a.last.hits.total).to.equal(3);
    // doc 5 is in group b but does not match the query.
    expect(byGroup.get('b').inner_hits.best.hits.total).to.equal(1);
    expect(ids(byGroup.get('b').inner_hits.best.hits.hits)).to.deep.equal(['4']);
    expect(ids(byGroup.get(null).inner_hits.best.hits.hits)).to.deep.equal(['6']);
  });

  it('post_filter narrows the groups too', async () => {
    const r = await es.call('POST', '/c/_search', {
      post_filter: { range: { n: { lte: 2 } } },
      collapse: { field: 'g', inner_hits: { name: 'all', sort: [{ n: 'desc' }] } },
      sort: [{ n: 'asc' }],
    });
    expect(ids(r.json.hits.hits)).to.deep.equal(['1']);
    const inner = r.json.hits.hits[0].inner_hits.all.hits;
    expect(inner.total).to.deep.equal({ value: 2, relation: 'eq' });
    expect(ids(inner.hits)).to.deep.equal(['2', '1']);
  });

  it('a second-level collapse keeps the best document per value inside each group, counting every member', async () => {
    const r = await es.call('POST', '/c/_search', {
      query: { term: { g: 'a' } },
      collapse: { field: 'g', inner_hits: { name: 'per_tag', collapse: { field: 'tag' }, sort: [{ n: 'desc' }] } },
    });
    const inner = r.json.hits.hits[0].inner_hits.per_tag.hits;
    expect(inner.total).to.deep.equal({ value: 3, relation: 'eq' });
    expect(ids(inner.hits)).to.deep.equal(['3', '2']);
    expect(inner.hits.map((h: Hit) => h.fields.tag)).to.deep.equal([['x'], ['y']]);
  });

  it('fetch options of the definition: version, seq_no_primary_term, _source, docvalue_fields, fields', async () => {
    const r = await es.call('POST', '/c/_search', {
      query: { term: { g: 'b' } },
      collapse: {
        field: 'g',
        inner_hits: { name: 'f', size: 1, sort: [{ n: 'asc' }], version: true, seq_no_primary_term: true, _source: ['n'], docvalue_fields: ['tag'], fields: ['title'] },
      },
    });
    const [hit] = r.json.hits.hits[0].inner_hits.f.hits.hits;
    expect(hit).to.include({ _id: '4', _version: 1 });
    expect(hit._seq_no).to.be.a('number');
    expect(hit._primary_term).to.equal(1);
    expect(hit._source).to.deep.equal({ n: 4 });
    expect(hit.fields).to.deep.equal({ tag: ['x'], title: ['fox fox fox'] });
    expect(r.json.hits.hits[0]._version).to.equal(undefined);
  });

  it('no inner_hits without definitions, and none with an empty page', async () => {
    let r = await es.call('POST', '/c/_search', { collapse: { field: 'g' } });
    expect(r.json.hits.hits.every((h: Hit) => h.inner_hits === undefined)).to.equal(true);
    r = await es.call('POST', '/c/_search', { size: 0, sort: [{ n: 'desc' }], collapse: { field: 'g', inner_hits: { name: 'x' } } });
    expect(r.json.hits.hits).to.deep.equal([]);
    expect(r.json.hits.max_score).to.equal(null);
  });

  it('refuses a definition without a name, unknown keys, bad sizes and a second-level collapse on an unmapped field', async () => {
    const refused = async (collapse: unknown) => (await es.call('POST', '/c/_search', { collapse })).status;
    expect(await refused({ field: 'g', inner_hits: { size: 1 } })).to.equal(400);
    expect(await refused({ field: 'g', inner_hits: [{ name: 'a' }, { size: 1 }] })).to.equal(400);
    expect(await refused({ field: 'g', inner_hits: { name: 'a', bogus: 1 } })).to.equal(400);
    expect(await refused({ field: 'g', inner_hits: { name: 'a', size: -1 } })).to.equal(400);
    expect(await refused({ field: 'g', max_concurrent_group_searches: 0 })).to.equal(400);
    expect(await refused({ field: 'g', inner_hits: { name: 'a', collapse: { field: 'nope' } } })).to.equal(400);
    const r = await es.call('POST', '/c/_search', { collapse: { field: 'g', inner_hits: { size: 1 } } });
    expect(r.json.error.reason).to.equal('inner_hits must have a [name]; set the [name] field in the inner_hits definition');
  });

  it('an inner collapse is exactly {field}: inner_hits or a further collapse in it is a parse error, reported before a missing name', async () => {
    // search/115_multiple_field_collapsing: both definitions are unnamed and expect /parse_exception/
    for (const inner of [{ field: 'tag', inner_hits: {} }, { field: 'tag', collapse: { field: 'tag' } }]) {
      const r = await es.call('POST', '/c/_search', { collapse: { field: 'g', inner_hits: { collapse: inner } } });
      expect(r.status, JSON.stringify(inner)).to.equal(400);
      // each object parser wraps what failed in its field, as ES's ObjectParser does
      expect(r.json.error.type).to.equal('x_content_parse_exception');
      expect(r.json.error.reason).to.match(/\[collapse\] failed to parse field \[inner_hits\]$/);
      expect(r.json.error.caused_by.reason).to.match(/\[inner_hits\] failed to parse field \[collapse\]$/);
      expect(r.json.error.caused_by.caused_by).to.deep.equal({ type: 'parsing_exception', reason: 'Invalid token in the inner collapse', line: 1, col: 1 });
    }
  });
});
