export { CircuitBreakers, Reservation, byteSize, heapLimit, type BreakerLimits } from './circuit-breakers.js';
