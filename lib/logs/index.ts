/** Request logs: every request's record, kept in a system index and read back through `/_logs`. */
export { RequestLog, type RequestLogOptions, type RequestLogStats } from './request-log.js';
export { LogSampling, type LogSamplingOptions } from './log-sampling.js';
export { LOGS_INDEX, LOG_KINDS, type LogKind, type LogRecord } from './log-record.js';
export { DEFAULT_SIZE as LOGS_DEFAULT_SIZE, MAX_SIZE as LOGS_MAX_SIZE } from './log-queries.js';
export { redactJsonText, redactQuerystring, isSecretName, REDACTED } from './redact.js';
export type { EndedClassification, EndedRequest, RequestArrival, RequestEnd } from './request-arrival.js';
export { endedStatus, CLIENT_CLOSED_REQUEST } from './request-arrival.js';
