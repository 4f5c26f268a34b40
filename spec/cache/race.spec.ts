import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { BACKENDS } from '../support/backends.js';
import { basic, call, type Reply } from '../support/http.js';
import { spawnEngine, startTestGateway, tempDir, type TestGateway } from '../support/servers.js';
import { within } from '../support/within.js';
import { openStream, type OpenStream } from '../support/stream-client.js';
import { startTwoNodes, type TwoNodes } from '../support/two-nodes.js';

const cached = (r: Reply) => r.headers['x-request-cache'] === 'true';
const stats = async (url: string) => (await call(url, 'GET', '/_cache/stats')).json;

/** `lanes` workers taking jobs 0…count-1 in order: as many requests in flight as there are lanes. */
async function inLanes(count: number, lanes: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < count) await job(next++);
  }));
}

/**
 * One gateway node as the race sees it: the highest counter it is known to have learnt of — by
 * its own acknowledgement of the write, or by the change arriving on its stream of the index.
 * A read issued after that must show the write.
 */
class NodeView {
  reads = 0;
  cachedReads = 0;
  readonly stale: string[] = [];
  private acknowledged = 0;
  private delivered = 0;
  private scanned = 0;

  constructor(readonly name: string, readonly url: string, readonly stream: OpenStream) {}

  acknowledge(n: number): void {
    this.acknowledged = Math.max(this.acknowledged, n);
  }

  /** The stream's messages read so far: each one is a document change (the first, the initial result). */
  seen(): number {
    for (; this.scanned < this.stream.messages.length; this.scanned++) {
      const n = this.stream.messages[this.scanned]?._source?.n;
      if (typeof n === 'number') this.delivered = Math.max(this.delivered, n);
    }
    return Math.max(this.acknowledged, this.delivered);
  }

  deliveredUpTo(n: number): boolean {
    this.seen();
    return this.delivered >= n;
  }
}

describe('search cache under concurrent writes across gateway nodes (Redis)', function () {
  this.timeout(60_000);
  // `npm run stress` races 1,000 writes (RACE_WRITES); `make test` 300
  const WRITES = Number(process.env.RACE_WRITES) || 300;
  const WRITE_LANES = 4;
  const READ_LANES = 4; // per node
  /** The latest counter written: what the race reads over and over. */
  const LATEST = { query: { match_all: {} }, size: 1, sort: [{ n: 'desc' }] };
  let nodes: TwoNodes;

  before(async function () {
    nodes = await startTwoNodes(this, 'gw-cache-race-', { CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0' });
    expect((await call(nodes.a.url, 'PUT', '/race', { body: { mappings: { properties: { n: { type: 'integer' } } } } })).status).to.equal(200);
    await call(nodes.a.url, 'PUT', '/race/_doc/0?refresh=true', { body: { n: 0 } });
  });
  after(() => nodes?.stop());

  it(`${WRITES} writes alternating between two nodes: no read issued after its node learnt of a write misses it, and reads between writes are served from the cache`, async () => {
    const open = async (name: string, url: string) => {
      const stream = await openStream(url, '/race/_search?stream=true', { method: 'POST', body: { query: { match_all: {} }, size: 0 } });
      await stream.until((m) => m.length >= 1); // the initial result: the node follows the index from here on
      return new NodeView(name, url, stream);
    };
    const views = [await open('A', nodes.a.url), await open('B', nodes.b.url)];
    const before = await Promise.all(views.map((v) => stats(v.url)));

    let writing = true;
    const read = async (view: NodeView) => {
      const floor = view.seen(); // taken before the request leaves: what the answer must show at least
      const res = await call(view.url, 'POST', '/race/_search', { body: LATEST });
      expect(res.status, res.text).to.equal(200);
      const latest = res.json.hits.hits[0]._source.n as number;
      view.reads++;
      if (cached(res)) view.cachedReads++;
      if (latest < floor) view.stale.push(`node ${view.name}: read ${latest} (cached: ${cached(res)}) after learning of ${floor}`);
    };
    const readers = views.flatMap((view) => Array.from({ length: READ_LANES }, async () => {
      while (writing) await read(view);
    }));
    const writers = inLanes(WRITES, WRITE_LANES, async (i) => {
      const n = i + 1;
      const via = views[n % 2];
      const res = await call(via.url, 'PUT', `/race/_doc/${n}?refresh=true`, { body: { n } });
      expect(res.status, res.text).to.equal(201);
      via.acknowledge(n);
    });
    try {
      await writers;
    } finally {
      writing = false;
      await Promise.all(readers);
    }

    // every change reaches both streams; a read after that shows the last write on either node
    for (const view of views) await view.stream.until(() => view.deliveredUpTo(WRITES), 10_000);
    for (const view of views) await read(view);
    for (const view of views) view.stream.close();

    expect(views.flatMap((v) => v.stale)).to.deep.equal([]);
    const after = await Promise.all(views.map((v) => stats(v.url)));
    views.forEach((view, i) => {
      expect(view.cachedReads, `node ${view.name}: ${view.reads} reads, none from the cache`).to.be.greaterThan(0);
      expect(after[i].hits - before[i].hits, `node ${view.name}'s cache hits`).to.be.greaterThan(0);
      expect(after[i].evictions.change, `node ${view.name}'s evictions by change`).to.be.greaterThan(0);
    });
  });
});

/** 12 words, each the text of every 12th document: `match` on one finds 10 of the 120, known in advance. */
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath', 'inlet', 'jetty', 'knoll', 'larch'];
const DOCS = 120;
const PAD = 'x'.repeat(1_000); // 120 documents outweigh the cache: all of them is an answer too large to keep

for (const backend of BACKENDS) {
  describe(`search cache under a flood of distinct searches (${backend.name})`, function () {
    this.timeout(60_000);
    const MAX_BYTES = 64 * 1024;
    /** No search answer here is under 100 bytes: more entries than this would mean the bound is not kept. */
    const MAX_ENTRIES = MAX_BYTES / 100;
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0', CACHE_MAX_BYTES: '64kb' }));
      await call(gw.url, 'PUT', '/flood', { body: { mappings: { properties: { text: { type: 'text' }, i: { type: 'integer' }, pad: { type: 'keyword', index: false } } } } });
      let bulk = '';
      for (let i = 0; i < DOCS; i++) bulk += `{"index":{"_index":"flood","_id":"${i}"}}\n${JSON.stringify({ text: WORDS[i % WORDS.length], i, pad: PAD })}\n`;
      const loaded = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      expect(loaded.json.errors, loaded.text).to.equal(false);
    });
    after(() => stop());

    /** Search k of up to 3,000 distinct ones (word × size × from), with the ids it must find. */
    const searchNo = (k: number) => {
      const word = k % WORDS.length;
      const size = 1 + (Math.floor(k / WORDS.length) % 25);
      const from = Math.floor(k / (WORDS.length * 25)) % 10;
      const matching = Array.from({ length: DOCS / WORDS.length }, (_, j) => String(word + j * WORDS.length));
      return { body: { query: { match: { text: WORDS[word] } }, sort: [{ i: 'asc' }], size, from }, ids: matching.slice(from, from + size) };
    };
    const ids = (r: Reply) => r.json.hits.hits.map((h: { _id: string }) => h._id);

    // `npm run stress` floods 3,000 (FLOOD_SEARCHES); `make test` 1,000, which outweigh the cache many times over
    const SEARCHES = Number(process.env.FLOOD_SEARCHES) || 1_000;
    it(`${SEARCHES} distinct searches: the cache holds at most CACHE_MAX_BYTES, evicts by size, and every answer is right`, async () => {
      let flooding = true;
      let largest = { bytes: 0, entries: 0 };
      // the bound holds throughout, not only once the flood is over
      const watcher = (async () => {
        while (flooding) {
          const s = await stats(gw.url);
          largest = { bytes: Math.max(largest.bytes, s.bytes), entries: Math.max(largest.entries, s.entries) };
        }
      })();
      const wrong: string[] = [];
      try {
        await inLanes(SEARCHES, 16, async (k) => {
          const { body, ids: expected } = searchNo(k);
          const res = await call(gw.url, 'POST', '/flood/_search', { body });
          if (res.status !== 200 || JSON.stringify(ids(res)) !== JSON.stringify(expected)) wrong.push(`search ${k}: ${res.status} ${JSON.stringify(ids(res) ?? res.text)}, expected ${JSON.stringify(expected)}`);
        });
      } finally {
        flooding = false;
        await watcher;
      }
      expect(wrong).to.deep.equal([]);
      const s = await stats(gw.url);
      expect(s.misses).to.be.at.least(SEARCHES);
      expect(s.bytes).to.be.at.most(MAX_BYTES);
      expect(largest.bytes).to.be.at.most(MAX_BYTES);
      expect(s.entries).to.be.within(1, MAX_ENTRIES);
      expect(largest.entries).to.be.at.most(MAX_ENTRIES);
      expect(s.evictions.size).to.be.greaterThan(0);
      expect(s.evictions.change + s.evictions.ttl).to.equal(0); // nothing changed: every eviction was for room
    });

    it('after the flood: a new search is answered right, kept and served again; an answer larger than the cache is not kept', async () => {
      // not one of the flood's (they all sort ascending): the third word's 10 documents, last first
      const body = { query: { match: { text: WORDS[2] } }, sort: [{ i: 'desc' }], size: 3 };
      const expected = ['110', '98', '86'];
      const first = await call(gw.url, 'POST', '/flood/_search', { body });
      expect(cached(first)).to.equal(false);
      expect(ids(first)).to.deep.equal(expected);
      const again = await call(gw.url, 'POST', '/flood/_search', { body });
      expect(cached(again)).to.equal(true);
      expect(ids(again)).to.deep.equal(expected);
      expect(again.json.hits.hits).to.deep.equal(first.json.hits.hits);

      const everything = { query: { match_all: {} }, sort: [{ i: 'asc' }], size: DOCS };
      const whole = await call(gw.url, 'POST', '/flood/_search', { body: everything });
      expect(whole.text.length).to.be.greaterThan(MAX_BYTES);
      expect(ids(whole)).to.have.length(DOCS);
      const wholeAgain = await call(gw.url, 'POST', '/flood/_search', { body: everything });
      expect(cached(wholeAgain)).to.equal(false);
      expect(ids(wholeAgain)).to.deep.equal(ids(whole));
      expect((await stats(gw.url)).bytes).to.be.at.most(MAX_BYTES);
      // what was kept before the large answer came and went is still served
      expect(cached(await call(gw.url, 'POST', '/flood/_search', { body }))).to.equal(true);
    });
  });
}

for (const backend of BACKENDS) {
  describe(`search cache and scoped credentials (${backend.name})`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    /** Authorization headers by credential. */
    const as: Record<string, string> = {};

    before(async () => {
      ({ gateway: gw, stop } = await backend.start({ CACHE_ENABLED: 'true', CACHE_QUIET_MS: '0' }));
      let bulk = '';
      for (const index of ['shared', 'tenant-a', 'tenant-b']) {
        for (const [id, title] of [['1', 'Dune'], ['2', 'Emma'], ['3', 'Ubik']]) {
          bulk += `{"index":{"_index":"${index}","_id":"${id}"}}\n${JSON.stringify({ title, secret: `${index}-${id}`, owner: index })}\n`;
        }
      }
      const loaded = await call(gw.url, 'POST', '/_bulk?refresh=true', { body: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      expect(loaded.json.errors, loaded.text).to.equal(false);
      const credentials: Record<string, Record<string, unknown>> = {
        full: { indices: ['shared', 'tenant-a'] },
        sharedOnly: { indices: ['shared'] },
        noSecret: { indices: ['shared', 'tenant-a'], exclude_fields: ['secret'] },
        noSecretToo: { indices: ['shared'], exclude_fields: ['secret'] },
        titleOnly: { indices: ['shared', 'tenant-a'], include_fields: ['title'] },
        tenantB: { indices: ['shared', 'tenant-b'] },
        oneAtATime: { indices: ['shared', 'tenant-a'], max_size: 1 },
      };
      for (const [name, rules] of Object.entries(credentials)) {
        const res = await call(gw.url, 'POST', '/_credentials', { body: { categories: ['search', 'declarative'], ops: ['read'], ...rules } });
        expect(res.status, res.text).to.equal(201);
        as[name] = basic(res.json.credential.username, res.json.password);
      }
    });
    after(() => stop());

    const search = (who: string, path: string, body: unknown) => call(gw.url, 'POST', path, { body, auth: as[who] });
    const sources = (r: Reply) => r.json.hits.hits.map((h: { _source: Record<string, unknown> }) => h._source);

    it('credentials whose field rules differ each get their own answer to the identical search, whichever asks first', async () => {
      const body = { query: { match_all: {} }, sort: [{ 'title.keyword': 'asc' }], size: 10 };
      const fieldsOf = (r: Reply) => sources(r).map((s: Record<string, unknown>) => Object.keys(s).sort().join(','));
      const expectations: Array<[string, string]> = [
        ['noSecret', 'owner,title'],
        ['full', 'owner,secret,title'],
        ['titleOnly', 'title'],
      ];
      for (const [who, fields] of expectations) {
        const first = await search(who, '/shared/_search', body);
        expect(first.status, first.text).to.equal(200);
        expect(cached(first), `${who}'s first search`).to.equal(false);
        expect(fieldsOf(first)).to.deep.equal([fields, fields, fields]);
        const again = await search(who, '/shared/_search', body);
        expect(cached(again), `${who}'s second search`).to.equal(true);
        expect(again.json.hits.hits).to.deep.equal(first.json.hits.hits);
      }
      // and back: each still gets its own, from the cache
      for (const [who, fields] of expectations) {
        const later = await search(who, '/shared/_search', body);
        expect(cached(later), who).to.equal(true);
        expect(fieldsOf(later), who).to.deep.equal([fields, fields, fields]);
      }
    });

    it('the declarative API: field rules differ, answers differ', async () => {
      const body = { query: [{ id: 'books', dataField: 'title', value: 'dune', index: 'shared' }] };
      const hits = async () => (await stats(gw.url)).hits;
      const full = await call(gw.url, 'POST', '/_declarative', { body, auth: as.full });
      expect(full.status, full.text).to.equal(200);
      const before = await hits();
      await call(gw.url, 'POST', '/_declarative', { body, auth: as.full });
      const kept = await hits();
      expect(kept).to.be.greaterThan(before); // its answer was kept and served again
      const noSecret = await call(gw.url, 'POST', '/_declarative', { body, auth: as.noSecret });
      expect(noSecret.status, noSecret.text).to.equal(200);
      expect(await hits()).to.equal(kept); // looked up, not found: a request of its own
      expect(full.json.books.hits.hits[0]._source.secret).to.equal('shared-1');
      expect(noSecret.json.books.hits.hits[0]._source).to.deep.equal({ title: 'Dune', owner: 'shared' });
    });

    it('authorization comes before the cache: a credential without the index, or over its max_size, is refused a kept answer', async () => {
      const body = { query: { match: { title: 'emma' } }, size: 10 };
      await search('full', '/tenant-a/_search', body);
      expect(cached(await search('full', '/tenant-a/_search', body))).to.equal(true);
      const other = await search('tenantB', '/tenant-a/_search', body);
      expect(other.status, other.text).to.equal(403);
      expect(other.text).not.to.contain('tenant-a-2');
      const tooMany = await search('oneAtATime', '/tenant-a/_search', body);
      expect(tooMany.status, tooMany.text).to.equal(400);
      expect(tooMany.text).not.to.contain('tenant-a-2');
    });

    it('the identical wildcard search by two tenants finds each its own indices, asked in turn', async () => {
      const body = { query: { match_all: {} }, size: 10 };
      for (let round = 0; round < 2; round++) {
        for (const [who, owner] of [['full', 'tenant-a'], ['tenantB', 'tenant-b']]) {
          const res = await search(who, '/tenant-*/_search', body);
          expect(res.status, res.text).to.equal(200);
          expect(sources(res).map((s: { owner: string }) => s.owner), `${who}, round ${round}`).to.deep.equal([owner, owner, owner]);
        }
      }
    });

    it('credentials whose narrowed requests are identical share one answer', async () => {
      // the same indices reached, the same field rules: the same request reaches the engine
      const pairs: Array<[string, string, string]> = [['full', 'sharedOnly', 'ubik'], ['noSecret', 'noSecretToo', 'emma']];
      for (const [first, second, title] of pairs) {
        const body = { query: { match: { title } }, size: 5 };
        const a = await search(first, '/shared/_search', body);
        expect(cached(a), first).to.equal(false);
        const b = await search(second, '/shared/_search', body);
        expect(cached(b), `${second} after ${first}`).to.equal(true);
        expect(b.json.hits.hits).to.deep.equal(a.json.hits.hits);
      }
    });
  });
}

/** A proxy before the engine that holds the answer of the next `_search` (or `_msearch`) (the engine has already read it) until released. */
async function holdingProxy(engineUrl: string) {
  let holding: string | undefined;
  let held: (() => void) | undefined;
  let answered: () => void = () => {};
  const engineAnswered = new Promise<void>((resolve) => (answered = resolve));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'transfer-encoding'].includes(k)) headers[k] = v;
      const up = await request(engineUrl + (req.url ?? '/'), { method: req.method as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const body = Buffer.from(await up.body.arrayBuffer());
      const send = () => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(up.headers)) if (typeof v === 'string' && !['connection', 'transfer-encoding', 'keep-alive'].includes(k)) out[k] = v;
        res.writeHead(up.statusCode, out);
        res.end(body);
      };
      if (holding && req.url?.includes(holding)) {
        holding = undefined;
        held = send;
        answered();
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holdNextSearch: (endpoint = '/_search') => (holding = endpoint),
    engineAnswered,
    release: () => held?.(),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('search cache: single flight never hands on an answer a change overtook', function () {
  this.timeout(30_000);
  it('a search issued after a write was acknowledged, joining an identical one in flight since before it, shows the write', async () => {
    const data = await tempDir('gw-sf-');
    const engine = await spawnEngine(data.dir);
    const proxy = await holdingProxy(engine.url);
    const gw = await startTestGateway({ ENGINE_URL: proxy.url, CACHE_QUIET_MS: '0' });
    try {
      await call(gw.url, 'PUT', '/r', { body: { mappings: { properties: { n: { type: 'integer' } } } } });
      await call(gw.url, 'PUT', '/r/_doc/1?refresh=true', { body: { n: 1 } });
      const latest = { size: 1, sort: [{ n: 'desc' }] };
      proxy.holdNextSearch();
      const leader = call(gw.url, 'POST', '/r/_search', { body: latest });
      await proxy.engineAnswered; // the engine read n=1; its answer is on its way
      expect((await call(gw.url, 'PUT', '/r/_doc/2?refresh=true', { body: { n: 2 } })).status).to.equal(201);
      const misses = (await stats(gw.url)).misses;
      const follower = call(gw.url, 'POST', '/r/_search', { body: latest }); // issued after the write's acknowledgement
      await within(5_000, async () => (await stats(gw.url)).misses > misses); // it looked, found nothing kept, and waits
      proxy.release();
      const [l, f] = await Promise.all([leader, follower]);
      expect(l.json.hits.hits[0]._source.n).to.equal(1); // read before the write
      expect(f.json.hits.hits[0]._source.n).to.equal(2);
      expect(cached(f)).to.equal(false);
      const after = await call(gw.url, 'POST', '/r/_search', { body: latest });
      expect(after.json.hits.hits[0]._source.n).to.equal(2);
    } finally {
      await gw.close();
      await proxy.close();
      await engine.stop();
      await data.remove();
    }
  });
  it('an _msearch whose every line another _msearch is already asking for waits for those answers and asks the engine nothing', async () => {
    const data = await tempDir('gw-sf-');
    const engine = await spawnEngine(data.dir);
    const proxy = await holdingProxy(engine.url);
    const gw = await startTestGateway({ ENGINE_URL: proxy.url, CACHE_QUIET_MS: '0' });
    try {
      await call(gw.url, 'PUT', '/r/_doc/1?refresh=true', { body: { n: 1, tag: 'one' } });
      await call(gw.url, 'PUT', '/r/_doc/2?refresh=true', { body: { n: 2, tag: 'two' } });
      const line = (n: number) => `{"index":"r"}\n${JSON.stringify({ query: { term: { n } } })}\n`;
      const ndjson = { 'content-type': 'application/x-ndjson' };
      proxy.holdNextSearch('/_msearch');
      const leader = call(gw.url, 'POST', '/_msearch', { body: line(1) + line(2), headers: ndjson });
      await proxy.engineAnswered;
      const misses = (await stats(gw.url)).misses;
      const follower = call(gw.url, 'POST', '/_msearch', { body: line(2), headers: ndjson }); // its one line is the leader's second
      await within(5_000, async () => (await stats(gw.url)).misses > misses);
      proxy.release();
      const [l, f] = await Promise.all([leader, follower]);
      expect(l.status, l.text).to.equal(200);
      expect(l.json.responses.map((r: Reply['json']) => r.hits.hits[0]._id)).to.deep.equal(['1', '2']);
      expect(f.status, f.text).to.equal(200);
      expect(f.json.responses.map((r: Reply['json']) => r.hits.hits[0]._id)).to.deep.equal(['2']);
    } finally {
      await gw.close();
      await proxy.close();
      await engine.stop();
      await data.remove();
    }
  });
});
