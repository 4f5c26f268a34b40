import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'undici';
import WebSocket from 'ws';
import { basic, call } from '../support/http.js';
import {
  leaksIn, readEngineState, restoreEngineState, sendRaw, startRecordingUpstream,
  type EngineState, type LeakCheck, type RecordingUpstream,
} from '../support/recording-upstream.js';
import { ADMIN, startTestGateway, type TestGateway } from '../support/servers.js';
import { API_DIR, FOREIGN, SYSTEM, extraProbes, lookups, nd, probesFor, type ApiSpec, type Probe } from '../support/tenant-probes.js';

/**
 * What the gateway sends to the engine on a tenant's behalf never names an index the tenant may
 * not reach: every path of the Elasticsearch API catalogue, with the foreign index in the path, in
 * the body and in the query string, is sent by a credential for `tenant-a` holding every category
 * and operation, and every request that reaches the engine (recorded in between) is checked. The
 * gateway's own read-only resolution lookups are the one exception (see `isResolutionLookup`).
 */

const CHECK: LeakCheck = { names: [FOREIGN, '.gateway-'], reachable: [FOREIGN, SYSTEM] };
const ALL_CATEGORIES = ['docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'cache', 'analytics', 'logs', 'cluster'];
const REQUEST_TIMEOUT_MS = 5000;

describe('no request a tenant makes reaches the engine naming another index', function () {
  this.timeout(20_000);
  if (!existsSync(API_DIR)) {
    it.skip('needs ../shared/conformance/api');
    return;
  }

  let upstream: RecordingUpstream;
  let gw: TestGateway;
  let pool: Pool;
  let tenant = '';
  let tenantUser = '';
  let baseline: EngineState;
  let lastLookup = 0;
  let restored = 0;

  /** One request with a raw path (no URL normalization); bounded in time. */
  const send = (probe: Probe, authorization: string) => sendRaw(pool, {
    method: probe.method, path: probe.path, body: probe.body,
    contentType: probe.body === undefined ? undefined : probe.ndjson ? 'application/x-ndjson' : 'application/json',
  }, authorization, REQUEST_TIMEOUT_MS);

  /**
   * The tenant's verified credential stays cached (60 s) while the cases run, so that its own
   * authentication lookup (a read of `.gateway-credentials`) happens here and not inside a case:
   * a change to the credential drops the cached entry, the next request looks it up again.
   */
  async function freshAuthentication(): Promise<void> {
    if (Date.now() - lastLookup < 40_000) return;
    const patched = await call(gw.url, 'PATCH', `/_credentials/${tenantUser}`, { body: { description: `refreshed ${Date.now()}` } });
    expect(patched.status, patched.text).to.equal(200);
    lastLookup = Date.now();
    const warm = await call(gw.url, 'GET', '/tenant-a/_count', { auth: tenant });
    expect(warm.status, warm.text).to.equal(200);
    baseline = await readEngineState(upstream.engineUrl);
  }

  /** Sends each probe as the tenant; returns one line per leak (or unanswered probe). */
  async function sweep(probes: Probe[], authorization = tenant): Promise<string[]> {
    const problems: string[] = [];
    for (const probe of probes) {
      upstream.clear();
      const res = await send(probe, authorization);
      const status = res === 'timeout' ? 'no answer' : res.status;
      if (res === 'timeout') problems.push(`[${probe.label}] ${probe.method} ${probe.path}: no answer within ${REQUEST_TIMEOUT_MS} ms`);
      // a 401 means the case did not run as the tenant at all (nothing was checked)
      if (status === 401) problems.push(`[${probe.label}] ${probe.method} ${probe.path}: 401, the tenant credential no longer authenticates`);
      for (const leak of leaksIn(upstream.requests, CHECK)) problems.push(`[${probe.label}] ${probe.method} ${probe.path} → ${status}; engine got ${leak}`);
    }
    return problems;
  }

  before(async function () {
    this.timeout(60_000);
    upstream = await startRecordingUpstream();
    // what reaches the engine here is what clients' requests make: the gateway's own request log writes are not
    gw = await startTestGateway({ ENGINE_URL: upstream.url, LOGS_ENABLED: 'false' });
    pool = new Pool(gw.url, { connections: 4 });
    for (const ix of ['tenant-a', FOREIGN]) {
      expect((await call(gw.url, 'PUT', `/${ix}`, { body: { mappings: { properties: { f: { type: 'keyword' } } } } })).status).to.equal(200);
      expect((await call(gw.url, 'PUT', `/${ix}/_doc/1?refresh=true`, { body: { f: ix } })).status).to.equal(201);
    }
    const created = await call(gw.url, 'POST', '/_credentials', {
      body: { description: 'tenant a, everything', indices: ['tenant-a'], categories: ALL_CATEGORIES, ops: ['read', 'write', 'delete'], allow_raw_dsl: true },
    });
    expect(created.status, created.text).to.equal(201);
    tenantUser = created.json.credential.username;
    tenant = basic(tenantUser, created.json.password);
    await freshAuthentication();
    expect([...baseline.docs.keys()]).to.include.members(['tenant-a', FOREIGN, SYSTEM]);
  });

  beforeEach(() => freshAuthentication());

  after(async () => {
    console.log(`      (the engine's state was put back after ${restored} cases that changed it)`);
    await pool?.close();
    await gw?.close();
    await upstream?.stop();
  });

  // a leak that changed the engine must not change what the next cases run against
  afterEach(async function () {
    this.timeout(20_000);
    const now = await readEngineState(upstream.engineUrl);
    if (now.fingerprint !== baseline.fingerprint) {
      restored++;
      baseline = await restoreEngineState(upstream.engineUrl, baseline);
    }
  });

  describe('every path × method of the API catalogue, as the tenant-a credential', () => {
    const files = readdirSync(API_DIR).filter((f) => f.endsWith('.json') && !f.startsWith('_')).sort();
    for (const file of files) {
      const specs = JSON.parse(readFileSync(path.join(API_DIR, file), 'utf8')) as Record<string, ApiSpec>;
      for (const [api, spec] of Object.entries(specs)) {
        for (const p of spec.url.paths) {
          for (const method of p.methods) {
            const probes = probesFor(api, spec, p, method);
            if (!probes.length) continue;
            it(`${api} ${method} ${p.path}`, async () => {
              expect(await sweep(probes)).to.deep.equal([]);
            });
          }
        }
      }
    }
    for (const ix of [FOREIGN, SYSTEM]) {
      for (const probe of extraProbes(ix)) {
        it(`outside the catalogue: ${probe.label} ${probe.method} ${probe.path.replace(ix, `{${ix}}`)}`, async () => {
          expect(await sweep([probe])).to.deep.equal([]);
        });
      }
    }
  });

  describe('system indices are out of the admin\'s reach too', () => {
    const admin = () => basic(ADMIN.user, ADMIN.password);
    const refused: Probe[] = [
      { label: 'encoded dot', method: 'GET', path: '/%2Egateway-credentials/_search' },
      { label: 'encoded lower-case dot', method: 'GET', path: '/%2egateway-credentials/_search' },
      { label: 'double slash', method: 'GET', path: '//.gateway-credentials/_search' },
      // `..` names nothing Elasticsearch has: a 400, as an invalid path
      { label: 'dot segment', method: 'GET', path: '/tenant-a/../.gateway-credentials/_search', status: 400 },
      { label: 'wildcard', method: 'GET', path: '/.gateway-*/_search' },
      { label: 'encoded comma list', method: 'GET', path: '/tenant-a%2C.gateway-credentials/_search' },
      { label: 'list, system index second', method: 'GET', path: '/tenant-a,.gateway-credentials/_search' },
      { label: 'document get, encoded', method: 'GET', path: '/%2Egateway-credentials/_doc/admin' },
      { label: '_mget docs', method: 'POST', path: '/_mget', body: JSON.stringify({ docs: [{ _index: SYSTEM, _id: 'x' }] }) },
      { label: '_msearch header', method: 'POST', path: '/_msearch', body: nd({ index: SYSTEM }, { query: { match_all: {} } }), ndjson: true },
      { label: '_msearch header, own path index', method: 'POST', path: '/tenant-a/_msearch', body: nd({ index: SYSTEM }, {}), ndjson: true },
      { label: '_bulk into it', method: 'POST', path: '/_bulk', body: nd({ index: { _index: SYSTEM, _id: 'evil' } }, { username: 'evil' }), ndjson: true },
      { label: '_reindex from it', method: 'POST', path: '/_reindex', body: JSON.stringify({ source: { index: SYSTEM }, dest: { index: 'copy' } }) },
      { label: '_aliases add', method: 'POST', path: '/_aliases', body: JSON.stringify({ actions: [{ add: { index: SYSTEM, alias: 'innocent' } }] }) },
      { label: 'search terms lookup', method: 'POST', path: '/tenant-a/_search', body: JSON.stringify({ query: lookups(SYSTEM)[0][1] }) },
      { label: 'apps PUT', method: 'PUT', path: '/_apps/.gateway-credentials' },
      { label: 'apps DELETE', method: 'DELETE', path: '/_apps/.gateway-credentials' },
      { label: 'apps PUT, encoded', method: 'PUT', path: '/_apps/%2Egateway-credentials' },
    ];
    for (const probe of refused) {
      const status = probe.status ?? 403;
      const type = status === 403 ? 'security_exception' : 'illegal_argument_exception';
      it(`${probe.label}: ${probe.method} ${probe.path} → ${status}, and nothing reaches the engine`, async () => {
        upstream.clear();
        const res = await send(probe, admin());
        const problems = leaksIn(upstream.requests, { names: ['.gateway-'], reachable: [SYSTEM] }).map((leak) => `engine got ${leak}`);
        if (res === 'timeout') problems.push(`no answer within ${REQUEST_TIMEOUT_MS} ms`);
        else {
          let answered: unknown;
          try {
            answered = JSON.parse(res.text).error?.type;
          } catch {
            answered = undefined;
          }
          if (res.status !== status || answered !== type) problems.push(`answered ${res.status} ${res.text.slice(0, 200)}`);
        }
        expect(problems).to.deep.equal([]);
      });
    }

    for (const p of ['/_search', '/*/_search', '/_all/_search', '/*,-tenant-a/_search']) {
      it(`an admin's ${p} finds no credential documents`, async () => {
        const res = await call(gw.url, 'POST', `${p}?size=1000`, { body: { query: { match_all: {} } } });
        const indices: string[] = (res.json?.hits?.hits ?? []).map((h: { _index: string }) => h._index);
        expect(indices).not.to.include(SYSTEM);
        expect(res.text).not.to.match(/"hash"\s*:/);
      });
    }

    /** Opens `ws://gateway/{app}`, sends one subscribe frame, and resolves with the frames answering it. */
    async function subscribe(app: string, framePath: string, method = 'GET', body?: unknown): Promise<any[]> {
      const ws = new WebSocket(`${gw.url.replace('http://', 'ws://')}/${app}`);
      const frames: any[] = [];
      try {
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
          ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
        });
        const answered = new Promise<void>((resolve) => {
          ws.on('message', (m) => {
            const frame = JSON.parse(m.toString());
            frames.push(frame);
            // done at an error, or once the initial read (its answer) has arrived
            if (frame.id === 'probe' && (frame.status || frame.error || frame.body !== undefined)) resolve();
          });
          ws.once('close', () => resolve());
        });
        ws.send(JSON.stringify({ id: 'probe', path: framePath, method, body, authorization: admin() }));
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([answered, new Promise((r) => (timer = setTimeout(r, REQUEST_TIMEOUT_MS)))]);
        clearTimeout(timer);
        return frames;
      } catch (err) {
        return [{ id: 'probe', upgrade: String(err) }];
      } finally {
        ws.close();
      }
    }

    const frames: Array<[string, string, string, unknown?]> = [
      ['tenant-a', '.gateway-credentials/_search', 'POST', { query: { match_all: {} } }],
      ['tenant-a', 'tenant-a/../.gateway-credentials/_search', 'POST', { query: { match_all: {} } }],
      ['tenant-a', 'tenant-a/_search', 'POST', { query: lookups(SYSTEM)[0][1] }],
      ['.gateway-credentials', '.gateway-credentials/_search', 'POST', { query: { match_all: {} } }],
      ['.gateway-credentials', '.gateway-credentials/_doc/admin', 'GET'],
      ['%2Egateway-credentials', '%2Egateway-credentials/_search', 'POST', { query: { match_all: {} } }],
      ['tenant-a%2C.gateway-credentials', 'tenant-a%2C.gateway-credentials/_search', 'POST', { query: { match_all: {} } }],
      ['.gateway-*', '.gateway-*/_search', 'POST', { query: { match_all: {} } }],
    ];
    for (const [app, framePath, method, body] of frames) {
      it(`WebSocket ws://…/${app}, frame ${method} ${framePath}: refused, and nothing reaches the engine`, async () => {
        upstream.clear();
        const answer = await subscribe(app, framePath, method, body);
        const problems = leaksIn(upstream.requests, { names: ['.gateway-'], reachable: [SYSTEM] }).map((leak) => `engine got ${leak}`);
        if (!answer.some((f) => f.id === 'probe' && (f.status || f.error || f.upgrade))) problems.push(`no error frame: ${JSON.stringify(answer).slice(0, 300)}`);
        if (/"hash"\s*:/.test(JSON.stringify(answer))) problems.push('a frame carries a credential hash');
        expect(problems).to.deep.equal([]);
      });
    }
  });
});
