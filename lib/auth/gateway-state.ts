import type { Principal } from './authenticator.js';
import type { Classification } from '../request/index.js';

/**
 * What the request path knows about a request, step by step (README, "The request's way through"):
 * typed, so that later steps read it without casts.
 */
export interface GatewayState {
  /** Who the request authenticated as (step 2). */
  principal: Principal;
  /** What the request is (step 3), classified once; later steps dispatch on it and never parse the path again. */
  request: Classification;
  /** The body, once a step had to read it: what every later step (and the engine) reads instead of the socket. */
  body?: Buffer | string | null;
}
