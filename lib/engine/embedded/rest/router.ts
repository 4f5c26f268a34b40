import { EsError } from '../../../errors/index.js';
import { COMMON_PARAMS, ES_API, RouteTable, paramsOf, patternSegments, type EsApi, type EsRouteId } from '../../../request/index.js';
import type { UrlParams } from './params.js';
import type { Handler, Route } from './types.js';

interface RouteEntry {
  pattern: string;
  handler: Handler;
  params: Set<string>;
  /** The pattern starts with a parameter (`/{index}/…`): it never takes an Elasticsearch API's name there. */
  indexFirst: boolean;
  /** The API the pattern names: its first literal segment starting with `_` (`_search` in `/{index}/_search`), if any. */
  endpoint: string | undefined;
}

export type RouteMatch =
  | { kind: 'found'; handler: Handler; pathParams: Record<string, string>; params: Set<string>; pattern: string; endpoint: string | undefined }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

/**
 * The first path segments of Elasticsearch 8's REST APIs (and X-Pack's). A path starting with one
 * of them names an API, never an index, even when this engine does not have that API: it is then
 * answered as Elasticsearch answers a path it has no handler for (400, `no handler found for uri
 * [...] and method [...]`), not as a `/{index}` route would (`invalid_index_name_exception`, or 405
 * for a method `/{index}` does not take). Any other name starting with `_` still reaches
 * `/{index}`, whose answer is Elasticsearch's own (`GET /_foo`: invalid_index_name_exception).
 * The roots of the route table's own paths are among them (OpenSearch's `/_list`), so that `HEAD
 * /_list` reaches `GET /_list` as the gateway's reading of the table does, not `HEAD /{index}`.
 */
export const ES_API_ROOTS: ReadonlySet<string> = new Set([
  '_alias', '_aliases', '_analyze', '_application', '_async_search', '_autoscaling', '_bulk', '_cache', '_capabilities', '_cat',
  '_ccr', '_cluster', '_component_template', '_connector', '_count', '_dangling', '_data_stream', '_delete_by_query', '_enrich',
  '_eql', '_esql', '_features', '_field_caps', '_fleet', '_flush', '_forcemerge', '_graph', '_health_report', '_ilm',
  '_index_template', '_inference', '_ingest', '_internal', '_knn_search', '_license', '_logstash', '_mapping', '_mget',
  '_migration', '_ml', '_monitoring', '_msearch', '_mtermvectors', '_nodes', '_pit', '_query', '_query_rules', '_rank_eval',
  '_recovery', '_refresh', '_reindex', '_remote', '_render', '_resolve', '_rollup', '_script_context', '_script_language',
  '_scripts', '_search', '_search_shards', '_searchable_snapshots', '_security', '_segments', '_settings', '_shard_stores',
  '_slm', '_snapshot', '_sql', '_ssl', '_stats', '_synonyms', '_tasks', '_template', '_terms_enum', '_text_structure',
  '_transform', '_update_by_query', '_upgrade', '_validate', '_watcher', '_xpack',
  ...(ES_API as readonly EsApi[]).flatMap((api) => api.paths.map((p) => patternSegments(p.pattern)[0])).filter((root) => root?.startsWith('_') && root !== '_all'),
]);

/** Elasticsearch's order of methods (its RestRequest.Method), in which a 405 lists them. */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'] as const;

/**
 * Method + path-pattern routing (`/{index}/_doc/{id}`) of the one route table's Elasticsearch
 * APIs (lib/request's `ES_API`), on lib/request's `RouteTable`, the matcher the gateway reads
 * requests with too: a literal segment wins over a parameter at the same place, as in
 * Elasticsearch's path trie, and a path that matches with another method is a 405 naming the
 * methods it takes. Matched on the decoded segments, so a parameter is exactly one decoded segment.
 *
 * Built from the engine's handlers by route id: every API of the table has exactly one.
 */
export class Router {
  private readonly table = new RouteTable<RouteEntry>();

  constructor(routes: readonly Route[]) {
    const handlers = new Map<EsRouteId, Handler>();
    for (const { id, handler } of routes) {
      if (handlers.has(id)) throw new Error(`embedded engine: two handlers for route ${id}`);
      handlers.set(id, handler);
    }
    for (const api of ES_API as readonly EsApi[]) {
      // an API the engine does not implement is answered as a path it has no handler for
      if (api.engine === false) continue;
      const handler = handlers.get(api.id as EsRouteId);
      if (!handler) throw new Error(`embedded engine: no handler for route ${api.id}`);
      for (const path of api.paths) {
        const indexFirst = path.pattern.startsWith('/{');
        const endpoint = patternSegments(path.pattern).find((s) => s.startsWith('_'));
        this.table.add(path.methods, path.pattern, { pattern: path.pattern, handler, params: new Set(paramsOf(api, path)), indexFirst, endpoint });
      }
    }
  }

  /**
   * The route of `pattern` for `method` (HEAD: GET's), with the path parameters the one route
   * table's match gave: the gateway's edge matched the request in the same table, and the engine
   * takes that match rather than reading the path again. Undefined when the engine has no handler
   * there (an API it does not implement, a method the path does not take).
   */
  matchPattern(method: string, pattern: string, pathParams: Readonly<Record<string, string>>): RouteMatch | undefined {
    const entry = this.table.at(method, pattern) ?? (method === 'HEAD' ? this.table.at('GET', pattern) : undefined);
    if (!entry) return undefined;
    return { kind: 'found', handler: entry.handler, pathParams: { ...pathParams }, params: entry.params, pattern: entry.pattern, endpoint: entry.endpoint };
  }

  match(method: string, segments: readonly string[]): RouteMatch {
    // an Elasticsearch API this engine lacks is not an index name (`/_snapshot` is no `/{index}`)
    const apiRoot = ES_API_ROOTS.has(segments[0]);
    const find = (m: string) => {
      const found = this.table.find(m, segments);
      return found && apiRoot && found.value.indexFirst ? undefined : found;
    };
    const hit = find(method) ?? (method === 'HEAD' ? find('GET') : undefined);
    if (hit) {
      const { handler, params, pattern, endpoint } = hit.value;
      return { kind: 'found', handler, pathParams: hit.pathParams, params, pattern, endpoint };
    }
    const allowed = METHODS.filter((m) => find(m) !== undefined);
    return allowed.length ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  }
}

/** ES's error for URL parameters a route does not know. */
export function checkParams(path: string, params: UrlParams, allowed: Set<string>): void {
  const unknown = [...params.keys()].filter((k) => !allowed.has(k) && !COMMON_PARAMS.has(k));
  if (!unknown.length) return;
  const list = unknown.map((k) => `[${k}]`).join(', ');
  throw new EsError(400, 'illegal_argument_exception', `request [${path}] contains unrecognized parameter${unknown.length > 1 ? 's' : ''}: ${list}`);
}
