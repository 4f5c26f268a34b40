import { EsError, toEsError } from '../../../../errors/index.js';
import type { IndexHandle, PreparedWrite } from '../../indices/index.js';
import { parseSearchRequest, runSearch } from '../../search/index.js';
import { WorkBudget } from '../../search/work-budget.js';
import { requestBody } from '../body.js';
import { booleanParam, checkRefresh, integerParam } from '../params.js';
import { UPDATE_CONTEXT, compileScript, fromJson, parseScriptSpec, resolveScript, runUpdateScript, type UpdateOutcome } from '../../painless/index.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { INDICES_OPTIONS } from './resolve.js';
import { ingestForWrite } from '../../ingest/index.js';
import { effectiveQuery, resolveTarget, withQueryRules } from './search-target.js';

type Operation = 'delete' | 'update';

interface Target {
  handle: IndexHandle;
  id: string;
  seqNo: number;
  primaryTerm: number;
  routing?: string;
}

const BODY_KEYS = new Set(['query', 'max_docs', 'conflicts', 'slice', 'size']);
const SCROLL_SIZE = 1000;

function conflictsMode(v: unknown): 'abort' | 'proceed' {
  if (v === undefined || v === null || v === 'abort') return 'abort';
  if (v === 'proceed') return 'proceed';
  throw new EsError(400, 'illegal_argument_exception', `conflicts may only be "proceed" or "abort" but was [${String(v)}]`);
}

/** The documents a by-query request touches, in the order a scroll would return them. */
async function targets(req: RestRequest, ctx: EngineContext, body: Record<string, unknown>, maxDocs: number | undefined): Promise<Target[]> {
  const handles = resolveTarget(ctx, req.pathParams.index, req.params);
  const query = effectiveQuery(body.query, req.params, handles, req.pathParams.index);
  const searchBody: Record<string, unknown> = { _source: false, seq_no_primary_term: true };
  if (query !== undefined) searchBody.query = query;
  const request = parseSearchRequest(searchBody, new URLSearchParams(), Number.MAX_SAFE_INTEGER);
  const size = maxDocs ?? Number.MAX_SAFE_INTEGER;
  // No timeout: a by-query operation works on every match (its search still pauses for the event loop).
  const result = await runSearch(handles, { ...request, query: withQueryRules(ctx, request.query), from: 0, size, trackTotalHits: true, timeout: -1 }, req.started);
  const byName = new Map(handles.map((h) => [h.name, h]));
  const hits = (result.hits as { hits: Array<Record<string, unknown>> }).hits;
  return hits.map((h) => ({
    handle: byName.get(h._index as string)!,
    id: h._id as string,
    seqNo: h._seq_no as number,
    primaryTerm: h._primary_term as number,
    routing: h._routing as string | undefined,
  }));
}

/** `requests_per_second`: a positive number, or -1 / unlimited for no throttling. */
function requestsPerSecond(v: string | null): number | undefined {
  if (v === null || v === '-1' || v === 'unlimited') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) {
    throw new EsError(400, 'illegal_argument_exception', `[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.`);
  }
  return n;
}

function failureOf(t: Target, err: unknown): Record<string, unknown> {
  const e = toEsError(err);
  return {
    index: t.handle.name, type: '_doc', id: t.id,
    cause: { type: e.type, reason: e.reason, ...e.extra },
    status: e.status,
  };
}

/** `_update_by_query`'s script, compiled once: what it decides for one document. */
type DocumentScript = (t: Target, source: Record<string, unknown>, sourceText: string | undefined, version: number) => UpdateOutcome;

function updateScript(raw: unknown, req: RestRequest, ctx: EngineContext): DocumentScript | undefined {
  if (raw === undefined || raw === null) return undefined;
  const resolved = resolveScript(parseScriptSpec(raw), ctx.storedScripts);
  const script = compileScript(resolved.source, UPDATE_CONTEXT, resolved.name);
  const params = fromJson(resolved.params);
  const now = Date.now();
  // ES gives the script the document's version only when the request asks for versions (`version=true`), else -1.
  const withVersion = booleanParam(req.params, 'version', false);
  return (t, source, sourceText, version) =>
    runUpdateScript(script, params, 'update_by_query', { source, sourceText, index: t.handle.name, id: t.id, version: withVersion ? version : -1, routing: t.routing, now });
}

/**
 * `_delete_by_query` / `_update_by_query`: every matching document goes through the normal write
 * path, guarded by the seq_no it was found with, so versions and seq_nos advance. An update's
 * script may change the document, leave it (`ctx.op = 'noop'`) or delete it (`ctx.op = 'delete'`).
 */
async function byQuery(op: Operation, req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  checkRefresh(req.params);
  const body = requestBody(req) ?? {};
  for (const k of Object.keys(body)) {
    if (k === 'script' && op === 'update') continue;
    if (!BODY_KEYS.has(k)) throw new EsError(400, 'parsing_exception', `[${op === 'delete' ? 'delete_by_query' : 'update_by_query'}] unknown field [${k}]`, { line: 1, col: 1 });
  }
  const script = op === 'update' ? updateScript(body.script, req, ctx) : undefined;
  const pipeline = op === 'update' ? req.params.get('pipeline') ?? undefined : undefined;
  if (req.params.get('wait_for_completion') === 'false') {
    throw new EsError(400, 'illegal_argument_exception', '[wait_for_completion=false] is not supported by the embedded engine yet');
  }
  const conflicts = conflictsMode(req.params.get('conflicts') ?? body.conflicts);
  let maxDocs = integerParam(req.params, 'max_docs') ?? (body.max_docs !== undefined ? Number(body.max_docs) : undefined);
  if (maxDocs === undefined && body.size !== undefined) maxDocs = Number(body.size);
  if (maxDocs === undefined) maxDocs = integerParam(req.params, 'size');
  if (maxDocs !== undefined && (!Number.isInteger(maxDocs) || maxDocs <= 0)) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: maxDocs should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [${maxDocs}];`);
  }
  const scrollSize = integerParam(req.params, 'scroll_size') ?? SCROLL_SIZE;
  const found = await targets(req, ctx, body, maxDocs);

  const rps = requestsPerSecond(req.params.get('requests_per_second'));
  let done = 0;
  let deleted = 0;
  let noops = 0;
  let versionConflicts = 0;
  let throttledMillis = 0;
  const failures: Record<string, unknown>[] = [];
  const budget = new WorkBudget(Infinity);
  for (let from = 0; from < found.length && !failures.length; from += scrollSize) {
    const batchStarted = performance.now();
    const batch = found.slice(from, from + scrollSize);
    const prepared: PreparedWrite[] = [];
    for (const t of batch) {
      await budget.pause();
      try {
        const guard = { ifSeqNo: t.seqNo, ifPrimaryTerm: t.primaryTerm, routing: t.routing };
        if (op === 'delete') {
          prepared.push(t.handle.delete(t.id, guard));
          done++;
        } else {
          const doc = t.handle.get(t.id);
          if (!doc) throw new EsError(409, 'version_conflict_engine_exception', `[${t.id}]: version conflict, document already deleted (current version [${t.seqNo}])`, { index_uuid: t.handle.uuid, shard: '0', index: t.handle.name });
          const outcome = script ? script(t, doc.source, doc.sourceText, doc.version) : undefined;
          if (outcome?.op === 'noop') noops++;
          else if (outcome?.op === 'delete') {
            prepared.push(t.handle.delete(t.id, guard));
            deleted++;
          } else {
            const source = outcome ? outcome.source : doc.source;
            const ingested = ingestForWrite(ctx.indices, ctx.ingestPipelines, pipeline, { index: t.handle.name, id: t.id, routing: t.routing, source: structuredClone(source) });
            if (ingested?.kind === 'failed') {
              failures.push(failureOf(t, ingested.error));
              break;
            }
            if (ingested?.kind === 'dropped') noops++;
            else if (ingested) {
              // a pipeline may move the document: the guard only holds where it was found
              const target = ingested.index === t.handle.name ? t.handle : ctx.indices.writeTarget(ingested.index).handle;
              const where = target === t.handle ? { ...guard, routing: ingested.routing } : { routing: ingested.routing };
              prepared.push(target.indexDocument(ingested.id ?? t.id, ingested.source, JSON.stringify(ingested.source), where));
              done++;
            } else {
              prepared.push(t.handle.indexDocument(t.id, source, outcome ? JSON.stringify(source) : (doc.sourceText ?? JSON.stringify(source)), guard));
              done++;
            }
          }
        }
      } catch (err) {
        const e = toEsError(err);
        if (e.status !== 409) throw err;
        versionConflicts++;
        if (conflicts === 'abort') {
          failures.push(failureOf(t, err));
          break;
        }
      }
    }
    await ctx.indices.commit(prepared);
    // ES's throttle: each batch takes at least batch size / requests_per_second seconds
    if (rps !== undefined && from + scrollSize < found.length) {
      const wait = (batch.length / rps) * 1000 - (performance.now() - batchStarted);
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        throttledMillis += wait;
      }
    }
  }
  const total = found.length;
  return {
    status: failures.length ? 409 : 200,
    body: {
      took: Math.max(0, Math.round(performance.now() - req.started)),
      timed_out: false,
      total,
      ...(op === 'update' ? { updated: done } : {}),
      deleted: op === 'delete' ? done : deleted,
      batches: total === 0 ? 0 : Math.ceil(total / scrollSize),
      version_conflicts: versionConflicts,
      noops,
      retries: { bulk: 0, search: 0 },
      throttled_millis: Math.round(throttledMillis),
      requests_per_second: rps ?? -1.0,
      throttled_until_millis: 0,
      failures,
    },
  };
}

const PARAMS = [
  ...INDICES_OPTIONS, 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'from', 'lenient', 'preference', 'q', 'routing', 'scroll',
  'search_type', 'search_timeout', 'max_docs', 'size', 'sort', 'terminate_after', 'stats', 'version', 'request_cache', 'refresh', 'timeout',
  'wait_for_active_shards', 'scroll_size', 'wait_for_completion', 'requests_per_second', 'slices', 'conflicts', 'pipeline', 'version_type',
];

export const byQueryRoutes: Route[] = [
  { methods: ['POST'], pattern: '/{index}/_delete_by_query', params: PARAMS, handler: (req, ctx) => byQuery('delete', req, ctx) },
  { methods: ['POST'], pattern: '/{index}/_update_by_query', params: PARAMS, handler: (req, ctx) => byQuery('update', req, ctx) },
];
