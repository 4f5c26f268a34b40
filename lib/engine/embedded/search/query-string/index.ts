/**
 * `query_string` (Lucene classic syntax, also the URI search `q=`) and `simple_query_string`,
 * turned into ordinary query DSL that the query parser then parses as usual.
 *
 * - `queryStringToDsl(kind, body, resolver?)`: one query body → DSL JSON.
 * - `createFieldResolver(indices)`: field-pattern expansion (`*`, `name.*`,
 *   `index.query.default_field`) and per-field normalization from the target indices' mappings.
 * - `expandQueryStrings(query, resolver)`: converts every such query inside a query tree.
 * - `uriSearchQuery(params)`: the `query_string` query the `q=` parameter stands for.
 */
export { queryStringToDsl, type FieldResolver, type Json } from './to-dsl.js';
export { createFieldResolver, type FieldSource } from './field-resolver.js';
export { expandQueryStrings } from './expand-query-strings.js';
export { uriSearchQuery } from './uri-search.js';
