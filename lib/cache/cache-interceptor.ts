import { LRUCache } from 'lru-cache';
import type { Subscription } from 'rxjs';
import { readRawRequest } from '../auth/classify/index.js';
import { resolveIndices, type ResolvedIndices } from '../auth/classify/index.js';
import { followStructure, STRUCTURE_CHANNEL, type ChangeBus } from '../changes/index.js';
import { readBody, type Backend, type EngineRequest, type EngineResponse } from '../engine/index.js';
import { intercept, type Dispatch, type InterceptedBackend, type Interceptor } from '../engine/index.js';
import { queryString, type Classification, type GatewayRequest } from '../request/index.js';
import { sortedJson } from '../ndjson/index.js';
import { simpleMatch } from '../wildcard/index.js';
import { PreferenceStore, type CachePreferences } from './preferences.js';
import { RESOLVED, type CachedAnswer, type SearchCache, type Snapshot } from './search-cache.js';

/** The bus channel on which a node tells the others which indices changed other than by a document write. */
export const CACHE_CHANNEL = STRUCTURE_CHANNEL;
/**
 * What a message on CACHE_CHANNEL says of the index it names (`_all`: every index):
 * `index`, its contents changed; `create`, which indices exist or what a name stands for may have
 * changed (created, deleted, aliased, opened, closed…); `delete`, an explicit eviction.
 */
export type CacheMessage = 'index' | 'create' | 'delete';

/** Writes whose change events every node gets anyway (change publishing): no broadcast of their own. */
const PUBLISHED_WRITES = new Set(['indices:data/write/index', 'indices:data/write/delete', 'indices:data/write/update', 'indices:data/write/bulk']);
/** Index operations that change what an index holds or how it is searched, never which indices a name stands for. */
const CONTENT_OPERATIONS = new Set([
  ...PUBLISHED_WRITES,
  'indices:admin/refresh', 'indices:admin/flush', 'indices:admin/forcemerge', 'indices:admin/cache/clear', 'indices:admin/mapping/put',
  'indices:data/write/delete/byquery', 'indices:data/write/update/byquery',
]);
/** How long a node's authorization remembers what an index expression stood for (lib/auth's authorizer). */
const REMEMBERED_RESOLUTION_MS = 1000;
/** Answers larger than this are not kept. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/**
 * Requests whose body is larger than this are not looked up nor kept: their key (the body parsed
 * and written again with sorted keys) would hold the event loop for as long as a parse of the
 * whole body — tens of milliseconds for a 20 MB `match` text — for an answer nobody asks twice.
 */
const MAX_KEYED_BODY = 64 * 1024;
/** The endpoints whose answers are kept: searches (GET or POST, a body) and index metadata reads (GET). */
const CACHED_ENDPOINTS = new Map<string, 'search' | 'msearch' | 'metadata'>([
  ['_search', 'search'], ['_count', 'search'], ['_field_caps', 'search'], ['_msearch', 'msearch'],
  ['_mapping', 'metadata'], ['_mappings', 'metadata'], ['_settings', 'metadata'],
]);

export interface CacheInterceptorOptions {
  /**
   * Writes become visible to searches only at the engine's next refresh (an Elasticsearch
   * backend: `index.refresh_interval`, 1 s by default): after a change, an index's answers are
   * not kept for this long. 0 for an engine where an acknowledged write is visible at once.
   */
  quietMs: number;
  /** The preferences in force (enable_cache, indices). */
  preferences: () => CachePreferences;
  log?: (line: string) => void;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A search body a kept answer may stand for: no point in time, no profile. */
const cacheableBody = (body: unknown): boolean => isObject(body) && body.pit === undefined && !body.profile;

/** One search to look up: the key of its answer, and the index expressions it names. */
interface Lookup {
  key: string;
  readonly expressions: string[];
  expandWildcards: string;
}

/** What a request asks that may be answered from the cache: one search, or an `_msearch`'s lines. */
type Plan =
  | { kind: 'whole'; lookup: Lookup }
  | { kind: 'lines'; lines: Array<{ header: Record<string, unknown>; body: unknown; lookup?: Lookup }>; params: string };

/** The body as text; undefined for a stream (the engine's to read) or a body past MAX_KEYED_BODY. */
const textOf = (body: EngineRequest['body']): string | undefined =>
  body === undefined ? '' : (typeof body === 'string' || Buffer.isBuffer(body)) && body.length <= MAX_KEYED_BODY ? body.toString('utf8') : undefined;

/** The endpoint a request's path names (`_search` in `/{index}/_search` and `/_search`), and how many segments follow it. */
function endpointOf(segments: readonly string[]): { endpoint?: string; rest: number } {
  return segments[0]?.startsWith('_') ? { endpoint: segments[0], rest: segments.length - 1 } : { endpoint: segments[1], rest: segments.length - 2 };
}

/** The request's index expressions (its path's, narrowed by authorization). */
const expressionsOf = (segments: readonly string[]): string[] => (segments[0]?.startsWith('_') ? ['_all'] : (segments[0] ?? '').split(','));

/** Parameters that keep an answer out of the cache: a scroll, a stream, `request_cache=false`. */
const uncacheable = (params: ReadonlyMap<string, string>): boolean =>
  params.has('scroll') || params.has('stream') || params.has('streamonly') || params.get('request_cache') === 'false';

const header = (req: EngineRequest, name: string): string => {
  const value = req.headers?.[name];
  return Array.isArray(value) ? value.join(',') : value ?? '';
};

/**
 * A search body's part of its lookup key (its value written again with sorted keys), or false when
 * its answer is not kept: by the body's text, for the bodies sent again and again (a hit is not
 * parsed nor sorted again: ~2.4 µs of a hit's ~100). Bodies up to CANONICAL_TEXT_BYTES, at most
 * CANONICAL_BYTES of them (texts and keys) held.
 */
type CanonicalBodies = LRUCache<string, string | false>;
const CANONICAL_TEXT_BYTES = 4 * 1024;
const CANONICAL_BYTES = 8 * 1024 * 1024;
const canonicalBodies = (): CanonicalBodies =>
  new LRUCache<string, string | false>({ maxSize: CANONICAL_BYTES, sizeCalculation: (canonical, text) => 2 * (text.length + (canonical ? canonical.length : 0)) + 64 });

/** The body's part of the lookup key (throws for a body that is not JSON: the engine answers it). */
function canonicalBody(text: string, known: CanonicalBodies): string | false {
  const small = text.length <= CANONICAL_TEXT_BYTES;
  const seen = small ? known.get(text) : undefined;
  if (seen !== undefined) return seen;
  const value = JSON.parse(text) as unknown;
  const canonical = cacheableBody(value) && sortedJson(value);
  if (small) known.set(text, canonical);
  return canonical;
}

/**
 * A request value's plan, for the requests sent again and again (a hit's): a remembered reading
 * (lib/auth/classify's ClassifiedRequests) is the same frozen value on every repeat, and the plan
 * is a function of it and of what else `planOf` reads of the request — its method, its body and
 * the two headers in the key — compared here. Kept while the value is (a WeakMap). Only a whole
 * search's plan (or none) is remembered: an `_msearch`'s lines are planned each time.
 */
interface Planned {
  method: string;
  body: string | undefined;
  acceptEncoding: string;
  accept: string;
  plan: Extract<Plan, { kind: 'whole' }> | undefined;
}
type Plans = WeakMap<GatewayRequest, Planned>;

function rememberedPlanOf(req: EngineRequest, value: GatewayRequest, known: CanonicalBodies, plans: Plans): Plan | undefined {
  if (req.cache === false) return undefined;
  const body = req.body;
  const seen = plans.get(value);
  if (seen && seen.body === body && seen.method === req.method && seen.acceptEncoding === header(req, 'accept-encoding') && seen.accept === header(req, 'accept')) return seen.plan;
  const plan = planOf(req, value, known);
  // a body that is not a string (a stream is read once, bytes can be written over) is planned each time, as an `_msearch`'s lines are
  if (plan?.kind !== 'lines' && (body === undefined || typeof body === 'string')) {
    plans.set(value, { method: req.method, body, acceptEncoding: header(req, 'accept-encoding'), accept: header(req, 'accept'), plan });
  }
  return plan;
}

/** What of the request may be answered from the cache, or undefined. */
function planOf(req: EngineRequest, value: GatewayRequest, known: CanonicalBodies): Plan | undefined {
  const { info } = value;
  if (req.cache === false || (req.method !== 'GET' && req.method !== 'POST') || info.operation !== 'read' || !info.known) return undefined;
  // most requests (documents, writes) end here, at the endpoint: nothing else of them is read
  const { endpoint, rest } = endpointOf(value.segments);
  const kind = endpoint === undefined ? undefined : CACHED_ENDPOINTS.get(endpoint);
  if (!kind || (kind === 'metadata' ? req.method !== 'GET' : rest !== 0)) return undefined;
  const qs = value.querystring;
  if (uncacheable(value.params)) return undefined;
  const text = textOf(req.body);
  if (text === undefined) return undefined;
  const sorted = queryString([...value.params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // index metadata reads list hidden indices too: they are resolved with them (and a system index is never kept)
  const expandWildcards = value.params.get('expand_wildcards') ?? (kind === 'metadata' ? 'all' : 'open');
  // the headers that change the answer's bytes: its encoding, its media type (a compatibility version)
  const prefix = `${req.method}\u0000${endpoint}\u0000${sorted}\u0000${header(req, 'accept-encoding')}\u0000${header(req, 'accept')}\u0000`;
  try {
    if (kind === 'msearch') {
      const expressions = expressionsOf(value.segments);
      const values = text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown);
      if (values.length % 2 !== 0) return undefined; // the engine says what is missing
      const lines: Extract<Plan, { kind: 'lines' }>['lines'] = [];
      for (let i = 0; i < values.length; i += 2) {
        const [header, body] = [values[i], values[i + 1]];
        if (!isObject(header)) return undefined;
        let lookup: Lookup | undefined;
        if (cacheableBody(body)) {
          const named = header.index;
          const lineExpressions = typeof named === 'string' ? named.split(',') : Array.isArray(named) && named.every((n) => typeof n === 'string') ? (named as string[]) : named === undefined ? expressions : undefined;
          const { index: _index, ...rest } = header;
          const lineExpand = typeof header.expand_wildcards === 'string' ? header.expand_wildcards : expandWildcards;
          if (lineExpressions?.length) lookup = { key: `${prefix}${lineExpressions.join(',')}\u0000${sortedJson(rest)}\u0000${sortedJson(body)}`, expressions: lineExpressions, expandWildcards: lineExpand };
        }
        lines.push({ header, body, lookup });
      }
      return lines.some((l) => l.lookup) ? { kind: 'lines', lines, params: qs } : undefined;
    }
    let canonical: string | false = '';
    if (text.trim() !== '') canonical = canonicalBody(text, known);
    if (canonical === false) return undefined;
    // the expressions are read on a miss only (a hit needs the key alone)
    const { segments } = value;
    return { kind: 'whole', lookup: { key: `${prefix}${value.path}\u0000${canonical}`, get expressions() { return expressionsOf(segments); }, expandWildcards } };
  } catch {
    return undefined; // the engine answers what is wrong with it
  }
}

const TOOK = Buffer.from('"took":');
const ZERO = Buffer.from('0');

/**
 * `"took":n` as an answer's first member (a search's, or an `_msearch` line's) made the lookup's, 0:
 * the digits after it are spliced out of the bytes, nothing else of the answer is read or decoded.
 */
function tookZero(body: Buffer): Buffer {
  const at = body.subarray(0, 32).indexOf(TOOK);
  if (at < 0) return body;
  const from = at + TOOK.length;
  let to = from;
  while (to < body.length && body[to] >= 0x30 && body[to] <= 0x39) to++;
  if (to === from || (to === from + 1 && body[from] === 0x30)) return body;
  return Buffer.concat([body.subarray(0, from), ZERO, body.subarray(to)]);
}

const HIT = { 'x-request-cache': 'true' } as const;

/**
 * An engine answer as it is kept and served again: the same body with `took` the lookup's (0),
 * and appbase's header — made once, when it is kept, not on every hit.
 */
function keptAnswer(res: EngineResponse, body: Buffer, indices: string[]): CachedAnswer {
  return { status: res.status, headers: { ...keptHeaders(res.headers), ...HIT }, body: tookZero(body), indices };
}

/** An answer's headers as kept: not its length (the body's own counts), nor the request's X-Opaque-Id the engine echoed. */
function keptHeaders(headers: EngineResponse['headers']): CachedAnswer['headers'] {
  const { 'content-length': _length, 'x-opaque-id': _opaque, ...kept } = headers;
  return kept;
}

/** A kept answer served to a request: with the request's own X-Opaque-Id echoed, as the engine does. */
const served = (answer: CachedAnswer, req: EngineRequest): EngineResponse => {
  const opaque = header(req, 'x-opaque-id');
  return { status: answer.status, headers: opaque ? { ...answer.headers, 'x-opaque-id': opaque } : answer.headers, body: answer.body };
};

/** Where a lookup's answer comes from: the cache, another request's engine call, or this one's. */
interface Resolved {
  indices: string[];
  snapshot: Snapshot;
}

/**
 * The search cache as a Backend interceptor: answers of `_search`, `_count`, `_field_caps`, each
 * line of an `_msearch` (a declarative request's components among them), and `_mapping` /
 * `_settings` reads are kept by the request as authorization narrowed it (path, parameters, the
 * body with its keys sorted) and served again until a change reaches one of the indices they read.
 *
 * Contract (never stale): an answer is kept under the concrete indices it read (wildcards, aliases
 * and `_all` resolved, and then kept under RESOLVED too) and dropped the moment this node learns
 * of a change to one of them — a document change on the bus (any node's write), a write or index
 * operation through this node (at once, before its answer), or another node's index operation
 * (its message on CACHE_CHANNEL); an operation that may change what a name stands for drops every
 * resolved answer and every resolution. An answer read while such a change arrived is not kept
 * (SearchCache's snapshots). A node follows an index's changes before it keeps anything of it; a
 * change feed that fails (history lost) empties the cache. Concurrent identical misses make one
 * engine request.
 */
export function searchCacheInterceptor(cache: SearchCache, bus: ChangeBus, options: CacheInterceptorOptions): Interceptor {
  const log = options.log ?? (() => {});
  const following = new Map<string, { live: Promise<void>; subscription: Subscription }>();
  /** What index expressions stand for, until an index operation may have changed it. */
  const resolutions = new Map<string, Promise<ResolvedIndices | undefined>>();
  const canonical = canonicalBodies();
  const plans: Plans = new WeakMap();
  /** Indices this node knows exist: a write to another one may create it. */
  const existing = new Set<string>();
  const lastChange = new Map<string, number>();
  const inFlight = new Map<string, Promise<CachedAnswer | undefined>>();

  const changed = (index: string) => {
    cache.evictIndex(index);
    if (options.quietMs) lastChange.set(index, Date.now());
  };
  /**
   * Which indices exist, or what a name stands for, may have changed: every resolved answer and
   * resolution goes. `gone`: the names that may no longer be indices (so that a write to one is
   * known to create it again).
   */
  const restructured = (index: string, gone: boolean) => {
    if (index === '_all') cache.clear('change');
    else changed(index);
    cache.evictIndex(RESOLVED);
    resolutions.clear();
    if (!gone) return;
    if (index === '_all') existing.clear();
    else for (const name of [...existing]) if (name === index || simpleMatch(index, name)) existing.delete(name);
  };
  const lost = (err: Error) => {
    log(`search cache: a change feed failed, the cache is emptied: ${err.message}`);
    cache.clear('change');
    resolutions.clear();
    for (const { subscription } of following.values()) subscription.unsubscribe();
    following.clear();
  };
  const follow = (index: string): Promise<void> => {
    let f = following.get(index);
    if (!f) {
      const subscription = bus.changes(index).subscribe({
        next: () => changed(index),
        error: (err: Error) => lost(err),
        complete: () => following.delete(index),
      });
      f = { live: bus.subscribed(index), subscription };
      following.set(index, f);
    }
    return f.live;
  };
  /** Other nodes' messages; followed again after a failure (the cache emptied meanwhile). */
  followStructure(bus, (event) => {
    const message = event.op as CacheMessage;
    if (message === 'delete') {
      if (event.id === '_all') cache.clear('evict');
      else cache.evictIndex(event.id, 'evict');
    } else if (message === 'create') restructured(event.id, /[*?]/.test(event.id) || event.id === '_all'); // named deletions: indexChanges
    else if (event.id === '_all') cache.clear('change');
    else changed(event.id);
  }, lost);
  bus.indexChanges().subscribe(({ index }) => existing.delete(index));
  const broadcast = (index: string, message: CacheMessage) =>
    bus.publish({ kind: 'document', index: CACHE_CHANNEL, type: '_doc', id: index, op: message, version: 0, seqNo: 0, primaryTerm: 1 }).catch((err: Error) =>
      log(`search cache: change of [${index}] not told to other nodes: ${err.message}`),
    );

  /**
   * A write or index operation through this node: its indices' answers go now, before it is
   * answered. What may change which indices a name stands for is told to the other nodes before
   * it is answered too (the returned promise: their authorization forgets its resolutions on it,
   * so that a request sent to another node once this one is answered is not authorized on what
   * an alias stood for before); a content change is told on its way.
   */
  const wrote = (info: Classification): Promise<unknown> | undefined => {
    const targets = info.allIndices ? ['_all'] : info.indices;
    const content = CONTENT_OPERATIONS.has(info.action) && targets.length > 0;
    const told: Array<Promise<unknown>> = [];
    for (const index of targets) {
      // a document write may create its index: the first one to an index this node does not know
      const structural = !content || !existing.has(index) || /[*?]/.test(index);
      if (structural) restructured(index, !content);
      else changed(index);
      // the other nodes are told of what publishes no change event of its own (a document write does)
      if (structural) told.push(broadcast(index, 'create'));
      else if (!PUBLISHED_WRITES.has(info.action)) void broadcast(index, 'index');
      if (content && !/[*?]/.test(index) && index !== '_all') existing.add(index);
    }
    if (!targets.length) {
      // a synonyms set, a stored script, a template, a snapshot restore…: any answer may change
      restructured('_all', false);
      told.push(broadcast('_all', 'create'));
    }
    if (!told.length) return undefined;
    // no longer than the other nodes remember a resolution anyway (a bus that does not answer must not hold the write)
    let timer: NodeJS.Timeout | undefined;
    const remembered = new Promise<void>((resolve) => (timer = setTimeout(resolve, REMEMBERED_RESOLUTION_MS)));
    return Promise.race([Promise.all(told), remembered]).finally(() => clearTimeout(timer));
  };

  const resolve = (next: Dispatch, lookup: Lookup): Promise<ResolvedIndices | undefined> => {
    const key = `${lookup.expandWildcards}\u0000${lookup.expressions.join(',')}`;
    let known = resolutions.get(key);
    if (!known) {
      const engine: Backend = { kind: 'embedded', request: next, close: async () => {} };
      // a resolution that failed (the engine busy: a 429, a 503) is not remembered: the next
      // request asks again (remembered, it kept every answer of the expression out of the cache
      // until an index operation)
      const made: Promise<ResolvedIndices | undefined> = resolveIndices(engine, lookup.expressions, { expandWildcards: lookup.expandWildcards }).catch(() => {
        if (resolutions.get(key) === made) resolutions.delete(key);
        return undefined;
      });
      known = made;
      resolutions.set(key, known);
    }
    return known;
  };

  const quiet = (indices: readonly string[]) => !options.quietMs || indices.every((i) => Date.now() - (lastChange.get(i) ?? 0) > options.quietMs);

  /**
   * The indices a lookup's answer reads, followed, with the snapshot to keep it under; undefined
   * when it is not to be kept (preferences, a system index, an unresolvable name).
   */
  const prepare = (next: Dispatch, req: EngineRequest, lookup: Lookup): Promise<Resolved | undefined> =>
    target(next, req, lookup).catch((err: Error) => {
      log(`search cache: an answer is not kept: ${err.message}`);
      return undefined;
    });
  const target = async (next: Dispatch, req: EngineRequest, lookup: Lookup): Promise<Resolved | undefined> => {
    const before = cache.snapshot([]).all;
    const resolved = await resolve(next, lookup);
    if (!resolved) return undefined;
    const indices = resolved.concrete;
    if (indices.some((i) => i.startsWith('.gateway-'))) return undefined;
    if (req.cache !== true) {
      const preferences = options.preferences();
      if (!preferences.enable_cache || !PreferenceStore.covers(preferences, indices)) return undefined;
    }
    for (const i of indices) existing.add(i);
    await Promise.all(indices.map(follow));
    const through = resolved.expressions.some((e) => e.kind !== 'index');
    const kept = through ? [...indices, RESOLVED] : indices;
    return { indices: kept, snapshot: { ...cache.snapshot(kept), all: before } };
  };

  /** Answers one search: from the cache, from an identical request in flight, or from the engine (kept). */
  const whole = async (next: Dispatch, req: EngineRequest, lookup: Lookup): Promise<EngineResponse> => {
    const hit = cache.get(lookup.key);
    if (hit) return served(hit, req);
    const leading = inFlight.get(lookup.key);
    if (leading) {
      const shared = await leading;
      if (!shared) return next(req);
      cache.shared();
      return served(shared, req);
    }
    let settle: (a: CachedAnswer | undefined) => void = () => {};
    inFlight.set(lookup.key, new Promise((resolve) => (settle = resolve)));
    let answer: CachedAnswer | undefined;
    try {
      const target = await prepare(next, req, lookup);
      const res = await next(req);
      if (!target || res.status !== 200) return res;
      const length = Number(res.headers['content-length'] ?? NaN);
      if (!Buffer.isBuffer(res.body) && !(length <= MAX_ANSWER_BYTES)) return res;
      const body = await readBody(res.body);
      const kept = keptAnswer(res, body, target.indices);
      // only an answer no change overtook is handed to the identical requests waiting for it
      if (body.length <= MAX_ANSWER_BYTES && quiet(target.indices) && cache.set(lookup.key, kept, target.snapshot)) answer = kept;
      return { ...res, body };
    } finally {
      settle(answer);
      inFlight.delete(lookup.key);
    }
  };

  /**
   * Answers an `_msearch` line by line: the lines whose answers are kept come from the cache, the
   * others go to the engine in one `_msearch` of their own, and their answers are kept apiece — a
   * declarative search whose facets did not change asks the engine for its search box only.
   */
  const lines = async (next: Dispatch, req: EngineRequest, plan: Extract<Plan, { kind: 'lines' }>): Promise<EngineResponse> => {
    const started = Date.now();
    const answers: Array<CachedAnswer | undefined> = plan.lines.map((l) => (l.lookup ? cache.get(l.lookup.key) : undefined));
    if (answers.every(Boolean)) return composed(answers as CachedAnswer[], answers[0]!.headers, started, true, req);
    // lines another request is asking the engine for: its answers are awaited, not asked again
    const awaited = plan.lines.map((l, i) => (!answers[i] && l.lookup && inFlight.has(l.lookup.key) ? inFlight.get(l.lookup.key) : undefined));
    const leading: number[] = [];
    const settles = new Map<number, (a: CachedAnswer | undefined) => void>();
    plan.lines.forEach((l, i) => {
      if (answers[i] || awaited[i] || !l.lookup) return;
      leading.push(i);
      if (inFlight.has(l.lookup.key)) return; // the same line twice in this request
      inFlight.set(l.lookup.key, new Promise((resolve) => settles.set(i, resolve)));
    });
    const kept = new Map<number, CachedAnswer>();
    try {
      const targets = await Promise.all(plan.lines.map((l, i) => (leading.includes(i) && l.lookup ? prepare(next, req, l.lookup) : undefined)));
      let asked = plan.lines.map((_, i) => i).filter((i) => !answers[i] && !awaited[i]);
      // every line may be awaited from other requests: then nothing is asked here (an empty `_msearch` is an error)
      let reply: Asked = asked.length ? await ask(next, req, plan, asked) : { items: [] };
      if (reply.error) return reply.error;
      let headers = reply.headers;
      asked.forEach((line, k) => {
        const item = reply.items[k];
        answers[line] = item.answer;
        const lookup = plan.lines[line].lookup;
        const target = targets[line];
        if (!lookup || !target || !item.ok || item.answer.body.length > MAX_ANSWER_BYTES) return;
        const answer: CachedAnswer = { ...item.answer, headers: { ...item.answer.headers, ...HIT }, body: tookZero(item.answer.body), indices: target.indices };
        // only an answer no change overtook is handed to the identical lines waiting for it
        if (quiet(target.indices) && cache.set(lookup.key, answer, target.snapshot)) kept.set(line, answer);
      });
      for (const [line, settle] of settles) settle(kept.get(line));
      settles.clear();
      const shared = await Promise.all(awaited.map((p) => p ?? Promise.resolve(undefined)));
      asked = [];
      shared.forEach((answer, line) => {
        if (answer) {
          answers[line] = answer;
          headers ??= answer.headers;
          cache.shared();
        } else if (awaited[line]) asked.push(line);
      });
      if (asked.length) {
        // what the leading request could not keep is asked again: one more engine call
        reply = await ask(next, req, plan, asked);
        if (reply.error) return reply.error;
        headers ??= reply.headers;
        asked.forEach((line, k) => (answers[line] = reply.items[k].answer));
      }
      return composed(answers as CachedAnswer[], headers ?? {}, started, false, req);
    } finally {
      for (const settle of settles.values()) settle(undefined);
      plan.lines.forEach((l, i) => {
        if (l.lookup && leading.includes(i)) inFlight.delete(l.lookup.key);
      });
    }
  };

  type Item = { ok: boolean; answer: CachedAnswer };
  type Asked = { items: Item[]; headers?: CachedAnswer['headers']; error?: EngineResponse };
  /** Asks the engine for some of an `_msearch`'s lines, in one `_msearch`; its answer split by line. */
  const ask = async (next: Dispatch, req: EngineRequest, plan: Extract<Plan, { kind: 'lines' }>, which: number[]): Promise<Asked & { headers: CachedAnswer['headers'] }> => {
    const body = which.map((i) => `${JSON.stringify(plan.lines[i].header)}\n${JSON.stringify(plan.lines[i].body)}\n`).join('');
    // its answer is split here: asked for uncompressed, in the NDJSON media type the client sent
    // (a compatible-with one stays one: Elasticsearch refuses a versioned Accept beside a plain Content-Type)
    const sent = header(req, 'content-type');
    const contentType = sent.toLowerCase().includes('x-ndjson') ? sent : 'application/x-ndjson';
    const res = await next({ ...req, body, json: undefined, headers: { ...req.headers, 'content-length': undefined, 'accept-encoding': undefined, 'content-type': contentType } });
    const headers = keptHeaders(res.headers);
    if (res.status !== 200) return { items: [], headers, error: res };
    const value = (res.value ?? JSON.parse((await readBody(res.body)).toString('utf8'))) as { responses?: unknown[] };
    const responses = Array.isArray(value?.responses) ? value.responses : [];
    if (responses.length !== which.length) return { items: [], headers, error: { ...res, body: Buffer.from(JSON.stringify(value)) } };
    const items = responses.map((item) => {
      const ok = isObject(item) && item.error === undefined && (item.status === undefined || item.status === 200);
      return { ok, answer: { status: 200, headers, body: Buffer.from(JSON.stringify(item)), indices: [] } };
    });
    return { items, headers };
  };

  const composed = (answers: CachedAnswer[], headers: CachedAnswer['headers'], started: number, hit: boolean, req: EngineRequest): EngineResponse => {
    const parts: Buffer[] = [Buffer.from(`{"took":${Date.now() - started},"responses":[`)];
    answers.forEach((a, i) => parts.push(i ? Buffer.from(',') : Buffer.alloc(0), a.body));
    parts.push(Buffer.from(']}'));
    const { 'x-request-cache': _hit, ...rest } = headers;
    return served({ status: 200, headers: hit ? { ...rest, ...HIT } : rest, body: Buffer.concat(parts), indices: [] }, req);
  };

  const noted = (info: Classification) => (res: EngineResponse): EngineResponse | Promise<EngineResponse> => {
    const told = res.status < 300 ? wrote(info) : undefined;
    // a failed broadcast is logged (broadcast): the answer goes on all the same
    return told ? told.then(() => res) : res;
  };
  return (next: Dispatch): Dispatch => (req) => {
    let plan: Plan | undefined;
    let info: Classification;
    try {
      let value = req.request;
      if (!value) {
        // read once here (a Backend without the edge's `requestValue`), for the interceptors after this one too
        value = readRawRequest(req.method, req.path, req.querystring ?? '', typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : undefined);
        req = { ...req, request: value };
      }
      info = value.info;
      plan = req.cache === true || options.preferences().enable_cache ? rememberedPlanOf(req, value, canonical, plans) : undefined;
    } catch (err) {
      return Promise.reject(err);
    }
    // a read the cache does not answer goes on untouched (no step of its own after the engine's answer)
    if (plan === undefined) return info.operation === 'read' ? next(req) : next(req).then(noted(info));
    return plan.kind === 'whole' ? whole(next, req, plan.lookup) : lines(next, req, plan);
  };
}

/** The backend as a caller that must read the engine as it is now sees it (streams): its requests never use the cache. */
export function uncached(backend: InterceptedBackend): InterceptedBackend {
  return intercept(backend, (next) => (req) => next({ ...req, cache: false }));
}
