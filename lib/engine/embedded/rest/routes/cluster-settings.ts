import os from 'node:os';
import { EsError } from '../../../../errors/index.js';
import type { ClusterSettingValues } from '../../cluster-settings/index.js';
import { autoCreatePatterns } from '../../indices/index.js';
import { nestSettings } from '../../indices/settings.js';
import { requireBody } from '../body.js';
import { booleanParam } from '../params.js';
import { timeValue } from './search-target.js';
import { cancelAfterText } from './search.js';
import { nodeAttributes, nodeRoles, speaksOpenSearch } from '../dialect.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';

function view(values: ClusterSettingValues, flat: boolean): Record<string, unknown> {
  if (flat) return Object.fromEntries(Object.keys(values).sort().map((k) => [k, values[k]]));
  return nestSettings(values);
}

/**
 * Defaults of the settings the engine has a value for, as `include_defaults` lists them (a selection
 * of ES's; to an OpenSearch client the node's roles and attributes are an OpenSearch node's, and
 * OpenSearch's `search.cancel_after_time_interval` is listed).
 */
function defaults(req: RestRequest, ctx: EngineContext): ClusterSettingValues {
  const out: ClusterSettingValues = {
    'action.auto_create_index': 'true',
    'action.destructive_requires_name': 'true',
    'cluster.name': ctx.clusterName,
    'cluster.routing.allocation.enable': 'all',
    'cluster.max_shards_per_node': '1000',
    'discovery.type': 'single-node',
    'http.max_content_length': '100mb',
    'indices.query.bool.max_clause_count': '4096',
    'node.name': ctx.node.name,
    'node.roles': nodeRoles(req, ctx),
    'path.data': [],
    'processors': String(os.availableParallelism()),
    'search.default_search_timeout': ctx.defaultSearchTimeoutMs === undefined ? '30s' : ctx.defaultSearchTimeoutMs < 0 ? '-1' : `${ctx.defaultSearchTimeoutMs}ms`,
    'search.default_keep_alive': '5m',
    'search.max_buckets': '65536',
    'search.max_keep_alive': '1d',
    'transport.port': '9300',
  };
  for (const [k, v] of Object.entries(nodeAttributes(req, ctx))) out[`node.attr.${k}`] = v;
  if (speaksOpenSearch(req, ctx)) out['search.cancel_after_time_interval'] = '-1';
  return out;
}

/** `GET _cluster/settings`: persistent and transient settings; `include_defaults` adds the defaults of the rest. */
function getSettings(req: RestRequest, ctx: EngineContext): RestResponse {
  const flat = booleanParam(req.params, 'flat_settings', false);
  const { persistent, transient } = ctx.clusterSettings.current();
  const body: Record<string, unknown> = { persistent: view(persistent, flat), transient: view(transient, flat) };
  if (booleanParam(req.params, 'include_defaults', false)) {
    const all = defaults(req, ctx);
    for (const k of [...Object.keys(persistent), ...Object.keys(transient)]) delete all[k];
    body.defaults = view(all, flat);
  }
  return { status: 200, body };
}

/** The settings the engine reads, refused at once when their value cannot be read (as ES refuses them). */
function checkValue(key: string, value: string | string[]): void {
  if (key === 'search.default_search_timeout' && value !== '-1') timeValue(key, String(value));
  if (key === 'search.max_keep_alive' || key === 'search.default_keep_alive') timeValue(key, String(value));
  if (key === 'search.cancel_after_time_interval') cancelAfterText(key, String(value));
  if (key === 'action.auto_create_index') {
    const text = Array.isArray(value) ? value.join(',') : value;
    if (text !== 'true' && text !== 'false') autoCreatePatterns(text);
  }
  if (key === 'cluster.max_shards_per_node') {
    const n = Number(value);
    if (!/^-?\d+$/.test(String(value))) throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${String(value)}] for setting [${key}]`);
    if (n < 1) throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${String(value)}] for setting [${key}] must be >= 1`);
  }
}

/**
 * `PUT _cluster/settings`: `{persistent, transient}`; `null` resets a setting; answers what was set.
 * `only` keeps the keys it matches and drops the others (OpenSearch's SQL plugin settings endpoint).
 */
export async function putSettings(req: RestRequest, ctx: EngineContext, only?: (key: string) => boolean): Promise<RestResponse> {
  const flat = booleanParam(req.params, 'flat_settings', false);
  const set = await ctx.clusterSettings.update(requireBody(req), checkValue, only);
  return { status: 200, body: { acknowledged: true, persistent: view(set.persistent, flat), transient: view(set.transient, flat) } };
}

export const clusterSettingsRoutes: Route[] = [
  { id: 'cluster.get_settings', handler: getSettings },
  { id: 'cluster.put_settings', handler: (req, ctx) => putSettings(req, ctx) },
];
