export { concatenatedJson, ndjson, sse, framingFor, type Framing, type StreamMessage } from './framing.js';
export { writeStream, type WriteOptions } from './write-stream.js';
