export {
  CATEGORIES, OPS, ROLES, CLUSTER_PRIVILEGES, USERNAME_PATTERN, CREDENTIAL_DEFAULTS,
  isExpired, publicCredential, validateCreate, validatePatch,
  type Category, type Op, type Role, type RateLimit, type Credential, type CredentialSpec, type CredentialPatch,
  type CredentialFields, type IssuedCredential, type ClusterPrivilege,
} from './credential.js';
export { excessOf, isWithin, inheritRestrictions, admitWithin, type Rights, type Grantor } from './grant.js';
export { CredentialAccess, accessOf, cidrOf, type Cidr } from './credential-access.js';
export { CredentialStore, type CredentialStoreOptions, type WriteOptions } from './credential-store.js';
export { AppCredentials, APP_CATEGORIES } from './app-credentials.js';
export { CredentialCache, followCredentialChanges, type CredentialCacheOptions, type CredentialChangeFeed, type InvalidatableCache } from './credential-cache.js';
export { credentialRoutes, type CredentialRoutesOptions } from './routes.js';
