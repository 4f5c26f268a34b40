import { NUMERIC_TYPES, fieldType, resolveFieldMapping } from '../../mapping/index.js';
import type { Query } from './query.js';
import { queryTypeOf } from './query-type.js';
import { rewriteQuery, type RewriteContext } from './rewrite-query.js';

/** A boost as Java prints a float: `2.0`, `0.5`. */
function javaFloat(n: number): string {
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

function boosted(text: string, boost: number): string {
  return boost === 1 ? text : `(${text})^${javaFloat(boost)}`;
}

export function isNumeric(field: string, ctx: RewriteContext): boolean {
  const m = resolveFieldMapping(ctx.mappings, field);
  return m !== undefined && (NUMERIC_TYPES.has(fieldType(m)) || fieldType(m) === 'date');
}

/** The query as printed: full-text queries as the clauses they become against the mappings. */
function printed(q: Query, ctx: RewriteContext): Query {
  if (PRINTED.has(q.type)) return q;
  const lowered = rewriteQuery(q, ctx);
  return lowered !== q && lowered.type !== q.type ? printed(lowered, ctx) : q;
}

/** A clause of a boolean query: a boolean query inside another is parenthesised, as Lucene prints it. */
export function luceneClause(q: Query, ctx: RewriteContext): string {
  const p = printed(q, ctx);
  const s = luceneString(p, ctx);
  return p.type === 'bool' && p.boost === 1 ? `(${s})` : s;
}

/**
 * A query as Lucene's Query.toString prints it, which `_validate/query?explain=true` shows:
 * `field:term`, `+a -b #c`, `field:"a phrase"~2`, `field:[1 TO 5]`, `*:*`… Full-text queries are
 * printed as the term and phrase queries they become against the index's mappings; a query this
 * printer does not know is printed by its name, so the answer stays valid.
 */
export function luceneString(q: Query, ctx: RewriteContext): string {
  // the others are printed as the clauses they are rewritten to, or by their name
  if (!PRINTED.has(q.type)) return printedAsRewritten(q, ctx);
  const text = queryTypeOf(q).print(q, { child: (c) => luceneString(c, ctx), float: String, lucene: ctx });
  return 'boost' in q ? boosted(text, q.boost) : text;
}

function printedAsRewritten(q: Query, ctx: RewriteContext): string {
  const p = printed(q, ctx);
  return p === q ? q.type : luceneString(p, ctx);
}

/** Query types printed as they are parsed. */
const PRINTED = new Set<Query['type']>([
  'match_all', 'match_none', 'indexed_term', 'term', 'terms', 'ids', 'exists', 'bool', 'phrase', 'range', 'prefix', 'wildcard', 'regexp', 'fuzzy',
  'constant_score', 'dis_max', 'nested',
]);
