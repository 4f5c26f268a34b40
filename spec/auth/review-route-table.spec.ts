import { expect } from 'chai';
import fc from 'fast-check';
import { Pool } from 'undici';
import WebSocket from 'ws';
import { isResolutionLookup, startRecordedGateway, type RecordingUpstream } from '../support/recording-upstream.js';
import { startTestGateway } from '../support/servers.js';
import { adminAuth, basic, call, jsonOrUndefined } from '../support/http.js';
import { openStream } from '../support/stream-client.js';

/**
 * Hostile-tenant review of the route table (issue 32): the gateway's own APIs matched by route id
 * on find-my-way, the classifier reading only the decoded target, streams checked against the
 * table. A credential for `mine*` holding every gateway category (credentials included) sends the
 * gateway's routes spelled every way a path can be spelled (`//`, `/./`, `%2F`, `%5F`, double
 * encoding, trailing dots, mixed case, a gateway word as an index name) with smuggled parameters;
 * on both backends (the HTTP backend behind a recording upstream) nothing outside `mine*` is read
 * or written, no credential but its own is seen or changed, and every answer is a 4xx or better in
 * Elasticsearch's shape.
 */

const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 120);
const SEED = Number(process.env.FAST_CHECK_SEED ?? 3232);
const STAGE_PATHS_RUNS = 40;
const SECRET = 'sesame-32x';

/** Ways to spell a path segment that names a gateway API word (`_credentials`). */
const spellWord = (word: string): string[] => [
  word, `%5F${word.slice(1)}`, `%5f${word.slice(1)}`, `%255F${word.slice(1)}`, word.toUpperCase(), `${word}.`, `${word}%2E`, encodeURIComponent(word).replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
];
/** Ways to join segments: every one names the same segments, or none Elasticsearch would read. */
const PREFIXES = ['/', '//', '/./', '/%2F', '/%2f/', '///', '/mine-1/../', '/%2E/', '/.%2F'];
const SEPARATORS = ['/', '//', '%2F', '/./', '%252F'];
const STREAM_PATHS = ['/mine-1/_doc/1', '/mine-1/_search', '//mine-1/_search', '/mine-1/%5Fsearch', '/mine-1/_source/1', '/mine-1,other-1/_search', '/mine-1%2Cother-1/_search', '/mine-*/_search', '/%2A/_search', '/mine-1/./_doc/1', '/mine-1/_doc/%31'];
const STREAM_PARAMS = ['', '&_source_includes=secret', '&_source=secret', '&stored_fields=secret', '&index=other-1', '&source=%7B%22query%22%3A%7B%22match_all%22%3A%7B%7D%7D%2C%22docvalue_fields%22%3A%5B%22secret%22%5D%7D',
  '&%73ource=%7B%22query%22%3A%7B%22match_all%22%3A%7B%7D%7D%2C%22fields%22%3A%5B%22*%22%5D%7D', '&docvalue_fields=secret', '&stream=false&stream=true', '&routing=1', '&filter_path=*', '&version=true&seq_no_primary_term=true', '&unknown_param=1'];
const QUERIES = ['', '?source=%7B%7D', '?%73ource=%7B%22indices%22%3A%5B%22*%22%5D%7D', '?pretty&pretty=false', '?index=other-1', '?stream=true', '?username=victim', '?filter_path=*', '?stream=true&index=other-1'];
const WORDS = ['_credentials', '_pipeline', '_pipelines', '_rules', '_rule', '_searchrelevancy', '_cache', '_logs', '_log', '_analytics', '_reactivesearch', '_reactivesearch.v3', '_declarative', '_apps', '_gateway', '_security'];
const OWNERS = ['', 'mine-1', 'other-1', '_all', '*', 'other-*', '.gateway-credentials', 'mine-1,other-1', 'mine-1%2Cother-1'];
const TAILS = ['', 'victim', 'other-1', '_default', 'stats', 'validate', 'other-1/x', '_search', '_doc/1', 'metrics', '_authenticate', 'victim/_update'];

const once = (seg: string) => {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
};
/** An index expression the engine expands to `name` (a wildcard only where it says `*`). */
const reaches = (expr: string, name: string) =>
  new RegExp('^' + expr.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$').test(name);

interface Started {
  url: string;
  upstream?: RecordingUpstream;
  stop(): Promise<void>;
}

const TARGETS: Array<{ name: string; start(): Promise<Started> }> = [
  {
    name: 'embedded engine',
    async start() {
      const gateway = await startTestGateway();
      return { url: gateway.url, stop: () => gateway.close() };
    },
  },
  {
    name: 'HTTP backend, recorded',
    async start() {
      const started = await startRecordedGateway();
      return { url: started.gateway.url, upstream: started.upstream, stop: () => started.stop() };
    },
  },
];

for (const target of TARGETS) {
  describe(`hostile tenant against the route table (${target.name})`, function () {
    this.timeout(180_000);
    let started: Started;
    let pool: Pool;
    let tenant: string;
    let tenantUser: string;
    let victim: { username: string; password: string };
    let victimRecord: string;

    /** A request sent as written: no URL normalization of its path. */
    const raw = async (method: string, path: string, auth: string, body?: unknown) => {
      const headers: Record<string, string> = { authorization: auth };
      let text: string | undefined;
      if (body !== undefined) {
        text = typeof body === 'string' ? body : JSON.stringify(body);
        headers['content-type'] = 'application/json';
      }
      const res = await pool.request({ method: method as 'GET', path, headers, body: text });
      const out = await res.body.text();
      const json = jsonOrUndefined(out);
      return { status: res.statusCode, text: out, json };
    };

    const victimState = async () => {
      const res = await call(started.url, 'GET', `/_credentials/${victim.username}`);
      expect(res.status, res.text).to.equal(200);
      const { indices, categories, ops, role, exclude_fields } = res.json.credential ?? res.json;
      return JSON.stringify({ indices, categories, ops, role, exclude_fields });
    };

    /** The victim still stands as it was: its password works and its record is unchanged. */
    const victimIntact = async (what: string) => {
      const auth = await call(started.url, 'GET', '/_security/_authenticate', { auth: basic(victim.username, victim.password) });
      expect(auth.status, `${what}: the victim no longer authenticates: ${auth.text}`).to.equal(200);
      expect(await victimState(), `${what} changed the victim`).to.equal(victimRecord);
    };

    /** No 5xx; a refusal is Elasticsearch-shaped; an answer never names what is outside the tenant. */
    const expectContained = (res: { status: number; text: string; json: any }, what: string) => {
      if (process.env.REVIEW_TALLY) console.log('TALLY', res.status, what, res.text.slice(0, 160));
      expect(res.status, `${what} → ${res.status} ${res.text}`).to.be.below(500);
      if (res.status >= 400 && res.status !== 405 && res.text) {
        expect(res.json?.error?.type, `${what}: ${res.text}`).to.be.a('string');
        expect(res.json?.status, `${what}: ${res.text}`).to.equal(res.status);
      }
      expect(res.text, `${what} shows a hidden value`).not.to.contain(SECRET);
      if (res.status < 300) {
        expect(res.text, `${what} names the victim credential`).not.to.contain(victim.username);
        expect(res.text, `${what} names another tenant's index`).not.to.contain('other-1');
      }
    };

    /**
     * What reached the engine, read as the engine reads it (each path segment and `index` value
     * decoded once): no index expression of it names or can expand to another tenant's index, and
     * no body carries the hidden value. (The recorder's own `leaksIn` decodes until stable, so a
     * tenant's index named `*%2Fother-1` counts there; the engine reads it as one name.)
     */
    const noLeaks = (what: string) => {
      if (!started.upstream) return;
      const found: string[] = [];
      for (const r of started.upstream.requests) {
        if (isResolutionLookup(r)) continue;
        // the engine's index positions: the first segment, or after an API word (`/_alias/{name}`) the ones that follow
        const segments = r.path.split('/').slice(1).map(once);
        const positions = segments[0]?.startsWith('_') ? segments.slice(1).filter((seg) => !seg.startsWith('_')) : segments.slice(0, 1);
        const exprs = positions.flatMap((seg) => seg.split(','));
        for (const [k, v] of new URLSearchParams(r.query)) if (k === 'index') exprs.push(...v.split(','));
        const reaching = exprs.filter((e) => !e.startsWith('-') && (e === '_all' || reaches(e, 'other-1')));
        if (reaching.length || r.body.includes(SECRET)) found.push(`${r.method} ${r.path}?${r.query} [${reaching.join(',')}] ${r.body.slice(0, 120)}`);
      }
      expect(found, `${what} reached the engine with ${found.join(' | ')}`).to.deep.equal([]);
    };

    before(async () => {
      started = await target.start();
      pool = new Pool(started.url, { connections: 4 });
      for (const ix of ['mine-1', 'other-1']) {
        const made = await call(started.url, 'PUT', `/${ix}`, { body: { mappings: { properties: { f: { type: 'keyword' }, secret: { type: 'keyword' } } } } });
        expect(made.status, made.text).to.equal(200);
        const doc = await call(started.url, 'PUT', `/${ix}/_doc/1?refresh=true`, { body: { f: 'a', secret: `${SECRET}-${ix}` } });
        expect(doc.status, doc.text).to.be.oneOf([200, 201]);
      }
      const v = await call(started.url, 'POST', '/_credentials', { body: { description: 'victim', indices: ['other*'], categories: ['docs', 'search'], ops: ['read', 'write'] } });
      expect(v.status, v.text).to.equal(201);
      victim = { username: v.json.credential.username, password: v.json.password };
      victimRecord = await victimState();
      const t = await call(started.url, 'POST', '/_credentials', {
        body: {
          description: 'mine, every gateway category',
          indices: ['mine*'],
          categories: ['credentials', 'docs', 'search', 'indices', 'pipelines', 'rules', 'searchrelevancy', 'cache', 'logs', 'analytics', 'declarative', 'streams'],
          ops: ['read', 'write', 'delete'],
          exclude_fields: ['secret'],
        },
      });
      expect(t.status, t.text).to.equal(201);
      tenantUser = t.json.credential.username;
      tenant = basic(tenantUser, t.json.password);
      started.upstream?.clear();
    });
    after(async () => {
      await pool?.close();
      await started?.stop();
    });

    it('the credentials API spelled every way: no other credential is listed, read, reset, widened or deleted (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PREFIXES), fc.constantFrom(...spellWord('_credentials')), fc.constantFrom(...SEPARATORS), fc.boolean(), fc.constantFrom(...QUERIES),
          fc.constantFrom('GET', 'PATCH', 'DELETE', 'PUT', 'POST'),
          async (prefix, word, sep, named, query, method) => {
            const who = named ? `${sep}${encodeURIComponent(victim.username)}` : '';
            const path = `${prefix}${word}${who}${query}`;
            const body = method === 'PATCH' || method === 'PUT' || method === 'POST'
              ? { password: 'pwned-password-32', indices: ['*'], categories: ['docs', 'search', 'credentials'], ops: ['read', 'write', 'delete'], role: 'admin' }
              : undefined;
            started.upstream?.clear();
            const res = await raw(method, path, tenant, body);
            expectContained(res, `${method} ${path}`);
            noLeaks(`${method} ${path}`);
            await victimIntact(`${method} ${path}`);
          }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it('its own credential spelled every way: a PATCH never widens it (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PREFIXES), fc.constantFrom(...spellWord('_credentials')), fc.constantFrom(...SEPARATORS), fc.constantFrom(...QUERIES),
          fc.constantFrom<Record<string, unknown>>({ indices: ['*'] }, { indices: ['mine*', 'other*'] }, { exclude_fields: [] }, { role: 'admin' }, { allow_raw_dsl: true }, { cluster_privileges: ['manage'] }, { ops: ['read', 'write', 'delete'], indices: ['other-1'] }),
          async (prefix, word, sep, query, change) => {
            const path = `${prefix}${word}${sep}${encodeURIComponent(tenantUser)}${query}`;
            started.upstream?.clear();
            const res = await raw('PATCH', path, tenant, change);
            expectContained(res, `PATCH ${path} ${JSON.stringify(change)}`);
            noLeaks(`PATCH ${path}`);
            // whatever it answered, the tenant still reads nothing of other-1 and sees no hidden field
            const read = await call(started.url, 'GET', '/other-1/_doc/1', { auth: tenant });
            expect(read.status, `after PATCH ${path} ${JSON.stringify(change)}: ${read.text}`).to.equal(403);
            const own = await call(started.url, 'GET', '/mine-1/_doc/1', { auth: tenant });
            expect(own.status, own.text).to.equal(200);
            expect(own.json._source, `after PATCH ${path} ${JSON.stringify(change)}`).not.to.have.property('secret');
          }),
        { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
      );
    });

    it('every gateway route spelled every way, with an index and a tail: nothing outside the tenant, no 5xx (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PREFIXES), fc.constantFrom(...OWNERS), fc.constantFrom(...WORDS), fc.nat(7), fc.constantFrom(...SEPARATORS), fc.constantFrom(...TAILS), fc.constantFrom(...QUERIES),
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
          async (prefix, owner, word, spelling, sep, tail, query, method) => {
            started.upstream?.clear();
            const w = spellWord(word)[spelling];
            const path = `${prefix}${owner ? `${owner}${sep}` : ''}${w}${tail ? `${sep}${tail}` : ''}${query}`;
            const body = method === 'GET' || method === 'DELETE' ? undefined : { query: { match_all: {} }, indices: ['*'], index: 'other-1', id: 'x', path: '/other-1/_search' };
            const res = await raw(method, path, tenant, body);
            expectContained(res, `${method} ${path}`);
            noLeaks(`${method} ${path}`);
          }),
        { seed: SEED, numRuns: RUNS },
      );
      await victimIntact('the gateway route sweep');
    });

    it('streams with parameters the route check should refuse: no hidden field, nothing of another tenant (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...STREAM_PATHS), fc.constantFrom(...STREAM_PARAMS), fc.constantFrom('GET', 'POST'), async (path, extra, method) => {
          const target = `${path}?stream=true${extra}`;
          const body = method === 'POST' ? { query: { match_all: {} }, fields: ['*'], docvalue_fields: ['secret'], script_fields: { s: { script: "params._source['secret']" } } } : undefined;
          started.upstream?.clear();
          const stream = await openStream(started.url, target, { method, body, auth: tenant });
          try {
            if (stream.status === 200) await stream.until((m) => m.length > 0, 5000);
            else await stream.ended;
            const text = stream.raw();
            let json: any;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            expectContained({ status: stream.status, text, json }, `${method} ${target}`);
            noLeaks(`${method} ${target}`);
          } finally {
            stream.close();
          }
        }),
        { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
      );
    });

    it('WebSocket frames to the gateway\'s own routes, spelled every way: no other credential, nothing outside the tenant (generated)', async () => {
      const ws = new WebSocket(started.url.replace(/^http/, 'ws') + '/mine-1', { headers: { authorization: tenant } });
      await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
      const waiting = new Map<string, (frame: any) => void>();
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data));
        waiting.get(frame.id)?.(frame);
      });
      let n = 0;
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('', '/', '//', './', '%2F'), fc.constantFrom('', 'mine-1/', 'other-1/', '*/'), fc.constantFrom(...WORDS), fc.nat(7), fc.constantFrom('', '/victim', '/other-1', '/_search', '//victim'),
            fc.constantFrom(...QUERIES), fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
            async (lead, owner, word, spelling, tail, query, method) => {
              const id = `f${n++}`;
              const who = tail.replace('victim', encodeURIComponent(victim.username));
              const path = `${lead}${owner}${spellWord(word)[spelling]}${who}${query}`;
              const body = method === 'GET' || method === 'DELETE' ? undefined : { password: 'pwned-password-32', indices: ['*'], role: 'admin', query: { match_all: {} } };
              started.upstream?.clear();
              const answer = new Promise<any>((resolve) => waiting.set(id, resolve));
              ws.send(JSON.stringify({ id, path, method, body }));
              const frame = await answer;
              waiting.delete(id);
              const text = JSON.stringify(frame.body ?? frame);
              const status = Number(frame.status ?? 200);
              if (process.env.REVIEW_TALLY) console.log('TALLY', status, `frame ${method} ${path}`, text.slice(0, 160));
              expect(status, `frame ${method} ${path}: ${text.slice(0, 300)}`).to.be.below(500);
              expect(text, `frame ${method} ${path} shows a hidden value`).not.to.contain(SECRET);
              if (status < 300) expect(text, `frame ${method} ${path} names the victim`).not.to.contain(victim.username);
              noLeaks(`frame ${method} ${path}`);
              await victimIntact(`frame ${method} ${path}`);
            }),
          { seed: SEED, numRuns: RUNS },
        );
      } finally {
        ws.close();
      }
    });

    it('a path the table reads as `/{index}/_rules` or `/{index}/_cache` is no gateway API: its handler never reads the API word as a rule id or an index', async () => {
      // the rules API is `/_rule/{id}` and `/_rules[/_order]`; the cache API `/_cache/{what}`: their
      // handlers read segments by place, so `/mine-1/_rules` was `/_rule/_rules` and `/mine-1/_cache` `/_cache/_cache`
      const rule = { trigger: { type: 'always' }, actions: { custom_data: 'route confusion' } };
      for (const [method, path] of [['PUT', '/mine-1/_rules'], ['POST', '//mine-1/%5Frules'], ['PUT', '/mine-1/_rules/'], ['DELETE', '/mine-1/_cache'], ['DELETE', '/mine-1//%5Fcache']]) {
        const res = await raw(method, path, tenant, method === 'DELETE' ? undefined : rule);
        expectContained(res, `${method} ${path}`);
        // no route of the table: refused for a scoped credential ("unknown means refused", issue 32), never a gateway API's answer
        expect(res.status, `${method} ${path} reached a gateway API: ${res.text}`).to.be.oneOf([400, 403, 404, 405]);
        if (res.status === 403) expect(res.json?.error?.type).to.equal('security_exception');
      }
      const stored = await call(started.url, 'GET', '/_rule/_rules');
      expect(stored.status, `a rule [_rules] was stored: ${stored.text}`).to.be.oneOf([404, 400]);
    });

    it('a gateway pipeline stage\'s engine call spelled every way: never outside the tenant, never a 5xx (generated)', async () => {
      const retarget = (path: string) => ({
        id: 'retarget32',
        routes: [{ path: '/mine-1/_doc/{id}', method: 'PUT' }],
        stages: [
          { id: 'retarget', script: `function handleRequest() { return { request: { path: ${JSON.stringify(path)} } }; }` },
          { id: 'send', use: 'engineQuery' },
        ],
      });
      const ingest = await call(started.url, 'PUT', '/_ingest/pipeline/to-other', { body: { processors: [{ set: { field: '_index', value: 'other-1' } }] } });
      expect(ingest.status, ingest.text).to.equal(200);
      const STAGE_PATHS = ['/mine-1/../other-1/_doc/s', '/mine-1/%2e%2e/other-1/_doc/s', '/mine-1/%252e%252e/other-1/_doc/s', '/mine-1/.%2E/other-1/_doc/s', '//other-1/_doc/s', '/%6Fther-1/_doc/s',
        '/mine-1%2F..%2Fother-1/_doc/s', '/mine-1/./_doc/s', '/other-1/_doc/s', '/mine-1/_doc/s?pipeline=to-other', '/mine-1/_doc/s?%70ipeline=to-other', '/mine-1/_doc/s?source=%7B%7D&pipeline=to-other',
        '/_credentials/victim', '//_credentials', '/%5Fcredentials/victim', '/_security/user/x', '/mine-1/_doc/%2E%2E', '/mine-1/_doc/s/..', 'mine-1/_doc/s', '/mine-1/_doc/s?%E0%A4%A', '/%E0%A4%A/_doc/s'];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...STAGE_PATHS), async (template) => {
          const path = template.replace('victim', encodeURIComponent(victim.username));
          const reg = await raw('PUT', '/_pipeline/retarget32', tenant, retarget(path));
          expect(reg.status, reg.text).to.be.oneOf([200, 201]);
          started.upstream?.clear();
          const res = await raw('PUT', '/mine-1/_doc/7', tenant, { f: 'stage' });
          expectContained(res, `a stage's call to ${path}`);
          noLeaks(`a stage's call to ${path}`);
          await victimIntact(`a stage's call to ${path}`);
        }),
        { seed: SEED, numRuns: STAGE_PATHS_RUNS },
      );
      await call(started.url, 'POST', '/other-1/_refresh');
      const count = await call(started.url, 'GET', '/other-1/_count');
      expect(count.json.count, 'other-1 holds only its own document').to.equal(1);
      expect((await raw('DELETE', '/_pipeline/retarget32', tenant)).status).to.equal(200);
    });

    it('the app-addressed style `/{app}/{type}/{id}` and index creation spelled every way: only the tenant\'s own indices (generated)', async () => {
      const APPS = ['mine-1', 'other-1', '%6Fther-1', 'mine-1,other-1', 'mine-1%2Cother-1', '*', 'other-*', '_all', '.gateway-credentials', '%2Egateway-credentials', 'mine-1%2F..%2Fother-1', 'OTHER-1'];
      const TYPES = ['t', '_doc', '%5Fdoc', '_credentials', '%5Fcredentials', '_search', '_count', '_bulk', '_source', '_update'];
      const IDS = ['', '/1', '/%31', '/1/_update', '/victim', '/_search', '/%2E%2E', '/..%2Fother-1'];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('/', '//', '/%2F'), fc.constantFrom(...APPS), fc.constantFrom(...TYPES), fc.constantFrom(...IDS), fc.constantFrom('', '?refresh=true', '?source=%7B%22query%22%3A%7B%22match_all%22%3A%7B%7D%7D%7D', '?index=other-1'),
          fc.constantFrom('GET', 'PUT', 'POST', 'DELETE', 'HEAD'),
          async (lead, app, type, id, query, method) => {
            const path = `${lead}${app}/${type}${id.replace('victim', encodeURIComponent(victim.username))}${query}`;
            const body = method === 'PUT' || method === 'POST' ? (type === '_bulk' ? undefined : { f: 'typed', query: { match_all: {} }, doc: { f: 'typed' } }) : undefined;
            started.upstream?.clear();
            const res = await raw(method, path, tenant, body);
            expectContained(res, `${method} ${path}`);
            noLeaks(`${method} ${path}`);
          }),
        { seed: SEED, numRuns: RUNS },
      );
      for (const app of ['other-1', '%6Fther-1', 'other-2', '_all', 'mine-1%2Cother-3', '.gateway-x']) {
        for (const method of ['PUT', 'GET', 'DELETE', 'HEAD']) {
          const res = await raw(method, `/${app}`, tenant);
          expectContained(res, `${method} /${app}`);
          if (method !== 'GET' && method !== 'HEAD') expect(res.status, `${method} /${app}: ${res.text}`).to.be.within(400, 499);
        }
      }
      const other = await call(started.url, 'GET', '/other-1/_doc/1');
      expect(other.status, other.text).to.equal(200);
      expect(other.json._source.f, other.text).to.equal('a');
      await call(started.url, 'POST', '/other-1/_refresh');
      expect((await call(started.url, 'GET', '/other-1/_count')).json.count).to.equal(1);
    });

    it('`/{index}/_credentials` with an index expression that matches nothing yet: never a credential beyond the tenant\'s patterns', async () => {
      for (const expr of ['z*', 'o*', 'other-9', 'other-9*', '*-9', 'm*', 'mi*', '*', 'mine-1,zz-1', 'mine-1%2Czz-*', '%7Azz*', 'mine-1,-mine-1,zz', '<zz-{now/d}>', '%3Czz-%7Bnow%2Fd%7D%3E', 'remote:zz', 'zz?']) {
        for (const method of ['POST', 'GET']) {
          const path = `/${expr}/_credentials`;
          const res = await raw(method, path, tenant, method === 'POST' ? {} : undefined);
          expectContained(res, `${method} ${path}`);
          if (method === 'POST' && res.status < 300) {
            const minted = [res.json?.read, res.json?.write, res.json?.credential, ...(res.json?.credentials ?? [])].filter(Boolean);
            for (const c of minted) for (const ix of c.indices ?? []) expect(ix, `${method} ${path} minted ${JSON.stringify(c)}`).to.match(/^mine/);
          }
        }
      }
    });

    it('a gateway API word as an index name is an index of the tenant\'s, never the gateway API', async () => {
      for (const word of ['mine-credentials', 'mine-_credentials', 'mine_pipeline']) {
        const res = await raw('PUT', `/${word}`, tenant);
        expectContained(res, `PUT /${word}`);
      }
      // `_credentials` as the {app} or {type} of the app-addressed style
      for (const path of ['/mine-1/_credentials/victim', '/mine-1/_credentials/' + encodeURIComponent(victim.username), '/mine-1/x/_credentials', '/_credentials/_credentials/x']) {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const res = await raw(method, path, tenant, method === 'PUT' ? { password: 'pwned-password-32', indices: ['*'] } : undefined);
          expectContained(res, `${method} ${path}`);
        }
      }
      await victimIntact('gateway words as names');
    });

    it('the admin still manages credentials on the canonical path', async () => {
      const list = await raw('GET', '/_credentials', adminAuth());
      expect(list.status, list.text).to.equal(200);
      expect(list.text).to.contain(victim.username);
    });
  });
}
