import type { Middleware } from 'koa';
import type { GatewayState } from './gateway-state.js';
import type { Principal } from './authenticator.js';

/** The realm every gateway principal is authenticated by (the admin and the stored credentials). */
const REALM = { name: 'search-gateway', type: 'gateway' };

/**
 * `GET /_security/_authenticate`, Elasticsearch's authenticate API, answered for the request's
 * own principal (classified `cluster:admin/xpack/security/user/authenticate`; every credential
 * may ask it): its username, its role as `roles`, and — for a scoped credential — what it may do
 * under `metadata.gateway` (indices, categories, operations, field rules, app, referers, expiry). Never the
 * hash. Elasticsearch's shape, so its clients' `security.authenticate()` reads it.
 */
export function authenticateApi(): Middleware<GatewayState> {
  return (ctx) => {
    ctx.body = authenticateAnswer(ctx.state.principal);
  };
}

/**
 * What the principal may do, as the gateway's authenticate answers tell it (`metadata.gateway`):
 * a scoped credential's indices, categories, operations, field rules, app, referers and expiry;
 * the admin's `{"indices": ["*"]}`. Never the hash.
 */
export function gatewayAccess(principal: Principal): Record<string, unknown> {
  const cred = principal.credential;
  if (principal.role === 'admin') return { indices: ['*'] };
  return {
    indices: cred.indices, categories: cred.categories, ops: cred.ops, allow_raw_dsl: cred.allow_raw_dsl,
    ...(cred.app !== undefined ? { app: cred.app } : {}),
    // the pages it may be used from: a browser app's origin is allowed by them (lib/server/cors.ts)
    ...(cred.referers?.length ? { referers: cred.referers } : {}),
    ...(cred.include_fields !== undefined ? { include_fields: cred.include_fields } : {}),
    ...(cred.exclude_fields !== undefined ? { exclude_fields: cred.exclude_fields } : {}),
    ...(cred.max_size !== undefined ? { max_size: cred.max_size } : {}),
    ...(cred.expires_at !== undefined ? { expires_at: cred.expires_at } : {}),
  };
}

export function authenticateAnswer(principal: Principal): Record<string, unknown> {
  return {
    username: principal.username,
    roles: [principal.role],
    full_name: null,
    email: null,
    metadata: { gateway: gatewayAccess(principal) },
    enabled: true,
    authentication_realm: REALM,
    lookup_realm: REALM,
    authentication_type: 'realm',
  };
}
