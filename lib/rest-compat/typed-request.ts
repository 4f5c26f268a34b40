import { EsError } from '../errors/index.js';
import { FIELD_MAPPING_LOCAL, INCLUDE_TYPE_NAME, TYPES_REMOVAL } from './warnings.js';

/** How a compatibility-mode body is put in its Elasticsearch 8 form (see typed-bodies.ts). */
export type BodyForm = 'bulk' | 'mget' | 'msearch' | 'mapping' | 'index-mappings' | 'rollover' | 'search';

/** A request of the compatibility mode (`compatible-with=7`) in the Elasticsearch 8 form the engine serves. */
export interface CompatibleRequest {
  /** The path's segments (decoded), typeless. */
  segments: string[];
  /** Whether `segments` differ from the request's. */
  retyped: boolean;
  /** `include_type_name` must leave the parameters (Elasticsearch 8 does not know it). */
  dropsIncludeTypeName: boolean;
  /** The deprecation warnings the answer carries for the typed path. */
  warnings: string[];
  /** The warning for `include_type_name`, which whoever serves the parameter gives. */
  includeTypeNameWarning?: string;
  /** The warning for `local` on get field mapping, which whoever serves the parameter gives too. */
  localWarning?: string;
  /** The body's rewrite, if it may carry types. */
  body?: BodyForm;
  /** Mappings are answered under the type `_doc` (a mapping or index read with `include_type_name=true`). */
  typedAnswer: boolean;
}

const GET_POST = ['GET', 'POST'];

interface Api {
  methods: string[];
  warning: string;
  body?: BodyForm;
}

/** `/{index}/{type}/{api…}` → `/{index}/{api…}`: Elasticsearch 8's V7 routes on a type's documents. */
const COLLECTION_APIS: Record<string, Api> = {
  _search: { methods: GET_POST, warning: TYPES_REMOVAL.search, body: 'search' },
  '_search/template': { methods: GET_POST, warning: TYPES_REMOVAL.searchTemplate },
  _msearch: { methods: GET_POST, warning: TYPES_REMOVAL.msearch, body: 'msearch' },
  '_msearch/template': { methods: GET_POST, warning: TYPES_REMOVAL.msearchTemplate, body: 'msearch' },
  _count: { methods: GET_POST, warning: TYPES_REMOVAL.count },
  '_validate/query': { methods: GET_POST, warning: TYPES_REMOVAL.validate },
  _mget: { methods: GET_POST, warning: TYPES_REMOVAL.mget, body: 'mget' },
  _termvectors: { methods: GET_POST, warning: TYPES_REMOVAL.termvectors },
  _mtermvectors: { methods: GET_POST, warning: TYPES_REMOVAL.mtermvectors },
  _bulk: { methods: ['POST', 'PUT'], warning: TYPES_REMOVAL.bulk, body: 'bulk' },
  _delete_by_query: { methods: ['POST'], warning: TYPES_REMOVAL.deleteByQuery },
  _update_by_query: { methods: ['POST'], warning: TYPES_REMOVAL.updateByQuery },
};

/** `/{index}/{type}/{id}/{api}` → `/{index}/{api}/{id}`: the V7 routes on one typed document. */
const DOCUMENT_APIS: Record<string, Api> = {
  _update: { methods: ['POST'], warning: TYPES_REMOVAL.update },
  _create: { methods: ['PUT', 'POST'], warning: TYPES_REMOVAL.index },
  _source: { methods: ['GET', 'HEAD'], warning: TYPES_REMOVAL.source },
  _explain: { methods: GET_POST, warning: TYPES_REMOVAL.explain },
  _termvectors: { methods: GET_POST, warning: TYPES_REMOVAL.termvectors },
};

/** `/{index}/{type}/{id}`, by method. */
const DOCUMENT_WARNINGS: Record<string, string> = {
  GET: TYPES_REMOVAL.get,
  HEAD: TYPES_REMOVAL.get,
  PUT: TYPES_REMOVAL.index,
  POST: TYPES_REMOVAL.index,
  DELETE: TYPES_REMOVAL.delete,
};

/** Bodies that may name types however the path is written (`_type` in bulk and mget items, `type` in msearch headers). */
const TYPED_BODIES: Record<string, BodyForm> = { _bulk: 'bulk', _mget: 'mget', _msearch: 'msearch', _search: 'search' };

const MAPPING = new Set(['_mapping', '_mappings']);

/**
 * A type segment: any name, `_doc` and `_all` among them (Elasticsearch 8's V7 routes take any
 * word for `{type}`); not another of Elasticsearch's API words (`/{index}/_alias/…` stays what it is).
 */
const isType = (s: string | undefined): s is string => s !== undefined && s.length > 0 && (s === '_doc' || s === '_all' || !s.startsWith('_'));
/** A path's first segment that names indices (ES's `_all` among them). */
const isIndex = (s: string | undefined): s is string => s !== undefined && (!s.startsWith('_') || s === '_all' || s.startsWith('_all,'));

/** A request's URL parameters, as far as compatibility reads them (the engine's UrlParams, or the gateway's decoded map). */
export type ParamLookup = QueryParameters;

/**
 * The Elasticsearch 8 form of a request made in compatibility mode: Elasticsearch 8's routes
 * deprecated for version 7 (the typed document, search and mapping paths, `include_type_name`), each
 * rewritten to the typeless route that serves it, with the warnings Elasticsearch sends. The type in
 * a path is read and ignored, as Elasticsearch 8 does: an index has one type, `_doc`. Throws ES's
 * 400s for a type a mapping API refuses without `include_type_name=true`.
 */
/** Query parameters as a reader of them has them: the gateway's decoded map, or the engine's own. */
export interface QueryParameters {
  get(name: string): string | null | undefined;
}

export function compatibleRequest(method: string, segments: readonly string[], params: QueryParameters): CompatibleRequest {
  const out: CompatibleRequest = { segments: [...segments], retyped: false, dropsIncludeTypeName: false, warnings: [], typedAnswer: false };
  const includeTypeName = includeTypeNameOf(params);
  if (includeTypeName !== undefined) out.dropsIncludeTypeName = true;
  const mapping = typedMapping(method, segments);
  if (mapping?.field && params.get('local') != null) out.localWarning = FIELD_MAPPING_LOCAL;
  if (mapping) return mappingRequest(out, method, mapping, includeTypeName);
  const [index, type, ...rest] = segments;
  if (isIndex(index) && isType(type)) {
    const api = rest.join('/');
    const collection = COLLECTION_APIS[api];
    if (collection?.methods.includes(method)) return retyped(out, [index, ...rest], collection.warning, collection.body);
    const [id, docApi] = rest;
    const document = docApi === undefined ? undefined : DOCUMENT_APIS[docApi];
    if (rest.length === 2 && document?.methods.includes(method)) return retyped(out, [index, docApi, id], document.warning);
    // `/{index}/_doc/{id}` and `POST /{index}/_doc` are Elasticsearch 8's own
    if (type !== '_doc' && rest.length === 1 && DOCUMENT_WARNINGS[method]) return retyped(out, [index, '_doc', id], DOCUMENT_WARNINGS[method]);
    if (type !== '_doc' && rest.length === 0 && method === 'POST') return retyped(out, [index, '_doc'], TYPES_REMOVAL.index);
  }
  const api = isIndex(index) ? type : index;
  if (api !== undefined && TYPED_BODIES[api] && segments.length === (isIndex(index) ? 2 : 1)) out.body = TYPED_BODIES[api];
  if (includeTypeName !== undefined) {
    includeTypeNameOnIndex(out, method, segments, includeTypeName);
    includeTypeNameOnTemplate(out, method, segments, includeTypeName);
  }
  rolloverBody(out, method, segments, includeTypeName);
  return out;
}

function retyped(out: CompatibleRequest, segments: string[], warning: string, body?: BodyForm): CompatibleRequest {
  out.segments = segments;
  out.retyped = true;
  out.warnings.push(warning);
  if (body) out.body = body;
  return out;
}

interface TypedMapping {
  /** The typeless mapping path. */
  segments: string[];
  /** Whether the path named a type. */
  typed: boolean;
  field: boolean;
}

/**
 * The mapping APIs, typed or not: `/{index}/_mapping[/{type}]`, `/{index}/{type}/_mapping`,
 * `/_mapping[/{type}]`, and their `field/{fields}` forms.
 */
function typedMapping(method: string, segments: readonly string[]): TypedMapping | undefined {
  const [a, b, c, ...rest] = segments;
  const withField = (base: string[], tail: readonly string[], typed: boolean): TypedMapping | undefined => {
    if (tail.length === 0) return { segments: base, typed, field: false };
    if (tail.length === 2 && tail[0] === 'field' && method === 'GET') return { segments: [...base, 'field', tail[1]], typed, field: true };
    return undefined;
  };
  if (MAPPING.has(a)) {
    if (b === undefined) return { segments: [a], typed: false, field: false };
    if (b === 'field') return withField([a], segments.slice(1), false);
    return isType(b) ? withField([a], segments.slice(2), true) : undefined;
  }
  if (!isIndex(a)) return undefined;
  if (MAPPING.has(b)) {
    if (c === undefined) return { segments: [a, b], typed: false, field: false };
    if (c === 'field') return withField([a, b], segments.slice(2), false);
    return isType(c) ? withField([a, b], rest, true) : undefined;
  }
  if (isType(b) && MAPPING.has(c)) return withField([a, c], rest, true);
  return undefined;
}

function mappingRequest(out: CompatibleRequest, method: string, mapping: TypedMapping, includeTypeName: boolean | undefined): CompatibleRequest {
  const reads = method === 'GET' || method === 'HEAD';
  if (mapping.typed) {
    out.warnings.push(mapping.field ? TYPES_REMOVAL.getFieldMapping : reads ? TYPES_REMOVAL.getMapping : TYPES_REMOVAL.putMapping);
    if (includeTypeName !== true && method !== 'HEAD') {
      throw new EsError(400, 'illegal_argument_exception', mapping.field
        ? 'Types cannot be specified unless include_type_name is set to true.'
        : reads
          ? 'Types cannot be provided in get mapping requests, unless include_type_name is set to true.'
          : 'Types cannot be provided in put mapping requests, unless the include_type_name parameter is set to true.');
    }
  }
  if (includeTypeName !== undefined) {
    out.includeTypeNameWarning = mapping.field ? INCLUDE_TYPE_NAME.getFieldMapping : reads ? INCLUDE_TYPE_NAME.getMapping : INCLUDE_TYPE_NAME.putMapping;
  }
  // in the spelling the route table knows, `_mapping` (Elasticsearch 8 takes `_mappings` as well); and
  // `PUT /_mapping/{type}` puts the mapping on every index, as `PUT /_all/_mapping` does
  const segments = reads
    ? mapping.segments.map((s, i) => (i < 2 && MAPPING.has(s) ? '_mapping' : s))
    : [MAPPING.has(mapping.segments[0]) ? '_all' : mapping.segments[0], '_mapping'];
  out.retyped = segments.join('/') !== out.segments.join('/');
  out.segments = segments;
  if (includeTypeName === true) {
    if (reads) out.typedAnswer = true;
    else out.body = 'mapping';
  }
  return out;
}

/** `include_type_name` on the index APIs that show or take mappings: create index, get index. */
function includeTypeNameOnIndex(out: CompatibleRequest, method: string, segments: readonly string[], includeTypeName: boolean): void {
  if (segments.length !== 1 || !isIndex(segments[0])) return;
  if (method === 'PUT') {
    out.includeTypeNameWarning = INCLUDE_TYPE_NAME.createIndex;
    if (includeTypeName) out.body = 'index-mappings';
  } else if (method === 'GET' || method === 'HEAD') {
    out.includeTypeNameWarning = INCLUDE_TYPE_NAME.getIndex;
    if (includeTypeName) out.typedAnswer = true;
  }
}

/** `include_type_name` on a legacy template's put (`PUT|POST /_template/{name}`): its `mappings` may be under a type. */
function includeTypeNameOnTemplate(out: CompatibleRequest, method: string, segments: readonly string[], includeTypeName: boolean): void {
  if (segments.length !== 2 || segments[0] !== '_template' || (method !== 'PUT' && method !== 'POST')) return;
  out.includeTypeNameWarning = INCLUDE_TYPE_NAME.putTemplate;
  if (includeTypeName) out.body = 'index-mappings';
}

/**
 * A rollover's body (`POST /{target}/_rollover[/{new_index}]`): its `mappings` under a type only
 * with `include_type_name=true` (RolloverRequest's V7 parser, which warns for the parameter).
 */
function rolloverBody(out: CompatibleRequest, method: string, segments: readonly string[], includeTypeName: boolean | undefined): void {
  if (method !== 'POST' || segments[1] !== '_rollover' || segments.length > 3 || !isIndex(segments[0])) return;
  if (includeTypeName !== undefined) out.includeTypeNameWarning = INCLUDE_TYPE_NAME.rollover;
  out.body = includeTypeName ? 'index-mappings' : 'rollover';
}

/** `include_type_name`, read as Elasticsearch reads a flag: present without a value or `true` is on, `false` off, anything else a 400. */
function includeTypeNameOf(params: QueryParameters): boolean | undefined {
  const value = params.get('include_type_name');
  if (value === null || value === undefined) return undefined;
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new EsError(400, 'illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}
