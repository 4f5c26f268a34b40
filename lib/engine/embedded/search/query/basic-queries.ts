/**
 * The query types that need no analysis and read one thing of a document: all documents, none,
 * those with given ids, those with a value in a field. Each one object with every pass over the
 * query tree (query-type.ts).
 */
import { DocSetBuilder, ScoredDocs } from './doc-set.js';
import { fieldExists } from './document-matcher.js';
import { allLive, existsQuery } from './execute-query.js';
import { boosted, explainByScore, node } from './explain-query.js';
import { clauseless } from './clauseless.js';
import { checkKeys, isObject, parsingError } from './parse-query.js';
import { boostOf } from './query-fields.js';
import type { QueryOf, QueryType } from './query-type.js';

/** What every leaf type answers the same: no children, nothing to rewrite, no terms to highlight, decided by the document alone. */
const leaf = <T extends 'match_all' | 'match_none' | 'ids' | 'exists'>() => ({
  ...clauseless<T>(),
  scope: () => 'document' as const,
});

export const matchAll: QueryType<'match_all'> = {
  name: 'match_all',
  ...leaf<'match_all'>(),
  parse(body) {
    if (!isObject(body)) throw parsingError('[match_all] query malformed, no start_object after query name');
    return { type: 'match_all', boost: boostOf('match_all', body.boost) };
  },
  *execute(q, x, scoring) {
    return allLive(x, scoring ? q.boost : 0);
  },
  matches: () => true,
  explain: (q, _ord, _c, scoring) => node(scoring ? q.boost : 0, boosted('*:*', q.boost)),
  print: () => '*:*',
};

export const matchNone: QueryType<'match_none'> = {
  name: 'match_none',
  ...leaf<'match_none'>(),
  parse: () => ({ type: 'match_none' }),
  *execute() {
    return ScoredDocs.empty();
  },
  matches: () => false,
  explain: () => undefined,
  print: () => 'MatchNoDocsQuery("")',
};

export const ids: QueryType<'ids'> = {
  name: 'ids',
  ...leaf<'ids'>(),
  parse(body) {
    if (!isObject(body)) throw parsingError('[ids] query malformed, no start_object after query name');
    checkKeys('ids', body, ['values', 'boost', '_name', 'type']);
    const values = body.values === undefined ? [] : body.values;
    if (!Array.isArray(values)) throw parsingError('[ids] values doesn\'t support values of type: VALUE_STRING');
    return { type: 'ids', values: values.map((v) => String(v)), boost: boostOf('ids', body.boost) };
  },
  *execute(q, x, scoring) {
    const ords = [...new Set(q.values.map((id) => x.index.ordOf(id)).filter((o): o is number => o !== undefined))].sort((a, b) => a - b);
    const out = new DocSetBuilder(ords.length);
    for (const o of ords) out.add(o, scoring ? q.boost : 0);
    return out.build();
  },
  matches: (q, doc) => q.values.includes(doc.id),
  explain: (q, ord, c, scoring) => explainByScore(q, ord, c, scoring),
  print: (q) => `_id:(${q.values.join(' ')})`,
};

export const exists: QueryType<'exists'> = {
  name: 'exists',
  ...leaf<'exists'>(),
  matchesIndexName: () => true,
  parse(body) {
    if (!isObject(body) || typeof body.field !== 'string') throw parsingError('[exists] must be provided with a [field]');
    return { type: 'exists', field: body.field, boost: boostOf('exists', body.boost) };
  },
  *execute(q, x, scoring) {
    return yield* existsQuery(q.field, x, scoring ? q.boost : 0);
  },
  matches: (q, doc) => fieldExists(doc.fields, q.field),
  explain: (q, ord, c, scoring) => explainByScore(q, ord, c, scoring),
  print: (q) => `FieldExistsQuery [field=${q.field}]`,
};
