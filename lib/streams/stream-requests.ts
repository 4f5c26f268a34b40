import type { Observable } from 'rxjs';
import type { TypedDocuments } from '../apps/index.js';
import { callJson, callRequest, readRequest, type InterceptedBackend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { parsePosition, type DocumentChange } from '../changes/index.js';
import { UrlParams, matchScope, parseQuery, sourceFilterFromBody, sourceFilterFromParams, type MatchScope, type Query } from '../engine/embedded/index.js';
import { sortedJson } from '../ndjson/index.js';
import { narrowRequest, queryString, STREAM_PARAMS, type GatewayRequest } from '../request/index.js';
import { engineDecider, engineReflects } from './engine-decider.js';
import type { MatchingDocument } from './live-searches.js';
import type { StreamHub } from './stream-hub.js';
import type { StreamTransport } from './stream-tallies.js';
import type { StreamMessage } from './transports/index.js';

/** A request that may ask for a stream, from HTTP or from a WebSocket subscribe frame. */
export interface StreamRequestInput {
  method: string;
  /** Decoded path segments ("books", "_doc", "1"). */
  segments: readonly string[];
  /** The query parameters, decoded (the request value's `params`). */
  params: ReadonlyMap<string, string>;
  /** Parsed body (searches); undefined when none. */
  body: unknown;
  /** SSE Last-Event-ID, when the transport has one. */
  lastEventId?: string;
  /** How the stream reaches its client, for the node's counts (default `json`). */
  transport?: StreamTransport;
  /**
   * The stream request's value as authorized (lib/request's `GatewayRequest`): its engine reads
   * are that value narrowed to what they read, so that the Backend's edge classifies none of them
   * again. Without it (or for the app-addressed style, read through the typed documents) each read
   * is read at the Backend's edge.
   */
  request?: GatewayRequest;
}

const MATCH_ALL: Query = { type: 'match_all', boost: 1 };
const isName = (s: string | undefined): s is string => !!s && !s.startsWith('_');
const isTrue = (v: string | undefined) => v !== undefined && v !== 'false';

export type StreamTarget =
  | { kind: 'document'; index: string; type?: string; id: string }
  | { kind: 'search'; index: string; type?: string };

/** Which stream a method and path name, if any: the document GETs and searches of both styles. */
export function streamTarget(method: string, segments: readonly string[]): StreamTarget | undefined {
  const [index, second, third] = segments;
  if (!isName(index)) return undefined;
  const m = method.toUpperCase();
  if (segments.length === 3 && m === 'GET' && second === '_doc') return { kind: 'document', index, id: third };
  if (segments.length === 3 && m === 'GET' && isName(second) && third !== '_search') return { kind: 'document', index, type: second, id: third };
  if ((m === 'GET' || m === 'POST') && segments.length === 2 && second === '_search') return { kind: 'search', index };
  if ((m === 'GET' || m === 'POST') && segments.length === 3 && isName(second) && third === '_search') return { kind: 'search', index, type: second };
  return undefined;
}

/** Do the query parameters ask for a stream (`stream=true` or `streamonly=true`)? */
export function wantsStream(params: ReadonlyMap<string, string>): boolean {
  return isTrue(params.get('stream')) || isTrue(params.get('streamonly'));
}

function relayed(status: number, body: Record<string, unknown> | undefined): EsError {
  const err = body?.error as { type?: string; reason?: string; root_cause?: unknown; caused_by?: unknown } | undefined;
  if (!err || typeof err !== 'object') return new EsError(status, 'exception', `engine answered ${status}`);
  const { type, reason, root_cause: _rootCause, caused_by: _causedBy, ...extra } = err;
  return new EsError(status, type ?? 'exception', reason ?? `engine answered ${status}`, extra);
}

/** A 404 for the index itself (not for a document of it): a document stream has nothing to wait on. */
const indexMissing = (status: number, body: Record<string, unknown> | undefined): boolean =>
  status === 404 && (body?.error as { type?: string } | undefined)?.type === 'index_not_found_exception';

/**
 * Reads a document as the plain GET answers it. A function of its own: a stream keeps its reader
 * for its whole life, and a closure keeps every variable of the scope it was made in. `read` (the
 * stream's request value narrowed to the GET) serves the first read only: a stream reads again
 * only after a reset, rarely, and its request value would be kept for hours by tens of thousands
 * of streams; a read again is read at the Backend's edge.
 */
function documentReader(
  backend: InterceptedBackend, typed: TypedDocuments, index: string, type: string | undefined, id: string, params: ReadonlyMap<string, string>, firstRead?: GatewayRequest,
): () => Promise<Record<string, unknown>> {
  const enc = encodeURIComponent;
  let pending = firstRead;
  return async () => {
    const read = pending;
    pending = undefined;
    if (type !== undefined) {
      const typedRead = await typed.get(index, type, id, params);
      if (indexMissing(typedRead.status, typedRead.body)) throw relayed(typedRead.status, typedRead.body);
      return typedRead.body;
    }
    const res = read
      ? await callRequest<Record<string, unknown>>(backend, read)
      : await callJson<Record<string, unknown>>(backend, 'GET', `/${enc(index)}/_doc/${enc(id)}`, undefined, queryString(params));
    // a missing document is a state like any other: the stream waits for it to appear; a missing
    // index is answered 404 (as the plain GET is) and the stream is not opened
    if (res.status >= 400 && (res.status !== 404 || indexMissing(res.status, res.body))) throw relayed(res.status, res.body);
    if (res.body && '_id' in res.body && !('_type' in res.body)) {
      const { _index, ...rest } = res.body; // Elasticsearch 8 has no _type; the stream protocol does
      return { _index, _type: '_doc', ...rest };
    }
    return res.body;
  };
}

/**
 * Builds the stream a request asks for. Bad input (a malformed query, a missing index for a
 * search) throws an EsError before any stream exists, so the transport can answer it plainly.
 */
export async function openRequestedStream(
  hub: StreamHub, backend: InterceptedBackend, typed: TypedDocuments, target: StreamTarget, input: StreamRequestInput,
): Promise<Observable<StreamMessage>> {
  const params = new Map(input.params);
  const streamOnly = isTrue(params.get('streamonly')) && !isTrue(params.get('stream'));
  const since = params.get('since') ?? input.lastEventId ?? undefined;
  // a resume token that cannot be one is the request's error, before any stream exists
  if (since) parsePosition(since, target.index);
  for (const p of STREAM_PARAMS) params.delete(p);
  // the engine's source-filter reader takes its parameters in this form
  const sourceParams = UrlParams.of(params);
  const { index, type } = target;
  const enc = encodeURIComponent;

  if (target.kind === 'document') {
    // the request's source filter (with a credential's field rules, the authorizer put them there)
    // holds for every change as for the initial read
    const filter = sourceFilterFromParams(sourceParams);
    const source = filter.fetch && !filter.includes.length && !filter.excludes.length ? undefined : filter;
    // the initial read and every re-read: the stream's value narrowed to its document's GET (the
    // reader keeps its parameters for the stream's life: none is the one empty map of all streams)
    const read = input.request && narrowRequest(input.request, { segments: [index, '_doc', target.id], params, body: undefined });
    return hub.document({ index, id: target.id, type, streamOnly, since: since || undefined, source, readInitial: documentReader(backend, typed, index, type, target.id, params.size ? params : NO_PARAMS, read) }, input.transport);
  }

  if (/[*,]/.test(index)) throw new EsError(400, 'illegal_argument_exception', 'a search stream reads one index; wildcards and lists are not supported');
  const body = (input.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new EsError(400, 'parse_exception', 'request body must be a JSON object');
  // its changes are matched against the query as written: a search pipeline's changes to the query or the hits would not hold for them
  const pipeline = params.get('search_pipeline') ?? body.search_pipeline;
  if (pipeline !== undefined && pipeline !== null && pipeline !== '_none') {
    throw new EsError(400, 'illegal_argument_exception', 'a search stream runs no search pipeline: its changes are matched against the query as written');
  }
  // Decide matches locally when the engine's matcher can; on the HTTP backend, a query (or an
  // index analysis) it cannot decide exactly is decided by asking the engine instead.
  let local = !(backend.kind === 'http' && hub.config.matching === 'engine');
  /** The query as the local matcher reads it, parsed once for the stream (match_all when the engine decides). */
  let query: Query = MATCH_ALL;
  /** Who decides (matchScope); a query the gateway cannot read is the engine's to decide, change by change. */
  let scope: MatchScope = 'engine';
  let parsed: { query: Query } | { error: unknown };
  try {
    parsed = { query: body.query === undefined ? MATCH_ALL : parseQuery(body.query) };
    scope = matchScope(parsed.query);
  } catch (error) {
    parsed = { error };
  }
  if (local) {
    try {
      if ('error' in parsed) throw parsed.error;
      // what the changed document's source cannot tell (its routing, the index's statistics): the engine decides
      if (scope === 'document') query = parsed.query;
      else local = false;
      if (!(await hub.searches.contexts.get(index))) {
        throw new EsError(404, 'index_not_found_exception', `no such index [${index}]`, { 'resource.type': 'index_or_alias', 'resource.id': index, index });
      }
    } catch (err) {
      if (backend.kind !== 'http' || (err instanceof EsError && err.status === 404)) throw err;
      local = false;
      query = MATCH_ALL;
    }
  }
  const source = sourceFilterFromParams(sourceParams, sourceFilterFromBody(body._source === undefined ? true : body._source));
  const askedSeqNo = body.seq_no_primary_term === true;
  // each search the stream makes: the stream's value narrowed to that search (its body, its parameters)
  const streamValue = input.request;
  const search = async (searchBody: Record<string, unknown>, qs: ReadonlyMap<string, string>) => {
    const r = type !== undefined
      ? await typed.search(index, type, '_search', searchBody, qs)
      : streamValue
        ? await callRequest<Record<string, unknown>>(backend, narrowRequest(streamValue, { segments: [index, '_search'], params: qs, body: JSON.stringify(searchBody) }))
        : await callJson<Record<string, unknown>>(backend, 'POST', `/${enc(index)}/_search`, searchBody, queryString(qs));
    if (r.status >= 400) throw relayed(r.status, r.body);
    return r.body;
  };
  if (!local) await search({ size: 0, query: body.query ?? { match_all: {} } }, NO_PARAMS); // the engine refuses a bad query before the stream opens
  const readMatchingIds = async (cap: number) => {
    const answer = await search({ query: body.query ?? { match_all: {} }, size: cap, _source: false, track_total_hits: true }, NO_PARAMS);
    const hits = answer.hits as { total?: number | { value: number }; hits?: Array<{ _id: string }> };
    const total = typeof hits.total === 'number' ? hits.total : hits.total?.value ?? 0;
    const ids = (hits.hits ?? []).map((h) => h._id);
    return { ids, complete: ids.length >= total };
  };
  const engineDecides = local ? undefined : engineDecider(backend, index, body.query);
  // a write can change whether other documents match: the engine runs the search again after each change
  const rerun = scope !== 'index' ? undefined : async (change: DocumentChange) => {
    // an answer that may not show the change yet is no answer (its documents' sources could be older than pushes already made)
    if (!(await engineReflects(backend, index, change))) return undefined;
    try {
      const answer = await search({
        query: body.query ?? { match_all: {} }, size: Math.min(hub.config.trackedIds, MAX_RESULT_WINDOW), seq_no_primary_term: true, version: true, track_total_hits: true,
      }, NO_PARAMS);
      return matchingDocuments(answer);
    } catch (err) {
      // the engine refuses the search on the documents as they are now: no answer at this change
      if (err instanceof EsError && err.status < 500) return undefined;
      throw err;
    }
  };
  const aggregations = liveAggregations(body) && (() => {
    // the aggregations and total alone, asked again of the engine when a change may alter them
    const { computeBody, computeParams } = aggregationSearch(body, params);
    // the state's search as one request value, made once (the feed runs it several times a
    // second), and its answer only read: the engine's own value where it has one (readRequest)
    const stateRequest = type === undefined && streamValue
      ? narrowRequest(streamValue, { segments: [index, '_search'], params: computeParams, body: JSON.stringify(computeBody) })
      : undefined;
    const readState = async (request: GatewayRequest) => {
      const r = await readRequest<Record<string, unknown>>(backend, request);
      if (r.status >= 400) throw relayed(r.status, r.body);
      return r.body;
    };
    const feed = hub.aggregations.feed({
      key: sortedJson({ index, type, body: computeBody, querystring: queryString(computeParams), engine: !local }),
      index, type, trackCap: hub.config.trackedIds, readMatchingIds,
      query,
      decide: engineDecides,
      async compute() {
        const answer = stateRequest ? await readState(stateRequest) : await search(computeBody, computeParams);
        return { aggregations: answer.aggregations, total: (answer.hits as { total?: unknown } | undefined)?.total };
      },
    });
    return { feed, hits: sizeOf(body, params) !== 0 };
  })();
  return hub.search({
    index, type, query, source, streamOnly, since: since || undefined, trackCap: hub.config.trackedIds,
    engineDecides, rerun, aggregations: aggregations || undefined,
    async readInitial() {
      const answer = await search({ ...body, seq_no_primary_term: true }, params);
      const seqNos = new Map<string, number>();
      for (const hit of (answer.hits as { hits?: Array<Record<string, unknown>> } | undefined)?.hits ?? []) {
        if (typeof hit._seq_no === 'number') seqNos.set(String(hit._id), hit._seq_no);
        if (!askedSeqNo) {
          // the stream needed them to drop changes the result already shows; the client did not ask
          delete hit._seq_no;
          delete hit._primary_term;
        }
      }
      return { body: answer, seqNos };
    },
    readMatchingIds,
  }, input.transport);
}

/** The hits of a search answer (asked with `_seq_no` and `_version`), by id, and whether they are all of its matches. */
function matchingDocuments(answer: Record<string, unknown>): { matching: Map<string, MatchingDocument>; complete: boolean } {
  const hits = answer.hits as { total?: number | { value: number }; hits?: Array<Record<string, unknown>> } | undefined;
  const matching = new Map<string, MatchingDocument>();
  for (const hit of hits?.hits ?? []) {
    matching.set(String(hit._id), {
      source: (hit._source ?? {}) as Record<string, unknown>,
      seqNo: Number(hit._seq_no ?? 0), primaryTerm: Number(hit._primary_term ?? 0), version: Number(hit._version ?? 0),
    });
  }
  const total = typeof hits?.total === 'number' ? hits.total : hits?.total?.value ?? 0;
  return { matching, complete: matching.size >= total };
}

/** Elasticsearch's default `index.max_result_window`: the most hits one search answers. */
const MAX_RESULT_WINDOW = 10_000;

/** A search stream whose body asks for aggregations: they are live. */
const NO_PARAMS: ReadonlyMap<string, string> = new Map();

const liveAggregations = (body: Record<string, unknown>): boolean => isObjectValue(body.aggs) || isObjectValue(body.aggregations);
const isObjectValue = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length > 0;

/** The size a search asks for (the parameter wins, as in Elasticsearch); undefined: the default. */
function sizeOf(body: Record<string, unknown>, params: ReadonlyMap<string, string>): number | undefined {
  const param = params.get('size');
  if (param !== undefined) return Number(param);
  return typeof body.size === 'number' ? body.size : undefined;
}

/** What of a search changes its aggregations and total: the rest (hits, their order, their fields) is not asked again. */
const HITS_ONLY = ['size', 'from', 'sort', '_source', 'highlight', 'search_after', 'docvalue_fields', 'stored_fields', 'fields', 'script_fields', 'explain', 'version', 'seq_no_primary_term', 'collapse', 'rescore', 'suggest', 'pit', 'profile'];
const HITS_ONLY_PARAMS = ['size', 'from', 'sort', '_source', '_source_includes', '_source_excludes', 'stored_fields', 'docvalue_fields', 'explain', 'version', 'seq_no_primary_term'];

function aggregationSearch(body: Record<string, unknown>, params: ReadonlyMap<string, string>): { computeBody: Record<string, unknown>; computeParams: ReadonlyMap<string, string> } {
  const computeBody: Record<string, unknown> = { ...body, size: 0 };
  for (const name of HITS_ONLY) if (name !== 'size') delete computeBody[name];
  const kept = [...params].filter(([name]) => !HITS_ONLY_PARAMS.includes(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { computeBody, computeParams: new Map(kept) };
}
