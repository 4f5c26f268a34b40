import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

// match_only_text's parameters: Elasticsearch 8 takes `fields` and `meta` only (analysis is not
// configurable); OpenSearch 2's match_only_text is a text field without positions, frequencies
// and norms and takes text's other parameters, analyzers included. An engine answering as
// OpenSearch 2 (API_DIALECT=opensearch) takes them, and indexes and searches with the analyzers.
describe('embedded engine: match_only_text parameters as OpenSearch 2 takes them', () => {
  let os: TestEngine;
  let es: TestEngine;
  before(async () => {
    os = await startEngine({ apiDialect: 'opensearch' });
    es = await startEngine();
  });
  after(async () => {
    await os.close();
    await es.close();
  });

  const mappings = {
    properties: {
      color: { type: 'match_only_text', analyzer: 'whitespace', search_analyzer: 'whitespace' },
      shape: { type: 'match_only_text', eager_global_ordinals: true, position_increment_gap: 50, term_vector: 'with_positions_offsets', fields: { raw: { type: 'keyword' } } },
    },
  };

  it('takes text\'s parameters and shows them in the mapping', async () => {
    const created = await os.call('PUT', '/birds', { mappings });
    expect(created.status, created.text).to.equal(200);
    const shown = (await os.call('GET', '/birds/_mapping')).json.birds.mappings.properties;
    expect(shown.color).to.deep.equal({ type: 'match_only_text', analyzer: 'whitespace', search_analyzer: 'whitespace' });
    expect(shown.shape).to.include({ type: 'match_only_text', eager_global_ordinals: true, position_increment_gap: 50, term_vector: 'with_positions_offsets' });
    // as an index template's mapping too
    const template = await os.call('PUT', '/_index_template/birds', { index_patterns: ['bird-*'], template: { mappings } });
    expect(template.status, template.text).to.equal(200);
  });

  it('indexes with the field\'s analyzer (whitespace keeps case)', async () => {
    await os.call('PUT', '/birds/_doc/1?refresh=true', { color: 'Bright Red' });
    const count = async (q: string) => (await os.call('POST', '/birds/_search', { query: { match: { color: q } } })).json.hits.total.value;
    expect(await count('Red')).to.equal(1);
    expect(await count('red')).to.equal(0);
  });

  it('refuses them as Elasticsearch 8 does for any other client', async () => {
    const r = await es.call('PUT', '/birds', { mappings });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Failed to parse mapping: unknown parameter [analyzer] on mapper [color] of type [match_only_text]');
  });
});
