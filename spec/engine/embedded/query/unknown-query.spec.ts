import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/**
 * An unknown query name is refused as Elasticsearch refuses it (AbstractQueryBuilder with
 * SuggestingErrorOnUnknown): `unknown query [mach] did you mean [match]?`, the registered names
 * more than half similar (Lucene's Levenshtein similarity), best first, several as `any of [...]`.
 */
describe('embedded engine: unknown query names get "did you mean"', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/q', { mappings: { properties: { a: { type: 'keyword' } } } });
  });
  after(() => es.close());

  const refusal = async (query: Record<string, unknown>) => {
    const r = await es.call('POST', '/q/_search', { query });
    expect(r.status, r.text).to.equal(400);
    return r.json.error;
  };

  it('one close name', async () => {
    const error = await refusal({ mach: { a: 'x' } });
    expect(error).to.include({ type: 'parsing_exception', reason: 'unknown query [mach] did you mean [match]?' });
    expect(error.caused_by).to.deep.equal({ type: 'named_object_not_found_exception', reason: '[1:1] unknown field [mach]' });
  });

  it('a name only the span family is close to', async () => {
    const error = await refusal({ span_trm: { a: 'x' } });
    expect(error.reason).to.match(/^unknown query \[span_trm\] did you mean any of \[span_term, /);
  });

  it('nothing close: no suggestion', async () => {
    expect((await refusal({ bogus: {} })).reason).to.equal('unknown query [bogus]');
  });
});
