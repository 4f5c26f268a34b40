import type { Middleware } from 'koa';
import type { AppCredentials, Principal } from '../auth/index.js';
import { readJson, type InterceptedBackend } from '../engine/index.js';
import { bodyStream } from '../request/index.js';
import type { GatewayState } from './state.js';

/**
 * An index the admin creates with `PUT /{index}` gets its own read-write credential pair,
 * returned once in the creation response (`credentials.read_write`). (Deleting an index deletes
 * the credentials issued for it: an index-change clean-up, see lib/server/gateway.ts.)
 */
export function issueIndexCredentials(backend: InterceptedBackend, appCredentials: AppCredentials, maxContentLength: number): Middleware<GatewayState> {
  // dispatched on the route `indices.create` (`PUT /{index}`, a name: the server's `namesAnIndex` leaves `_all` out)
  return async (ctx, next) => {
    const { index } = ctx.state.gatewayRequest.pathParams;
    if ((ctx.state.principal as Principal).role !== 'admin' || index === undefined || /[*,]/.test(index)) return next();
    const res = await backend.request({ method: 'PUT', path: ctx.path, querystring: ctx.querystring, headers: ctx.headers, body: bodyStream(ctx, maxContentLength) });
    const answer = await readJson<Record<string, unknown>>(res);
    if (res.status === 200 && answer?.acknowledged) {
      const pair = await appCredentials.createAppPair(index);
      answer.credentials = { read_write: { username: pair.credential.username, password: pair.password } };
    }
    ctx.status = res.status;
    ctx.body = answer ?? {};
  };
}
