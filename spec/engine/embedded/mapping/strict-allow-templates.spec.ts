import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

/** OpenSearch 2.16's `dynamic: strict_allow_templates`: strict, except for new fields a dynamic template maps. */
describe('embedded engine: dynamic strict_allow_templates', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  it('maps new fields a dynamic template matches and refuses the others, as strict does', async () => {
    const created = await es.call('PUT', '/notes', {
      mappings: {
        dynamic: 'strict_allow_templates',
        dynamic_templates: [{ tags: { match: 'tag_*', mapping: { type: 'keyword' } } }],
        properties: { title: { type: 'text' } },
      },
    });
    expect(created.status, created.text).to.equal(200);
    expect((await es.call('PUT', '/notes/_doc/1?refresh=true', { title: 'a', tag_color: 'red' })).status).to.equal(201);
    const refused = await es.call('PUT', '/notes/_doc/2', { title: 'b', author: 'me' });
    expect(refused.status).to.equal(400);
    expect(refused.json.error).to.include({
      type: 'strict_dynamic_mapping_exception',
      reason: 'mapping set to strict_allow_templates, dynamic introduction of [author] within [_doc] is not allowed',
    });
    const mapping = (await es.call('GET', '/notes/_mapping')).json.notes.mappings;
    expect(mapping.dynamic).to.equal('strict_allow_templates');
    expect(mapping.properties.tag_color).to.deep.equal({ type: 'keyword' });
    expect(mapping.properties).to.not.have.property('author');
    expect((await es.call('POST', '/notes/_search', { query: { term: { tag_color: 'red' } } })).json.hits.total.value).to.equal(1);
  });

  it('is accepted by PUT _mapping on an existing index', async () => {
    expect((await es.call('PUT', '/plain', {})).status).to.equal(200);
    const r = await es.call('PUT', '/plain/_mapping', { dynamic: 'strict_allow_templates' });
    expect(r.status, r.text).to.equal(200);
    expect((await es.call('PUT', '/plain/_doc/1', { any: 1 })).json.error.type).to.equal('strict_dynamic_mapping_exception');
  });
});
