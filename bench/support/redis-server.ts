/** The benchmarks start their own redis-server the same way the tests do. */
export { launchRedis as startBenchRedis, redisServerAvailable, type TestRedis as BenchRedis } from '../../spec/support/redis.js';
