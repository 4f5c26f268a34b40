import { readRawRequest } from '../auth/classify/index.js';
import type { EngineRoute, Interceptor } from '../engine/index.js';

/**
 * The Backend's edge, outside: every request reaching the engine through the interceptors carries
 * its value (lib/request's `GatewayRequest`). A client's request has one already (the HTTP edge,
 * a WebSocket frame, a pipeline stage built it, and authorization narrowed it); a call the gateway
 * makes itself (typed documents, streams' reads, the declarative API) has its path and query
 * string read here, once, by the one builder — so that no interceptor reads them again.
 */
export function requestValue(): Interceptor {
  return (next) => (req) => {
    if (req.request) return next(req);
    try {
      const body = typeof req.body === 'string' || Buffer.isBuffer(req.body) ? req.body : undefined;
      return next({ ...req, request: readRawRequest(req.method, req.path, req.querystring ?? '', body) });
    } catch (err) {
      return Promise.reject(err);
    }
  };
}

/**
 * The Backend's edge, inside: the wire request is serialized from the value — its canonical path
 * and query string — and its decoded target handed to the engine (`EngineRequest.target`), which
 * then reads no path or query string again. A step that changes the request changes its value
 * (`narrowRequest`), never the text.
 */
export function wireRequest(): Interceptor {
  return (next) => (req) => {
    const value = req.request;
    if (!value) return next(req);
    // Object.assign, not `{ ...req, target, route }`: on Node 20's V8 each member a spread literal
    // adds after the spread takes a slow path (~0.4 µs a member, every request)
    return next(Object.assign({}, req, {
      path: value.path,
      querystring: value.querystring,
      target: { path: value.path, segments: value.segments, querystring: value.querystring, params: value.params },
      route: value.engineRoute as EngineRoute | undefined,
    }));
  };
}
