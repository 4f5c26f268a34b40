import { expect } from 'chai';
import { aggregationsOf, ndjson, refusalOf, startEngine, type TestEngine } from '../support.js';
import type { ApiDialect } from '../../../../lib/config/index.js';

/**
 * `value_type` names the values source ahead of the field's own type (ValuesSourceConfig's "if the
 * user gave us a type hint, respect that"). Elasticsearch 8 refuses a hint of another source type
 * than the field's (`Field type [text] is incompatible with specified value_type [...]`, the hint
 * as ValueType.toString prints it); OpenSearch 2, forked before that check, reads the field as the
 * hint says and refuses only a numeric hint on a field without numeric doc values, as
 * CoreValuesSourceType.NUMERIC.getField does. On an unmapped field the hint types the source.
 */
async function hintedIndex(apiDialect?: ApiDialect): Promise<TestEngine> {
  const es = await startEngine({ apiDialect });
  const create = await es.call('PUT', '/hinted', {
    mappings: { properties: { code: { type: 'text', fielddata: true }, tag: { type: 'keyword' }, addr: { type: 'ip' }, n: { type: 'long' } } },
  });
  expect(create.status, create.text).to.equal(200);
  const bulk = await es.call('POST', '/hinted/_bulk?refresh=true', ndjson([
    { index: {} }, { code: '100', tag: '100', addr: '10.0.0.1', n: 100 },
    { index: {} }, { code: '100', tag: '100', addr: '10.0.0.2', n: 100 },
    { index: {} }, { code: '200', tag: '200', addr: '10.0.0.3', n: 200 },
  ]), { 'content-type': 'application/x-ndjson' });
  expect(bulk.status, bulk.text).to.equal(200);
  return es;
}

type Refusal = [name: string, aggregation: Record<string, unknown>, reason: string];

/** One case per refusal: the aggregation answered 400 illegal_argument_exception with the reason. */
function itRefuses(engine: () => TestEngine, refusals: Refusal[]): void {
  for (const [name, body, reason] of refusals) {
    it(`${name} is refused`, async () => {
      const error = await refusalOf(engine(), 'hinted', { size: 0, aggs: { a: body } });
      expect(error).to.include({ type: 'illegal_argument_exception', reason });
    });
  }
}

describe('embedded engine: an aggregation value_type hint (Elasticsearch)', () => {
  let es: TestEngine;
  before(async () => {
    es = await hintedIndex();
  });
  after(() => es.close());

  const refused: Refusal[] = [
    ['terms long on text', { terms: { field: 'code', value_type: 'long' } }, 'Field type [text] is incompatible with specified value_type [byte|short|integer|long]'],
    ['terms double on keyword', { terms: { field: 'tag', value_type: 'double' } }, 'Field type [keyword] is incompatible with specified value_type [float|double]'],
    ['terms string on long', { terms: { field: 'n', value_type: 'string' } }, 'Field type [long] is incompatible with specified value_type [string]'],
    ['avg date on ip', { avg: { field: 'addr', value_type: 'date' } }, 'Field type [ip] is incompatible with specified value_type [date]'],
    ['max boolean on long', { max: { field: 'n', value_type: 'boolean' } }, 'Field type [long] is incompatible with specified value_type [boolean]'],
  ];
  itRefuses(() => es, refused);

  it('a hint of the field own source type reads it: string on text, double on long', async () => {
    const aggs = await aggregationsOf(es, 'hinted', {
      size: 0,
      aggs: { s: { terms: { field: 'code', value_type: 'string' } }, d: { terms: { field: 'n', value_type: 'double' } } },
    });
    expect(aggs.s.buckets).to.deep.equal([{ key: '100', doc_count: 2 }, { key: '200', doc_count: 1 }]);
    expect(aggs.d.buckets.map((b: { key: unknown }) => b.key)).to.deep.equal([100, 200]);
  });

  it('on an unmapped field the hint types the missing value', async () => {
    const aggs = await aggregationsOf(es, 'hinted', { size: 0, aggs: { a: { terms: { field: 'none', value_type: 'long', missing: 7 } } } });
    expect(aggs.a.buckets).to.deep.equal([{ key: 7, doc_count: 3 }]);
  });
});

describe('embedded engine: an aggregation value_type hint (OpenSearch)', () => {
  let es: TestEngine;
  before(async () => {
    es = await hintedIndex('opensearch');
  });
  after(() => es.close());

  const refused: Refusal[] = [
    ['terms long on text', { terms: { field: 'code', value_type: 'long' } }, 'Expected numeric type on field [code], but got [text]'],
    ['terms double on keyword', { terms: { field: 'tag', value_type: 'double' } }, 'Expected numeric type on field [tag], but got [keyword]'],
    ['avg date on ip', { avg: { field: 'addr', value_type: 'date' } }, 'Expected numeric type on field [addr], but got [ip]'],
    ['histogram boolean on keyword', { histogram: { field: 'tag', value_type: 'boolean', interval: 1 } }, 'Expected numeric type on field [tag], but got [keyword]'],
  ];
  itRefuses(() => es, refused);

  it('a string hint reads a numeric field, and a numeric hint another numeric one', async () => {
    const aggs = await aggregationsOf(es, 'hinted', {
      size: 0,
      aggs: { s: { terms: { field: 'n', value_type: 'string' } }, b: { max: { field: 'n', value_type: 'boolean' } } },
    });
    expect(aggs.s.buckets.map((b: { doc_count: number }) => b.doc_count)).to.deep.equal([2, 1]);
    expect(aggs.b.value).to.equal(200);
  });
});
