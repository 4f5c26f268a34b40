/**
 * OpenSearch's asynchronous search plugin (`_plugins/_asynchronous_search`): a search submitted,
 * its answer read back by id. The engine runs a search to its end within the request, so a
 * submitted search has always finished when its answer is sent (`SUCCEEDED`): with
 * `keep_on_completion=true` the answer is kept for `keep_alive` (12h by default, 5d at most, as
 * the plugin's `max_keep_alive`) and read (`STORE_RESIDENT`, the keep-alive renewed when one is
 * given) or deleted by id; otherwise nothing is kept and the id finds nothing, as the plugin
 * frees a search that ended within `wait_for_completion_timeout`. Kept answers live in the
 * engine's memory, at most MAX_OPEN_CONTEXTS of them; the stats count each node's searches.
 */
import { randomBytes } from 'node:crypto';
import { EsError } from '../../../../errors/index.js';
import { searchRequestBody } from '../body.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { nodesResponse } from './nodes.js';
import { searchThroughPipeline } from './pipelined-search.js';
import { executeSearch } from './search.js';
import { resolveReadTarget, timeValue } from './search-target.js';
import { MAX_OPEN_CONTEXTS, timeValueText } from './scroll-contexts.js';

/** The plugin's defaults: `keep_alive` 12h, `plugins.asynchronous_search.max_keep_alive` 5d, `…max_wait_for_completion_timeout` 1m. */
const DEFAULT_KEEP_ALIVE_MS = 12 * 3_600_000;
const MAX_KEEP_ALIVE_MS = 5 * 86_400_000;
const MAX_WAIT_FOR_COMPLETION_MS = 60_000;
/** The parameters the plugin reads itself; the others are the search's. */
const OWN_PARAMS = ['index', 'wait_for_completion_timeout', 'keep_on_completion', 'keep_alive'];

interface KeptAnswer {
  response: Record<string, unknown>;
  /** The indices the search read: a caller reads the answer only where it reads them. */
  indices: string[];
  startedAt: number;
  expiresAt: number;
  timer?: NodeJS.Timeout;
}

/** AsynchronousSearchStats: the counts the plugin keeps per node. */
interface Counts {
  submitted: number;
  initialized: number;
  search_failed: number;
  search_completed: number;
  rejected: number;
  persist_failed: number;
  cancelled: number;
  running_current: number;
  persisted: number;
}

/** One engine's kept answers and counts (per engine: a request's context shares its engine's node). */
class AsynchronousSearches {
  readonly kept = new Map<string, KeptAnswer>();
  readonly counts: Counts = { submitted: 0, initialized: 0, search_failed: 0, search_completed: 0, rejected: 0, persist_failed: 0, cancelled: 0, running_current: 0, persisted: 0 };

  keep(id: string, answer: Omit<KeptAnswer, 'timer' | 'expiresAt'>, keepAliveMs: number): KeptAnswer {
    const kept: KeptAnswer = { ...answer, expiresAt: answer.startedAt + keepAliveMs };
    this.renew(id, kept, keepAliveMs);
    this.kept.set(id, kept);
    return kept;
  }

  /** The answer's expiry moved to `keepAliveMs` from its start, as the plugin counts it. */
  renew(id: string, kept: KeptAnswer, keepAliveMs: number): void {
    clearTimeout(kept.timer);
    kept.expiresAt = kept.startedAt + keepAliveMs;
    kept.timer = setTimeout(() => this.kept.delete(id), Math.max(0, kept.expiresAt - Date.now()));
    kept.timer.unref();
  }

  take(id: string): KeptAnswer {
    const kept = this.kept.get(id);
    if (!kept) throw new EsError(404, 'resource_not_found_exception', id);
    return kept;
  }

  delete(id: string): void {
    clearTimeout(this.take(id).timer);
    this.kept.delete(id);
  }
}

const byEngine = new WeakMap<EngineContext['node'], AsynchronousSearches>();

function searchesOf(ctx: EngineContext): AsynchronousSearches {
  let s = byEngine.get(ctx.node);
  if (!s) byEngine.set(ctx.node, (s = new AsynchronousSearches()));
  return s;
}

function keepAlive(req: RestRequest, fallback: number | undefined): number | undefined {
  const v = req.params.get('keep_alive');
  if (v === null) return fallback;
  const ms = timeValue('keep_alive', v);
  if (ms > MAX_KEEP_ALIVE_MS) {
    throw new EsError(400, 'illegal_argument_exception',
      `Keep alive for asynchronous search (${timeValueText(ms)}) is too large. It must be less than (${timeValueText(MAX_KEEP_ALIVE_MS)}). This limit can be set by changing the [plugins.asynchronous_search.max_keep_alive] cluster level setting.`);
  }
  return ms;
}

function checkWaitForCompletion(req: RestRequest): void {
  const v = req.params.get('wait_for_completion_timeout');
  if (v === null) return;
  const ms = timeValue('wait_for_completion_timeout', v);
  if (ms > MAX_WAIT_FOR_COMPLETION_MS) {
    throw new EsError(400, 'illegal_argument_exception',
      `Wait for completion timeout for asynchronous search (${timeValueText(ms)}) is too large. It must be less than (${timeValueText(MAX_WAIT_FOR_COMPLETION_MS)}). This limit can be set by changing the [plugins.asynchronous_search.max_wait_for_completion_timeout] cluster level setting.`);
  }
}

/** AsynchronousSearchResponse's members. */
function answer(id: string, state: string, startedAt: number, expiresAt: number, response: Record<string, unknown>): Record<string, unknown> {
  return { id, state, start_time_in_millis: startedAt, expiration_time_in_millis: expiresAt, response };
}

async function submit(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  checkWaitForCompletion(req);
  const keepOnCompletion = booleanParam(req.params, 'keep_on_completion', false);
  const keepAliveMs = keepAlive(req, DEFAULT_KEEP_ALIVE_MS)!;
  const searches = searchesOf(ctx);
  if (keepOnCompletion && searches.kept.size >= MAX_OPEN_CONTEXTS) {
    searches.counts.rejected++;
    throw new EsError(429, 'rejected_execution_exception', `Trying to keep too many asynchronous search results. Must be less than or equal to: [${MAX_OPEN_CONTEXTS}].`);
  }
  const index = req.params.get('index') ?? undefined;
  const params = req.params.without(...OWN_PARAMS);
  const startedAt = Date.now();
  const id = randomBytes(24).toString('base64url');
  searches.counts.submitted++;
  searches.counts.initialized++;
  let response: Record<string, unknown>;
  try {
    const pipelined = searchThroughPipeline(ctx, index, params, searchRequestBody(req));
    response = pipelined.answer(await executeSearch(ctx, index, pipelined.params, pipelined.body, req.started));
  } catch (e) {
    searches.counts.search_failed++;
    throw e;
  }
  searches.counts.search_completed++;
  if (!keepOnCompletion) return { status: 200, body: answer(id, 'SUCCEEDED', startedAt, startedAt + keepAliveMs, response) };
  const indices = resolveReadTarget(ctx, index, params).map((h) => h.name);
  const kept = searches.keep(id, { response, indices, startedAt }, keepAliveMs);
  searches.counts.persisted++;
  return { status: 200, body: answer(id, 'SUCCEEDED', startedAt, kept.expiresAt, response) };
}

/** A kept answer the caller may read: it holds what its search read. */
function keptAnswer(req: RestRequest, ctx: EngineContext, action: string): KeptAnswer {
  const kept = searchesOf(ctx).take(req.pathParams.id);
  ctx.access?.require(kept.indices, 'read', action);
  return kept;
}

function get(req: RestRequest, ctx: EngineContext): RestResponse {
  const kept = keptAnswer(req, ctx, 'cluster:admin/opendistro/asynchronous_search/get');
  checkWaitForCompletion(req);
  const renewed = keepAlive(req, undefined);
  if (renewed !== undefined) searchesOf(ctx).renew(req.pathParams.id, kept, renewed);
  return { status: 200, body: answer(req.pathParams.id, 'STORE_RESIDENT', kept.startedAt, kept.expiresAt, kept.response) };
}

function remove(req: RestRequest, ctx: EngineContext): RestResponse {
  keptAnswer(req, ctx, 'cluster:admin/opendistro/asynchronous_search/delete');
  searchesOf(ctx).delete(req.pathParams.id);
  return { status: 200, body: { acknowledged: true } };
}

function stats(_req: RestRequest, ctx: EngineContext): Promise<RestResponse> | RestResponse {
  return nodesResponse(ctx, [], () => ({ asynchronous_search_stats: { ...searchesOf(ctx).counts } }));
}

export const asynchronousSearchRoutes: Route[] = [
  { id: 'opensearch.asynchronous_search_submit', handler: submit },
  { id: 'opensearch.asynchronous_search_get', handler: get },
  { id: 'opensearch.asynchronous_search_delete', handler: remove },
  { id: 'opensearch.asynchronous_search_stats', handler: stats },
];
