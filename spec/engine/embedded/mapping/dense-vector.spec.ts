import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** dense_vector fields (ES 8.15's "Dense vector field type"): mapping parameters, the vectors documents may hold. */
describe('embedded engine: dense_vector fields', () => {
  let es: TestEngine;
  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  async function put(index: string, id: string, doc: unknown): Promise<{ status: number; cause?: { type: string; reason: string }; json: any }> {
    const r = await es.call('PUT', `/${index}/_doc/${id}`, doc);
    return { status: r.status, cause: r.json.error?.caused_by, json: r.json };
  }

  it('takes dims from the first vector when the mapping has none, then holds documents to them', async () => {
    expect((await es.call('PUT', '/v', { mappings: { properties: { v: { type: 'dense_vector' } } } })).status).to.equal(200);
    expect((await put('v', '1', { v: [1, 2, 3] })).status).to.equal(201);
    expect((await es.call('GET', '/v/_mapping')).json.v.mappings.properties.v).to.deep.equal({ type: 'dense_vector', dims: 3 });
    const wrong = await put('v', '2', { v: [1, 2] });
    expect(wrong.status).to.equal(400);
    expect(wrong.json.error.type).to.equal('document_parsing_exception');
    expect(wrong.cause!.reason).to.equal("The [dense_vector] field [v] in doc [document with id '2'] has a different number of dimensions [2] than defined in the mapping [3]");
  });

  it('refuses what ES refuses: non-numbers, a zero vector under cosine, a vector not of unit length under dot_product, bytes out of range', async () => {
    await es.call('PUT', '/v', {
      mappings: {
        properties: {
          cos: { type: 'dense_vector', dims: 2 },
          dot: { type: 'dense_vector', dims: 2, similarity: 'dot_product' },
          l2: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' },
          b: { type: 'dense_vector', dims: 2, element_type: 'byte', similarity: 'l2_norm' },
          raw: { type: 'dense_vector', dims: 2, index: false },
        },
      },
    });
    expect((await put('v', '1', { l2: [1, 'x'] })).cause).to.deep.equal({ type: 'parsing_exception', reason: 'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [VALUE_STRING]' });
    expect((await put('v', '1', { cos: [0, 0] })).cause!.reason).to.equal('The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [0.0, 0.0]');
    expect((await put('v', '1', { dot: [1, 1] })).cause!.reason).to.equal('The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: [1.0, 1.0]');
    expect((await put('v', '1', { b: [1, 300] })).cause!.reason).to.match(/^element_type \[byte\] vectors only support integers between \[-128, 127\] but found \[300\] at dim \[1\]/);
    expect((await put('v', '1', { b: [1.5, 3] })).cause!.reason).to.match(/^element_type \[byte\] vectors only support non-decimal values but found decimal value \[1.5\] at dim \[0\]/);
    // not indexed: no similarity, so a zero vector is fine; the others pass as given
    const ok = await put('v', '1', { raw: [0, 0], dot: [0.6, 0.8], l2: [0, 0], b: [-128, 127], cos: [3, 4] });
    expect(ok.status).to.equal(201);
    expect((await es.call('GET', '/v/_doc/1')).json._source).to.deep.equal({ raw: [0, 0], dot: [0.6, 0.8], l2: [0, 0], b: [-128, 127], cos: [3, 4] });
  });

  it('checks the mapping parameters as ES does', async () => {
    const reason = async (m: Record<string, unknown>) => (await es.call('PUT', '/bad', { mappings: { properties: { v: { type: 'dense_vector', ...m } } } })).json.error?.reason;
    expect(await reason({ dims: 0 })).to.equal('Failed to parse mapping: The number of dimensions should be in the range [1, 4096] but was [0]');
    expect(await reason({ dims: 5000 })).to.equal('Failed to parse mapping: The number of dimensions should be in the range [1, 4096] but was [5000]');
    expect(await reason({ similarity: 'manhattan' })).to.equal('Failed to parse mapping: Unknown value [manhattan] for field [similarity] - accepted values are [l2_norm, cosine, dot_product, max_inner_product]');
    expect(await reason({ element_type: 'int' })).to.match(/^Failed to parse mapping: invalid element_type \[int\]/);
    expect(await reason({ analyzer: 'standard' })).to.equal('Failed to parse mapping: unknown parameter [analyzer] on mapper [v] of type [dense_vector]');
    expect(await reason({ dims: 3, similarity: 'max_inner_product', element_type: 'byte', index: true })).to.equal(undefined);
  });

  it('keeps the vectors (and the inferred dims) across a restart', async () => {
    await es.call('PUT', '/v', { mappings: { properties: { v: { type: 'dense_vector', similarity: 'l2_norm' } } } });
    await put('v', '1', { v: [1, 2, 3] });
    const dataDir = es.dataDir;
    await es.close(false);
    es = await startEngine({ dataDir });
    expect((await es.call('GET', '/v/_mapping')).json.v.mappings.properties.v).to.deep.equal({ type: 'dense_vector', similarity: 'l2_norm', dims: 3 });
    expect((await put('v', '2', { v: [1, 2] })).status).to.equal(400);
    // the vector is held compactly (a Float32Array), not as numbers of doc values
    expect((await es.call('POST', '/v/_search', { query: { exists: { field: 'v' } } })).json.hits.total.value).to.equal(1);
    const column = es.engine.indices.get('v')!.inverted!.field('v')!.vectors!;
    const held = Array.from({ length: column.size }, (_, ord) => column.get(ord)).filter((x) => x !== undefined);
    expect(held).to.have.length(1);
    expect(held[0]).to.be.instanceOf(Float32Array);
    expect(Array.from(held[0]!)).to.deep.equal([1, 2, 3]);
  });
});
