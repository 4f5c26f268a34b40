import { ES_API, type EsApi, type EsPath, type EsRouteId } from './es-api.js';
import { ANY_METHOD, GATEWAY_ROUTES, type GatewayRoute, type GatewayRouteId } from './gateway-api.js';
import type { RouteAuth } from './route-auth.js';
import { RouteTable, patternParam, patternSegments } from './route-table.js';

/**
 * A route of the one table: one of Elasticsearch's APIs (`ES_API`, whose handlers the embedded
 * engine registers by id) or one of the gateway's own (`GATEWAY_ROUTES`, dispatched on by the server).
 */
export type ApiRoute =
  | { readonly owner: 'elasticsearch'; readonly id: EsRouteId; readonly api: EsApi; readonly path: EsPath; readonly auth: RouteAuth }
  | { readonly owner: 'gateway'; readonly id: GatewayRouteId; readonly route: GatewayRoute & { readonly auth: RouteAuth } }
  | { readonly owner: 'unknown'; readonly id: 'unknown'; readonly auth: RouteAuth };

/** A request's route, as the one table matched it: where each of its path parameters sits among the path's segments. */
export interface RouteMatch {
  readonly route: ApiRoute;
  readonly slots: Readonly<Record<string, number>>;
}

interface Entry extends RouteMatch {
  /** The pattern starts with an index expression (`/{index}/…`). */
  readonly indexFirst: boolean;
}

const slotsOf = (pattern: string): Readonly<Record<string, number>> => {
  const slots: Record<string, number> = {};
  patternSegments(pattern).forEach((segment, at) => {
    const name = patternParam(segment);
    if (name !== undefined) slots[name] = at;
  });
  return Object.freeze(slots);
};

/**
 * The one route table: Elasticsearch's REST API and the gateway's own APIs in one tree, so that a
 * request is matched once. A gateway API that takes a whole subtree (`/_rule/*`) takes the
 * Elasticsearch paths below it too. `POST [/{index}]/_cache/clear` is Elasticsearch's: a literal
 * segment wins over the gateway's `/_cache/{name}`.
 */
const API_TABLE = new RouteTable<Entry>();
for (const api of ES_API as readonly EsApi[]) {
  for (const path of api.paths) {
    const route: ApiRoute = { owner: 'elasticsearch', id: api.id as EsRouteId, api, path, auth: api.auth };
    API_TABLE.add(path.methods, path.pattern, { route, slots: slotsOf(path.pattern), indexFirst: path.pattern.startsWith('/{') });
  }
}
for (const gateway of GATEWAY_ROUTES) {
  const entry: Entry = { route: { owner: 'gateway', id: gateway.id, route: gateway }, slots: slotsOf(gateway.pattern), indexFirst: gateway.pattern.startsWith('/{') };
  API_TABLE.add(gateway.methods, gateway.pattern, entry);
  if (!gateway.pattern.endsWith('/*')) continue;
  const prefix = gateway.pattern.slice(0, -1);
  for (const api of ES_API as readonly EsApi[]) for (const path of api.paths) if (path.pattern.startsWith(prefix)) API_TABLE.add(ANY_METHOD, path.pattern, { ...entry, slots: slotsOf(path.pattern) });
}

/**
 * Elasticsearch's `_cat` APIs and OpenSearch's `_list` APIs (which page `_cat/indices` and
 * `_cat/shards`), by route id: answers that are tables (text, or rows with `format=json`), never
 * an index's mappings or settings, whatever action they are authorized as. Read from the table's
 * paths, so that a table route added later is one too.
 */
const TABLE_ROUTES: ReadonlySet<string> = new Set(
  (ES_API as readonly EsApi[]).filter((api) => api.paths.every((p) => /^\/_(cat|list)(\/|$)/.test(p.pattern))).map((api) => api.id),
);

/** Whether a route (by id) answers a `_cat` or `_list` table. */
export const answersTable = (route: string): boolean => TABLE_ROUTES.has(route);

/** Path parameters of a gateway route of `names` that hold a name (an index, app, type or document), never an API word (`_x`). */
const NAMES = new Set(['index', 'app', 'type', 'id']);

/** An index expression in the path's first place: any name, `_all` among them, but no other API word (`/_x/…` is an API's, not an index's). */
export const indexExpression = (segment: string): boolean => !segment.startsWith('_') || segment === '_all' || segment.startsWith('_all,');

function accepts(entry: Entry, segments: readonly string[]): boolean {
  if (entry.indexFirst && !indexExpression(segments[0])) return false;
  if (entry.route.owner === 'gateway' && entry.route.route.names) {
    for (const [name, at] of Object.entries(entry.slots)) if (NAMES.has(name) && segments[at].startsWith('_')) return false;
  }
  return true;
}

/**
 * The route `method` reaches at the decoded `segments`, if any: the table's one match (a literal
 * segment wins over a parameter, as in Elasticsearch's path trie). `HEAD` reaches an
 * Elasticsearch API's `GET` paths, as the engine routes it.
 */
export function findRoute(method: string, segments: readonly string[]): RouteMatch | undefined {
  const find = (m: string) => {
    const found = API_TABLE.find(m, segments);
    return found && accepts(found.value, segments) ? found.value : undefined;
  };
  const hit = find(method);
  if (hit || method !== 'HEAD') return hit;
  const get = find('GET');
  return get?.route.owner === 'elasticsearch' ? get : undefined;
}

/**
 * The table's answer for a request none of its routes takes ("unknown means refused": a scoped
 * credential is refused it, the admin's goes on to the engine as it is). Its one reading is the
 * table's own notion of a path's shape: an index expression first (`/{index}/…`, its indices), or
 * anything else (cluster-level).
 */
export function routeOf(method: string, segments: readonly string[]): RouteMatch {
  return findRoute(method, segments) ?? (segments.length && indexExpression(segments[0]) ? UNKNOWN_INDEX_ROUTE : UNKNOWN_ROUTE);
}

const unknownAuth = (category: 'indices' | 'cluster'): RouteAuth => ({
  category,
  known: false,
  action: { read: `${category}:monitor/unknown`, write: `${category}:admin/unknown`, delete: `${category}:admin/unknown` },
});
const unknownRoute = (category: 'indices' | 'cluster', slots: Readonly<Record<string, number>>): RouteMatch =>
  Object.freeze({ route: Object.freeze({ owner: 'unknown', id: 'unknown', auth: unknownAuth(category) } as const), slots: Object.freeze(slots) });
const UNKNOWN_ROUTE = unknownRoute('cluster', {});
const UNKNOWN_INDEX_ROUTE = unknownRoute('indices', { index: 0 });

/**
 * Whether the table takes the path once it is in lower case (`/_SEARCH`, `/idx/_Doc/1`,
 * `/_cluster/Health`): Elasticsearch's routes are case-sensitive, and it answers such a path with
 * its `no handler found` 400, as it does any path it has no handler for.
 */
export function takesLowerCased(method: string, segments: readonly string[]): boolean {
  const lower = segments.map((s) => s.toLowerCase());
  return lower.some((s, i) => s !== segments[i]) && findRoute(method, lower) !== undefined;
}
