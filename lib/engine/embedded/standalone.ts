/**
 * `npm run engine`: the embedded engine served standalone over HTTP, as an Elasticsearch node.
 * Prints exactly one line, `engine listening on http://HOST:PORT`, once it accepts connections.
 */
import type { AddressInfo } from 'node:net';
import { loadEngineServerConfig } from '../../config/index.js';
import { openEmbeddedEngine } from './engine.js';
import { createEngineHttpServer } from './http-server.js';
import { listenWithin } from '../../connections/index.js';

async function main(): Promise<void> {
  const config = loadEngineServerConfig();
  const engine = await openEmbeddedEngine({ dataDir: config.dataDir, configDir: config.configDir, maxContentLength: config.maxContentLength, pointInTimeBytes: config.pointInTimeBytes, apiDialect: config.apiDialect });
  const server = createEngineHttpServer(engine, {
    auth: config.auth,
    maxContentLength: config.maxContentLength,
    http: config.http,
    breakers: config.breakers,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  await listenWithin(server, config.http, config.port, config.host);
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`engine listening on http://${config.host}:${port}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 5_000);
    await closed;
    clearTimeout(force);
    await engine.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error(`engine failed to start: ${(err as Error).message}`);
  process.exit(1);
});
