import { defaultsFor, humanSettings, nestSettings, type IndexHandle } from '../../indices/index.js';
import { fieldMappings } from '../../mapping/index.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import { EsError } from '../../../../errors/index.js';
import { BLOCK_SETTINGS } from '../../indices/index-blocks.js';
import { requestBody, requireBody } from '../body.js';
import { booleanParam } from '../params.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { INDICES_OPTIONS, resolveIndices } from './resolve.js';

const ACK = { status: 200, body: { acknowledged: true } };

interface SettingsViewOptions {
  flat: boolean;
  /** Comma-separated setting name patterns (`_all` = every setting). */
  name?: string;
  human?: boolean;
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
  const defaults = selectSettings(defaultsFor(h.meta.settings), opts.name);
  return opts.flat ? defaults : nestSettings(defaults);
}

function viewOptions(req: RestRequest): SettingsViewOptions {
  return { flat: booleanParam(req.params, 'flat_settings', false), name: req.pathParams.name, human: booleanParam(req.params, 'human', false) };
}

async function createIndex(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requestBody(req) ?? {};
  const handle = await ctx.indices.create(req.pathParams.index, body);
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: handle.name } };
}

function getIndex(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false } });
  const opts = viewOptions(req);
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
  const handles = resolveIndices(req, ctx, { defaultStates: { open: true, closed: true, hidden: false } });
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
  const opts = viewOptions(req);
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

async function openIndex(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const handles = resolveIndices(req, ctx, { defaultStates: { open: false, closed: true, hidden: false } });
  await ctx.indices.setState(handles, 'open');
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true } };
}

/** Writes are visible when acknowledged, so refresh and flush only answer. */
function refresh(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = resolveIndices(req, ctx);
  for (const h of handles) if (!h.isOpen && req.pathParams.index !== undefined && !req.pathParams.index.includes('*')) h.ensureOpen();
  const total = handles.reduce((n, h) => n + Number(h.meta.settings['index.number_of_shards'] ?? '1') * (1 + Number(h.meta.settings['index.number_of_replicas'] ?? '1')), 0);
  const successful = handles.reduce((n, h) => n + Number(h.meta.settings['index.number_of_shards'] ?? '1'), 0);
  return { status: 200, body: { _shards: { total, successful, failed: 0 } } };
}


const TIMEOUTS = ['timeout', 'master_timeout'];

export const indicesRoutes: Route[] = [
  { methods: ['PUT'], pattern: '/{index}', params: [...TIMEOUTS, 'wait_for_active_shards'], handler: createIndex },
  { methods: ['GET', 'HEAD'], pattern: '/{index}', params: [...INDICES_OPTIONS, 'flat_settings', 'include_defaults', 'local', 'master_timeout', 'features'], handler: getIndex },
  { methods: ['DELETE'], pattern: '/{index}', params: [...INDICES_OPTIONS, ...TIMEOUTS], handler: deleteIndex },
  { methods: ['GET'], pattern: '/_mapping', params: [...INDICES_OPTIONS, 'local', 'master_timeout'], handler: getMapping },
  { methods: ['GET'], pattern: '/_mapping/field/{fields}', params: [...INDICES_OPTIONS, 'local', 'include_defaults'], handler: getFieldMapping },
  { methods: ['GET'], pattern: '/{index}/_mapping/field/{fields}', params: [...INDICES_OPTIONS, 'local', 'include_defaults'], handler: getFieldMapping },
  { methods: ['GET'], pattern: '/{index}/_mapping', params: [...INDICES_OPTIONS, 'local', 'master_timeout'], handler: getMapping },
  { methods: ['PUT', 'POST'], pattern: '/{index}/_mapping', params: [...INDICES_OPTIONS, ...TIMEOUTS, 'write_index_only'], handler: putMapping },
  { methods: ['GET'], pattern: '/_settings', params: [...INDICES_OPTIONS, 'flat_settings', 'include_defaults', 'local', 'master_timeout'], handler: getSettings },
  { methods: ['GET'], pattern: '/{index}/_settings', params: [...INDICES_OPTIONS, 'flat_settings', 'include_defaults', 'local', 'master_timeout'], handler: getSettings },
  { methods: ['GET'], pattern: '/_settings/{name}', params: [...INDICES_OPTIONS, 'flat_settings', 'include_defaults', 'local', 'master_timeout'], handler: getSettings },
  { methods: ['GET'], pattern: '/{index}/_settings/{name}', params: [...INDICES_OPTIONS, 'flat_settings', 'include_defaults', 'local', 'master_timeout'], handler: getSettings },
  { methods: ['PUT'], pattern: '/_settings', params: [...INDICES_OPTIONS, ...TIMEOUTS, 'preserve_existing', 'flat_settings', 'reopen'], handler: putSettings },
  { methods: ['PUT'], pattern: '/{index}/_settings', params: [...INDICES_OPTIONS, ...TIMEOUTS, 'preserve_existing', 'flat_settings', 'reopen'], handler: putSettings },
  { methods: ['PUT'], pattern: '/{index}/_block/{block}', params: [...INDICES_OPTIONS, ...TIMEOUTS], handler: addBlock },
  { methods: ['DELETE'], pattern: '/{index}/_block/{block}', params: [...INDICES_OPTIONS, ...TIMEOUTS], handler: removeBlock },
  { methods: ['POST'], pattern: '/{index}/_close', params: [...INDICES_OPTIONS, ...TIMEOUTS, 'wait_for_active_shards'], handler: closeIndex },
  { methods: ['POST'], pattern: '/{index}/_open', params: [...INDICES_OPTIONS, ...TIMEOUTS, 'wait_for_active_shards'], handler: openIndex },
  { methods: ['GET', 'POST'], pattern: '/_refresh', params: INDICES_OPTIONS, handler: refresh },
  { methods: ['GET', 'POST'], pattern: '/{index}/_refresh', params: INDICES_OPTIONS, handler: refresh },
  { methods: ['GET', 'POST'], pattern: '/_flush', params: [...INDICES_OPTIONS, 'force', 'wait_if_ongoing'], handler: refresh },
  { methods: ['GET', 'POST'], pattern: '/{index}/_flush', params: [...INDICES_OPTIONS, 'force', 'wait_if_ongoing'], handler: refresh },
  // no Lucene segments to merge and no shard-level caches of its own: both are done once the index is
  // readable, and answer as Elasticsearch does (the shards they went over)
  { methods: ['POST'], pattern: '/_forcemerge', params: [...INDICES_OPTIONS, 'flush', 'max_num_segments', 'only_expunge_deletes', 'wait_for_completion'], handler: refresh },
  { methods: ['POST'], pattern: '/{index}/_forcemerge', params: [...INDICES_OPTIONS, 'flush', 'max_num_segments', 'only_expunge_deletes', 'wait_for_completion'], handler: refresh },
  { methods: ['POST'], pattern: '/_cache/clear', params: [...INDICES_OPTIONS, 'fielddata', 'fields', 'query', 'request', 'index'], handler: refresh },
  { methods: ['POST'], pattern: '/{index}/_cache/clear', params: [...INDICES_OPTIONS, 'fielddata', 'fields', 'query', 'request'], handler: refresh },
];
