import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Pool, request as undiciRequest } from 'undici';
import { spawnEngine, startTestGateway, tempDir, type ChildServer, type TestGateway } from './servers.js';

/** One request as it reached the engine. */
export interface Recorded {
  method: string;
  /** The request target's path exactly as sent (not decoded). */
  path: string;
  /** The query string without `?` ('' when none). */
  query: string;
  /** The body as utf8 text (decompressed when the request says it is compressed). */
  body: string;
  /** The headers as they reached the engine. */
  headers: http.IncomingHttpHeaders;
}

export interface RecordingUpstream {
  /** Where the gateway should send engine traffic (`ENGINE_URL`). */
  url: string;
  /** The standalone engine itself: calls made here bypass the recorder (and the gateway). */
  engineUrl: string;
  /** Every request that reached the recorder, in arrival order. */
  requests: Recorded[];
  clear(): void;
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

function readable(body: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body).toString('utf8');
    if (encoding === 'deflate') return inflateSync(body).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  } catch {
    /* recorded as sent */
  }
  return body.toString('utf8');
}

/**
 * A standalone engine behind a recording HTTP proxy: every request is recorded once its body has
 * arrived (before it is forwarded), then forwarded unchanged and answered with the engine's reply.
 */
export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const data = await tempDir('gw-recorded-engine-');
  const engine: ChildServer = await spawnEngine(data.dir);
  const pool = new Pool(new URL(engine.url).origin, { connections: 32, pipelining: 1 });
  const requests: Recorded[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = req.url ?? '/';
      const q = raw.indexOf('?');
      const body = Buffer.concat(chunks);
      const encoding = req.headers['content-encoding'];
      requests.push({
        method: req.method ?? 'GET',
        path: q < 0 ? raw : raw.slice(0, q),
        query: q < 0 ? '' : raw.slice(q + 1),
        body: readable(body, typeof encoding === 'string' ? encoding.toLowerCase() : undefined),
        headers: req.headers,
      });
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      }
      try {
        const up = await pool.request({ method: req.method as 'GET', path: raw, headers, body: body.length ? body : null });
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(up.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        }
        res.writeHead(up.statusCode, out);
        for await (const chunk of up.body) res.write(chunk);
        res.end();
      } catch (err) {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'recorder_exception', reason: String(err) }, status: 502 }));
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    engineUrl: engine.url,
    requests,
    clear: () => void requests.splice(0),
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.close();
      await engine.stop();
      await data.remove();
    },
  };
}

/**
 * The gateway's own read-only lookups for authorization: `GET /{expr}/_settings/index.uuid`,
 * `GET /_alias/{names}`, and the stored templates a template put or removed by name replaces
 * (`GET /_index_template[/{name}]`, `/_component_template/{name}`, `/_template/{name}`), without a
 * body. Nothing else the gateway sends on a client's behalf may name an index the client may not reach.
 */
export function isResolutionLookup(r: Recorded): boolean {
  return r.method === 'GET' && r.body === '' && (/^\/[^/]+\/_settings\/index\.uuid$/.test(r.path) || /^\/_alias\/[^/]+$/.test(r.path)
    || /^\/(_index_template|_component_template|_template)(\/[^/]+)?$/.test(r.path));
}

/** Percent-decoded until stable (a double-encoded name is still that name to someone downstream). */
function decoded(text: string, plusIsSpace = false): string {
  let out = plusIsSpace ? text.replace(/\+/g, ' ') : text;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(out);
    } catch {
      next = out.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next === out) break;
    out = next;
  }
  return out;
}

/** The body as JSON parsers downstream read it: `\u` escapes resolved, line by line for NDJSON. */
function jsonForms(body: string): string[] {
  const forms: string[] = [];
  const reparse = (text: string) => {
    try {
      forms.push(JSON.stringify(JSON.parse(text)));
    } catch {
      /* not JSON */
    }
  };
  reparse(body);
  for (const line of body.split(/[\n\r]+/)) reparse(line.trim());
  return forms;
}

const globMatches = (pattern: string, name: string) =>
  new RegExp('^' + pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 'i').test(name);

export interface LeakCheck {
  /** Substrings no forwarded request may contain (case-insensitive), e.g. `tenant-b`, `.gateway-`. */
  names: string[];
  /** Concrete indices a wildcard (or `_all`) in a forwarded index position must not be able to reach. */
  reachable: string[];
}

/**
 * What in the recorded requests names (or could expand to) an index the client may not reach:
 * one line per finding, `METHOD path?query: why`. The gateway's resolution lookups are exempt.
 */
export function leaksIn(requests: readonly Recorded[], check: LeakCheck): string[] {
  const found: string[] = [];
  for (const r of requests) {
    if (isResolutionLookup(r)) continue;
    const where = `${r.method} ${r.path}${r.query ? '?' + r.query : ''}`.slice(0, 200);
    const path = decoded(r.path);
    const query = decoded(r.query, true);
    const texts: Array<[string, string]> = [
      ['path', r.path], ['decoded path', path], ['query', r.query], ['decoded query', query],
      ['body', r.body], ...jsonForms(r.body).map((f): [string, string] => ['body (as JSON)', f]),
    ];
    const why = new Set<string>();
    for (const name of check.names) {
      for (const [part, text] of texts) {
        if (text.toLowerCase().includes(name.toLowerCase())) {
          why.add(`${part} names [${name}]`);
          break;
        }
      }
    }
    // an index expression the engine would expand to a foreign index: the first path segment and `index=`
    const expressions = [...(path.split('/')[1] ?? '').split(','), ...new URLSearchParams(r.query).getAll('index').flatMap((v) => v.split(','))];
    for (const expr of expressions) {
      if (expr.startsWith('-') || !(expr.includes('*') || expr === '_all')) continue;
      const hits = check.reachable.filter((name) => expr === '_all' || globMatches(expr, name));
      if (hits.length) why.add(`index expression [${expr}] reaches [${hits.join(',')}]`);
    }
    if (why.size) found.push(`${where}: ${[...why].join('; ')}${r.body ? ` — body ${JSON.stringify(r.body.slice(0, 160))}` : ''}`);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// The engine's state, read and put back directly (bypassing recorder and gateway), so that a
// request that did leak cannot change what the following cases run against.

interface StoredDoc {
  version: number;
  source: unknown;
}

export interface EngineState {
  /** Index list, blocks, aliases and document versions: equal fingerprints, same state. */
  fingerprint: string;
  mappings: Record<string, unknown>;
  docs: Map<string, Map<string, StoredDoc>>;
  /** `index/alias` pairs. */
  aliases: Set<string>;
}

async function engineCall(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; json: any }> {
  const res = await undiciRequest(base + path, {
    method: method as 'GET',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await res.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}

/** Reads the state of the indices matching `expression` (default: every tenant and system index). */
export async function readEngineState(engineUrl: string, expression = 'tenant-*,.gateway-*'): Promise<EngineState> {
  const all = `expand_wildcards=all&ignore_unavailable=true&allow_no_indices=true`;
  const cat = await engineCall(engineUrl, 'GET', `/_cat/indices/${expression}?format=json&h=index,status,uuid&s=index&${all}`);
  await engineCall(engineUrl, 'POST', `/${expression}/_refresh?${all}`);
  const search = await engineCall(engineUrl, 'GET', `/${expression}/_search?size=10000&version=true&${all}`);
  const blocks = await engineCall(engineUrl, 'GET', `/${expression}/_settings?filter_path=*.settings.index.blocks&${all}`);
  const aliases = await engineCall(engineUrl, 'GET', `/${expression}/_alias?${all}`);
  const mappings = await engineCall(engineUrl, 'GET', `/${expression}/_mapping?${all}`);
  const docs = new Map<string, Map<string, StoredDoc>>();
  const hits: Array<{ _index: string; _id: string; _version: number; _source: unknown }> = search.json?.hits?.hits ?? [];
  for (const h of hits) {
    if (!docs.has(h._index)) docs.set(h._index, new Map());
    docs.get(h._index)!.set(h._id, { version: h._version, source: h._source });
  }
  const aliasPairs = new Set<string>();
  for (const [index, entry] of Object.entries<{ aliases?: Record<string, unknown> }>(aliases.json ?? {})) {
    for (const alias of Object.keys(entry.aliases ?? {})) aliasPairs.add(`${index}/${alias}`);
  }
  const versions = hits.map((h) => `${h._index}/${h._id}@${h._version}`).sort();
  const fingerprint = JSON.stringify({ cat: [cat.status, cat.json ?? cat.text], search: search.status, versions, blocks: blocks.text, aliases: aliases.text });
  return { fingerprint, mappings: mappings.json ?? {}, docs, aliases: aliasPairs };
}

/**
 * Puts the indices of `baseline` back as they were (recreated if gone, opened, unblocked, aliases
 * and documents as before) and returns the state read afterwards, the next baseline.
 */
export async function restoreEngineState(engineUrl: string, baseline: EngineState, expression = 'tenant-*,.gateway-*'): Promise<EngineState> {
  const indices = Object.keys(baseline.mappings);
  const cat = await engineCall(engineUrl, 'GET', `/_cat/indices/${expression}?format=json&h=index&expand_wildcards=all&ignore_unavailable=true&allow_no_indices=true`);
  const present = new Set<string>(Array.isArray(cat.json) ? cat.json.map((r: { index: string }) => r.index) : []);
  for (const index of indices) {
    const mapping = (baseline.mappings[index] as { mappings?: unknown } | undefined)?.mappings;
    if (!present.has(index)) await engineCall(engineUrl, 'PUT', `/${encodeURIComponent(index)}`, mapping ? { mappings: mapping } : {});
    await engineCall(engineUrl, 'POST', `/${encodeURIComponent(index)}/_open`);
    await engineCall(engineUrl, 'PUT', `/${encodeURIComponent(index)}/_settings`, { index: { blocks: { read: null, write: null, read_only: null, read_only_allow_delete: null, metadata: null } } });
  }
  const now = await readEngineState(engineUrl, expression);
  for (const pair of now.aliases) {
    if (baseline.aliases.has(pair)) continue;
    const [index, alias] = pair.split('/');
    await engineCall(engineUrl, 'DELETE', `/${encodeURIComponent(index)}/_alias/${encodeURIComponent(alias)}`);
  }
  for (const index of indices) {
    const want = baseline.docs.get(index) ?? new Map<string, StoredDoc>();
    const have = now.docs.get(index) ?? new Map<string, StoredDoc>();
    for (const id of have.keys()) {
      if (!want.has(id)) await engineCall(engineUrl, 'DELETE', `/${encodeURIComponent(index)}/_doc/${encodeURIComponent(id)}`);
    }
    for (const [id, doc] of want) {
      if (have.get(id)?.version !== doc.version) await engineCall(engineUrl, 'PUT', `/${encodeURIComponent(index)}/_doc/${encodeURIComponent(id)}`, doc.source);
    }
  }
  return readEngineState(engineUrl, expression);
}

/** A request sent as written (no URL normalization of its path), bounded in time: its answer, or 'timeout'. */
export async function sendRaw(
  pool: Pool,
  req: { method: string; path: string; body?: string; contentType?: string },
  authorization: string,
  timeoutMs: number,
): Promise<{ status: number; text: string } | 'timeout'> {
  const headers: Record<string, string> = { authorization };
  if (req.contentType !== undefined) headers['content-type'] = req.contentType;
  try {
    const res = await pool.request({ method: req.method as 'GET', path: req.path, headers, body: req.body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    return { status: res.statusCode, text: await res.body.text() };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
    throw err;
  }
}

/**
 * A gateway in front of a recording upstream (`ENGINE_URL`): what reaches the engine is what
 * clients' requests make — the gateway's own request-log writes are off unless `env` turns them on.
 */
export async function startRecordedGateway(env: Record<string, string> = {}): Promise<{ upstream: RecordingUpstream; gateway: TestGateway; stop(): Promise<void> }> {
  const upstream = await startRecordingUpstream();
  const gateway = await startTestGateway({ ENGINE_URL: upstream.url, LOGS_ENABLED: 'false', ...env });
  return {
    upstream,
    gateway,
    async stop() {
      await gateway.close();
      await upstream.stop();
    },
  };
}

/**
 * The embedded engine and the HTTP backend behind a recording upstream: for specs that check what
 * reached the engine (`upstream`, absent on the embedded engine) as well as what the client got.
 */
export const RECORDED_BACKENDS: Array<{ name: string; start(): Promise<{ gateway: TestGateway; upstream?: RecordingUpstream; stop(): Promise<void> }> }> = [
  { name: 'embedded engine', async start() { const gateway = await startTestGateway(); return { gateway, stop: () => gateway.close() }; } },
  { name: 'HTTP backend (recorded)', start: () => startRecordedGateway() },
];

/**
 * What reached the engine on the client's behalf: without the gateway's own reads (resolutions, a
 * credential looked up to authenticate, the mappings field rules read).
 */
export function clientForwards(requests: readonly Recorded[]): Recorded[] {
  return requests.filter((x) => !isResolutionLookup(x) && !(x.method === 'GET' && x.body === '' && (x.path.startsWith('/.gateway-credentials/_doc/') || x.path === '/*/_mapping')));
}

/**
 * Forwarded requests naming a gateway system index (path, parameters or body): none may, but for the
 * gateway's own exclusion (`-.gateway-*`) with a narrowed path.
 */
export function systemIndexForwards(forwarded: readonly Recorded[]): string[] {
  return forwarded.filter((r) => /(^|[/,=])(\.|%2E)gateway-/i.test(`${r.path}?${r.query}`) || r.body.includes('.gateway-')).map((r) => `forwarded ${r.method} ${r.path}?${r.query}`);
}
