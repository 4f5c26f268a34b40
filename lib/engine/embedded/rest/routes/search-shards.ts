import { simpleMatch } from '../../../../wildcard/index.js';
import type { IndexHandle } from '../../indices/index.js';
import { shardOf } from '../../indices/shard-routing.js';
import { discoveryNode } from '../discovery-node.js';
import { numberOfShards } from '../shard-copies.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { resolveTarget } from './search-target.js';

type Json = Record<string, unknown>;

/** A term query's short form as ES prints a parsed one (`{term: {f: v}}` → `{term: {f: {value: v, boost: 1.0}}}`). */
function filterView(filter: unknown): unknown {
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return filter;
  const term = (filter as Json).term;
  if (Object.keys(filter).length === 1 && term && typeof term === 'object' && !Array.isArray(term)) {
    const [[field, value]] = Object.entries(term as Json);
    if (value === null || typeof value !== 'object') return { term: { [field]: { value, boost: 1.0 } } };
  }
  return filter;
}

/**
 * The aliases of an index the expression names (by name or pattern), and the filter a search
 * through them applies: none when the index itself is named or an alias without filter is;
 * else the alias's filter, or a `bool.should` of several.
 */
function aliasesOf(h: IndexHandle, parts: string[]): Json {
  const named = (name: string) => parts.some((p) => p === name || p === '_all' || (p.includes('*') && simpleMatch(p, name)));
  const aliases = Object.keys(h.meta.aliases).filter(named).sort();
  if (!aliases.length) return {};
  const entry: Json = { aliases };
  if (named(h.name) || !parts.length) return entry;
  const filters = aliases.map((a) => h.meta.aliases[a].filter);
  if (filters.some((f) => f === undefined)) return entry;
  entry.filter = filters.length === 1
    ? filterView(filters[0])
    : { bool: { should: filters.map(filterView), adjust_pure_negative: true, boost: 1.0 } };
  return entry;
}

/** `GET|POST [/{index}]/_search_shards`: the node, the indices (with the aliases they were reached by) and the shards a search would query. */
function searchShards(req: RestRequest, ctx: EngineContext): RestResponse {
  const expression = req.pathParams.index;
  const handles = resolveTarget(ctx, expression, req.params).filter((h) => h.isOpen).sort((a, b) => (a.name < b.name ? -1 : 1));
  const parts = (expression ?? '').split(',').filter(Boolean);
  const routing = req.params.get('routing');
  const routings = routing === null ? [] : routing.split(',').map((r) => r.trim()).filter(Boolean);
  const node = ctx.node;
  const shards: Json[][] = [];
  const indices: Json = {};
  for (const h of handles) {
    indices[h.name] = aliasesOf(h, parts);
    const selected = routings.length
      ? [...new Set(routings.map((r) => shardOf(h.meta.settings, r, r)))].sort((a, b) => a - b)
      : [...Array(numberOfShards(h)).keys()];
    for (const shard of selected) {
      shards.push([{
        state: 'STARTED', primary: true, node: node.id, relocating_node: null, shard, index: h.name,
        allocation_id: { id: `${h.uuid.slice(0, 20)}${String(shard).padStart(2, '0')}` },
        relocation_failure_info: { failed_attempts: 0 },
      }]);
    }
  }
  return {
    status: 200,
    body: {
      nodes: {
        [node.id]: discoveryNode(req, ctx),
      },
      indices,
      shards,
    },
  };
}

export const searchShardsRoutes: Route[] = [
  { id: 'search_shards', handler: searchShards },
];
