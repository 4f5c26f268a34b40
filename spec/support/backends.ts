import { engineUrl, resetEngine, selectedEngines, type RealEngine } from '../engines/engines.js';
import { readFileSync, rmSync } from 'node:fs';
import { statCpuMs, threadCpuMs } from '../../lib/cooperative/thread-clock.js';
import { spawnEngine, startTestGateway, tempDir, type TestGateway } from './servers.js';

export interface BackendUnderTest {
  name: string;
  /** `env`: more of the gateway's configuration. */
  start(env?: Record<string, string>): Promise<{ gateway: TestGateway; stop(): Promise<void>; engineCpuMs?(): number | undefined }>;
}

/**
 * CPU time (ms, the kernel's 10 ms ticks) the main thread of process `pid` has used, or undefined
 * where the system does not tell (not Linux): the work a request cost the engine, which a busy
 * machine does not stretch as it stretches wall-clock time.
 */
function mainThreadCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/**
 * The standalone engine of this process (a spec run's process, or each of its parallel workers):
 * started by the first HTTP-backend target, emptied before each (as the real engines of
 * `npm run test:engines` are), and killed when the process exits. One engine a process instead of
 * one a target: starting one costs about a second of CPU, and a run starts the backend a few
 * hundred times. Specs that need an engine of their own (killed, restarted, configured) spawn one.
 */
let engine: Promise<URL> | undefined;
let enginePid: number | undefined;
function sharedEngine(): Promise<URL> {
  engine ??= (async () => {
    const data = await tempDir('gw-engine-');
    const child = await spawnEngine(data.dir, { ENGINE_AUTH: 'elastic:upstream-secret' });
    enginePid = child.proc.pid;
    // nothing of it keeps the process alive: it ends with the process
    for (const handle of [child.proc, child.proc.stdout, child.proc.stderr]) (handle as { unref?: () => void } | null)?.unref?.();
    process.once('exit', () => {
      child.proc.kill('SIGKILL');
      rmSync(data.dir, { recursive: true, force: true });
    });
    const url = new URL(child.url);
    url.username = 'elastic';
    url.password = 'upstream-secret';
    return url;
  })();
  return engine;
}

/**
 * Gateways on the shared engine not stopped yet, and the spec file that started each. A gateway a
 * spec left open (its `after` failed, or never ran) would go on writing (request logs, analytics,
 * a write in flight) into the engine the next spec of this worker has just emptied: it is stopped
 * before that reset, and named on stderr.
 */
const open = new Map<() => Promise<void>, string>();
async function closeLeftOpen(): Promise<void> {
  for (const [stop, by] of [...open]) {
    console.error(`      warning: a gateway on the shared standalone engine started by ${by} was left open: stopped before the next spec's reset`);
    await stop();
  }
}
function startedBy(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(2);
  return frames.find((line) => line.includes('.spec.js'))?.trim().replace(/^at\s+/, '') ?? 'a spec';
}

/**
 * The two deployments the gateway must behave the same on: the embedded engine in-process, and
 * the thin proxy path to a separate Elasticsearch-compatible server (the standalone engine, with
 * credentials required, as a secured cluster would).
 */
const DEFAULT_BACKENDS: BackendUnderTest[] = [
  {
    name: 'embedded engine',
    async start(env = {}) {
      const gateway = await startTestGateway(env);
      // the engine works on this process's main thread
      return { gateway, stop: () => gateway.close(), engineCpuMs: threadCpuMs };
    },
  },
  {
    name: 'HTTP backend (standalone engine)',
    async start(env = {}) {
      const url = await sharedEngine();
      await closeLeftOpen();
      await resetEngine(url);
      const gateway = await startTestGateway({ ENGINE_URL: url.href, ...env });
      const by = startedBy();
      const stop = async () => {
        open.delete(stop);
        await gateway.close();
      };
      open.set(stop, by);
      return { gateway, stop, engineCpuMs: () => mainThreadCpuMs(enginePid) };
    },
  },
];

/**
 * The thin proxy path to a real engine `npm run test:engines` started (spec/engines): one engine
 * serves the whole run, emptied before each target starts so every spec begins on a clean cluster.
 * STREAM_MATCHING, when the run sets it, reaches the gateway (the engine-matching pass).
 */
function realEngineBackend(engine: RealEngine): BackendUnderTest {
  const matching = process.env.STREAM_MATCHING;
  return {
    name: matching ? `${engine.label}, STREAM_MATCHING=${matching}` : engine.label,
    async start(env = {}) {
      const url = engineUrl(engine);
      await resetEngine(url);
      const gateway = await startTestGateway({ ENGINE_URL: url.href, ...(matching ? { STREAM_MATCHING: matching } : {}), ...env });
      return { gateway, stop: () => gateway.close() };
    },
  };
}

/** The default pair, or — when TEST_ENGINES names real engines — those engines instead. */
const realEngines = selectedEngines();
export const BACKENDS: BackendUnderTest[] = realEngines.length > 0 ? realEngines.map(realEngineBackend) : DEFAULT_BACKENDS;
