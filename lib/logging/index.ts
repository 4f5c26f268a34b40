/** The process's structured log (pino): one JSON line per event, and the access line of every request. */
export { createLogger, lineLogger, scrubLine, silentLogger, type LoggerOptions, type Logger, type DestinationStream } from './logger.js';
export { requestContext, type RequestContextOptions } from './request-context.js';
export { ClientAddresses } from './client-address.js';
