import { expect } from 'chai';
import fc from 'fast-check';
import { call } from '../support/http.js';
import { isResolutionLookup, startRecordedGateway, type RecordingUpstream } from '../support/recording-upstream.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';

/**
 * The gateway's system indices (`.gateway-*`) are out of every REST call's reach; a path whose
 * wildcards (or every index) reach them only because it expands hidden indices is narrowed to
 * leave them out (`*,-.gateway-*`), as Elasticsearch 8 leaves its own system indices out of
 * wildcards, instead of refused. Property, over generated index lists, endpoints and spellings of
 * `expand_wildcards`, on both backends: an answer is a refusal (an Elasticsearch-shaped 4xx) or
 * names no system index; the user's hidden index stays in reach; and, through the HTTP backend,
 * no search, count, field list or cache/refresh call made for the caller reached the engine
 * expanding hidden indices over a list without the exclusion.
 */

const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 60);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 909);

const NAMES = ['*', '_all', 's*', 'shop', 'h*', '*p', 'hid', '.gateway-credentials', '.g*', '.gateway-*', '-.gateway-*', '%2Egateway-credentials', '-shop', '.*', '*,-.*'];
const ENDPOINTS: Array<{ method: string; path: string }> = [
  { method: 'POST', path: '_search' }, { method: 'GET', path: '_count' }, { method: 'GET', path: '_field_caps?fields=*' },
  { method: 'POST', path: '_cache/clear' }, { method: 'GET', path: '_stats/docs' }, { method: 'GET', path: '_mapping' },
  { method: 'GET', path: '_settings' }, { method: 'POST', path: '_refresh' }, { method: 'GET', path: '_alias' },
];
const EXPAND = ['all', 'open,hidden', '%61ll', 'hidden,closed', 'open', undefined];

const requestArb = fc.record({
  names: fc.option(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  separator: fc.constantFrom(',', '%2C'),
  endpoint: fc.constantFrom(...ENDPOINTS),
  expand: fc.constantFrom(...EXPAND),
});

function pathOf(r: { names?: string[]; separator: string; endpoint: { path: string }; expand?: string }): string {
  const [endpoint, query] = r.endpoint.path.split('?');
  const params = [query, r.expand === undefined ? undefined : `expand_wildcards=${r.expand}`].filter(Boolean).join('&');
  return `${r.names ? `/${r.names.join(r.separator)}` : ''}/${endpoint}${params ? `?${params}` : ''}`;
}

/** A request that reached the engine expanding hidden indices over a wildcard, or every index, without the system ones excluded. */
function reachesSystemIndices(path: string, query: string): boolean {
  if (!/expand_wildcards=[^&]*(all|hidden)/.test(decodeURIComponent(query))) return false;
  const first = decodeURIComponent(path).split('/').filter(Boolean)[0] ?? '_all';
  // a first segment of `_` is an API (`/_search`): every index; otherwise it is the index list
  const list = first.startsWith('_') && first !== '_all' ? ['_all'] : first.split(',');
  const widens = list.some((e) => !e.startsWith('-') && (e.includes('*') || e === '_all'));
  return widens && !list.includes('-.gateway-*');
}

async function seed(url: string): Promise<void> {
  expect((await call(url, 'PUT', '/shop/_doc/1?refresh=true', { body: { name: 'hat' } })).status).to.equal(201);
  expect((await call(url, 'PUT', '/hid', { body: { settings: { 'index.hidden': true } } })).status).to.equal(200);
  expect((await call(url, 'PUT', '/hid/_doc/1?refresh=true', { body: { name: 'hidden hat' } })).status).to.equal(201);
  // the credentials index exists and holds a credential
  expect((await call(url, 'POST', '/_credentials', { body: { indices: ['shop'], categories: ['search'], ops: ['read'] } })).status).to.equal(201);
}

for (const kind of ['embedded engine', 'HTTP backend (standalone engine, recorded)'] as const) {
  describe(`system indices: left out of hidden-index expansions (${kind})`, function () {
    this.timeout(180_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;

    before(async () => {
      if (kind === 'embedded engine') {
        gw = await startTestGateway({ LOGS_ENABLED: 'false' });
        stop = () => gw.close();
      } else {
        const started = await startRecordedGateway();
        ({ gateway: gw, upstream } = started);
        stop = started.stop;
      }
      await seed(gw.url);
    });
    after(() => stop?.());

    it('every index with hidden ones: the user\'s hidden index is there, the system indices are not', async () => {
      for (const path of ['/_search?expand_wildcards=all&size=100', '/*/_search?expand_wildcards=open,hidden&size=100', '/_all/_search?expand_wildcards=all&size=100']) {
        const res = await call(gw.url, 'POST', path, { body: { query: { match_all: {} } } });
        expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
        expect(new Set(res.json.hits.hits.map((h: { _index: string }) => h._index)), path).to.deep.equal(new Set(['shop', 'hid']));
      }
      const caps = await call(gw.url, 'GET', '/_field_caps?fields=*&expand_wildcards=all');
      expect(caps.status, caps.text.slice(0, 300)).to.equal(200);
      expect([...caps.json.indices].sort()).to.deep.equal(['hid', 'shop']);
      const cleared = await call(gw.url, 'POST', '/_cache/clear?expand_wildcards=all');
      expect(cleared.status, cleared.text.slice(0, 300)).to.equal(200);
    });

    it('generated requests: a refusal, or an answer that names no system index', async () => {
      await fc.assert(
        fc.asyncProperty(requestArb, async (r) => {
          upstream?.clear();
          const path = pathOf(r);
          const res = await call(gw.url, r.endpoint.method, path, r.endpoint.method === 'POST' && r.endpoint.path === '_search' ? { body: { query: { match_all: {} } } } : {});
          if (res.status >= 400) {
            expect(res.status, `${path}: ${res.text.slice(0, 200)}`).to.be.below(500);
            expect(res.json?.error?.type, `${path}: ${res.text.slice(0, 200)}`).to.be.a('string');
          } else {
            expect(res.text, path).to.not.include('.gateway-');
          }
          // (the gateway's own lookups of index names, which answer nobody, are the resolution
          // lookups; index metadata reads and refreshes reach hidden indices, their answers are what counts)
          const data = ['_search', '_count', '_field_caps?fields=*', '_cache/clear'].includes(r.endpoint.path);
          for (const rec of (data ? upstream?.requests ?? [] : []).filter((q) => !isResolutionLookup(q))) {
            expect(reachesSystemIndices(rec.path, rec.query), `${path} reached the engine as ${rec.method} ${rec.path}?${rec.query}`).to.equal(false);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  });
}
