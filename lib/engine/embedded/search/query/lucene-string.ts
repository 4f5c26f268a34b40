import { NUMERIC_TYPES, fieldType, resolveFieldMapping } from '../../mapping/index.js';
import { assertNever, type Query } from './query.js';
import { isRegistered, queryTypeOf } from './query-type.js';
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
function clause(q: Query, ctx: RewriteContext): string {
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
  if (isRegistered(q)) {
    // the others are printed as the clauses they are rewritten to, or by their name
    if (!PRINTED.has(q.type)) return printedAsRewritten(q, ctx);
    const text = queryTypeOf(q).print(q, { child: (c) => luceneString(c, ctx), float: String, lucene: ctx });
    return 'boost' in q ? boosted(text, q.boost) : text;
  }
  switch (q.type) {
    case 'indexed_term':
      return boosted(`${q.field}:${q.term}`, q.boost);
    case 'bool': {
      const parts = [
        ...q.must.map((c) => `+${clause(c, ctx)}`),
        ...q.filter.map((c) => `#${clause(c, ctx)}`),
        ...q.should.map((c) => clause(c, ctx)),
        ...q.mustNot.map((c) => `-${clause(c, ctx)}`),
      ];
      const msm = q.minimumShouldMatch;
      const text = msm !== undefined && Number(msm) > 0 ? `(${parts.join(' ')})~${msm}` : parts.join(' ');
      return boosted(text, q.boost);
    }
    case 'phrase': {
      const path = q.paths[0];
      const terms = path ? path.terms.map((alts, i) => {
        const t = alts.length > 1 ? `(${alts.join(' ')})` : alts[0];
        return q.prefixExpansions !== undefined && i === path.terms.length - 1 ? `${t}*` : t;
      }) : [];
      return boosted(`${q.field}:"${terms.join(' ')}"${q.slop ? `~${q.slop}` : ''}`, q.boost);
    }
    case 'boosting':
    case 'function_score':
    case 'distance_feature': case 'rank_feature': case 'more_like_this': case 'pinned':
    case 'rule': case 'script': case 'script_score': case 'term_pattern': case 'capped_score': case 'interval_source':
    case 'combined_term':
      break;
    default:
      return assertNever(q);
  }
  return printedAsRewritten(q, ctx);
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
