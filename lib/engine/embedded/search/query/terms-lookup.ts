/**
 * The terms lookup form of the `terms` query (`{"terms": {"f": {"index", "id", "path", "routing"}}}`):
 * replaced, before parsing, by the values found at `path` in that document's `_source`, as ES
 * fetches them on the coordinating node. A missing document gives no terms; a missing index is
 * ES's index_not_found. The `more_like_this` documents named by id, and `geo_shape`'s
 * `indexed_shape`, are read the same way.
 */
import { EsError } from '../../../../errors/index.js';

/**
 * The `_source` of a document, undefined when there is none; throws when the index does not exist,
 * and version_conflict_engine_exception when `version` is given and the document has another.
 */
export type DocumentLookup = (index: string, id: string, routing?: string, version?: number) => Record<string, unknown> | undefined;

function valuesAt(source: unknown, path: string[]): unknown[] {
  if (path.length === 0) return source === undefined || source === null ? [] : Array.isArray(source) ? source.flat(Infinity) : [source];
  if (Array.isArray(source)) return source.flatMap((s) => valuesAt(s, path));
  if (source === null || typeof source !== 'object') return [];
  const obj = source as Record<string, unknown>;
  // Dotted keys in the source match a path prefix too ("a.b": …).
  for (let i = path.length; i >= 1; i--) {
    const key = path.slice(0, i).join('.');
    if (key in obj) return valuesAt(obj[key], path.slice(i));
  }
  return [];
}

function isLookup(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && ('index' in v || 'id' in v || 'path' in v);
}

function resolveTerms(body: Record<string, unknown>, lookup: DocumentLookup): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (field === 'boost' || field === '_name' || !isLookup(value)) {
      out[field] = value;
      continue;
    }
    const { index, id, path, routing } = value;
    if (typeof index !== 'string' || typeof id !== 'string' && typeof id !== 'number' || typeof path !== 'string') {
      throw new EsError(400, 'parsing_exception', '[terms] query lookup element requires specifying [index], [id] and [path]', { line: 1, col: 1 });
    }
    const source = lookup(index, String(id), typeof routing === 'string' ? routing : undefined);
    out[field] = source === undefined ? [] : valuesAt(source, path.split('.'));
  }
  return out;
}

/**
 * A `more_like_this` query's `like`/`unlike` documents named by `_index`/`_id` given their
 * `_source` (left as they are when not found); an item without `_index` reads `defaultIndex`.
 */
function resolveMoreLikeThis(body: Record<string, unknown>, lookup: DocumentLookup, defaultIndex: string | undefined): Record<string, unknown> {
  const resolveItem = (item: unknown): unknown => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const o = item as Record<string, unknown>;
    const id = o._id ?? o.id;
    const index = o._index ?? o.index ?? defaultIndex;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof index !== 'string' || o.doc !== undefined) return item;
    const source = lookup(index, String(id), typeof o.routing === 'string' ? o.routing : undefined);
    return source === undefined ? item : { ...o, _source: source };
  };
  const out: Record<string, unknown> = { ...body };
  for (const key of ['like', 'unlike']) {
    const v = body[key];
    if (v !== undefined) out[key] = Array.isArray(v) ? v.map(resolveItem) : resolveItem(v);
  }
  return out;
}

/**
 * A `geo_shape` query's `indexed_shape` (`{"index": "shapes", "id", "path": "shape", "routing"}`,
 * those defaults being Elasticsearch's) replaced by the shape found in that document.
 */
function resolveIndexedShapes(body: Record<string, unknown>, lookup: DocumentLookup, unread = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    const spec = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    const indexed = spec?.indexed_shape;
    if (!spec || indexed === null || typeof indexed !== 'object' || Array.isArray(indexed)) {
      out[field] = value;
      continue;
    }
    const { index = 'shapes', id, path = 'shape', routing } = indexed as Record<string, unknown>;
    if (typeof id !== 'string' && typeof id !== 'number') throw new EsError(400, 'illegal_argument_exception', 'either shape or indexedShapeId is required');
    const source = lookup(String(index), String(id), typeof routing === 'string' ? routing : undefined);
    if (source === undefined) throw new EsError(400, 'illegal_argument_exception', `Shape with ID [${id}] not found`);
    const [shape] = unread ? [PLACEHOLDER_SHAPE] : valuesAt(source, String(path).split('.'));
    if (shape === undefined) throw new EsError(400, 'illegal_state_exception', `Shape with name [${id}] found but missing ${String(path)} field`);
    const { indexed_shape: _, ...rest } = spec;
    out[field] = { ...rest, shape };
  }
  return out;
}

/**
 * A `percolate` query naming an indexed document (`index`, `id`, `routing`; `preference` and
 * `version` read alike) given that document's source as its `document`, as Elasticsearch's
 * PercolateQueryBuilder fetches it before the query is rewritten. A missing document is its
 * resource_not_found_exception.
 */
function resolvePercolated(body: Record<string, unknown>, lookup: DocumentLookup, unread: boolean): Record<string, unknown> {
  if (body.index === undefined && body.id === undefined) return body;
  const { index, id, routing, preference: _p, version, ...rest } = body;
  if (typeof index !== 'string') throw new EsError(400, 'illegal_argument_exception', '[index] is a required argument');
  if (typeof id !== 'string' && typeof id !== 'number') throw new EsError(400, 'illegal_argument_exception', '[id] is a required argument');
  if (rest.document !== undefined || rest.documents !== undefined) {
    throw new EsError(400, 'illegal_argument_exception', 'query, document and indexed document reference are mutually exclusive');
  }
  if (version !== undefined && (typeof version !== 'number' || !Number.isInteger(version))) throw new EsError(400, 'illegal_argument_exception', '[version] must be a number');
  const source = unread ? {} : lookup(index, String(id), typeof routing === 'string' ? routing : undefined, version);
  if (source === undefined) throw new EsError(404, 'resource_not_found_exception', `indexed document [${index}/${id}] couldn't be found`);
  return { ...rest, document: source };
}

/**
 * The query with every document lookup resolved: terms lookups replaced by their values,
 * `more_like_this` documents given their source, indexed shapes fetched (other parts are kept as
 * they are).
 */
export function resolveTermsLookups(query: unknown, lookup: DocumentLookup, defaultIndex?: string, unread = false): unknown {
  if (Array.isArray(query)) {
    const out = query.map((q) => resolveTermsLookups(q, lookup, defaultIndex, unread));
    return out.some((q, i) => q !== query[i]) ? out : query;
  }
  if (query === null || typeof query !== 'object') return query;
  // a part with no lookup is the part as given, not a copy: the same objects, whose long texts'
  // pieces the body's parse kept (cooperative/long-strings.ts) and a copy would lose
  const entries = Object.entries(query as Record<string, unknown>);
  const resolved = entries.map(([k, v]) => {
    const isBody = v !== null && typeof v === 'object' && !Array.isArray(v);
    if (k === 'terms' && isBody) return resolveTerms(v as Record<string, unknown>, lookup);
    if (k === 'more_like_this' && isBody) return resolveMoreLikeThis(v as Record<string, unknown>, lookup, defaultIndex);
    if (k === 'percolate' && isBody) return resolvePercolated(v as Record<string, unknown>, lookup, unread);
    if (k === 'geo_shape' && isBody) return resolveIndexedShapes(v as Record<string, unknown>, unread ? () => ({ shape: PLACEHOLDER_SHAPE }) : lookup, unread);
    return resolveTermsLookups(v, lookup, defaultIndex, unread);
  });
  if (resolved.every((r, i) => r === entries[i][1])) return query;
  const out: Record<string, unknown> = {};
  entries.forEach(([k], i) => (out[k] = resolved[i]));
  return out;
}

/** An indexed shape's stand-in while a query is only checked: where it lies plays no part in parsing. */
const PLACEHOLDER_SHAPE = { type: 'point', coordinates: [0, 0] };

/**
 * The query as it will parse once its lookups are resolved, read without reading any document:
 * terms lookups give no terms, `more_like_this` documents are kept as named, indexed shapes are
 * stood in for by a point. For checking a request's queries before any of them runs (`_msearch`
 * refuses the whole request when one does not parse, as Elasticsearch does) — a lookup's own form
 * is still checked.
 */
export function withLookupsUnread(query: unknown): unknown {
  return resolveTermsLookups(query, () => undefined, undefined, true);
}

/** Aggregation types whose parameters hold queries, and where (ES rewrites these as it rewrites the search's query). */
function aggregationQueries(type: string, params: Record<string, unknown>, resolve: (q: unknown) => unknown): Record<string, unknown> {
  if (type === 'filter') return resolve(params) as Record<string, unknown>;
  if ((type === 'filters' || type === 'adjacency_matrix') && params.filters !== null && typeof params.filters === 'object') {
    const filters = Array.isArray(params.filters)
      ? params.filters.map(resolve)
      : Object.fromEntries(Object.entries(params.filters as Record<string, unknown>).map(([k, q]) => [k, resolve(q)]));
    return { ...params, filters };
  }
  if ((type === 'significant_terms' || type === 'significant_text') && params.background_filter !== undefined) {
    return { ...params, background_filter: resolve(params.background_filter) };
  }
  return params;
}

function resolveAggregations(aggs: unknown, resolve: (q: unknown) => unknown, depth = 0): unknown {
  if (aggs === null || typeof aggs !== 'object' || Array.isArray(aggs) || depth > 100) return aggs;
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(aggs as Record<string, unknown>)) {
    if (def === null || typeof def !== 'object' || Array.isArray(def)) {
      out[name] = def;
      continue;
    }
    const resolved: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(def as Record<string, unknown>)) {
      if (k === 'aggs' || k === 'aggregations') resolved[k] = resolveAggregations(v, resolve, depth + 1);
      else if (k === 'meta' || v === null || typeof v !== 'object' || Array.isArray(v)) resolved[k] = v;
      else resolved[k] = aggregationQueries(k, v as Record<string, unknown>, resolve);
    }
    out[name] = resolved;
  }
  return out;
}

/**
 * A search body's other queries with their document lookups resolved as its `query`'s are: the
 * `post_filter`, and the queries of its aggregations (`filter`, `filters`, `adjacency_matrix`,
 * a significant_terms `background_filter`, through sub-aggregations) — ES fetches the looked-up
 * documents in the rewrite of the whole request.
 */
export function resolveBodyLookups(body: Record<string, unknown> | undefined, lookup: DocumentLookup, defaultIndex?: string): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  const resolve = (q: unknown) => resolveTermsLookups(q, lookup, defaultIndex);
  let out = body;
  if (body.post_filter !== undefined) out = { ...out, post_filter: resolve(body.post_filter) };
  for (const key of ['aggs', 'aggregations']) if (body[key] !== undefined) out = { ...out, [key]: resolveAggregations(body[key], resolve) };
  return out;
}
