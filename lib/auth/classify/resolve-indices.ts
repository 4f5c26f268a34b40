import type { Backend } from '../../engine/index.js';
import { callJson } from '../../engine/index.js';
import { EsError } from '../../errors/index.js';
import { queryString } from '../../request/index.js';

/** How an expression stood for indices when it was resolved. */
export type ExpressionKind = 'index' | 'alias' | 'wildcard' | 'all' | 'exclusion' | 'missing';

export interface ResolvedExpression {
  expression: string;
  kind: ExpressionKind;
  /**
   * The concrete indices the expression stands for now, with the request's `expand_wildcards`
   * and after the exclusions that follow it ([] for an exclusion or a missing name).
   */
  indices: string[];
}

export interface ResolvedIndices {
  expressions: ResolvedExpression[];
  /** Every concrete index the expressions stand for together (exclusions applied), first seen first. */
  concrete: string[];
  /**
   * Alias (or data stream) named by an expression → every index it points to, whatever their
   * state (open, closed, hidden): an alias may only be used by a credential allowed all of them.
   */
  aliases: Record<string, string[]>;
  /** Names (no wildcard) that are neither an index nor an alias: not an error here. */
  missing: string[];
  /**
   * Alias named by an expression → the filters it has on its indices (none: not filtered on any):
   * a search through it runs its filter, a query the caller did not write.
   */
  aliasFilters: Record<string, unknown[]>;
}

export interface ResolveOptions {
  /** The request's `expand_wildcards` ("open" unless given), so wildcards expand as the engine will expand them. */
  expandWildcards?: string;
}

const isWildcard = (e: string) => e.includes('*');

/**
 * The concrete indices each expression stands for now, as the engine answers it (so the same on
 * the embedded engine and on Elasticsearch): one `GET /{expr}/_settings` per positive expression,
 * one for the whole list when it has exclusions (ES applies `-x` only after a wildcard, to what
 * precedes it), and one `GET /_alias/{names}` for the names that turned out to be aliases.
 */
export async function resolveIndices(backend: Backend, expressions: string[], options: ResolveOptions = {}): Promise<ResolvedIndices> {
  const expandWildcards = options.expandWildcards ?? 'open';
  const kinds = classifyExpressions(expressions);
  // a name holding a comma (from a slot that holds one name: the engine reads it whole) names no
  // index (Elasticsearch refuses a comma in index and alias names): asked of a list-reading API, it
  // would stand for the names around the comma; unresolved, it is a missing name
  const positive = expressions.map((e, i) => ({ e, i })).filter(({ e, i }) => kinds[i] !== 'exclusion' && !(kinds[i] === 'index' && e.includes(',')));

  const perExpression = await Promise.all(positive.map(({ e }) => concreteIndices(backend, [e], expandWildcards)));
  let union: Set<string> | undefined;
  if (kinds.includes('exclusion')) union = new Set(await concreteIndices(backend, expressions, expandWildcards));

  const out: ResolvedIndices = { expressions: [], concrete: [], aliases: {}, missing: [], aliasFilters: {} };
  const resolvedByIndex = new Map<number, string[]>();
  positive.forEach(({ i }, k) => resolvedByIndex.set(i, perExpression[k]));
  const aliasNames: string[] = [];
  expressions.forEach((expression, i) => {
    let kind = kinds[i];
    let indices = resolvedByIndex.get(i) ?? [];
    if (union) indices = indices.filter((x) => union!.has(x));
    if (kind === 'index') {
      const own = resolvedByIndex.get(i) ?? [];
      if (!own.length) kind = 'missing';
      else if (own.length !== 1 || own[0] !== expression) kind = 'alias';
    }
    if (kind === 'missing' && !out.missing.includes(expression)) out.missing.push(expression);
    if (kind === 'alias' && !aliasNames.includes(expression)) aliasNames.push(expression);
    out.expressions.push({ expression, kind, indices });
    for (const x of indices) if (!out.concrete.includes(x)) out.concrete.push(x);
  });
  if (aliasNames.length) ({ members: out.aliases, filters: out.aliasFilters } = await aliasMembers(backend, aliasNames));
  for (const name of aliasNames) {
    // An alias whose members the alias API does not list (a data stream, date math): its resolution is all we know.
    if (!out.aliases[name]?.length) out.aliases[name] = out.expressions.find((x) => x.expression === name)!.indices;
  }
  return out;
}

/** Kinds known from the text alone; `index` may turn out an alias or missing. */
function classifyExpressions(expressions: string[]): ExpressionKind[] {
  let wildcardSeen = false;
  return expressions.map((e) => {
    if (e.startsWith('-') && wildcardSeen) return 'exclusion';
    if (e === '_all') {
      wildcardSeen = true;
      return 'all';
    }
    if (isWildcard(e)) {
      wildcardSeen = true;
      return 'wildcard';
    }
    return 'index';
  });
}

const encode = (expressions: string[]) => expressions.map((e) => encodeURIComponent(e)).join(',');

async function concreteIndices(backend: Backend, expressions: string[], expandWildcards: string): Promise<string[]> {
  const qs = queryString({ expand_wildcards: expandWildcards, ignore_unavailable: true, allow_no_indices: true, flat_settings: true });
  const reply = await callJson<Record<string, unknown>>(backend, 'GET', `/${encode(expressions)}/_settings/index.uuid`, undefined, qs);
  // An unknown or invalid name is a 404/400 even when lenient on some engines: it stands for nothing.
  if (reply.status === 404 || reply.status === 400) return [];
  if (reply.status !== 200 || typeof reply.body !== 'object' || reply.body === null) throw engineFailure(reply.status, 'index resolution');
  return Object.keys(reply.body);
}

async function aliasMembers(backend: Backend, names: string[]): Promise<{ members: Record<string, string[]>; filters: Record<string, unknown[]> }> {
  const reply = await callJson<Record<string, unknown>>(backend, 'GET', `/_alias/${encode(names)}`, undefined, 'expand_wildcards=all');
  // A 404 still lists the aliases that exist (ES: "alias [x] missing" next to the others).
  if ((reply.status !== 200 && reply.status !== 404) || typeof reply.body !== 'object' || reply.body === null) {
    throw engineFailure(reply.status, 'alias resolution');
  }
  const out: Record<string, string[]> = {};
  const filters: Record<string, unknown[]> = {};
  for (const [index, entry] of Object.entries(reply.body)) {
    const aliases = (entry as { aliases?: Record<string, { filter?: unknown } | null> } | null)?.aliases;
    if (!aliases || typeof aliases !== 'object') continue;
    for (const [a, definition] of Object.entries(aliases)) {
      if (!names.includes(a)) continue;
      (out[a] ??= []).push(index);
      if (definition?.filter !== undefined) (filters[a] ??= []).push(definition.filter);
    }
  }
  for (const list of Object.values(out)) list.sort();
  return { members: out, filters };
}

function engineFailure(status: number, what: string): EsError {
  return new EsError(502, 'bad_gateway_exception', `the engine answered ${status} to the ${what} for authorization`);
}
