/**
 * `search.allow_expensive_queries` (a dynamic cluster setting, default true): when false,
 * Elasticsearch refuses the queries that may be slow to run — multi-term queries on string
 * fields (prefix unless the text field has `index_prefixes`, wildcard, regexp, fuzzy), ranges on
 * text and keyword fields, joining queries (nested), script and script_score — with these reasons.
 */
import { EsError } from '../../../../errors/index.js';
import { fieldType, resolveFieldMapping, type Mappings } from '../../mapping/index.js';
import type { Query } from './query.js';
import { isQueryType, queryTypeOf } from './query-type.js';

const SETTING = "'search.allow_expensive_queries'";
const STRING_TYPES = new Set(['text', 'keyword', 'match_only_text', 'wildcard', 'constant_keyword', 'search_as_you_type']);

function refused(reason: string): EsError {
  return new EsError(400, 'exception', reason);
}

/** The refusal of the types `search.allow_expensive_queries: false` refuses whatever the field (joining, script and multi-term queries). */
export function refusedAlways(name: string): string {
  return `[${name}] queries cannot be executed when ${SETTING} is set to false.`;
}

/** `prefix` is refused unless every index maps its field as text with `index_prefixes`. */
export function prefixRefused(field: string, mappings: Mappings[]): string | undefined {
  const fields = mappings.map((m) => resolveFieldMapping(m, field)).filter((m) => m !== undefined);
  if (fields.length && fields.every((m) => m.index_prefixes !== undefined)) return undefined;
  return `[prefix] queries cannot be executed when ${SETTING} is set to false. For optimised prefix queries on text fields please enable [index_prefixes].`;
}

/** `range` is refused on a text or keyword field. */
export function rangeRefused(field: string, mappings: Mappings[]): string | undefined {
  const fields = mappings.map((m) => resolveFieldMapping(m, field)).filter((m) => m !== undefined);
  if (!fields.some((m) => STRING_TYPES.has(fieldType(m)))) return undefined;
  return `[range] queries on [text] or [keyword] fields cannot be executed when ${SETTING} is set to false.`;
}

/** Throws Elasticsearch's refusal when a query (or one it contains) is expensive; the query as parsed. */
export function checkExpensiveQueries(queries: Array<Query | undefined>, mappings: Mappings[]): void {
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const obj = node as Record<string, unknown>;
    const type = typeof obj.type === 'string' && isQueryType(obj.type) ? queryTypeOf(obj.type) : undefined;
    const refusal = type?.expensive?.(obj as Query, mappings);
    if (refusal !== undefined) throw refused(refusal);
    for (const [key, child] of Object.entries(obj)) if (key !== 'script' && key !== 'shape') visit(child);
  };
  for (const q of queries) visit(q);
}
