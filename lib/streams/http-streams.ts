import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { TypedDocuments } from '../apps/typed-documents.js';
import { callJson, type Backend } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { parseQuery, sourceFilterFromBody, sourceFilterFromParams, type SourceFilter } from '../engine/embedded/matching.js';
import { readJsonBody } from '../server/request-body.js';
import { errorMessage, overflowMessage } from './messages.js';
import type { StreamHub } from './stream-hub.js';
import { framingFor, writeStream, type StreamMessage } from './transports/index.js';
import type { Observable } from 'rxjs';

const STREAM_PARAMS = ['stream', 'streamonly', 'since'];
const isName = (s: string | undefined): s is string => !!s && !s.startsWith('_');
const isTrue = (v: string | null) => v !== null && v !== 'false';

interface StreamRequest {
  streamOnly: boolean;
  since?: string;
  /** The query string without the stream parameters: what the initial read sends. */
  querystring: string;
}

function streamRequest(ctx: Context): StreamRequest | undefined {
  const params = new URLSearchParams(ctx.querystring);
  const stream = isTrue(params.get('stream'));
  const streamOnly = isTrue(params.get('streamonly'));
  if (!stream && !streamOnly) return undefined;
  const since = params.get('since') ?? (ctx.get('last-event-id') || undefined);
  for (const p of STREAM_PARAMS) params.delete(p);
  return { streamOnly, since: since || undefined, querystring: params.toString() };
}

/**
 * `?stream=true` / `?streamonly=true` on document GETs and searches, in both address styles:
 * the response stays open and carries the stream in the framing the client accepts.
 */
export function httpStreams(hub: StreamHub, backend: Backend, typed: TypedDocuments, maxContentLength: number): Middleware {
  const router = new Router();

  const respond = async (ctx: Context, messages: Observable<StreamMessage>) => {
    const framing = framingFor(ctx.get('accept'));
    ctx.respond = false;
    ctx.res.writeHead(200, {
      'content-type': framing.contentType,
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-elastic-product': 'Elasticsearch',
    });
    ctx.res.flushHeaders();
    await writeStream(ctx.res, messages, framing, {
      heartbeatMs: hub.config.heartbeatMs,
      maxBufferedBytes: hub.config.maxBufferedBytes,
      overflowMessage,
      errorMessage,
    });
  };

  const documentRoute = (style: 'app' | 'index') => async (ctx: Context, next: Next) => {
    const req = streamRequest(ctx);
    const { index, type, id } = ctx.params as Record<string, string>;
    if (!req || !isName(index) || (style === 'app' && !isName(type))) return next();
    const readInitial = async () => {
      if (style === 'app') return (await typed.get(index, type, id, req.querystring)).body;
      const res = await callJson<Record<string, unknown>>(backend, 'GET', `/${encodeURIComponent(index)}/_doc/${encodeURIComponent(id)}`, undefined, req.querystring);
      // a missing document or index is a state like any other: the stream waits for it to appear
      if (res.status >= 400 && res.status !== 404) throw relayed(res.status, res.body);
      return res.body;
    };
    await respond(ctx, hub.document({ index, id, type: style === 'app' ? type : undefined, streamOnly: req.streamOnly, since: req.since, readInitial }));
  };

  const searchRoute = (style: 'app' | 'index') => async (ctx: Context, next: Next) => {
    const req = streamRequest(ctx);
    const { index, type } = ctx.params as Record<string, string>;
    if (!req || !isName(index) || (style === 'app' && !isName(type))) return next();
    if (/[*,]/.test(index)) throw new EsError(400, 'illegal_argument_exception', 'a search stream reads one index; wildcards and lists are not supported');
    const body = ((await readJsonBody(ctx, maxContentLength)) ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw new EsError(400, 'parse_exception', 'request body must be a JSON object');
    if (body.query !== undefined) parseQuery(body.query); // a malformed query is a 400 before the stream opens
    const ctxOk = await hub.searches.contexts.get(index);
    if (!ctxOk) throw new EsError(404, 'index_not_found_exception', `no such index [${index}]`, { 'resource.type': 'index_or_alias', 'resource.id': index, index });
    const params = new URLSearchParams(req.querystring);
    const source: SourceFilter = sourceFilterFromParams(params, body._source === undefined ? sourceFilterFromBody(true) : sourceFilterFromBody(body._source));
    const askedSeqNo = body.seq_no_primary_term === true;
    const search = async (searchBody: Record<string, unknown>, qs: string) => {
      if (style === 'app') {
        const r = await typed.search(index, type, '_search', searchBody, qs);
        if (r.status >= 400) throw relayed(r.status, r.body);
        return r.body;
      }
      const r = await callJson<Record<string, unknown>>(backend, 'POST', `/${encodeURIComponent(index)}/_search`, searchBody, qs);
      if (r.status >= 400) throw relayed(r.status, r.body);
      return r.body;
    };
    const readInitial = async () => {
      const answer = await search({ ...body, seq_no_primary_term: true }, req.querystring);
      const seqNos = new Map<string, number>();
      const hits = (answer.hits as { hits?: Array<Record<string, unknown>> } | undefined)?.hits ?? [];
      for (const hit of hits) {
        if (typeof hit._seq_no === 'number') seqNos.set(String(hit._id), hit._seq_no);
        if (!askedSeqNo) {
          // the stream needed them to drop changes the result already shows; the client did not ask
          delete hit._seq_no;
          delete hit._primary_term;
        }
      }
      return { body: answer, seqNos };
    };
    const readMatchingIds = async (cap: number) => {
      const answer = await search({ query: body.query ?? { match_all: {} }, size: cap, _source: false, track_total_hits: true }, '');
      const hits = answer.hits as { total?: number | { value: number }; hits?: Array<{ _id: string }> };
      const total = typeof hits.total === 'number' ? hits.total : hits.total?.value ?? 0;
      const ids = (hits.hits ?? []).map((h) => h._id);
      return { ids, complete: ids.length >= total };
    };
    const messages = hub.search({
      index, type: style === 'app' ? type : undefined, query: body.query, source, streamOnly: req.streamOnly, since: req.since,
      trackCap: hub.config.trackedIds,
      readInitial,
      readMatchingIds,
    });
    await respond(ctx, messages);
  };

  router.get('/:index/_doc/:id', documentRoute('index'));
  router.get('/:index/:type/:id', documentRoute('app'));
  for (const method of ['get', 'post'] as const) {
    router[method]('/:index/_search', searchRoute('index'));
    router[method]('/:index/:type/_search', searchRoute('app'));
  }
  return router.routes() as unknown as Middleware;
}

function relayed(status: number, body: Record<string, unknown> | undefined): EsError {
  const err = body?.error as { type?: string; reason?: string } | undefined;
  return new EsError(status, err?.type ?? 'exception', err?.reason ?? `engine answered ${status}`);
}
