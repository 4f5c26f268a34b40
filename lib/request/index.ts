/**
 * What a request is (its classification, made once by lib/auth/classify) and how its body is
 * read: the low module every feature reads requests through.
 */
export * from './request-info.js';
export { bodyChunks, bodyStream, bufferBody, bufferText, bufferTextPieces, checkDeclaredLength, hasBody, holdBodyIn, keepTextBody, paceRestOfBody, limitedBody, jsonSyntaxReason, readJsonBody, readJsonObject } from './body.js';
export { canonicalPath, encodeSegment, paramList, pathNames, queryParams, queryString, requestTarget, serializeQuery, type RequestTarget } from './request-target.js';
export { gatewayRequest, narrowRequest, pathOfSegments, withParam, type GatewayRequest, type RequestChange } from './gateway-request.js';
export { RouteTable, patternParam, patternSegments } from './route-table.js';
export { byRoute, type RouteHandler } from './route-dispatch.js';
export { streamRead, STREAM_PARAMS, type StreamRead } from './stream-read.js';
export { COMMON_PARAMS, ES_API, paramsOf, type EsApi, type EsPath, type EsRouteId } from './es-api.js';
export { AUTHENTICATE_ACTION, SELF_ACTIONS, GATEWAY_ROUTES, type GatewayRoute, type GatewayRouteId } from './gateway-api.js';
export { answersTable, findRoute, indexExpression, routeOf, takesLowerCased, type ApiRoute, type RouteMatch } from './api-table.js';
export type { BodyReader, RouteAuth } from './route-auth.js';
export { validateIndexName, hasUnpairedSurrogate } from './index-name.js';
export { closeQueueOn, onResponseClose } from './response-close.js';
