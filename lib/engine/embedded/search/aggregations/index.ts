export { parseAggregations, runAggregations } from './aggregations.js';
export type { AggNode, AggContext, AggregationTimings, DocSet, Segment } from './types.js';
export { aggregate, aggregationInput } from './aggregate.js';
export { aggregationScriptsAhead } from './scripts-ahead.js';
export { AggregationPaused, AggregationSteps } from './aggregation-steps.js';
export { bucketsCollected } from './histogram.js';
export { docCounts } from './doc-count-field.js';
