import type { Readable } from 'node:stream';
import type { GatewayRequest, Operation, RequestTarget } from '../request/index.js';
import type { BulkEntry } from '../ndjson/index.js';

export type HeaderMap = Record<string, string | string[] | undefined>;

/** One Elasticsearch REST call, as the gateway forwards it. */
export interface EngineRequest {
  method: string;
  /** Path without query string, already percent-encoded as sent by the client ("/my-index/_doc/1"). */
  path: string;
  /** Raw query string without the leading "?" ("" when absent); passed on untouched. */
  querystring?: string;
  /**
   * The target (`path` and `querystring`) as the caller decoded it already (lib/request's
   * `requestTarget`; the gateway sets it at the Backend's edge from `request`): the embedded engine
   * reads its segments and parameters instead of decoding them again. One that does not say what `path` and `querystring` say (a later step changed them)
   * is ignored. Other engines ignore it.
   */
  target?: RequestTarget;
  /**
   * The request's route in the embedded engine's table, as `checkEngineRoute` returned it for this
   * very request (same method, and the same `target`, or path and query string): the embedded
   * engine reuses it instead of matching again. Any other route is ignored. Other engines ignore it.
   */
  route?: EngineRoute;
  headers?: HeaderMap;
  /** Request body; a stream is consumed once. */
  body?: Readable | Buffer | string;
  /**
   * The body as a JSON value that says exactly what `body` says, when the caller has it (a large
   * body the classifier parsed): the embedded engine takes it instead of parsing the text again;
   * other engines ignore it. Handed over: the engine may keep or change it.
   */
  json?: unknown;
  /** False: the search cache neither serves nor keeps this request's answer (`useCache: false`). */
  cache?: boolean;
  signal?: AbortSignal;
  /**
   * The request as the gateway read it (lib/request's `GatewayRequest`: route, decoded segments and
   * parameters, body, classification), narrowed by authorization: interceptors read it instead of
   * reading the path, query string or body again. A caller without one (the gateway's own calls)
   * gets one at the Backend's edge (lib/interceptors' `requestValue`); engines ignore it.
   */
  request?: GatewayRequest;
  /**
   * The caller's rights, when the caller is not the admin or the gateway itself: the embedded
   * engine checks them where it resolves and touches an index (as Elasticsearch authorizes each
   * action on its concrete indices), whatever the gateway decided before. Absent: unrestricted.
   * The HTTP engine ignores it (the cluster has its own security, or the gateway's check alone).
   */
  access?: EngineAccess;
}

/** A request's route in the embedded engine's table (opaque but for what it was found for). */
/**
 * The items of the `_bulk` body this request carries, as the gateway's classifier read them, when
 * the body is still the text they say (`Classification.bulk`): a reader takes them instead of
 * reading the text again, which would make a body of tens of megabytes one string in one piece.
 */
export function readBulkItems(req: EngineRequest): readonly BulkEntry[] | undefined {
  const info = req.request?.info;
  return info?.bulk !== undefined && typeof req.body === 'string' && req.body === info.forward ? info.bulk : undefined;
}

/**
 * The body this request carries as the pieces it was written in (`Classification.forwardPieces`),
 * while it is still that text: a sender encodes them a piece at a time instead of all of it at once.
 */
export function forwardedPieces(req: EngineRequest): readonly string[] | undefined {
  const written = req.request?.info.forwardPieces;
  return written !== undefined && typeof req.body === 'string' && req.body === written.text ? written.pieces : undefined;
}

export interface EngineRoute {
  readonly method: string;
  readonly target: RequestTarget;
}

/** Index names and `*` patterns, with the operations a caller may do on the indices they cover. */
export interface IndexGrant {
  names: readonly string[];
  ops: readonly Operation[];
}

/**
 * What a caller may reach: an index is reachable for an operation when a grant covers its name
 * (a data stream's backing index when its stream's name is) with that operation. System indices
 * (`.gateway-*`) are never reachable, whatever the grants say.
 */
export interface EngineAccess {
  /** Named in refusals: "action [..] is unauthorized for user [user] on indices [..]". */
  user: string;
  indices: readonly IndexGrant[];
  /**
   * The credential's field rules (`include_fields`/`exclude_fields`): the embedded engine takes the
   * hidden fields out of every document it answers with, as a second line behind the gateway.
   */
  fields?: { include?: readonly string[]; exclude?: readonly string[] };
}

export interface EngineResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /**
   * A stream for large proxied bodies, a Buffer for bodies built in-process (the embedded engine
   * serializes its answer when `body` is first read: a caller that reads `value` alone never does).
   */
  body: Readable | Buffer;
  /**
   * The answer as a value, when the engine built it in-process (the embedded engine) — what `body`
   * serializes: an interceptor that needs the answer reads it here instead of parsing the body.
   * Read-only: shared with the body, which may not have been serialized yet.
   */
  value?: unknown;
}

/**
 * The engine behind the gateway, spoken to in Elasticsearch's REST protocol.
 *
 * Contract:
 * - `request` resolves with whatever status the engine answers (4xx/5xx included, with the
 *   engine's ES-shaped error body); it rejects only when the engine could not be reached or
 *   did not answer in time, with an EsError (502 or 504).
 * - A write the engine acknowledges (2xx) is durable: it survives a crash of the engine.
 * - Writes are visible to reads immediately after they are acknowledged.
 */
export interface Backend {
  readonly kind: 'embedded' | 'http';
  request(req: EngineRequest): Promise<EngineResponse>;
  close(): Promise<void>;
}
