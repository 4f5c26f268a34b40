import { EsError, errorBody, toEsError } from '../../../../errors/index.js';
import { checkRoutingGiven, type IndexHandle, type JsonObject, type PreparedWrite, type WriteParams } from '../../indices/index.js';
import { WorkBudget } from '../../search/work-budget.js';
import type { StoreWrite } from '../../store/index.js';
import { documentSource } from '../body.js';
import { jsonTextKeepingIntegers, readBulkCooperatively, type BulkAction, type BulkEntry } from '../../../../ndjson/index.js';
import { TimeSlice, type ReadableText } from '../../../../cooperative/index.js';
import { booleanParam, checkRefresh, forcedRefresh, generateId, validateId, versionType } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { droppedResponse, parseUpdateBody, toUpdateRequest, updateGetResult, updateSourceFilter, upsertThroughPipelines } from './documents.js';
import { ingestForWrite, processorsWarmingUp } from '../../ingest/index.js';
import { markWrittenDoubles } from '../../painless/index.js';

type Action = BulkAction;

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

/** A read bulk entry (lib/ndjson, the reader the gateway's access check uses too) → the item to run. */
function itemOf(entry: BulkEntry, defaultIndex: string | undefined): BulkItem {
  const { action, meta } = entry;
  const item: BulkItem = {
    action,
    index: entry.index ?? defaultIndex,
    id: meta._id === undefined || meta._id === null ? undefined : String(meta._id),
    sourceText: entry.sourceText,
  };
  let plain = true;
  for (const k in meta) if (k !== '_index' && k !== '_id') plain = false;
  if (plain) return item;
  const num = (v: unknown) => (v === undefined || v === null ? undefined : Number(v));
  item.params = {
    ifSeqNo: num(meta.if_seq_no),
    ifPrimaryTerm: num(meta.if_primary_term),
    version: num(meta.version),
    versionType: versionType(meta.version_type),
    routing: meta.routing !== undefined ? String(meta.routing) : undefined,
    create: action === 'create' || meta.op_type === 'create',
    dynamicTemplates: action === 'index' || action === 'create' ? namedTemplatesOf(meta.dynamic_templates) : undefined,
  };
  item.requireAlias = meta.require_alias === undefined ? undefined : meta.require_alias === true || meta.require_alias === 'true';
  item.pipeline = meta.pipeline === undefined || meta.pipeline === null ? undefined : String(meta.pipeline);
  item.source = meta._source;
  return item;
}

/** An action line's `dynamic_templates` (a field path → a template name; the reader has checked it is an object). */
function namedTemplatesOf(v: unknown): Record<string, string> | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const entries = Object.entries(v as Record<string, unknown>);
  return entries.length ? Object.fromEntries(entries.map(([path, name]) => [path, String(name)])) : undefined;
}

/** Only JSON blanks (read up to the first other character). */
function isBlank(text: ReadableText): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}

/** NDJSON → bulk items; a malformed action line fails the whole request, as ES does. */
export async function parseBulk(text: ReadableText, defaultIndex: string | undefined, read?: readonly BulkEntry[]): Promise<BulkItem[]> {
  // items the caller read (the gateway's classifier) say what the text says: it is not read again
  if (!read && isBlank(text)) throw new EsError(400, 'parse_exception', 'request body is required');
  // read a slice at a time: a body of tens of megabytes does not hold other requests back
  const entries = read ?? (await readBulkCooperatively(text));
  const items: BulkItem[] = [];
  const slice = new TimeSlice();
  for (const e of entries) {
    if (items.length % 256 === 0) await slice.pause();
    items.push(itemOf(e, defaultIndex));
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

export async function bulk(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  checkRefresh(req.params);
  const items = await parseBulk(req.bodyPieces ?? req.body, req.pathParams.index, req.bulk);
  await processorsWarmingUp();
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
  let lastTarget: { name: string; requireAlias: boolean; intent: string; handle: IndexHandle } | undefined;
  const commits: Array<Promise<void>> = [];
  // A chunk's commit is settled by the allSettled before the answer; one that fails while later
  // items are still being prepared (the engine closed under the bulk) is handled from the start.
  const commit = (writes: PreparedWrite[], more: StoreWrite[]) => {
    const c = ctx.indices.commit(writes, more);
    c.catch(() => undefined);
    commits.push(c);
  };
  let committed = 0;
  // Preparing items (parsing, analysis) gives the event loop a turn every slice, so other requests keep moving.
  const budget = new WorkBudget(Infinity);
  for (const item of items) {
    if (prepared.length - committed >= COMMIT_CHUNK) {
      commit(prepared.slice(committed), extra.splice(0));
      committed = prepared.length;
    }
    await budget.pause();
    let id = item.id ?? (item.action === 'index' || item.action === 'create' ? generateId() : undefined);
    try {
      // A bulk item reports an empty id as the request's illegal argument, not as a validation failure.
      if (id === '') throw new EsError(400, 'illegal_argument_exception', 'if _id is specified it must not be empty');
      validateId(id!);
      let params = item.params ? { ...item.params, routing: item.params.routing ?? defaultRouting } : item.action === 'create' ? plainCreate : plainIndex;
      let p: PreparedWrite;
      if (item.action === 'delete') {
        const target = ctx.indices.readTarget(item.index!, true);
        checkRoutingGiven(target, id!, params.routing);
        p = target.delete(id!, params);
      } else {
        let index = item.index!;
        let sourceText = item.sourceText!;
        let source: JsonObject | undefined;
        if (item.action !== 'update') {
          source = documentSource(sourceText);
          const ingested = ingestForWrite(ctx.indices, ctx.ingestPipelines, item.pipeline ?? defaultPipeline, { index, id: item.id, routing: params.routing, source, text: sourceText });
          if (ingested?.kind === 'failed') throw ingested.error;
          if (ingested?.kind === 'dropped') {
            results.push({ [opName(item)]: { ...droppedResponse(index, id!), status: 200 } });
            continue;
          }
          if (ingested) {
            ({ index, source } = ingested);
            if (ingested.id !== undefined) validateId((id = ingested.id));
            params = { ...params, routing: ingested.routing };
            sourceText = jsonTextKeepingIntegers(source, sourceText, ...ingested.pipelineTexts);
          }
        }
        const requireAlias = item.requireAlias ?? defaultRequireAlias;
        // What the target must accept (data streams take `create` only; a bulk `index` without id is no create).
        const op = item.action === 'update' ? 'update' : params.create ? 'create' : 'index';
        const intent = { op, conditional: params.ifSeqNo !== undefined } as const;
        const intentKey = `${op}:${intent.conditional}`;
        let handle: IndexHandle;
        if (lastTarget && lastTarget.name === index && lastTarget.requireAlias === requireAlias && lastTarget.intent === intentKey) handle = lastTarget.handle;
        else {
          const target = ctx.indices.writeTarget(index, requireAlias, intent);
          for (const w of target.writes) extra.push(w);
          handle = target.handle;
          lastTarget = { name: index, requireAlias, intent: intentKey, handle };
        }
        checkRoutingGiven(handle, id!, params.routing);
        if (item.action === 'update') {
          const body = documentSource(item.sourceText!);
          const update = parseUpdateBody(body);
          if (update.script) markWrittenDoubles(body, item.sourceText!);
          const request = toUpdateRequest(update, ctx, item.sourceText);
          // an upsert that creates the document goes through the ingest pipelines, as an index item does
          const piped = await upsertThroughPipelines(ctx, handle, id!, update, params, item.pipeline ?? defaultPipeline, budget);
          if (piped?.kind === 'dropped') {
            results.push({ update: { ...piped.body, status: 200 } });
            continue;
          }
          if (piped) for (const w of piped.writes) extra.push(w);
          p = piped ? piped.prepared : handle.update(id!, request, params);
          const written = piped ? { handle: piped.handle, id: piped.id } : { handle, id: id! };
          const filter = updateSourceFilter(update.source, req.params, { source: item.source });
          if (filter) {
            const result: JsonObject = { ...p.body, status: p.status };
            if (refreshed) result.forced_refresh = true;
            updateGets.push(() => {
              const get = updateGetResult(written.handle, written.id, filter);
              if (get) result.get = get;
            });
            prepared.push(p);
            results.push({ update: result });
            continue;
          }
        } else {
          p = await handle.indexDocumentCooperatively(id!, source!, sourceText, params, budget);
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
  commit(prepared.slice(committed), extra);
  // Every chunk settles (rolled back or applied) before the answer, which fails if one failed.
  const outcomes = await Promise.allSettled(commits);
  for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
  for (const fill of updateGets) fill();
  return {
    status: 200,
    body: { took: Math.max(0, Math.round(performance.now() - req.started)), errors, items: results },
  };
}

export const bulkRoutes: Route[] = [
  { id: 'bulk', handler: bulk },
];
