import FindMyWay from 'find-my-way';

/**
 * The one matcher of routes (`/{index}/_doc/{id}`) over a request's decoded path segments, on
 * find-my-way's radix tree: a literal segment wins over a parameter at the same place (as in
 * Elasticsearch's path trie), a parameter is exactly one decoded segment. The one route table
 * (api-table.ts: Elasticsearch's REST API and the gateway's own) and the embedded engine's router
 * (built from the same table's Elasticsearch APIs) are built on it, so both read a path the same way.
 */
export class RouteTable<T> {
  /** Each pattern's values by method: a later entry for the same pattern and method replaces the earlier one. */
  private readonly entries = new Map<string, Map<string, T>>();
  private tree: FindMyWay.Instance<FindMyWay.HTTPVersion.V1> | undefined;

  add(methods: readonly string[], pattern: string, value: T): void {
    let byMethod = this.entries.get(pattern);
    if (!byMethod) this.entries.set(pattern, (byMethod = new Map()));
    for (const m of methods) byMethod.set(m, value);
    this.tree = undefined;
  }

  /** The entry of `pattern` for `method`, as it was added: a route another reading of the same table already matched. */
  at(method: string, pattern: string): T | undefined {
    return this.entries.get(pattern)?.get(method);
  }

  /** The entry `method` reaches at `segments`, with its path parameters (decoded), if any. */
  find(method: string, segments: readonly string[]): { value: T; pathParams: Record<string, string> } | undefined {
    // no pattern has an empty segment, and no parameter takes one
    if (segments.includes('')) return undefined;
    const tree = (this.tree ??= this.build());
    let path = '';
    for (const segment of segments) path += '/' + encodeURIComponent(segment);
    const found = tree.find(method as FindMyWay.HTTPMethod, path || '/');
    if (!found) return undefined;
    // find-my-way makes the parameters' object for this lookup: it is the caller's
    const pathParams = found.params as Record<string, string>;
    // `/` is no `/{index}` (find-my-way would take it, with an empty parameter)
    for (const name in pathParams) if (pathParams[name] === '') return undefined;
    return { value: found.store as T, pathParams };
  }

  private build(): FindMyWay.Instance<FindMyWay.HTTPVersion.V1> {
    const tree = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: 1 << 20 });
    const noop = () => undefined;
    for (const [pattern, byMethod] of this.entries) {
      const path = '/' + patternSegments(pattern).map((s) => s.replace(/^\{([^}]+)\}$/, ':$1')).join('/');
      for (const [m, value] of byMethod) tree.on(m as FindMyWay.HTTPMethod, path, noop, value);
    }
    return tree;
  }
}

/**
 * A route pattern's segments (`/{index}/_doc/{id}` → `{index}`, `_doc`, `{id}`), empty ones
 * dropped: how a pattern — the table's, or one a gateway pipeline declares — is read. A pattern
 * is the route table's language, not a request: requests are read by `requestTarget`.
 */
export function patternSegments(pattern: string): string[] {
  const out: string[] = [];
  let start = pattern.startsWith('/') ? 1 : 0;
  while (start <= pattern.length) {
    let end = pattern.indexOf('/', start);
    if (end < 0) end = pattern.length;
    if (end > start) out.push(pattern.slice(start, end));
    start = end + 1;
  }
  return out;
}

/** The parameter a pattern segment names (`{index}` → `index`), or undefined for a literal one. */
export function patternParam(segment: string): string | undefined {
  return segment.length > 2 && segment.startsWith('{') && segment.endsWith('}') ? segment.slice(1, -1) : undefined;
}
