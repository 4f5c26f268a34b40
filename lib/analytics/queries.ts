import { callJson, type Backend } from '../engine/index.js';
import { EsError, errors } from '../errors/index.js';
import { ANALYTICS_INDEX, EMPTY_QUERY, type AnalyticsEvent, type EventType } from './events.js';

/**
 * The analytics query endpoints (`/_analytics[/{index}]/{name}`), in appbase's response shapes.
 *
 * Every answer is one or two searches with aggregations on ANALYTICS_INDEX through the Backend, so
 * it is the same on the embedded engine and on Elasticsearch. Contract:
 * - The events counted are those in the time range (`from_timestamp`..`to_timestamp`, both
 *   inclusive; epoch seconds or ISO dates; default the last 30 days up to `now`), in the scope
 *   (the path's index; a scoped credential's index patterns), of the user (`user_id`), and
 *   carrying every custom event asked for (any other parameter `k=v`: the event's `custom` holds
 *   `k=v`; a key repeated means any of its values). Clicks and conversions are filtered on their
 *   own fields the same way (their query, index and user are the search's; their custom events
 *   are those recorded with them).
 * - Rates are percentages (0–100, two decimals) of the searches they are a rate of: a click rate
 *   counts the searches that had at least one click, not the clicks.
 * - No analytics index yet means no events: zeros and empty lists, never an error.
 * - Distinct counts (users, clicked searches) use `cardinality`: exact on the embedded engine and,
 *   on Elasticsearch, below its precision threshold (40 000).
 */
const ENDPOINTS = [
  'popular-searches',
  'no-result-searches',
  'popular-results',
  'popular-filters',
  'summary',
  'latency',
  'request-distribution',
  'recent-searches',
  'query-overview',
] as const;

export type AnalyticsEndpoint = (typeof ENDPOINTS)[number];
export const ANALYTICS_ENDPOINTS: readonly string[] = ENDPOINTS;

/** Which events a caller may see. */
export interface AnalyticsScope {
  /** The path's index (a name, a comma-separated list, or globs with `*`): only its events. */
  index?: string;
  /** A scoped credential's index patterns (globs with `*`): only events whose index matches one; undefined = all. */
  patterns?: string[];
}

/** The parameters these endpoints read (or the HTTP layer around them does); any other is a custom-event filter. */
export const ANALYTICS_PARAMETERS: ReadonlySet<string> = new Set([
  'size', 'from_timestamp', 'to_timestamp', 'time_zone', 'click_analytics', 'interval', 'user_id', 'query',
  'stream', 'pretty', 'human', 'filter_path', 'error_trace',
]);

/** Latency buckets: LATENCY_STEP_MS wide below LATENCY_CAP_MS, one last bucket (key LATENCY_CAP_MS) at or above it. */
export const LATENCY_STEP_MS = 10;
export const LATENCY_CAP_MS = 1000;

const DEFAULT_RANGE_MS = 30 * 24 * 3600_000;
const DEFAULT_SIZE = 100;
const MAX_SIZE = 1000;
/** More date-histogram buckets than this over the range is refused: ask for a coarser interval. */
const MAX_TIME_BUCKETS = 10_000;
/** Below it `cardinality` is (near) exact on Elasticsearch; its maximum. */
const PRECISION = 40_000;

const INTERVALS = { minute: 60_000, hour: 3600_000, day: 86_400_000, week: 7 * 86_400_000, month: 31 * 86_400_000 } as const;
type Interval = keyof typeof INTERVALS;

/** What a request asks, checked once. */
interface AnalyticsRequest {
  endpoint: AnalyticsEndpoint;
  /** Epoch ms, inclusive. */
  from: number;
  to: number;
  size: number;
  timeZone?: string;
  clickAnalytics: boolean;
  interval?: Interval;
  userId?: string;
  query?: string;
  /** Custom-event key → the values accepted. */
  custom: Map<string, string[]>;
}

/** The answer of the analytics endpoint `name`, in the scope's events. */
/**
 * `params`: the request's parameters as name-value pairs (its value's decoded `params`, or pairs a
 * caller lists itself, where a custom-event filter may be given more than once: any of its values).
 */
export async function analyticsQuery(backend: Backend, name: string, params: Iterable<readonly [string, string]>, scope: AnalyticsScope, now = Date.now()): Promise<object> {
  const req = readRequest(name, params, now);
  return ANSWERS[req.endpoint](new Events(backend, req, scope), req);
}

// ---------------------------------------------------------------------------------------------
// The endpoints

type Answer = (events: Events, req: AnalyticsRequest) => Promise<object>;

const ANSWERS: Record<AnalyticsEndpoint, Answer> = {
  'popular-searches': async (events, req) => {
    const reply = await events.search(['search'], [], { size: 0, aggs: { queries: terms('query', req.size) } });
    const buckets = bucketsOf(reply.aggregations, 'queries');
    const engagement = req.clickAnalytics ? await events.engagement('query', buckets.map((b) => String(b.key))) : undefined;
    return {
      popular_searches: buckets.map((b) => ({ key: b.key, count: b.doc_count, ...engagement?.(String(b.key), b.doc_count) })),
    };
  },

  'no-result-searches': async (events, req) => {
    const reply = await events.search(['search'], [{ term: { hits: 0 } }], { size: 0, aggs: { queries: terms('query', req.size) } });
    return { no_results_searches: bucketsOf(reply.aggregations, 'queries').map((b) => ({ key: b.key, count: b.doc_count })) };
  },

  'popular-results': async (events, req) => {
    const aggs = { results: { ...terms('hit_ids', req.size), aggs: { index: terms('index', 1) } } };
    const reply = await events.search(['search'], [], { size: 0, aggs });
    const buckets = bucketsOf(reply.aggregations, 'results');
    const engagement = req.clickAnalytics ? await events.engagement('doc_id', buckets.map((b) => String(b.key))) : undefined;
    return {
      popular_results: buckets.map((b) => {
        const index = bucketsOf(b, 'index')[0]?.key;
        return { key: b.key, count: b.doc_count, ...(index === undefined ? {} : { index }), ...engagement?.(String(b.key), b.doc_count) };
      }),
    };
  },

  'popular-filters': async (events, req) => {
    const reply = await events.search(['search'], [], { size: 0, aggs: { filters: terms('filters', req.size) } });
    return {
      popular_filters: bucketsOf(reply.aggregations, 'filters').map((b) => {
        const selected = String(b.key);
        const at = selected.indexOf('=');
        return at < 0 ? { key: selected, value: '', count: b.doc_count } : { key: selected.slice(0, at), value: selected.slice(at + 1), count: b.doc_count };
      }),
    };
  },

  summary: async (events, req) => {
    // the previous timeframe: as long as this one, just before it; one search over both
    const length = req.to - req.from;
    const periods = {
      filters: {
        filters: {
          current: { range: { time: { gte: req.from, lte: req.to } } },
          previous: { range: { time: { gte: req.from - length - 1, lt: req.from } } },
        },
      },
      aggs: {
        searches: {
          filter: { term: { type: 'search' } },
          aggs: {
            no_results: { filter: { term: { hits: 0 } } },
            users: { cardinality: { field: 'user_id', precision_threshold: PRECISION } },
            latency: { avg: { field: 'took' } },
          },
        },
        clicks: {
          filter: { term: { type: 'click' } },
          aggs: { searches: distinctSearches, position: { avg: { field: 'position' } } },
        },
        conversions: { filter: { term: { type: 'conversion' } }, aggs: { searches: distinctSearches } },
      },
    };
    const reply = await events.search(['search', 'click', 'conversion'], [], { size: 0, aggs: { periods } }, { from: req.from - length - 1, to: req.to });
    const period = (name: string) => summaryOf(at(reply.aggregations, 'periods', 'buckets', name));
    return { ...period('current'), compare_timeframe: period('previous') };
  },

  latency: async (events) => {
    const aggs = {
      below: {
        filter: { range: { took: { lt: LATENCY_CAP_MS } } },
        aggs: { latencies: { histogram: { field: 'took', interval: LATENCY_STEP_MS, min_doc_count: 1 } } },
      },
      above: { filter: { range: { took: { gte: LATENCY_CAP_MS } } } },
      searches: { value_count: { field: 'type' } },
      latency: { avg: { field: 'took' } },
    };
    const reply = await events.search(['search'], [], { size: 0, aggs });
    const a = reply.aggregations;
    const latencies = bucketsOf(a, 'below', 'latencies').map((b) => ({ key: Number(b.key), count: b.doc_count }));
    const slow = count(a, 'above');
    if (slow > 0) latencies.push({ key: LATENCY_CAP_MS, count: slow });
    return { latencies, total_searches: metric(a, 'searches'), avg_search_latency: round(metric(a, 'latency')) };
  },

  'request-distribution': async (events, req) => {
    const interval = req.interval ?? defaultInterval(req.to - req.from);
    if ((req.to - req.from) / INTERVALS[interval] > MAX_TIME_BUCKETS) {
      throw errors.illegalArgument(`[interval] [${interval}] makes more than ${MAX_TIME_BUCKETS} buckets over the time range; choose a larger one or a shorter range`);
    }
    const aggs = { distribution: { ...dateHistogram(interval, req.timeZone), aggs: { status: { terms: { field: 'status', size: 100 } } } } };
    const reply = await events.search(['search'], [], { size: 0, aggs });
    return {
      request_distribution: bucketsOf(reply.aggregations, 'distribution').map((b) => ({
        key: b.key,
        key_as_string: b.key_as_string,
        count: b.doc_count,
        buckets: bucketsOf(b, 'status').map((s) => ({ key: s.key, count: s.doc_count })),
      })),
    };
  },

  'recent-searches': async (events, req) => {
    const reply = await events.search(['search'], [], {
      size: req.size,
      sort: [{ time: { order: 'desc' } }],
      _source: ['query', 'time', 'hits', 'index'],
    });
    return {
      recent_searches: (reply.hits?.hits ?? []).map(({ _source: e }) => ({ key: e.query ?? '', time: e.time, hits: e.hits ?? 0, index: e.index })),
    };
  },

  'query-overview': async (events, req) => {
    const aggs = {
      searches: {
        filter: { term: { type: 'search' } },
        aggs: { histogram: dateHistogram('day', req.timeZone), results: terms('hit_ids', req.size) },
      },
      clicks: { filter: { term: { type: 'click' } }, aggs: { docs: terms('doc_id', req.size) } },
    };
    const reply = await events.search(['search', 'click'], [{ term: { query: req.query } }], { size: 0, aggs });
    const a = reply.aggregations;
    const counts = (...path: string[]) => bucketsOf(a, ...path).map((b) => ({ key: b.key, count: b.doc_count }));
    return {
      histogram: bucketsOf(a, 'searches', 'histogram').map((b) => ({ key: b.key, key_as_string: b.key_as_string, count: b.doc_count })),
      top_clicks: counts('clicks', 'docs'),
      top_results: counts('searches', 'results'),
    };
  },
};

const distinctSearches = { cardinality: { field: 'search_id', precision_threshold: PRECISION } };

const terms = (field: string, size: number) => ({ terms: { field, size } });

function dateHistogram(interval: Interval, timeZone: string | undefined) {
  return { date_histogram: { field: 'time', calendar_interval: interval, format: 'strict_date_optional_time', ...(timeZone ? { time_zone: timeZone } : {}) } };
}

/** The interval that draws a range in tens of buckets, not thousands. */
function defaultInterval(rangeMs: number): Interval {
  if (rangeMs <= 6 * INTERVALS.hour) return 'minute';
  if (rangeMs <= 2 * INTERVALS.day) return 'hour';
  if (rangeMs <= 92 * INTERVALS.day) return 'day';
  if (rangeMs <= 2 * 365 * INTERVALS.day) return 'week';
  return 'month';
}

function summaryOf(period: Node | undefined) {
  const searches = count(period, 'searches');
  const noResults = count(period, 'searches', 'no_results');
  return {
    total_searches: searches,
    total_no_results_searches: noResults,
    no_results_rate: percent(noResults, searches),
    total_clicks: count(period, 'clicks'),
    avg_click_rate: percent(metric(period, 'clicks', 'searches'), searches),
    total_conversions: count(period, 'conversions'),
    avg_conversion_rate: percent(metric(period, 'conversions', 'searches'), searches),
    total_users: metric(period, 'searches', 'users'),
    avg_click_position: round(metric(period, 'clicks', 'position')),
    avg_search_latency: round(metric(period, 'searches', 'latency')),
  };
}

/** `part` of `whole` in percent, two decimals, at most 100 (clicks can name searches outside the range). */
const percent = (part: number, whole: number) => (whole > 0 ? round(Math.min(100, (part / whole) * 100)) : 0);
const round = (n: number) => Math.round(n * 100) / 100;

// ---------------------------------------------------------------------------------------------
// Reading the events

/** An engine answer's node (an aggregation, a bucket), read by path: absent parts read as nothing. */
type Node = { [member: string]: unknown };
type Bucket = Node & { key: string | number; key_as_string?: string; doc_count: number };

function at(node: unknown, ...path: string[]): Node | undefined {
  let n = node;
  for (const member of path) n = n !== null && typeof n === 'object' ? (n as Node)[member] : undefined;
  return n !== null && typeof n === 'object' ? (n as Node) : undefined;
}
/** A single-bucket aggregation's count; 0 when absent. */
const count = (node: unknown, ...path: string[]) => Number(at(node, ...path)?.doc_count ?? 0);
/** A metric's value; 0 when absent or null (an average of nothing). */
const metric = (node: unknown, ...path: string[]) => Number(at(node, ...path)?.value ?? 0);
function bucketsOf(node: unknown, ...path: string[]): Bucket[] {
  const buckets = at(node, ...path)?.buckets;
  return Array.isArray(buckets) ? (buckets as Bucket[]) : [];
}

interface EventsReply {
  hits?: { hits: Array<{ _source: Partial<AnalyticsEvent> }> };
  aggregations?: Node;
}

/** The engagement an answer adds with `click_analytics=true`, for one key and the searches it counts. */
type Engagement = (key: string, searches: number) => { clicks: number; click_rate: number; click_position: number; conversion_rate: number };

/** The events a request may see: its time range, scope, user and custom events. */
class Events {
  constructor(private readonly backend: Backend, private readonly req: AnalyticsRequest, private readonly scope: AnalyticsScope) {}

  /** One search of the events of these types, with more filters; `range` widens the time range (summary). */
  async search(types: EventType[], more: object[], body: object, range = { from: this.req.from, to: this.req.to }): Promise<EventsReply> {
    const filter = [
      types.length === 1 ? { term: { type: types[0] } } : { terms: { type: types } },
      { range: { time: { gte: range.from, lte: range.to } } },
      ...this.visible(),
      ...more,
    ];
    const res = await callJson<EventsReply & { error?: { type?: string; reason?: string } }>(
      this.backend, 'POST', `/${ANALYTICS_INDEX}/_search`, { ...body, query: { bool: { filter } } });
    // nothing recorded yet: no events
    if (res.status === 404 && res.body?.error?.type === 'index_not_found_exception') return {};
    if (res.status >= 300) {
      throw new EsError(res.status >= 400 ? res.status : 500, res.body?.error?.type ?? 'exception', res.body?.error?.reason ?? 'the analytics search failed');
    }
    return res.body;
  }

  /**
   * Clicks and conversions of the keys (queries, or document ids) a first search found, by `field`:
   * the clicks, the share of searches with a click or a conversion, the average click position.
   */
  async engagement(field: 'query' | 'doc_id', keys: string[]): Promise<Engagement> {
    const byKey = new Map<string, Bucket>();
    if (keys.length) {
      const aggs = {
        keys: {
          terms: { field, size: keys.length },
          aggs: {
            clicks: { filter: { term: { type: 'click' } }, aggs: { searches: distinctSearches, position: { avg: { field: 'position' } } } },
            conversions: { filter: { term: { type: 'conversion' } }, aggs: { searches: distinctSearches } },
          },
        },
      };
      const reply = await this.search(['click', 'conversion'], [{ terms: { [field]: keys } }], { size: 0, aggs });
      for (const b of bucketsOf(reply.aggregations, 'keys')) byKey.set(String(b.key), b);
    }
    return (key, searches) => {
      const b = byKey.get(key);
      return {
        clicks: count(b, 'clicks'),
        click_rate: percent(metric(b, 'clicks', 'searches'), searches),
        click_position: round(metric(b, 'clicks', 'position')),
        conversion_rate: percent(metric(b, 'conversions', 'searches'), searches),
      };
    };
  }

  /** The filters of the scope, the user and the custom events. */
  private visible(): object[] {
    const filters: object[] = [];
    if (this.scope.index !== undefined) filters.push(indexMatching(this.scope.index.split(',').map((s) => s.trim()).filter(Boolean)));
    if (this.scope.patterns) filters.push(indexMatching(this.scope.patterns));
    if (this.req.userId !== undefined) filters.push({ term: { user_id: this.req.userId } });
    for (const [key, values] of this.req.custom) filters.push({ terms: { custom: values.map((v) => `${key}=${v}`) } });
    return filters;
  }
}

/** Events whose index is one of the names or matches one of the globs; none for an empty list. */
function indexMatching(globs: string[]): object {
  if (!globs.length) return { match_none: {} };
  if (globs.includes('*') || globs.includes('_all')) return { match_all: {} };
  const names = globs.filter((g) => !g.includes('*'));
  const should: object[] = globs.filter((g) => g.includes('*')).map((g) => ({ wildcard: { index: { value: g } } }));
  if (names.length) should.push({ terms: { index: names } });
  return { bool: { should, minimum_should_match: 1 } };
}

// ---------------------------------------------------------------------------------------------
// Reading the parameters

function readRequest(name: string, pairs: Iterable<readonly [string, string]>, now: number): AnalyticsRequest {
  const params = new Map<string, string>();
  const custom = new Map<string, string[]>();
  for (const [key, value] of pairs) {
    if (!params.has(key)) params.set(key, value); // the first value, as a reader of pairs reads one
    if (!ANALYTICS_PARAMETERS.has(key)) custom.set(key, [...(custom.get(key) ?? []), value]);
  }
  if (!ANALYTICS_ENDPOINTS.includes(name)) {
    throw new EsError(404, 'resource_not_found_exception', `no analytics endpoint [${name}]; the endpoints are [${ANALYTICS_ENDPOINTS.join(', ')}]`);
  }
  const endpoint = name as AnalyticsEndpoint;
  const to = readTime(params, 'to_timestamp') ?? now;
  const from = readTime(params, 'from_timestamp') ?? to - DEFAULT_RANGE_MS;
  if (from > to) throw errors.illegalArgument(`[from_timestamp] must not be after [to_timestamp]`);
  const query = params.get('query') ?? null;
  if (endpoint === 'query-overview' && query === null) throw errors.illegalArgument(`[query] is required by [query-overview]`);
  return {
    endpoint,
    from,
    to,
    size: readSize(params.get('size') ?? null),
    timeZone: readTimeZone(params.get('time_zone') ?? null),
    clickAnalytics: readBoolean(params.get('click_analytics') ?? null, 'click_analytics'),
    interval: readInterval(params.get('interval') ?? null),
    userId: params.get('user_id') ?? undefined,
    // an empty search is recorded as EMPTY_QUERY
    query: query === null ? undefined : query.trim() || EMPTY_QUERY,
    custom,
  };
}

/** Epoch seconds (fractions allowed) or an ISO 8601 date → epoch ms; undefined when absent. */
function readTime(params: ReadonlyMap<string, string>, name: string): number | undefined {
  const raw = params.get(name)?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const seconds = Number(raw);
    // a value in milliseconds (or beyond) reads as a date after the year 5000
    if (seconds > 1e11) throw errors.illegalArgument(`[${name}] must be in epoch seconds, got [${raw}] (milliseconds?)`);
    return Math.round(seconds * 1000);
  }
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw errors.illegalArgument(`[${name}] must be epoch seconds or an ISO 8601 date, got [${raw}]`);
  return ms;
}

function readSize(raw: string | null): number {
  if (raw === null || raw === '') return DEFAULT_SIZE;
  const size = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || size < 1 || size > MAX_SIZE) throw errors.illegalArgument(`[size] must be an integer from 1 to ${MAX_SIZE}, got [${raw}]`);
  return size;
}

function readBoolean(raw: string | null, name: string): boolean {
  if (raw === null || raw === 'false') return false;
  if (raw === '' || raw === 'true') return true;
  throw errors.illegalArgument(`[${name}] must be true or false, got [${raw}]`);
}

function readInterval(raw: string | null): Interval | undefined {
  if (raw === null || raw === '') return undefined;
  if (Object.hasOwn(INTERVALS, raw)) return raw as Interval;
  throw errors.illegalArgument(`[interval] must be one of [${Object.keys(INTERVALS).join(', ')}], got [${raw}]`);
}

/** An IANA zone (`Europe/Paris`), `UTC`/`Z`, or an offset (`+01:00`, `-0530`). */
function readTimeZone(raw: string | null): string | undefined {
  if (raw === null || raw === '') return undefined;
  if (/^[+-]\d{2}(:?\d{2})?$/.test(raw) || raw === 'Z') return raw;
  try {
    new Intl.DateTimeFormat('en', { timeZone: raw });
    return raw;
  } catch {
    throw errors.illegalArgument(`[time_zone] is not a time zone: [${raw}]`);
  }
}
