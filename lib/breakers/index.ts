export { BodyPace, CircuitBreakers, LARGE_BODY_BYTES, Reservation, byteSize, heapLimit, type BreakerLimits } from './circuit-breakers.js';
export { entryBoundedCache } from './entry-bounded-cache.js';
