import { EsError } from '../../../errors/index.js';
import type { Handler, Route } from './types.js';

/** Parameters every route accepts. */
export const COMMON_PARAMS = new Set(['pretty', 'human', 'error_trace', 'filter_path', 'format', 'source', 'source_content_type']);

interface CompiledRoute {
  pattern: string;
  segments: Array<{ literal: string } | { param: string }>;
  /** Preference: literal segments earlier win (as ES's path trie). */
  rank: string;
  byMethod: Map<string, { handler: Handler; params: Set<string> }>;
}

export type RouteMatch =
  | { kind: 'found'; handler: Handler; pathParams: Record<string, string>; params: Set<string>; pattern: string }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'not_found' };

/**
 * The first path segments of Elasticsearch 8's REST APIs (and X-Pack's). A path starting with one
 * of them names an API, never an index, even when this engine does not have that API: it is then
 * answered as Elasticsearch answers a path it has no handler for (400, `no handler found for uri
 * [...] and method [...]`), not as a `/{index}` route would (`invalid_index_name_exception`, or 405
 * for a method `/{index}` does not take). Any other name starting with `_` still reaches
 * `/{index}`, whose answer is Elasticsearch's own (`GET /_foo`: invalid_index_name_exception).
 */
export const ES_API_ROOTS = new Set([
  '_alias', '_aliases', '_analyze', '_application', '_async_search', '_autoscaling', '_bulk', '_cache', '_capabilities', '_cat',
  '_ccr', '_cluster', '_component_template', '_connector', '_count', '_dangling', '_data_stream', '_delete_by_query', '_enrich',
  '_eql', '_esql', '_features', '_field_caps', '_fleet', '_flush', '_forcemerge', '_graph', '_health_report', '_ilm',
  '_index_template', '_inference', '_ingest', '_internal', '_knn_search', '_license', '_logstash', '_mapping', '_mget',
  '_migration', '_ml', '_monitoring', '_msearch', '_mtermvectors', '_nodes', '_pit', '_query', '_query_rules', '_rank_eval',
  '_recovery', '_refresh', '_reindex', '_remote', '_render', '_resolve', '_rollup', '_script_context', '_script_language',
  '_scripts', '_search', '_search_shards', '_searchable_snapshots', '_security', '_segments', '_settings', '_shard_stores',
  '_slm', '_snapshot', '_sql', '_ssl', '_stats', '_synonyms', '_tasks', '_template', '_terms_enum', '_text_structure',
  '_transform', '_update_by_query', '_upgrade', '_validate', '_watcher', '_xpack',
]);

/** Method + path-pattern routing (`/{index}/_doc/{id}`), with ES's 405-versus-400 distinction. */
export class Router {
  private readonly routes = new Map<string, CompiledRoute>();

  add(route: Route): void {
    let compiled = this.routes.get(route.pattern);
    if (!compiled) {
      const segments = route.pattern.split('/').filter(Boolean).map((s) => (s.startsWith('{') ? { param: s.slice(1, -1) } : { literal: s }));
      compiled = { pattern: route.pattern, segments, rank: segments.map((s) => ('literal' in s ? '0' : '1')).join(''), byMethod: new Map() };
      this.routes.set(route.pattern, compiled);
    }
    for (const m of route.methods) compiled.byMethod.set(m, { handler: route.handler, params: new Set(route.params) });
  }

  match(method: string, segments: string[]): RouteMatch {
    const candidates: Array<{ route: CompiledRoute; pathParams: Record<string, string> }> = [];
    for (const route of this.routes.values()) {
      if (route.segments.length !== segments.length) continue;
      const pathParams: Record<string, string> = {};
      let ok = true;
      // an Elasticsearch API this engine lacks is not an index name (`/_snapshot` is no `/{index}`)
      if (ES_API_ROOTS.has(segments[0]) && route.segments.length > 0 && 'param' in route.segments[0]) continue;
      for (let i = 0; i < segments.length && ok; i++) {
        const s = route.segments[i];
        if ('literal' in s) ok = s.literal === segments[i];
        else if (segments[i] === '') ok = false;
        else pathParams[s.param] = segments[i];
      }
      if (ok) candidates.push({ route, pathParams });
    }
    if (!candidates.length) return { kind: 'not_found' };
    candidates.sort((a, b) => (a.route.rank < b.route.rank ? -1 : a.route.rank > b.route.rank ? 1 : 0));
    for (const c of candidates) {
      const h = c.route.byMethod.get(method) ?? (method === 'HEAD' ? c.route.byMethod.get('GET') : undefined);
      if (h) return { kind: 'found', handler: h.handler, pathParams: c.pathParams, params: h.params, pattern: c.route.pattern };
    }
    const allowed = new Set<string>();
    for (const c of candidates) for (const m of c.route.byMethod.keys()) allowed.add(m);
    return { kind: 'method_not_allowed', allowed: [...allowed] };
  }
}

/** ES's error for URL parameters a route does not know. */
export function checkParams(path: string, params: URLSearchParams, allowed: Set<string>): void {
  const unknown = [...new Set(params.keys())].filter((k) => !allowed.has(k) && !COMMON_PARAMS.has(k));
  if (!unknown.length) return;
  const list = unknown.map((k) => `[${k}]`).join(', ');
  throw new EsError(400, 'illegal_argument_exception', `request [${path}] contains unrecognized parameter${unknown.length > 1 ? 's' : ''}: ${list}`);
}
