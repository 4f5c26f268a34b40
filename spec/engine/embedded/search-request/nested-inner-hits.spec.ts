import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** inner_hits of nested queries: each hit's matching nested objects, as ES's nested InnerHitsContext gives them. */
describe('embedded engine: nested inner_hits', () => {
  let es: TestEngine;
  const search = async (body: Record<string, unknown>, index = 'posts'): Promise<Json> => {
    const r = await es.call('POST', `/${index}/_search`, body);
    expect(r.status, r.text).to.equal(200);
    return r.json;
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/posts', {
      mappings: { properties: { comments: { type: 'nested', properties: { author: { type: 'keyword' }, n: { type: 'integer' }, replies: { type: 'nested' } } } } },
    });
    await es.call('PUT', '/posts/_doc/1', {
      title: 'one',
      comments: [
        { author: 'kim', n: 1, text: 'fox', replies: [{ who: 'lee' }, { who: 'kim' }] },
        { author: 'lee', n: 5, text: 'dog' },
        { author: 'kim', n: 3, text: 'fox fox', replies: [{ who: 'kim' }] },
      ],
    });
    await es.call('PUT', '/posts/_doc/2', { title: 'two', comments: [{ author: 'lee', n: 2, text: 'cat' }] });
    await es.call('POST', '/posts/_refresh');
  });
  after(() => es.close());

  it('shows each hit\'s matching objects with _nested, their own _source and score, named after the path', async () => {
    const out = await search({ query: { nested: { path: 'comments', query: { term: { 'comments.author': 'kim' } }, inner_hits: {} } }, seq_no_primary_term: true });
    expect(out.hits.hits.map((h: Json) => h._id)).to.deep.equal(['1']);
    const inner = out.hits.hits[0].inner_hits.comments.hits;
    expect(inner.total).to.deep.equal({ value: 2, relation: 'eq' });
    expect(inner.hits.map((h: Json) => [h._index, h._id, h._nested, h._source.n])).to.deep.equal([
      ['posts', '1', { field: 'comments', offset: 0 }, 1],
      ['posts', '1', { field: 'comments', offset: 2 }, 3],
    ]);
    expect(inner.hits[0]._score).to.be.a('number');
    expect(inner.max_score).to.equal(inner.hits[0]._score);
  });

  it('a name, from/size, sort, _source filtering by full path, version and docvalue_fields (_seq_no among them)', async () => {
    const out = await search({
      query: { nested: { path: 'comments', query: { match_all: {} }, inner_hits: { name: 'c', size: 2, sort: [{ 'comments.n': 'desc' }], _source: { excludes: ['comments.text', 'comments.replies'] }, version: true, docvalue_fields: ['_seq_no', 'comments.n'] } } },
      sort: ['_doc'],
    });
    const [first, second] = out.hits.hits;
    expect(first.inner_hits.c.hits.total.value).to.equal(3);
    expect(first.inner_hits.c.hits.hits.map((h: Json) => [h._source, h.sort, h._version, h.fields])).to.deep.equal([
      [{ author: 'lee', n: 5 }, [5], 1, { _seq_no: [0], 'comments.n': [5] }],
      [{ author: 'kim', n: 3 }, [3], 1, { _seq_no: [0], 'comments.n': [3] }],
    ]);
    expect(second.inner_hits.c.hits.hits.map((h: Json) => h.fields._seq_no)).to.deep.equal([[1]]);
  });

  it('nested inside nested: a path two levels down, and inner hits of inner hits', async () => {
    const deep = await search({ query: { nested: { path: 'comments.replies', query: { term: { 'comments.replies.who.keyword': 'kim' } }, inner_hits: {} } } });
    expect(deep.hits.hits[0].inner_hits['comments.replies'].hits.hits.map((h: Json) => h._nested)).to.deep.equal([
      { field: 'comments', offset: 0, _nested: { field: 'replies', offset: 1 } },
      { field: 'comments', offset: 2, _nested: { field: 'replies', offset: 0 } },
    ]);
    const twice = await search({
      query: { nested: { path: 'comments', inner_hits: {}, query: { nested: { path: 'comments.replies', query: { match_all: {} }, inner_hits: { name: 'r' } } } } },
    });
    const comments = twice.hits.hits[0].inner_hits.comments.hits.hits;
    expect(comments.map((h: Json) => [h._nested.offset, h.inner_hits.r.hits.total.value])).to.deep.equal([[0, 2], [2, 1]]);
    expect(comments[0].inner_hits.r.hits.hits[1]._source).to.deep.equal({ who: 'kim' });
  });

  it('no _source when the mappings disable it; two definitions of one name are refused', async () => {
    await es.call('PUT', '/bare', { mappings: { _source: { enabled: false }, properties: { c: { type: 'nested' } } } });
    await es.call('PUT', '/bare/_doc/1?refresh=true', { c: [{ a: 'x' }] });
    const out = await search({ query: { nested: { path: 'c', query: { match_all: {} }, inner_hits: {} } } }, 'bare');
    const hit = out.hits.hits[0].inner_hits.c.hits.hits[0];
    expect(hit._nested).to.deep.equal({ field: 'c', offset: 0 });
    expect(hit).to.not.have.property('_source');
    const twice = await es.call('POST', '/posts/_search', {
      query: { bool: { should: [
        { nested: { path: 'comments', query: { match_all: {} }, inner_hits: { name: 'x' } } },
        { nested: { path: 'comments', query: { match_all: {} }, inner_hits: { name: 'x' } } },
      ] } },
    });
    expect(twice.status).to.equal(400);
    expect(twice.json.error.reason).to.equal('[inner_hits] already contains an entry for key [x]');
  });
  it('highlights each inner hit from its own object, not from the first of its siblings', async () => {
    await es.call('PUT', '/hl', { mappings: { properties: { nested: { type: 'nested', properties: { title: { type: 'text' } } } } } });
    await es.call('PUT', '/hl/_doc/1?refresh=true', { nested: [{ title: 'purple octopus' }, { title: 'purple fish' }] });
    for (const type of ['unified', 'plain']) {
      const out = await search({
        query: { nested: { path: 'nested', query: { match: { 'nested.title': 'purple' } }, inner_hits: { name: 'n', sort: [{ _doc: 'asc' }], highlight: { type, fields: { 'nested.title': {} } } } } },
      }, 'hl');
      expect(out.hits.hits[0].inner_hits.n.hits.hits.map((h: Json) => h.highlight['nested.title'][0]), type)
        .to.deep.equal(['<em>purple</em> octopus', '<em>purple</em> fish']);
    }
  });

  it('with _source disabled, highlights only the stored fields (ES\'s highlighters have nothing else to read)', async () => {
    await es.call('PUT', '/hl_bare', {
      mappings: { _source: { enabled: false }, properties: { nested: { type: 'nested', properties: { field: { type: 'text' }, stored_only: { type: 'text', store: true } } } } },
    });
    await es.call('PUT', '/hl_bare/_doc/1?refresh=true', { nested: { field: 'The quick brown fox', stored_only: 'The quick brown fox' } });
    const out = await search({
      query: { nested: { path: 'nested', query: { multi_match: { query: 'quick', fields: ['nested.field', 'nested.stored_only'] } },
        inner_hits: { highlight: { fields: { 'nested.field': {}, 'nested.stored_only': {} } } } } },
    }, 'hl_bare');
    expect(out.hits.hits[0].inner_hits.nested.hits.hits[0].highlight).to.deep.equal({ 'nested.stored_only': ['The <em>quick</em> brown fox'] });
  });
});
