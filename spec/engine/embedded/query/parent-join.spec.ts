import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';

/** The parent-join module: the join field, parent_id / has_child / has_parent, children and parent aggregations. */
describe('embedded engine: join field and its queries and aggregations', () => {
  let es: TestEngine;
  const ids = async (query: Record<string, unknown>): Promise<string[]> => {
    const r = await es.call('POST', '/qa/_search', { query });
    expect(r.status, r.text).to.equal(200);
    return r.json.hits.hits.map((h: { _id: string }) => h._id).sort();
  };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/qa', { mappings: { properties: { join: { type: 'join', relations: { question: ['answer', 'comment'], answer: 'vote' } }, text: { type: 'keyword' } } } });
    const lines = [
      { index: { _index: 'qa', _id: 'q1' } }, { join: 'question', text: 'how' },
      { index: { _index: 'qa', _id: 'q2' } }, { join: { name: 'question' }, text: 'why' },
      { index: { _index: 'qa', _id: 'a1', routing: 'q1' } }, { join: { name: 'answer', parent: 'q1' }, text: 'so' },
      { index: { _index: 'qa', _id: 'a2', routing: 'q1' } }, { join: { name: 'answer', parent: 'q1' }, text: 'thus' },
      { index: { _index: 'qa', _id: 'c1', routing: 'q2' } }, { join: { name: 'comment', parent: 'q2' }, text: 'hm' },
      { index: { _index: 'qa', _id: 'v1', routing: 'q1' } }, { join: { name: 'vote', parent: 'a2' }, text: 'up' },
    ];
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  it('refuses a document with an unknown relation or a child without its parent', async () => {
    const unknown = await es.call('PUT', '/qa/_doc/x?routing=q1', { join: { name: 'reply', parent: 'q1' } });
    expect(unknown.status).to.equal(400);
    expect(unknown.json.error.reason).to.equal('unknown join name [reply] for field [join]');
    const orphan = await es.call('PUT', '/qa/_doc/x', { join: { name: 'answer' } });
    expect(orphan.status).to.equal(400);
    expect(orphan.json.error.reason).to.equal('[parent] is missing for join field [join]');
  });

  it('parent_id: the children of one type of one parent', async () => {
    expect(await ids({ parent_id: { type: 'answer', id: 'q1' } })).to.deep.equal(['a1', 'a2']);
    expect(await ids({ parent_id: { type: 'comment', id: 'q1' } })).to.deep.equal([]);
    expect(await ids({ parent_id: { type: 'vote', id: 'a2' } })).to.deep.equal(['v1']);
  });

  it('has_child: parents with a matching child, min_children and the score modes', async () => {
    expect(await ids({ has_child: { type: 'answer', query: { match_all: {} } } })).to.deep.equal(['q1']);
    expect(await ids({ has_child: { type: 'comment', query: { term: { text: 'hm' } } } })).to.deep.equal(['q2']);
    expect(await ids({ has_child: { type: 'answer', query: { match_all: {} }, min_children: 3 } })).to.deep.equal([]);
    expect(await ids({ has_child: { type: 'vote', query: { match_all: {} } } })).to.deep.equal(['a2']);
    const r = await es.call('POST', '/qa/_search', { query: { has_child: { type: 'answer', query: { match_all: {} }, score_mode: 'sum', boost: 2 } } });
    expect(r.json.hits.hits[0]._score).to.equal(4);
  });

  it('has_parent: children of a matching parent', async () => {
    expect(await ids({ has_parent: { parent_type: 'question', query: { term: { text: 'how' } } } })).to.deep.equal(['a1', 'a2']);
    expect(await ids({ has_parent: { parent_type: 'question', query: { match_all: {} } } })).to.deep.equal(['a1', 'a2', 'c1']);
    expect(await ids({ has_parent: { parent_type: 'answer', query: { term: { text: 'thus' } } } })).to.deep.equal(['v1']);
  });

  it('refuses a type the join does not hold, unless ignore_unmapped', async () => {
    const e = await refusalOf(es, 'qa', { query: { has_child: { type: 'question', query: { match_all: {} } } } });
    expect(e.reason).to.contain('[has_child] join field [join] doesn\'t hold [question] as a child');
    expect(await ids({ has_parent: { parent_type: 'vote', query: { match_all: {} }, ignore_unmapped: true } })).to.deep.equal([]);
  });

  it('children and parent aggregations move a bucket across the relation', async () => {
    const r = await aggregationsOf(es, 'qa', {
      query: { term: { text: 'how' } },
      aggs: { answers: { children: { type: 'answer' }, aggs: { texts: { terms: { field: 'text' } } } } },
    });
    expect(r.answers.doc_count).to.equal(2);
    expect(r.answers.texts.buckets.map((b: { key: string }) => b.key)).to.deep.equal(['so', 'thus']);
    const p = await aggregationsOf(es, 'qa', { aggs: { texts: { terms: { field: 'text', include: ['up', 'hm'] }, aggs: { up: { parent: { type: 'vote' } }, of: { parent: { type: 'comment' } } } } } });
    const byKey = Object.fromEntries(p.texts.buckets.map((b: { key: string; up: { doc_count: number }; of: { doc_count: number } }) => [b.key, [b.up.doc_count, b.of.doc_count]]));
    expect(byKey).to.deep.equal({ up: [1, 0], hm: [0, 1] });
  });

  it('inner_hits: a has_child hit shows its matching children, a has_parent hit its parent', async () => {
    const c = await es.call('POST', '/qa/_search', { query: { has_child: { type: 'answer', query: { term: { text: 'thus' } }, inner_hits: { seq_no_primary_term: true } } } });
    expect(c.json.hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['q1']);
    const inner = c.json.hits.hits[0].inner_hits.answer.hits;
    expect(inner.total.value).to.equal(1);
    expect(inner.hits[0]).to.include({ _index: 'qa', _id: 'a2' });
    expect(inner.hits[0]._nested).to.equal(undefined);
    expect(inner.hits[0]._seq_no).to.be.a('number');
    const p = await es.call('POST', '/qa/_search', {
      query: { bool: { should: [{ term: { text: 'hm' } }, { has_parent: { parent_type: 'question', query: { term: { text: 'how' } }, inner_hits: { name: 'q' } } }] } },
    });
    const byId = Object.fromEntries(p.json.hits.hits.map((h: { _id: string; inner_hits: { q: { hits: { hits: Array<{ _id: string }> } } } }) => [h._id, h.inner_hits.q.hits.hits.map((x) => x._id)]));
    expect(byId).to.deep.equal({ a1: ['q1'], a2: ['q1'], c1: [] });
  });

  it('the fields API shows a join value as the source holds it', async () => {
    const r = await es.call('POST', '/qa/_search', { query: { ids: { values: ['q1', 'a1'] } }, fields: ['join'], _source: false });
    const byId = Object.fromEntries(r.json.hits.hits.map((h: { _id: string; fields: { join: unknown[] } }) => [h._id, h.fields.join]));
    expect(byId).to.deep.equal({ q1: ['question'], a1: [{ name: 'answer', parent: 'q1' }] });
  });

  it('an index without a join field: empty children buckets, and the queries refused', async () => {
    await es.call('PUT', '/plain/_doc/1?refresh=true', { text: 'x' });
    const r = await aggregationsOf(es, 'plain', { aggs: { c: { children: { type: 'answer' } } } });
    expect(r.c.doc_count).to.equal(0);
    const e = await refusalOf(es, 'plain', { query: { parent_id: { type: 'answer', id: '1' } } });
    expect(e.reason).to.contain('[parent_id] no join field has been configured');
  });
});
