import { booleanParam } from '../params.js';
import type { IndexHandle, ResolveOptions } from '../../indices/index.js';
import type { EngineContext, RestRequest } from '../types.js';

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
