import type { Principal } from '../auth/index.js';
import { patternsCoverPattern } from '../auth/classify/index.js';
import { callJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { queryParams } from '../request/index.js';
import { LOG_KINDS, LOGS_INDEX, MAX_LOGGED_INDICES, type LogKind, type LogRecord } from './log-record.js';

export const DEFAULT_SIZE = 100;
export const MAX_SIZE = 1000;
/** Elasticsearch's `index.max_result_window`: `from + size` beyond it is refused. */
const MAX_WINDOW = 10_000;
/** Index names a scoped view tells apart at most (see `scopeClause`). */
const MAX_NAMES = 10_000;

/** `filter`: a kind of request, or how it was answered. */
export type LogFilter = LogKind | 'success' | 'error';
const FILTERS: readonly string[] = [...LOG_KINDS.filter((k) => k !== 'other'), 'success', 'error'];

export interface LogQuery {
  from: number;
  size: number;
  /** Epoch ms, inclusive. */
  startDate?: number;
  endDate?: number;
  filter?: LogFilter;
  /** `/_logs/search`: took between, inclusive (ms), and ordered by it. */
  startLatency?: number;
  endLatency?: number;
  orderByLatency?: 'asc' | 'desc';
  /** `background=false`: without the caller's own console background requests; `true`: only those (LogRecord.background). */
  background?: boolean;
  /** `/{index}/_logs`: the records naming one of these index expressions. */
  indices?: readonly string[];
}

type Clause = Record<string, unknown>;

const invalid = (reason: string) => new EsError(400, 'illegal_argument_exception', reason);

const COMMON_PARAMS = ['from', 'size', 'start_date', 'end_date', 'filter', 'background', 'pretty', 'human', 'error_trace', 'filter_path'];
const LATENCY_PARAMS = ['start_latency', 'end_latency', 'order_by_latency'];

/**
 * The parameters of `GET /_logs` (and, with `latency`, of `GET /_logs/search`); 400 naming the first
 * bad one. `asked`: the request value's decoded parameters (`GatewayRequest.params`); a query string
 * is read by the edge's decoder (for a caller that has not the value at hand).
 */
export function parseLogQuery(asked: ReadonlyMap<string, string> | string, latency: boolean): LogQuery {
  const params = typeof asked === 'string' ? queryParams(asked, true) : asked;
  const known = latency ? [...COMMON_PARAMS, ...LATENCY_PARAMS] : COMMON_PARAMS;
  for (const name of params.keys()) {
    if (!known.includes(name)) {
      throw invalid(`request [/_logs] contains unrecognized parameter: [${name}]` + (LATENCY_PARAMS.includes(name) ? ' (latency parameters are for /_logs/search)' : ''));
    }
  }
  const q: LogQuery = {
    from: integer(params, 'from', 0, Number.MAX_SAFE_INTEGER),
    size: integer(params, 'size', DEFAULT_SIZE, MAX_SIZE),
    startDate: date(params, 'start_date'),
    endDate: date(params, 'end_date'),
  };
  if (q.from + q.size > MAX_WINDOW) throw invalid(`[from] + [size] must be at most ${MAX_WINDOW}, got ${q.from + q.size}`);
  const filter = params.get('filter');
  if (filter !== undefined) {
    if (!FILTERS.includes(filter)) throw invalid(`[filter] must be one of ${FILTERS.join(', ')}, got [${filter}]`);
    q.filter = filter as LogFilter;
  }
  const background = params.get('background');
  if (background !== undefined) {
    if (background !== 'true' && background !== 'false') throw invalid(`[background] must be true or false, got [${background}]`);
    q.background = background === 'true';
  }
  if (latency) {
    q.startLatency = number(params, 'start_latency');
    q.endLatency = number(params, 'end_latency');
    const order = params.get('order_by_latency');
    if (order !== undefined) {
      if (order !== 'asc' && order !== 'desc') throw invalid(`[order_by_latency] must be asc or desc, got [${order}]`);
      q.orderByLatency = order;
    }
  }
  return q;
}

function integer(params: ReadonlyMap<string, string>, name: string, fallback: number, max: number): number {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw invalid(`[${name}] must be a non-negative integer, got [${raw}]`);
  const n = Number(raw);
  if (n > max) throw invalid(`[${name}] must be at most ${max}, got ${raw}`);
  return n;
}

function number(params: ReadonlyMap<string, string>, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n)) throw invalid(`[${name}] must be a non-negative number of milliseconds, got [${raw}]`);
  return n;
}

/** ISO 8601 or epoch milliseconds. */
function date(params: ReadonlyMap<string, string>, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isFinite(n)) throw invalid(`[${name}] must be an ISO 8601 date or epoch milliseconds, got [${raw}]`);
  return n;
}

/**
 * The engine search for a query; `scope`: what a scoped credential may see (`scopeClause`);
 * `caller`: the username asking, whose own background requests `background` selects.
 */
export function logSearch(q: LogQuery, scope?: Clause, caller?: string): Clause {
  const filter: Clause[] = [];
  const mustNot: Clause[] = [];
  if (q.indices) {
    const named = q.indices.filter((e) => !e.startsWith('-'));
    filter.push({ bool: { should: named.map(indexClause), minimum_should_match: 1 } });
    for (const e of q.indices) if (e.startsWith('-')) mustNot.push(indexClause(e.slice(1)));
  }
  if (q.startDate !== undefined || q.endDate !== undefined) filter.push({ range: { time: { gte: q.startDate, lte: q.endDate } } });
  if (q.startLatency !== undefined || q.endLatency !== undefined) filter.push({ range: { took: { gte: q.startLatency, lte: q.endLatency } } });
  if (q.filter === 'success') filter.push({ range: { status: { lt: 400 } } });
  else if (q.filter === 'error') filter.push({ range: { status: { gte: 400 } } });
  else if (q.filter) filter.push({ term: { kind: q.filter } });
  // a console's own requests are the caller's own: a header anyone can send never hides another
  // user's requests from a listing (records from before the fields were mapped count as not background)
  const ownBackground: Clause = { bool: { filter: [{ term: { background: true } }, { term: { user: caller ?? '' } }] } };
  if (q.background === true) filter.push(ownBackground);
  else if (q.background === false) mustNot.push(ownBackground);
  if (scope) filter.push(scope);
  const newestFirst = { time_us: { order: 'desc' } };
  return {
    from: q.from,
    size: q.size,
    track_total_hits: true,
    query: { bool: { filter, must_not: mustNot } },
    // the requests the matching records stand for (a sampled record's weight; none before weights: 1)
    aggs: { requests: { sum: { field: 'weight', missing: 1 } } },
    sort: q.orderByLatency ? [{ took: { order: q.orderByLatency } }, newestFirst] : [newestFirst],
  };
}

const indexClause = (expression: string): Clause =>
  expression.includes('*') ? { wildcard: { indices: { value: expression } } } : { term: { indices: expression } };

/** An index expression a record names that a credential's patterns cover (an exclusion reaches nothing). */
const covered = (patterns: readonly string[], expression: string) => expression.startsWith('-') || patternsCoverPattern(patterns, expression);

/**
 * A record a scoped credential may see: one that named indices, each within the credential's
 * patterns (a record of every index, or of none, is the admin's).
 */
export function visibleTo(principal: Principal, record: Pick<LogRecord, 'indices' | 'all_indices' | 'index_count'>): boolean {
  if (principal.role === 'admin') return true;
  const patterns = principal.credential.indices;
  const named = record.indices.filter((e) => !e.startsWith('-'));
  // a record cut to MAX_LOGGED_INDICES does not say what the rest of its expressions were
  const whole = record.index_count === undefined || record.index_count <= record.indices.length;
  return whole && !record.all_indices && named.length > 0 && record.indices.every((e) => covered(patterns, e));
}

/**
 * `visibleTo` as a query. A stored record lists its index expressions; "every one of them within
 * the patterns" is not a query the engine has, so it is built in two steps: the index expressions
 * of the records that name at least one index within the patterns are listed (a terms
 * aggregation), those outside the patterns are picked out here, with the same `patternsCoverPattern`
 * that authorizes requests, and the records naming any of them are left out. Should the list be
 * cut (more than MAX_NAMES names), only records of a single index are shown: never one naming an
 * index the list did not show. A record cut to MAX_LOGGED_INDICES expressions is never shown.
 */
export async function scopeClause(engine: Backend, principal: Principal): Promise<Clause> {
  const patterns = principal.credential.indices;
  if (!patterns.length) return { bool: { must_not: { match_all: {} } } };
  const touching = { bool: { should: patterns.map(indexClause), minimum_should_match: 1 } };
  const res = await callJson<{ aggregations?: { names?: { buckets?: Array<{ key: string }>; sum_other_doc_count?: number } } }>(
    engine, 'POST', `/${LOGS_INDEX}/_search`,
    { size: 0, query: touching, aggs: { names: { terms: { field: 'indices', size: MAX_NAMES } } } },
    'ignore_unavailable=true',
  );
  if (res.status >= 300 && res.status !== 404) throw engineError(res.status, res.body);
  const names = res.body?.aggregations?.names;
  const foreign = (names?.buckets ?? []).map((b) => b.key).filter((name) => !covered(patterns, name));
  const cut = (names?.sum_other_doc_count ?? 0) > 0;
  return {
    bool: {
      filter: [touching, ...(cut ? [{ term: { index_count: 1 } }] : [])],
      must_not: [
        { term: { all_indices: true } },
        { range: { index_count: { gt: MAX_LOGGED_INDICES } } },
        ...(foreign.length ? [{ terms: { indices: foreign } }] : []),
      ],
    },
  };
}

/** An engine failure as the client sees it: the engine's own status and reason. */
export function engineError(status: number, body: unknown): EsError {
  const error = (body as { error?: { type?: string; reason?: string } } | undefined)?.error;
  return new EsError(status, error?.type ?? 'exception', error?.reason ?? `the request logs could not be read (${status})`);
}
