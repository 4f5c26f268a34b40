/** What a request is, for access control: which indices it reaches, in which category, how. */

export type Category =
  | 'docs'
  | 'search'
  | 'indices'
  | 'streams'
  | 'declarative'
  | 'pipelines'
  | 'credentials'
  | 'rules'
  | 'cache'
  | 'analytics'
  | 'cluster';

export type Operation = 'read' | 'write' | 'delete';

export const CATEGORIES: readonly Category[] = [
  'docs', 'search', 'indices', 'streams', 'declarative', 'pipelines', 'credentials', 'rules', 'cache', 'analytics', 'cluster',
];
export const OPERATIONS: readonly Operation[] = ['read', 'write', 'delete'];

export interface ExpressionSource {
  expression: string;
  from: 'path' | 'body';
}

export interface ExpressionOperation {
  expression: string;
  operation: Operation;
}

export interface Classification {
  category: Category;
  /** The request's operation; for mixed requests (`perIndex` present) the strongest write-side one. */
  operation: Operation;
  /** The ES action name for 403 messages, e.g. "indices:data/read/search", "cluster:monitor/health". */
  action: string;
  /**
   * Index expressions the request names, each as written (names, aliases, wildcards, `_all`,
   * `-excluded`), from the path and from bodies, without duplicates. An index name present in a
   * body but unreadable (not a string, or a body that is not JSON) is reported as `*`.
   */
  indices: string[];
  /** True when the request addresses every index (bare `/_search`, `/_all/…`, `*`, a `_bulk` item with no index…). */
  allIndices: boolean;
  /** Where each expression came from, to rewrite it later. One entry per (expression, from). */
  sources: ExpressionSource[];
  /**
   * Operation per expression for mixed requests (`_bulk`, `_reindex`, resize, rollover): when
   * present it is authoritative, one entry per (expression, operation).
   */
  perIndex?: ExpressionOperation[];
}

/** What the classifier needs of a request. `path` is as sent (percent-encoded), `querystring` without "?". */
export interface ClassifiableRequest {
  method: string;
  path: string;
  querystring: string;
  body?: Buffer | string;
}
