import { expect } from 'chai';
import { createAnalysisRegistry } from '../../../../lib/engine/embedded/analysis/index.js';
import { documentMatches, parseQuery } from '../../../../lib/engine/embedded/search/query/index.js';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/** The span query family, with the reference pages' semantics (Lucene's span positions). */
describe('embedded engine: span queries', () => {
  let es: TestEngine;
  const DOCS = [
    { text: 'the quick brown fox jumps over the lazy dog', other: 'quick' },
    { text: 'brown quick fox', other: 'slow' },
    { text: 'quick fox', other: 'slow' },
    { text: 'a lazy brown dog', other: 'dog' },
  ];
  const MAPPINGS = { properties: { text: { type: 'text' }, other: { type: 'text' }, kw: { type: 'keyword' } } };

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/spans', { mappings: MAPPINGS });
    const lines: unknown[] = [];
    DOCS.forEach((d, i) => lines.push({ index: { _index: 'spans', _id: String(i + 1) } }, d));
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  /** The ids the engine finds, checked against the live-stream matcher on the same documents. */
  const ids = async (query: unknown): Promise<string[]> => {
    const r = await es.call('POST', '/spans/_search', { query, size: 10 });
    expect(r.status, r.text).to.equal(200);
    const found = (r.json.hits.hits as Array<{ _id: string }>).map((h) => h._id).sort();
    const q = parseQuery(query);
    const matched = DOCS.map((d, i) => String(i + 1)).filter((id) => documentMatches(q, { id, source: DOCS[Number(id) - 1] }, { mappings: MAPPINGS, registry: createAnalysisRegistry() }));
    expect(matched, 'document matcher').to.deep.equal(found);
    return found;
  };
  const error = async (query: unknown) => {
    const r = await es.call('POST', '/spans/_search', { query });
    expect(r.status, r.text).to.equal(400);
    return r.json.error as { type: string; reason: string };
  };
  const term = (value: string, field = 'text') => ({ span_term: { [field]: value } });

  it('span_term: the unanalyzed term, short and long forms', async () => {
    expect(await ids(term('quick'))).to.deep.equal(['1', '2', '3']);
    expect(await ids({ span_term: { text: { value: 'lazy', boost: 2 } } })).to.deep.equal(['1', '4']);
  });

  it('span_near: slop and in_order', async () => {
    expect(await ids({ span_near: { clauses: [term('quick'), term('fox')], slop: 0, in_order: true } })).to.deep.equal(['2', '3']);
    expect(await ids({ span_near: { clauses: [term('quick'), term('fox')], slop: 1, in_order: true } })).to.deep.equal(['1', '2', '3']);
    expect(await ids({ span_near: { clauses: [term('fox'), term('quick')], slop: 1, in_order: true } })).to.deep.equal([]);
    expect(await ids({ span_near: { clauses: [term('fox'), term('quick')], slop: 1, in_order: false } })).to.deep.equal(['1', '2', '3']);
  });

  it('span_gap among span_near\'s clauses: exactly that many positions between its neighbours', async () => {
    const near = (width: number) => ({ span_near: { clauses: [term('quick'), { span_gap: { text: width } }, term('fox')], slop: 0, in_order: true } });
    expect(await ids(near(1))).to.deep.equal(['1']);
    expect(await ids(near(2))).to.deep.equal([]);
    const r = await es.call('POST', '/spans/_search', { query: { span_near: { clauses: [term('quick'), { span_gap: { text: 1 } }, term('fox')], slop: 0, in_order: false } } });
    expect([r.status, r.json.error.reason]).to.deep.equal([400, 'Gaps can only be added to ordered near queries']);
  });

  it('span_or, span_first (end is exclusive), span_multi', async () => {
    expect(await ids({ span_or: { clauses: [term('jumps'), term('dog')] } })).to.deep.equal(['1', '4']);
    expect(await ids({ span_first: { match: term('quick'), end: 1 } })).to.deep.equal(['3']);
    expect(await ids({ span_first: { match: term('quick'), end: 2 } })).to.deep.equal(['1', '2', '3']);
    expect(await ids({ span_multi: { match: { prefix: { text: 'ju' } } } })).to.deep.equal(['1']);
    expect(await ids({ span_near: { clauses: [{ span_multi: { match: { wildcard: { text: 'b*n' } } } }, term('dog')], slop: 0, in_order: true } })).to.deep.equal(['4']);
  });

  it('span_not: include minus exclude within pre/post/dist positions', async () => {
    expect(await ids({ span_not: { include: term('quick'), exclude: term('brown') } })).to.deep.equal(['1', '2', '3']);
    expect(await ids({ span_not: { include: term('quick'), exclude: term('brown'), post: 1 } })).to.deep.equal(['2', '3']);
    expect(await ids({ span_not: { include: term('quick'), exclude: term('brown'), dist: 1 } })).to.deep.equal(['3']);
    expect(await ids({ span_not: { include: term('quick'), exclude: { span_near: { clauses: [term('quick'), term('fox')], slop: 0, in_order: true } } } })).to.deep.equal(['1']);
  });

  it('span_containing and span_within', async () => {
    const big = { span_near: { clauses: [term('quick'), term('jumps')], slop: 5, in_order: true } };
    expect(await ids({ span_containing: { big, little: term('fox') } })).to.deep.equal(['1']);
    expect(await ids({ span_within: { big, little: term('brown') } })).to.deep.equal(['1']);
    expect(await ids({ span_within: { big, little: term('dog') } })).to.deep.equal([]);
  });

  it('field_masking_span lets clauses of another field join a span_near', async () => {
    const masked = { field_masking_span: { query: term('quick', 'other'), field: 'text' } };
    expect(await ids({ span_near: { clauses: [term('quick'), masked], slop: 5, in_order: false } })).to.deep.equal(['1']);
    expect((await error({ span_near: { clauses: [term('quick'), term('quick', 'other')], slop: 5 } })).reason).to.equal('Clauses must have same field.');
  });

  it('refuses what Elasticsearch refuses', async () => {
    expect((await error({ span_near: { clauses: [{ term: { text: 'quick' } }] } })).type).to.equal('parsing_exception');
    expect((await error({ span_multi: { match: { term: { text: 'quick' } } } })).reason).to.equal('[span_multi] [match] must be of type multi term query');
    expect((await error({ span_not: { include: term('a'), exclude: term('b'), dist: 1, pre: 1 } })).reason).to.contain('[dist] or [pre] & [post]');
    expect((await error({ span_first: { match: term('a') } })).type).to.equal('parsing_exception');
  });

  it('refuses with Elasticsearch\'s messages: a clause not a span query, a missing clause, a nested clause with a boost', async () => {
    const refusal = async (query: unknown) => {
      const e = await error(query);
      return [e.type, e.reason];
    };
    expect(await refusal({ span_near: { clauses: [{ term: { text: 'quick' } }] } })).to.deep.equal(['parsing_exception', 'span_near [clauses] must be of type span query']);
    expect(await refusal({ span_not: { include: { term: { text: 'a' } }, exclude: term('b') } })).to.deep.equal(['parsing_exception', 'span_not [include] must be of type span query']);
    expect(await refusal({ field_masking_span: { query: { term: { text: 'a' } }, field: 'text' } })).to.deep.equal(['parsing_exception', '[field_masking_span] query must be of type span query']);
    expect(await refusal({ span_or: { clauses: [] } })).to.deep.equal(['parsing_exception', 'span_or must include [clauses]']);
    expect(await refusal({ span_first: { end: 1 } })).to.deep.equal(['parsing_exception', 'span_first must have [match] span query clause']);
    expect(await refusal({ span_first: { match: term('a') } })).to.deep.equal(['parsing_exception', 'span_first must have [end] set for it']);
    expect(await refusal({ span_containing: { little: term('a') } })).to.deep.equal(['illegal_argument_exception', 'inner clause [big] cannot be null.']);
    expect(await refusal({ span_within: { big: term('a') } })).to.deep.equal(['illegal_argument_exception', 'inner clause [little] cannot be null.']);
    expect(await refusal({ span_first: { match: { span_term: { text: { value: 'a', boost: 2 } } }, end: 3 } }))
      .to.deep.equal(['parsing_exception', "span_first [match] as a nested span clause can't have non-default boost value [2.0]"]);
  });

  it('scores as Lucene\'s span scorer: span_term as term, a tighter span_near above a looser one', async () => {
    const scores = async (query: unknown) => {
      const r = await es.call('POST', '/spans/_search', { query });
      return Object.fromEntries((r.json.hits.hits as Array<{ _id: string; _score: number }>).map((h) => [h._id, h._score]));
    };
    expect(await scores(term('quick'))).to.deep.equal(await scores({ term: { text: 'quick' } }));
    const near = await scores({ span_near: { clauses: [term('quick'), term('fox')], slop: 1, in_order: true } });
    expect(near['3']).to.be.greaterThan(near['1']);
  });

  it('a span on an unmapped field matches nothing', async () => {
    expect(await ids(term('x', 'missing'))).to.deep.equal([]);
  });
});
