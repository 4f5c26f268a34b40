import { EsError } from '../../errors/index.js';
import { pathOfSegments, serializeQuery, withParam, type RequestTarget } from '../../request/index.js';

/**
 * Elasticsearch 7's typed paths with the type `_doc` (`/{index}/_doc/_search`,
 * `/{index}/_doc/{id}/_update`, `/{index}/_mapping/_doc`…), as Elasticsearch 7 and Elasticsearch
 * 8's REST compatibility mode serve them, in their Elasticsearch 8 form (`/{index}/_search`,
 * `/{index}/_update/{id}`, `/{index}/_mapping`).
 *
 * The edge calls `typelessRequest` once, before the request is read from the route table: the
 * classification, the authorization and every later step see the Elasticsearch 8 request, and it
 * is what the engine gets, on both backends. It is the one rewrite of a path at the edge. A typed
 * path is Elasticsearch 7's API whatever the method (`GET` and `POST /{index}/_doc/_search`
 * search, as appbase-js 5 and 7.x clients send them; docs/api-compatibility.md): the product
 * serves 7.x-era clients on every index, so a document whose id is an API word (`_search`) is not
 * reachable through `/{index}/_doc/{id}` — it is through `/{index}/_source/{id}` or `_mget`.
 *
 * `_doc` is Elasticsearch's own name for an index's documents, untyped: it means that in every
 * index, a registered app's too (the app-addressed style's types never start with `_`).
 */
export interface TypelessRequest {
  /** The Elasticsearch 8 target: its path, and its parameters without `include_type_name` (which Elasticsearch 8 does not know). */
  target: RequestTarget;
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
 * The Elasticsearch 8 form of an Elasticsearch 7 request typed with `_doc`, from the target the
 * edge decoded; undefined for any other request (most of them, answered by a look at the
 * canonical path, where `_doc` is never escaped).
 */
export function typelessRequest(method: string, target: RequestTarget): TypelessRequest | undefined {
  if (!MAYBE_TYPED.test(target.path)) return undefined;
  const m = (method || 'GET').toUpperCase();
  const untyped = untypedSegments(m, target.segments);
  if (!untyped) return undefined;
  let { params, querystring } = target;
  let typedAnswer = false;
  const include = untyped.mapping ? params.get('include_type_name') : undefined;
  if (include !== undefined) {
    typedAnswer = m === 'GET' && includeTypeName(include);
    params = withParam(params, 'include_type_name', undefined);
    querystring = serializeQuery(params);
  }
  return { target: { ...target, path: pathOfSegments(untyped.segments), segments: untyped.segments, params, querystring }, typedAnswer };
}

/** Mapping answers typed as Elasticsearch 7 gives them (one implementation, with the compatibility mode's). */
export { typedMappings } from '../../rest-compat/index.js';

function untypedSegments(method: string, segments: readonly string[]): { segments: string[]; mapping: boolean } | undefined {
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

/** The flag, read as ES reads it: present without a value, or `true`, is on; `false` off; anything else a 400. */
function includeTypeName(value: string): boolean {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}
