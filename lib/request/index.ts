/**
 * What a request is (its classification, made once by lib/auth/classify) and how its body is
 * read: the low module every feature reads requests through.
 */
export * from './request-info.js';
export { bodyStream, bufferBody, checkDeclaredLength, checkNestingDepth, hasBody, limitedBody, MAX_JSON_NESTING_DEPTH, readJsonBody, readJsonObject } from './body.js';
