import { EsError } from '../../../../errors/index.js';
import { parseRolloverConditions, rollover, TIMESTAMP_FIELD, type DataStreamMetadata } from '../../data-streams/index.js';
import { isPlainObject, type IndexHandle, type JsonObject } from '../../indices/index.js';
import { parseExpandWildcards, type WildcardStates } from '../../indices/resolve.js';
import { requestBody, requireBody } from '../body.js';
import { ByteSize } from '../cat-table.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { bytesOf } from './cat.js';
import { healthOf } from './cluster.js';

const ACK: RestResponse = { status: 200, body: { acknowledged: true } };
const OPEN: WildcardStates = { open: true, closed: false, hidden: false };

/** `expand_wildcards` for data streams: `open`/`closed` reach visible streams, `hidden`/`all` hidden ones too. */
function streamStates(req: RestRequest): WildcardStates {
  try {
    const s = parseExpandWildcards(req.params.get('expand_wildcards') ?? undefined, OPEN);
    return { open: s.open || s.closed, closed: s.closed, hidden: s.hidden };
  } catch (e) {
    throw new EsError(400, 'illegal_argument_exception', (e as Error).message);
  }
}

async function createDataStream(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  ctx.access?.require([req.pathParams.name], 'write', 'indices:admin/data_stream/create');
  await ctx.indices.dataStreams.create(req.pathParams.name);
  return ACK;
}

/** ILM is not part of the engine: a backing index names the policy its settings carry, and nothing manages it. */
function managementOf(h: IndexHandle | undefined): JsonObject {
  const policy = h?.meta.settings['index.lifecycle.name'];
  return { ...(typeof policy === 'string' && policy !== '' ? { ilm_policy: policy } : {}), prefer_ilm: true, managed_by: 'Unmanaged' };
}

/** One data stream as `GET /_data_stream` shows it. */
function streamView(ctx: EngineContext, stream: DataStreamMetadata): JsonObject {
  const handles = stream.indices.map((b) => ctx.indices.get(b.index_name));
  const write = handles[handles.length - 1];
  const view: JsonObject = {
    name: stream.name,
    timestamp_field: { name: stream.timestampField ?? TIMESTAMP_FIELD },
    indices: stream.indices.map((b, i) => ({ index_name: b.index_name, index_uuid: b.index_uuid, ...managementOf(handles[i]) })),
    generation: stream.generation,
  };
  if (stream._meta) view._meta = stream._meta;
  const policy = managementOf(write).ilm_policy;
  Object.assign(view, {
    status: healthOf(handles.filter((h): h is IndexHandle => h !== undefined && h.isOpen)).status.toUpperCase(),
    template: stream.template,
    ...(policy !== undefined ? { ilm_policy: policy } : {}),
    next_generation_managed_by: 'Unmanaged',
    prefer_ilm: true,
    hidden: stream.hidden,
    system: false,
    allow_custom_routing: stream.allowCustomRouting,
    replicated: false,
    rollover_on_write: false,
  });
  return view;
}

function getDataStreams(req: RestRequest, ctx: EngineContext): RestResponse {
  const streams = ctx.indices.dataStreams.select(req.pathParams.name, streamStates(req));
  return { status: 200, body: { data_streams: streams.map((s) => streamView(ctx, s)) } };
}

async function deleteDataStreams(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  if (ctx.access) {
    const streams = ctx.indices.dataStreams.select(req.pathParams.name, streamStates(req));
    ctx.access.require(streams.map((s) => s.name), 'delete', 'indices:admin/data_stream/delete');
  }
  await ctx.indices.dataStreams.delete(req.pathParams.name, streamStates(req));
  return ACK;
}

/** The newest timestamp (`@timestamp`, or the stream's own field) among a backing index's documents, in epoch milliseconds (0 when it has none). */
function maximumTimestamp(h: IndexHandle, field = TIMESTAMP_FIELD): number {
  if (!h.isOpen) return 0;
  let max = 0;
  for (const id of h.liveIds()) {
    const value = h.get(id)?.source[field];
    const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
    if (Number.isFinite(ms) && ms > max) max = ms;
  }
  return max;
}

/** `GET /_data_stream/_stats`, `GET /_data_stream/{name}/_stats`: backing indices, store size, newest timestamp. */
function dataStreamStats(req: RestRequest, ctx: EngineContext): RestResponse {
  const human = booleanParam(req.params, 'human', false);
  const streams = ctx.indices.dataStreams.select(req.pathParams.name, streamStates(req));
  let total = 0;
  let successful = 0;
  let backing = 0;
  let totalBytes = 0;
  const rows = streams.map((s) => {
    const handles = ctx.indices.dataStreams.backingHandles(s);
    let bytes = 0;
    let maxTs = 0;
    for (const h of handles) {
      const shards = Number(h.meta.settings['index.number_of_shards'] ?? '1');
      total += shards * (1 + Number(h.meta.settings['index.number_of_replicas'] ?? '1'));
      successful += h.isOpen ? shards : 0;
      bytes += bytesOf(h);
      maxTs = Math.max(maxTs, maximumTimestamp(h, s.timestampField));
    }
    backing += handles.length;
    totalBytes += bytes;
    return {
      data_stream: s.name, backing_indices: handles.length,
      ...(human ? { store_size: String(new ByteSize(bytes)) } : {}), store_size_bytes: bytes, maximum_timestamp: maxTs,
    };
  });
  return {
    status: 200,
    body: {
      _shards: { total, successful, failed: 0 },
      data_stream_count: streams.length,
      backing_indices: backing,
      ...(human ? { total_store_size: String(new ByteSize(totalBytes)) } : {}),
      total_store_size_bytes: totalBytes,
      data_streams: rows,
    },
  };
}

const MODIFY_ACTIONS = new Set(['add_backing_index', 'remove_backing_index']);

/** `POST /_data_stream/_modify`: `{"actions":[{"add_backing_index"|"remove_backing_index":{"data_stream","index"}}]}`, all or none. */
async function modifyDataStreams(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  for (const k of Object.keys(body)) if (k !== 'actions') throw new EsError(400, 'x_content_parse_exception', `[1:2] [data_stream_actions] unknown field [${k}]`);
  if (!Array.isArray(body.actions) || body.actions.length === 0) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: must specify at least one data stream modification action;');
  }
  const actions = body.actions.map((a) => {
    const entries = isPlainObject(a) ? Object.entries(a) : [];
    if (entries.length !== 1 || !MODIFY_ACTIONS.has(entries[0][0]) || !isPlainObject(entries[0][1])) {
      throw new EsError(400, 'x_content_parse_exception', '[1:2] [data_stream_actions] failed to parse field [actions]');
    }
    const [op, spec] = entries[0] as ['add_backing_index' | 'remove_backing_index', JsonObject];
    if (typeof spec.data_stream !== 'string' || typeof spec.index !== 'string') {
      throw new EsError(400, 'x_content_parse_exception', `[1:2] [${op}] requires both [data_stream] and [index]`);
    }
    return { op, dataStream: spec.data_stream, index: spec.index };
  });
  await ctx.indices.dataStreams.modify(actions);
  return ACK;
}

const ROLLOVER_BODY = new Set(['conditions', 'settings', 'mappings', 'aliases']);

async function rolloverTarget(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requestBody(req) ?? {};
  for (const k of Object.keys(body)) if (!ROLLOVER_BODY.has(k)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [rollover] unknown field [${k}]`);
  const { conditions, ...createBody } = body;
  const { mappings } = createBody;
  // RolloverRequest's parser: Elasticsearch 8 takes no type around the mappings (its V7 message: rest-compat)
  if (isPlainObject(mappings) && Object.keys(mappings).length === 1 && '_doc' in mappings) {
    throw new EsError(400, 'x_content_parse_exception', '[rollover] failed to parse field [mappings]', {
      caused_by: { type: 'illegal_argument_exception', reason: 'The mapping definition cannot be nested under a type' },
    });
  }
  const answer = await rollover(ctx.indices, {
    target: req.pathParams.index,
    newIndex: req.pathParams.new_index,
    conditions: parseRolloverConditions(conditions),
    dryRun: booleanParam(req.params, 'dry_run', false),
    createBody: createBody as JsonObject,
    sizeOf: bytesOf,
  });
  return { status: 200, body: answer };
}

export const dataStreamRoutes: Route[] = [
  { id: 'indices.create_data_stream', handler: createDataStream },
  { id: 'indices.get_data_stream', handler: getDataStreams },
  { id: 'indices.delete_data_stream', handler: deleteDataStreams },
  { id: 'indices.data_streams_stats', handler: dataStreamStats },
  { id: 'indices.modify_data_stream', handler: modifyDataStreams },
  { id: 'indices.rollover', handler: rolloverTarget },
];
