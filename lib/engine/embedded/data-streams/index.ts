export { DataStreams, ONLY_CREATE, type WriteIntent } from './data-streams.js';
export { TIMESTAMP_FIELD, timestampFieldOf, type BackingIndex, type DataStreamMetadata } from './data-stream.js';
export { parseRolloverConditions, evaluateRolloverConditions, type RolloverCondition, type RolloverStats } from './rollover-conditions.js';
export { rollover, type RolloverRequest } from './rollover.js';
