import type { RouteFamily } from './request-info.js';
import type { RouteAuth } from './route-auth.js';

/**
 * The gateway's own APIs, the other half of the one route table (`API_TABLE`, api-table.ts,
 * beside Elasticsearch's `ES_API`): each one a route id, its methods and its pattern. The edge
 * (lib/auth's `readRequest`) matches a request once in that table and puts the id and the
 * decoded path parameters in the request value; the server dispatches on that id.
 * Elasticsearch's own `PUT /{index}` and `GET /{index}`, which the gateway answers in part (a
 * new index's credential pair, a registered app's greeting), are dispatched on their
 * Elasticsearch ids (`indices.create`, `indices.get`).
 */
export type GatewayRouteId =
  | 'credentials.create' | 'credentials.list' | 'credentials.get' | 'credentials.update' | 'credentials.delete'
  | 'index_credentials.list' | 'index_credentials.create'
  | 'apps.list' | 'apps.create' | 'apps.delete'
  | 'typed.search' | 'typed.count' | 'typed.bulk' | 'typed.update' | 'typed.index_new' | 'typed.get' | 'typed.index' | 'typed.delete'
  | 'pipelines.list' | 'pipelines.create' | 'pipelines.validate' | 'pipelines.get' | 'pipelines.put' | 'pipelines.delete'
  | 'rules' | 'searchrelevancy' | 'cache' | 'logs' | 'analytics' | 'declarative' | 'gateway.metrics' | 'security.authenticate'
  | 'security.authinfo' | 'security.whoami' | 'security.health' | 'security.dashboardsinfo' | 'security.account'
  | 'security.permissionsinfo' | 'security.cache' | 'security.securityconfig' | 'security.tenancy' | 'security.audit'
  | 'security.upgrade_check' | 'security.upgrade_perform' | 'security.certificates' | 'security.nodesdn' | 'security.migrate'
  | 'security.obo_token' | 'security.tenantinfo' | 'security.sslinfo' | 'security.unserved';

export interface GatewayRoute {
  id: GatewayRouteId;
  /** The route family of these requests (who answers them). */
  family: RouteFamily;
  methods: readonly string[];
  pattern: string;
  /** Its `{index}`, `{app}`, `{type}` and `{id}` hold names, never an API word (`_x`): a path with one there is not this route. */
  names?: boolean;
  /** What it does, for authorization (see `RouteAuth`). */
  auth: RouteAuth;
}

/** Elasticsearch's action name of `GET /_security/_authenticate`: every authenticated principal may ask it. */
export const AUTHENTICATE_ACTION = 'cluster:admin/xpack/security/user/authenticate';

/**
 * OpenSearch's Security plugin's informational endpoints, answered by the gateway for the request's
 * own principal (lib/auth/security-plugin-api.ts), named as the plugin names its whoami action
 * (`cluster:admin/opendistro_security/whoami`; the others are REST handlers there, named alike).
 */
const SECURITY_PLUGIN_ACTIONS = {
  authinfo: 'cluster:admin/opendistro_security/authinfo',
  whoami: 'cluster:admin/opendistro_security/whoami',
  health: 'cluster:monitor/opendistro_security/health',
  dashboardsinfo: 'cluster:admin/opendistro_security/dashboardsinfo',
  account: 'cluster:admin/opendistro_security/account/get',
  changePassword: 'cluster:admin/opendistro_security/account/put',
  permissionsinfo: 'cluster:admin/opendistro_security/permissionsinfo',
  sslinfo: 'cluster:admin/opendistro_security/sslinfo',
  // its On-Behalf-Of token for the caller itself (disabled: the gateway issues no tokens)
  oboToken: 'cluster:admin/opendistro_security/generateonbehalfoftoken',
} as const;

/**
 * The actions about the caller itself that every authenticated principal may ask, whatever its
 * categories and operations (Elasticsearch asks no privilege for `_authenticate`, the Security
 * plugin none for these): their answers tell the caller only about itself.
 */
export const SELF_ACTIONS: ReadonlySet<string> = new Set([AUTHENTICATE_ACTION, ...Object.values(SECURITY_PLUGIN_ACTIONS)]);

/** Every method: the route's own handler answers a method it does not take (405), as it always has. */
export const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * The Security plugin's configuration API (`…/api/…`): the REST API admin's (the plugin asks for
 * its `restapi:admin/*` permissions, which the gateway's admin alone holds; `manage` for a scoped
 * credential, which the handlers refuse as well). Answered from the gateway's own security model.
 */
const SECURITY_CONFIG = (name: string): RouteAuth =>
  ({ category: 'cluster', privilege: 'manage', action: { read: `cluster:admin/opendistro_security/${name}/get`, write: `cluster:admin/opendistro_security/${name}/put`, delete: `cluster:admin/opendistro_security/${name}/delete` } });

/** The Security plugin's paths, under its prefix and the legacy Open Distro one. */
const SECURITY_PLUGIN_ROUTES: readonly GatewayRoute[] = ['/_plugins/_security', '/_opendistro/_security'].flatMap((prefix) => {
  const self = (id: GatewayRouteId, methods: readonly string[], path: string, action: string, operation: RouteAuth['operation'] = 'read'): GatewayRoute =>
    ({ id, family: 'gateway', methods, pattern: `${prefix}/${path}`, auth: { category: 'cluster', operation, action } });
  const config = (id: GatewayRouteId, paths: readonly string[], name: string): GatewayRoute[] =>
    paths.map((path) => ({ id, family: 'gateway', methods: ANY_METHOD, pattern: `${prefix}/${path}`, auth: SECURITY_CONFIG(name) }));
  return [
    self('security.authinfo', ['GET', 'POST'], 'authinfo', SECURITY_PLUGIN_ACTIONS.authinfo),
    self('security.whoami', ['GET', 'POST'], 'whoami', SECURITY_PLUGIN_ACTIONS.whoami),
    self('security.whoami', ['GET'], 'whoamiprotected', SECURITY_PLUGIN_ACTIONS.whoami),
    self('security.health', ['GET', 'POST'], 'health', SECURITY_PLUGIN_ACTIONS.health),
    self('security.dashboardsinfo', ['GET', 'POST'], 'dashboardsinfo', SECURITY_PLUGIN_ACTIONS.dashboardsinfo),
    // its name before OpenSearch Dashboards
    self('security.dashboardsinfo', ['GET', 'POST'], 'kibanainfo', SECURITY_PLUGIN_ACTIONS.dashboardsinfo),
    self('security.account', ['GET'], 'api/account', SECURITY_PLUGIN_ACTIONS.account),
    self('security.account', ['PUT'], 'api/account', SECURITY_PLUGIN_ACTIONS.changePassword, 'write'),
    self('security.permissionsinfo', ['GET'], 'api/permissionsinfo', SECURITY_PLUGIN_ACTIONS.permissionsinfo),
    self('security.sslinfo', ['GET'], 'sslinfo', SECURITY_PLUGIN_ACTIONS.sslinfo),
    self('security.obo_token', ['POST'], 'api/generateonbehalfoftoken', SECURITY_PLUGIN_ACTIONS.oboToken, 'write'),
    // Dashboards' server user's view of the tenants: the gateway has neither such a user nor tenants
    ...config('security.tenantinfo', ['tenantinfo'], 'tenantinfo'),
    ...config('security.cache', ['api/cache'], 'cache'),
    ...config('security.securityconfig', ['api/securityconfig', 'api/securityconfig/config'], 'securityconfig'),
    ...config('security.tenancy', ['api/tenancy/config'], 'tenancy'),
    ...config('security.audit', ['api/audit', 'api/audit/config'], 'audit'),
    ...config('security.upgrade_check', ['api/_upgrade_check'], 'upgrade'),
    ...config('security.upgrade_perform', ['api/_upgrade_perform'], 'upgrade'),
    ...config('security.certificates', [
      'api/ssl/certs', 'api/ssl/{transport}/reloadcerts', 'api/certificates', 'api/certificates/{node_id}', 'api/allowlist', 'api/whitelist',
    ], 'ssl'),
    ...config('security.nodesdn', ['api/nodesdn', 'api/nodesdn/{cluster_name}'], 'nodesdn'),
    ...config('security.migrate', ['api/migrate', 'api/validate'], 'migrate'),
    // the rest (internal users, roles, role mappings, action groups, tenants, tokens…), and any
    // method a path above does not take: answered here, never passed to the engine's own plugin
    ...config('security.unserved', ['*'], 'config'),
  ];
});

/** The gateway's own API over its cluster-level records (`/_credentials`, `/_pipeline/{id}`), named in Elasticsearch's scheme. */
const CLUSTER_RECORDS = (api: string, category: RouteAuth['category']) =>
  ({ category, action: { read: `cluster:admin/gateway/${api}/get`, write: `cluster:admin/gateway/${api}/put`, delete: `cluster:admin/gateway/${api}/delete` } }) as const;
/** The same API over one index's records (`/{index}/_credentials`). */
const INDEX_RECORDS = (api: string, category: RouteAuth['category']) =>
  ({ category, action: { read: `indices:admin/gateway/${api}/get`, write: `indices:admin/gateway/${api}/put`, delete: `indices:admin/gateway/${api}/delete` } }) as const;
const CREDENTIALS = CLUSTER_RECORDS('credentials', 'credentials');
const PIPELINES = CLUSTER_RECORDS('pipelines', 'pipelines');
/** The apps registry: an app is an index, created and deleted by the registry itself. */
const APPS = { category: 'indices', action: { read: 'indices:admin/get', write: 'indices:admin/create', delete: 'indices:admin/delete' } } as const;

/**
 * `/{prefix}` and everything below it, as one route whose handler reads the rest of the path;
 * `named`: the parameter the segment after the prefix is, when there is one (`/_rule/{id}/…`).
 */
const subtree = (id: GatewayRouteId, family: RouteFamily, prefix: string, auth: RouteAuth, named?: string): GatewayRoute[] => [
  { id, family, methods: ANY_METHOD, pattern: prefix, auth },
  ...(named ? [{ id, family, methods: ANY_METHOD, pattern: `${prefix}/${named}`, auth }] : []),
  { id, family, methods: ANY_METHOD, pattern: `${prefix}/${named ? `${named}/` : ''}*`, auth },
];

/** The gateway's cache of answers: its records are the cluster's (`/_cache/{index}` names an index besides). */
const CACHE = CLUSTER_RECORDS('cache', 'cache');

/**
 * The app-addressed style (`/{app}/{type}/…`): the type only narrows documents, so a request is
 * authorized as its typeless equivalent (`/{app}/_search`, `/{app}/_doc/{id}`).
 */
const TYPED_COUNT = { category: 'search', operation: 'read', action: 'indices:data/read/search', index: 'app', type: 'type', body: 'search' } as const;
const TYPED_DOCS = { category: 'docs', index: 'app', type: 'type', action: { read: 'indices:data/read/get', write: 'indices:data/write/index', delete: 'indices:data/write/delete' } } as const;
const TYPED_ROUTES: readonly GatewayRoute[] = [
  { id: 'typed.search', family: 'app', methods: ['GET', 'POST'], pattern: '/{app}/{type}/_search', names: true, auth: { ...TYPED_COUNT, pointInTime: true, streams: 'any' } },
  { id: 'typed.count', family: 'app', methods: ['GET', 'POST'], pattern: '/{app}/{type}/_count', names: true, auth: TYPED_COUNT },
  { id: 'typed.bulk', family: 'app', methods: ['POST', 'PUT'], pattern: '/{app}/{type}/_bulk', names: true, auth: { category: 'docs', operation: 'write', action: 'indices:data/write/bulk', index: 'app', type: 'type', body: 'bulk', bodyPerIndex: true } },
  { id: 'typed.update', family: 'app', methods: ['POST'], pattern: '/{app}/{type}/{id}/_update', names: true, auth: { category: 'docs', operation: 'write', action: 'indices:data/write/update', index: 'app', type: 'type', id: 'id' } },
  { id: 'typed.index_new', family: 'app', methods: ['POST'], pattern: '/{app}/{type}', names: true, auth: TYPED_DOCS },
  { id: 'typed.get', family: 'app', methods: ['GET', 'HEAD'], pattern: '/{app}/{type}/{id}', names: true, auth: { ...TYPED_DOCS, id: 'id', streams: 'GET' } },
  { id: 'typed.index', family: 'app', methods: ['PUT', 'POST'], pattern: '/{app}/{type}/{id}', names: true, auth: { ...TYPED_DOCS, id: 'id' } },
  { id: 'typed.delete', family: 'app', methods: ['DELETE'], pattern: '/{app}/{type}/{id}', names: true, auth: { ...TYPED_DOCS, id: 'id' } },
];

/** The declarative API (and the ReactiveSearch API's own names for it: appbase-js, the ReactiveSearch UI library): it reads the indices its queries name. */
const DECLARATIVE = { category: 'declarative', operation: 'read', action: 'indices:data/read/declarative', body: 'declarative' } as const;
const DECLARATIVE_VALIDATE = { ...DECLARATIVE, action: 'indices:data/read/declarative/validate' } as const;
const DECLARATIVE_ROUTES: readonly GatewayRoute[] = ['_declarative', '_reactivesearch', '_reactivesearch.v3'].flatMap((word) => [
  ...subtree('declarative', 'declarative', `/${word}`, DECLARATIVE),
  ...subtree('declarative', 'declarative', `/${word}/validate`, DECLARATIVE_VALIDATE),
  ...subtree('declarative', 'declarative', `/{index}/${word}`, DECLARATIVE),
  ...subtree('declarative', 'declarative', `/{index}/${word}/validate`, DECLARATIVE_VALIDATE),
  // popular searches of the caller's own indices (search analytics), answered by the gateway: no index of the engine's is named
  { id: 'declarative', family: 'declarative', methods: ANY_METHOD, pattern: `/.suggestions/${word}`, auth: DECLARATIVE },
]);

export const GATEWAY_ROUTES: readonly GatewayRoute[] = [
  // the credentials API (lib/auth/credentials/routes.ts)
  { id: 'credentials.create', family: 'credentials', methods: ['POST'], pattern: '/_credentials', names: true, auth: { ...CREDENTIALS, body: 'credentials' } },
  { id: 'credentials.list', family: 'credentials', methods: ['GET', 'HEAD'], pattern: '/_credentials', names: true, auth: CREDENTIALS },
  { id: 'credentials.get', family: 'credentials', methods: ['GET', 'HEAD'], pattern: '/_credentials/{username}', names: true, auth: { ...CREDENTIALS, id: 'username' } },
  { id: 'credentials.update', family: 'credentials', methods: ['PATCH'], pattern: '/_credentials/{username}', names: true, auth: { ...CREDENTIALS, id: 'username', body: 'credentials' } },
  { id: 'credentials.delete', family: 'credentials', methods: ['DELETE'], pattern: '/_credentials/{username}', names: true, auth: { ...CREDENTIALS, id: 'username' } },
  { id: 'index_credentials.list', family: 'credentials', methods: ['GET', 'HEAD'], pattern: '/{index}/_credentials', names: true, auth: INDEX_RECORDS('credentials', 'credentials') },
  { id: 'index_credentials.create', family: 'credentials', methods: ['POST'], pattern: '/{index}/_credentials', names: true, auth: { ...INDEX_RECORDS('credentials', 'credentials'), body: 'credentials' } },
  // the apps registry (its `{app}` is checked by the registry, as an index name) and the
  // app-addressed style (lib/apps/routes.ts)
  { id: 'apps.list', family: 'apps', methods: ['GET', 'HEAD'], pattern: '/_apps', auth: { ...APPS, every: 'strict' } },
  { id: 'apps.create', family: 'apps', methods: ['PUT'], pattern: '/_apps/{app}', auth: { ...APPS, names: { app: true } } },
  { id: 'apps.delete', family: 'apps', methods: ['DELETE'], pattern: '/_apps/{app}', auth: { ...APPS, names: { app: true } } },
  ...TYPED_ROUTES,
  // the gateway's other APIs, each answered by its module's handler, which reads the rest of the
  // path by place: only the patterns it reads that way are its routes (`/{index}/_rules` and
  // `/{index}/_cache` are none: the rules handler read them as `/_rule/_rules`, the cache handler
  // as `/_cache/_cache`; they go on to the engine, which has no such API). What names a record
  // (a rule's id, an index) is a parameter of its patterns.
  ...subtree('rules', 'gateway', '/_rule', { ...CLUSTER_RECORDS('rules', 'rules'), id: 'id' }, '{id}'),
  ...subtree('rules', 'gateway', '/_rules', CLUSTER_RECORDS('rules', 'rules')),
  // `_default` applies to every index: a cluster-level record; an index's own is that index's
  { id: 'searchrelevancy', family: 'gateway', methods: ANY_METHOD, pattern: '/_searchrelevancy', auth: CLUSTER_RECORDS('searchrelevancy', 'searchrelevancy') },
  ...subtree('searchrelevancy', 'gateway', '/_searchrelevancy/_default', CLUSTER_RECORDS('searchrelevancy', 'searchrelevancy')),
  ...subtree('searchrelevancy', 'gateway', '/_searchrelevancy/{name}', { ...INDEX_RECORDS('searchrelevancy', 'searchrelevancy'), names: { name: true } }),
  // `DELETE /_cache/{index}`: that index's cached answers. `POST /_cache/clear` is Elasticsearch's
  // (indices.clear_cache: every index, narrowed to the credential's), not a record of the gateway's
  { id: 'cache', family: 'gateway', methods: ANY_METHOD, pattern: '/_cache', auth: CACHE },
  ...['stats', 'evict', 'preferences'].flatMap((word) => subtree('cache', 'gateway', `/_cache/${word}`, CACHE)),
  ...subtree('cache', 'gateway', '/_cache/{name}', { ...CACHE, names: { name: true } }),
  ...subtree('logs', 'gateway', '/_logs', CLUSTER_RECORDS('logs', 'logs')),
  ...subtree('logs', 'gateway', '/_log', CLUSTER_RECORDS('logs', 'logs')),
  ...subtree('logs', 'gateway', '/{index}/_logs', INDEX_RECORDS('logs', 'logs')),
  // `/_analytics/{index}/{name}`: that index's analytics (`/_analytics/{name}`: every index's)
  { id: 'analytics', family: 'gateway', methods: ANY_METHOD, pattern: '/_analytics', auth: CLUSTER_RECORDS('analytics', 'analytics') },
  { id: 'analytics', family: 'gateway', methods: ANY_METHOD, pattern: '/_analytics/{name}', auth: CLUSTER_RECORDS('analytics', 'analytics') },
  ...subtree('analytics', 'gateway', '/_analytics/rules', CLUSTER_RECORDS('analytics', 'analytics')),
  { id: 'analytics', family: 'gateway', methods: ANY_METHOD, pattern: '/_analytics/{name}/*', auth: { ...INDEX_RECORDS('analytics', 'analytics'), names: { name: true } } },
  ...subtree('analytics', 'gateway', '/{index}/_analytics', INDEX_RECORDS('analytics', 'analytics')),
  // the pipelines API (lib/pipelines/router.ts)
  { id: 'pipelines.list', family: 'pipelines', methods: ['GET'], pattern: '/_pipelines', auth: PIPELINES },
  { id: 'pipelines.create', family: 'pipelines', methods: ['POST'], pattern: '/_pipeline', auth: PIPELINES },
  { id: 'pipelines.validate', family: 'pipelines', methods: ['POST'], pattern: '/_pipeline/validate', auth: PIPELINES },
  { id: 'pipelines.get', family: 'pipelines', methods: ['GET', 'HEAD'], pattern: '/_pipeline/{id}', auth: { ...PIPELINES, id: 'id' } },
  { id: 'pipelines.put', family: 'pipelines', methods: ['PUT'], pattern: '/_pipeline/{id}', auth: { ...PIPELINES, id: 'id' } },
  { id: 'pipelines.delete', family: 'pipelines', methods: ['DELETE'], pattern: '/_pipeline/{id}', auth: { ...PIPELINES, id: 'id' } },
  ...DECLARATIVE_ROUTES,
  { id: 'gateway.metrics', family: 'gateway', methods: ANY_METHOD, pattern: '/_gateway/metrics', auth: { category: 'cluster', action: 'cluster:monitor/gateway/metrics' } },
  { id: 'security.authenticate', family: 'gateway', methods: ['GET', 'HEAD'], pattern: '/_security/_authenticate', auth: { category: 'cluster', operation: 'read', action: AUTHENTICATE_ACTION } },
  ...SECURITY_PLUGIN_ROUTES,
];

