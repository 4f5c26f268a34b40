import { spawnEngine, startTestGateway, tempDir, type ChildServer, type TestGateway } from './servers.js';

export interface BackendUnderTest {
  name: string;
  /** `env`: more of the gateway's configuration. */
  start(env?: Record<string, string>): Promise<{ gateway: TestGateway; stop(): Promise<void> }>;
}

/**
 * The two deployments the gateway must behave the same on: the embedded engine in-process, and
 * the thin proxy path to a separate Elasticsearch-compatible server (the standalone engine, with
 * credentials required, as a secured cluster would).
 */
export const BACKENDS: BackendUnderTest[] = [
  {
    name: 'embedded engine',
    async start(env = {}) {
      const gateway = await startTestGateway(env);
      return { gateway, stop: () => gateway.close() };
    },
  },
  {
    name: 'HTTP backend (standalone engine)',
    async start(env = {}) {
      const data = await tempDir('gw-engine-');
      const engine: ChildServer = await spawnEngine(data.dir, { ENGINE_AUTH: 'elastic:upstream-secret' });
      const url = new URL(engine.url);
      url.username = 'elastic';
      url.password = 'upstream-secret';
      const gateway = await startTestGateway({ ENGINE_URL: url.href, ...env });
      return {
        gateway,
        async stop() {
          await gateway.close();
          await engine.stop();
          await data.remove();
        },
      };
    },
  },
];
