import { expect } from 'chai';
import { startEngine, type TestEngine } from '../support.js';

describe('embedded engine: suggest (term and completion suggesters)', () => {
  let es: TestEngine;

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/s', { mappings: { properties: { body: { type: 'text' }, song: { type: 'completion', fields: { sub: { type: 'completion' } } } } } });
    await es.call('PUT', '/s/_doc/1', { body: 'Amsterdam meetup', song: { input: ['Nevermind', 'Nirvana'], weight: 34 } });
    await es.call('PUT', '/s/_doc/2', { body: 'amsterdam', song: [{ input: 'Nevermore', weight: 10 }] });
    await es.call('PUT', '/s/_doc/3?refresh=true', { body: 'meet', song: 'Nevertheless' });
  });
  after(() => es.close());

  it('term: per analyzed token of the text, close dictionary terms (suggest_mode missing)', async () => {
    const r = await es.call('POST', '/s/_search', { size: 0, suggest: { fix: { text: 'The Amsterdma meetpu', term: { field: 'body' } } } });
    expect(r.status).to.equal(200);
    const entries = r.json.suggest.fix;
    expect(entries.map((e: { text: string; offset: number; length: number }) => [e.text, e.offset, e.length])).to.deep.equal([['the', 0, 3], ['amsterdma', 4, 9], ['meetpu', 14, 6]]);
    expect(entries[0].options).to.deep.equal([]);
    expect(entries[1].options[0]).to.deep.include({ text: 'amsterdam', freq: 2 });
    expect(entries[2].options.map((o: { text: string }) => o.text)).to.deep.equal(['meetup', 'meet']);
  });

  it('completion: inputs by analyzed prefix, best weight first, one option per document, with _source', async () => {
    const r = await es.call('POST', '/s/_search', { suggest: { songs: { prefix: 'nev', completion: { field: 'song' } } } });
    const [entry] = r.json.suggest.songs;
    expect(entry).to.include({ text: 'nev', offset: 0, length: 3 });
    expect(entry.options.map((o: { text: string; _id: string; _score: number }) => [o.text, o._id, o._score])).to.deep.equal([
      ['Nevermind', '1', 34], ['Nevermore', '2', 10], ['Nevertheless', '3', 1],
    ]);
    expect(entry.options[0]).to.include({ _index: 's' });
    expect(entry.options[2]._source).to.deep.equal({ body: 'meet', song: 'Nevertheless' });
    const sub = await es.call('POST', '/s/_search', { suggest: { songs: { text: 'nevermo', completion: { field: 'song.sub', size: 1 } } } });
    expect(sub.json.suggest.songs[0].options.map((o: { text: string; _score: number }) => [o.text, o._score])).to.deep.equal([['Nevermore', 10]]);
  });

  it('completion: each option\'s _source filtered as the hits\' are (the body\'s _source, the URL\'s _source_excludes and _source=false)', async () => {
    const suggest = { songs: { prefix: 'nevert', completion: { field: 'song' } } };
    const sourceOf = async (path: string, body: Record<string, unknown>) => (await es.call('POST', path, { ...body, suggest })).json.suggest.songs[0].options[0];
    expect((await sourceOf('/s/_search?_source_excludes=body', {}))._source).to.deep.equal({ song: 'Nevertheless' });
    expect((await sourceOf('/s/_search', { _source: ['body'] }))._source).to.deep.equal({ body: 'meet' });
    expect(await sourceOf('/s/_search', { _source: false })).to.not.have.property('_source');
  });

  it('refuses a completion suggestion on a field of another type, and a phrase suggestion with collate', async () => {
    let r = await es.call('POST', '/s/_search', { suggest: { x: { prefix: 'a', completion: { field: 'body' } } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('Field [body] is not a completion suggest field');
    r = await es.call('POST', '/s/_search', { suggest: { x: { text: 'a', phrase: { field: 'body', collate: { query: { source: { match_all: {} } } } } } } });
    expect(r.status).to.equal(400);
    expect(r.json.error.reason).to.equal('[collate] of the phrase suggester is not supported by the embedded engine yet');
  });
});
