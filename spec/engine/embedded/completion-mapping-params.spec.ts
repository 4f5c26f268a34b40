import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';

/** The completion field's `preserve_separators` and `max_input_length` (Elasticsearch's completion field type). */
describe('embedded engine: completion field preserve_separators and max_input_length', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    const created = await es.call('PUT', '/bands', {
      mappings: {
        properties: {
          joined: { type: 'completion', preserve_separators: false },
          spaced: { type: 'completion' },
          short: { type: 'completion', max_input_length: 5 },
        },
      },
    });
    expect(created.status, created.text).to.equal(200);
    expect((await es.call('PUT', '/bands/_doc/1?refresh=true', { joined: 'Foo Fighters', spaced: 'Foo Fighters', short: 'Nirvana' })).status).to.equal(201);
  });
  after(() => es.close());

  const texts = async (field: string, prefix: string) => {
    const r = await es.call('POST', '/bands/_search', { suggest: { s: { prefix, completion: { field } } } });
    expect(r.status, r.text).to.equal(200);
    return (r.json.suggest.s[0].options as Array<{ text: string }>).map((o) => o.text);
  };

  it('without separators, "foof" finds Foo Fighters; with them (the default) it does not', async () => {
    expect(await texts('joined', 'foof')).to.deep.equal(['Foo Fighters']);
    expect(await texts('joined', 'foo f')).to.deep.equal(['Foo Fighters']);
    expect(await texts('spaced', 'foof')).to.deep.equal([]);
    expect(await texts('spaced', 'foo f')).to.deep.equal(['Foo Fighters']);
  });

  it('indexes an input cut to max_input_length: a longer prefix finds nothing, the option is the cut input', async () => {
    expect(await texts('short', 'nirva')).to.deep.equal(['Nirva']);
    expect(await texts('short', 'nirvan')).to.deep.equal([]);
  });
});
