export { ANALYTICS_INDEX, EMPTY_QUERY, MERGE_WINDOW_MS, type AnalyticsEvent } from './events.js';
export { BatchWriter, type BatchWriterStats } from './batch-writer.js';
export { AnalyticsRecorder, type RecorderOptions } from './recorder.js';
export { analyticsRoutes } from './routes.js';
export { carriesSearchQuery, declarativeRecording, plainSearchRecording } from './search-recording.js';
export { BackgroundRecords } from './batch-writer.js';
export { ANALYTICS_PARAMETERS, type AnalyticsScope, analyticsQuery } from './queries.js';
export { clientIp, scopeOf } from './routes.js';
