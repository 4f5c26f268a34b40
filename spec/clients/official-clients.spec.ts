import { expect } from 'chai';
import { Client as Client8 } from '@elastic/elasticsearch';
import { Client as Client7 } from '@elastic/elasticsearch7';
import { Client as Client9 } from '@elastic/elasticsearch9';
import { Client as OpenSearch2 } from '@opensearch-project/opensearch2';
import { Client as OpenSearch3 } from '@opensearch-project/opensearch3';
import { selectedEngines } from '../engines/engines.js';
import { BACKENDS } from '../support/backends.js';
import { call } from '../support/http.js';
import { ADMIN, type TestGateway } from '../support/servers.js';
import { clientApis, clientPathParts, restSpecs, type ClientApi } from './catalog.js';
import { createFixtures, defaultPart, fixtureFor, type RunContext } from './fixtures.js';
import { answeredByGatewaySecurityPlugin, notCalled, notServed, READ_APIS, READ_REFUSED } from './not-served.js';

type Auth = { username: string; password: string };

interface ClientUnderTest {
  label: string;
  /** Prefix of everything its run creates (clients share one gateway per backend). */
  p: string;
  make(node: string, auth: Auth): object;
  close(client: object): Promise<void>;
  /** The client answers `{body, statusCode, headers}` rather than the body itself. */
  wrapsAnswers: boolean;
}

/** The 7.17 client in compatibility mode, as its users switch it on (ELASTIC_CLIENT_APIVERSIONING, read at construction). */
function compat7(node: string, auth: Auth): Client7 {
  const before = process.env.ELASTIC_CLIENT_APIVERSIONING;
  process.env.ELASTIC_CLIENT_APIVERSIONING = 'true';
  try {
    return new Client7({ node, auth });
  } finally {
    if (before === undefined) delete process.env.ELASTIC_CLIENT_APIVERSIONING;
    else process.env.ELASTIC_CLIENT_APIVERSIONING = before;
  }
}

const CLIENTS: ClientUnderTest[] = [
  { label: '@elastic/elasticsearch 9', p: 'es9', make: (node, auth) => new Client9({ node, auth }), close: (c) => (c as Client9).close(), wrapsAnswers: false },
  { label: '@elastic/elasticsearch 8', p: 'es8', make: (node, auth) => new Client8({ node, auth }), close: (c) => (c as Client8).close(), wrapsAnswers: false },
  { label: '@elastic/elasticsearch 7', p: 'es7', make: (node, auth) => new Client7({ node, auth }), close: (c) => (c as Client7).close(), wrapsAnswers: true },
  { label: '@elastic/elasticsearch 7, compatibility mode', p: 'es7c', make: compat7, close: (c) => (c as Client7).close(), wrapsAnswers: true },
  { label: '@opensearch-project/opensearch 3', p: 'os3', make: (node, auth) => new OpenSearch3({ node, auth }), close: (c) => (c as OpenSearch3).close(), wrapsAnswers: true },
  { label: '@opensearch-project/opensearch 2', p: 'os2', make: (node, auth) => new OpenSearch2({ node, auth }), close: (c) => (c as OpenSearch2).close(), wrapsAnswers: true },
];

const SPECS = restSpecs();
/**
 * Behind a real Elasticsearch or OpenSearch (TEST_ENGINES), what the embedded engine does not serve
 * may be the engine's to answer: such an answer is the engine's, not a failure.
 */
const REAL_ENGINE_BEHIND = selectedEngines().length > 0;
const CLIENT_PARTS = clientPathParts();

type Outcome = { api: string; outcome: 'passed' | 'failed' | 'not served' | 'not called' | 'refused'; detail?: string };

function describeError(err: unknown): string {
  const e = err as { name?: string; message?: string; meta?: { statusCode?: number; body?: unknown } };
  if (e.meta?.statusCode !== undefined) return `${e.name} ${e.meta.statusCode} ${JSON.stringify(e.meta.body).slice(0, 400)}`;
  return `${e.name}: ${e.message}`;
}

/** The arguments of an API's call: its fixture's, and the REST spec's / client's path parts filled with this run's harmless values. */
function argsFor(api: string, c: RunContext, fixtureArgs: Record<string, unknown> | undefined): Record<string, unknown> {
  if (fixtureArgs) return { ...fixtureArgs };
  const args: Record<string, unknown> = {};
  const spec = SPECS.get(api);
  for (const part of spec?.parts ?? CLIENT_PARTS.get(api) ?? []) args[part] = defaultPart(part, c);
  if (spec?.bodyRequired) args.body = {};
  return args;
}

/** Calls one API; a client that asks for a required parameter the tables did not give gets this run's value for it. */
async function callApi(api: ClientApi, args: Record<string, unknown>, c: RunContext, unwrap: boolean): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = (await api.call(args)) as { body?: unknown; statusCode?: number };
      return unwrap ? answer.body : answer;
    } catch (err) {
      if (attempt > 5) throw err;
      const message = (err as Error).message ?? '';
      const missing = /Missing required parameter(?: of the url)?:? (\w+)/i.exec(message);
      if (missing) {
        const part = missing[1];
        args[part] = part === 'body' ? {} : part === 'type' ? '_doc' : defaultPart(part, c);
      } else if (/The argument provided is not an array/.test(message)) {
        args.body = [{}]; // an NDJSON API
      } else if (err instanceof TypeError && /reading 'toString'/.test(message)) {
        // a path part the 8/9 client names otherwise than the REST spec files
        for (const part of CLIENT_PARTS.get(api.name) ?? []) args[part] ??= defaultPart(part, c);
      } else {
        throw err;
      }
    }
  }
}

/** An API the gateway does not serve answers as Elasticsearch answers a path it has no handler for. */
function expectNoHandler(err: unknown): string {
  const e = err as { meta?: { statusCode?: number; body?: { error?: unknown } | string; meta?: { request?: { params?: { method?: string } } } } };
  const status = e.meta?.statusCode;
  expect(status, describeError(err)).to.be.oneOf([400, 405]);
  if (e.meta?.meta?.request?.params?.method === 'HEAD') return `${status} (HEAD)`; // an answer without a body
  const error = (e.meta?.body as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') expect(error).to.match(/^(no handler found for uri|Incorrect HTTP method for uri) \[/);
  else expect(error, describeError(err)).to.have.property('type');
  return `${status}`;
}

/** The gateway's refusal of a Security plugin API it does not serve: the plugin's shape, `{"status","message"}`, its plain text, or the REST layer's refusal of a parameter. */
function expectPluginRefusal(err: unknown): string {
  const e = err as { meta?: { statusCode?: number; body?: unknown } };
  const status = e.meta?.statusCode;
  expect(status, describeError(err)).to.be.oneOf([400, 403, 405]);
  const body = e.meta?.body;
  if (typeof body === 'string') expect(body, describeError(err)).to.match(/\S/);
  // a parameter the endpoint does not take: the REST layer's refusal, in Elasticsearch's shape, as OpenSearch's
  else if ((body as { error?: unknown })?.error !== undefined) expect(body, describeError(err)).to.have.nested.property('error.type', 'illegal_argument_exception');
  else expect(body, describeError(err)).to.include.all.keys('status', 'message');
  return `${status}`;
}

/** A call the credential has no right to: 403, Elasticsearch's `security_exception` (a HEAD request's answer has no body). */
function expectRefused(err: unknown): void {
  const e = err as { meta?: { statusCode?: number; body?: { error?: { type?: string } } | string; meta?: { request?: { params?: { method?: string } } } } };
  expect(e.meta?.statusCode, describeError(err)).to.equal(403);
  if (e.meta?.meta?.request?.params?.method !== 'HEAD') expect((e.meta?.body as { error?: { type?: string } }).error?.type).to.equal('security_exception');
}

/** Calls one API of the client and tells what came of it. */
async function runApi(api: ClientApi, client: ClientUnderTest, c: RunContext, refused: Record<string, string>): Promise<Outcome> {
  const skipped = notCalled(api.name);
  if (skipped) return { api: api.name, outcome: 'not called', detail: skipped };
  if (refused[api.name]) {
    try {
      await callApi(api, argsFor(api.name, c, fixtureFor(api.name, c)?.args), c, client.wrapsAnswers);
      return { api: api.name, outcome: 'failed', detail: `should be refused (${refused[api.name]}), but it answered` };
    } catch (err) {
      try {
        expectRefused(err);
        return { api: api.name, outcome: 'refused', detail: refused[api.name] };
      } catch (wrong) {
        return { api: api.name, outcome: 'failed', detail: (wrong as Error).message };
      }
    }
  }
  const pluginReason = answeredByGatewaySecurityPlugin(api.name, client.p);
  if (pluginReason) {
    try {
      await callApi(api, argsFor(api.name, c, fixtureFor(api.name, c)?.args), c, client.wrapsAnswers);
      return { api: api.name, outcome: 'passed', detail: pluginReason };
    } catch (err) {
      try {
        return { api: api.name, outcome: 'not served', detail: `${expectPluginRefusal(err)}: ${pluginReason}` };
      } catch (wrong) {
        return { api: api.name, outcome: 'failed', detail: (wrong as Error).message };
      }
    }
  }
  const { reason, answersAs } = notServed(api.name, client.p) ?? {};
  const fixture = reason ? undefined : fixtureFor(api.name, c);
  try {
    await fixture?.setup?.();
    const made = await fixture?.prepare?.();
    const args = { ...argsFor(api.name, c, fixture?.args), ...made };
    if (reason && answersAs) {
      // Elasticsearch answers this path as another API: whatever that API answers
      await callApi(api, args, c, client.wrapsAnswers).catch((err) => expect(err).to.have.nested.property('meta.statusCode'));
      return { api: api.name, outcome: 'not served', detail: `answered as ${answersAs}: ${reason}` };
    }
    if (reason) {
      try {
        await callApi(api, args, c, client.wrapsAnswers);
      } catch (err) {
        if (REAL_ENGINE_BEHIND) return { api: api.name, outcome: 'not served', detail: `${describeError(err)}: ${reason}` };
        return { api: api.name, outcome: 'not served', detail: `${expectNoHandler(err)}: ${reason}` };
      }
      if (REAL_ENGINE_BEHIND) return { api: api.name, outcome: 'passed', detail: 'answered by the engine behind' };
      return { api: api.name, outcome: 'failed', detail: `listed as not served (${reason}), but it answered` };
    }
    const answer = await callApi(api, args, c, client.wrapsAnswers);
    fixture?.check?.(answer);
    return { api: api.name, outcome: 'passed' };
  } catch (err) {
    return { api: api.name, outcome: 'failed', detail: describeError(err) };
  }
}

/**
 * Every API of the client (or those in `only`): the served ones one after another, in name order
 * (some build on the fixtures others change); the unserved ones, which change nothing, 32 at a time.
 */
async function runApis(client: ClientUnderTest, instance: object, c: RunContext, only?: Set<string>, refused: Record<string, string> = {}): Promise<Outcome[]> {
  const apis = clientApis(instance).filter((api) => !only || only.has(api.name));
  const stateless = apis.filter((api) => !refused[api.name] && notServed(api.name, client.p) && !notServed(api.name, client.p)?.answersAs);
  const outcomes: Outcome[] = [];
  for (const api of apis) if (!stateless.includes(api)) outcomes.push(await runApi(api, client, c, refused));
  for (let i = 0; i < stateless.length; i += 32) {
    outcomes.push(...(await Promise.all(stateless.slice(i, i + 32).map((api) => runApi(api, client, c, refused)))));
  }
  return outcomes.sort((a, b) => a.api.localeCompare(b.api));
}

const MATRIX: string[] = [];

function tally(label: string, outcomes: Outcome[]): string {
  const n = (o: Outcome['outcome']) => outcomes.filter((x) => x.outcome === o).length;
  const notCalledCount = n('not called') ? `, ${n('not called')} not called (client-side only)` : '';
  const refusedCount = n('refused') ? `, ${n('refused')} refused as they must be` : '';
  return `${label}: ${outcomes.length - n('not called')} APIs called, ${n('passed')} passed, ${n('failed')} failed, ${n('not served')} not served${refusedCount}${notCalledCount}`;
}

for (const backend of BACKENDS) {
  describe(`today's official clients, unchanged, every API they have (${backend.name}; cache, request logs, metrics on)`, function () {
    this.timeout(120_000);
    let gw: TestGateway;
    let stop: () => Promise<void>;

    before(async () => {
      ({ gateway: gw, stop } = await backend.start());
    });
    after(async () => {
      await stop();
      for (const line of MATRIX.splice(0)) console.log(`      ${line}`);
    });

    for (const client of CLIENTS) {
      it(`${client.label}: every API of the client, as the admin`, async () => {
        const c: RunContext = { p: client.p, ix: `${client.p}-books`, url: gw.url };
        await createFixtures(c);
        const instance = client.make(gw.url, { username: ADMIN.user, password: ADMIN.password });
        try {
          const outcomes = await runApis(client, instance, c);
          MATRIX.push(tally(`${client.label} × ${backend.name}`, outcomes));
          // CLIENT_MATRIX_DUMP=file: every outcome as a JSON line, to read the matrix call by call
          if (process.env.CLIENT_MATRIX_DUMP) (await import('node:fs')).appendFileSync(process.env.CLIENT_MATRIX_DUMP, outcomes.map((o) => JSON.stringify({ client: client.p, backend: backend.name, ...o })).join('\n') + '\n');
          const failed = outcomes.filter((o) => o.outcome === 'failed');
          expect(failed.map((f) => `${f.api}: ${f.detail}`)).to.deep.equal([]);
          expect(outcomes.filter((o) => o.outcome === 'passed').length).to.be.above(50);
        } finally {
          await client.close(instance);
        }
      });

      it(`${client.label}: the read APIs with a read-only credential scoped to the run's indices`, async () => {
        const c: RunContext = { p: client.p, ix: `${client.p}-books`, url: gw.url };
        const cred = await call(gw.url, 'POST', '/_credentials', { body: { indices: [`${client.p}-*`], categories: ['docs', 'search'], ops: ['read'] } });
        expect(cred.status, cred.text).to.equal(201);
        const instance = client.make(gw.url, { username: cred.json.credential.username, password: cred.json.password });
        try {
          const outcomes = await runApis(client, instance, c, READ_APIS, READ_REFUSED);
          MATRIX.push(tally(`${client.label} × ${backend.name}, read credential`, outcomes));
          expect(outcomes.filter((o) => o.outcome === 'failed').map((f) => `${f.api}: ${f.detail}`)).to.deep.equal([]);
          expect(outcomes.filter((o) => o.outcome === 'passed').length).to.be.at.least(10);
          expect(outcomes.filter((o) => o.outcome === 'refused').length).to.equal(Object.keys(READ_REFUSED).length);
        } finally {
          await client.close(instance);
        }
      });
    }
  });
}
