import type { Subscription } from 'rxjs';
import { classifyRequest } from '../auth/classify/index.js';
import type { ChangeBus } from '../changes/index.js';
import { readBody, type EngineRequest, type EngineResponse } from '../engine/index.js';
import type { Dispatch, Interceptor } from '../engine/interceptor.js';
import type { Classification } from '../request/index.js';
import type { CachedAnswer, SearchCache } from './search-cache.js';

/** The bus channel on which a node tells the others which indices changed other than by a document write. */
export const CACHE_CHANNEL = '.gateway-cache';
/** Writes whose change events every node gets anyway (change publishing): no broadcast of their own. */
const PUBLISHED_WRITES = new Set(['indices:data/write/index', 'indices:data/write/delete', 'indices:data/write/update', 'indices:data/write/bulk']);
/** Answers larger than this are not kept. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const CACHED_ACTIONS = new Set(['indices:data/read/search', 'indices:data/read/msearch']);
/** Parameters that make an answer one of a kind (a scroll, a stream) or ask for no cache. */
const UNCACHEABLE_PARAMS = /(^|&)(scroll|stream|streamonly)=|(^|&)request_cache=false(&|$)/;

export interface CacheInterceptorOptions {
  /**
   * Writes become visible to searches only at the engine's next refresh (an Elasticsearch
   * backend: `index.refresh_interval`, 1 s by default): after a change, an index's answers are
   * not kept for this long. 0 for an engine where an acknowledged write is visible at once.
   */
  quietMs: number;
  log?: (line: string) => void;
}

/** A JSON value with its object keys sorted, as text: equal for bodies that differ only in key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj).sort().filter((k) => obj[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A search body a cached answer may stand for: no point in time, no profile. */
function cacheableBody(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  return b.pit === undefined && !b.profile;
}

/** The key of a request whose answer may be cached, or undefined. */
function keyOf(req: EngineRequest, info: Classification): string | undefined {
  if (req.cache === false || (req.method !== 'GET' && req.method !== 'POST')) return undefined;
  if (!CACHED_ACTIONS.has(info.action) || info.allIndices || !info.indices.length) return undefined;
  if (info.indices.some((i) => /[*?]/.test(i) || i.startsWith('_') || i.startsWith('-'))) return undefined;
  const qs = req.querystring ?? '';
  if (UNCACHEABLE_PARAMS.test(qs)) return undefined;
  const body = req.body;
  if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) return undefined; // a stream is the engine's to read
  const text = body === undefined ? '' : typeof body === 'string' ? body : body.toString('utf8');
  let canonical = '';
  try {
    if (info.action === 'indices:data/read/msearch') {
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        const value = JSON.parse(line) as unknown;
        if (!cacheableBody(value)) return undefined;
        canonical += stableJson(value) + '\n';
      }
    } else if (text.trim() !== '') {
      const value = JSON.parse(text) as unknown;
      if (!cacheableBody(value)) return undefined;
      canonical = stableJson(value);
    }
  } catch {
    return undefined; // the engine answers what is wrong with it
  }
  const params = new URLSearchParams(qs);
  params.sort();
  return `${req.method}\u0000${req.path}\u0000${params.toString()}\u0000${canonical}`;
}

/**
 * An engine answer as it is kept and served again: the same body with `took` the lookup's (0),
 * and appbase's header — made once, when it is kept, not on every hit.
 */
function keptAnswer(res: EngineResponse, body: Buffer, indices: string[]): CachedAnswer {
  const served = body.subarray(0, 32).includes('"took":') ? Buffer.from(body.toString('utf8').replace(/"took":\d+/, '"took":0')) : body;
  const { 'content-length': _length, ...headers } = res.headers; // the body's own length is the one that counts
  return { status: res.status, headers: { ...headers, 'x-request-cache': 'true' }, body: served, indices };
}

const served = (answer: CachedAnswer): EngineResponse => ({ status: answer.status, headers: answer.headers, body: answer.body });

/**
 * The search cache as a Backend interceptor: `_search` and `_msearch` answers on named indices
 * (not wildcards or aliases) are kept, by the request as authorization narrowed it (path,
 * parameters, the body with its keys sorted), and served again until a change reaches one of the
 * indices they read.
 *
 * Contract: an answer is dropped the moment this node learns of a change to an index it read —
 * a document change on the bus (any node's write), a write or index operation through this node
 * (at once, before its answer), or another node's index operation (its broadcast on
 * CACHE_CHANNEL); an answer being read while such a change arrives is not kept (SearchCache's
 * snapshots). A node follows an index's changes before it keeps anything of it; a change feed
 * that fails empties the cache. Concurrent identical misses make one engine request.
 */
export function searchCacheInterceptor(cache: SearchCache, bus: ChangeBus, options: CacheInterceptorOptions): Interceptor {
  const log = options.log ?? (() => {});
  const following = new Map<string, { live: Promise<void>; subscription: Subscription }>();
  const concrete = new Map<string, Promise<boolean>>();
  const lastChange = new Map<string, number>();
  const inFlight = new Map<string, Promise<CachedAnswer | undefined>>();

  const changed = (index: string) => {
    cache.evictIndex(index);
    concrete.delete(index);
    if (options.quietMs) lastChange.set(index, Date.now());
  };
  const lost = (err: Error) => {
    log(`search cache: a change feed failed, the cache is emptied: ${err.message}`);
    cache.clear('change');
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
  bus.changes(CACHE_CHANNEL).subscribe({
    next: (event) => {
      if (event.kind !== 'document') return;
      // `delete`: an explicit eviction (no change to wait out); `index`: an index operation
      const cause = event.op === 'delete' ? 'evict' : 'change';
      if (event.id === '_all') {
        cache.clear(cause);
        concrete.clear();
      } else if (cause === 'evict') cache.evictIndex(event.id, 'evict');
      else changed(event.id);
    },
    error: (err: Error) => lost(err),
  });
  const broadcast = (index: string) =>
    bus.publish({ kind: 'document', index: CACHE_CHANNEL, type: '_doc', id: index, op: 'index', version: 0, seqNo: 0, primaryTerm: 1 }).catch((err: Error) =>
      log(`search cache: change of [${index}] not told to other nodes: ${err.message}`),
    );

  /** Is the name an index (not an alias)? Asked once, until the index changes. */
  const isIndex = (next: Dispatch, name: string): Promise<boolean> => {
    let known = concrete.get(name);
    if (!known) {
      known = next({ method: 'GET', path: `/_resolve/index/${encodeURIComponent(name)}`, querystring: '' })
        .then(async (res) => {
          const body = JSON.parse((await readBody(res.body)).toString('utf8') || '{}') as { indices?: Array<{ name: string }> };
          return res.status === 200 && body.indices?.length === 1 && body.indices[0].name === name;
        })
        .catch(() => false);
      concrete.set(name, known);
    }
    return known;
  };

  const quiet = (indices: readonly string[]) => !options.quietMs || indices.every((i) => Date.now() - (lastChange.get(i) ?? 0) > options.quietMs);

  const fetchAnswer = async (next: Dispatch, req: EngineRequest, key: string, indices: string[]): Promise<{ res: EngineResponse; answer?: CachedAnswer }> => {
    const areIndices = await Promise.all(indices.map((i) => isIndex(next, i)));
    if (!areIndices.every(Boolean)) return { res: await next(req) };
    await Promise.all(indices.map(follow));
    const snapshot = cache.snapshot(indices);
    const res = await next(req);
    if (res.status !== 200) return { res };
    const length = Number(res.headers['content-length'] ?? NaN);
    if (!Buffer.isBuffer(res.body) && !(length <= MAX_ANSWER_BYTES)) return { res };
    const body = await readBody(res.body);
    const answer = keptAnswer(res, body, indices);
    if (body.length <= MAX_ANSWER_BYTES && quiet(indices)) cache.set(key, answer, snapshot);
    return { res: { ...res, body }, answer };
  };

  return (next: Dispatch): Dispatch => async (req) => {
    let info = req.info;
    if (!info) {
      // classified once here, for the interceptors after this one too
      info = classifyRequest({ method: req.method, path: req.path, querystring: req.querystring ?? '', body: typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : undefined });
      req = { ...req, info };
    }
    const key = keyOf(req, info);
    if (key === undefined) {
      const res = await next(req);
      if (info.operation !== 'read' && res.status < 300) {
        // a write or an index operation through this node: its indices' answers go now; the other
        // nodes are told of what publishes no change event of its own (a document write does)
        const tell = !PUBLISHED_WRITES.has(info.action);
        const targets = info.allIndices ? ['_all'] : info.indices;
        for (const index of targets) {
          if (index === '_all') cache.clear('change');
          else changed(index);
          if (tell) void broadcast(index);
        }
      }
      return res;
    }
    const hit = cache.get(key);
    if (hit) return served(hit);
    const leading = inFlight.get(key);
    if (leading) {
      const shared = await leading;
      if (shared) return served(shared);
      return next(req);
    }
    let settle: (a: CachedAnswer | undefined) => void = () => {};
    inFlight.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      const { res, answer } = await fetchAnswer(next, req, key, [...new Set(info.indices)]);
      settle(answer);
      return res;
    } catch (err) {
      settle(undefined);
      throw err;
    } finally {
      inFlight.delete(key);
    }
  };
}
