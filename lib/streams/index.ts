export { StreamHub } from './stream-hub.js';
export { StreamTallies, type StreamKind, type StreamTally, type StreamTransport } from './stream-tallies.js';
export { httpStreams, writeLiveStream } from './http-streams.js';
export { wantsStream } from './stream-requests.js';
export { framingFor, writeStream, type Framing, type StreamMessage } from './transports/index.js';
export { attachWebSocket, type WebSocketDeps } from './websocket.js';
export { gapFree } from './gap-free.js';
export { errorMessage, overflowMessage } from './messages.js';
export { type SharedRuns } from './shared-runs.js';
