import { expect } from 'chai';
import { call } from '../support/http.js';
import { BACKENDS } from '../support/backends.js';
import { spawnEngine, startTestGateway, tempDir, type ChildServer, type TestGateway } from '../support/servers.js';
import { openStream } from '../support/stream-client.js';

const json = (body: unknown) => ({ body });

for (const backend of BACKENDS) {
  describe(`search streams (${backend.name})`, function () {
    this.timeout(30_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
      await call(gw.url, 'PUT', '/books', json({ mappings: { properties: { title: { type: 'text' }, year: { type: 'integer' }, genre: { type: 'keyword' } } } }));
      await call(gw.url, 'PUT', '/books/_doc/1?refresh=true', json({ title: 'The Left Hand of Darkness', year: 1969, genre: 'sf' }));
      await call(gw.url, 'PUT', '/books/_doc/2?refresh=true', json({ title: 'A Wizard of Earthsea', year: 1968, genre: 'fantasy' }));
    });
    after(() => stop());

    it('the search result, then new matches, updates (_updated) and departures (_deleted)', async () => {
      const s = await openStream(gw.url, '/books/_search?stream=true', { method: 'POST', body: { query: { term: { genre: 'sf' } } } });
      await s.until((m) => m.length === 1);
      expect(s.messages[0].hits.total).to.deep.equal({ value: 1, relation: 'eq' });
      expect(s.messages[0].hits.hits[0]._id).to.equal('1');
      expect(s.messages[0].hits.hits[0]).not.to.have.property('_seq_no');

      await call(gw.url, 'PUT', '/books/_doc/3', json({ title: 'Dune', year: 1965, genre: 'sf' })); // new match
      await call(gw.url, 'PUT', '/books/_doc/4', json({ title: 'Emma', year: 1815, genre: 'classic' })); // never matches
      await call(gw.url, 'POST', '/books/_update/1', json({ doc: { year: 1970 } })); // update of a match
      await call(gw.url, 'POST', '/books/_update/2', json({ doc: { genre: 'sf' } })); // starts matching
      await call(gw.url, 'POST', '/books/_update/3', json({ doc: { genre: 'classic' } })); // leaves
      await call(gw.url, 'DELETE', '/books/_doc/1'); // deleted
      await s.until((m) => m.length === 6);
      expect(s.messages.slice(1)).to.deep.equal([
        { _type: '_doc', _id: '3', _source: { title: 'Dune', year: 1965, genre: 'sf' } },
        { _type: '_doc', _id: '1', _source: { title: 'The Left Hand of Darkness', year: 1970, genre: 'sf' }, _updated: true },
        { _type: '_doc', _id: '2', _source: { title: 'A Wizard of Earthsea', year: 1968, genre: 'sf' } },
        { _type: '_doc', _id: '3', _deleted: true },
        { _type: '_doc', _id: '1', _deleted: true },
      ]);
      s.close();
    });

    it('full-text, range and bool queries decide like the engine does', async () => {
      const query = { bool: { must: [{ match: { title: 'wizard' } }], filter: [{ range: { year: { gte: 1960 } } }] } };
      const s = await openStream(gw.url, '/books/_search?streamonly=true', { method: 'POST', body: { query } });
      await s.live;
      const writes: Array<[string, Record<string, unknown>]> = [
        ['w1', { title: 'The Wizard of Oz', year: 1900 }], // too old
        ['w2', { title: 'Wizard and Glass', year: 1997 }], // matches
        ['w3', { title: 'Glass house', year: 2001 }], // no wizard
        ['w4', { title: 'WIZARDS!', year: 1985 }], // "wizards" ≠ "wizard" under the standard analyzer
        ['w5', { title: 'the wizard', year: 1960 }], // matches (gte)
      ];
      for (const [id, doc] of writes) await call(gw.url, 'PUT', `/books/_doc/${id}?refresh=true`, json(doc));
      const engine = await call(gw.url, 'POST', '/books/_search', json({ query, size: 100 }));
      const expected = engine.json.hits.hits.map((h: { _id: string }) => h._id).filter((id: string) => id.startsWith('w')).sort();
      expect(expected).to.deep.equal(['w2', 'w5']);
      // changes reach a stream in order: once a match written last is in, every write before it was decided
      await call(gw.url, 'PUT', '/books/_doc/last-wizard?refresh=true', json({ title: 'wizard', year: 2000 }));
      await s.until((m) => m.some((x) => x._id === 'last-wizard'));
      expect(s.messages.slice(0, -1).map((m) => m._id).sort()).to.deep.equal(expected);
      expect(s.messages[s.messages.length - 1]._id).to.equal('last-wizard');
      s.close();
    });

    it('SSE: the search result, then a :live comment once every later change reaches the stream', async () => {
      const body = { query: { term: { genre: 'drama' } } };
      const s = await openStream(gw.url, '/books/_search?stream=true', { method: 'POST', body, accept: 'text/event-stream' });
      await s.live;
      expect(s.raw()).to.match(/^:ok\n\nid: [^\n]+\ndata: [^\n]+\n\n:live\n\n$/);
      expect(s.messages[0].data.hits.total).to.deep.equal({ value: 0, relation: 'eq' });
      await call(gw.url, 'PUT', '/books/_doc/h1', json({ title: 'Hamlet', year: 1603, genre: 'drama' }));
      await s.until((m) => m.length === 2);
      expect(s.messages[1].data).to.deep.equal({ _type: '_doc', _id: 'h1', _source: { title: 'Hamlet', year: 1603, genre: 'drama' } });
      // changes only: the marker is the first thing after the preamble
      const only = await openStream(gw.url, '/books/_search?streamonly=true', { method: 'POST', body, accept: 'text/event-stream' });
      await only.live;
      expect(only.raw()).to.equal(':ok\n\n:live\n\n');
      s.close();
      only.close();
    });

    it('pushes respect the search _source filter', async () => {
      const s = await openStream(gw.url, '/books/_search?streamonly=true', { method: 'POST', body: { _source: ['title'], query: { term: { genre: 'poetry' } } } });
      await s.live;
      await call(gw.url, 'PUT', '/books/_doc/p1', json({ title: 'Odes', year: 1820, genre: 'poetry' }));
      await s.until((m) => m.length === 1);
      expect(s.messages[0]._source).to.deep.equal({ title: 'Odes' });
      s.close();
    });

    it('app-addressed: /{app}/{type}/_search?stream=true sees only its type', async () => {
      await call(gw.url, 'PUT', '/_apps/feed');
      await call(gw.url, 'PUT', '/feed/post/1', json({ text: 'hello' }));
      const s = await openStream(gw.url, '/feed/post/_search?stream=true', { method: 'POST', body: { query: { match_all: {} } } });
      await s.until((m) => m.length === 1);
      expect(s.messages[0].hits.total).to.equal(1);
      expect(s.messages[0].hits.hits[0]._type).to.equal('post');
      await call(gw.url, 'PUT', '/feed/comment/c1', json({ text: 'not a post' }));
      await call(gw.url, 'PUT', '/feed/post/2', json({ text: 'second post' }));
      await call(gw.url, 'PUT', '/feed/post/1', json({ text: 'edited' }));
      await call(gw.url, 'PUT', '/feed/post/last', json({ text: 'written last' }));
      await s.until((m) => m.some((x) => x._id === 'last'));
      expect(s.messages.slice(1)).to.deep.equal([
        { _type: 'post', _id: '2', _source: { text: 'second post' } },
        { _type: 'post', _id: '1', _source: { text: 'edited' }, _updated: true },
        { _type: 'post', _id: 'last', _source: { text: 'written last' } },
      ]);
      s.close();
    });

    it('_update_by_query and _delete_by_query publish a change for every affected document', async () => {
      await call(gw.url, 'PUT', '/byq/_doc/1', json({ tag: 'x', n: 1 }));
      await call(gw.url, 'PUT', '/byq/_doc/2', json({ tag: 'x', n: 2 }));
      await call(gw.url, 'PUT', '/byq/_doc/3?refresh=true', json({ tag: 'y', n: 3 }));
      const s = await openStream(gw.url, '/byq/_search?streamonly=true', { method: 'POST', body: { query: { match_all: {} } } });
      const d = await openStream(gw.url, '/byq/_doc/1?streamonly=true');
      await Promise.all([s.live, d.live]);
      const upd = await call(gw.url, 'POST', '/byq/_update_by_query?refresh=true', json({ query: { term: { tag: 'x' } } }));
      expect(upd.json.updated).to.equal(2);
      await s.until((m) => m.length === 2);
      expect(s.messages.map((m) => m._id).sort()).to.deep.equal(['1', '2']);
      expect(s.messages.every((m) => m._updated === true)).to.equal(true);
      const del = await call(gw.url, 'POST', '/byq/_delete_by_query?refresh=true', json({ query: { range: { n: { lte: 2 } } } }));
      expect(del.json.deleted).to.equal(2);
      await s.until((m) => m.length === 4);
      expect(s.messages.slice(2).map((m) => [m._id, m._deleted]).sort()).to.deep.equal([['1', true], ['2', true]]);
      await d.until((m) => m.length === 2);
      expect(d.messages[1]).to.deep.equal({ _type: '_doc', _id: '1', _deleted: true });
      s.close();
      d.close();
    });

    it('a malformed query is a 400 and a missing index a 404, before any stream opens', async () => {
      const bad = await call(gw.url, 'POST', '/books/_search?stream=true', json({ query: { no_such_query: {} } }));
      expect(bad.status).to.equal(400);
      const missing = await call(gw.url, 'POST', '/nothing-here/_search?stream=true', json({ query: { match_all: {} } }));
      expect(missing.status).to.equal(404);
      expect(missing.json.error.type).to.equal('index_not_found_exception');
    });

    it('the stream ends up agreeing with a fresh search after many random writes', async function () {
      this.timeout(60_000);
      await call(gw.url, 'PUT', '/agree', json({ mappings: { properties: { tag: { type: 'keyword' }, n: { type: 'integer' }, body: { type: 'text' } } } }));
      const query = { bool: { should: [{ term: { tag: 'red' } }, { match: { body: 'apple' } }], filter: [{ range: { n: { lt: 50 } } }] } };
      const s = await openStream(gw.url, '/agree/_search?stream=true', { method: 'POST', body: { query, size: 0 } });
      await s.until((m) => m.length === 1);
      const tags = ['red', 'blue', 'green'];
      const words = ['apple pie', 'banana split', 'apple tart', 'cherry'];
      let seed = 7;
      const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
      for (let i = 0; i < 300; i++) {
        const id = `d${rnd(40)}`;
        if (rnd(10) === 0) await call(gw.url, 'DELETE', `/agree/_doc/${id}`);
        else await call(gw.url, 'PUT', `/agree/_doc/${id}`, json({ tag: tags[rnd(3)], n: rnd(100), body: words[rnd(4)] }));
      }
      // changes reach a stream in order: once this match is in, every random write was decided
      await call(gw.url, 'PUT', '/agree/_doc/last', json({ tag: 'red', n: 0, body: 'cherry' }));
      await call(gw.url, 'POST', '/agree/_refresh');
      const fresh = await call(gw.url, 'POST', '/agree/_search', json({ query, size: 100 }));
      const expected = new Set<string>(fresh.json.hits.hits.map((h: { _id: string }) => h._id));
      expect(expected).to.include('last');
      await s.until((m) => m.some((x) => x._id === 'last'), 20_000);
      const state = new Set<string>();
      for (const m of s.messages.slice(1)) {
        if (m._deleted) state.delete(m._id);
        else state.add(m._id);
      }
      expect([...state].sort()).to.deep.equal([...expected].sort());
      s.close();
    });
  });
}

describe('search streams decided by the engine (STREAM_MATCHING=engine, HTTP backend)', function () {
  this.timeout(30_000);
  let engine: ChildServer;
  let data: { dir: string; remove(): Promise<void> };
  let gw: TestGateway;
  before(async () => {
    data = await tempDir('gw-engine-');
    engine = await spawnEngine(data.dir);
    gw = await startTestGateway({ ENGINE_URL: engine.url, STREAM_MATCHING: 'engine' });
  });
  after(async () => {
    await gw.close();
    await engine.stop();
    await data.remove();
  });

  it('asks the engine, the query restricted to the changed id, and reports the same changes', async () => {
    await call(gw.url, 'PUT', '/asked/_doc/1', json({ title: 'red apple', n: 1 }));
    const query = { bool: { must: [{ match: { title: 'apple' } }], filter: [{ range: { n: { lt: 10 } } }] } };
    const s = await openStream(gw.url, '/asked/_search?stream=true', { method: 'POST', body: { query } });
    await s.until((m) => m.length === 1);
    expect(s.messages[0].hits.hits.map((h: { _id: string }) => h._id)).to.deep.equal(['1']);
    await call(gw.url, 'PUT', '/asked/_doc/2', json({ title: 'green apple', n: 2 })); // new match
    await call(gw.url, 'PUT', '/asked/_doc/3', json({ title: 'pear', n: 3 })); // no match
    await call(gw.url, 'PUT', '/asked/_doc/1', json({ title: 'red apple', n: 50 })); // leaves
    await call(gw.url, 'DELETE', '/asked/_doc/2');
    await call(gw.url, 'PUT', '/asked/_doc/last', json({ title: 'apple, written last', n: 4 }));
    await s.until((m) => m.some((x) => x._id === 'last'));
    expect(s.messages.slice(1)).to.deep.equal([
      { _type: '_doc', _id: '2', _source: { title: 'green apple', n: 2 } },
      { _type: '_doc', _id: '1', _deleted: true },
      { _type: '_doc', _id: '2', _deleted: true },
      { _type: '_doc', _id: 'last', _source: { title: 'apple, written last', n: 4 } },
    ]);
    const bad = await call(gw.url, 'POST', '/asked/_search?stream=true', json({ query: { no_such_query: {} } }));
    expect(bad.status).to.equal(400);
    s.close();
  });
});
