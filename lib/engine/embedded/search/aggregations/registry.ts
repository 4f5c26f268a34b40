import { composite } from './composite.js';
import { filter, filters, global, missing } from './filters.js';
import { dateHistogram, histogram } from './histogram.js';
import { avg, cardinality, extendedStats, max, min, stats, sum, valueCount } from './metrics.js';
import { nested, reverseNested } from './nested.js';
import { medianAbsoluteDeviation, percentileRanks, percentiles } from './percentiles.js';
import { PIPELINES } from './pipelines.js';
import { dateRange, ipRange, range } from './range.js';
import { rareTerms, terms } from './terms.js';
import { topHits } from './top-hits.js';
import type { AggregationType } from './types.js';

let built: Record<string, AggregationType> | undefined;

/**
 * Every aggregation type by name. Built on first use: the types import the driver that imports
 * this registry, so it must not be read while modules are still being evaluated.
 */
export function registry(): Record<string, AggregationType> {
  built ??= {
    terms, rare_terms: rareTerms, range, date_range: dateRange, ip_range: ipRange, histogram, date_histogram: dateHistogram,
    filter, filters, missing, global, nested, reverse_nested: reverseNested, composite,
    min, max, avg, sum, value_count: valueCount, stats, extended_stats: extendedStats, cardinality,
    percentiles, percentile_ranks: percentileRanks, median_absolute_deviation: medianAbsoluteDeviation, top_hits: topHits,
    ...PIPELINES,
  } as Record<string, AggregationType>;
  return built;
}
