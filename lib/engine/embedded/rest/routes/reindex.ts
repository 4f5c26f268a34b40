import type { SliceLength } from '../../../../cooperative/index.js';
import { EsError, toEsError } from '../../../../errors/index.js';
import { jsonTextKeepingIntegers, tokenName } from '../../../../ndjson/index.js';
import type { IndexHandle, PreparedWrite, VersionType, WriteParams } from '../../indices/index.js';
import { UPDATE_CONTEXT, compileScript, fromJson, parseScriptSpec, resolveScript, runUpdateScript, type UpdateOutcome } from '../../painless/index.js';
import { parseSearchRequest, runSearch } from '../../search/index.js';
import { WorkBudget } from '../../search/work-budget.js';
import { filterSource, sourceFilterFromBody, type SourceFilter } from '../../search/source-filter.js';
import { inSlice, runScrollJob, startInBackground, type ScrollJob, type ScrollWorker } from '../../tasks/index.js';
import { requestBody } from '../body.js';
import { checkRefresh, generateId, validateId, versionType, UrlParams } from '../params.js';
import { ingestForWrite, processorsWarmingUp } from '../../ingest/index.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { failureOf, manualSlice, requireStoredSource, unavailableShards, type Target } from './by-query.js';
import { batchSize, conflictsMode, maxDocsParam, requestedSlices, requestsPerSecond, slicesParam, unsupportedSearchFields, validationFailed, waitsForCompletion } from './by-scroll-params.js';
import { effectiveQuery, timeValue, withQueryRules } from './search-target.js';
import { taskHeaders } from '../task-headers.js';

type Json = Record<string, unknown>;

const TOP_KEYS = new Set(['source', 'dest', 'size', 'max_docs', 'script', 'conflicts']);
const DEST_KEYS = new Set(['index', 'version_type', 'op_type', 'routing', 'pipeline']);
/** What a reindex `source` may hold besides `index` and `remote`: the search it runs. */
const SOURCE_SEARCH_KEYS = new Set(['query', 'size', '_source', 'sort', 'slice', 'from', 'stored_fields', 'runtime_mappings']);

function objectAt(body: Json, key: string): Json {
  const v = body[key];
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new EsError(400, 'x_content_parse_exception', `[reindex] ${key} doesn't support values of type: ${tokenName(v)}`);
  return v as Json;
}

function indexNames(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.split(',').filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.flatMap((x) => indexNames(x));
  throw new EsError(400, 'x_content_parse_exception', '[reindex] [source][index] must be a string or a list of strings');
}

/**
 * `source.remote`: read as Elasticsearch reads it (host form, known fields, time values), then
 * refused as Elasticsearch refuses a host its `reindex.remote.whitelist` does not list: the
 * embedded engine reindexes from local indices only, and its whitelist is empty.
 */
function refuseRemote(raw: unknown): never {
  const remote = { ...(raw as Json) };
  const host = remote.host;
  delete remote.host;
  if (typeof host !== 'string') throw new EsError(400, 'illegal_argument_exception', '[host] must be specified to reindex from a remote cluster');
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/:]+)(?::(\d+))?(\/.*)?$/i.exec(host);
  if (!m) throw new EsError(400, 'illegal_argument_exception', `[host] must be of the form [scheme]://[host]:[port](/[pathPrefix])? but was [${host}]`);
  for (const k of ['username', 'password', 'headers']) delete remote[k];
  for (const k of ['socket_timeout', 'connect_timeout']) {
    const v = remote[k];
    delete remote[k];
    if (v === undefined) continue;
    const text = String(v);
    const unit = /(nanos|micros|ms|s|m|h|d)$/.exec(text);
    if (unit && !/^\d+(\.\d+)?$/.test(text.slice(0, -unit[1].length))) throw new EsError(400, 'number_format_exception', `For input string: "${text.slice(0, -unit[1].length)}"`);
    timeValue(k, text);
  }
  const unsupported = Object.keys(remote);
  if (unsupported.length) throw new EsError(400, 'illegal_argument_exception', `Unsupported fields in [remote]: [${unsupported.join(',')}]`);
  const port = m[3] ?? (m[1].toLowerCase() === 'https' ? '443' : '80');
  throw new EsError(400, 'illegal_argument_exception', `[${m[2]}:${port}] not whitelisted in reindex.remote.whitelist`);
}

type Routing = { kind: 'keep' } | { kind: 'discard' } | { kind: 'set'; value: string };

interface ReindexRequest {
  sources: string[];
  search: Json;
  batchSize: number;
  sourceFilter: SourceFilter;
  /** `pipeline`: the ingest pipeline run on each document before it is written (the destination's default and final ones run too). */
  dest: { index: string; opType: 'index' | 'create'; versionType: VersionType; routing: Routing; pipeline?: string };
  slice?: { id: number; max: number };
  maxDocs?: number;
  conflicts: 'abort' | 'proceed';
  script: unknown;
}

/** The body, checked in Elasticsearch's order: parse errors first, then every validation error at once. */
function parseRequest(req: RestRequest): ReindexRequest {
  const body = requestBody(req);
  if (body === undefined) throw new EsError(400, 'parse_exception', 'request body is required');
  for (const k of Object.keys(body)) if (!TOP_KEYS.has(k)) throw new EsError(400, 'x_content_parse_exception', `[reindex] unknown field [${k}]`);
  const conflicts = conflictsMode(body.conflicts);
  const source = objectAt(body, 'source');
  const dest = objectAt(body, 'dest');
  for (const k of Object.keys(dest)) if (!DEST_KEYS.has(k)) throw new EsError(400, 'x_content_parse_exception', `[dest] unknown field [${k}]`);
  if (source.remote !== undefined) refuseRemote(source.remote);
  const search: Json = {};
  for (const [k, v] of Object.entries(source)) {
    if (k === 'index') continue;
    if (!SOURCE_SEARCH_KEYS.has(k)) throw new EsError(400, 'parsing_exception', `Unknown key for a ${tokenName(v)} in [${k}].`, { line: 1, col: 1 });
    search[k] = v;
  }
  let size = 1000;
  if (search.size !== undefined) {
    size = typeof search.size === 'number' ? search.size : /^-?\d+$/.test(String(search.size)) ? Number(search.size) : NaN;
    if (!Number.isInteger(size)) throw new EsError(400, 'number_format_exception', `For input string: "${String(search.size)}"`);
  }
  const slices = requestedSlices(req.params);
  const maxDocs = maxDocsParam(req.params, body, slices);
  const sourceFilter = sourceFilterFromBody(search._source);
  const sources = indexNames(source.index);
  const errors = unsupportedSearchFields(search);
  if (search.slice !== undefined && slices !== undefined && slices > 1) errors.push("can't specify both manual and automatic slicing at the same time");
  if (!sources.length) errors.push('use _all if you really want to copy from all existing indexes');
  if (!sourceFilter.fetch) errors.push('_source:false is not supported in this context');
  const destIndex = typeof dest.index === 'string' ? dest.index : '';
  if (!destIndex) errors.push('index must be specified');
  const routing = routingOf(dest.routing, errors);
  if (errors.length) throw validationFailed(errors);
  if (dest.pipeline !== undefined && dest.pipeline !== null && typeof dest.pipeline !== 'string') {
    throw new EsError(400, 'parsing_exception', `[dest] pipeline doesn't support values of type: ${tokenName(dest.pipeline)}`, { line: 1, col: 1 });
  }
  const opType = dest.op_type === undefined || dest.op_type === null ? 'index' : String(dest.op_type);
  if (opType !== 'index' && opType !== 'create') {
    throw new EsError(400, 'illegal_argument_exception', `opType must be 'create' or 'index', found: [${opType}]`);
  }
  return {
    sources, search, batchSize: size, sourceFilter,
    dest: { index: destIndex, opType, versionType: versionType(dest.version_type) ?? 'internal', routing, pipeline: typeof dest.pipeline === 'string' ? dest.pipeline : undefined },
    slice: manualSlice(search.slice, slices), maxDocs, conflicts, script: body.script,
  };
}

function routingOf(v: unknown, errors: string[]): Routing {
  if (v === undefined || v === null || v === 'keep') return { kind: 'keep' };
  if (v === 'discard') return { kind: 'discard' };
  if (typeof v === 'string' && v.startsWith('=')) return { kind: 'set', value: v.slice(1) };
  errors.push('routing must be unset, [keep], [discard] or [=<some new value>]');
  return { kind: 'keep' };
}

/**
 * How to find the source documents in scroll order (`sort` honoured, as Elasticsearch still does
 * while deprecating it): the search is read now, and runs when the task does.
 */
function sourceTargets(req: RestRequest, ctx: EngineContext, handles: IndexHandle[], r: ReindexRequest): (slice: SliceLength) => Promise<Target[]> {
  const query = effectiveQuery(r.search.query, UrlParams.NONE, handles, r.sources.join(','));
  const searchBody: Json = { _source: false, seq_no_primary_term: true };
  if (query !== undefined) searchBody.query = query;
  if (r.search.sort !== undefined) searchBody.sort = r.search.sort;
  if (r.search.runtime_mappings !== undefined) searchBody.runtime_mappings = r.search.runtime_mappings;
  const request = parseSearchRequest(searchBody, UrlParams.NONE, Number.MAX_SAFE_INTEGER);
  const search = { ...request, query: withQueryRules(ctx, request.query), from: 0, size: Number.MAX_SAFE_INTEGER, trackTotalHits: true, timeout: -1 };
  const byName = new Map(handles.map((h) => [h.name, h]));
  return async (slice) => {
    const result = await runSearch(handles, search, req.started, { sliceLength: slice });
    return (result.hits as { hits: Json[] }).hits.map((h) => ({
      handle: byName.get(h._index as string)!,
      id: h._id as string,
      seqNo: h._seq_no as number,
      primaryTerm: h._primary_term as number,
      routing: h._routing as string | undefined,
    }));
  };
}

/** Runs on each document with `ctx._index` = the destination (the request being built, as in Elasticsearch). */
type ReindexScript = (t: Target, dest: string, source: Json, sourceText: string | undefined, version: number) => UpdateOutcome;

function reindexScript(raw: unknown, ctx: EngineContext): ReindexScript | undefined {
  if (raw === undefined || raw === null) return undefined;
  const resolved = resolveScript(parseScriptSpec(raw), ctx.storedScripts, { context: 'update' });
  const script = compileScript(resolved.source, UPDATE_CONTEXT, resolved.name);
  const params = fromJson(resolved.params);
  const now = Date.now();
  return (t, dest, source, sourceText, version) =>
    runUpdateScript(script, params, 'reindex', { source, sourceText, index: dest, id: t.id, version, routing: t.routing, now });
}

/**
 * POST /_reindex from local indices: each source document (filtered by `_source`, changed by the
 * script) is written to the destination through the normal write path — `op_type`, external
 * versions, routing — in batches, as a task (sliced, throttled, cancellable, or in the background).
 */
async function reindex(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  await processorsWarmingUp(); // the patterns a pipeline's processors compile in the background
  const rps = requestsPerSecond(req.params);
  if (req.params.get('slices') !== null) requestedSlices(req.params);
  checkRefresh(req.params);
  const r = parseRequest(req);
  const background = !waitsForCompletion(req.params);
  const script = reindexScript(r.script, ctx);
  const handles = ctx.indices.resolve(r.sources.join(','), { allowNoIndices: true });
  for (const h of handles) {
    if (h.name === r.dest.index || ctx.indices.aliasTargets(r.dest.index).includes(h)) {
      throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: reindex cannot write into an index its reading from [${h.name}];`);
    }
  }
  const slices = slicesParam(req.params, handles);
  const find = sourceTargets(req, ctx, handles, r);
  const findTargets = async (slice: SliceLength) => {
    const found = await find(slice);
    return r.slice ? found.filter((t) => inSlice(t.id, r.slice!.id, r.slice!.max)) : found;
  };

  const processBatch = async (batch: Target[], worker: ScrollWorker, slice: SliceLength): Promise<Json[]> => {
    const prepared: PreparedWrite[] = [];
    const creations = [];
    const failures: Json[] = [];
    const budget = new WorkBudget(Infinity, true, slice);
    // the batch is one bulk request to the destination: its items fail together when the destination's
    // shard copies are fewer than wait_for_active_shards asks
    const dest = ctx.indices.get(r.dest.index);
    const shardFailure = dest && (await unavailableShards(batch.map((t) => ({ ...t, handle: dest })), req.params, 'index')).get(dest);
    if (shardFailure) return batch.map((t) => failureOf({ ...t, handle: dest }, shardFailure));
    for (const t of batch) {
      await budget.pause();
      const doc = t.handle.get(t.id);
      if (!doc) continue; // deleted since the scan: nothing to copy
      requireStoredSource(t, doc.sourceText);
      let source = filterSource(doc.source, r.sourceFilter) ?? {};
      const outcome = script ? script(t, r.dest.index, source, r.sourceFilter.includes.length || r.sourceFilter.excludes.length ? undefined : doc.sourceText, doc.version) : undefined;
      if (outcome?.op === 'noop') {
        worker.noops++;
        continue;
      }
      const meta = outcome?.metadata;
      const destName = meta?.index ?? r.dest.index;
      const id = meta ? (meta.id ?? generateId()) : t.id;
      const routing = r.dest.routing.kind === 'discard' ? undefined : r.dest.routing.kind === 'set' ? r.dest.routing.value : (meta ? (meta.routing ?? undefined) : t.routing);
      // a script that sets ctx._version to null writes with internal versioning, whatever dest.version_type
      // says (Reindexer's scriptChangedVersion: MATCH_ANY, INTERNAL)
      const external = r.dest.versionType !== 'internal' && meta?.version !== null;
      const params: WriteParams = { routing, create: r.dest.opType === 'create' };
      if (external) Object.assign(params, { versionType: r.dest.versionType, version: meta?.version ?? doc.version });
      // a batch is one bulk request in Elasticsearch: a failed write is listed, the batch's others go on
      const failure = (target: string, err: unknown): void => {
        const e = toEsError(err);
        if (e.status === 409) worker.versionConflicts++;
        if (e.status !== 409 || r.conflicts === 'abort') failures.push(failureOf({ ...t, id, handle: { name: target } as IndexHandle }, err));
      };
      try {
        if (outcome?.op === 'delete') {
          validateId(id);
          const target = ctx.indices.writeTarget(destName);
          creations.push(...target.writes);
          const del = target.handle.delete(id, { routing });
          prepared.push(del);
          if (del.status === 200) worker.deleted++;
          continue;
        }
        source = outcome ? outcome.source : source;
        // The destination's pipelines (`dest.pipeline`, else its default one; then its final one) may change the document and where it goes.
        const ingested = ingestForWrite(ctx.indices, ctx.ingestPipelines, r.dest.pipeline, { index: destName, id, routing, source: structuredClone(source), text: doc.sourceText });
        if (ingested?.kind === 'failed') throw ingested.error;
        if (ingested?.kind === 'dropped') {
          worker.noops++;
          continue;
        }
        const into = ingested ? { index: ingested.index, id: ingested.id ?? id, params: { ...params, routing: ingested.routing } } : { index: destName, id, params };
        if (ingested) source = ingested.source as Json;
        validateId(into.id); // the script or a pipeline may have set it
        const target = ctx.indices.writeTarget(into.index);
        creations.push(...target.writes);
        const text = ingested || outcome || r.sourceFilter.includes.length || r.sourceFilter.excludes.length ? jsonTextKeepingIntegers(source, doc.sourceText, req.body, ...(ingested?.kind === 'document' ? ingested.pipelineTexts : [])) : doc.sourceText;
        const write = target.handle.indexDocument(into.id, source, text, into.params);
        prepared.push(write);
        if (write.status === 201) worker.created++;
        else worker.updated++;
      } catch (err) {
        failure(destName, err);
      }
    }
    await ctx.indices.commit(prepared, creations);
    return failures;
  };

  const job: ScrollJob<Target> = {
    action: 'indices:data/write/reindex',
    headers: taskHeaders(req),
    description: `reindex from [${r.sources.join(', ')}] to [${r.dest.index}]`,
    fields: { updated: true, created: true },
    findTargets,
    slices,
    maxDocs: r.maxDocs,
    batchSize: r.batchSize,
    requestsPerSecond: rps,
    sliceId: r.slice?.id,
    processBatch,
  };
  if (background) return { status: 200, body: startInBackground(ctx.tasks, job) };
  return runScrollJob(ctx.tasks, job);
}

export const reindexRoutes: Route[] = [{ id: 'reindex', handler: reindex }];
