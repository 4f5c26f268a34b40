export { SearchCache, type CachedAnswer, type SearchCacheStats, type EvictionCause } from './search-cache.js';
export { searchCacheInterceptor, CACHE_CHANNEL } from './cache-interceptor.js';
export { cacheRoutes } from './routes.js';
