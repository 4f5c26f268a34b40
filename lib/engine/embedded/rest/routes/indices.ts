import { clearFielddata, clearRequestCache, defaultsFor, humanSettings, nestSettings, type IndexHandle } from '../../indices/index.js';
import { fieldMappings } from '../../mapping/index.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import { EsError } from '../../../../errors/index.js';
import { BLOCK_SETTINGS } from '../../indices/index-blocks.js';
import { requestBody, requireBody } from '../body.js';
import { speaksOpenSearch } from '../dialect.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { inBackground } from './background-task.js';
import { resolveIndices } from './resolve.js';
import { timeValue } from './search-target.js';

const ACK = { status: 200, body: { acknowledged: true } };

interface SettingsViewOptions {
  flat: boolean;
  /** Comma-separated setting name patterns (`_all` = every setting). */
  name?: string;
  human?: boolean;
  /** `include_defaults` lists OpenSearch 2's defaults. */
  openSearch: boolean;
}

function selectSettings(settings: Record<string, string | string[]>, name: string | undefined): Record<string, string | string[]> {
  if (!name || name === '_all') return settings;
  const patterns = name.split(',');
  return Object.fromEntries(Object.entries(settings).filter(([k]) => patterns.some((p) => p === '_all' || simpleMatch(p, k) || simpleMatch(p, k.replace(/^index\./, '')))));
}

function settingsView(h: IndexHandle, opts: SettingsViewOptions): Record<string, unknown> {
  let settings = h.meta.settings;
  if (opts.human) settings = { ...settings, ...humanSettings(settings) };
  settings = selectSettings(settings, opts.name);
  if (h.meta.state === 'close') settings = { ...settings, 'index.verified_before_close': 'true' };
  return opts.flat ? { ...settings } : nestSettings(settings);
}

/** `defaults` of `include_defaults=true`: the default values of settings the index does not set. */
function defaultsView(h: IndexHandle, opts: SettingsViewOptions): Record<string, unknown> {
  const defaults = selectSettings(defaultsFor(h.meta.settings, opts.openSearch), opts.name);
  return opts.flat ? defaults : nestSettings(defaults);
}

function viewOptions(req: RestRequest, ctx: EngineContext): SettingsViewOptions {
  return {
    flat: booleanParam(req.params, 'flat_settings', false), name: req.pathParams.name, human: booleanParam(req.params, 'human', false),
    openSearch: speaksOpenSearch(req, ctx),
  };
}

async function createIndex(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requestBody(req) ?? {};
  const handle = await ctx.indices.create(req.pathParams.index, body);
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: handle.name } };
}

function getIndex(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false } });
  const opts = viewOptions(req, ctx);
  const includeDefaults = booleanParam(req.params, 'include_defaults', false);
  const out: Record<string, unknown> = {};
  for (const h of handles) {
    const view: Record<string, unknown> = { aliases: h.meta.aliases, mappings: h.meta.mappings, settings: settingsView(h, opts) };
    if (includeDefaults) view.defaults = defaultsView(h, opts);
    out[h.name] = view;
  }
  if (req.method === 'HEAD') return { status: 200 };
  return { status: 200, body: out };
}

async function deleteIndex(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false }, ignoreAliases: true });
  await ctx.indices.delete(handles);
  return ACK;
}

function getFieldMapping(req: RestRequest, ctx: EngineContext): RestResponse {
  // GetFieldMappingsRequest expands wildcards (and all indices) to open indices only
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: false, hidden: false } });
  const patterns = req.pathParams.fields.split(',').map((f) => f.trim()).filter(Boolean);
  const includeDefaults = booleanParam(req.params, 'include_defaults', false);
  return { status: 200, body: Object.fromEntries(handles.map((h) => [h.name, { mappings: fieldMappings(h.meta.mappings, patterns, includeDefaults) }])) };
}

function getMapping(req: RestRequest, ctx: EngineContext): RestResponse {
  // GetMappingsRequest (strictExpandOpen): wildcards and all indices expand to open indices only; a closed index named is answered
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: false, hidden: false } });
  return { status: 200, body: Object.fromEntries(handles.map((h) => [h.name, { mappings: h.meta.mappings }])) };
}

async function putMapping(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  const handles = resolveIndices(req, ctx);
  await ctx.indices.putMapping(handles, body);
  return ACK;
}

function getSettings(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false } });
  const opts = viewOptions(req, ctx);
  const includeDefaults = booleanParam(req.params, 'include_defaults', false);
  const out: Record<string, unknown> = {};
  for (const h of handles) {
    const view: Record<string, unknown> = { settings: settingsView(h, opts) };
    if (includeDefaults) view.defaults = defaultsView(h, opts);
    out[h.name] = view;
  }
  return { status: 200, body: out };
}

async function putSettings(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false } });
  await ctx.indices.putSettings(handles, body, booleanParam(req.params, 'preserve_existing', false));
  return ACK;
}

/** `PUT /{index}/_block/{block}`: sets the block's setting (`index.blocks.{block}`) on each index. */
async function addBlock(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const block = req.pathParams.block;
  const setting = BLOCK_SETTINGS[block];
  if (!setting) throw new EsError(400, 'illegal_argument_exception', `No block found with name [${block}]`);
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false } });
  await ctx.indices.putSettings(handles, { [setting]: 'true' });
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true, indices: handles.map((h) => ({ name: h.name, blocked: true })) } };
}

/** `DELETE /{index}/_block/{block}` (Elasticsearch 9.1, the v9 client's `indices.removeBlock`): the block's setting back to false. */
async function removeBlock(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const block = req.pathParams.block;
  const setting = BLOCK_SETTINGS[block];
  if (!setting) throw new EsError(400, 'illegal_argument_exception', `No block found with name [${block}]`);
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false } });
  await ctx.indices.putSettings(handles, { [setting]: 'false' });
  return { status: 200, body: { acknowledged: true, indices: handles.map((h) => ({ name: h.name, unblocked: true })) } };
}

async function closeIndex(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const handles = resolveIndices(req, ctx);
  await ctx.indices.setState(handles, 'close');
  return {
    status: 200,
    body: { acknowledged: true, shards_acknowledged: true, indices: Object.fromEntries(handles.map((h) => [h.name, { closed: true }])) },
  };
}

/**
 * `POST /{index}/_open`. With OpenSearch's `wait_for_completion=false` the indices are resolved
 * (and authorized) first, then opened by a task: the answer is its id, `GET _tasks/{id}` the outcome.
 */
async function openIndex(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const background = !booleanParam(req.params, 'wait_for_completion', true);
  const executionTimeout = req.params.get('task_execution_timeout');
  if (executionTimeout !== null) timeValue('task_execution_timeout', executionTimeout);
  const handles = resolveIndices(req, ctx, { defaultStates: { open: false, closed: true, hidden: false } });
  const open = async (): Promise<Record<string, unknown>> => {
    await ctx.indices.setState(handles, 'open');
    return { acknowledged: true, shards_acknowledged: true };
  };
  if (!background) return { status: 200, body: await open() };
  return { status: 200, body: { task: inBackground(ctx, 'indices:admin/open', `open indices [${handles.map((h) => h.name).join(', ')}]`, open) } };
}

/** `_forcemerge`: as refresh answers (see indicesRoutes); OpenSearch's `primary_only` is read as the boolean it is. */
function forcemerge(req: RestRequest, ctx: EngineContext): RestResponse {
  booleanParam(req.params, 'primary_only', false);
  return refresh(req, ctx);
}

/** Writes are visible when acknowledged, so refresh and flush only answer. */
function refresh(req: RestRequest, ctx: EngineContext): RestResponse {
  // a closed index is refused (a named one), or left out with ignore_unavailable, as Elasticsearch's broadcast actions do
  const handles = booleanParam(req.params, 'ignore_unavailable', false) ? resolveIndices(req, ctx).filter((h) => h.isOpen) : resolveIndices(req, ctx);
  for (const h of handles) if (!h.isOpen && req.pathParams.index !== undefined && !req.pathParams.index.includes('*')) h.ensureOpen();
  const total = handles.reduce((n, h) => n + Number(h.meta.settings['index.number_of_shards'] ?? '1') * (1 + Number(h.meta.settings['index.number_of_replicas'] ?? '1')), 0);
  const successful = handles.reduce((n, h) => n + Number(h.meta.settings['index.number_of_shards'] ?? '1'), 0);
  return { status: 200, body: { _shards: { total, successful, failed: 0 } } };
}

/**
 * `_cache/clear`: answers as refresh does; drops the field data of the indices (of the `fields`
 * named, else all) when `fielddata` is asked, or no cache is named (every cache is cleared).
 */
function clearCache(req: RestRequest, ctx: EngineContext): RestResponse {
  // OpenSearch's `file` cache (of searchable snapshots): the engine has none to clear
  booleanParam(req.params, 'file', false);
  const response = refresh(req, ctx);
  const named = ['query', 'request', 'fielddata', 'file'].filter((c) => req.params.get(c) !== null);
  if (!named.length || booleanParam(req.params, 'fielddata', false)) {
    const fields = req.params.get('fields')?.split(',').map((f) => f.trim()).filter(Boolean);
    for (const h of resolveIndices(req, ctx)) clearFielddata(h, fields);
  }
  if (!named.length || booleanParam(req.params, 'request', false)) for (const h of resolveIndices(req, ctx)) clearRequestCache(h);
  return response;
}

/**
 * `_flush`: the engine's writes are durable once acknowledged, so a flush has nothing left to
 * commit; it answers as refresh does and counts one flush per index (its stats' `flush.total`).
 * `force` without `wait_if_ongoing` is refused, as Elasticsearch's FlushRequest validation does.
 */
function flush(req: RestRequest, ctx: EngineContext): RestResponse {
  if (booleanParam(req.params, 'force', false) && !booleanParam(req.params, 'wait_if_ongoing', true)) {
    throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: wait_if_ongoing must be true for a force flush;');
  }
  const started = performance.now();
  const response = refresh(req, ctx);
  const took = performance.now() - started;
  for (const h of resolveIndices(req, ctx)) {
    if (!h.isOpen) continue;
    h.stats.flushTotal++;
    h.stats.flushMs += took;
    h.stats.flushed();
  }
  return response;
}

export const indicesRoutes: Route[] = [
  { id: 'indices.create', handler: createIndex },
  { id: 'indices.get', handler: getIndex },
  { id: 'indices.delete', handler: deleteIndex },
  { id: 'indices.get_mapping', handler: getMapping },
  { id: 'indices.get_field_mapping', handler: getFieldMapping },
  { id: 'indices.put_mapping', handler: putMapping },
  { id: 'indices.get_settings', handler: getSettings },
  { id: 'indices.put_settings', handler: putSettings },
  { id: 'indices.add_block', handler: addBlock },
  { id: 'indices.remove_block', handler: removeBlock },
  { id: 'indices.close', handler: closeIndex },
  { id: 'indices.open', handler: openIndex },
  { id: 'indices.refresh', handler: refresh },
  { id: 'indices.flush', handler: flush },
  // no Lucene segments to merge and no shard-level caches of its own: both are done once the index is
  // readable, and answer as Elasticsearch does (the shards they went over)
  { id: 'indices.forcemerge', handler: forcemerge },
  { id: 'indices.clear_cache', handler: clearCache },
];
