/**
 * `search.allow_expensive_queries` (a dynamic cluster setting, default true): when false,
 * Elasticsearch refuses the queries that may be slow to run — multi-term queries on string
 * fields (prefix unless the text field has `index_prefixes`, wildcard, regexp, fuzzy), ranges on
 * text and keyword fields, joining queries (nested), script and script_score — with these reasons.
 */
import { EsError } from '../../../../errors/index.js';
import { fieldType, resolveFieldMapping, type Mappings } from '../../mapping/index.js';
import type { Query } from './query.js';

const SETTING = "'search.allow_expensive_queries'";
const STRING_TYPES = new Set(['text', 'keyword', 'match_only_text', 'wildcard', 'constant_keyword', 'search_as_you_type']);

function refused(reason: string): EsError {
  return new EsError(400, 'exception', reason);
}

function checkOne(q: { type: string; field?: unknown }, mappings: Mappings[]): void {
  const field = typeof q.field === 'string' ? q.field : undefined;
  const typesOf = () => mappings.map((m) => (field === undefined ? undefined : resolveFieldMapping(m, field))).filter((m) => m !== undefined);
  switch (q.type) {
    case 'prefix':
      if (typesOf().every((m) => m.index_prefixes !== undefined) && typesOf().length) return;
      throw refused(`[prefix] queries cannot be executed when ${SETTING} is set to false. For optimised prefix queries on text fields please enable [index_prefixes].`);
    case 'wildcard':
    case 'regexp':
    case 'fuzzy':
      throw refused(`[${q.type}] queries cannot be executed when ${SETTING} is set to false.`);
    case 'range':
      if (typesOf().some((m) => STRING_TYPES.has(fieldType(m)))) {
        throw refused(`[range] queries on [text] or [keyword] fields cannot be executed when ${SETTING} is set to false.`);
      }
      return;
    case 'nested':
      throw refused(`[joining] queries cannot be executed when ${SETTING} is set to false.`);
    case 'script':
      throw refused(`[script] queries cannot be executed when ${SETTING} is set to false.`);
    case 'script_score':
      throw refused(`[script score] queries cannot be executed when ${SETTING} is set to false.`);
    default:
  }
}

const CHECKED = new Set(['prefix', 'wildcard', 'regexp', 'fuzzy', 'range', 'nested', 'script', 'script_score']);

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
    if (typeof obj.type === 'string' && CHECKED.has(obj.type)) checkOne(obj as { type: string; field?: unknown }, mappings);
    for (const [key, child] of Object.entries(obj)) if (key !== 'script' && key !== 'shape') visit(child);
  };
  for (const q of queries) visit(q);
}
