import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { isPlainObject, type IndexHandle, type JsonObject, type WriteParams } from '../../indices/index.js';
import { filterSource, sourceFilterFromBody, sourceFilterFromParams, type SourceFilter } from '../../search/index.js';
import { documentSource, requireBody } from '../body.js';
import { booleanParam, checkRefresh, generateId, validateId, writeParams } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

const READ_PARAMS = ['preference', 'realtime', 'refresh', 'routing', '_source', '_source_excludes', '_source_includes', '_source_exclude', '_source_include', 'stored_fields', 'version', 'version_type'];
const WRITE_PARAMS = ['if_seq_no', 'if_primary_term', 'pipeline', 'refresh', 'routing', 'timeout', 'version', 'version_type', 'wait_for_active_shards', 'require_alias', 'require_data_stream', 'op_type'];

function opType(req: RestRequest): boolean {
  const v = req.params.get('op_type');
  if (v === null || v === 'index') return false;
  if (v === 'create') return true;
  throw new EsError(400, 'illegal_argument_exception', `opType must be 'create' or 'index', found: [${v}]`);
}

async function indexDoc(req: RestRequest, ctx: EngineContext, id: string, create: boolean): Promise<RestResponse> {
  validateId(id);
  const params: WriteParams = { ...writeParams(req.params), create: create || opType(req) };
  const text = req.body.toString('utf8');
  const source = documentSource(text);
  const { handle, writes } = ctx.indices.writeTarget(req.pathParams.index);
  const prepared = handle.indexDocument(id, source, text, params);
  await ctx.indices.commit([prepared], writes);
  return { status: prepared.status, body: prepared.body };
}

/** The document read response, as GET /{index}/_doc/{id} and _mget give it. */
export function getResponse(handle: IndexHandle, id: string, filter: SourceFilter): { found: boolean; body: JsonObject } {
  const doc = handle.get(id);
  if (!doc) return { found: false, body: { _index: handle.name, _type: '_doc', _id: id, found: false } };
  const body: JsonObject = {
    _index: handle.name, _type: '_doc', _id: id, _version: doc.version, _seq_no: doc.seqNo, _primary_term: doc.primaryTerm,
  };
  if (doc.routing !== undefined) body._routing = doc.routing;
  body.found = true;
  const source = filterSource(doc.source, filter);
  if (source !== undefined) body._source = source;
  return { found: true, body };
}

function getDoc(req: RestRequest, ctx: EngineContext): RestResponse {
  const handle = ctx.indices.readTarget(req.pathParams.index);
  handle.ensureOpen();
  const { found, body } = getResponse(handle, req.pathParams.id, sourceFilterFromParams(req.params));
  return { status: found ? 200 : 404, body: req.method === 'HEAD' ? undefined : body };
}

function getSource(req: RestRequest, ctx: EngineContext): RestResponse {
  const handle = ctx.indices.readTarget(req.pathParams.index);
  handle.ensureOpen();
  const id = req.pathParams.id;
  const doc = handle.get(id);
  if (!doc) {
    throw new EsError(404, 'resource_not_found_exception', `Document not found [${handle.name}]/[${id}]`);
  }
  if (req.method === 'HEAD') return { status: 200 };
  return { status: 200, body: filterSource(doc.source, sourceFilterFromParams(req.params)) ?? {} };
}

async function deleteDoc(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const handle = ctx.indices.readTarget(req.pathParams.index);
  const prepared = handle.delete(req.pathParams.id, writeParams(req.params));
  await ctx.indices.commit([prepared]);
  return { status: prepared.status, body: prepared.body };
}

const UPDATE_KEYS = new Set(['doc', 'upsert', 'doc_as_upsert', 'detect_noop', 'scripted_upsert', '_source', 'script']);

/** The update body → the handle's update request; throws ES's 400s. */
export function parseUpdateBody(body: JsonObject): { doc?: JsonObject; upsert?: JsonObject; docAsUpsert?: boolean; detectNoop?: boolean; source?: unknown } {
  for (const k of Object.keys(body)) {
    if (!UPDATE_KEYS.has(k)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [UpdateRequest] unknown field [${k}]`);
  }
  if (body.script !== undefined) {
    throw new EsError(400, 'illegal_argument_exception', 'script updates are not supported by the embedded engine yet');
  }
  if (body.doc !== undefined && !isPlainObject(body.doc)) throw new EsError(400, 'x_content_parse_exception', '[1:8] [UpdateRequest] failed to parse field [doc]');
  if (body.upsert !== undefined && !isPlainObject(body.upsert)) throw new EsError(400, 'x_content_parse_exception', '[1:11] [UpdateRequest] failed to parse field [upsert]');
  if (body.doc === undefined && body.upsert === undefined) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: script or doc is missing;');
  }
  return {
    doc: body.doc as JsonObject | undefined,
    upsert: body.upsert as JsonObject | undefined,
    docAsUpsert: body.doc_as_upsert === true,
    detectNoop: body.detect_noop !== false,
    source: body._source,
  };
}

async function updateDoc(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const id = req.pathParams.id;
  validateId(id);
  const update = parseUpdateBody(requireBody(req));
  const params = writeParams(req.params);
  const { handle, writes } = ctx.indices.writeTarget(req.pathParams.index);
  const prepared = handle.update(id, update, params);
  await ctx.indices.commit([prepared], writes);
  let filter = sourceFilterFromParams(req.params, update.source === undefined ? { fetch: false, includes: [], excludes: [] } : sourceFilterFromBody(update.source));
  if (!req.params.has('_source') && !req.params.has('_source_includes') && !req.params.has('_source_excludes') && update.source === undefined) filter = { fetch: false, includes: [], excludes: [] };
  const body: JsonObject = { ...prepared.body };
  if (filter.fetch) {
    const doc = handle.get(id);
    if (doc) body.get = { _seq_no: doc.seqNo, _primary_term: doc.primaryTerm, found: true, _source: filterSource(doc.source, filter) };
  }
  return { status: prepared.status, body };
}

async function mget(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  const defaultIndex = req.pathParams.index;
  const baseFilter = sourceFilterFromParams(req.params);
  let specs: JsonObject[];
  if (Array.isArray(body.docs)) specs = body.docs.map((d) => (isPlainObject(d) ? d : {}));
  else if (Array.isArray(body.ids)) specs = body.ids.map((id) => ({ _id: id }));
  else throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no documents to get;');
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
      return getResponse(handle, id, filter).body;
    } catch (e) {
      const err = toEsError(e);
      return { _index: index, _type: '_doc', _id: id, error: errorBody(err).error };
    }
  });
  return { status: 200, body: { docs } };
}

function realtimeCheck(req: RestRequest): void {
  booleanParam(req.params, 'realtime', true);
  checkRefresh(req.params);
}

export const documentRoutes: Route[] = [
  { methods: ['PUT', 'POST'], pattern: '/{index}/_doc/{id}', params: WRITE_PARAMS, handler: (req, ctx) => indexDoc(req, ctx, req.pathParams.id, false) },
  { methods: ['POST'], pattern: '/{index}/_doc', params: WRITE_PARAMS, handler: (req, ctx) => indexDoc(req, ctx, generateId(), false) },
  { methods: ['PUT', 'POST'], pattern: '/{index}/_create/{id}', params: WRITE_PARAMS.filter((p) => p !== 'op_type'), handler: (req, ctx) => indexDoc(req, ctx, req.pathParams.id, true) },
  { methods: ['GET', 'HEAD'], pattern: '/{index}/_doc/{id}', params: READ_PARAMS, handler: (req, ctx) => (realtimeCheck(req), getDoc(req, ctx)) },
  { methods: ['DELETE'], pattern: '/{index}/_doc/{id}', params: WRITE_PARAMS.filter((p) => p !== 'op_type' && p !== 'pipeline'), handler: deleteDoc },
  { methods: ['GET', 'HEAD'], pattern: '/{index}/_source/{id}', params: READ_PARAMS, handler: (req, ctx) => (realtimeCheck(req), getSource(req, ctx)) },
  {
    methods: ['POST'], pattern: '/{index}/_update/{id}',
    params: ['if_seq_no', 'if_primary_term', 'lang', 'refresh', 'require_alias', 'retry_on_conflict', 'routing', 'timeout', 'wait_for_active_shards', '_source', '_source_excludes', '_source_includes'],
    handler: updateDoc,
  },
  { methods: ['GET', 'POST'], pattern: '/_mget', params: READ_PARAMS, handler: mget },
  { methods: ['GET', 'POST'], pattern: '/{index}/_mget', params: READ_PARAMS, handler: mget },
];

