import { ConfigError, loadConfig, type Config } from './config/index.js';
import { startGateway } from './server/index.js';
import { createLogger } from './logging/index.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`invalid configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel });
  const gateway = await startGateway(config, {
    logger,
    onGeneratedAdmin: (user, password) =>
      console.log(`generated admin credential (shown once, stored hashed): ${user}:${password}`),
  });
  const engine = config.engineUrl ? `engine ${config.engineUrl.origin}` : `embedded engine in ${config.dataDir}`;
  console.log(`gateway listening on ${gateway.url} (${engine})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: shutting down`);
    // in-flight requests get SHUTDOWN_TIMEOUT_MS; a close step that hangs past that does not keep the process up
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 10_000).unref();
    await gateway.close({ drainMs: config.shutdownTimeoutMs });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(`gateway failed to start: ${(err as Error)?.message ?? err}`);
  process.exit(1);
});
