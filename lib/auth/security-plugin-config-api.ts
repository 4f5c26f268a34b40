import type { Context, Middleware } from 'koa';
import { errors } from '../errors/index.js';
import { readJsonBody } from '../request/index.js';
import { UrlParams, checkParams } from '../engine/embedded/index.js';
import type { GatewayState } from './gateway-state.js';
import type { Principal } from './authenticator.js';
import { methodNotSupported, plainAnswer, pluginAnswer } from './security-plugin-answer.js';
import { userText } from './security-plugin-api.js';

/**
 * OpenSearch's Security plugin's configuration API (`/_plugins/_security/api/…`, and the legacy
 * `/_opendistro/_security/…`), answered from the gateway's own security model, never passed to the
 * engine (a real cluster's plugin would answer for the gateway's engine user, and change it).
 *
 * The gateway's model: one grant per credential (indices, categories, operations, field rules),
 * role `admin` or `user`, passwords hashed in `.gateway-credentials`, Basic sign-in only, no TLS
 * of its own (a load balancer terminates it), no multi-tenancy, no audit log in the plugin's sense
 * (its request logs are its own API). What is a fact of that model is answered in the plugin's
 * shapes; what needs the plugin's multi-grant model (internal users, roles, role mappings, action
 * groups, tenants) or a configuration the gateway does not have is refused with the plugin's error
 * shape and a message saying why — never stored and ignored.
 *
 * Rights as the plugin's: its REST API is the admin's (the routes ask `manage`; each handler here
 * asks the admin role again, where it acts); `permissionsinfo` and the token API are the caller's own.
 */

export interface SecurityConfigApiOptions {
  /** Forgets this node's verified and failed Authorization headers (the authenticator's). */
  flushCredentialCache: () => void;
  maxContentLength: number;
}

/** The plugin's endpoints the gateway does not serve, as its `permissionsinfo` names them, with the methods it refuses. */
const UNSERVED_ENDPOINTS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ['ACTIONGROUPS', 'INTERNALUSERS', 'ROLES', 'ROLESMAPPING', 'TENANTS', 'AUTHTOKEN'].map((endpoint) => [endpoint, ['GET', 'PUT', 'POST', 'DELETE', 'PATCH']]),
);

/** Why the plugin's multi-grant APIs are not served: the gateway's model has one grant per credential. */
const ONE_GRANT_MODEL =
  "the gateway's security model has no internal users, roles, role mappings, action groups, tenants or tokens: "
  + 'each credential carries its one grant (indices, categories, operations, field rules) and role admin or user; '
  + 'credentials are managed through /_credentials';

/** `sslinfo`'s parameter: whether to show the client certificate's distinguished names (there is none). */
const NO_PARAMS = new Set<string>();
const SSLINFO_PARAMS = new Set(['show_dn']);

/** The Dashboards settings the gateway lives by (also its `dashboardsinfo`): one tenant per credential, its access. */
const TENANCY = { multitenancy_enabled: false, private_tenant_enabled: false, default_tenant: '' } as const;

/** The handlers, by route id (lib/request's gateway-api.ts). */
export function securityConfigApis(options: SecurityConfigApiOptions): Record<string, Middleware<GatewayState>> {
  return {
    'security.permissionsinfo': (ctx) => {
      checkParams(ctx.state.gatewayRequest.path, UrlParams.of(ctx.state.gatewayRequest.params), NO_PARAMS);
      const { principal } = ctx.state;
      ctx.body = {
        user: userText(principal),
        user_name: principal.username,
        // the plugin's REST API: the admin's alone, as its `restapi:admin/*` permissions
        has_api_access: principal.role === 'admin',
        disabled_endpoints: UNSERVED_ENDPOINTS,
      };
    },

    // the caller's connection's TLS: the gateway serves plain HTTP (TLS ends at the load balancer in front of it)
    'security.sslinfo': (ctx) => {
      checkParams(ctx.state.gatewayRequest.path, UrlParams.of(ctx.state.gatewayRequest.params), SSLINFO_PARAMS);
      ctx.body = {
        principal: null,
        peer_certificates: '0',
        ssl_protocol: null,
        ssl_cipher: null,
        ssl_openssl_available: false,
        ssl_openssl_version: -1,
        ssl_openssl_version_string: null,
        ssl_openssl_non_available_cause: 'the gateway serves HTTP without TLS',
        ssl_openssl_supports_key_manager_factory: false,
        ssl_openssl_supports_hostname_validation: false,
        ssl_provider_http: null,
        ssl_provider_transport_server: null,
        ssl_provider_transport_client: null,
      };
    },

    'security.cache': admin((ctx) => {
      if (ctx.method !== 'DELETE') return methodNotSupported(ctx, ['DELETE']);
      options.flushCredentialCache();
      pluginAnswer(ctx, 200, 'Cache flushed successfully.');
    }),

    'security.securityconfig': admin((ctx) => {
      if (ctx.method === 'PUT' || ctx.method === 'PATCH') {
        return pluginAnswer(ctx, 403, adminCertificateOnly('the security configuration', "it is the gateway's own configuration (its environment), not a document this API changes"));
      }
      if (ctx.method !== 'GET') return methodNotSupported(ctx, ['GET', 'PUT', 'PATCH']);
      ctx.body = { config: { dynamic: securityConfig() } };
    }),

    'security.tenancy': admin(async (ctx) => {
      if (ctx.method === 'PUT') {
        const body = await readJsonBody(ctx, options.maxContentLength);
        const asked = requireObject(body);
        const differs = Object.entries(asked).filter(([key, value]) => !(key in TENANCY) || TENANCY[key as keyof typeof TENANCY] !== value);
        if (differs.length) {
          return pluginAnswer(ctx, 400, `the gateway has no multi-tenancy to configure: [${differs.map(([k]) => k).join(', ')}] cannot be set (each credential is its own tenant, its grant its access)`);
        }
        // what was asked is what the gateway is: nothing to change
      } else if (ctx.method !== 'GET') {
        return methodNotSupported(ctx, ['GET', 'PUT']);
      }
      ctx.body = { ...TENANCY };
    }),

    'security.audit': admin((ctx) => {
      if (ctx.method === 'PUT' || ctx.method === 'PATCH') {
        return pluginAnswer(ctx, 400, "the gateway has no audit log in the Security plugin's sense to configure; its request logs are configured by LOGS_* and read through /_logs");
      }
      if (ctx.method !== 'GET') return methodNotSupported(ctx, ['GET', 'PUT', 'PATCH']);
      ctx.body = {
        _readonly: [],
        config: { enabled: false, audit: { enable_rest: false, enable_transport: false }, compliance: { enabled: false } },
      };
    }),

    'security.upgrade_check': admin((ctx) => {
      if (ctx.method !== 'GET') return methodNotSupported(ctx, ['GET']);
      // the plugin compares its stored roles and action groups with its newer defaults: the gateway has neither
      ctx.body = { status: 'OK', upgradeAvailable: false, upgradeActions: {} };
    }),

    'security.upgrade_perform': admin((ctx) => {
      if (ctx.method !== 'POST') return methodNotSupported(ctx, ['POST']);
      pluginAnswer(ctx, 400, 'Unable to upgrade: the gateway has no roles or action groups configuration whose defaults could be upgraded');
    }),

    'security.certificates': admin((ctx) => {
      pluginAnswer(ctx, 403, adminCertificateOnly('TLS certificates and the allowlist', 'the gateway has no TLS certificates of its own (a load balancer in front of it terminates TLS) and no allowlist'));
    }, ['cert_type', 'timeout']),

    'security.nodesdn': admin((ctx) => {
      pluginAnswer(ctx, 400, 'the gateway has no node certificates, so no nodes_dn to read or change (plugins.security.nodes_dn_dynamic_config_enabled is off)');
    }, ['show_all']),

    'security.migrate': admin((ctx) => {
      pluginAnswer(ctx, 400, "the gateway's security configuration is no Security plugin configuration of version 6: there is nothing to migrate or validate");
    }, ['accept_invalid']),

    'security.obo_token': (ctx) => {
      plainAnswer(ctx, 400, 'The OnBehalfOf token generating API has been disabled: the gateway issues no tokens; a credential is a username and password (POST /_credentials)');
    },

    'security.tenantinfo': admin((ctx) => {
      plainAnswer(ctx, 403, "tenant information is only for the Security plugin's super admin or OpenSearch Dashboards' server user: the gateway has neither, nor tenants");
    }),

    'security.unserved': admin((ctx) => {
      pluginAnswer(ctx, 403, `[${ctx.method} ${ctx.state.gatewayRequest.path}] is not served: ${ONE_GRANT_MODEL}`);
    }),
  };
}

/**
 * A handler of the plugin's REST API: the admin's. The routes already ask `manage` of a scoped
 * credential; a scoped credential that holds it is refused here, where the configuration is read.
 * `params`: the endpoint's own parameters (the common ones are taken too); any other is a 400.
 */
function admin(handler: (ctx: Context & { state: GatewayState }) => unknown, params: readonly string[] = []): Middleware<GatewayState> {
  const allowed = new Set(params);
  return async (ctx) => {
    const principal: Principal = ctx.state.principal;
    if (principal.role !== 'admin') {
      throw errors.forbidden(`no permissions for [${ctx.state.request.action}] and User [name=${principal.username}, backend_roles=[], requestedTenant=null]: the Security plugin's REST API is the admin's`);
    }
    checkParams(ctx.state.gatewayRequest.path, UrlParams.of(ctx.state.gatewayRequest.params), allowed);
    await handler(ctx);
  };
}

/** The plugin's refusal of what only a caller with an admin certificate may do. */
function adminCertificateOnly(what: string, why: string): string {
  return `${what}: only a caller authenticated by an admin certificate may change or read this, and the gateway authenticates by password only; ${why}`;
}

function requireObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.parse('request body must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * The plugin's `config.dynamic`, as the gateway is: one authentication domain (HTTP Basic against
 * its admin and its credentials, with the challenge), no anonymous access, no authorization
 * backend, no multi-tenancy, a wildcard narrowed to what the caller may see rather than refused.
 */
function securityConfig(): Record<string, unknown> {
  return {
    http: { anonymous_auth_enabled: false },
    authc: {
      basic_internal_auth_domain: {
        http_enabled: true,
        transport_enabled: false,
        order: 0,
        http_authenticator: { challenge: true, type: 'basic', config: {} },
        authentication_backend: { type: 'intern', config: {} },
        description: "HTTP Basic against the gateway's admin and its credentials (.gateway-credentials)",
      },
    },
    authz: {},
    do_not_fail_on_forbidden: true,
    kibana: { ...TENANCY, server_username: null, index: '.kibana', sign_in_options: ['BASIC'] },
  };
}
