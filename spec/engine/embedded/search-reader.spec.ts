import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';
import { UrlParams } from '../../../lib/engine/embedded/index.js';
import { parseSearchRequest, runSearch } from '../../../lib/engine/embedded/search/index.js';

/** Enough documents that a query over all of them pauses inside its clauses (every 2,048 postings), not only between phases. */
const DOCS = 3000;
/** Documents written while the search is under way: one at each of its first pauses. */
const WRITTEN = 12;

const QUERY = {
  bool: {
    must: [{ match: { t: 'word' } }],
    filter: [{ range: { n: { lt: DOCS } } }, { nested: { path: 'items', query: { term: { 'items.k': 'a' } } } }],
  },
};

/**
 * A search in this process that, at each pause between two slices of its work (it pauses at every
 * chance: slices of 0 ms), first awaits `atPause(n)` (n: the pause's number): a write made there
 * lands while the search is under way, after it began and before it answers.
 */
async function searchWhile(es: TestEngine, body: Record<string, unknown>, atPause: (n: number) => Promise<void>): Promise<{ body: Record<string, any>; pauses: number }> {
  const handle = es.engine.indices.get('race')!;
  const request = parseSearchRequest(body, UrlParams.NONE, 10_000);
  let pauses = 0;
  const result = await runSearch([handle], request, performance.now(), {
    sliceLength: () => 0,
    pauseFor: async () => {
      await atPause(pauses++);
      await new Promise((resolve) => setImmediate(resolve));
    },
  });
  return { body: result, pauses };
}

describe('embedded engine: a search reads the index as it was when it began (writes while it pauses)', () => {
  let es: TestEngine;
  /** Each document's seq_no as indexed. */
  const seqNos = new Map<string, number>();

  beforeEach(async function () {
    this.timeout(120_000);
    es = await startEngine();
    const created = await es.call('PUT', '/race', {
      mappings: { properties: { n: { type: 'integer' }, tag: { type: 'keyword' }, t: { type: 'text' }, items: { type: 'nested', properties: { k: { type: 'keyword' } } } } },
    });
    expect(created.status, created.text).to.equal(200);
    const lines: string[] = [];
    for (let i = 0; i < DOCS; i++) {
      lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i, tag: i % 2 ? 'odd' : 'even', t: `word w${i}`, items: [{ k: 'a' }, { k: 'b' }] }));
    }
    const bulk = await es.call('POST', '/race/_bulk?refresh=true', lines.join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
    expect(bulk.json.errors).to.equal(false);
    seqNos.clear();
    for (const item of bulk.json.items) seqNos.set(item.index._id, item.index._seq_no);
  });
  afterEach(() => es.close());

  /** The hits, total and aggregation of a search that saw every document as indexed. */
  function expectAsIndexed(body: Record<string, any>): void {
    expect(body.hits.total).to.deep.equal({ value: DOCS, relation: 'eq' });
    const hits = body.hits.hits as Array<Record<string, any>>;
    expect(hits.length, 'hits fetched').to.equal(DOCS);
    hits.forEach((h, i) => {
      expect(h._id).to.equal(String(i));
      expect(h._version, `_version of ${h._id}`).to.equal(1);
      expect(h._seq_no, `_seq_no of ${h._id}`).to.equal(seqNos.get(h._id));
      expect(h._source).to.deep.equal({ n: i, tag: i % 2 ? 'odd' : 'even', t: `word w${i}`, items: [{ k: 'a' }, { k: 'b' }] });
      expect(h.sort).to.deep.equal([i]);
    });
    expect(body.aggregations.tags.buckets).to.deep.equal([{ key: 'even', doc_count: DOCS / 2 }, { key: 'odd', doc_count: DOCS / 2 }]);
  }

  const body = {
    // the documents as indexed have seq_no 0 to DOCS - 1 (a write meanwhile gives one a later one); a post filter runs after the aggregations
    query: QUERY, post_filter: { range: { _seq_no: { lt: DOCS } } }, size: DOCS, sort: [{ n: 'asc' }], version: true, seq_no_primary_term: true, track_total_hits: true,
    aggs: { tags: { terms: { field: 'tag' } } },
  };

  it('documents updated meanwhile are hits once, as they were (source, version, seq_no, sort values, aggregations), and counted once', async () => {
    const handle = es.engine.indices.get('race')!;
    const firstOrd = handle.inverted!.ordOf('0')!;
    const { body: found, pauses } = await searchWhile(es, body, async (n) => {
      if (n >= WRITTEN) return;
      const r = await es.call('PUT', `/race/_doc/${n}`, { n: DOCS + n, tag: 'changed', t: 'other', items: [{ k: 'z' }] });
      expect(r.status, r.text).to.equal(200);
    });
    expect(pauses, 'pauses of the search').to.be.above(WRITTEN);
    expectAsIndexed(found);
    // the writes landed: a search that begins now sees them
    const after = await es.call('POST', '/race/_search', { query: QUERY, size: 0, track_total_hits: true });
    expect(after.json.hits.total.value).to.equal(DOCS - WRITTEN);
    const changed = await es.call('GET', '/race/_doc/0');
    expect(changed.json._source.tag).to.equal('changed');
    // once the search is over, what only it still read is forgotten
    expect(handle.inverted!.idOf(firstOrd)).to.equal(undefined);
  });

  it('documents deleted meanwhile are hits, as they were, and counted', async () => {
    const { body: found } = await searchWhile(es, body, async (n) => {
      if (n >= WRITTEN) return;
      const r = await es.call('DELETE', `/race/_doc/${n}`);
      expect(r.status, r.text).to.equal(200);
    });
    expectAsIndexed(found);
    const count = await es.call('POST', '/race/_count', { query: QUERY });
    expect(count.json.count).to.equal(DOCS - WRITTEN);
  });

  it('documents added meanwhile are not seen', async () => {
    const { body: found } = await searchWhile(es, body, async (n) => {
      if (n >= WRITTEN) return;
      const r = await es.call('PUT', `/race/_doc/new-${n}`, { n: n, tag: 'even', t: 'word new', items: [{ k: 'a' }] });
      expect(r.status, r.text).to.equal(201);
    });
    expectAsIndexed(found);
  });

  it('a compaction of the postings while the search runs keeps those of the documents it still sees', async function () {
    this.timeout(120_000);
    // 10,000 removed documents: the next removal starts a compaction (a stretch at a time, between the search's slices)
    const churn: string[] = [];
    for (let i = 0; i <= 10_000; i++) churn.push(JSON.stringify({ index: { _id: 'churn' } }), JSON.stringify({ n: -1, t: 'churn' }));
    expect((await es.call('POST', '/race/_bulk', churn.join('\n') + '\n', { 'content-type': 'application/x-ndjson' })).json.errors).to.equal(false);
    const named = { ...body, query: { bool: { ...QUERY.bool, should: [{ match: { t: { query: 'word', _name: 'words' } } }] } } };
    const { body: found } = await searchWhile(es, named, async (n) => {
      if (n >= WRITTEN) return;
      expect((await es.call('PUT', `/race/_doc/${n}`, { n: DOCS + n, tag: 'changed', t: 'other', items: [{ k: 'z' }] })).status).to.equal(200);
    });
    expectAsIndexed(found);
    // named queries run after the fetch began: on postings compacted meanwhile
    for (const h of found.hits.hits) expect(h.matched_queries, `matched_queries of ${h._id}`).to.deep.equal(['words']);
  });

  it("a by-query search finds the documents changed meanwhile with the seq_no they had: the guarded write is a version conflict", async () => {
    const { body: found } = await searchWhile(es, { _source: false, seq_no_primary_term: true, size: DOCS, query: QUERY, track_total_hits: true }, async (n) => {
      if (n >= WRITTEN) return;
      expect((await es.call('POST', `/race/_update/${n}`, { doc: { tag: 'changed' } })).status).to.equal(200);
    });
    const hits = found.hits.hits as Array<Record<string, any>>;
    expect(found.hits.total.value).to.equal(DOCS);
    expect(hits).to.have.length(DOCS);
    // as _update_by_query writes each hit: guarded by the seq_no it was found with
    const changedMeanwhile = hits.find((h) => h._id === '0')!;
    expect(changedMeanwhile._seq_no).to.equal(seqNos.get('0'));
    const conflict = await es.call('POST', `/race/_doc/0?if_seq_no=${changedMeanwhile._seq_no}&if_primary_term=${changedMeanwhile._primary_term}`, { n: 0 });
    expect(conflict.status, conflict.text).to.equal(409);
    expect(conflict.json.error.type).to.equal('version_conflict_engine_exception');
    const untouched = hits.find((h) => h._id === String(WRITTEN))!;
    const write = await es.call('POST', `/race/_doc/${WRITTEN}?if_seq_no=${untouched._seq_no}&if_primary_term=${untouched._primary_term}`, { n: WRITTEN });
    expect(write.status, write.text).to.equal(200);
  });
});
