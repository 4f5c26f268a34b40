import { asStep } from './aggregation-steps.js';
import { tooManyBuckets } from './max-buckets.js';
import { EsError } from '../../../../errors/index.js';
import { withSubs } from './aggregations.js';
import { bucketComparator, javaDouble, parseOrder, type OrderCriterion } from './bucket-order.js';
import { DateFormatter } from './date-formatter.js';
import { groupBy } from './grouping.js';
import { rangeBucketSource, rangeFieldType } from './range-field-source.js';
import { resolveSource, type ResolvedSource } from './source.js';
import { addUnits, DEFAULT_DATE_FORMAT, parseTimeZone, roundDown, type TimeZone } from '../../mapping/index.js';
import { isObject, type AggContext, type AggNode, type AggregationType, type DocSet } from './types.js';
import { numericValue, parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField } from './unknown-field.js';

interface Bounds {
  min?: unknown;
  max?: unknown;
}

interface CommonParams {
  source: SourceParams;
  minDocCount: number;
  order: OrderCriterion[];
  keyed: boolean;
  extendedBounds?: Bounds;
  hardBounds?: Bounds;
}

/** How a histogram maps a value to its bucket key and steps to the next key. */
interface Rounding {
  round(v: number): number;
  next(key: number): number;
}

function parseBounds(raw: unknown, name: string, what: string): Bounds | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) throw new EsError(400, 'parsing_exception', `[${what}] must be an object in [${name}]`, { line: 1, col: 1 });
  return { min: raw.min ?? undefined, max: raw.max ?? undefined };
}

/** The fields Elasticsearch's histogram parsers know (the values source's, then their own). */
const HISTOGRAM_KEYS = ['field', 'missing', 'script', 'value_type', 'format', 'interval', 'offset', 'order', 'keyed', 'min_doc_count', 'extended_bounds', 'hard_bounds'];
const DATE_HISTOGRAM_KEYS = [...HISTOGRAM_KEYS, 'time_zone', 'calendar_interval', 'fixed_interval'];

function parseCommon(type: 'histogram' | 'date_histogram', name: string, body: Record<string, unknown>, subs: AggNode[]): CommonParams {
  const known = type === 'histogram' ? HISTOGRAM_KEYS : DATE_HISTOGRAM_KEYS;
  for (const k of Object.keys(body)) if (!known.includes(k)) throw unknownField(type, k, known);
  const minDocCount = body.min_doc_count === undefined ? 0 : Number(body.min_doc_count);
  if (!Number.isInteger(minDocCount) || minDocCount < 0) {
    throw new EsError(400, 'illegal_argument_exception', `[minDocCount] must be greater than or equal to 0. Found [${String(body.min_doc_count)}] in [${name}]`);
  }
  const extendedBounds = parseBounds(body.extended_bounds, name, 'extended_bounds');
  const hardBounds = parseBounds(body.hard_bounds, name, 'hard_bounds');
  return {
    source: parseSourceParams(type, name, body),
    minDocCount,
    order: body.order === undefined ? [{ path: '_key', asc: true }] : parseOrder(body.order, name, subs),
    keyed: body.keyed === true,
    extendedBounds,
    hardBounds,
  };
}

/**
 * extended_bounds and hard_bounds, parsed; `roundExtended`: how extended_bounds round to keys
 * (the histogram's rounding when not given).
 */
interface HistogramBounds {
  ext?: [number | undefined, number | undefined];
  hard?: [number | undefined, number | undefined];
  roundExtended?: (v: number) => number;
}

/** Buckets from grouped keys: gaps filled when min_doc_count is 0, bounded, sorted, with subs. */
function buildBuckets(node: AggNode & { params: CommonParams }, docs: DocSet, ctx: AggContext, src: ResolvedSource, rounding: Rounding,
  bounds: HistogramBounds, keyString: (k: number) => string | undefined): Record<string, unknown>[] {
  const p = node.params;
  const hard = bounds.hard;
  const keyOf = (v: unknown): number | undefined => {
    const n = numericValue(v as number);
    if (hard && ((hard[0] !== undefined && n < hard[0]) || (hard[1] !== undefined && n > hard[1]))) return undefined;
    return rounding.round(n);
  };
  // The buckets with their sub-aggregations are one step of a phase run in passes (a pass that
  // pauses in the parent pipelines' scripts, run over the result, replays them at once); sorted on a copy.
  const buckets = [...asStep(ctx.steps, p, ctx.buckets, () => bucketsWithSubs(node, docs, ctx, src, rounding, bounds, keyString, keyOf))];
  const isKeyAsc = p.order.length === 1 && p.order[0].path === '_key' && p.order[0].asc;
  if (!isKeyAsc) buckets.sort(bucketComparator(p.order, true));
  return buckets;
}

/** The buckets of grouped keys, gaps filled when min_doc_count is 0, bounded, in key order, with their sub-aggregations. */
function bucketsWithSubs(node: AggNode & { params: CommonParams }, docs: DocSet, ctx: AggContext, src: ResolvedSource, rounding: Rounding,
  bounds: HistogramBounds, keyString: (k: number) => string | undefined,
  keyOf: (v: unknown) => number | undefined): Record<string, unknown>[] {
  const p = node.params;
  // the grouping is a step of its own: a pass that pauses among the buckets' sub-aggregations does not group again
  const groups = asStep(ctx.steps, node.subs, undefined, () => groupsOf(node, docs, src, rounding, bounds, keyOf));
  const buckets: Record<string, unknown>[] = [];
  for (const g of groups) {
    const b: Record<string, unknown> = {};
    const s = keyString(g.key);
    if (s !== undefined) b.key_as_string = s;
    b.key = g.key;
    b.doc_count = g.count;
    withSubs(b, node.subs, g.docs ?? docs.map((seg) => ({ handle: seg.handle, ords: [] })), ctx);
    buckets.push(b);
  }
  return buckets;
}

/** The groups of keys, gaps filled when min_doc_count is 0, bounded, in key order, those under min_doc_count left out. */
function groupsOf(node: AggNode & { params: CommonParams }, docs: DocSet, src: ResolvedSource, rounding: Rounding,
  bounds: HistogramBounds,
  keyOf: (v: unknown) => number | undefined): Array<{ key: number; count: number; docs?: DocSet }> {
  const p = node.params;
  const hard = bounds.hard;
  const groups = groupBy<number>(docs, src, keyOf, node.subs.length > 0);
  const keys = [...groups.keys()].sort((a, b) => a - b);
  if (p.minDocCount === 0) {
    let lo = keys.length ? keys[0] : undefined;
    let hi = keys.length ? keys[keys.length - 1] : undefined;
    const ext = bounds.ext;
    const roundBound = bounds.roundExtended ?? rounding.round;
    if (ext?.[0] !== undefined) {
      const r = roundBound(ext[0]);
      lo = lo === undefined ? r : Math.min(lo, r);
    }
    if (ext?.[1] !== undefined) {
      const r = roundBound(ext[1]);
      hi = hi === undefined ? r : Math.max(hi, r);
    }
    if (hard?.[0] !== undefined && lo !== undefined) lo = Math.max(lo, rounding.round(hard[0]));
    if (hard?.[1] !== undefined && hi !== undefined) hi = Math.min(hi, rounding.round(hard[1]));
    if (lo !== undefined && hi !== undefined && (ext || keys.length)) {
      let guard = 0;
      for (let k = lo; k <= hi; k = rounding.next(k)) {
        if (!groups.has(k)) groups.set(k, { key: k, count: 0, docs: node.subs.length ? docs.map((s) => ({ handle: s.handle, ords: [] })) : undefined });
        if (++guard > 65_535) throw tooManyBuckets(guard + 1);
      }
    }
  }
  return [...groups.values()].sort((a, b) => a.key - b.key).filter((g) => g.count >= p.minDocCount);
}


function keyedBody(buckets: Record<string, unknown>[], keyed: boolean, keyName: (b: Record<string, unknown>) => string): Record<string, unknown> {
  if (!keyed) return { buckets };
  const obj: Record<string, unknown> = {};
  for (const b of buckets) obj[keyName(b)] = b;
  return { buckets: obj };
}

interface HistogramParams extends CommonParams {
  interval: number;
  offset: number;
}

function numericRounding(p: HistogramParams): Rounding {
  return {
    round: (v) => Math.floor((v - p.offset) / p.interval) * p.interval + p.offset,
    next: (k) => k + p.interval,
  };
}

/**
 * How many buckets a (parsed) histogram or date_histogram puts `values` in: what Elasticsearch's
 * profile shows as the aggregator's `total_buckets`. Undefined for other aggregations.
 */
export function bucketsCollected(node: AggNode, values: Iterable<number>): number | undefined {
  let rounding: Rounding;
  if (node.type === 'histogram') rounding = numericRounding(node.params as HistogramParams);
  else if (node.type === 'date_histogram') {
    const p = node.params as DateHistogramParams;
    rounding = dateRounding(p.interval, parseTimeZone(p.timeZone), p.offset);
  } else return undefined;
  const keys = new Set<number>();
  for (const v of values) if (Number.isFinite(v)) keys.add(rounding.round(v));
  return keys.size;
}

export const histogram: AggregationType<HistogramParams> = {
  kind: 'bucket',
  parse(name, body, subs) {
    const common = parseCommon('histogram', name, body, subs);
    if (body.interval === undefined) throw new EsError(400, 'illegal_argument_exception', `[interval] must be >0 for histogram aggregation [${name}]`);
    const interval = Number(body.interval);
    if (!(interval > 0)) throw new EsError(400, 'illegal_argument_exception', `[interval] must be >0 for histogram aggregation [${name}]`);
    const offset = body.offset === undefined ? 0 : Number(body.offset);
    if (common.extendedBounds && common.minDocCount > 0) {
      throw new EsError(400, 'illegal_argument_exception', `[extended_bounds] can only be used when [min_doc_count] is 0 for histogram aggregation [${name}]`);
    }
    return { ...common, interval, offset };
  },
  run(node, docs, ctx) {
    const p = node.params;
    let src = resolveSource(docs, { ...p.source, valueType: p.source.valueType ?? 'double' }, ctx);
    const rounding = numericRounding(p);
    const num = (v: unknown) => (v === undefined ? undefined : Number(v));
    const hard: [number | undefined, number | undefined] | undefined = p.hardBounds && [num(p.hardBounds.min), num(p.hardBounds.max)];
    const rangeType = rangeFieldType(docs, p.source.field);
    if (rangeType) src = rangeBucketSource(src, docs, rangeType, p.source.field!, p.source.format, undefined, rounding, hard);
    if (!src.unmapped && (src.kind === 'bytes' || src.kind === 'ip')) {
      throw new EsError(400, 'illegal_argument_exception', `Field [${p.source.field}] of type [keyword] is not supported for aggregation [histogram]`);
    }
    const buckets = buildBuckets(node, docs, ctx, src, rounding,
      { ext: p.extendedBounds && [num(p.extendedBounds.min), num(p.extendedBounds.max)], hard },
      (k) => (p.source.format !== undefined || src.kind === 'date' ? src.format.asString(k) : undefined));
    return { typed: 'histogram', body: keyedBody(buckets, p.keyed, (b) => (b.key_as_string as string | undefined) ?? javaDouble(b.key as number)) };
  },
};

const CALENDAR: Record<string, string> = {
  '1m': 'm', minute: 'm', '1h': 'h', hour: 'h', '1d': 'd', day: 'd', '1w': 'w', week: 'w',
  '1M': 'M', month: 'M', '1q': 'q', quarter: 'q', '1y': 'y', year: 'y',
};
const FIXED_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseFixedInterval(raw: string, setting: string): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(raw.trim());
  if (!m) {
    throw new EsError(400, 'illegal_argument_exception', `failed to parse setting [${setting}] with value [${raw}] as a time value: unit is missing or unrecognized`);
  }
  return Number(m[1]) * FIXED_UNITS[m[2]];
}

function parseOffset(raw: unknown): number {
  if (raw === undefined) return 0;
  if (typeof raw === 'number') return raw;
  const s = String(raw).trim();
  const sign = s.startsWith('-') ? -1 : 1;
  const body = s.replace(/^[+-]/, '');
  return sign * parseFixedInterval(body, 'date_histogram.offset');
}

export interface DateInterval {
  calendar?: string;
  fixed?: number;
}

/** `calendar_interval`, `fixed_interval` or the deprecated `interval`; ES's errors for bad ones. */
export function parseDateInterval(body: Record<string, unknown>, name: string): DateInterval {
  const set = ['calendar_interval', 'fixed_interval', 'interval'].filter((k) => body[k] !== undefined);
  if (set.length === 0) throw new EsError(400, 'illegal_argument_exception', `Invalid interval specified, must be non-null and non-empty`);
  if (set.length > 1) {
    throw new EsError(400, 'illegal_argument_exception', `Cannot use [${set[1]}] with [${set[0]}] configuration option.`);
  }
  const raw = body[set[0]];
  if (set[0] === 'calendar_interval') {
    const unit = CALENDAR[String(raw)];
    if (!unit) throw new EsError(400, 'illegal_argument_exception', `The supplied interval [${String(raw)}] could not be parsed as a calendar interval.`);
    return { calendar: unit };
  }
  if (set[0] === 'fixed_interval') return { fixed: parseFixedInterval(String(raw), 'date_histogram.fixedInterval') };
  if (typeof raw === 'number') return { fixed: raw };
  const unit = CALENDAR[String(raw)];
  if (unit) return { calendar: unit };
  void name;
  return { fixed: parseFixedInterval(String(raw), 'date_histogram.interval') };
}

/** Rounding of instants to date histogram keys, in a time zone, with an offset. */
export function dateRounding(interval: DateInterval, zone: TimeZone, offset: number): Rounding {
  if (interval.calendar) {
    const unit = interval.calendar;
    const units = calendarUnits(unit, zone);
    return {
      round: (v) => units.startOf(v - offset) + offset,
      next: (k) => addUnits(k - offset, unit, 1, zone) + offset,
    };
  }
  const ms = interval.fixed!;
  if (zone.fixed) {
    const off = zone.offsetAt(0);
    return {
      round: (v) => Math.floor((v + off - offset) / ms) * ms - off + offset,
      next: (k) => k + ms,
    };
  }
  return {
    round: (v) => {
      const local = v + zone.offsetAt(v) - offset;
      return zone.toUtc(Math.floor(local / ms) * ms) + offset;
    },
    next: (k) => {
      const local = k - offset + zone.offsetAt(k - offset);
      return zone.toUtc(local + ms) + offset;
    },
  };
}

/**
 * The calendar units met so far in one zone, each as [start, end), sorted: an instant inside one is
 * rounded by a binary search instead of calendar arithmetic on a Date (a search's documents fall in
 * a few units; Elasticsearch's prepared roundings keep an array of them the same way). An instant
 * outside every known unit is rounded by `roundDown`, and its unit is kept when the next unit's
 * start is after it. Kept across searches, per zone (parseTimeZone gives one object per zone) and
 * unit: a live dashboard runs the same histogram several times a second, and would otherwise work
 * out the same units each time.
 */
interface UnitTable {
  starts: number[];
  ends: number[];
}

/** The units past which a table keeps no more. */
const MAX_UNITS = 4096;
const unitTables = new WeakMap<TimeZone, Map<string, UnitTable>>();

function unitTable(unit: string, zone: TimeZone): UnitTable {
  let byUnit = unitTables.get(zone);
  if (!byUnit) unitTables.set(zone, (byUnit = new Map()));
  let table = byUnit.get(unit);
  if (!table) byUnit.set(unit, (table = { starts: [], ends: [] }));
  return table;
}

function calendarUnits(unit: string, zone: TimeZone): { startOf(utc: number): number } {
  const { starts, ends } = unitTable(unit, zone);
  // the unit the last instant fell in: neighbouring documents mostly share one
  let lastStart = 0;
  let lastEnd = -Infinity;
  return {
    startOf(utc) {
      if (utc >= lastStart && utc < lastEnd) return lastStart;
      let lo = 0;
      let hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (starts[mid] <= utc) lo = mid + 1;
        else hi = mid;
      }
      // lo - 1: the last unit starting at or before the instant
      if (lo > 0 && utc < ends[lo - 1]) {
        lastStart = starts[lo - 1];
        lastEnd = ends[lo - 1];
        return lastStart;
      }
      const start = roundDown(utc, unit, zone);
      if (starts.length < MAX_UNITS && start <= utc && roundDown(start, unit, zone) === start && (lo === 0 || start >= ends[lo - 1]) && (lo === starts.length || start < starts[lo])) {
        const end = roundDown(addUnits(start, unit, 1, zone), unit, zone);
        if (end > utc && (lo === starts.length || end <= starts[lo])) {
          starts.splice(lo, 0, start);
          ends.splice(lo, 0, end);
        }
      }
      return start;
    },
  };
}

interface DateHistogramParams extends CommonParams {
  interval: DateInterval;
  offset: number;
  timeZone: unknown;
}

export const dateHistogram: AggregationType<DateHistogramParams> = {
  kind: 'bucket',
  parse(name, body, subs) {
    const common = parseCommon('date_histogram', name, body, subs);
    const interval = parseDateInterval(body, name);
    if (common.extendedBounds && common.minDocCount > 0) {
      throw new EsError(400, 'illegal_argument_exception', `[extended_bounds] can only be used when [min_doc_count] is 0 for histogram aggregation [${name}]`);
    }
    if (body.time_zone !== undefined) parseTimeZone(body.time_zone);
    return { ...common, interval, offset: parseOffset(body.offset), timeZone: body.time_zone };
  },
  run(node, docs, ctx) {
    const p = node.params;
    let src = resolveSource(docs, { ...p.source, valueType: p.source.valueType ?? 'date' }, ctx, p.timeZone);
    const zone = parseTimeZone(p.timeZone);
    const rounding = dateRounding(p.interval, zone, p.offset);
    const rangeType = rangeFieldType(docs, p.source.field);
    const boundsFormat = () => src.format.dateFormatter ?? new DateFormatter(p.source.format ?? DEFAULT_DATE_FORMAT, zone);
    if (rangeType) {
      const f = boundsFormat();
      const hard: [number | undefined, number | undefined] | undefined = p.hardBounds && [
        p.hardBounds.min === undefined ? undefined : f.parse(p.hardBounds.min, ctx.now, false),
        p.hardBounds.max === undefined ? undefined : f.parse(p.hardBounds.max, ctx.now, false),
      ];
      src = rangeBucketSource(src, docs, rangeType, p.source.field!, p.source.format, p.timeZone, rounding, hard);
    }
    if (!src.unmapped && src.kind !== 'date' && src.kind !== 'long' && src.kind !== 'double') {
      throw new EsError(400, 'illegal_argument_exception', `Field [${p.source.field}] of type [keyword] is not supported for aggregation [date_histogram]`);
    }
    const fmt = boundsFormat();
    const date = (v: unknown, up: boolean) => (v === undefined ? undefined : fmt.parse(v, ctx.now, up));
    const buckets = buildBuckets(node, docs, ctx, src, rounding,
      {
        ext: p.extendedBounds && [date(p.extendedBounds.min, false), date(p.extendedBounds.max, false)],
        hard: p.hardBounds && [date(p.hardBounds.min, false), date(p.hardBounds.max, false)],
        // Elasticsearch rounds extended_bounds without the offset, then adds it (LongBounds.round):
        // with `offset: 1h`, a day's bounds 2016-01-01 and 2016-01-04 are the keys 01-01T01:00 and 01-04T01:00
        roundExtended: p.offset === 0 ? undefined : ((plain) => (v: number) => plain.round(v) + p.offset)(dateRounding(p.interval, zone, 0)),
      },
      (k) => fmt.print(k));
    return { typed: 'date_histogram', body: keyedBody(buckets, p.keyed, (b) => b.key_as_string as string) };
  },
};
