import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { errorBody, errors, type EsError } from '../../errors/index.js';
import type { Backend } from '../backend.js';
import { guardConnections, serverOptions, type ConnectionLimits } from '../../connections/index.js';
import { CircuitBreakers, type BreakerLimits } from '../../breakers/index.js';

export interface EngineHttpServerOptions {
  /** "user:password" required as HTTP Basic, as a secured cluster would; absent = open. */
  auth?: string;
  maxContentLength: number;
  /** Connection caps and read timeouts, as the gateway has them (lib/connections); absent = Node's defaults. */
  http?: ConnectionLimits;
  /** Circuit breakers request bodies are counted against (network.breaker.inflight_requests); absent = none. */
  breakers?: BreakerLimits;
  /** Where the guard's lines go (a cut slow body, refused connections). */
  log?: (line: string) => void;
}

const REALM = 'security';

function sendError(res: http.ServerResponse, err: EsError, head: boolean): void {
  const body = Buffer.from(JSON.stringify(errorBody(err)));
  res.writeHead(err.status, {
    'x-elastic-product': 'Elasticsearch',
    'content-type': 'application/json',
    'content-length': head ? 0 : body.length,
    ...err.headers,
  });
  res.end(head ? undefined : body);
}

function authorized(header: string | undefined, expected: string): boolean | 'missing' {
  if (!header) return 'missing';
  const m = /^Basic\s+(.+)$/i.exec(header.trim());
  if (!m) return 'missing';
  const given = Buffer.from(Buffer.from(m[1], 'base64').toString('utf8'));
  const want = Buffer.from(expected);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * Serves a Backend (the embedded engine) over HTTP as an Elasticsearch node would: bodies
 * streamed in with http.max_content_length enforced, optional Basic authentication,
 * `X-Elastic-Product: Elasticsearch` on every response.
 */
export function createEngineHttpServer(engine: Backend, opts: EngineHttpServerOptions): http.Server {
  const breakers = opts.breakers && new CircuitBreakers(opts.breakers);
  const server = http.createServer(opts.http ? serverOptions(opts.http) : {}, async (req, res) => {
    const head = req.method === 'HEAD';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    try {
      if (opts.auth !== undefined) {
        const ok = authorized(req.headers.authorization, opts.auth);
        if (ok !== true) {
          const user = ok === 'missing' ? undefined : Buffer.from(/^Basic\s+(.+)$/i.exec(req.headers.authorization!)![1], 'base64').toString('utf8').split(':')[0];
          req.resume();
          sendError(res, errors.unauthenticated(
            ok === 'missing' ? `missing authentication credentials for REST request [${url}]` : `unable to authenticate user [${user}] for REST request [${url}]`,
            REALM,
          ), head);
          return;
        }
      }
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > opts.maxContentLength) {
        sendError(res, errors.contentTooLong(opts.maxContentLength), head);
        req.resume();
        res.once('finish', () => req.destroy());
        return;
      }
      const answer = await engine.request({
        method: req.method ?? 'GET',
        path,
        querystring: q < 0 ? '' : url.slice(q + 1),
        headers: req.headers,
        body: breakers && (declared > 0 || req.headers['transfer-encoding'] !== undefined) ? breakers.countedBody(req, (release) => res.once('close', release)) : req,
      });
      if (!req.complete) {
        req.resume();
      }
      const body = Buffer.isBuffer(answer.body) ? answer.body : undefined;
      res.writeHead(answer.status, { ...answer.headers, 'x-elastic-product': 'Elasticsearch', ...(body ? { 'content-length': head ? 0 : body.length } : {}) });
      if (body) res.end(head ? undefined : body);
      else if (!Buffer.isBuffer(answer.body)) {
        const stream = answer.body;
        stream.once('error', () => res.destroy());
        res.once('close', () => stream.destroy());
        stream.pipe(res);
      }
    } catch (err) {
      if (!res.headersSent) sendError(res, errors.badGateway(`engine failure: ${(err as Error).message}`), head);
      else res.destroy();
    }
  });
  if (opts.http) {
    const guard = guardConnections(server, opts.http, { log: opts.log ?? (() => {}) });
    server.once('close', () => guard.close());
  }
  return server;
}
