import { adjacencyMatrix } from './adjacency-matrix.js';
import { autoDateHistogram } from './auto-date-histogram.js';
import { composite } from './composite.js';
import { filter, filters, global, missing } from './filters.js';
import { dateHistogram, histogram } from './histogram.js';
import { geoBounds, geoCentroid, geoDistance } from './geo.js';
import { geohashGrid, geotileGrid } from './geo-grid.js';
import { matrixStats } from './matrix-stats.js';
import { avg, cardinality, extendedStats, max, min, stats, sum, valueCount } from './metrics.js';
import { multiTerms } from './multi-terms.js';
import { nested, reverseNested } from './nested.js';
import { children, parent } from './parent-join.js';
import { medianAbsoluteDeviation, percentileRanks, percentiles } from './percentiles.js';
import { PIPELINES } from './pipelines.js';
import { dateRange, ipRange, range } from './range.js';
import { diversifiedSampler, sampler } from './sampler.js';
import { scriptedMetric } from './scripted-metric.js';
import { significantTerms, significantText } from './significant-terms.js';
import { rareTerms, terms } from './terms.js';
import { topHits } from './top-hits.js';
import { variableWidthHistogram } from './variable-width-histogram.js';
import { weightedAvg } from './weighted-avg.js';
import type { AggregationType } from './types.js';

let built: Record<string, AggregationType> | undefined;

/**
 * Every aggregation type by name. Built on first use: the types import the driver that imports
 * this registry, so it must not be read while modules are still being evaluated.
 */
export function registry(): Record<string, AggregationType> {
  built ??= {
    terms, rare_terms: rareTerms, range, date_range: dateRange, ip_range: ipRange, histogram, date_histogram: dateHistogram,
    filter, filters, missing, global, nested, reverse_nested: reverseNested, children, parent, composite,
    min, max, avg, weighted_avg: weightedAvg, sum, value_count: valueCount, stats, extended_stats: extendedStats, cardinality,
    percentiles, percentile_ranks: percentileRanks, median_absolute_deviation: medianAbsoluteDeviation, top_hits: topHits,
    significant_terms: significantTerms, significant_text: significantText, adjacency_matrix: adjacencyMatrix, multi_terms: multiTerms,
    auto_date_histogram: autoDateHistogram, variable_width_histogram: variableWidthHistogram, sampler, diversified_sampler: diversifiedSampler,
    geo_distance: geoDistance, geotile_grid: geotileGrid, geohash_grid: geohashGrid, geo_bounds: geoBounds, geo_centroid: geoCentroid, matrix_stats: matrixStats, scripted_metric: scriptedMetric,
    ...PIPELINES,
  } as Record<string, AggregationType>;
  return built;
}
