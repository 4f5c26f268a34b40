/**
 * Elasticsearch 8's REST API compatibility mode (`compatible-with=7` in `Accept` / `Content-Type`):
 * the version check of the headers, and Elasticsearch 7's typed requests put in their typeless
 * Elasticsearch 8 form, with the warnings and the typed answers Elasticsearch gives. One
 * implementation for the embedded engine's REST layer and for the gateway's classification.
 */
export { COMPATIBLE_JSON, CURRENT_VERSION, mayBeCompatible, restApiVersion, type RestApiVersion } from './api-version.js';
export { compatibleRequest, type BodyForm, type CompatibleRequest } from './typed-request.js';
export { typelessBody, type TypelessBody } from './typed-bodies.js';
export { typedMappings } from './typed-mappings.js';
export { TYPES_REMOVAL, INCLUDE_TYPE_NAME, warningHeader } from './warnings.js';
export { ES_VERSION } from './es-version.js';
