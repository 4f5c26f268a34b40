import { expect } from 'chai';
import { FieldSubset } from '../../../../lib/engine/embedded/access/index.js';
import { mappingReadsFields } from '../../../../lib/engine/embedded/index.js';
import { startEngine, type TestEngine } from '../support.js';

// OpenSearch 2.15's derived fields (`mappings.derived`): accepted in index mappings, put mapping and
// index templates and kept (a mapping read answers them; a later mapping replaces one by name and
// `null` removes it). The embedded engine does not compute them. Under field rules they are what
// runtime fields are: a mapping defining one is refused, and a hidden one is not shown.
describe('embedded engine: OpenSearch derived fields in mappings', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
  });
  after(() => es.close());

  const derived = {
    inlineDerived: { type: 'text', script: { lang: 'painless', source: "emit('one')" } },
    storedDerived: { type: 'keyword', script: { id: 'script-id' } },
  };

  it('keeps them from index creation, put mapping and index templates', async () => {
    const created = await es.call('PUT', '/logs', { mappings: { derived, properties: { value: { type: 'double' } } } });
    expect(created.status, created.text).to.equal(200);
    expect((await es.call('GET', '/logs/_mapping')).json.logs.mappings.derived).to.deep.equal(derived);

    const put = await es.call('PUT', '/logs/_mapping', { derived: { inlineDerived: null, year: { type: 'long', script: "emit(1)" } } });
    expect(put.status, put.text).to.equal(200);
    expect((await es.call('GET', '/logs/_mapping')).json.logs.mappings.derived).to.deep.equal({
      storedDerived: derived.storedDerived, year: { type: 'long', script: 'emit(1)' },
    });

    const template = await es.call('PUT', '/_index_template/daily_logs', { index_patterns: ['daily*'], template: { mappings: { derived } } });
    expect(template.status, template.text).to.equal(200);
    expect((await es.call('PUT', '/daily-1')).status).to.equal(200);
    expect((await es.call('GET', '/daily-1/_mapping')).json['daily-1'].mappings.derived).to.deep.equal(derived);
  });

  it('refuses a derived field without a known type or a script', async () => {
    const untyped = await es.call('PUT', '/bad1', { mappings: { derived: { a: { script: 'emit(1)' } } } });
    expect(untyped.status).to.equal(400);
    expect(untyped.json.error.type).to.equal('mapper_parsing_exception');
    expect((await es.call('PUT', '/bad2', { mappings: { derived: { a: { type: 'nested', script: 'emit(1)' } } } })).status).to.equal(400);
    expect((await es.call('PUT', '/bad3', { mappings: { derived: { a: { type: 'keyword' } } } })).status).to.equal(400);
  });

  it('counts as a mapping that reads fields under field rules, and hides a hidden one', () => {
    expect(mappingReadsFields({ derived })).to.equal(true);
    expect(mappingReadsFields({ mappings: { derived } })).to.equal(true);
    const subset = FieldSubset.of({ exclude: ['storedDerived'] })!;
    expect(subset.mappings({ derived }).derived).to.deep.equal({ inlineDerived: derived.inlineDerived });
  });
});
