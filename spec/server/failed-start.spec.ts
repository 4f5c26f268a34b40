import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startTestGateway } from '../support/servers.js';
import { within } from '../support/within.js';

/**
 * A gateway that cannot start (its port is taken) closes everything it had opened: one teardown,
 * the same as a shutdown's. Seen from Redis: no connection of the gateway's is left behind (the
 * change bus's and the rate limiter's).
 */
describe('a failed start closes what it opened', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let watcher: Redis;
  let taken: http.Server;

  before(async function () {
    redis = await startRedis(this);
    watcher = new Redis(redis.url);
    taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    watcher?.disconnect();
    await new Promise<void>((resolve) => taken?.close(() => resolve()));
    await redis?.stop();
  });

  const clients = async () => (await watcher.client('LIST') as string).trim().split('\n').length;

  it('leaves no Redis connection open when the port is taken', async () => {
    const before = await clients(); // the watcher alone
    const port = (taken.address() as AddressInfo).port;
    const started = startTestGateway({ REDIS_URL: redis.url, PORT: String(port) });
    const err = await started.then(() => undefined, (e: unknown) => e);
    expect(err, 'the gateway started on a taken port').to.be.instanceOf(Error);
    expect(String((err as NodeJS.ErrnoException).code ?? (err as Error).message)).to.match(/EADDRINUSE/);
    await within(10_000, async () => (await clients()) === before, () => `Redis still has ${before} + the gateway's connections`);
  });
});
