import { EsError } from '../errors/index.js';
import type { PipelineContext } from './context.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Full-text queries whose text the search-term stages rewrite. */
const TEXT_QUERIES = new Set(['match', 'match_phrase', 'match_phrase_prefix', 'match_bool_prefix', 'multi_match', 'query_string', 'simple_query_string', 'combined_fields']);
const SEARCH_COMPONENTS = new Set([undefined, 'search', 'suggestion']);

function parseBody(text: string, what: string): Json {
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new EsError(400, 'parse_exception', `${what}: the request body is not JSON`);
  }
  if (!isObject(body)) throw new EsError(400, 'parse_exception', `${what}: the request body is not a JSON object`);
  return body;
}

/**
 * Rewrites the search text of the request: the `value` of declarative search and suggestion
 * components, or the text of full-text queries in a query DSL body.
 */
export function rewriteSearchText(context: PipelineContext, what: string, rewrite: (text: string) => string): void {
  const body = parseBody(context.request.body, what);
  if (Array.isArray(body.query)) {
    for (const c of body.query) {
      if (isObject(c) && SEARCH_COMPONENTS.has(c.type as string | undefined) && typeof c.value === 'string') c.value = rewrite(c.value);
    }
  } else if (isObject(body.query)) {
    rewriteClauses(body.query, rewrite);
  }
  context.request.body = JSON.stringify(body);
}

function rewriteClauses(node: unknown, rewrite: (text: string) => string): void {
  if (Array.isArray(node)) return node.forEach((n) => rewriteClauses(n, rewrite));
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (TEXT_QUERIES.has(key) && isObject(value)) {
      if (typeof value.query === 'string') value.query = rewrite(value.query);
      else {
        for (const [field, spec] of Object.entries(value)) {
          if (typeof spec === 'string') value[field] = rewrite(spec);
          else if (isObject(spec) && typeof spec.query === 'string') spec.query = rewrite(spec.query);
        }
      }
    } else {
      rewriteClauses(value, rewrite);
    }
  }
}

/**
 * Applies `change` to every search body of the request: the JSON body of a search, or each body
 * line of an `_msearch` (what `declarativeQuery` produces).
 */
export function changeSearchBodies(context: PipelineContext, what: string, change: (body: Json) => void): void {
  const req = context.request;
  if (/\/_msearch$/.test(req.path)) {
    const lines = req.body.split('\n').filter((l) => l.trim() !== '');
    req.body = lines.map((line, i) => (i % 2 === 1 ? JSON.stringify(withChange(parseBody(line, what), change)) : line)).join('\n') + '\n';
    return;
  }
  const body = parseBody(req.body, what);
  if (Array.isArray(body.query)) throw new EsError(400, 'illegal_argument_exception', `${what}: a declarative body has no query DSL yet; place this stage after declarativeQuery`);
  req.body = JSON.stringify(withChange(body, change));
}

function withChange(body: Json, change: (body: Json) => void): Json {
  change(body);
  return body;
}

/** `query` AND the clauses (`filter`) AND NOT the others (`must_not`). */
export function constrainQuery(body: Json, filter: unknown[], mustNot: unknown[] = []): void {
  const bool: Json = { must: [body.query ?? { match_all: {} }] };
  if (filter.length) bool.filter = filter;
  if (mustNot.length) bool.must_not = mustNot;
  body.query = { bool };
}

/** Applies `change` to every hit list of the response (a search, an `_msearch`, a declarative reply). */
export function changeHitLists(context: PipelineContext, what: string, change: (hits: Json[]) => Json[]): void {
  const text = context.response.body ?? '';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EsError(400, 'illegal_argument_exception', `${what}: the response is not a JSON search result`);
  }
  const visit = (node: unknown, depth: number): void => {
    if (depth > 3 || (!isObject(node) && !Array.isArray(node))) return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    if (isObject(node.hits) && Array.isArray(node.hits.hits)) {
      node.hits.hits = change(node.hits.hits as Json[]);
      return;
    }
    for (const value of Object.values(node)) visit(value, depth + 1);
  };
  visit(body, 0);
  context.response.body = JSON.stringify(body);
}
