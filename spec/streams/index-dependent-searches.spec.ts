import { expect } from 'chai';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { openStream } from '../support/stream-client.js';
import { hitsSnapshot, StreamView } from '../support/stream-views.js';
import type { TestGateway } from '../support/servers.js';

/**
 * A search whose matches depend on the rest of the index: a `min_score` over BM25, whose idf moves
 * with every document written. Writing documents *without* the term raises the score of a document
 * nobody touches above the minimum (it joins the search); writing documents *with* it lowers it
 * again (it leaves). The stream tells both, though neither write was to that document — the
 * engine runs the search again after each change (matchScope `index`) instead of being asked
 * about the changed document alone.
 */
for (const backend of BACKENDS) {
  describe(`search streams whose matches depend on the rest of the index (${backend.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(() => stop?.());

    for (const [name, query] of [
      ['function_score with min_score', { function_score: { query: { match: { title: 'red' } }, min_score: 1.1 } }],
      ['more_like_this with min_score', { function_score: { query: { more_like_this: { fields: ['title'], like: 'red', min_term_freq: 1, min_doc_freq: 1 } }, min_score: 1.1 } }],
    ] as const) {
      it(`${name}: an untouched document joins and leaves as other documents change the statistics`, async () => {
        const index = `stats-${name.split(' ')[0].replace('_', '-')}`;
        expect((await call(gw.url, 'PUT', `/${index}`, { body: { settings: { number_of_shards: 1 }, mappings: { properties: { title: { type: 'text' } } } } })).status).to.equal(200);
        const put = async (id: string, title: string) =>
          expect((await call(gw.url, 'PUT', `/${index}/_doc/${id}?refresh=true`, { body: { title } })).status).to.be.oneOf([200, 201]);
        await put('a', 'red');
        await put('b', 'blue');
        const body = { size: 100, query };
        const before = await call(gw.url, 'POST', `/${index}/_search`, { body });
        expect(hitsSnapshot(before.json)).to.deep.equal({}); // idf of `red` over two documents: below the minimum
        const stream = await openStream(gw.url, `/${index}/_search?stream=true`, { method: 'POST', body });
        try {
          await stream.live;
          for (const id of ['c', 'd', 'e']) await put(id, 'green');
          const joined = await call(gw.url, 'POST', `/${index}/_search`, { body });
          expect(Object.keys(hitsSnapshot(joined.json))).to.deep.equal(['a']);
          await stream.until((m) => m.some((x) => x._id === 'a' && x._source?.title === 'red'), 20_000);
          for (const id of ['f', 'g']) await put(id, 'red');
          const left = await call(gw.url, 'POST', `/${index}/_search`, { body });
          expect(hitsSnapshot(left.json)).to.deep.equal({});
          await stream.until((m) => m.some((x) => x._id === 'a' && x._deleted === true), 20_000);
          const view = new StreamView('search');
          for (const m of stream.messages) view.apply(m);
          expect(view.snapshot()).to.deep.equal(hitsSnapshot(left.json));
        } finally {
          stream.close();
          await call(gw.url, 'DELETE', `/${index}`);
        }
      });
    }
  });
}
