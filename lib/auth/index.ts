export { Authenticator, type Principal, type AuthenticatorOptions, type AuthenticationStats } from './authenticator.js';
export { ensureAdminCredential, CREDENTIALS_INDEX, type StoredCredential } from './admin-credential.js';
export { hashSecret, verifySecret, generatePassword } from './secret-hash.js';
export { parseBasic } from './basic-header.js';
export {
  CATEGORIES as CREDENTIAL_CATEGORIES, OPS as CREDENTIAL_OPS, ROLES, USERNAME_PATTERN, CREDENTIAL_DEFAULTS,
  isExpired, publicCredential, validateCreate, validatePatch,
  CredentialAccess, accessOf, cidrOf,
  CredentialStore, AppCredentials, APP_CATEGORIES,
  CredentialCache, followCredentialChanges, credentialRoutes,
  type Role, type RateLimit, type Credential, type CredentialSpec, type CredentialPatch, type CredentialFields, type IssuedCredential,
  type Cidr, type CredentialStoreOptions, type CredentialCacheOptions, type CredentialChangeFeed, type InvalidatableCache,
  type CredentialRoutesOptions,
} from './credentials/index.js';
export { Authorizer, type RequestOrigin } from './authorizer.js';
export { checkSystemIndices, systemIndexGuard, withoutSystemIndices } from './system-index-guard.js';
export { RateLimits } from './rate-limits.js';
export { LoginThrottle, type LoginThrottleOptions } from './login-throttle.js';
export type { GatewayState } from './gateway-state.js';
export { authenticateApi } from './authenticate-api.js';
export { accountApi, authInfoApi, dashboardsInfoApi, securityHealthApi, whoAmIApi } from './security-plugin-api.js';
export { securityConfigApis } from './security-plugin-config-api.js';
export { engineAccessOf } from './engine-access.js';
export { type FieldRulesBody, FieldVisibility, checkFieldRules, fieldReadRefusal, fieldRulesReadBody, fieldVisibilityOf, hasFieldRules, intersectIncludes, reindexSourceFilter, visibleAliases, visibleFieldMappings, visibleMappings } from './field-rules.js';
export { ScrollOwners, scrollIdsOf } from './scroll-owners.js';
