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
