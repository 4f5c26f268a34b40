import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AppCredentials, Principal } from '../auth/index.js';
import { readJson, type Backend } from '../engine/index.js';
import { bodyStream } from './request-body.js';
import { targetIndices } from './target-indices.js';

/**
 * An index the admin creates with `PUT /{index}` gets its own read-write credential pair,
 * returned once in the creation response (`credentials.read_write`); deleting an index deletes
 * the credentials issued for it.
 */
export function issueIndexCredentials(backend: Backend, appCredentials: AppCredentials, maxContentLength: number): Middleware {
  const router = new Router();
  const isAdminOnIndex = (ctx: Context) => (ctx.state.principal as Principal).role === 'admin' && !!ctx.params.index && !ctx.params.index.startsWith('_') && !/[*,]/.test(ctx.params.index);

  router.put('/:index', async (ctx, next) => {
    if (!isAdminOnIndex(ctx)) return next();
    const res = await backend.request({ method: 'PUT', path: ctx.path, querystring: ctx.querystring, headers: ctx.headers, body: bodyStream(ctx, maxContentLength) });
    const answer = await readJson<Record<string, unknown>>(res);
    if (res.status === 200 && answer?.acknowledged) {
      const pair = await appCredentials.createAppPair(ctx.params.index);
      answer.credentials = { read_write: { username: pair.credential.username, password: pair.password } };
    }
    ctx.status = res.status;
    ctx.body = answer ?? {};
  });

  router.delete('/:index', async (ctx, next) => {
    if ((ctx.state.principal as Principal).role !== 'admin' || ctx.params.index.startsWith('_')) return next();
    const expr = ctx.params.index;
    const names = await targetIndices(ctx, backend, expr);
    await next();
    if (ctx.status < 300) for (const name of names) await appCredentials.deleteAll(name);
  });

  return router.routes() as unknown as Middleware;
}
