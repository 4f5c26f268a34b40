/**
 * The joining query types: nested (documents with a nested object that matches the inner query,
 * scored by score_mode). One object with every pass over the query tree (query-type.ts); code moved
 * from each pass as it was.
 */
import { resolveFieldMapping, fieldType } from '../../mapping/index.js';
import { EsError } from '../../../../errors/index.js';
import { evaluate, type Evaluated } from './document-matcher.js';
import { nestedQuery as nestedDocs } from './execute-query.js';
import { explainByScore } from './explain-query.js';
import { refusedAlways } from './expensive-queries.js';
import { matchScope } from './matcher-decides.js';
import { checkKeys, enumOf, innerQueryBody, isObject, parseQuery, parsingError } from './parse-query.js';
import { booleanValue, boostOf } from './query-fields.js';
import { collectHighlightTerms } from './query-terms-for-highlight.js';
import type { QueryOf, QueryType } from './query-type.js';
import { rewriteQuery } from './rewrite-query.js';

export const nestedQueryType: QueryType<'nested'> = {
  name: 'nested',
  expensive: () => refusedAlways('joining'),
  parse(raw) {
    const name = 'nested';
    const body = innerQueryBody(name, raw, ['path', 'query', 'score_mode', 'ignore_unmapped', 'inner_hits', 'boost', '_name'], 'path');
    if (body.inner_hits !== undefined && !isObject(body.inner_hits)) throw parsingError('[nested] query does not support [inner_hits]');
    const q: QueryOf<'nested'> = {
      type: 'nested', path: body.path as string, query: parseQuery(body.query),
      scoreMode: enumOf(name, 'score_mode', body.score_mode, ['avg', 'sum', 'min', 'max', 'none'] as const, 'avg'),
      ignoreUnmapped: booleanValue(body.ignore_unmapped, false), boost: boostOf(name, body.boost),
    };
    if (body.inner_hits !== undefined) q.innerHits = body.inner_hits as Record<string, unknown>;
    return q;
  },
  children: (q) => [q.query],
  withChildren: (q, f) => ({ ...q, query: f(q.query) }),
  rewrite(q, ctx) {
    const mapping = resolveFieldMapping(ctx.mappings, q.path);
    if (!mapping || fieldType(mapping) !== 'nested') {
      if (q.ignoreUnmapped) return { type: 'match_none' };
      throw new EsError(400, 'query_shard_exception', `[nested] failed to find nested object under path [${q.path}]`);
    }
    return { ...q, query: rewriteQuery(q.query, ctx) };
  },
  *execute(q, x, scoring) {
    return yield* nestedDocs(q, x, scoring);
  },
  matches(q, e) {
    for (const n of e.nested ?? []) {
      const sub: Evaluated = { ...e, fields: n.doc.fields, nested: n.doc.nested };
      if (n.path === q.path) {
        if (evaluate(q.query, sub)) return true;
      } else if (q.path.startsWith(n.path + '.') && evaluate(q, sub)) return true;
    }
    return false;
  },
  explain: explainByScore,
  print: (q, p) => `ToParentBlockJoinQuery (${p.child(q.query)})`,
  highlightTerms: (q, ctx) => collectHighlightTerms(q.query, ctx),
  scope: (q) => matchScope(q.query),
};
