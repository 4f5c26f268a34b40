import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { isPlainObject, type IndexHandle, type JsonObject, type PreparedWrite, type WriteParams } from '../../indices/index.js';
import type { StoreWrite } from '../../store/index.js';
import { documentSource, jsonErrorReason } from '../body.js';
import { booleanParam, checkPipeline, checkRefresh, forcedRefresh, generateId, validateId, versionType } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { parseUpdateBody, updateGetResult, updateSourceFilter } from './documents.js';

type Action = 'index' | 'create' | 'update' | 'delete';
const ACTIONS = new Set<Action>(['index', 'create', 'update', 'delete']);
const ACTION_PARAMS = new Set([
  '_index', '_id', 'routing', '_routing', 'if_seq_no', 'if_primary_term', 'version', 'version_type', 'op_type', 'retry_on_conflict',
  'require_alias', 'pipeline', 'dynamic_templates', '_source', 'list_executed_pipelines', 'require_data_stream',
]);

interface BulkItem {
  action: Action;
  index?: string;
  id?: string;
  /** The action line's write parameters; absent when it has none (only `_index` / `_id`). */
  params?: WriteParams;
  requireAlias?: boolean;
  pipeline?: string;
  /** The action line's `_source` (update). */
  source?: unknown;
  /** Source line text (index/create/update). */
  sourceText?: string;
}

function malformed(line: number, detail: string): EsError {
  return new EsError(400, 'illegal_argument_exception', `Malformed action/metadata line [${line}], ${detail}`);
}

function tokenOf(v: unknown): string {
  if (Array.isArray(v)) return 'START_ARRAY';
  if (v === null) return 'VALUE_NULL';
  if (typeof v === 'object') return 'START_OBJECT';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'number') return 'VALUE_NUMBER';
  return 'VALUE_BOOLEAN';
}

/**
 * The action lines clients write most (`{"index":{"_index":"x","_id":"1"}}`, either key optional,
 * no escapes, no spaces), read without a JSON parse; anything else is left to `parseActionLine`.
 */
const SIMPLE_ACTION = /^\{"(index|create|delete|update)":\{(?:"(_index|_id)":"([^"\\]*)")?(?:,"(_index|_id)":"([^"\\]*)")?\}\}\s*$/;

function simpleActionLine(line: string, defaultIndex: string | undefined): BulkItem | undefined {
  const m = SIMPLE_ACTION.exec(line);
  if (!m || (m[2] !== undefined && m[2] === m[4]) || (m[2] === undefined && m[4] !== undefined)) return undefined;
  let index = defaultIndex;
  let id: string | undefined;
  if (m[2] === '_index') index = m[3];
  else if (m[2] === '_id') id = m[3];
  if (m[4] === '_index') index = m[5];
  else if (m[4] === '_id') id = m[5];
  return { action: m[1] as Action, index, id };
}

function parseActionLine(line: string, lineNo: number, defaultIndex: string | undefined): BulkItem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    throw new EsError(400, 'illegal_argument_exception', `Malformed action/metadata line [${lineNo}], ${jsonErrorReason(err, line)}`);
  }
  if (!isPlainObject(parsed)) throw malformed(lineNo, `expected START_OBJECT or END_OBJECT but found [${tokenOf(parsed)}]`);
  const keys = Object.keys(parsed);
  if (keys.length !== 1) {
    throw malformed(lineNo, keys.length ? `expected END_OBJECT but found [FIELD_NAME]` : 'expected FIELD_NAME but found [END_OBJECT]');
  }
  const action = keys[0] as Action;
  if (!ACTIONS.has(action)) throw malformed(lineNo, `expected field [create], [delete], [index] or [update] but found [${keys[0]}]`);
  const meta = parsed[action];
  if (!isPlainObject(meta)) throw malformed(lineNo, `expected START_OBJECT but found [${tokenOf(meta)}]`);
  let plain = true;
  for (const k of Object.keys(meta)) {
    if (!ACTION_PARAMS.has(k)) throw new EsError(400, 'illegal_argument_exception', `Action/metadata line [${lineNo}] contains an unknown parameter [${k}]`);
    if (k !== '_index' && k !== '_id') plain = false;
  }
  const item: BulkItem = {
    action,
    index: meta._index !== undefined ? String(meta._index) : defaultIndex,
    id: meta._id === undefined || meta._id === null ? undefined : String(meta._id),
  };
  if (plain) return item;
  const num = (v: unknown) => (v === undefined || v === null ? undefined : Number(v));
  item.params = {
    ifSeqNo: num(meta.if_seq_no),
    ifPrimaryTerm: num(meta.if_primary_term),
    version: num(meta.version),
    versionType: versionType(meta.version_type),
    routing: meta.routing !== undefined ? String(meta.routing) : meta._routing !== undefined ? String(meta._routing) : undefined,
    create: action === 'create' || meta.op_type === 'create',
  };
  item.requireAlias = meta.require_alias === undefined ? undefined : meta.require_alias === true || meta.require_alias === 'true';
  item.pipeline = meta.pipeline === undefined || meta.pipeline === null ? undefined : String(meta.pipeline);
  item.source = meta._source;
  return item;
}

/** NDJSON → bulk items; a malformed action line fails the whole request, as ES does. */
export function parseBulk(text: string, defaultIndex: string | undefined): BulkItem[] {
  if (text.length && !text.endsWith('\n')) {
    throw new EsError(400, 'illegal_argument_exception', 'The bulk request must be terminated by a newline [\\n]');
  }
  const items: BulkItem[] = [];
  let pos = 0;
  let lineNo = 0;
  // Every line ends with a newline (checked above): lines are cut at each one, without a split of the whole body.
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const line = text.slice(pos, nl);
    pos = nl + 1;
    lineNo++;
    if (!line.trim()) continue;
    const item = simpleActionLine(line, defaultIndex) ?? parseActionLine(line, lineNo, defaultIndex);
    if (item.action !== 'delete') {
      if (pos >= text.length) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: source is missing;');
      const end = text.indexOf('\n', pos);
      item.sourceText = text.slice(pos, end);
      pos = end + 1;
      lineNo++;
    }
    items.push(item);
  }
  const problems: string[] = [];
  if (!items.length) problems.push('no requests added');
  for (const it of items) if (it.index === undefined) problems.push('index is missing');
  for (const it of items) if ((it.action === 'delete' || it.action === 'update') && it.id === undefined) problems.push('id is missing');
  if (problems.length) {
    throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
  }
  return items;
}

/** The key of an item's result: ES names it after the operation, so an `index` with `op_type: create` is a `create`. */
function opName(item: BulkItem): Action {
  return item.action === 'index' && item.params?.create ? 'create' : item.action;
}

function itemError(item: BulkItem, id: string | undefined, err: unknown): JsonObject {
  const e = toEsError(err);
  const { root_cause: _rootCause, ...error } = errorBody(e).error;
  void _rootCause;
  return { _index: item.index, _type: '_doc', _id: id ?? null, status: e.status, error };
}

/**
 * Items are committed to the store in chunks of this many as the request goes: the store's writer
 * thread commits one chunk while this thread prepares the next, and the answer waits for the
 * last one only. (Items are independent, as in Elasticsearch: each chunk is durable and visible
 * on its own.)
 */
const COMMIT_CHUNK = 250;

async function bulk(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  checkRefresh(req.params);
  const items = parseBulk(req.body, req.pathParams.index);
  const prepared: PreparedWrite[] = [];
  const extra: StoreWrite[] = [];
  const results: JsonObject[] = [];
  const defaultRouting = req.params.get('routing') ?? undefined;
  const defaultRequireAlias = booleanParam(req.params, 'require_alias', false);
  const defaultPipeline = req.params.get('pipeline') ?? undefined;
  const refreshed = forcedRefresh(req.params);
  const updateGets: Array<() => void> = [];
  // The parameters of items whose action line has none of its own (nearly all), shared.
  const plainIndex: WriteParams = { routing: defaultRouting, create: false };
  const plainCreate: WriteParams = { routing: defaultRouting, create: true };
  let errors = false;
  let lastTarget: { name: string; requireAlias: boolean; handle: IndexHandle } | undefined;
  const commits: Array<Promise<void>> = [];
  let committed = 0;
  for (const item of items) {
    if (prepared.length - committed >= COMMIT_CHUNK) {
      commits.push(ctx.indices.commit(prepared.slice(committed), extra.splice(0)));
      committed = prepared.length;
    }
    const id = item.id ?? (item.action === 'index' || item.action === 'create' ? generateId() : undefined);
    try {
      // A bulk item reports an empty id as the request's illegal argument, not as a validation failure.
      if (id === '') throw new EsError(400, 'illegal_argument_exception', 'if _id is specified it must not be empty');
      validateId(id!);
      const params = item.params ? { ...item.params, routing: item.params.routing ?? defaultRouting } : item.action === 'create' ? plainCreate : plainIndex;
      let p: PreparedWrite;
      if (item.action === 'delete') {
        p = ctx.indices.readTarget(item.index!).delete(id!, params);
      } else {
        if (item.action !== 'update') checkPipeline(item.pipeline ?? defaultPipeline);
        const requireAlias = item.requireAlias ?? defaultRequireAlias;
        let handle: IndexHandle;
        if (lastTarget && lastTarget.name === item.index && lastTarget.requireAlias === requireAlias) handle = lastTarget.handle;
        else {
          const target = ctx.indices.writeTarget(item.index!, requireAlias);
          for (const w of target.writes) extra.push(w);
          handle = target.handle;
          lastTarget = { name: item.index!, requireAlias, handle };
        }
        if (item.action === 'update') {
          const body = documentSource(item.sourceText!);
          const update = parseUpdateBody(body);
          p = handle.update(id!, update, params);
          const filter = updateSourceFilter(update.source, req.params, { source: item.source });
          if (filter) {
            const result: JsonObject = { ...p.body, status: p.status };
            if (refreshed) result.forced_refresh = true;
            updateGets.push(() => {
              const get = updateGetResult(handle, id!, filter);
              if (get) result.get = get;
            });
            prepared.push(p);
            results.push({ update: result });
            continue;
          }
        } else {
          p = handle.indexDocument(id!, documentSource(item.sourceText!), item.sourceText!, params);
        }
      }
      prepared.push(p);
      // The write's body is its own (made for this write): the item's result is that body with its status.
      const result = p.body;
      result.status = p.status;
      if (refreshed) result.forced_refresh = true;
      results.push({ [opName(item)]: result });
    } catch (err) {
      errors = true;
      results.push({ [opName(item)]: itemError(item, id, err) });
    }
  }
  commits.push(ctx.indices.commit(prepared.slice(committed), extra));
  // Every chunk settles (rolled back or applied) before the answer, which fails if one failed.
  const outcomes = await Promise.allSettled(commits);
  for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
  for (const fill of updateGets) fill();
  return {
    status: 200,
    body: { took: Math.max(0, Math.round(performance.now() - req.started)), errors, items: results },
  };
}

const BULK_PARAMS = ['pipeline', 'refresh', 'routing', 'timeout', 'wait_for_active_shards', 'require_alias', 'require_data_stream', '_source', '_source_excludes', '_source_includes', 'list_executed_pipelines'];

export const bulkRoutes: Route[] = [
  { methods: ['POST', 'PUT'], pattern: '/_bulk', params: BULK_PARAMS, handler: bulk },
  { methods: ['POST', 'PUT'], pattern: '/{index}/_bulk', params: BULK_PARAMS, handler: bulk },
];
