import { EsError } from '../../../errors/index.js';
import { simpleMatch } from '../../../wildcard/index.js';
import type { AliasDefinition } from '../store/index.js';
import { isPlainObject } from './deep.js';
import { validateIndexName } from './index-name.js';

/** One step of `POST /_aliases` (and of put/delete alias), on already-resolved index names. */
export type AliasAction =
  | { kind: 'add'; indices: string[]; aliases: string[]; definition: AliasDefinition }
  | { kind: 'remove'; indices: string[]; aliases: string[]; mustExist?: boolean }
  | { kind: 'remove_index'; indices: string[] };

export function aliasesNotFound(names: string[]): EsError {
  const sorted = [...names].sort();
  return new EsError(404, 'aliases_not_found_exception', `aliases [${sorted.join(',')}] missing`, {
    'resource.type': 'aliases', 'resource.id': sorted.join(','),
  });
}

/** ES's checks on an alias name. */
export function validateAliasName(alias: string, indexExists: (name: string) => boolean): void {
  if (alias.includes('*') || alias.includes(',')) {
    throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: must not contain the following characters [ , \", *, \\, <, |, ,, >, /, ?]`);
  }
  try {
    validateIndexName(alias);
  } catch (e) {
    throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: ${(e as EsError).reason.replace(/^Invalid index name \[[^\]]*\], /, '')}`);
  }
  if (indexExists(alias)) {
    throw new EsError(400, 'invalid_alias_name_exception', `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`);
  }
}

const DEFINITION_KEYS = new Set(['filter', 'routing', 'index_routing', 'search_routing', 'is_write_index', 'is_hidden']);

/** An alias definition from a request body (`routing` sets both routings), as ES stores it. */
export function aliasDefinition(body: Record<string, unknown>, context: string): AliasDefinition {
  const def: AliasDefinition = {};
  for (const k of Object.keys(body)) {
    if (!DEFINITION_KEYS.has(k) && !['index', 'indices', 'alias', 'aliases', 'must_exist'].includes(k)) {
      throw new EsError(400, context === 'alias' ? 'illegal_argument_exception' : 'x_content_parse_exception', `[${context}] unknown field [${k}]`);
    }
  }
  if (body.filter !== undefined) {
    if (!isPlainObject(body.filter)) throw new EsError(400, 'illegal_argument_exception', 'failed to parse filter for alias');
    def.filter = body.filter;
  }
  const routing = body.routing === undefined ? undefined : String(body.routing);
  if (body.index_routing !== undefined || routing !== undefined) def.index_routing = String(body.index_routing ?? routing);
  if (body.search_routing !== undefined || routing !== undefined) def.search_routing = String(body.search_routing ?? routing);
  if (def.index_routing?.includes(',')) {
    throw new EsError(400, 'illegal_argument_exception', `alias [${String(body.alias ?? '')}] has several index routing values associated with it`);
  }
  if (body.is_write_index !== undefined && body.is_write_index !== null) def.is_write_index = body.is_write_index === true || body.is_write_index === 'true';
  if (body.is_hidden !== undefined && body.is_hidden !== null) def.is_hidden = body.is_hidden === true || body.is_hidden === 'true';
  return def;
}

/**
 * Applies alias actions to a copy of each index's aliases (all or nothing): the returned map
 * holds the new aliases of every index that changed; `removeIndices` lists indices to delete.
 */
export function applyAliasActions(
  current: Map<string, Record<string, AliasDefinition>>,
  actions: AliasAction[],
  indexExists: (name: string) => boolean,
): { changed: Map<string, Record<string, AliasDefinition>>; removeIndices: string[] } {
  const changed = new Map<string, Record<string, AliasDefinition>>();
  const removeIndices: string[] = [];
  const added = new Set<string>();
  const aliasesOf = (index: string) => {
    let a = changed.get(index);
    if (!a) changed.set(index, (a = { ...(current.get(index) ?? {}) }));
    return a;
  };
  for (const action of actions) {
    if (action.kind === 'add') {
      for (const alias of action.aliases) {
        validateAliasName(alias, () => false);
        added.add(alias);
        for (const index of action.indices) aliasesOf(index)[alias] = { ...action.definition };
      }
    } else if (action.kind === 'remove') {
      const missing: string[] = [];
      for (const pattern of action.aliases) {
        let found = false;
        for (const index of action.indices) {
          const a = aliasesOf(index);
          for (const name of Object.keys(a)) {
            if (pattern === '_all' || simpleMatch(pattern, name)) {
              delete a[name];
              found = true;
            }
          }
        }
        if (!found && (action.mustExist === true || (action.mustExist === undefined && !pattern.includes('*') && pattern !== '_all'))) missing.push(pattern);
      }
      if (missing.length) throw aliasesNotFound(missing);
    } else {
      for (const index of action.indices) removeIndices.push(index);
    }
  }
  for (const index of removeIndices) changed.delete(index);
  // names are checked against the indices that remain once every action is applied
  for (const alias of added) validateAliasName(alias, (n) => indexExists(n) && !removeIndices.includes(n));
  // an alias pointing to several indices may name at most one write index
  const writeIndices = new Map<string, string[]>();
  for (const [index, aliases] of current) {
    if (removeIndices.includes(index)) continue;
    for (const [alias, def] of Object.entries(changed.get(index) ?? aliases)) {
      if (def.is_write_index) writeIndices.set(alias, [...(writeIndices.get(alias) ?? []), index]);
    }
  }
  for (const [alias, indices] of writeIndices) {
    if (indices.length > 1) {
      throw new EsError(400, 'illegal_state_exception', `alias [${alias}] has more than one write index [${indices.sort().join(',')}]`);
    }
  }
  return { changed, removeIndices };
}
