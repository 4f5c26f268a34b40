export { SearchCache, type CachedAnswer, type SearchCacheStats, type EvictionCause } from './search-cache.js';
export { searchCacheInterceptor, uncached, CACHE_CHANNEL, type CacheMessage } from './cache-interceptor.js';
export { cacheRoutes } from './routes.js';
export { PreferenceStore, PREFERENCES_INDEX, type CachePreferences } from './preferences.js';
