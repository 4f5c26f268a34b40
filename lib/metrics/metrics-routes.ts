import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Middleware } from 'koa';
import { EsError } from '../errors/index.js';
import type { GatewayState } from '../auth/index.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/**
 * `GET /_gateway/metrics` (category `cluster`, authorized like any request before it gets here):
 * the gateway's metrics in Prometheus' text format.
 */
export function metricsRoutes(metrics: GatewayMetrics): Middleware<GatewayState> {
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}], allowed: [GET, HEAD]`, {}, { Allow: 'GET, HEAD' });
    }
    ctx.type = metrics.contentType;
    ctx.body = await metrics.text();
  };
}

/**
 * METRICS_PORT: the metrics alone, without authentication, on 127.0.0.1 — for a Prometheus (or
 * agent) on the same host. Any path answers them; only GET and HEAD are accepted.
 */
export async function serveMetrics(metrics: GatewayMetrics, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('only GET and HEAD\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(req.method === 'HEAD' ? undefined : text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
