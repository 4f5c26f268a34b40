import { Readable } from 'node:stream';
import { eventLoopTurn } from '../cooperative/index.js';
import type { Context, Middleware, Next } from 'koa';
import { checkSystemIndices, withoutSystemIndices } from '../auth/index.js';
import { ClassifiedRequests, prepareBody, readRequestCooperatively, typedMappings, typelessRequest, type TypelessRequest } from '../auth/classify/index.js';
import { renderTemplateRequest, type StoredTemplateSource } from '../auth/classify/index.js';
import { readBody } from '../engine/index.js';
import { EsError } from '../errors/index.js';
import { bufferTextPieces, hasBody, keepTextBody, pathOfSegments, requestTarget, type GatewayRequest, type RequestTarget } from '../request/index.js';
import type { GatewayState } from './state.js';
import { answerWarnings, compatibleGatewayRequest, typelessGatewayBody, type GatewayCompatibleRequest } from './compatible-request.js';

type GatewayContext = Context & { state: GatewayState };

/**
 * Step 3: the request is classified once, into `ctx.state.request`. A request of the compatibility
 * mode (`compatible-with=7`) is first put in its typeless form (`compatibleGatewayRequest`), and an
 * Elasticsearch 7 path typed with `_doc` (`/{index}/_doc/_search`) in its Elasticsearch 8 form (`typelessRequest`):
 * that is the request every later step sees and the engine gets. The classifier says whether it
 * needs the body; if so the body is read here, and what it read (rebuilt: NDJSON lines, JSON
 * re-serialized) replaces the body for every later step and for the engine — what is forwarded is
 * exactly what was authorized. A large body is read ahead in pieces (`prepareBody`), so that it
 * does not hold the event loop. The gateway's system indices are refused here for every principal
 * (a path's wildcards that reach them only through `expand_wildcards` are narrowed to exclude them).
 */
/**
 * `sameParser`: the engine parses JSON as the classifier does and takes parsed bodies (see `prepareBody`).
 * A scoped credential's search template becomes the plain search it renders to (`renderTemplateRequest`;
 * `templates`: where stored ones are read, as the gateway — without it they are refused).
 */
export function classify(maxContentLength: number, sameParser = false, templates?: StoredTemplateSource): Middleware<GatewayState> {
  // a search sent again (a cache hit's) is not read again: its readings depend on nothing but the request
  const readings = new ClassifiedRequests();
  const withBody = async (ctx: GatewayContext, next: Next, asked: GatewayRequest, target: RequestTarget, compat?: GatewayCompatibleRequest) => {
    const decoded = await bufferTextPieces(ctx, maxContentLength);
    const text = decoded?.text;
    const body = compat ? typelessGatewayBody(ctx, compat, text) : text;
    // the pieces the body was decoded in are read instead of the text while it is the body as sent
    const prepared = body === undefined ? undefined : await prepareBody(asked.info, body, sameParser, body === text ? decoded?.pieces : undefined);
    // a large body's targets (a credential's 100,000 patterns) are classified a time slice at a time
    let read = prepared ? await readRequestCooperatively({ method: ctx.method, target, body, prepared }) : readings.read({ method: ctx.method, target, body });
    // a large body's reading (a credential's 100,000 patterns, a _bulk's items) and its authorization are turns of their own
    if (prepared) await eventLoopTurn();
    const plain = ctx.state.principal.role === 'admin' ? undefined : await renderTemplateRequest(read, templates);
    if (plain) {
      ctx.path = plain.path;
      ctx.querystring = plain.querystring;
      read = plain;
    }
    // a body written anew is the body from here on, as its pieces (compared with the text as sent, two
    // texts of the same length would first be copied flat, both of them, to be compared)
    const written = read.info.forwardPieces;
    if (written !== undefined && written.text === read.info.forward) keepTextBody(ctx, written);
    else if (read.info.forward !== undefined && read.info.forward !== body) ctx.state.body = read.info.forward;
    return accepted(ctx, next, read);
  };
  const classified = (ctx: GatewayContext, next: Next, compat?: GatewayCompatibleRequest): Promise<unknown> => {
    const target = targetOf(ctx);
    // a body spelled in the URL (`source`) is the request's body from the edge's first step on
    const sentBody = hasBody(ctx);
    const read = readings.read({ method: ctx.method, target, sentBody });
    // wildcards that reach the system indices only by expanding hidden ones: the request with them
    // excluded, read again (and checked again, as every request is, once read)
    const narrowed = withoutSystemIndices(read);
    if (narrowed) {
      ctx.path = pathOfSegments(narrowed);
      return answeringAsWritten(ctx, read.segments, narrowed, () => classified(ctx, next, compat));
    }
    if (read.info.readsBody && sentBody) return withBody(ctx, next, read, target, compat);
    return accepted(ctx, next, read);
  };
  const typeless = async (ctx: GatewayContext, next: Next, es8: TypelessRequest) => {
    ctx.path = es8.target.path;
    if (es8.target.querystring !== ctx.querystring) ctx.querystring = es8.target.querystring;
    ctx.state.target = es8.target;
    // the answer is read here to be typed: the engine is asked for it uncompressed
    if (es8.typedAnswer) {
      delete ctx.req.headers['accept-encoding'];
      ctx.state.answerRead = true;
    }
    await classified(ctx, next);
    if (es8.typedAnswer) await typeMappingsAnswer(ctx);
  };
  const compatible = async (ctx: GatewayContext, next: Next, compat: GatewayCompatibleRequest) => {
    ctx.state.answerRead = true; // its warnings are added to the answer
    try {
      await classified(ctx, next, compat);
    } finally {
      answerWarnings(ctx, compat);
    }
  };
  return (ctx, next) => {
    const compat = compatibleGatewayRequest(ctx);
    if (compat) return compatible(ctx, next, compat);
    const es8 = typelessRequest(ctx.method, targetOf(ctx));
    return es8 ? typeless(ctx, next, es8) : classified(ctx, next);
  };
}

/**
 * A request whose path the gateway narrowed (`withoutSystemIndices`) is answered as the request the
 * caller wrote: an error the engine gives for it (an unknown parameter or metric, no handler, a
 * target that does not exist) quotes the path or the index list it got, which would name the
 * exclusions the gateway added (`.*,-.gateway-*,-.opensearch-observability`) — a refusal names
 * what the request wrote. The error's text has the narrowed list put back as written (an inserted
 * one taken out of a quoted path, `_all` where it stood alone).
 */
async function answeringAsWritten(ctx: GatewayContext, written: readonly string[], sent: readonly string[], run: () => Promise<unknown>): Promise<void> {
  let at = 0;
  while (at < written.length && written[at] === sent[at]) at++;
  const list = sent[at];
  const before = sent.length === written.length ? written[at] : undefined;
  // the list as a message quotes it: decoded (`rollover target [...]`), or as the path sent it
  // (`no handler found for uri [...]`); in a JSON text (an answer, an error's members) as a JSON string spells it
  const encoded = (v: string) => pathOfSegments([v]).slice(1);
  const asWritten = (text: string, json = true): string => {
    if (list === undefined) return text;
    const spelled = (v: string) => (json ? JSON.stringify(v).slice(1, -1) : v);
    for (const form of encoded(list) === list ? [(v: string) => v] : [(v: string) => v, encoded]) {
      const sentList = spelled(form(list));
      if (!text.includes(sentList)) continue;
      if (before === undefined) text = text.split(`/${sentList}/`).join('/');
      text = text.split(sentList).join(spelled(form(before ?? '_all')));
    }
    return text;
  };
  // the answer is read here: the engine is asked for it uncompressed
  delete ctx.req.headers['accept-encoding'];
  ctx.state.answerRead = true;
  try {
    await run();
  } catch (e) {
    // the engine's refusal, as a scoped caller's call gets it
    if (!(e instanceof EsError)) throw e;
    throw new EsError(e.status, e.type, asWritten(e.reason, false), JSON.parse(asWritten(JSON.stringify(e.extra))) as Record<string, unknown>, e.headers);
  }
  const body = ctx.body as unknown;
  if (ctx.status < 400 || body === null || body === undefined) return;
  const text = await answerText(body);
  ctx.body = text === undefined ? (JSON.parse(asWritten(JSON.stringify(body))) as unknown) : asWritten(text);
}

/** An answer's text as the engine sent it (bytes, a stream, a string); undefined for a value a step already parsed. */
async function answerText(body: unknown): Promise<string | undefined> {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (body instanceof Readable) return (await readBody(body)).toString('utf8');
  return typeof body === 'string' ? body : undefined;
}

/** The request, once read: the system indices refused for every principal, then the value is what every later step reads. */
function accepted(ctx: GatewayContext, next: Next, read: GatewayRequest): Promise<unknown> {
  checkSystemIndices(read.info);
  ctx.state.gatewayRequest = read;
  ctx.state.request = read.info;
  return next();
}

/**
 * The target the edge read (`canonicalRequest`), or — when the compatibility steps put the request
 * in its typeless form — that form's, read by the same decoder.
 */
function targetOf(ctx: GatewayContext): RequestTarget {
  const read = ctx.state.target;
  if (read && read.path === ctx.path && read.querystring === ctx.querystring) return read;
  return requestTarget(ctx.path, ctx.querystring, true);
}

/** A mapping read with `include_type_name=true` answers as Elasticsearch 7 did: each index's mappings under `_doc`. */
async function typeMappingsAnswer(ctx: GatewayContext): Promise<void> {
  const body = ctx.body as unknown;
  if (ctx.status !== 200 || body === null || body === undefined) return;
  const text = await answerText(body);
  if (text === undefined) {
    ctx.body = typedMappings(body);
    return;
  }
  try {
    ctx.body = typedMappings(JSON.parse(text));
  } catch {
    ctx.body = text; // not JSON: as the engine gave it
  }
}
