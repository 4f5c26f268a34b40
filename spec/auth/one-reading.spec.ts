import { expect } from 'chai';
import fc from 'fast-check';

import net from 'node:net';
import { Pool } from 'undici';
import WebSocket from 'ws';
import { basic, call } from '../support/http.js';
import { leaksIn, sendRaw, startRecordedGateway, type Recorded, type RecordingUpstream } from '../support/recording-upstream.js';
import { startTestGateway, type TestGateway } from '../support/servers.js';
import { catalogueProbes } from '../support/tenant-probes.js';
import { authorizationDisagreementCount } from '../../lib/metrics/index.js';

/**
 * Tenancy holds whatever spelling a hostile tenant uses for a request: the gateway decides on the
 * same reading the engine acts on. A credential scoped to `tenant-a` (every category, every
 * operation, raw DSL) sends generated requests that name `tenant-b` or the gateway's system
 * indices through the path, the query string (`source` spelled every way) and the body, with every
 * path spelling (`//`, `%5F`, percent-encoded names); none of them reads or writes outside
 * `tenant-a`:
 * - through the HTTP backend, no request reaching the engine (recorded between them) names them;
 * - on both backends, no answer carries the foreign index's marker, `tenant-b`'s documents and the
 *   credentials are as they were, and every refusal is an Elasticsearch-shaped 4xx.
 * Cases: FAST_CHECK_RUNS (default 300 per backend, fixed seed); `npm run fuzz:tenancy` runs more.
 */

const FOREIGN = 'tenant-b';
const MARKER = 'foreign-marker-7c1';
const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 300);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 3232);
const TIMEOUT_MS = 5000;

/**
 * Other indices that look like the tenant's own: its name with a comma (in a slot of one name, the
 * engine reads it whole) or with a character JavaScript's `trim()` removes (Elasticsearch trims
 * nothing: each is another index), percent-encoded.
 */
const LOOKALIKES = ['tenant-a%2C', '%2Ctenant-a', 'tenant-a%E2%80%A8', 'tenant-a%C2%A0', 'tenant-a%09', '%20tenant-a', 'tenant-a%EF%BB%BF', '%E3%80%80tenant-a', `tenant-a%0A,${FOREIGN}`];
/** The foreign target, spelled as a tenant might. */
const foreignName = fc.constantFrom(FOREIGN, '%74enant-b', 'tenant-%62', 'tenant-*', `tenant-a,${FOREIGN}`, '_all', '*', '.gateway-credentials', '%2Egateway-credentials', '.gateway-*', ...LOOKALIKES);
/** A path segment written with a leading `_` as is or encoded. */
const underscore = fc.constantFrom('_', '%5F', '%5f');
const slash = fc.constantFrom('/', '//', '///');
/** The `source` parameter's name, spelled every way it decodes to. */
const sourceName = fc.constantFrom('source', '%73ource', 'sourc%65', '%73%6F%75%72%63%65');
const pipelineName = fc.constantFrom('pipeline', '%70ipeline', 'pipelin%65');
/** JSON keys spelled plainly or \u-escaped. */
const key = (k: string) => fc.constantFrom(JSON.stringify(k), JSON.stringify(k).replace(/[a-z_]/, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

interface Probe {
  label: string;
  method: string;
  path: string;
  body?: string;
  ndjson?: boolean;
}

const enc = encodeURIComponent;

/** Requests that would read or write outside `tenant-a` if the gateway and the engine read them differently. */
const probeArb: fc.Arbitrary<Probe> = fc.oneof(
  // the path names the foreign index, spelled with extra slashes
  fc.tuple(slash, foreignName, slash, fc.constantFrom('_doc/1', '_search', '_count', '_mapping', '_settings')).map(([s1, ix, s2, api]) => ({
    label: 'path', method: 'GET', path: `${s1}${ix}${s2}${api}`,
  })),
  // a body smuggled in `source`: mget, search with a terms lookup, count, explain, validate
  fc.tuple(slash, sourceName, foreignName, key('_index'), key('index'), fc.constantFrom('_mget', '_search', '_count', '_validate/query', '_explain/1')).map(([s, name, ix, kIndex, kLookup, api]) => {
    const decodedIx = decodeURIComponent(ix);
    const body = api === '_mget'
      ? `{"docs":[{${kIndex}:${JSON.stringify(decodedIx)},"_id":"1"}]}`
      : `{"query":{"terms":{"f":{${kLookup}:${JSON.stringify(decodedIx)},"id":"1","path":"f"}}}}`;
    return { label: `source→${api}`, method: 'GET', path: `${s}tenant-a/${api}?${name}=${enc(body)}&source_content_type=application/json` };
  }),
  // the credentials API under another spelling: list, read, take over, delete another credential
  fc.tuple(slash, underscore, fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE'), fc.constantFrom('', '/victim')).map(([s, u, method, target]) => ({
    label: 'credentials', method, path: `${s}${u}credentials${target}`,
    body: method === 'PUT' || method === 'PATCH' ? JSON.stringify({ password: 'taken-over-password', indices: ['*'], categories: ['docs'], ops: ['read'] }) : undefined,
  })),
  // writes routed elsewhere by an ingest pipeline named in the query string
  fc.tuple(pipelineName, fc.constantFrom(FOREIGN, '.gateway-credentials')).map(([name, target]) => ({
    label: 'pipeline', method: 'POST', path: `/tenant-a/_doc?${name}=route-by-target&refresh=true`, body: JSON.stringify({ target, f: 'smuggled' }),
  })),
  // a default pipeline set through the settings API, the body plain or in `source`, keys escaped
  fc.tuple(key('default_pipeline'), key('index'), fc.boolean(), sourceName).map(([kPipeline, kIndex, inSource, name]) => {
    const body = `{${kIndex}:{${kPipeline}:"route-by-target"}}`;
    return inSource
      ? { label: 'settings in source', method: 'PUT', path: `/tenant-a/_settings?${name}=${enc(body)}` }
      : { label: 'settings', method: 'PUT', path: '/tenant-a/_settings', body };
  }),
  // a document written to the foreign target by its path
  fc.tuple(foreignName, fc.constantFrom('PUT', 'POST')).map(([ix, method]) => ({
    label: 'write', method, path: `/${ix}/_doc/w?refresh=true`, body: '{"f":"smuggled"}',
  })),
  // a bulk item naming the foreign index, its key escaped
  fc.tuple(foreignName, key('_index')).map(([ix, kIndex]) => ({
    label: 'bulk', method: 'POST', path: '/tenant-a/_bulk?refresh=true', ndjson: true,
    body: `{"index":{${kIndex}:${JSON.stringify(decodeURIComponent(ix))},"_id":"x"}}\n{"f":"smuggled"}\n`,
  })),
);

/**
 * A spelling of a probe that means the same request: slashes doubled, a leading `_` of an API
 * segment or one letter of an index name percent-encoded, a JSON body's index keys \u-escaped,
 * or the body moved into the `source` parameter (spelled `%73ource`).
 */
interface Respelling {
  doubleSlashes: boolean;
  encodeUnderscores: boolean;
  encodeLetter: boolean;
  escapeKeys: boolean;
  bodyInSource: boolean;
}
const respellingArb: fc.Arbitrary<Respelling> = fc.record({ doubleSlashes: fc.boolean(), encodeUnderscores: fc.boolean(), encodeLetter: fc.boolean(), escapeKeys: fc.boolean(), bodyInSource: fc.boolean() });

function respelled(probe: Probe, how: Respelling): Probe {
  const q = probe.path.indexOf('?');
  let path = q < 0 ? probe.path : probe.path.slice(0, q);
  let query = q < 0 ? '' : probe.path.slice(q + 1);
  if (how.encodeUnderscores) path = path.replace(/\/_/g, '/%5F');
  if (how.encodeLetter) path = path.replace(/\/tenant-/g, '/%74enant-');
  if (how.doubleSlashes) path = path.replace(/\//g, '//');
  let body = probe.body;
  if (body !== undefined && how.escapeKeys) body = body.replace(/"_index"/g, '"\\u005findex"').replace(/"index"/g, '"\\u0069ndex"');
  if (body !== undefined && how.bodyInSource && !probe.ndjson && (probe.method === 'GET' || probe.method === 'POST')) {
    query = `${query}${query ? '&' : ''}%73ource=${enc(body)}&source_content_type=application/json`;
    body = undefined;
  }
  return { ...probe, label: `${probe.label} respelled ${JSON.stringify(how)}`, path: query ? `${path}?${query}` : path, body };
}

/** Every request of the API catalogue that names another index, in a generated spelling. */
const catalogue = catalogueProbes();
const catalogueArb: fc.Arbitrary<Probe> = catalogue.length
  ? fc.tuple(fc.constantFrom(...catalogue), respellingArb).map(([probe, how]) => respelled(probe, how))
  : probeArb;

async function send(pool: Pool, probe: Probe, authorization: string) {
  return sendRaw(pool, {
    method: probe.method, path: probe.path, body: probe.body,
    contentType: probe.body === undefined ? undefined : probe.ndjson ? 'application/x-ndjson' : 'application/json',
  }, authorization, TIMEOUT_MS);
}

interface Setup {
  name: string;
  start(): Promise<{ gw: TestGateway; upstream?: RecordingUpstream; stop(): Promise<void> }>;
}

const SETUPS: Setup[] = [
  {
    name: 'embedded engine',
    async start() {
      const gw = await startTestGateway({ LOGS_ENABLED: 'false' });
      return { gw, stop: () => gw.close() };
    },
  },
  {
    name: 'HTTP backend, a recording upstream in front of the engine',
    async start() {
      const { upstream, gateway: gw, stop } = await startRecordedGateway();
      return { gw, upstream, stop };
    },
  },
];

for (const setup of SETUPS) {
  describe(`one reading of every request: a hostile tenant's spellings (${setup.name})`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let upstream: RecordingUpstream | undefined;
    let stop: () => Promise<void>;
    let pool: Pool;
    let tenant = '';
    let victimAuth = '';

    /** What `tenant-b` holds and which credentials exist, as the admin sees them. */
    const foreignState = async () => {
      await call(gw.url, 'POST', `/${FOREIGN}/_refresh`);
      const docs = await call(gw.url, 'GET', `/${FOREIGN}/_search?version=true&size=100`);
      const creds = await call(gw.url, 'GET', '/_credentials');
      const hits = (docs.json?.hits?.hits ?? []).map((h: { _id: string; _version: number }) => `${h._id}@${h._version}`).sort();
      const users = (creds.json?.credentials ?? creds.json ?? []).map?.((c: { username: string; updated_at: string }) => `${c.username}@${c.updated_at}`).sort();
      // a default or final pipeline on the tenant's index would route its later writes anywhere
      const settings = await call(gw.url, 'GET', '/tenant-a/_settings?flat_settings=true');
      const pipelines = Object.entries(settings.json?.['tenant-a']?.settings ?? {}).filter(([k]) => /_pipeline$/.test(k));
      return JSON.stringify({ hits, users, pipelines });
    };

    before(async () => {
      ({ gw, upstream, stop } = await setup.start());
      pool = new Pool(gw.url, { connections: 4 });
      for (const ix of ['tenant-a', FOREIGN]) {
        expect((await call(gw.url, 'PUT', `/${ix}`, { body: { mappings: { properties: { f: { type: 'keyword' } } } } })).status).to.equal(200);
        expect((await call(gw.url, 'PUT', `/${ix}/_doc/1?refresh=true`, { body: { f: ix === FOREIGN ? MARKER : ix } })).status).to.equal(201);
      }
      // an admin's pipeline that routes a document by its data: harmless for the admin's own writes
      const pipeline = await call(gw.url, 'PUT', '/_ingest/pipeline/route-by-target', { body: { processors: [{ set: { field: '_index', value: '{{target}}' } }] } });
      expect(pipeline.status, pipeline.text).to.equal(200);
      const created = await call(gw.url, 'POST', '/_credentials', {
        body: {
          username: 'hostile', password: 'hostile-password',
          indices: ['tenant-a'], ops: ['read', 'write', 'delete'], allow_raw_dsl: true,
          categories: ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'cache', 'analytics', 'logs', 'cluster'],
        },
      });
      expect(created.status, created.text).to.equal(201);
      tenant = basic('hostile', 'hostile-password');
      const victim = await call(gw.url, 'POST', '/_credentials', { body: { username: 'victim', password: 'victim-password', indices: [FOREIGN], categories: ['docs'], ops: ['read'] } });
      expect(victim.status, victim.text).to.equal(201);
      victimAuth = basic('victim', 'victim-password');
    });
    after(async () => {
      await pool?.close();
      await stop?.();
    });

    it('generated requests: nothing outside the tenant is read or written, every refusal an ES-shaped 4xx', async () => {
      const before = await foreignState();
      const disagreements = await authorizationDisagreementCount();
      const problems: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.oneof(probeArb, catalogueArb), async (probe) => {
          upstream?.clear();
          const res = await send(pool, probe, tenant);
          const where = `[${probe.label}] ${probe.method} ${probe.path}`;
          if (res === 'timeout') return void problems.push(`${where}: no answer`);
          if (res.status >= 500) problems.push(`${where} → ${res.status} ${res.text.slice(0, 200)}`);
          if (res.status === 401) problems.push(`${where} → 401: the case did not run as the tenant`);
          if (res.text.includes(MARKER)) problems.push(`${where} → ${res.status}: the answer carries tenant-b's document`);
          if (res.status >= 400 && res.status < 500 && probe.method !== 'HEAD') {
            let body: { error?: { type?: string }; status?: number; found?: boolean } | undefined;
            try {
              body = JSON.parse(res.text);
            } catch {
              body = undefined;
            }
            // a document the document API does not find is its 404 `found: false` (`GET /{index}/_doc/_termvectors` reads the document `_termvectors`)
            const notFound = res.status === 404 && body?.found === false;
            if (!notFound && (typeof body?.error?.type !== 'string' || body.status !== res.status)) problems.push(`${where} → ${res.status}, not Elasticsearch-shaped: ${res.text.slice(0, 200)}`);
          }
          if (upstream) {
            const sent = upstream.requests.filter((r: Recorded) => !isGatewayOwnRead(r));
            for (const leak of leaksIn(sent, { names: [FOREIGN, '.gateway-'], reachable: [FOREIGN, '.gateway-credentials'] })) problems.push(`${where} → ${res.status}; the engine got ${leak}`);
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
      expect(problems, problems.slice(0, 20).join('\n')).to.deep.equal([]);
      expect(await foreignState(), 'tenant-b and the credentials are as they were').to.equal(before);
      // and no other index came to be: the tenant's `tenant-a` is all it may create
      const listed = await call(gw.url, 'GET', '/_cat/indices?format=json&h=index&expand_wildcards=all');
      const names = (listed.json as Array<{ index: string }>).map((i) => i.index).filter((name) => !name.startsWith('.')).sort();
      expect(names, 'the indices after the run').to.deep.equal(['tenant-a', FOREIGN]);
      // on the embedded engine, which checks again where it acts: nothing the gateway let through was refused there
      expect(await authorizationDisagreementCount(), 'the gateway\'s check and the engine\'s disagreed').to.equal(disagreements);
      const victim = await call(gw.url, 'GET', `/${FOREIGN}/_doc/1`, { auth: victimAuth });
      expect(victim.status, 'the victim still signs in with its own password').to.equal(200);
    });

    it('the concrete escapes of the last review are refused', async () => {
      const cases: Array<[string, Probe]> = [
        ['credential takeover through //', { label: '', method: 'PATCH', path: '//_credentials/victim', body: '{"password":"taken-over-password"}' }],
        ['credential takeover through %5F', { label: '', method: 'PATCH', path: '/%5Fcredentials/victim', body: '{"password":"taken-over-password"}' }],
        ['credential list through //', { label: '', method: 'GET', path: '//_credentials' }],
        ['mget in source', { label: '', method: 'GET', path: `/tenant-a/_mget?source=${enc(`{"docs":[{"_index":"${FOREIGN}","_id":"1"}]}`)}` }],
        ['mget in %73ource', { label: '', method: 'GET', path: `/tenant-a/_mget?%73ource=${enc(`{"docs":[{"_index":".gateway-credentials","_id":"victim"}]}`)}` }],
        ['pipeline spelled %70ipeline', { label: '', method: 'POST', path: '/tenant-a/_doc?%70ipeline=route-by-target', body: `{"target":"${FOREIGN}"}` }],
      ];
      for (const [name, probe] of cases) {
        const res = await send(pool, probe, tenant);
        expect(res, name).not.to.equal('timeout');
        if (res === 'timeout') continue;
        expect(res.status, `${name}: ${res.text.slice(0, 300)}`).to.be.oneOf([400, 403, 404]);
        expect(res.text, name).not.to.include(MARKER);
      }
      expect((await call(gw.url, 'GET', `/${FOREIGN}/_doc/1`, { auth: victimAuth })).status).to.equal(200);
    });

    it('templates the engine renders inside a request, and a script context\'s query, reach no other index (this round\'s review)', async () => {
      const lookup = { terms: { f: { index: FOREIGN, id: '1', path: 'f' } } };
      const rankEval = (template: unknown) => JSON.stringify({
        requests: [{ id: 'a', template_id: 't', params: { ix: FOREIGN }, ratings: [{ _index: 'tenant-a', _id: '1', rating: 1 }] }],
        templates: [{ id: 't', template }],
        metric: { precision: { k: 10, relevant_rating_threshold: 1 } },
      });
      const stored = await call(gw.url, 'PUT', '/_scripts/lookup-template', { body: { script: { lang: 'mustache', source: { query: lookup } } } });
      expect(stored.status, stored.text).to.equal(200);
      const cases: Array<[string, Probe]> = [
        ['_rank_eval, template as a string', { label: '', method: 'POST', path: '/tenant-a/_rank_eval', body: rankEval({ source: JSON.stringify({ query: lookup }) }) }],
        ['_rank_eval, index from params', { label: '', method: 'POST', path: '/tenant-a/_rank_eval', body: rankEval({ source: '{"query":{"terms":{"f":{"index":"{{ix}}","id":"1","path":"f"}}}}' }) }],
        ['_rank_eval, stored template', { label: '', method: 'POST', path: '/tenant-a/_rank_eval', body: rankEval({ id: 'lookup-template' }) }],
        ['phrase suggester collate', { label: '', method: 'POST', path: '/tenant-a/_search', body: JSON.stringify({ suggest: { s: { text: 'x', phrase: { field: 'f', collate: { query: { source: JSON.stringify({ query: lookup }) } } } } } }) }],
        ['painless context query', { label: '', method: 'POST', path: '/_scripts/painless/_execute', body: JSON.stringify({ script: { source: '1' }, context: 'score', context_setup: { index: 'tenant-a', document: { f: 'x' }, query: lookup } }) }],
      ];
      for (const [name, probe] of cases) {
        upstream?.clear();
        const res = await send(pool, probe, tenant);
        expect(res, name).not.to.equal('timeout');
        if (res === 'timeout') continue;
        expect(res.status, `${name}: ${res.text.slice(0, 300)}`).to.equal(403);
        expect(res.text, name).not.to.include(MARKER);
        if (upstream) {
          const sent = upstream.requests.filter((r: Recorded) => !isGatewayOwnRead(r));
          expect(leaksIn(sent, { names: [FOREIGN, '.gateway-'], reachable: [FOREIGN, '.gateway-credentials'] }), name).to.deep.equal([]);
          expect(sent.filter((r: Recorded) => /_rank_eval|_execute/.test(r.path) || r.body.includes('collate')), `${name} reached the engine`).to.deep.equal([]);
        }
      }
    });

    it('a declarative refusal names the expression as written, not the indices it expanded to', async () => {
      const body = { query: [{ id: 'q', type: 'search', dataField: ['f'], defaultQuery: { query: { rule: { match_criteria: {}, ruleset_ids: ['x'], organic: { match_all: {} } } } } }] };
      const res = await send(pool, { label: '', method: 'POST', path: '/tenant-a/_declarative', body: JSON.stringify(body) }, tenant);
      expect(res).not.to.equal('timeout');
      if (res === 'timeout') return;
      expect(res.status, res.text).to.equal(403);
      expect(res.text).not.to.include(FOREIGN);
    });

    it('a WebSocket frame that is not JSON, or nests too deep, is answered 400', async () => {
      const ws = new WebSocket(gw.url.replace(/^http/, 'ws') + '/tenant-a', { headers: { authorization: tenant } });
      await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
      const next = () => new Promise<{ status?: number; error?: { type?: string } }>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
      for (const text of ['{not json', '['.repeat(20_000) + ']'.repeat(20_000)]) {
        const answer = next();
        ws.send(text);
        const frame = await answer;
        expect(frame.status, JSON.stringify(frame).slice(0, 300)).to.equal(400);
      }
      ws.close();
      expect((await call(gw.url, 'GET', '/')).status, 'the node still answers').to.equal(200);
    });

    it('`source` is a body: the tenant reads its own index through it, as Elasticsearch answers', async () => {
      const res = await send(pool, { label: '', method: 'GET', path: `/tenant-a/_search?source=${enc('{"query":{"term":{"f":"tenant-a"}}}')}&source_content_type=application/json` }, tenant);
      expect(res).not.to.equal('timeout');
      if (res === 'timeout') return;
      expect(res.status, res.text).to.equal(200);
      expect(JSON.parse(res.text).hits.total.value).to.equal(1);
    });

    it('a path that cannot be decoded is a 400 on every transport, and the node stays up', async () => {
      const plain = await send(pool, { label: '', method: 'GET', path: '/%E0%A4%A/_doc/1' }, tenant);
      const stream = await send(pool, { label: '', method: 'GET', path: '/%E0%A4%A/_doc/1?stream=true' }, tenant);
      for (const res of [plain, stream]) {
        expect(res).not.to.equal('timeout');
        if (res === 'timeout') continue;
        expect(res.status, res.text).to.equal(400);
        expect(JSON.parse(res.text).error.type).to.equal('illegal_argument_exception');
      }
      expect(await upgradeStatus(gw.url, '/%E0%A4%A')).to.equal(400);
      expect((await call(gw.url, 'GET', '/')).status, 'the node still answers').to.equal(200);
    });

    it('a WebSocket frame reads its path as HTTP does: `source` is its body, authorized', async () => {
      const ws = new WebSocket(gw.url.replace(/^http/, 'ws') + '/tenant-a', { headers: { authorization: tenant } });
      await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
      const answer = new Promise<{ id: string; status?: number }>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
      const lookup = enc(`{"query":{"terms":{"f":{"index":"${FOREIGN}","id":"1","path":"f"}}}}`);
      ws.send(JSON.stringify({ id: 'q1', path: `tenant-a/_search?%73ource=${lookup}`, method: 'POST' }));
      const frame = await answer;
      ws.close();
      expect(frame.id).to.equal('q1');
      expect(frame.status).to.equal(403);
    });
  });
}

/** The gateway's own reads as itself (authentication's credential lookups): not a client's request. */
function isGatewayOwnRead(r: Recorded): boolean {
  return r.method === 'GET' && r.body === '' && /^\/\.gateway-credentials\/_doc\/[^/]+$/.test(r.path);
}

/** The status line's code of a WebSocket upgrade to `path`. */
function upgradeStatus(base: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${Buffer.from('0123456789abcdef').toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}


