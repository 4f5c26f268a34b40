import { EsError } from '../../../../errors/index.js';
import { aliasDefinition, aliasesNotFound, isPlainObject, type AliasAction, type IndexHandle } from '../../indices/index.js';
import { simpleMatch } from '../../../../wildcard/index.js';
import { parseQuery } from '../../search/index.js';
import { requestBody, requireBody } from '../body.js';
import type { EngineContext, RestRequest, RestResponse, Route } from '../types.js';
import { resolveTarget } from './search-target.js';

const ACK = { status: 200, body: { acknowledged: true } };
const ALL_STATES = { open: true, closed: true, hidden: false };

/** An alias action's `index`/`alias` (one name) or `indices`/`aliases` (a list of names): each name whole, as Elasticsearch's AliasActions reads them. */
function wholeNames(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v.map(String) : [String(v)]).filter(Boolean);
}

function names(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v.map(String) : String(v).split(',')).filter(Boolean);
}

function matchesAny(patterns: string[], alias: string): boolean {
  return patterns.some((p) => p === '_all' || simpleMatch(p, alias));
}

/** Validates an alias filter as a query (ES refuses an alias whose filter does not parse). */
function checkFilter(def: { filter?: unknown }, alias: string): void {
  if (def.filter === undefined) return;
  try {
    parseQuery(def.filter);
  } catch (e) {
    const err = e as EsError;
    throw new EsError(400, 'illegal_argument_exception', `failed to parse filter for alias [${alias}]`, { caused_by: { type: err.type, reason: err.reason } });
  }
}

/**
 * `PUT /{index}/_alias/{name}` and the forms whose body names the indices (`index`, `indices`) or
 * the alias (`alias`, `aliases`): the body's names replace the path's, as OpenSearch's (and
 * Elasticsearch 7's) RestIndexPutAliasAction reads them.
 */
async function putAlias(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requestBody(req) ?? {};
  const bodyIndices = [...names(body.index), ...names(body.indices)];
  const bodyAliases = [...wholeNames(body.alias), ...wholeNames(body.aliases)];
  const indexExpr = bodyIndices.length ? bodyIndices.join(',') : req.pathParams.index;
  const aliases = bodyAliases.length ? bodyAliases : wholeNames(req.pathParams.name);
  const problems = [
    ...(indexExpr === undefined ? ['One of [index] or [indices] is required'] : []),
    ...(aliases.length ? [] : ['One of [alias] or [aliases] is required']),
  ];
  if (problems.length) throw new EsError(400, 'action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`);
  const handles = resolveTarget(ctx, indexExpr, req.params, { defaultStates: ALL_STATES });
  const definition = aliasDefinition({ ...body, alias: aliases[0] }, 'alias');
  for (const alias of aliases) checkFilter(definition, alias);
  await ctx.indices.updateAliases([{ kind: 'add', indices: handles.map((h) => h.name), aliases, definition }]);
  return ACK;
}

async function deleteAlias(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const handles = resolveTarget(ctx, req.pathParams.index, req.params, { defaultStates: ALL_STATES });
  const patterns = names(req.pathParams.name);
  const existing = handles.flatMap((h) => Object.keys(h.meta.aliases));
  const missing = patterns.filter((p) => !existing.some((a) => matchesAny([p], a)));
  if (missing.length === patterns.length) throw aliasesNotFound(missing);
  await ctx.indices.updateAliases([{ kind: 'remove', indices: handles.map((h) => h.name), aliases: patterns, mustExist: false }]);
  return ACK;
}

/**
 * GET /_alias…: indices with their (matching) aliases. In the name list, `-x` from the first
 * wildcard on excludes; a named (non-wildcard) alias found nowhere is a 404 that still lists the others.
 */
function getAlias(req: RestRequest, ctx: EngineContext): RestResponse {
  const indexExpr = req.pathParams.index;
  const patterns = names(req.pathParams.name);
  const firstWildcard = patterns.findIndex((p) => p.includes('*'));
  const isExclusion = (p: string, i: number) => p.startsWith('-') && firstWildcard >= 0 && i >= firstWildcard;
  const includes = patterns.filter((p, i) => !isExclusion(p, i));
  const excludes = patterns.filter(isExclusion).map((p) => p.slice(1));
  const handles = resolveTarget(ctx, indexExpr, req.params, { defaultStates: { open: true, closed: true, hidden: true } });
  const out: Record<string, { aliases: Record<string, unknown> }> = {};
  const seen = new Set<string>();
  for (const h of handles) {
    const matching = Object.entries(h.meta.aliases).filter(([a]) => !includes.length || matchesAny(includes, a));
    for (const [a] of matching) seen.add(a);
    const entries = matching.filter(([a]) => !matchesAny(excludes, a));
    if (patterns.length && !entries.length) continue;
    if (!patterns.length && indexExpr === undefined && h.meta.settings['index.hidden'] === 'true') continue;
    out[h.name] = { aliases: Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1))) };
  }
  const missing = includes.filter((p) => !p.includes('*') && p !== '_all' && !seen.has(p));
  if (req.method === 'HEAD') return { status: missing.length || (patterns.length && !Object.keys(out).length) ? 404 : 200 };
  if (missing.length) {
    const sorted = [...missing].sort();
    const error = sorted.length === 1 ? `alias [${sorted[0]}] missing` : `aliases [${sorted.join(',')}] missing`;
    return { status: 404, body: { error, status: 404, ...out } };
  }
  return { status: 200, body: out };
}

function actionIndices(ctx: EngineContext, req: RestRequest, spec: Record<string, unknown>, kind: string): IndexHandle[] {
  const list = [...wholeNames(spec.index), ...wholeNames(spec.indices)];
  if (!list.length) throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: One of [index] or [indices] is required;`);
  const handles = resolveTarget(ctx, list.join(','), req.params, { defaultStates: ALL_STATES, allowNoIndices: kind !== 'remove_index' });
  if (!handles.length && kind !== 'add') throw new EsError(404, 'index_not_found_exception', `no such index [${list.join(',')}]`, { 'resource.type': 'index_or_alias', 'resource.id': list.join(','), index_uuid: '_na_', index: list.join(',') });
  if (kind === 'remove_index') {
    for (const name of list) {
      if (!name.includes('*') && !ctx.indices.get(name)) {
        throw new EsError(400, 'illegal_argument_exception', `The provided expression [${name}] matches an alias, specify the corresponding concrete indices instead.`);
      }
    }
  }
  return handles;
}

async function updateAliases(req: RestRequest, ctx: EngineContext): Promise<RestResponse> {
  const body = requireBody(req);
  for (const k of Object.keys(body)) if (k !== 'actions') throw new EsError(400, 'x_content_parse_exception', `[1:2] [aliases] unknown field [${k}]`);
  if (!Array.isArray(body.actions)) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no actions specified;');
  if (!body.actions.length) throw new EsError(400, 'action_request_validation_exception', 'Validation Failed: 1: no actions specified;');
  const actions: AliasAction[] = [];
  for (const entry of body.actions) {
    if (!isPlainObject(entry) || Object.keys(entry).length !== 1) throw new EsError(400, 'x_content_parse_exception', '[1:2] [alias_action] malformed action');
    const [kind, spec] = Object.entries(entry)[0];
    if (!isPlainObject(spec)) throw new EsError(400, 'x_content_parse_exception', `[1:2] [${kind}] expected an object`);
    if (kind !== 'add' && kind !== 'remove' && kind !== 'remove_index') {
      throw new EsError(400, 'x_content_parse_exception', `[1:2] [alias_action] unknown field [${kind}]`);
    }
    const indices = actionIndices(ctx, req, spec, kind).map((h) => h.name);
    if (kind === 'remove_index') {
      actions.push({ kind, indices });
      continue;
    }
    const aliases = [...wholeNames(spec.alias), ...wholeNames(spec.aliases)];
    if (!aliases.length) throw new EsError(400, 'action_request_validation_exception', `Validation Failed: 1: One of [alias] or [aliases] is required;`);
    if (kind === 'add') {
      const definition = aliasDefinition(spec, 'add');
      for (const a of aliases) checkFilter(definition, a);
      actions.push({ kind, indices, aliases, definition });
    } else {
      actions.push({ kind, indices, aliases, mustExist: spec.must_exist === undefined ? undefined : spec.must_exist === true });
    }
  }
  await ctx.indices.updateAliases(actions);
  return ACK;
}

export const aliasRoutes: Route[] = [
  { id: 'indices.put_alias', handler: putAlias },
  { id: 'indices.delete_alias', handler: deleteAlias },
  { id: 'indices.get_alias', handler: getAlias },
  { id: 'indices.update_aliases', handler: updateAliases },
];
