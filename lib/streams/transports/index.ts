export { concatenatedJson, ndjson, sse, framingFor, frameBytes, chunkBytes, messageJson, type Framing, type StreamMessage } from './framing.js';
export { writeStream, type WriteOptions } from './write-stream.js';
export { StreamSubscriber } from './stream-subscriber.js';
