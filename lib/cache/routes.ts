import type { Middleware } from 'koa';
import type { ChangeBus } from '../changes/index.js';
import { EsError } from '../errors/index.js';
import type { GatewayState } from '../server/state.js';
import { CACHE_CHANNEL } from './cache-interceptor.js';
import type { SearchCache } from './search-cache.js';

/**
 * The cache API (category `cache`): `GET /_cache/stats`, `POST /_cache/evict` (everything, on
 * every node), `DELETE /_cache/{index}` (that index's answers, on every node). Elasticsearch's own
 * `POST /_cache/clear` goes on to the engine.
 */
export function cacheRoutes(cache: SearchCache, bus: ChangeBus): Middleware<GatewayState> {
  // `delete`: an explicit eviction, which the other nodes apply as one (see searchCacheInterceptor)
  const tell = (id: string) => bus.publish({ kind: 'document', index: CACHE_CHANNEL, type: '_doc', id, op: 'delete', version: 0, seqNo: 0, primaryTerm: 1 });
  return async (ctx, next) => {
    const [, what, extra] = ctx.state.request.segments;
    if (what === 'clear') return next();
    if (what === undefined || extra !== undefined) throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${ctx.path}] and method [${ctx.method}]`);
    if (what === 'stats' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.body = cache.stats();
      return;
    }
    if (what === 'evict' && ctx.method === 'POST') {
      cache.clear('evict');
      await tell('_all');
      ctx.body = { acknowledged: true };
      return;
    }
    if (ctx.method === 'DELETE' && what !== 'stats' && what !== 'evict') {
      cache.evictIndex(what, 'evict');
      await tell(what);
      ctx.body = { acknowledged: true };
      return;
    }
    throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}]`);
  };
}
