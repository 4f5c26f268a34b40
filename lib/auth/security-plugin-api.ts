import type { Middleware } from 'koa';
import { EsError } from '../errors/index.js';
import { UrlParams, booleanParam, checkParams } from '../engine/embedded/index.js';
import type { GatewayState } from './gateway-state.js';
import type { Principal } from './authenticator.js';
import { gatewayAccess } from './authenticate-api.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './credentials/credential.js';
import type { CredentialStore } from './credentials/credential-store.js';
import { readJsonBody } from '../request/index.js';
import { pluginAnswer } from './security-plugin-answer.js';

/**
 * OpenSearch's Security plugin's informational endpoints (`/_plugins/_security/…`, and the legacy
 * `/_opendistro/_security/…`), answered by the gateway for the request's own principal in the
 * plugin's shapes, so that OpenSearch clients and OpenSearch Dashboards can ask who the caller is.
 * They never reach the engine (a real cluster would answer for the gateway's own engine user).
 *
 * The gateway's principal maps onto the plugin's user as its authenticate answer describes it: its
 * role (`admin` or `user`) is its one security role; it has no backend roles, custom attributes,
 * Dashboards tenants, client certificate or single sign-on. What a scoped credential may do is
 * under `gateway` of authinfo (the authenticate answer's `metadata.gateway`). Never a secret.
 */

/** The handler, for a request whose parameters are the endpoint's (and the common ones: `pretty`, `filter_path`…); others are a 400, as OpenSearch answers them. */
function taking(params: readonly string[], answer: Middleware<GatewayState>): Middleware<GatewayState> {
  const allowed = new Set(params);
  return (ctx, next) => {
    checkParams(ctx.state.gatewayRequest.path, UrlParams.of(ctx.state.gatewayRequest.params), allowed);
    return answer(ctx, next);
  };
}

/** The plugin's `User.toString()`, which its authinfo answers as `user`. */
export const userText = (principal: Principal): string => `User [name=${principal.username}, backend_roles=[], requestedTenant=null]`;

/** The gateway's password rule, as `dashboardsinfo` states it and the plugin's change of password answers it. */
const PASSWORD_RULE = `Password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`;

/** Bytes as Lucene's `RamUsageEstimator.humanReadableUnits` writes them (`512 bytes`, `1.5 KB`). */
function humanReadableBytes(bytes: number): string {
  const units: Array<[number, string]> = [[1024 ** 3, 'GB'], [1024 ** 2, 'MB'], [1024, 'KB']];
  for (const [size, unit] of units) if (bytes >= size) return `${Math.round((bytes / size) * 10) / 10} ${unit}`;
  return `${bytes} bytes`;
}

const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** The caller's address as the plugin's `TransportAddress` writes it: `ip:port` (`[ip]:port` for IPv6), the IP alone behind a trusted proxy. */
function remoteAddress(ctx: { request: { ip: string }; req: { socket: { remoteAddress?: string; remotePort?: number } } }): string | null {
  const { remoteAddress: socketIp, remotePort } = ctx.req.socket;
  const ip = ctx.request.ip || socketIp;
  if (!ip) return null;
  if (ip !== socketIp || remotePort === undefined) return ip;
  return ip.includes(':') ? `[${ip}]:${remotePort}` : `${ip}:${remotePort}`;
}

/** `GET|POST …/authinfo[?verbose][&auth_type]`: who the caller is, what roles it holds, from where it asks. */
export function authInfoApi(): Middleware<GatewayState> {
  return taking(['verbose', 'auth_type'], (ctx) => {
    const { principal, gatewayRequest } = ctx.state;
    const roles = [principal.role];
    const answer: Record<string, unknown> = {
      user: userText(principal),
      user_name: principal.username,
      user_requested_tenant: null,
      remote_address: remoteAddress(ctx),
      backend_roles: [],
      custom_attribute_names: [],
      roles,
      tenants: {},
      principal: null,
      peer_certificates: '0',
      sso_logout_url: null,
      gateway: gatewayAccess(principal),
    };
    // `auth_type` picks one of the plugin's authentication domains: the gateway has one (Basic)
    if (booleanParam(UrlParams.of(gatewayRequest.params), 'verbose', false)) {
      // the sizes of what the gateway holds for the caller: its name and roles, its access rules
      answer.size_of_user = humanReadableBytes(byteLength({ name: principal.username, roles, gateway: answer.gateway }));
      answer.size_of_custom_attributes = humanReadableBytes(byteLength({}));
      answer.size_of_backendroles = humanReadableBytes(byteLength([]));
    }
    ctx.body = answer;
  });
}

/**
 * `GET|POST …/whoami`, `GET …/whoamiprotected`: the plugin's certificate view of the caller. The
 * gateway authenticates by password only: no distinguished name, never an admin certificate or a
 * node's (the gateway's admin is an admin by password, as the plugin's `admin` user is).
 */
export function whoAmIApi(): Middleware<GatewayState> {
  return taking([], (ctx) => {
    ctx.body = { dn: null, is_admin: false, is_node_certificate_request: false };
  });
}

/** `GET|POST …/health[?mode]`: the gateway answering is the security layer being up (`mode` is echoed, `strict` by default). */
export function securityHealthApi(): Middleware<GatewayState> {
  return taking(['mode'], (ctx) => {
    ctx.body = { message: null, mode: ctx.state.gatewayRequest.params.get('mode') ?? 'strict', status: 'UP' };
  });
}

/**
 * `GET|POST …/dashboardsinfo` (`…/kibanainfo` before OpenSearch Dashboards): what OpenSearch
 * Dashboards' security plugin configures itself by. No multi-tenancy (one tenant, the caller's
 * access); a wildcard reaches only what the caller may see (the authorizer narrows it), as the
 * plugin's `do_not_fail_on_forbidden` does; sign-in by Basic credentials; a password is valid when
 * the credentials API takes it. No server user: the gateway has no user of Dashboards' own.
 */
export function dashboardsInfoApi(): Middleware<GatewayState> {
  return taking([], (ctx) => {
    ctx.body = {
      user_name: ctx.state.principal.username,
      not_fail_on_forbidden_enabled: true,
      opensearch_dashboards_mt_enabled: false,
      opensearch_dashboards_index: '.kibana',
      opensearch_dashboards_server_user: null,
      multitenancy_enabled: false,
      private_tenant_enabled: false,
      default_tenant: '',
      sign_in_options: ['BASIC'],
      password_validation_error_message: PASSWORD_RULE,
      password_validation_regex: `^.{${MIN_PASSWORD_LENGTH},${MAX_PASSWORD_LENGTH}}$`,
    };
  });
}

export interface AccountApiOptions {
  store: CredentialStore;
  maxContentLength: number;
  /** Whether `password` is the username's, checked as a login (the login throttle counts a wrong one): Authenticator.passwordMatches. */
  passwordMatches: (username: string, password: string, ip: string | undefined) => Promise<boolean>;
}

/**
 * `GET …/api/account`: the caller's account. `PUT …/api/account` (`{"current_password", "password"}`):
 * the caller changes its own password, as the plugin's internal users do — the current one
 * checked against the stored hash as a login is (the login throttle counts a wrong one), the new one held to the credentials API's rule, its hash
 * replaced through the credential store (which drops every node's cached headers of that
 * credential, as a `PATCH /_credentials/{username}` does). Only the caller's own: the request
 * names no other account. The admin is configured, not stored: reserved, as the plugin's reserved
 * users are (its password is the gateway's configuration); a credential that may only read is
 * read-only (a browser's pair is shared by every browser of the app). The passwords are never answered nor
 * logged (the request logs redact `password` members).
 */
export function accountApi(options: AccountApiOptions): Middleware<GatewayState> {
  return taking([], async (ctx) => {
    const { principal } = ctx.state;
    if (ctx.method === 'PUT') return changePassword(ctx, principal, options);
    ctx.body = {
      user_name: principal.username,
      is_reserved: principal.role === 'admin' && !(await options.store.findForLogin(principal.username)),
      is_hidden: false,
      is_internal_user: false,
      user_requested_tenant: null,
      backend_roles: [],
      custom_attribute_names: [],
      tenants: {},
      roles: [principal.role],
    };
  });
}

async function changePassword(ctx: Parameters<Middleware<GatewayState>>[0], principal: Principal, options: AccountApiOptions): Promise<void> {
  const body = await readJsonBody(ctx, options.maxContentLength);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return pluginAnswer(ctx, 400, 'Request body required for this action.');
  const { current_password: current, password, ...others } = body as Record<string, unknown>;
  const unknown = Object.keys(others);
  if (unknown.length) {
    // the plugin also takes `hash` (a bcrypt hash) and `saved_tenant`: the gateway hashes passwords itself and has no tenants
    return pluginAnswer(ctx, 400, `Invalid configuration: [${unknown.join(', ')}] not allowed; the account API takes current_password and password`);
  }
  if (typeof current !== 'string' || typeof password !== 'string') {
    return pluginAnswer(ctx, 400, 'Invalid configuration: current_password and password are required, as strings');
  }
  const record = await options.store.findForLogin(principal.username);
  if (!record) return pluginAnswer(ctx, 403, `Resource '${principal.username}' is reserved.`);
  // a credential that may only read writes nothing, its own record included: a read-only pair is
  // shared (every browser of an app holds it), and one holder must not lock the others out
  if (!record.ops.includes('write')) {
    return pluginAnswer(ctx, 403, `Resource '${principal.username}' is read-only: a credential without the write operation cannot change its password (the admin changes it through PATCH /_credentials/{username})`);
  }
  // a guess of the current password is a login attempt: the login throttle counts it (429 once spent)
  const ip = ctx.request.ip || ctx.req.socket.remoteAddress || undefined;
  if (!(await options.passwordMatches(principal.username, current, ip))) return pluginAnswer(ctx, 400, 'Could not validate your current password.');
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) return pluginAnswer(ctx, 400, PASSWORD_RULE);
  await options.store.update(principal.username, { password });
  pluginAnswer(ctx, 200, `'${principal.username}' updated.`);
}
