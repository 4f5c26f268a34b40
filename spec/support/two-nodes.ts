import type { Context } from 'mocha';
import { startRedis, type TestRedis } from './redis.js';
import { ADMIN, spawnEngine, spawnGateway, tempDir, type ChildServer } from './servers.js';

/** Two gateway processes sharing one standalone engine and one Redis: the distributed setup. */
export interface TwoNodes {
  a: ChildServer;
  b: ChildServer;
  engine: ChildServer;
  redis: TestRedis;
  stop(): Promise<void>;
}

/** Starts the engine, Redis and two gateways (call from a mocha `before`, whose context Redis needs). */
export async function startTwoNodes(context: Context, prefix: string, more: Record<string, string> = {}): Promise<TwoNodes> {
  const redis = await startRedis(context);
  const data = await tempDir(prefix);
  const engine = await spawnEngine(data.dir);
  const env = { ENGINE_URL: engine.url, REDIS_URL: redis.url, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password, ...more };
  const [a, b] = await Promise.all([spawnGateway(env), spawnGateway(env)]);
  return {
    a,
    b,
    engine,
    redis,
    async stop() {
      await Promise.all([a.stop(), b.stop()]);
      await engine.stop();
      await redis.stop();
      await data.remove();
    },
  };
}
