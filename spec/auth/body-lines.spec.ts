import { expect } from 'chai';
import { Pool } from 'undici';
import { basic, call } from '../support/http.js';
import {
  leaksIn, readEngineState, restoreEngineState, sendRaw, startRecordingUpstream,
  type EngineState, type RecordingUpstream,
} from '../support/recording-upstream.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';

/**
 * What reaches the engine is what was authorized, line by line: an NDJSON body (`_bulk`,
 * `_msearch`, `_msearch/template`) whose action or header line names an index the credential may
 * not reach must not get there, however the line is dressed up — odd whitespace or control
 * characters around the JSON, byte order marks, line ends the gateway and the engine might split
 * differently, duplicate keys, lines that do not parse. Whatever the gateway answers (403, 400, or
 * 200 with per-item results): (a) no request naming the index reaches the engine, and (b) for
 * `_bulk`, the foreign index and the credentials index are unchanged.
 */

const FOREIGN = 'tenant-b';
const SYSTEM = '.gateway-credentials';
const TARGETS = [FOREIGN, SYSTEM] as const;
type Target = (typeof TARGETS)[number];
const REQUEST_TIMEOUT_MS = 5000;

/** What follows an action/header line before its `\n`: whitespace JSON does not know, control characters, a BOM. */
const ENDINGS: Array<[string, string]> = [
  ...['00A0', '000B', '000C', '0085', '1680'].map((h): [string, string] => [`U+${h}`, String.fromCharCode(parseInt(h, 16))]),
  ...Array.from({ length: 11 }, (_, i): [string, string] => {
    const code = 0x2000 + i;
    return [`U+${code.toString(16).toUpperCase()}`, String.fromCharCode(code)];
  }),
  ...['2028', '2029', '202F', '205F', '3000', 'FEFF', '0000', '001F'].map((h): [string, string] => [`U+${h}`, String.fromCharCode(parseInt(h, 16))]),
];

type Kind = 'bulk' | 'msearch' | 'msearch_template';
interface Api {
  path: string;
  kind: Kind;
}
const APIS: Api[] = [
  { path: '/_bulk', kind: 'bulk' },
  { path: '/tenant-a/_bulk', kind: 'bulk' },
  { path: '/_msearch', kind: 'msearch' },
  { path: '/tenant-a/_msearch', kind: 'msearch' },
  { path: '/_msearch/template', kind: 'msearch_template' },
];

const j = (v: unknown) => JSON.stringify(v);

/** A stored credential record, so that a write into the credentials index would be a working login. */
const forgedCredential = {
  username: 'evil', indices: ['*'], categories: ['docs'], ops: ['read', 'write', 'delete'], sources: [], referers: [],
  allow_raw_dsl: true, role: 'admin', hash: 'scrypt$forged', created_at: '2020-01-01T00:00:00.000Z', updated_at: '2020-01-01T00:00:00.000Z',
};

/** The lines of one request: a harmless pair of the credential's own, and the lines naming `target`. */
function linesFor(api: Api, target: Target, victim: string) {
  const ownIndex = api.path.startsWith('/tenant-a/');
  switch (api.kind) {
    case 'bulk':
      return {
        own: [j({ index: ownIndex ? { _id: 'ok' } : { _index: 'tenant-a', _id: 'ok' } }), j({ f: 'ok' })],
        /** Each entry: the action line (with its index written as `name`), then its source if any. */
        foreign: (name: string = target) => [
          { action: `{"index":{"_index":${j(name)},"_id":"evil"}}`, source: j(target === SYSTEM ? forgedCredential : { f: 'evil' }) },
          { action: `{"delete":{"_index":${j(name)},"_id":${j(victim)}}}` },
        ],
        duplicates: [
          `{"index":{"_index":"tenant-a","_index":${j(target)},"_id":"evil"}}`,
          `{"index":{"_index":${j(target)},"_index":"tenant-a","_id":"evil"}}`,
          `{"index":{"_index":"tenant-a","_id":"evil"},"index":{"_index":${j(target)},"_id":"evil"}}`,
          `{"index":{"_index":${j(target)},"_id":"evil"},"index":{"_index":"tenant-a","_id":"evil"}}`,
        ],
        source: j(target === SYSTEM ? forgedCredential : { f: 'evil' }),
      };
    case 'msearch':
    case 'msearch_template': {
      const search = api.kind === 'msearch' ? j({ query: { match_all: {} } }) : j({ source: { query: { match_all: {} } } });
      return {
        own: [ownIndex ? '{}' : j({ index: 'tenant-a' }), search],
        foreign: (name: string = target) => [{ action: `{"index":${j(name)}}`, source: search }],
        duplicates: [
          `{"index":"tenant-a","index":${j(target)}}`,
          `{"index":${j(target)},"index":"tenant-a"}`,
        ],
        source: search,
      };
    }
  }
}

interface Case {
  name: string;
  body: string;
}

function casesFor(api: Api, target: Target, victim: string): Case[] {
  const l = linesFor(api, target, victim);
  const own = l.own.join('\n') + '\n';
  const foreign = (ending = '', name?: string) =>
    l.foreign(name).map((x) => x.action + ending + '\n' + (x.source === undefined ? '' : x.source + '\n')).join('');
  const cases: Case[] = [];
  for (const [label, ending] of ENDINGS) cases.push({ name: `action line ends with ${label}`, body: own + foreign(ending) });
  const first = l.foreign()[0];
  cases.push(
    { name: 'a BOM starts the body (the foreign line first)', body: '\uFEFF' + foreign() + own },
    { name: 'a BOM starts the action line', body: own + '\uFEFF' + foreign() },
    { name: '"\\r" alone ends the action line', body: own + first.action + '\r' + (first.source ?? '') + '\n' },
    { name: '"\\r" alone ends every line', body: (own + foreign()).replace(/\n/g, '\r') },
    { name: '"\\r\\n" ends every line', body: (own + foreign()).replace(/\n/g, '\r\n') },
    { name: 'empty lines first and last', body: '\n\n' + own + foreign() + '\n\n' },
    { name: 'a leading empty line (the foreign line first)', body: '\n' + foreign() + own },
    { name: 'an empty line between the action and its source', body: own + first.action + '\n\n' + (first.source ?? '') + '\n' },
    { name: 'no final newline', body: own + foreign().replace(/\n$/, '') },
    { name: 'the index name \\u-escaped', body: own + foreign('', undefined).replace(new RegExp(`"${target.replace('.', '\\.')}"`, 'g'), j(target).replace(/-/g, '\\u002d')) },
    ...l.duplicates.map((line, i) => ({ name: `duplicate keys #${i + 1}: ${line.replace(target, '{target}').replace(target, '{target}')}`, body: own + line + '\n' + l.source + '\n' })),
    { name: 'a line that does not parse before it', body: own + 'not json at all\n' + foreign() },
    { name: 'a line of control characters before it', body: own + '\u0000\u0001\u0002\n' + foreign() },
    { name: 'the action line has an extra closing brace', body: own + first.action + '}\n' + (first.source ?? '') + '\n' },
    { name: 'the action line lacks its closing brace', body: own + first.action.slice(0, -1) + '\n' + (first.source ?? '') + '\n' },
    { name: 'the action line has a trailing comma', body: own + first.action.slice(0, -1) + ',}\n' + (first.source ?? '') + '\n' },
    { name: 'the action line uses single quotes', body: own + first.action.replace(/"/g, "'") + '\n' + (first.source ?? '') + '\n' },
    { name: 'garbage after the action object', body: own + first.action + ' garbage\n' + (first.source ?? '') + '\n' },
    { name: 'a comment after the action object', body: own + first.action + ' /* c */\n' + (first.source ?? '') + '\n' },
  );
  // a whitespace-only line where a source is due, then an action-looking line
  for (const [label, blank] of [['spaces', '   '], ['a tab', '\t'], ['U+00A0', '\u00a0'], ['U+FEFF', '\uFEFF']]) {
    cases.push({ name: `a blank (${label}) source line before an action-looking line`, body: l.own[0] + '\n' + blank + '\n' + foreign() });
  }
  return cases;
}

/** One request with a raw body, bounded in time. */
const send = (pool: Pool, path: string, body: string, authorization: string) =>
  sendRaw(pool, { method: 'POST', path, body, contentType: 'application/x-ndjson' }, authorization, REQUEST_TIMEOUT_MS);

const ALL_CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'cache', 'analytics', 'logs', 'cluster'];

/** Two indices with a document each, the tenant-a credential, and a credential (for tenant-b) to serve as a victim. */
async function setUp(gw: TestGateway): Promise<{ tenant: string; tenantUser: string; victim: string }> {
  for (const ix of ['tenant-a', FOREIGN]) {
    expect((await call(gw.url, 'PUT', `/${ix}`)).status).to.equal(200);
    expect((await call(gw.url, 'PUT', `/${ix}/_doc/1?refresh=true`, { body: { f: ix } })).status).to.equal(201);
  }
  const created = await call(gw.url, 'POST', '/_credentials', {
    body: { indices: ['tenant-a'], categories: ALL_CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true },
  });
  expect(created.status, created.text).to.equal(201);
  const victim = await call(gw.url, 'POST', '/_credentials', { body: { username: 'victim', indices: [FOREIGN], categories: ['docs'], ops: ['read'] } });
  expect(victim.status, victim.text).to.equal(201);
  return { tenant: basic(created.json.credential.username, created.json.password), tenantUser: created.json.credential.username, victim: 'victim' };
}

const victimOf = (target: Target) => (target === FOREIGN ? '1' : 'victim');

describe('NDJSON body lines: what reaches the engine is what was authorized', function () {
  this.timeout(20_000);

  describe('HTTP backend (recorded)', () => {
    let upstream: RecordingUpstream;
    let gw: TestGateway;
    let pool: Pool;
    let tenant = '';
    let tenantUser = '';
    let baseline: EngineState;
    let lastLookup = 0;

    /** Content of an index read on the engine itself (bypassing the gateway): ids, versions, sources. */
    async function contentOf(index: string): Promise<string> {
      const base = upstream.engineUrl;
      await call(base, 'POST', `/${index}/_refresh`, { auth: null });
      const res = await call(base, 'GET', `/${index}/_search?size=10000&version=true`, { auth: null });
      const evil = await call(base, 'GET', `/${index}/_doc/evil`, { auth: null });
      const hits: Array<{ _id: string; _version: number; _source: unknown }> = res.json?.hits?.hits ?? [];
      return j({ status: res.status, docs: hits.map((h) => `${h._id}@${h._version} ${j(h._source)}`).sort(), evil: evil.status });
    }

    /** As in the sweep: the tenant's own authentication lookup happens here, not inside a case. */
    async function freshAuthentication(): Promise<void> {
      if (Date.now() - lastLookup < 40_000) return;
      expect((await call(gw.url, 'PATCH', `/_credentials/${tenantUser}`, { body: { description: `refreshed ${Date.now()}` } })).status).to.equal(200);
      lastLookup = Date.now();
      expect((await call(gw.url, 'GET', '/tenant-a/_count', { auth: tenant })).status).to.equal(200);
      baseline = await readEngineState(upstream.engineUrl);
    }

    before(async function () {
      this.timeout(60_000);
      upstream = await startRecordingUpstream();
      // what reaches the engine here is what clients' requests make: the gateway's own request log writes are not
      gw = await startTestGateway({ ENGINE_URL: upstream.url, LOGS_ENABLED: 'false' });
      pool = new Pool(gw.url, { connections: 2 });
      ({ tenant, tenantUser } = await setUp(gw));
      await freshAuthentication();
    });
    after(async () => {
      await pool?.close();
      await gw?.close();
      await upstream?.stop();
    });
    beforeEach(async () => {
      const now = await readEngineState(upstream.engineUrl);
      if (now.fingerprint !== baseline.fingerprint) baseline = await restoreEngineState(upstream.engineUrl, baseline);
      await freshAuthentication();
    });

    for (const api of APIS) {
      for (const target of TARGETS) {
        for (const c of casesFor(api, target, victimOf(target))) {
          it(`${api.path}, ${target}: ${c.name}`, async () => {
            const before = api.kind === 'bulk' ? [await contentOf(FOREIGN), await contentOf(SYSTEM)] : [];
            for (const content of before) expect(JSON.parse(content).evil, 'precondition: no "evil" document left by an earlier case').to.equal(404);
            upstream.clear();
            const res = await send(pool, api.path, c.body, tenant);
            const reply = res === 'timeout' ? 'no answer' : `${res.status} ${res.text.slice(0, 200)}`;
            expect(res, 'an answer').not.to.equal('timeout');
            expect((res as { status: number }).status, `the credential still works: ${reply}`).not.to.equal(401);
            // both checks are made before either fails, so a failure says whether the leak also wrote
            const problems: string[] = [];
            const reached = leaksIn(upstream.requests, { names: [FOREIGN, '.gateway-'], reachable: [FOREIGN, SYSTEM] });
            if (reached.length) problems.push(`(a) reached the engine: ${reached.join(' | ')}`);
            if (api.kind === 'bulk') {
              const after = [await contentOf(FOREIGN), await contentOf(SYSTEM)];
              if (after[0] !== before[0]) problems.push(`(b) ${FOREIGN} changed: ${before[0]} → ${after[0]}`);
              if (after[1] !== before[1]) problems.push(`(b) ${SYSTEM} changed`);
            }
            expect(problems, `gateway answered ${reply}`).to.deep.equal([]);
          });
        }
      }
    }
  });

  describe('embedded engine', () => {
    let gw: TestGateway;
    let pool: Pool;
    let tenant = '';

    /** What the admin sees of `target` through the gateway's own APIs. */
    async function contentOf(target: Target): Promise<string> {
      if (target === FOREIGN) {
        await call(gw.url, 'POST', `/${FOREIGN}/_refresh`);
        const res = await call(gw.url, 'GET', `/${FOREIGN}/_search?size=10000&version=true`);
        const evil = await call(gw.url, 'GET', `/${FOREIGN}/_doc/evil`);
        const hits: Array<{ _id: string; _version: number; _source: unknown }> = res.json?.hits?.hits ?? [];
        return j({ status: res.status, docs: hits.map((h) => `${h._id}@${h._version} ${j(h._source)}`).sort(), evil: evil.status });
      }
      const list = await call(gw.url, 'GET', '/_credentials');
      const evil = await call(gw.url, 'GET', '/_credentials/evil');
      const victim = await call(gw.url, 'GET', '/_credentials/victim');
      const users = Array.isArray(list.json?.credentials) ? list.json.credentials : Array.isArray(list.json) ? list.json : [];
      return j({ status: list.status, users: users.map((c: { username: string; updated_at: string }) => `${c.username}@${c.updated_at}`).sort(), evil: evil.status, victim: victim.status });
    }

    /** Puts back what a leaking case changed, through the admin's APIs. */
    async function restore(): Promise<void> {
      await call(gw.url, 'DELETE', `/${FOREIGN}/_doc/evil?refresh=true`);
      const doc = await call(gw.url, 'GET', `/${FOREIGN}/_doc/1`);
      if (doc.status !== 200 || doc.json?._source?.f !== FOREIGN) await call(gw.url, 'PUT', `/${FOREIGN}/_doc/1?refresh=true`, { body: { f: FOREIGN } });
      await call(gw.url, 'DELETE', '/_credentials/evil');
      if ((await call(gw.url, 'GET', '/_credentials/victim')).status === 404) {
        await call(gw.url, 'POST', '/_credentials', { body: { username: 'victim', indices: [FOREIGN], categories: ['docs'], ops: ['read'] } });
      }
    }

    before(async function () {
      this.timeout(60_000);
      gw = await startTestGateway();
      pool = new Pool(gw.url, { connections: 2 });
      ({ tenant } = await setUp(gw));
    });
    after(async () => {
      await pool?.close();
      await gw?.close();
    });
    beforeEach(() => restore());

    for (const api of APIS.filter((a) => a.kind === 'bulk')) {
      for (const target of TARGETS) {
        for (const c of casesFor(api, target, victimOf(target))) {
          it(`${api.path}, ${target}: ${c.name}`, async () => {
            const before = await contentOf(target);
            expect(JSON.parse(before), 'precondition: what an earlier case changed was put back').to.deep.include(target === FOREIGN ? { evil: 404 } : { evil: 404, victim: 200 });
            const res = await send(pool, api.path, c.body, tenant);
            const reply = res === 'timeout' ? 'no answer' : `${res.status} ${res.text.slice(0, 200)}`;
            expect(res, 'an answer').not.to.equal('timeout');
            expect((res as { status: number }).status, `the credential still works: ${reply}`).not.to.equal(401);
            expect(await contentOf(target), `unchanged (gateway answered ${reply})`).to.equal(before);
          });
        }
      }
    }
  });
});
