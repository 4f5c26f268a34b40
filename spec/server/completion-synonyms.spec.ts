/**
 * A completion field whose analyzer stacks tokens (a synonym filter) suggests an input by each of
 * its paths, as Lucene's completion analyzer builds an automaton of the token graph: "Foo
 * Fighters" with the synonyms foo, renamed is found by "r" as by "f", and shown as written.
 */
import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import type { TestGateway } from '../support/servers.js';

for (const backend of BACKENDS) {
  describe(`completion suggester over stacked tokens (${backend.name})`, function () {
    this.timeout(60_000);
    let gateway: TestGateway;
    let stop: () => Promise<void>;
    const suggest = async (completion: Record<string, unknown>, text: string): Promise<string[]> => {
      const r = await call(gateway.url, 'POST', '/bands/_search', { body: { suggest: { text, s: { completion: { field: 'name', ...completion } } } } });
      expect(r.status, r.text).to.equal(200);
      return r.json.suggest.s[0].options.map((o: { text: string }) => o.text);
    };

    before(async () => {
      ({ gateway, stop } = await backend.start());
      const created = await call(gateway.url, 'PUT', '/bands', {
        body: {
          settings: {
            analysis: {
              filter: { band_synonyms: { type: 'synonym', synonyms: ['foo,renamed'] } },
              analyzer: { with_synonyms: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'band_synonyms'] } },
            },
          },
          mappings: { properties: { name: { type: 'completion', analyzer: 'with_synonyms' } } },
        },
      });
      expect(created.status, created.text).to.equal(200);
      const doc = await call(gateway.url, 'PUT', '/bands/_doc/1?refresh=true', { body: { name: { input: ['Foo Fighters'] } } });
      expect(doc.status, doc.text).to.equal(201);
    });
    after(() => stop());

    it('the synonym path of an input matches a prefix; the option is the input as written', async () => {
      expect(await suggest({}, 'r')).to.deep.equal(['Foo Fighters']);
      expect(await suggest({}, 'renamed fi')).to.deep.equal(['Foo Fighters']);
      expect(await suggest({}, 'fo')).to.deep.equal(['Foo Fighters']);
    });

    it('a prefix whose analysis stacks tokens matches by any of them; no path, no option', async () => {
      expect(await suggest({}, 'renamed')).to.deep.equal(['Foo Fighters']);
      expect(await suggest({}, 'fighters')).to.deep.equal([]);
      expect(await suggest({ fuzzy: { fuzziness: 1 } }, 'renamd')).to.deep.equal(['Foo Fighters']);
    });
  });
}
