export { CircuitBreakers, Reservation, byteSize, heapLimit, type BreakerLimits } from './circuit-breakers.js';
export { entryBoundedCache } from './entry-bounded-cache.js';
