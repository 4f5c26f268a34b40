import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../auth/index.js';
import type { Classification } from '../request/index.js';

/**
 * What is known of a request as it comes in, read once at the edge (lib/logging's
 * `requestContext`) for whatever runs once its response is over: the access line, the request log.
 */
export interface RequestArrival {
  /**
   * The request's X-Request-Id (the client's own when sane, else generated): either way made of
   * characters a JSON string holds as they are (the access line quotes it without escaping).
   */
  readonly requestId: string;
  /** `performance.now()` as it came in. */
  readonly started: number;
  /** Epoch milliseconds as it came in. */
  readonly time: number;
  readonly method: string;
  /** The path as requested, without the query string. */
  readonly path: string;
  /** The query string as requested, '' when none (not redacted: each reader redacts what it keeps). */
  readonly querystring: string;
  /** The client's X-Opaque-Id, '' when none. */
  readonly opaqueId: string;
  /** The client address (`ctx.request.ip`). */
  readonly ip: string;
}

/**
 * What a request's end reads of it once its response is over: the koa context itself (which has
 * all of this), or — for a response that outlives its handling, a live stream — these few values
 * taken from the context once its head is out, so that a stream open for hours does not keep its
 * request's whole context alive (lib/logging's `requestContext`).
 */
export interface EndedRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly state: {
    /** What the request is; absent when it was refused before it was classified. */
    readonly request?: EndedClassification;
    /** Who it authenticated as; absent when it was refused before. */
    readonly principal?: Principal;
    /** The body, when a step read it. */
    readonly body?: Buffer | string | null;
  };
  /** The response body as the handlers left it (undefined for a response they wrote themselves). */
  readonly body: unknown;
}

/**
 * The status an ended request is logged with: its answer's, or 499 when the client went away
 * before any of the answer was sent (nginx's "client closed request"), rather than the 404 a
 * response holds until a handler sets one.
 */
export const CLIENT_CLOSED_REQUEST = 499;
export const endedStatus = (res: ServerResponse): number => (res.headersSent ? res.statusCode : CLIENT_CLOSED_REQUEST);

/** What of a request's classification its end reads. */
export type EndedClassification = Pick<Classification, 'family' | 'category' | 'operation' | 'action' | 'indices' | 'allIndices'>;

/**
 * Runs once a request's response is over (a live stream: when it ends), from the one `close`
 * listener the request context registers: it must not throw, and it does what it can later (the
 * request's thread has answered already, but the next request waits behind it).
 */
export type RequestEnd = (request: EndedRequest, arrival: RequestArrival) => void;
