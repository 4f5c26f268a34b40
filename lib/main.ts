import { ConfigError, loadConfig, type Config } from './config/index.js';
import { startGateway } from './server/index.js';
import { createLogger, type Logger } from './logging/index.js';

/**
 * The process: its log is the structured log (lib/logging) — JSON lines when stdout is not a
 * terminal, readable lines on a terminal — and every line of its own goes there too: startup, the
 * generated credential's notice, shutdown, a failed start. Only an invalid configuration, found
 * before there is a log to write to, is one plain line on stderr.
 */
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
  try {
    await run(config, logger);
  } catch (err) {
    logger.fatal(`gateway failed to start: ${(err as Error)?.message ?? err}`);
    await flushed(logger);
    process.exit(1);
  }
}

async function run(config: Config, logger: Logger): Promise<void> {
  const gateway = await startGateway(config, {
    logger,
    // a notice, whatever LOG_LEVEL says: it is the only time the password is shown
    onGeneratedAdmin: (user, password) => {
      const line = `generated admin credential (shown once, stored hashed): ${user}:${password} (keep it: it is not shown again)`;
      // LOG_LEVEL=silent writes no log at all: the only showing of the password goes to stderr then
      if (logger.level === 'silent') process.stderr.write(`${line}\n`);
      else notice(logger, { username: user }, line);
    },
  });
  // the signals are handled before the startup line says the node is up: whoever starts it may stop it at once
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    notice(logger, { signal }, `${signal}: shutting down`);
    // in-flight requests get SHUTDOWN_TIMEOUT_MS; a close step that hangs past that does not keep the process up
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 10_000).unref();
    await gateway.close({ drainMs: config.shutdownTimeoutMs });
    notice(logger, { signal }, 'gateway stopped');
    await flushed(logger);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  const engine = config.engineUrl ? `engine ${config.engineUrl.origin}` : `embedded engine in ${config.dataDir}`;
  notice(logger, { address: gateway.listening, engine }, `gateway listening on ${gateway.listening} (${engine})`);
  // the startup lines go out now, not with the next 4 KB of access lines
  await flushed(logger);

}

/** A line the operator must see: at info, or at LOG_LEVEL's own level when that is higher (never dropped but for `silent`). */
function notice(logger: Logger, fields: Record<string, unknown>, message: string): void {
  const level = logger.isLevelEnabled('info') || logger.level === 'silent' ? 'info' : (logger.level as 'warn');
  logger[level](fields, message);
}

function flushed(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

void main();
