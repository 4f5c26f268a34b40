import { jsonTextKeepingIntegers } from '../../../../ndjson/index.js';
import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { checkRoutingGiven, isPlainObject, reachesDocument, shownSource, versionConflict, type IndexHandle, type JsonObject, type LiveDocument, type PreparedWrite, type UpdateRequest, type WriteParams } from '../../indices/index.js';
import { holdingBigInts } from '../../../json-body.js';
import type { StoreWrite } from '../../store/index.js';
import { UPDATE_CONTEXT, compileScript, fromJson, parseScriptSpec, resolveScript, runUpdateScript, type ScriptSpec } from '../../painless/index.js';
import { filterSource, sourceFilterFromBody, sourceFilterFromParams, type SourceFilter } from '../../search/index.js';
import { ingestForWrite, processorsWarmingUp } from '../../ingest/index.js';
import { documentSourceApart, requireBody } from '../body.js';
import { booleanParam, checkRefresh, forcedRefresh, generateId, integerParam, validateId, versionType, writeParams, type ParamReader } from '../params.js';
import { storedFieldValues, storedFieldsList } from '../stored-fields.js';
import { didYouMean } from '../unknown-field.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { awaitActiveShards, shardWriteDescription } from '../active-shards.js';

function opType(req: RestRequest): boolean {
  const v = req.params.get('op_type');
  if (v === null || v === 'index') return false;
  if (v === 'create') return true;
  throw new EsError(400, 'illegal_argument_exception', `opType must be 'create' or 'index', found: [${v}]`);
}

async function indexDoc(req: RestRequest, ctx: EngineContext, givenId: string | undefined, create: boolean): Promise<RestResponse> {
  if (givenId !== undefined) validateId(givenId);
  // ES's POST /{index}/_doc (an id it makes) is a create unless op_type says otherwise
  const autoCreate = givenId === undefined && req.params.get('op_type') === null;
  const params: WriteParams = { ...writeParams(req.params), create: create || opType(req) || autoCreate };
  let text = req.body;
  let source = await documentSourceApart(text);
  let index = req.pathParams.index;
  let id = givenId;
  await processorsWarmingUp();
  const ingested = ingestForWrite(ctx.indices, ctx.ingestPipelines, req.params.get('pipeline') ?? undefined, { index, id, routing: params.routing, source, text });
  if (ingested?.kind === 'failed') throw ingested.error;
  if (ingested?.kind === 'dropped') return { status: 200, body: droppedResponse(index, id ?? generateId()) };
  if (ingested) {
    ({ index, source } = ingested);
    id = ingested.id;
    params.routing = ingested.routing;
    text = jsonTextKeepingIntegers(source, text, ...ingested.pipelineTexts);
    if (id !== undefined) validateId(id);
  }
  // A write without an id is a create, as in ES (what lets `POST /{data-stream}/_doc` append).
  const intent = { op: params.create || id === undefined ? 'create' as const : 'index' as const, conditional: params.ifSeqNo !== undefined };
  const { handle, writes } = ctx.indices.writeTarget(index, booleanParam(req.params, 'require_alias', false), intent);
  // An index this write creates is durable before the document is prepared (a time slice at a
  // time: other writes to the new index may be committed meanwhile).
  if (writes.length) await ctx.indices.commit([], writes);
  const docId = id ?? generateId();
  checkRoutingGiven(handle, docId, params.routing);
  await awaitActiveShards(handle, req.params, shardWriteDescription(handle.name, 'index', docId, text));
  const prepared = await handle.indexDocumentCooperatively(docId, source, text, params);
  await ctx.indices.commit([prepared]);
  return { status: prepared.status, body: withForcedRefresh(req, prepared.body) };
}

/** What Elasticsearch answers for a document a pipeline dropped: a no-op that touched no shard. */
export function droppedResponse(index: string, id: string): JsonObject {
  return { _index: index, _id: id, _version: -3, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 } };
}

/** A write response with `forced_refresh: true` when the request asked for `refresh=true`. */
export function withForcedRefresh(req: RestRequest, body: JsonObject): JsonObject {
  return forcedRefresh(req.params) ? { ...body, forced_refresh: true } : body;
}

/** Whether an index keeps `_source` for reads (`"_source": {"enabled": false}` turns it off). */
export function sourceEnabled(handle: IndexHandle): boolean {
  const s = handle.mappings._source;
  return !(isPlainObject(s) && (s.enabled === false || s.enabled === 'false'));
}

/** The live document a read with this routing reaches: ES only looks in the shard the routing selects. */
export function reachableDocument(handle: IndexHandle, id: string, routing: string | undefined): LiveDocument | undefined {
  const doc = handle.getCounted(id);
  if (!doc || !reachesDocument(handle.meta.settings, id, doc.routing, routing)) return undefined;
  return doc;
}

export interface ReadOptions {
  routing?: string;
  /** `stored_fields`: the fields to return under `fields`; turns `_source` off unless it names `_source`. */
  storedFields?: string[];
  /** `version`: the document is read only at this version (a 409 otherwise), whatever the `version_type`. */
  version?: number;
}

/**
 * A document read at a given version (`version`, with any `version_type`): a found document of
 * another version is a 409, as Elasticsearch's VersionType.isVersionConflictForReads says for every
 * type; a missing document stays missing.
 */
function readableDocument(handle: IndexHandle, id: string, opts: ReadOptions): LiveDocument | undefined {
  checkRoutingGiven(handle, id, opts.routing);
  const doc = reachableDocument(handle, id, opts.routing);
  if (doc && opts.version !== undefined && doc.version !== opts.version) {
    throw versionConflict(handle, id, `current version [${doc.version}] is different than the one provided [${opts.version}]`);
  }
  return doc;
}

/** `version` and `version_type` of a read, from the URL (the type is checked, and means the same for every read). */
function readVersion(params: ParamReader): number | undefined {
  versionType(params.get('version_type') ?? undefined);
  return integerParam(params, 'version');
}

/** The document read response, as GET /{index}/_doc/{id} and _mget give it. */
export function getResponse(handle: IndexHandle, id: string, filter: SourceFilter, opts: ReadOptions = {}): { found: boolean; body: JsonObject } {
  const doc = readableDocument(handle, id, opts);
  if (!doc) return { found: false, body: { _index: handle.name, _type: '_doc', _id: id, found: false } };
  const body: JsonObject = {
    _index: handle.name, _type: '_doc', _id: id, _version: doc.version, _seq_no: doc.seqNo, _primary_term: doc.primaryTerm,
  };
  if (doc.routing !== undefined) body._routing = doc.routing;
  body.found = true;
  let sourceFilter = filter;
  if (opts.storedFields) {
    const fields = storedFieldValues(handle.mappings, doc.source, opts.storedFields, handle.registry);
    if (fields) body.fields = fields;
    if (!opts.storedFields.includes('_source') && filter === FETCH_DEFAULT) sourceFilter = { fetch: false, includes: [], excludes: [] };
  }
  const shown = shownSource(doc);
  const source = sourceEnabled(handle) ? filterSource(shown, sourceFilter) : undefined;
  if (source !== undefined) body._source = source;
  if (shown !== doc.source) holdingBigInts(body);
  return { found: true, body };
}

/** The source filter of a read: the URL's, or FETCH_DEFAULT (identity-compared) when it says nothing. */
const FETCH_DEFAULT: SourceFilter = { fetch: true, includes: [], excludes: [] };

function hasSourceParams(params: ParamReader): boolean {
  return ['_source', '_source_includes', '_source_excludes', '_source_include', '_source_exclude'].some((p) => params.has(p));
}

function readFilter(params: ParamReader): SourceFilter {
  return hasSourceParams(params) ? sourceFilterFromParams(params) : FETCH_DEFAULT;
}

function getDoc(req: RestRequest, ctx: EngineContext): RestResponse {
  const handle = ctx.indices.readTarget(req.pathParams.index);
  handle.ensureOpen();
  const { found, body } = getResponse(handle, req.pathParams.id, readFilter(req.params), {
    routing: req.params.get('routing') ?? undefined,
    storedFields: storedFieldsList(req.params.get('stored_fields') ?? undefined),
    version: readVersion(req.params),
  });
  return { status: found ? 200 : 404, body: req.method === 'HEAD' ? undefined : body };
}

function getSource(req: RestRequest, ctx: EngineContext): RestResponse {
  const handle = ctx.indices.readTarget(req.pathParams.index);
  handle.ensureOpen();
  const id = req.pathParams.id;
  const doc = readableDocument(handle, id, { routing: req.params.get('routing') ?? undefined, version: readVersion(req.params) });
  if (!doc) {
    throw new EsError(404, 'resource_not_found_exception', `Document not found [${handle.name}]/[${id}]`);
  }
  if (!sourceEnabled(handle)) throw new EsError(404, 'resource_not_found_exception', `Source not found [${handle.name}]/[${id}]`);
  if (req.method === 'HEAD') return { status: 200 };
  const shown = shownSource(doc);
  const body = filterSource(shown, sourceFilterFromParams(req.params)) ?? {};
  return { status: 200, body: shown === doc.source ? body : holdingBigInts(body) };
}

async function deleteDoc(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const handle = ctx.indices.readTarget(req.pathParams.index, true);
  const id = req.pathParams.id;
  const params = writeParams(req.params);
  checkRoutingGiven(handle, id, params.routing);
  const live = handle.isOpen ? handle.get(id) : undefined;
  if (live && !reachesDocument(handle.meta.settings, id, live.routing, params.routing)) {
    // The routing selects a shard without this document: ES finds nothing there to delete.
    const replicas = Number(handle.meta.settings['index.number_of_replicas'] ?? '1');
    return {
      status: 404,
      body: withForcedRefresh(req, {
        _index: handle.name, _type: '_doc', _id: id, _version: 1, result: 'not_found',
        _shards: { total: 1 + replicas, successful: 1, failed: 0 }, _seq_no: 0, _primary_term: live.primaryTerm,
      }),
    };
  }
  await awaitActiveShards(handle, req.params, shardWriteDescription(handle.name, 'delete', id));
  const prepared = handle.delete(id, params);
  await ctx.indices.commit([prepared]);
  return { status: prepared.status, body: withForcedRefresh(req, prepared.body) };
}

const UPDATE_KEYS = new Set(['doc', 'upsert', 'doc_as_upsert', 'detect_noop', 'scripted_upsert', '_source', 'script']);

/** An update body, validated: a partial document or a script, with what to do when the document is missing. */
export interface ParsedUpdate {
  doc?: JsonObject;
  upsert?: JsonObject;
  docAsUpsert?: boolean;
  detectNoop?: boolean;
  source?: unknown;
  script?: ScriptSpec;
  scriptedUpsert?: boolean;
}

/** The update body → the handle's update request; throws ES's 400s. */
export function parseUpdateBody(body: JsonObject): ParsedUpdate {
  for (const k of Object.keys(body)) {
    if (!UPDATE_KEYS.has(k)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [UpdateRequest] unknown field [${k}]${didYouMean(k, UPDATE_KEYS)}`);
  }
  if (body.doc !== undefined && !isPlainObject(body.doc)) throw new EsError(400, 'x_content_parse_exception', '[1:8] [UpdateRequest] failed to parse field [doc]');
  if (body.upsert !== undefined && !isPlainObject(body.upsert)) throw new EsError(400, 'x_content_parse_exception', '[1:11] [UpdateRequest] failed to parse field [upsert]');
  const script = body.script === undefined || body.script === null ? undefined : parseScriptSpec(body.script);
  const problems: string[] = [];
  if (script && body.doc !== undefined) problems.push("can't provide both script and doc");
  if (!script && body.doc === undefined && body.upsert === undefined) problems.push('script or doc is missing');
  if (body.doc_as_upsert === true && body.doc === undefined && script) problems.push('doc must be specified if doc_as_upsert is enabled');
  if (problems.length) throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
  return {
    doc: body.doc as JsonObject | undefined,
    upsert: body.upsert as JsonObject | undefined,
    docAsUpsert: body.doc_as_upsert === true,
    detectNoop: body.detect_noop !== false,
    source: body._source,
    script,
    scriptedUpsert: body.scripted_upsert === true,
  };
}

/** A parsed update as the handle runs it: a script compiled (once) into the handle's update callback. */
const UPDATE_ACTION = 'indices:data/write/update';

export function toUpdateRequest(update: ParsedUpdate, ctx: EngineContext, text?: string): UpdateRequest {
  const { script: spec, ...parsed } = update;
  const rest = text === undefined ? parsed : { ...parsed, text };
  // under field rules: a script reads (and may copy) the hidden fields; a partial document writing one tells by `noop` what it held
  const fields = ctx.access?.fields;
  if (fields && spec) throw ctx.access!.fieldRefusal(UPDATE_ACTION, { member: 'script', why: 'reads any field through a script' });
  const hidden = fields && update.doc !== undefined ? fields.hiddenIn(update.doc) : undefined;
  if (hidden) throw ctx.access!.fieldRefusal(UPDATE_ACTION, { field: hidden });
  if (!spec) return rest;
  const resolved = resolveScript(spec, ctx.storedScripts, { context: 'update' });
  const compiled = compileScript(resolved.source, UPDATE_CONTEXT, resolved.name);
  const params = fromJson(resolved.params);
  return {
    ...rest,
    script: (input) => runUpdateScript(compiled, params, input.op === 'create' ? 'upsert' : 'update', input),
  };
}

/**
 * The source filter of an update's `get`; none → no `get` in the response. A single `_update`
 * takes the body's `_source` over the URL's; a bulk update takes its action line's `_source`,
 * else the URL's, over the body's (ES parses the body first and then applies those).
 */
export function updateSourceFilter(bodySource: unknown, params: ParamReader, bulkAction?: { source: unknown }): SourceFilter | undefined {
  if (bulkAction) {
    if (bulkAction.source !== undefined) return sourceFilterFromBody(bulkAction.source);
    if (hasSourceParams(params)) return sourceFilterFromParams(params);
    return bodySource === undefined ? undefined : sourceFilterFromBody(bodySource);
  }
  if (bodySource !== undefined) return sourceFilterFromBody(bodySource);
  if (hasSourceParams(params)) return sourceFilterFromParams(params);
  return undefined;
}

/** The `get` member of an update response (ES's GetResult without _index/_id/_version). */
export function updateGetResult(handle: IndexHandle, id: string, filter: SourceFilter | undefined): JsonObject | undefined {
  if (!filter?.fetch) return undefined;
  const doc = handle.get(id);
  if (!doc) return undefined;
  const get: JsonObject = { _seq_no: doc.seqNo, _primary_term: doc.primaryTerm, found: true };
  if (doc.routing !== undefined) get._routing = doc.routing;
  const source = filterSource(doc.source, filter);
  if (source !== undefined) get._source = source;
  return get;
}

async function updateDoc(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.id;
  validateId(id);
  const update = parseUpdateBody(requireBody(req));
  const params = writeParams(req.params);
  const { handle, writes } = ctx.indices.writeTarget(req.pathParams.index, booleanParam(req.params, 'require_alias', false), { op: 'update' });
  checkRoutingGiven(handle, id, params.routing);
  const request = toUpdateRequest(update, ctx, req.body);
  const piped = await upsertThroughPipelines(ctx, handle, id, update, params, undefined);
  if (piped?.kind === 'dropped') {
    if (writes.length) await ctx.indices.commit([], writes);
    return { status: 200, body: piped.body };
  }
  if (piped) {
    await ctx.indices.commit([piped.prepared], [...writes, ...piped.writes]);
    const body = withForcedRefresh(req, { ...piped.prepared.body });
    const get = updateGetResult(piped.handle, piped.id, updateSourceFilter(update.source, req.params));
    if (get) body.get = get;
    return { status: piped.prepared.status, body };
  }
  if (handle.isOpen && !update.upsert && !(update.docAsUpsert && update.doc)) {
    const live = handle.get(id);
    if (live && !reachesDocument(handle.meta.settings, id, live.routing, params.routing)) {
      throw new EsError(404, 'document_missing_exception', `[${id}]: document missing`, { index_uuid: handle.uuid, shard: '0', index: handle.name });
    }
  }
  const prepared = handle.update(id, request, params);
  await ctx.indices.commit([prepared], writes);
  const body = withForcedRefresh(req, { ...prepared.body });
  const get = updateGetResult(handle, id, updateSourceFilter(update.source, req.params));
  if (get) body.get = get;
  return { status: prepared.status, body };
}

/** An update's upsert as ingest pipelines made it: dropped by one, or a document to create (its index's creation writes beside it). */
export type PipedUpsert =
  | { kind: 'dropped'; body: JsonObject }
  | { kind: 'written'; prepared: PreparedWrite; handle: IndexHandle; id: string; writes: StoreWrite[] };

/**
 * An update whose upsert creates the document, into an index with a default or final pipeline (or
 * given a request pipeline, a `_bulk`'s or its item's): the upsert document (`doc` with
 * `doc_as_upsert`) is prepared as an index request, through those pipelines, as Elasticsearch's
 * update turns its upsert into an index request that ingest runs — the request's `pipeline` on
 * `upsert` only, as its bulk parser gives it to the update's upsert request — and the final
 * `_index` checked where it is written, as any write's. Undefined when the update runs as one: the
 * document exists, no pipeline applies, or the upsert is scripted. The caller commits.
 */
export async function upsertThroughPipelines(
  ctx: EngineContext, handle: IndexHandle, id: string, update: ParsedUpdate, params: WriteParams, requestPipeline: string | undefined, slice?: { pause(): Promise<void> },
): Promise<PipedUpsert | undefined> {
  const asDoc = update.docAsUpsert && update.doc !== undefined;
  const upsert = asDoc ? update.doc : update.upsert;
  if (!upsert || update.scriptedUpsert || !handle.isOpen || handle.get(id)) return undefined;
  const text = JSON.stringify(upsert);
  await processorsWarmingUp();
  const pipeline = asDoc ? undefined : requestPipeline;
  const ingested = ingestForWrite(ctx.indices, ctx.ingestPipelines, pipeline, { index: handle.name, id, routing: params.routing, source: JSON.parse(text) as JsonObject, text });
  if (!ingested) return undefined;
  if (ingested.kind === 'failed') throw ingested.error;
  if (ingested.kind === 'dropped') return { kind: 'dropped', body: droppedResponse(handle.name, id) };
  const docId = ingested.id ?? id;
  validateId(docId);
  const target = ingested.index === handle.name ? { handle, writes: [] } : ctx.indices.writeTarget(ingested.index, false, { op: 'create', conditional: false });
  checkRoutingGiven(target.handle, docId, ingested.routing);
  const source = jsonTextKeepingIntegers(ingested.source, text, ...ingested.pipelineTexts);
  const prepared = await target.handle.indexDocumentCooperatively(docId, ingested.source, source, { ...params, routing: ingested.routing, create: true }, slice);
  return { kind: 'written', prepared, handle: target.handle, id: docId, writes: target.writes };
}

const MGET_DOC_KEYS = new Set(['_index', '_id', 'routing', 'stored_fields', '_source', 'version', 'version_type']);

async function mget(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  const defaultIndex = req.pathParams.index;
  const baseFilter = readFilter(req.params);
  const baseStored = storedFieldsList(req.params.get('stored_fields') ?? undefined);
  const baseRouting = req.params.get('routing') ?? undefined;
  let specs: JsonObject[];
  if (Array.isArray(body.docs)) specs = body.docs.map((d) => (isPlainObject(d) ? d : {}));
  else if (Array.isArray(body.ids)) specs = body.ids.map((id) => ({ _id: id }));
  else throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no documents to get;');
  for (const s of specs) {
    for (const k of Object.keys(s)) {
      if (!MGET_DOC_KEYS.has(k)) throw new EsError(400, 'parse_exception', `failed to parse multi get request. unknown field [${k}]`);
    }
  }
  const problems: string[] = [];
  specs.forEach((s, i) => {
    if (s._index === undefined && defaultIndex === undefined) problems.push(`index is missing for doc ${i}`);
    if (s._id === undefined || s._id === null || s._id === '') problems.push(`id is missing for doc ${i}`);
  });
  if (!specs.length) problems.push('no documents to get');
  if (problems.length) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
  }
  const docs = specs.map((s) => {
    const index = String(s._index ?? defaultIndex);
    const id = String(s._id);
    try {
      const handle = ctx.indices.readTarget(index);
      handle.ensureOpen();
      const filter = s._source !== undefined ? sourceFilterFromBody(s._source) : baseFilter;
      const storedFields = s.stored_fields !== undefined ? storedFieldsList(s.stored_fields) : baseStored;
      const routing = s.routing !== undefined && s.routing !== null ? String(s.routing) : baseRouting;
      versionType(s.version_type);
      const version = s.version === undefined || s.version === null ? undefined : Number(s.version);
      return getResponse(handle, id, filter, { routing, storedFields, version }).body;
    } catch (e) {
      // ES 8 failure items carry no _type.
      const err = toEsError(e);
      return { _index: index, _id: id, error: errorBody(err).error };
    }
  });
  return { status: 200, body: { docs } };
}

function realtimeCheck(req: RestRequest): void {
  booleanParam(req.params, 'realtime', true);
  checkRefresh(req.params);
}

export const documentRoutes: Route[] = [
  // `/{index}/_doc` has no `{id}`: the id is generated
  { id: 'index', handler: (req, ctx) => indexDoc(req, ctx, req.pathParams.id, false) },
  { id: 'create', handler: (req, ctx) => indexDoc(req, ctx, req.pathParams.id, true) },
  { id: 'get', handler: (req, ctx) => (realtimeCheck(req), getDoc(req, ctx)) },
  { id: 'delete', handler: deleteDoc },
  { id: 'get_source', handler: (req, ctx) => (realtimeCheck(req), getSource(req, ctx)) },
  { id: 'update', handler: updateDoc },
  { id: 'mget', handler: mget },
];

