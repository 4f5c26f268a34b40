import type { Middleware } from 'koa';
import type { Principal } from '../auth/index.js';
import type { ChangeBus } from '../changes/index.js';
import { EsError } from '../errors/index.js';
import { readJsonBody } from '../request/index.js';
import type { GatewayState } from '../auth/index.js';
import { CACHE_CHANNEL, type CacheMessage } from './cache-interceptor.js';
import { checkPreferences, type PreferenceStore } from './preferences.js';
import type { SearchCache } from './search-cache.js';

/** A preferences document is a few fields: anything larger is not one. */
const MAX_PREFERENCES_BYTES = 64 * 1024;

/**
 * The cache API (category `cache`): `GET /_cache/stats`, `GET|POST /_cache/preferences`,
 * `POST /_cache/evict` (everything, on every node), `DELETE /_cache/{index}` (that index's answers,
 * on every node). What acts on every tenant's answers (the preferences, evicting everything) is the
 * admin's. Elasticsearch's own `POST /_cache/clear` goes on to the engine.
 */
export function cacheRoutes(cache: SearchCache, bus: ChangeBus, preferences: PreferenceStore): Middleware<GatewayState> {
  const tell = (id: string, message: CacheMessage) => bus.publish({ kind: 'document', index: CACHE_CHANNEL, type: '_doc', id, op: message, version: 0, seqNo: 0, primaryTerm: 1 });
  const adminOnly = (principal: Principal, what: string) => {
    if (principal.role !== 'admin') throw new EsError(403, 'security_exception', `action [cluster:admin/gateway/cache/${what}] is unauthorized for user [${principal.username}]: it acts on every index`);
  };
  return async (ctx, next) => {
    const [, what, extra] = ctx.state.request.segments;
    if (what === 'clear') return next();
    if (what === undefined || extra !== undefined) throw new EsError(400, 'illegal_argument_exception', `no handler found for uri [${ctx.path}] and method [${ctx.method}]`);
    const read = ctx.method === 'GET' || ctx.method === 'HEAD';
    if (what === 'stats' && read) {
      ctx.body = cache.stats();
      return;
    }
    if (what === 'preferences' && (read || ctx.method === 'POST' || ctx.method === 'PUT')) {
      if (read) {
        ctx.body = preferences.current();
        return;
      }
      adminOnly(ctx.state.principal, 'preferences');
      const body = await readJsonBody(ctx, MAX_PREFERENCES_BYTES);
      checkPreferences(body);
      ctx.body = await preferences.update(body);
      return;
    }
    if (what === 'evict' && ctx.method === 'POST') {
      adminOnly(ctx.state.principal, 'evict');
      cache.clear('evict');
      await tell('_all', 'delete');
      ctx.body = { acknowledged: true };
      return;
    }
    if (ctx.method === 'DELETE' && what !== 'stats' && what !== 'evict' && what !== 'preferences') {
      cache.evictIndex(what, 'evict');
      await tell(what, 'delete');
      ctx.body = { acknowledged: true };
      return;
    }
    throw new EsError(405, 'method_not_allowed', `Incorrect HTTP method for uri [${ctx.path}] and method [${ctx.method}]`);
  };
}
