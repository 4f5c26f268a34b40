import type { Principal } from './authenticator.js';
import type { FieldVisibility } from './field-rules.js';
import type { Classification, GatewayRequest, RequestTarget } from '../request/index.js';

/**
 * What the request path knows about a request, step by step (README, "The request's way through"):
 * typed, so that later steps read it without casts.
 */
export interface GatewayState {
  /** Who the request authenticated as (step 2). */
  principal: Principal;
  /** The request target as the edge decoded it (step 1). */
  target?: RequestTarget;
  /**
   * The request (step 3), read once into an immutable value (lib/request's `GatewayRequest`), then
   * narrowed by authorization (step 4): what every later step reads, and what the Backend edge
   * serializes the engine's request from. Later steps never parse the path or query string again.
   */
  gatewayRequest: GatewayRequest;
  /** What the request is: `gatewayRequest.info`, the classification, kept here for the steps that only read that. */
  request: Classification;
  /** The body, once a step had to read it: what every later step (and the engine) reads instead of the socket. */
  body?: Buffer | string | null;
  /**
   * What the caller's field rules let its request read (step 4), with the fields the indices it
   * reaches derive from others (aliases, scripts); absent for the admin and credentials without
   * field rules. What a feature adds to the caller's request (query rules, relevancy defaults) is
   * read through it.
   */
  fieldVisibility?: FieldVisibility;
  /**
   * Set by a step that reads or changes the answer once the steps after it are done (koa's
   * `ctx.body`, the response's headers): the thin path then leaves the answer to koa. Without it, a
   * whole answer is written to the client by the thin path itself (lib/server/proxy.ts), and no
   * step before it may touch the answer afterwards.
   */
  answerRead?: true;
}
