export { concatenatedJson, ndjson, sse, framingFor, frameBytes, messageJson, type Framing, type StreamMessage } from './framing.js';
export { writeStream, type WriteOptions } from './write-stream.js';
