import type { SliceLength } from '../../../../cooperative/index.js';
import { jsonTextKeepingIntegers } from '../../../../ndjson/index.js';
import { EsError, toEsError } from '../../../../errors/index.js';
import { countDisagreement, fieldSubsetView } from '../../access/index.js';
import type { IndexHandle, PreparedWrite } from '../../indices/index.js';
import { parseSearchRequest, runSearch } from '../../search/index.js';
import { WorkBudget } from '../../search/work-budget.js';
import { requestBody } from '../body.js';
import { booleanParam, checkRefresh, UrlParams } from '../params.js';
import { inSlice, runScrollJob, startInBackground, type ScrollJob, type ScrollWorker } from '../../tasks/index.js';
import { batchSize, conflictsMode, maxDocsParam, requestedSlices, requestsPerSecond, slicesParam, unsupportedSearchFields, validationFailed, waitsForCompletion } from './by-scroll-params.js';
import { UPDATE_CONTEXT, compileScript, fromJson, parseScriptSpec, resolveScript, runUpdateScript, type UpdateOutcome } from '../../painless/index.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { ingestForWrite, processorsWarmingUp } from '../../ingest/index.js';
import { effectiveQuery, resolveTarget, withQueryRules } from './search-target.js';
import { taskHeaders } from '../task-headers.js';
import { sourceEnabled } from './documents.js';
import { awaitActiveShards, shardWriteDescription } from '../active-shards.js';

type Operation = 'delete' | 'update';

export interface Target {
  handle: IndexHandle;
  id: string;
  seqNo: number;
  primaryTerm: number;
  routing?: string;
}

const BODY_KEYS = new Set(['query', 'max_docs', 'conflicts', 'slice', 'size', 'from', 'stored_fields']);

/**
 * How to find the documents a by-query request touches, in the order a scroll would return them:
 * the query is read now (a bad one is refused with the request), the search runs when the task does.
 */
function targetsOf(req: RestRequest, ctx: EngineContext, handles: IndexHandle[], body: Record<string, unknown>): (slice: SliceLength) => Promise<Target[]> {
  // the documents are found as the caller reads them (without the fields its rules hide), and written as they are
  const fields = ctx.access?.fields;
  const searched = fields ? handles.map((h) => fieldSubsetView(h, fields, ctx.onHiddenField)) : handles;
  const query = effectiveQuery(body.query, req.params, searched, req.pathParams.index);
  const searchBody: Record<string, unknown> = { _source: false, seq_no_primary_term: true };
  if (query !== undefined) searchBody.query = query;
  const request = parseSearchRequest(searchBody, UrlParams.NONE, Number.MAX_SAFE_INTEGER);
  const search = { ...request, query: withQueryRules(ctx, request.query), from: 0, size: Number.MAX_SAFE_INTEGER, trackTotalHits: true, timeout: -1 };
  const byName = new Map(handles.map((h) => [h.name, h]));
  return async (slice) => {
    // No timeout: a by-query operation works on every match (its search still pauses for the event loop).
    const result = await runSearch(searched, search, req.started, { sliceLength: slice });
    const hits = (result.hits as { hits: Array<Record<string, unknown>> }).hits;
    return hits.map((h) => ({
      handle: byName.get(h._index as string)!,
      id: h._id as string,
      seqNo: h._seq_no as number,
      primaryTerm: h._primary_term as number,
      routing: h._routing as string | undefined,
    }));
  };
}

/**
 * A document rewritten from its `_source` (update by query, reindex) must have stored one: as
 * Elasticsearch's AbstractAsyncBulkByScrollAction accepts a hit, the whole request fails on the
 * first that did not (delete by query reads no source and never asks).
 */
export function requireStoredSource(t: Target, sourceText: string | undefined): asserts sourceText is string {
  if (sourceText === undefined || !sourceEnabled(t.handle)) {
    throw new EsError(400, 'illegal_argument_exception', `[${t.handle.name}][${t.id}] didn't store _source`);
  }
}

/**
 * The indices of a batch whose shard copies are not as many as `wait_for_active_shards` asks,
 * each with the error its writes fail with (a batch is one bulk request: a shard's items fail together).
 */
export async function unavailableShards(batch: Target[], params: { get(name: string): string | null }, op: 'index' | 'delete'): Promise<Map<IndexHandle, unknown>> {
  const unavailable = new Map<IndexHandle, unknown>();
  const byIndex = new Map<IndexHandle, Target[]>();
  for (const t of batch) byIndex.set(t.handle, [...(byIndex.get(t.handle) ?? []), t]);
  await Promise.all([...byIndex].map(async ([handle, targets]) => {
    const request = targets.length === 1
      ? shardWriteDescription(handle.name, op, targets[0].id)
      : `BulkShardRequest [[${handle.name}][0]] containing [${targets.length}] requests`;
    await awaitActiveShards(handle, params, request).catch((err: unknown) => unavailable.set(handle, err));
  }));
  return unavailable;
}

export function failureOf(t: Target, err: unknown): Record<string, unknown> {
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
  // the script reads and writes the whole document, hidden fields included (Elasticsearch refuses updates under field rules)
  if (ctx.access?.fields) {
    countDisagreement();
    throw new EsError(400, 'security_exception', "Can't execute an update request if field or document level security is enabled");
  }
  const resolved = resolveScript(parseScriptSpec(raw), ctx.storedScripts, { context: 'update' });
  const script = compileScript(resolved.source, UPDATE_CONTEXT, resolved.name);
  const params = fromJson(resolved.params);
  const now = Date.now();
  // ES gives the script the document's version only when the request asks for versions (`version=true`), else -1.
  const withVersion = booleanParam(req.params, 'version', false);
  return (t, source, sourceText, version) =>
    runUpdateScript(script, params, 'update_by_query', { source, sourceText, index: t.handle.name, id: t.id, version: withVersion ? version : -1, routing: t.routing, now });
}

/** A manual slice (`"slice": {"id": 0, "max": 2}` in the body), checked as Elasticsearch's SliceBuilder checks it. */
export function manualSlice(raw: unknown, slices: number | undefined): { id: number; max: number } | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new EsError(400, 'parsing_exception', '[slice] expected an object', { line: 1, col: 1 });
  const { id, max, field, ...rest } = raw as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new EsError(400, 'x_content_parse_exception', `[slice] unknown field [${unknown}]`);
  if (field !== undefined && field !== '_id') throw new EsError(400, 'illegal_argument_exception', 'the embedded engine slices by [_id] only');
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw new EsError(400, 'illegal_argument_exception', 'id must be greater than or equal to 0');
  if (typeof max !== 'number' || !Number.isInteger(max) || max <= 1) throw new EsError(400, 'illegal_argument_exception', 'max must be greater than 1');
  if (id >= max) throw new EsError(400, 'illegal_argument_exception', 'max must be greater than id');
  if (slices !== undefined && slices > 1) {
    throw new EsError(400, 'action_request_validation_exception', "Validation Failed: 1: can't specify both manual and automatic slicing at the same time;");
  }
  return { id, max };
}

/**
 * `_delete_by_query` / `_update_by_query`: every matching document goes through the normal write
 * path, guarded by the seq_no it was found with, so versions and seq_nos advance. An update's
 * script may change the document, leave it (`ctx.op = 'noop'`) or delete it (`ctx.op = 'delete'`).
 * The work runs as a task (lib/engine/embedded/tasks): sliced, throttled, cancellable, and in the
 * background with `wait_for_completion=false`.
 */
async function byQuery(op: Operation, req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  checkRefresh(req.params);
  await processorsWarmingUp(); // the patterns a pipeline's processors compile in the background
  const body = requestBody(req) ?? {};
  const name = op === 'delete' ? 'delete_by_query' : 'update_by_query';
  for (const k of Object.keys(body)) {
    if (k === 'script' && op === 'update') continue;
    if (!BODY_KEYS.has(k)) throw new EsError(400, 'parsing_exception', `[${name}] unknown field [${k}]`, { line: 1, col: 1 });
  }
  const refused = unsupportedSearchFields(body);
  // DeleteByQueryRequest.validate: deleting needs a query (the body's, or `q`); updating has match_all
  if (op === 'delete' && body.query === undefined && req.params.get('q') === null) refused.push('query is missing');
  if (refused.length) throw validationFailed(refused);
  const script = op === 'update' ? updateScript(body.script, req, ctx) : undefined;
  const pipeline = op === 'update' ? req.params.get('pipeline') ?? undefined : undefined;
  const background = !waitsForCompletion(req.params);
  const rps = requestsPerSecond(req.params);
  const conflicts = conflictsMode(req.params.get('conflicts') ?? body.conflicts);
  const requested = requestedSlices(req.params);
  const maxDocs = maxDocsParam(req.params, body, requested);
  const slice = manualSlice(body.slice, requested);
  const scrollSize = batchSize(req.params);
  let handles: IndexHandle[];
  try {
    handles = resolveTarget(ctx, req.pathParams.index, req.params);
  } catch (err) {
    // Elasticsearch and OpenSearch resolve the indices inside the task the request started: in the
    // background, a missing index is the task's stored error, and the answer is the task's id
    if (!background || toEsError(err).status !== 404) throw err;
    return { status: 200, body: startInBackground(ctx.tasks, failedJob(op, req, err)) };
  }
  const slices = slicesParam(req.params, handles);
  const find = targetsOf(req, ctx, handles, body);
  const findTargets = async (share: SliceLength) => {
    const found = await find(share);
    return slice ? found.filter((t) => inSlice(t.id, slice.id, slice.max)) : found;
  };

  const processBatch = async (batch: Target[], worker: ScrollWorker, share: SliceLength): Promise<Record<string, unknown>[]> => {
    const prepared: PreparedWrite[] = [];
    const failures: Record<string, unknown>[] = [];
    const budget = new WorkBudget(Infinity, true, share);
    const unavailable = await unavailableShards(batch, req.params, op === 'delete' ? 'delete' : 'index');
    for (const t of batch) {
      await budget.pause();
      const shardFailure = unavailable.get(t.handle);
      if (shardFailure) {
        failures.push(failureOf(t, shardFailure));
        continue;
      }
      try {
        const guard = { ifSeqNo: t.seqNo, ifPrimaryTerm: t.primaryTerm, routing: t.routing };
        if (op === 'delete') {
          prepared.push(t.handle.delete(t.id, guard));
          worker.deleted++;
          continue;
        }
        const doc = t.handle.get(t.id);
        if (!doc) throw new EsError(409, 'version_conflict_engine_exception', `[${t.id}]: version conflict, document already deleted (current version [${t.seqNo}])`, { index_uuid: t.handle.uuid, shard: '0', index: t.handle.name });
        requireStoredSource(t, doc.sourceText);
        const outcome = script ? script(t, doc.source, doc.sourceText, doc.version) : undefined;
        if (outcome?.op === 'noop') worker.noops++;
        else if (outcome?.op === 'delete') {
          prepared.push(t.handle.delete(t.id, guard));
          worker.deleted++;
        } else {
          const source = outcome ? outcome.source : doc.source;
          const ingested = ingestForWrite(ctx.indices, ctx.ingestPipelines, pipeline, { index: t.handle.name, id: t.id, routing: t.routing, source: structuredClone(source), text: doc.sourceText });
          if (ingested?.kind === 'failed') {
            failures.push(failureOf(t, ingested.error));
            break;
          }
          if (ingested?.kind === 'dropped') worker.noops++;
          else if (ingested) {
            // a pipeline may move the document: the guard only holds where it was found
            const target = ingested.index === t.handle.name ? t.handle : ctx.indices.writeTarget(ingested.index).handle;
            const where = target === t.handle ? { ...guard, routing: ingested.routing } : { routing: ingested.routing };
            prepared.push(target.indexDocument(ingested.id ?? t.id, ingested.source, jsonTextKeepingIntegers(ingested.source, doc.sourceText, ...ingested.pipelineTexts), where));
            worker.updated++;
          } else {
            prepared.push(t.handle.indexDocument(t.id, source, outcome ? jsonTextKeepingIntegers(source, doc.sourceText, req.body) : (doc.sourceText ?? JSON.stringify(source)), guard));
            worker.updated++;
          }
        }
      } catch (err) {
        const e = toEsError(err);
        if (e.status !== 409) throw err;
        worker.versionConflicts++;
        // a batch is one bulk request in Elasticsearch: its other writes go on, the next batch does not
        if (conflicts === 'abort') failures.push(failureOf(t, err));
      }
    }
    await ctx.indices.commit(prepared);
    return failures;
  };

  const job: ScrollJob<Target> = {
    action: op === 'delete' ? 'indices:data/write/delete/byquery' : 'indices:data/write/update/byquery',
    headers: taskHeaders(req),
    description: `${op === 'delete' ? 'delete-by-query' : 'update-by-query'} [${handles.map((h) => h.name).join(', ')}]`,
    fields: { updated: op === 'update', created: false },
    findTargets,
    slices,
    maxDocs,
    batchSize: scrollSize,
    requestsPerSecond: rps,
    sliceId: slice?.id,
    processBatch,
  };
  if (background) return { status: 200, body: startInBackground(ctx.tasks, job) };
  return runScrollJob(ctx.tasks, job);
}

/** A background by-query whose indices could not be resolved: its task fails with `error` when it runs. */
function failedJob(op: Operation, req: RestRequest, error: unknown): ScrollJob<Target> {
  return {
    action: op === 'delete' ? 'indices:data/write/delete/byquery' : 'indices:data/write/update/byquery',
    headers: taskHeaders(req),
    description: `${op === 'delete' ? 'delete-by-query' : 'update-by-query'} [${req.pathParams.index ?? ''}]`,
    fields: { updated: op === 'update', created: false },
    findTargets: () => Promise.reject(error),
    slices: 1,
    batchSize: batchSize(req.params),
    requestsPerSecond: requestsPerSecond(req.params),
    processBatch: () => Promise.resolve([]),
  };
}

export const byQueryRoutes: Route[] = [
  { id: 'delete_by_query', handler: (req, ctx) => byQuery('delete', req, ctx) },
  { id: 'update_by_query', handler: (req, ctx) => byQuery('update', req, ctx) },
];
