import type { Classification } from '../request/index.js';

/**
 * What request logging stores: one document per request in LOGS_INDEX, written through the
 * Backend (so on an Elasticsearch backend every node writes and reads the same records). The
 * document's `_id` is the record's `id`.
 */
export const LOGS_INDEX = '.gateway-logs';

/** The header (and its value) by which a console marks the requests it makes on its own. */
export const CONSOLE_BACKGROUND_HEADER = 'x-gateway-console';
export const CONSOLE_BACKGROUND = 'background';

/** What a request was, for the `filter` parameter. */
/**
 * Index expressions a record keeps at most. A record cut to them is the admin's alone (see
 * `visibleTo`): whether the expressions left out are within a credential's patterns is not known.
 */
export const MAX_LOGGED_INDICES = 1_000;

export type LogKind = 'search' | 'suggestion' | 'index' | 'delete' | 'other';
export const LOG_KINDS: readonly LogKind[] = ['search', 'suggestion', 'index', 'delete', 'other'];

export interface LogRecord {
  /** A random id: the document's `_id` (`GET /_log/{id}`). */
  id: string;
  /** When the request came in, epoch milliseconds. */
  time: number;
  /** When the request came in, epoch microseconds: the order of records within a millisecond. */
  time_us: number;
  method: string;
  /** The path as requested, without the query string (before any narrowing by authorization). */
  path: string;
  /** The query string as requested, secret-looking parameters redacted; '' when none. */
  querystring: string;
  category: string;
  operation: string;
  action: string;
  /**
   * The index expressions the request named, as written (path, parameters, bodies): the first
   * MAX_LOGGED_INDICES of them (a credential may name 100,000 patterns: indexing them all in the
   * record would cost more than the request).
   */
  indices: string[];
  /** How many expressions the request named (more than `indices` holds when it was cut). */
  index_count: number;
  /** The request addressed every index (bare `/_search`, `_all`…): only the admin sees it. */
  all_indices: boolean;
  status: number;
  /** Milliseconds from the request's arrival to the end of its response (a stream: its whole life). */
  took: number;
  /** The credential's username; never a secret. */
  user: string;
  ip: string;
  kind: LogKind;
  /**
   * How many requests the record stands for: 1, or LOGS_SAMPLE_EVERY for the one fast, successful
   * read a busy node kept of that many (`LogSampling.weigh`). The sum of the weights of records
   * counts requests; records written before weights were kept have none (count them as 1).
   */
  weight: number;
  /** True for a live stream (`stream=true`): logged when it ends. */
  stream?: boolean;
  /**
   * True for a request a console made on its own (its polling and page loads), as it says with
   * `X-Gateway-Console: background` (CONSOLE_BACKGROUND_HEADER): still recorded — a header hides
   * nothing — and left out of a listing that asks `background=false` (as the console's Logs page
   * does) only for the user who made it: another user's header never hides their requests.
   */
  background?: boolean;
  /** With LOGS_BODIES=true: the body texts, cut at LOGS_BODY_MAX bytes, secrets redacted. */
  request_body?: string;
  response_body?: string;
  /** The body was longer than LOGS_BODY_MAX and was cut. */
  request_truncated?: boolean;
  response_truncated?: boolean;
}

/**
 * The logs index. What the API filters and sorts on is indexed (keyword, date, long): one indexed
 * field costs every request's record its indexing, so the rest (method, path, user, the bodies…)
 * is kept in `_source` only (`dynamic: false` leaves unmapped members unindexed).
 */
export const LOGS_INDEX_BODY = {
  settings: { 'index.hidden': true, number_of_shards: 1, number_of_replicas: 0 },
  mappings: {
    dynamic: false,
    properties: {
      time: { type: 'date', format: 'epoch_millis' },
      time_us: { type: 'long' },
      indices: { type: 'keyword' },
      index_count: { type: 'integer' },
      all_indices: { type: 'boolean' },
      status: { type: 'integer' },
      took: { type: 'long' },
      kind: { type: 'keyword' },
      weight: { type: 'integer' },
      background: { type: 'boolean' },
      user: { type: 'keyword' },
    },
  },
};

/**
 * What a request was, from its classification: a search (the search APIs, search streams, the
 * declarative API — a suggestion when its querying components are all suggestions), a document
 * write (`index`: document writes, `_update`, `_bulk`, update by query), a delete (documents,
 * delete by query, indices), or anything else.
 */
export function kindOf(info: Pick<Classification, 'category' | 'operation' | 'action'>, declarativeBody?: unknown): LogKind {
  switch (info.category) {
    case 'search':
      return 'search';
    case 'declarative':
      return suggestsOnly(declarativeBody) ? 'suggestion' : 'search';
    case 'streams':
      return info.action === 'indices:data/read/search' ? 'search' : 'other';
    case 'docs':
      return info.operation === 'write' ? 'index' : info.operation === 'delete' ? 'delete' : 'other';
    case 'indices':
      return info.operation === 'delete' ? 'delete' : 'other';
    default:
      return 'other';
  }
}

/** The components that run a query of their own (the others only filter them). */
const QUERYING = new Set(['search', 'suggestion', 'geo', undefined]);

/** A declarative body whose querying components are all suggestions (the search box's drop-down). */
function suggestsOnly(body: unknown): boolean {
  const query = (body as { query?: unknown } | undefined)?.query;
  if (!Array.isArray(query)) return false;
  const types = query.map((c) => (c as { type?: unknown } | null)?.type).filter((t) => QUERYING.has(t as string | undefined));
  return types.length > 0 && types.every((t) => t === 'suggestion');
}
