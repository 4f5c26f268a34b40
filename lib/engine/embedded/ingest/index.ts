export { IngestPipelines } from './ingest-pipelines.js';
export { ingestForWrite, hasPipelines, pipelineUsers, type DocumentToIngest, type IngestOutcome } from './run-pipelines.js';
export { simulate, type SimulateRequest } from './simulate.js';
export { DEFAULT_GROK_PATTERNS } from './grok/grok-patterns.js';
export { ConfigReader } from './processor-config.js';
export { isMap, type JsonMap } from './ingest-document.js';
export { processorsWarmingUp } from './processor.js';
