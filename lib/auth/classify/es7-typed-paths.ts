import { EsError } from '../../errors/index.js';
import type { ClassifiableRequest } from '../../request/index.js';
import { pathOf, pathSegments } from './path-segments.js';

/**
 * Elasticsearch 7's typed paths with the type `_doc` (`/{index}/_doc/_search`,
 * `/{index}/_doc/{id}/_update`, `/{index}/_mapping/_doc`…), as Elasticsearch 7 and Elasticsearch
 * 8's REST compatibility mode serve them, in their Elasticsearch 8 form (`/{index}/_search`,
 * `/{index}/_update/{id}`, `/{index}/_mapping`).
 *
 * The request path calls `typelessRequest` once, before the classifier: the classification, the
 * authorization and every later step see the Elasticsearch 8 request, and it is what the engine
 * gets, on both backends. The classifier itself reads paths as Elasticsearch 8 does (without the
 * compatibility mode): `POST /{index}/_doc/_search` that did not come this way indexes a document
 * whose id is `_search`, and is classified as that.
 *
 * `_doc` is Elasticsearch's own name for an index's documents, untyped: it means that in every
 * index, a registered app's too (the app-addressed style's types never start with `_`).
 */
export interface TypelessRequest {
  /** The Elasticsearch 8 path, percent-encoded. */
  path: string;
  /** The query string, without `include_type_name` (which Elasticsearch 8 does not know). */
  querystring: string;
  /**
   * A mapping read that asked `include_type_name=true`: Elasticsearch 7 answers with each index's
   * mappings under the type's name (`{"idx": {"mappings": {"_doc": {…}}}}`); see `typedMappings`.
   */
  typedAnswer: boolean;
}

const TYPE = '_doc';
const GET_POST = ['GET', 'POST'] as const;

/** `/{index}/_doc/{api…}` → `/{index}/{api…}`: the typed APIs on an index's documents, with the methods ES 7 routes to them. */
const COLLECTION_APIS: Readonly<Record<string, readonly string[]>> = {
  _search: GET_POST,
  '_search/template': GET_POST,
  _msearch: GET_POST,
  '_msearch/template': GET_POST,
  _count: GET_POST,
  '_validate/query': GET_POST,
  _mget: GET_POST,
  _termvectors: GET_POST,
  _mtermvectors: GET_POST,
  _bulk: ['POST', 'PUT'],
  _delete_by_query: ['POST'],
  _update_by_query: ['POST'],
};

/** `/{index}/_doc/{id}/{api}` → `/{index}/{api}/{id}`: the typed APIs on one document. */
const DOCUMENT_APIS: Readonly<Record<string, readonly string[]>> = {
  _update: ['POST'],
  _create: ['PUT', 'POST'],
  _source: ['GET', 'HEAD'],
  _explain: GET_POST,
  _termvectors: GET_POST,
};

const MAPPING_WORDS = new Set(['_mapping', '_mappings']);
const MAPPING_METHODS = new Set(['GET', 'PUT', 'POST']);

/** Where a path may be typed: `/_doc/_…`, `/_doc/{id}/_…`, `/_mapping[s]/_doc` (`/{index}/_doc/{id}` is not). */
const MAYBE_TYPED = /\/_doc\/+(?:[^/]+\/+)?_|\/_mappings?\/+_doc(?:\/|$)/;

/**
 * The Elasticsearch 8 form of an Elasticsearch 7 request typed with `_doc`; undefined for any
 * other request (most of them, answered without decoding the path).
 */
export function typelessRequest(req: ClassifiableRequest): TypelessRequest | undefined {
  // a look at the path as sent before decoding it (`_doc` may also be spelled with escapes: `%5Fdoc`)
  if (!MAYBE_TYPED.test(req.path) && !req.path.includes('%')) return undefined;
  const method = (req.method || 'GET').toUpperCase();
  const untyped = untypedSegments(method, pathSegments(req.path));
  if (!untyped) return undefined;
  let querystring = req.querystring ?? '';
  let typedAnswer = false;
  if (untyped.mapping && querystring.includes('include_type_name')) {
    // the other parameters go on as they were written
    const parts = querystring.split('&');
    const named = parts.filter((p) => parameterName(p) === 'include_type_name');
    if (named.length) {
      typedAnswer = method === 'GET' && includeTypeName(named[named.length - 1]);
      querystring = parts.filter((p) => parameterName(p) !== 'include_type_name').join('&');
    }
  }
  return { path: pathOf(untyped.segments), querystring, typedAnswer };
}

/** Mapping answers typed as Elasticsearch 7 gives them (one implementation, with the compatibility mode's). */
export { typedMappings } from '../../rest-compat/index.js';

function untypedSegments(method: string, segments: string[]): { segments: string[]; mapping: boolean } | undefined {
  const [first, second, ...rest] = segments;
  if (first === undefined || second === undefined) return undefined;
  // `/_mapping/_doc[/field/{fields}]`: every index's mappings
  if (MAPPING_WORDS.has(first)) {
    return second === TYPE && method === 'GET' && isMappingApi(method, rest) ? { segments: [first, ...rest], mapping: true } : undefined;
  }
  // anything else starts with an index expression (ES's `_all` among them)
  if (first.startsWith('_') && first !== '_all' && !first.startsWith('_all,')) return undefined;
  if (second === TYPE) {
    const [api, ...after] = rest;
    if (api === undefined) return undefined; // `/{index}/_doc`: Elasticsearch 8's own
    // `/{index}/_doc/_mapping[/field/{fields}]`
    if (MAPPING_WORDS.has(api) && isMappingApi(method, after)) return { segments: [first, ...rest], mapping: true };
    if (COLLECTION_APIS[rest.join('/')]?.includes(method)) return { segments: [first, ...rest], mapping: false };
    // `/{index}/_doc/{id}/{api}` (an id may start with `_`); `/{index}/_doc/{id}` is Elasticsearch 8's own
    if (after.length === 1 && DOCUMENT_APIS[after[0]]?.includes(method)) return { segments: [first, after[0], api], mapping: false };
    return undefined;
  }
  // `/{index}/_mapping/_doc[/field/{fields}]`
  if (MAPPING_WORDS.has(second) && rest[0] === TYPE && isMappingApi(method, rest.slice(1))) {
    return { segments: [first, second, ...rest.slice(1)], mapping: true };
  }
  return undefined;
}

/** What follows `_mapping` and the type: nothing (get or put mapping), or `field/{fields}` (get field mapping). */
function isMappingApi(method: string, after: readonly string[]): boolean {
  if (after.length === 0) return MAPPING_METHODS.has(method);
  return method === 'GET' && after.length === 2 && after[0] === 'field';
}

function parameterName(part: string): string {
  const eq = part.indexOf('=');
  return decoded(eq < 0 ? part : part.slice(0, eq));
}

/** A query string's name or value, decoded as ES decodes it (`+` is a space). */
function decoded(text: string): string {
  const raw = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The flag, read as ES reads it: present without a value, or `true`, is on; `false` off; anything else a 400. */
function includeTypeName(part: string): boolean {
  const eq = part.indexOf('=');
  const value = eq < 0 ? '' : decoded(part.slice(eq + 1));
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}
