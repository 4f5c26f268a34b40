/** The request classifier and the index-level authorization helpers (lib/auth's "one resolver"). */
export {
  CATEGORIES,
  OPERATIONS,
  type Category,
  type Classification,
  type ClassifiableRequest,
  type ExpressionOperation,
  type ExpressionSource,
  type Operation,
} from '../../request/index.js';
export { readRawRequest, readRequest, readRequestCooperatively, type RequestInput } from './read-request.js';
export { ClassifiedRequests } from './classified-requests.js';
export { typelessRequest, typedMappings, type TypelessRequest } from './es7-typed-paths.js';
export { prepareBody, PREPARED_BODY_CHARS } from './prepare-body.js';
export { UNREADABLE } from './body-indices.js';
export { holdsClusterPrivilege, type ClusterPrivilege } from './cluster-privileges.js';
export { resolveIndices, type ExpressionKind, type ResolvedExpression, type ResolvedIndices, type ResolveOptions } from './resolve-indices.js';
export {
  authorizeIndices,
  isSystemIndex,
  narrowExpression,
  patternsCover,
  patternsCoverPattern,
  wildcardMatches,
  SYSTEM_INDEX_PREFIX,
  PLUGIN_SYSTEM_INDICES,
  SYSTEM_INDEX_FAMILIES,
  familyCoveredBy,
  familyExclusion,
  familyReachedFrom,
  prefixReachesSystemIndex,
  type SystemIndexFamily,
  type AuthorizeIndicesOptions,
  type ExpressionDecision,
  type IndexAuthorization,
  type Verdict,
} from './authorize-indices.js';
export { searchBodyTargets } from './body-indices.js';
export { AUTHENTICATE_ACTION } from '../../request/index.js';
export { type StoredTemplateSource, renderTemplateRequest } from './render-template.js';
export { GATEWAY_ROUTES, type GatewayRouteId } from '../../request/index.js';
