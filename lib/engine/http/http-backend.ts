import { Pool, errors as undiciErrors } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { EsError, errors } from '../../errors/index.js';
import { encodedPieces } from '../../cooperative/index.js';
import { forwardedPieces, type Backend, type EngineRequest, type EngineResponse, type HeaderMap } from '../backend.js';
import { EngineAnswer, type EngineAnswerHead } from './engine-answer.js';
import { COMPATIBLE_JSON_8, isPlainJson, plainMediaType } from './plain-media-types.js';

/** Headers that describe one hop, never forwarded (RFC 9110 §7.6.1), plus the client's own credentials. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection',
  'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'authorization', 'expect',
]);

/**
 * Headers the engine's own security acts on: a client's would speak for it there (run as another
 * user, a second credential, a session). The gateway decides who a request is; never forwarded.
 */
const ENGINE_SECURITY = new Set(['es-security-runas-user', 'es-secondary-authorization', 'es-client-authentication', 'cookie']);

export interface HttpBackendOptions {
  /** Time to wait for the upstream's response headers, and between body chunks. */
  timeoutMs: number;
  connections?: number;
}

/**
 * The thin proxy path: an undici keep-alive pool to ENGINE_URL. Bodies are streamed both ways;
 * status, headers and query strings pass through; upstream credentials come from the URL's
 * userinfo and replace whatever the client authenticated to the gateway with.
 */
export class HttpBackend implements Backend {
  readonly kind = 'http' as const;
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly authorization?: string;

  constructor(url: URL, private readonly options: HttpBackendOptions) {
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 64,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: Math.min(options.timeoutMs, 10_000),
    });
    this.prefix = url.pathname.replace(/\/+$/, '');
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const pass = decodeURIComponent(url.password);
      this.authorization = 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64');
    }
  }

  async request(req: EngineRequest): Promise<EngineResponse> {
    const headers = forwardable(req.headers);
    if (this.authorization) headers.authorization = this.authorization;
    const plainAccept = plainMediaType(headers.accept);
    if (plainAccept) headers.accept = plainAccept;
    const plainContent = plainMediaType(headers['content-type']);
    if (plainContent) headers['content-type'] = plainContent;
    const path = this.prefix + req.path + (req.querystring ? `?${req.querystring}` : '');
    try {
      // a body written anew in pieces goes as them, encoded one at a time (sent chunked)
      const pieces = forwardedPieces(req);
      const body = pieces ? encodedPieces(pieces) : req.body ?? null;
      // a small answer comes back whole (a Buffer), a large or chunked one as a stream (EngineAnswer)
      const res = await new Promise<EngineAnswerHead>((resolve, reject) => {
        this.pool.dispatch({ method: req.method as 'GET', path, headers, body }, new EngineAnswer(req.method, body, resolve, reject, req.signal));
      });
      const answered = responseHeaders(res.headers);
      if (plainAccept && isPlainJson(answered['content-type'])) answered['content-type'] = COMPATIBLE_JSON_8;
      return { status: res.statusCode, headers: answered, body: res.body };
    } catch (err) {
      throw upstreamError(err, this.options.timeoutMs);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

// both copies walk the headers with `for…in` (no array of entries per request: they run for every proxied call)
function forwardable(headers: HeaderMap | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!headers) return out;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    // a browser's Origin is the gateway's to answer (CORS): an engine with CORS of its own would refuse it
    if (HOP_BY_HOP.has(lower) || ENGINE_SECURITY.has(lower) || lower === 'origin') continue;
    out[lower] = value;
  }
  return out;
}

function responseHeaders(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function upstreamError(err: unknown, timeoutMs: number): EsError {
  if (err instanceof EsError) return err; // e.g. the request body went over the size limit
  if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
    return errors.gatewayTimeout(`the engine did not answer within ${timeoutMs} ms`);
  }
  if (err instanceof undiciErrors.ConnectTimeoutError) {
    return errors.gatewayTimeout(`connecting to the engine timed out`);
  }
  if (err instanceof undiciErrors.RequestAbortedError) {
    return errors.badGateway('the request to the engine was aborted');
  }
  const code = (err as { code?: string }).code ?? '';
  const message = (err as Error).message ?? String(err);
  return errors.badGateway(`the engine is unreachable: ${code ? code + ' ' : ''}${message}`);
}
