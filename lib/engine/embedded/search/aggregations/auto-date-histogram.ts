/**
 * `auto_date_histogram`: a date histogram whose interval is chosen to give at most `buckets`
 * buckets, as Elasticsearch's AutoDateHistogramAggregator (one shard) and its final reduce choose
 * it: collection starts at seconds and moves to a coarser rounding whenever the buckets or their
 * span outgrow it; the reduce settles on the rounding the data's span needs, fills the empty
 * buckets between, and merges consecutive buckets by one of the rounding's inner intervals
 * (`7d`, `3M`, `10y`…) when there are still too many. The response names the `interval`.
 */
import { docCounts, weightOf } from './doc-count-field.js';
import { EsError } from '../../../../errors/index.js';
import { addUnits, DEFAULT_DATE_FORMAT, parseTimeZone, roundDown, type TimeZone } from '../../mapping/index.js';
import { withSubs } from './aggregations.js';
import { MAX_BUCKETS } from './max-buckets.js';
import { DateFormatter } from './date-formatter.js';
import { emptyDocSet, missingArray, resolveSource, valuesOf } from './source.js';
import type { AggregationType, DocSet } from './types.js';
import { numericValue, parseSourceParams, type SourceParams } from './values-source.js';
import { unknownField } from './unknown-field.js';

interface RoundingInfo {
  unit: string;
  roughMillis: number;
  abbreviation: string;
  innerIntervals: number[];
}

/** AutoDateHistogramAggregationBuilder.buildRoundings, finest first. */
const ROUNDINGS: RoundingInfo[] = [
  { unit: 's', roughMillis: 1000, abbreviation: 's', innerIntervals: [1, 5, 10, 30] },
  { unit: 'm', roughMillis: 60_000, abbreviation: 'm', innerIntervals: [1, 5, 10, 30] },
  { unit: 'h', roughMillis: 3_600_000, abbreviation: 'h', innerIntervals: [1, 3, 12] },
  { unit: 'd', roughMillis: 86_400_000, abbreviation: 'd', innerIntervals: [1, 7] },
  { unit: 'M', roughMillis: 30 * 86_400_000, abbreviation: 'M', innerIntervals: [1, 3] },
  { unit: 'y', roughMillis: 365 * 86_400_000, abbreviation: 'y', innerIntervals: [1, 5, 10, 20, 50, 100] },
];

const MINIMUM_INTERVALS: Record<string, number> = { second: 0, minute: 1, hour: 2, day: 3, month: 4, year: 5 };

const maxInner = (r: RoundingInfo) => r.innerIntervals[r.innerIntervals.length - 1];

interface AutoDateParams {
  source: SourceParams;
  targetBuckets: number;
  roundings: RoundingInfo[];
  timeZone: unknown;
}

interface Bucket {
  key: number;
  docs: DocSet;
  count: number;
}

function merge(buckets: Bucket[], round: (k: number) => number, like: DocSet): Bucket[] {
  const out: Bucket[] = [];
  for (const b of buckets) {
    const key = round(b.key);
    let last = out[out.length - 1];
    if (!last || last.key !== key) out.push((last = { key, docs: emptyDocSet(like), count: 0 }));
    last.count += b.count;
    b.docs.forEach((seg, si) => last.docs[si].ords.push(...seg.ords));
  }
  return out;
}

export const autoDateHistogram: AggregationType<AutoDateParams> = {
  kind: 'bucket',
  parse(name, body) {
    for (const k of Object.keys(body)) {
      const known = ['field', 'script', 'missing', 'value_type', 'format', 'time_zone', 'buckets', 'minimum_interval'];
      if (!known.includes(k)) {
        throw unknownField('auto_date_histogram', k, known);
      }
    }
    const target = body.buckets === undefined ? 10 : Number(body.buckets);
    if (!Number.isInteger(target)) throw new EsError(400, 'x_content_parse_exception', `[1:1] [auto_date_histogram] failed to parse field [buckets]`);
    if (target <= 0) throw new EsError(400, 'illegal_argument_exception', `buckets must be greater than 0 for [${name}]`);
    let first = 0;
    if (body.minimum_interval !== undefined) {
      const m = MINIMUM_INTERVALS[String(body.minimum_interval)];
      if (m === undefined) throw new EsError(400, 'illegal_argument_exception', `minimum_interval must be one of [${Object.keys(MINIMUM_INTERVALS).join(', ')}]`);
      first = m;
    }
    if (body.time_zone !== undefined) parseTimeZone(body.time_zone);
    // Elasticsearch's ceiling: so many buckets, each merged up to the widest inner interval, stay within search.max_buckets.
    const roundings = ROUNDINGS.slice(first);
    const ceiling = Math.floor(MAX_BUCKETS / Math.max(...roundings.flatMap((r) => r.innerIntervals)));
    if (target > ceiling) throw new EsError(400, 'illegal_argument_exception', `buckets must be less than ${ceiling}`);
    return { source: parseSourceParams('auto_date_histogram', name, body), targetBuckets: target, roundings, timeZone: body.time_zone };
  },
  run(node, docs, ctx) {
    const p = node.params;
    const src = resolveSource(docs, { ...p.source, valueType: p.source.valueType ?? 'date' }, ctx, p.timeZone);
    const zone: TimeZone = parseTimeZone(p.timeZone);
    const fmt = src.format.dateFormatter ?? new DateFormatter(p.source.format ?? DEFAULT_DATE_FORMAT, zone);
    const roundings = p.roundings;
    const target = p.targetBuckets;
    const rounder = (idx: number) => (v: number) => roundDown(v, roundings[idx].unit, zone);
    const next = (idx: number, k: number) => addUnits(k, roundings[idx].unit, 1, zone);

    // Collection (AutoDateHistogramAggregator.FromSingle), in index order.
    let idx = 0;
    let round = rounder(0);
    let byKey = new Map<number, Bucket>();
    let min = Infinity;
    let max = -Infinity;
    const miss = missingArray(src);
    const fits = () => byKey.size <= target * maxInner(roundings[idx]) && max - min <= target * roundings[idx].roughMillis * maxInner(roundings[idx]);
    docs.forEach((seg, si) => {
      const counts = docCounts(seg.handle);
      if (!src.values[si] && !miss) return;
      for (const ord of seg.ords) {
        const vs = valuesOf(src, si, ord, miss).map((v) => numericValue(v)).sort((a, b) => a - b);
        let previous: number | undefined;
        for (const v of vs) {
          const key = round(v);
          if (key === previous) continue;
          previous = key;
          let b = byKey.get(key);
          const isNew = !b;
          if (!b) byKey.set(key, (b = { key, docs: emptyDocSet(docs), count: 0 }));
          b.count += weightOf(counts, ord);
          b.docs[si].ords.push(ord);
          if (!isNew || idx >= roundings.length - 1) continue;
          min = Math.min(min, key);
          max = Math.max(max, key);
          if (fits()) continue;
          do {
            idx++;
            round = rounder(idx);
            const merged = merge([...byKey.values()].sort((x, y) => x.key - y.key), round, docs);
            byKey = new Map(merged.map((m) => [m.key, m]));
          } while (idx < roundings.length - 1 && !fits());
        }
      }
    });
    let buckets = [...byKey.values()].sort((a, b) => a.key - b.key);
    // A document counted in two buckets that later merge counts once there.
    for (const b of buckets) b.docs = b.docs.map((s) => ({ ...s, ords: [...new Set(s.ords)].sort((x, y) => x - y) }));

    // The final reduce (InternalAutoDateHistogram).
    const mergeIfNeeded = () => {
      while (buckets.length > target * maxInner(roundings[idx]) && idx < roundings.length - 1) {
        idx++;
        buckets = merge(buckets, rounder(idx), docs);
      }
    };
    mergeIfNeeded();
    let inner = 1;
    if (buckets.length) {
      idx = appropriateRounding(buckets[0].key, buckets[buckets.length - 1].key, idx, roundings, target, next);
      buckets = merge(buckets, rounder(idx), docs);
      const filled: Bucket[] = [];
      for (const b of buckets) {
        const last = filled[filled.length - 1];
        if (last) for (let k = next(idx, last.key); k < b.key; k = next(idx, k)) filled.push({ key: k, docs: emptyDocSet(docs), count: 0 });
        filled.push(b);
      }
      buckets = filled;
      mergeIfNeeded();
      if (buckets.length > target) {
        for (const interval of roundings[idx].innerIntervals) {
          if (Math.ceil(buckets.length / interval) <= target) {
            inner = interval;
            const merged: Bucket[] = [];
            buckets.forEach((b, i) => {
              if (i % interval === 0) merged.push({ key: b.key, docs: emptyDocSet(docs), count: 0 });
              const m = merged[merged.length - 1];
              m.count += b.count;
              b.docs.forEach((seg, si) => m.docs[si].ords.push(...seg.ords));
            });
            buckets = merged;
            break;
          }
        }
      }
    }
    const out = buckets.map((b) => withSubs({ key_as_string: fmt.print(b.key), key: b.key, doc_count: b.count }, node.subs, b.docs, ctx));
    return { typed: 'auto_date_histogram', body: { buckets: out, interval: `${inner}${roundings[idx].abbreviation}` } };
  },
};

/** InternalAutoDateHistogram.getAppropriateRounding: the first rounding whose step count from min to max fits. */
function appropriateRounding(minKey: number, maxKey: number, roundingIdx: number, roundings: RoundingInfo[], target: number, next: (idx: number, k: number) => number): number {
  if (roundingIdx === roundings.length - 1) return roundingIdx;
  let current = roundingIdx;
  for (let i = current + 1; i < roundings.length; i++) {
    const rough = Math.trunc((maxKey - minKey) / roundings[i].roughMillis);
    if (rough < target * maxInner(roundings[i])) {
      current = i - 1;
      break;
    } else if (i === roundingIdx - 1) {
      current = i;
      break;
    }
  }
  let required: number;
  do {
    let key = minKey;
    required = 0;
    while (key < maxKey) {
      required++;
      key = next(current, key);
    }
    current++;
  } while (required > target * maxInner(roundings[current - 1]) && current < roundings.length);
  return current - 1;
}
