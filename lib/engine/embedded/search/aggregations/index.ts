export { parseAggregations, runAggregations } from './aggregations.js';
export type { AggNode, AggContext, DocSet, Segment } from './types.js';
export { aggregate } from './aggregate.js';
