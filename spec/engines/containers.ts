import { GenericContainer, getContainerRuntimeClient, Wait } from 'testcontainers';
import type { RealEngine } from './engines.js';

const HTTP_PORT = 9200;

/** Whether testcontainers finds a working Docker (or compatible) runtime; the reason when it does not. */
export async function containerRuntime(): Promise<{ available: true } | { available: false; reason: string }> {
  try {
    await getContainerRuntimeClient();
    return { available: true };
  } catch (err) {
    return { available: false, reason: (err as Error).message };
  }
}

export interface StartedEngine {
  /** With userinfo when the engine runs with security on. */
  url: URL;
  stop(): Promise<void>;
}

/** Starts the engine's container and resolves once the cluster answers healthy (yellow or better). */
export async function startEngineContainer(engine: RealEngine): Promise<StartedEngine> {
  const ready = Wait.forHttp('/_cluster/health?wait_for_status=yellow&timeout=1s', HTTP_PORT).forStatusCode(200);
  if (engine.credentials) ready.withBasicCredentials(engine.credentials.username, engine.credentials.password);
  const container = await new GenericContainer(engine.image)
    .withEnvironment(engine.environment)
    .withExposedPorts(HTTP_PORT)
    .withWaitStrategy(ready)
    .withStartupTimeout(240_000)
    .start();
  const url = new URL(`http://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}`);
  if (engine.credentials) {
    url.username = engine.credentials.username;
    url.password = engine.credentials.password;
  }
  return {
    url,
    async stop() {
      await container.stop();
    },
  };
}
