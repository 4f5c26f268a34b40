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
  | 'rules' | 'searchrelevancy' | 'cache' | 'logs' | 'analytics' | 'declarative' | 'gateway.metrics' | 'security.authenticate';

export interface GatewayRoute {
  id: GatewayRouteId;
  /** The route family of these requests (who answers them). */
  family: RouteFamily;
  methods: readonly string[];
  pattern: string;
  /** Its `{index}`, `{app}`, `{type}` and `{id}` hold names, never an API word (`_x`): a path with one there is not this route. */
  names?: boolean;
  /** What it does, for authorization (see `RouteAuth`); absent: read by the classifier's path reading. */
  auth?: RouteAuth;
}

/** Elasticsearch's action name of `GET /_security/_authenticate`: every authenticated principal may ask it. */
export const AUTHENTICATE_ACTION = 'cluster:admin/xpack/security/user/authenticate';

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

/** Every method: the route's own handler answers a method it does not take (405), as it always has. */
export const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** `/{prefix}` and everything below it, as one route whose handler reads the rest of the path. */
const subtree = (id: GatewayRouteId, family: RouteFamily, prefix: string, methods: readonly string[] = ANY_METHOD): GatewayRoute[] => [
  { id, family, methods, pattern: prefix },
  { id, family, methods, pattern: `${prefix}/*` },
];

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
  { id: 'typed.search', family: 'app', methods: ['GET', 'POST'], pattern: '/{app}/{type}/_search', names: true },
  { id: 'typed.count', family: 'app', methods: ['GET', 'POST'], pattern: '/{app}/{type}/_count', names: true },
  { id: 'typed.bulk', family: 'app', methods: ['POST', 'PUT'], pattern: '/{app}/{type}/_bulk', names: true },
  { id: 'typed.update', family: 'app', methods: ['POST'], pattern: '/{app}/{type}/{id}/_update', names: true },
  { id: 'typed.index_new', family: 'app', methods: ['POST'], pattern: '/{app}/{type}', names: true },
  { id: 'typed.get', family: 'app', methods: ['GET', 'HEAD'], pattern: '/{app}/{type}/{id}', names: true },
  { id: 'typed.index', family: 'app', methods: ['PUT', 'POST'], pattern: '/{app}/{type}/{id}', names: true },
  { id: 'typed.delete', family: 'app', methods: ['DELETE'], pattern: '/{app}/{type}/{id}', names: true },
  // the gateway's other APIs, each answered by its module's handler, which reads the rest of the
  // path by place: only the patterns it reads that way are its routes (`/{index}/_rules` and
  // `/{index}/_cache` are none: the rules handler read them as `/_rule/_rules`, the cache handler
  // as `/_cache/_cache`; they go on to the engine, which has no such API)
  ...subtree('rules', 'gateway', '/_rule'),
  ...subtree('rules', 'gateway', '/_rules'),
  ...subtree('searchrelevancy', 'gateway', '/_searchrelevancy'),
  ...subtree('cache', 'gateway', '/_cache'),
  ...subtree('logs', 'gateway', '/_logs'),
  ...subtree('logs', 'gateway', '/_log'),
  ...subtree('logs', 'gateway', '/{index}/_logs'),
  ...subtree('analytics', 'gateway', '/_analytics'),
  ...subtree('analytics', 'gateway', '/{index}/_analytics'),
  // the pipelines API (lib/pipelines/router.ts)
  { id: 'pipelines.list', family: 'pipelines', methods: ['GET'], pattern: '/_pipelines', auth: PIPELINES },
  { id: 'pipelines.create', family: 'pipelines', methods: ['POST'], pattern: '/_pipeline', auth: PIPELINES },
  { id: 'pipelines.validate', family: 'pipelines', methods: ['POST'], pattern: '/_pipeline/validate' },
  { id: 'pipelines.get', family: 'pipelines', methods: ['GET', 'HEAD'], pattern: '/_pipeline/{id}', auth: { ...PIPELINES, id: 'id' } },
  { id: 'pipelines.put', family: 'pipelines', methods: ['PUT'], pattern: '/_pipeline/{id}', auth: { ...PIPELINES, id: 'id' } },
  { id: 'pipelines.delete', family: 'pipelines', methods: ['DELETE'], pattern: '/_pipeline/{id}', auth: { ...PIPELINES, id: 'id' } },
  ...subtree('declarative', 'declarative', '/_declarative'),
  ...subtree('declarative', 'declarative', '/_reactivesearch'),
  ...subtree('declarative', 'declarative', '/_reactivesearch.v3'),
  ...subtree('declarative', 'declarative', '/{index}/_declarative'),
  ...subtree('declarative', 'declarative', '/{index}/_reactivesearch'),
  ...subtree('declarative', 'declarative', '/{index}/_reactivesearch.v3'),
  { id: 'gateway.metrics', family: 'gateway', methods: ANY_METHOD, pattern: '/_gateway/metrics', auth: { category: 'cluster', action: 'cluster:monitor/gateway/metrics' } },
  { id: 'security.authenticate', family: 'gateway', methods: ['GET', 'HEAD'], pattern: '/_security/_authenticate', auth: { category: 'cluster', operation: 'read', action: AUTHENTICATE_ACTION } },
];

