import { findRoute, gatewayRequest, requestTarget, type GatewayRequest, type PreparedBody, type RequestTarget } from '../../request/index.js';
import { classifyTarget } from './classify-request.js';
import { classifyRoute } from './classify-route.js';

/** A request as a transport received it: its target decoded once (`requestTarget`), its body if read. */
export interface RequestInput {
  method: string;
  target: Pick<RequestTarget, 'path' | 'segments' | 'querystring' | 'params'>;
  /** The body, when the caller has it (read from the socket, a frame's, a stage's). */
  body?: Buffer | string;
  /** The body read ahead in pieces (see `PreparedBody`). */
  prepared?: PreparedBody;
}

/**
 * The one builder of the request value (lib/request's `GatewayRequest`), used by every transport:
 * the HTTP edge, each WebSocket frame, each pipeline stage's engine call, a rendered search
 * template, a call reaching the Backend without one. The request is matched once in the one
 * route table (lib/request's `findRoute`: Elasticsearch's APIs and the gateway's own); its
 * classification is the matched entry's metadata (`classifyRoute`), or, for a route without it,
 * the classifier's path reading (`classifyTarget`). Given no body, the value says whether the
 * classifier needs one (`info.readsBody`): the caller then reads it and builds the value again with it.
 */
export function readRequest(input: RequestInput): GatewayRequest {
  const method = (input.method || 'GET').toUpperCase();
  const { target } = input;
  const asked = { method, segments: target.segments, params: target.params, body: input.body, prepared: input.prepared };
  const match = findRoute(method, target.segments);
  const info = (match && classifyRoute(asked, match)) ?? classifyTarget(asked);
  const text = info.forward ?? (typeof input.body === 'string' ? input.body : undefined);
  // a gateway API's id is what the server dispatches on, for a request of its family
  const route = match && (match.route.owner === 'elasticsearch' || match.route.route.family === info.family) ? { id: match.route.id, slots: match.slots } : undefined;
  return gatewayRequest(method, target, info, text, route);
}

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
