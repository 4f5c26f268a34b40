import type { ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import { engineAccessOf } from '../auth/index.js';
import { readBody, type InterceptedBackend } from '../engine/index.js';
import { DocTypeInjection, injectDocType } from '../engine/http/index.js';
import { bodyStream, onResponseClose, type Classification } from '../request/index.js';
import type { GatewayState } from './state.js';

/** Answers up to this size are read whole: one write to the client, none of a stream's plumbing. */
const WHOLE_ANSWER_BYTES = 256 * 1024;

/** Answers that carry documents or hits (document reads, searches, scrolls): on Elasticsearch 8 they lack `_type`. */
const DOCUMENT_ACTIONS = new Set(['indices:data/read/get', 'indices:data/read/search', 'indices:data/read/scroll', 'indices:data/read/msearch', 'indices:data/read/mget']);

function carriesDocuments(info: Classification, method: string): boolean {
  return (method === 'GET' || method === 'POST') && DOCUMENT_ACTIONS.has(info.action);
}

/**
 * The thin path: whatever the gateway does not handle itself goes to the engine as it was
 * authorized (a body the classifier read, as it read it; any other streamed). Nothing here parses
 * JSON. A small answer is read whole and written in one piece; a large one streams, and stops
 * when the client goes away. Time limits are the engine client's own (its pool's timeouts).
 */
export function proxy(backend: InterceptedBackend, maxContentLength: number): Middleware<GatewayState> {
  const addsType = backend.kind === 'http';
  return async (ctx) => {
    const request = ctx.state.gatewayRequest;
    const { info } = request;
    const rebuilt = info.forward !== undefined;
    let headers = ctx.headers;
    if (rebuilt && headers['content-length'] !== undefined) {
      // the body goes on as read: its length is the engine client's to set (left out by a rest
      // copy, not a `delete`, which turns the copy into a slow dictionary object)
      const { 'content-length': _length, ...rest } = headers;
      headers = rest;
    }
    const res = await backend.request({
      method: request.method,
      path: request.path,
      querystring: request.querystring,
      headers,
      body: rebuilt ? info.forward : bodyStream(ctx, maxContentLength),
      json: info.parsed,
      request,
      access: engineAccessOf(ctx.state.principal),
    });
    const typed = addsType && res.status < 300 && carriesDocuments(info, ctx.method) && String(res.headers['content-type'] ?? '').includes('json');
    let body = res.body;
    if (!Buffer.isBuffer(body) && Number(res.headers['content-length']) <= WHOLE_ANSWER_BYTES) body = await readBody(body);
    if (Buffer.isBuffer(body)) {
      if (typed) body = Buffer.from(injectDocType(body.toString('utf8')));
    } else {
      const upstream = body;
      // once the client has its answer (or has gone), koa destroys the upstream body: not an error
      upstream.on('error', () => {});
      onResponseClose(ctx.res, () => {
        if (!ctx.res.writableFinished) upstream.destroy();
      });
      if (typed) body = upstream.pipe(new DocTypeInjection());
    }
    // nothing is sent yet: the engine's headers (strings) go straight onto the response (koa's `set`
    // checks and converts, through a delegate per call)
    const out = ctx.res;
    for (const name in res.headers) {
      if (name === 'x-elastic-product' || name === 'content-length') continue;
      out.setHeader(name, res.headers[name]);
    }
    // a whole answer no earlier step reads again is written here, as koa would write it
    if (Buffer.isBuffer(body) && res.status === 200 && ctx.method !== 'HEAD' && !ctx.state.answerRead) return writeWhole(ctx.res, ctx, body);
    ctx.status = res.status;
    ctx.body = body; // koa sets the length of a whole answer, and writes no body for HEAD
    // a HEAD answer tells the length the GET's body would have
    if (ctx.method === 'HEAD' && res.headers['content-length'] !== undefined) ctx.length = Number(res.headers['content-length']);
  };
}

/**
 * A whole 200 answer written to the client as koa's `body` setter and `respond` would write it
 * (a Content-Type of application/octet-stream when the engine named none, its Content-Length, the
 * bytes in one `end`), without them: the cache's hits and the embedded engine's document reads
 * are most of what the thin path answers, and koa's setters and checks were a share of each. The
 * response is ended before the steps before this one resume: the access line, the request log and
 * the metrics read its status and headers as they read koa's; a step that reads or changes the
 * answer itself says so first (`GatewayState.answerRead`) and gets koa's path.
 */
function writeWhole(out: ServerResponse, ctx: { respond?: boolean }, body: Buffer): void {
  out.statusCode = 200;
  if (!out.hasHeader('content-type')) out.setHeader('Content-Type', 'application/octet-stream');
  out.setHeader('Content-Length', body.length);
  ctx.respond = false;
  out.end(body);
}
