import { expect } from 'chai';
import { startEngine, type TestEngine } from './support.js';

describe('embedded engine: completion suggester fuzzy and regex', () => {
  let es: TestEngine;
  before(async () => {
    es = await startEngine();
    expect((await es.call('PUT', '/songs', { mappings: { properties: { suggest: { type: 'completion' } } } })).status).to.equal(200);
    const songs: Array<[string, string, number]> = [['1', 'Nirvana', 10], ['2', 'Nevermind', 5], ['3', 'Nirvanix', 1], ['4', 'Norwegian Wood', 3], ['5', 'Arcade Fire', 7]];
    for (const [id, input, weight] of songs) expect((await es.call('PUT', `/songs/_doc/${id}?refresh=true`, { suggest: { input, weight } })).status).to.equal(201);
  });
  after(() => es.close());

  const options = async (suggestion: Record<string, unknown>) => {
    const r = await es.call('POST', '/songs/_search', { suggest: { s: suggestion } });
    expect(r.status, r.text).to.equal(200);
    return (r.json.suggest.s[0].options as Array<{ text: string; _score: number }>).map((o) => [o.text, o._score]);
  };

  it('fuzzy: a prefix within the edits matches, the first letter exact, scored by the letters shared with the query', async () => {
    // "nrv" is one edit from "nirv" (an insertion) and from "nev" (a substitution), two from "nor"; the weight
    // times the letters shared with the query (1: "n")
    expect(await options({ prefix: 'nrv', completion: { field: 'suggest', fuzzy: true } })).to.deep.equal([['Nirvana', 10], ['Nevermind', 5], ['Nirvanix', 1]]);
    // exact prefixes are boosted by the query's length less one: "nir" → 2; "nor" is one edit away (boost 1)
    expect(await options({ prefix: 'nir', completion: { field: 'suggest', fuzzy: { fuzziness: 1 } } })).to.deep.equal([['Nirvana', 20], ['Norwegian Wood', 3], ['Nirvanix', 2]]);
    // a transposition is one edit; without transpositions it is two
    expect((await options({ prefix: 'nrivana', completion: { field: 'suggest', fuzzy: { fuzziness: 1 } } })).map(([t]) => t)).to.deep.equal(['Nirvana']);
    expect(await options({ prefix: 'nrivana', completion: { field: 'suggest', fuzzy: { fuzziness: 1, transpositions: false } } })).to.deep.equal([]);
    // the first letter is never fuzzy (prefix_length 1), unless prefix_length is 0
    expect(await options({ prefix: 'mirv', completion: { field: 'suggest', fuzzy: true } })).to.deep.equal([]);
    expect((await options({ prefix: 'mirv', completion: { field: 'suggest', fuzzy: { prefix_length: 0 } } })).map(([t]) => t)).to.deep.equal(['Nirvana', 'Nirvanix']);
    // shorter than min_length: an exact prefix only
    expect((await options({ prefix: 'ar', completion: { field: 'suggest', fuzzy: true } })).map(([t]) => t)).to.deep.equal(['Arcade Fire']);
    expect(await options({ prefix: 'nrv', completion: { field: 'suggest', fuzzy: { min_length: 4 } } })).to.deep.equal([]);
  });

  it('regex: an expression matching a prefix of the indexed form, the weight as score', async () => {
    expect(await options({ regex: 'n[ei]', completion: { field: 'suggest' } })).to.deep.equal([['Nirvana', 10], ['Nevermind', 5], ['Nirvanix', 1]]);
    expect(await options({ regex: 'no.*wood', completion: { field: 'suggest' } })).to.deep.equal([['Norwegian Wood', 3]]);
    expect(await options({ regex: '(a+)+b', completion: { field: 'suggest' } })).to.deep.equal([]); // linear time, whatever the input
  });

  it('refuses fuzzy with regex, and bad fuzzy options', async () => {
    const bad = async (suggestion: Record<string, unknown>) => (await es.call('POST', '/songs/_search', { suggest: { s: suggestion } })).status;
    expect(await bad({ regex: 'n', completion: { field: 'suggest', fuzzy: true } })).to.equal(400);
    expect(await bad({ prefix: 'n', completion: { field: 'suggest', fuzzy: { fuzziness: 3 } } })).to.equal(400);
    expect(await bad({ prefix: 'n', completion: { field: 'suggest', fuzzy: { edits: 1 } } })).to.equal(400);
  });
});
