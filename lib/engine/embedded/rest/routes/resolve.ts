import { booleanParam } from '../params.js';
import type { IndexHandle, ResolveOptions } from '../../indices/index.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import { TIMESTAMP_FIELD, type DataStreamMetadata } from '../../data-streams/index.js';
import { parseExpandWildcards, type WildcardStates } from '../../indices/resolve.js';

export const INDICES_OPTIONS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];

/** Resolves `{index}` of the path with the request's indices options. */
export function resolveIndices(req: RestRequest, ctx: EngineContext, defaults: Partial<ResolveOptions> = {}): IndexHandle[] {
  // a path without an index takes the `index` parameter where the route has one (`POST
  // /_cache/clear?index=…`), as Elasticsearch's `request.param("index")` reads either
  return ctx.indices.resolve(req.pathParams.index ?? req.params.get('index') ?? undefined, {
    ...defaults,
    expandWildcards: req.params.get('expand_wildcards') ?? defaults.expandWildcards,
    ignoreUnavailable: booleanParam(req.params, 'ignore_unavailable', defaults.ignoreUnavailable ?? false),
    allowNoIndices: booleanParam(req.params, 'allow_no_indices', defaults.allowNoIndices ?? true),
  });
}

/**
 * `GET /_resolve/index/{name}`: the indices and aliases an expression names, each index with its
 * attributes (open or closed, hidden) and aliases, each alias with its indices, each data stream
 * with its backing indices (listed with the indices too, with `data_stream`). Wildcards match
 * index and alias names with the request's `expand_wildcards` (open by default); a concrete name
 * that is neither is a 404 unless `ignore_unavailable`.
 */
function resolveIndex(req: RestRequest, ctx: EngineContext): RestResponse {
  const parts = req.pathParams.name.split(',').filter(Boolean);
  const streams = ctx.indices.dataStreams;
  // Data streams named or matched are listed on their own, their backing indices with the indices.
  const named = resolvedDataStreams(req, ctx, parts);
  const indexParts = parts.filter((p) => !streams.get(p));
  const handles = indexParts.length === 0 ? [] : ctx.indices.resolve(indexParts.join(','), {
    expandWildcards: req.params.get('expand_wildcards') ?? undefined,
    ignoreUnavailable: booleanParam(req.params, 'ignore_unavailable', false),
    allowNoIndices: booleanParam(req.params, 'allow_no_indices', true),
    ignoreAliases: true,
  });
  const byIndexName = new Map(handles.map((h) => [h.name, h]));
  for (const s of named) for (const h of streams.backingHandles(s)) byIndexName.set(h.name, h);
  const aliasNamed = (alias: string) => parts.some((p) => p === '_all' || simpleMatch(p, alias));
  const aliases = new Map<string, string[]>();
  for (const h of ctx.indices.all()) {
    for (const alias of Object.keys(h.meta.aliases)) if (aliasNamed(alias)) aliases.set(alias, [...(aliases.get(alias) ?? []), h.name]);
  }
  const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return {
    status: 200,
    body: {
      indices: [...byIndexName.values()].map((h) => {
        const own = Object.keys(h.meta.aliases).sort();
        const attributes = [h.isOpen ? 'open' : 'closed', ...(h.meta.settings['index.hidden'] === 'true' ? ['hidden'] : [])].sort();
        const stream = streams.ofIndex(h.name);
        return { name: h.name, ...(own.length ? { aliases: own } : {}), attributes, ...(stream ? { data_stream: stream.name } : {}) };
      }).sort(byName),
      aliases: [...aliases].map(([name, indices]) => ({ name, indices: indices.sort() })).sort(byName),
      data_streams: named.map((s) => ({ name: s.name, backing_indices: s.indices.map((b) => b.index_name), timestamp_field: s.timestampField ?? TIMESTAMP_FIELD })),
    },
  };
}

/** The data streams an expression's parts name or match (`expand_wildcards` as for indices), by name. */
function resolvedDataStreams(req: RestRequest, ctx: EngineContext, parts: string[]): DataStreamMetadata[] {
  let states: WildcardStates;
  try {
    states = parseExpandWildcards(req.params.get('expand_wildcards') ?? undefined, { open: true, closed: false, hidden: false });
  } catch {
    return []; // the index resolution refuses the value with ES's message
  }
  const found = new Map<string, DataStreamMetadata>();
  for (const part of parts) {
    const pattern = part === '_all' ? '*' : part;
    if (pattern.startsWith('-')) {
      for (const name of [...found.keys()]) if (simpleMatch(pattern.slice(1), name)) found.delete(name);
    } else if (pattern.includes('*')) {
      for (const s of ctx.indices.dataStreams.matching(pattern, states)) found.set(s.name, s);
    } else {
      const s = ctx.indices.dataStreams.get(pattern);
      if (s) found.set(s.name, s);
    }
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export const resolveRoutes: Route[] = [
  { id: 'indices.resolve_index', handler: resolveIndex },
];
