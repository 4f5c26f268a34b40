import type { Classification } from './request-info.js';
import { encodeSegment, serializeQuery, type RequestTarget } from './request-target.js';

/**
 * One request, as the edge read it (README, "The request's way through", step 3): every later
 * step — authorization, dispatch, the interceptors, the gateway's own APIs, the Backend edge that
 * writes the wire request — reads this value, and none of them splits a path, parses a query
 * string or reads the body's bytes again. Every transport builds it the same way (lib/auth's
 * `readRequest`: an HTTP request, each WebSocket frame, each pipeline stage's engine call, a
 * rendered search template, a call the gateway makes itself through the Backend).
 *
 * Immutable: a step that changes the request (authorization narrowing an index list, the
 * credential's source filter, an interceptor holding `filter_path` back) makes a new value with
 * `narrowRequest`, whose path and query string are serialized from its segments and parameters.
 */
export interface GatewayRequest {
  /** Upper case. */
  readonly method: string;
  /**
   * The route the request matched in the one route table (api-table.ts): an Elasticsearch API's
   * name (`search`, `indices.create`) or a gateway API's id (`credentials.get`), on which the
   * server dispatches; for a path no route takes, the Elasticsearch action name the classifier
   * gives it (`indices:data/read/search`).
   */
  readonly route: string;
  /** The route's path parameters, decoded (`{username}` of `/_credentials/{username}`, `{index}` of `/{index}/_search`); empty when it has none. */
  readonly pathParams: Readonly<Record<string, string>>;
  /** Where each path parameter sits among `segments`: a narrowed request's parameters are read from its own segments. */
  readonly paramSlots?: Readonly<Record<string, number>>;
  /**
   * The pattern of the Elasticsearch API's path the table matched (`/{index}/_doc/{id}`): the
   * embedded engine's router, built from the same table, takes the route from it rather than
   * matching the path again (lib/engine's `checkEngineRoute`). Absent for the gateway's own routes
   * and for a path no route takes.
   */
  readonly routePattern?: string;
  /** The decoded path segments, empty ones dropped. */
  readonly segments: readonly string[];
  /** The canonical path, serialized from `segments`. */
  readonly path: string;
  /** The query parameters, decoded once; `source` (the body spelled in the URL) is not among them. */
  readonly params: ReadonlyMap<string, string>;
  /** The canonical query string, serialized from `params` (without `?`; '' when none). */
  readonly querystring: string;
  /**
   * The body as the classifier read it (rebuilt: NDJSON lines, JSON re-serialized), which is what
   * goes on to the engine; undefined when no step needed it read (the engine then reads it).
   */
  readonly body?: string;
  /** What the request is (indices, category, operation…), classified once on this request as asked. */
  readonly info: Classification;
  /**
   * The embedded engine's route for this request, as the gateway's route check found it (opaque
   * here; lib/engine's `EngineRoute`): handed to the engine, which reuses it rather than matching
   * the route again — and ignores it if the request was changed after the check.
   */
  readonly engineRoute?: unknown;
}

const frozen = <T extends object>(value: T): Readonly<T> => Object.freeze(value);

/** The value for a classified target. The only maker besides `narrowRequest`; lib/auth's `readRequest` calls it. */
export function gatewayRequest(
  method: string, target: Pick<RequestTarget, 'path' | 'segments' | 'querystring' | 'params'>, info: Classification, body?: string,
  route?: { id: string; slots: Readonly<Record<string, number>>; pattern?: string },
): GatewayRequest {
  const params = target.params.has('source') || target.params.has('source_content_type') ? withoutSource(target.params) : target.params;
  const pathParams = route ? paramsAt(target.segments, route.slots) : NO_PATH_PARAMS;
  return frozen({ method, route: route?.id ?? info.action, pathParams, paramSlots: route?.slots, routePattern: route?.pattern, segments: target.segments, path: target.path, params, querystring: target.querystring, body, info });
}

const NO_PATH_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function paramsAt(segments: readonly string[], slots: Readonly<Record<string, number>>): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name in slots) out[name] = segments[slots[name]];
  return Object.freeze(out);
}

function withoutSource(params: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const kept = new Map(params);
  kept.delete('source');
  kept.delete('source_content_type');
  return kept;
}

/** What a step may change of a request: its segments (an index list narrowed), its parameters, its body. */
export interface RequestChange {
  segments?: readonly string[];
  params?: ReadonlyMap<string, string>;
  body?: string;
  engineRoute?: unknown;
  /**
   * A JSON body the classifier read, rewritten (a source filter put on it): the text forwarded and
   * the value it says. The classification keeps its indices; only `forward`/`parsed` change.
   */
  json?: { text: string; value?: unknown };
}

/**
 * The request with `change` applied: a new value (the classification stays the one of the request
 * as asked), its path and query string serialized from the new segments and parameters.
 */
export function narrowRequest(req: GatewayRequest, change: RequestChange): GatewayRequest {
  const segments = change.segments ?? req.segments;
  const params = change.params ?? req.params;
  // Object.assign, not a spread literal: on Node 20's V8 a member the literal adds after the spread
  // (`engineRoute`, absent from the request as read) takes a slow path (~0.4 µs)
  return frozen(Object.assign({}, req, {
    segments,
    path: change.segments ? pathOfSegments(segments) : req.path,
    pathParams: change.segments && req.paramSlots ? paramsAt(segments, req.paramSlots) : req.pathParams,
    params,
    querystring: change.params ? serializeQuery(params) : req.querystring,
    body: change.json ? change.json.text : 'body' in change ? change.body : req.body,
    engineRoute: 'engineRoute' in change ? change.engineRoute : req.engineRoute,
  }, change.json ? { info: { ...req.info, forward: change.json.text, parsed: change.json.value } } : undefined));
}

/** The canonical path of decoded segments. */
export function pathOfSegments(segments: readonly string[]): string {
  return '/' + segments.map(encodeSegment).join('/');
}

/** A parameter map with `name` set (or, for undefined, taken out): the parameters of a narrowed request. */
export function withParam(params: ReadonlyMap<string, string>, name: string, value: string | undefined): ReadonlyMap<string, string> {
  const next = new Map(params);
  if (value === undefined) next.delete(name);
  else next.set(name, value);
  return next;
}

