import type { Context } from 'koa';
import { hasBody, pathOfSegments, requestTarget, type RequestTarget } from '../request/index.js';
import { compatibleRequest, mayBeCompatible, restApiVersion, typelessBody, warningHeader, type BodyForm } from '../rest-compat/index.js';

/**
 * A request of Elasticsearch 8's REST API compatibility mode (`compatible-with=7`) as the gateway
 * takes it: its typed path put in the typeless form before the classifier sees it, so that what is
 * classified, authorized and forwarded is one request. The compatibility headers go on to the engine
 * (embedded or Elasticsearch), which answers in Elasticsearch 7's shape and serves
 * `include_type_name` itself; the warnings for what the gateway rewrote are the gateway's to give.
 *
 * A compatibility-mode request is Elasticsearch's: `/{index}/{type}/{id}` is then an index's
 * document (the type ignored, `_type: "_doc"`), never the app-addressed style, which answers only
 * requests without `compatible-with=7`.
 */
export interface GatewayCompatibleRequest {
  /** The typeless body's form, when the body may name types (`_type` in bulk and mget items, `type` in msearch headers). */
  body?: BodyForm;
  warnings: string[];
}

/** Undefined for a request outside the compatibility mode; throws ES's 400s (headers that disagree, a refused typed mapping call). */
export function compatibleGatewayRequest(ctx: Context): GatewayCompatibleRequest | undefined {
  const headers = ctx.req.headers;
  const accept = headers.accept ?? '';
  const contentType = headers['content-type'] ?? '';
  if (!mayBeCompatible(accept, contentType)) return undefined;
  if (restApiVersion(accept || undefined, contentType || undefined, hasBody(ctx)) !== 7) return undefined;
  // the target as the edge read it (`canonicalRequest`): its decoded segments and parameters
  const target = (ctx.state as { target?: RequestTarget }).target ?? requestTarget(ctx.path, ctx.querystring, true);
  const typeless = compatibleRequest(ctx.method, target.segments, target.params);
  if (typeless.retyped) ctx.path = pathOfSegments(typeless.segments);
  const out: GatewayCompatibleRequest = { warnings: typeless.warnings };
  // mapping bodies are the engine's to read, as it serves `include_type_name` itself; a search body
  // is never rewritten, only read for a deprecation warning the engine gives itself
  if (typeless.body && typeless.body !== 'mapping' && typeless.body !== 'index-mappings' && typeless.body !== 'search') out.body = typeless.body;
  return out;
}

/** The body in its typeless form, in place of the one read (the length follows); the warning it owes is noted. */
export function typelessGatewayBody(ctx: Context, compat: GatewayCompatibleRequest, text: string | undefined): string | undefined {
  if (!compat.body || text === undefined) return text;
  const out = typelessBody(compat.body, text);
  if (out.text === text) return text;
  if (out.warning) compat.warnings.push(out.warning);
  ctx.state.body = out.text;
  ctx.req.headers['content-length'] = String(Buffer.byteLength(out.text));
  return out.text;
}

/** The warnings for what the gateway rewrote, beside any the engine gave. */
export function answerWarnings(ctx: Context, compat: GatewayCompatibleRequest): void {
  if (compat.warnings.length) ctx.append('Warning', warningHeader(compat.warnings));
}
