import { parse as parseExactly, stringify as stringifyExactly } from 'lossless-json';
import type { EngineRequest, EngineResponse } from '../engine/index.js';
import { readBody } from '../engine/index.js';
import { jsonBody } from '../engine/json-body.js';
import { holdsRoundedInteger } from '../ndjson/index.js';
import type { Interceptor } from '../engine/interceptor.js';
import { TYPE_FIELD } from './type-field.js';

type Json = Record<string, unknown>;

/**
 * The gateway's type field never leaves the gateway: it is the gateway's bookkeeping (lib/apps
 * keeps a document's app-style type in it), not the user's data. Every answer that carries
 * documents or field lists — GET, mget, `_source`, searches (hits, `fields`, highlights, inner and
 * top hits), scrolls, msearch, explain, term vectors, `_field_caps`, `_mapping`, `GET /{index}`,
 * an update's `get` — is given without it, on both engines.
 *
 * Why on the answer rather than on the request (`_source_excludes=_gateway_type`): a source filter
 * hides it from `_source` only, and replaces the client's own filter where the body has one; the
 * field would still be listed by `fields: ["*"]`, `docvalue_fields`, highlights, `_field_caps`
 * and `_mapping` (and so offered as a facet by the console, which builds its aggregations from
 * the field list). The answer is the one place where every such path meets.
 *
 * Cost: the embedded engine hands its answer as a value (`EngineResponse.value`): its structure is
 * walked — never the inside of a document — and a copy is made only when the field is there. An
 * HTTP engine's answer is read whole (uncompressed: the request's Accept-Encoding is dropped) and
 * parsed only when its bytes hold the field's name; longs past 2^53 stay exact (such an answer is
 * read again by a lossless parser). Other answers (writes, cluster APIs, `_cat`) are not touched.
 *
 * The gateway's own readers of the field (lib/apps' TypedDocuments, the streams' matching) use the
 * engine inside this interceptor.
 */
export function typeFieldHiding(): Interceptor {
  return (next) => async (req) => {
    if (!carriesFields(req)) return next(req);
    const asked = req.headers?.['accept-encoding'] === undefined ? req : { ...req, headers: { ...req.headers, 'accept-encoding': undefined } };
    const res = await next(asked);
    if (res.status !== 200 || !isJson(res)) return res;
    if (res.value !== undefined) {
      const hidden = withoutTypeField(res.value);
      if (hidden === res.value) return res;
      const pretty = Buffer.isBuffer(res.body) && res.body[1] === 0x0a; // `{\n`: the engine wrote it `?pretty`
      return answer(res, jsonBody(hidden, pretty), hidden);
    }
    const bytes = await readBody(res.body);
    if (!bytes.includes(FIELD_NAME)) return answer(res, bytes, undefined);
    const text = bytes.toString('utf8');
    const parsed: unknown = JSON.parse(text);
    // an integer past 2^53 (a long in a source, a date_nanos sort value) is read again exactly: rare, and slower
    if (holdsRoundedInteger(parsed)) return answer(res, Buffer.from(stringifyExactly(withoutTypeField(parseExactly(text))) ?? ''), undefined);
    return answer(res, Buffer.from(JSON.stringify(withoutTypeField(parsed))), undefined);
  };
}

const FIELD_NAME = Buffer.from(`"${TYPE_FIELD}"`);

/** Answers of these actions carry no document and no field list. */
const READS_WITHOUT_FIELDS = new Set([
  'indices:data/read/scroll/clear', 'indices:data/read/close_point_in_time', 'indices:data/read/open_point_in_time',
]);
/** Answers outside `indices:data/read/*` that list fields or carry a document. */
const OTHER_ANSWERS_WITH_FIELDS = new Set([
  'indices:admin/get', 'indices:admin/mappings/get', 'indices:admin/mappings/fields/get', 'indices:data/write/update',
  // `GET /_cluster/state` holds every index's mappings
  'cluster:monitor/state',
]);

/** Could the answer hold the field? A request without a classification (the gateway's own callers acting for a client) might. */
function carriesFields(req: EngineRequest): boolean {
  if (req.method === 'HEAD') return false;
  const action = req.info?.action;
  if (action === undefined) return true;
  if (action.startsWith('indices:data/read/')) return !READS_WITHOUT_FIELDS.has(action);
  return OTHER_ANSWERS_WITH_FIELDS.has(action);
}

function isJson(res: EngineResponse): boolean {
  const type = String(res.headers['content-type'] ?? '');
  return type.includes('json') && !type.includes('ndjson');
}

function answer(res: EngineResponse, body: EngineResponse['body'], value: unknown): EngineResponse {
  const headers = { ...res.headers };
  delete headers['content-length'];
  if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);
  return { status: res.status, headers, body, ...(value === undefined ? {} : { value }) };
}

/**
 * Members whose value is the user's data keyed by field name (a document's source, a hit's
 * `fields` and highlights, term vectors): the field may be one of its members, nothing deeper is
 * looked at.
 */
const KEYED_BY_FIELD = new Set(['_source', 'fields', 'highlight', 'term_vectors', 'ignored_field_values']);
/** Members holding aggregations: below them, members are the user's names of aggregations (up to a top hits' `hits`). */
const AGGREGATIONS = new Set(['aggregations', 'aggs']);

/**
 * The answer without the type field, wherever the answer's structure names it as a field (a
 * member of a source or of a field list, a mapping's `properties`, `_field_caps`' `fields`). The
 * value given is never changed: what holds the field is copied, the rest shared. Returns the
 * value itself when the field is nowhere.
 */
export function withoutTypeField<T>(value: T): T {
  return hide(value, false) as T;
}

function hide(value: unknown, aggregationNames: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = hide(value[i], aggregationNames);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const obj = value as Json;
  let out: Json | undefined;
  for (const key in obj) {
    const child = obj[key];
    if (key === TYPE_FIELD && !aggregationNames) {
      out ??= { ...obj };
      delete out[key];
      continue;
    }
    if (child === null || typeof child !== 'object') continue;
    const hidden = KEYED_BY_FIELD.has(key) && !aggregationNames
      ? withoutMember(child)
      : hide(child, AGGREGATIONS.has(key) ? true : key === 'hits' ? false : aggregationNames);
    if (hidden !== child) (out ??= { ...obj })[key] = hidden;
  }
  return out ?? obj;
}

function withoutMember(value: object): unknown {
  if (Array.isArray(value) || !(TYPE_FIELD in value)) return value;
  const { [TYPE_FIELD]: _hidden, ...rest } = value as Json;
  return rest;
}
