import { expect } from 'chai';
import { createRequire } from 'node:module';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { eventually } from '../support/stream-client.js';
import { ADMIN, type TestGateway } from '../support/servers.js';

const require = createRequire(import.meta.url);
type Json = any;

/** appbase-js 5 (`appbase-js5`): promises over HTTP. */
const Appbase5 = require('appbase-js5') as (config: { url: string; app: string; credentials?: string; enableTelemetry?: boolean }) => Record<string, (...args: unknown[]) => Promise<Json>>;
/** appbase-js 2 (`appbase-js`): event streams, over the WebSocket frame protocol for http:// URLs. */
const Appbase2 = require('appbase-js') as new (args: { url: string; app: string }) => Record<string, (...args: unknown[]) => Emitter> & { ws: Emitter & { close?(): void } };
type Emitter = NodeJS.EventEmitter & { stop?(): void };

/** Members that are the client's own machinery, not calls of the gateway. */
const MACHINERY = new Set(['constructor', 'setHeaders', 'performFetchRequest', 'performWsRequest', 'performStreamingRequest']);

function methodsOf(client: object): string[] {
  const names = new Set<string>();
  for (let p = Object.getPrototypeOf(client); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) if (!MACHINERY.has(n) && typeof (client as Record<string, unknown>)[n] === 'function') names.add(n);
  }
  return [...names].sort();
}

/** appbase-js 2's answer: its stream's first `data`, or its `error`. */
function first(stream: Emitter): Promise<Json> {
  return new Promise((resolve, reject) => {
    stream.once('data', (d) => resolve(d));
    stream.once('error', reject);
  });
}

const DOCS = [
  { title: 'Dune', year: 1965 },
  { title: 'Emma', year: 1815 },
];

type Outcome = { api: string; outcome: 'passed' | 'failed' | 'not served' | 'broken in the client'; detail?: string };

/**
 * appbase-js 2 sends a body (`{}`) with its GET requests, which every fetch of today refuses before
 * anything is sent (Node 18+'s, and browsers'): these methods fail in the client whatever the
 * server. The call is made, and must fail exactly so: if it ever succeeds, it belongs with the rest.
 */
async function brokenInTheClient(attempt: () => Promise<unknown>): Promise<string> {
  const err = await attempt().then(() => undefined, (e: unknown) => e);
  expect(err, 'the call now succeeds: move it to the served calls').to.be.instanceOf(TypeError);
  expect((err as Error).message).to.equal('Request with GET/HEAD method cannot have body.');
  return 'broken in the client on Node 18+ and in browsers: its fetch refuses the body appbase-js 2 sends with GET';
}

async function run(calls: Record<string, () => Promise<unknown>>, methods: string[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const m of methods) {
    const fn = calls[m];
    if (!fn) {
      outcomes.push({ api: m, outcome: 'failed', detail: 'a method of the client this spec does not call: add it' });
      continue;
    }
    try {
      const answer = await fn();
      // a call returns its reason when the gateway does not serve what the method is for
      if (typeof answer !== 'string') outcomes.push({ api: m, outcome: 'passed' });
      else outcomes.push({ api: m, outcome: answer.startsWith('broken in the client') ? 'broken in the client' : 'not served', detail: answer });
    } catch (err) {
      outcomes.push({ api: m, outcome: 'failed', detail: `${(err as Error).message ?? JSON.stringify(err)}`.slice(0, 400) });
    }
  }
  return outcomes;
}

const tally = (label: string, o: Outcome[]) => {
  const n = (k: Outcome['outcome']) => o.filter((x) => x.outcome === k).length;
  const broken = n('broken in the client') ? `, ${n('broken in the client')} broken in the client (fetch refuses its GET bodies)` : '';
  return `${label}: ${o.length} APIs called, ${n('passed')} passed, ${n('failed')} failed, ${n('not served')} not served${broken}`;
};

for (const backend of BACKENDS) {
  describe(`appbase-js 5 and 2, unchanged, every method they have (${backend.name}; cache, request logs, metrics on)`, function () {
    this.timeout(60_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;
    const matrix: string[] = [];
    const credentials = `${ADMIN.user}:${ADMIN.password}`;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(async () => {
      await stop();
      for (const line of matrix) console.log(`      ${line}`);
    });

    const createApp = async (app: string) => {
      expect((await call(gw.url, 'PUT', `/_apps/${app}`)).status).to.be.below(300);
      for (const [i, d] of DOCS.entries()) expect((await call(gw.url, 'PUT', `/${app}/book/${i + 1}?refresh=true`, { body: d })).status).to.be.below(300);
    };

    it('appbase-js 5: every method', async () => {
      await createApp('ab5');
      const c = Appbase5({ url: gw.url, app: 'ab5', credentials, enableTelemetry: false });
      const titles = (r: Json) => r.hits.hits.map((h: Json) => h._source.title).sort();
      const calls: Record<string, () => Promise<unknown>> = {
        index: async () => expect((await c.index({ type: 'book', id: '10', body: { title: 'Kim' }, refresh: 'true' })).result).to.equal('created'),
        get: async () => expect((await c.get({ type: 'book', id: '1' }))._source.title).to.equal('Dune'),
        update: async () => expect((await c.update({ type: 'book', id: '2', body: { doc: { year: 1816 } } })).result).to.equal('updated'),
        delete: async () => {
          await call(gw.url, 'PUT', '/ab5/book/20', { body: { title: 'gone' } });
          expect((await c.delete({ type: 'book', id: '20' })).result).to.equal('deleted');
        },
        bulk: async () => expect((await c.bulk({ body: [{ index: { _id: '30' } }, { title: 'Nostromo' }] })).errors).to.equal(false),
        search: async () => expect(titles(await c.search({ type: 'book', body: { query: { match: { title: 'dune' } } } }))).to.deep.equal(['Dune']),
        msearch: async () => expect((await c.msearch({ body: [{}, { query: { match: { title: 'emma' } } }] })).responses[0].hits.hits[0]._source.title).to.equal('Emma'),
        reactiveSearch: async () => expect(titles((await c.reactiveSearch([{ id: 'r', dataField: ['title'], value: 'dune' }])).r)).to.deep.equal(['Dune']),
        reactiveSearchv3: async () => expect(titles((await c.reactiveSearchv3([{ id: 'r', dataField: ['title'], value: 'emma' }])).r)).to.deep.equal(['Emma']),
        getQuerySuggestions: async () => expect((await c.getQuerySuggestions([{ id: 'qs', type: 'suggestion', dataField: ['key'], value: 'du' }])).qs.hits.hits).to.be.an('array'),
        getMappings: async () => expect((await c.getMappings()).ab5.mappings.properties).to.have.property('title'),
      };
      const outcomes = await run(calls, methodsOf(c));
      matrix.push(tally(`appbase-js 5 × ${backend.name}`, outcomes));
      expect(outcomes.filter((o) => o.outcome === 'failed').map((o) => `${o.api}: ${o.detail}`)).to.deep.equal([]);
    });

    it('appbase-js 5: bulk({type}) writes typed documents (POST /{app}/{type}/_bulk), each with the type checks of its single call', async () => {
      await createApp('abt');
      const c = Appbase5({ url: gw.url, app: 'abt', credentials, enableTelemetry: false });
      const r = await c.bulk({
        type: 'book',
        body: [
          { index: { _id: '40' } }, { title: 'Solaris' },
          { create: { _id: '41' } }, { title: 'Ubik' },
          { update: { _id: '1' } }, { doc: { year: 1965 } },
          { delete: { _id: '2' } },
          { index: { _index: 'elsewhere', _id: '42' } }, { title: 'not here' },
        ],
      });
      expect(r.items.map((i: Json) => (Object.values(i)[0] as Json).status)).to.deep.equal([201, 201, 200, 200, 400]);
      expect(r.errors).to.equal(true);
      expect(r.items[0].index).to.include({ _index: 'abt', _type: 'book', _id: '40', result: 'created' });
      expect((await c.get({ type: 'book', id: '40' }))._source).to.deep.equal({ title: 'Solaris' });
      expect((await call(gw.url, 'GET', '/abt/book/1')).json._source.year).to.equal(1965);
      expect((await call(gw.url, 'GET', '/abt/book/2')).status).to.equal(404);
      expect((await call(gw.url, 'GET', '/elsewhere/_doc/42')).status).to.equal(404);
      // a document of another type is not this type's to change or delete
      await call(gw.url, 'PUT', '/abt/film/50', { body: { title: 'Alien' } });
      const other = await c.bulk({ type: 'book', body: [{ delete: { _id: '50' } }] });
      expect(other.items[0].delete.status).to.equal(404);
      expect((await call(gw.url, 'GET', '/abt/film/50')).status).to.equal(200);
    });

    it('appbase-js 2: every method, over the WebSocket frame protocol', async () => {
      await createApp('ab2');
      const c = new Appbase2({ url: gw.url.replace('http://', `http://${credentials}@`), app: 'ab2' });
      const live: Json[] = [];
      c.ws.on('message', (f: { live?: boolean }) => f.live && live.push(f));
      try {
        const calls: Record<string, () => Promise<unknown>> = {
          index: async () => expect((await first(c.index({ type: 'book', id: '10', body: { title: 'Kim' } })))._id).to.equal('10'),
          update: async () => expect((await first(c.update({ type: 'book', id: '2', body: { doc: { year: 1816 } } }))).result).to.equal('updated'),
          delete: async () => {
            await call(gw.url, 'PUT', '/ab2/book/20', { body: { title: 'gone' } });
            expect((await first(c.delete({ type: 'book', id: '20' }))).result).to.equal('deleted');
          },
          bulk: async () => {
            const r = await first(c.bulk({ body: [{ index: { _id: '30' } }, { title: 'Nostromo' }] }));
            expect(r.errors, JSON.stringify(r)).to.equal(false);
          },
          search: async () => expect((await first(c.search({ type: 'book', body: { query: { match: { title: 'dune' } } } }))).hits.hits.map((h: Json) => h._id)).to.deep.equal(['1']),
          get: () => brokenInTheClient(() => first(c.get({ type: 'book', id: '1' }))),
          getTypes: () => brokenInTheClient(() => first(c.getTypes())),
          getMappings: () => brokenInTheClient(() => first(c.getMappings())),
          getStream: async () => {
            const before = live.length;
            const s = c.getStream({ type: 'book', id: '1' });
            const got = first(s);
            await eventually(() => expect(live.length).to.be.above(before));
            await call(gw.url, 'PUT', '/ab2/book/1', { body: { title: 'Dune', year: 1966 } });
            expect(await got).to.deep.include({ _type: 'book', _id: '1', _source: { title: 'Dune', year: 1966 } });
            s.stop?.();
          },
          searchStream: async () => {
            const before = live.length;
            const s = c.searchStream({ type: 'book', body: { query: { match: { title: 'persuasion' } } } });
            const got = first(s);
            await eventually(() => expect(live.length).to.be.above(before));
            await call(gw.url, 'PUT', '/ab2/book/40', { body: { title: 'Persuasion' } });
            expect(await got).to.deep.include({ _type: 'book', _id: '40', _source: { title: 'Persuasion' } });
            s.stop?.();
          },
          searchStreamToURL: async () => {
                        const refused = await first(c.searchStreamToURL({ type: 'book', body: { query: { match_all: {} } } }, { url: 'http://127.0.0.1:9/hook' })).then(
              () => expect.fail('a webhook registration answered'),
              (err: unknown) => err,
            );
            expect(JSON.stringify(refused)).to.contain('is not a document or search that can be streamed');
            return "appbase.io's hosted webhooks (a .percolator document written over the WebSocket) are not part of the gateway: refused";
          },
        };
        const outcomes = await run(calls, methodsOf(c));
        matrix.push(tally(`appbase-js 2 × ${backend.name}`, outcomes));
        expect(outcomes.filter((o) => o.outcome === 'failed').map((o) => `${o.api}: ${o.detail}`)).to.deep.equal([]);
      } finally {
        c.ws.close?.();
      }
    });
  });
}
