import { EsError } from '../../errors/index.js';
import { gatewayRequest, requestTarget, routeOf, takesLowerCased, type Classification, type ClassifiableRequest, type GatewayRequest, type PreparedBody, type RequestTarget, type RouteMatch } from '../../request/index.js';
import { classifyRoute, classifyRouteCooperatively } from './classify-route.js';

/** A request as a transport received it: its target decoded once (`requestTarget`), its body if read. */
export interface RequestInput {
  method: string;
  target: Pick<RequestTarget, 'path' | 'segments' | 'querystring' | 'params'>;
  /** The body, when the caller has it (read from the socket, a frame's, a stage's). */
  body?: Buffer | string;
  /** The body read ahead in pieces (see `PreparedBody`). */
  prepared?: PreparedBody;
  /** The request came with a body not read yet (the HTTP edge's first reading). */
  sentBody?: boolean;
}

/**
 * The one builder of the request value (lib/request's `GatewayRequest`), used by every transport:
 * the HTTP edge, each WebSocket frame, each pipeline stage's engine call, a rendered search
 * template, a call reaching the Backend without one. The request is matched once in the one
 * route table (lib/request's `routeOf`: Elasticsearch's APIs, the gateway's own, and the table's
 * unknown route for a path none of them takes); its classification is the matched entry's
 * metadata (`classifyRoute`), and nothing else reads the path. Given no body, the value says
 * whether the classifier needs one (`info.readsBody`): the caller then reads it and builds the
 * value again with it.
 *
 * Refused here, as Elasticsearch refuses them: a path in another case than the table's
 * (`/_SEARCH`: `no handler found`), and a body sent to an API that reads none (`refuseBody`).
 */
export function readRequest(input: RequestInput): GatewayRequest {
  const { method, asked, match } = matched(input);
  return requestValue(input, method, match, classifyRoute(asked, match));
}

/**
 * `readRequest` for a body read ahead in pieces (`input.prepared`: a large one), classified a time
 * slice at a time (`classifyRouteCooperatively`): the same value.
 */
export async function readRequestCooperatively(input: RequestInput): Promise<GatewayRequest> {
  const { method, asked, match } = matched(input);
  return requestValue(input, method, match, await classifyRouteCooperatively(asked, match));
}

/** The request matched in the route table, and refused here if Elasticsearch refuses it before reading it. */
function matched(input: RequestInput): { method: string; asked: ClassifiableRequest; match: RouteMatch } {
  const method = (input.method || 'GET').toUpperCase();
  const { target } = input;
  const asked = { method, segments: target.segments, params: target.params, body: input.body, prepared: input.prepared };
  const match = routeOf(method, target.segments);
  if (match.route.owner === 'unknown' && takesLowerCased(method, target.segments)) {
    throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${uriOf(target)}] and method [${method}]`);
  }
  if (input.sentBody || (input.body !== undefined && input.body.length > 0)) refuseBody(method, target, match);
  return { method, asked, match };
}

function requestValue(input: RequestInput, method: string, match: RouteMatch, info: Classification): GatewayRequest {
  const text = info.forward ?? (typeof input.body === 'string' ? input.body : undefined);
  const { route: matched } = match;
  const route = matched.owner === 'unknown' ? undefined : { id: matched.id, slots: match.slots, ...(matched.owner === 'elasticsearch' ? { pattern: matched.path.pattern } : {}) };
  return gatewayRequest(method, input.target, info, text, route);
}

/**
 * A body sent to an API the table says reads none: Elasticsearch's 400 (its handler did not
 * consume the content), before anything else reads the request.
 */
function refuseBody(method: string, target: Pick<RequestTarget, 'path'>, match: RouteMatch): void {
  if (match.route.owner !== 'elasticsearch' || !match.route.api.bodyless) return;
  throw new EsError(400, 'illegal_argument_exception', `request [${method} ${target.path}] does not support having a body`);
}

const uriOf = (target: Pick<RequestTarget, 'path' | 'querystring'>) => (target.querystring ? `${target.path}?${target.querystring}` : target.path);

/**
 * The value of a request given as a path (percent-encoded, possibly with `?query`) and a query
 * string, as the gateway's own callers and pipeline scripts write them: read through the edge's
 * one decoder, then built by `readRequest`. A `source` parameter is the body when there is none.
 */
export function readRawRequest(method: string, path: string, querystring: string, body?: Buffer | string): GatewayRequest {
  const q = path.indexOf('?');
  const rawQuery = q < 0 ? querystring : [path.slice(q + 1), querystring].filter((part) => part !== '').join('&');
  const target = requestTarget(q < 0 ? path : path.slice(0, q), rawQuery, body !== undefined && body.length > 0);
  return readRequest({ method, target, body: body ?? target.source?.text });
}
