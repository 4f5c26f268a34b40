import { booleanParam } from '../params.js';
import type { IndexHandle, ResolveOptions } from '../../indices/index.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { simpleMatch } from '../../../../wildcard/index.js';

export const INDICES_OPTIONS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];

/** Resolves `{index}` of the path with the request's indices options. */
export function resolveIndices(req: RestRequest, ctx: EngineContext, defaults: Partial<ResolveOptions> = {}): IndexHandle[] {
  return ctx.indices.resolve(req.pathParams.index, {
    ...defaults,
    expandWildcards: req.params.get('expand_wildcards') ?? defaults.expandWildcards,
    ignoreUnavailable: booleanParam(req.params, 'ignore_unavailable', defaults.ignoreUnavailable ?? false),
    allowNoIndices: booleanParam(req.params, 'allow_no_indices', defaults.allowNoIndices ?? true),
  });
}

/**
 * `GET /_resolve/index/{name}`: the indices and aliases an expression names, each index with its
 * attributes (open or closed, hidden) and aliases, each alias with its indices. Wildcards match
 * index and alias names with the request's `expand_wildcards` (open by default); a concrete name
 * that is neither is a 404 unless `ignore_unavailable`.
 */
function resolveIndex(req: RestRequest, ctx: EngineContext): RestResponse {
  const handles = ctx.indices.resolve(req.pathParams.name, {
    expandWildcards: req.params.get('expand_wildcards') ?? undefined,
    ignoreUnavailable: booleanParam(req.params, 'ignore_unavailable', false),
    allowNoIndices: booleanParam(req.params, 'allow_no_indices', true),
    ignoreAliases: true,
  });
  const parts = req.pathParams.name.split(',').map((p) => p.trim()).filter(Boolean);
  const aliasNamed = (alias: string) => parts.some((p) => p === '_all' || simpleMatch(p, alias));
  const aliases = new Map<string, string[]>();
  for (const h of ctx.indices.all()) {
    for (const alias of Object.keys(h.meta.aliases)) if (aliasNamed(alias)) aliases.set(alias, [...(aliases.get(alias) ?? []), h.name]);
  }
  const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return {
    status: 200,
    body: {
      indices: handles.map((h) => {
        const own = Object.keys(h.meta.aliases).sort();
        const attributes = [h.isOpen ? 'open' : 'closed', ...(h.meta.settings['index.hidden'] === 'true' ? ['hidden'] : [])].sort();
        return { name: h.name, ...(own.length ? { aliases: own } : {}), attributes };
      }).sort(byName),
      aliases: [...aliases].map(([name, indices]) => ({ name, indices: indices.sort() })).sort(byName),
      data_streams: [],
    },
  };
}

export const resolveRoutes: Route[] = [
  { methods: ['GET'], pattern: '/_resolve/index/{name}', params: [...INDICES_OPTIONS, 'mode'], handler: resolveIndex },
];
