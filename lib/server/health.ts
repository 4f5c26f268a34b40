import type { Middleware } from 'koa';
import { EsError } from '../errors/index.js';
import type { Readiness } from './readiness.js';

/** Liveness: the process answers. */
export const HEALTH_PATH = '/_gateway/health';
/** Readiness: the engine, Redis (when configured) and the system indices answer. */
export const READY_PATH = '/_gateway/ready';

/**
 * The probes of load balancers and orchestrators, answered before authentication (they carry no
 * credentials): `GET`/`HEAD` on the two exact paths only; anything else goes on. While the node
 * shuts down, every other request is refused with 503 and `Connection: close`, so a client on a
 * kept-alive connection retries elsewhere; requests already in flight finish.
 */
export function health(readiness: Readiness): Middleware {
  const probe: Middleware = async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path === HEALTH_PATH) {
      ctx.body = { status: 'ok' };
      return;
    }
    const report = await readiness.check();
    ctx.status = report.status === 'ready' ? 200 : 503;
    ctx.body = report;
  };
  // any other request goes on without a promise of this step's own
  return (ctx, next) => {
    const path = ctx.path;
    if ((path === HEALTH_PATH || path === READY_PATH) && (ctx.method === 'GET' || ctx.method === 'HEAD')) return probe(ctx, next);
    if (readiness.shuttingDown) throw shuttingDown();
    return next();
  };
}

function shuttingDown(): EsError {
  return new EsError(503, 'node_closed_exception', 'the gateway is shutting down; send the request to another node', {}, { Connection: 'close' });
}
