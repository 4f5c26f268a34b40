import { EsError } from '../../errors/index.js';
import { ES_API, indexExpression, pathOfSegments, patternParam, patternSegments, RouteTable, serializeQuery, withParam, type EsApi, type EsRouteId, type RequestTarget } from '../../request/index.js';

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

/**
 * The Elasticsearch 8 APIs Elasticsearch 7 also served typed. Their typed forms are derived from
 * the route table's own paths of these APIs, with the methods the table gives them:
 * - `/{index}/{api…}` (no other parameter) → `/{index}/_doc/{api…}` (`/{index}/_doc/_search`);
 * - `/{index}/{api}/{id}` → `/{index}/_doc/{id}/{api}` (`/{index}/_doc/{id}/_update`);
 * - a mapping path, `_mapping` or its spelling `_mappings` → with `_doc` after it as well
 *   (`/{index}/_mapping/_doc`, `/_mapping/_doc/field/{fields}`).
 */
const TYPED_APIS: ReadonlySet<EsRouteId> = new Set<EsRouteId>([
  'search', 'search_template', 'msearch', 'msearch_template', 'count', 'indices.validate_query', 'mget', 'termvectors',
  'mtermvectors', 'bulk', 'delete_by_query', 'update_by_query', 'update', 'create', 'get_source', 'explain',
  'indices.get_mapping', 'indices.get_field_mapping', 'indices.put_mapping',
]);
const MAPPING_WORDS = ['_mapping', '_mappings'];

/** A typed form: the Elasticsearch 8 pattern's segments it stands for, and whether it is a mapping API. */
interface TypedForm {
  untyped: readonly string[];
  mapping: boolean;
  /** The pattern starts with an index expression (`{index}`). */
  indexFirst: boolean;
}

/** The typed forms of the table's paths, in a table of their own (matched as the one table matches: on decoded segments). */
const TYPED_FORMS = new RouteTable<TypedForm>();
/** The fewest segments of a typed form that ends with a parameter (`/_mapping/_doc/field/{fields}`): the others end with an API word. */
let paramLastLength = Infinity;
for (const api of ES_API as readonly EsApi[]) {
  if (!TYPED_APIS.has(api.id as EsRouteId)) continue;
  for (const path of api.paths) {
    const segments = patternSegments(path.pattern);
    const mappingAt = segments.findIndex((s) => MAPPING_WORDS.includes(s));
    for (const word of mappingAt < 0 ? [undefined] : MAPPING_WORDS) {
      const untyped = word === undefined ? segments : segments.map((s, i) => (i === mappingAt ? word : s));
      const form: TypedForm = { untyped, mapping: word !== undefined, indexFirst: segments[0] === '{index}' };
      const add = (typed: readonly string[]) => {
        TYPED_FORMS.add(path.methods, '/' + typed.join('/'), form);
        if (patternParam(typed[typed.length - 1]) !== undefined) paramLastLength = Math.min(paramLastLength, typed.length);
      };
      if (word !== undefined) add([...untyped.slice(0, mappingAt + 1), TYPE, ...untyped.slice(mappingAt + 1)]);
      if (!form.indexFirst) continue;
      const [index, name, ...rest] = untyped;
      const params = rest.filter((s) => patternParam(s) !== undefined);
      if (params.length === 0 || word !== undefined) add([index, TYPE, name, ...rest]);
      else if (rest.length === 1) add([index, TYPE, rest[0], name]);
    }
  }
}

/**
 * Where a path may be typed, by a look at the typed forms' shapes (most requests are answered by
 * it, `/{index}/_doc/{id}` among them): `_doc` second or third, and an API word last unless the
 * path is as long as a typed form ending with a parameter.
 */
const mayBeTyped = (segments: readonly string[]) =>
  (segments[1] === TYPE || segments[2] === TYPE) && (segments[segments.length - 1].startsWith('_') || segments.length >= paramLastLength);

/**
 * The Elasticsearch 8 form of an Elasticsearch 7 request typed with `_doc`, from the target the
 * edge decoded; undefined for any other request.
 */
export function typelessRequest(method: string, target: RequestTarget): TypelessRequest | undefined {
  if (!mayBeTyped(target.segments)) return undefined;
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

/** The Elasticsearch 8 segments of a typed path, its path parameters put back in their places. */
function untypedSegments(method: string, segments: readonly string[]): { segments: string[]; mapping: boolean } | undefined {
  const found = TYPED_FORMS.find(method, segments);
  if (!found) return undefined;
  const { value: form, pathParams } = found;
  // an index expression first, as the one table reads it (ES's `_all` among them, no other API word)
  if (form.indexFirst && !indexExpression(pathParams.index)) return undefined;
  return { segments: form.untyped.map((s) => { const name = patternParam(s); return name === undefined ? s : pathParams[name]; }), mapping: form.mapping };
}

/** Mapping answers typed as Elasticsearch 7 gives them (one implementation, with the compatibility mode's). */
export { typedMappings } from '../../rest-compat/index.js';

/** The flag, read as ES reads it: present without a value, or `true`, is on; `false` off; anything else a 400. */
function includeTypeName(value: string): boolean {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}
