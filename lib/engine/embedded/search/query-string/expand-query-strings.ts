import { queryStringToDsl, type FieldResolver, type Json } from './to-dsl.js';

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Where compound queries hold inner queries: key → one query, or an array of them. */
const INNER: Record<string, string[]> = {
  bool: ['must', 'should', 'filter', 'must_not'],
  constant_score: ['filter'],
  dis_max: ['queries'],
  boosting: ['positive', 'negative'],
  function_score: ['query'],
  script_score: ['query'],
  nested: ['query'],
  has_child: ['query'],
  has_parent: ['query'],
  pinned: ['organic'],
  rule: ['organic'],
  rule_query: ['organic'],
};

/**
 * A query tree with every `query_string` / `simple_query_string` turned into ordinary DSL,
 * their field patterns expanded against the target indices' mappings. Other queries are
 * returned as they are (shared, not copied).
 */
export function expandQueryStrings(query: unknown, resolver: FieldResolver, index?: { name: string; uuid: string }): unknown {
  if (!isObject(query)) return query;
  const keys = Object.keys(query);
  if (keys.length !== 1) return query;
  const name = keys[0];
  const body = query[name];
  if (name === 'query_string' || name === 'simple_query_string') {
    const dsl = queryStringToDsl(name, body, resolver, index);
    // its `_name` (named queries): kept on a bool of the one clause, which scores as the clause
    return isObject(body) && typeof body._name === 'string' ? { bool: { must: [dsl], _name: body._name } } : dsl;
  }
  if (!isObject(body)) return query;
  const inner = INNER[name];
  if (!inner) return query;
  const out: Json = { ...body };
  for (const k of inner) {
    const v = body[k];
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? v.map((q) => expandQueryStrings(q, resolver, index)) : expandQueryStrings(v, resolver, index);
  }
  if (name === 'function_score' && Array.isArray(body.functions)) {
    out.functions = body.functions.map((f) => (isObject(f) && f.filter !== undefined ? { ...f, filter: expandQueryStrings(f.filter, resolver, index) } : f));
  }
  return { [name]: out };
}
